"""CPU time of one count, as the tower makes it: ``python -m benchmarks.count_speed``.

Counts ``--frames`` synthetic 1280×960 frames of the stress set (benchmarks/stress.py) on one
core, first grouped by tray (one calibration after another, as one tower counts) and then in
shuffled order (calibrations mixed, the lookup tables no longer warm), and prints the median
CPU time of each — and, on the same frames in the same run, the CPU time of the HSV baseline
(benchmarks/baseline.py: one colour conversion, a threshold and the contours per colour), so a
reading taken on a slow day can be told from a slower counter: the ratio moves with the code,
not with the machine. Run it in two checkouts one after the other to compare two versions: on
a shared machine the spread between runs is often larger than a small difference.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

import numpy as np

from benchmarks.baseline import baseline_count
from benchmarks.stress import stress_case
from benchmarks.timing import pin_one_core
from benchmarks.vision import calibrate_trays
from companion.vision.counting import count_cubes
from companion.vision.synthetic import render_tray


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.count_speed", description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=120)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    pin_one_core()
    cals, bases = calibrate_trays()
    for cal in cals.values():
        cal.tables  # built once per calibration, never part of a count's time
    frames: dict[str, list[np.ndarray]] = {}
    for i in range(args.frames):
        name, counts, cond = stress_case(i, args.seed)
        frames.setdefault(name, []).append(render_tray(counts, seed=args.seed * 100003 + i, conditions=cond).image)

    grouped = [(name, image) for name, images in frames.items() for image in images]
    mixed = list(grouped)
    random.Random(args.seed).shuffle(mixed)
    ours_grouped = cpu_ms(grouped, lambda name, image: count_cubes(image, cals[name]))
    ours_mixed = cpu_ms(mixed, lambda name, image: count_cubes(image, cals[name]))
    base = cpu_ms(grouped, lambda name, image: baseline_count(image, bases[name]))
    print(f"{args.frames} frames of 1280×960, one core: median CPU ms per count "
          f"{ours_grouped:.1f} (one calibration at a time), {ours_mixed:.1f} (calibrations mixed); "
          f"baseline (HSV) {base:.1f} on the same frames, ours {ours_grouped / base:.1f}× the baseline")
    return 0


def cpu_ms(order: list[tuple[str, np.ndarray]], count: Callable[[str, np.ndarray], object]) -> float:
    """The median CPU milliseconds ``count`` takes per (tray name, frame) of ``order``."""
    times = []
    for name, image in order:
        start = time.process_time()
        count(name, image)
        times.append(time.process_time() - start)
    return 1000.0 * float(np.median(times))


if __name__ == "__main__":
    sys.exit(main())
