"""The one way our benchmarks time a call: wall-clock milliseconds over repeated runs, on one core."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

import cv2


def pin_one_core() -> None:
    """Run this process on one core — the first it may use, so ``taskset -c 1`` moves it — and
    OpenCV on one thread: timings as on a Pi that counts while serving the tablets."""
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


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
