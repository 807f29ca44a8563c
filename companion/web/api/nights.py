"""The game-night log over HTTP: the other games of an evening, under ``/api/tabletop``.

Views are thin: the request's outer shape is checked by :mod:`companion.web.api.spec` against
:mod:`companion.web.api.shapes_nights` (also the OpenAPI document), then
:mod:`companion.store.nights` (which parses the game's own fields with its rules, applies,
writes), return JSON. A refused input is a 400 with the rules' sentence and changes nothing; an
unknown game is a 404; an entry decided against an old screen is a 409.

The photo of the final table is sent as the raw body (``image/jpeg`` or ``image/png``, at most
2 MB — the page shrinks a phone's photo before sending it) and stored as a file in the data
folder (``DATA_DIR/tabletop-photos``); the database keeps its file name.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from flask import Blueprint, Response, jsonify, request, send_file

from companion.store.nights import NightGameNotFoundError
from companion.web.api.errors import NotFoundError, not_found_is_404
from companion.web.api.runtime import runtime
from companion.web.api.shapes_nights import (
    BggIds,
    BgStatsLink,
    CatalogueEntry,
    EventRequest,
    Night,
    NightGame,
    NightGameChanges,
    NewNightGame,
    TabletopStats,
)
from companion.web.api.spec import accepts, operation, responds

bp = Blueprint("api_nights", __name__, url_prefix="/api/tabletop")
PHOTO_FOLDER = "tabletop-photos"


@bp.after_request
def _tell_the_other_devices(response: Response) -> Response:
    """After every change that was made, the other tablets hear of it over the live stream
    (they re-read the game; nothing is pushed that they would have to trust)."""
    if request.method != "GET" and 200 <= response.status_code < 300:
        changed = (request.view_args or {}).get("tabletop_id")
        if changed is None and response.is_json:
            changed = (response.get_json(silent=True) or {}).get("id")
        runtime().hub.publish_tabletop(changed if isinstance(changed, int) else None)
    return response


_not_found_is_404 = not_found_is_404(NightGameNotFoundError)


def _photos() -> Path:
    return runtime().data_dir / PHOTO_FOLDER


@bp.get("/catalogue")
@operation("The built-in games of the game-night log")
@responds(200, list[CatalogueEntry], "The games.")
def catalogue() -> Response:
    """The built-in games: key, title, players, live tracker or score sheet, event types."""
    from companion.tabletop import catalogue as games

    return jsonify(games())


@bp.get("/nights")
@operation("The evenings with logged games, newest first")
@responds(200, list[Night], "The evenings.")
def nights() -> Response:
    from companion.store.nights import nights as evenings

    return jsonify(evenings(runtime().log))


@bp.get("/games")
@operation("The logged games (of one evening with ?night=YYYY-MM-DD), newest first", errors=(400,))
@responds(200, list[NightGame], "The games.")
def list_games() -> Response:
    from companion.store.nights import list_games as games

    return jsonify(games(runtime().log, request.args.get("night")))


@bp.post("/games")
@operation("Log a game (a score sheet with its entries, or a live tracker to start)", errors=(400,))
@accepts(NewNightGame)
@responds(201, NightGame, "The game as logged.", links_id=("tabletop_id", "$response.body#/id"))
def create(body: NewNightGame) -> tuple[Response, int]:
    from companion.store.nights import create_game, parse_new_game

    new = parse_new_game(body.model_dump(exclude_none=True))
    return jsonify(create_game(runtime().log, new)), 201


@bp.get("/games/<int:tabletop_id>")
@operation("One logged game with its entries", errors=(404,))
@responds(200, NightGame, "The game.")
@_not_found_is_404
def get(tabletop_id: int) -> Response:
    from companion.store.nights import get_game

    return jsonify(get_game(runtime().log, tabletop_id))


@bp.patch("/games/<int:tabletop_id>")
@operation("Edit a game's name, notes, times or players (not its scores)", errors=(400, 404))
@accepts(NightGameChanges)
@responds(200, NightGame, "The game as saved.")
@_not_found_is_404
def update(tabletop_id: int, body: NightGameChanges) -> Response:
    from companion.store.nights import update_game

    return jsonify(update_game(runtime().log, tabletop_id, body.model_dump(exclude_unset=True)))


@bp.delete("/games/<int:tabletop_id>")
@operation("Delete a game with its entries and photo", errors=(404,))
@responds(204, None, "Deleted.")
@_not_found_is_404
def delete(tabletop_id: int) -> tuple[str, int]:
    from companion.store.nights import delete_game

    photo = delete_game(runtime().log, tabletop_id)
    if photo:
        (_photos() / photo).unlink(missing_ok=True)
    return "", 204


@bp.post("/games/<int:tabletop_id>/events")
@operation("Add an entry (or undo the latest)", errors=(400, 404, 409))
@accepts(EventRequest)
@responds(200, NightGame, "The game after the entry.")
@_not_found_is_404
def add_event(tabletop_id: int, body: EventRequest) -> Response:
    """One entry: ``{"event": {...}, "expected_version": n?}`` (``{"type": "undo"}`` takes the
    latest entry back)."""
    from companion.store.nights import add_event as add

    return jsonify(add(runtime().log, tabletop_id, body.event.model_dump(), body.expected_version))


@bp.put("/games/<int:tabletop_id>/photo")
@operation("Set the photo of the final table", description="The raw body is a JPEG or PNG picture of at most 2 MB.", errors=(400, 404, 413))
@responds(200, NightGame, "The game with its photo.")
@_not_found_is_404
def put_photo(tabletop_id: int) -> Response:
    from companion.store.nights import get_game, photo_kind, set_photo

    log = runtime().log
    get_game(log, tabletop_id)  # 404 before anything is written
    data = request.get_data(cache=False)
    _, ext = photo_kind(data)
    folder = _photos()
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{tabletop_id}-{secrets.token_hex(6)}.{ext}"
    tmp = folder / (name + ".part")
    tmp.write_bytes(data)
    tmp.replace(folder / name)  # a power cut leaves a .part file, never half a photo
    old = set_photo(log, tabletop_id, name)
    if old:
        (folder / old).unlink(missing_ok=True)
    return jsonify(get_game(log, tabletop_id))


@bp.get("/games/<int:tabletop_id>/photo")
@operation("The photo of the final table", errors=(404,))
@responds(200, None, "The picture.", content_type="image/jpeg")
@_not_found_is_404
def get_photo(tabletop_id: int) -> Response:
    from companion.store.nights import photo_of

    name = photo_of(runtime().log, tabletop_id)
    path = _photos() / name if name else None
    if path is None or not path.is_file():
        raise NotFoundError(f"Game-night game {tabletop_id} has no photo.")
    return send_file(path, mimetype="image/png" if name.endswith(".png") else "image/jpeg", max_age=3600)


@bp.delete("/games/<int:tabletop_id>/photo")
@operation("Remove the photo", errors=(404,))
@responds(200, NightGame, "The game without its photo.")
@_not_found_is_404
def delete_photo(tabletop_id: int) -> Response:
    from companion.store.nights import get_game, set_photo

    log = runtime().log
    old = set_photo(log, tabletop_id, None)
    if old:
        (_photos() / old).unlink(missing_ok=True)
    return jsonify(get_game(log, tabletop_id))


@bp.get("/games/<int:tabletop_id>/bgstats")
@operation("BG Stats' createPlay link of a game", errors=(404,))
@responds(200, BgStatsLink, "The link and its data.")
@_not_found_is_404
def bgstats(tabletop_id: int) -> Response:
    """BG Stats' createPlay link (the BoardGameGeek id only when one is set for the game)."""
    from companion.store.group_settings import get_settings
    from companion.store.nights_report import bgstats_play, bgstats_url

    log = runtime().log
    location = get_settings(log)["location"]
    return jsonify({"url": bgstats_url(log, tabletop_id, location),
                    "data": bgstats_play(log, tabletop_id, location)})


@bp.get("/stats")
@operation("Statistics of the game nights: per game and per person")
@responds(200, TabletopStats, "The statistics.")
def stats() -> Response:
    """Per game and per person: plays, wins, win rates, game length."""
    from companion.store.insights import cached
    from companion.store.nights_report import report

    log = runtime().log
    return jsonify(cached(log, "tabletop", lambda: report(log)))


@bp.get("/bgg-ids")
@operation("The BoardGameGeek id per game (for BG Stats)")
@responds(200, {"type": "object", "additionalProperties": {"type": "integer"}}, "Game → id.")
def get_bgg_ids() -> Response:
    from companion.store.nights import bgg_ids

    return jsonify(bgg_ids(runtime().log))


@bp.put("/bgg-ids")
@operation("Set or clear BoardGameGeek ids (null clears)", errors=(400,))
@accepts(BggIds)
@responds(200, {"type": "object", "additionalProperties": {"type": "integer"}}, "Game → id.")
def put_bgg_ids(body: BggIds) -> Response:
    from companion.store.nights import set_bgg_ids

    return jsonify(set_bgg_ids(runtime().log, body.ids))
