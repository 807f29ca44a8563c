"""The folder (replay) and USB (OpenCV) backends."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.hw.cameras import usb
from companion.hw.cameras.folder import FolderCamera
from companion.hw.errors import CameraUnavailableError


def write_frames(folder, values):
    for i, v in enumerate(values):
        cv2.imwrite(str(folder / f"frame{i:03}.png"), np.full((8, 8, 3), v, np.uint8))


def test_folder_replays_in_name_order_then_holds_the_last(tmp_path):
    write_frames(tmp_path, [10, 20, 30])
    (tmp_path / "notes.txt").write_text("not an image")
    cam = FolderCamera(tmp_path)
    assert [int(cam.capture()[0, 0, 0]) for _ in range(5)] == [10, 20, 30, 30, 30]


def test_folder_can_loop(tmp_path):
    write_frames(tmp_path, [10, 20])
    cam = FolderCamera(tmp_path, loop=True)
    assert [int(cam.capture()[0, 0, 0]) for _ in range(4)] == [10, 20, 10, 20]


def test_missing_or_empty_folder(tmp_path):
    with pytest.raises(CameraUnavailableError, match="does not exist"):
        FolderCamera(tmp_path / "nope")
    with pytest.raises(CameraUnavailableError, match="holds no images"):
        FolderCamera(tmp_path)


def test_unreadable_recorded_frame(tmp_path):
    (tmp_path / "broken.png").write_bytes(b"not a png")
    with pytest.raises(CameraUnavailableError, match="broken.png cannot be read"):
        FolderCamera(tmp_path).capture()


class FakeCapture:
    """Stands in for cv2.VideoCapture: a queue of frames, counting grabs; reports what its
    automatic modes reached and refuses the properties in ``refuses`` (as drivers do)."""

    opened = True
    fail_after: int | None = None
    refuses: frozenset[int] = frozenset()
    reported = {cv2.CAP_PROP_EXPOSURE: 156.0, cv2.CAP_PROP_GAIN: 32.0,
                cv2.CAP_PROP_WB_TEMPERATURE: 4600.0, cv2.CAP_PROP_FOCUS: 0.0}

    def __init__(self, device):
        self.device = device
        self.props: dict[int, float] = {}
        self.frame_no = 0
        self.released = False

    def isOpened(self):
        return self.opened

    def set(self, prop, value):
        if prop in self.refuses:
            return False
        self.props[prop] = value
        return True

    def get(self, prop):
        return self.props.get(prop, self.reported.get(prop, 0.0))

    def grab(self):
        self.frame_no += 1
        return True

    def read(self):
        self.frame_no += 1
        if self.fail_after is not None and self.frame_no > self.fail_after:
            return False, None
        return True, np.full((6, 8, 3), self.frame_no, np.uint8)

    def release(self):
        self.released = True


@pytest.fixture
def fake_capture(monkeypatch):
    made = []

    def factory(device):
        made.append(FakeCapture(device))
        return made[-1]

    monkeypatch.setattr(usb.cv2, "VideoCapture", factory)
    FakeCapture.opened, FakeCapture.fail_after, FakeCapture.refuses = True, None, frozenset()
    return made


def test_usb_camera_settings_and_fresh_frames(fake_capture):
    cam = usb.OpenCVCamera("/dev/video7", size=(640, 480), exposure=120, flush_frames=2)
    cap = fake_capture[0]
    assert cap.props[cv2.CAP_PROP_BUFFERSIZE] == 1
    assert cap.props[cv2.CAP_PROP_AUTO_WB] == 0
    assert cap.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 1 and cap.props[cv2.CAP_PROP_EXPOSURE] == 120
    assert (cap.props[cv2.CAP_PROP_FRAME_WIDTH], cap.props[cv2.CAP_PROP_FRAME_HEIGHT]) == (640, 480)
    before = cap.frame_no
    frame = cam.capture()
    assert cap.frame_no == before + 3  # two queued frames dropped, the third returned
    assert frame[0, 0, 0] == before + 3


def test_usb_camera_fixes_what_auto_reached_and_keeps_what_the_driver_took(fake_capture):
    FakeCapture.refuses = frozenset({cv2.CAP_PROP_AUTOFOCUS})  # a webcam without focus control
    cam = usb.OpenCVCamera("/dev/video7", size=(640, 480), meter_frames=5)
    cap = fake_capture[0]
    assert cap.props[cv2.CAP_PROP_AUTO_EXPOSURE] == 1 and cap.props[cv2.CAP_PROP_AUTO_WB] == 0
    assert cam.settings() == {"backend": "opencv", "device": "/dev/video7", "size": [640, 480],
                              "controls": {"exposure": 156.0, "gain": 32.0,
                                           "wb_temperature": 4600.0}}
    assert cam.warnings == []
    again = usb.OpenCVCamera("/dev/video7", settings=cam.settings())
    restored = fake_capture[1]
    assert restored.props[cv2.CAP_PROP_EXPOSURE] == 156.0
    assert restored.props[cv2.CAP_PROP_WB_TEMPERATURE] == 4600.0
    assert again.controls == cam.controls


def test_usb_driver_refusing_manual_exposure_is_a_warning(fake_capture):
    FakeCapture.refuses = frozenset({cv2.CAP_PROP_AUTO_EXPOSURE})
    cam = usb.OpenCVCamera("/dev/video7", meter_frames=0)
    assert "exposure" not in cam.controls
    assert any("did not accept a fixed exposure" in w for w in cam.warnings)


def test_usb_ignores_pi_camera_settings_and_bad_values(fake_capture):
    cam = usb.OpenCVCamera("/dev/video7", meter_frames=0, settings={
        "backend": "picamera2", "controls": {"ExposureTime": 9000}})
    assert cam.controls["exposure"] == 156.0  # metered, not the Pi camera's microseconds
    cam = usb.OpenCVCamera("/dev/video7", settings={
        "backend": "opencv", "controls": {"exposure": "bright", "gain": 12}})
    assert cam.controls == {"gain": 12.0}


def test_usb_camera_that_does_not_open(fake_capture):
    FakeCapture.opened = False
    with pytest.raises(CameraUnavailableError, match="No USB camera answers"):
        usb.OpenCVCamera("/dev/video7")
    assert fake_capture[0].released


def test_usb_camera_unplugged_mid_game(fake_capture):
    cam = usb.OpenCVCamera("/dev/video7", flush_frames=0)
    FakeCapture.fail_after = fake_capture[0].frame_no
    with pytest.raises(CameraUnavailableError, match="not answering"):
        cam.capture()


def test_missing_video_device_is_reported_without_probing(tmp_path, fake_capture):
    with pytest.raises(CameraUnavailableError, match="No USB camera is plugged in"):
        usb.OpenCVCamera(63)
    assert fake_capture == []
