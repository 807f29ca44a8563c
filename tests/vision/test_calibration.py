import json
from dataclasses import replace

import cv2
import numpy as np
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
    assert data["format"] == "immortals-tower-calibration" and data["version"] == 2
    assert data["colors"] == ["red", "blue", "yellow", "purple", "black", "green"]
    assert {r["class"] for r in data["references"]} == {"background", *data["colors"]}


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


@pytest.mark.parametrize("colours", [("red",), ("red", "blue", "green"), ("yellow", "purple", "black", "green")])
def test_any_subset_of_colours_calibrates_and_counts(photo, colours):
    frame, samples, empty = photo
    cal = calibrate(frame.image, [s for s in samples if s.color in colours], empty=empty.image, roi=frame.roi)
    assert cal.colors == colours
    assert cal.missing(["red", "blue", "black"]) == tuple(c for c in ("red", "blue", "black") if c not in colours)
    tray = render_tray({"red": 2, "blue": 2, "yellow": 1, "purple": 1, "black": 1, "green": 2}, seed=21)
    result = count_cubes(tray.image, cal)
    assert result.counts == {c: n for c, n in tray.counts.items() if c in colours}
    # Cubes of colours with no sample are never guessed into a calibrated colour: unknown.
    assert result.unknown == sum(1 for c in tray.cubes if c.color not in colours)


def test_no_sample_at_all_is_refused(photo):
    frame, _, _ = photo
    with pytest.raises(CalibrationError, match="at least one cube"):
        calibrate(frame.image, [])


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


def test_two_samples_of_one_cube_under_two_colours(photo):
    frame, samples, _ = photo
    red_box = next(s.box for s in samples if s.color == "red")
    bad = [Sample("purple", red_box) if s.color == "purple" else s for s in samples]
    with pytest.raises(CalibrationError, match="look the same"):
        calibrate(frame.image, bad)


def test_a_box_on_two_colours_is_refused():
    """Two touching cubes of different colours in one box: refused, naming the box."""
    frame = render_tray({"red": 1, "blue": 1}, seed=3, conditions=RenderConditions(cluster=1.0))
    red, blue = sorted(frame.cubes, key=lambda c: c.color)
    x0, x1 = min(red.x, blue.x) - 30, max(red.x, blue.x) + 30
    y0, y1 = min(red.y, blue.y) - 30, max(red.y, blue.y) + 30
    box = (int(x0), int(y0), int(x1 - x0), int(y1 - y0))
    with pytest.raises(CalibrationError, match="two colours"):
        calibrate(frame.image, [Sample("red", box)])


def test_unknown_colour_and_bad_outline(photo):
    frame, samples, _ = photo
    with pytest.raises(CalibrationError, match="not a cube colour"):
        calibrate(frame.image, samples + [Sample("orange", (10, 10, 20, 20))])
    with pytest.raises(CalibrationError, match="three corner"):
        calibrate(frame.image, samples, roi=[(0, 0), (10, 10)])
    with pytest.raises(CalibrationError, match="outside"):
        calibrate(frame.image, samples, roi=[(0, 0), (2000, 0), (0, 500)])
    with pytest.raises(CalibrationError, match="almost no area"):  # an empty outline
        calibrate(frame.image, samples, roi=[(100, 100), (600, 100), (1100, 100)])


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
    "no references": lambda d: d.pop("references"),
    "no tray": lambda d: d.update(references=[r for r in d["references"] if r["class"] != "background"]),
    "no colour": lambda d: d.update(references=[r for r in d["references"] if r["class"] == "background"]),
    "size of a colour with no reference": lambda d: d["cube_area"].update(orange=3.0),
    "unknown class": lambda d: d["references"][0].update({"class": "orange"}),
    "covariance shape": lambda d: d["references"][0].update(cov=[[1, 0], [0, 1]]),
    "covariance not symmetric": lambda d: d["references"][0].update(cov=[[1, 5, 0], [0, 1, 0], [0, 0, 1]]),
    "tray cells not colours": lambda d: d.update(tray_cells=[[1, 2], [3, 4]]),
    "camera settings not an object": lambda d: d.update(camera=[1, 2]),
    "negative area": lambda d: d["cube_area"].update(red=-3),
    "area not a number": lambda d: d["cube_area"].update(red="big"),
    "outline outside": lambda d: d.update(roi=[[0, 0], [5000, 0], [0, 10]]),
    "bad scale": lambda d: d.update(scale=0),
    "dark levels not two levels": lambda d: d.update(dark=[12.0]),
    "dark level beyond white": lambda d: d.update(dark=[12.0, 300.0]),
    "dark level of no colour": lambda d: d.update(dark_colours={"orange": 12.0}),
    "dark level of a colour below black": lambda d: d.update(dark_colours={"red": -1.0}),
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


def test_a_file_from_before_the_dark_levels_still_loads_and_counts(calibration, tmp_path):
    doc = _doc(calibration)
    doc.pop("dark")
    doc.pop("dark_colours")
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(doc))
    loaded = load_calibration(path)
    assert loaded.dark is None
    frame = render_tray({"red": 2, "blue": 2}, seed=9)
    assert count_cubes(frame.image, loaded).counts == frame.counts


def test_a_file_from_before_the_colours_dark_levels_still_loads_and_counts(calibration, tmp_path):
    """Files written from 2026-11-26 to 2026-11-27 keep the objects' dark end only: the
    objects as a whole then read a lift (see black_level)."""
    doc = _doc(calibration)
    doc.pop("dark_colours")
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(doc))
    loaded = load_calibration(path)
    assert loaded.dark == calibration.dark and loaded.dark_colours == {}
    frame = render_tray({"red": 2, "blue": 2}, seed=9)
    assert count_cubes(frame.image, loaded).counts == frame.counts


def test_missing_file(tmp_path):
    with pytest.raises(CalibrationError, match="Cannot read"):
        load_calibration(tmp_path / "nowhere.json")


def test_calibration_is_immutable(calibration):
    with pytest.raises(AttributeError):
        calibration.scale = 3  # type: ignore[misc]
    assert isinstance(replace(calibration, scale=1), Calibration)


def test_a_corrupt_or_foreign_calibration_photo_is_refused(photo, tmp_path):
    from companion.vision.imageio import read_image

    frame, samples, _ = photo
    broken = tmp_path / "cal.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    with pytest.raises(ImageReadError, match="not a picture"):
        read_image(broken)
    # A calibration from another camera (another photo shape, with an outline) refuses photos.
    cal = calibrate(frame.image, samples, roi=frame.roi)
    with pytest.raises(ImageSizeError, match="another camera"):
        count_cubes(np.zeros((720, 1280, 3), np.uint8), cal)



def test_a_box_dragged_a_little_past_the_edge_is_cut_to_the_photo():
    # On the tablet a finger overshoots the photo's edge: the part inside is what was meant.
    image = np.full((240, 320, 3), (190, 190, 195), np.uint8)
    cv2.rectangle(image, (140, 196), (179, 235), (110, 110, 230), -1)  # a red cube at the bottom
    calibrated = calibrate(image, [Sample("red", (128, 184, 64, 72))])  # 16 rows below the photo
    assert calibrated.colors == ("red",)
    assert calibrated.samples[0].box[1] + calibrated.samples[0].box[3] <= 240
    with pytest.raises(CalibrationError, match="outside"):  # most of it below the photo
        calibrate(image, [Sample("red", (128, 200, 64, 100))])
