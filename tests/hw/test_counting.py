"""CountSession's own logic (settle loop, fresh frame, timeout, cancel) with stand-in vision parts.

The same path with the real vision package runs in test_tower_synthetic.py.
"""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from companion.hw.camera import Camera
from companion.hw.counting import CountSession
from companion.hw.errors import CameraUnavailableError, CountCancelledError, CountTimeoutError

from .conftest import FakeClock


class ScriptedCamera(Camera):
    """Returns frames whose pixel value is the scripted number; the clock ticks per frame."""

    name = "scripted"

    def __init__(self, values, clock: FakeClock, frame_seconds=0.1, on_capture=None):
        self.values = values  # a sequence; the last value repeats
        self.clock = clock
        self.frame_seconds = frame_seconds
        self.on_capture = on_capture
        self.captured = 0

    def capture(self):
        self.captured += 1
        self.clock.advance(self.frame_seconds)
        if self.on_capture:
            self.on_capture(self.captured)
        value = self.values[min(self.captured - 1, len(self.values) - 1)]
        if value is None:
            raise CameraUnavailableError()
        return np.full((4, 4, 3), value % 256, np.uint8)


class StillTwice:
    """Settled once two consecutive frames are identical."""

    def __init__(self):
        self.previous = None

    def feed(self, frame):
        settled = self.previous is not None and np.array_equal(frame, self.previous)
        self.previous = frame
        return settled


def counter(image, calibration, empty=None):
    return SimpleNamespace(counts={"red": int(image[0, 0, 0])}, cubes=[], unknown=0, ms=0.5)


def annotator(image, result):
    return 255 - image


def session(camera, clock):
    return CountSession(camera, calibration="cal", detector_factory=StillTwice,
                        counter=counter, annotator=annotator, clock=clock)


def test_counts_a_fresh_frame_taken_after_the_tray_settled(clock):
    camera = ScriptedCamera([1, 2, 3, 3, 4], clock)
    outcome = session(camera, clock).run(timeout=10)
    assert outcome.frames_to_settle == 4
    assert outcome.counts == {"red": 4}  # the frame after the settled pair, not the pair itself
    assert np.array_equal(outcome.annotated, 255 - outcome.image)


def test_outcome_carries_jpegs_and_vision_fields(clock):
    outcome = session(ScriptedCamera([7, 7, 7], clock), clock).run(timeout=10)
    photo = cv2.imdecode(np.frombuffer(outcome.image_jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert photo.shape == (4, 4, 3)
    assert outcome.annotated_jpeg[:2] == b"\xff\xd8"
    assert (outcome.unknown, outcome.ms, outcome.detections) == (0, 0.5, [])


def test_a_tray_that_never_settles_times_out_with_a_clear_message(clock):
    camera = ScriptedCamera(range(1000), clock, frame_seconds=0.5)
    with pytest.raises(CountTimeoutError, match="did not stop moving within 5 seconds"):
        session(camera, clock).run(timeout=5)
    assert 9 <= camera.captured <= 12  # it gave up at the deadline, not later


def test_cancel_during_settling(clock):
    holder = {}
    camera = ScriptedCamera(range(1000), clock,
                            on_capture=lambda n: n == 3 and holder["s"].cancel())
    holder["s"] = s = session(camera, clock)
    with pytest.raises(CountCancelledError, match="cancelled"):
        s.run(timeout=60)
    assert camera.captured == 3 and s.cancelled


def test_cancel_before_start(clock):
    s = session(ScriptedCamera([1], clock), clock)
    s.cancel()
    with pytest.raises(CountCancelledError):
        s.run()


def test_camera_failing_while_settling(clock):
    with pytest.raises(CameraUnavailableError, match="enter the counts by hand"):
        session(ScriptedCamera([1, 2, None], clock), clock).run(timeout=10)


def test_timeout_must_be_positive(clock):
    with pytest.raises(CountTimeoutError, match="more than zero"):
        session(ScriptedCamera([1], clock), clock).run(timeout=0)
