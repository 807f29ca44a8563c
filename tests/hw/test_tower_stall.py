"""A stalled Pi camera (loose ribbon, brown-out) against the tower, through the real Picamera2
backend and a fake Picamera2 that blocks as the real one does: the count answers "camera
unavailable" within the frame timeout, no lock stays held, and the next count reopens it."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from companion.hw.cameras.picam import Picamera2Camera
from companion.hw.counting import CountSession
from companion.hw.errors import CameraTimeoutError
from companion.hw.tower import Tower
from tests.hw import fake_picamera2

from .conftest import WAIT
from .test_counting import annotator, counter

TIMEOUT = 0.3  # seconds per frame wait; small so the test is quick


class Settled:
    """A settle detector that is satisfied by the first frame (the fake's frames all differ)."""

    def feed(self, frame):
        return True


@pytest.fixture
def tower():
    fake = fake_picamera2.module()
    tower = Tower(
        open_camera=lambda: Picamera2Camera(module=fake, size=(64, 48), frame_timeout=TIMEOUT),
        open_controls=None, calibration="cal",
        session_factory=lambda camera, calibration, empty=None: CountSession(
            camera, calibration, empty=empty, detector_factory=Settled, counter=counter,
            annotator=annotator))
    tower.fake = fake
    yield tower
    tower.close()


def count_in_thread(tower):
    result = SimpleNamespace(outcome=None, error=None)

    def run():
        try:
            result.outcome = tower.recount(timeout=20)
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            result.error = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, result


def test_a_stalled_sensor_never_holds_a_lock_past_the_timeout(tower):
    device = tower.fake.Picamera2.instances[-1]
    device.stall()
    thread, result = count_in_thread(tower)
    assert device.waiting.wait(WAIT), "the count never asked the camera for a frame"
    thread.join(WAIT)
    assert not thread.is_alive(), "the count is still stuck on the stalled camera"
    assert isinstance(result.error, CameraTimeoutError)
    assert "enter the counts by hand" in str(result.error)
    assert not tower._count_lock.locked() and not tower._camera_lock.locked()
    assert device.closed and device.jobs == []
    status = tower.status()
    assert status["camera"]["ok"] is False and "by hand" in status["camera"]["message"]
    assert status["counting"] is False and status["led"] == "error"

    device.recover()  # the ribbon is pushed back in
    outcome = tower.recount(timeout=20)  # not "already being counted": a new camera opens
    assert outcome.counts == {"red": outcome.image[0, 0, 0]}
    assert len(tower.fake.Picamera2.instances) == 2 and tower.status()["camera"]["ok"]


def test_a_photo_of_the_set_up_page_answers_on_a_stalled_sensor(tower):
    device = tower.fake.Picamera2.instances[-1]
    device.stall()
    done = threading.Event()
    caught = []

    def photo():
        try:
            tower.snapshot()
        except Exception as exc:  # noqa: BLE001
            caught.append(exc)
        done.set()

    threading.Thread(target=photo, daemon=True).start()
    assert done.wait(WAIT), "the photo request never answered"
    assert isinstance(caught[0], CameraTimeoutError)
    assert not tower._camera_lock.locked()
