"""The tower over HTTP: status, and the on-screen buttons taking the physical button's path."""

from __future__ import annotations

import pytest

from ..conftest import EventCollector, attack_declared, error_of, in_actions, ok, state_of


def test_status_says_the_tower_is_simulated(client):
    status = ok(client.get("/api/tower"))
    assert status["simulated"] is True
    assert status["camera"]["ok"] is True
    assert any("Simulated" in m for m in status["messages"])


def test_on_screen_count_button_counts_the_pending_battle_for_every_device(app, client):
    game = attack_declared(client)
    before = state_of(client, game)
    events = EventCollector(app, game)
    body = ok(client.post("/api/tower/press", json={"button": "count"}), 202)
    assert body["pressed"] == "count"
    pushed = events.next("reading", timeout=15)
    assert pushed["game"] == game
    assert pushed["reading"]["version"] == before["version"]
    assert pushed["reading"]["thrown"] == before["battle"]["throw"]
    assert ok(client.get(f"/api/games/{game}/battle/reading"))["reading"] == pushed["reading"]
    after = state_of(client, game)  # only the shared reading changed
    assert after["reading"]["id"] == pushed["reading"]["id"]
    assert {**after, "version": before["version"], "reading": None} == before
    events.close()


def test_count_button_with_no_battle_waiting_says_so(app, client):
    in_actions(client)
    events = EventCollector(app)
    ok(client.post("/api/tower/press", json={"button": "count"}), 202)
    while "message" not in (status := events.next("tower")):
        pass
    assert "No game is waiting" in status["message"]
    events.close()


def test_cancel_button_is_accepted(app, client):
    events = EventCollector(app)
    assert ok(client.post("/api/tower/press", json={"button": "cancel"}), 202)["pressed"] == "cancel"
    assert "camera" in events.next("tower")
    events.close()


@pytest.mark.parametrize("payload", [{}, {"button": "launch"}, {"button": 1}])
def test_unknown_button_is_400(client, payload):
    assert error_of(client.post("/api/tower/press", json=payload), 400)["kind"] == "MalformedRequestError"


def test_count_button_belongs_to_the_game_waiting_for_a_count(app, client):
    waiting = attack_declared(client)
    idle = in_actions(client)  # touched last, but nothing to count there
    state_of(client, idle)
    events = EventCollector(app)
    ok(client.post("/api/tower/press", json={"button": "count"}), 202)
    assert events.next("reading", timeout=15)["game"] == waiting
    events.close()


def test_cancel_during_a_count_is_409_not_a_broken_camera(app, client, monkeypatch):
    from companion.hw.errors import CountCancelledError

    game = attack_declared(client)

    def cancelled(**_: object) -> None:
        raise CountCancelledError()

    monkeypatch.setattr(app.extensions["companion"].tower, "count_throw", cancelled)
    error = error_of(client.post(f"/api/games/{game}/battle/count"), 409)
    assert error["kind"] == "CountCancelledError"
