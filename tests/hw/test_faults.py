"""Frames that are not pictures of the tray: refused as CameraPictureError (a camera fault),
never counted as an empty tray."""

from __future__ import annotations

import re

import numpy as np
import pytest

from companion.hw.counting import CountSession
from companion.hw.errors import CameraPictureError, CameraUnavailableError
from companion.hw.frames import check_frame, check_picture

from .test_counting import ScriptedCamera, StillTwice, annotator, counter


@pytest.mark.parametrize("frame, words", [
    (None, "empty picture"),
    (np.empty((0, 0, 3), np.uint8), "empty picture"),
    (np.zeros((48, 64), np.uint8), "((48, 64), uint8)"),
    (np.zeros((48, 64, 4), np.uint8), "((48, 64, 4), uint8)"),
    (np.zeros((48, 64, 3), np.float32), "float32"),
])
def test_a_frame_that_is_no_colour_image_is_a_camera_fault(frame, words) -> None:
    with pytest.raises(CameraPictureError, match=re.escape(words)) as caught:
        check_frame(frame)
    assert isinstance(caught.value, CameraUnavailableError) and "by hand" in str(caught.value)


@pytest.mark.parametrize("frame, words", [
    (np.zeros((48, 64, 3), np.uint8), "black"),
    (np.full((48, 64, 3), 20, np.uint8), "black"),
    (np.full((48, 64, 3), 180, np.uint8), "one flat colour"),
])
def test_a_black_or_blank_picture_is_a_camera_fault(frame, words) -> None:
    check_frame(frame)  # the shape is fine…
    with pytest.raises(CameraPictureError, match=words):
        check_picture(frame)  # …but there is nothing to count


def test_a_dim_but_real_picture_passes() -> None:
    rng = np.random.default_rng(1)
    frame = rng.integers(0, 60, (48, 64, 3), dtype=np.uint8)
    assert check_picture(frame) is frame


class GarbageCamera(ScriptedCamera):
    def __init__(self, clock, frame):
        super().__init__((1,), clock)
        self.frame = frame

    def capture(self):
        super().capture()
        return self.frame


def test_the_count_session_refuses_a_garbage_frame_before_the_vision_sees_it(clock) -> None:
    seen = []

    def feeding_detector():
        detector = StillTwice()
        original = detector.feed

        def feed(frame):
            seen.append(frame.shape)
            return original(frame)

        detector.feed = feed
        return detector

    camera = GarbageCamera(clock, np.zeros((10, 10), np.uint8))
    session = CountSession(camera, "cal", detector_factory=feeding_detector, counter=counter,
                           annotator=annotator, clock=clock)
    with pytest.raises(CameraPictureError):
        session.run(timeout=5)
    assert seen == []
