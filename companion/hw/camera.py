"""Choosing the camera backend, and auto-detection. The interface is :class:`Camera`
(:mod:`companion.hw.camera_base`, re-exported here); the backends live in :mod:`companion.hw.cameras`.

Every backend returns OpenCV BGR ``uint8`` frames (H×W×3) from :meth:`Camera.capture`, and every
capture is a *fresh* frame — exposed after the call began, never one waiting in a queue — because
the frame is counted right after the tray has settled.

=============  ===========================================================================
``picamera2``  Raspberry Pi camera (``companion.hw.cameras.picam``); exposure, gain and white
               balance locked so colours do not drift between frames.
``opencv``     USB webcam through ``cv2.VideoCapture`` (``companion.hw.cameras.usb``).
``folder``     replays recorded frames from a folder (``companion.hw.cameras.folder``).
``synthetic``  renders the tray of a :class:`~companion.hw.simulator.TowerSimulator`.
=============  ===========================================================================

``open_camera("auto")`` tries folder (only when a folder is given), picamera2, opencv, then
synthetic, and logs one line saying which backend is active and why. On a Raspberry Pi the
caller passes ``simulate=False``: there a missing camera must show as "camera unavailable" with
its reason, never as a quietly simulated tray.

Camera settings: :meth:`Camera.settings` returns what the backend can fix (exposure, gain,
white balance, focus) as a JSON-friendly dict that the calibration keeps
(``Calibration.camera``); ``open_camera(..., settings=that_dict)`` restores it. A backend
ignores settings saved by another backend.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.hw.camera_base import Camera
from companion.hw.errors import CameraUnavailableError, HardwareError, UnknownCameraKindError

__all__ = ["Camera", "CameraUnavailableError", "open_camera", "CAMERA_KINDS"]

log = logging.getLogger(__name__)

CAMERA_KINDS = ("auto", "picamera2", "opencv", "folder", "synthetic")


def open_camera(kind: str = "auto", **options: Any) -> Camera:
    """Open the camera backend ``kind`` with backend ``options``.

    Options: ``folder`` (folder backend), ``device`` / ``size`` / ``settings`` (opencv),
    ``settings`` / ``focus_distance_m`` / ``size`` / ``channel_order`` (picamera2),
    ``simulator`` / ``seed`` / ``conditions`` (synthetic), ``simulate`` (auto: may it end at
    the synthetic camera; default True). Unknown options for the chosen backend are ignored,
    so one settings dict serves all.

    A forced ``kind`` that cannot open raises :class:`CameraUnavailableError`; so does *any*
    failure inside a backend (a library that does not load, a device that errs). ``auto``
    falls through to the next backend and ends at the synthetic camera, which always opens —
    unless ``simulate=False``, when it raises :class:`CameraUnavailableError` naming every
    backend's reason.
    """
    if kind not in CAMERA_KINDS:
        raise UnknownCameraKindError(
            f"The camera setting must be one of {', '.join(CAMERA_KINDS)}, not {kind!r}."
        )
    if kind != "auto":
        camera = _open(kind, options)
        log.info("camera: using the %s backend (%s), as configured", camera.name,
                 camera.description)
        return camera
    order = ["picamera2", "opencv"]
    if options.get("simulate", True):
        order.append("synthetic")
    if options.get("folder"):
        order.insert(0, "folder")
    reasons = []
    for candidate in order:
        try:
            camera = _open(candidate, options)
        except CameraUnavailableError as exc:
            reasons.append(f"{candidate}: {exc}")
            continue
        skipped = f"; skipped {' | '.join(reasons)}" if reasons else ""
        log.info("camera: using the %s backend (%s), auto-detected%s", camera.name,
                 camera.description, skipped)
        return camera
    raise CameraUnavailableError(" | ".join(reasons) or None)


def _open(kind: str, options: dict[str, Any]) -> Camera:
    """Open one backend; whatever goes wrong inside it is :class:`CameraUnavailableError`."""
    try:
        return _OPENERS[kind](options)
    except HardwareError:
        raise  # our own errors already say what is wrong (a bad setting, no camera)
    except Exception as exc:  # ImportError of a backend's library, OSError, RuntimeError…
        raise CameraUnavailableError(
            f"The {kind} camera does not open ({type(exc).__name__}: {exc}) — run "
            "'companion doctor'. Enter the counts by hand meanwhile.") from exc


def _open_picamera2(options: dict[str, Any]) -> Camera:
    from companion.hw.cameras.picam import Picamera2Camera

    return Picamera2Camera(**_pick(options, "settings", "focus_distance_m", "size",
                                   "channel_order", "camera_num"))


def _open_opencv(options: dict[str, Any]) -> Camera:
    from companion.hw.cameras.usb import OpenCVCamera

    return OpenCVCamera(**_pick(options, "device", "size", "settings"))


def _open_folder(options: dict[str, Any]) -> Camera:
    from companion.hw.cameras.folder import FolderCamera

    if not options.get("folder"):
        raise CameraUnavailableError(
            "The folder camera needs a folder of images: set COMPANION_CAMERA_FOLDER."
        )
    return FolderCamera(**_pick(options, "folder", "loop"))


def _open_synthetic(options: dict[str, Any]) -> Camera:
    from companion.hw.cameras.synthetic import SyntheticCamera

    return SyntheticCamera(**_pick(options, "simulator", "seed", "conditions"))


_OPENERS = {
    "picamera2": _open_picamera2,
    "opencv": _open_opencv,
    "folder": _open_folder,
    "synthetic": _open_synthetic,
}


def _pick(options: dict[str, Any], *names: str) -> dict[str, Any]:
    return {n: options[n] for n in names if options.get(n) is not None}
