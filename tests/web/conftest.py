"""Fixtures for the web tests: an app on a temporary DATA_DIR with a seeded simulated tower,
its test client, and helpers that play a 3-player game through the API up to a chosen point.

Every app made here has the table PIN :data:`TABLE_PIN`, and ``app.test_client()`` is a device
that entered it (it signs in through ``POST /api/session`` when made); :func:`guest_client` is
a device that did not (a spectator)."""

from __future__ import annotations

import json
import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.config import Settings
from companion.web import create_app
from companion.web.auth import pin_store

PLAYERS = [
    {"color": "red", "name": "Dirk", "light_tribe": "elves", "dark_tribe": "demons"},
    {"color": "blue", "name": "Ani", "light_tribe": "dwarves", "dark_tribe": "orcs"},
    {"color": "purple", "name": "Mike", "light_tribe": "light-tribe-3", "dark_tribe": "night_elves"},
]
# The board knows the elves' start region (Treehome); the others are entered with the command.
START = {"red": None, "blue": "mountainhome", "purple": "white-falls"}
DRAFTS = {"red": ("borderland", "light"), "blue": ("shore-lake", "light"), "purple": ("the-murk", "dark")}
SEED_TRAY = {"red": 2, "blue": 3, "purple": 1, "green": 4}

TABLE_PIN = "4711"

# Short live-update knobs so tests await events instead of sleeping through pings.
FAST = {"SSE_PING_SECONDS": 0.2, "SSE_RETRY_MS": 100, "TOWER_POLL_SECONDS": 0.2, "COUNT_TIMEOUT": 10.0}


def simulated_tower(data_dir: Path, seed: int = 7) -> Any:
    from companion.hw.tower import Tower

    settings = Settings(data_dir=data_dir, camera="synthetic", gpio="mock")
    return Tower.from_settings(settings, environ={"COMPANION_SIM_SEED": str(seed)})


def make_app(data_dir: Path, **overrides: Any) -> Flask:
    config: dict[str, Any] = {
        "TESTING": True,
        "DATA_DIR": data_dir,
        "SETTINGS": Settings(data_dir=data_dir, camera="synthetic", gpio="mock"),
        **FAST,
    }
    config.setdefault("TOWER", simulated_tower(data_dir))
    config.setdefault("PIN", TABLE_PIN)
    config.update(overrides)
    app = create_app(config)
    app.test_client_class = SignedInClient
    return app


class SignedInClient(FlaskClient):
    """A test client of a device that has entered the table PIN (signed in when made)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pin = pin_store(self.application).credentials().pin  # as the host reads it off the console
        ok(self.post("/api/session", json={"pin": pin}))


def guest_client(app: Flask) -> FlaskClient:
    """A device that has not entered the PIN: it may watch, not change."""
    return FlaskClient(app, app.response_class, use_cookies=True)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def app(data_dir: Path) -> Iterator[Flask]:
    app = make_app(data_dir)
    yield app
    app.extensions["companion"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


# -- playing through the API -------------------------------------------------------------------


def ok(response: Any, status: int = 200) -> Any:
    """The JSON of a response that must have succeeded (shows the error message if not)."""
    assert response.status_code == status, response.get_data(as_text=True)
    return response.get_json()


def error_of(response: Any, status: int) -> dict[str, str]:
    assert response.status_code == status, response.get_data(as_text=True)
    body = response.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"kind", "message"}
    assert body["error"]["message"].strip(), "the message must say something"
    return body["error"]


def command(client: FlaskClient, game: int, **cmd: Any) -> dict[str, Any]:
    return ok(client.post(f"/api/games/{game}/commands", json={"command": cmd}))


def state_of(client: FlaskClient, game: int) -> dict[str, Any]:
    return ok(client.get(f"/api/games/{game}"))["state"]


def new_game(client: FlaskClient, **extra: Any) -> int:
    body = ok(client.post("/api/games", json={"players": PLAYERS, "first_player": "red", **extra}), 201)
    return body["id"]


def deployed(client: FlaskClient) -> int:
    game = new_game(client)
    for color in [p["color"] for p in PLAYERS]:
        cmd: dict[str, Any] = {"type": "deploy_start", "player": color, "armies": 6}
        if START[color]:
            cmd["region"] = START[color]
        command(client, game, **cmd)
    for _ in PLAYERS:
        turn = state_of(client, game)["turn"]
        region, realm = DRAFTS[turn]
        command(client, game, type="deploy", player=turn, region=region, realm=realm, armies=5)
    command(client, game, type="finish_deployment")
    return game


def to_seeding(client: FlaskClient) -> int:
    game = deployed(client)
    for p in PLAYERS:
        command(client, game, type="starting_resources", player=p["color"], gold=7, energy=9)
    return game


def seeded(client: FlaskClient, tray: dict[str, int] | None = None) -> int:
    game = to_seeding(client)
    tray = tray or SEED_TRAY
    split = {p["color"]: {"light": tray.get(p["color"], 0), "dark": 0} for p in PLAYERS}
    command(client, game, type="seed_tower", tray=tray, limbo_split=split)
    return game


def in_actions(client: FlaskClient) -> int:
    game = seeded(client)
    for _ in PLAYERS:
        turn = state_of(client, game)["turn"]
        command(client, game, type="reinforce", player=turn, placements=[])
    command(client, game, type="start_actions")
    return game


def attack_declared(client: FlaskClient) -> int:
    """The others pass until red's turn; red attacks purple in White Falls (light) from
    Borderland with 3 armies, the card shows the target (inhabitants fight for red)."""
    game = in_actions(client)
    while (turn := state_of(client, game)["turn"]) != "red":
        command(client, game, type="pass", player=turn, compensation="gold")
    command(
        client, game, type="attack", player="red", source="borderland", target="white-falls",
        realm="light", armies=3, card="target",
    )
    return game


# -- live updates ------------------------------------------------------------------------------


class EventCollector:
    """Subscribes to the hub like a device would and hands messages over a queue."""

    def __init__(self, app: Flask, game: int | None = None) -> None:
        self.hub = app.extensions["companion"].hub
        self.sub = self.hub.subscribe(game)

    def next(self, event: str, timeout: float = 5.0) -> dict[str, Any]:
        while True:
            try:
                message = self.sub.queue.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no {event!r} event within {timeout} s") from None
            if getattr(message, "event", None) == event:
                return json.loads(json.dumps(message.data))

    def close(self) -> None:
        self.sub.close()
