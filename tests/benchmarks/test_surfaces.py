"""The bench's table of trays counted behind another tray's calibration (``--surfaces``)."""

import re

from benchmarks.stress import TRAYS
from benchmarks.vision import surfaces_table


def test_every_pair_of_other_trays_is_counted_ours_beside_the_baseline():
    lines = [line for line in surfaces_table(1, 2026) if line.strip()]
    rows = lines[2:-2]
    assert [row.split()[0] for row in rows] == [name.split()[0] for name in TRAYS]
    cells = [re.findall(r"(\d+) · (\d+) · (\d+)|—", row[2 + max(map(len, TRAYS)):]) for row in rows]
    # One dash per row, on the diagonal: a tray is never counted with its own calibration here.
    for i, row in enumerate(cells):
        assert len(row) == len(TRAYS) and row[i] == ("", "", "")
    totals = [sum(int(cell[k]) for row in cells for cell in row if cell[k]) for k in range(3)]
    pairs = len(TRAYS) * (len(TRAYS) - 1)
    assert lines[-2].strip() == (f"all pairs of {pairs} frames: ours with the empty photo {totals[0]}, "
                                 f"without {totals[1]}, baseline {totals[2]}")
    # Frames wrong without a flag are among the frames not exact.
    silent = re.fullmatch(r"wrong without a flag \(nothing doubtful, no unknown beyond the true foreign objects\): "
                          r"ours with the empty photo (\d+), without (\d+)", lines[-1].strip())
    assert silent and all(int(silent[k + 1]) <= pairs - totals[k] for k in range(2))
