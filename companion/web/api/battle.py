"""The battle flow over HTTP: preview a result, count the tray, fetch the reading and photos.

Nothing here changes a game. The players confirm (or correct) the counts and send the
``resolve_battle`` command through ``POST /api/games/<id>/commands``.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, send_file

from companion.messages import localize_all, localize_warnings, msg
from companion.web.api.errors import NotFoundError
from companion.web.api.runtime import runtime
from companion.web.api.shapes import CountAnswer, Preview, PreviewRequest, ReadingEnvelope
from companion.web.api.spec import accepts, operation, responds
from companion.web.auth import changes_nothing
from companion.web.i18n import request_language

bp = Blueprint("api_battle", __name__, url_prefix="/api")
_RID = {"rid": {"schema": {"pattern": r"^\d+-\d+-[0-9a-f]{8}$"},
                "description": "The id of a camera reading (`<game>-<version>-<8 hex>`)."}}


@bp.post("/games/<int:game_id>/battle/preview")
@changes_nothing  # spectators see the preview too: no PIN
@operation("What the pending battle would give for these counts (changes nothing)")
@accepts(PreviewRequest)
@responds(200, Preview, "The preview.")
def preview(game_id: int, body: PreviewRequest) -> Response:
    from companion.game.engine import preview_battle

    tray = body.counts.as_dict()
    state = runtime().service.state(game_id)
    # {result, impossible: [reasons], explanation: [sentences]} — see the OpenAPI document.
    return jsonify(localize_all(preview_battle(state, tray), request_language()))


@bp.post("/games/<int:game_id>/battle/count")
@operation(
    "Count the tray for the pending throw (battle or seeding): settle → fresh frame → count",
    description="Same path as the tower's count button. Every device also gets a `reading` "
    "event, and the counts become the shared reading (one `read_tray` event; nothing else in "
    "the game changes). 409: a count is already running, or someone pressed cancel.",
    errors=(400, 409, 503),
)
@responds(200, CountAnswer, "The reading and the new state.")
def count(game_id: int) -> Response:
    rt = runtime()
    rt.touch(game_id)
    reading = rt.counter.count(game_id)
    # The counts are now the game's shared reading: the new state saves the device a request.
    state = localize_warnings(rt.service.state(game_id).to_dict(), request_language())
    return jsonify({"reading": reading, "state": state})


@bp.get("/games/<int:game_id>/battle/reading")
@operation("The latest camera reading of this game")
@responds(200, ReadingEnvelope, "The latest reading.")
def latest_reading(game_id: int) -> Response:
    rt = runtime()
    rt.service.state(game_id)  # 404 for a game that does not exist
    reading = rt.readings.latest(game_id)
    if reading is None:
        raise NotFoundError(msg("err_not_counted_yet"))
    return jsonify({"reading": reading})


@bp.get("/readings/<rid>")
@operation("One stored camera reading (all details the vision reported)", params=_RID)
@responds(200, ReadingEnvelope, "The reading.")
def reading(rid: str) -> Response:
    """One stored camera reading with everything the vision reported (the game's shared
    reading names it by ``id``)."""
    return jsonify({"reading": runtime().readings.get(rid)})


@bp.get("/readings/<rid>/photo.jpg")
@operation("The photo of a reading", params=_RID)
@responds(200, None, "JPEG", content_type="image/jpeg")
def photo(rid: str) -> Response:
    return _image(rid, "photo")


@bp.get("/readings/<rid>/annotated.jpg")
@operation("The photo with every counted cube marked", params=_RID)
@responds(200, None, "JPEG", content_type="image/jpeg")
def annotated(rid: str) -> Response:
    return _image(rid, "annotated")


def _image(rid: str, which: str) -> Response:
    path = runtime().readings.image_path(rid, which)
    # A reading's photos never change once written: let the tablets cache them.
    return send_file(path, mimetype="image/jpeg", max_age=24 * 3600)
