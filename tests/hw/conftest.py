"""Fixtures for the hardware tests: gpiozero mock pins, a hand-driven clock, button recorders."""

from __future__ import annotations

import queue
import threading

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.hw.controls import PinConfig, TowerControls

WAIT = 5.0  # seconds to wait for an event that should come at once; only a failing test waits


class FakeClock:
    """A monotonic clock the test moves by hand, so press durations need no real waiting."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Recorder:
    """Collects button names from callbacks; tests await them through a queue."""

    def __init__(self) -> None:
        self.presses: queue.Queue[str] = queue.Queue()

    def __call__(self, name: str) -> None:
        self.presses.put(name)

    def next(self, timeout: float = WAIT) -> str:
        return self.presses.get(timeout=timeout)

    def drained(self) -> list[str]:
        out = []
        while not self.presses.empty():
            out.append(self.presses.get_nowait())
        return out


@pytest.fixture
def mock_factory():
    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def controls(mock_factory, clock, recorder):
    c = TowerControls(PinConfig(hold_time=30.0), clock=clock)
    c.add_listener(recorder)
    yield c
    c.close()


@pytest.fixture
def done_event() -> threading.Event:
    return threading.Event()


def calibration_with_only(calibration, colours):
    """``calibration`` as if its photo had sample boxes of ``colours`` only (the tray kept)."""
    from dataclasses import replace

    keep = set(colours)
    return replace(calibration,
                   references=tuple(r for r in calibration.references if r.name == "background" or r.name in keep),
                   cube_area={c: a for c, a in calibration.cube_area.items() if c in keep},
                   cube_radius={c: r for c, r in calibration.cube_radius.items() if c in keep})
