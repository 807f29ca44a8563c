"""Statistics over every game in the log (players, colours, tribes, battles, camera corrections)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.web.api.runtime import runtime

bp = Blueprint("api_stats", __name__, url_prefix="/api")


@bp.get("/stats")
def statistics() -> Response:
    from companion.store.stats import statistics as compute

    return jsonify(compute(runtime().log))
