"""Backups: online backup API copies into DATA/backups, the last N kept, restore with checks,
the server's daily thread, and ``companion backup`` / ``companion restore`` on the console."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from companion.cli import main as cli
from companion.store import GameLog
from companion.store.backup import (
    BackupScheduler,
    BackupSettingError,
    BackupSettings,
    BackupUnusableError,
    ServerRunningError,
    backup_settings,
    backups,
    data_folder_lock,
    make_backup,
    newest_age,
    restore,
)

T0 = datetime(2026, 11, 24, 3, 0, tzinfo=timezone.utc)


def _log(data: Path, events: int = 3) -> GameLog:
    log = GameLog(data / "companion.sqlite3")
    game = log.create_game("Backed up", first_event={"type": "new_game", "n": 0})
    for seq in range(1, events):
        log.append(game, {"type": "tick", "n": seq}, seq)
    return log


def _events(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT payload FROM events ORDER BY game_id, seq")]
    finally:
        conn.close()


def test_a_backup_is_a_checked_copy_under_a_dated_name_with_nothing_beside_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with _log(data) as log:
        path = make_backup(log.path, data / "backups", now=T0)
    assert path.name == "companion-20261124-030000.sqlite3"
    assert [p.name for p in (data / "backups").iterdir()] == [path.name]  # no -wal, no temp file
    assert _events(path) == _events(data / "companion.sqlite3")
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_only_the_newest_n_backups_are_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with _log(data) as log:
        made = [make_backup(log.path, data / "backups", keep=3, now=T0 + timedelta(days=d))
                for d in range(5)]
    assert backups(data / "backups") == made[-3:]
    assert newest_age(data / "backups", now=T0 + timedelta(days=5)) == 86400


def test_a_backup_neither_waits_for_nor_blocks_a_writer_in_the_middle_of_a_move(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with _log(data, events=2) as log:
        writer = sqlite3.connect(log.path, isolation_level=None, timeout=0)
        writer.execute("BEGIN IMMEDIATE")  # a move being written right now
        writer.execute("INSERT INTO events (game_id, seq, type, payload, created_at) "
                       "VALUES (1, 3, 'tick', '{\"type\":\"tick\",\"n\":2}', 'now')")
        path = make_backup(log.path, data / "backups", now=T0)  # timeout=0: would raise if blocked
        writer.execute("COMMIT")  # and the move still commits
        writer.close()
        assert len(_events(path)) == 2 and len(_events(log.path)) == 3  # the copy is consistent


def test_restore_puts_the_backup_back_and_keeps_the_database_as_it_was(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with _log(data, events=2) as log:
        backup = make_backup(log.path, data / "backups", now=T0)
        log.append(1, {"type": "tick", "n": 2}, 2)
    later = _events(data / "companion.sqlite3")
    done = restore(backup, data / "companion.sqlite3", data, now=T0 + timedelta(hours=1))
    assert _events(data / "companion.sqlite3") == _events(backup)
    assert done.kept is not None and done.kept.name.startswith("before-restore-")
    assert _events(done.kept) == later
    with GameLog(data / "companion.sqlite3") as log:  # the restored file opens and takes moves
        assert log.integrity_check() == "ok" and log.version(1) == 2
        log.append(1, {"type": "tick", "n": 2}, 2)


def test_restore_refuses_while_a_server_holds_the_folder(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with _log(data) as log:
        backup = make_backup(log.path, data / "backups", now=T0)
        log.append(1, {"type": "tick", "n": 3}, 3)
    before = _events(data / "companion.sqlite3")
    with data_folder_lock(data, server=True):
        with pytest.raises(ServerRunningError, match="server is running"):
            restore(backup, data / "companion.sqlite3", data)
    assert _events(data / "companion.sqlite3") == before
    assert not list((data / "backups").glob("before-restore-*"))


@pytest.mark.parametrize("content", [b"not a database at all" * 100, b""])
def test_restore_refuses_a_damaged_file_and_changes_nothing(tmp_path: Path, content: bytes) -> None:
    data = tmp_path / "data"
    with _log(data):
        pass
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(content)
    before = _events(data / "companion.sqlite3")
    with pytest.raises(BackupUnusableError, match="Nothing was changed"):
        restore(bad, data / "companion.sqlite3", data)
    assert _events(data / "companion.sqlite3") == before


def test_restore_refuses_a_sqlite_file_without_games(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE notes (x)").connection.commit()
    with pytest.raises(BackupUnusableError, match="no companion games"):
        restore(other, tmp_path / "data" / "companion.sqlite3", tmp_path / "data")


def test_the_scheduler_backs_up_when_due_and_prunes_each_time(tmp_path: Path) -> None:
    data = tmp_path / "data"
    maintained: list[int] = []
    with _log(data) as log:
        scheduler = BackupScheduler(log.path, data, BackupSettings(keep=2, interval_hours=24),
                                    maintain=lambda: maintained.append(1))
        assert scheduler.due()
        scheduler.run_once()
        scheduler.run_once()  # the newest is seconds old: not due again
    assert len(backups(data / "backups")) == 1 and maintained == [1, 1]
    assert scheduler.last_error is None


def test_a_failing_backup_is_logged_not_raised(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with _log(data) as log:
        (data / "backups").write_text("a file where the folder should be")
        scheduler = BackupScheduler(log.path, data, BackupSettings())
        scheduler.run_once()
    assert scheduler.last_error and "could not be written" in scheduler.last_error


@pytest.mark.parametrize("env", [{"COMPANION_BACKUP_KEEP": "0"}, {"COMPANION_BACKUP_KEEP": "many"},
                                 {"COMPANION_BACKUP_HOURS": "-1"}, {"COMPANION_BACKUP_HOURS": "x"}])
def test_bad_backup_settings_are_named(env: dict[str, str]) -> None:
    with pytest.raises(BackupSettingError, match=next(iter(env))):
        backup_settings(env)


def test_backup_settings_default_to_daily_and_fourteen() -> None:
    assert backup_settings({}) == BackupSettings(keep=14, interval_hours=24.0)


def test_companion_backup_and_restore_on_the_console(tmp_path: Path, monkeypatch, capsys) -> None:
    data = tmp_path / "data"
    monkeypatch.setenv("COMPANION_DATA", str(data))
    with _log(data, events=2) as log:
        assert cli(["backup"]) == 0
        name = backups(data / "backups")[0].name
        log.append(1, {"type": "tick", "n": 2}, 2)
    assert cli(["backup", "--list"]) == 0
    assert name in capsys.readouterr().out
    assert cli(["restore", name]) == 0
    out = capsys.readouterr().out
    assert "restored" in out and "before-restore-" in out
    assert len(_events(data / "companion.sqlite3")) == 2
    assert cli(["restore", "no-such-backup.sqlite3"]) == 2
    assert "There is no backup" in capsys.readouterr().err


def test_companion_restore_refuses_while_the_real_server_runs(tmp_path: Path, monkeypatch, capsys) -> None:
    from benchmarks.kill import Server

    server = Server(tmp_path)  # python -m companion serve on tmp_path/data
    try:
        assert server.wait_ready()
        data = tmp_path / "data"
        monkeypatch.setenv("COMPANION_DATA", str(data))
        assert cli(["backup"]) == 0  # a backup while the server runs
        backup = backups(data / "backups")[-1]
        assert cli(["restore", str(backup)]) == 2
        assert "server is running" in capsys.readouterr().err
    finally:
        server.kill()
        server.wait_dead()
    assert cli(["restore", str(backup)]) == 0  # killed: the kernel dropped its lock
