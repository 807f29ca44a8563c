"""The bench's synthetic stress set, also counted with calibrations made as a free camera would
make them (no outline, no empty photo): the guard on rules meant for cameras that look from the
side, which must leave cubes seen from below as the area counts them."""

from benchmarks.stress import TRAYS
from benchmarks.vision import free_calibrations, run_synthetic


def test_the_free_camera_calibrations_have_no_outline_and_see_the_cubes_from_below():
    cals = free_calibrations()
    assert sorted(cals) == sorted(TRAYS)
    for name, cal in cals.items():
        assert cal.roi is None and cal.tray_cells is None, name
        assert not cal.seen_from_side and not cal.round_objects, name


def test_the_free_camera_counts_stand_beside_the_tower_ones():
    scores = run_synthetic(3, 2026, baseline=False, free=True)
    assert [s.name for s in scores] == ["ours", "ours, with empty photo", "ours, no outline", "baseline (HSV)"]
    assert [s.photos for s in scores] == [3, 3, 3, 0]  # the baseline not asked for
    assert [s.name for s in run_synthetic(1, 2026, baseline=False)] == ["ours", "ours, with empty photo",
                                                                        "baseline (HSV)"]
