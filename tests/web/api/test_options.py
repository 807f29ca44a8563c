"""GET /api/games/<id>/options (the legal choices), and the turn-order correction over HTTP."""

from __future__ import annotations

from tests.web.conftest import command, error_of, in_actions, new_game, ok, state_of


def test_options_of_the_player_whose_turn_it_is(client):
    game = in_actions(client)
    state = state_of(client, game)
    response = client.get(f"/api/games/{game}/options")
    body = ok(response)
    assert body["player"] == state["turn"] and body["turn"] is True and body["version"] == state["version"]
    assert response.headers["ETag"] == f'"{state["version"]}-{state["turn"]}"'
    attack = body["commands"]["attack"]
    for src in attack["from"]:  # only regions holding the player's armies, one stays behind
        assert state["regions"][src["realm"]][src["region"]]["armies"][body["player"]] == src["max"] + 1
    assert "pass" in body["commands"] and "forfeit" in body["commands"]


def test_another_player_sees_no_turn_choices(client):
    game = in_actions(client)
    turn = state_of(client, game)["turn"]
    other = next(c for c in ("red", "blue", "purple") if c != turn)
    body = ok(client.get(f"/api/games/{game}/options?player={other}"))
    assert body["turn"] is False and set(body["commands"]) <= {"correct"}


def test_unchanged_options_answer_304(client):
    game = in_actions(client)
    first = client.get(f"/api/games/{game}/options")
    again = client.get(f"/api/games/{game}/options", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    command(client, game, type="pass", player=state_of(client, game)["turn"], compensation="gold")
    moved = client.get(f"/api/games/{game}/options", headers={"If-None-Match": first.headers["ETag"]})
    assert moved.status_code == 200 and moved.get_json()["version"] == first.get_json()["version"] + 1


def test_bad_player_and_missing_game(client):
    game = new_game(client)
    assert error_of(client.get(f"/api/games/{game}/options?player=yellow"), 400)["kind"] == "NotPlayingError"
    assert error_of(client.get(f"/api/games/{game}/options?player=green"), 400)["kind"] == "MalformedRequestError"
    assert client.get("/api/games/999/options").status_code == 404


def test_an_illegal_pick_from_an_old_page_is_refused_in_the_devices_language_and_changes_nothing(client):
    game = in_actions(client)
    state = state_of(client, game)
    me = state["turn"]
    before = client.get(f"/api/games/{game}").get_json()["state"]
    # Transition of 3 with 2 armies while the limbo holds 3 or more: not among the options.
    where = ok(client.get(f"/api/games/{game}/options"))["commands"]["transition_3"]["where"][0]
    assert where["armies"] == 3
    bad = {"type": "transition_3", "player": me, "region": where["region"], "realm": where["realm"], "armies": 2}
    err = error_of(client.post(f"/api/games/{game}/commands", json={"command": bad},
                               headers={"Accept-Language": "de"}), 400)
    assert err["kind"] == "TransitionCountError"
    assert "Erwecken 3 stellt genau 3 Armeen" in err["message"]
    assert state_of(client, game) == before


def test_correcting_first_player_marker_and_round_is_logged_and_undone(client):
    game = in_actions(client)
    s = state_of(client, game)
    body = command(client, game, type="correct", reason="marker passed wrongly",
                   marker_holder="purple", first_player="purple", round=2)
    assert body["event"]["type"] == "correct"
    t = body["state"]
    assert (t["marker_holder"], t["first_player"], t["round"], t["turn"]) == ("purple", "purple", 2, "purple")
    undone = command(client, game, type="undo")["state"]
    assert (undone["marker_holder"], undone["first_player"], undone["round"], undone["turn"]) == (
        s["marker_holder"], s["first_player"], s["round"], s["turn"])
    err = error_of(client.post(f"/api/games/{game}/commands",
                               json={"command": {"type": "correct", "reason": "x", "round": 99}}), 400)
    assert err["kind"] == "NoSuchRoundError" and "not 99" in err["message"]
