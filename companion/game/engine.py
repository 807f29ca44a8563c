"""The reducer: ``decide`` turns a command into one event, ``evolve`` folds an event.

Guards run in a fixed order: well-formed (parse) → allowed in this phase (a finished game allows
only undo) → right player → rule checks → the event. ``decide`` never changes the state; a
rejected command raises a :class:`GameError` and nothing happened. An event is a JSON-safe dict:
``{"type", "command", "effects", "warnings", …}`` plus what the table needs to see (battle
result, scoring breakdown); ``evolve`` only applies its effects, so replay never recomputes rules.

Undo is data: ``{"type": "undo", "undoes": seq}`` where seq is the 1-based number of the event
in this game's log (= ``state.version`` right after it). Folding an undo rebuilds the state from
the log without the undone events; a repeated undo goes further back. Throws of the tower
(``seed_tower``, ``resolve_battle``) cannot be undone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.messages import to_json

from . import actions, corrections, reading, rounds, setup, warfare
from . import commands as c
from .battle import validate_counts
from .board import Board
from .effects import Changes, apply, clone
from .errors import (GameOverError, InvalidCommandError, InvalidEventError, NotYourTurnError,
                     UndoNotAllowedError, WrongPhaseError)
from .state import GameState, PlayerState
from .wording import Term, msg, player as who

THROWS = ("seed_tower", "resolve_battle", "read_tray")  # a physical throw: never undone
ACTIONS = ("actions",)


@dataclass(frozen=True)
class Rule:
    phases: tuple[str, ...]  # "phase" or "phase/step"
    turn: bool  # only the player whose turn it is may send it
    handler: Callable[[GameState, Any], Changes | tuple[Changes, dict[str, Any]]]


RULES: dict[str, Rule] = {
    "deploy_start": Rule(("deployment/start",), True, setup.deploy_start),
    "deploy": Rule(("deployment/draft",), True, setup.deploy),
    "skip_deploy": Rule(("deployment/draft",), True, setup.skip_deploy),
    "finish_deployment": Rule(("deployment/draft",), False, setup.finish_deployment),
    "starting_resources": Rule(("resources",), False, setup.starting_resources),
    "seed_tower": Rule(("seeding",), False, setup.seed_tower),
    "reinforce": Rule(("reinforcements",), True, rounds.reinforce),
    "start_actions": Rule(("planning",), False, rounds.start_actions),
    "extract_gold": Rule(ACTIONS, True, actions.extract),
    "extract_energy": Rule(ACTIONS, True, actions.extract),
    "transition_3": Rule(ACTIONS, True, actions.transition_3),
    "construct": Rule(ACTIONS, True, actions.construct),
    "demons_shrine": Rule(ACTIONS, True, actions.demons_shrine),
    "attack": Rule(ACTIONS, True, warfare.attack),
    "resolve_battle": Rule(("battle",), False, warfare.resolve),
    "read_tray": Rule(("battle", "seeding"), False, reading.read_tray),
    "correct_tray": Rule(("battle", "seeding"), False, reading.correct_tray),
    "move": Rule(ACTIONS, True, actions.move),
    **{k: Rule(ACTIONS, True, actions.magic) for k in actions.MAGIC},
    "forfeit": Rule(ACTIONS, True, rounds.forfeit),
    "pass": Rule(ACTIONS, True, rounds.pass_turn),
    "score_round": Rule(("scoring",), False, rounds.score_round),
    "correct": Rule(("deployment", "resources", "seeding", "reinforcements", "planning", "actions",
                     "scoring"), False, corrections.correct),
}

PHASE_WORDS = {
    "deployment/start": "the deployment to the start regions",
    "deployment/draft": "the conflict-card deployment rounds",
    "resources": "the starting resources", "seeding": "the seeding of the tower",
    "reinforcements": "the reinforcements", "planning": "the planning", "actions": "the actions",
    "scoring": "the scoring",
}


def _where(state: GameState) -> str:
    return f"{state.phase}/{state.step}" if state.phase == "deployment" else state.phase


def decide(state: GameState | None, command: c.Command | Mapping[str, Any]) -> dict[str, Any]:
    """The one event this command causes; raises a GameError (and changes nothing) otherwise."""
    cmd = command if isinstance(command, c.Command) else c.parse_command(command)
    if isinstance(cmd, c.NewGame):
        if state is not None:
            raise WrongPhaseError(msg("err_game_started"))
        record = cmd.to_dict()
        record.pop("board", None)  # the event carries the validated snapshot once
        return {"type": "new_game", "command": record, **setup.new_game_event(cmd),
                "effects": [], "warnings": []}
    if state is None:
        raise WrongPhaseError(msg("err_no_game"))
    if isinstance(cmd, c.Undo):
        return _decide_undo(state, cmd)
    rule = RULES[cmd.type]
    if state.phase == "over":
        raise GameOverError(msg("err_game_over"))
    where = _where(state)
    if where not in rule.phases and state.phase not in rule.phases:
        if state.phase == "battle":
            raise WrongPhaseError(msg("err_battle_waiting"))
        raise WrongPhaseError(msg(
            "err_wrong_phase", command=Term(f"cmd_{cmd.type}", cmd.type.replace("_", " ").capitalize()),
            phase=Term(f"msg_phase_{where.replace('/', '_')}", PHASE_WORDS.get(where, where))))
    player = getattr(cmd, "player", None)
    if player is not None and player not in state.colors:
        raise InvalidCommandError(msg("err_not_playing", player=who(state, player)))
    if rule.turn and state.turn != player:
        raise NotYourTurnError(msg("err_not_your_turn", turn=who(state, state.turn or ""),
                                   player=who(state, player)))
    out = rule.handler(state, cmd)
    ch, info = out if isinstance(out, tuple) else (out, {})
    return {"type": cmd.type, "command": cmd.to_dict(), "effects": ch.effects,
            "warnings": ch.warnings, **info}


def allowed_commands(state: GameState | None) -> list[str]:
    """Command types the current phase accepts (turn and rules still apply); for UIs."""
    if state is None:
        return ["new_game"]
    if state.phase == "over":
        return ["undo"]
    where = _where(state)
    return [t for t, r in RULES.items() if where in r.phases or state.phase in r.phases] + ["undo"]


def _decide_undo(state: GameState, cmd: c.Undo) -> dict[str, Any]:
    undone = _undone(state.log)
    for i in range(len(state.log) - 1, -1, -1):
        e, seq = state.log[i], i + 1
        if seq in undone or e["type"] == "undo":
            continue
        if e["type"] == "new_game":
            break
        if e["type"] in THROWS:
            raise UndoNotAllowedError(msg("err_undo_thrown"))
        return {"type": "undo", "command": cmd.to_dict(), "undoes": seq, "undone_type": e["type"],
                "effects": [], "warnings": [to_json(msg("msg_undone", what=Term(f"ev_{e['type']}", e["type"].replace("_", " "))))]}
    raise UndoNotAllowedError(msg("err_undo_nothing"))


def _apply(state: GameState, event: Mapping[str, Any], seq: int) -> None:
    try:
        apply(state, event["effects"])
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidEventError(
            f"Event {seq} ({event.get('type', '?')}) of this game cannot be applied: {exc}.") from None


def _undone(log: list[dict[str, Any]]) -> set[int]:
    try:
        return {e["undoes"] for e in log if e["type"] == "undo"}
    except (KeyError, TypeError):
        raise InvalidEventError("An event of this game has no type, or an undo names no event.") from None


def _initial(event: Mapping[str, Any]) -> GameState:
    try:
        return _initial_unchecked(event)
    except (KeyError, TypeError) as exc:
        raise InvalidEventError(f"The new_game event of this game is incomplete ({exc}).") from None


def _initial_unchecked(event: Mapping[str, Any]) -> GameState:
    board = Board.from_dict(event["board"])
    players = [PlayerState(p["color"], p["name"], p["light_tribe"], p["dark_tribe"]) for p in event["players"]]
    s = GameState.empty(board, players, event["rounds"])
    s.title = event.get("title", "")
    s.first_player = s.marker_holder = s.turn = event["first_player"]
    return s


def _fold(events: list[dict[str, Any]]) -> GameState:
    """The state after all events of a log, undo included (undone events are skipped)."""
    if not events or events[0].get("type") != "new_game":
        raise InvalidEventError("A game log must start with its new_game event.")
    undone = _undone(events)
    state = _initial(events[0])
    for seq, e in enumerate(events[1:], start=2):
        if seq not in undone and e["type"] != "undo":
            _apply(state, e, seq)  # state is private to this fold: apply in place
    state.version = len(events)
    state.log = list(events)
    state.warnings = list(events[-1].get("warnings", []))
    return state


def evolve(state: GameState | None, event: Mapping[str, Any]) -> GameState:
    """The state after one more event. Pure: the given state is not changed."""
    event = dict(event)
    if event["type"] == "new_game":
        if state is not None:
            raise InvalidEventError("A new_game event can only start a game log.")
        return _fold([event])
    if state is None:
        raise InvalidEventError("The first event of a game must be new_game.")
    if event["type"] == "undo":
        return _fold(state.log + [event])
    new = clone(state)
    _apply(new, event, state.version + 1)
    new.version = state.version + 1
    new.log = state.log + [event]
    new.warnings = list(event.get("warnings", []))
    return new


def replay(events: Iterable[Any]) -> GameState:
    """Fold a stored log: dicts, or objects with ``.payload`` (and ``.type``) as the store keeps them."""
    out = []
    for e in events:
        if not isinstance(e, Mapping):
            payload = dict(e.payload)
            payload.setdefault("type", e.type)
            e = payload
        out.append(dict(e))
    return _fold(out)


def preview_battle(state: GameState, counts: Mapping[str, int]) -> dict[str, Any]:
    """What these tray counts would do to the pending battle: ``{result, impossible, explanation}``."""
    if state.battle is None:
        raise WrongPhaseError(msg("err_no_battle"))
    return warfare.preview(state, validate_counts(counts))
