"""The cubes' sides a lens close under the tray sees (companion.vision.perspective)."""

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.vision.calibration import calibrate, calibration_from_dict
from companion.vision import frontend
from companion.vision.classify import BACKGROUND, UNKNOWN
from companion.vision.counting import count_cubes
from companion.vision.errors import CalibrationError
from companion.vision.perspective import (MAX_REACH, MIN_OFF_CENTRE, MIN_REACH, band_of, drop_sides, side_reach,
                                          towards_centre)
from companion.vision.synthetic import RenderConditions, render_calibration_photo, render_tray

SIZE = (640, 480)  # width, height of the pictures below
HALF = math.hypot(*SIZE) / 2


def _square(x: float, y: float, side: float, angle: float) -> np.ndarray:
    return cv2.boxPoints(((x, y), (side, side), angle)).astype(np.float32)


def _cube(mask: np.ndarray, x: float, y: float, side: float, angle: float, reach: float, code: int = 1) -> None:
    """Paint a cube's face and, towards the picture's centre, its band of sides (``reach`` cube
    sides at the corner), as the renderer draws them."""
    face = _square(x, y, side, angle)
    shift = (np.array(SIZE) / 2 - (x, y)) / HALF * reach * side
    hull = cv2.convexHull(np.vstack([face, face + shift.astype(np.float32)]))
    cv2.fillConvexPoly(mask, np.round(hull).astype(np.int32), code)


@pytest.mark.parametrize("angle", [0, 17, 45, 71])
@pytest.mark.parametrize(("x", "y"), [(60, 60), (600, 240), (320, 440)])
def test_a_lone_cubes_band_is_its_extent_towards_the_centre_less_its_extent_across(angle, x, y):
    side, reach = 30.0, 0.8
    mask = np.zeros(SIZE[::-1], np.uint8)
    _cube(mask, x, y, side, angle, reach)
    band, face, r = band_of(mask > 0, (0, 0), SIZE)
    true_r = math.hypot(SIZE[0] / 2 - x, SIZE[1] / 2 - y) / HALF
    # The centroid lies a little towards the centre of the face's; rounding to pixels: ±2 px.
    assert band == pytest.approx(reach * true_r * side, abs=2.0)
    assert face == pytest.approx(side, abs=2.0)
    assert r == pytest.approx(true_r, abs=0.03)
    bare = np.zeros_like(mask)
    _cube(bare, x, y, side, angle, 0.0)
    assert band_of(bare > 0, (0, 0), SIZE)[0] <= 1.0


def test_the_reach_is_the_slope_of_band_over_face_and_distance_from_cubes_off_centre():
    assert side_reach([(6.0, 20.0, 0.5), (3.0, 20.0, 0.25)]) == pytest.approx(0.6)
    # A cube near the centre shows too thin a band to measure: it does not vote.
    assert side_reach([(6.0, 20.0, 0.5), (5.0, 20.0, MIN_OFF_CENTRE - 0.01)]) == pytest.approx(0.6)
    assert side_reach([(5.0, 20.0, 0.1)]) == 0.0
    assert side_reach([]) == 0.0
    # Under a working pixel at every cube: no sides; beyond any lens under a tray: capped.
    assert side_reach([(0.9 * MIN_REACH * 10, 20.0, 0.5)]) == 0.0
    assert side_reach([(200.0, 20.0, 0.5)]) == MAX_REACH


def _dropped(cubes: list[tuple[float, float, float, int]], reach: float = 0.8, side: float = 30.0):
    """A class map of ``cubes`` (x, y, angle, class code) with their sides, faces drawn over
    every side as the renderer does; returns it before and after :func:`drop_sides`, and the
    faces alone."""
    classes = np.zeros(SIZE[::-1], np.uint8)
    faces = np.zeros_like(classes)
    for x, y, angle, code in cubes:
        _cube(classes, x, y, side, angle, reach, code)
    for x, y, angle, code in cubes:
        _cube(classes, x, y, side, angle, 0.0, code)
        _cube(faces, x, y, side, angle, 0.0)
    before = classes.copy()
    assert drop_sides(classes, towards_centre(classes.shape, SIZE, (0, 0), 1, reach * side)) is classes
    return before, classes, faces > 0


