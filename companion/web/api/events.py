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

from collections.abc import Iterator

from flask import Blueprint, Response, request

from companion.messages import Said
from companion.web.api.errors import StreamUnavailableError
from companion.web.api.runtime import runtime
from companion.web.api.shapes import EventsQuery
from companion.web.api.spec import accepts_query, operation, responds
from companion.web.i18n import request_language
from companion.web.live import HubClosedError, Message, TooManyStreamsError

bp = Blueprint("api_events", __name__, url_prefix="/api")


_SSE_DESCRIPTION = """Server-sent events (text/event-stream). Events:
* `state` — data `{"game", "version", "type", "news", "device"?}`, `id:` = version: reload the
  game; `news` says what changed ("Red was corrected to 5"), `device` where.
* `tower` — data: the tower status (plus `message` when a button press could not count).
* `reading` — data `{"game", "reading"}`: the camera counted the tray.
* `bye` — the stream reached its maximum age (60 s): reconnect now; nothing is lost.
The stream starts with `retry:` and the tower status; with `game`, also the game's current
`state` unless `Last-Event-ID` (or `last_event_id`) already equals its version — its `news` then
names what the device missed. A `: ping` comment is sent whenever the stream was quiet for 15 s.
A stream ends within a second of its client closing the connection; a new stream with the same
`client` replaces the older one at once."""
_LAST_EVENT_ID = {"name": "Last-Event-ID", "in": "header", "required": False,
                  "schema": {"type": "string"},
                  "description": "Sent by the browser on reconnect: the last version seen."}

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
    from companion.game.reading import summary_message

    names = {p.color: p.name for p in getattr(state, "players", ())}
    return {"news": Said(summary_message(log[seen:version], names=names, board=getattr(state, "board", None)))}


@bp.get("/events")
@operation("Live updates (server-sent events)", description=_SSE_DESCRIPTION,
           errors=(400, 404, 503), headers=[_LAST_EVENT_ID])
@accepts_query(EventsQuery)
@responds(200, None, "The stream.", content_type="text/event-stream")
def events(query: EventsQuery) -> Response:
    rt = runtime()
    game = query.game
    if game is not None:
        rt.service.state(game)  # 404 before the stream starts, not inside it
    client = query.client
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
        rt.hub.stream(sub, initial, seen, disconnected, lang=request_language()),
        mimetype="text/event-stream",
    )
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # should anyone put a proxy in front
    return response
