"""Errors of the rules engine: one class per way a command or a reading can be wrong.

Every class derives from :class:`GameError`, which is both a
:class:`companion.errors.CompanionError` and a :class:`ValueError` (bad input). ``str(err)`` is a
sentence a player understands. A command that raises any of these changed nothing.
"""

from __future__ import annotations

from companion.errors import CompanionError

from .colors import display


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


# --- narrow rule errors: one class per way of being wrong, each builds its own sentence --------
# (The rule checks in companion/game/legal.py return these unraised, so the options a tablet
# offers and the engine's refusals come from the same test and say the same thing.)


class TransitionCountError(IllegalActionError):
    """A transition places exactly its number of armies — fewer only when the limbo holds fewer."""

    def __init__(self, player: str, size: int, realm: str, limbo: int, given: int):
        self.player, self.size, self.realm, self.limbo, self.given = player, size, realm, limbo, given
        expected = min(size, limbo)
        super().__init__(
            f"A transition of {size} places exactly {size} armies (fewer only when the limbo holds "
            f"fewer): {display(player)} has {limbo} in the {realm} limbo, so {expected}, not {given}.")


class NoSpaceLeftError(IllegalActionError):
    """Every action space of the player board already carried a revealed card this round."""

    def __init__(self, player: str, kind: str, spaces: int):
        self.player, self.kind, self.spaces = player, kind, spaces
        super().__init__(
            f"{display(player)} has already used all {spaces} {kind} spaces of the player board "
            f"this round; no other {kind} action can be revealed, performed or forfeited.")


class SpaceUsedError(IllegalActionError):
    """This action space was already used (performed or forfeited) this round."""

    def __init__(self, player: str, label: str):
        self.player, self.label = player, label
        super().__init__(f"{display(player)} has already used the {label} space this round.")


class InvalidCorrectionError(InvalidCommandError):
    """A correction names something that cannot be (a colour not playing, a round not played)."""
