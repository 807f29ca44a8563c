"""Run-time settings, read from the environment once at start-up.

``PORT`` (default 8000) and ``COMPANION_DATA`` (default ``./data``) are the two every user may
need; the hardware settings are for the tower builder (see firmware_notes/).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    host: str = "0.0.0.0"
    port: int = 8000
    data_dir: Path = Path("data")
    camera: str = "auto"  # auto | picamera2 | opencv | folder | synthetic
    camera_folder: Path | None = None
    gpio: str = "auto"  # auto | real | mock
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def database_path(self) -> Path:
        return self.data_dir / "companion.sqlite3"


def settings_from_env(environ: os._Environ[str] | dict[str, str] | None = None) -> Settings:
    """Build :class:`Settings` from environment variables; a bad PORT is a clear error."""
    env = os.environ if environ is None else environ
    raw_port = env.get("PORT", "8000")
    try:
        port = int(raw_port)
    except ValueError:
        raise SystemExit(f"PORT must be a number, got {raw_port!r}") from None
    if not 0 < port < 65536:
        raise SystemExit(f"PORT must be between 1 and 65535, got {port}")
    folder = env.get("COMPANION_CAMERA_FOLDER")
    return Settings(
        host=env.get("HOST", "0.0.0.0"),
        port=port,
        data_dir=Path(env.get("COMPANION_DATA", "data")),
        camera=env.get("COMPANION_CAMERA", "auto"),
        camera_folder=Path(folder) if folder else None,
        gpio=env.get("COMPANION_GPIO", "auto"),
    )
