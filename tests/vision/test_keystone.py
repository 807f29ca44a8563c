"""A camera that leans (companion/vision/keystone.py): the tray outline's keystone found, the
photo levelled by it and back, the samples' word on an outline that is no rectangle, and a
leaning camera's calibration and count."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.vision.calibration import calibrate, calibration_from_dict
from companion.vision.counting import count_cubes
from companion.vision.errors import CalibrationError
from companion.vision.keystone import (MIN_LEAN, area_factor, confirmed, corners, keystone_of, lean_of,
                                       level_points)
from companion.vision.lens import picture_points, straight_points, straighten
from companion.vision.synthetic import RenderConditions, in_picture, render_calibration_photo, render_tray

WIDTH = 1280
RECTANGLE = ((200, 150), (1080, 150), (1080, 810), (200, 810))


def _leaning(points, turn: float = 0.12) -> np.ndarray:
    """Points as a camera leaning about its horizontal axis shows them: the bottom nearer, wider."""
    lean = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, turn / 960, 1.0]])
    centre = np.array([[1, 0, -640], [0, 1, -480], [0, 0, 1.0]])
    matrix = np.linalg.inv(centre) @ np.linalg.inv(lean) @ centre
    return cv2.perspectiveTransform(np.array(points, np.float64).reshape(-1, 1, 2), matrix).reshape(-1, 2)


def test_the_corners_come_in_order_from_any_outline_of_four():
    shuffled = [RECTANGLE[2], RECTANGLE[0], RECTANGLE[3], RECTANGLE[1]]
    assert np.array_equal(corners(shuffled), np.array(RECTANGLE, float))
    # A side drawn as many points (a lens's bow straightened) still has four corners.
    sides = [np.array(a) + (np.array(b) - a) * t for a, b in zip(RECTANGLE, RECTANGLE[1:] + RECTANGLE[:1])
             for t in np.arange(16) / 16]
    assert np.allclose(corners(sides), RECTANGLE)
    assert corners([(0, 0), (100, 0), (50, 80)]) is None  # three corners
    hexagon = [(np.cos(a) * 300 + 640, np.sin(a) * 300 + 480) for a in np.arange(6) * np.pi / 3]
    assert corners(hexagon) is None


def test_a_level_camera_and_a_lean_under_min_lean_have_no_keystone():
    assert keystone_of(RECTANGLE, WIDTH) is None
    assert keystone_of(None, WIDTH) is None
    slight = _leaning(RECTANGLE, 0.02)
    assert lean_of(corners(slight)) < MIN_LEAN and keystone_of(slight, WIDTH) is None


def test_a_leaning_outline_is_levelled_to_a_rectangle_and_back():
    outline = _leaning(RECTANGLE)
    assert lean_of(corners(outline)) > MIN_LEAN
    keystone = keystone_of(outline, WIDTH)
    level = level_points(outline, keystone, WIDTH)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = level
    assert y0 == pytest.approx(y1, abs=0.01) and y2 == pytest.approx(y3, abs=0.01)
    assert x0 == pytest.approx(x3, abs=0.01) and x1 == pytest.approx(x2, abs=0.01)
    assert np.allclose(level_points(level, keystone, WIDTH, inverse=True), outline, atol=0.01)
    # Resolution-free: the same camera at half the width levels the same points at half size.
    assert np.allclose(level_points(outline / 2, keystone, WIDTH / 2), level / 2, atol=0.01)


def test_the_area_factor_is_how_much_a_small_square_grows_when_levelled():
    keystone = keystone_of(_leaning(RECTANGLE), WIDTH)
    for x, y in [(300, 200), (640, 480), (1000, 780)]:
        square = np.array([(x, y), (x + 4, y), (x + 4, y + 4), (x, y + 4)], float)
        levelled = level_points(square, keystone, WIDTH)
        grown = abs(cv2.contourArea(levelled.astype(np.float32))) / 16.0
        assert area_factor(np.array([(x + 2, y + 2)]), keystone, WIDTH)[0] == pytest.approx(grown, rel=0.01)
    top, bottom = area_factor(np.array([(640, 200), (640, 780)]), keystone, WIDTH)
    assert bottom < 1 < top  # the near (wide) bottom shrinks, the far top grows


def test_the_samples_tell_a_lean_from_a_tray_that_is_no_rectangle():
    keystone = keystone_of(_leaning(RECTANGLE), WIDTH)
    centres = np.array([(640, 200), (640, 480), (640, 780)])
    leaning = 900.0 / area_factor(centres, keystone, WIDTH)  # one size once levelled
    assert confirmed(keystone, leaning, centres, WIDTH)
    assert not confirmed(keystone, [900.0, 900.0, 900.0], centres, WIDTH)  # one size as photographed
    row = np.array([(300, 480), (640, 480), (980, 480)])  # one height: they cannot tell
    assert confirmed(keystone, [900.0, 900.0, 900.0], row, WIDTH)


def test_the_straight_picture_composes_the_lens_and_the_lean():
    keystone = keystone_of(_leaning(RECTANGLE), WIDTH)
    points = np.array([(100.0, 100.0), (640.0, 480.0), (1200.0, 900.0)])
    for k in (0.0, 0.15):
        there = straight_points(points, k, (WIDTH, 960), keystone)
        assert np.allclose(picture_points(there, k, (WIDTH, 960), keystone), points, atol=0.02)
    image = np.zeros((960, WIDTH, 3), np.uint8)
    cv2.circle(image, (300, 200), 6, (255, 255, 255), -1)
    moved = straighten(image, 0.0, keystone)
    ys, xs = np.nonzero(moved[:, :, 0] > 128)
    expected = level_points(np.array([(300.0, 200.0)]), keystone, WIDTH)[0]
    assert abs(xs.mean() - expected[0]) < 1 and abs(ys.mean() - expected[1]) < 1


@pytest.fixture(scope="module")
def leaning_tower():
    return RenderConditions(tilt=8.0)


@pytest.fixture(scope="module")
def leaning_calibration(leaning_tower):
    photo, samples, empty = render_calibration_photo(leaning_tower)
    return calibrate(photo.image, samples, empty=empty.image, roi=photo.roi)


def test_a_camera_leaning_8_degrees_is_levelled_and_its_throws_counted(leaning_tower, leaning_calibration):
    """The renderer's camera turned 8° (its tray's near side 16 % longer than the far side):
    the calibration keeps its keystone, the level picture is counted, and every cube is
    reported where the photo shows it."""
    assert leaning_calibration.keystone is not None and leaning_calibration.straightened
    counts = {"red": 3, "blue": 4, "yellow": 2, "black": 3}
    frame = render_tray(counts, seed=11, conditions=leaning_tower)
    result = count_cubes(frame.image, leaning_calibration)
    assert result.counts == counts
    side = np.sqrt(np.median(list(leaning_calibration.cube_area.values())))
    free = list(frame.cubes)
    for cube in result.cubes:
        seen = [(c, np.hypot(*np.subtract(in_picture(c.x, c.y, leaning_tower), (cube.x, cube.y)))) for c in free
                if c.color == cube.color]
        true, off = min(seen, key=lambda pair: pair[1])
        assert off < 0.5 * side
        free.remove(true)


def test_the_keystone_is_kept_in_the_file_and_a_broken_one_refused(leaning_calibration):
    data = leaning_calibration.to_dict()
    again = calibration_from_dict(data)
    assert again.keystone == pytest.approx(leaning_calibration.keystone)
    old = dict(data)
    del old["keystone"]
    assert calibration_from_dict(old).keystone is None  # files written before it was kept
    for broken in ([1.0, 0.0, 0.0], [0.0] * 9, [float("nan")] + [1.0] * 8):
        with pytest.raises(CalibrationError, match="camera's lean"):
            calibration_from_dict({**data, "keystone": broken})


def test_a_level_camera_keeps_no_keystone():
    photo, samples, empty = render_calibration_photo(RenderConditions())
    calibration = calibrate(photo.image, samples, empty=empty.image, roi=photo.roi)
    assert calibration.keystone is None and not calibration.straightened
    assert replace(calibration, barrel=0.1).straightened
