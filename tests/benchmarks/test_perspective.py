"""The bench's table of the cubes' sides in view (``--perspective``)."""

import re

from benchmarks.vision import SIDE_VIEWS, perspective_table


def test_each_width_of_the_sides_is_counted_ours_beside_the_baseline_or_refused_with_a_sentence():
    lines = [line for line in perspective_table(2, 2026, (0.0, 0.6)) if line.strip()]
    assert "first 2 frames" in lines[0]
    rows = lines[2:]
    assert [row.split()[0] for row in rows] == ["0.0", "0.6"]
    for row in rows:
        counted = re.fullmatch(r"\s+[\d.]+\s+(\d) · (\d) · (\d)\s+(\d) · (\d)", row)
        if counted is None:
            assert re.search(r"calibration refused \([\w ]+\): .+\.", row)
            continue
        exact_with, exact_without, baseline, wrong_with, wrong_without = (int(v) for v in counted.groups())
        assert max(exact_with, exact_without, baseline) <= 2
        # Wrong with nothing flagged is among the frames not exact.
        assert wrong_with <= 2 - exact_with and wrong_without <= 2 - exact_without
    assert SIDE_VIEWS[0] == 0.0 and list(SIDE_VIEWS) == sorted(SIDE_VIEWS)
