"""The installed companion service, as the commands a person types on the Pi see it.

Two questions before a shell command touches the camera or the data: is the service running
(then it holds the camera — only one program can), and which data folder does it use (then
the calibration a shell command writes must land there, or the service never sees it).

The unit is the one ``scripts/install-service`` writes, ``/etc/systemd/system/companion.service``;
its ``Environment=COMPANION_DATA=…`` line names the service's data folder. Everything here
answers "unknown" (None) rather than fail where there is no systemd (a laptop, a container).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

UNIT_NAME = "companion"
UNIT_PATH = Path("/etc/systemd/system/companion.service")


def service_state(run: Callable[..., subprocess.CompletedProcess] = subprocess.run,
                  systemctl: str | None = None) -> str | None:
    """``"active"``, ``"inactive"``, ``"failed"``… of the companion unit; None without systemd
    or when the unit is not installed."""
    command = systemctl or shutil.which("systemctl")
    if not command:
        return None
    try:
        done = run([command, "is-active", UNIT_NAME], capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    state = (done.stdout or "").strip()
    return None if state in ("", "unknown") else state


def service_data_dir(unit: Path | None = None) -> Path | None:
    """The data folder the installed unit gives the service (its ``COMPANION_DATA``), or None
    when no unit is installed or it names none."""
    try:
        text = (unit or UNIT_PATH).read_text(encoding="utf-8")
    except OSError:
        return None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("Environment=") and "COMPANION_DATA=" in line:
            value = line.split("COMPANION_DATA=", 1)[1].strip().strip('"')
            return Path(value) if value else None
    return None


def data_dir_mismatch(data_dir: Path, unit: Path | None = None) -> str | None:
    """A sentence when this command's data folder is not the service's, else None."""
    theirs = service_data_dir(unit)
    if theirs is None:
        return None
    mine = Path(data_dir).expanduser().resolve()
    if mine == theirs.expanduser().resolve():
        return None
    return (f"this command uses the data folder {mine}, but the companion service uses "
            f"{theirs}: what you calibrate or check here is not what the service sees — run "
            f"it from the companion folder, or with COMPANION_DATA={theirs}")
