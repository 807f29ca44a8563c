import cv2
import numpy as np

from companion.vision.classify import AMBIGUOUS, UNKNOWN
from companion.vision.segment import N_CLASSES, _cut_rejoined, colour_sides, cores, find_blobs


def test_blob_statistics_agree_with_opencv():
    rng = np.random.default_rng(1)
    classes = np.zeros((200, 300), np.uint8)
    for _ in range(30):
        x, y = rng.integers(0, 280), rng.integers(0, 180)
        classes[y:y + rng.integers(3, 20), x:x + rng.integers(3, 20)] = rng.integers(1, UNKNOWN + 1)
    blobs = find_blobs(classes)
    opened = cv2.morphologyEx((classes != 0).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(opened, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert blobs.count == count
    assert np.array_equal(blobs.stats[1:], stats[1:])
    for label in range(1, count):  # the class histogram covers exactly the blob's pixels
        inside = labels == label
        assert np.array_equal(blobs.histogram[label], np.bincount(classes[inside], minlength=N_CLASSES))


def test_a_thin_line_of_tray_does_not_split_a_cube():
    classes = np.zeros((40, 40), np.uint8)
    classes[10:30, 10:30] = 1
    classes[:, 19:22] = 0  # the glare of a scratch across the cube
    blobs = find_blobs(classes)
    assert blobs.count == 2 and blobs.histogram[1, 1] == 17 * 20


def test_single_pixels_and_thin_lines_are_not_blobs():
    classes = np.zeros((40, 40), np.uint8)
    classes[5, 5] = 1
    classes[20, :] = UNKNOWN
    assert find_blobs(classes).count == 1


def test_colour_sums_per_class_when_the_image_is_given():
    classes = np.zeros((40, 40), np.uint8)
    classes[5:15, 5:15] = 2
    image = np.zeros((40, 40, 3), np.uint8)
    image[5:15, 5:15] = (10, 20, 30)
    blobs = find_blobs(classes, image)
    assert np.array_equal(blobs.colour_sum[1, 2], [1000, 2000, 3000])
    assert find_blobs(classes).colour_sum is None


def test_radius_is_half_the_width_of_a_square_and_of_a_chain():
    classes = np.zeros((80, 120), np.uint8)
    classes[10:30, 10:30] = 1  # one 20-pixel cube
    classes[50:70, 10:70] = 2  # three in a row
    blobs = find_blobs(classes)
    assert blobs.count == 3
    assert abs(blobs.radius[1] - 10) <= 1.5 and abs(blobs.radius[2] - 10) <= 1.5


def test_touching_discs_have_two_cores_touching_squares_one():
    classes = np.zeros((60, 140), np.uint8)
    yy, xx = np.mgrid[0:60, 0:140]
    classes[((xx - 20) ** 2 + (yy - 30) ** 2 <= 100) | ((xx - 41) ** 2 + (yy - 30) ** 2 <= 100)] = 1
    classes[20:40, 80:120] = 2  # two 20-pixel squares side by side
    blobs = find_blobs(classes)
    found = cores(blobs, 0.8 * 10)  # the gap-closing of find_blobs fills a waist a little
    by_class = {int(np.argmax(blobs.histogram[k])): int(found[k]) for k in range(1, blobs.count)}
    assert by_class == {1: 2, 2: 1}


def _red_beside_green(gap: int = 0) -> np.ndarray:
    """A red square and a green one side by side, ``gap`` pixels of tray between them."""
    classes = np.zeros((40, 70), np.uint8)
    classes[10:30, 10:30] = 1
    classes[10:30, 30 + gap:50 + gap] = 6
    return classes


def test_two_colours_that_touch_are_cut_into_two_blobs_of_unchanged_area():
    for gap in (0, 3):  # touching, or bridged by the gap closing
        classes = _red_beside_green(gap)
        whole = find_blobs(classes)
        assert whole.count == 2  # without the cut: one blob
        blobs = find_blobs(classes, solid=5)
        assert blobs.count == 3
        assert blobs.histogram[1:].sum() == whole.histogram[1:].sum()  # no pixel lost
        for label in (1, 2):  # each blob one colour, but for a corner pixel
            colours = blobs.histogram[label, [1, 6]]
            assert colours.max() >= 398 and colours.min() <= 2


def test_ambiguous_pixels_count_as_their_colour_when_cutting():
    classes = _red_beside_green()
    classes[12:28, 12:28] = 1 + AMBIGUOUS
    assert find_blobs(classes, solid=5).count == 3


def test_a_rim_of_another_colour_cuts_nothing():
    classes = np.zeros((40, 40), np.uint8)
    classes[10:30, 10:30] = 1
    classes[10:30, 27:30] = 6  # a shaded edge that reads as green: narrower than the disc
    assert colour_sides(classes, 5) is None
    assert find_blobs(classes, solid=5).count == 2


def test_no_colour_between_two_colours_is_no_reason_to_cut_one_colour():
    classes = np.zeros((40, 70), np.uint8)
    classes[10:30, 10:50] = 1
    classes[10:30, 28:32] = UNKNOWN  # glare across one red blob
    assert colour_sides(classes, 5) is None
    assert find_blobs(classes, solid=5).count == 2


def test_an_object_of_no_colour_between_two_colours_is_not_shared_out():
    """A cube of a colour with no sample (pixels of no colour) between a red and a green one
    stays whole in one blob, where the counter reports it — never split between its
    neighbours, each piece too small to be said."""
    classes = np.zeros((40, 80), np.uint8)
    classes[10:30, 10:30] = 1
    classes[10:30, 30:38] = UNKNOWN  # narrow: both neighbours' sides would reach across it
    classes[10:30, 38:58] = 6
    blobs = find_blobs(classes, solid=5)
    holding = np.flatnonzero(blobs.histogram[:, UNKNOWN])
    assert len(holding) == 1 and blobs.histogram[holding[0], UNKNOWN] == 160


def test_colours_the_calibration_finds_alike_are_one_side():
    """Where the light can turn one colour into the other (a dark red sweet half read as
    purple), their meeting is no sign of two objects: no cut."""
    classes = _red_beside_green()
    assert find_blobs(classes, solid=5).count == 3
    assert colour_sides(classes, 5, alike=((1, 6),)) is None
    assert find_blobs(classes, solid=5, alike=((1, 6),)).count == 2
    classes[10:30, 50:60] = 2  # a blue beside the green: still cut from the red-green pair
    assert find_blobs(classes, solid=5, alike=((1, 6),)).count == 3


def _sides_by_definition(classes: np.ndarray, solid: int) -> np.ndarray | None:
    """colour_sides as its docstring defines it, one colour at a time: each colour's pixels
    (ambiguous ones included) opened with the disc, then grown over what is not of no colour."""
    colour = np.where((classes > AMBIGUOUS) & (classes < 2 * AMBIGUOUS), classes - AMBIGUOUS, classes)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (solid, solid))
    side = np.zeros_like(colour)
    for code in range(1, UNKNOWN):
        own = (colour == code).astype(np.uint8)
        if own.sum() >= solid * solid:
            side[cv2.morphologyEx(own, cv2.MORPH_OPEN, disc) > 0] = code
    if len(np.unique(side[side > 0])) < 2:
        return None
    for _ in range(solid):
        grown = cv2.dilate(side, np.ones((3, 3), np.uint8))
        free = (side == 0) & (colour != UNKNOWN)
        side[free] = grown[free]
    return side


def test_colour_sides_are_each_colour_opened_on_its_own():
    """All colours are opened in one pass (a disc holding one colour only survives); that must
    be exactly each colour opened by itself, up to the frame's edge."""
    rng = np.random.default_rng(5)
    for trial in range(40):
        classes = np.zeros((60, 90), np.uint8)
        for _ in range(rng.integers(2, 25)):
            x, y = rng.integers(-5, 85), rng.integers(-5, 55)
            code = rng.integers(1, UNKNOWN + 1) + AMBIGUOUS * rng.integers(0, 2)
            classes[max(y, 0):max(y + rng.integers(2, 20), 0), max(x, 0):max(x + rng.integers(2, 20), 0)] = code
        classes[rng.random(classes.shape) < 0.03] = 0  # speckle
        for solid in (3, 5, 7):
            expected = _sides_by_definition(classes, solid)
            got = colour_sides(classes, solid)
            assert (got is None) == (expected is None), (trial, solid)
            assert got is None or np.array_equal(got, expected), (trial, solid)


def test_a_colour_too_small_to_hold_a_solid_region_makes_no_side():
    """A colour with fewer pixels than the disc's square makes no side, though its pixels
    may form the disc itself."""
    classes = np.zeros((40, 60), np.uint8)
    classes[5:30, 5:30] = 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)).astype(bool)
    classes[10:15, 40:45][disc] = 6  # 17 pixels: the disc exactly, under 25
    assert colour_sides(classes, 5) is None
    classes[10:15, 40:45] = 6
    assert colour_sides(classes, 5) is not None


