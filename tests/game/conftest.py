"""Fixtures and helpers for the rules engine tests: a game played up to a chosen phase."""

from __future__ import annotations

from typing import Any

import pytest

from companion.game.engine import decide, evolve
from companion.game.state import GameState

PLAYERS = [
    {"color": "red", "name": "Dirk", "light_tribe": "elves", "dark_tribe": "demons"},
    {"color": "blue", "name": "Ani", "light_tribe": "dwarves", "dark_tribe": "orcs"},
    {"color": "purple", "name": "Mike", "light_tribe": "light-tribe-3", "dark_tribe": "night_elves"},
]
START = {"red": None, "blue": "mountainhome", "purple": "white-falls"}  # elves: board knows treehome


def run(state: GameState | None, **command: Any) -> GameState:
    """Decide and fold one command (the way the store does it)."""
    return evolve(state, decide(state, command))


def new_game(players=PLAYERS, **extra) -> GameState:
    return run(None, type="new_game", players=players, first_player=players[0]["color"], **extra)


def deployed(state: GameState | None = None) -> GameState:
    """Start regions, one draft round (each player one region), finished."""
    s = state or new_game()
    for color in s.colors:
        cmd = {"type": "deploy_start", "player": color, "armies": 6}
        if START.get(color):
            cmd["region"] = START[color]
        s = run(s, **cmd)
    drafts = {"red": ("borderland", "light"), "blue": ("shore-lake", "light"), "purple": ("the-murk", "dark")}
    for color in s.order_from(s.turn):
        region, realm = drafts[color]
        s = run(s, type="deploy", player=color, region=region, realm=realm, armies=5)
    return run(s, type="finish_deployment")


def seeded(state: GameState | None = None, tray: dict | None = None) -> GameState:
    s = deployed(state)
    for color in s.colors:
        s = run(s, type="starting_resources", player=color, gold=7, energy=9)
    tray = tray or {"red": 2, "blue": 3, "purple": 1, "green": 4}
    split = {c: {"light": tray.get(c, 0), "dark": 0} for c in s.colors}
    return run(s, type="seed_tower", tray=tray, limbo_split=split)


def in_actions(state: GameState | None = None) -> GameState:
    s = seeded(state)
    for color in s.order_from(s.turn):
        s = run(s, type="reinforce", player=color, placements=[])
    return run(s, type="start_actions")


@pytest.fixture
def game() -> GameState:
    return new_game()


@pytest.fixture
def actions_state() -> GameState:
    return in_actions()


def fix(state: GameState, **changes: Any) -> GameState:
    """A logged correction (the table is the truth) to set up a position."""
    return run(state, type="correct", reason="test position", **changes)


def to_turn(state: GameState, color: str) -> GameState:
    """Forfeit (energy) with every player before ``color``."""
    while state.turn != color:
        state = run(state, type="forfeit", player=state.turn, compensation="energy")
    return state


def conserved(state: GameState) -> bool:
    totals = state.cube_totals()
    return all(
        sum(v.values()) - 2 * v["unaccounted"] == (20 if c == "green" else 43) for c, v in totals.items()
    )
