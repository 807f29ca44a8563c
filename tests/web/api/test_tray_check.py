"""A real tower's battle: the empty tray is checked before the throw (first press), then the
throw is counted against that photo; a count without the check, or a tray with cubes, waits."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.hw.counting import CountSession
from companion.hw.tower import Tower

from ...hw.conftest import FakeClock
from ...hw.test_counting import ScriptedCamera, StillTwice, annotator, counter
from ..conftest import attack_declared, error_of, make_app, ok, state_of

ALL = ("red", "blue", "yellow", "purple", "black", "green")


@pytest.fixture
def real(tmp_path):
    """An app on a real (not simulated) tower: a scripted camera, a stand-in counter."""
    clock = FakeClock()
    left: dict[str, int] = {}
    tower = Tower(
        open_camera=lambda: ScriptedCamera((5,), clock), open_controls=None,
        calibration=SimpleNamespace(colors=ALL), clock=clock,
        session_factory=lambda camera, cal, empty=None: CountSession(
            camera, cal, empty=empty, detector_factory=StillTwice, counter=counter, annotator=annotator),
        tray_counter=lambda image, cal: SimpleNamespace(counts=dict(left)))
    app = make_app(tmp_path / "data", TOWER=tower)
    yield app, app.test_client(), left
    app.extensions["companion"].close()


def test_a_count_before_the_check_is_refused_and_changes_nothing(real):
    app, client, _ = real
    game = attack_declared(client)
    before = state_of(client, game)
    error = error_of(client.post(f"/api/games/{game}/battle/count"), 409)
    assert error["kind"] == "TrayNotCheckedError" and "tray is empty" in error["message"]
    assert state_of(client, game) == before


def test_check_then_throw_then_count_keeps_the_empty_photo(real):
    app, client, left = real
    game = attack_declared(client)
    left.update({"green": 1})
    error = error_of(client.post(f"/api/games/{game}/battle/tray-check"), 409)
    assert error["message"].startswith("1 green — clear the tray")
    assert ok(client.get("/api/tower"))["tray_left"] == {"green": 1}
    error_of(client.post(f"/api/games/{game}/battle/count"), 409)  # still waiting
    left.clear()
    assert ok(client.post(f"/api/games/{game}/battle/tray-check"))["empty"] is True
    assert ok(client.get("/api/tower"))["empty_tray_ready"] is True
    reading = ok(client.post(f"/api/games/{game}/battle/count"))["reading"]
    assert reading["counts"] == {"red": 5} and client.get(reading["empty_url"]).mimetype == "image/jpeg"
    assert ok(client.get("/api/tower"))["empty_tray_ready"] is False  # used by that count


def test_the_first_press_of_the_tower_button_checks_the_tray(real):
    app, client, _ = real
    game = attack_declared(client)
    counter_ = app.extensions["companion"].counter
    assert counter_.needs_tray_check(game)
    counter_._count_quietly(game)  # what a press of the count button runs
    assert app.extensions["companion"].tower.empty_tray_ready and not counter_.needs_tray_check(game)
    assert state_of(client, game)["reading"] is None  # checked, nothing counted yet
    counter_._count_quietly(game)  # the second press counts
    assert state_of(client, game)["reading"]["camera"] == {"red": 5}
