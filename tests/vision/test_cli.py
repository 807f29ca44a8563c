"""``companion vision …`` through the real entry point, on files in a temporary folder."""

import json

import cv2
import pytest

from companion.cli import main
from companion.vision.synthetic import RenderConditions, render_calibration_photo, render_empty_tray, render_tray


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    frame, samples, empty = render_calibration_photo()
    cv2.imwrite(str(folder / "cal.png"), frame.image)
    cv2.imwrite(str(folder / "empty.png"), empty.image)
    cond = RenderConditions(cluster=0.5, light=0.8)
    truth = []
    for k in range(2):
        tray = render_tray({"red": 3 + k, "black": 2, "green": 1}, seed=40 + k, conditions=cond)
        cv2.imwrite(str(folder / f"tray{k}.png"), tray.image)
        truth.append(tray.counts)
    cv2.imwrite(str(folder / "before.png"), render_empty_tray(seed=40, conditions=cond).image)
    sample_args = [a for s in samples for a in ("--sample", f"{s.color}={','.join(map(str, s.box))}")]
    roi = ",".join(f"{x},{y}" for x, y in frame.roi)
    return folder, sample_args, roi, truth


def _calibrate(files, *extra):
    folder, sample_args, roi, _ = files
    return main(["vision", "calibrate", str(folder / "cal.png"), *sample_args, "--roi", roi, *extra])


def test_calibrate_then_count_json(files, tmp_path, capsys):
    folder, _, _, truth = files
    cal = tmp_path / "cal.json"
    assert _calibrate(files, "--empty", str(folder / "empty.png"), "--out", str(cal)) == 0
    assert "Calibration written" in capsys.readouterr().out
    code = main(["vision", "count", str(folder / "tray0.png"), str(folder / "tray1.png"),
                 "--calibration", str(cal), "--json"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line, expected in zip(lines, truth):
        doc = json.loads(line)
        assert list(doc) == ["image", "counts", "cubes", "unknown", "ms"]
        assert doc["counts"] == expected and doc["unknown"] == 0
        assert len(doc["cubes"]) == sum(expected.values())
        assert all(set(c) == {"color", "x", "y", "confidence"} and 0 < c["confidence"] <= 1
                   for c in doc["cubes"])


def test_count_with_empty_and_annotate_writes_pictures(files, tmp_path, capsys):
    folder, _, _, truth = files
    cal = tmp_path / "cal.json"
    assert _calibrate(files, "--out", str(cal)) == 0
    out_dir = tmp_path / "checked"
    code = main(["vision", "count", str(folder / "tray0.png"), "--calibration", str(cal),
                 "--empty", str(folder / "before.png"), "--annotate", str(out_dir)])
    assert code == 0
    text = capsys.readouterr().out
    assert "red 3" in text and "black 2" in text and "green 1" in text
    picture = cv2.imread(str(out_dir / "tray0-annotated.jpg"))
    assert picture is not None and picture.shape == (960, 1280, 3)


def test_unreadable_image_exits_2_with_one_line(files, tmp_path, capsys):
    folder, *_ = files
    cal = tmp_path / "cal.json"
    _calibrate(files, "--out", str(cal))
    capsys.readouterr()
    (tmp_path / "broken.jpg").write_bytes(b"not a picture")
    for bad in ("broken.jpg", "missing.jpg"):
        assert main(["vision", "count", str(tmp_path / bad), "--calibration", str(cal)]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: ") and "\n" not in err and bad in err


def test_bad_calibration_file_exits_2(files, tmp_path, capsys):
    folder, *_ = files
    bad = tmp_path / "cal.json"
    bad.write_text('{"format": "immortals-tower-calibration", "version": 7}')
    assert main(["vision", "count", str(folder / "tray0.png"), "--calibration", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "version" in err and "\n" not in err


def test_failed_calibration_writes_nothing(files, tmp_path, capsys):
    folder, sample_args, _, _ = files
    out = tmp_path / "cal.json"
    no_black = [a for a in sample_args]
    i = next(k for k, a in enumerate(no_black) if a.startswith("black="))
    del no_black[i - 1:i + 1]
    assert main(["vision", "calibrate", str(folder / "cal.png"), *no_black, "--out", str(out)]) == 2
    assert "black" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("bad", ["red", "orange=1,2,3,4", "red=1,2,3", "red=a,b,c,d"])
def test_malformed_sample_is_a_usage_error(files, tmp_path, bad, capsys):
    folder, *_ = files
    with pytest.raises(SystemExit) as info:
        main(["vision", "calibrate", str(folder / "cal.png"), "--sample", bad, "--out", str(tmp_path / "c.json")])
    assert info.value.code == 2
