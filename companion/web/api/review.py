"""The game review: the state at any version, and every battle, odds and turning point.

Read-only: nothing here changes a game (only GET routes). Photos of a battle are named by URL
when their file is there and a JPEG; otherwise the battle says which are ``missing`` or
``damaged``, so a review or an export of a game whose photos were pruned still works.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from companion.messages import localize_warnings
from companion.store.review import Replayer, game_review
from companion.web.api.readings import IMAGES
from companion.web.api.runtime import Runtime, runtime
from companion.web.api.shapes_review import Review, ReviewState, ReviewStateQuery
from companion.web.api.spec import accepts_query, operation, responds
from companion.web.i18n import request_language

bp = Blueprint("api_review", __name__, url_prefix="/api")
_KEY = "companion_review"
JPEG_START = b"\xff\xd8\xff"


def replayer(rt: Runtime) -> Replayer:
    """The app's one :class:`Replayer` (keeps the events of the games being stepped through)."""
    found = current_app.extensions.get(_KEY)
    if found is None:
        found = current_app.extensions[_KEY] = Replayer(rt.log, rt.service.rules)
    return found


def photo_state(path: Path) -> str:
    """``"ok"``, ``"missing"`` or ``"damaged"`` (not a JPEG) for one stored photo."""
    try:
        with path.open("rb") as fh:
            return "ok" if fh.read(3) == JPEG_START else "damaged"
    except OSError:
        return "missing"


def battle_photos(rt: Runtime, rid: str | None) -> dict[str, Any]:
    """URLs of a battle's photos; what is missing or damaged is named (hand-counted: none)."""
    out: dict[str, Any] = {"reading": rid, "missing": [], "damaged": []}
    for which, name in IMAGES.items():
        if rid is None:
            out[which] = None
            continue
        status = photo_state(rt.readings.root / rid / name)
        out[which] = f"/api/readings/{rid}/{name}" if status == "ok" else None
        if status == "damaged":
            out["damaged"].append(which)
        elif status == "missing" and which != "empty":  # no empty photo: the tray was not checked
            out["missing"].append(which)
    return out


@bp.get("/games/<int:game_id>/review")
@operation("A game's review: every step, every battle (photos, camera counts, corrections with "
           "device and player, the odds kept before the throw), turning points, VP per round. "
           "Changes nothing.")
@responds(200, Review, "The review.")
def review(game_id: int) -> Response:
    rt = runtime()
    body = game_review(rt.log, game_id, replayer(rt))
    for battle in body["battles"]:
        battle["photos"] = battle_photos(rt, battle.get("reading_id"))
    return jsonify(body)


@bp.get("/games/<int:game_id>/review/state")
@operation("The game's state as it was at one step (replayed from the log). Changes nothing.",
           errors=(400, 404))
@accepts_query(ReviewStateQuery)
@responds(200, ReviewState, "The state at that step.")
def state_at(game_id: int, query: ReviewStateQuery) -> Response:
    rt = runtime()
    rep = replayer(rt)
    state = rep.state_at(game_id, query.version)
    payloads, _ = rep.events(game_id)
    event = {**payloads[query.version - 1], "seq": query.version}
    return jsonify(step_body(game_id, query.version, len(payloads), event, state, request_language()))


def step_body(game_id: int, version: int, newest: int, event: dict[str, Any], state: Any,
              lang: str) -> dict[str, Any]:
    """One step as the review shows it: the state without the board (the review has it once)
    and with each scored round as its totals (the breakdowns are on the game page)."""
    data = state.to_dict(include_board=False)
    data["scores"] = [{"round": s.get("round"),
                       "players": {c: (b or {}).get("total") for c, b in (s.get("players") or {}).items()}}
                      for s in data.get("scores") or ()]
    event = localize_warnings({"warnings": event.get("warnings") or []}, lang) | {
        k: v for k, v in event.items() if k != "warnings"}
    data["warnings"] = localize_warnings({"warnings": data.get("warnings") or []}, lang)["warnings"]
    return {"id": game_id, "version": version, "newest": newest, "event": event, "state": data}
