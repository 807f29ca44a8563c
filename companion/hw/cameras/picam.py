"""The Raspberry Pi camera through Picamera2: exposure, white balance and focus held still.

Why held still: automatic exposure (AE) and white balance (AWB) re-adjust on every frame.
Cubes dropping into the tray change the scene, so AE/AWB would change the colours between the
calibration photo and the counted frame — a red cube could drift towards purple. A Camera
Module 3 left to itself also keeps its lens where the tuning parks it, far beyond the tray.

What we send: only the *values* — ``ExposureTime``, ``AnalogueGain``, ``ColourGains`` and, on
a camera with a focus motor, ``AfMode`` = manual with ``LensPosition`` (dioptres, 1 / metres).
We never send ``AeEnable``/``AwbEnable``: the Picamera2 maintainers advise against combining
them with the values (raspberrypi/picamera2#933), a libcamera bug affects ``AeEnable`` before
start (#1269), and fixed values alone switch the algorithms to manual on current Picamera2 (as
reviewed from its manual and issues; not verified on a Pi here). Because that is the claim the
whole colour calibration rests on, the camera *checks* it: after setting the values it drops
frames until their metadata shows them (:attr:`Picamera2Camera.frames_to_apply`) and records a
warning when they never appear.

Where the values come from: the calibration (``Calibration.camera``, made by
``companion tower calibrate``), restored when the camera opens; the old
``camera-lock.json`` of ``companion tower lock`` still works. With neither, the camera meters
once (AE/AWB run for a moment), focuses once (one autofocus cycle, or the tray distance given
as ``focus_distance_m``) and freezes what it found.

Fresh frames: :meth:`Picamera2Camera.capture` asks ``capture_request(flush=True)``
(Picamera2 ≥ 0.3.15, as reviewed; not verified on a Pi here), which returns the first frame
whose exposure *started* after the call. Older Picamera2 has no ``flush``; then we do the same
by hand: ``SensorTimestamp`` marks the end of the exposure, so a frame began at
``SensorTimestamp − 1000·ExposureTime`` ns, and frames that began before the call are dropped.

Exposure modes: libcamera ≥ 0.5 ignores ``ExposureTime``/``AnalogueGain`` unless
``ExposureTimeMode``/``AnalogueGainMode`` are manual (raspberrypi/picamera2#1269); Picamera2
0.3.27+ sets them itself (#1255, #1265), 0.3.26 did not at start. So when the camera advertises
those controls we send them as manual with the values ourselves, and the check below sees it.

Never waiting for ever: every Picamera2 call that waits for a frame (``capture_request``,
``capture_metadata``, ``autofocus_cycle``) passes ``wait=`` a number of seconds (Picamera2
≥ 0.3.20; before that ``wait`` is only true/false). Without it a stalled sensor — libcamera's
"Camera frontend has timed out!" after a loose ribbon or a brown-out cancels the outstanding
requests — blocks the caller for good. On a timeout the queued job is cancelled with
``cancel_all_and_flush()`` (else it stays first in Picamera2's job list and ``stop()`` waits
behind it), the camera is stopped and closed, and :class:`CameraTimeoutError` says to enter
the counts by hand; the tower reopens the camera at the next count.

Proving the lock: :meth:`Picamera2Camera.check_exposure_lock` steps the exposure down for a few
frames and checks that both the metadata and the picture follow, then restores it — a check
that sees auto-exposure still running, which comparing metadata with itself cannot.

Format: we request ``RGB888``. In libcamera's naming that is 24-bit pixels stored **B, G, R** —
exactly OpenCV's order. Because this naming has confused many, the order can be checked with a
red cube (:func:`channel_order_of`, ``companion tower check --red-box``) and overridden with
``channel_order="rgb"``.

Picamera2 is not a pip dependency: on the Pi it comes from ``apt install python3-picamera2`` and
is imported lazily here, so this module loads anywhere. *Any* failure to import it — not only
``ImportError``: a numpy built differently from the one Picamera2 was compiled against raises
``ValueError: numpy.dtype size changed`` — becomes :class:`CameraUnavailableError` with the
reason, so the companion runs on with manual counts instead of crashing.
"""

