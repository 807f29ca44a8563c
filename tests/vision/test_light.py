"""The light correction: a frame is brought back to the calibration's light, whatever the tray."""

from dataclasses import replace

import numpy as np
import pytest

from companion.vision import light
from companion.vision.counting import _geometry
from companion.vision.synthetic import RenderConditions, render_empty_tray, synthetic_calibration

TRAYS = {
    "light grey": RenderConditions(),
    "dark": RenderConditions(background=(0.2, 0.21, 0.23), reflections=8, tray_seed=1),
    "wood": RenderConditions(surface="wood", background=(0.45, 0.6, 0.75), tray_seed=3),
    "two-tone": RenderConditions(surface="two-tone", background=(0.7, 0.72, 0.74), tray_seed=4),
}
OTHER_LIGHT = dict(light=0.65, white_balance=(1.2, 1.0, 0.8), light_gradient=0.3)


def _relit_tray_error(tray: RenderConditions, frame_cond: RenderConditions, with_empty: bool,
                      aligned: bool = True) -> float:
    """90th percentile of |relit − calibration-light tray| over the empty tray, grey levels."""
    cal = synthetic_calibration(tray)
    reference = render_empty_tray(seed=0, conditions=tray).image  # calibration light
    frame = render_empty_tray(seed=5, conditions=frame_cond).image
    geo = _geometry(cal, *cal.image_size)
    x0, y0, x1, y1 = geo.crop
    small = light.shrink(frame[y0:y1, x0:x1], geo.scale)
    empty = small if with_empty else None
    field = light.gain_field(small, cal.references, cal.tables[1], cal.tray_bgr, empty,
                             geo.tray_cells if aligned else None)
    relit = light.relight(small, field)
    target = light.shrink(reference[y0:y1, x0:x1], geo.scale)
    return float(np.percentile(np.abs(relit.astype(int) - target.astype(int)).max(axis=2), 90))


@pytest.mark.parametrize("name", TRAYS)
@pytest.mark.parametrize("with_empty", [True, False])
def test_other_light_is_brought_back_to_the_calibration_light(name, with_empty):
    tray = TRAYS[name]
    error = _relit_tray_error(tray, replace(tray, **OTHER_LIGHT), with_empty)
    # Without correction the tray is off by about a third of its level; relit, a few grey levels.
    assert error <= 12


def test_a_hard_shadow_is_relit_too():
    tray = TRAYS["light grey"]
    error = _relit_tray_error(tray, replace(tray, shadow=0.5), with_empty=False)
    assert error <= 14


def test_nearest_look_correction_without_a_fixed_camera():
    """Photos from anywhere (no tray outline): each tray cell is matched to the nearest learned
    look of the tray, not to a spot — still close on a plain tray."""
    tray = TRAYS["light grey"]
    # Cells snap to the nearest of a few learned looks, so a little coarser than spot by spot.
    assert _relit_tray_error(tray, replace(tray, **OTHER_LIGHT), False, aligned=False) <= 18


def test_tray_cells_fill_hidden_cells_from_around_them():
    small = np.full((64, 64, 3), 120, np.uint8)
    small[:, 32:] = 200  # two-tone
    hidden = np.zeros((64, 64), bool)
    hidden[20:28, 2:10] = True
    small[hidden] = (0, 0, 255)  # a cube
    cells = light.tray_cells(small, hidden)
    assert cells.shape == (8, 8, 3)
    assert np.all(np.abs(cells[2:4, 0:2].astype(int) - 120) <= 10)  # the cube is gone
    assert np.all(cells[:, 5:] >= 190)


def test_relight_is_a_saturating_multiply():
    small = np.full((8, 8, 3), 100, np.uint8)
    field = np.full((8, 8, 3), light.ONE * 2, np.uint8)
    assert np.all(light.relight(small, field) == 200)
    assert np.all(light.relight(np.full((8, 8, 3), 200, np.uint8), field) == 255)


def test_shrink_halves_and_keeps_colour():
    image = np.full((96, 128, 3), (10, 20, 30), np.uint8)
    small = light.shrink(image, 2)
    assert small.shape == (48, 64, 3) and np.all(small == (10, 20, 30))
    assert light.shrink(image, 3).shape == (32, 42, 3)


def test_the_cubes_are_a_colour_chart():
    """A frame whose cubes are their references under another light: the chart gain is that
    light's inverse, whatever the tray does."""
    cal = synthetic_calibration(TRAYS["light grey"])
    refs = [r for r in cal.references if r.code != 0]
    light_change = np.array([0.6, 0.9, 1.3], np.float32)  # B, G, R
    patches = [np.full((10, 10, 3), np.clip(np.array(r.bgr) * light_change, 0, 255), np.uint8) for r in refs]
    small = np.concatenate(patches, axis=1)
    classes = np.concatenate([np.full((10, 10), r.code, np.uint8) for r in refs], axis=1)
    gain = light.chart_gain(small, classes, cal.references)
    assert gain is not None
    # Channels the light saturated or starved say less; the median over colours holds.
    assert np.allclose(gain * light_change, 1.0, atol=0.08)


def test_one_colour_is_no_colour_chart():
    cal = synthetic_calibration(TRAYS["light grey"])
    red = next(r for r in cal.references if r.code == 1)
    small = np.full((10, 10, 3), red.bgr, np.uint8)
    assert light.chart_gain(small, np.full((10, 10), 1, np.uint8), cal.references) is None
