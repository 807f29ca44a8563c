"""Games: list, create, read, commands (incl. every kind of rejection), undo, exports."""

from __future__ import annotations

import csv
import io

import pytest

from ..conftest import PLAYERS, command, error_of, in_actions, new_game, ok, state_of


def test_no_games_yet_is_an_empty_list(client):
    assert ok(client.get("/api/games")) == []


def test_create_game_answers_201_with_the_state_and_lists_it(client):
    body = ok(client.post("/api/games", json={"players": PLAYERS, "first_player": "red"}), 201)
    state = body["state"]
    assert state["version"] == 1
    assert state["phase"] == "deployment"
    assert [p["color"] for p in state["players"]] == ["red", "blue", "purple"]
    assert state["rounds"] == 7  # three players play seven rounds
    games = ok(client.get("/api/games"))
    assert [g["id"] for g in games] == [body["id"]]
    listed = games[0]
    for key in ("id", "title", "created_at", "updated_at", "status", "players", "round", "winner"):
        assert key in listed
    assert listed["status"] == "active" and listed["winner"] is None


def test_new_game_snapshots_the_owners_board(client):
    board = ok(client.get("/api/board"))
    game = new_game(client)
    assert state_of(client, game)["board"] == board


@pytest.mark.parametrize(
    ("kwargs", "kind"),
    [
        ({"data": "{not json", "content_type": "application/json"}, "MalformedRequestError"),
        ({"data": "", "content_type": "application/json"}, "MalformedRequestError"),
        ({"json": [1, 2]}, "MalformedRequestError"),
        ({"data": '{"players": []}', "content_type": "text/plain"}, "MalformedRequestError"),
        ({"json": {"players": PLAYERS, "first_player": "red", "board": {}}}, "MalformedRequestError"),
        ({"json": {"type": "pass", "players": PLAYERS}}, "MalformedRequestError"),
        ({"json": {"first_player": "red"}}, "MalformedRequestError"),
        ({"json": {"players": PLAYERS[:1], "first_player": "red"}}, "MalformedRequestError"),
        ({"json": {"players": PLAYERS, "first_player": "black"}}, "InvalidCommandError"),
    ],
)
def test_bad_new_game_is_refused_and_creates_nothing(client, kwargs, kind):
    error = error_of(client.post("/api/games", **kwargs), 400)
    assert error["kind"] == kind
    assert ok(client.get("/api/games")) == []


def test_unknown_game_is_404_in_json(client):
    assert error_of(client.get("/api/games/99"), 404)["kind"] == "GameNotFoundError"
    assert error_of(client.get("/api/games/abc"), 404)["kind"] == "NotFound"
    assert error_of(client.get("/api/no/such/thing"), 404)["kind"] == "NotFound"


def test_wrong_method_is_405_in_json(client):
    assert error_of(client.delete("/api/games"), 405)["kind"] == "MethodNotAllowed"


def test_command_answers_the_new_state_and_the_event(client):
    game = new_game(client)
    body = command(client, game, type="deploy_start", player="red", armies=6)
    assert body["id"] == game
    assert body["state"]["version"] == 2
    assert body["event"]["type"] == "deploy_start"
    assert body["state"]["regions"]["light"]["treehome"]["armies"] == {"red": 6}
    assert state_of(client, game) == body["state"]


def test_expected_version_matching_the_game_is_accepted(client):
    game = new_game(client)
    response = client.post(
        f"/api/games/{game}/commands",
        json={"command": {"type": "deploy_start", "player": "red", "armies": 6}, "expected_version": 1},
    )
    assert ok(response)["state"]["version"] == 2


REJECTIONS = [
    # (command body, status, kind) — each one must leave the game exactly as it was.
    ({"command": {"type": "fly_away", "player": "red"}}, 400, "MalformedRequestError"),
    ({"command": {"player": "red"}}, 400, "MalformedRequestError"),
    ({"command": {"type": "pass", "player": "red", "compensation": "gold"}}, 400, "WrongPhaseError"),
    ({"command": {"type": "deploy_start", "player": "blue", "armies": 6, "region": "mountainhome"}},
     400, "NotYourTurnError"),
    ({"command": {"type": "deploy_start", "player": "black", "armies": 6}}, 400, "InvalidCommandError"),
    ({"command": {"type": "deploy_start", "player": "red", "armies": 6}, "expected_version": 0},
     409, "VersionConflictError"),
    ({"command": {"type": "deploy_start", "player": "red", "armies": 6}, "expected_version": "1"},
     400, "MalformedRequestError"),
    ({"command": "deploy"}, 400, "MalformedRequestError"),
    ({}, 400, "MalformedRequestError"),
    ({"command": {"type": "new_game", "players": PLAYERS, "first_player": "red"}}, 400,
     "MalformedRequestError"),
    ({"command": {"type": "undo"}}, 400, "UndoNotAllowedError"),
]


