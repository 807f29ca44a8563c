"""The tower builder's environment settings: defaults, overrides, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import Settings
from companion.hw.errors import InvalidPinError
from companion.hw.settings import InvalidHardwareSettingError, hardware_settings


def test_defaults_follow_the_wiring_table():
    hw = hardware_settings(Settings(data_dir=Path("/srv/data")), environ={})
    assert (hw.pins.count_pin, hw.pins.cancel_pin, hw.pins.led_pin) == (17, 27, 22)
    assert hw.camera == "auto" and hw.gpio == "auto" and hw.camera_size == (1280, 960)
    assert hw.calibration_path == Path("/srv/data/calibration.json")
    assert hw.exposure_lock_path == Path("/srv/data/camera-lock.json")


def test_environment_overrides():
    hw = hardware_settings(Settings(camera="opencv", gpio="mock"), environ={
        "COMPANION_PIN_COUNT": "5", "COMPANION_PIN_CANCEL": "6", "COMPANION_PIN_LED": "13",
        "COMPANION_HOLD_TIME": "2", "COMPANION_CAMERA_DEVICE": "/dev/video2",
        "COMPANION_CAMERA_SIZE": "640x480", "COMPANION_CAMERA_CHANNELS": "rgb",
        "COMPANION_SIM_SEED": "7", "COMPANION_SIM_RETAIN": "0.5"})
    assert (hw.pins.count_pin, hw.pins.cancel_pin, hw.pins.led_pin, hw.pins.hold_time) == (5, 6, 13, 2.0)
    assert hw.camera == "opencv" and hw.gpio == "mock"
    assert hw.camera_device == "/dev/video2" and hw.camera_size == (640, 480)
    assert hw.channel_order == "rgb" and hw.sim_seed == 7 and hw.sim_retain == 0.5


def test_settings_extra_wins_over_the_environment():
    hw = hardware_settings(Settings(extra={"COMPANION_PIN_LED": "12"}),
                           environ={"COMPANION_PIN_LED": "13"})
    assert hw.pins.led_pin == 12


@pytest.mark.parametrize(
    "env, error, words",
    [
        ({"COMPANION_PIN_COUNT": "seventeen"}, InvalidHardwareSettingError, "whole number"),
        ({"COMPANION_PIN_COUNT": "22"}, InvalidPinError, "three different"),
        ({"COMPANION_CAMERA_SIZE": "big"}, InvalidHardwareSettingError, "like 1280x960"),
        ({"COMPANION_CAMERA_CHANNELS": "grb"}, InvalidHardwareSettingError, "bgr, rgb"),
        ({"COMPANION_HOLD_TIME": "soon"}, InvalidHardwareSettingError, "a number"),
    ],
)
def test_bad_values_are_clear_errors(env, error, words):
    with pytest.raises(error, match=words) as err:
        hardware_settings(None, environ=env)
    assert isinstance(err.value, ValueError)
