"""The tower: its status and the on-screen buttons (the same path as the buttons on the tower)."""

from __future__ import annotations

import logging
import threading
from typing import Any

from flask import Blueprint, Response, jsonify

from companion.web.api.runtime import runtime
from companion.web.api.shapes import Press, Pressed, TowerStatus
from companion.web.api.spec import accepts, operation, responds

log = logging.getLogger("companion.web")

bp = Blueprint("api_tower", __name__, url_prefix="/api")

def tower_body() -> dict:
    rt = runtime()
    return {"simulated": bool(rt.tower.simulated), **rt.tower.status()}


@bp.get("/tower")
@operation("Tower status (camera, buttons, messages for the screen)")
@responds(200, TowerStatus, "Status.")
def status() -> Response:
    return jsonify(tower_body())


@bp.post("/tower/press")
@operation(
    "Press a tower button on screen (same path as the GPIO button)",
    description="A count runs in the background; its result arrives as a `reading` event, or "
    "a `tower` event with a `message` saying why there is none.",
)
@accepts(Press)
@responds(202, Pressed, "Pressed.")
def press(body: Press) -> tuple[Response, int]:
    """Press a tower button. A count runs in the background; its reading (or the reason there
    is none) reaches every device as a live event, so the answer is 202 Accepted at once."""
    button = body.button
    tower = runtime().tower
    # On mock pins a press holds the pin past the debounce time (tens of ms): do it beside
    # the request so the screen answers at once; the outcome travels as a live event anyway.
    threading.Thread(target=_press, args=(tower, button), name="companion-press", daemon=True).start()
    return jsonify({"pressed": button, "tower": tower_body()}), 202


def _press(tower: Any, button: str) -> None:
    try:
        tower.press(button)
    except Exception:
        log.exception("pressing the %s button failed", button)
