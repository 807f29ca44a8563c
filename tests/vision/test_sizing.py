import numpy as np
import pytest

from companion.vision.segment import find_blobs
from companion.vision.sizing import FAR, SIZE_VOTE_FREE, Shapes, farther_than_foreseen, size_factor, whole_cubes_size

RADIUS = 10.0  # one calibrated object's radius, working pixels


def _disc(classes: np.ndarray, cx: float, cy: float, rx: float, ry: float | None = None) -> None:
    yy, xx = np.mgrid[0:classes.shape[0], 0:classes.shape[1]]
    ry = rx if ry is None else ry
    classes[((xx - cx) / rx) ** 2 + ((yy - cy) / ry) ** 2 <= 1] = 1


def _one_object(classes: np.ndarray) -> bool:
    blobs = find_blobs(classes)
    assert blobs.count == 2, "the drawing is meant to be one blob"
    return Shapes(blobs, RADIUS).one_object(1, 0.5 * RADIUS)


def test_a_disc_is_one_object_and_a_long_one_is_not():
    classes = np.zeros((60, 120), np.uint8)
    _disc(classes, 30, 30, 11)
    assert _one_object(classes)
    classes[:] = 0
    _disc(classes, 60, 30, 24, 11)  # twice as long as wide: two objects' worth of shape
    assert not _one_object(classes)


def test_a_crumb_on_the_rim_leaves_one_object():
    classes = np.zeros((60, 80), np.uint8)
    _disc(classes, 30, 30, 11)
    classes[28:32, 41:45] = 1  # a speck of glare or shadow stuck to the rim
    assert _one_object(classes)


def test_two_objects_joined_by_a_thin_bridge_are_not_one():
    # Two sweets a few pixels apart, whose shadows the gap-closing joins into one blob: the
    # opening cuts the bridge and leaves two pieces; judging the larger alone said "one object".
    classes = np.zeros((60, 120), np.uint8)
    _disc(classes, 30, 30, 11)
    _disc(classes, 62, 30, 13, 10)
    classes[29:32, 40:51] = 1  # the bridge, three pixels wide (thinner ones are opened away earlier)
    assert not _one_object(classes)


def test_clusters_take_the_size_that_makes_them_whole_cubes():
    parts = np.array([[2.0], [3.0], [4.0]]) * 1.2 ** 2  # three one-colour clusters seen 20 % larger
    assert abs(whole_cubes_size(parts, 1.0, 1.4, 1.2) - 1.2) < 0.01


def test_each_colour_of_a_cluster_is_whole_not_only_the_cluster():
    # One red and two green cubes with the camera 13 % higher: the cluster's 2.27 cubes of area
    # are also two whole cubes 6 % *lower*, which the pull towards the likely size preferred;
    # its colours (0.76 and 1.51) are whole only at the true size.
    parts = np.array([[1.0, 2.0]]) * 0.87 ** 2
    assert abs(whole_cubes_size(parts, 0.8, 1.2, 1.0) - 0.87) < 0.02
    # A few rim pixels of another colour round to no cube and do not pull the size.
    with_rim = np.array([[1.0, 2.0, 0.05]]) * 0.87 ** 2
    assert abs(whole_cubes_size(with_rim, 0.8, 1.2, 1.0) - 0.87) < 0.02


def _frame_size(classes: np.ndarray, fixed_camera: bool):
    blobs = find_blobs(classes)
    labels = np.arange(1, blobs.count)
    area = blobs.histogram[:, 1:].sum(axis=1).astype(float)
    return size_factor(blobs, Shapes(blobs, RADIUS), labels, area, area[:, None],
                       np.pi * RADIUS ** 2, RADIUS, fixed_camera)


def test_a_free_camera_with_only_clusters_guesses_its_size_and_says_so():
    # A row of four touching objects and nothing else, no tray outline: how big one object is
    # cannot be measured, only guessed from the row's width — the counter must know it guessed.
    classes = np.zeros((60, 200), np.uint8)
    classes[20:40, 20:100] = 1
    size = _frame_size(classes, fixed_camera=False)
    assert size.guessed and abs(size.factor - 1.0) < 0.15
    # Two lone objects beside it measure the size: no guess.
    _disc(classes, 130, 30, 11)
    _disc(classes, 170, 30, 11)
    assert not _frame_size(classes, fixed_camera=False).guessed
    # With an outline (a camera fixed to the tower) the clusters' whole numbers bound the size.
    only_row = np.zeros((60, 200), np.uint8)
    only_row[20:40, 20:100] = 1
    assert not _frame_size(only_row, fixed_camera=True).guessed


