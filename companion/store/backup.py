"""Backups of the game database: made with SQLite's online backup API, kept in ``DATA/backups``.

* :func:`make_backup` copies the database consistently — also while a game is played: the copy
  is read in one read transaction of its own connection, and in write-ahead-log mode a reader
  never blocks the server's writers — to a temporary name, checks the copy with
  ``PRAGMA integrity_check``, flushes it to disk and only then renames it to
  ``companion-YYYYMMDD-HHMMSS.sqlite3``. Then the oldest are removed so that ``keep`` remain.
* :class:`BackupScheduler` is the server's background thread: a backup at start when the newest
  is older than the interval (or there is none), then one every interval; it also prunes the
  battle photos (:mod:`companion.store.retention`). It never holds a lock a request needs.
* :func:`restore` puts a backup back: it refuses while a server runs on the data folder
  (:func:`data_folder_lock`), checks the backup first, keeps a copy of the current database
  in ``DATA/backups`` (``before-restore-….sqlite3``), then copies the backup into the database
  through the backup API, so the write-ahead log and its index stay consistent.

Settings (environment): ``COMPANION_BACKUP_KEEP`` (default 14 backups) and
``COMPANION_BACKUP_HOURS`` (default 24; 0 turns the automatic backups off).
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from companion.store.errors import StoreError
from companion.store.schema import SCHEMA_VERSION

log = logging.getLogger("companion.store")

FOLDER = "backups"
LOCK_FILE = ".companion-server.lock"
DEFAULT_KEEP = 14
DEFAULT_HOURS = 24.0
_NAME = re.compile(r"^companion-(\d{8}-\d{6})(?:-\d+)?\.sqlite3$")


class BackupError(StoreError):
    """A backup could not be made or put back; the message says why and what to do."""


class BackupSettingError(BackupError, ValueError):
    """A backup setting in the environment is not a usable number."""


class BackupUnusableError(BackupError, ValueError):
    """The file offered for a restore is not a sound companion database."""


class ServerRunningError(BackupError):
    """A companion server is using the data folder, so its database must not be replaced."""

    def __init__(self, data_dir: Path) -> None:
        super().__init__(
            f"A companion server is running on {data_dir}. Stop it first (Ctrl-C, or "
            "'sudo systemctl stop companion'), then restore again."
        )


@dataclass(frozen=True)
class BackupSettings:
    keep: int = DEFAULT_KEEP
    interval_hours: float = DEFAULT_HOURS  # 0: no automatic backups

    @property
    def interval_seconds(self) -> float:
        return self.interval_hours * 3600.0


def backup_settings(environ: Mapping[str, str] | None = None) -> BackupSettings:
    """The backup settings from the environment; a bad value is :class:`BackupSettingError`."""
    env = os.environ if environ is None else environ
    raw_keep = env.get("COMPANION_BACKUP_KEEP", str(DEFAULT_KEEP))
    raw_hours = env.get("COMPANION_BACKUP_HOURS", str(DEFAULT_HOURS))
    try:
        keep = int(raw_keep)
        if keep < 1:
            raise ValueError
    except ValueError:
        raise BackupSettingError(
            f"COMPANION_BACKUP_KEEP must be a whole number of at least 1, not {raw_keep!r}."
        ) from None
    try:
        hours = float(raw_hours)
        if not 0 <= hours < 24 * 366:
            raise ValueError
    except ValueError:
        raise BackupSettingError(
            f"COMPANION_BACKUP_HOURS must be a number of hours (0 = no automatic backups), "
            f"not {raw_hours!r}."
        ) from None
    return BackupSettings(keep=keep, interval_hours=hours)


def backup_folder(data_dir: Path) -> Path:
    return Path(data_dir) / FOLDER


def backups(folder: Path) -> list[Path]:
    """The automatic and ``companion backup`` copies in ``folder``, oldest first."""
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.iterdir() if _NAME.match(p.name)), key=lambda p: p.name)


def _stamp(now: datetime) -> str:
    return now.astimezone(timezone.utc).strftime("%Y%m%d-%H%M%S")


def _free_name(folder: Path, stem: str) -> Path:
    path, n = folder / f"{stem}.sqlite3", 1
    while path.exists():
        path, n = folder / f"{stem}-{n}.sqlite3", n + 1
    return path


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def integrity(path: Path) -> str:
    """SQLite's integrity check of the file at ``path`` (read-only): ``"ok"`` or the problems."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    verdict = "\n".join(str(r[0]) for r in rows)
    if verdict == "ok" and not {"games", "events"} <= tables:
        return "it holds no companion games (no games and events tables)"
    if verdict == "ok" and version > SCHEMA_VERSION:
        return f"it was made by a newer companion (format {version}; this one knows {SCHEMA_VERSION})"
    return verdict


