"""The game-night API: log a game of each kind, live trackers, edits, deletes, photos, stats,
exports, BG Stats — and bad input refused with a sentence, nothing changed."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import parse_qs, urlparse

from ..conftest import PLAYERS, error_of, guest_client, ok

BASE = "/api/tabletop"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def create(client, **body):
    return ok(client.post(f"{BASE}/games", json=body), 201)


def entry(client, game, event, version=None, status=200):
    body = {"event": event}
    if version is not None:
        body["expected_version"] = version
    response = client.post(f"{BASE}/games/{game['id']}/events", json=body)
    return ok(response, status) if status < 400 else error_of(response, status)


def test_the_catalogue_lists_the_built_in_games(client):
    keys = [g["key"] for g in ok(client.get(f"{BASE}/catalogue"))]
    assert keys == ["immortal_gameogami", "amrtaka", "wrath_of_the_immortals", "generic"]


def test_an_amrtaka_game_is_tracked_live_to_its_end(client):
    person = ok(client.post("/api/people", json={"name": "Ani"}), 201)
    game = create(client, game="amrtaka", players=[{"person_id": person["id"]}, {"name": "Ben"}])
    assert game["status"] == "live" and game["players"][0]["name"] == "Ani" and game["version"] == 0
    for _ in range(4):
        game = entry(client, game, {"type": "gain", "player": "p2", "points": 15}, game["version"])
    assert game["status"] == "finished" and game["winners"] == ["p2"] and game["ended_at"]
    again = entry(client, game, {"type": "gain", "player": "p1", "points": 5}, status=400)
    assert "over" in again["message"]
    game = entry(client, game, {"type": "undo"})
    assert game["status"] == "live" and game["ended_at"] is None and game["players"][1]["score"] == 45


def test_bad_entries_get_a_sentence_and_change_nothing(client):
    game = create(client, game="amrtaka", players=["Ani", "Ben"])
    for bad, words in (({"type": "gain", "player": "p1", "points": -5}, "below zero"),
                       ({"type": "gain", "player": "Zed", "points": 5}, "no player"),
                       ({"type": "gain", "player": "p1"}, "whole number"),
                       ({"type": "fly"}, "knows the events")):
        assert words in entry(client, game, bad, status=400)["message"]
    for _ in range(30):
        game = entry(client, game, {"type": "end_turn"})
    assert game["status"] == "finished" and game["winners"] == ["p1", "p2"]  # 0–0: shared
    assert "30 player turns" in entry(client, game, {"type": "end_turn"}, status=400)["message"]
    stale = entry(client, game, {"type": "undo"}, version=3, status=409)
    assert stale["kind"] == "VersionConflictError"
    after = ok(client.get(f"{BASE}/games/{game['id']}"))
    assert after["version"] == 30 and len(after["events"]) == 30
    assert "never" not in error_of(client.post(f"{BASE}/games/{game['id']}/events", json={}), 400)["message"]
    missing = error_of(client.post(f"{BASE}/games/999/events", json={"event": {"type": "end_turn"}}), 404)
    assert missing["kind"] == "NotFoundError" and "999" in missing["message"]
    # The store's catalogue message survives the 404: a German device reads it in German.
    german = error_of(client.get(f"{BASE}/games/999", headers={"Accept-Language": "de"}), 404)
    assert german["message"] == "Es gibt kein Spieleabend-Spiel mit der Nummer 999."


def test_a_score_sheet_and_a_generic_game_are_logged_in_one_go(client):
    sheet = create(client, game="immortal_gameogami", players=["Ani", "Ben", "Cem"],
                   started_at="2026-11-24T19:00:00Z", ended_at="2026-11-24T20:05:00Z",
                   events=[{"type": "act", "act": 1, "tokens": {"p1": 5, "p2": 4, "p3": 2}},
                           {"type": "act", "act": 2, "tokens": {"p1": 8, "p2": 8, "p3": 3},
                            "levels": {"p1": 10, "p2": 10}}])
    assert sheet["status"] == "finished" and sheet["winners"] == ["p1", "p2"] and sheet["minutes"] == 65
    tie = error_of(client.post(f"{BASE}/games", json={
        "game": "immortal_gameogami", "players": ["Ani", "Ben"],
        "events": [{"type": "act", "act": 1, "tokens": {"p1": 2, "p2": 2}},
                   {"type": "act", "act": 2, "tokens": {"p1": 4, "p2": 4}}]}), 400)
    assert "card levels" in tie["message"]  # Act Two's tie; Act One's is a complete tie (level I only)
    impossible = error_of(client.post(f"{BASE}/games", json={
        "game": "immortal_gameogami", "players": ["Ani", "Ben"],
        "events": [{"type": "act", "act": 1, "tokens": {"p1": 2, "p2": 1}},
                   {"type": "act", "act": 2, "tokens": {"p1": 9, "p2": 9}, "levels": {"p1": 5, "p2": 20}}]}), 400)
    assert "between 9 and 27, not 5" in impossible["message"]
    generic = create(client, game="generic", name="Carcassonne", players=["Ani", "Ben"], notes="close",
                     events=[{"type": "result", "scores": {"p1": 80, "p2": 95}}])
    assert generic["winners"] == ["p2"] and generic["name"] == "Carcassonne"
    assert len(ok(client.get(f"{BASE}/games"))) == 2  # the refused one left nothing behind


def test_bad_games_are_refused(client):
    cases = [({"game": "chess", "players": ["A", "B"]}, "one of the built-in games"),
             ({"game": "amrtaka", "players": ["A", "B", "C", "D", "E"]}, "2 to 4 players"),
             ({"game": "amrtaka", "players": ["A", "a"]}, "same name"),
             ({"game": "generic", "players": ["A"]}, "name"),
             ({"game": "amrtaka", "players": [{"person_id": 77}, "B"]}, "nobody with number 77"),
             ({"game": "amrtaka", "players": ["A", "B"], "started_at": "yesterday"}, "date and time"),
             ({"game": "amrtaka", "players": ["A", "B"], "colour": "red"}, "colour")]
    for body, words in cases:
        assert words in error_of(client.post(f"{BASE}/games", json=body), 400)["message"], body
    assert ok(client.get(f"{BASE}/games")) == []


def test_wrath_power_and_foils(client):
    game = create(client, game="wrath_of_the_immortals", players=["Ani", "Ben", "Cem"])
    assert [p["score"] for p in game["players"]] == [16, 16, 16]
    refused = entry(client, game, {"type": "power", "player": "p2", "delta": -20}, status=400)
    assert refused["message"].startswith("Ben has 16 power points")  # named as the table knows them
    german = error_of(client.post(f"{BASE}/games/{game['id']}/events", headers={"Accept-Language": "de"},
                                  json={"event": {"type": "power", "player": "p2", "delta": -20}}), 400)
    assert german["message"].startswith("Ben hat 16 Machtpunkte")
    game = entry(client, game, {"type": "foil", "actor": "p1", "foiler": "p2",
                                "actor_side": {"immortal": 16, "resources": 2, "powers": 0},
                                "foiler_side": {"immortal": 16, "resources": 0, "powers": 3, "roll": 9}})
    foil = game["state"]["foils"][0]
    assert foil["outcome"] in ("foiled", "succeeds", "reroll")
    rolled = game["events"][-1]["actor_side"]["roll"]
    assert 1 <= rolled <= 20 and foil["actor_total"] == rolled + 18 and foil["foiler_total"] == 28
    game = entry(client, game, {"type": "power", "player": "p2", "set": 0})
    game = entry(client, game, {"type": "power", "player": "p3", "set": 0})
    assert game["winners"] == ["p1"] and game["state"]["end"] == "others_at_zero"


def test_edit_photo_and_delete(client, data_dir):
    game = create(client, game="generic", name="Azul", players=["Ani", "Ben"],
                  events=[{"type": "result", "winners": ["p1"]}])
    person = ok(client.post("/api/people", json={"name": "Benedikt"}), 201)
    edited = ok(client.patch(f"{BASE}/games/{game['id']}", json={
        "notes": "rematch!", "players": [{"name": "Ani"}, {"person_id": person["id"]}]}))
    assert edited["notes"] == "rematch!" and edited["players"][1]["person"]["id"] == person["id"]
    assert "scores change" in error_of(client.patch(f"{BASE}/games/{game['id']}", json={"winners": []}), 400)["message"]
    assert "before it started" in error_of(client.patch(f"{BASE}/games/{game['id']}", json={
        "ended_at": "2000-01-01T00:00:00Z"}), 400)["message"]
    assert "JPEG or PNG" in error_of(client.put(f"{BASE}/games/{game['id']}/photo", data=b"GIF89a..."), 400)["message"]
    with_photo = ok(client.put(f"{BASE}/games/{game['id']}/photo", data=PNG, content_type="image/png"))
    assert with_photo["photo"] is True
    assert client.get(f"{BASE}/games/{game['id']}/photo").data == PNG
    photos = list((data_dir / "tabletop-photos").iterdir())
    assert len(photos) == 1
    assert client.delete(f"{BASE}/games/{game['id']}").status_code == 204
    assert not photos[0].exists()
    error_of(client.get(f"{BASE}/games/{game['id']}"), 404)
    error_of(client.delete(f"{BASE}/games/{game['id']}"), 404)


def test_statistics_exports_and_bg_stats(client):
    ani = ok(client.post("/api/people", json={"name": "Ani"}), 201)
    for winner in ("p1", "p2", "p1"):
        create(client, game="generic", name="Azul", players=[{"person_id": ani["id"]}, {"name": "Ben"}],
               started_at="2026-11-24T19:00:00Z", ended_at="2026-11-24T19:30:00Z",
               events=[{"type": "result", "winners": [winner]}])
    main_game = ok(client.post("/api/games", json={"players": PLAYERS, "first_player": "red"}), 201)["id"]
    stats = ok(client.get(f"{BASE}/stats"))
    assert next(g for g in stats["games"] if g["key"] == "immortals")["plays"] == 1 and main_game
    azul = next(g for g in stats["games"] if g["key"] == "azul")
    assert azul["plays"] == 3 and azul["average_minutes"] == 30
    me = next(p for p in stats["people"] if p["id"] == ani["id"])
    assert me["wins"] == 2 and me["win_rate"] == 0.667 and me["whole_night"]["plays"] == 3

    rows = list(csv.DictReader(io.StringIO(client.get("/api/export/tabletop_players.csv").get_data(as_text=True))))
    assert len(rows) == 6 and rows[0]["person"] == "Ani" and rows[0]["winner"] in ("yes", "no")
    everything = ok(client.get("/api/export/all.json"))
    assert len(everything["tabletop_games"]) == 3

    game = ok(client.get(f"{BASE}/games"))[0]
    link = ok(client.get(f"{BASE}/games/{game['id']}/bgstats"))
    data = json.loads(parse_qs(urlparse(link["url"]).query)["data"][0])
    assert data == link["data"] and data["game"]["name"] == "Azul" and data["durationMin"] == 30
    assert "bggId" not in data["game"]  # unset: left out, never guessed
    assert "BoardGameGeek" in error_of(client.put(f"{BASE}/bgg-ids", json={"ids": {"azul": -1}}), 400)["message"]
    ok(client.put(f"{BASE}/bgg-ids", json={"ids": {"Azul": 230802}}))
    assert ok(client.get(f"{BASE}/games/{game['id']}/bgstats"))["data"]["game"]["bggId"] == 230802


def test_nights_group_the_games_of_an_evening(client):
    create(client, game="generic", name="Azul", players=["A", "B"], started_at="2026-11-24T20:00:00+01:00",
           events=[{"type": "result", "winners": ["p1"]}])
    nights = ok(client.get(f"{BASE}/nights"))
    assert sum(n["games"] for n in nights) == 1
    assert len(ok(client.get(f"{BASE}/games", query_string={"night": nights[0]["night"]}))) == 1
    assert ok(client.get(f"{BASE}/games", query_string={"night": "2001-01-01"})) == []
    error_of(client.get(f"{BASE}/games", query_string={"night": "soon"}), 400)


def test_changes_need_the_table_pin_but_reading_does_not(app, client):
    guest = guest_client(app)
    game = create(client, game="amrtaka", players=["Ani", "Ben"])
    assert guest.post(f"{BASE}/games", json={"game": "amrtaka", "players": ["A", "B"]}).status_code == 401
    assert guest.post(f"{BASE}/games/{game['id']}/events", json={"event": {"type": "end_turn"}}).status_code == 401
    assert guest.put(f"{BASE}/games/{game['id']}/photo", data=PNG).status_code == 401
    assert guest.delete(f"{BASE}/games/{game['id']}").status_code == 401
    assert ok(guest.get(f"{BASE}/games/{game['id']}"))["version"] == 0
