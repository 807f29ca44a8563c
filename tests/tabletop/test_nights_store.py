"""The game-night log in SQLite: durable events, append-only, derived state = replay, nothing
written on a refusal, roster links that follow rename and merge, the evening of a game."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from companion.store import nights
from companion.store.errors import VersionConflictError
from companion.store.log import GameLog
from companion.store.people import add_person, merge_people, update_person
from companion.tabletop import replay, rules_for
from companion.tabletop.errors import NegativeScoreError, TabletopError


@pytest.fixture
def log(tmp_path: Path):
    with GameLog(tmp_path / "companion.sqlite3") as log:
        yield log


def amrtaka(log, *players):
    return nights.create_game(log, nights.parse_new_game({"game": "amrtaka", "players": list(players)}))


def test_confirmed_entries_survive_a_restart_and_the_state_is_their_replay(log, tmp_path) -> None:
    game = amrtaka(log, "Ani", "Ben")
    for e in ({"type": "gain", "player": "p1", "points": 15}, {"type": "end_turn"},
              {"type": "gain", "player": "p2", "points": 5}, {"type": "undo"}):
        game = nights.add_event(log, game["id"], e, game["version"])
    log.close()
    with GameLog(tmp_path / "companion.sqlite3") as again:  # as after a power cut
        stored = nights.get_game(again, game["id"])
    assert stored["version"] == 4 and stored["state"] == game["state"]
    assert stored["state"] == replay(rules_for("amrtaka"), ["p1", "p2"], {}, stored["events"])
    assert stored["state"]["scores"] == {"p1": 15, "p2": 0} and stored["state"]["turns"] == 1


def test_a_refused_entry_writes_nothing(log) -> None:
    game = nights.create_game(log, nights.parse_new_game({"game": "wrath_of_the_immortals", "players": ["Ani", "Ben"]}))
    with pytest.raises(NegativeScoreError) as refused:
        nights.add_event(log, game["id"], {"type": "power", "player": "p2", "delta": -17})
    assert str(refused.value).startswith("Ben has 16 power points")
    with pytest.raises(VersionConflictError):
        nights.add_event(log, game["id"], {"type": "power", "player": "p2", "delta": 1}, expected_version=5)
    with pytest.raises(TabletopError):
        nights.create_game(log, nights.parse_new_game({"game": "generic", "name": "Azul", "players": ["A", "B"],
                                                       "events": [{"type": "result", "scores": {"p1": 1}}]}))
    assert nights.get_game(log, game["id"])["version"] == 0
    assert [g["id"] for g in nights.list_games(log)] == [game["id"]]


def test_events_are_append_only_in_the_database_itself(log) -> None:
    game = amrtaka(log, "Ani", "Ben")
    nights.add_event(log, game["id"], {"type": "end_turn"})
    conn = sqlite3.connect(log.path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("UPDATE tt_events SET payload = '{\"type\": \"end_turn\"}'")
    with pytest.raises(sqlite3.DatabaseError, match="leave only with their game"):
        conn.execute("DELETE FROM tt_events")
    with pytest.raises(sqlite3.DatabaseError, match="next number"):
        conn.execute("INSERT INTO tt_events VALUES (?, 5, 'end_turn', '{\"type\": \"end_turn\"}', 'now')", (game["id"],))
    conn.close()
    assert nights.delete_game(log, game["id"]) is None
    with log.reading() as c:
        assert c.execute("SELECT count(*) FROM tt_events").fetchone()[0] == 0


def test_roster_links_follow_rename_and_merge(log) -> None:
    ani, anna = add_person(log, "Ani"), add_person(log, "Anna")
    game = nights.create_game(log, nights.parse_new_game({"game": "amrtaka", "players": [{"person_id": anna["id"]}, "Ben"]}))
    update_person(log, anna["id"], {"name": "Anna K."})
    assert nights.get_game(log, game["id"])["players"][0]["name"] == "Anna K."
    merge_people(log, anna["id"], ani["id"])
    assert nights.get_game(log, game["id"])["players"][0]["person"] == {"id": ani["id"], "name": "Ani"}
    with pytest.raises(nights.InvalidNightGameError, match="twice"):
        nights.create_game(log, nights.parse_new_game(
            {"game": "amrtaka", "players": [{"person_id": ani["id"]}, {"person_id": anna["id"]}]}))


def test_a_game_begun_after_midnight_belongs_to_the_evening_before(monkeypatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    try:
        assert nights.night_of("2026-11-24T23:30:00.000+00:00") == "2026-11-24"  # 00:30 in Berlin
        assert nights.night_of("2026-11-24T04:59:00.000+00:00") == "2026-11-23"  # 05:59
        assert nights.night_of("2026-11-24T05:00:00.000+00:00") == "2026-11-24"  # 06:00
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_evening_list_holds_exactly_the_games_of_that_evening_across_a_clock_change(log, monkeypatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    try:  # 2026-10-25: clocks go back at 03:00, so that night runs 25 hours (04:00Z to 05:00Z)
        starts = ["2026-10-24T03:59:59.000Z", "2026-10-24T04:00:00.000Z", "2026-10-25T04:59:59.000Z",
                  "2026-10-25T05:00:00.000Z"]
        for start in starts:
            nights.create_game(log, nights.parse_new_game({"game": "amrtaka", "players": ["A", "B"], "started_at": start}))
        listed = sorted(g["started_at"] for g in nights.list_games(log, "2026-10-24"))
        assert listed == ["2026-10-24T04:00:00.000+00:00", "2026-10-25T04:59:59.000+00:00"]
        assert all(nights.night_of(g["started_at"]) == g["night"] for g in nights.list_games(log))
        assert {n["night"]: n["games"] for n in nights.nights(log)} == {"2026-10-23": 1, "2026-10-24": 2, "2026-10-25": 1}
    finally:
        monkeypatch.undo()
        time.tzset()


def test_times_need_their_zone_and_an_end_after_the_start(log) -> None:
    with pytest.raises(nights.InvalidNightGameError, match="time zone"):
        nights.parse_new_game({"game": "amrtaka", "players": ["A", "B"], "started_at": "2026-11-24T19:00"})
    with pytest.raises(nights.InvalidNightGameError, match="before it started"):
        nights.create_game(log, nights.parse_new_game({
            "game": "generic", "name": "Azul", "players": ["A", "B"], "started_at": "2026-11-24T19:00:00Z",
            "ended_at": "2026-11-24T18:00:00Z", "events": [{"type": "result", "winners": ["p1"]}]}))
    saved = nights.create_game(log, nights.parse_new_game({
        "game": "generic", "name": "Azul", "players": ["A", "B"], "started_at": "2026-11-24T20:00:00+01:00",
        "ended_at": "2026-11-24T19:50:00Z", "events": [{"type": "result", "winners": ["p1"]}]}))
    assert saved["started_at"] == "2026-11-24T19:00:00.000+00:00" and saved["minutes"] == 50
    assert json.loads(json.dumps(saved)) == saved