def test_dropping_the_sides_leaves_a_lone_cubes_face_whole_and_takes_its_band():
    # At the corners, at an edge, and one at the centre that shows no sides.
    before, after, faces = _dropped([(50, 50, 10, 1), (590, 430, 40, 2), (600, 60, 0, 3), (320, 240, 25, 4)])
    kept = after != BACKGROUND
    assert np.all(kept[faces]), "a face lost pixels"
    assert np.array_equal(after[kept], before[kept]), "a kept pixel changed its class"
    band = (before != BACKGROUND) & ~faces
    assert band.sum() > 0.2 * faces.sum()
    # What stays beyond the faces is their outline's rounding, not a band.
    assert not np.any(kept & ~_near(faces))


def test_a_row_of_cubes_towards_the_centre_keeps_its_faces_and_loses_the_band_beyond_them():
    # A cube's band towards its neighbour nearer the centre lands on that neighbour: the gaps
    # between the faces stay (only their colour could tell a side from a face there).
    row = [(80 + 32 * k, 400 - 21 * k, 33, 1 + k % 2) for k in range(3)]
    before, after, faces = _dropped(row)
    kept = after != BACKGROUND
    assert np.all(kept[faces])
    # Only pixels between the faces stay: nothing beyond the row, and the innermost cube's
    # band is gone.
    ys, xs = np.nonzero(faces)
    hull = np.zeros_like(after)
    cv2.fillConvexPoly(hull, cv2.convexHull(np.stack([xs, ys], 1).astype(np.int32)), 1)
    assert not np.any(kept & ~_near(faces) & (hull == 0))
    assert ((before != BACKGROUND) & (hull == 0)).sum() > 0.2 * faces.sum() / 3


def _near(mask: np.ndarray) -> np.ndarray:
    """Pixels within two of ``mask``: an outline's rounding."""
    return cv2.dilate(mask.view(np.uint8), np.ones((5, 5), np.uint8)) > 0


def test_the_maps_point_at_the_centre_of_the_photo_from_a_crop_at_working_resolution():
    size, origin, scale, reach = (1280, 960), (96, 48), 2, 10.0
    map_x, map_y = towards_centre((400, 500), size, origin, scale, reach)
    # The photo's centre, (640, 480), is working pixel (272, 216) of the crop: it stays put.
    assert (map_x[216, 272], map_y[216, 272]) == pytest.approx((272, 216))
    # Every pixel moves towards it by its distance over the half-diagonal (400 working
    # pixels) times the reach: the crop's corner, 347 from the centre, by 8.7 pixels.
    assert (map_x[0, 0], map_y[0, 0]) == pytest.approx((272 * reach / 400, 216 * reach / 400))
    assert (map_x[399, 499], map_y[399, 499]) == pytest.approx((499 - 227 * reach / 400, 399 - 183 * reach / 400))


@pytest.fixture(scope="module")
def towers():
    """The renderer's tower with the cubes' sides at 0.6 cube at the corner, and without."""
    flat = RenderConditions()
    return {side_view: replace(flat, side_view=side_view) for side_view in (0.0, 0.6)}


@pytest.fixture(scope="module")
def calibrations(towers):
    cals = {}
    for side_view, tower in towers.items():
        photo, samples, empty = render_calibration_photo(tower)
        cals[side_view] = calibrate(photo.image, samples, empty=empty.image, roi=tower.roi)
    return cals


