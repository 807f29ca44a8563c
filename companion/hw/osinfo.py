"""Which system we run on, and how the virtual environment must be installed there.

Standard library only: ``scripts/install_plan.py`` imports this module with the *system*
Python, before the virtual environment (and numpy) exist.

Why it matters: on Raspberry Pi OS, Picamera2 comes from apt and is compiled against apt's
numpy. A second numpy from PyPI in the ``--system-site-packages`` virtual environment shadows
it, and Picamera2's compiled parts then fail on import (``ValueError: numpy.dtype size
changed``). So on Raspberry Pi OS the environment must use apt's numpy *and* apt's OpenCV
(a PyPI OpenCV wheel would pull a numpy of its own); elsewhere both come from PyPI.

How a Raspberry Pi is recognised: ``ID=raspbian`` (or ``raspbian`` in ``ID_LIKE``) in
``/etc/os-release``, or the file ``/etc/rpi-issue`` that Raspberry Pi OS images carry, or a
device-tree model naming a Raspberry Pi. We check all three because, as far as we know, the
64-bit Raspberry Pi OS ships Debian's own ``os-release`` (``ID=debian``); we could not verify
this on a Pi. ``COMPANION_INSTALL=system|pypi`` overrides the decision.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

OS_RELEASE = Path("/etc/os-release")
RPI_ISSUE = Path("/etc/rpi-issue")
DEVICE_MODEL = Path("/proc/device-tree/model")

# What the system stack needs from apt on Raspberry Pi OS (Bookworm and Trixie alike).
APT_PACKAGES = ("python3-numpy", "python3-opencv", "python3-picamera2", "python3-lgpio",
                "python3-venv")
# Imports that must work with the system Python before the environment is built, and the apt
# package that provides each.
SYSTEM_MODULES = {"numpy": "python3-numpy", "cv2": "python3-opencv"}


@dataclass(frozen=True)
class OsRelease:
    """The fields of an os-release file we use (all optional in the file)."""

    id: str = ""
    id_like: tuple[str, ...] = ()
    version_id: str = ""
    codename: str = ""
    pretty_name: str = ""

    @property
    def name(self) -> str:
        return self.pretty_name or " ".join(p for p in (self.id, self.version_id) if p) or "unknown"


def parse_os_release(text: str) -> OsRelease:
    """Parse os-release text (``KEY=value`` lines, shell quoting); unknown keys are ignored."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, raw = line.partition("=")
        try:
            parts = shlex.split(raw)
        except ValueError:  # an unbalanced quote: take the text as it stands
            parts = [raw.strip("\"'")]
        values[key.strip()] = parts[0] if parts else ""
    return OsRelease(
        id=values.get("ID", "").lower(),
        id_like=tuple(values.get("ID_LIKE", "").lower().split()),
        version_id=values.get("VERSION_ID", ""),
        codename=values.get("VERSION_CODENAME", "").lower(),
        pretty_name=values.get("PRETTY_NAME", ""),
    )


def read_os_release(path: str | Path | None = None) -> OsRelease:
    """Read ``path`` (default ``$OS_RELEASE_FILE`` or /etc/os-release); missing → empty."""
    path = Path(path or os.environ.get("OS_RELEASE_FILE") or OS_RELEASE)
    try:
        return parse_os_release(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return OsRelease()


@dataclass(frozen=True)
class Machine:
    """What we know about the computer: its OS and whether it is a Raspberry Pi."""

    os: OsRelease
    raspberry_pi: bool
    evidence: str  # why we think it is (or is not) a Pi, for messages

    @property
    def raspberry_pi_os(self) -> bool:
        return self.raspberry_pi and (self.os.id in ("raspbian", "debian")
                                      or "debian" in self.os.id_like)


def detect_machine(os_release: str | Path | None = None, rpi_issue: str | Path | None = None,
                   device_model: str | Path | None = None) -> Machine:
    """Look at the three signs of a Raspberry Pi (paths overridable for tests).

    The defaults come from ``OS_RELEASE_FILE``, ``RPI_ISSUE_FILE`` and ``DEVICE_MODEL_FILE``
    when set, else the real system files.
    """
    info = read_os_release(os_release)
    issue = Path(rpi_issue or os.environ.get("RPI_ISSUE_FILE") or RPI_ISSUE)
    model_path = Path(device_model or os.environ.get("DEVICE_MODEL_FILE") or DEVICE_MODEL)
    try:
        model = model_path.read_bytes().decode("utf-8", "replace").strip("\x00\n ")
    except OSError:
        model = ""
    if info.id == "raspbian" or "raspbian" in info.id_like:
        return Machine(info, True, f"os-release says {info.id} ({info.name})")
    if issue.exists():
        return Machine(info, True, f"{issue} exists (a Raspberry Pi OS image)")
    if "raspberry pi" in model.lower():
        return Machine(info, True, f"the device tree says {model}")
    return Machine(info, False, f"{info.name}, not a Raspberry Pi")


def is_raspberry_pi(environ: Mapping[str, str] | None = None) -> bool:
    """True on a Raspberry Pi; ``COMPANION_RASPBERRY_PI=1|0`` in ``environ`` overrides."""
    env = os.environ if environ is None else environ
    forced = env.get("COMPANION_RASPBERRY_PI", "").strip().lower()
    if forced in ("1", "yes", "true"):
        return True
    if forced in ("0", "no", "false"):
        return False
    return detect_machine().raspberry_pi


@dataclass(frozen=True)
class InstallPlan:
    """How ``make`` builds the environment.

    ``mode`` is ``"system"`` (numpy and OpenCV from apt, seen through
    ``--system-site-packages``, numpy pinned to apt's version so nothing can pull another) or
    ``"pypi"`` (numpy and OpenCV wheels from PyPI). ``extras`` are the project's optional
    dependency groups to install; ``reason`` says why, for the install log.
    """

    mode: str
    reason: str
    extras: tuple[str, ...] = field(default=())
    apt_packages: tuple[str, ...] = field(default=())


def install_plan(machine: Machine, override: str | None = None) -> InstallPlan:
    """The install decision for ``machine``; ``override`` is ``COMPANION_INSTALL``."""
    override = (override or "").strip().lower()
    if override and override not in ("system", "pypi"):
        raise ValueError(f"COMPANION_INSTALL must be system or pypi, not {override!r}.")
    if override == "pypi" or (not override and not machine.raspberry_pi_os):
        why = "COMPANION_INSTALL=pypi" if override else machine.evidence
        return InstallPlan("pypi", f"{why}: numpy and OpenCV from PyPI", ("opencv",))
    why = "COMPANION_INSTALL=system" if override else machine.evidence
    return InstallPlan("system", f"{why}: numpy, OpenCV and Picamera2 from apt "
                       f"({machine.os.name})", (), APT_PACKAGES)