def test_a_block_cut_from_its_neighbour_by_colour_is_not_alone():
    # Seen from the side, a block cut from a pile where two colours meet is the part the
    # others leave in view: shaped like one object, but no measure of a whole one.
    classes = np.zeros((60, 160), np.uint8)
    classes[20:40, 20:40] = 1  # red, touching …
    classes[20:40, 40:60] = 6  # … green
    classes[20:40, 110:130] = 1  # red, on its own
    blobs = find_blobs(classes, solid=5)
    shapes = Shapes(blobs, RADIUS)
    alone = {int(blobs.labels[30, x]): shapes.alone(int(blobs.labels[30, x])) for x in (30, 50, 120)}
    assert len(alone) == 3 and list(alone.values()) == [False, False, True]


def test_a_free_camera_much_nearer_than_foreseen_is_sized_by_its_clusters_not_the_calibration():
    # Calibrated on a photo taken from far away, a close-up shows every pile wider than the
    # range a camera may move (×2): the calibration's size counted each block many times
    # (a row of four standing red blocks as 26). The clusters' width is the better guess.
    classes = np.zeros((120, 400), np.uint8)
    classes[30:90, 20:260] = 1  # a row of four objects three times the calibrated size
    size = _frame_size(classes, fixed_camera=False)
    assert size.guessed and 2.5 < size.factor < 3.5
    thin = np.zeros((120, 400), np.uint8)
    thin[50:54, 20:300] = 1  # a thin blob alone (a rim, a cable) proves no size
    assert _frame_size(thin, fixed_camera=False).factor == 1.0


def _guess(classes: np.ndarray, alike=()):
    blobs = find_blobs(classes)
    labels = np.arange(1, blobs.count)
    area = blobs.histogram[:, 1:].sum(axis=1).astype(float)
    return size_factor(blobs, Shapes(blobs, RADIUS), labels, area, area[:, None], np.pi * RADIUS ** 2, RADIUS,
                       False, classes, alike)


def test_a_cluster_of_two_colours_is_sized_by_each_colours_part():
    """A pile seen from the side: two red objects on two green ones, no tray between them —
    one blob twice as wide as an object. Its width alone guessed every object twice its size
    (the pile counted as one); each colour's part of it is one object wide."""
    classes = np.zeros((100, 100), np.uint8)
    classes[20:40, 20:60] = 1  # red, two objects long, one wide …
    classes[40:60, 20:60] = 6  # … on green, the same
    whole = _frame_size(classes, fixed_camera=False)  # the blob as one: as wide as two objects
    assert whole.guessed and whole.factor > 1.8
    parts = _guess(classes)
    assert parts.guessed and abs(parts.factor - 1.0) < 0.15


def test_colours_alike_or_a_thin_rim_of_another_colour_are_no_parts():
    classes = np.zeros((100, 100), np.uint8)
    classes[20:40, 20:60] = 1
    classes[40:60, 20:60] = 6
    assert _guess(classes, alike=((1, 6),)).factor > 1.8  # alike: one colour, the blob is one part
    one = np.zeros((100, 100), np.uint8)
    one[20:60, 20:60] = 1
    one[58:60, 20:60] = 6  # a rim of green, under a quarter of the colour pixels
    assert _guess(one).factor > 1.8


def test_a_frame_nothing_could_size_says_so():
    thin = np.zeros((120, 400), np.uint8)
    thin[50:54, 20:300] = 1  # a thin blob alone: no vote, the calibrated size stands
    size = _frame_size(thin, fixed_camera=False)
    assert (size.factor, size.guessed, size.measured) == (1.0, False, False)
    lone = np.zeros((120, 400), np.uint8)
    _disc(lone, 60, 60, RADIUS)
    _disc(lone, 200, 60, RADIUS)
    assert _frame_size(lone, fixed_camera=False).measured


def test_objects_smaller_than_a_vote_allows_say_the_camera_is_farther_away():
    unit = np.pi * RADIUS ** 2
    area = np.array([0.0, 0.16, 0.17, 0.15, 0.01, 3.0]) * unit  # label 0 the tray; a speck; a pile
    size = farther_than_foreseen(area, np.arange(1, 6), unit)
    assert size == pytest.approx(0.4, abs=0.01)  # the three small objects, not the speck or the pile
    specks = np.array([0.0, 0.9 * FAR ** 2, 0.5 * FAR ** 2]) * unit
    assert farther_than_foreseen(specks, np.arange(1, 3), unit) is None
    voters = np.array([0.0, SIZE_VOTE_FREE[0] ** 2]) * unit  # as large as a vote allows: it votes
    assert farther_than_foreseen(voters, np.arange(1, 2), unit) is None
