"""The night recap: every game of one evening (Immortals and the game-night log), and its
share — one self-contained HTML file and a PNG card (:mod:`companion.web.share`).

Read-only: only GET routes; nothing here changes a game. An evening is ``YYYY-MM-DD``; anything
else is a 400 naming the format, an evening without games a 404.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, jsonify

from companion.store.nights import photo_of
from companion.store.recap import NightNotFoundError, night_recap, recap_nights
from companion.web import share
from companion.web.api.errors import not_found_is_404
from companion.web.api.readings import IMAGES
from companion.web.api.review import replayer
from companion.web.api.runtime import runtime
from companion.web.api.shapes_review import Recap, RecapNight
from companion.web.api.spec import operation, responds
from companion.web.i18n import request_language

bp = Blueprint("api_recap", __name__, url_prefix="/api")
_NIGHT = {"night": {"schema": {"pattern": r"^\d{4}-\d{2}-\d{2}$"},
                    "description": "The evening, as a date: 2026-11-24."}}
_CSS = Path(__file__).resolve().parents[1] / "static" / "css" / "recap_share.css"


@not_found_is_404(NightNotFoundError)
def _recap(night: str) -> dict:
    rt = runtime()
    return night_recap(rt.log, night, replayer(rt))


@bp.get("/recap")
@operation("The evenings with games of either kind (Immortals and the game-night log), newest first")
@responds(200, list[RecapNight], "The evenings.")
def nights() -> Response:
    return jsonify(recap_nights(runtime().log))


@bp.get("/recap/<night>")
@operation("One evening: every game, who played and won, durations, photos, a few facts. "
           "Changes nothing.", params=_NIGHT, errors=(400, 404))
@responds(200, Recap, "The recap.")
def recap(night: str) -> Response:
    return jsonify(_recap(night))


def _wanted(recap: dict) -> dict:
    rt = runtime()
    photos = rt.data_dir / "tabletop-photos"

    def table(game_id: int) -> Path | None:
        name = photo_of(rt.log, game_id)
        return photos / name if name else None

    return share.wanted_pictures(recap, lambda rid: rt.readings.root / rid / IMAGES["photo"], table)


@bp.get("/recap/<night>/share.html")
@operation("The evening as one self-contained HTML file (data, downscaled photos, styles and "
           "script inside; opens offline). Missing or damaged photos are listed in it.",
           params=_NIGHT, errors=(400, 404))
@responds(200, None, "The HTML file (a download).", content_type="text/html")
def share_html(night: str) -> Response:
    recap = _recap(night)
    css = _CSS.read_text(encoding="utf-8")
    body = share.share_html(recap, _wanted(recap), request_language(), css)
    response = Response(body, mimetype="text/html")
    response.headers["Content-Disposition"] = f'attachment; filename="game-night-{recap["night"]}.html"'
    return response


@bp.get("/recap/<night>/card.png")
@operation("The evening's summary card (1200×630 PNG): games, winners, facts.",
           params=_NIGHT, errors=(400, 404))
@responds(200, None, "PNG", content_type="image/png")
def card(night: str) -> Response:
    png = share.card_png(_recap(night), request_language())
    response = Response(png, mimetype="image/png")
    response.headers["Content-Disposition"] = f'inline; filename="game-night-{night}.png"'
    return response
