"""The roster over the API: add, rename, merge, link a game's colours; errors change nothing."""

from __future__ import annotations

from ..conftest import error_of, new_game, ok


def test_roster_round_trip(client) -> None:
    assert ok(client.get("/api/people")) == []
    ana = ok(client.post("/api/people", json={"name": "Ana", "short_name": "A"}), 201)
    bob = ok(client.post("/api/people", json={"name": "Bob"}), 201)
    assert error_of(client.post("/api/people", json={"name": "ana"}), 400)["kind"] == "DuplicatePersonError"
    error_of(client.post("/api/people", json={"name": ""}), 400)
    assert ok(client.patch(f"/api/people/{ana['id']}", json={"name": "Anna"}))["name"] == "Anna"
    error_of(client.patch("/api/people/99", json={"name": "X"}), 404)
    error_of(client.get("/api/people/99"), 404)

    game = new_game(client)
    seats = ok(client.put(f"/api/games/{game}/people", json={"people": {"red": ana["id"], "blue": bob["id"]}}))
    assert [(s["color"], (s["person"] or {}).get("name")) for s in seats["seats"]] == [
        ("red", "Anna"), ("blue", "Bob"), ("purple", None)]
    error_of(client.put(f"/api/games/{game}/people", json={"people": {"purple": ana["id"]}}), 400)
    error_of(client.put(f"/api/games/{game}/people", json={"people": {"red": 99}}), 404)
    error_of(client.put("/api/games/999/people", json={"people": {}}), 404)
    assert ok(client.get(f"/api/games/{game}/people")) == seats  # refusals changed nothing

    # Bob turns out to be Anna's old second entry in another game: merge, the game follows.
    other = new_game(client)
    ok(client.put(f"/api/games/{other}/people", json={"people": {"red": bob["id"]}}))
    error_of(client.post(f"/api/people/{bob['id']}/merge", json={"into": ana["id"]}), 400)  # both in game 1
    ok(client.put(f"/api/games/{game}/people", json={"people": {"blue": None}}))
    merged = ok(client.post(f"/api/people/{bob['id']}/merge", json={"into": ana["id"]}))
    assert merged["id"] == ana["id"] and merged["games"] == 2
    assert [p["name"] for p in ok(client.get("/api/people"))] == ["Anna"]
    people = ok(client.get("/api/stats/people"))["people"]
    assert people[0]["games"] == 2 and people[0]["wins"] is None  # no finished game: no made-up 0
    error_of(client.post(f"/api/people/{ana['id']}/merge", json={}), 400)


def test_cached_statistics_follow_every_change(client) -> None:
    ana = ok(client.post("/api/people", json={"name": "Ana"}), 201)
    assert [p["name"] for p in ok(client.get("/api/stats/people"))["people"]] == ["Ana"]
    ok(client.patch(f"/api/people/{ana['id']}", json={"name": "Ana Maria"}))  # same count, new text
    assert [p["name"] for p in ok(client.get("/api/stats/people"))["people"]] == ["Ana Maria"]
    game = new_game(client)
    assert ok(client.get("/api/stats"))["games"]["total"] == 1
    ok(client.put(f"/api/games/{game}/people", json={"people": {"red": ana["id"]}}))
    assert ok(client.get("/api/stats/people"))["people"][0]["games"] == 1
