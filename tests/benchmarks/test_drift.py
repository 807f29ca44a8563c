import numpy as np
import pytest

from benchmarks.drift import BOX_DRAWINGS, DRIFTS


@pytest.fixture(scope="module")
def photo():
    rng = np.random.default_rng(3)
    return rng.integers(20, 230, (120, 160, 3), dtype=np.uint8)


@pytest.mark.parametrize("name", DRIFTS)
def test_every_drift_is_a_repeatable_colour_photo_and_leaves_its_input_alone(photo, name):
    before = photo.copy()
    once, again = DRIFTS[name](photo), DRIFTS[name](photo)
    assert once.dtype == np.uint8 and once.ndim == 3 and once.shape[2] == 3
    assert np.array_equal(once, again)  # the benchmark counts the same pictures every run
    assert np.array_equal(photo, before)
    assert once.shape != photo.shape or not np.array_equal(once, photo)  # it does change something


def test_light_and_height_drifts_do_what_they_say(photo):
    assert DRIFTS["light ×0.7"](photo).mean() == pytest.approx(0.7 * photo.mean(), rel=0.02)
    assert DRIFTS["camera 30 % lower"](photo).shape[:2] == (156, 208)  # ×1.3: cubes look bigger
    assert DRIFTS["camera 30 % higher"](photo).shape[:2] == (92, 123)
    warm = DRIFTS["warmer light"](photo).astype(float).mean(axis=(0, 1))
    assert warm[2] > photo[..., 2].mean() and warm[0] < photo[..., 0].mean()  # more red, less blue


@pytest.mark.parametrize("name", BOX_DRAWINGS)
def test_every_box_drawing_is_the_same_cube_drawn_otherwise(name):
    box = (100, 200, 60, 80)
    x, y, w, h = BOX_DRAWINGS[name](box)
    assert w > 0 and h > 0
    assert w / h == pytest.approx(60 / 80, rel=0.05)  # the same shape, scaled
    centre_shift = (x + w / 2 - 130) / 60, (y + h / 2 - 240) / 80
    assert max(abs(v) for v in centre_shift) <= 0.151  # never off the cube by more than 15 %


def test_box_drawings_do_what_they_say():
    assert BOX_DRAWINGS["boxes ×2.0 (loose)"]((100, 200, 60, 80)) == (70, 160, 120, 160)
    assert BOX_DRAWINGS["boxes 10 % right"]((100, 200, 60, 80)) == (106, 200, 60, 80)
