"""Create exactly once (issue 12): ``POST /api/games`` with an ``Idempotency-Key`` retried after
a lost answer, a restart or a power cut returns the game it made and never a second one."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from companion.store.log import GameLog

from .conftest import PLAYERS, command, error_of, guest_client, make_app, ok

BODY = {"players": PLAYERS, "first_player": "red"}
KEY = {"Idempotency-Key": "3f0c2a7e-9d1b-4c55-8e0a-6b2f9c1d4e77"}


def games(client) -> list[int]:
    return [g["id"] for g in ok(client.get("/api/games"))]


def test_a_retry_with_the_same_key_returns_the_same_game_and_creates_nothing(client):
    first = client.post("/api/games", json=BODY, headers=KEY)
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    again = client.post("/api/games", json=BODY, headers=KEY)
    assert again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert games(client) == [first.get_json()["id"]]


def test_the_retry_gets_the_game_as_it_was_created_even_after_moves(client):
    first = ok(client.post("/api/games", json=BODY, headers=KEY), 201)
    command(client, first["id"], type="deploy_start", player="red", armies=6)
    again = ok(client.post("/api/games", json=BODY, headers=KEY), 201)
    assert again == first and again["state"]["version"] == 1


def test_the_same_key_for_another_game_is_refused_and_creates_nothing(client):
    made = ok(client.post("/api/games", json=BODY, headers=KEY), 201)["id"]
    other = {**BODY, "first_player": "blue"}
    error = error_of(client.post("/api/games", json=other, headers=KEY), 409)
    assert error["kind"] == "CreateKeyReusedError"
    assert f"game number {made}" in error["message"] and "new key" in error["message"]
    assert games(client) == [made]


def test_key_order_and_spacing_of_the_body_do_not_matter(client):
    made = ok(client.post("/api/games", json=BODY, headers=KEY), 201)["id"]
    reordered = '{"first_player": "red",  "players": %s}' % json.dumps(PLAYERS)
    again = client.post("/api/games", data=reordered, content_type="application/json", headers=KEY)
    assert ok(again, 201)["id"] == made


def test_without_a_key_every_post_is_a_new_game(client):
    a = ok(client.post("/api/games", json=BODY), 201)["id"]
    b = ok(client.post("/api/games", json=BODY), 201)["id"]
    assert a != b and sorted(games(client)) == sorted([a, b])


def test_the_key_survives_a_restart(data_dir):
    app = make_app(data_dir)
    try:
        first = ok(app.test_client().post("/api/games", json=BODY, headers=KEY), 201)
    finally:
        app.extensions["companion"].close()
    again = make_app(data_dir)
    try:
        client = again.test_client()
        assert ok(client.post("/api/games", json=BODY, headers=KEY), 201) == first
        assert games(client) == [first["id"]]
    finally:
        again.extensions["companion"].close()


@pytest.mark.parametrize("key", ["", " ", "a key with spaces", "x" * 256, "ümlaut"])
def test_an_unusable_key_is_400_and_creates_nothing(client, key):
    answer = client.post("/api/games", json=BODY, headers={"Idempotency-Key": key})
    assert error_of(answer, 400)["kind"] == "MalformedRequestError"
    assert games(client) == []


def test_the_quoted_structured_field_form_is_the_same_key(client):
    made = ok(client.post("/api/games", json=BODY, headers={"Idempotency-Key": '"abc-1"'}), 201)["id"]
    assert ok(client.post("/api/games", json=BODY, headers={"Idempotency-Key": "abc-1"}), 201)["id"] == made


def test_a_refused_create_does_not_use_up_its_key(app, client):
    error_of(guest_client(app).post("/api/games", json=BODY, headers=KEY), 401)  # no PIN
    error_of(client.post("/api/games", json={"players": PLAYERS[:1], "first_player": "red"},
                         headers=KEY), 400)  # the rules refuse one player
    made = client.post("/api/games", json=BODY, headers=KEY)
    assert made.status_code == 201 and "Idempotent-Replayed" not in made.headers


def test_concurrent_retries_with_one_key_make_one_game(app):
    clients = [app.test_client() for _ in range(6)]
    barrier = threading.Barrier(len(clients))
    ids: list[int] = []

    def create(c) -> None:
        barrier.wait()
        ids.append(ok(c.post("/api/games", json=BODY, headers=KEY), 201)["id"])

    threads = [threading.Thread(target=create, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(ids) == 6 and len(set(ids)) == 1
    assert games(clients[0]) == ids[:1]


def test_the_key_is_written_with_the_game_and_can_never_move(data_dir, client):
    made = ok(client.post("/api/games", json=BODY, headers=KEY), 201)["id"]
    conn = sqlite3.connect(data_dir / "companion.sqlite3")
    try:
        row = conn.execute("SELECT game_id, length(fingerprint) FROM create_keys WHERE key = ?",
                           (KEY["Idempotency-Key"],)).fetchone()
        assert row == (made, 64)
        for statement in ("UPDATE create_keys SET game_id = 99", "DELETE FROM create_keys"):
            with pytest.raises(sqlite3.IntegrityError, match="always names the game"):
                conn.execute(statement)
    finally:
        conn.close()


def test_the_log_creates_at_most_once_per_key(tmp_path):
    event = {"type": "new_game", "x": 1}
    with GameLog(tmp_path / "g.sqlite3") as log:
        first = log.create_game_once("k", "f1", "A game", first_event=event)
        assert first == (1, True)
        assert log.create_game_once("k", "f1", "A game", first_event=event) == (1, False)
        assert len(log.games()) == 1 and len(log.events(1)) == 1
