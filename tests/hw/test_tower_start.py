"""Starting a real tower: camera settings restored from the calibration, and nothing found at
start — a broken Picamera2, a broken calibration — stops the companion or fakes a tray."""

from __future__ import annotations

import dataclasses
import sys

import pytest

from companion.config import Settings
from companion.hw.cameras import usb
from companion.hw.tower import Tower
from companion.vision.calibration import save_calibration
from companion.vision.synthetic import synthetic_calibration
from tests.hw import fake_picamera2

CONTROLS = {"ExposureTime": 11000, "AnalogueGain": 1.5, "ColourGains": [1.7, 1.3],
            "AfMode": 0, "LensPosition": 6.5}


class _ClosedCapture:
    def __init__(self, device):
        pass

    def isOpened(self):
        return False

    def release(self):
        pass


@pytest.fixture
def no_usb(monkeypatch):
    monkeypatch.setattr(usb.cv2, "VideoCapture", _ClosedCapture)


def start(tmp_path, pi: bool, camera: str = "auto") -> Tower:
    return Tower.from_settings(Settings(camera=camera, gpio="mock", data_dir=tmp_path),
                               environ={"COMPANION_RASPBERRY_PI": "1" if pi else "0"})


def test_the_calibrations_camera_settings_are_restored_on_start(tmp_path, monkeypatch):
    fake = fake_picamera2.module()
    monkeypatch.setitem(sys.modules, "picamera2", fake)
    cal = dataclasses.replace(synthetic_calibration(),
                              camera={"backend": "picamera2", "controls": CONTROLS})
    save_calibration(cal, tmp_path / "calibration.json")
    (tmp_path / "camera-lock.json").write_text(  # an old lock file loses to the calibration
        '{"exposure_us": 99, "analogue_gain": 9.0, "colour_gains": [1.0, 1.0]}')
    tower = start(tmp_path, pi=False)
    try:
        device = fake.Picamera2.instances[-1]
        assert device.calls[:3] == ["configure", "set_controls", "start"]
        assert device.control_calls[0] == {**CONTROLS, "ColourGains": (1.7, 1.3),
                                           "ExposureTimeMode": 1, "AnalogueGainMode": 1}
        assert "autofocus_cycle" not in device.calls  # the saved focus, no new search
        status = tower.status()
        assert status["calibrated"] and status["camera"]["backend"] == "picamera2"
        assert "restored from the calibration" in status["camera"]["description"]
        assert status["messages"] == []
    finally:
        tower.close()


def test_a_calibration_without_camera_settings_says_colours_may_drift(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2.module())
    save_calibration(synthetic_calibration(), tmp_path / "calibration.json")
    tower = start(tmp_path, pi=False)
    try:
        assert any("companion tower calibrate" in m for m in tower.status()["messages"])
    finally:
        tower.close()


def test_broken_picamera2_on_a_pi_is_camera_unavailable_with_the_reason(tmp_path, monkeypatch,
                                                                        no_usb):
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.syspath_prepend(str(fake_picamera2.broken_package(tmp_path / "lib")))
    tower = start(tmp_path, pi=True)  # auto, as `make run` starts it
    try:
        status = tower.status()
        assert not tower.simulated and status["camera"]["ok"] is False
        assert status["camera"]["backend"] is None  # no simulated tray in its place
        message = status["camera"]["message"]
        assert "numpy.dtype size changed" in message and "companion doctor" in message
        assert message in status["messages"] and status["led"] == "error"
    finally:
        tower.close()


def test_off_the_pi_auto_still_falls_back_to_the_simulated_tower(tmp_path, monkeypatch, no_usb):
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.syspath_prepend(str(fake_picamera2.broken_package(tmp_path / "lib")))
    tower = start(tmp_path, pi=False)
    try:
        assert tower.simulated and tower.status()["camera"]["backend"] == "synthetic"
    finally:
        tower.close()


def test_a_broken_calibration_file_is_a_message_not_a_crash(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2.module())
    (tmp_path / "calibration.json").write_text("{half a file")
    tower = start(tmp_path, pi=False)
    try:
        status = tower.status()
        assert status["camera"]["ok"] and not status["calibrated"]
        assert any("not valid JSON" in m for m in status["messages"])
    finally:
        tower.close()


def test_bad_saved_camera_values_are_a_message_and_the_camera_meters(tmp_path, monkeypatch):
    fake = fake_picamera2.module()
    monkeypatch.setitem(sys.modules, "picamera2", fake)
    cal = dataclasses.replace(synthetic_calibration(), camera={
        "backend": "picamera2", "controls": {**CONTROLS, "AnalogueGain": "loud"}})
    save_calibration(cal, tmp_path / "calibration.json")
    tower = start(tmp_path, pi=False)
    try:
        assert "autofocus_cycle" in fake.Picamera2.instances[-1].calls  # metered afresh
        assert any("AnalogueGain" in m for m in tower.status()["messages"])
    finally:
        tower.close()


def test_settings_that_do_not_take_are_shown(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2.module())
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "ignore_controls", True)
    cal = dataclasses.replace(synthetic_calibration(),
                              camera={"backend": "picamera2", "controls": CONTROLS})
    save_calibration(cal, tmp_path / "calibration.json")
    tower = start(tmp_path, pi=False)
    try:
        assert any("did not take the fixed settings" in m for m in tower.status()["messages"])
    finally:
        tower.close()


def test_without_a_calibration_the_service_focuses_at_COMPANION_FOCUS_CM(tmp_path, monkeypatch):
    fake = fake_picamera2.module()
    monkeypatch.setitem(sys.modules, "picamera2", fake)
    tower = Tower.from_settings(Settings(camera="picamera2", gpio="mock", data_dir=tmp_path),
                                environ={"COMPANION_RASPBERRY_PI": "1",
                                         "COMPANION_FOCUS_CM": "12.5"})
    try:
        device = fake.Picamera2.instances[-1]
        assert "autofocus_cycle" not in device.calls  # no cycle on an empty, clear tray
        assert device.control_calls[0]["LensPosition"] == 8.0  # 1 / 0.125 m
    finally:
        tower.close()
