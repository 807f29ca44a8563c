"""Live updates: one hub fans every change out to every open device as server-sent events.

Three kinds of message travel through the hub (see the "HTTP API" section of docs/CONTRACTS.md):

* ``state``   ``{"game": id, "version": v, "type": event type, "news": sentence}`` — a game
  changed (``news`` says what and, for a reading correction, on which device); the ``id:`` line
  is the version, so a browser that reconnects sends it back as ``Last-Event-ID`` and is told
  at once when it missed something. A device never gets a state event older than one it has seen.
* ``tower``   the tower status (camera, buttons, messages for the screen).
* ``reading`` ``{"game": id, "reading": {...}}`` — the camera counted the tray.
* ``bye`` — the stream reached ``max_age``; reconnect now (nothing is lost: Last-Event-ID).

Guarantees: :meth:`Hub.publish` never blocks (a device that stops reading loses old messages,
never the newest ``state``, and reloads the state anyway); every stream starts with a
``retry:`` line; a ``: ping`` comment goes out whenever the stream was quiet for
``ping_seconds``; :meth:`Hub.close` ends every open stream promptly so the server can shut down.

Each stream holds a server thread, so slots are freed fast: a stream ends within ``poll``
seconds of its client closing the connection (the server's ``disconnected`` check), a new
stream of the same ``client`` (a browser tab that reloads or changes page) replaces the old
one at once, and no stream lives longer than ``max_age`` seconds — a device that vanished
without closing (Wi-Fi gone) frees its slot then, and a live one reconnects by itself and
resumes from its ``Last-Event-ID``.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from companion.messages import localize_said

_CLOSED = object()  # sentinel put into every client queue on shutdown


@dataclass(frozen=True)
class Message:
    """One server-sent event. ``game`` None means "for every device" (tower status)."""

    event: str
    data: dict[str, Any]
    game: int | None = None
    id: int | None = None

    def encode(self, lang: str | None = None) -> str:
        """The event's text; sentences in ``data`` that know their message (``Said``, e.g. the
        ``news``) are said in ``lang``, the reader's language (English when None)."""
        data = self.data if lang in (None, "en") else localize_said(self.data, lang)
        lines = []
        if self.id is not None:
            lines.append(f"id: {self.id}")
        lines.append(f"event: {self.event}")
        # json.dumps never emits a raw newline, so one data: line is always enough.
        lines.append("data: " + json.dumps(data, separators=(",", ":")))
        return "\n".join(lines) + "\n\n"


class EventStream:
    """An iterator of event-stream text whose ``close()`` always frees the subscription —
    also when the server closes it before the first chunk (a generator's ``finally`` would
    not run then)."""

    def __init__(self, chunks: Iterator[str], sub: Subscription) -> None:
        self._chunks = chunks
        self._sub = sub

    def __iter__(self) -> EventStream:
        return self

    def __next__(self) -> str:
        return next(self._chunks)

    def close(self) -> None:
        self._chunks.close()  # type: ignore[attr-defined]
        self._sub.close()


class HubClosedError(RuntimeError):
    """The server is shutting down; no new live streams are opened."""


class TooManyStreamsError(RuntimeError):
    """Every server thread reserved for live streams is taken."""

    def __str__(self) -> str:
        return "Too many devices are connected for live updates; close a browser tab and retry."


class Subscription:
    """One device's queue. Only messages for its game (or for everyone) are put into it."""

    def __init__(self, hub: Hub, game: int | None, maxsize: int, client: str | None = None) -> None:
        self._hub = hub
        self.game = game
        self.client = client
        self.gone: Callable[[], bool] | None = None  # the server's "has the client left?" check
        self.queue: queue.Queue[Any] = queue.Queue(maxsize=maxsize)

    def wants(self, message: Message) -> bool:
        return self.game is None or message.game is None or message.game == self.game

    def offer(self, item: Any) -> None:
        """Put without blocking; when the device lags, drop its oldest message instead."""
        while True:
            try:
                self.queue.put_nowait(item)
                return
            except queue.Full:
                try:
                    self.queue.get_nowait()
                except queue.Empty:
                    pass

    def close(self) -> None:
        self._hub._remove(self)


def _left(sub: Subscription) -> bool:
    try:
        return sub.gone is not None and bool(sub.gone())
    except Exception:
        return False


