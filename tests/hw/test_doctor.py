"""``companion doctor`` off the Pi: the simulated tower passes; a fake Pi camera that drifts, a
soft picture, a broken Picamera2, a stuck button or a full disk are each named with a fix."""

from __future__ import annotations

import dataclasses
import shutil
import sys
from collections import namedtuple

import cv2
import pytest

from companion.cli import main
from companion.hw.doctor import exposure_spread
from companion.vision.calibration import save_calibration
from companion.vision.synthetic import render_calibration_photo, synthetic_calibration
from tests.hw import fake_picamera2


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    monkeypatch.setenv("COMPANION_GPIO", "mock")
    monkeypatch.setenv("COMPANION_RASPBERRY_PI", "0")
    for key in ("COMPANION_CAMERA", "COMPANION_CALIBRATION", "COMPANION_CAMERA_FOLDER"):
        monkeypatch.delenv(key, raising=False)
    return monkeypatch


def doctor(capsys, *args) -> tuple[int, dict[str, str]]:
    code = main(["doctor", *args])
    out = capsys.readouterr().out
    lines = {}
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) == 3 and parts[0] in ("ok", "FIX"):
            lines[parts[1]] = f"{parts[0]} {parts[2]}"
    lines["_all"] = out
    return code, lines


def test_the_simulated_tower_has_nothing_to_fix(env, capsys):
    env.setenv("COMPANION_CAMERA", "synthetic")
    code, lines = doctor(capsys)
    assert code == 0, lines["_all"]
    for name in ("numpy", "opencv", "camera", "focus", "exposure", "buttons", "led", "disk"):
        assert lines[name].startswith("ok "), lines["_all"]
    assert "SIMULATED" in lines["camera"] and "spread 0.00 %" in lines["exposure"]
    assert "heard ['count', 'cancel']" in lines["buttons"]
    assert "nothing to fix" in lines["_all"]


@pytest.fixture
def pi_camera(env, tmp_path):
    """A fake Pi camera seeing the calibration photo, with a calibration that keeps settings."""
    frame, _, _ = render_calibration_photo()
    fake = fake_picamera2.module()
    env.setattr(fake_picamera2.FakePicamera2, "picture", frame.image)
    env.setitem(sys.modules, "picamera2", fake)
    env.setenv("COMPANION_CAMERA", "picamera2")
    env.setenv("COMPANION_CAMERA_SIZE", f"{frame.image.shape[1]}x{frame.image.shape[0]}")
    cal = dataclasses.replace(synthetic_calibration(), camera={
        "backend": "picamera2", "controls": {"ExposureTime": 9000, "AnalogueGain": 1.5,
                                             "ColourGains": [2.0, 1.5], "LensPosition": 8.0}})
    save_calibration(cal, tmp_path / "calibration.json")
    return fake


def test_a_steady_focused_pi_camera_passes(pi_camera, capsys):
    code, lines = doctor(capsys)
    assert code == 0, lines["_all"]
    assert "restored from the calibration" in lines["camera"]
    assert lines["calibration"].startswith("ok ") and "picamera2" in lines["calibration"]
    assert "haze" not in lines["calibration"]  # a calibration of today keeps its dark levels


def test_a_calibration_from_before_the_black_level_passes_with_advice(pi_camera, capsys, tmp_path):
    from companion.vision.calibration import load_calibration

    path = tmp_path / "calibration.json"
    save_calibration(dataclasses.replace(load_calibration(path), dark=None), path)
    code, lines = doctor(capsys)
    assert code == 0, lines["_all"]
    assert lines["calibration"].startswith("ok ") and "haze" in lines["calibration"]
    assert "calibrate again" in lines["calibration"]


def test_exposure_drifting_across_frames_is_named(pi_camera, capsys, env):
    env.setattr(fake_picamera2.FakePicamera2, "picture", None)  # plain scene, brightness drifts
    env.setenv("COMPANION_CAMERA_SIZE", "64x48")

    original = fake_picamera2.FakePicamera2.__init__

    def drifting(self, camera_num=0):
        original(self, camera_num)
        self.drift = 0.01  # 1 % brighter every frame: 10 frames ≈ 9 %

    env.setattr(fake_picamera2.FakePicamera2, "__init__", drifting)
    code, lines = doctor(capsys)
    assert code == 1
    assert lines["exposure"].startswith("FIX") and "flicker" in lines["_all"]


def test_a_soft_picture_is_named_with_the_refocus_command(pi_camera, capsys, env):
    blurred = cv2.GaussianBlur(fake_picamera2.FakePicamera2.picture, (0, 0), 3)
    env.setattr(fake_picamera2.FakePicamera2, "picture", blurred)
    code, lines = doctor(capsys)
    assert code == 1 and lines["focus"].startswith("FIX") and "SOFT" in lines["focus"]
    assert "--distance CM" in lines["_all"]


