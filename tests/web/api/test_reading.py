"""The shared reading over HTTP: corrections from any device, live news, and stale commands
refused with a message naming what changed (nothing applied)."""

from __future__ import annotations

import pytest

from ..conftest import (
    EventCollector,
    attack_declared,
    command,
    error_of,
    ok,
    state_of,
    to_seeding,
)


def count(client, game):
    return ok(client.post(f"/api/games/{game}/battle/count"))


def post(client, game, cmd, version=None):
    body = {"command": cmd}
    if version is not None:
        body["expected_version"] = version
    return client.post(f"/api/games/{game}/commands", json=body)


def test_count_answers_the_new_state_with_the_shared_reading(client):
    game = attack_declared(client)
    body = count(client, game)
    assert body["state"]["reading"]["id"] == body["reading"]["id"]
    assert body["state"]["reading"]["counts"] == body["reading"]["counts"]
    assert ok(client.get(f"/api/readings/{body['reading']['id']}"))["reading"] == body["reading"]
    assert error_of(client.get("/api/readings/1-1-00000000"), 404)["kind"] == "NotFoundError"


def test_a_correction_reaches_every_device_saying_who_changed_what(app, client):
    game = attack_declared(client)
    count(client, game)
    events = EventCollector(app, game)
    body = command(client, game, type="correct_tray", color="red", count=5, device="Tablet A")
    assert body["state"]["reading"]["counts"]["red"] == 5
    while (pushed := events.next("state"))["version"] != body["state"]["version"]:
        pass
    assert pushed["type"] == "correct_tray"
    assert pushed["news"] == "Red was corrected to 5" and pushed["device"] == "Tablet A"
    events.close()
    # Kept in the log with the device: the export shows every correction.
    exported = ok(client.get(f"/api/games/{game}/export.json"))
    last = exported["events"][-1]
    assert last["type"] == "correct_tray" and last["payload"]["command"]["device"] == "Tablet A"


def test_apply_of_a_reading_corrected_since_is_refused_and_changes_nothing(client):
    game = attack_declared(client)
    reading = count(client, game)["state"]["reading"]
    seen = state_of(client, game)  # tablet B shows this
    red = reading["counts"].get("red", 0)
    command(client, game, type="correct_tray", color="red", count=red + 2)  # tablet A: red +2
    before = state_of(client, game)
    response = post(client, game, {"type": "resolve_battle", "counts": reading["counts"],
                                   "accept_impossible": True}, seen["version"])
    error = error_of(response, 409)
    assert error["kind"] == "VersionConflictError"
    assert error["message"] == (f"Red was corrected to {red + 2} on another tablet — "
                                "check and apply again.")
    assert state_of(client, game) == before
    # With the version it was shown, the corrected reading applies.
    body = ok(post(client, game, {"type": "resolve_battle", "counts": before["reading"]["counts"],
                                  "accept_impossible": True}, before["version"]))
    assert body["event"]["camera_counts"] == reading["camera"]
    assert body["event"]["reading"] == before["reading"]["counts"]
    assert body["state"]["reading"] is None


@pytest.mark.parametrize("stale_cmd", [
    {"type": "pass", "player": "blue", "compensation": "gold"},
    {"type": "undo"},
])
def test_any_stale_command_is_refused_naming_the_change(client, stale_cmd):
    game = attack_declared(client)
    command(client, game, type="correct_tray", color="purple", count=2)  # counted by hand
    seen = state_of(client, game)["version"]
    command(client, game, type="correct_tray", color="purple", count=3, device="Ani's phone")
    error = error_of(post(client, game, stale_cmd, seen), 409)
    assert error["message"] == "Purple was corrected to 3 on Ani's phone — check and apply again."


def test_seeding_apply_is_refused_when_the_reading_changed(client):
    game = to_seeding(client)
    body = count(client, game)
    counts = body["state"]["reading"]["counts"]
    shown = body["state"]["version"]
    command(client, game, type="correct_tray", color="green", count=counts.get("green", 0) + 1)
    split = {c: {"light": counts.get(c, 0), "dark": 0} for c in ("red", "blue", "purple")}
    seed = {"type": "seed_tower", "tray": counts, "limbo_split": split, "accept_impossible": True}
    error = error_of(post(client, game, seed, shown), 409)
    assert error["message"].startswith("Green was corrected to")
    assert state_of(client, game)["phase"] == "seeding"


@pytest.mark.parametrize(("cmd", "kind"), [
    ({"type": "correct_tray", "color": "pink", "count": 1}, "InvalidCommandError"),
    ({"type": "correct_tray", "color": "red", "count": -1}, "InvalidCommandError"),
    ({"type": "correct_tray", "color": "red"}, "InvalidCommandError"),
    ({"type": "correct_tray", "color": "yellow", "count": 1}, "InvalidCommandError"),
    ({"type": "correct_tray", "color": "red", "count": 1, "device": "x" * 61}, "InvalidCommandError"),
])
def test_bad_corrections_are_400_and_change_nothing(client, cmd, kind):
    game = attack_declared(client)
    before = state_of(client, game)
    assert error_of(post(client, game, cmd), 400)["kind"] == kind
    assert state_of(client, game) == before


def test_corrections_outside_a_throw_are_refused(client):
    from ..conftest import in_actions

    game = in_actions(client)
    error = error_of(post(client, game, {"type": "correct_tray", "color": "red", "count": 1}), 400)
    assert error["kind"] == "WrongPhaseError"
