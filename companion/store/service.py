"""``GameService``: the only object the web layer uses to change games.

``execute`` runs one command through a fixed pipeline, under the game's lock::

    parse → (game exists) → expected_version → decide → evolve → append (one transaction)
          → swap the cached state → notify subscribers

Guarantees:

- A command the game refuses raises the game's error (a ``GameError``, which is a
  ``ValueError``) and changes nothing: not the file, not the cache, no notification.
- The cached state always equals ``replay`` of the stored events: it is replaced only after the
  event is committed, and dropped (to be rebuilt by replay) whenever anything after ``decide``
  fails. After a restart, states are rebuilt by replay on first use.
- Commands to one game are serialised by a per-game lock; different games run in parallel.
  Writes by another process on the same file are caught by the log's version check
  (:class:`VersionConflictError`) and the stale cache entry is dropped.

The rules are pluggable (:class:`~companion.store.rules.Rules`); the default is the game
engine of :mod:`companion.game`.
"""

from __future__ import annotations

import queue
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from companion.store.errors import (
    GameNotFoundError,
    GameUnreadableError,
    VersionConflictError,
)
from companion.store.log import GameLog, check_version
from companion.store.rules import Rules


CACHED_GAMES = 16  # states kept in memory; others are replayed on demand (memory bar: 250 MB)
QUEUE_SIZE = 256


def _game_id(game_id: Any) -> int:
    if not isinstance(game_id, int) or isinstance(game_id, bool) or game_id < 1:
        raise GameNotFoundError(game_id)
    return game_id


