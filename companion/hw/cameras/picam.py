"""The Raspberry Pi camera through Picamera2, with exposure and white balance locked.

Why locked: automatic exposure (AE) and automatic white balance (AWB) re-adjust on every frame.
Cubes dropping into the tray change the scene, so AE/AWB would change the colours between the
calibration photo and the counted frame — a red cube could drift towards purple. We therefore
switch both off and fix ``ExposureTime``, ``AnalogueGain`` and ``ColourGains``: either from an
:class:`ExposureLock` saved by ``companion tower lock`` (the calibration step), or, when none is
given, metered once when the camera opens (AE/AWB run for a moment, then are frozen).

Format: we request ``RGB888``. In libcamera's naming that is 24-bit pixels stored **B, G, R** —
exactly OpenCV's order — so no conversion is needed. Because this naming has confused many, the
order can be checked with a red cube (:func:`channel_order_of`, ``companion tower check
--red-box``) and overridden with ``channel_order="rgb"``.

Fresh frames: Picamera2 hands out queued requests, which may have been exposed *before* the
capture call. We configure ``queue=False`` and, in :meth:`Picamera2Camera.capture`, note
``time.monotonic_ns()`` first and drop every request whose ``SensorTimestamp`` (the same clock on
current Raspberry Pi OS) is older. Should the timestamps ever come from another clock (seconds
away from ours), the camera logs it once and instead drops ``flush_frames`` requests per capture.

Picamera2 is not a pip dependency: on the Pi it comes from ``apt install python3-picamera2`` and
is imported lazily here, so this module loads anywhere.
"""

from __future__ import annotations

import importlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from companion.hw.camera import Camera
from companion.hw.errors import CameraUnavailableError, HardwareError

log = logging.getLogger(__name__)

# A SensorTimestamp this far behind our clock cannot be a queued frame: the clocks differ.
_OTHER_CLOCK_NS = 5_000_000_000