from __future__ import annotations

import importlib
import inspect
import json
import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from companion.hw.camera_base import Camera
from companion.hw.errors import (
    CameraBusyError,
    CameraSettingsError,
    CameraTimeoutError,
    CameraUnavailableError,
    HardwareError,
)
from companion.hw.holders import busy_message, is_busy

log = logging.getLogger(__name__)

BACKEND = "picamera2"
# libcamera's AfModeEnum: AfModeManual = 0, AfModeAuto = 1, AfModeContinuous = 2.
AF_MODE_MANUAL = 0
# libcamera ≥ 0.5: ExposureTimeModeEnum / AnalogueGainModeEnum: Auto = 0, Manual = 1.
MODE_MANUAL = 1
_MODE_OF = {"ExposureTime": "ExposureTimeMode", "AnalogueGain": "AnalogueGainMode"}
# Seconds a call may wait for one frame (a frame takes at most ~0.1 s at the exposures we use).
FRAME_TIMEOUT = 2.0
AUTOFOCUS_TIMEOUT = 6.0  # one autofocus cycle sweeps the lens over many frames
# A frame that began this far before our clock cannot be a queued frame: the clocks differ.
_OTHER_CLOCK_NS = 5_000_000_000
# How close the metadata must come to a value we set to count as "applied". Exposure and gain
# are quantised by the sensor (exposure to whole lines), so exact equality is not expected.
_TOLERANCE = {"ExposureTime": (0.02, 50.0), "AnalogueGain": (0.02, 0.02),
              "ColourGains": (0.01, 0.01), "LensPosition": (0.02, 0.05)}


@dataclass(frozen=True)
class LockCheck:
    """What :meth:`Picamera2Camera.check_exposure_lock` saw when it stepped the exposure down.

    ``metadata_followed``: the frames' metadata showed the lower exposure; ``picture_ratio``:
    mean brightness at the lower exposure ÷ before (about ``step`` when the picture follows;
    near 1 when auto-exposure still runs and makes up for it); ``restored``: the metadata
    showed the old values again afterwards.
    """

    step: float
    metadata_followed: bool
    picture_ratio: float
    restored: bool

    @property
    def picture_followed(self) -> bool:
        return self.picture_ratio <= 1 - (1 - self.step) / 2  # at least half the step's darkening

    @property
    def ok(self) -> bool:
        return self.metadata_followed and self.picture_followed and self.restored

    def sentence(self) -> str:
        said = (f"exposure stepped to {self.step:.0%}: metadata "
                f"{'followed' if self.metadata_followed else 'did NOT follow'}, picture "
                f"{self.picture_ratio:.0%} as bright"
                f"{'' if self.picture_followed else ' (did NOT follow)'}, "
                f"{'restored' if self.restored else 'NOT restored'}")
        return said


