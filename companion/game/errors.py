"""Errors of the rules engine: one class per way a command or a reading can be wrong.

Every class derives from :class:`GameError`, which is both a
:class:`companion.errors.CompanionError` and a :class:`ValueError` (bad input). ``str(err)`` is a
sentence a player understands. A command that raises any of these changed nothing.
"""

from __future__ import annotations

from companion.errors import CompanionError


class GameError(CompanionError, ValueError):
    """Root of every error the rules engine raises on purpose."""


class InvalidCommandError(GameError):
    """The command is malformed: a missing or mistyped field, an unknown region or colour."""


class InvalidBattleError(GameError):
    """The inputs of a battle make no sense (negative counts, attacker == defender, bad stance)."""


class WrongPhaseError(GameError):
    """The command is not allowed in the current phase of the game."""


class GameOverError(GameError):
    """The game has ended; only undo is still possible."""


class NotYourTurnError(GameError):
    """Another player is to act now."""


class IllegalActionError(GameError):
    """The rules forbid this action in the current situation."""


class NotEnoughResourcesError(GameError):
    """The player cannot pay the gold or energy the action costs."""


class NotEnoughArmiesError(GameError):
    """The player does not have the armies the command asks for (on the board, in limbo or supply)."""


class ImpossibleReadingError(GameError):
    """A tray reading contradicts the cube accounting (more cubes than can have come out)."""


class UndoNotAllowedError(GameError):
    """The last event cannot be undone (nothing left, or it records a throw of the tower)."""


class InvalidEventError(GameError):
    """A stored event cannot be folded (a damaged or foreign game log)."""


class BoardDataError(GameError):
    """The board data file is malformed. ``file`` and ``line`` locate the problem when known."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        self.file = file
        self.line = line
        self.reason = message
        where = ""
        if file is not None:
            where = f"{file}, line {line}: " if line is not None else f"{file}: "
        super().__init__(where + message)
