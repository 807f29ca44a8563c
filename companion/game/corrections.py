"""``correct``: a logged manual fix. The table is the truth; the event keeps the reason.

Each entry sets an absolute value; cubes that appear or vanish this way are booked in
``unaccounted`` so the cube accounting stays exact.
"""

from __future__ import annotations

from typing import Any

from . import commands as c
from .battle import validate_counts
from .checks import region_id
from .colors import REALMS
from .effects import Changes
from .errors import (InvalidBattleError, InvalidCommandError, NoSuchRoundError,
                     RoundNotStartedError)
from .state import GameState
from .wording import Term, msg


def _get(entry: Any, key: str, kind: str) -> Any:
    if key not in entry:
        raise InvalidCommandError(msg("err_correction_needs", kind=Term(f"correction_{kind}", kind), key=key))
    return entry[key]


def _count(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise InvalidCommandError(msg("err_correction_count", what=what))
    return v


def _player(state: GameState, v: Any) -> str:
    if v not in state.colors:
        raise InvalidCommandError(msg("err_colour_not_playing", colour=Term(f"color_{v}", repr(v))))
    return v


def _realm(v: Any) -> str:
    if v not in REALMS:
        raise InvalidCommandError(msg("err_correction_realm"))
    return v


ROUND_PHASES = ("reinforcements", "planning", "actions", "scoring")


def _turn_order(state: GameState, cmd: c.Correct, ch: Changes) -> None:
    """First player, first-player marker and round, when the table set them wrong.

    The first player starts the round; the marker holder starts the next one ("The player holding
    the first player marker at the beginning of the next game round is the first player of that
    game round"). When nobody has acted yet in this phase, the corrected first player is also
    the one whose turn it is."""
    for field in ("first_player", "marker_holder"):
        value = getattr(cmd, field)
        if value is not None and _player(state, value) != getattr(state, field):
            ch.set(field, value)
    if cmd.first_player is not None:
        not_started = ((state.phase == "reinforcements" and not state.done)
                       or (state.phase == "actions" and not any(state.used.values()) and not state.passed))
        if cmd.first_player != state.first_player and not_started:
            ch.set("turn", cmd.first_player)
    if cmd.round is not None:
        if state.phase not in ROUND_PHASES:
            raise RoundNotStartedError()
        if not 1 <= cmd.round <= state.rounds:
            raise NoSuchRoundError(state.rounds, cmd.round)
        if cmd.round != state.round:
            ch.set("round", cmd.round)


def correct(state: GameState, cmd: c.Correct) -> Changes:
    ch = Changes()
    for e in cmd.armies:
        region, realm = region_id(state, _get(e, "region", "armies")), _realm(_get(e, "realm", "armies"))
        color = _player(state, _get(e, "color", "armies"))
        delta = _count(_get(e, "count", "armies"), "number of armies") - state.armies(region, realm, color)
        ch.armies(region, realm, color, delta)
        ch.cubes("unaccounted", color, delta)
    for e in cmd.limbo:
        color, realm = _player(state, _get(e, "player", "limbo")), _realm(_get(e, "realm", "limbo"))
        delta = _count(_get(e, "count", "limbo"), "limbo") - state.player(color).limbo[realm]
        ch.limbo(color, realm, delta)
        ch.cubes("unaccounted", color, delta)
    for e in cmd.resources:
        color = _player(state, _get(e, "player", "resources"))
        for field in ("gold", "energy", "vp"):
            if field in e:
                ch.player(color, field, _count(e[field], field) - getattr(state.player(color), field))
    for e in cmd.cards:
        region = region_id(state, _get(e, "region", "card"))
        holder = e.get("holder")
        if holder is not None:
            _player(state, holder)
        ch.card(region, holder)
    for e in cmd.buildings:
        region, realm = region_id(state, _get(e, "region", "building")), _realm(_get(e, "realm", "building"))
        if "building" in e:
            if e["building"] not in (None, "shrine", "capital"):
                raise InvalidCommandError(msg("err_correction_building"))
            ch.building(region, realm, e["building"])
        if "portal" in e:
            if not isinstance(e["portal"], bool):
                raise InvalidCommandError(msg("err_correction_portal"))
            ch.portal(region, realm, e["portal"])
    if cmd.tray is not None:
        try:
            tray = validate_counts(cmd.tray, "The corrected tray")
        except InvalidBattleError as err:
            raise InvalidCommandError(str(err)) from None
        for color in set(tray) | set(state.tray):
            if color != "green" and color not in state.colors:
                raise InvalidCommandError(msg("err_colour_not_playing", colour=Term(f"color_{color}", repr(color))))
            delta = tray.get(color, 0) - state.tray.get(color, 0)
            ch.cubes("tray", color, delta)
            ch.cubes("unaccounted", color, delta)
    _turn_order(state, cmd, ch)
    if not ch.effects:
        raise InvalidCommandError(msg("err_correction_nothing"))
    return ch
