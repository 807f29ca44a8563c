"""The Tower state machine: buttons from pins or screen, LED, missing and failing devices."""

from __future__ import annotations

import queue
import threading
from types import SimpleNamespace

import pytest

from companion.hw.controls import PinConfig, TowerControls
from companion.hw.counting import CountSession
from companion.hw.errors import (
    CameraUnavailableError,
    CountCancelledError,
    CountInProgressError,
    CountTimeoutError,
    GpioUnavailableError,
    InvalidThrowError,
    NotCalibratedError,
    UnknownButtonError,
)
from companion.hw.simulator import TowerSimulator
from companion.hw.tower import Tower

from .conftest import WAIT
from .test_counting import ScriptedCamera, StillTwice, annotator, counter


class Devices:
    """Camera and GPIO openers the test can unplug and plug back."""

    def __init__(self, clock, values=(5, 5, 5)):
        self.clock = clock
        self.values = values
        self.camera_present = True
        self.gpio_present = True
        self.cameras: list[ScriptedCamera] = []

    def open_camera(self):
        if not self.camera_present:
            raise CameraUnavailableError()
        self.cameras.append(ScriptedCamera(self.values, self.clock))
        return self.cameras[-1]

    def open_controls(self):
        if not self.gpio_present:
            raise GpioUnavailableError()
        return TowerControls(PinConfig(hold_time=30.0, bounce_time=0.01))

    def sessions(self, camera, calibration, empty=None):
        return CountSession(camera, calibration, empty=empty, detector_factory=StillTwice,
                            counter=counter, annotator=annotator, clock=self.clock)


@pytest.fixture
def devices(clock, mock_factory):
    return Devices(clock)


def empty_tray_counter(image, calibration):
    """The empty-tray check's count: nothing lies in the tray."""
    return SimpleNamespace(counts={})


def make_tower(devices, calibration="cal", simulator=None, tray_counter=empty_tray_counter):
    return Tower(open_camera=devices.open_camera, open_controls=devices.open_controls,
                 simulator=simulator, calibration=calibration, retry_interval=5.0,
                 clock=devices.clock, session_factory=devices.sessions, tray_counter=tray_counter)


def test_healthy_tower_counts_and_shows_ready(devices, mock_factory):
    tower = make_tower(devices)
    status = tower.status()
    assert status["camera"]["ok"] and status["gpio"] == {"ok": True, "mode": "mock", "message": None}
    assert status["led"] == "ready" and mock_factory.pin(22).state == 1
    assert status["messages"] == [] and not tower.simulated
    assert tower.recount(timeout=10).counts == {"red": 5}
    assert tower.status()["led"] == "ready"


def test_screen_button_travels_the_mock_pin(devices, mock_factory):
    tower = make_tower(devices)
    pressed: queue.Queue[str] = queue.Queue()
    tower.on_button(pressed.put)
    tower.press("count")
    assert pressed.get(timeout=WAIT) == "count"
    assert mock_factory.pin(17).states[-1].state is True  # it went low and came back up
    assert [s.state for s in mock_factory.pin(17).states[-2:]] == [False, True]
    with pytest.raises(UnknownButtonError):
        tower.press("recount")


def test_missing_camera_keeps_running_and_recovers(devices, clock, mock_factory):
    devices.camera_present = False
    tower = make_tower(devices)
    status = tower.status()
    assert not status["camera"]["ok"] and status["led"] == "error"
    assert "enter the counts by hand" in status["camera"]["message"]
    assert any("reconnect" in m for m in status["messages"])
    with pytest.raises(CameraUnavailableError):
        tower.recount()
    devices.camera_present = True
    clock.advance(1.0)
    assert tower.status()["camera"]["ok"] is False  # retries at most every 5 s
    assert devices.cameras == []
    clock.advance(5.0)
    status = tower.status()
    assert status["camera"]["ok"] and status["led"] == "ready" and status["messages"] == []
    assert tower.recount(timeout=10).counts == {"red": 5}