def copy_database(source: Path, target: Path, journal_mode: str = "DELETE") -> None:
    """Copy the database ``source`` into ``target`` with the online backup API, in one step
    (one read transaction: a consistent copy; the server's writers are not blocked).
    ``journal_mode``: DELETE for a backup (one self-contained file, no write-ahead log beside
    it), WAL for a database the companion will run on again (a restore)."""
    if journal_mode not in ("DELETE", "WAL"):
        raise ValueError(f"journal_mode must be DELETE or WAL, not {journal_mode!r}")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    try:
        dst = sqlite3.connect(target, timeout=30)
        try:
            src.backup(dst)
            dst.execute(f"PRAGMA journal_mode = {journal_mode}")
        finally:
            dst.close()
    finally:
        src.close()


def make_backup(database: Path, folder: Path, *, keep: int = DEFAULT_KEEP,
                now: datetime | None = None, stem: str = "companion") -> Path:
    """Back ``database`` up into ``folder`` (see the module docstring); returns the new file.

    Nothing is renamed into place unless the copy passed its integrity check; on any failure
    the temporary file is removed and :class:`BackupError` says why."""
    if not Path(database).is_file():
        raise BackupError(f"There is no game database at {database} to back up.")
    now = now or datetime.now(timezone.utc)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{stem}-{_stamp(now)}-{secrets.token_hex(4)}.tmp"
        try:
            copy_database(Path(database), tmp)
            verdict = integrity(tmp)
            if verdict != "ok":
                raise BackupError(f"The backup copy failed its check ({verdict}); nothing was kept.")
            _fsync(tmp)
            while True:  # another backup in the same second (the server's, say) keeps its name
                final = _free_name(folder, f"{stem}-{_stamp(now)}")
                try:
                    os.link(tmp, final)
                    break
                except FileExistsError:
                    continue
        finally:
            for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
                leftover.unlink(missing_ok=True)
    except sqlite3.Error as exc:
        raise BackupError(f"The database could not be backed up ({exc}).") from None
    except OSError as exc:
        raise BackupError(
            f"The backup could not be written to {folder} ({exc.strerror or exc}). "
            "Is the disk full or read-only?"
        ) from None
    if stem == "companion":
        prune_backups(folder, keep)
    return final


def prune_backups(folder: Path, keep: int) -> list[Path]:
    """Remove the oldest regular backups so that ``keep`` remain; returns the removed files.
    ``before-restore-…`` copies are never removed automatically."""
    removed = []
    found = backups(folder)
    for old in found[: max(0, len(found) - keep)]:
        old.unlink(missing_ok=True)
        removed.append(old)
    cutoff = datetime.now(timezone.utc).timestamp() - 3600
    for stale in folder.glob(".*.tmp"):  # a copy cut short by a power cut or a kill
        try:
            if stale.stat().st_mtime < cutoff:
                stale.unlink()
        except OSError:
            pass
    return removed


def newest_age(folder: Path, now: datetime | None = None) -> float | None:
    """Seconds since the newest backup was made (from its name), or None when there is none."""
    found = backups(folder)
    if not found:
        return None
    match = _NAME.match(found[-1].name)
    assert match is not None
    made = datetime.strptime(match.group(1), "%Y%m%d-%H%M%S").replace(tzinfo=timezone.utc)
    return ((now or datetime.now(timezone.utc)) - made).total_seconds()


# -- the lock a running server holds -----------------------------------------------------------


@contextmanager
def data_folder_lock(data_dir: Path, *, server: bool) -> Iterator[IO[str] | None]:
    """Hold the data folder's lock for as long as the block runs.

    ``server=True`` (``companion serve``): takes it if it can, else logs that another server
    seems to use the folder, and runs anyway (the database's own locking keeps the file sound).
    ``server=False`` (``companion restore``): :class:`ServerRunningError` when a server holds it.
    The lock is an ``flock`` — the kernel drops it when the process dies, even by SIGKILL.
    """
    path = Path(data_dir) / LOCK_FILE
    try:
        handle = open(path, "a+", encoding="utf-8")
    except OSError as exc:
        if server:
            log.warning("cannot take the data folder's lock %s (%s)", path, exc.strerror)
            yield None
            return
        raise BackupError(f"Cannot take the data folder's lock {path} ({exc.strerror}).") from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not server:
                raise ServerRunningError(Path(data_dir)) from None
            log.warning("another companion server seems to use %s", data_dir)
            yield None
            return
        try:
            yield handle
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# -- restore -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    source: Path
    database: Path
    kept: Path | None  # the copy of the database as it was, or None when there was none


