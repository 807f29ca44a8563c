"""Counting the tray for a game: the one path shared by the on-screen button, the HTTP endpoint
and the physical button on the tower.

The game decides what goes into the tower (the pending battle's throw, or the seeding throw);
the tower throws it (simulator) or the players did (real tower), waits for the tray to settle,
takes a fresh frame and counts it. The photo and details are stored (``ReadingStore``) and the
counts become the game's shared reading (a ``read_tray`` event, so every device shows the same
counts under one version); every +/- is a ``correct_tray`` event, and ``resolve_battle`` (or
``seed_tower``) applies the reading the device was shown.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from companion.errors import CompanionError
from companion.game.colors import GREEN
from companion.hw.errors import CountCancelledError, CountInProgressError, CountTimeoutError
from companion.web.api.errors import ApiError, NoPendingBattleError

log = logging.getLogger("companion.web")


def throw_for(state: Any) -> dict[str, int] | None:
    """What the game says goes into the tower now, or None when nothing is to be counted:
    the pending battle's ``throw``, or during seeding 7 cubes per player and 10 green."""
    from companion.game.colors import SEED_GREEN, SEED_PER_PLAYER

    if state.battle is not None:
        return {c: int(n) for c, n in state.battle.get("throw", {}).items() if n}
    if state.phase == "seeding":
        return {**{color: SEED_PER_PLAYER for color in state.colors}, GREEN: SEED_GREEN}
    return None


class TrayNotCheckedError(ApiError, ValueError):
    """A real tower counts a throw only after the tray was checked empty for that battle."""

    status = 409

    def __init__(self) -> None:
        super().__init__("First check that the tray is empty: take every cube out and press "
                         "count (or Check the tray); then throw and press count again.")


