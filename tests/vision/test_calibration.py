import json
from dataclasses import replace

import pytest

from companion.vision.calibration import (Calibration, Sample, calibrate, load_calibration,
                                          save_calibration)
from companion.vision.counting import count_cubes
from companion.vision.errors import CalibrationError, ImageReadError, ImageSizeError
from companion.vision.synthetic import RenderConditions, render_calibration_photo, render_tray


@pytest.fixture(scope="module")
def photo():
    return render_calibration_photo()


def test_round_trip_keeps_every_field_and_every_count(calibration, tmp_path):
    path = tmp_path / "cal.json"
    save_calibration(calibration, path)
    loaded = load_calibration(path)
    assert loaded.to_dict() == calibration.to_dict()
    frame = render_tray({"red": 2, "yellow": 3, "black": 1}, seed=8)
    assert count_cubes(frame.image, loaded).counts == count_cubes(frame.image, calibration).counts


def test_file_says_what_it_is_and_its_version(calibration, tmp_path):
    path = tmp_path / "cal.json"
    save_calibration(calibration, path)
    data = json.loads(path.read_text())
    assert data["format"] == "immortals-tower-calibration" and data["version"] == 1
    assert set(data["colors"]) == {"red", "blue", "yellow", "purple", "black", "green"}


def test_cube_size_comes_from_the_samples(calibration):
    assert 30 < calibration.cube_side < 42  # the renderer draws 36 px cubes


@pytest.mark.parametrize("how", ["empty photo", "background boxes", "nothing"])
def test_calibrations_without_some_options_still_count_right(photo, how):
    frame, samples, empty = photo
    kwargs = {"empty photo": {"empty": empty.image},
              "background boxes": {"backgrounds": [(150, 150, 100, 100), (900, 700, 120, 90)]},
              "nothing": {}}[how]
    cal = calibrate(frame.image, samples, roi=frame.roi, **kwargs)
    tray = render_tray({"blue": 3, "purple": 2, "green": 2, "black": 2}, seed=11)
    assert count_cubes(tray.image, cal).counts == tray.counts


def test_empty_photo_under_other_light_is_fine(photo):
    frame, samples, _ = photo
    dim = render_tray({}, seed=0, conditions=RenderConditions(light=0.6, white_balance=(1.2, 1.0, 0.8)))
    cal = calibrate(frame.image, samples, empty=dim.image, roi=frame.roi)
    tray = render_tray({"red": 2, "yellow": 2, "green": 1}, seed=12)
    assert count_cubes(tray.image, cal).counts == tray.counts


def test_missing_colour_is_named(photo):
    frame, samples, _ = photo
    with pytest.raises(CalibrationError, match="no sample for black"):
        calibrate(frame.image, [s for s in samples if s.color != "black"])


def test_box_outside_the_photo(photo):
    frame, samples, _ = photo
    bad = [Sample(s.color, (1270, 950, 40, 40)) if s.color == "red" else s for s in samples]
    with pytest.raises(CalibrationError, match="outside"):
        calibrate(frame.image, bad)


def test_box_on_empty_tray(photo):
    frame, samples, _ = photo
    bad = [Sample(s.color, (200, 200, 50, 50)) if s.color == "green" else s for s in samples]
    with pytest.raises(CalibrationError, match="shows no cube"):
        calibrate(frame.image, bad)


def test_two_colours_that_look_alike(photo):
    frame, samples, _ = photo
    red_box = next(s.box for s in samples if s.color == "red")
    bad = [Sample("purple", red_box) if s.color == "purple" else s for s in samples]
    with pytest.raises(CalibrationError, match="look almost the same"):
        calibrate(frame.image, bad)


def test_unknown_colour_and_bad_outline(photo):
    frame, samples, _ = photo
    with pytest.raises(CalibrationError, match="not a cube colour"):
        calibrate(frame.image, samples + [Sample("orange", (10, 10, 20, 20))])
    with pytest.raises(CalibrationError, match="three corner"):
        calibrate(frame.image, samples, roi=[(0, 0), (10, 10)])
    with pytest.raises(CalibrationError, match="outside"):
        calibrate(frame.image, samples, roi=[(0, 0), (2000, 0), (0, 500)])


def test_unusable_images(photo):
    frame, samples, _ = photo
    with pytest.raises(ImageReadError):
        calibrate(frame.image[:, :, 0], samples)
    with pytest.raises(ImageSizeError):
        calibrate(frame.image, samples, empty=frame.image[:480])


def _doc(calibration) -> dict:
    return json.loads(json.dumps(calibration.to_dict()))


BREAKAGES = {
    "other format": lambda d: d.update(format="something-else"),
    "future version": lambda d: d.update(version=99),
    "missing colours": lambda d: d.pop("colors"),
    "colour missing": lambda d: d["colors"].pop("green"),
    "unknown colour": lambda d: d["colors"].update(orange=d["colors"]["red"]),
    "covariance shape": lambda d: d["colors"]["red"].update(cov=[[1, 0], [0, 1]]),
    "covariance not symmetric": lambda d: d["colors"]["red"].update(cov=[[1, 5, 0], [0, 1, 0], [0, 0, 1]]),
    "negative area": lambda d: d["cube_area"].update(red=-3),
    "area not a number": lambda d: d["cube_area"].update(red="big"),
    "outline outside": lambda d: d.update(roi=[[0, 0], [5000, 0], [0, 10]]),
    "bad scale": lambda d: d.update(scale=0),
}


@pytest.mark.parametrize("name", BREAKAGES)
def test_broken_files_are_refused_with_a_reason(calibration, tmp_path, name):
    doc = _doc(calibration)
    BREAKAGES[name](doc)
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(CalibrationError, match="calibrat") as info:
        load_calibration(path)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("content", [b"{not json", b"\x89PNG\r\n\x1a\n\x00\x00", b"[1, 2]"])
def test_files_that_are_no_calibration_at_all(tmp_path, content):
    path = tmp_path / "cal.json"
    path.write_bytes(content)
    with pytest.raises(CalibrationError, match="not"):
        load_calibration(path)


def test_missing_file(tmp_path):
    with pytest.raises(CalibrationError, match="Cannot read"):
        load_calibration(tmp_path / "nowhere.json")


def test_calibration_is_immutable(calibration):
    with pytest.raises(AttributeError):
        calibration.scale = 3  # type: ignore[misc]
    assert isinstance(replace(calibration, scale=1), Calibration)
