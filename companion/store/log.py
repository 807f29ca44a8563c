"""``GameLog``: the crash-safe, append-only SQLite log of every game.

One file per installation. Guarantees:

- **Durable acknowledgement.** ``create_game`` and ``append`` return only after ``COMMIT`` has
  been fsynced (``journal_mode=WAL`` + ``synchronous=FULL``): an acknowledged event survives a
  power cut. An unacknowledged one is either entirely there or entirely absent.
- **One transaction per command.** The event, the game's summary row and the battle record are
  written in one ``BEGIN IMMEDIATE`` transaction, so they never disagree.
- **Optimistic concurrency.** ``append`` takes the version (number of events) the caller decided
  against and refuses with :class:`VersionConflictError` when the log has moved on.
- **Append-only.** There is no code path that updates or deletes an event or a battle, and the
  schema's triggers refuse it anyway (see :mod:`companion.store.schema`).
- **Thread-safe.** Connections come from a small pool, one per concurrent caller; SQLite's
  ``busy_timeout`` serialises writers across threads and processes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.store.errors import (
    CreateKeyReusedError,
    DatabaseUnusableError,
    DiskFullError,
    ReadOnlyStorageError,
    GameNotFoundError,
    InvalidEventError,
    InvalidTitleError,
    InvalidVersionError,
    VersionConflictError,
)
from companion.store.records import (
    BattleRecord,
    GameMeta,
    GameSummary,
    ReadingRecord,
    StoredEvent,
)
from companion.store.schema import migrate

BUSY_TIMEOUT_MS = 5000
_MAX_IDLE_CONNECTIONS = 4


def utc_now() -> str:
    """The current time as ISO 8601 UTC with milliseconds, the format of every stored time."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _encode(value: Any, what: str) -> str:
    """JSON text of ``value``; refuses anything that would not read back as an equal value."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InvalidEventError(f"The {what} cannot be saved: {exc}.") from None
    if json.loads(text) != value:  # tuples, non-string keys: replay would see something else
        raise InvalidEventError(
            f"The {what} cannot be saved exactly: use only lists, strings, numbers, true/false "
            "and null, with text keys."
        )
    return text


def _check_event(event: Any) -> str:
    if not isinstance(event, dict):
        raise InvalidEventError("An event must be a set of named values.")
    kind = event.get("type")
    if not isinstance(kind, str) or not kind:
        raise InvalidEventError("An event must say what kind of event it is (its type).")
    return _encode(event, f"event {kind!r}")


def _check_title(title: Any) -> str:
    if not isinstance(title, str) or not title.strip():
        raise InvalidTitleError("A game needs a title.")
    title = title.strip()
    if len(title) > 200:
        raise InvalidTitleError("A game title can be at most 200 characters long.")
    return title


def check_version(version: Any) -> int:
    """``version`` if it is a whole number ≥ 0 (a state id), else :class:`InvalidVersionError`."""
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise InvalidVersionError(
            f"The game step you acted on must be a whole number ≥ 0, not {version!r}."
        )
    return version


def _check_game_id(game_id: Any) -> int:
    if not isinstance(game_id, int) or isinstance(game_id, bool) or game_id < 1:
        raise GameNotFoundError(game_id)
    return game_id


def _summary(row: sqlite3.Row) -> GameSummary:
    return GameSummary(
        id=row["id"],
        title=row["title"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        version=row["version"],
        status=row["status"],
        round=row["round"],
        players=json.loads(row["players"]),
        finished_at=row["finished_at"],
        result=None if row["result"] is None else json.loads(row["result"]),
    )


class GameLog:
    """The game log in the SQLite file at ``path`` (created with its folder if missing).

    ``clock`` returns the timestamp text for new rows (tests pin it). Use as a context manager
    or call :meth:`close`.
    """

    def __init__(self, path: str | Path, *, clock: Callable[[], str] = utc_now) -> None:
        self.path = Path(path)
        if str(path) == ":memory:":
            raise DatabaseUnusableError("The game log must be a file, not an in-memory database.")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseUnusableError(
                f"The folder for the game database, {self.path.parent}, cannot be created "
                f"({exc.strerror}). Set COMPANION_DATA to a folder the companion may write to."
            ) from None
        self._clock = clock
        self._lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []
        self._closed = False
        with self._connection() as conn:
            migrate(conn)

    # -- connections -----------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                self.path,
                isolation_level=None,  # we issue BEGIN/COMMIT ourselves
                check_same_thread=False,  # pooled: used by one thread at a time, closed by any
                timeout=BUSY_TIMEOUT_MS / 1000,
            )
            conn.row_factory = sqlite3.Row
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as exc:
            raise DatabaseUnusableError(
                f"The game database {self.path} cannot be opened ({exc}). Is it a companion "
                "database, and may the companion write to its folder?"
            ) from None
        if str(mode).lower() != "wal":
            conn.close()
            raise DatabaseUnusableError(
                f"The game database {self.path} cannot use a write-ahead log (mode {mode!r}); "
                "keep it on a normal local disk."
            )
        return conn

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            if self._closed:
                raise DatabaseUnusableError("The game log has been closed.")
            conn = self._idle.pop() if self._idle else None
        if conn is None:
            conn = self._open()
        try:
            yield conn
        finally:
            # A refused command (e.g. a version conflict) leaves a healthy connection: keep it
            # unless a transaction is still open, which only a failed ROLLBACK would leave.
            with self._lock:
                keep = (
                    not conn.in_transaction
                    and not self._closed
                    and len(self._idle) < _MAX_IDLE_CONNECTIONS
                )
                if keep:
                    self._idle.append(conn)
            if not keep:
                conn.close()

    @contextmanager
    def _transaction(self, write: bool) -> Iterator[sqlite3.Connection]:
        """One transaction; IMMEDIATE for writers so the version check and insert are atomic.

        A write the disk refuses (full, or read-only) is rolled back and raised as
        :class:`DiskFullError` / :class:`ReadOnlyStorageError`: nothing of it was stored."""
        with self._connection() as conn:
            try:
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as exc:
                code = getattr(exc, "sqlite_errorcode", None)
                if code is not None and code & 0xFF == sqlite3.SQLITE_FULL:
                    raise DiskFullError() from exc
                if code is not None and code & 0xFF == sqlite3.SQLITE_READONLY:
                    raise ReadOnlyStorageError() from exc
                raise

    def close(self) -> None:
        """Close every pooled connection; later calls raise. Idempotent."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()

    def __enter__(self) -> GameLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ----------------------------------------------------------------------------

    def create_game(
        self, title: str, *, first_event: dict[str, Any] | None = None, meta: GameMeta | None = None
    ) -> int:
        """Create a game and return its id; with ``first_event`` it is stored as seq 1 in the
        same transaction (a game never exists without its ``new_game`` event)."""
        title = _check_title(title)
        payload = None if first_event is None else _check_event(first_event)
        now = self._clock()
        with self._transaction(write=True) as conn:
            return self._insert_game(conn, title, first_event, payload, meta, now)

    def create_game_once(
        self, key: str, fingerprint: str, title: str, *, first_event: dict[str, Any],
        meta: GameMeta | None = None,
    ) -> tuple[int, bool]:
        """As :meth:`create_game`, at most once per ``key``: returns ``(game_id, created)``.

        The key is stored in the game's creation transaction, so after a power cut either both
        the game and its key are there or neither. A key seen before writes nothing and returns
        its game with ``created=False``; seen before with another ``fingerprint`` (another
        request body), :class:`CreateKeyReusedError`. Concurrent calls with one key are
        serialised by the write lock: one creates, the others find its game.
        """
        title = _check_title(title)
        payload = _check_event(first_event)
        now = self._clock()
        with self._transaction(write=True) as conn:
            row = conn.execute(
                "SELECT fingerprint, game_id FROM create_keys WHERE key = ?", (key,)
            ).fetchone()
            if row is not None:
                if row["fingerprint"] != fingerprint:
                    raise CreateKeyReusedError(row["game_id"])
                return int(row["game_id"]), False
            game_id = self._insert_game(conn, title, first_event, payload, meta, now)
            conn.execute(
                "INSERT INTO create_keys (key, fingerprint, game_id, created_at) VALUES (?, ?, ?, ?)",
                (key, fingerprint, game_id, now),
            )
        return game_id, True

    def _insert_game(
        self, conn: sqlite3.Connection, title: str, first_event: dict[str, Any] | None,
        payload: str | None, meta: GameMeta | None, now: str,
    ) -> int:
        game_id = conn.execute(
            "INSERT INTO games (title, created_at, updated_at) VALUES (?, ?, ?)",
            (title, now, now),
        ).lastrowid
        assert game_id is not None
        if payload is not None:
            assert first_event is not None
            self._insert_event(conn, game_id, 1, first_event["type"], payload, now)
        if meta is not None:
            self._write_meta(conn, game_id, meta, now)
        return game_id

    def append(
        self,
        game_id: int,
        event: dict[str, Any],
        expected_version: int,
        *,
        meta: GameMeta | None = None,
        battle: BattleRecord | None = None,
        reading: ReadingRecord | None = None,
    ) -> int:
        """Append ``event`` as the next event of the game and return its seq (= new version).

        ``expected_version`` is the number of events the caller decided against; if the log
        holds another number, nothing is written and :class:`VersionConflictError` is raised.
        ``meta`` updates the game's summary row, ``battle`` adds a battle record (and its tray
        reading), ``reading`` a tray reading of another throw (the seeding) — all in the same
        transaction. Returns only after the commit is on disk.
        """
        game_id = _check_game_id(game_id)
        check_version(expected_version)
        payload = _check_event(event)
        seq = expected_version + 1
        now = self._clock()
        with self._transaction(write=True) as conn:
            actual = self._version(conn, game_id)
            if actual != expected_version:
                raise VersionConflictError(game_id, expected_version, actual)
            self._insert_event(conn, game_id, seq, event["type"], payload, now)
            if meta is not None:
                self._write_meta(conn, game_id, meta, now)
            else:
                conn.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
            if battle is not None:
                self._insert_battle(conn, game_id, seq, battle, now)
                reading = reading or ReadingRecord.of_battle(battle)
            if reading is not None:
                self._insert_reading(conn, game_id, seq, reading, now)
        return seq

    @staticmethod
    def _insert_event(
        conn: sqlite3.Connection, game_id: int, seq: int, kind: str, payload: str, now: str
    ) -> None:
        conn.execute(
            "INSERT INTO events (game_id, seq, type, payload, created_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, seq, kind, payload, now),
        )

    @staticmethod
    def _write_meta(conn: sqlite3.Connection, game_id: int, meta: GameMeta, now: str) -> None:
        players = _encode(meta.players, "player list")
        result = None if meta.result is None else _encode(meta.result, "game result")
        conn.execute(
            """UPDATE games SET updated_at = ?, status = ?, round = ?, players = ?, result = ?,
                   finished_at = CASE WHEN ? = 'finished' THEN coalesce(finished_at, ?) END
               WHERE id = ?""",
            (now, meta.status, meta.round, players, result, meta.status, now, game_id),
        )

    @staticmethod
    def _insert_battle(
        conn: sqlite3.Connection, game_id: int, seq: int, battle: BattleRecord, now: str
    ) -> None:
        camera = None if battle.camera_counts is None else json.dumps(battle.camera_counts)
        corrected = None if battle.corrected is None else int(battle.corrected)
        conn.execute(
            """INSERT INTO battles (game_id, seq, round, realm, region, attacker, defender,
                   stance, tray_counts, tray_size, camera_counts, corrected, winner, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (
                game_id, seq, battle.round, battle.realm, battle.region, battle.attacker,
                battle.defender, battle.stance, json.dumps(battle.tray_counts),
                battle.tray_size, camera, corrected, battle.winner, now,
            ),
        )  # fmt: skip

    @staticmethod
    def _insert_reading(
        conn: sqlite3.Connection, game_id: int, seq: int, reading: ReadingRecord, now: str
    ) -> None:
        camera = None if reading.camera is None else json.dumps(reading.camera)
        corrected = None if reading.corrected is None else int(reading.corrected)
        conn.execute(
            """INSERT INTO readings (game_id, seq, kind, confirmed, camera, corrected, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)""",
            (game_id, seq, reading.kind, json.dumps(reading.confirmed), camera, corrected, now),
        )

    # -- queries ----------------------------------------------------------------------------

    @staticmethod
    def _version(conn: sqlite3.Connection, game_id: int) -> int:
        row = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(game_id)
        return int(row[0])

    def version(self, game_id: int) -> int:
        """The number of events of the game (its state id)."""
        game_id = _check_game_id(game_id)
        with self._connection() as conn:
            return self._version(conn, game_id)

    def events(self, game_id: int, *, after: int = 0) -> list[StoredEvent]:
        """The game's events with seq > ``after``, in order (a consistent snapshot)."""
        game_id = _check_game_id(game_id)
        with self._transaction(write=False) as conn:
            self._version(conn, game_id)
            rows = conn.execute(
                "SELECT seq, type, payload, created_at FROM events"
                " WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after),
            ).fetchall()
        return [
            StoredEvent(r["seq"], r["type"], json.loads(r["payload"]), r["created_at"])
            for r in rows
        ]

    def game(self, game_id: int) -> GameSummary:
        game_id = _check_game_id(game_id)
        with self._connection() as conn:
            row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(game_id)
        return _summary(row)

    def games(self) -> list[GameSummary]:
        """Every game, the most recently changed first."""
        with self._connection() as conn:
            rows = conn.execute("SELECT * FROM games ORDER BY updated_at DESC, id DESC").fetchall()
        return [_summary(r) for r in rows]

    def battles(self, game_id: int | None = None) -> list[dict[str, Any]]:
        """Battle records (of one game, or all) in order, as JSON-safe dicts."""
        out = []
        for row in self._rows("battles", game_id):
            row["tray_counts"] = json.loads(row["tray_counts"])
            if row["camera_counts"] is not None:
                row["camera_counts"] = json.loads(row["camera_counts"])
            if row["corrected"] is not None:
                row["corrected"] = bool(row["corrected"])
            out.append(row)
        return out

    def readings(self, game_id: int | None = None) -> list[dict[str, Any]]:
        """Confirmed tray readings (of one game, or all) in order, as JSON-safe dicts."""
        out = []
        for row in self._rows("readings", game_id):
            row["confirmed"] = json.loads(row["confirmed"])
            if row["camera"] is not None:
                row["camera"] = json.loads(row["camera"])
            if row["corrected"] is not None:
                row["corrected"] = bool(row["corrected"])
            out.append(row)
        return out

    def _rows(self, table: str, game_id: int | None) -> list[dict[str, Any]]:
        query = f"SELECT * FROM {table}"  # table: one of our own names, never input
        params: tuple[Any, ...] = ()
        if game_id is not None:
            game_id = _check_game_id(game_id)
            query += " WHERE game_id = ?"
            params = (game_id,)
        with self._transaction(write=False) as conn:
            if game_id is not None:
                self._version(conn, game_id)
            return [dict(r) for r in conn.execute(query + " ORDER BY game_id, seq", params)]

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A read-only snapshot connection for queries (statistics); do not write through it."""
        with self._transaction(write=False) as conn:
            conn.execute("PRAGMA query_only = ON")
            try:
                yield conn
            finally:
                conn.execute("PRAGMA query_only = OFF")

    # -- maintenance ------------------------------------------------------------------------

    def integrity_check(self) -> str:
        """SQLite's own full check: ``"ok"`` or the problems found."""
        with self._connection() as conn:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
        return "\n".join(str(r[0]) for r in rows)

    def backup(self, destination: str | Path) -> Path:
        """Copy the whole database, consistent even while games are played, to ``destination``."""
        destination = Path(destination)
        destination.parent.mkdir(parents=True, exist_ok=True)
        target = sqlite3.connect(destination)
        try:
            with self._connection() as conn:
                conn.backup(target)
        finally:
            target.close()
        return destination
