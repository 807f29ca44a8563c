"""The long-lived objects one app holds: game log, game service, tower, live hub, readings.

They live on ``app.extensions["companion"]`` as one :class:`Runtime`; blueprints reach it with
:func:`runtime`. The relay thread forwards every committed game change from the service to the
hub (so a change made on any device reaches every device) and publishes the tower status
whenever it changes; counts started by a button run on short-lived threads of their own.
"""

from __future__ import annotations

import logging
import queue
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import current_app

from companion.config import Settings
from companion.messages import Said
from companion.web.live import Hub

if TYPE_CHECKING:
    from companion.hw.tower import Tower
    from companion.store import GameLog, GameService
    from companion.web.api.counting import BattleCounter
    from companion.web.api.readings import ReadingStore

log = logging.getLogger("companion.web")

EXTENSION_KEY = "companion"


@dataclass
class Runtime:
    settings: Settings
    data_dir: Path
    log: GameLog
    service: GameService
    tower: Tower
    hub: Hub
    readings: ReadingStore
    counter: BattleCounter
    tower_poll_seconds: float = 2.0
    # The game a device touched last: where a press of the physical button belongs.
    active_game: int | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _relay: threading.Thread | None = None
    _updates: queue.Queue[Any] | None = None

    @property
    def board_path(self) -> Path:
        return self.data_dir / "board.toml"

    def touch(self, game_id: int) -> None:
        self.active_game = game_id

    def start(self) -> None:
        updates = self._updates = self.service.subscribe()
        self._relay = threading.Thread(
            target=self._relay_loop, args=(updates,), name="companion-live-relay", daemon=True
        )
        self._relay.start()

    def _relay_loop(self, updates: queue.Queue[tuple[int, int]]) -> None:
        last_status: dict[str, Any] | None = None
        poll = min(self.tower_poll_seconds, 0.5)
        waited = self.tower_poll_seconds  # publish the first status at once
        while not self._stop.is_set():
            try:
                item = updates.get(timeout=poll)
            except queue.Empty:
                waited += poll
            else:
                if item is None:  # close() wakes us up
                    return
                self.hub.publish_state(*item, **self._about(*item))
                continue
            if waited >= self.tower_poll_seconds:
                waited = 0.0
                try:
                    status = self.tower.status()
                except Exception:  # a flaky camera must never stop the state relay
                    log.exception("reading the tower status failed")
                    continue
                if status != last_status:
                    last_status = status
                    self.hub.publish_tower(status)

    def _about(self, game: int, version: int) -> dict[str, Any]:
        """The type and a sentence of the event that made ``version`` (for the devices' notes)."""
        try:
            state = self.service.state(game)
        except Exception:
            return {}
        log = getattr(state, "log", None)
        names = {p.color: p.name for p in getattr(state, "players", ())}
        if not isinstance(log, list) or len(log) < version:
            return {}
        from companion.game.reading import news_message

        event = log[version - 1]
        about = {"type": event.get("type", ""), "news": Said(news_message(event, names, getattr(state, "board", None)))}
        device = (event.get("command") or {}).get("device")
        if device:
            about["device"] = device
        return about

    def close(self) -> None:
        """End live streams, stop the relay, release the camera and the pins. Idempotent."""
        if self._stop.is_set():
            return
        self._stop.set()
        self.hub.close()
        if self._updates is not None:
            self.service.unsubscribe(self._updates)
            try:
                self._updates.put_nowait(None)
            except queue.Full:
                pass  # the relay is busy draining and will see _stop after the next item
        if self._relay is not None:
            self._relay.join(timeout=5)
        cancel = getattr(self.tower, "cancel", None)
        if cancel is not None:
            cancel()  # a count in progress ends now instead of waiting for its timeout
        self.counter.close()
        for closer in (getattr(self.tower, "close", None), getattr(self.log, "close", None)):
            if closer is not None:
                try:
                    closer()
                except Exception:
                    log.exception("closing %r failed", closer)


def runtime() -> Runtime:
    """The runtime of the app handling the current request."""
    return current_app.extensions[EXTENSION_KEY]
