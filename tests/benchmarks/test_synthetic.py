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


def test_without_an_outline_every_cube_in_view_is_a_true_one():
    """The free line's truth: a camera without an outline counts the cubes lying across the
    tray's outline too (the tower's truth counts only those whose centre is inside)."""
    from benchmarks.vision import every_cube_in_view, stress_frame

    frame = next(f for _, f, _ in (stress_frame(i, 2026) for i in range(40)) if f.others)
    seen = every_cube_in_view(frame)
    assert sum(seen.values()) == len(frame.cubes) + len(frame.others) > sum(frame.counts.values())
    for cube in frame.others:
        assert seen[cube.color] > frame.counts.get(cube.color, 0)