class GameService:
    """Games as commands in, states out, over a :class:`GameLog`.

    ``rules`` defaults to the real game engine (imported on first construction). States handed
    out are shared with the cache: read them, never mutate them.
    """

    def __init__(self, log: GameLog, rules: Rules | None = None) -> None:
        if rules is None:
            from companion.store.rules import EngineRules

            rules = EngineRules()
        self.log = log
        self.rules = rules
        self._cache: OrderedDict[int, Any] = OrderedDict()
        self._last_event: dict[int, dict[str, Any]] = {}
        self._guard = threading.Lock()  # protects the dicts below and the cache's order
        self._locks: dict[int, threading.RLock] = {}
        self._subscribers: list[queue.Queue[tuple[int, int]]] = []

    # -- commands ---------------------------------------------------------------------------

    def new_game(self, command: Mapping[str, Any], board: Any = None) -> tuple[int, Any]:
        """Start a game from a ``new_game`` command; return ``(game_id, state)``.

        The board snapshot is taken from the command, else from ``board`` (a ``Board`` or its
        dict), else the owner's default board; it is stored in the first event, so later
        changes of the owner's board never change a game already started.
        """
        event, state = self._first_event(command, board)
        game_id = self.log.create_game(
            self.rules.title(state), first_event=event, meta=self.rules.meta(state)
        )
        with self._game_lock(game_id):
            self._remember(game_id, state, event)
            self._notify(game_id, state.version)
        return game_id, state

    def new_game_once(
        self, command: Mapping[str, Any], key: str, fingerprint: str, board: Any = None
    ) -> tuple[int, Any, bool]:
        """As :meth:`new_game`, at most once per client-chosen ``key``: ``(game_id, state,
        created)``. A repeat of the key (a retried create whose answer was lost) creates
        nothing, notifies nobody and returns the game's state as it was created (its first
        event replayed), so the retry gets the same answer. The same key with another
        ``fingerprint`` (request) raises :class:`CreateKeyReusedError`. See
        :meth:`GameLog.create_game_once` for the transaction.
        """
        event, state = self._first_event(command, board)
        game_id, created = self.log.create_game_once(
            key, fingerprint, self.rules.title(state), first_event=event, meta=self.rules.meta(state)
        )
        if created:
            with self._game_lock(game_id):
                self._remember(game_id, state, event)
                self._notify(game_id, state.version)
            return game_id, state, True
        first = self.log.events(game_id)[0]
        return game_id, self.rules.evolve(None, first.payload), False

    def _first_event(self, command: Mapping[str, Any], board: Any) -> tuple[dict[str, Any], Any]:
        """The ``new_game`` event of ``command`` and the state it starts (nothing stored)."""
        data = dict(command) if isinstance(command, Mapping) else command
        if isinstance(data, dict) and data.get("board") is None:
            data["board"] = self.rules.board_snapshot(board)
        event = self.rules.decide(None, self.rules.parse(data))
        return event, self.rules.evolve(None, event)

    def execute(
        self, game_id: int, command: Mapping[str, Any], expected_version: int | None = None
    ) -> Any:
        """Apply one command to a game and return the new state (see the module docstring).

        ``expected_version`` is the ``state.version`` the client decided on; when the game has
        moved on, :class:`VersionConflictError` is raised and nothing happens.
        """
        return self.execute_with_event(game_id, command, expected_version)[0]

    def execute_with_event(
        self, game_id: int, command: Mapping[str, Any], expected_version: int | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """As :meth:`execute`, returning ``(state, event)`` — the event this command appended."""
        if expected_version is not None:
            check_version(expected_version)
        cmd = self.rules.parse(command)  # well-formed first: needs no state
        game_id = _game_id(game_id)
        with self._game_lock(game_id):
            state = self._load(game_id)
            if expected_version is not None and expected_version != state.version:
                raise VersionConflictError(
                    game_id, expected_version, state.version,
                    self._missed(game_id, state, expected_version),
                )
            event = self.rules.decide(state, cmd)  # a refusal raises here: nothing changed yet
            try:
                new_state = self.rules.evolve(state, event)
                self.log.append(
                    game_id,
                    event,
                    state.version,
                    meta=self.rules.meta(new_state),
                    battle=self.rules.battle(state, event, new_state),
                    reading=self.rules.reading(state, event, new_state),
                )
            except BaseException:
                # The stored log is the truth; whatever evolve may have touched, replay restores.
                self._forget(game_id)
                raise
            self._remember(game_id, new_state, event)
            self._notify(game_id, new_state.version)
        return new_state, event

    def _missed(self, game_id: int, state: Any, expected: int) -> Any:
        """What changed since the version a stale command was decided on, in the rules' words."""
        describe = getattr(self.rules, "stale_message", None)
        if describe is None or expected > state.version:
            return None
        log = getattr(state, "log", None)
        if isinstance(log, list) and len(log) == state.version:
            missed = log[expected:]
        else:
            missed = [e.payload for e in self.log.events(game_id, after=expected)]
        try:
            return describe(missed, state)
        except Exception:  # words are a courtesy: the refusal itself must never fail
            return None

    # -- reading ----------------------------------------------------------------------------

    def state(self, game_id: int) -> Any:
        """The current state of a game: cached, or rebuilt by replaying its events."""
        game_id = _game_id(game_id)
        with self._game_lock(game_id):
            return self._load(game_id)

    def last_event(self, game_id: int) -> dict[str, Any] | None:
        """The most recent event of the game (from memory, else from the log).

        Prefer :meth:`execute_with_event`: between ``execute`` and this call another command
        may have run.
        """
        game_id = _game_id(game_id)
        with self._game_lock(game_id):
            if game_id in self._last_event:
                return self._last_event[game_id]
            events = self.log.events(game_id, after=max(self.log.version(game_id) - 1, 0))
            return events[-1].payload if events else None

    # -- live updates -----------------------------------------------------------------------

    def subscribe(self, maxsize: int = QUEUE_SIZE) -> queue.Queue[tuple[int, int]]:
        """A queue that receives ``(game_id, version)`` after every committed change.

        A slow reader never blocks a command: when its queue is full the oldest notification is
        dropped (only the newest version of a game matters).
        """
        q: queue.Queue[tuple[int, int]] = queue.Queue(maxsize=maxsize)
        with self._guard:
            self._subscribers.append(q)
        return q

    def unsubscribe(self, q: queue.Queue[tuple[int, int]]) -> None:
        """Stop notifying ``q``; unknown queues are ignored."""
        with self._guard:
            if q in self._subscribers:
                self._subscribers.remove(q)

    def _notify(self, game_id: int, version: int) -> None:
        with self._guard:
            subscribers = list(self._subscribers)
        for q in subscribers:
            while True:
                try:
                    q.put_nowait((game_id, version))
                    break
                except queue.Full:
                    try:
                        q.get_nowait()
                    except queue.Empty:
                        pass

    # -- the cache --------------------------------------------------------------------------

    @contextmanager
    def _game_lock(self, game_id: int) -> Iterator[None]:
        with self._guard:
            lock = self._locks.setdefault(game_id, threading.RLock())
        with lock:
            yield

    def _load(self, game_id: int) -> Any:
        """Cached state or replay; the caller holds the game's lock."""
        with self._guard:
            if game_id in self._cache:
                self._cache.move_to_end(game_id)
                return self._cache[game_id]
        events = self.log.events(game_id)  # GameNotFoundError for an unknown game
        if not events:  # created by hand without its new_game event: not a playable game
            raise GameNotFoundError(game_id)
        try:
            state = self.rules.replay([e.payload for e in events])
        except Exception as exc:  # any failure of the rules on a stored log is the same problem
            raise GameUnreadableError(game_id, str(exc) or type(exc).__name__) from exc
        self._remember(game_id, state, events[-1].payload)
        return state

    def _remember(self, game_id: int, state: Any, event: dict[str, Any]) -> None:
        with self._guard:
            self._cache[game_id] = state
            self._cache.move_to_end(game_id)
            self._last_event[game_id] = event
            while len(self._cache) > CACHED_GAMES:
                old, _ = self._cache.popitem(last=False)
                self._last_event.pop(old, None)

    def _forget(self, game_id: int) -> None:
        with self._guard:
            self._cache.pop(game_id, None)
            self._last_event.pop(game_id, None)
