"""``GET /api/events``: live updates as server-sent events (see :mod:`companion.web.live`).

``?game=<id>`` limits ``state`` and ``reading`` events to one game (tower events go to all).
On connect the stream starts with ``retry:``, the tower status and — for a game — the game's
current ``state`` event unless the browser's ``Last-Event-ID`` (or ``?last_event_id=``, for a
page that had to open a new EventSource) says it already has that version; the catch-up
event's ``news`` names what the device missed. So a device that was offline for a moment
catches up without a reload.

``?client=<id>`` (a random id per browser tab): a new stream of the same tab replaces its old
one at once, so reloads, page changes and flapping Wi-Fi never pile up streams.
"""

from __future__ import annotations

import re
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


_CLIENT = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def _client_param() -> str | None:
    raw = request.args.get("client")
    if not raw:
        return None
    if not _CLIENT.match(raw):
        raise MalformedRequestError('"client" must be 1 to 64 letters, digits, "-" or "_".')
    return raw


def _last_seen() -> int | None:
    raw = (request.headers.get("Last-Event-ID") or request.args.get("last_event_id") or "").strip()
    return int(raw) if raw.isdigit() else None


def missed_news(rt, game: int, seen: int | None, version: int) -> dict[str, str]:
    """What a device that last saw ``seen`` missed up to ``version``, as the event's news."""
    if seen is None or seen >= version:
        return {}
    state = rt.service.state(game)
    log = getattr(state, "log", None)
    if not isinstance(log, list) or len(log) < version:
        return {}
    from companion.game.reading import summary

    return {"news": summary(log[seen:version])}


@bp.get("/events")
def events() -> Response:
    rt = runtime()
    game = _game_param()
    if game is not None:
        rt.service.state(game)  # 404 before the stream starts, not inside it
    client = _client_param()
    last_seen = _last_seen()
    seen = {game: last_seen} if game is not None and last_seen is not None else {}
    try:
        sub = rt.hub.subscribe(game, client)
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
            data = {"game": game, "version": version, **missed_news(rt, game, last_seen, version)}
            yield Message("state", data, game=game, id=version)

    # waitress tells whether the client has gone (serve.py keeps the channel readable for it).
    disconnected = request.environ.get("waitress.client_disconnected")
    response = Response(
        rt.hub.stream(sub, initial, seen, disconnected), mimetype="text/event-stream"
    )
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # should anyone put a proxy in front
    return response
