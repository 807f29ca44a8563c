"""Errors of the rules engine: one class per way a command or a reading can be wrong.

Every class derives from :class:`GameError`, which is both a
:class:`companion.errors.CompanionError` and a :class:`ValueError` (bad input). ``str(err)`` is a
sentence a player understands. A command that raises any of these changed nothing.
"""

from __future__ import annotations

from typing import Any

from companion.errors import CompanionError
from companion.messages import Term, msg


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

    def __init__(self, player: Any, size: int, realm: str, limbo: int, given: int):
        self.player, self.size, self.realm, self.limbo, self.given = player, size, realm, limbo, given
        super().__init__(msg("err_transition_count", player=player, size=size, limbo=limbo,
                             realm=Term(f"realm_adj_{realm}", realm), expected=min(size, limbo), given=given))


class EmptyLimboError(NotEnoughArmiesError):
    """A transition from a limbo that holds no army: there is nothing to bring."""

    def __init__(self, player: Any, realm: str):
        self.player, self.realm = player, realm
        super().__init__(msg("err_empty_limbo", player=player, realm=Term(f"realm_adj_{realm}", realm)))


class NoSpaceLeftError(IllegalActionError):
    """Every army (or magic) space of the player board already carried a revealed card this round."""

    def __init__(self, player: Any, kind: str, spaces: int):
        self.player, self.kind, self.spaces = player, kind, spaces
        super().__init__(msg(f"err_no_{kind}_space_left", player=player, spaces=spaces))


class SpaceUsedError(IllegalActionError):
    """This action space was already used (performed or forfeited) this round."""

    def __init__(self, player: Any, space: str, label: str):
        self.player, self.space = player, space
        super().__init__(msg("err_space_used", player=player, space=Term(f"space_{space.replace(':', '_')}", label)))


class InvalidCorrectionError(InvalidCommandError):
    """A correction names something that cannot be (a round the game does not have)."""


class RoundNotStartedError(InvalidCorrectionError):
    """The round is corrected before the rounds have begun."""

    def __init__(self) -> None:
        super().__init__(msg("err_correct_round_phase"))


class NoSuchRoundError(InvalidCorrectionError):
    """The corrected round is outside 1 … the game's number of rounds."""

    def __init__(self, rounds: int, given: int):
        self.rounds, self.given = rounds, given
        super().__init__(msg("err_correct_round_range", rounds=rounds, given=given))
