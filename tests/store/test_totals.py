"""Running totals: a warm report after changes equals the report computed from scratch, and a
call reads only the games that changed."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

from benchmarks.stats import generate_log
from companion.store import BattleRecord, GameLog, GameMeta, insights, stats
from companion.store.people import add_person, merge_people, set_game_seats
from companion.store.throws import CubeRows, cube_rows, sync_throws
from companion.store.totals import RunningTotals, Selection


def _cold(compute, totals: RunningTotals):  # type: ignore[no-untyped-def]
    """``compute()`` with the running totals forgotten, as in a new process."""
    totals._state.clear()
    return compute()


class _Recorder:
    """A parts function over an in-memory table: one part per game, and which games it read."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn, self.calls = conn, []

    def __call__(self, conn: sqlite3.Connection, games: Selection) -> dict[int, Counter]:
        self.calls.append(games.ids)
        where, params = games.where("id")
        return {gid: Counter({("points", colour): points}) for gid, colour, points in
                conn.execute(f"SELECT id, colour, points FROM g WHERE {where}", params)}


def test_only_changed_and_gone_games_are_read() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE g (id INTEGER PRIMARY KEY, colour TEXT, points INTEGER)")
    conn.executemany("INSERT INTO g VALUES (?, ?, ?)", [(1, "red", 3), (2, "red", 4), (3, "blue", 5)])
    parts = _Recorder(conn)
    totals = RunningTotals(parts)
    stamps = {1: "a", 2: "a", 3: "a"}
    assert totals.sum("db", conn, stamps) == Counter({("points", "red"): 7, ("points", "blue"): 5})
    assert parts.calls == [None]  # the first call reads everything in one pass
    assert totals.sum("db", conn, stamps) == Counter({("points", "red"): 7, ("points", "blue"): 5})
    assert parts.calls == [None]  # nothing changed: nothing read

    conn.execute("UPDATE g SET points = 10 WHERE id = 2")
    conn.execute("DELETE FROM g WHERE id = 3")
    assert totals.sum("db", conn, {1: "a", 2: "b"}) == Counter({("points", "red"): 13})
    assert parts.calls == [None, [2]]  # blue's game is gone: subtracted, and no entry at 0 left
    assert totals.sum("other.db", conn, {1: "a", 2: "b"}) == Counter({("points", "red"): 13})
    assert parts.calls[-1] is None  # another database has totals of its own


def test_warm_reports_after_changes_equal_reports_from_scratch(tmp_path: Path) -> None:
    path = generate_log(tmp_path / "c.sqlite3", 12, seed=4)
    with GameLog(path) as log:
        reports = {"stats": (lambda: stats.statistics(log), stats._TOTALS),
                   "people": (lambda: insights.people_report(log), insights._PEOPLE_TOTALS)}
        for compute, _ in reports.values():
            compute()  # warm
        # A new battle in game 3, a new unfinished game with people, two people merged.
        version = log.version(3)
        log.append(3, {"type": "resolve_battle"}, version,
                   battle=BattleRecord("red", "blue", "neutral", {"red": 2, "blue": 1}, "attacker"))
        seat = {"color": "red", "name": "Zed", "light_tribe": "elves", "dark_tribe": "orcs", "vp": 3}
        game = log.create_game("new", first_event={"type": "new_game"}, meta=GameMeta(round=1, players=[seat]))
        zed = add_person(log, "Zed")
        set_game_seats(log, game, {"red": zed["id"]})
        before = {p["name"]: p for p in insights.people_report(log)["people"]}
        merge_people(log, zed["id"], before["Ada"]["id"])  # only the new game's seat changes
        for name, (compute, totals) in reports.items():
            warm = compute()
            assert warm == _cold(compute, totals), name
        people = {p["name"]: p for p in insights.people_report(log)["people"]}
        assert "Zed" not in people and people["Ada"]["games"] == before["Ada"]["games"] + 1


def test_tower_input_after_new_throws_equals_a_fresh_read(tmp_path: Path) -> None:
    """The model's input kept from the rows added since the last call equals reading all of
    ``throw_cubes`` again: after another game, and after the derived tables were rebuilt."""
    path = generate_log(tmp_path / "c.sqlite3", 6, seed=8)
    kept = CubeRows()
    with GameLog(path) as log:
        sync_throws(log)
        with log.reading() as conn:
            first = kept.rows("db", conn)
            assert first == cube_rows(conn) and first[1] == 6 * 17
        generate_log(path, 2, seed=9)  # two more games, 34 more throws
        sync_throws(log)
        with log.reading() as conn:
            assert kept.rows("db", conn) == cube_rows(conn)
            assert kept.rows("db", conn)[1] == 8 * 17
        with log._transaction(write=True) as conn:  # noqa: SLF001 — rebuild the derived rows
            for table in ("throw_cubes", "battle_attacks", "odds_outcomes", "throws_synced"):
                conn.execute(f"DELETE FROM {table} WHERE game_id > 4")
        with log.reading() as conn:
            assert kept.rows("db", conn) == cube_rows(conn)
            assert kept.rows("db", conn)[1] == 4 * 17
        sync_throws(log)
        with log.reading() as conn:
            assert kept.rows("db", conn) == cube_rows(conn)
            assert kept.rows("db", conn)[1] == 8 * 17


def test_warm_up_reads_the_log_before_the_first_view(tmp_path: Path) -> None:
    path = generate_log(tmp_path / "c.sqlite3", 3, seed=2)
    with GameLog(path) as log:
        insights.warm_up(log).join(timeout=60)
        key = str(log.path)
        assert key in stats._TOTALS._state and key in insights._PEOPLE_TOTALS._state
        assert key in insights._CUBE_ROWS._state
        # The first view now reads no game: the parts function is not called.
        calls = []
        original = stats._TOTALS._parts_of
        stats._TOTALS._parts_of = lambda conn, games: calls.append(games) or original(conn, games)
        try:
            assert stats.statistics(log)["games"]["total"] == 3
        finally:
            stats._TOTALS._parts_of = original
        assert calls == []
