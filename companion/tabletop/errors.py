"""Errors of the game-night scoring, one class per way of being wrong.

Every class subclasses :class:`TabletopError`, which is both a
:class:`~companion.errors.CompanionError` (the web layer turns it into a 400 answer with its
message) and a :class:`ValueError` (it is always caused by what the caller sent). A refused
event changes nothing: the rules compute a new state and never touch the old one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import CompanionError
from companion.messages import Message, Term, msg

__all__ = ["Seat", "field_word", "msg"]


def field_word(name: str) -> Term:
    """The word of an entry's field in a message (``tt_field_<name>`` in the catalogue)."""
    return Term(f"tt_field_{name}", name)


@dataclass(frozen=True)
class Seat:
    """A player in a message: the rules know the key (``p2``); the store, which knows the names,
    fills ``name`` in (:func:`name_seats`) before the message reaches a player."""

    key: str
    name: str | None = None

    def render(self, lang: str) -> str:  # noqa: ARG002 — a name is the same in every language
        return self.name or self.key


def name_seats(error: BaseException, names: Mapping[str, str]) -> BaseException:
    """``error`` with every :class:`Seat` of its message named (in place; returned for ``raise``)."""

    def fill(value: Any) -> Any:
        if isinstance(value, Seat):
            return Seat(value.key, names.get(value.key, value.name))
        if isinstance(value, list):
            return [fill(v) for v in value]
        if isinstance(value, Message):
            return Message(value.key, {k: fill(v) for k, v in value.params.items()}, value.count)
        return value

    if error.args and isinstance(error.args[0], Message):
        error.args = (fill(error.args[0]), *error.args[1:])
    return error


class TabletopError(CompanionError, ValueError):
    """Root of every deliberate error of :mod:`companion.tabletop`."""


class InvalidEventError(TabletopError):
    """An event that is not what the game expects (unknown type, missing or wrong field)."""


class UnknownGameError(TabletopError):
    """A game key the companion has no rules module for."""

    def __init__(self, key: object, known: tuple[str, ...]) -> None:
        super().__init__(msg("tt_err_unknown_game", game=str(key), known=list(known)))
        self.key = key


class UnknownPlayerError(TabletopError):
    """An event names a player who is not in this game."""

    def __init__(self, player: object) -> None:
        super().__init__(msg("tt_err_unknown_player", player=str(player)))
        self.player = player


class PlayersError(TabletopError):
    """The wrong number of players (or teams) for a game, or one name twice."""


class NegativeScoreError(TabletopError):
    """A score below zero in a game whose rulebook has none."""


class GameOverError(TabletopError):
    """An event after the game has ended (a game ended twice, a point after the end)."""


class TurnLimitError(GameOverError):
    """A turn past the game's turn limit."""


class NotOverError(TabletopError):
    """A result was asked for while the game is still going."""


class TieNeedsLevelsError(TabletopError):
    """Immortal (Game-O-Gami): a tie on control tokens that needs the tied players' card levels."""


class ImpossibleLevelsError(TabletopError):
    """Immortal (Game-O-Gami): card levels no number of cards of level I–III could make."""


class NothingToUndoError(TabletopError):
    """Undo with no event left to take back."""
