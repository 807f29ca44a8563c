"""The bench's table of a wide lens's barrel distortion (``--lens``), and what it measures."""

import re

from benchmarks.vision import BARRELS, barrel_table, lens_counts


def test_each_distortion_is_counted_ours_beside_the_baseline_or_refused_with_a_sentence():
    lines = [line for line in barrel_table(2, 2026, (0.0, 0.2)) if line.strip()]
    assert "first 2 frames" in lines[0] and "barrel distortion" in lines[0]
    rows = lines[2:]
    assert [row.split()[0] for row in rows] == ["0.0", "0.2"]
    for row in rows:
        counted = re.fullmatch(r"\s+[\d.]+\s+(\d) · (\d) · (\d)\s+(\d) · (\d)", row)
        if counted is None:
            assert re.search(r"calibration refused \([\w ]+\): .+\.", row)
            continue
        exact_with, exact_without, baseline, wrong_with, wrong_without = (int(v) for v in counted.groups())
        assert max(exact_with, exact_without, baseline) <= 2
        assert wrong_with <= 2 - exact_with and wrong_without <= 2 - exact_without
    assert BARRELS[0] == 0.0 and list(BARRELS) == sorted(BARRELS)


def test_a_lens_that_bends_the_corners_a_sixth_in_counts_as_a_straight_one():
    """``barrel`` 0.2: a cube at the picture's corner looks 17 % narrower across the radius and
    38 % along it, half its area; a straight edge across the top of the picture bows by 50
    pixels. The first 30 frames of the stress set, each tray calibrated through that lens:
    every one exact with the empty photo and without, as through a straight lens (before the
    lens was learned and straightened: 21 and 19, one wrong with nothing flagged)."""
    exact, wrong = lens_counts(30, 2026, barrel=0.2)
    assert wrong.tolist() == [0, 0]
    assert exact[:2].tolist() == [30, 30]
