"""The battle flow over HTTP: preview a result, count the tray, fetch the reading and photos.

Nothing here changes a game. The players confirm (or correct) the counts and send the
``resolve_battle`` command through ``POST /api/games/<id>/commands``.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, send_file

from companion.web.api.errors import NotFoundError
from companion.web.api.parsing import counts, json_object
from companion.web.api.runtime import runtime
from companion.web.auth import changes_nothing

bp = Blueprint("api_battle", __name__, url_prefix="/api")


@bp.post("/games/<int:game_id>/battle/preview")
@changes_nothing  # spectators see the preview too: no PIN
def preview(game_id: int) -> Response:
    from companion.game.engine import preview_battle

    tray = counts(json_object())
    state = runtime().service.state(game_id)
    # {result, impossible: [reasons], explanation: [sentences]} — see the OpenAPI document.
    return jsonify(preview_battle(state, tray))


@bp.post("/games/<int:game_id>/battle/count")
def count(game_id: int) -> Response:
    rt = runtime()
    rt.touch(game_id)
    reading = rt.counter.count(game_id)
    # The counts are now the game's shared reading: the new state saves the device a request.
    return jsonify({"reading": reading, "state": rt.service.state(game_id).to_dict()})


@bp.get("/games/<int:game_id>/battle/reading")
def latest_reading(game_id: int) -> Response:
    rt = runtime()
    rt.service.state(game_id)  # 404 for a game that does not exist
    reading = rt.readings.latest(game_id)
    if reading is None:
        raise NotFoundError("The tray has not been counted by the camera in this game yet.")
    return jsonify({"reading": reading})


@bp.get("/readings/<rid>")
def reading(rid: str) -> Response:
    """One stored camera reading with everything the vision reported (the game's shared
    reading names it by ``id``)."""
    return jsonify({"reading": runtime().readings.get(rid)})


@bp.get("/readings/<rid>/photo.jpg")
def photo(rid: str) -> Response:
    return _image(rid, "photo")


@bp.get("/readings/<rid>/annotated.jpg")
def annotated(rid: str) -> Response:
    return _image(rid, "annotated")


def _image(rid: str, which: str) -> Response:
    path = runtime().readings.image_path(rid, which)
    # A reading's photos never change once written: let the tablets cache them.
    return send_file(path, mimetype="image/jpeg", max_age=24 * 3600)