@dataclass(frozen=True)
class ExposureLock:
    """The old ``camera-lock.json`` of ``companion tower lock`` — read for compatibility only.

    New installations keep these values in the calibration (``Calibration.camera``).
    """

    exposure_us: int
    analogue_gain: float
    colour_gains: tuple[float, float]  # (red gain, blue gain), as libcamera's ColourGains

    def as_settings(self) -> dict[str, Any]:
        """The same values in the calibration's camera-settings form."""
        return {"backend": BACKEND, "source": "camera-lock.json",
                "controls": {"ExposureTime": int(self.exposure_us),
                             "AnalogueGain": float(self.analogue_gain),
                             "ColourGains": [float(g) for g in self.colour_gains]}}

    @classmethod
    def load(cls, path: str | Path) -> ExposureLock:
        """Read an old lock file; a broken one is a clear :class:`CameraSettingsError`."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            return cls(int(data["exposure_us"]), float(data["analogue_gain"]),
                       (float(data["colour_gains"][0]), float(data["colour_gains"][1])))
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise CameraSettingsError(
                f"The old camera exposure file {path} is unreadable — delete it and run "
                "'companion tower calibrate'."
            ) from exc


def settings_controls(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The Picamera2 controls held in calibration ``settings``, checked.

    Raises :class:`CameraSettingsError` naming the bad value; returns ``{}`` when ``settings``
    belong to another backend (they are then not ours to restore).
    """
    if not settings or settings.get("backend") != BACKEND:
        return {}
    raw = settings.get("controls")
    if not isinstance(raw, Mapping):
        raise CameraSettingsError("The calibration's camera settings have no controls — run "
                                  "'companion tower calibrate' again.")
    out: dict[str, Any] = {}
    for key, convert in (("ExposureTime", lambda v: _positive(v, int)),
                         ("AnalogueGain", lambda v: _positive(v, float)),
                         ("ColourGains", lambda v: tuple(_positive(g, float) for g in _pair(v))),
                         ("LensPosition", _lens)):
        if key not in raw:
            continue
        try:
            out[key] = convert(raw[key])
        except (TypeError, ValueError):
            raise CameraSettingsError(
                f"The calibration's camera setting {key} = {raw[key]!r} is not usable — run "
                "'companion tower calibrate' again.") from None
    if "LensPosition" in out:
        out["AfMode"] = AF_MODE_MANUAL  # LensPosition is only obeyed in manual focus mode
    return out


def _pair(value: Any) -> tuple[Any, Any]:
    red, blue = value
    return red, blue


def _lens(value: Any) -> float:
    lens = float(value)
    if isinstance(value, bool) or not math.isfinite(lens) or lens < 0:
        raise ValueError("LensPosition")
    return lens


def _positive(value: Any, kind: type) -> Any:
    if isinstance(value, (bool, str)):
        raise TypeError(value)
    number = kind(value)
    if not math.isfinite(number) or number <= 0:
        raise ValueError(value)
    return number