def _rejoined_by_dilation(labels: np.ndarray, cut: np.ndarray) -> np.ndarray:
    """Each cut pixel given the largest label among its 8 neighbours (a dilation of the
    whole map), three rounds."""
    labels, cut = labels.copy(), cut.copy()
    for _ in range(3):
        labels[cut] = cv2.dilate(labels.astype(np.float32), np.ones((3, 3), np.uint8))[cut].astype(np.int32)
        cut &= labels == 0
    return labels


def test_the_cut_goes_back_to_the_blob_beside_it_up_to_the_frame_edge():
    rng = np.random.default_rng(9)
    for _ in range(30):
        labels = rng.integers(0, 6, (30, 40)).astype(np.int32)
        cut = rng.random(labels.shape) < 0.4
        cut[0, :] |= rng.random(40) < 0.8  # the frame's edges, where a neighbour is missing
        cut[:, -1] |= rng.random(30) < 0.8
        labels[cut] = 0
        assert np.array_equal(_cut_rejoined(labels.copy(), cut), _rejoined_by_dilation(labels, cut))


def test_a_blob_framed_ends_at_its_own_edge():
    """``Blobs.own_framed``: the blob's own pixels over its box, ringed by one empty pixel, so
    that a distance measured inside it ends where the blob does — not at the box, where the
    blob fills it edge to edge."""
    classes = np.zeros((20, 20), np.uint8)
    classes[4:11, 5:12] = 1  # a 7 × 7 square: it fills its own box
    blobs = find_blobs(classes)
    label = int(blobs.labels[7, 8])
    framed = blobs.own_framed(label)
    own, (_, _, w, h) = blobs.own(label)
    assert framed.dtype == np.uint8 and framed.shape == (h + 2, w + 2)
    assert not framed[0].any() and not framed[-1].any() and not framed[:, 0].any() and not framed[:, -1].any()
    assert np.array_equal(framed[1:-1, 1:-1].astype(bool), own)
    assert cv2.distanceTransform(framed, cv2.DIST_L2, cv2.DIST_MASK_5).max() <= (min(w, h) + 1) / 2
