"""The one way our benchmarks time a call: wall-clock milliseconds over repeated runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def times_ms(fn: Callable[[], object], repeat: int, warm_up: int = 0) -> list[float]:
    """Milliseconds of ``repeat`` calls of ``fn``, after ``warm_up`` untimed ones."""
    for _ in range(warm_up):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def median_max_ms(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(median, max) milliseconds of ``repeat`` calls of ``fn``."""
    times = times_ms(fn, repeat)
    return statistics.median(times), max(times)


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median milliseconds of ``repeat`` calls of ``fn``."""
    return statistics.median(times_ms(fn, repeat))
