import numpy as np
import pytest

from benchmarks.drift import DRIFTS


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
