"""GameLog: round trips, sequence numbers, optimistic concurrency, bad input, threads."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from companion.store import BattleRecord, GameLog, GameMeta, GameNotFoundError, VersionConflictError
from companion.store.errors import (
    InvalidEventError,
    InvalidRecordError,
    InvalidTitleError,
    InvalidVersionError,
)
from companion.store.records import ReadingRecord


def snapshot(log: GameLog) -> tuple[object, ...]:
    return tuple((g, log.events(g.id), log.battles(g.id)) for g in log.games())


def test_append_and_read_back_round_trip(log: GameLog) -> None:
    game = log.create_game("  Game night  ")
    events = [
        {"type": "new_game", "players": [{"color": "red", "name": "Ana ß"}], "rounds": 5},
        {"type": "deploy", "player": "red", "region": "treehome", "armies": 3, "wild": False},
        {"type": "attack", "nested": {"a": [1, 2.5, None, True]}, "note": "Überfall"},
    ]
    seqs = [log.append(game, e, expected_version=i) for i, e in enumerate(events)]
    assert seqs == [1, 2, 3]
    stored = log.events(game)
    assert [s.seq for s in stored] == [1, 2, 3]
    assert [s.payload for s in stored] == events
    assert [s.type for s in stored] == ["new_game", "deploy", "attack"]
    assert [s.created_at for s in stored] == sorted(s.created_at for s in stored)
    assert log.version(game) == 3
    assert [s.seq for s in log.events(game, after=1)] == [2, 3]
    summary = log.game(game)
    assert (summary.title, summary.version, summary.status) == ("Game night", 3, "active")
    assert summary.updated_at == stored[-1].created_at


def test_create_game_with_first_event_is_one_transaction(log: GameLog) -> None:
    meta = GameMeta(round=0, players=[{"color": "red", "light_tribe": "elves"}])
    game = log.create_game("T", first_event={"type": "new_game"}, meta=meta)
    assert log.version(game) == 1
    assert log.game(game).players == [{"color": "red", "light_tribe": "elves"}]
    with pytest.raises(InvalidEventError):
        log.create_game("T2", first_event={"type": "new_game", "bad": {1, 2}})
    assert [g.id for g in log.games()] == [game]  # no game without its first event


def test_sequence_numbers_are_per_game(log: GameLog) -> None:
    a, b = log.create_game("A"), log.create_game("B")
    assert log.append(a, {"type": "x"}, 0) == 1
    assert log.append(b, {"type": "x"}, 0) == 1
    assert log.append(a, {"type": "y"}, 1) == 2
    assert (log.version(a), log.version(b)) == (2, 1)


def test_stale_expected_version_is_a_conflict_and_writes_nothing(log: GameLog) -> None:
    game = log.create_game("A", first_event={"type": "new_game"})
    log.append(game, {"type": "deploy"}, 1)
    before = snapshot(log)
    for stale in (0, 1, 3):
        with pytest.raises(VersionConflictError) as caught:
            log.append(game, {"type": "late"}, stale, meta=GameMeta(round=9))
        assert (caught.value.expected, caught.value.actual) == (stale, 2)
        assert "Reload" in str(caught.value)
        assert not isinstance(caught.value, ValueError)
    assert snapshot(log) == before


@pytest.mark.parametrize(
    ("event", "error"),
    [
        ("deploy", InvalidEventError),
        ({"player": "red"}, InvalidEventError),
        ({"type": ""}, InvalidEventError),
        ({"type": 3}, InvalidEventError),
        ({"type": "x", "when": object()}, InvalidEventError),
        ({"type": "x", "n": float("nan")}, InvalidEventError),
        ({"type": "x", "pair": (1, 2)}, InvalidEventError),  # would read back as a list
        ({"type": "x", "by": {1: "a"}}, InvalidEventError),  # would read back with a text key
    ],
)
def test_bad_events_are_refused_and_change_nothing(log: GameLog, event: object, error: type) -> None:
    game = log.create_game("A", first_event={"type": "new_game"})
    before = snapshot(log)
    with pytest.raises(error) as caught:
        log.append(game, event, 1)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError)
    assert snapshot(log) == before


@pytest.mark.parametrize("version", [-1, "1", 1.0, True, None])
def test_bad_expected_version_is_refused(log: GameLog, version: object) -> None:
    game = log.create_game("A", first_event={"type": "new_game"})
    with pytest.raises(InvalidVersionError):
        log.append(game, {"type": "x"}, version)  # type: ignore[arg-type]
    assert log.version(game) == 1


@pytest.mark.parametrize("game_id", [0, -3, 99, "1", True, 2.0])
def test_unknown_game_is_not_found_everywhere(log: GameLog, game_id: object) -> None:
    log.create_game("A")
    for call in (
        lambda: log.append(game_id, {"type": "x"}, 0),  # type: ignore[arg-type]
        lambda: log.events(game_id),  # type: ignore[arg-type]
        lambda: log.game(game_id),  # type: ignore[arg-type]
        lambda: log.version(game_id),  # type: ignore[arg-type]
        lambda: log.battles(game_id),  # type: ignore[arg-type]
    ):
        with pytest.raises(GameNotFoundError, match="no game"):
            call()
    assert log.version(1) == 0


@pytest.mark.parametrize("title", ["", "   ", None, "x" * 201])
def test_bad_titles_are_refused(log: GameLog, title: object) -> None:
    with pytest.raises(InvalidTitleError):
        log.create_game(title)  # type: ignore[arg-type]
    assert log.games() == []


def test_meta_is_written_with_the_event_and_finish_time_kept(log: GameLog) -> None:
    game = log.create_game("A", first_event={"type": "new_game"})
    players = [{"color": "red", "vp": 3}, {"color": "blue", "vp": 5}]
    log.append(game, {"type": "score_round"}, 1, meta=GameMeta(round=1, players=players))
    assert (log.game(game).round, log.game(game).players) == (1, players)
    assert log.game(game).finished_at is None and log.game(game).winners is None
    result = {"winners": ["blue"], "standings": [{"color": "blue", "vp": 5, "rank": 1}]}
    log.append(game, {"type": "score_round"}, 2, meta=GameMeta("finished", 5, players, result))
    finished = log.game(game)
    assert (finished.status, finished.winners, finished.result) == ("finished", ["blue"], result)
    assert finished.finished_at == finished.updated_at
    log.append(game, {"type": "correct"}, 3, meta=GameMeta("finished", 5, players, result))
    assert log.game(game).finished_at == finished.finished_at  # first finish time is kept
    log.append(game, {"type": "undo"}, 4, meta=GameMeta("active", 5, players))
    assert log.game(game).finished_at is None
    assert log.game(game).to_dict()["winner"] is None


@pytest.mark.parametrize(
    "make",
    [
        lambda: GameMeta(status="paused"),
        lambda: GameMeta(round=-1),
        lambda: GameMeta(players="red"),  # type: ignore[arg-type]
        lambda: GameMeta(status="finished"),
        lambda: BattleRecord("red", "blue", "friendly", {}, "attacker"),
        lambda: BattleRecord("red", "blue", "neutral", {}, "red"),
        lambda: BattleRecord("", "blue", "neutral", {}, "tie"),
        lambda: BattleRecord("red", "blue", "neutral", {"red": -1}, "tie"),
        lambda: BattleRecord("red", "blue", "neutral", {"red": 1}, "tie", camera_counts={"r": "2"}),
        lambda: BattleRecord("red", None, "neutral", {}, "tie", realm="purgatory"),
        lambda: ReadingRecord("guess", {"red": 1}),
        lambda: ReadingRecord("seeding", {"red": 1.5}),
    ],
)
def test_malformed_records_never_reach_the_log(make: object) -> None:
    with pytest.raises(InvalidRecordError):
        make()  # type: ignore[operator]


def test_battle_records(log: GameLog) -> None:
    game = log.create_game("A", first_event={"type": "new_game"})
    by_hand = BattleRecord("purple", "yellow", "for_attacker", {"purple": 4, "yellow": 3, "green": 1}, "attacker", round=2, realm="dark", region="white-falls")
    read = BattleRecord("red", None, "against_attacker", {"red": 1, "green": 2, "blue": 0}, "inhabitants", camera_counts={"red": 1, "green": 1})
    same = BattleRecord("red", "blue", "neutral", {"red": 1}, "tie", camera_counts={"red": 1, "blue": 0})
    log.append(game, {"type": "resolve_battle"}, 1, battle=by_hand)
    log.append(game, {"type": "resolve_battle"}, 2, battle=read)
    log.append(game, {"type": "resolve_battle"}, 3, battle=same)
    rows = log.battles(game)
    assert [r["seq"] for r in rows] == [2, 3, 4]
    assert [r["corrected"] for r in rows] == [None, True, False]
    assert [r["tray_size"] for r in rows] == [8, 3, 1]
    assert rows[0]["tray_counts"] == {"purple": 4, "yellow": 3, "green": 1}
    assert (rows[0]["realm"], rows[0]["region"], rows[0]["round"]) == ("dark", "white-falls", 2)
    assert rows[1]["defender"] is None and rows[1]["camera_counts"] == {"red": 1, "green": 1}
    assert log.battles() == rows


def test_games_are_listed_most_recent_first(log: GameLog) -> None:
    a, b = log.create_game("A"), log.create_game("B")
    assert [g.id for g in log.games()] == [b, a]
    log.append(a, {"type": "x"}, 0)
    assert [g.id for g in log.games()] == [a, b]


def test_concurrent_writers_get_exactly_one_success_per_version(db_path: Path) -> None:
    """Eight threads race for the same versions; each version is won by exactly one."""
    log = GameLog(db_path)
    game = log.create_game("race")
    start = threading.Barrier(8)
    won: list[int] = []
    lost: list[int] = []
    lock = threading.Lock()

    def writer(name: int) -> None:
        start.wait(timeout=10)
        for _ in range(15):
            version = log.version(game)
            try:
                log.append(game, {"type": "x", "by": name}, version)
                with lock:
                    won.append(version)
            except VersionConflictError:
                with lock:
                    lost.append(version)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert sorted(won) == list(range(len(won)))  # no version written twice, none skipped
    assert len(won) + len(lost) == 8 * 15
    assert [e.seq for e in log.events(game)] == list(range(1, len(won) + 1))
    log.close()


def test_two_logs_on_one_file_see_each_other(db_path: Path) -> None:
    first, second = GameLog(db_path), GameLog(db_path)
    game = first.create_game("A")
    second.append(game, {"type": "x"}, 0)
    with pytest.raises(VersionConflictError):
        first.append(game, {"type": "y"}, 0)
    assert [e.type for e in first.events(game)] == ["x"]
    first.close(), second.close()


def test_closed_log_refuses_work(db_path: Path) -> None:
    log = GameLog(db_path)
    log.close()
    log.close()
    with pytest.raises(Exception, match="closed"):
        log.games()


def test_backup_is_a_complete_consistent_copy(log: GameLog, tmp_path: Path) -> None:
    game = log.create_game("A", first_event={"type": "new_game"})
    log.append(game, {"type": "x"}, 1)
    copy = log.backup(tmp_path / "backups" / "copy.sqlite3")
    with GameLog(copy) as restored:
        assert restored.events(game) == log.events(game)
        assert restored.integrity_check() == "ok"
    conn = sqlite3.connect(copy)
    assert conn.execute("SELECT count(*) FROM events").fetchone()[0] == 2
    conn.close()


def test_readings_are_written_with_battles_and_on_their_own(log: GameLog) -> None:
    game = log.create_game("A", first_event={"type": "new_game"})
    log.append(game, {"type": "seed_tower"}, 1, reading=ReadingRecord("seeding", {"red": 7, "green": 0}, {"red": 6}))
    log.append(game, {"type": "resolve_battle"}, 2, battle=BattleRecord("red", None, "neutral", {"red": 1}, "attacker"))
    log.append(game, {"type": "deploy"}, 3)
    rows = [(r["seq"], r["kind"], r["confirmed"], r["camera"], r["corrected"]) for r in log.readings(game)]
    assert rows == [(2, "seeding", {"red": 7}, {"red": 6}, True), (3, "battle", {"red": 1}, None, None)]
    assert log.readings() == log.readings(game)
    with pytest.raises(GameNotFoundError):
        log.readings(99)
