"""USB webcams through OpenCV's ``VideoCapture``."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.hw.camera import Camera
from companion.hw.errors import CameraUnavailableError

log = logging.getLogger(__name__)

# V4L2 through OpenCV: 1 = manual exposure, 3 = aperture priority (auto).
_V4L2_MANUAL_EXPOSURE = 1


class OpenCVCamera(Camera):
    """A webcam. Auto white balance is switched off; exposure is fixed when ``exposure`` is given.

    Webcams keep a few frames in a driver queue. To return a *fresh* frame, :meth:`capture`
    first grabs and drops ``flush_frames`` frames (the buffer is also asked to hold one frame,
    which not every driver honours).
    """

    name = "opencv"

    def __init__(
        self,
        device: int | str = 0,
        size: tuple[int, int] = (1280, 960),
        exposure: float | None = None,
        flush_frames: int = 2,
    ) -> None:
        self.device = device
        self.flush_frames = flush_frames
        self.description = f"USB camera {device}"
        if isinstance(device, int) and sys.platform.startswith("linux") and not Path(
                f"/dev/video{device}").exists():
            raise CameraUnavailableError(f"No USB camera is plugged in (/dev/video{device}).")
        self._cap = cv2.VideoCapture(device)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraUnavailableError(f"No USB camera answers at {device!r}.")
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        if exposure is not None:
            self._cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, _V4L2_MANUAL_EXPOSURE)
            self._cap.set(cv2.CAP_PROP_EXPOSURE, exposure)
        else:
            log.warning("camera: USB exposure is automatic — colours may drift between frames")
        try:
            self.capture()  # a camera that opens but sends nothing is not a camera
        except CameraUnavailableError:
            self._cap.release()
            raise

    def capture(self) -> np.ndarray:
        try:
            for _ in range(self.flush_frames):
                self._cap.grab()
            ok, frame = self._cap.read()
        except cv2.error as exc:
            raise CameraUnavailableError() from exc
        if not ok or frame is None or frame.ndim != 3:
            raise CameraUnavailableError()
        return frame

    def close(self) -> None:
        self._cap.release()
