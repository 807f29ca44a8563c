"""USB webcams through OpenCV's ``VideoCapture``, with exposure, gain, white balance and focus
held where the driver allows it.

Webcams differ: through OpenCV's V4L2 backend some accept manual exposure, gain, white-balance
temperature and focus, some a part of it, some none, and some report values that mean nothing.
So the camera *tries* each one and keeps what the driver accepted: :meth:`OpenCVCamera.settings`
names only the properties that were set successfully (``cap.set`` returned true), and the
calibration stores exactly those. What a driver really does with them cannot be known from here;
``companion doctor`` measures whether the brightness holds across frames.

Without saved settings the camera lets the automatic modes run for ``meter_frames`` frames,
reads the values they reached and fixes them (the same idea as the Pi camera).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.hw.camera_base import Camera
from companion.hw.errors import CameraUnavailableError

log = logging.getLogger(__name__)

BACKEND = "opencv"
# V4L2 through OpenCV: 1 = manual exposure, 3 = aperture priority (auto).
_V4L2_MANUAL_EXPOSURE = 1
# name in the calibration → (value property, the automatic mode to switch off first, its "off")
_PROPERTIES: dict[str, tuple[int, int | None, float | None]] = {
    "exposure": (cv2.CAP_PROP_EXPOSURE, cv2.CAP_PROP_AUTO_EXPOSURE, _V4L2_MANUAL_EXPOSURE),
    "gain": (cv2.CAP_PROP_GAIN, None, None),
    "wb_temperature": (cv2.CAP_PROP_WB_TEMPERATURE, cv2.CAP_PROP_AUTO_WB, 0),
    "focus": (cv2.CAP_PROP_FOCUS, cv2.CAP_PROP_AUTOFOCUS, 0),
}


class OpenCVCamera(Camera):
    """A webcam; ``settings`` are the calibration's camera settings to restore.

    Webcams keep a few frames in a driver queue. To return a *fresh* frame, :meth:`capture`
    first grabs and drops ``flush_frames`` frames (the buffer is also asked to hold one frame,
    which not every driver honours).
    """

    name = BACKEND

    def __init__(
        self,
        device: int | str = 0,
        size: tuple[int, int] = (1280, 960),
        settings: Mapping[str, Any] | None = None,
        flush_frames: int = 2,
        meter_frames: int = 15,
        exposure: float | None = None,  # a fixed exposure without a calibration (older option)
    ) -> None:
        self.device = device
        self.size = size
        self.flush_frames = flush_frames
        self.warnings: list[str] = []
        self.controls: dict[str, float] = {}
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
        try:
            self.capture()  # a camera that opens but sends nothing is not a camera
            wanted = _saved_controls(settings)
            if not wanted:
                for _ in range(max(0, meter_frames)):  # let the automatic modes settle
                    self._cap.grab()
                wanted = self._read_current()
                if exposure is not None:
                    wanted["exposure"] = float(exposure)
            self.controls = self._fix(wanted)
        except CameraUnavailableError:
            self._cap.release()
            raise
        missing = [name for name in ("exposure", "wb_temperature") if name not in self.controls]
        if missing:
            self.warnings.append(f"This USB camera's driver did not accept a fixed "
                                 f"{' and '.join(missing)}: colours may drift between frames.")
            log.warning("camera: %s", self.warnings[-1])
        held = ", ".join(f"{k} {v:g}" for k, v in self.controls.items()) or "nothing fixed"
        self.description = f"USB camera {device} ({held})"

    def settings(self) -> dict[str, Any]:
        """The properties the driver accepted, to keep with a calibration."""
        if not self.controls:
            return {}
        return {"backend": BACKEND, "device": str(self.device), "size": list(self.size),
                "controls": dict(self.controls)}

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

    def _read_current(self) -> dict[str, float]:
        """What the automatic modes reached (0 or negative from some drivers: 'not supported')."""
        values = {}
        for name, (prop, _auto, _off) in _PROPERTIES.items():
            value = float(self._cap.get(prop))
            if np.isfinite(value) and (value > 0 or name == "exposure"):
                values[name] = value  # V4L2 exposure may be negative (log2 seconds) on some
        return values

    def _fix(self, wanted: Mapping[str, float]) -> dict[str, float]:
        """Switch each automatic mode off and set the value; keep those the driver accepted."""
        accepted = {}
        for name, value in wanted.items():
            prop, auto, off = _PROPERTIES[name]
            if auto is not None and not self._cap.set(auto, off):
                continue
            if self._cap.set(prop, float(value)):
                accepted[name] = float(value)
        return accepted


def _saved_controls(settings: Mapping[str, Any] | None) -> dict[str, float]:
    """The calibration's USB settings, or {} when there are none or they belong elsewhere."""
    if not settings or settings.get("backend") != BACKEND:
        return {}
    controls = settings.get("controls")
    if not isinstance(controls, Mapping):
        return {}
    out = {}
    for name, value in controls.items():
        if name in _PROPERTIES and isinstance(value, (int, float)) and not isinstance(value, bool) \
                and np.isfinite(value):
            out[name] = float(value)
        else:
            log.warning("camera: ignoring the saved USB setting %s = %r", name, value)
    return out
