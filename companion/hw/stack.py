"""Is the numpy / OpenCV / Picamera2 combination sound? Checked at start and by the doctor.

On Raspberry Pi OS, Picamera2 (and its compiled helpers such as simplejpeg) and OpenCV come
from apt, compiled against apt's numpy in ``/usr/lib/python3/dist-packages``. The virtual
environment sees them through ``--system-site-packages`` — and a numpy or OpenCV installed
into the environment by pip *hides* apt's. Picamera2 then fails on import (``ValueError:
numpy.dtype size changed``, raspberrypi/picamera2 #1088, #1211). These checks look at where
each library is loaded from and say what to repair; off the Pi only OpenCV and numpy matter.

Each check returns a :class:`Finding`; nothing here raises.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

# Where apt puts Python packages on Debian and Raspberry Pi OS (pip's go elsewhere).
SYSTEM_DIST_DIRS: tuple[Path, ...] = (Path("/usr/lib/python3/dist-packages"),)
REPAIR_ENV = ("in the companion folder run 'make install': on Raspberry Pi OS every install "
              "removes numpy/OpenCV wheels from .venv and uses apt's")
APT_FIX = "sudo apt install -y python3-numpy python3-opencv python3-picamera2"
PIP_NAMES = {"numpy": "numpy", "opencv": "opencv-python opencv-python-headless "
             "opencv-contrib-python opencv-contrib-python-headless"}


def repair_for(where: str | None, package: str) -> str:
    """The one command that removes the pip copy of ``package`` ("numpy" or "opencv") found
    at ``where``: inside this environment the next install purges it; a ``sudo pip`` copy
    (/usr/local) or a ``pip --user`` one (~/.local) must be uninstalled where it is."""
    if not where:
        return REPAIR_ENV
    place = Path(where).resolve()
    if place.is_relative_to(Path(sys.prefix).resolve()) and sys.prefix != sys.base_prefix:
        return REPAIR_ENV
    sudo = "" if place.is_relative_to(Path.home().resolve()) else "sudo "
    return (f"{sudo}python3 -m pip uninstall -y --break-system-packages {PIP_NAMES[package]} "
            "(a pip copy outside the environment), then 'make install' in the companion folder")


@dataclass(frozen=True)
class Finding:
    """One check: ``ok`` or not, a one-line ``summary``, and the ``fix`` when not ok."""

    name: str
    ok: bool
    summary: str
    fix: str = ""


def system_version(package: str, dirs: Sequence[Path] = SYSTEM_DIST_DIRS) -> str | None:
    """The version of ``package`` that apt installed (from its metadata folder), or None."""
    for folder in dirs:
        for pattern in (f"{package}-*.dist-info", f"{package}-*.egg-info"):
            for info in sorted(folder.glob(pattern)):
                version = info.name[len(package) + 1:].split(".egg-info")[0]
                version = version.split(".dist-info")[0].split("-py")[0]
                if version:
                    return version
    return None


def _inside(path: str | None, dirs: Sequence[Path]) -> bool:
    if not path:
        return False
    resolved = Path(path).resolve()
    return any(resolved.is_relative_to(d.resolve()) for d in dirs)


def check_numpy(raspberry_pi: bool, dirs: Sequence[Path] = SYSTEM_DIST_DIRS) -> Finding:
    import numpy

    where = getattr(numpy, "__file__", None) or "?"
    here = f"numpy {numpy.__version__} from {Path(where).parent}"
    if not raspberry_pi:
        return Finding("numpy", True, here)
    system = system_version("numpy", dirs)
    if system is None:
        return Finding("numpy", False, f"{here}, but apt's numpy is not installed",
                       f"{APT_FIX}, then {REPAIR_ENV}")
    if not _inside(where, dirs):
        return Finding("numpy", False,
                       f"{here} hides apt's numpy {system}, which Picamera2 and OpenCV were "
                       "built for (numpy ABI mismatch)", repair_for(where, "numpy"))
    return Finding("numpy", True, f"{here} (apt's, as Picamera2 needs)")


def check_opencv(raspberry_pi: bool, dirs: Sequence[Path] = SYSTEM_DIST_DIRS) -> Finding:
    try:
        cv2 = importlib.import_module("cv2")
    except Exception as exc:
        fix = f"{APT_FIX}, then {REPAIR_ENV}" if raspberry_pi else \
            "rm -rf .venv && make run (reinstalls opencv-python-headless)"
        return Finding("opencv", False, f"OpenCV does not load ({type(exc).__name__}: {exc})",
                       fix)
    where = getattr(cv2, "__file__", None) or "?"
    here = f"OpenCV {getattr(cv2, '__version__', '?')} from {Path(where).parent}"
    if raspberry_pi and not _inside(where, dirs):
        return Finding("opencv", False, f"{here}: a pip wheel, not apt's python3-opencv — it "
                       "brings its own numpy requirements",
                       repair_for(getattr(cv2, "__file__", None), "opencv"))
    return Finding("opencv", True, here)


def check_picamera2(raspberry_pi: bool) -> Finding:
    """Import Picamera2 (any failure caught); off the Pi its absence is fine."""
    try:
        module = importlib.import_module("picamera2")
    except Exception as exc:
        missing = isinstance(exc, ImportError) and getattr(exc, "name", None) == "picamera2"
        if not raspberry_pi:
            return Finding("picamera2", True, "Picamera2 not installed — not a Raspberry Pi, "
                           "so the simulated tower or a USB camera is used")
        if missing:
            return Finding("picamera2", False, "Picamera2 is not installed",
                           "sudo apt install -y python3-picamera2")
        reason = f"{type(exc).__name__}: {exc}"
        fix = REPAIR_ENV if "numpy" in str(exc).lower() else \
            "sudo apt update && sudo apt full-upgrade, then reboot"
        return Finding("picamera2", False, f"Picamera2 does not load ({reason})", fix)
    where = Path(getattr(module, "__file__", "?") or "?").parent
    return Finding("picamera2", True, f"Picamera2 loads, from {where}")


def check_stack(raspberry_pi: bool, import_camera: bool = True,
                dirs: Sequence[Path] = SYSTEM_DIST_DIRS) -> list[Finding]:
    """numpy, OpenCV and (when ``import_camera``) Picamera2, in that order."""
    findings = [check_numpy(raspberry_pi, dirs), check_opencv(raspberry_pi, dirs)]
    if import_camera:
        findings.append(check_picamera2(raspberry_pi))
    return findings


def python_summary() -> str:
    return f"Python {sys.version.split()[0]} at {sys.executable}"
