import numpy as np

from companion.vision import light
from companion.vision.synthetic import RenderConditions, render_empty_tray, render_tray


def _tray_level(normalised: np.ndarray) -> np.ndarray:
    return np.median(normalised.reshape(-1, 3), axis=0)


def test_the_empty_tray_becomes_level_grey_under_any_light():
    for cond in (RenderConditions(), RenderConditions(light=0.6, white_balance=(1.2, 1.0, 0.8),
                                                      light_gradient=0.4)):
        frame = render_tray({"red": 5, "black": 5}, seed=1, conditions=cond).image
        empty = render_empty_tray(seed=1, conditions=cond).image
        for normalised in (light.corrected(frame, empty), light.corrected(frame)):
            assert np.all(np.abs(_tray_level(normalised) - light.LEVEL) <= 3)


def test_an_empty_photo_under_other_light_is_relit_to_the_frame():
    frame = render_tray({"blue": 6}, seed=2, conditions=RenderConditions(light=1.1)).image
    dim = render_empty_tray(seed=2, conditions=RenderConditions(light=0.6, white_balance=(0.8, 1.0, 1.2))).image
    normalised = light.corrected(frame, dim)
    spread = np.percentile(np.abs(normalised.astype(int) - light.LEVEL).max(axis=2), 90)
    assert spread <= 6  # not 128·(1.1/0.6 − 1) ≈ 100 off, as plain division would leave it


def test_shrink_halves_and_keeps_colour():
    image = np.full((96, 128, 3), (10, 20, 30), np.uint8)
    small = light.shrink(image, 2)
    assert small.shape == (48, 64, 3) and np.all(small == (10, 20, 30))
    assert light.shrink(image, 3).shape == (32, 42, 3)
