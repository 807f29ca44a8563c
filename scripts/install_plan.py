#!/usr/bin/env python3
"""How `make` installs the virtual environment on this machine (system Python, stdlib only).

    install_plan.py mode                 system | pypi
    install_plan.py extras [EXTRA …]     the project's extras to install, comma-separated
    install_plan.py spec [EXTRA …]       what pip installs: "." or ".[opencv,test]"
    install_plan.py check                on Raspberry Pi OS: do numpy and OpenCV load, from
                                         apt's folder only? (else the one command that fixes it)
    install_plan.py constraints          pip constraints: numpy pinned to apt's (system mode)
    install_plan.py purge VENV           remove numpy/OpenCV wheels a venv holds (system mode)

The decision itself lives in companion/hw/osinfo.py (tested in tests/hw/test_install_plan.py);
OS_RELEASE_FILE, RPI_ISSUE_FILE, DEVICE_MODEL_FILE and COMPANION_INSTALL change its inputs.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.hw.osinfo import SYSTEM_MODULES, detect_machine, install_plan  # noqa: E402
from companion.hw.stack import PIP_NAMES, repair_for  # noqa: E402

# Wheels that would shadow apt's numpy/OpenCV inside a --system-site-packages environment.
SHADOWING = ("numpy", "opencv-python", "opencv-python-headless", "opencv-contrib-python",
             "opencv-contrib-python-headless")


def plan():
    try:
        return install_plan(detect_machine(), os.environ.get("COMPANION_INSTALL"))
    except ValueError as exc:
        sys.exit(f"install: {exc}")


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "mode"
    current = plan()
    if command == "mode":
        print(current.mode)
    elif command == "extras":
        print(",".join(dict.fromkeys([*current.extras, *argv[1:]])))
    elif command == "spec":
        extras = ",".join(dict.fromkeys([*current.extras, *argv[1:]]))
        print(f".[{extras}]" if extras else ".")
    elif command == "check":
        print(f"install: {current.reason}")
        if current.mode == "system":
            return check_system()
    elif command == "constraints":
        print("# written by scripts/install_plan.py: numpy must stay the one apt installed")
        if current.mode == "system":
            import numpy

            if not from_apt(numpy.__file__):  # never pin a numpy apt did not install
                return check_system()
            print(f"numpy=={numpy.__version__}")
    elif command == "purge":
        if current.mode == "system" and len(argv) > 1:
            purge(Path(argv[1]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


PIP_NAMES_OF = {"numpy": "numpy", "cv2": "opencv"}  # module → companion.hw.stack.PIP_NAMES key
assert set(PIP_NAMES_OF.values()) <= set(PIP_NAMES)


def apt_folders() -> tuple[Path, ...]:
    """Where apt puts Python packages (COMPANION_APT_SITE, ':'-separated, replaces it: tests)."""
    raw = os.environ.get("COMPANION_APT_SITE")
    folders = raw.split(":") if raw else ["/usr/lib/python3/dist-packages"]
    return tuple(Path(f).resolve() for f in folders if f)


def from_apt(module_file: str | None) -> bool:
    if not module_file:
        return False
    where = Path(module_file).resolve()
    return any(where.is_relative_to(folder) for folder in apt_folders())


def check_system() -> int:
    """Every module the system stack needs imports with this (system) Python, from apt's
    folder: a copy under /usr/local (``sudo pip``) or ~/.local (``pip --user``) would shadow
    apt's, and Picamera2 was built against apt's numpy."""
    missing = []
    for module, package in SYSTEM_MODULES.items():
        try:
            loaded = importlib.import_module(module)
        except Exception as exc:  # ImportError, or a broken build raising anything else
            missing.append(package)
            print(f"install: {module} does not load with {sys.executable}: {exc}")
            continue
        where = getattr(loaded, "__file__", None)
        if not from_apt(where):
            print(f"install: {module} loads from {where}, not from apt's folder "
                  f"({', '.join(map(str, apt_folders()))}): a pip copy hides apt's "
                  f"{package}, which Picamera2 was built against. Run\n"
                  f"    {repair_for(where, PIP_NAMES_OF[module])}\n"
                  "and then this command again.", file=sys.stderr)
            return 1
    if missing:
        print("install: on Raspberry Pi OS numpy and OpenCV come from apt, not from pip. Run\n"
              f"    sudo apt install -y {' '.join(current_packages(missing))}\n"
              "and then this command again.", file=sys.stderr)
        return 1
    try:
        importlib.import_module("picamera2")
    except Exception as exc:
        print(f"install: warning — Picamera2 does not load ({type(exc).__name__}: {exc}); the "
              "companion will run without the Pi camera. Fix: sudo apt install -y "
              "python3-picamera2")
    return 0


def current_packages(missing: list[str]) -> list[str]:
    return list(dict.fromkeys([*missing, "python3-picamera2", "python3-lgpio", "python3-venv"]))


def purge(venv: Path) -> None:
    """Uninstall numpy/OpenCV wheels that an earlier install put inside ``venv``."""
    python = venv / "bin" / "python"
    found = []
    for site in venv.glob("lib/python3*/site-packages"):
        for info in site.glob("*.dist-info"):
            name = info.name.rsplit("-", 1)[0].lower().replace("_", "-")
            if name in SHADOWING:
                found.append(name)
    if found and python.exists():
        print(f"install: removing {', '.join(found)} from {venv} — apt's copies are used")
        subprocess.run([str(python), "-m", "pip", "uninstall", "--yes", "--quiet", *found],
                       check=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
