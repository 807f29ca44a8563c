import cv2
import numpy as np
import pytest

from companion.vision.errors import CalibrationError
from companion.vision.classify import Reference
from companion.vision.samples import Sample, cube_in_box, object_at, sample_object, sample_reference
from companion.vision.synthetic import RenderConditions, render_calibration_photo

TRAY = (190, 190, 195)  # light grey, BGR
PINK = (110, 110, 230)


def _table(*discs: tuple[tuple[int, int], int, tuple[int, int, int]]) -> np.ndarray:
    image = np.full((200, 200, 3), TRAY, np.uint8)
    for centre, radius, colour in discs:
        cv2.circle(image, centre, radius, colour, -1, cv2.LINE_AA)
    return image


def test_a_deep_contact_shadow_is_no_second_colour():
    # A sweet lit from the side on a grey table: the shadow right under it is darker than a
    # tray shadow may be, and faintly warm — but tinted like the table, so no cube colour.
    image = _table(((88, 112), 24, (55, 80, 95)), ((100, 100), 24, PINK))
    mask = cube_in_box(image, Sample("red", (60, 60, 80, 80)))
    yy, xx = np.mgrid[60:140, 60:140]
    disc = (xx - 100) ** 2 + (yy - 100) ** 2 <= 22 ** 2
    assert mask[disc].mean() > 0.95


def test_a_black_cube_beside_a_coloured_one_is_still_two_colours():
    image = _table(((80, 100), 20, (25, 25, 25)), ((120, 100), 20, PINK))
    with pytest.raises(CalibrationError, match="two colours"):
        cube_in_box(image, Sample("red", (50, 70, 100, 60)))


@pytest.mark.parametrize("shrink", [0.75, 0.85, 1.0, 1.3])
def test_a_box_drawn_tight_or_loose_finds_the_same_cube(shrink):
    # The box's border ring stands for the tray; drawn tight, that ring runs over the cube,
    # and the band just outside the box is the tray instead.
    frame, samples, _ = render_calibration_photo()
    side = RenderConditions().cube_px
    for sample in samples:
        x, y, w, h = sample.box
        nw, nh = int(w * shrink), int(h * shrink)
        box = (x + (w - nw) // 2, y + (h - nh) // 2, nw, nh)
        mask = cube_in_box(frame.image, Sample(sample.color, box))
        cube = next(c for c in frame.cubes if c.color == sample.color)
        ys, xs = np.nonzero(mask)
        assert abs(xs.mean() + box[0] - cube.x) < 0.15 * side, sample.color
        assert abs(ys.mean() + box[1] - cube.y) < 0.15 * side, sample.color
        visible = min(nw, side) * min(nh, side)  # the part of the cube inside the box
        assert mask.sum() > 0.7 * visible, f"{sample.color}: {mask.sum()} of {visible} pixels"


def test_a_samples_colour_leaves_out_its_shadow_and_glare_but_keeps_its_shading():
    rng = np.random.default_rng(5)
    lit = np.clip(rng.normal(PINK, 4.0, (600, 3)), 0, 255)
    shaded = np.clip(rng.normal(np.array(PINK) * 0.7, 4.0, (300, 3)), 0, 255)  # the cube's dark side
    shadow = np.clip(rng.normal((55, 80, 95), 4.0, (200, 3)), 0, 255)  # the table under it
    glare = np.clip(rng.normal((245, 245, 245), 3.0, (60, 3)), 0, 255)
    pixels = np.concatenate([lit, shaded, shadow, glare]).astype(np.uint8)
    whole = Reference.from_pixels(1, pixels)
    reference = sample_reference(1, pixels)
    cube = Reference.from_pixels(1, np.concatenate([lit, shaded]).astype(np.uint8))
    lab = lambda bgr: cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2Lab).reshape(1, 3).astype(float)
    assert np.linalg.norm(np.subtract(reference.lab, cube.lab)) < 3.0
    assert np.linalg.norm(np.subtract(whole.lab, cube.lab)) > 6.0  # what it was without trimming
    assert reference.distance(lab((55, 80, 95)))[0] > 2 * whole.distance(lab((55, 80, 95)))[0]
    assert reference.distance(lab(tuple(np.array(PINK) * 0.7)))[0] < 1.75  # its own shade stays


def test_a_box_at_the_edge_of_the_photo_reads_the_tray_from_what_there_is():
    image = _table(((24, 100), 18, PINK))
    for box in [(0, 72, 50, 56), (2, 80, 44, 40)]:  # loose, and tight round the disc
        mask = cube_in_box(image, Sample("red", box))
        ys, xs = np.nonzero(mask)
        assert abs(xs.mean() + box[0] - 24) < 4 and abs(ys.mean() + box[1] - 100) < 4


