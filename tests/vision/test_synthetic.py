import math

import numpy as np
import pytest

from companion.vision.synthetic import (RenderConditions, render_calibration_photo, render_empty_tray,
                                        render_settling_sequence, render_tray)


def test_same_seed_same_image_and_other_seed_other_layout():
    a = render_tray({"red": 3, "green": 2}, seed=4)
    b = render_tray({"red": 3, "green": 2}, seed=4)
    c = render_tray({"red": 3, "green": 2}, seed=5)
    assert np.array_equal(a.image, b.image)
    assert a.cubes == b.cubes
    assert a.cubes != c.cubes


def test_frame_shape_and_ground_truth():
    frame = render_tray({"red": 2, "black": 3, "green": 1}, seed=1)
    assert frame.image.shape == (960, 1280, 3) and frame.image.dtype == np.uint8
    assert frame.counts == {"red": 2, "black": 3, "green": 1}
    assert sorted(c.color for c in frame.cubes) == ["black"] * 3 + ["green"] + ["red"] * 2
    assert frame.unknown == 0 and frame.others == ()


def test_cubes_never_overlap_even_in_tight_clusters():
    cond = RenderConditions(cluster=1.0)
    frame = render_tray({"red": 10, "blue": 10, "purple": 10}, seed=3, conditions=cond)
    pts = [(c.x, c.y) for c in frame.cubes]
    closest = min(math.dist(p, q) for i, p in enumerate(pts) for q in pts[i + 1:])
    assert closest >= 0.97 * cond.cube_px  # touching is allowed, lying on each other is not
    assert closest < 1.1 * cond.cube_px  # and clusters really touch


def test_cubes_across_the_outline_are_counted_by_their_centre():
    frame = render_tray({"red": 1}, seed=2, conditions=RenderConditions(outside=6))
    assert len(frame.cubes) + len(frame.others) == 7
    assert sum(frame.counts.values()) == len(frame.cubes)
    assert all(not c.inside for c in frame.others)


def test_foreign_objects_are_ground_truth_unknowns():
    assert render_tray({}, seed=2, conditions=RenderConditions(foreign=2)).unknown == 2


@pytest.mark.parametrize("counts", [{"orange": 1}, {"red": -1}])
def test_bad_counts_are_refused(counts):
    with pytest.raises(ValueError):
        render_tray(counts)


def test_more_cubes_than_fit_are_refused():
    with pytest.raises(ValueError, match="do not fit"):
        render_tray({"red": 400}, seed=0, conditions=RenderConditions(cube_px=60))


def test_light_and_white_balance_change_the_picture_multiplicatively():
    base = render_empty_tray(seed=1, conditions=RenderConditions(noise=0)).image.astype(float)
    warm = render_empty_tray(seed=1, conditions=RenderConditions(noise=0, light=0.5,
                                                                  white_balance=(0.8, 1.0, 1.2))).image
    ratio = warm.reshape(-1, 3).mean(axis=0) / base.reshape(-1, 3).mean(axis=0)
    assert np.allclose(ratio, [0.4, 0.5, 0.6], atol=0.02)


def test_empty_tray_shows_the_same_scratches_as_the_loaded_tray():
    cond = RenderConditions(scratches=8, noise=0)
    empty = render_empty_tray(seed=3, conditions=cond).image.astype(int)
    clean = render_empty_tray(seed=3, conditions=RenderConditions(noise=0)).image.astype(int)
    scratched = np.abs(empty - clean).max(axis=2) > 10
    assert scratched.any()
    loaded = render_tray({"red": 1}, seed=3, conditions=cond).image.astype(int)
    assert np.abs(loaded - empty)[scratched].mean() < 5  # the scratches are the tray's, not the photo's


