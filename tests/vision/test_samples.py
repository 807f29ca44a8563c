import cv2
import numpy as np
import pytest

from companion.vision.errors import CalibrationError
from companion.vision.samples import Sample, cube_in_box
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
