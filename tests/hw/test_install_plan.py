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
from companion.hw.stack import REPAIR_ENV, repair_for

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
    import numpy

    pi = _env(system(RASPBIAN_BOOKWORM))
    pi["COMPANION_APT_SITE"] = str(Path(numpy.__file__).parents[1])  # "apt's" folder here
    script = [sys.executable, str(ROOT / "scripts" / "install_plan.py")]
    run = lambda *args, env: subprocess.run([*script, *args], env=env, capture_output=True,  # noqa: E731
                                            text=True, check=True).stdout.strip()
    assert run("mode", env=pi) == "system"
    assert run("extras", "test", env=pi) == "test"
    assert run("spec", env=pi) == "." and run("spec", "test", env=pi) == ".[test]"
    assert f"numpy=={numpy.__version__}" in run("constraints", env=pi).splitlines()
    elsewhere = _env(system(UBUNTU))
    assert run("extras", "test", env=elsewhere) == "opencv,test"
    assert "numpy==" not in run("constraints", env=elsewhere)


def test_check_fails_with_the_one_fixing_command_when_numpy_is_not_apts(system, tmp_path):
    """A numpy from `sudo pip` (/usr/local/…/dist-packages) hides apt's; the plan must neither
    accept it nor pin its version, and must say the one command that removes it."""
    import numpy

    pi = _env(system(RASPBIAN_BOOKWORM))
    pi["COMPANION_APT_SITE"] = str(tmp_path / "apt-dist-packages")  # numpy is not in there
    script = [sys.executable, str(ROOT / "scripts" / "install_plan.py")]
    for command in ("check", "constraints"):
        done = subprocess.run([*script, command], env=pi, capture_output=True, text=True)
        assert done.returncode == 1, done.stdout
        assert f"numpy loads from {numpy.__file__}" in done.stderr
        assert repair_for(numpy.__file__, "numpy") in done.stderr  # the one command
        assert "numpy==" not in done.stdout
    elsewhere = _env(system(UBUNTU))  # off the Pi PyPI's numpy is the plan
    assert subprocess.run([*script, "check"], env=elsewhere).returncode == 0


