"""``companion tower …`` through the real command-line entry point."""

from __future__ import annotations

import sys

import pytest

from companion.cli import main


def test_simulate_counts_a_throw_correctly(capsys):
    assert main(["tower", "simulate", "red=2,green=1", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "OK" in out and "WRONG" not in out and "frames to settle" in out


def test_simulate_refuses_a_bad_throw(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["tower", "simulate", "pink=2"])
    assert exit_.value.code == 2
    assert "write throws like red=3,green=1" in capsys.readouterr().err


def test_check_on_a_simulated_tower(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COMPANION_CAMERA", "synthetic")
    monkeypatch.setenv("COMPANION_GPIO", "mock")
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    code = main(["tower", "check", "--out", str(tmp_path / "check"), "--led-seconds", "0"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "camera : synthetic" in out and "gpio   : mock" in out and "result : all good" in out
    assert (tmp_path / "check" / "frame.jpg").stat().st_size > 0
    assert (tmp_path / "check" / "annotated.jpg").exists()


def test_check_reports_a_missing_camera(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setenv("COMPANION_CAMERA", "picamera2")
    monkeypatch.setenv("COMPANION_GPIO", "mock")
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    code = main(["tower", "check", "--out", str(tmp_path / "c"), "--led-seconds", "0"])
    out = capsys.readouterr().out
    assert code == 1 and "python3-picamera2" in out and "1 problem(s)" in out


def test_lock_without_a_pi_camera(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    assert main(["tower", "lock"]) == 2
    assert "apt install python3-picamera2" in capsys.readouterr().out


def test_lock_saves_the_metered_values(monkeypatch, capsys, tmp_path):
    from companion.hw.cameras.picam import ExposureLock
    from tests.hw import fake_picamera2

    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2.module())
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    assert main(["tower", "lock"]) == 0
    assert ExposureLock.load(tmp_path / "camera-lock.json") == ExposureLock(8123, 1.75, (2.1, 1.6))