@pytest.mark.parametrize(("body", "status", "kind"), REJECTIONS)
def test_rejected_command_changes_nothing(client, body, status, kind):
    game = new_game(client)
    before = state_of(client, game)
    listed_before = ok(client.get("/api/games"))
    error = error_of(client.post(f"/api/games/{game}/commands", json=body), status)
    assert error["kind"] == kind
    assert state_of(client, game) == before
    assert ok(client.get("/api/games")) == listed_before


def test_malformed_json_command_changes_nothing(client):
    game = new_game(client)
    before = state_of(client, game)
    response = client.post(
        f"/api/games/{game}/commands", data='{"command": {', content_type="application/json"
    )
    assert error_of(response, 400)["kind"] == "MalformedRequestError"
    assert state_of(client, game) == before


def test_command_for_an_unknown_game_is_404(client):
    response = client.post("/api/games/42/commands", json={"command": {"type": "undo"}})
    assert error_of(response, 404)["kind"] == "GameNotFoundError"


def test_undo_answers_what_it_undid_and_restores_the_state(client):
    game = new_game(client)
    before = state_of(client, game)
    done = command(client, game, type="deploy_start", player="red", armies=6)
    undone = command(client, game, type="undo")
    assert undone["event"]["type"] == "undo"
    assert undone["event"]["undoes"] == done["state"]["version"]
    after = undone["state"]
    assert after["version"] == before["version"] + 2  # undo appends; nothing is deleted
    assert after["regions"] == before["regions"] and after["turn"] == before["turn"]


def test_a_full_turn_of_passes_in_the_actions_phase(client):
    game = in_actions(client)
    state = state_of(client, game)
    player = state["turn"]
    gold = next(p["gold"] for p in state["players"] if p["color"] == player)
    body = command(client, game, type="pass", player=player, compensation="gold")
    assert next(p["gold"] for p in body["state"]["players"] if p["color"] == player) == gold + 1
    assert body["state"]["turn"] != player


def test_export_json_holds_every_event(client):
    game = new_game(client)
    command(client, game, type="deploy_start", player="red", armies=6)
    response = client.get(f"/api/games/{game}/export.json")
    export = ok(response)
    assert "attachment" in response.headers["Content-Disposition"]
    assert [e["type"] for e in export["events"]] == ["new_game", "deploy_start"]


def test_battles_csv_has_a_header_and_no_rows_before_any_battle(client):
    game = new_game(client)
    response = client.get(f"/api/games/{game}/battles.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert len(rows) == 1 and "attacker" in rows[0]


def test_exports_of_an_unknown_game_are_404(client):
    assert error_of(client.get("/api/games/7/export.json"), 404)["kind"] == "GameNotFoundError"
    assert error_of(client.get("/api/games/7/battles.csv"), 404)["kind"] == "GameNotFoundError"


def test_two_devices_acting_on_the_same_version_one_wins_one_is_told_to_reload(app, client):
    import threading

    game = new_game(client)
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def device() -> None:
        own = app.test_client()
        barrier.wait(timeout=5)
        response = own.post(
            f"/api/games/{game}/commands",
            json={"command": {"type": "deploy_start", "player": "red", "armies": 6}, "expected_version": 1},
        )
        statuses.append(response.status_code)

    threads = [threading.Thread(target=device) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert sorted(statuses) == [200, 409]
    state = state_of(client, game)
    assert state["version"] == 2 and state["regions"]["light"]["treehome"]["armies"] == {"red": 6}


def test_a_stored_game_the_rules_cannot_replay_is_a_server_error_not_the_players_fault(data_dir):
    from companion.store import GameLog

    from ..conftest import make_app

    app = make_app(data_dir)
    game_id = new_game(app.test_client())
    app.extensions["companion"].close()
    log = GameLog(data_dir / "companion.sqlite3")
    log.append(game_id, {"type": "no_such_event_in_any_version"}, expected_version=1)
    log.close()

    restarted = make_app(data_dir)
    try:
        response = restarted.test_client().get(f"/api/games/{game_id}")
        error = error_of(response, 500)
        assert error["kind"] == "GameUnreadableError"
        assert error["message"]  # the store's own sentence reaches the screen
        log = GameLog(data_dir / "companion.sqlite3")
        assert len(log.events(game_id)) == 2  # the log is kept untouched for the owner
        log.close()
    finally:
        restarted.extensions["companion"].close()
