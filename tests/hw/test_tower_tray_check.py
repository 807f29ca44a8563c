"""The tower's empty-tray check before a throw, and the set-up page's live picture, which never
waits for or delays a count."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from companion.hw.errors import CountInProgressError, TrayNotEmptyError
from companion.hw.simulator import TowerSimulator
from companion.hw.tower import Tower

from .test_tower import Devices, make_tower


def tray_with(counts):
    return lambda image, calibration: SimpleNamespace(counts=dict(counts))


@pytest.fixture
def devices(clock, mock_factory):
    return Devices(clock)


def test_a_tray_with_cubes_is_named_and_no_reference_is_kept(devices):
    tower = make_tower(devices, tray_counter=tray_with({"black": 1, "red": 2, "blue": 0}))
    with pytest.raises(TrayNotEmptyError) as info:
        tower.check_empty_tray()
    assert str(info.value).startswith("2 red, 1 black — clear the tray")
    assert info.value.counts == {"red": 2, "black": 1}
    status = tower.status()
    assert status["tray_left"] == {"red": 2, "black": 1} and not status["empty_tray_ready"]
    assert status["led"] == "attention"


def test_an_empty_tray_is_the_next_counts_reference_and_kept_with_its_outcome(devices):
    seen = []

    def sessions(camera, calibration, empty=None):
        seen.append(None if empty is None else int(empty[0, 0, 0]))
        return devices.sessions(camera, calibration, empty=empty)

    tower = Tower(open_camera=devices.open_camera, open_controls=devices.open_controls, calibration="cal",
                  clock=devices.clock, session_factory=sessions, tray_counter=tray_with({}))
    devices.cameras[-1].values = (9, 5, 5, 5)
    photo = tower.check_empty_tray()
    assert int(photo[0, 0, 0]) == 9 and tower.status()["empty_tray_ready"]
    outcome = tower.recount(timeout=10)
    assert seen == [9] and int(outcome.empty[0, 0, 0]) == 9 and outcome.empty_jpeg[:2] == b"\xff\xd8"
    assert tower.recount(timeout=10).empty is None and seen == [9, None]  # used once


def test_the_simulated_tower_checks_the_tray_before_it_throws(devices):
    sim = TowerSimulator(seed=1, retain_probability=0.0, release_probability=0.0)
    sim.place({"red": 2})  # left in the tray by hand: the players' clearing does not take them
    left = {"red": 2}
    tower = make_tower(devices, simulator=sim, tray_counter=lambda image, cal: SimpleNamespace(counts=dict(sim.tray)))
    with pytest.raises(TrayNotEmptyError):
        tower.count_throw({"blue": 3}, timeout=10)
    assert sim.throws == 0 and sim.tray == left  # nothing thrown
    sim.place({})
    outcome = tower.count_throw({"blue": 3}, timeout=10)
    assert sim.throws == 1 and sim.tray == {"blue": 3} and outcome.empty is not None


def test_the_preview_never_waits_for_a_count_and_the_count_never_waits_for_it(devices):
    release = threading.Event()
    started = threading.Event()

    class SlowSession:
        def __init__(self, camera, calibration, empty=None):
            self.camera = camera

        def run(self, timeout):
            self.camera.capture()
            started.set()
            release.wait(10)
            return SimpleNamespace(counts={}, empty=None)

        def cancel(self):
            release.set()

    tower = Tower(open_camera=devices.open_camera, open_controls=devices.open_controls, calibration="cal",
                  clock=devices.clock, session_factory=SlowSession, tray_counter=tray_with({}))
    with pytest.raises(CountInProgressError):  # no picture yet and a count holds the camera
        worker = threading.Thread(target=tower.recount)
        worker.start()
        assert started.wait(10)
        tower.preview()
    release.set()
    worker.join(10)
    first = tower.preview()
    captured = devices.cameras[-1].captured
    assert tower.preview() is first and devices.cameras[-1].captured == captured  # shared, no capture
    devices.clock.advance(1.0)
    release.clear()
    started.clear()
    worker = threading.Thread(target=tower.recount)
    worker.start()
    assert started.wait(10)
    assert tower.preview() is first  # during the count: the last picture again, at once
    release.set()
    worker.join(10)


def test_set_calibration_drops_an_old_empty_tray_photo(devices):
    tower = make_tower(devices)
    tower.check_empty_tray()
    assert tower.empty_tray_ready
    tower.set_calibration("new")
    assert tower.calibration == "new" and not tower.empty_tray_ready


def test_placed_cubes_stay_through_the_routine_clearing_until_the_tray_is_set_again():
    sim = TowerSimulator(seed=2, retain_probability=0.0, release_probability=0.0)
    sim.place({"black": 1})
    sim.throw({"red": 2})
    assert sim.tray == {"black": 1, "red": 2}
    assert sim.empty_tray() == {"red": 2} and sim.tray == {"black": 1}
    sim.place({})
    assert sim.empty_tray() == {} and sim.tray == {}
    with pytest.raises(ValueError):
        sim.place({"orange": 1})
    assert sim.tray == {}