def test_a_broken_picamera2_on_a_pi_is_reported_not_a_crash(env, capsys, tmp_path):
    env.setenv("COMPANION_RASPBERRY_PI", "1")
    env.delitem(sys.modules, "picamera2", raising=False)
    env.syspath_prepend(str(fake_picamera2.broken_package(tmp_path / "lib")))
    code, lines = doctor(capsys)
    assert code == 1
    assert lines["picamera2"].startswith("FIX") and "numpy.dtype size changed" in lines["picamera2"]
    assert lines["camera"].startswith("FIX")  # auto on a Pi: no simulated tray instead
    assert "make install" in lines["_all"]


def test_a_button_that_reads_pressed_at_rest_is_a_wiring_fault(env, capsys):
    from companion.hw.controls import TowerControls

    env.setenv("COMPANION_CAMERA", "synthetic")
    env.setattr(TowerControls, "pressed_now", lambda self: {"count": True, "cancel": False})
    code, lines = doctor(capsys)
    assert code == 1 and "count reads pressed" in lines["buttons"] and "GND" in lines["_all"]


def test_a_full_disk_is_named(env, capsys):
    env.setenv("COMPANION_CAMERA", "synthetic")
    usage = namedtuple("usage", "total used free")
    env.setattr(shutil, "disk_usage", lambda path: usage(10**10, 10**10 - 10**8, 10**8))
    code, lines = doctor(capsys)
    assert code == 1 and lines["disk"].startswith("FIX") and "less than 500 MB" in lines["disk"]


def test_exposure_spread():
    assert exposure_spread([100.0, 101.0, 99.0]) == pytest.approx(0.02)
    assert exposure_spread([0.0, 0.0]) == float("inf")


def test_the_exposure_lock_is_proved_by_stepping_it(pi_camera, capsys):
    code, lines = doctor(capsys)
    assert code == 0, lines["_all"]
    assert lines["lock"].startswith("ok ") and "metadata followed" in lines["lock"]


def test_auto_exposure_still_running_is_named(pi_camera, capsys, env):
    env.setattr(fake_picamera2.FakePicamera2, "ignore_controls", True)
    code, lines = doctor(capsys)
    assert code == 1 and lines["lock"].startswith("FIX") and "did NOT follow" in lines["lock"]
    assert lines["exposure"].startswith("ok ")  # a settled AE is steady: only the step sees it


def test_a_running_service_is_checked_first_and_the_camera_left_alone(pi_camera, capsys, env):
    from companion.hw import service

    env.setattr(service, "service_state", lambda *a, **kw: "active")
    code, lines = doctor(capsys)
    assert code == 1 and lines["service"].startswith("FIX")
    assert "systemctl stop companion" in lines["_all"]
    assert lines["camera"].startswith("FIX") and "not checked" in lines["camera"]
    assert pi_camera.Picamera2.instances == []  # the service's camera was not touched
    out = lines["_all"]
    assert out.index(" service ") < out.index(" numpy ")


def test_a_camera_held_by_another_program_is_busy_not_a_cable_fault(pi_camera, capsys, env):
    env.setattr(fake_picamera2.FakePicamera2, "busy_holder", "companion serve")
    code, lines = doctor(capsys)
    assert code == 1 and lines["camera"].startswith("FIX busy")
    assert "in use by another program" in lines["camera"] and "ribbon" not in lines["camera"]


def test_a_data_folder_other_than_the_services_is_named(env, capsys, tmp_path):
    from companion.hw import service

    unit = tmp_path / "companion.service"
    unit.write_text("[Service]\nEnvironment=COMPANION_DATA=/home/alice/companion/data\n")
    env.setattr(service, "UNIT_PATH", unit)
    env.setenv("COMPANION_CAMERA", "synthetic")
    code, lines = doctor(capsys)
    assert code == 1 and lines["data"].startswith("FIX")
    assert "COMPANION_DATA=/home/alice/companion/data" in lines["data"]


def _real_pins(env):
    """Mock pins that say they are real, so the doctor treats the LED as a person would."""
    from companion.hw.controls import TowerControls

    env.setattr(TowerControls, "is_mock", property(lambda self: False))


def test_the_led_is_confirmed_by_the_person_who_looks(env, capsys):
    from companion.hw.doctor import run_checks
    from companion.hw.settings import hardware_settings

    env.setenv("COMPANION_CAMERA", "synthetic")
    _real_pins(env)
    answers = iter(["y", "n"])  # lit, but does not go off
    findings = run_checks(hardware_settings(), env_path(env), frames=2, out=lambda s: None,
                          ask=lambda question: next(answers))
    led = next(f for f in findings if f.name == "led")
    assert not led.ok and "does not go off" in led.summary
    answers = iter(["yes", "y"])
    findings = run_checks(hardware_settings(), env_path(env), frames=2, out=lambda s: None,
                          ask=lambda question: next(answers))
    assert next(f for f in findings if f.name == "led").ok


def test_without_a_person_the_led_is_said_not_checked(env, capsys):
    env.setenv("COMPANION_CAMERA", "synthetic")
    _real_pins(env)
    code, lines = doctor(capsys)  # stdin is no terminal under pytest
    assert "not checked" in lines["led"]


def env_path(env):
    import os
    from pathlib import Path

    return Path(os.environ["COMPANION_DATA"])
