"""The speed benchmark times ours and the baseline on the same frames, in one run."""

import re
import subprocess
import sys
import threading
from pathlib import Path

from benchmarks.count_speed import cpu_ms

ROOT = Path(__file__).resolve().parents[2]


def test_it_prints_ours_beside_the_baseline_and_their_ratio():
    run = subprocess.run([sys.executable, "-m", "benchmarks.count_speed", "--frames", "6"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600, check=True)
    numbers = re.search(r"per count ([\d.]+) \(one calibration at a time\), ([\d.]+) \(calibrations mixed\); "
                        r"baseline \(HSV\) ([\d.]+) on the same frames, ours ([\d.]+)× the baseline", run.stdout)
    assert numbers, run.stdout
    ours, _, base, ratio = (float(v) for v in numbers.groups())
    assert ours > 0 and base > 0
    assert abs(ratio - ours / base) <= 0.05 * ratio + 0.06  # the ratio is of the numbers printed (rounded)


def test_cpu_ms_is_the_median_over_the_frames_of_cpu_time_not_of_waiting():
    never_set = threading.Event()
    waited = cpu_ms([("a", None)] * 3, lambda name, image: never_set.wait(0.05))  # blocked, not computing
    busy = cpu_ms([("a", None)] * 3, lambda name, image: sum(range(300_000)))
    assert waited < 10  # asleep, a process spends (almost) no CPU time
    assert busy > 0
