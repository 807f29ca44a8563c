"""Trays that are not the light grey of our first renderer: dark, bright, wood, two-tone, a busy
scene; hard shadows, vignetting, the ring light's reflections, JPEG, the camera higher or lower.
Each calibrated once from its own calibration photo, as a user would."""

from dataclasses import replace

import pytest

from companion.vision.counting import count_cubes
from companion.vision.synthetic import (RenderConditions, render_empty_tray, render_tray,
                                        synthetic_calibration)

from .conftest import assert_positions_match

TRAYS = {
    "dark underside": RenderConditions(background=(0.2, 0.21, 0.23), reflections=8, tray_seed=1),
    "bright white": RenderConditions(background=(0.9, 0.9, 0.88), tray_seed=2),
    "wood": RenderConditions(surface="wood", background=(0.45, 0.6, 0.75), reflections=8, tray_seed=3),
    "two-tone": RenderConditions(surface="two-tone", background=(0.7, 0.72, 0.74), reflections=8, tray_seed=4),
    "busy scene": RenderConditions(surface="textured", background=(0.42, 0.43, 0.45), reflections=8, tray_seed=5),
}
ALL = {"red": 3, "blue": 3, "yellow": 3, "purple": 3, "black": 3, "green": 3}
THROW = dict(light=0.8, white_balance=(1.1, 1.0, 0.85), light_gradient=0.3, vignette=0.25,
             noise=2.5, blur=0.6, jpeg_quality=75, cluster=0.4)


@pytest.mark.parametrize("name", TRAYS)
@pytest.mark.parametrize("with_empty", [False, True])
def test_every_colour_on_every_tray(name, with_empty):
    tray = TRAYS[name]
    cal = synthetic_calibration(tray)
    cond = replace(tray, **THROW)
    frame = render_tray(ALL, seed=31, conditions=cond)
    empty = render_empty_tray(seed=31, conditions=cond).image if with_empty else None
    result = count_cubes(frame.image, cal, empty)
    assert result.counts == frame.counts and result.unknown == 0
    assert_positions_match(result, frame, tray.cube_px)


@pytest.mark.parametrize("name", ["light grey", "wood"])
def test_a_hard_shadow_is_no_black_cube(name):
    tray = RenderConditions() if name == "light grey" else TRAYS["wood"]
    cal = synthetic_calibration(tray)
    cond = replace(tray, shadow=0.5, cluster=0.3)
    frame = render_tray({"black": 2, "red": 2, "yellow": 2}, seed=33, conditions=cond)
    assert count_cubes(frame.image, cal).counts == frame.counts


def test_the_ring_lights_reflections_are_no_yellow_cubes():
    tray = TRAYS["dark underside"]
    cal = synthetic_calibration(tray)
    empty = render_empty_tray(seed=34, conditions=replace(tray, light=1.15))
    result = count_cubes(empty.image, cal)
    assert result.counts == {} and result.unknown == 0


@pytest.mark.parametrize("height", [0.77, 1.3])
def test_camera_thirty_percent_higher_or_lower(height):
    """Cubes ×0.77 (camera 30 % higher) or ×1.3 (lower) against the calibration: lone cubes and
    touching clusters still count right."""
    tray = RenderConditions()
    cal = synthetic_calibration(tray)
    cond = replace(tray, cube_px=tray.cube_px * height, cluster=0.6)
    frame = render_tray({"red": 5, "blue": 4, "green": 4, "black": 3}, seed=35, conditions=cond)
    result = count_cubes(frame.image, cal)
    assert result.counts == frame.counts
    assert abs(result.size_factor - height) < 0.08


def test_clusters_only_at_another_height():
    """No lone cube to read the size from: the clusters' own widths and whole-number areas."""
    tray = RenderConditions()
    cal = synthetic_calibration(tray)
    cond = replace(tray, cube_px=tray.cube_px * 1.2, cluster=1.0)
    frame = render_tray({"blue": 3, "purple": 3, "yellow": 4}, seed=36, conditions=cond)
    assert count_cubes(frame.image, cal).counts == frame.counts
