"""The tower builder's settings, read from the environment on top of ``companion.config``.

``companion.config.Settings`` carries the three every setup needs (``COMPANION_CAMERA``,
``COMPANION_CAMERA_FOLDER``, ``COMPANION_GPIO``). The finer ones live here so the hardware can be
tuned without touching the shared configuration; each is documented in docs/hardware.md.
A value that cannot be used is a clear :class:`InvalidHardwareSettingError` at start-up.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.hw.controls import PinConfig
from companion.hw.errors import HardwareError
from companion.hw.osinfo import is_raspberry_pi
from companion.hw.simulator import DEFAULT_RELEASE_PROBABILITY, DEFAULT_RETAIN_PROBABILITY


class InvalidHardwareSettingError(HardwareError, ValueError):
    """An environment setting of the tower has a value that cannot be used."""


@dataclass(frozen=True)
class HardwareSettings:
    camera: str = "auto"
    camera_folder: Path | None = None
    gpio: str = "auto"
    pins: PinConfig = PinConfig()
    camera_device: int | str = 0
    camera_size: tuple[int, int] = (1280, 960)
    channel_order: str = "bgr"
    calibration_path: Path | None = None
    exposure_lock_path: Path | None = None
    sim_seed: int = 0
    sim_calibration_path: Path | None = None  # simulated tower: a calibration of the renderer's tray
    sim_retain: float = DEFAULT_RETAIN_PROBABILITY
    sim_release: float = DEFAULT_RELEASE_PROBABILITY
    retry_interval: float = 5.0
    focus_distance_m: float | None = None  # COMPANION_FOCUS_CM: lens to tray floor, no calibration
    raspberry_pi: bool = False  # no simulated tray here: a missing camera is shown as missing


def hardware_settings(settings: Any = None, environ: Mapping[str, str] | None = None
                      ) -> HardwareSettings:
    """Combine ``companion.config.Settings`` (or None: defaults) with the ``COMPANION_*`` extras."""
    env = dict(os.environ if environ is None else environ)
    if settings is not None:
        env.update(getattr(settings, "extra", {}) or {})
    data_dir = Path(getattr(settings, "data_dir", None) or env.get("COMPANION_DATA", "data"))
    calibration = env.get("COMPANION_CALIBRATION")
    lock = env.get("COMPANION_CAMERA_LOCK")
    return HardwareSettings(
        camera=getattr(settings, "camera", None) or env.get("COMPANION_CAMERA", "auto"),
        camera_folder=getattr(settings, "camera_folder", None)
        or (Path(env["COMPANION_CAMERA_FOLDER"]) if env.get("COMPANION_CAMERA_FOLDER") else None),
        gpio=getattr(settings, "gpio", None) or env.get("COMPANION_GPIO", "auto"),
        pins=PinConfig(
            count_pin=_number(env, "COMPANION_PIN_COUNT", 17, int),
            cancel_pin=_number(env, "COMPANION_PIN_CANCEL", 27, int),
            led_pin=_number(env, "COMPANION_PIN_LED", 22, int),
            bounce_time=_number(env, "COMPANION_BOUNCE_TIME", 0.05, float),
            hold_time=_number(env, "COMPANION_HOLD_TIME", 1.0, float),
        ),
        camera_device=_device(env.get("COMPANION_CAMERA_DEVICE", "0")),
        camera_size=_size(env.get("COMPANION_CAMERA_SIZE", "1280x960")),
        channel_order=_choice(env, "COMPANION_CAMERA_CHANNELS", "bgr", ("bgr", "rgb")),
        calibration_path=Path(calibration) if calibration else data_dir / "calibration.json",
        exposure_lock_path=Path(lock) if lock else data_dir / "camera-lock.json",
        sim_seed=_number(env, "COMPANION_SIM_SEED", 0, int),
        sim_calibration_path=Path(env["COMPANION_SIM_CALIBRATION"]) if env.get("COMPANION_SIM_CALIBRATION") else None,
        sim_retain=_number(env, "COMPANION_SIM_RETAIN", DEFAULT_RETAIN_PROBABILITY, float),
        sim_release=_number(env, "COMPANION_SIM_RELEASE", DEFAULT_RELEASE_PROBABILITY, float),
        retry_interval=_number(env, "COMPANION_HW_RETRY", 5.0, float),
        focus_distance_m=_focus(env),
        raspberry_pi=is_raspberry_pi(env),
    )


def _number(env: Mapping[str, str], key: str, default: Any, kind: type) -> Any:
    raw = env.get(key)
    if raw is None or raw == "":
        return default
    try:
        return kind(raw)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise InvalidHardwareSettingError(f"{key} must be {what}, not {raw!r}.") from None


def _focus(env: Mapping[str, str]) -> float | None:
    """``COMPANION_FOCUS_CM`` (lens to tray floor, 1–200 cm) in metres; None when unset."""
    centimetres = _number(env, "COMPANION_FOCUS_CM", None, float)
    if centimetres is None:
        return None
    if not 1 <= centimetres <= 200:
        raise InvalidHardwareSettingError(
            f"COMPANION_FOCUS_CM is the lens-to-tray distance in centimetres (1 to 200), not "
            f"{centimetres:g}.")
    return centimetres / 100


def _choice(env: Mapping[str, str], key: str, default: str, options: tuple[str, ...]) -> str:
    value = env.get(key) or default
    if value not in options:
        raise InvalidHardwareSettingError(f"{key} must be one of {', '.join(options)}, not {value!r}.")
    return value


def _device(raw: str) -> int | str:
    return int(raw) if raw.isdigit() else raw  # an index, or a path like /dev/video2


def _size(raw: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in raw.lower().split("x"))
    except ValueError:
        raise InvalidHardwareSettingError(
            f"COMPANION_CAMERA_SIZE must look like 1280x960, not {raw!r}.") from None
    if width <= 0 or height <= 0:
        raise InvalidHardwareSettingError("COMPANION_CAMERA_SIZE must be positive.")
    return width, height
