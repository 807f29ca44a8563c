"""The owner's board data: region names, areas, adjacency, resources and tribes.

The packaged board (:func:`companion.game.board.load_board` with no path) holds what the
rulebook gives and explicit placeholders for the rest; the owner completes it from the physical
box on the board set-up page. The completed data lives in ``DATA_DIR/board.toml`` and is
snapshotted into every new game (a running game never changes under the players' feet).

Every save (PUT, import, undo) is checked first — a refused board changes nothing — and keeps
the board it replaces in ``DATA_DIR/board-history/`` so the last saves can be undone.
"""

from __future__ import annotations

import threading
from itertools import zip_longest
from typing import Annotated, Any

from flask import Blueprint, Response, jsonify
from pydantic import ConfigDict, Field

from companion.web.api.runtime import Runtime, runtime
from companion.web.api.shapes import Answer, Request
from companion.web.api.shapes import Board as BoardShape
from companion.web.api.spec import Named, Says, accepts, accepts_query, operation, responds

bp = Blueprint("api_board", __name__, url_prefix="/api")

_lock = threading.Lock()  # one writer at a time; readers never see a half-written file
_cache: dict[str, Any] = {}
TOML = "application/toml"
MAX_FILE_CHARS = 256 * 1024  # a board file is a few kB


def current_board(rt: Runtime) -> Any:
    """The owner's board if saved, else the packaged one. Cached until the file changes."""
    with _lock:
        return _current_unlocked(rt)


def _current_unlocked(rt: Runtime) -> Any:
    """:func:`current_board` for a caller that holds the lock."""
    from companion.game.board import load_board

    path = rt.board_path
    stamp = _stamp(path)
    if _cache.get("stamp") != stamp or "board" not in _cache:
        _cache.update(stamp=stamp, board=load_board(path if stamp[1] is not None else None))
    return _cache["board"]


def _stamp(path: Any) -> tuple[str, tuple[int, int, int] | None]:
    # os.replace gives the file a new inode, so a rewrite is noticed even within one mtime tick.
    try:
        st = path.stat()
    except FileNotFoundError:
        return (str(path), None)
    return (str(path), (st.st_ino, st.st_mtime_ns, st.st_size))


def _history(rt: Runtime) -> Any:
    from companion.game.board_file import BoardHistory

    return BoardHistory(rt.board_path)


def _save(rt: Runtime, board: Any) -> Any:
    """Keep the current board for undo, write ``board``; the caller checked it."""
    with _lock:
        previous = _current_unlocked(rt)  # the cached board, unless the file changed meanwhile
        _history(rt).save(board, previous)
        _cache.pop("stamp", None)
    return current_board(rt)


# -- shapes --------------------------------------------------------------------------------------

class Gap(Answer):
    rule: str = Field(description="area_bonus, adjacency, resources, start_region, start_resources "
                      "or costs: a rule applied with less checking because data is missing.")
    message: str = Field(description="The same in an English sentence.")
    names: list[str]
    ids: list[str]
    kind: str = Field(description="Where to enter it: areas, regions or tribes.")
    count: int


class Progress(Answer):
    complete: int
    total: int
    missing: dict[str, list[str]] = Field(description="id → the fields not entered yet.")


class BoardStatus(Answer):
    progress: dict[str, Progress] = Field(description="regions, areas, tribes.")
    gaps: list[Gap]
    undo: int = Field(description="How many saves can be undone.")


class Gaps(Answer):
    gaps: list[Gap]


_Tribes = Annotated[str | None, Field(max_length=400, pattern=r"^[a-z0-9_,-]*$")]


class BoardFile(Request):
    text: Annotated[str, Field(max_length=MAX_FILE_CHARS, pattern=r"\S"), Named("the board file"),
                    Says(f"the text of a board file (not empty) of at most {MAX_FILE_CHARS // 1024} kB")]
    filename: Annotated[str | None, Field(max_length=120), Named("the file name"),
                        Says("a text of at most 120 characters")] = None


class NeedsQuery(Request):
    model_config = ConfigDict(strict=False, extra="forbid")  # query values are text
    light: Annotated[_Tribes, Named('"light"'), Says("tribe ids separated by commas")] = None
    dark: Annotated[_Tribes, Named('"dark"'), Says("tribe ids separated by commas")] = None