def lens_position_for(distance_m: float) -> float:
    """``LensPosition`` in dioptres that focuses at ``distance_m`` metres: 1 / distance."""
    if not distance_m > 0:
        raise CameraSettingsError("The focus distance must be more than zero.")
    return 1.0 / distance_m


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
    """A Raspberry Pi camera module. ``module`` replaces the ``picamera2`` import (tests).

    ``settings`` are the calibration's camera settings to restore; ``focus_distance_m`` (only
    without settings) focuses by distance instead of an autofocus cycle. After opening,
    :attr:`controls` holds what was set, :attr:`frames_to_apply` how many frames it took the
    metadata to show them (None: never) and :attr:`warnings` sentences for the owner.
    """

    name = BACKEND

    def __init__(
        self,
        settings: Mapping[str, Any] | None = None,
        size: tuple[int, int] = (1280, 960),
        channel_order: str = "bgr",
        camera_num: int = 0,
        module: ModuleType | None = None,
        focus_distance_m: float | None = None,
        clock_ns: Callable[[], int] = time.monotonic_ns,
        meter_frames: int = 15,
        apply_frames: int = 30,
        max_stale: int = 8,
        flush_frames: int = 2,
        frame_timeout: float = FRAME_TIMEOUT,
        autofocus_timeout: float = AUTOFOCUS_TIMEOUT,
    ) -> None:
        if channel_order not in ("bgr", "rgb"):
            raise HardwareError(f"The channel order must be bgr or rgb, not {channel_order!r}.")
        restore = settings_controls(settings or {})
        if settings and not restore:
            log.warning("camera: the saved camera settings are for %r, not the Pi camera — "
                        "metering afresh", settings.get("backend"))
        picamera2 = module or _import_picamera2()
        self.channel_order = channel_order
        self.size = size
        self.max_stale = max_stale
        self.flush_frames = flush_frames
        self.warnings: list[str] = []
        self.frames_to_apply: int | None = None
        self.timestamps_usable = True  # False once the timestamps prove to be another clock
        self._clock_ns = clock_ns
        self.frame_timeout = frame_timeout
        self.autofocus_timeout = autofocus_timeout
        self.can_time_out = False
        self._cam = None
        try:
            cameras = picamera2.Picamera2.global_camera_info()
        except Exception as exc:
            raise _open_failure(exc) from exc
        # libcamera lists USB webcams too; they are the opencv backend's (rpicam-apps hides
        # them the same way, raspberrypi/rpicam-apps#282). Picamera2 numbers all of them.
        ribbon = [i for i, info in enumerate(cameras) if not _is_usb(info)]
        if not ribbon:
            raise CameraUnavailableError(
                "No Raspberry Pi camera is connected — check the ribbon cable (see firmware_notes)."
                + (" (A USB camera is there: it is used as COMPANION_CAMERA=opencv.)"
                   if cameras else ""))
        index = ribbon[min(camera_num, len(ribbon) - 1)]
        self.model = str(cameras[index].get("Model", "camera"))
        try:
            self._cam = picamera2.Picamera2(index)
            self.can_time_out = callable(getattr(self._cam, "cancel_all_and_flush", None))
            if not self.can_time_out:
                self.warnings.append("This Picamera2 cannot time out a stalled camera (it is "
                                     "older than 0.3.20): update it — sudo apt update && sudo "
                                     "apt full-upgrade.")
            self._cam.configure(self._cam.create_video_configuration(
                main={"format": "RGB888", "size": size}, queue=False))
            known = dict(getattr(self._cam, "camera_controls", {}) or {})
            self.has_focus = "AfMode" in known and "LensPosition" in known
            self._lens_range = known.get("LensPosition")
            if restore:  # the calibration's values, in force from the first frame
                controls = self._supported(restore, known)
                self._cam.set_controls(controls)
                self._cam.start()
            else:
                self._cam.start()
                controls = self._supported(self._meter(focus_distance_m, meter_frames), known)
                self._cam.set_controls(controls)
            self.frames_to_apply = self._wait_until_applied(controls, apply_frames)
            self._has_flush = _accepts(self._cam.capture_request, "flush")
        except CameraUnavailableError:
            self.close()
            raise
        except Exception as exc:  # the library raises RuntimeError, OSError, IndexError…
            self.close()
            raise _open_failure(exc) from exc
        self.controls = controls
        self.restored = bool(restore)
        how = "restored from the calibration" if restore else "metered now"
        self.description = (f"Pi camera {camera_num} ({self.model}) {size[0]}×{size[1]}, "
                            f"exposure {controls.get('ExposureTime')} µs, gain "
                            f"{_fmt(controls.get('AnalogueGain'))}"
                            + (f", focus {_fmt(controls['LensPosition'])} dioptres"
                               if "LensPosition" in controls else "") + f", {how}")
        for warning in self.warnings:
            log.warning("camera: %s", warning)

    # --- the settings the calibration keeps --------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """What to save with a calibration so :class:`Picamera2Camera` can restore it."""
        controls: dict[str, Any] = {}
        for key, value in self.controls.items():
            if key == "ColourGains":
                controls[key] = [float(v) for v in value]
            elif key == "AfMode":
                controls[key] = int(value)
            elif key in _MODE_OF.values():
                continue  # derived: sent again whenever the value is
            else:
                controls[key] = value
        return {"backend": BACKEND, "model": self.model, "size": list(self.size),
                "controls": controls}

    def metadata(self) -> dict[str, Any]:
        """The metadata of the next frame (what the camera reports it is doing)."""
        try:
            return dict(self._wait("capture_metadata"))
        except CameraUnavailableError:
            raise
        except Exception as exc:
            raise CameraUnavailableError() from exc

    def check_exposure_lock(self, step: float = 0.5, frames: int = 6) -> LockCheck:
        """Prove the exposure is fixed by changing it: set ``step`` × the exposure for up to
        ``frames`` frames, check that the metadata *and* the picture follow, then restore.

        Auto-exposure that still runs either ignores the lower value (the metadata does not
        follow) or makes up for it (the picture does not darken). Saturated or black pictures
        cannot show a darkening: light the tray as for a game. Raises
        :class:`CameraUnavailableError` when the camera stops answering.
        """
        if not 0 < step < 1:
            raise HardwareError("The exposure step must lie between 0 and 1.")
        base = self._fresh()
        exposure = int(base[1].get("ExposureTime") or self.controls.get("ExposureTime") or 0)
        if exposure <= 0:
            raise CameraUnavailableError("The camera does not report its exposure — check the "
                                         "ribbon cable and run 'companion doctor' again.")
        lower = {"ExposureTime": max(1, int(exposure * step))}
        for value, mode in _MODE_OF.items():
            if mode in self.controls:
                lower[mode] = MODE_MANUAL
        self._cam.set_controls(lower)
        followed, image, metadata = False, base[0], base[1]
        for _ in range(max(1, frames)):
            image, metadata = self._fresh()
            if not _differences(lower, metadata):
                followed = True
                break
        ratio = _mean(image) / max(_mean(base[0]), 1e-6)
        restore = {k: v for k, v in self.controls.items() if k in ("ExposureTime", *_MODE_OF.values())}
        if not restore:
            restore = {"ExposureTime": exposure}
        self._cam.set_controls(restore)
        restored = self._wait_until_applied(restore, max(frames, self.max_stale) * 2,
                                            warn=False) is not None
        return LockCheck(step=step, metadata_followed=followed,
                         picture_ratio=round(ratio, 3), restored=restored)

    def _fresh(self) -> tuple[np.ndarray, dict[str, Any]]:
        """One frame and its metadata, waited for with the usual limit."""
        request = self._wait("capture_request")
        try:
            return self._array(request), dict(request.get_metadata())
        finally:
            request.release()

    # --- waiting, with a limit -----------------------------------------------------------------
    def _wait(self, call: str, timeout: float | None = None, **kw: Any) -> Any:
        """``self._cam.<call>(wait=timeout, **kw)``; a timeout gives up the camera.

        Guarantee: returns within about ``timeout`` seconds (default :attr:`frame_timeout`) on
        a Picamera2 that can time out (≥ 0.3.20), or raises :class:`CameraTimeoutError` after
        cancelling the queued job, stopping and closing the camera.
        """
        cam = self._cam
        if cam is None:
            raise CameraUnavailableError()
        limit = self.frame_timeout if timeout is None else timeout
        try:
            return getattr(cam, call)(wait=limit if self.can_time_out else True, **kw)
        except TimeoutError as exc:  # concurrent.futures.TimeoutError is TimeoutError on 3.11
            self._give_up()
            raise CameraTimeoutError(
                f"The camera sent no picture within {limit:g} seconds (a loose ribbon cable or "
                "too little power) — camera unavailable, enter the counts by hand; the "
                "companion tries it again at the next count.") from exc

    def _give_up(self) -> None:
        """After a timeout: cancel what waits for a frame, then stop and close the camera."""
        cam = self._cam
        if cam is not None:
            try:
                cam.cancel_all_and_flush()  # else stop() queues behind the timed-out job
            except Exception:
                log.debug("camera: cancel_all_and_flush failed", exc_info=True)
        self.close()

    # --- frames ------------------------------------------------------------------------------
    def capture(self) -> np.ndarray:
        try:
            if self._has_flush:
                request = self._wait("capture_request", flush=True)
                try:
                    return self._array(request)
                finally:
                    request.release()
            return self._capture_by_timestamp(self._clock_ns())
        except CameraUnavailableError:
            raise
        except Exception as exc:
            raise CameraUnavailableError() from exc

    def _capture_by_timestamp(self, asked_at: int) -> np.ndarray:
        """Older Picamera2: drop frames whose exposure began before ``asked_at``."""
        if not self.timestamps_usable:
            return self._capture_after_flush()
        for _ in range(self.max_stale + 1):
            request = self._wait("capture_request")
            try:
                metadata = request.get_metadata()
                began = (int(metadata.get("SensorTimestamp", 0))
                         - 1000 * int(metadata.get("ExposureTime", 0)))
                if began < asked_at - _OTHER_CLOCK_NS:
                    self.timestamps_usable = False
                    log.warning("camera: frame timestamps use another clock — dropping %d "
                                "queued frames per capture instead", self.flush_frames)
                elif began < asked_at:
                    continue  # exposed (at least partly) before we asked: drop it
                else:
                    return self._array(request)
            finally:
                request.release()
            return self._capture_after_flush()
        raise CameraUnavailableError(
            "The camera only sends old frames — restart the companion; if it persists, "
            "check the camera cable."
        )

    def _capture_after_flush(self) -> np.ndarray:
        for _ in range(self.flush_frames):
            self._wait("capture_request").release()
        request = self._wait("capture_request")
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

    # --- metering, focus, checking -----------------------------------------------------------
    def _meter(self, focus_distance_m: float | None, frames: int) -> dict[str, Any]:
        """Focus once, let AE/AWB settle, and return the values they found."""
        controls: dict[str, Any] = {}
        if self.has_focus:
            if focus_distance_m is not None:
                lens = self._clamped_lens(lens_position_for(focus_distance_m), focus_distance_m)
            else:
                lens = self._autofocus()
            if lens is not None:
                controls.update(AfMode=AF_MODE_MANUAL, LensPosition=lens)
        elif focus_distance_m is not None:
            self.warnings.append("This camera has no focus motor; focus it by turning the lens "
                                 "(see firmware_notes/optics.md).")
        metadata: Mapping[str, Any] = {}
        for _ in range(max(1, frames)):  # let AE/AWB converge, then freeze what they found
            metadata = self._wait("capture_metadata")
        try:
            red, blue = metadata["ColourGains"]
            controls.update(ExposureTime=int(metadata["ExposureTime"]),
                            AnalogueGain=float(metadata["AnalogueGain"]),
                            ColourGains=(float(red), float(blue)))
        except (KeyError, TypeError, ValueError) as exc:
            raise CameraUnavailableError(
                "The camera did not report its exposure — check the ribbon cable and restart."
            ) from exc
        log.info("camera: metered %s", controls)
        return controls

    def _autofocus(self) -> float | None:
        """One autofocus cycle on what the camera sees now; the lens position it ended at."""
        if getattr(self._cam, "autofocus_cycle", None) is None:
            self.warnings.append("This Picamera2 has no autofocus cycle: give the tray distance "
                                 "(companion tower calibrate --distance CM) or update it.")
            return None
        if not self._wait("autofocus_cycle", self.autofocus_timeout):
            self.warnings.append("Autofocus did not find a sharp picture (an empty clear tray "
                                 "gives it little to see): give the tray distance with "
                                 "--distance CM.")
        lens = self._wait("capture_metadata").get("LensPosition")
        return None if lens is None else float(lens)

    def _clamped_lens(self, lens: float, distance_m: float) -> float:
        if not self._lens_range:
            return lens
        low, high = (float(v) for v in self._lens_range[:2])
        if lens > high:
            self.warnings.append(f"The tray at {distance_m * 100:g} cm is closer than this lens "
                                 f"can focus ({1 / high * 100:.1f} cm): move the camera away.")
        return min(max(lens, low), high)

    def _supported(self, controls: Mapping[str, Any], known: Mapping[str, Any]) -> dict[str, Any]:
        """``controls`` without those this camera does not offer (no focus motor, say)."""
        if not known:  # the library did not say: send everything
            return dict(controls)
        dropped = [k for k in controls if k not in known]
        if "LensPosition" in dropped:
            self.warnings.append("The saved focus cannot be restored: this camera has no focus "
                                 "motor.")
        out = {k: v for k, v in controls.items() if k in known}
        for value, mode in _MODE_OF.items():  # libcamera ≥ 0.5: the value needs manual mode
            if value in out and mode in known:
                out[mode] = MODE_MANUAL
        return out

    def _wait_until_applied(self, controls: Mapping[str, Any], frames: int,
                            warn: bool = True) -> int | None:
        """Drop frames until their metadata shows ``controls``; how many it took (None: never)."""
        metadata: Mapping[str, Any] = {}
        for dropped in range(1, frames + 1):
            metadata = self._wait("capture_metadata")
            if not _differences(controls, metadata):
                return dropped
        if not warn:
            return None
        self.warnings.append(
            f"The camera did not take the fixed settings within {frames} frames "
            f"({'; '.join(_differences(controls, metadata))}); the light may drift — run "
            "'companion doctor'.")
        return None


