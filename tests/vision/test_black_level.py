"""The black level: a lift of the blacks since calibration (haze) is read from the frame and
taken off before colours are decided; a frame in the calibration's light is never touched."""

from dataclasses import replace

import numpy as np
import pytest

from companion.vision.black_level import LIFT_MIN, DarkLevels, dark_levels, lift_of, remove_lift
from companion.vision.classify import AMBIGUOUS, BACKGROUND
from companion.vision.counting import count_cubes
from companion.vision.synthetic import render_empty_tray, render_tray

ALL = {"red": 3, "blue": 3, "yellow": 3, "purple": 3, "black": 3, "green": 3}
CALIBRATION = (10.0, 180.0)  # the calibration photo's objects' dark end and tray, 8-bit levels


def _frame(lift: float, gain: float, floor: float | None = None) -> DarkLevels:
    """The dark levels of the calibration scene seen as ``lift + gain · x``."""
    objects, tray = (lift + gain * v for v in CALIBRATION)
    return DarkLevels(objects, tray, objects - 5.0 if floor is None else floor)


def _haze(image: np.ndarray, lift: float) -> np.ndarray:
    """Blacks lifted by ``lift`` of full scale: ``v → lift + (1 − lift)·v``."""
    lut = np.round(255.0 * (lift + (1.0 - lift) * np.arange(256) / 255.0)).astype(np.uint8)
    return lut[image]


@pytest.mark.parametrize("lift", [25.0, 38.0, 60.0])
@pytest.mark.parametrize("gain", [0.7, 1.0, 1.3])
def test_a_lift_under_any_change_of_light_is_read_back(lift, gain):
    assert lift_of(_frame(lift, gain, floor=lift + 3.0), CALIBRATION) == pytest.approx(lift)


@pytest.mark.parametrize("gain", [0.5, 1.0, 1.6])
def test_a_frame_in_the_calibration_light_is_left_alone(gain):
    assert lift_of(_frame(0.0, gain), CALIBRATION) == 0.0
    assert lift_of(_frame(LIFT_MIN - 1.0, gain), CALIBRATION) == 0.0  # content, not haze


def test_no_lift_beyond_the_frames_own_darkest_pixels():
    """Objects lighter than the calibration's (only yellow cubes) look like a lift to the model;
    the frame's shadows, darker than that lift could leave them, cut it down."""
    assert lift_of(_frame(50.0, 1.0, floor=30.0), CALIBRATION) == pytest.approx(30.0)
    assert lift_of(_frame(50.0, 1.0, floor=LIFT_MIN - 1.0), CALIBRATION) == 0.0


def test_objects_lighter_than_the_tray_are_other_colours_not_haze():
    # A rendered frame of light cubes on a dark textured tray: the model alone said 171 levels.
    assert lift_of(DarkLevels(156.0, 68.0, 37.0), (13.0, 89.0)) == 0.0


def test_nothing_to_read_it_by():
    assert lift_of(DarkLevels(None, 180.0, 3.0), CALIBRATION) == 0.0  # no objects in the frame
    assert lift_of(_frame(40.0, 1.0), (60.0, 70.0)) == 0.0  # cubes as dark as the tray: no lever
    # cubes lighter than the tray (a black tray): the model is of objects darker than it
    assert lift_of(DarkLevels(160.0, 100.0, 95.0), (120.0, 60.0)) == 0.0


# The calibration photo's colours: code → the dark end of its pixels (red, blue, yellow).
COLOURS = {1: 12.0, 2: 40.0, 3: 90.0}


def _colours(lift: float, gain: float, codes=COLOURS) -> dict[int, float]:
    return {code: lift + gain * COLOURS[code] for code in codes}


