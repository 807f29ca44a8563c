"""Open-set naming by margin (companion/vision/naming.py): a piece of no colour takes a colour
only when its mean is clearly that colour, and a shaded side of a block is that block."""

import numpy as np
import pytest

from companion.vision.counting import UNPLACED, _geometry
from companion.vision.naming import name_by_margin, shade_of_its_colour
from companion.vision.segment import find_blobs


@pytest.mark.parametrize("other, shade", [
    ((0.5, 0.5, 0.5), True),  # the same blue in a deeper shadow than calibrated: its side
    ((0.35, 0.35, 0.35), False),  # too dark to say
    (None, False),  # a dark orange: another hue, a foreign object
])
def test_no_colour_beside_a_colour_is_its_shaded_side_only_when_of_its_hue(calibration, other, shade):
    """A block's side in shadow reads as no colour; beside that block's own colour and of its
    hue it is that block (a lone blue block on dobot was reported unknown for its side)."""
    geo = _geometry(calibration, *calibration.image_size)
    blue = np.array(next(r.bgr for r in calibration.references if r.code == 2))
    side = int(round(np.sqrt(geo.unit_area)))
    classes = np.zeros((4 * side, 4 * side), np.uint8)
    relit = np.full((4 * side, 4 * side, 3), 170, np.uint8)
    classes[side:2 * side, side:3 * side], relit[side:2 * side, side:3 * side] = 2, np.round(blue)
    dark = (20, 60, 110) if other is None else np.round(blue * np.array(other))
    classes[2 * side:3 * side, side:3 * side], relit[2 * side:3 * side, side:3 * side] = 7, dark
    blobs = find_blobs(classes, relit)
    assert shade_of_its_colour(geo.colour_refs, blobs, int(blobs.labels[side, side]), UNPLACED * geo.unit_area) is shade


@pytest.mark.parametrize("colour, size, named", [
    ("blue", 1.0, True),  # of no colour pixel by pixel, clearly blue on average: blue
    ("blue", 0.05, False),  # a speck: too small to say
    ((170, 170, 170), 1.0, False),  # grey, a coin: near no colour
    ((20, 60, 110), 1.0, False),  # a dark orange: no colour's hue, a foreign object
])
def test_a_piece_of_no_colour_is_named_by_its_mean_colour_only_by_margin(calibration, colour, size, named):
    geo = _geometry(calibration, *calibration.image_size)
    side = int(round(np.sqrt(size * geo.unit_area)))
    classes = np.zeros((200, 200), np.uint8)
    relit = np.full((200, 200, 3), 170, np.uint8)
    bgr = next(r.bgr for r in calibration.references if r.code == 2) if colour == "blue" else colour
    classes[50:50 + side, 50:50 + side], relit[50:50 + side, 50:50 + side] = 7, np.round(bgr)
    name_by_margin(geo.colour_refs, geo.unit_area, classes, relit)
    assert set(np.unique(classes[50:50 + side, 50:50 + side])) == ({2} if named else {7})
    assert set(np.unique(classes)) <= {0, 2, 7}
