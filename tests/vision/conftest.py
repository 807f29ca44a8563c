"""Fixtures of the vision tests: the renderer's default tray and its calibration."""

from __future__ import annotations

import math

import pytest

from companion.vision.synthetic import RenderConditions, synthetic_calibration


@pytest.fixture(scope="session")
def conditions() -> RenderConditions:
    return RenderConditions()


@pytest.fixture(scope="session")
def calibration(conditions):
    return synthetic_calibration(conditions)


def assert_positions_match(result, frame, side: float) -> None:
    """Every detection lies on a different true cube of its colour (within 0.4 cube sides)."""
    free = list(frame.cubes)
    for det in result.cubes:
        best = min((c for c in free if c.color == det.color),
                   key=lambda c: math.hypot(c.x - det.x, c.y - det.y), default=None)
        assert best is not None, f"no {det.color} cube left for detection at {det.x:.0f},{det.y:.0f}"
        assert math.hypot(best.x - det.x, best.y - det.y) < 0.4 * side
        free.remove(best)
