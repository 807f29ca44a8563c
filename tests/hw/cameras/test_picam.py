"""The Picamera2 backend's configuration logic, against the fake library in fake_picamera2.py."""

from __future__ import annotations

import numpy as np
import pytest

from companion.hw.cameras.picam import ExposureLock, Picamera2Camera, channel_order_of
from companion.hw.errors import CameraUnavailableError, HardwareError
from tests.hw import fake_picamera2


@pytest.fixture
def fake():
    return fake_picamera2.module()


def open_cam(fake, **kw):
    cam = Picamera2Camera(module=fake, size=(64, 48), **kw)
    device = fake.Picamera2.instances[-1]
    cam._clock_ns = lambda: device.now_ns  # the fake's frame clock is the monotonic clock
    return cam, device


def test_requests_rgb888_and_locks_ae_and_awb_from_a_saved_lock(fake):
    lock = ExposureLock(exposure_us=12000, analogue_gain=2.0, colour_gains=(1.9, 1.5))
    cam, device = open_cam(fake, lock=lock)
    assert device.config["main"] == {"format": "RGB888", "size": (64, 48)}
    assert device.queue is False  # no frames kept back for later captures
    expected = {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000,
                "AnalogueGain": 2.0, "ColourGains": (1.9, 1.5)}
    assert device.config["controls"] == expected  # locked from the very first frame
    assert device.controls == expected
    assert cam.lock == lock


def test_without_a_lock_it_meters_once_then_freezes(fake):
    cam, device = open_cam(fake)
    assert device.config["controls"] == {}  # AE/AWB run while metering
    assert device.control_calls[-1] == {"AeEnable": False, "AwbEnable": False,
                                        "ExposureTime": 8123, "AnalogueGain": 1.75,
                                        "ColourGains": (2.1, 1.6)}
    assert cam.lock == ExposureLock(8123, 1.75, (2.1, 1.6))


def test_capture_is_bgr_and_red_cube_reads_red(fake):
    cam, _ = open_cam(fake)
    frame = cam.capture()
    assert frame.shape == (48, 64, 3) and frame.dtype == np.uint8
    assert channel_order_of(frame, (10, 10, 20, 20)) == "bgr"


def test_rgb_channel_order_setting_swaps_red_and_blue(fake):
    cam, _ = open_cam(fake, channel_order="rgb")
    frame = cam.capture()
    assert channel_order_of(frame, (10, 10, 20, 20)) == "rgb"
    assert tuple(frame[5, 5]) == (200, 30, 20)


def test_channel_order_check():
    bgr = np.zeros((10, 10, 3), np.uint8)
    bgr[:, :, 2] = 180
    assert channel_order_of(bgr, (0, 0, 10, 10)) == "bgr"
    assert channel_order_of(bgr[:, :, ::-1], (0, 0, 10, 10)) == "rgb"
    with pytest.raises(HardwareError, match="outside the picture"):
        channel_order_of(bgr, (50, 50, 5, 5))


def test_queued_frames_from_before_the_call_are_dropped(fake):
    cam, device = open_cam(fake)
    device.stale = 3
    frame = cam.capture()
    assert frame[0, 0, 1] == device.now_ns % 256  # the newest request, not a queued one
    assert device.released == 4  # every request went back to the library


def test_only_stale_frames_is_a_clear_error(fake):
    cam, device = open_cam(fake, max_stale=2)
    device.stale = 10
    with pytest.raises(CameraUnavailableError, match="only sends old frames"):
        cam.capture()


def test_no_camera_connected(fake):
    fake.Picamera2.cameras = []
    with pytest.raises(CameraUnavailableError, match="ribbon cable"):
        Picamera2Camera(module=fake)


def test_camera_dying_mid_game_is_camera_unavailable(fake):
    cam, device = open_cam(fake)
    device.broken = True
    with pytest.raises(CameraUnavailableError, match="enter the counts by hand"):
        cam.capture()
    cam.close()
    assert device.closed


def test_library_missing_is_camera_unavailable(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes the import fail
    with pytest.raises(CameraUnavailableError, match="apt install python3-picamera2"):
        Picamera2Camera()


def test_bad_channel_order_is_refused(fake):
    with pytest.raises(HardwareError, match="bgr or rgb"):
        Picamera2Camera(module=fake, channel_order="grb")


def test_lock_file_round_trip_and_broken_file(tmp_path):
    lock = ExposureLock(9000, 1.5, (2.0, 1.7))
    path = tmp_path / "camera-lock.json"
    lock.save(path)
    assert ExposureLock.load(path) == lock
    path.write_text("{not json")
    with pytest.raises(HardwareError, match="companion tower lock"):
        ExposureLock.load(path)


def test_timestamps_from_another_clock_fall_back_to_flushing(fake, caplog):
    cam, device = open_cam(fake, flush_frames=2)
    device.clock_offset = -3_600 * 10**9  # an hour behind: not a queued frame, another clock
    with caplog.at_level("WARNING"):
        cam.capture()
        released = device.released
        cam.capture()
    assert not cam.timestamps_usable
    assert device.released - released == 3  # two dropped, one returned
    assert caplog.text.count("another clock") == 1