@dataclass(frozen=True)
class ExposureLock:
    """Fixed exposure and white balance: the part of the calibration that lives in the camera."""

    exposure_us: int
    analogue_gain: float
    colour_gains: tuple[float, float]  # (red gain, blue gain), as libcamera's ColourGains

    def controls(self) -> dict[str, Any]:
        """The libcamera controls that freeze the picture: AE and AWB off, values fixed."""
        return {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": int(self.exposure_us),
            "AnalogueGain": float(self.analogue_gain),
            "ColourGains": (float(self.colour_gains[0]), float(self.colour_gains[1])),
        }

    @classmethod
    def from_metadata(cls, metadata: dict[str, Any]) -> ExposureLock:
        """The values the automatic algorithms settled on, read from a frame's metadata."""
        try:
            red, blue = metadata["ColourGains"]
            return cls(int(metadata["ExposureTime"]), float(metadata["AnalogueGain"]),
                       (float(red), float(blue)))
        except (KeyError, TypeError, ValueError) as exc:
            raise CameraUnavailableError(
                "The camera did not report its exposure — check the ribbon cable and restart."
            ) from exc

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> ExposureLock:
        """Read a lock saved by :meth:`save`; a broken file is a clear :class:`HardwareError`."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls(int(data["exposure_us"]), float(data["analogue_gain"]),
                       (float(data["colour_gains"][0]), float(data["colour_gains"][1])))
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise HardwareError(
                f"The camera exposure file {path} is unreadable — run 'companion tower lock' again."
            ) from exc


def channel_order_of(image: np.ndarray, red_box: tuple[int, int, int, int]) -> str:
    """Which channel order ``image`` has, judged from a box ``(x, y, w, h)`` around a red cube.

    Returns ``"bgr"`` when the last channel is the strongest there (OpenCV's order, correct),
    ``"rgb"`` when the first one is (red and blue swapped).
    """
    x, y, w, h = red_box
    patch = image[y:y + h, x:x + w].reshape(-1, 3).astype(np.float64)
    if patch.size == 0:
        raise HardwareError("The red cube box lies outside the picture.")
    first, _, last = patch.mean(axis=0)
    return "bgr" if last >= first else "rgb"


class Picamera2Camera(Camera):
    """A Raspberry Pi camera module. ``module`` replaces the ``picamera2`` import (tests)."""

    name = "picamera2"

    def __init__(
        self,
        lock: ExposureLock | None = None,
        size: tuple[int, int] = (1280, 960),
        channel_order: str = "bgr",
        camera_num: int = 0,
        module: ModuleType | None = None,
        clock_ns: Callable[[], int] = time.monotonic_ns,
        meter_frames: int = 15,
        max_stale: int = 8,
        flush_frames: int = 2,
    ) -> None:
        if channel_order not in ("bgr", "rgb"):
            raise HardwareError(f"The channel order must be bgr or rgb, not {channel_order!r}.")
        picamera2 = module or _import_picamera2()
        if not picamera2.Picamera2.global_camera_info():
            raise CameraUnavailableError(
                "No Raspberry Pi camera is connected — check the ribbon cable (see firmware_notes)."
            )
        self.channel_order = channel_order
        self.size = size
        self.max_stale = max_stale
        self.flush_frames = flush_frames
        self.timestamps_usable = True  # False once SensorTimestamp proves to be another clock
        self._clock_ns = clock_ns
        try:
            self._cam = picamera2.Picamera2(camera_num)
            config = self._cam.create_video_configuration(
                main={"format": "RGB888", "size": size},
                controls=lock.controls() if lock else {},
                queue=False,
            )
            self._cam.configure(config)
            self._cam.start()
            if lock is None:
                for _ in range(meter_frames):  # let AE/AWB converge, then freeze what they found
                    metadata = self._cam.capture_metadata()
                lock = ExposureLock.from_metadata(metadata)
                log.info("camera: metered and locked %s", lock)
            self._cam.set_controls(lock.controls())
        except CameraUnavailableError:
            self.close()
            raise
        except Exception as exc:  # the library raises RuntimeError, OSError, IndexError…
            self.close()
            raise CameraUnavailableError() from exc
        self.lock = lock
        self.description = f"Pi camera {camera_num} {size[0]}×{size[1]}, locked {lock}"

    def capture(self) -> np.ndarray:
        asked_at = self._clock_ns()
        try:
            if not self.timestamps_usable:
                return self._capture_after_flush()
            for _ in range(self.max_stale + 1):
                request = self._cam.capture_request()
                try:
                    stamp = request.get_metadata().get("SensorTimestamp", 0)
                    if stamp < asked_at - _OTHER_CLOCK_NS:
                        self.timestamps_usable = False
                        log.warning("camera: frame timestamps use another clock — dropping %d "
                                    "queued frames per capture instead", self.flush_frames)
                    elif stamp < asked_at:
                        continue  # exposed before we asked: a queued frame, drop it
                    else:
                        return self._array(request)
                finally:
                    request.release()
                return self._capture_after_flush()
        except CameraUnavailableError:
            raise
        except Exception as exc:
            raise CameraUnavailableError() from exc
        raise CameraUnavailableError(
            "The camera only sends old frames — restart the companion; if it persists, "
            "check the camera cable."
        )

    def _capture_after_flush(self) -> np.ndarray:
        for _ in range(self.flush_frames):
            self._cam.capture_request().release()
        request = self._cam.capture_request()
        try:
            return self._array(request)
        finally:
            request.release()

    def _array(self, request: Any) -> np.ndarray:
        frame = np.array(request.make_array("main"), copy=True)
        return frame[:, :, ::-1].copy() if self.channel_order == "rgb" else frame

    def close(self) -> None:
        cam = getattr(self, "_cam", None)
        if cam is None:
            return
        self._cam = None
        for step in (cam.stop, cam.close):
            try:
                step()
            except Exception:  # a dead camera may fail to stop; closing must still finish
                log.debug("camera: %s failed", step.__name__, exc_info=True)


def _import_picamera2() -> ModuleType:
    try:
        return importlib.import_module("picamera2")
    except ImportError as exc:
        raise CameraUnavailableError(
            "Picamera2 is not installed (on a Pi: sudo apt install python3-picamera2)."
        ) from exc