@pytest.mark.parametrize("lift, objects", [(0.0, 40.0), (25.0, 40.0), (25.0, 3.0), (40.0, 3.0)])
def test_each_colour_reads_the_lift_whatever_lies_in_view(lift, objects):
    """The objects' dark end as a whole moves with what is in view — a frame of yellow blocks
    and pale faces (40) or of deep red ones (3) where the calibration's objects read 10 —
    and the whole reads a lift that is not there, or misses one. Each colour against its own
    dark end in the calibration photo does not move so. (No deep shadow in view: the
    frame's darkest pixels lie 25 levels over the lift.)"""
    gain = 0.9
    frame = DarkLevels(lift + gain * objects, lift + gain * CALIBRATION[1], floor=lift + 25.0,
                       colours=_colours(lift, gain))
    read = lift_of(frame, CALIBRATION, COLOURS)
    assert read == (pytest.approx(lift) if lift else 0.0)
    assert lift_of(frame, CALIBRATION) != read  # the objects as a whole misread it


def test_one_colour_in_common_is_not_a_witness_alone():
    """A tone curve lifts the dark end of one colour as a lift would: with one colour in both
    pictures the objects as a whole speak (here: no lift), not that colour and the tray."""
    frame = DarkLevels(10.0, 180.0, floor=30.0, colours={1: 35.0})
    assert lift_of(frame, CALIBRATION, COLOURS) == 0.0
    assert lift_of(replace(frame, colours={1: 35.0, 2: 60.0}), CALIBRATION, COLOURS) > 0.0


def test_dark_levels_are_read_per_colour():
    image = np.full((20, 20, 3), 200, np.uint8)
    image[2:10, 2:18] = (30, 90, 200)  # red-ish, darkest channel 30
    image[10:18, 2:18] = (150, 60, 20)  # blue-ish, darkest channel 20
    classes = np.full((20, 20), BACKGROUND, np.uint8)
    classes[2:10, 2:18] = 1
    classes[10:18, 2:18] = 2 + AMBIGUOUS  # an ambiguous pixel is its nearest colour's
    classes[0, 0:4] = 3  # too few pixels of a colour to speak for it
    assert dark_levels(image, classes).colours == {1: 30.0, 2: 20.0}


def test_dark_levels_are_read_inside_the_outline_only():
    image = np.full((20, 20, 3), 200, np.uint8)
    image[5:15, 5:15] = (30, 90, 200)  # an object whose darkest channel is 30
    image[0, 0] = 0  # a black speck outside the outline
    classes = np.full((20, 20), BACKGROUND, np.uint8)
    classes[5:15, 5:15] = 1
    inside = np.zeros((20, 20), np.uint8)
    inside[2:18, 2:18] = 1
    levels = dark_levels(image, classes, inside)
    assert (levels.objects, levels.tray, levels.floor) == (30.0, 200.0, 30.0)
    assert dark_levels(image, classes).floor == 0.0  # without an outline the speck counts


def test_removing_a_lift_saturates_at_black():
    image = np.array([[[10, 50, 250]]], np.uint8)
    assert remove_lift(image, 20.4).tolist() == [[[0, 30, 230]]]


@pytest.mark.parametrize("lift", [0.1, 0.15, 0.25])
@pytest.mark.parametrize("with_empty", [False, True])
def test_hazy_frames_count_right(calibration, lift, with_empty):
    """Blacks lifted by 10–25 % turned the purple, blue and black cubes unknown; read from the
    frame and taken off, every cube counts again."""
    frame = render_tray(ALL, seed=2)
    empty = _haze(render_empty_tray(seed=2).image, lift) if with_empty else None
    hazy = _haze(frame.image, lift)
    result = count_cubes(hazy, calibration, empty)
    assert result.counts == frame.counts and result.unknown == 0
    unaware = count_cubes(hazy, replace(calibration, dark=None), empty)  # a file from before
    assert unaware.counts != frame.counts


def test_the_calibration_keeps_its_dark_levels(calibration):
    objects, tray = calibration.dark
    assert 0 <= objects < tray <= 255
    assert calibration.to_dict()["dark"] == [round(objects, 2), round(tray, 2)]
    # every colour of the stress tray in its own dark end, by name in the file
    assert set(calibration.dark_colours) == set(calibration.colors)
    assert calibration.to_dict()["dark_colours"] == {c: round(v, 2) for c, v in calibration.dark_colours.items()}
    assert all(0 <= v < tray for v in calibration.dark_colours.values())
