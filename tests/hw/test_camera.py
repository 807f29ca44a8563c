"""Backend choice: forced kinds, auto-detection order, the log line, clear refusals."""

from __future__ import annotations

import logging
import sys

import cv2
import numpy as np
import pytest

from companion.hw.camera import open_camera
from companion.hw.cameras import usb
from companion.hw.errors import CameraUnavailableError, UnknownCameraKindError
from tests.hw import fake_picamera2
from tests.hw.cameras.test_folder_usb import FakeCapture


@pytest.fixture
def no_picamera2(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)


@pytest.fixture
def with_picamera2(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2.module())


@pytest.fixture
def no_usb(monkeypatch):
    class Closed(FakeCapture):
        opened = False

    monkeypatch.setattr(usb.cv2, "VideoCapture", Closed)


@pytest.fixture
def with_usb(monkeypatch):
    class Open(FakeCapture):
        opened, fail_after = True, None

    monkeypatch.setattr(usb.cv2, "VideoCapture", Open)


def test_unknown_kind_is_a_clear_value_error():
    with pytest.raises(UnknownCameraKindError, match="not 'webcam'") as err:
        open_camera("webcam")
    assert isinstance(err.value, ValueError)


def test_auto_prefers_the_pi_camera(with_picamera2, with_usb, caplog):
    with caplog.at_level(logging.INFO, logger="companion.hw.camera"):
        cam = open_camera("auto", size=(32, 24), device="/dev/video7")
    assert cam.name == "picamera2"
    assert "using the picamera2 backend" in caplog.text and "auto-detected" in caplog.text


def test_auto_falls_to_usb_and_says_why(no_picamera2, with_usb, caplog):
    with caplog.at_level(logging.INFO, logger="companion.hw.camera"):
        cam = open_camera("auto", device="/dev/video7")
    assert cam.name == "opencv"
    assert "picamera2: Picamera2 is not installed" in caplog.text


def test_auto_uses_a_given_folder_first(with_picamera2, tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((4, 4, 3), np.uint8))
    assert open_camera("auto", folder=tmp_path).name == "folder"


def test_forced_kind_does_not_fall_back(no_picamera2, with_usb, caplog):
    with pytest.raises(CameraUnavailableError, match="not installed"):
        open_camera("picamera2")
    with caplog.at_level(logging.INFO, logger="companion.hw.camera"):
        assert open_camera("opencv", device="/dev/video7").name == "opencv"
    assert "as configured" in caplog.text


def test_forced_folder_without_folder(tmp_path):
    with pytest.raises(CameraUnavailableError, match="COMPANION_CAMERA_FOLDER"):
        open_camera("folder")


def test_backends_depend_on_the_interface_not_on_the_choice_of_backend():
    # The interface and the choice are two modules so that the backends import the first and
    # nothing imports back: loading every backend must not load the chooser.
    import subprocess

    code = ("import sys\n"
            "import companion.hw.cameras.folder, companion.hw.cameras.usb, companion.hw.cameras.picam, "
            "companion.hw.cameras.synthetic\n"
            "print('companion.hw.camera' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
