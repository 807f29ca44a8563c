"""``companion store …`` through its own argument parser (the lead wires it into companion.cli)."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from companion.store import BattleRecord, GameLog
from companion.store.cli import add_commands


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return args.handler(args)


@pytest.fixture
def db(log: GameLog) -> Path:
    game = log.create_game("CLI night", first_event={"type": "new_game"})
    log.append(game, {"type": "resolve_battle"}, 1, battle=BattleRecord(
        "red", "blue", "neutral", {"red": 2, "blue": 1}, "attacker", camera_counts={"red": 2}))
    return log.path


def test_check(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("store", "--db", str(db), "check") == 0
    out = capsys.readouterr().out
    assert "integrity: ok" in out and "games: 1 (0 finished), events: 2" in out


def test_backup_copies_and_refuses_to_overwrite(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dest = tmp_path / "copy.sqlite3"
    assert run("store", "--db", str(db), "backup", str(dest)) == 0
    conn = sqlite3.connect(dest)
    assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 2
    conn.close()
    before = dest.read_bytes()
    assert run("store", "--db", str(db), "backup", str(dest)) == 2
    assert "exists already" in capsys.readouterr().err
    assert dest.read_bytes() == before


def test_export_json_and_csv(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("store", "--db", str(db), "export", "1") == 0
    doc = json.loads(capsys.readouterr().out)
    assert [e["type"] for e in doc["events"]] == ["new_game", "resolve_battle"]
    assert run("store", "--db", str(db), "export", "1", "--csv") == 0
    [row] = csv.DictReader(io.StringIO(capsys.readouterr().out))
    assert (row["attacker"], row["corrected"], row["camera_blue"]) == ("red", "yes", "0")


def test_stats(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("store", "--db", str(db), "stats") == 0
    assert json.loads(capsys.readouterr().out)["all"]["battles"]["fought"] == 1


def test_unknown_game_and_missing_file_are_one_line_errors(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("store", "--db", str(db), "export", "9") == 2
    assert "no game number 9" in capsys.readouterr().err
    missing = tmp_path / "nothing.sqlite3"
    assert run("store", "--db", str(missing), "check") == 2
    assert "There is no game database" in capsys.readouterr().err
    assert not missing.exists()  # checking never creates a database


def test_default_path_comes_from_companion_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    GameLog(tmp_path / "data" / "companion.sqlite3").close()
    assert run("store", "check") == 0
    assert "games: 0" in capsys.readouterr().out
