"""The Picamera2 backend against the fake library in fake_picamera2.py: which controls it
sends, in which order, that it checks they took, focus, fresh frames, and import failures."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from companion.hw.cameras.picam import (
    ExposureLock,
    Picamera2Camera,
    channel_order_of,
    lens_position_for,
    settings_controls,
)
from companion.hw.errors import (
    CameraBusyError,
    CameraSettingsError,
    CameraTimeoutError,
    CameraUnavailableError,
    HardwareError,
)
from tests.hw import fake_picamera2

MANUAL = {"ExposureTimeMode": 1, "AnalogueGainMode": 1}  # libcamera >= 0.5 needs them with the values
SAVED = {"backend": "picamera2", "model": "imx708",
         "controls": {"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": [1.9, 1.5],
                      "AfMode": 0, "LensPosition": 7.25}}


@pytest.fixture
def fake():
    return fake_picamera2.module()


def open_cam(fake, **kw):
    cam = Picamera2Camera(module=fake, size=(64, 48), **kw)
    device = fake.Picamera2.instances[-1]
    cam._clock_ns = lambda: device.now_ns  # the fake's frame clock is the monotonic clock
    return cam, device


def test_restoring_sends_values_only_before_start_then_waits_for_them(fake):
    cam, device = open_cam(fake, settings=SAVED)
    assert device.config["main"] == {"format": "RGB888", "size": (64, 48)}
    assert device.calls[:3] == ["configure", "set_controls", "start"]
    sent = device.control_calls[0]
    assert sent == {"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.9, 1.5),
                    "AfMode": 0, "LensPosition": 7.25, **MANUAL}
    assert not any("AeEnable" in c or "AwbEnable" in c for c in device.control_calls)
    assert cam.frames_to_apply == 1 and cam.warnings == []  # set before start: in force at once
    assert cam.restored and "restored from the calibration" in cam.description
    cam.capture()
    assert device.calls[-1] == "capture_request(flush=True)"


def test_metering_focuses_once_freezes_and_drops_frames_until_the_metadata_shows_it(fake):
    cam, device = open_cam(fake)
    calls = device.calls
    assert calls[:3] == ["configure", "start", "autofocus_cycle"]
    assert calls.index("set_controls") > calls.index("autofocus_cycle")
    assert device.control_calls == [{"AfMode": 0, "LensPosition": 8.0, "ExposureTime": 8120,
                                     "AnalogueGain": 1.75, "ColourGains": (2.1, 1.6), **MANUAL}]
    assert 1 <= cam.frames_to_apply <= device.delay
    assert cam.settings() == {"backend": "picamera2", "model": "imx708", "size": [64, 48],
                              "controls": {"AfMode": 0, "LensPosition": 8.0,
                                           "ExposureTime": 8120, "AnalogueGain": 1.75,
                                           "ColourGains": [2.1, 1.6]}}


def test_frames_are_dropped_until_the_metadata_shows_the_values(fake, monkeypatch):
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "start_delay", 4)
    cam, device = open_cam(fake, settings=SAVED)
    assert cam.frames_to_apply == 4 and not cam.warnings
    assert device.calls[3:7] == ["capture_metadata"] * 4  # the dropped frames, before any capture


def test_settings_round_trip_through_a_new_camera(fake):
    first, _ = open_cam(fake)
    second, device = open_cam(fake, settings=first.settings())
    assert device.control_calls[0] == first.controls
    assert "autofocus_cycle" not in device.calls  # the saved focus, not a new cycle


def test_focus_from_the_tray_distance(fake):
    cam, device = open_cam(fake, focus_distance_m=0.125)
    assert lens_position_for(0.125) == 8.0
    assert "autofocus_cycle" not in device.calls
    assert cam.controls["LensPosition"] == 8.0 and cam.controls["AfMode"] == 0


def test_a_tray_closer_than_the_lens_can_focus_is_clamped_with_a_warning(fake):
    cam, _ = open_cam(fake, focus_distance_m=0.05)  # 20 dioptres; the fake lens stops at 15
    assert cam.controls["LensPosition"] == 15.0
    assert any("closer than this lens can focus" in w for w in cam.warnings)


def test_failed_autofocus_is_a_warning_not_a_failure(fake, monkeypatch):
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "af_success", False)
    cam, _ = open_cam(fake)
    assert any("--distance" in w for w in cam.warnings)


def test_camera_without_focus_motor_gets_no_focus_controls(fake):
    fake.Picamera2.has_focus = False
    cam, device = open_cam(fake, settings=SAVED)
    assert "LensPosition" not in device.control_calls[0] and "AfMode" not in device.control_calls[0]
    assert any("no focus motor" in w for w in cam.warnings)


def test_a_camera_that_never_takes_the_values_is_noticed(fake, monkeypatch):
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "ignore_controls", True)
    cam, _ = open_cam(fake, settings=SAVED, apply_frames=5)
    assert cam.frames_to_apply is None
    assert any("did not take the fixed settings within 5 frames" in w and "ExposureTime" in w
               for w in cam.warnings)


def test_exposure_rounded_by_the_sensor_still_counts_as_applied(fake):
    saved = {**SAVED, "controls": {**SAVED["controls"], "ExposureTime": 12005}}  # 12005 → 11998
    cam, _ = open_cam(fake, settings=saved)
    assert cam.frames_to_apply == 1


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


def test_flush_capture_skips_queued_frames(fake):
    cam, device = open_cam(fake)
    device.stale = 3
    released = device.released
    frame = cam.capture()
    assert frame[0, 0, 1] == device.now_ns % 256  # the newest request, not a queued one
    assert device.released - released == 4  # three dropped by the library, ours released


@pytest.fixture
def old():
    return fake_picamera2.module(fake_picamera2.OldPicamera2)


def test_older_picamera2_drops_frames_begun_before_the_call(old):
    cam, device = open_cam(old)
    device.stale, device.straddle = 2, 1
    device.straddle_end_ns = device.now_ns + 1_000_000  # ends after the call, began before
    frame = cam.capture()
    assert device.calls[-4:] == ["capture_request()"] * 4
    assert frame[0, 0, 1] == device.now_ns % 256


def test_older_picamera2_only_stale_frames_is_a_clear_error(old):
    cam, device = open_cam(old, max_stale=2)
    device.stale = 10
    with pytest.raises(CameraUnavailableError, match="only sends old frames"):
        cam.capture()


def test_older_picamera2_timestamps_from_another_clock_fall_back_to_flushing(old, caplog):
    cam, device = open_cam(old, flush_frames=2)
    device.clock_offset = -3_600 * 10**9  # an hour behind: not a queued frame, another clock
    with caplog.at_level("WARNING"):
        cam.capture()
        released = device.released
        cam.capture()
    assert not cam.timestamps_usable
    assert device.released - released == 3  # two dropped, one returned
    assert caplog.text.count("another clock") == 1


def test_no_camera_connected(fake):
    fake.Picamera2.cameras = []
    with pytest.raises(CameraUnavailableError, match="ribbon cable"):
        Picamera2Camera(module=fake)


def test_a_usb_webcam_listed_by_libcamera_is_not_opened_as_the_pi_camera(fake):
    fake.Picamera2.cameras = [{"Model": "046d:0825", "Id": fake_picamera2.USB_ID}]
    with pytest.raises(CameraUnavailableError, match="COMPANION_CAMERA=opencv"):
        Picamera2Camera(module=fake)
    assert fake.Picamera2.instances == []
    fake.Picamera2.cameras.append({"Model": "imx708", "Id": fake_picamera2.RIBBON_ID})
    cam, device = open_cam(fake)
    assert device.camera_num == 1 and cam.model == "imx708"


def test_camera_busy_is_told_as_busy_though_picamera2_hides_it_in_the_context(fake, monkeypatch):
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "busy_holder", "companion serve")
    with pytest.raises(CameraBusyError) as caught:
        Picamera2Camera(module=fake)
    message = str(caught.value)
    assert "in use by another program" in message and "systemctl stop companion" in message
    assert "ribbon" not in message
    assert "did not complete" in str(caught.value.__cause__)  # the outer error says nothing


def test_a_camera_that_does_not_open_for_another_reason_is_a_cable_fault(fake, monkeypatch):
    def dead(self, camera_num=0):
        try:
            raise RuntimeError("Failed to acquire camera: No such device")
        except RuntimeError:
            raise RuntimeError("Camera __init__ sequence did not complete.")  # noqa: B904

    monkeypatch.setattr(fake_picamera2.FakePicamera2, "__init__", dead)
    with pytest.raises(CameraUnavailableError, match="ribbon cable") as caught:
        Picamera2Camera(module=fake)
    assert not isinstance(caught.value, CameraBusyError)


def test_a_stalled_sensor_mid_game_times_out_cancels_and_closes(fake):
    cam, device = open_cam(fake, frame_timeout=0.2)
    device.stall()  # libcamera: "Camera frontend has timed out!" — no frame comes any more
    with pytest.raises(CameraTimeoutError, match="enter the counts by hand"):
        cam.capture()
    assert device.calls[-3:] == ["cancel_all_and_flush", "stop", "close"]
    assert device.cancelled == 1 and device.jobs == [] and device.closed
    with pytest.raises(CameraUnavailableError):
        cam.capture()  # closed: the tower opens a new camera instead


@pytest.mark.parametrize("step", ["capture_metadata", "autofocus_cycle"])
def test_a_sensor_stalled_while_opening_times_out(fake, monkeypatch, step):
    original = getattr(fake_picamera2.FakePicamera2, step)

    def stall_then(self, *args, **kw):
        self.stall()
        return original(self, *args, **kw)

    monkeypatch.setattr(fake_picamera2.FakePicamera2, step, stall_then)
    with pytest.raises(CameraTimeoutError):
        Picamera2Camera(module=fake, size=(64, 48), frame_timeout=0.1, autofocus_timeout=0.1)
    device = fake.Picamera2.instances[-1]
    assert device.closed and device.jobs == [] and "cancel_all_and_flush" in device.calls


def test_a_picamera2_that_cannot_time_out_is_a_warning(old):
    cam, _ = open_cam(old)
    assert not cam.can_time_out
    assert any("older than 0.3.20" in w for w in cam.warnings)


def test_exposure_modes_are_sent_only_where_libcamera_has_them(old):
    cam, device = open_cam(old, settings=SAVED)
    assert "ExposureTimeMode" not in device.control_calls[0]
    assert cam.frames_to_apply == 1  # libcamera < 0.5: the value alone switches AE off


def test_the_exposure_lock_is_proved_by_changing_it(fake):
    cam, device = open_cam(fake, settings=SAVED)
    check = cam.check_exposure_lock(step=0.5)
    assert check.ok, check.sentence()
    assert check.metadata_followed and 0.4 <= check.picture_ratio <= 0.6
    assert device.control_calls[-1]["ExposureTime"] == 12000  # restored
    assert cam.metadata()["ExposureTime"] == 11998  # (the sensor rounds to whole lines)


def test_auto_exposure_still_running_fails_the_lock_check(fake, monkeypatch):
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "ignore_controls", True)
    cam, _ = open_cam(fake, settings=SAVED, apply_frames=3)
    check = cam.check_exposure_lock()
    assert not check.ok and not check.metadata_followed and check.picture_ratio == 1.0
    assert "did NOT follow" in check.sentence()


def test_metadata_that_reports_the_asked_exposure_while_ae_runs_is_caught_by_the_picture(
        fake, monkeypatch):
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "metadata_lies", True)
    cam, device = open_cam(fake, settings=SAVED)
    for mode in ("ExposureTimeMode", "AnalogueGainMode"):  # as Picamera2 0.3.26 at start:
        device.fixed.pop(mode)  # the modes never reached libcamera, so AE goes on
    cam.controls = {k: v for k, v in cam.controls.items() if not k.endswith("Mode")}
    check = cam.check_exposure_lock()
    assert check.metadata_followed and not check.picture_followed and not check.ok


def test_library_missing_is_camera_unavailable(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes the import fail
    with pytest.raises(CameraUnavailableError, match="apt install python3-picamera2"):
        Picamera2Camera()


def test_numpy_abi_mismatch_on_import_is_camera_unavailable_with_the_repair(monkeypatch,
                                                                            tmp_path):
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.syspath_prepend(str(fake_picamera2.broken_package(tmp_path)))
    with pytest.raises(CameraUnavailableError) as caught:
        Picamera2Camera()
    message = str(caught.value)
    assert "numpy.dtype size changed" in message and "companion doctor" in message
    assert np.__version__ in message
    assert isinstance(caught.value.__cause__, ValueError)


@pytest.mark.parametrize("error", ["RuntimeError('libcamera went away')",
                                   "ImportError('No module named libcamera', name='libcamera')",
                                   "OSError(5, 'I/O error')"])
def test_any_import_failure_is_camera_unavailable(monkeypatch, tmp_path, error):
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    monkeypatch.syspath_prepend(str(fake_picamera2.broken_package(tmp_path, error)))
    with pytest.raises(CameraUnavailableError, match="Picamera2 cannot load .*companion doctor"):
        Picamera2Camera()


def test_bad_channel_order_is_refused(fake):
    with pytest.raises(HardwareError, match="bgr or rgb"):
        Picamera2Camera(module=fake, channel_order="grb")


def test_bad_saved_settings_are_a_clear_error():
    with pytest.raises(CameraSettingsError, match="ExposureTime"):
        settings_controls({"backend": "picamera2", "controls": {"ExposureTime": -5}})
    with pytest.raises(CameraSettingsError, match="no controls"):
        settings_controls({"backend": "picamera2", "controls": "fast"})
    assert settings_controls({"backend": "opencv", "controls": {"exposure": -6}}) == {}
    assert settings_controls({}) == {}


def test_settings_of_another_backend_are_not_restored_but_metered(fake):
    cam, device = open_cam(fake, settings={"backend": "opencv", "controls": {"exposure": -6}})
    assert not cam.restored and "autofocus_cycle" in device.calls


def test_old_lock_file_still_reads(tmp_path, fake):
    path = tmp_path / "camera-lock.json"
    path.write_text('{"exposure_us": 9000, "analogue_gain": 1.5, "colour_gains": [2.0, 1.7]}')
    lock = ExposureLock.load(path)
    cam, device = open_cam(fake, settings=lock.as_settings())
    assert device.control_calls[0] == {"ExposureTime": 9000, "AnalogueGain": 1.5,
                                       "ColourGains": (2.0, 1.7), **MANUAL}
    path.write_text("{not json")
    with pytest.raises(CameraSettingsError, match="companion tower calibrate"):
        ExposureLock.load(path)
