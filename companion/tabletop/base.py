"""The generic scoring interface every game of the game-night log implements.

A game's rules are one module with one :class:`Rules` subclass; :mod:`companion.tabletop`
registers it under its ``key``. The interface keeps **parsing** (untrusted JSON → a checked,
typed event) and **applying** (event + state → a new state) apart:

* :meth:`Rules.parse` checks only the shape of one event (types, ranges that hold whatever the
  state) and raises :class:`~companion.tabletop.errors.InvalidEventError` otherwise;
* :meth:`Rules.apply` checks the event against the state (an unknown player, a game already
  over, a turn past the limit, a score below zero) and returns a **new** state; the old one is
  never changed, so a refused event changes nothing.

State is a plain JSON-safe dict (the store keeps it as derived data beside the events, like the
main game log). Every state has ``players`` (keys in seat order), ``over`` (bool), ``end``
(why it ended, or ``None``) and ``scores`` ({player: number}). ``winners`` lists the winners of a
finished game: several means a shared win, none a draw.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.tabletop.errors import (
    GameOverError,
    Seat,
    field_word,
    msg,
    InvalidEventError,
    NegativeScoreError,
    NotOverError,
    PlayersError,
    UnknownPlayerError,
)

State = dict[str, Any]


@dataclass(frozen=True)
class Event:
    """A parsed event: its ``type`` and its checked fields (JSON-safe, as it will be stored)."""

    type: str
    fields: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **self.fields}


class Rules(ABC):
    """One game's scoring and end rules. Subclasses set the class attributes and implement
    :meth:`parse_fields` and :meth:`apply_event`."""

    key: str = ""
    min_players: int = 2
    max_players: int = 8
    live: bool = False  # a live tracker (events during the game) rather than a score sheet
    event_types: tuple[str, ...] = ()

    # -- set-up ------------------------------------------------------------------------------

    def check_players(self, players: Sequence[str], options: Mapping[str, Any]) -> None:
        """Raise :class:`PlayersError` when the number of players does not fit the game."""
        if not self.min_players <= len(players) <= self.max_players:
            raise PlayersError(msg("tt_err_players_range", game=self.title_en, min=self.min_players,
                                   max=self.max_players, n=len(players)))

    def parse_options(self, raw: Mapping[str, Any] | None, players: Sequence[str]) -> dict[str, Any]:
        """The game's options (e.g. a team variant), checked; none by default."""
        if raw:
            raise InvalidEventError(msg("tt_err_no_options", game=self.title_en))
        return {}

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> State:
        """The state before the first event."""
        self.check_players(players, options)
        return {"players": list(players), "over": False, "end": None,
                "scores": {p: 0 for p in players}, "winners": [], "options": dict(options)}

    title_en: str = ""

    # -- events ------------------------------------------------------------------------------

    def parse(self, raw: Any) -> Event:
        """A checked event from untrusted JSON (shape only; the state is not looked at)."""
        if not isinstance(raw, Mapping):
            raise InvalidEventError(msg("tt_err_event_shape"))
        kind = raw.get("type")
        if kind not in self.event_types:
            raise InvalidEventError(
                f"{self.title_en} knows the events {', '.join(self.event_types)}, not {kind!r}.")
        return Event(kind, self.parse_fields(kind, raw))

    @abstractmethod
    def parse_fields(self, kind: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The checked fields of an event of type ``kind``."""

    def apply(self, state: State, event: Event) -> State:
        """A new state with ``event`` applied; ``state`` is never changed."""
        if state["over"]:
            raise GameOverError(msg("tt_err_game_over"))
        new = copy.deepcopy(state)
        self.apply_event(new, event)
        return new

    @abstractmethod
    def apply_event(self, state: State, event: Event) -> None:
        """Apply ``event`` to ``state`` (a private copy) in place, or raise."""

    # -- results -----------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return bool(state["over"])

    def winners(self, state: State) -> list[str]:
        """The winners of a finished game (several: shared win; none: a draw)."""
        if not state["over"]:
            raise NotOverError("The game is not over yet, so it has no winner.")
        return list(state["winners"])


# -- small shared helpers -------------------------------------------------------------------------

def player_of(state: State, value: Any) -> str:
    """``value`` if it is a player of the game, else :class:`UnknownPlayerError`."""
    if not isinstance(value, str) or value not in state["players"]:
        raise UnknownPlayerError(value)
    return value


def whole(raw: Mapping[str, Any], key: str, what: Any = None, *, low: int | None = 0,
          high: int | None = 999, optional: bool = False) -> int | None:
    """A whole number field in ``[low, high]``; ``None`` when optional and absent. ``what`` names
    the field in a refusal (a word or message; default: the catalogue word of ``key``)."""
    what = field_word(key) if what is None else what
    value = raw.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidEventError(msg("tt_err_whole", what=what))
    if low is not None and value < low:
        if low == 0:
            raise NegativeScoreError(msg("tt_err_negative", value=value))
        raise InvalidEventError(msg("tt_err_at_least", what=what, low=low))
    if high is not None and value > high:
        raise InvalidEventError(msg("tt_err_at_most", what=what, high=high))
    return value


def per_player(raw: Mapping[str, Any], key: str, *, low: int | None = 0,
               high: int | None = 999, optional: bool = False) -> dict[str, int] | None:
    """A ``{player: whole number}`` field (players are checked against the state on apply)."""
    value = raw.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, Mapping) or not value:
        raise InvalidEventError(msg("tt_err_each_player", what=field_word(key)))
    return {str(p): whole(value, p, msg("tt_field_of", field=field_word(key), player=Seat(str(p))),  # type: ignore[misc]
                          low=low, high=high) for p in value}


def seats(keys: Sequence[str]) -> list[Seat]:
    """Players for a message (named by the store)."""
    return [Seat(k) for k in keys]


def top(values: Mapping[str, float], among: Sequence[str] | None = None,
        lowest: bool = False) -> list[str]:
    """The keys with the best value (highest, or lowest), in the mapping's order."""
    keys = list(among if among is not None else values)
    if not keys:
        return []
    best = (min if lowest else max)(values[k] for k in keys)
    return [k for k in keys if values[k] == best]