def test_calibration_learns_the_sides_width_from_the_sample_cubes(calibrations):
    assert calibrations[0.0].side_reach == 0.0
    assert calibrations[0.6].side_reach == pytest.approx(0.6, abs=0.1)
    # The sides are the lens's, towards the centre: not blocks seen from the side.
    assert not calibrations[0.6].seen_from_side
    # A cube's size is its face's: the sides do not make it larger.
    assert calibrations[0.6].cube_side == pytest.approx(calibrations[0.0].cube_side, rel=0.06)


def test_the_sides_width_is_kept_in_the_file_and_an_old_file_has_none(calibrations):
    data = calibrations[0.6].to_dict()
    assert calibration_from_dict(data).side_reach == calibrations[0.6].side_reach
    del data["side_reach"]
    assert calibration_from_dict(data).side_reach == 0.0
    for wrong in (-0.1, MAX_REACH + 1, float("nan")):
        with pytest.raises(CalibrationError, match="width of the cubes' sides must be a number from 0 to 3"):
            calibration_from_dict({**data, "side_reach": wrong})
    with pytest.raises(CalibrationError, match="wrong type"):
        calibration_from_dict({**data, "side_reach": "wide"})


def test_without_an_outline_no_sides_are_taken(towers):
    photo, samples, _ = render_calibration_photo(towers[0.6])
    assert calibrate(photo.image, samples).side_reach == 0.0


@pytest.mark.parametrize("seed", range(4))
def test_cubes_near_the_edge_seen_from_the_side_are_counted_once(towers, calibrations, seed):
    """Thirty-two cubes spread to the tray's edges with their sides in view: counted exactly,
    nothing doubtful (the harder frames that need the sides taken off are in
    tests/benchmarks/test_perspective.py)."""
    counts = {"red": 8, "blue": 8, "yellow": 6, "green": 6, "purple": 4}
    frame = render_tray(counts, seed=seed, conditions=towers[0.6])
    result = count_cubes(frame.image, calibrations[0.6])
    assert result.counts == {c: n for c, n in frame.counts.items() if n}
    assert not result.doubtful and not result.unknown


def test_samples_all_near_the_middle_cannot_tell_the_sides_and_say_so(towers):
    photo, samples, empty = render_calibration_photo(towers[0.6])
    middle = [s for s in samples if abs(s.box[0] + s.box[2] / 2 - photo.image.shape[1] / 2) < 150]
    assert 1 <= len(middle) < len(samples)
    calibration = calibrate(photo.image, middle, empty=empty.image, roi=towers[0.6].roi)
    assert calibration.side_reach == 0.0
    assert any("near the tray's edge" in w for w in calibration.warnings)
    spread = calibrate(photo.image, samples, empty=empty.image, roi=towers[0.6].roi)
    assert not any("near the tray's edge" in w for w in spread.warnings)


def test_sides_of_no_colour_do_not_count_against_the_trays_light():
    """A side darker than any light its colour was calibrated under reads as no colour; when
    the class map weighs whether the tray's light holds (most of the objects unnamed: doubt it),
    the sides are left out."""
    reach, side = 1.0, 30.0
    classes = np.zeros(SIZE[::-1], np.uint8)
    for x, y in [(60, 60), (580, 420), (60, 420)]:
        _cube(classes, x, y, side, 20, reach, code=UNKNOWN)  # the sides: no colour
        _cube(classes, x, y, side, 20, 0.0, code=3)  # the faces: yellow
    no_positions = (np.array([], int), np.array([], int))
    unnamed, objects = frontend._unnamed(classes, no_positions)
    assert unnamed > 0.5 * (objects - unnamed)  # as read: the sides are a third of the objects
    maps = towards_centre(classes.shape, SIZE, (0, 0), 1, reach * side)
    unnamed_without, objects_without = frontend._unnamed(classes, no_positions, maps)
    # What is left of the sides is their outline's rounding around each face.
    assert unnamed_without < 0.1 * objects_without and unnamed_without < unnamed / 4
    assert objects_without == objects - unnamed + unnamed_without
