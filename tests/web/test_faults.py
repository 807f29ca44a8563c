"""Faults at the table, through the paths the hardware uses: the app keeps running, the tablet
is told what happened (a 503 whose message offers counting by hand), the tower page shows the
device's state, and nothing confirmed is lost.

The tower is the real :class:`~companion.hw.tower.Tower` with the real count session and
vision; only the devices under it misbehave on demand: a camera that is unplugged (its
``capture`` raises, as every backend does) or answers with garbage, and GPIO pins that are
missing at start or fail while the LED is switched. A full disk is SQLite's own
``database or disk is full`` (the page limit of the connections is capped), or the photo write
failing with ``ENOSPC``.
"""

from __future__ import annotations

import errno
import queue
import sqlite3
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from flask import Flask
from gpiozero.exc import GPIOZeroError
from gpiozero.pins.mock import MockFactory

from companion.hw.camera import Camera, open_camera
from companion.hw.controls import PinConfig, TowerControls
from companion.hw.errors import CameraUnavailableError, GpioUnavailableError
from companion.hw.simulator import TowerSimulator
from companion.hw.tower import Tower
from companion.store import GameLog

from .conftest import attack_declared, error_of, make_app, ok, state_of

GARBAGE = {
    "empty": (np.empty((0, 0, 3), np.uint8), "empty picture"),
    "wrong shape": (np.full((960, 1280), 128, np.uint8), "picture it should not"),
    "black": (np.zeros((960, 1280, 3), np.uint8), "black"),
    "blank": (np.full((960, 1280, 3), 200, np.uint8), "one flat colour"),
}


class Devices:
    """The tower's devices, each of which the test can break and mend."""

    def __init__(self) -> None:
        self.simulator = TowerSimulator(seed=7)
        self.camera_plugged = True
        self.garbage: np.ndarray | None = None
        self.gpio_present = True
        self.led_broken = False
        self.factory = MockFactory()

    def open_camera(self) -> Camera:
        if not self.camera_plugged:
            raise CameraUnavailableError()
        return FaultyCamera(open_camera("synthetic", simulator=self.simulator, seed=7), self)

    def open_controls(self) -> TowerControls:
        if not self.gpio_present:
            raise GpioUnavailableError()
        return BreakingControls(self, PinConfig(hold_time=30.0, bounce_time=0.01),
                                pin_factory=self.factory)


class FaultyCamera(Camera):
    """The synthetic camera, unplugged or sending garbage when the test says so."""

    name = "synthetic"

    def __init__(self, inner: Camera, devices: Devices) -> None:
        self.inner, self.devices = inner, devices
        self.description = inner.description

    def capture(self) -> np.ndarray:
        if not self.devices.camera_plugged:
            raise CameraUnavailableError()  # what picam/usb raise when the device is gone
        if self.devices.garbage is not None:
            self.inner.capture()  # the simulated tray still moves on
            return self.devices.garbage.copy()
        return self.inner.capture()

    def close(self) -> None:
        self.inner.close()