class Hub:
    """Publish/subscribe for server-sent events. Thread-safe."""

    def __init__(
        self,
        *,
        ping_seconds: float = 15.0,
        retry_ms: int = 2000,
        max_clients: int = 24,
        queue_size: int = 256,
        poll_seconds: float = 0.25,
        max_age_seconds: float | None = 300.0,
    ) -> None:
        self.ping_seconds = ping_seconds
        self.poll_seconds = poll_seconds
        self.max_age_seconds = max_age_seconds
        self.retry_ms = retry_ms
        self.max_clients = max_clients
        self._queue_size = queue_size
        self._lock = threading.Lock()
        self._subscriptions: set[Subscription] = set()
        self._closed = threading.Event()

    # -- publishing --------------------------------------------------------------------------

    def publish(self, message: Message) -> None:
        with self._lock:
            targets = [s for s in self._subscriptions if s.wants(message)]
        for sub in targets:
            sub.offer(message)

    def publish_state(self, game: int, version: int, **about: Any) -> None:
        """``about``: what changed (``type``, ``news``), added to the event's data."""
        data = {"game": game, "version": version, **about}
        self.publish(Message("state", data, game=game, id=version))

    def publish_tower(self, status: dict[str, Any]) -> None:
        self.publish(Message("tower", status))

    def publish_tabletop(self, tabletop_id: int | None) -> None:
        """A game of the game-night log changed (``None``: one was deleted): every device
        showing the evening or that game reads it again."""
        self.publish(Message("tabletop", {"id": tabletop_id}))

    def publish_reading(self, game: int, reading: dict[str, Any]) -> None:
        self.publish(Message("reading", {"game": game, "reading": reading}, game=game))

    # -- subscribing -------------------------------------------------------------------------

    @property
    def client_count(self) -> int:
        with self._lock:
            return len(self._subscriptions)

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def subscribe(self, game: int | None = None, client: str | None = None) -> Subscription:
        """A new subscription. ``client`` identifies a browser tab: its older stream (a reload,
        a page change, a reconnect after a drop) is ended now and its slot reused."""
        with self._lock:
            if self._closed.is_set():
                raise HubClosedError("The server is shutting down.")
            replaced = [s for s in self._subscriptions if client is not None and s.client == client]
            if len(self._subscriptions) - len(replaced) >= self.max_clients:
                # Full: streams whose client has already left give their slot now, not at
                # their next poll.
                replaced += [s for s in self._subscriptions if s not in replaced and _left(s)]
            for old in replaced:
                self._subscriptions.discard(old)
            if len(self._subscriptions) >= self.max_clients:
                raise TooManyStreamsError()
            sub = Subscription(self, game, self._queue_size, client)
            self._subscriptions.add(sub)
        for old in replaced:
            old.offer(_CLOSED)
        return sub

    def _remove(self, sub: Subscription) -> None:
        with self._lock:
            self._subscriptions.discard(sub)

    def stream(
        self,
        sub: Subscription,
        initial: Callable[[], Iterable[Message]] = tuple,
        seen: Mapping[int, int] | None = None,
        disconnected: Callable[[], bool] | None = None,
        lang: str | None = None,
    ) -> EventStream:
        """The text of one event stream (closing it ends the subscription, even unstarted).

        ``initial`` runs after subscribing, so nothing that happens in between is lost.
        ``seen`` maps game → version the device already has (from ``Last-Event-ID``). A state
        event is only sent when it is newer than every one this device has seen — versions
        only grow (undo appends), so an older or repeated one carries no news.
        ``disconnected`` (the server's "has the client gone?" check) is asked every
        ``poll_seconds``; the stream ends as soon as it says yes. ``lang``: the device's
        language, for the sentences in the events (see :meth:`Message.encode`).
        """
        newest: dict[int, int] = dict(seen or {})

        def fresh(message: Message) -> bool:
            if message.event != "state" or message.game is None or message.id is None:
                return True
            if message.id <= newest.get(message.game, -1):
                return False
            newest[message.game] = message.id
            return True

        sub.gone = disconnected
        return EventStream(self._chunks(sub, initial, fresh, disconnected, lang), sub)

    def _chunks(
        self,
        sub: Subscription,
        initial: Callable[[], Iterable[Message]],
        fresh: Callable[[Message], bool],
        disconnected: Callable[[], bool] | None,
        lang: str | None = None,
    ) -> Iterator[str]:
        wait = min(self.ping_seconds, self.poll_seconds) if disconnected else self.ping_seconds
        started = last_sent = time.monotonic()
        try:
            yield f"retry: {self.retry_ms}\n\n"
            for message in initial():
                if fresh(message):
                    yield message.encode(lang)
            while True:
                try:
                    item = sub.queue.get(timeout=wait)
                except queue.Empty:
                    item = None
                now = time.monotonic()
                if item is _CLOSED or self._closed.is_set():
                    return
                if disconnected is not None and disconnected():
                    return  # the client closed the connection: free the thread now
                if self.max_age_seconds is not None and now - started >= self.max_age_seconds:
                    # A planned end: the page reconnects at once and resumes (Last-Event-ID).
                    yield Message("bye", {"reconnect": True}).encode()
                    return
                if item is None:
                    if now - last_sent >= self.ping_seconds - 1e-3:
                        last_sent = now
                        yield ": ping\n\n"
                    continue
                if fresh(item):
                    last_sent = now
                    yield item.encode(lang)
        finally:
            sub.close()

    def close(self) -> None:
        """End every open stream (server shutdown). Idempotent."""
        self._closed.set()
        with self._lock:
            subs = list(self._subscriptions)
        for sub in subs:
            sub.offer(_CLOSED)
