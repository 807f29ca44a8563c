"""``GET /api/events`` through the test client: framing, catch-up on connect, Last-Event-ID,
live state events after a command, pings, and every refusal."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

from ..conftest import command, error_of, make_app, new_game


def chunks(response) -> Iterator[str]:
    for chunk in response.response:
        yield chunk.decode() if isinstance(chunk, bytes) else chunk


def fields(chunk: str) -> dict[str, str]:
    out = {}
    for line in chunk.strip("\n").split("\n"):
        key, _, value = line.partition(": ")
        out[key] = value
    return out


def until_state(stream: Iterator[str], version: int, limit: int = 100) -> dict[str, str]:
    """Read on until the state event of ``version`` (a state event may come twice: the relay
    is asynchronous). Bounded: pings arrive every 0.2 s, so this gives up after ~20 s."""
    for _ in range(limit):
        message = fields(next(stream))
        if message.get("event") == "state" and message["id"] == str(version):
            return message
    raise AssertionError(f"no state event for version {version}")


def open_stream(client, url, **headers):
    response = client.get(url, headers=headers, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    return response


def test_stream_starts_with_retry_tower_and_the_current_state(client):
    game = new_game(client)
    response = open_stream(client, f"/api/events?game={game}")
    stream = chunks(response)
    assert next(stream).startswith("retry: ")
    tower = fields(next(stream))
    assert tower["event"] == "tower" and json.loads(tower["data"])["simulated"] is True
    state = fields(next(stream))
    assert state["event"] == "state" and state["id"] == "1"
    assert json.loads(state["data"]) == {"game": game, "version": 1}
    response.close()


def test_a_command_reaches_an_open_stream(client):
    game = new_game(client)
    response = open_stream(client, f"/api/events?game={game}")
    stream = chunks(response)
    for _ in range(3):  # retry, tower, state 1
        next(stream)
    command(client, game, type="deploy_start", player="red", armies=6)
    message = until_state(stream, 2)
    assert json.loads(message["data"]) == {"game": game, "version": 2, "type": "deploy_start",
                                           "news": "Dirk set up 6 armies in the start region Treehome"}
    response.close()


def test_last_event_id_at_the_current_version_skips_the_catch_up(client):
    game = new_game(client)
    response = open_stream(client, f"/api/events?game={game}", **{"Last-Event-ID": "1"})
    stream = chunks(response)
    next(stream)  # retry
    assert fields(next(stream))["event"] == "tower"
    while (chunk := next(stream)).startswith("event: tower"):
        pass  # the relay may publish the tower status once more
    assert chunk == ": ping\n\n"  # no state event: the device is up to date
    response.close()


def test_last_event_id_behind_gets_the_current_state(client):
    game = new_game(client)
    command(client, game, type="deploy_start", player="red", armies=6)
    response = open_stream(client, f"/api/events?game={game}", **{"Last-Event-ID": "1"})
    stream = chunks(response)
    next(stream), next(stream)
    assert fields(next(stream))["id"] == "2"
    response.close()


def test_stream_for_one_game_ignores_other_games(client):
    one, other = new_game(client), new_game(client)
    response = open_stream(client, f"/api/events?game={one}", **{"Last-Event-ID": "1"})
    stream = chunks(response)
    next(stream), next(stream)
    command(client, other, type="deploy_start", player="red", armies=6)
    command(client, one, type="deploy_start", player="red", armies=6)
    seen = []
    for _ in range(100):
        message = fields(next(stream))
        if message.get("event") == "state":
            seen.append(json.loads(message["data"]))
            if message["id"] == "2":
                break
    assert seen and all(m["game"] == one for m in seen)
    response.close()


def test_closing_the_stream_frees_its_slot(app, client):
    hub = app.extensions["companion"].hub
    response = open_stream(client, "/api/events")
    stream = chunks(response)
    next(stream)
    assert hub.client_count == 1
    response.close()
    assert hub.client_count == 0


def test_unknown_game_and_bad_parameter_are_refused_before_streaming(client):
    assert error_of(client.get("/api/events?game=12"), 404)["kind"] == "GameNotFoundError"
    assert error_of(client.get("/api/events?game=twelve"), 400)["kind"] == "MalformedRequestError"


def test_too_many_streams_is_503(tmp_path):
    app = make_app(tmp_path / "data", SSE_MAX_CLIENTS=1)
    try:
        client = app.test_client()
        first = open_stream(client, "/api/events")
        next(chunks(first))
        error = error_of(client.get("/api/events"), 503)
        assert error["kind"] == "StreamUnavailableError"
        first.close()
    finally:
        app.extensions["companion"].close()


def test_shutdown_ends_open_streams(app, client):
    response = open_stream(client, "/api/events")
    stream = chunks(response)
    next(stream)
    ended = threading.Event()

    def drain() -> None:
        for _ in stream:
            pass
        ended.set()

    threading.Thread(target=drain, daemon=True).start()
    app.extensions["companion"].close()
    assert ended.wait(timeout=5)


def test_a_reconnecting_page_names_its_last_event_in_the_url_and_hears_what_it_missed(client):
    game = new_game(client)
    command(client, game, type="deploy_start", player="red", armies=6)
    command(client, game, type="deploy_start", player="blue", armies=6, region="mountainhome")
    response = open_stream(client, f"/api/events?game={game}&last_event_id=1&client=tab-7")
    stream = chunks(response)
    message = until_state(stream, 3)
    assert json.loads(message["data"]) == {"game": game, "version": 3,
                                           "news": "Dirk set up 6 armies in the start region Treehome; "
                                           "Ani set up 6 armies in the start region Mountainhome"}
    response.close()


def test_a_malformed_client_id_is_400(client):
    game = new_game(client)
    error = error_of(client.get(f"/api/events?game={game}&client=a%20b"), 400)
    assert error["kind"] == "MalformedRequestError" and "client" in error["message"]