class BreakingControls(TowerControls):
    """Mock pins whose LED line fails once the test says the GPIO broke."""

    def __init__(self, devices: Devices, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.devices = devices

    def set_led(self, state: str) -> None:
        if self.devices.led_broken:
            raise GPIOZeroError("the GPIO chip went away")
        super().set_led(state)


@pytest.fixture
def devices() -> Devices:
    return Devices()


@pytest.fixture
def faulty_app(data_dir, devices) -> Iterator[Flask]:
    from companion.vision.synthetic import synthetic_calibration

    tower = Tower(open_camera=devices.open_camera, open_controls=devices.open_controls,
                  simulator=devices.simulator, calibration=synthetic_calibration(),
                  retry_interval=3600.0)
    app = make_app(data_dir, TOWER=tower)
    yield app
    app.extensions["companion"].close()


def _resolve_by_hand(client, game: int) -> dict[str, Any]:
    state = state_of(client, game)
    counts = dict(state["battle"]["throw"])
    return ok(client.post(f"/api/games/{game}/commands", json={
        "command": {"type": "resolve_battle", "counts": counts, "accept_impossible": True},
        "expected_version": state["version"]}))["state"]


def test_camera_unplugged_mid_battle_offers_counting_by_hand(faulty_app, devices) -> None:
    client = faulty_app.test_client()
    game = attack_declared(client)
    before = state_of(client, game)
    devices.camera_plugged = False
    error = error_of(client.post(f"/api/games/{game}/battle/count"), 503)
    assert error["kind"] == "CameraUnavailableError" and "by hand" in error["message"]
    tower = ok(client.get("/api/tower"))
    assert tower["camera"]["ok"] is False and "by hand" in tower["camera"]["message"]
    assert tower["led"] == "error"
    assert state_of(client, game) == before  # the game is untouched
    assert ok(client.get("/")) is None or True  # the pages still answer
    after = _resolve_by_hand(client, game)  # the manual path works
    assert after["version"] == before["version"] + 1 and after["battle"] is None


def test_camera_plugged_back_counts_again(faulty_app, devices) -> None:
    client = faulty_app.test_client()
    game = attack_declared(client)
    devices.camera_plugged = False
    error_of(client.post(f"/api/games/{game}/battle/count"), 503)
    devices.camera_plugged = True
    reading = ok(client.post(f"/api/games/{game}/battle/count"))["reading"]
    assert reading["counts"] and ok(client.get("/api/tower"))["camera"]["ok"] is True


@pytest.mark.parametrize("kind", GARBAGE)
def test_a_camera_sending_garbage_is_refused_with_the_reason(faulty_app, devices, kind) -> None:
    client = faulty_app.test_client()
    game = attack_declared(client)
    before = state_of(client, game)
    frame, words = GARBAGE[kind]
    devices.garbage = frame
    error = error_of(client.post(f"/api/games/{game}/battle/count"), 503)
    assert error["kind"] == "CameraPictureError"
    assert words in error["message"] and "by hand" in error["message"]
    tower = ok(client.get("/api/tower"))
    assert tower["camera"]["ok"] is False and words in tower["camera"]["message"]
    assert state_of(client, game) == before
    assert client.get(f"/api/games/{game}/battle/reading").status_code == 404  # no reading
    devices.garbage = None  # the camera sends pictures again: the next count reconnects
    assert ok(client.post(f"/api/games/{game}/battle/count"))["reading"]["counts"]


def test_gpio_missing_at_start_leaves_the_screen_buttons(data_dir, devices) -> None:
    from companion.vision.synthetic import synthetic_calibration

    devices.gpio_present = False
    tower = Tower(open_camera=devices.open_camera, open_controls=devices.open_controls,
                  simulator=devices.simulator, calibration=synthetic_calibration(),
                  retry_interval=3600.0)
    app = make_app(data_dir, TOWER=tower)
    try:
        client = app.test_client()
        status = ok(client.get("/api/tower"))
        assert status["gpio"]["ok"] is False and "buttons on the screen" in status["gpio"]["message"]
        assert any("buttons on the screen" in m for m in status["messages"])
        game = attack_declared(client)
        readings = _readings(app)
        ok(client.post("/api/tower/press", json={"button": "count"}), 202)  # the on-screen button
        assert readings.get(timeout=30)["game"] == game
    finally:
        app.extensions["companion"].close()


def test_gpio_failing_while_playing_is_shown_and_the_count_still_happens(faulty_app, devices) -> None:
    client = faulty_app.test_client()
    game = attack_declared(client)
    assert ok(client.get("/api/tower"))["gpio"]["ok"] is True
    devices.led_broken = True
    devices.gpio_present = False  # and it does not come back
    reading = ok(client.post(f"/api/games/{game}/battle/count"))["reading"]  # the LED fails here
    assert reading["counts"]
    status = ok(client.get("/api/tower"))
    assert status["gpio"]["ok"] is False and "buttons on the screen" in status["gpio"]["message"]
    readings = _readings(faulty_app)
    ok(client.post("/api/tower/press", json={"button": "count"}), 202)  # a recount, on screen
    assert readings.get(timeout=30)["game"] == game


def _readings(app: Flask) -> queue.Queue[dict[str, Any]]:
    """Readings published to the devices, as they come."""
    out: queue.Queue[dict[str, Any]] = queue.Queue()
    hub = app.extensions["companion"].hub
    original = hub.publish_reading

    def spy(game: int, reading: dict[str, Any]) -> None:
        original(game, reading)
        out.put({"game": game, **reading})

    hub.publish_reading = spy
    return out


# -- full disk -----------------------------------------------------------------------------------


def _cap_pages(app: Flask, monkeypatch, extra_pages: int | None) -> None:
    """Cap the database at its current size (+ ``extra_pages``), on every connection the log
    holds or opens: SQLite then answers writes that need room with SQLITE_FULL."""
    log: GameLog = app.extensions["companion"].log
    with sqlite3.connect(log.path) as probe:
        pages = probe.execute("PRAGMA page_count").fetchone()[0]
    limit = 2**31 - 2 if extra_pages is None else pages + extra_pages
    original = GameLog._open

    def capped(self: GameLog) -> sqlite3.Connection:
        conn = original(self)
        conn.execute(f"PRAGMA max_page_count = {limit:d}")
        return conn

    monkeypatch.setattr(GameLog, "_open", capped)
    for conn in list(log._idle):
        conn.execute(f"PRAGMA max_page_count = {limit:d}")


def test_a_full_disk_refuses_the_move_clearly_and_loses_nothing(app, data_dir, monkeypatch) -> None:
    client = app.test_client()
    game = attack_declared(client)
    _resolve_by_hand(client, game)
    _cap_pages(app, monkeypatch, extra_pages=0)
    refused = None
    for _ in range(60):  # moves fill the last free page; then the disk is full
        state = state_of(client, game)
        turn = state["turn"]
        response = client.post(f"/api/games/{game}/commands", json={
            "command": {"type": "pass", "player": turn, "compensation": "gold"}
            if state["phase"] == "actions" else {"type": "score_round"}
            if state["phase"] == "scoring" else {"type": "start_actions"}
            if state["phase"] == "planning" else
            {"type": "reinforce", "player": turn, "placements": []},
            "expected_version": state["version"]})
        if response.status_code != 200:
            refused = (state, response)
            break
    assert refused is not None, "the capped database never filled up"
    state, response = refused
    error = error_of(response, 503)
    assert error["kind"] == "DiskFullError" and "storage is full" in error["message"]
    assert "nothing was changed" in error["message"]
    assert state_of(client, game) == state  # nothing half-applied, the cache neither
    with GameLog(data_dir / "companion.sqlite3") as log:
        assert log.integrity_check() == "ok" and log.version(game) == state["version"]
    _cap_pages(app, monkeypatch, extra_pages=None)  # space was freed
    assert _next_move(client, game, state)["version"] == state["version"] + 1


def _next_move(client, game: int, state: dict[str, Any]) -> dict[str, Any]:
    turn, phase = state["turn"], state["phase"]
    cmd = ({"type": "pass", "player": turn, "compensation": "gold"} if phase == "actions" else
           {"type": "score_round"} if phase == "scoring" else
           {"type": "start_actions"} if phase == "planning" else
           {"type": "reinforce", "player": turn, "placements": []})
    return ok(client.post(f"/api/games/{game}/commands",
                          json={"command": cmd, "expected_version": state["version"]}))["state"]


def test_a_full_disk_while_the_photo_is_stored_refuses_the_count(app, monkeypatch) -> None:
    client = app.test_client()
    game = attack_declared(client)
    before = state_of(client, game)

    def full(path, data):  # noqa: ANN001
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr("companion.web.api.readings.atomic_write", full)
    error = error_of(client.post(f"/api/games/{game}/battle/count"), 503)
    assert error["kind"] == "DiskFullError"
    german = error_of(client.post(f"/api/games/{game}/battle/count",
                                  headers={"Accept-Language": "de"}), 503)
    assert german["message"].startswith("Der Speicher des Companions ist voll")  # a German tablet
    assert state_of(client, game) == before
    monkeypatch.undo()
    assert ok(client.post(f"/api/games/{game}/battle/count"))["reading"]["counts"]  # a recount


def test_a_data_folder_turning_read_only_refuses_moves_and_changes_nothing(app, data_dir) -> None:
    """SQLite's "attempt to write a readonly database" (here: query_only on every connection
    the log holds) is ReadOnlyStorageError, 503; the game is unchanged and goes on after."""
    client = app.test_client()
    game = attack_declared(client)
    state = state_of(client, game)
    log: GameLog = app.extensions["companion"].log
    idle = list(log._idle)
    assert idle, "the log keeps its connections"
    for conn in idle:
        conn.execute("PRAGMA query_only = ON")
    try:
        response = client.post(f"/api/games/{game}/commands", json={
            "command": {"type": "resolve_battle", "counts": dict(state["battle"]["throw"]),
                        "accept_impossible": True},
            "expected_version": state["version"]})
        error = error_of(response, 503)
        assert error["kind"] == "ReadOnlyStorageError" and "read-only" in error["message"]
        assert state_of(client, game) == state
    finally:
        for conn in idle:
            conn.execute("PRAGMA query_only = OFF")
    assert _resolve_by_hand(client, game)["version"] == state["version"] + 1


def test_a_black_picture_is_no_empty_tray_on_a_real_tower(data_dir, devices) -> None:
    """A real tower checks the empty tray before the throw: a black picture there is a camera
    fault (503, counts by hand), not "267 black cubes — clear the tray"."""
    from companion.vision.synthetic import synthetic_calibration

    tower = Tower(open_camera=devices.open_camera, open_controls=None,
                  calibration=synthetic_calibration(), retry_interval=3600.0)
    assert not tower.simulated
    app = make_app(data_dir, TOWER=tower)
    try:
        client = app.test_client()
        game = attack_declared(client)
        before = state_of(client, game)
        devices.garbage = GARBAGE["black"][0]
        error = error_of(client.post(f"/api/games/{game}/battle/tray-check"), 503)
        assert error["kind"] == "CameraPictureError" and "black" in error["message"]
        assert ok(client.get("/api/tower"))["camera"]["ok"] is False
        assert state_of(client, game) == before
        devices.garbage = None
        assert ok(client.post(f"/api/games/{game}/battle/tray-check"))["empty"] is True
    finally:
        app.extensions["companion"].close()
