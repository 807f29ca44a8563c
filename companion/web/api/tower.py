"""The tower: its status and the on-screen buttons (the same path as the buttons on the tower)."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.web.api.errors import MalformedRequestError
from companion.web.api.parsing import json_object
from companion.web.api.runtime import runtime

bp = Blueprint("api_tower", __name__, url_prefix="/api")

BUTTONS = ("count", "cancel")


def tower_body() -> dict:
    rt = runtime()
    return {"simulated": bool(rt.tower.simulated), **rt.tower.status()}


@bp.get("/tower")
def status() -> Response:
    return jsonify(tower_body())


@bp.post("/tower/press")
def press() -> tuple[Response, int]:
    """Press a tower button. A count runs in the background; its reading (or the reason there
    is none) reaches every device as a live event, so the answer is 202 Accepted at once."""
    button = json_object().get("button")
    if button not in BUTTONS:
        raise MalformedRequestError('"button" must be "count" or "cancel".')
    runtime().tower.press(button)
    return jsonify({"pressed": button, "tower": tower_body()}), 202
