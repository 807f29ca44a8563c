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
    out = capsys.readouterr().out
    assert "Calibration written" in out and "sides in view" not in out  # the renderer's lens: no sides
    code = main(["vision", "count", str(folder / "tray0.png"), str(folder / "tray1.png"),
                 "--calibration", str(cal), "--json"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    for line, expected in zip(lines, truth):
        doc = json.loads(line)
        assert list(doc)[:4] == ["image", "counts", "cubes", "unknown"] and "ms" in doc
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


def test_failed_calibration_leaves_the_saved_one_untouched(files, tmp_path, capsys):
    folder, sample_args, roi, _ = files
    out = tmp_path / "cal.json"
    assert _calibrate(files, "--out", str(out)) == 0
    saved = out.read_bytes()
    off_photo = [a if not a.startswith("black=") else "black=1270,950,40,40" for a in sample_args]
    assert main(["vision", "calibrate", str(folder / "cal.png"), *off_photo, "--roi", roi,
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "outside" in err and "black" in err and "\n" not in err
    assert out.read_bytes() == saved
    assert [p.name for p in tmp_path.iterdir()] == ["cal.json"]  # no half-written temporary file


def test_a_subset_of_colours_calibrates(files, tmp_path, capsys):
    folder, sample_args, roi, _ = files
    two = [a for k, a in enumerate(sample_args) for b in [sample_args[k | 1]]
           if b.split("=")[0] in ("red", "green")]
    out = tmp_path / "cal.json"
    assert main(["vision", "calibrate", str(folder / "cal.png"), *two, "--roi", roi, "--out", str(out)]) == 0
    assert "colours red, green" in capsys.readouterr().out
    assert json.loads(out.read_text())["colors"] == ["red", "green"]


@pytest.mark.parametrize("bad", ["red", "orange=1,2,3,4", "red=1,2,3", "red=a,b,c,d"])
def test_malformed_sample_is_a_usage_error(files, tmp_path, bad, capsys):
    folder, *_ = files
    with pytest.raises(SystemExit) as info:
        main(["vision", "calibrate", str(folder / "cal.png"), "--sample", bad, "--out", str(tmp_path / "c.json")])
    assert info.value.code == 2


def _calibrate_rendered(tmp_path, capsys, tower: RenderConditions) -> tuple[str, dict]:
    """``companion vision calibrate`` on the renderer's calibration photo of ``tower``, with its
    sample boxes and outline: what it printed and the file it wrote."""
    frame, samples, _ = render_calibration_photo(tower)
    cv2.imwrite(str(tmp_path / "cal.png"), frame.image)
    sample_args = [a for s in samples for a in ("--sample", f"{s.color}={','.join(map(str, s.box))}")]
    roi = ",".join(f"{x},{y}" for x, y in frame.roi)
    assert main(["vision", "calibrate", str(tmp_path / "cal.png"), *sample_args, "--roi", roi,
                 "--out", str(tmp_path / "cal.json")]) == 0
    return capsys.readouterr().out, json.loads((tmp_path / "cal.json").read_text())


def test_calibrate_says_how_wide_the_cubes_sides_are_at_the_corners(tmp_path, capsys):
    out, kept = _calibrate_rendered(tmp_path, capsys, RenderConditions(side_view=0.6))
    width = float(out.split("sides in view at the picture's corners: ")[1].split()[0])
    assert 0.45 <= width <= 0.7
    assert kept["side_reach"] == pytest.approx(width, abs=0.005)


def test_calibrate_says_how_much_the_lens_bends_the_picture(tmp_path, capsys):
    """Through the renderer's lens bent by 0.2, the tool says so, with the share the corners
    lose, and the file keeps it; through a straight one it says nothing of a lens."""
    out, kept = _calibrate_rendered(tmp_path, capsys, RenderConditions(barrel=0.2))
    said = float(out.split("The lens bends the picture (barrel ")[1].split(")")[0])
    assert said == pytest.approx(0.2, abs=0.05) and said == pytest.approx(kept["barrel"], abs=0.005)
    smaller = int(out.split("picture's corners looks ")[1].split()[0])
    assert smaller == round(100 * (1 - 1 / ((1 + kept["barrel"]) * (1 + 3 * kept["barrel"]))))
    out, kept = _calibrate_rendered(tmp_path, capsys, RenderConditions())
    assert "lens bends" not in out and kept["barrel"] == 0.0


def test_calibrate_says_the_camera_leans(tmp_path, capsys):
    """The renderer's camera turned 8°: the tool says by how much one side of the outline is
    longer than the other, and the file keeps the keystone; a level camera hears nothing of it."""
    out, kept = _calibrate_rendered(tmp_path, capsys, RenderConditions(tilt=8.0))
    longer = int(out.split("one side of the tray outline is ")[1].split()[0])
    assert 10 <= longer <= 20 and kept["keystone"] is not None
    out, kept = _calibrate_rendered(tmp_path, capsys, RenderConditions())
    assert "camera leans" not in out and kept["keystone"] is None