def test_camera_failing_mid_count_is_reported_then_reconnected(devices, clock):
    devices.values = (1, 2, None)
    tower = make_tower(devices)
    with pytest.raises(CameraUnavailableError):
        tower.recount(timeout=10)
    assert tower.status()["camera"]["ok"] is False and tower.status()["led"] == "error"
    devices.values = (6, 6, 6)
    assert tower.recount(timeout=10).counts == {"red": 6}  # a count retries the camera at once
    assert tower.status()["led"] == "ready"


def test_missing_gpio_leaves_the_screen_buttons(devices):
    devices.gpio_present = False
    tower = make_tower(devices)
    status = tower.status()
    assert status["gpio"]["ok"] is False and "buttons on the screen" in status["gpio"]["message"]
    pressed: queue.Queue[str] = queue.Queue()
    tower.on_button(pressed.put)
    tower.press("cancel")
    assert pressed.get(timeout=WAIT) == "cancel"


def test_gpio_comes_back(devices, clock):
    devices.gpio_present = False
    tower = make_tower(devices)
    devices.gpio_present = True
    clock.advance(5.0)
    assert tower.status()["gpio"]["ok"] is True


def test_cancel_button_stops_a_running_count(devices, mock_factory):
    capturing = threading.Event()
    devices.values = range(10**9)  # a tray that never settles
    tower = make_tower(devices)
    devices.cameras[-1].on_capture = lambda n: capturing.set()
    results: queue.Queue = queue.Queue()

    def count():
        try:
            results.put(tower.recount(timeout=10**6))
        except Exception as exc:
            results.put(exc)

    worker = threading.Thread(target=count)
    worker.start()
    assert capturing.wait(WAIT)
    assert tower.status()["counting"] and tower.status()["led"] == "counting"
    assert tower.controls.led_state == "counting"  # the physical LED blinks fast
    with pytest.raises(CountInProgressError):
        tower.recount()
    tower.press("cancel")
    outcome = results.get(timeout=WAIT)
    worker.join(WAIT)
    assert isinstance(outcome, CountCancelledError)
    assert tower.status()["led"] == "attention" and not tower.status()["counting"]
    tower.set_attention(False)
    assert tower.status()["led"] == "ready"


def test_timeout_asks_for_attention(devices):
    devices.values = range(10**9)
    tower = make_tower(devices)
    with pytest.raises(CountTimeoutError):
        tower.recount(timeout=2)
    assert tower.status()["led"] == "attention"


def test_bad_throw_changes_nothing(devices):
    sim = TowerSimulator(seed=1)
    tower = make_tower(devices, simulator=sim)
    with pytest.raises(InvalidThrowError):
        tower.count_throw({"orange": 2})
    assert devices.cameras[-1].captured == 0 and sim.throws == 0


def test_simulated_throw_empties_the_tray_then_throws(devices):
    sim = TowerSimulator(seed=1, retain_probability=0.0, release_probability=0.0)
    sim.throw({"blue": 2})
    tower = make_tower(devices, simulator=sim)
    tower.count_throw({"red": 3}, timeout=10)
    assert sim.tray == {"red": 3} and sim.throws == 2
    assert tower.simulated and any("Simulated" in m for m in tower.status()["messages"])


def test_uncalibrated_camera_cannot_count(devices):
    tower = make_tower(devices, calibration=None)
    assert tower.status()["calibrated"] is False
    with pytest.raises(NotCalibratedError, match="not calibrated"):
        tower.recount()


def test_status_listeners_hear_led_changes(devices):
    tower = make_tower(devices)
    heard: list[str] = []
    tower.on_status(lambda s: heard.append(s["led"]))
    tower.recount(timeout=10)
    assert heard[0] == "counting" and heard[-1] == "ready"