def test_settling_sequence_moves_then_rests_on_the_final_layout():
    frames = render_settling_sequence({"red": 3, "green": 1}, seed=6, moving=4, still=3)
    assert [f.moving for f in frames] == [True] * 4 + [False] * 3
    final = render_tray({"red": 3, "green": 1}, seed=6)
    assert np.array_equal(frames[-1].image, final.image)
    assert not np.array_equal(frames[0].image, final.image)


def test_calibration_photo_boxes_enclose_their_cubes():
    frame, samples, empty = render_calibration_photo()
    assert {s.color for s in samples} == {c.color for c in frame.cubes}
    for s in samples:
        cube = next(c for c in frame.cubes if c.color == s.color)
        x, y, w, h = s.box
        assert x < cube.x < x + w and y < cube.y < y + h
    assert empty.cubes == ()


def test_a_lens_close_under_the_tray_sees_the_cubes_sides_towards_the_centre():
    """With ``side_view``, a cube far from the picture's centre grows a darker band on the
    side facing the centre, ``side_view`` cube sides wide at the corner; the side away
    from the centre, the cube's face and a cube at the centre stay as they were."""
    from dataclasses import replace

    flat = RenderConditions(noise=0.0, vignette=0.0, jpeg_quality=0)
    plain = render_tray({"red": 16}, seed=11, conditions=flat)
    sides = render_tray({"red": 16}, seed=11, conditions=replace(flat, side_view=1.0))
    assert plain.cubes == sides.cubes
    w, h = flat.size
    corner = math.hypot(w / 2, h / 2)
    grey = plain.image.astype(int).sum(axis=2), sides.image.astype(int).sum(axis=2)
    checked = 0
    for cube in plain.cubes:
        toward = np.array([w / 2 - cube.x, h / 2 - cube.y]) / corner  # at the corner: length 1
        reach = np.hypot(*toward) * 1.0 * flat.cube_px  # the band's width here
        if reach < 0.5 * flat.cube_px:  # narrower: the point below could lie past the band
            continue
        checked += 1
        unit = toward / np.hypot(*toward)
        beyond = 0.5 * flat.cube_px * math.sqrt(2) + 0.5 * reach  # past the face's corner, inside the band
        x, y = (int(round(v)) for v in (cube.x + unit[0] * beyond, cube.y + unit[1] * beyond))
        assert grey[1][y, x] < grey[0][y, x]  # the side: darker than the tray that lay there
        x, y = (int(round(v)) for v in (cube.x - unit[0] * beyond, cube.y - unit[1] * beyond))
        assert grey[1][y, x] == grey[0][y, x]  # away from the centre: nothing new
    assert checked >= 3
    for cube in plain.cubes:  # each face itself is drawn as before
        x, y = int(round(cube.x)), int(round(cube.y))
        assert grey[1][y, x] == grey[0][y, x]
    assert np.array_equal(render_tray({"red": 16}, seed=11, conditions=replace(flat, side_view=0.0)).image,
                          plain.image)


