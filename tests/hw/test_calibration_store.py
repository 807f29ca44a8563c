"""From taps to a calibration, and the kept calibrations (companion.hw.calibration_store)."""

from __future__ import annotations

import json

import pytest

from companion.hw import calibration_store as cs
from companion.hw.calibration_store import (
    ActiveCalibrationError,
    CalibrationStore,
    OutlineError,
    Tap,
    TapError,
    UnknownCalibrationError,
    background_at,
    check_setup,
    parse_setup,
    sample_at,
)
from companion.vision.calibration import load_calibration
from companion.vision.perspective import MIN_OFF_CENTRE, off_centre
from companion.vision.synthetic import RenderConditions, render_calibration_photo, render_tray

ROI = [list(p) for p in RenderConditions().roi]
SIZE = (1280, 960)


@pytest.fixture(scope="module")
def tray():
    """A photo with one cube of each colour, and where each lies (the renderer's truth)."""
    frame = render_tray({c: 1 for c in ("red", "blue", "yellow", "purple", "black", "green")}, seed=3)
    return frame.image, {c.color: (round(c.x), round(c.y)) for c in frame.cubes}


def body(where, **changes):
    return {"outline": ROI, "taps": [{"color": c, "x": x, "y": y} for c, (x, y) in where.items()], **changes}


@pytest.mark.parametrize("outline, words", [
    (None, "at least three corner points"),
    ([[1, 1], [100, 1]], "at least three corner points"),
    ([[1, 1], [100, 1], ["a", 3]], "Outline point 3 must be two numbers"),
    ([[1, 1], [100, 1], [1, 2000]], "Outline point 3 (1,2000) lies outside the 1280×960 photo"),
    ([[-1, 1], [100, 1], [1, 200]], "Outline point 1 (-1,1) lies outside"),
    ([[1, 1], [5, 1], [1, 5]], "encloses almost nothing"),
])
def test_a_bad_outline_is_named(outline, words):
    with pytest.raises(OutlineError) as info:
        parse_setup({"outline": outline, "taps": [{"color": "red", "x": 5, "y": 5}]}, SIZE)
    assert words in str(info.value) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("taps, words", [
    (None, "Tap one cube"),
    ([{"color": "red"}], "Tap 1 needs a colour and x and y"),
    ([{"color": "red", "x": True, "y": 3}], "Tap 1 needs"),
    ([{"color": "pink", "x": 3, "y": 3}], "'pink' is not a cube colour"),
    ([{"color": "red", "x": 3, "y": 3}, {"color": "blue", "x": 3, "y": 961}], "Tap 2 (blue at 3,961) lies outside"),
    ([{"color": "background", "x": 3, "y": 3}], "background taps alone"),
])
def test_bad_taps_are_named(taps, words):
    with pytest.raises(TapError) as info:
        parse_setup({"outline": ROI, "taps": taps}, SIZE)
    assert words in str(info.value)


def test_a_parsed_setup_keeps_the_taps_in_order_and_background_as_none():
    setup = parse_setup({"outline": ROI, "taps": [{"color": "red", "x": 10.4, "y": 20.6},
                                                  {"color": None, "x": 1, "y": 2}]}, SIZE)
    assert setup.taps == (Tap("red", 10, 21), Tap(None, 1, 2)) and setup.colour_taps == (Tap("red", 10, 21),)


@pytest.mark.parametrize("dx, dy", [(0, 0), (10, -8), (-12, 12)])
def test_a_tap_near_the_centre_gives_a_box_around_the_whole_cube(tray, dx, dy):
    image, where = tray
    x, y = where["blue"]
    sample = sample_at(image, Tap("blue", x + dx, y + dy))
    bx, by, bw, bh = sample.box
    side = RenderConditions().cube_px
    assert sample.color == "blue" and 1.3 * side <= bw <= 2.2 * side and bw == bh
    assert bx + 0.2 * side < x < bx + bw - 0.2 * side and by + 0.2 * side < y < by + bh - 0.2 * side


def test_a_tap_on_the_tray_named_as_a_colour_is_refused(tray):
    image, _ = tray
    with pytest.raises(TapError, match="The red tap is on the tray, not on a cube"):
        sample_at(image, Tap("red", 640, 150))


def test_a_background_tap_on_a_cube_is_refused_and_on_the_tray_is_a_box(tray):
    image, where = tray
    with pytest.raises(TapError, match="background tap is on a cube"):
        background_at(image, Tap(None, *where["red"]), 36)
    assert background_at(image, Tap(None, 640, 150), 36) == (622, 132, 36, 36)


def test_the_check_counts_the_photo_back_and_names_a_cube_it_does_not_find(tray):
    image, where = tray
    result = check_setup(image, parse_setup(body(where), SIZE))
    assert result.found == {c: 1 for c in where} and result.warnings == ()
    assert result.annotated.shape == image.shape
    # the outline leaves the green cube out: tapped, calibrated, but not counted there
    gx, gy = where["green"]
    others = [p for c, p in where.items() if c != "green"]
    left = min(x for x, _ in others) - 30
    assert gx < left  # seed 3 puts the green cube leftmost
    outline = [[left, 90], [1165, 100], [1185, 870], [left, 860]]
    result = check_setup(image, parse_setup(body(where, outline=outline), SIZE))
    assert {"kind": "not_found", "colors": ["green"], "x": gx, "y": gy} in result.warnings
    assert "green" not in result.found


