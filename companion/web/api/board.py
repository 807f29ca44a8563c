"""The owner's board data: region names, areas, adjacency, resources and tribes.

The packaged board (:func:`companion.game.board.load_board` with no path) holds what the
rulebook gives and explicit placeholders for the rest; the owner completes it from the physical
box on the board set-up page. The completed data lives in ``DATA_DIR/board.toml`` and is
snapshotted into every new game (a running game never changes under the players' feet).
"""

from __future__ import annotations

import os
import secrets
import threading
from typing import Any

from flask import Blueprint, Response, jsonify

from companion.web.api.parsing import json_object
from companion.web.api.runtime import Runtime, runtime

bp = Blueprint("api_board", __name__, url_prefix="/api")

_lock = threading.Lock()  # one writer at a time; readers never see a half-written file
_cache: dict[str, Any] = {}


def current_board(rt: Runtime) -> Any:
    """The owner's board if saved, else the packaged one. Cached until the file changes."""
    from companion.game.board import load_board

    path = rt.board_path
    stamp = _stamp(path)
    with _lock:
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


@bp.get("/board")
def get_board() -> Response:
    return jsonify(current_board(runtime()).to_dict())


@bp.put("/board")
def put_board() -> Response:
    from companion.game.board import Board, board_to_toml, load_board

    body = json_object()
    board = Board.from_dict(body)  # BoardDataError (400) names the field that is wrong
    rt = runtime()
    path = rt.board_path
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    with _lock:
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(board_to_toml(board))
                fh.flush()
                os.fsync(fh.fileno())
            saved = load_board(tmp)  # what we wrote must load back before it replaces the old
            os.replace(tmp, path)
            _cache.update(stamp=_stamp(path), board=saved)
        finally:
            tmp.unlink(missing_ok=True)
    return jsonify(saved.to_dict())