def test_from_settings_still_reads_the_old_exposure_lock_file(tmp_path, monkeypatch):
    import sys

    from companion.config import Settings
    from tests.hw import fake_picamera2

    fake = fake_picamera2.module()
    monkeypatch.setitem(sys.modules, "picamera2", fake)
    (tmp_path / "camera-lock.json").write_text(
        '{"exposure_us": 15000, "analogue_gain": 1.25, "colour_gains": [1.8, 1.4]}')
    tower = Tower.from_settings(Settings(camera="auto", gpio="mock", data_dir=tmp_path),
                                environ={"COMPANION_RASPBERRY_PI": "0"})
    try:
        device = fake.Picamera2.instances[-1]
        assert device.control_calls[0] == {"ExposureTime": 15000, "AnalogueGain": 1.25,
                                           "ColourGains": (1.8, 1.4), "ExposureTimeMode": 1,
                                           "AnalogueGainMode": 1}
        status = tower.status()
        assert status["camera"]["backend"] == "picamera2" and not tower.simulated
        assert status["calibrated"] is False  # no colour calibration saved yet
    finally:
        tower.close()


def test_snapshot_waits_for_no_count_and_reports_a_dead_camera(devices):
    tower = make_tower(devices)
    assert tower.snapshot().shape == (4, 4, 3)
    devices.cameras[-1].values = (None,)
    with pytest.raises(CameraUnavailableError):
        tower.snapshot()
    assert tower.status()["camera"]["ok"] is False


def test_empty_tray_photo_is_used_by_the_next_count_only(devices):
    seen = []

    def sessions(camera, calibration, empty=None):
        seen.append(None if empty is None else int(empty[0, 0, 0]))
        return devices.sessions(camera, calibration, empty=empty)

    tower = Tower(open_camera=devices.open_camera, open_controls=devices.open_controls,
                  calibration="cal", clock=devices.clock, session_factory=sessions)
    devices.cameras[-1].values = (9, 5, 5, 5)
    tower.note_empty_tray()
    tower.recount(timeout=10)
    tower.recount(timeout=10)
    assert seen == [9, None]


def test_sync_simulation_only_touches_a_simulated_tower(devices):
    sim = TowerSimulator(seed=1)
    make_tower(devices, simulator=sim).sync_simulation({"red": 3}, {"green": 2})
    assert (sim.interior, sim.tray) == ({"red": 3}, {"green": 2})
    real = make_tower(Devices(devices.clock))
    real.sync_simulation({"red": 3}, {})  # a real tower's cubes are where they are
    assert real.simulator is None and not real.simulated


def test_status_listeners_hear_changes_only(devices, clock):
    devices.gpio_present = False
    tower = make_tower(devices)
    heard: list[dict] = []
    tower.on_status(heard.append)
    for _ in range(3):  # failed GPIO retries that change nothing publish nothing
        clock.advance(5.0)
        tower.status()
    assert heard == []
    devices.gpio_present = True
    clock.advance(5.0)
    tower.status()
    assert len(heard) == 1 and heard[0]["gpio"]["ok"] is True


def test_the_tower_knows_which_colours_its_calibration_can_count():
    from companion.hw.errors import ColoursNotCalibratedError, NotCalibratedError
    from companion.vision.synthetic import synthetic_calibration

    from .conftest import calibration_with_only

    three = calibration_with_only(synthetic_calibration(), ("red", "blue", "green"))
    def no_camera():
        raise CameraUnavailableError()

    tower = Tower(open_camera=no_camera, open_controls=None, calibration=three, retry_interval=3600)
    try:
        assert tower.calibrated_colors == ("red", "blue", "green")
        assert tower.status()["calibrated_colors"] == ["red", "blue", "green"]
        tower.check_colors(["red", "green"])  # nothing missing: no error
        with pytest.raises(ColoursNotCalibratedError) as info:
            tower.check_colors(["red", "yellow", "black", "green"])
        assert info.value.colors == ("yellow", "black")
        assert "yellow and black" in str(info.value) and isinstance(info.value, NotCalibratedError)
    finally:
        tower.close()
