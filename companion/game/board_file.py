"""Sharing the board file: the checks a saved or imported board must pass, and its history.

Parsing is :func:`companion.game.board.parse_board` (stdlib ``tomllib``) and writing is
:func:`companion.game.board.board_to_toml` (``tomli-w``). On top of what every board must be
(:meth:`Board.from_dict`), a board that is *saved* must also be consistent the way a shared file
has to be: neighbours go both ways, and an imported file speaks of the same regions, areas and
tribes as this board (ids are the same for every group; a file naming another region is from a
different data set or was mistyped).

Guarantees: the check functions raise :class:`BoardFileError` (a ``BoardDataError``, so a 400)
naming the item and the reason, and change nothing; :class:`BoardHistory` writes every file
atomically (temporary file, fsync, rename), so a crash leaves the old or the new file, never half.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from companion.messages import Message, msg

from .board import Board, board_to_toml, parse_board
from .errors import BoardDataError, GameError

HISTORY_KEPT = 50


class BoardFileError(BoardDataError):
    """A board that is valid on its own but may not be saved or imported here. Carries a
    catalogue message, so the page shows it in its language (``str()`` is the English)."""

    def __init__(self, message: Message) -> None:
        GameError.__init__(self, message)
        self.file, self.line, self.reason = None, None, str(message)


def check_symmetric(board: Board) -> None:
    """Every neighbour link is listed on both regions (the layout is the same in both realms)."""
    for region in board.regions.values():
        for n in region.neighbours:
            other = board.regions[n]
            if region.id not in other.neighbours:
                raise BoardFileError(msg("err_board_one_sided", region=region.name, other=other.name))


def check_same_items(new: Board, current: Board) -> None:
    """``new`` names exactly the regions, areas and tribes of ``current`` (by id)."""
    for kind, word in (("regions", "region"), ("areas", "area"), ("tribes", "tribe")):
        have, known = getattr(new, kind), getattr(current, kind)
        for item_id, item in have.items():
            if item_id not in known:
                raise BoardFileError(msg(f"err_board_unknown_{word}", name=item.name, id=item_id))
        for item_id, item in known.items():
            if item_id not in have:
                raise BoardFileError(msg(f"err_board_lacks_{word}", name=item.name, id=item_id))


def check_for_save(board: Board) -> Board:
    """The checks for a board about to be saved from the set-up page."""
    check_symmetric(board)
    return board


def import_board(text: str, current: Board, filename: str = "board file") -> Board:
    """Parse and check an uploaded board file against ``current``; nothing is saved here."""
    board = parse_board(text, filename)
    check_same_items(board, current)
    check_symmetric(board)
    return board


def export_board(board: Board) -> str:
    """The board file to share: reads back (with :func:`import_board`) to an equal board."""
    return board_to_toml(board)


class NothingToUndoError(BoardFileError):
    """Undo was asked for but no earlier saved board is kept."""

    def __init__(self) -> None:
        super().__init__(msg("err_board_nothing_to_undo"))


class BoardHistory:
    """The owner's board file plus the files it replaced (newest last), for undo.

    ``path`` is the owner's board file; earlier versions live in ``<path stem>-history/`` as
    numbered TOML files. Callers serialise writers (one lock); readers never see half a file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.folder = path.with_name(f"{path.stem}-history")

    def _versions(self) -> list[Path]:
        if not self.folder.is_dir():
            return []
        return sorted((p for p in self.folder.glob("*.toml") if p.stem.isdigit()), key=lambda p: int(p.stem))

    def depth(self) -> int:
        """How many saves can be undone."""
        return len(self._versions())

    def save(self, board: Board, previous: Board) -> None:
        """Keep ``previous`` for undo, then write ``board`` as the owner's file."""
        versions = self._versions()
        number = int(versions[-1].stem) + 1 if versions else 1
        self.folder.mkdir(parents=True, exist_ok=True)
        kept = self.folder / f"{number:06d}.toml"
        _write(kept, board_to_toml(previous))
        try:
            _write(self.path, board_to_toml(board))
        except BaseException:
            kept.unlink(missing_ok=True)  # the save failed: the history is as it was
            raise
        for old in versions[: max(0, len(versions) + 1 - HISTORY_KEPT)]:
            old.unlink(missing_ok=True)

    def undo(self) -> Board:
        """Restore the board saved before the last change; raises NothingToUndoError."""
        versions = self._versions()
        if not versions:
            raise NothingToUndoError()
        last = versions[-1]
        board = parse_board(last.read_text(encoding="utf-8"), last.name)
        _write(self.path, board_to_toml(board))
        last.unlink()
        return board


def _write(path: Path, text: str) -> None:
    """Atomic write: the text must parse back before it replaces ``path``."""
    parse_board(text, path.name)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