# -- routes --------------------------------------------------------------------------------------

@bp.get("/board")
@operation("The owner's board data (or the packaged placeholders)")
@responds(200, BoardShape, "The board.")
def get_board() -> Response:
    return jsonify(current_board(runtime()).to_dict())


@bp.put("/board")
@operation("Replace the owner's board data (validated, saved atomically to "
           "COMPANION_DATA/board.toml; the replaced board is kept for undo); used by new games "
           "from now on", errors=(400,))
@accepts(BoardShape)
@responds(200, BoardShape, "The board as saved.")
def put_board(body: BoardShape) -> Response:
    from companion.game.board import Board
    from companion.game.board_file import check_for_save

    board = check_for_save(Board.from_dict(body.model_dump()))  # BoardDataError (400) names the item
    return jsonify(_save(runtime(), board).to_dict())


@bp.get("/board/status")
@operation("What the board data still lacks (per region, area and tribe), the rules every game "
           "plays with less checking because of it, and how many saves can be undone")
@responds(200, BoardStatus, "The status.")
def board_status() -> Response:
    from companion.game.board_status import board_gaps, progress

    rt = runtime()
    board = current_board(rt)
    return jsonify({"progress": progress(board), "gaps": [g.to_dict() for g in board_gaps(board)],
                    "undo": _history(rt).depth()})


@bp.get("/board/needs")
@operation("The rules a new game with these tribes would play with less checking, because "
           "board data is missing (start regions, costs, starting gold and energy, areas, …)")
@accepts_query(NeedsQuery)
@responds(200, Gaps, "The gaps, with where to enter each.")
def board_needs(query: NeedsQuery) -> Response:
    from companion.game.board_status import game_gaps

    light = [x for x in (query.light or "").split(",") if x]
    dark = [x for x in (query.dark or "").split(",") if x]
    pairs = list(zip_longest(light, dark, fillvalue=""))  # a tribe may not be chosen yet
    gaps = game_gaps(current_board(runtime()), pairs)
    return jsonify({"gaps": [g.to_dict() for g in gaps]})


@bp.get("/games/<int:game_id>/board-gaps")
@operation("The rules this game plays with less checking because its board data was incomplete "
           "when it started (its own snapshot, not today's board)", errors=(404,))
@responds(200, Gaps, "The gaps.")
def game_board_gaps(game_id: int) -> Response:
    from companion.game.board_status import game_gaps

    state = runtime().service.state(game_id)
    gaps = game_gaps(state.board, [(p.light_tribe, p.dark_tribe) for p in state.players])
    return jsonify({"gaps": [g.to_dict() for g in gaps]})


@bp.get("/board/export")
@operation("The board data as a TOML file to share with other groups")
@responds(200, None, "board.toml", content_type=TOML,
          headers={"Content-Disposition": {"schema": {"type": "string"}}})
def export_board() -> Response:
    from companion.game.board_file import export_board as export

    text = export(current_board(runtime()))
    return Response(text, mimetype=TOML,
                    headers={"Content-Disposition": 'attachment; filename="immortals-board.toml"'})


@bp.post("/board/import")
@operation("Replace the board data by a shared board file (its TOML text in a JSON body). Refused "
           "with 400, naming the item, when it is not valid, names a region, area or tribe this "
           "board does not have, or a neighbour link is one-sided; nothing changes then",
           errors=(400,))
@accepts(BoardFile)
@responds(200, BoardShape, "The board as saved.")
def import_board(body: BoardFile) -> Response:
    from companion.game.board_file import import_board as parse_import

    rt = runtime()
    board = parse_import(body.text, current_board(rt), body.filename or "the board file")
    return jsonify(_save(rt, board).to_dict())


@bp.post("/board/undo")
@operation("Undo the last save of the board data (set-up page, import or an earlier undo "
           "step): the board saved before it is restored", errors=(400,))
@responds(200, BoardShape, "The board as restored.")
def undo_board() -> Response:
    rt = runtime()
    with _lock:
        _history(rt).undo()
        _cache.pop("stamp", None)
    return jsonify(current_board(rt).to_dict())
