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


def test_lock_is_retired_and_says_what_replaces_it(capsys):
    assert main(["tower", "lock"]) == 2
    assert "companion tower calibrate" in capsys.readouterr().out


@pytest.fixture
def calibration_scene():
    from companion.vision.synthetic import render_calibration_photo

    frame, samples, _empty = render_calibration_photo()
    args = [f"--sample={s.color}={','.join(map(str, s.box))}" for s in samples]
    return frame.image, args


def test_calibrate_fixes_the_pi_camera_and_keeps_its_settings_in_the_calibration(
        monkeypatch, capsys, tmp_path, calibration_scene):
    from companion.vision.calibration import load_calibration
    from tests.hw import fake_picamera2

    image, sample_args = calibration_scene
    fake = fake_picamera2.module()
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "picture", image)
    monkeypatch.setitem(sys.modules, "picamera2", fake)
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    monkeypatch.setenv("COMPANION_CAMERA", "picamera2")
    monkeypatch.setenv("COMPANION_CAMERA_SIZE", f"{image.shape[1]}x{image.shape[0]}")
    code = main(["tower", "calibrate", "--distance", "12.5", *sample_args])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "sharpness" in out and "SOFT" not in out
    cal = load_calibration(tmp_path / "calibration.json")
    controls = cal.camera["controls"]
    assert cal.camera["backend"] == "picamera2"
    assert controls["LensPosition"] == 8.0 and controls["AfMode"] == 0  # 1 / 0.125 m
    assert controls["ExposureTime"] == 8120 and controls["ColourGains"] == [2.1, 1.6]
    assert cal.camera["sharpness"]["soft"] is False
    assert (tmp_path / "calibration-photo.jpg").stat().st_size > 0
    device = fake.Picamera2.instances[-1]
    assert "autofocus_cycle" not in device.calls  # focused by distance
    assert "lock   : exposure stepped to 50%: metadata followed" in out


def test_calibrate_keeps_nothing_when_the_camera_does_not_obey_the_exposure(
        monkeypatch, capsys, tmp_path, calibration_scene):
    from tests.hw import fake_picamera2

    image, sample_args = calibration_scene
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2.module())
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "picture", image)
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "ignore_controls", True)  # AE goes on
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    monkeypatch.setenv("COMPANION_CAMERA", "picamera2")
    monkeypatch.setenv("COMPANION_CAMERA_SIZE", f"{image.shape[1]}x{image.shape[0]}")
    code = main(["tower", "calibrate", "--distance", "12.5", *sample_args])
    out = capsys.readouterr().out
    assert code == 2 and "does not hold a fixed exposure" in out
    assert not (tmp_path / "calibration.json").exists()


def test_the_focus_distance_setting_is_used_without_a_calibration(monkeypatch):
    from companion.hw.settings import InvalidHardwareSettingError, hardware_settings

    assert hardware_settings(environ={"COMPANION_FOCUS_CM": "11"}).focus_distance_m == 0.11
    assert hardware_settings(environ={}).focus_distance_m is None
    with pytest.raises(InvalidHardwareSettingError, match="COMPANION_FOCUS_CM"):
        hardware_settings(environ={"COMPANION_FOCUS_CM": "1100"})


def test_calibrate_warns_about_a_soft_picture(monkeypatch, capsys, tmp_path, calibration_scene):
    import cv2

    from tests.hw import fake_picamera2

    image, sample_args = calibration_scene
    monkeypatch.setitem(sys.modules, "picamera2", fake_picamera2.module())
    monkeypatch.setattr(fake_picamera2.FakePicamera2, "picture",
                        cv2.GaussianBlur(image, (0, 0), 3))
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    monkeypatch.setenv("COMPANION_CAMERA", "picamera2")
    monkeypatch.setenv("COMPANION_CAMERA_SIZE", f"{image.shape[1]}x{image.shape[0]}")
    main(["tower", "calibrate", *sample_args])
    assert "SOFT" in capsys.readouterr().out


def test_failed_calibration_leaves_the_old_one_untouched(monkeypatch, capsys, tmp_path,
                                                         calibration_scene):
    import cv2

    image, _ = calibration_scene
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), image)
    (tmp_path / "calibration.json").write_text("old")
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    monkeypatch.setenv("COMPANION_CAMERA", "folder")
    monkeypatch.setenv("COMPANION_CAMERA_FOLDER", str(folder))
    code = main(["tower", "calibrate", "--sample", "red=0,0,5000,10"])  # outside the photo
    out = capsys.readouterr()
    assert code == 2 and "unchanged" in out.out and "outside" in out.err
    assert (tmp_path / "calibration.json").read_text() == "old"
    assert [p.name for p in tmp_path.glob("*.json")] == ["calibration.json"]  # no scratch left


def test_calibrate_needs_a_sample_and_an_unknown_option_elsewhere_is_refused(capsys):
    assert main(["tower", "calibrate"]) == 2
    assert "--sample" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["tower", "check", "--sample", "red=1,2,3,4"])
