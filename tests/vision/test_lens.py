"""A wide lens's barrel distortion (companion.vision.lens): learned at calibration, straightened
before counting, the readings given back in the photo's own pixels."""

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.vision.calibration import calibrate, calibration_from_dict
from companion.vision.counting import count_cubes
from companion.vision.errors import CalibrationError
from companion.vision.lens import (MAX_BARREL, MIN_BARREL, barrel_of, picture_points, straight_box, straight_points,
                                   straighten)
from companion.vision.synthetic import RenderConditions, in_picture, render_calibration_photo, render_tray

SIZE = (1280, 960)


@pytest.mark.parametrize("k", [0.05, 0.2, MAX_BARREL])
def test_the_straight_picture_and_the_photo_are_each_others_inverse_and_keep_centre_and_corners(k):
    rng = np.random.default_rng(3)
    points = rng.uniform((0, 0), SIZE, size=(200, 2))
    straight = straight_points(points, k, SIZE)
    assert np.abs(picture_points(straight, k, SIZE) - points).max() < 0.01
    corners = np.array([(0, 0), (SIZE[0] - 1, 0), (0, SIZE[1] - 1), (SIZE[0] - 1, SIZE[1] - 1)], float)
    assert np.abs(straight_points(corners, k, SIZE) - corners).max() < 1e-6
    centre = np.array([[(SIZE[0] - 1) / 2, (SIZE[1] - 1) / 2]])
    assert np.abs(straight_points(centre, k, SIZE) - centre).max() < 1e-9
    # the farther out, the more the photo drew a point nearer the centre than the straight picture
    out = [(centre[0, 0] + f * 639.5, centre[0, 1] + f * 479.5) for f in (0.3, 0.6, 0.9)]
    moved = straight_points(np.array(out), k, SIZE)
    ratios = (moved[:, 0] - centre[0, 0]) / (np.array(out)[:, 0] - centre[0, 0])
    assert ratios[0] < ratios[1] < ratios[2] < 1.0


def test_a_straight_lens_changes_nothing():
    points = np.array([[10.0, 20.0], [600.0, 400.0]])
    assert np.array_equal(straight_points(points, 0.0, SIZE), points)
    assert np.array_equal(picture_points(points, 0.0, SIZE), points)
    image = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    assert straighten(image, 0.0) is image
    assert straight_box((5, 6, 70, 80), 0.0, SIZE) == (5, 6, 70, 80)


def test_a_box_moved_to_the_straight_picture_and_back_still_holds_what_it_held():
    box = (1000, 700, 60, 50)
    there = straight_box(box, 0.2, SIZE)
    back = straight_box(there, 0.2, SIZE, inverse=True)
    assert back[0] <= box[0] and back[1] <= box[1]
    assert back[0] + back[2] >= box[0] + box[2] and back[1] + back[3] >= box[1] + box[3]
    assert back[2] <= 1.2 * box[2] and back[3] <= 1.2 * box[3]


def test_straightened_cubes_are_one_size_wherever_they_lie():
    """The renderer's lens shrinks the outer cubes (in the photo the smallest face has under
    three quarters of the largest's area); straightened with the same k, every face has the
    area it has through a straight lens, times the straight picture's 1 / (1 + k)², within 6 %."""
    flat = RenderConditions(noise=0.0, vignette=0.0, jpeg_quality=0, background=(0.7, 0.7, 0.7))
    plain = render_tray({"red": 14}, seed=2, conditions=flat)
    frame = render_tray({"red": 14}, seed=2, conditions=replace(flat, barrel=0.2))

    def areas(image):  # each red face's area and centre
        red = ((image[:, :, 2].astype(int) - image[:, :, 1]) > 100).astype(np.uint8)
        _, _, stats, centroids = cv2.connectedComponentsWithStats(red)
        return stats[1:, cv2.CC_STAT_AREA], centroids[1:]

    bent, _ = areas(frame.image)
    assert len(bent) == 14 and bent.min() < 0.75 * bent.max()
    straight, where = areas(straighten(frame.image, 0.2))
    expected, places = areas(plain.image)
    assert len(straight) == len(expected) == 14
    for area, (x, y) in zip(straight, where):
        # the straight picture is the straight lens's, 1 + k times smaller about the centre
        lens_x, lens_y = 639.5 + (x - 639.5) * 1.2, 479.5 + (y - 479.5) * 1.2
        match = int(np.argmin(np.hypot(places[:, 0] - lens_x, places[:, 1] - lens_y)))
        assert np.hypot(places[match, 0] - lens_x, places[match, 1] - lens_y) < 3
        assert area == pytest.approx(expected[match] / 1.2 ** 2, rel=0.06)