def test_a_wide_lens_bends_the_picture_towards_its_centre_and_says_where_things_lie():
    """With ``barrel``, each cube is drawn where :func:`in_picture` says (its red face's
    centroid within a pixel), nearer the centre the farther out it lies, and smaller: at the
    corner by 1/(1+k) across the radius and 1/(1+3k) along it; the frame's outline is the bent
    one (each side a curve bowed outwards), and the picture's centre does not move."""
    from dataclasses import replace

    import cv2

    from companion.vision.synthetic import in_picture, picture_outline

    flat = RenderConditions(noise=0.0, vignette=0.0, jpeg_quality=0, background=(0.7, 0.7, 0.7))
    plain = render_tray({"red": 12}, seed=5, conditions=flat)
    bent_conditions = replace(flat, barrel=0.2)
    bent = render_tray({"red": 12}, seed=5, conditions=bent_conditions)
    assert bent.cubes == plain.cubes and bent.counts == plain.counts  # the truth is the scene's
    w, h = flat.size
    half = math.hypot(w, h) / 2
    red = ((bent.image[:, :, 2].astype(int) - bent.image[:, :, 1]) > 100).astype(np.uint8)
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(red)
    assert n - 1 == 12
    plain_red = ((plain.image[:, :, 2].astype(int) - plain.image[:, :, 1]) > 100)
    for cube in plain.cubes:
        x, y = in_picture(cube.x, cube.y, bent_conditions)
        nearest = 1 + int(np.argmin(np.hypot(centroids[1:, 0] - x, centroids[1:, 1] - y)))
        assert math.hypot(*(centroids[nearest] - (x, y))) < 1.0
        far = math.hypot(cube.x - (w - 1) / 2, cube.y - (h - 1) / 2) / half
        assert math.hypot(x - (w - 1) / 2, y - (h - 1) / 2) / half < far or far < 0.05
        # smaller by the model's area factor at its distance from the centre (within 10 %: a
        # smaller face has more of its rim below the threshold)
        r = math.hypot(x - (w - 1) / 2, y - (h - 1) / 2) / half
        expected = plain_red.sum() / 12 / ((1 + 0.2 * r * r) * (1 + 0.6 * r * r))
        assert abs(stats[nearest, cv2.CC_STAT_AREA] - expected) < 0.1 * expected
    assert in_picture(w / 2 - 0.5, h / 2 - 0.5, bent_conditions) == (w / 2 - 0.5, h / 2 - 0.5)
    assert in_picture(100.0, 50.0, flat) == (100.0, 50.0)
    outline = picture_outline(bent_conditions)
    assert bent.roi == outline and plain.roi == flat.roi and len(outline) == 16 * len(flat.roi)
    # a side's middle bows out beyond the line between its bent corners
    (x0, y0), (x1, y1), (xm, ym) = outline[0], outline[16], outline[8]
    assert ym < y0 + (y1 - y0) * (xm - x0) / (x1 - x0)  # the top side's middle lies higher


def test_a_leaning_camera_draws_the_near_side_larger_and_keeps_the_middle():
    """With ``tilt``, cubes are drawn where :func:`in_picture` says (within a pixel), larger
    towards the top of the picture (nearer) than towards the bottom, and the picture's centre
    stays put; the outline's top side grows against its bottom side."""
    from dataclasses import replace

    import cv2

    from companion.vision.synthetic import in_picture

    flat = RenderConditions(noise=0.0, vignette=0.0, jpeg_quality=0, background=(0.7, 0.7, 0.7))
    leaning = replace(flat, tilt=8.0)
    frame = render_tray({"red": 12}, seed=5, conditions=leaning)
    red = ((frame.image[:, :, 2].astype(int) - frame.image[:, :, 1]) > 100).astype(np.uint8)
    n, _, stats, centroids = cv2.connectedComponentsWithStats(red)
    assert n - 1 == 12
    drawn = []
    for cube in frame.cubes:
        x, y = in_picture(cube.x, cube.y, leaning)
        nearest = 1 + int(np.argmin(np.hypot(centroids[1:, 0] - x, centroids[1:, 1] - y)))
        assert math.hypot(*(centroids[nearest] - (x, y))) < 1.0
        drawn.append((y, stats[nearest, cv2.CC_STAT_AREA]))
    drawn.sort()
    assert np.mean([a for _, a in drawn[:4]]) > 1.1 * np.mean([a for _, a in drawn[-4:]])
    w, h = flat.size
    assert np.allclose(in_picture((w - 1) / 2, (h - 1) / 2, leaning), ((w - 1) / 2, (h - 1) / 2))
    def top_over_bottom(roi) -> float:  # the outline's top side over its bottom side
        return math.dist(roi[0], roi[len(roi) // 4]) / math.dist(roi[len(roi) // 2], roi[3 * len(roi) // 4])

    assert top_over_bottom(frame.roi) > 1.1 * top_over_bottom(flat.roi)