def test_the_repair_names_where_the_shadowing_copy_lies(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    inside = str(tmp_path / "venv/lib/python3.11/site-packages/numpy/__init__.py")
    assert repair_for(inside, "numpy") == REPAIR_ENV  # the next install purges it
    sudo_pip = "/usr/local/lib/python3.11/dist-packages/numpy/__init__.py"
    assert repair_for(sudo_pip, "numpy").startswith(
        "sudo python3 -m pip uninstall -y --break-system-packages numpy ")
    user_pip = str(Path.home() / ".local/lib/python3.11/site-packages/cv2/__init__.py")
    assert repair_for(user_pip, "opencv").startswith(
        "python3 -m pip uninstall -y --break-system-packages opencv-python ")


def _dry_make(env: dict, venv: Path, *targets: str) -> str:
    return subprocess.run(["make", "-n", "-B", "-C", str(ROOT), f"VENV={venv}", *targets],
                          env=env, capture_output=True, text=True, check=True).stdout


def _installs(out: str) -> list[str]:
    return [line for line in out.splitlines() if "pip install" in line and "-e" in line]


needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


@needs_make
@pytest.mark.parametrize("os_release, pi, runtime, test", [
    (RASPBIAN_BOOKWORM, True, "'.'", "'.[test]'"),
    (DEBIAN_BOOKWORM, False, "'.[opencv]'", "'.[opencv,test]'"),
], ids=["raspbian-bookworm", "debian-bookworm"])
def test_makefile_installs_opencv_from_pypi_only_off_the_pi(system, tmp_path, os_release, pi,
                                                            runtime, test):
    env = _env(system(os_release))
    venv = tmp_path / "venv"
    out = _dry_make(env, venv, f"{venv}/.installed-stamp")
    install = _installs(out)
    assert len(install) == 1 and install[0].endswith(runtime), out
    assert f"--constraint {venv}/constraints.txt" in install[0]
    assert "--system-site-packages" in out
    assert ("opencv" in install[0].split()[-1]) is not pi
    test_install = _installs(_dry_make(env, venv, f"{venv}/.installed-test-stamp"))
    assert test_install[-1].endswith(test)


@needs_make
@pytest.mark.parametrize("target", ["run", "install", "bench"])
def test_run_and_the_service_install_only_the_runtime(system, tmp_path, target):
    """A fresh clone's `make run` (and install-service's `make install`) asks pip for no test
    tool: no Playwright (no 32-bit ARM wheels), no schemathesis, no pytest."""
    out = _dry_make(_env(system(RASPBIAN_BOOKWORM)), tmp_path / "venv", target)
    install = _installs(out)
    assert install and all("test" not in line.split()[-1] for line in install), out
    assert "purge" in out.split("pip install")[-1]  # and the purge runs after every install


@needs_make
def test_make_test_installs_runtime_then_test_tools_with_separate_stamps(system, tmp_path):
    venv = tmp_path / "venv"
    out = _dry_make(_env(system(UBUNTU)), venv, "test")
    install = _installs(out)
    assert [line.split()[-1] for line in install] == ["'.[opencv]'", "'.[opencv,test]'"], out
    assert f"touch {venv}/.installed-stamp" in out
    assert f"touch {venv}/.installed-test-stamp" in out
    assert out.index(".installed-test-stamp") > out.index("pip install")


def test_service_unit_runs_as_the_installing_user_from_this_folder(tmp_path):
    env = {**os.environ, "COMPANION_USER": "alice", "COMPANION_DATA": str(tmp_path / "games")}
    unit = subprocess.run([str(ROOT / "scripts" / "install-service"), "--print"], env=env,
                          capture_output=True, text=True, check=True).stdout
    assert "User=alice" in unit.splitlines()
    assert f"ExecStart={ROOT.resolve()}/.venv/bin/python -m companion serve" in unit
    assert f"Environment=COMPANION_DATA={tmp_path / 'games'}" in unit
    assert "@" not in unit and "User=pi" not in unit
    lines = unit.splitlines()  # lgpio's pipes go to a runtime directory of the unit
    assert "RuntimeDirectory=companion" in lines and "WorkingDirectory=/run/companion" in lines
    assert "Environment=LG_WD=/run/companion" in lines


def test_the_service_and_the_shell_share_one_data_folder(tmp_path):
    """Without COMPANION_DATA the unit's data folder is the companion folder's ./data — the
    default of every `companion` command run from that folder (companion.config)."""
    from companion.config import settings_from_env

    env = {k: v for k, v in os.environ.items() if k != "COMPANION_DATA"}
    env["COMPANION_USER"] = "alice"
    unit = subprocess.run([str(ROOT / "scripts" / "install-service"), "--print"], env=env,
                          capture_output=True, text=True, check=True).stdout
    data = next(line.split("=", 2)[2] for line in unit.splitlines()
                if line.startswith("Environment=COMPANION_DATA="))
    shell = settings_from_env({}).data_dir  # what a command typed in the folder uses
    assert Path(data) == (ROOT.resolve() / shell)


def _as(tmp_path: Path, uid: int, name: str) -> dict:
    """An environment whose `id` says we are ``name`` (uid ``uid``); sudo/make/systemctl that
    record being called, so nothing is installed for real."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "id").write_text(f'#!/bin/sh\ncase "$1" in -u) echo {uid};; -un) echo {name};; '
                                f'*) echo "uid={uid}({name})";; esac\n')
    for tool in ("sudo", "make", "systemctl"):  # each reads its input, as `sudo tee` does
        (bin_dir / tool).write_text(f'#!/bin/sh\necho "{tool} $*" >> {tmp_path}/called\n'
                                    'cat >/dev/null\n')
    for script in bin_dir.iterdir():
        script.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}",
            "COMPANION_DATA": str(tmp_path / "data")}


@pytest.mark.parametrize("sudo_user", [None, "alice"], ids=["root", "sudo"])
def test_the_installer_refuses_root_even_through_sudo(tmp_path, sudo_user):
    env = _as(tmp_path, 0, "root")
    if sudo_user:
        env["SUDO_USER"] = sudo_user
    done = subprocess.run([str(ROOT / "scripts" / "install-service")], env=env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "not run this as root" in done.stderr
    assert not (tmp_path / "called").exists() and not (tmp_path / "data").exists()


def test_the_installer_as_a_user_builds_the_runtime_only(tmp_path):
    env = _as(tmp_path, 1000, "alice")
    done = subprocess.run([str(ROOT / "scripts" / "install-service")], env=env,
                          capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    called = (tmp_path / "called").read_text().splitlines()
    assert called[0] == "make install"  # runtime only: no test tools on the Pi
    assert "sudo systemctl enable --now companion" in called
    assert (tmp_path / "data").is_dir()
