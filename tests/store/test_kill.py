"""Killed for real: SIGKILL the real server process while a scripted game runs over HTTP.

The harness is :mod:`benchmarks.kill` (500 kills there, 50 here): after every kill the database
of the dead server is checked — integrity, every acknowledged command present byte for byte,
nothing unacknowledged half-applied — and after the restart the served state must equal a
replay of the log. The checker itself is tested first on files with known damage, so a green
run means something.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.kill import InFlight, Ledger, Tally, check_file, run
from companion.store import GameLog
from companion.store.service import GameService
from tests.store.game_script import Table

KILLS = 50


def _game(path: Path) -> tuple[int, list]:
    with GameLog(path) as log:
        table = Table(GameService(log))
        table.to_actions()
        return table.game_id, log.events(table.game_id)


def _ledger(game: int, events: list, upto: int) -> Ledger:
    ledger = Ledger()
    for e in events[:upto]:
        ledger.ack(game, e.seq, e.payload)
    return ledger


def test_the_checker_passes_a_file_holding_exactly_what_was_acknowledged(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    game, events = _game(db)
    tally = Tally()
    check_file(db, _ledger(game, events, len(events)), tally)
    assert tally.problems == [] and not tally.lost and tally.half_applied == 0


def test_the_checker_counts_an_acknowledged_command_that_is_missing(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    game, events = _game(db)
    ledger = _ledger(game, events, len(events))
    ledger.ack(game, len(events) + 1, {"type": "pass"})
    tally = Tally()
    check_file(db, ledger, tally)
    assert tally.lost == {(game, len(events) + 1)}


def test_the_checker_counts_an_acknowledged_event_that_was_changed(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    game, events = _game(db)
    ledger = _ledger(game, events, len(events))
    ledger.acked[game][3] = {**events[2].payload, "armies": 99}
    tally = Tally()
    check_file(db, ledger, tally)
    assert tally.lost == {(game, 3)}


def test_an_unacknowledged_event_is_allowed_only_as_the_request_in_flight(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    game, events = _game(db)
    last = events[-1]
    ledger = _ledger(game, events, len(events) - 1)
    tally = Tally()
    check_file(db, ledger, tally)  # nothing was in flight: an event nobody sent is half-applied
    assert tally.half_applied == 1

    ledger = _ledger(game, events, len(events) - 1)
    ledger.in_flight = InFlight("command", game, last.seq - 1, last.type)
    tally = Tally()
    check_file(db, ledger, tally)
    assert tally.problems == [] and tally.in_flight_landed == 1

    ledger = _ledger(game, events, len(events) - 2)  # two beyond: more than one request
    ledger.in_flight = InFlight("command", game, last.seq - 2, last.type)
    tally = Tally()
    check_file(db, ledger, tally)
    assert tally.half_applied == 1


@pytest.mark.slow
def test_acknowledged_commands_survive_sigkills_of_the_real_server(tmp_path: Path) -> None:
    tally = run(KILLS, tmp_path, seed=20171121)
    assert tally.problems == []
    assert tally.kills == KILLS
    assert not tally.lost and tally.integrity_failures == 0 and tally.half_applied == 0
    assert tally.state_mismatches == 0
    assert tally.acknowledged >= KILLS  # the games moved on between the kills
