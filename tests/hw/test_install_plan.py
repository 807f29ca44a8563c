"""The install decision (apt's numpy/OpenCV on Raspberry Pi OS, PyPI elsewhere), on fake
os-release files — through the decision function, the script and the Makefile itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.hw.osinfo import detect_machine, install_plan, parse_os_release

ROOT = Path(__file__).resolve().parents[2]

RASPBIAN_BOOKWORM = """PRETTY_NAME="Raspbian GNU/Linux 12 (bookworm)"
NAME="Raspbian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=raspbian
ID_LIKE=debian
"""
DEBIAN_BOOKWORM = """PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION_CODENAME=bookworm
ID=debian
"""
DEBIAN_TRIXIE = """PRETTY_NAME="Debian GNU/Linux 13 (trixie)"
VERSION_ID="13"
VERSION_CODENAME=trixie
ID=debian
"""
UBUNTU = """PRETTY_NAME="Ubuntu 24.04 LTS"
ID=ubuntu
ID_LIKE=debian
VERSION_ID="24.04"
"""


@pytest.fixture
def system(tmp_path):
    """Write a fake os-release (and optionally the other two signs of a Pi); return the paths."""

    def make(os_release: str, rpi_issue: bool = False, model: str | None = None) -> dict:
        paths = {"os_release": tmp_path / "os-release", "rpi_issue": tmp_path / "rpi-issue",
                 "device_model": tmp_path / "model"}
        paths["os_release"].write_text(os_release)
        if rpi_issue:
            paths["rpi_issue"].write_text("Raspberry Pi reference 2024-11-19\n")
        if model is not None:
            paths["device_model"].write_bytes(model.encode() + b"\x00")
        return paths

    return make


def test_os_release_parsing_handles_quotes_comments_and_junk():
    info = parse_os_release('# comment\nID="raspbian"\nID_LIKE=debian\nVERSION_ID="12"\n'
                            "PRETTY_NAME='Raspbian 12'\nbroken line\nVERSION_CODENAME=bookworm")
    assert (info.id, info.id_like, info.version_id, info.codename) == (
        "raspbian", ("debian",), "12", "bookworm")
    assert info.name == "Raspbian 12"


@pytest.mark.parametrize("os_release, rpi_issue, model, expected", [
    (RASPBIAN_BOOKWORM, False, None, "system"),  # 32-bit Raspberry Pi OS
    (DEBIAN_BOOKWORM, True, None, "system"),  # 64-bit Raspberry Pi OS image
    (DEBIAN_TRIXIE, True, None, "system"),  # Raspberry Pi OS Trixie
    (DEBIAN_TRIXIE, False, "Raspberry Pi 5 Model B Rev 1.0", "system"),
    (DEBIAN_BOOKWORM, False, None, "pypi"),  # a Debian laptop or CI runner
    (UBUNTU, False, None, "pypi"),
    ("", False, None, "pypi"),  # no os-release at all
], ids=["raspbian-bookworm", "pios64-bookworm", "pios-trixie", "pi5-model", "debian", "ubuntu",
        "none"])
def test_decision(system, os_release, rpi_issue, model, expected):
    plan = install_plan(detect_machine(**system(os_release, rpi_issue, model)))
    assert plan.mode == expected
    if expected == "system":
        assert plan.extras == () and "python3-opencv" in plan.apt_packages
    else:
        assert plan.extras == ("opencv",)


def test_override_and_a_bad_override(system):
    machine = detect_machine(**system(DEBIAN_BOOKWORM))
    assert install_plan(machine, "system").mode == "system"
    assert install_plan(detect_machine(**system(RASPBIAN_BOOKWORM)), "pypi").mode == "pypi"
    with pytest.raises(ValueError, match="system or pypi"):
        install_plan(machine, "conda")


def _env(paths: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_INSTALL"}
    env.update(OS_RELEASE_FILE=str(paths["os_release"]), RPI_ISSUE_FILE=str(paths["rpi_issue"]),
               DEVICE_MODEL_FILE=str(paths["device_model"]))
    return env


def test_script_prints_the_extras_and_the_numpy_pin(system):
    pi = _env(system(RASPBIAN_BOOKWORM))
    script = [sys.executable, str(ROOT / "scripts" / "install_plan.py")]
    run = lambda *args, env: subprocess.run([*script, *args], env=env, capture_output=True,  # noqa: E731
                                            text=True, check=True).stdout.strip()
    assert run("mode", env=pi) == "system"
    assert run("extras", "test", env=pi) == "test"
    import numpy

    assert f"numpy=={numpy.__version__}" in run("constraints", env=pi).splitlines()
    elsewhere = _env(system(UBUNTU))
    assert run("extras", "test", env=elsewhere) == "opencv,test"
    assert "numpy==" not in run("constraints", env=elsewhere)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize("os_release, pi, expected_extras", [
    (RASPBIAN_BOOKWORM, True, "'.[test]'"),
    (DEBIAN_BOOKWORM, False, "'.[opencv,test]'"),
], ids=["raspbian-bookworm", "debian-bookworm"])
def test_makefile_installs_opencv_from_pypi_only_off_the_pi(system, tmp_path, os_release, pi,
                                                            expected_extras):
    env = _env(system(os_release))
    venv = tmp_path / "venv"
    out = subprocess.run(["make", "-n", "-B", "-C", str(ROOT), f"VENV={venv}",
                          f"{venv}/.installed-stamp"], env=env, capture_output=True, text=True,
                         check=True).stdout
    install = [line for line in out.splitlines() if "pip install" in line and "-e" in line]
    assert len(install) == 1, out
    assert install[0].endswith(expected_extras)
    assert f"--constraint {venv}/constraints.txt" in install[0]
    assert "--system-site-packages" in out
    assert ("opencv" in install[0].split()[-1]) is not pi


def test_service_unit_runs_as_the_installing_user_from_this_folder(tmp_path):
    env = {**os.environ, "COMPANION_USER": "alice", "COMPANION_DATA": str(tmp_path / "games")}
    unit = subprocess.run([str(ROOT / "scripts" / "install-service"), "--print"], env=env,
                          capture_output=True, text=True, check=True).stdout
    assert "User=alice" in unit.splitlines()
    assert f"WorkingDirectory={ROOT.resolve()}" in unit.splitlines()
    assert f"ExecStart={ROOT.resolve()}/.venv/bin/python -m companion serve" in unit
    assert f"Environment=COMPANION_DATA={tmp_path / 'games'}" in unit
    assert "@" not in unit and "User=pi" not in unit