def test_the_lens_is_told_by_sample_sizes_spread_from_the_centre_or_not_at_all():
    centres = [(640, 480), (900, 480), (1150, 800), (200, 150), (400, 700)]
    half = math.hypot(*SIZE) / 2
    r2 = [((x - 639.5) ** 2 + (y - 479.5) ** 2) / half ** 2 for x, y in centres]
    noise = np.random.default_rng(1).uniform(0.98, 1.02, len(centres))
    for k in (0.1, 0.2, 0.35):
        areas = [1000 / ((1 + k * r) * (1 + 3 * k * r)) * n for r, n in zip(r2, noise)]
        assert barrel_of(areas, centres, SIZE) == pytest.approx(k, abs=0.03)
    assert barrel_of([1000 * n for n in noise], centres, SIZE) == 0.0  # one size: a straight lens
    assert barrel_of([1000 / (1 + 0.08 * r) for r in r2], centres, SIZE) == 0.0  # under MIN_BARREL
    assert MIN_BARREL > 0.02
    assert barrel_of([1000, 900], centres[:2], SIZE) is None  # too few
    assert barrel_of([1000, 990, 980], [(640, 480), (660, 470), (620, 500)], SIZE) is None  # one distance


@pytest.fixture(scope="module")
def tower():
    return replace(RenderConditions(), barrel=0.2)


@pytest.fixture(scope="module")
def bent(tower):
    photo, samples, empty = render_calibration_photo(tower)
    return calibrate(photo.image, samples, empty=empty.image, roi=photo.roi), photo, samples


def test_calibration_learns_the_lens_and_keeps_the_photos_own_outline_and_boxes(bent):
    calibration, photo, samples = bent
    assert calibration.barrel == pytest.approx(0.2, abs=0.05)
    assert calibration.roi == tuple(photo.roi)
    for kept, given in zip(calibration.samples, samples):  # the boxes are the photo's, round its cube
        x, y, w, h = kept.box
        gx, gy, gw, gh = given.box
        assert abs((x + w / 2) - (gx + gw / 2)) < 0.25 * gw and abs((y + h / 2) - (gy + gh / 2)) < 0.25 * gh


def test_a_straight_lens_is_learned_as_straight():
    photo, samples, empty = render_calibration_photo(RenderConditions())
    assert calibrate(photo.image, samples, empty=empty.image, roi=photo.roi).barrel == 0.0


def test_the_lens_is_kept_in_the_file_and_an_old_file_has_none(bent):
    data = bent[0].to_dict()
    assert calibration_from_dict(data).barrel == bent[0].barrel
    del data["barrel"]
    assert calibration_from_dict(data).barrel == 0.0
    for wrong in (-0.1, MAX_BARREL + 0.1, float("inf")):
        with pytest.raises(CalibrationError, match="lens's distortion must be a number from 0 to 0.5"):
            calibration_from_dict({**data, "barrel": wrong})


@pytest.mark.parametrize("seed", range(3))
def test_cubes_through_a_bending_lens_are_counted_and_placed_where_the_photo_shows_them(tower, bent, seed):
    """Twenty-eight cubes spread to the tray's edges, some in piles, through the lens: counted
    exactly, and each reported cube lies within half a cube of where the photo shows a true
    cube (in the photo's pixels, not the straight picture's)."""
    calibration = bent[0]
    counts = {"red": 8, "blue": 6, "yellow": 6, "green": 4, "purple": 4}
    frame = render_tray(counts, seed=seed, conditions=replace(tower, cluster=0.4))
    result = count_cubes(frame.image, calibration)
    assert result.counts == {c: n for c, n in frame.counts.items() if n}
    truth = np.array([in_picture(c.x, c.y, tower) for c in frame.cubes])
    for cube in result.cubes:
        nearest = np.hypot(*(truth - (cube.x, cube.y)).T).min()
        assert nearest < 0.5 * tower.cube_px
        x, y, w, h = cube.bbox
        assert x <= cube.x <= x + w and y <= cube.y <= y + h