def _differences(wanted: Mapping[str, Any], metadata: Mapping[str, Any]) -> list[str]:
    """The controls whose reported value is not (near) the value we set."""
    out = []
    for key, (rel, absolute) in _TOLERANCE.items():
        if key not in wanted or key not in metadata:
            continue  # a value the camera does not report cannot be checked
        want = np.atleast_1d(np.asarray(wanted[key], dtype=float))
        got = np.atleast_1d(np.asarray(metadata[key], dtype=float))
        if want.shape != got.shape or np.any(np.abs(got - want) > np.maximum(rel * np.abs(want),
                                                                             absolute)):
            out.append(f"{key} asked {_fmt(wanted[key])}, got {_fmt(metadata[key])}")
    return out


def _mean(image: np.ndarray) -> float:
    return float(np.asarray(image, dtype=np.float64).mean())


def _is_usb(info: Mapping[str, Any]) -> bool:
    """A camera libcamera reaches over USB (its Id is the USB device path), not the ribbon."""
    return "usb" in str(info.get("Id", "")).lower()


def _fmt(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(_fmt(v) for v in value) + ")"
    return f"{value:.3g}" if isinstance(value, float) else str(value)


def _accepts(function: Callable[..., Any], keyword: str) -> bool:
    try:
        return keyword in inspect.signature(function).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        return False


def _import_picamera2() -> ModuleType:
    """Import Picamera2; *any* failure is :class:`CameraUnavailableError` with the reason."""
    try:
        return importlib.import_module("picamera2")
    except ImportError as exc:
        if exc.name == "picamera2" or (exc.name is None and "picamera2" in str(exc)):
            raise CameraUnavailableError(
                "Picamera2 is not installed (on a Pi: sudo apt install python3-picamera2)."
            ) from exc
        raise CameraUnavailableError(_import_failure(exc)) from exc
    except Exception as exc:  # ValueError "numpy.dtype size changed", RuntimeError, …
        raise CameraUnavailableError(_import_failure(exc)) from exc


def _import_failure(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".strip()
    if "numpy" in str(exc).lower():
        numpy_at = getattr(np, "__file__", "?")
        return (f"The camera is off: Picamera2 cannot load with numpy {np.__version__} from "
                f"{numpy_at} ({text}). A second numpy hides the one Picamera2 was built for — "
                "run 'companion doctor': it names the one command that removes it. Enter the "
                "counts by hand meanwhile.")
    return (f"The camera is off: Picamera2 cannot load ({text}). Run 'companion doctor' for "
            "what to repair. Enter the counts by hand meanwhile.")


def _open_failure(exc: BaseException) -> CameraUnavailableError:
    """The error for a camera that does not open: :class:`CameraBusyError` when another
    program holds it (found anywhere in the exception chain), else a cable fault."""
    if is_busy(exc):
        return CameraBusyError(busy_message(exc))
    text = f"{type(exc).__name__}: {exc}".strip()
    return CameraUnavailableError(
        f"The Pi camera does not open ({text}) — check the ribbon cable, then run "
        "'companion doctor'. Enter the counts by hand meanwhile.")
