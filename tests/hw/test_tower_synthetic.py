"""The whole path with the real vision package: mock button → settle → fresh frame → count.

Frames are rendered by the vision package's synthetic renderer from the tower simulator.
Smaller frames than the real camera's keep these tests quick; the path is the same.
"""

from __future__ import annotations

import queue
import sys
import threading

import numpy as np
import pytest

from companion.config import Settings
from companion.hw.camera import open_camera
from companion.hw.cameras import usb
from companion.hw.cameras.synthetic import SyntheticCamera
from companion.hw.counting import CountSession
from companion.hw.errors import CameraUnavailableError, CountTimeoutError
from companion.hw.simulator import TowerSimulator
from companion.hw.tower import Tower
from companion.vision.settle import SettleDetector
from companion.vision.synthetic import (
    RenderConditions,
    render_settling_sequence,
    synthetic_calibration,
)

from .conftest import WAIT

SMALL = RenderConditions(size=(640, 480), roi=((60, 45), (582, 50), (592, 435), (50, 430)),
                         cube_px=18.0)


@pytest.fixture
def no_real_camera(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setattr(usb.cv2, "VideoCapture", _ClosedCapture)


class _ClosedCapture:
    def __init__(self, device):
        pass

    def isOpened(self):
        return False

    def release(self):
        pass


def small_tower(seed=0, **sim) -> Tower:
    simulator = TowerSimulator(seed=seed, **sim)
    from companion.hw.controls import PinConfig, TowerControls, make_pin_factory

    return Tower(
        open_camera=lambda: SyntheticCamera(simulator, seed=seed, conditions=SMALL),
        open_controls=lambda: TowerControls(PinConfig(bounce_time=0.01, hold_time=30.0),
                                            pin_factory=make_pin_factory("mock")[0]),
        simulator=simulator, calibration=synthetic_calibration(SMALL))


def test_settle_detector_waits_out_a_rendered_settling_sequence():
    frames = render_settling_sequence({"red": 3, "green": 2}, seed=4, conditions=SMALL,
                                      moving=5, still=4)
    detector = SettleDetector()
    verdicts = [detector.feed(f.image) for f in frames]
    assert not any(verdicts[:6])  # never settled while cubes move (or on the first still frame)
    assert verdicts[-1]


def test_synthetic_camera_moves_after_a_throw_then_holds_still():
    sim = TowerSimulator(seed=2, retain_probability=0.0, settle_frames=(4, 4))
    camera = SyntheticCamera(sim, conditions=SMALL)
    sim.throw({"purple": 3})
    frames = [camera.capture() for _ in range(8)]
    assert not sim.moving

    def changed(a, b):  # pixels that changed by more than sensor noise does
        return int((np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 40).sum())

    assert changed(frames[0], frames[1]) > 100
    assert changed(frames[5], frames[6]) == changed(frames[6], frames[7]) == 0


def test_count_session_never_counts_a_moving_tray():
    sim = TowerSimulator(seed=5, retain_probability=0.0, settle_frames=(6, 6))
    camera = SyntheticCamera(sim, conditions=SMALL)
    sim.throw({"red": 4, "blue": 2, "black": 1})
    outcome = CountSession(camera, synthetic_calibration(SMALL)).run(timeout=30)
    assert outcome.frames_to_settle > 6
    assert outcome.counts == {"red": 4, "blue": 2, "black": 1}


def test_mock_button_press_counts_a_simulated_throw():
    tower = small_tower(seed=11)
    results: queue.Queue = queue.Queue()
    thrown = {"purple": 3, "yellow": 2, "green": 1}

    def on_button(button):  # what the web layer does: count on its own thread
        if button == "count":
            threading.Thread(target=lambda: results.put(tower.count_throw(thrown, 30))).start()

    tower.on_button(on_button)
    try:
        for _ in range(3):  # several battles: the simulated interior carries over
            tower.press("count")  # drives the mock GPIO pin
            outcome = results.get(timeout=60)
            assert outcome.counts == tower.simulator.last_fallen
            assert outcome.image_jpeg[:2] == b"\xff\xd8" and outcome.annotated_jpeg[:2] == b"\xff\xd8"
            assert tower.status()["led"] == "ready"
        assert tower.simulator.throws == 3
    finally:
        tower.close()


def test_recount_reads_the_same_tray_without_throwing():
    tower = small_tower(seed=3, retain_probability=0.0)
    first = tower.count_throw({"red": 2, "green": 1}, timeout=30)
    again = tower.recount(timeout=30)
    assert first.counts == again.counts == {"red": 2, "green": 1}
    assert tower.simulator.throws == 1


def test_auto_detection_falls_back_to_the_simulated_tower(no_real_camera, monkeypatch):
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def no_pi():
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_pi))
    tower = Tower.from_settings(Settings(camera="auto", gpio="auto"),
                                environ={"COMPANION_RASPBERRY_PI": "0"})
    try:
        status = tower.status()
        assert tower.simulated and status["camera"]["backend"] == "synthetic"
        assert status["gpio"]["mode"] == "mock" and status["calibrated"]
    finally:
        tower.close()


def test_forced_pi_camera_missing_keeps_the_companion_running(no_real_camera, monkeypatch):
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def no_pi():
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_pi))
    tower = Tower.from_settings(Settings(camera="picamera2", gpio="real"), environ={})
    try:
        status = tower.status()
        assert not tower.simulated  # never a drawn picture in place of the real camera
        assert status["camera"]["ok"] is False and "python3-picamera2" in status["camera"]["message"]
        assert status["gpio"]["ok"] is False
        with pytest.raises(CameraUnavailableError):
            tower.count_throw({"red": 1})
        heard: queue.Queue[str] = queue.Queue()
        tower.on_button(heard.put)
        tower.press("count")  # the on-screen button still works without GPIO
        assert heard.get(timeout=WAIT) == "count"
    finally:
        tower.close()


def test_folder_camera_replays_recorded_frames(tmp_path):
    import cv2

    frames = render_settling_sequence({"blue": 2, "green": 1}, seed=9, conditions=SMALL,
                                      moving=3, still=4)
    for i, frame in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"{i:02}.png"), frame.image)
    camera = open_camera("folder", folder=tmp_path)
    outcome = CountSession(camera, synthetic_calibration(SMALL)).run(timeout=30)
    assert outcome.counts == {"blue": 2, "green": 1}


def test_a_tray_that_keeps_moving_times_out():
    sim = TowerSimulator(seed=1, retain_probability=0.0, settle_frames=(10**6, 10**6))
    camera = SyntheticCamera(sim, conditions=SMALL)
    sim.throw({"red": 1})
    ticks = iter(range(10**6))
    session = CountSession(camera, synthetic_calibration(SMALL), clock=lambda: next(ticks))
    with pytest.raises(CountTimeoutError, match="did not stop moving"):
        session.run(timeout=5)
