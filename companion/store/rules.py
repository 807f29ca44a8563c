"""The rules a :class:`~companion.store.service.GameService` runs, behind one small interface.

:class:`Rules` is what the service needs from a game: parse, decide, evolve, replay, plus the
projections the store keeps beside each event (the game's summary row and, for a resolved
battle, a battle record). :class:`EngineRules` is the real one over :mod:`companion.game`;
tests may pass their own (as gpiozero tests pass a mock pin factory).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from companion.store.records import BattleRecord, GameMeta, ReadingRecord


class Rules(Protocol):
    def parse(self, data: Mapping[str, Any]) -> Any:
        """A typed command; raises a ``ValueError`` subclass for a malformed one."""

    def decide(self, state: Any | None, command: Any) -> dict[str, Any]:
        """The one event a command produces; raises the game's error to refuse it. Pure."""

    def evolve(self, state: Any | None, event: dict[str, Any]) -> Any:
        """The state after one event. Pure: ``state`` is not changed. ``.version`` counts events."""

    def replay(self, events: Sequence[dict[str, Any]]) -> Any:
        """The state after a whole stored log."""

    def board_snapshot(self, board: Any) -> dict[str, Any]:
        """The board dict stored in a new game: ``board`` (object or dict), else the default."""

    def title(self, state: Any) -> str:
        """The title listed for a new game."""

    def meta(self, state: Any) -> GameMeta:
        """The summary row of the game in this state."""

    def battle(self, before: Any, event: dict[str, Any], after: Any) -> BattleRecord | None:
        """A battle record when ``event`` resolved a battle, else ``None``."""

    def reading(self, before: Any, event: dict[str, Any], after: Any) -> ReadingRecord | None:
        """The tray reading of a throw that is not a battle (the seeding), else ``None``."""

    def stale_message(self, missed: Sequence[dict[str, Any]], state: Any = None) -> Any:
        """A sentence naming what ``missed`` (the events a stale command did not see) changed
        (a ``str``, or a :class:`companion.messages.Message` the API says in the device's
        language); ``state``, when given, is the game now (for the players' names)."""


class EngineRules:
    """:class:`Rules` over the real game engine (``companion.game``)."""

    def __init__(self) -> None:
        # Imported here so that the store (log, stats, exports) works without the engine.
        from companion.game import engine
        from companion.game.commands import parse_command

        self._engine = engine
        self._parse = parse_command

    def parse(self, data: Mapping[str, Any]) -> Any:
        return self._parse(data)

    def decide(self, state: Any | None, command: Any) -> dict[str, Any]:
        return self._engine.decide(state, command)

    def evolve(self, state: Any | None, event: dict[str, Any]) -> Any:
        return self._engine.evolve(state, event)

    def replay(self, events: Sequence[dict[str, Any]]) -> Any:
        return self._engine.replay(list(events))

    def board_snapshot(self, board: Any) -> dict[str, Any]:
        if board is None:
            from companion.game.board import load_board

            board = load_board()
        return board if isinstance(board, dict) else board.to_dict()

    def title(self, state: Any) -> str:
        return game_title(state)

    def meta(self, state: Any) -> GameMeta:
        return game_meta(state)

    def battle(self, before: Any, event: dict[str, Any], after: Any) -> BattleRecord | None:
        return battle_record(before, event, after)

    def reading(self, before: Any, event: dict[str, Any], after: Any) -> ReadingRecord | None:
        return seeding_reading(event)

    def stale_message(self, missed: Sequence[dict[str, Any]], state: Any = None) -> Any:
        from companion.game.reading import stale_message

        names = {p.color: p.name for p in getattr(state, "players", ())}
        return stale_message(list(missed), names=names, board=getattr(state, "board", None))


# -- projections of companion.game's GameState ------------------------------------------------


def game_title(state: Any) -> str:
    """The game's own title, else its players' names ("Ana, Ben and Cleo")."""
    title = (getattr(state, "title", "") or "").strip()
    if title:
        return title[:200]
    names = [p.name or p.color for p in state.players]
    if len(names) > 1:
        return f"{', '.join(names[:-1])} and {names[-1]}"[:200]
    return names[0] if names else "Game"


def game_meta(state: Any) -> GameMeta:
    players = [
        {
            "color": p.color,
            "name": p.name,
            "light_tribe": p.light_tribe,
            "dark_tribe": p.dark_tribe,
            "vp": p.vp,
        }
        for p in state.players
    ]
    result = state.result
    finished = state.phase == "over" and result is not None
    return GameMeta(
        status="finished" if finished else "active",
        round=state.round,
        players=players,
        result=dict(result) if finished else None,
    )


def battle_record(before: Any, event: dict[str, Any], after: Any) -> BattleRecord | None:
    """The record of a ``resolve_battle`` event.

    The engine's event carries ``battle`` (the pending battle: attacker, defender, stance,
    target, realm), ``reading`` (the counts the players confirmed), ``camera_counts`` (what the
    camera read, or null) and ``result`` (``winner`` null on a tie). ``before.battle`` is the
    fallback for who fought where.
    """
    if event.get("type") != "resolve_battle":
        return None
    pending = event.get("battle") or (before.battle if before is not None else None)
    if not pending:
        return None
    counts = event.get("reading")
    if counts is None:
        counts = (event.get("command") or {}).get("counts", {})
    camera = event.get("camera_counts")
    winner = (event.get("result") or {}).get("winner")
    stance = pending["stance"]
    return BattleRecord(
        attacker=pending["attacker"],
        defender=pending.get("defender") or None,
        stance=getattr(stance, "value", stance),  # the enum's value, never "Stance.NEUTRAL"
        tray_counts=dict(counts),
        camera_counts=None if camera is None else dict(camera),
        winner="tie" if winner is None else str(winner),
        round=getattr(before, "round", None),
        realm=pending.get("realm"),
        region=pending.get("target"),
    )


def seeding_reading(event: dict[str, Any]) -> ReadingRecord | None:
    """The tray reading of a ``seed_tower`` event: its command's ``tray`` (confirmed) and
    ``camera_counts``."""
    if event.get("type") != "seed_tower":
        return None
    command = event.get("command") or {}
    # The engine puts the shared reading's camera counts into the event; older logs only have
    # what the device sent.
    camera = event["camera_counts"] if "camera_counts" in event else command.get("camera_counts")
    return ReadingRecord(
        "seeding", dict(command.get("tray", {})), None if camera is None else dict(camera)
    )