def _block_on_wood() -> np.ndarray:
    """A long teal block (2:1) with a darker side face, on an orange-brown desk."""
    image = np.full((600, 600, 3), (70, 110, 170), np.uint8)  # desk, BGR
    cv2.rectangle(image, (110, 80), (170, 200), (120, 140, 20), -1)  # top face
    cv2.rectangle(image, (171, 80), (185, 200), (70, 85, 10), -1)  # side face, in shade
    return image


def test_a_box_drawn_on_the_object_itself_is_grown_to_the_whole_object():
    """A box inside the block's face (the border runs over the block on every side) shows no
    tray; the object is grown from the colour at its centre, the box becomes its own."""
    image = _block_on_wood()
    inside = Sample("green", (120, 100, 40, 80))
    with pytest.raises(CalibrationError, match="shows no cube"):
        cube_in_box(image, inside)  # the box as drawn: no tray around anything in it
    sample, mask = sample_object(image, inside)
    x, y, w, h = sample.box
    assert x < 110 and y < 80 and x + w > 170 and y + h > 200  # round the whole face
    face = np.zeros((600, 600), bool)
    face[80:201, 110:171] = True
    assert mask.sum() >= 0.95 * face.sum()
    assert (face[y:y + h, x:x + w] & mask).sum() >= 0.95 * face.sum()


def test_a_box_on_two_colours_stays_refused_when_no_object_can_be_grown():
    image = _table(((80, 100), 20, (25, 25, 25)), ((120, 100), 20, PINK))
    with pytest.raises(CalibrationError, match="two colours"):
        sample_object(image, Sample("red", (50, 70, 100, 60)))


def test_a_point_on_plain_tray_finds_no_object():
    assert object_at(_block_on_wood(), 40, 250) is None
    found = object_at(_block_on_wood(), 140, 140, "green")
    assert found is not None and abs(found.centre[0] - 140) < 12 and abs(found.centre[1] - 140) < 8


def test_a_box_on_the_object_learns_the_object_not_a_mark_on_it():
    """A box drawn just inside a block's face: its ring runs over the face, so the ring's look
    is the block. Taken for the tray, it hid the face and left the lit edge as "the object"
    (on dobot-blocks-wood the yellow block's: a strip of a tenth of it). A look that covers
    the box's middle is the object; the face is grown from there."""
    image = _block_on_wood()
    cv2.rectangle(image, (116, 92), (120, 190), (170, 205, 40), -1)  # the lit edge, inside the box
    sample, mask = sample_object(image, Sample("green", (115, 88, 50, 104)))
    face = np.zeros((600, 600), bool)
    face[80:201, 110:171] = True
    x, y, w, h = sample.box
    assert (face[y:y + h, x:x + w] & mask).sum() >= 0.9 * face.sum()


def _mask(draw) -> np.ndarray:
    mask = np.zeros((300, 300), np.uint8)
    draw(mask)
    return mask.view(bool)


@pytest.mark.parametrize("name, draw", [
    ("square", lambda m: m.__setitem__((slice(60, 200), slice(80, 220)), 1)),
    ("square turned 30°", lambda m: cv2.fillPoly(m, [cv2.boxPoints(((150, 150), (120, 120), 30)).astype(np.int32)], 1)),
    ("a 2:1 block", lambda m: cv2.fillPoly(m, [cv2.boxPoints(((150, 150), (200, 100), 70)).astype(np.int32)], 1)),
    # A block seen at an angle: its top and a side, an irregular hexagon. It fills only
    # 0.83 of its tightest rectangle, under the 0.88 that used to call an object round.
    ("a block in perspective", lambda m: cv2.fillPoly(m, [np.array([[90, 40], [200, 60], [230, 170], [200, 260],
                                                                   [80, 240], [60, 120]], np.int32)], 1)),
])
def test_cubes_and_blocks_from_any_side_are_polygons_not_round(name, draw):
    from companion.vision.samples import ROUND_DEPARTURE, is_round, polygon_departure

    mask = _mask(draw)
    assert polygon_departure(mask) < 0.3 * ROUND_DEPARTURE, name
    assert not is_round([mask, mask, mask])


@pytest.mark.parametrize("name, draw", [
    ("disc", lambda m: cv2.circle(m, (150, 150), 100, 1, -1)),
    ("small disc", lambda m: cv2.circle(m, (150, 150), 14, 1, -1)),
    ("oval", lambda m: cv2.ellipse(m, ((150, 150), (220, 130), 30), 1, -1)),
])
def test_sweets_are_round(name, draw):
    from companion.vision.samples import ROUND_DEPARTURE, is_round, polygon_departure

    mask = _mask(draw)
    assert polygon_departure(mask) > 1.4 * ROUND_DEPARTURE, name  # a disc: 0.17 to 0.21
    assert is_round([mask, mask])
