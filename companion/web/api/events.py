"""``GET /api/events``: live updates as server-sent events (see :mod:`companion.web.live`).

``?game=<id>`` limits ``state`` and ``reading`` events to one game (tower events go to all).
On connect the stream starts with ``retry:``, the tower status and — for a game — the game's
current ``state`` event unless the browser's ``Last-Event-ID`` says it already has that version,
so a device that was offline for a moment catches up without a reload.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Response, request

from companion.web.api.errors import MalformedRequestError, StreamUnavailableError
from companion.web.api.runtime import runtime
from companion.web.live import HubClosedError, Message, TooManyStreamsError

bp = Blueprint("api_events", __name__, url_prefix="/api")


def _game_param() -> int | None:
    raw = request.args.get("game")
    if raw is None or raw == "":
        return None
    if not raw.isdigit():
        raise MalformedRequestError('"game" must be the number of a game.')
    return int(raw)


@bp.get("/events")
def events() -> Response:
    rt = runtime()
    game = _game_param()
    if game is not None:
        rt.service.state(game)  # 404 before the stream starts, not inside it
    last_seen = request.headers.get("Last-Event-ID", "").strip()
    seen = {game: int(last_seen)} if game is not None and last_seen.isdigit() else {}
    try:
        sub = rt.hub.subscribe(game)
    except (HubClosedError, TooManyStreamsError) as exc:
        raise StreamUnavailableError(str(exc)) from None

    def initial() -> Iterator[Message]:
        # Runs after subscribing: whatever changes from here on is also in the queue.
        try:
            yield Message("tower", {"simulated": bool(rt.tower.simulated), **rt.tower.status()})
        except Exception:  # a camera hiccup must not cost the device its game updates
            pass
        if game is not None:  # the stream drops it when Last-Event-ID already has it
            version = rt.service.state(game).version
            yield Message("state", {"game": game, "version": version}, game=game, id=version)

    response = Response(
        rt.hub.stream(sub, initial, seen), mimetype="text/event-stream"
    )
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # should anyone put a proxy in front
    return response