def find_backup(name: str | Path, data_dir: Path) -> Path:
    """``name`` as given, else the file of that name in ``DATA/backups``."""
    path = Path(name)
    if path.is_file():
        return path
    candidate = backup_folder(data_dir) / path.name
    if candidate.is_file():
        return candidate
    raise BackupUnusableError(
        f"There is no backup {name}. 'companion backup --list' shows the backups there are."
    )


def restore(source: Path, database: Path, data_dir: Path,
            now: datetime | None = None) -> Restored:
    """Replace the game database with the backup ``source`` (see the module docstring)."""
    source = Path(source)
    verdict = integrity(source)
    if verdict != "ok":
        raise BackupUnusableError(
            f"{source} cannot be restored: it is not a sound companion database ({verdict}). "
            "Nothing was changed."
        )
    with data_folder_lock(data_dir, server=False):
        kept = None
        if Path(database).is_file():
            kept = make_backup(database, backup_folder(data_dir), now=now, stem="before-restore")
        try:
            copy_database(source, Path(database), journal_mode="WAL")
        except sqlite3.Error as exc:
            raise BackupError(
                f"The backup could not be put back ({exc}). The database as it was is kept in "
                f"{kept}."
            ) from None
    return Restored(source=source, database=Path(database), kept=kept)


# -- the server's background thread ------------------------------------------------------------


class BackupScheduler:
    """The daily backup (and photo pruning) of a running server, on a thread of its own.

    ``maintain`` runs after each backup attempt (the server prunes battle photos there).
    Failures are logged, never raised: a full disk must not stop the games."""

    def __init__(self, database: Path, data_dir: Path, settings: BackupSettings, *,
                 maintain: Callable[[], None] | None = None) -> None:
        self.database = Path(database)
        self.folder = backup_folder(data_dir)
        self.settings = settings
        self.maintain = maintain
        self.last_error: str | None = None
        self._stop = threading.Event()
        self._lock: Any = None
        self._thread = threading.Thread(target=self._loop, name="companion-backup", daemon=True)

    def hold(self, data_dir: Path) -> None:
        """Hold the data folder's lock until :meth:`stop` (see :func:`data_folder_lock`)."""
        self._lock = data_folder_lock(data_dir, server=True)
        self._lock.__enter__()

    def start(self) -> BackupScheduler:
        if self.settings.interval_seconds > 0:
            self._thread.start()
        return self

    def due(self) -> bool:
        age = newest_age(self.folder)
        return age is None or age >= self.settings.interval_seconds

    def run_once(self) -> None:
        """One backup if one is due, then the maintenance; never raises."""
        try:
            if self.due() and self.database.is_file():
                made = make_backup(self.database, self.folder, keep=self.settings.keep)
                log.info("backed up the game database to %s", made)
            self.last_error = None
        except BackupError as exc:
            self.last_error = str(exc)
            log.error("automatic backup failed: %s", exc)
        if self.maintain is not None:
            try:
                self.maintain()
            except Exception:
                log.exception("pruning the battle photos failed")

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            age = newest_age(self.folder) or 0.0
            wait = max(60.0, self.settings.interval_seconds - age)
            if self._stop.wait(wait):
                return

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.__exit__(None, None, None)


def start_maintenance(data_dir: Path, database: Path, game_log: object,
                      environ: Mapping[str, str] | None = None) -> BackupScheduler:
    """The running server's maintenance: hold the data folder's lock (so ``companion restore``
    knows a server is running), back up daily, prune the battle photos of finished games.
    Call ``.stop()`` at shutdown. Bad settings raise before anything starts."""
    from companion.store.retention import prune_photos, retention_settings, unfinished_games

    settings = backup_settings(environ)
    retention = retention_settings(environ)

    def maintain() -> None:
        report = prune_photos(Path(data_dir) / "readings", unfinished_games(game_log), retention)
        if report.pruned:
            log.info("battle photos: %s", report)

    scheduler = BackupScheduler(database, data_dir, settings, maintain=maintain)
    scheduler.hold(data_dir)
    return scheduler.start()
