"""A tiny stand-in game for testing the service's mechanics apart from the real rules.

Commands: ``new_game {title?, players: [colour]}``, ``add {player, n}`` (refused when n < 1 or
the player is unknown), ``battle {attacker, defender, counts, camera?}``, ``finish``,
``explode`` (decide accepts it, evolve raises: a bug after decide). States are frozen values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

from companion.store import BattleRecord, GameMeta, ReadingRecord


class FakeRuleError(ValueError):
    """The fake game refuses a command."""


@dataclass(frozen=True)
class FakeState:
    title: str
    players: tuple[str, ...]
    version: int = 0
    totals: Mapping[str, int] = field(default_factory=dict)
    finished: bool = False


class FakeRules:
    def __init__(self) -> None:
        self.evolve_calls = 0

    def parse(self, data: Mapping[str, Any]) -> SimpleNamespace:
        if not isinstance(data, Mapping) or data.get("type") not in (
            "new_game", "add", "battle", "finish", "explode", "board_echo",
        ):
            raise FakeRuleError("There is no such command.")
        return SimpleNamespace(**data)

    def decide(self, state: FakeState | None, cmd: SimpleNamespace) -> dict[str, Any]:
        if cmd.type == "new_game":
            if state is not None:
                raise FakeRuleError("The game has already started.")
            return {"type": "new_game", "title": getattr(cmd, "title", ""),
                    "players": list(cmd.players), "board": cmd.board}
        if state is None:
            raise FakeRuleError("Start a game first.")
        if state.finished:
            raise FakeRuleError("The game is over.")
        if cmd.type == "add":
            if cmd.player not in state.players or not isinstance(cmd.n, int) or cmd.n < 1:
                raise FakeRuleError("That cannot be added.")
            return {"type": "add", "player": cmd.player, "n": cmd.n}
        if cmd.type == "battle":
            return {"type": "battle", "attacker": cmd.attacker, "defender": cmd.defender,
                    "counts": cmd.counts, "camera": getattr(cmd, "camera", None)}
        return {"type": cmd.type}

    def evolve(self, state: FakeState | None, event: dict[str, Any]) -> FakeState:
        self.evolve_calls += 1
        if event["type"] == "new_game":
            return FakeState(event["title"], tuple(event["players"]), version=1)
        assert state is not None
        if event["type"] == "explode":
            raise RuntimeError("a bug in evolve")
        totals = dict(state.totals)
        if event["type"] == "add":
            totals[event["player"]] = totals.get(event["player"], 0) + event["n"]
        return replace(state, version=state.version + 1, totals=totals,
                       finished=state.finished or event["type"] == "finish")

    def replay(self, events: Sequence[dict[str, Any]]) -> FakeState:
        state = None
        for e in events:
            state = self.evolve(state, e)
        assert state is not None
        return state

    def board_snapshot(self, board: Any) -> dict[str, Any]:
        return {"fake": True} if board is None else dict(board)

    def title(self, state: FakeState) -> str:
        return state.title or "untitled"

    def meta(self, state: FakeState) -> GameMeta:
        players = [{"color": c, "vp": state.totals.get(c, 0)} for c in state.players]
        if not state.finished:
            return GameMeta(round=state.version, players=players)
        best = max((state.totals.get(c, 0) for c in state.players), default=0)
        winners = [c for c in state.players if state.totals.get(c, 0) == best]
        return GameMeta("finished", state.version, players, {"winners": winners})

    def battle(self, before: FakeState, event: dict[str, Any], after: FakeState) -> BattleRecord | None:
        if event["type"] != "battle":
            return None
        return BattleRecord(event["attacker"], event["defender"], "neutral", event["counts"],
                            "attacker", camera_counts=event["camera"])

    def reading(self, before: FakeState, event: dict[str, Any], after: FakeState) -> ReadingRecord | None:
        return None  # no seeding in this game; a battle's reading comes with its record
