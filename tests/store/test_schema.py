"""Schema, PRAGMAs, migrations and the append-only triggers."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.store import GameLog
from companion.store.errors import DatabaseUnusableError, SchemaTooNewError
from companion.store.schema import SCHEMA_VERSION


def raw(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def test_new_file_has_tables_and_current_schema_version(log: GameLog) -> None:
    conn = raw(log.path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "events", "battles", "readings"} <= tables
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 1


def test_pragmas_of_pooled_connections(log: GameLog) -> None:
    with log._connection() as conn:  # the pool is private, but these settings are the promise
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert conn.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000


def test_reopening_keeps_data_and_does_not_migrate_again(db_path: Path) -> None:
    with GameLog(db_path) as first:
        game = first.create_game("Friday", first_event={"type": "new_game"})
    with GameLog(db_path) as second:
        assert [e.seq for e in second.events(game)] == [1]
        assert second.integrity_check() == "ok"


def test_file_from_a_newer_companion_is_refused_untouched(db_path: Path) -> None:
    GameLog(db_path).close()
    conn = raw(db_path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = db_path.read_bytes()
    with pytest.raises(SchemaTooNewError, match="newer companion"):
        GameLog(db_path)
    assert db_path.read_bytes() == before


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    path.write_text("shopping list: milk, eggs, more cubes\n" * 20)
    with pytest.raises(DatabaseUnusableError, match="cannot be opened"):
        GameLog(path)


def test_in_memory_database_is_refused() -> None:
    with pytest.raises(DatabaseUnusableError, match="must be a file"):
        GameLog(":memory:")


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET payload = '{\"type\":\"x\"}', type = 'x'",
        "UPDATE events SET created_at = 'yesterday'",
        "DELETE FROM events",
        "DELETE FROM games",
        "UPDATE games SET version = 0",
        "UPDATE games SET version = 7",
        # a gap, a duplicate and a rewrite of history via INSERT OR REPLACE
        "INSERT INTO events VALUES (1, 5, 't', '{\"type\":\"t\"}', 'now')",
        "INSERT INTO events VALUES (1, 2, 't', '{\"type\":\"t\"}', 'now')",
        "INSERT OR REPLACE INTO events VALUES (1, 1, 't', '{\"type\":\"t\"}', 'now')",
        # payload and type must agree, payload must be a JSON object
        "INSERT INTO events VALUES (1, 3, 't', '{\"type\":\"u\"}', 'now')",
        "INSERT INTO events VALUES (1, 3, 't', '[1]', 'now')",
        "UPDATE battles SET winner = 'defender'",
        "DELETE FROM battles",
        "UPDATE readings SET corrected = 0",
        "DELETE FROM readings",
    ],
)
def test_database_itself_refuses_to_rewrite_history(log: GameLog, statement: str) -> None:
    from companion.store import BattleRecord

    game = log.create_game("Saturday", first_event={"type": "new_game", "n": 1})
    battle = BattleRecord("red", "blue", "neutral", {"red": 2, "blue": 1}, "attacker")
    log.append(game, {"type": "resolve_battle"}, 1, battle=battle)
    before = (log.events(game), log.battles(game), log.game(game))
    conn = raw(log.path)
    with pytest.raises(sqlite3.DatabaseError):
        conn.execute(statement)
    conn.close()
    assert (log.events(game), log.battles(game), log.game(game)) == before


def test_upgrade_runs_pending_migrations_once_and_keeps_data(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.store import schema

    with GameLog(db_path) as old:
        game = old.create_game("Before the upgrade", first_event={"type": "new_game"})
    v2 = ("CREATE TABLE notes (game_id INTEGER REFERENCES games (id), text TEXT NOT NULL)",)
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, v2))
    monkeypatch.setattr(schema, "SCHEMA_VERSION", len(schema.MIGRATIONS))
    with GameLog(db_path) as upgraded:  # a second run of v2 would fail: the table exists
        assert [e.seq for e in upgraded.events(game)] == [1]
    with GameLog(db_path):
        pass
    conn = raw(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    assert conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 0


def test_a_failing_migration_leaves_the_old_version_intact(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.store import schema

    with GameLog(db_path) as old:
        game = old.create_game("Keep me", first_event={"type": "new_game"})
    broken = ("CREATE TABLE half_done (x INTEGER)", "THIS IS NOT SQL")
    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS, broken))
    monkeypatch.setattr(schema, "SCHEMA_VERSION", len(schema.MIGRATIONS))
    with pytest.raises(sqlite3.OperationalError):
        GameLog(db_path)
    monkeypatch.undo()
    conn = raw(db_path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "half_done" not in tables
    with GameLog(db_path) as log:
        assert log.game(game).title == "Keep me"


def test_a_folder_that_cannot_be_created_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    with pytest.raises(DatabaseUnusableError, match="COMPANION_DATA"):
        GameLog(blocker / "companion.sqlite3")


def test_version_2_copies_the_readings_of_battles_logged_before(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.store import BattleRecord, schema
    from companion.store.stats import statistics

    monkeypatch.setattr(schema, "MIGRATIONS", schema.MIGRATIONS[:1])
    monkeypatch.setattr(schema, "SCHEMA_VERSION", 1)
    db_path.parent.mkdir(parents=True, exist_ok=True)
    old = sqlite3.connect(db_path, isolation_level=None)
    schema.migrate(old)  # a file as the first version of the companion left it
    assert old.execute("SELECT count(*) FROM sqlite_master WHERE name = 'readings'").fetchone()[0] == 0
    old.execute("INSERT INTO games (title, created_at, updated_at) VALUES ('old', 't', 't')")
    old.execute("""INSERT INTO events VALUES (1, 1, 'resolve_battle', '{"type":"resolve_battle"}', 't')""")
    record = BattleRecord("red", "blue", "neutral", {"red": 2}, "attacker", camera_counts={"red": 1})
    old.execute(
        "INSERT INTO battles (game_id, seq, attacker, defender, stance, tray_counts, tray_size,"
        " camera_counts, corrected, winner, created_at) VALUES (1, 1, 'red', 'blue', 'neutral',"
        " ?, 2, ?, 1, 'attacker', 't')",
        (json.dumps(record.tray_counts), json.dumps(record.camera_counts)),
    )
    old.close()
    monkeypatch.undo()
    with GameLog(db_path) as log:
        vision = statistics(log)["all"]["vision"]
        assert (vision["readings"], vision["corrected"]) == (1, 1)
        assert vision["by_colour"]["red"]["corrected"] == 1