class BattleCounter:
    """Runs one count at a time for a game and publishes the reading."""

    def __init__(
        self,
        service: Any,
        tower: Any,
        readings: Any,
        hub: Any,
        *,
        timeout: float = 20.0,
    ) -> None:
        self.service = service
        self.tower = tower
        self.readings = readings
        self.hub = hub
        self.timeout = timeout
        self._lock = threading.Lock()  # held while a count runs: a second one is refused
        # Every count runs on this one thread. Image work allocates tens of MB; done on a
        # different server thread each time, every thread would keep its own malloc arena
        # and the resident memory would climb with each new thread (measured: +12 MB/count).
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="companion-count")
        # (game, version) whose cubes went into the tower already, also when the count after
        # the throw timed out or was cancelled: from then on only the tray is counted again.
        self._thrown: set[tuple[int, int]] = set()
        # (game, version) whose tray was checked empty before the throw (a real tower's first
        # press); the simulated tower checks it itself right before it throws.
        self._checked: set[tuple[int, int]] = set()

    def check_tray(self, game_id: int) -> dict[str, Any]:
        """The empty-tray step before ``game_id``'s pending throw: photograph and count the
        tray. Empty: its photo is the battle's empty-tray reference (the count uses it and the
        reading keeps it). Raises the tower's TrayNotEmptyError naming what lies there (the
        count waits), NoPendingBattleError, or what the camera raises. The game is unchanged."""
        state = self.service.state(game_id)
        if throw_for(state) is None:
            raise NoPendingBattleError(game_id)
        self.tower.check_colors([*state.colors, GREEN])
        if not self._lock.acquire(blocking=False):
            raise CountInProgressError()
        try:
            self._worker.submit(self.tower.check_empty_tray).result()
            self._checked = {k for k in self._checked if k[0] != game_id} | {(game_id, state.version)}
        finally:
            self._lock.release()
        self._publish_status("The tray is empty: throw the cubes, then press count.")
        return {"empty": True, "game": game_id, "version": state.version}

    def needs_tray_check(self, game_id: int, state: Any = None) -> bool:
        """True when a press of count for ``game_id`` must check the empty tray first: a real
        tower, a throw not yet counted, no check for this battle waiting. ``state``: the game's
        state when the caller holds it already."""
        if getattr(self.tower, "simulated", True):
            return False
        if state is None:
            state = self.service.state(game_id)
        key = (game_id, state.version)
        return not self._thrown_or_read(game_id, state.version) and not (
            key in self._checked and self.tower.empty_tray_ready)

    def _thrown_or_read(self, game_id: int, version: int) -> bool:
        """This throw (the game at ``version``) was thrown already, or a reading of it is kept."""
        previous = self.readings.latest(game_id)
        return (game_id, version) in self._thrown or (previous is not None and previous["version"] == version)

    def count(self, game_id: int) -> dict[str, Any]:
        """Count the tray for ``game_id``'s pending throw; returns the stored reading.

        A second count for the same state version (after a reading, a timeout or a cancel) is
        a recount of the tray as it lies: nothing is thrown again. Raises NoPendingBattleError
        (nothing to count), GameNotFoundError, the tower's ColoursNotCalibratedError (the
        calibration lacks a colour of the game: count by hand, nothing is thrown),
        CameraUnavailableError / CountTimeoutError / CountInProgressError. The game is never
        changed here.
        """
        state = self.service.state(game_id)
        thrown = throw_for(state)
        if thrown is None:
            raise NoPendingBattleError(game_id)
        # Any colour of the game can fall out of the tower in any battle (the interior holds
        # every player's cubes): the camera counts only when it knows them all, and green.
        self.tower.check_colors([*state.colors, GREEN])
        if self.needs_tray_check(game_id, state):
            self.tower.require_camera()  # a missing camera is the news, not the missing check
            raise TrayNotCheckedError()
        if not self._lock.acquire(blocking=False):
            raise CountInProgressError()
        try:
            reading = self._worker.submit(self._count, game_id, state, thrown).result()
            self._record(game_id, reading)
        finally:
            self._lock.release()
        self.hub.publish_reading(game_id, reading)
        return reading

    def _record(self, game_id: int, reading: dict[str, Any]) -> None:
        """Make the camera's counts the game's shared reading (one ``read_tray`` event)."""
        try:
            self.service.execute(game_id, {
                "type": "read_tray", "counts": reading["counts"], "reading": reading["id"],
                "unknown": reading.get("unknown", 0),
            })
        except ValueError as exc:  # the throw was applied by hand meanwhile: the photo stays
            log.info("reading %s not recorded in game %s: %s", reading["id"], game_id, exc)

    def _count(self, game_id: int, state: Any, thrown: dict[str, int]) -> dict[str, Any]:
        version = state.version
        key = (game_id, version)
        shared = getattr(state, "reading", None)
        if self._thrown_or_read(game_id, version) or (shared is not None and shared.get("id")):
            # The same throw again (a recount): the cubes already lie in the tray; throwing
            # them again would invent a second throw.
            outcome = self.tower.recount(timeout=self.timeout)
        else:
            try:
                outcome = self.tower.count_throw(thrown=thrown, timeout=self.timeout)
            except (CountTimeoutError, CountCancelledError):
                self._thrown.add(key)  # thrown, but not counted: recount next time
                raise
            self._thrown.add(key)
        return self._save(game_id, version, outcome, thrown)

    def _save(self, game_id: int, version: int, outcome: Any, thrown: dict[str, int]) -> dict[str, Any]:
        """Store the reading; a disk that refuses the photo is a StorageError (503), and the
        tray is counted again (nothing thrown) once there is room."""
        import errno

        from companion.store.errors import DiskFullError, ReadOnlyStorageError

        try:
            return self.readings.save(game_id, version, outcome, thrown)
        except OSError as exc:
            log.error("the reading of game %s could not be stored: %s", game_id, exc)
            if exc.errno == errno.ENOSPC:
                raise DiskFullError() from exc
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise ReadOnlyStorageError() from exc
            raise

    def close(self) -> None:
        """Stop the count thread (a running count finishes first)."""
        self._worker.shutdown(wait=True, cancel_futures=True)

    def handle_button(self, button: str, choose_game: Callable[[], int | None]) -> None:
        """What a press of the tower's count button (physical or on-screen) does.

        Runs the count on its own thread so the button's caller returns at once; the result
        (or why there is none) reaches every device through the hub.
        """
        if button != "count":
            self._publish_status()
            return
        game_id = choose_game()
        if game_id is None:
            self._publish_status("No game is waiting for the tray to be counted.")
            return
        threading.Thread(
            target=self._count_quietly, args=(game_id,), name="companion-count", daemon=True
        ).start()

    def _count_quietly(self, game_id: int) -> None:
        try:
            if self.needs_tray_check(game_id):  # a real tower: the first press checks the tray
                self.check_tray(game_id)
                return
            self.count(game_id)
        except CompanionError as exc:
            self._publish_status(str(exc))
        except Exception:
            log.exception("counting the tray for game %s failed", game_id)
            self._publish_status("Counting the tray failed. Enter the counts by hand.")
        else:
            self._publish_status()

    def _publish_status(self, message: str | None = None) -> None:
        try:
            status = dict(self.tower.status())
        except Exception:
            log.exception("reading the tower status failed")
            status = {}
        if message:
            status["message"] = message
        self.hub.publish_tower(status)

