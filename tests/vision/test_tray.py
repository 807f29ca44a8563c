import cv2
import numpy as np

from companion.vision.classify import code_of
from companion.vision.samples import sample_reference
from companion.vision.tray import tray_references


def _pixels(bgr: tuple[int, int, int], n: int, rng: np.random.Generator) -> np.ndarray:
    return np.clip(rng.normal(bgr, 3.0, (n, 3)), 0, 255).astype(np.uint8)


def _lab(bgr: tuple[int, int, int]) -> np.ndarray:
    return cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2Lab).reshape(3).astype(float)


def test_unboxed_cubes_brighter_than_the_boxed_one_are_no_tray_look():
    """dobot-blocks-wood with tight boxes: the boxed yellow block's lit face was learned, the
    other yellow blocks of the photo are deeper yellow, beyond the sample — and became a tray
    look, so every yellow block after vanished into the desk. A minor look of a sampled colour's
    hue and about its chroma is unboxed cubes; the desk and its darker grain stay tray."""
    rng = np.random.default_rng(3)
    desk, grain, deep_yellow = (70, 110, 170), (50, 85, 135), (30, 200, 240)
    pixels = np.concatenate([_pixels(desk, 9000, rng), _pixels(grain, 700, rng), _pixels(deep_yellow, 400, rng)])
    boxed = sample_reference(code_of("yellow"), _pixels((150, 225, 240), 500, rng))
    looks = tray_references(pixels, [boxed])
    nearest = lambda bgr: min(np.linalg.norm(np.subtract(look.lab, _lab(bgr))) for look in looks)
    assert nearest(desk) < 6 and nearest(grain) < 6
    assert nearest(deep_yellow) > 30


def test_unboxed_cubes_paler_than_the_boxed_one_are_no_tray_look_either():
    """The other way round (dobot calibrated on its 153005 photo with the true boxes): the
    boxed yellow block's deep side was learned, the lit faces of the others are paler — half
    its chroma — and became a desk look (the 0.75 of the boxed chroma asked before kept it)."""
    rng = np.random.default_rng(4)
    desk, pale_yellow = (70, 110, 170), (150, 225, 240)
    pixels = np.concatenate([_pixels(desk, 9000, rng), _pixels(pale_yellow, 400, rng)])
    boxed = sample_reference(code_of("yellow"), _pixels((20, 190, 230), 500, rng))
    looks = tray_references(pixels, [boxed])
    nearest = lambda bgr: min(np.linalg.norm(np.subtract(look.lab, _lab(bgr))) for look in looks)
    assert nearest(desk) < 6
    assert nearest(pale_yellow) > 30