def test_taps_all_near_the_middle_are_told_to_leave_the_sides_near_the_edge_unmeasured():
    photo, samples, _ = render_calibration_photo(RenderConditions())  # a row across the middle
    centres = {s.color: (s.box[0] + s.box[2] // 2, s.box[1] + s.box[3] // 2) for s in samples}
    middle = {c: p for c, p in centres.items() if off_centre(*p, SIZE) < MIN_OFF_CENTRE}
    assert 1 <= len(middle) < len(centres)
    told = {"kind": "sides_unmeasured", "colors": []}
    assert told in check_setup(photo.image, parse_setup(body(middle), SIZE)).warnings
    assert told not in check_setup(photo.image, parse_setup(body(centres), SIZE)).warnings


def test_taps_through_a_bending_lens_calibrate_it_and_find_every_tapped_cube_where_it_lies():
    """Through a lens that halves a corner cube's area, a tap on each cube of a throw spread to
    the tray's edges (the four corners of the outline as the photo shows them): the calibration
    learns the lens, counts the photo back exactly, and finds each tapped cube under its tap —
    the counted positions are the photo's, not the straightened picture's."""
    from dataclasses import replace

    from companion.vision.synthetic import in_picture

    tower = replace(RenderConditions(), barrel=0.2)
    counts = {"red": 2, "blue": 2, "yellow": 2, "purple": 2, "black": 2, "green": 2}
    frame = render_tray(counts, seed=4, conditions=tower)
    taps = {}
    for cube in frame.cubes:  # one tap per colour, the cube of it farthest from the middle
        x, y = in_picture(cube.x, cube.y, tower)
        if off_centre(x, y, SIZE) > off_centre(*taps.get(cube.color, (640, 480)), SIZE):
            taps[cube.color] = (round(x), round(y))
    corners = [list(in_picture(x, y, tower)) for x, y in tower.roi]
    check = check_setup(frame.image, parse_setup({**body(taps), "outline": corners}, SIZE))
    assert 0.12 <= check.calibration.barrel <= 0.3
    assert check.found == frame.counts
    assert not [w for w in check.warnings if w["kind"] == "not_found"]


def test_two_colours_tapped_on_one_cube_are_refused(tray):
    image, where = tray
    x, y = where["red"]
    setup = parse_setup({"outline": ROI, "taps": [{"color": "red", "x": x, "y": y},
                                                  {"color": "yellow", "x": x + 3, "y": y}]}, SIZE)
    with pytest.raises(TapError, match="yellow tap and the red tap are on the same cube"):
        check_setup(image, setup)


# ---------------------------------------------------------------- the store

@pytest.fixture
def store(tmp_path):
    return CalibrationStore(tmp_path / "calibrations", tmp_path / "calibration.json")


@pytest.fixture(scope="module")
def checked(tray):
    image, where = tray
    return image, check_setup(image, parse_setup(body(where), SIZE))


def test_save_keeps_the_calibration_with_its_photo_and_makes_it_active(store, checked):
    image, result = checked
    entry = store.save(result.calibration, image, result.warnings)
    assert entry.active and store.active_id() == entry.id
    assert load_calibration(store.active_path).colors == result.calibration.colors
    assert store.file(entry.id, "thumbnail.jpg").stat().st_size > 1000
    assert [e.id for e in store.list()] == [entry.id]


def test_restore_and_delete(store, checked):
    image, result = checked
    first = store.save(result.calibration, image)
    second = store.save(result.calibration, image)
    assert [e.id for e in store.list()] == [second.id, first.id]
    with pytest.raises(ActiveCalibrationError):
        store.delete(second.id)
    store.restore(first.id)
    assert store.active_id() == first.id
    store.delete(second.id)
    assert [e.id for e in store.list()] == [first.id]
    for bad in (second.id, "../etc", 5, None):
        with pytest.raises(UnknownCalibrationError):
            store.restore(bad)


def test_a_failed_save_leaves_the_active_calibration_and_the_list_as_they_were(store, checked, monkeypatch):
    image, result = checked
    first = store.save(result.calibration, image)
    before = store.active_path.read_bytes()

    def broken(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(cs, "_write_jpeg", broken)
    with pytest.raises(OSError):
        store.save(result.calibration, image)
    assert store.active_path.read_bytes() == before
    assert [e.id for e in store.list()] == [first.id] and store.active_id() == first.id
    assert json.loads((store.root / "active.json").read_text())["id"] == first.id


def test_photos_are_kept_a_while(store, tray):
    image, _ = tray
    ids = [store.keep_photo(image) for _ in range(cs.PHOTOS_KEPT + 1)]
    assert store.photo(ids[-1]) is image
    with pytest.raises(cs.SetupError, match="take a new one"):
        store.photo(ids[0])
    with pytest.raises(cs.SetupError, match="not been checked"):
        store.checked_photo(ids[-1])


def test_a_tap_near_a_tray_edge_keeps_a_box_the_calibration_can_use():
    """On a two-tone tray the tidy box around a cube can cross the tones' edge; the box the
    search found the cube in is kept instead, and the calibration finds every cube."""
    from dataclasses import replace

    cond = replace(RenderConditions(), surface="two-tone", background=(0.7, 0.72, 0.74),
                   reflections=8, tray_seed=4, scratches=6)
    frame = render_tray({c: 1 for c in ("red", "blue", "yellow", "purple", "black", "green")}, seed=3,
                        conditions=cond)
    taps = [{"color": c.color, "x": c.x + 6, "y": c.y - 5} for c in frame.cubes]
    result = check_setup(frame.image, parse_setup({"outline": ROI, "taps": taps}, SIZE))
    assert result.found == {c.color: 1 for c in frame.cubes}
