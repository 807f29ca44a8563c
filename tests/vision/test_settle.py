import numpy as np
import pytest

from companion.vision.settle import SettleDetector
from companion.vision.synthetic import RenderConditions, render_settling_sequence


@pytest.fixture(scope="module")
def sequence():
    cond = RenderConditions(noise=3.0, light_gradient=0.3)
    return render_settling_sequence({"red": 4, "black": 3, "green": 2}, seed=21, conditions=cond,
                                    moving=6, still=4)


def test_not_settled_while_cubes_move_and_settled_after_still_frames(sequence):
    detector = SettleDetector(still_frames=3)
    answers = [detector.feed(f.image) for f in sequence]
    assert answers[:7] == [False] * 7  # 6 moving frames, then the first still one
    assert answers[-1] is True
    assert detector.settled


def test_one_moving_frame_restarts_the_wait(sequence):
    detector = SettleDetector(still_frames=2)
    still = [f.image for f in sequence if not f.moving]
    assert not detector.feed(still[0]) and not detector.feed(still[1])
    assert detector.feed(still[2])
    assert not detector.feed(sequence[0].image)  # something moved again
    assert not detector.settled


def test_a_global_brightness_step_is_not_movement(sequence):
    detector = SettleDetector(still_frames=1)
    still = sequence[-1].image
    detector.feed(still)
    brighter = np.clip(still.astype(int) + 6, 0, 255).astype(np.uint8)
    assert detector.feed(brighter)


def test_reset_forgets_everything(sequence):
    detector = SettleDetector(still_frames=1)
    detector.feed(sequence[-2].image)
    assert detector.feed(sequence[-1].image)
    detector.reset()
    assert not detector.settled and detector.last_change is None
    assert not detector.feed(sequence[-1].image)


def test_a_frame_of_another_size_starts_again(sequence):
    detector = SettleDetector(still_frames=1)
    detector.feed(sequence[-1].image)
    assert not detector.feed(sequence[-1].image[:480, :640])


@pytest.mark.parametrize("kwargs", [{"threshold": 0}, {"still_frames": 0}, {"max_changed": -1}])
def test_bad_settings(kwargs):
    with pytest.raises(ValueError):
        SettleDetector(**kwargs)
