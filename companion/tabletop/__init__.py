"""Scoring and end rules of the other games of a game night.

One module per game, each with a ``RULES`` object implementing :class:`~companion.tabletop.base.Rules`:

* :mod:`~companion.tabletop.immortal_gameogami` — Immortal (Game-O-Gami), a two-act score sheet;
* :mod:`~companion.tabletop.amrtaka` — Amrtaka, a live VP tracker with a turn counter;
* :mod:`~companion.tabletop.wrath_of_the_immortals` — Wrath of the Immortals, a power tracker
  with the foil helper;
* :mod:`~companion.tabletop.generic` — any other game.

**Adding a game** = one module here with a ``RULES`` object, its name in :data:`GAME_MODULES`,
and its words (``tt_game_<key>`` and the event labels) in ``companion/web/i18n/en.json`` and
``de.json``.

:func:`replay` folds stored events into the state; an ``{"type": "undo"}`` event takes back the
latest event not yet taken back (the log stays append-only, like the main game log).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any

from companion.tabletop.base import Event, Rules, State
from companion.tabletop.errors import InvalidEventError, NothingToUndoError, UnknownGameError, msg

GAME_MODULES: tuple[str, ...] = ("immortal_gameogami", "amrtaka", "wrath_of_the_immortals", "generic")
UNDO = "undo"


def rules_for(key: Any) -> Rules:
    """The rules of the built-in game ``key`` (:class:`UnknownGameError` otherwise)."""
    if key not in GAME_MODULES:
        raise UnknownGameError(key, GAME_MODULES)
    return importlib.import_module(f"companion.tabletop.{key}").RULES


def catalogue() -> list[dict[str, Any]]:
    """Every game: key, English title, players, live or score sheet, event types."""
    out = []
    for key in GAME_MODULES:
        r = rules_for(key)
        out.append({"key": key, "title": r.title_en, "min_players": r.min_players,
                    "max_players": r.max_players, "live": r.live, "events": list(r.event_types)})
    return out


def parse_event(rules: Rules, raw: Any) -> Event:
    """A checked event of ``rules``' game, or the generic ``undo``."""
    if isinstance(raw, Mapping) and raw.get("type") == UNDO:
        if set(raw) != {"type"}:
            raise InvalidEventError(msg("tt_err_undo_fields"))
        return Event(UNDO, {})
    return rules.parse(raw)


def replay(rules: Rules, players: Sequence[str], options: Mapping[str, Any],
           events: Sequence[Mapping[str, Any]]) -> State:
    """The state after ``events`` (stored JSON, as :meth:`Event.to_json` wrote them)."""
    state = rules.new_state(players, options)
    for raw in _effective(events):
        state = rules.apply(state, parse_event(rules, raw))  # parsed again: this fills defaults
    return state


def step(rules: Rules, players: Sequence[str], options: Mapping[str, Any],
         events: Sequence[Mapping[str, Any]], event: Event) -> State:
    """The state after ``events`` and the new ``event`` — raises (and nothing is stored) when the
    new event is refused."""
    if event.type == UNDO:
        effective = _effective(events)
        if not effective:
            raise NothingToUndoError(msg("tt_err_nothing_to_undo"))
        return replay(rules, players, options, [*events, event.to_json()])
    state = replay(rules, players, options, events)
    return rules.apply(state, event)


def _effective(events: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The events an undo has not taken back, in order."""
    kept: list[Mapping[str, Any]] = []
    for raw in events:
        if raw["type"] == UNDO:
            kept.pop()
        else:
            kept.append(raw)
    return kept


__all__ = ["GAME_MODULES", "Event", "Rules", "catalogue", "parse_event", "replay", "rules_for", "step"]
