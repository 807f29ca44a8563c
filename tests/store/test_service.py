"""GameService mechanics over a stand-in game (tests/store/fake_rules.py).

The same service over the real engine is tested in test_service_engine.py.
"""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest

from companion.store import GameLog, GameNotFoundError, VersionConflictError
from companion.store.errors import InvalidVersionError
from companion.store.service import GameService
from tests.store.fake_rules import FakeRuleError, FakeRules

NEW = {"type": "new_game", "title": "Fake night", "players": ["red", "blue"]}


@pytest.fixture
def service(log: GameLog) -> GameService:
    return GameService(log, rules=FakeRules())


def db_snapshot(log: GameLog) -> tuple[object, ...]:
    return tuple((g, log.events(g.id), log.battles(g.id)) for g in log.games())


def test_new_game_stores_first_event_with_board_snapshot(service: GameService, log: GameLog) -> None:
    updates = service.subscribe()
    game_id, state = service.new_game(NEW)
    assert state.version == 1 == log.version(game_id)
    [event] = log.events(game_id)
    assert event.payload["board"] == {"fake": True}  # filled in by the service
    assert log.game(game_id).title == "Fake night"
    assert updates.get(timeout=5) == (game_id, 1)
    other, _ = service.new_game({**NEW, "title": ""}, board={"owner": "data"})
    assert log.events(other)[0].payload["board"] == {"owner": "data"}
    assert log.game(other).title == "untitled"


def test_execute_appends_evolves_and_notifies(service: GameService, log: GameLog) -> None:
    game_id, _ = service.new_game(NEW)
    updates = service.subscribe()
    state, event = service.execute_with_event(game_id, {"type": "add", "player": "red", "n": 3})
    assert event == {"type": "add", "player": "red", "n": 3}
    assert state.version == 2 == log.version(game_id)
    assert state.totals == {"red": 3}
    assert service.state(game_id) is state
    assert service.last_event(game_id) == event
    assert updates.get(timeout=5) == (game_id, 2)
    assert log.game(game_id).players == [{"color": "red", "vp": 3}, {"color": "blue", "vp": 0}]


@pytest.mark.parametrize(
    "command",
    [
        {"type": "no_such_command"},
        "add",
        {"type": "add", "player": "green", "n": 1},  # refused by decide
        {"type": "add", "player": "red", "n": 0},
    ],
)
def test_rejected_command_changes_nothing(service: GameService, log: GameLog, command: object) -> None:
    game_id, _ = service.new_game(NEW)
    state = service.execute(game_id, {"type": "add", "player": "red", "n": 2})
    updates = service.subscribe()
    before = db_snapshot(log)
    with pytest.raises(FakeRuleError):
        service.execute(game_id, command)  # type: ignore[arg-type]
    assert db_snapshot(log) == before
    assert service.state(game_id) is state  # the cached object itself is untouched
    assert state.totals == {"red": 2} and state.version == 2
    assert updates.empty()


def test_bug_after_decide_changes_nothing_and_cache_recovers(service: GameService, log: GameLog) -> None:
    game_id, _ = service.new_game(NEW)
    service.execute(game_id, {"type": "add", "player": "blue", "n": 1})
    before = db_snapshot(log)
    with pytest.raises(RuntimeError):
        service.execute(game_id, {"type": "explode"})
    assert db_snapshot(log) == before
    assert service.state(game_id).totals == {"blue": 1}  # rebuilt by replay
    assert service.execute(game_id, {"type": "add", "player": "blue", "n": 1}).version == 3


def test_expected_version(service: GameService, log: GameLog) -> None:
    game_id, _ = service.new_game(NEW)
    add = {"type": "add", "player": "red", "n": 1}
    assert service.execute(game_id, add, expected_version=1).version == 2
    before = db_snapshot(log)
    with pytest.raises(VersionConflictError) as caught:
        service.execute(game_id, add, expected_version=1)
    assert (caught.value.expected, caught.value.actual) == (1, 2)
    for bad in (-1, "2", True, 2.0):
        with pytest.raises(InvalidVersionError):
            service.execute(game_id, add, expected_version=bad)  # type: ignore[arg-type]
    assert db_snapshot(log) == before


def test_a_writer_outside_the_service_is_detected(service: GameService, log: GameLog, db_path: Path) -> None:
    game_id, _ = service.new_game(NEW)
    with GameLog(db_path) as elsewhere:  # e.g. a second server process on the same file
        elsewhere.append(game_id, {"type": "add", "player": "blue", "n": 5}, 1)
    with pytest.raises(VersionConflictError):
        service.execute(game_id, {"type": "add", "player": "red", "n": 1})
    assert service.state(game_id).totals == {"blue": 5}  # the stale cache was dropped
    assert service.execute(game_id, {"type": "add", "player": "red", "n": 1}).version == 3


def test_unknown_games(service: GameService) -> None:
    for game_id in (7, 0, "1", None):
        with pytest.raises(GameNotFoundError):
            service.state(game_id)  # type: ignore[arg-type]
        with pytest.raises(GameNotFoundError):
            service.execute(game_id, {"type": "finish"})  # type: ignore[arg-type]


def test_game_without_first_event_is_not_playable(service: GameService, log: GameLog) -> None:
    game_id = log.create_game("made by hand")
    with pytest.raises(GameNotFoundError):
        service.state(game_id)


def test_state_after_restart_is_replayed_and_equal(service: GameService, db_path: Path) -> None:
    game_id, _ = service.new_game(NEW)
    for n in (1, 2, 3):
        service.execute(game_id, {"type": "add", "player": "red", "n": n})
    service.execute(game_id, {"type": "battle", "attacker": "red", "defender": "blue",
                              "counts": {"red": 2}, "camera": {"red": 1}})
    live = service.state(game_id)
    with GameLog(db_path) as reopened:
        restarted = GameService(reopened, rules=FakeRules())
        assert restarted.state(game_id) == live
        assert restarted.last_event(game_id) == service.last_event(game_id)
        assert reopened.battles(game_id)[0]["corrected"] is True


def test_finishing_writes_the_result(service: GameService, log: GameLog) -> None:
    game_id, _ = service.new_game(NEW)
    service.execute(game_id, {"type": "add", "player": "blue", "n": 4})
    service.execute(game_id, {"type": "finish"})
    summary = log.game(game_id)
    assert (summary.status, summary.winners) == ("finished", ["blue"])
    with pytest.raises(FakeRuleError):
        service.execute(game_id, {"type": "add", "player": "red", "n": 1})


def test_cache_is_bounded_and_evicted_games_replay(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("companion.store.service.CACHED_GAMES", 2)
    ids = [service.new_game(NEW)[0] for _ in range(4)]
    for i, game_id in enumerate(ids):
        service.execute(game_id, {"type": "add", "player": "red", "n": i + 1})
    assert len(service._cache) == 2
    assert [service.state(g).totals for g in ids] == [{"red": n} for n in (1, 2, 3, 4)]


def test_slow_subscriber_never_blocks_and_keeps_the_newest(service: GameService) -> None:
    game_id, _ = service.new_game(NEW)
    slow = service.subscribe(maxsize=2)
    for _ in range(5):
        service.execute(game_id, {"type": "add", "player": "red", "n": 1})
    assert [slow.get_nowait(), slow.get_nowait()] == [(game_id, 5), (game_id, 6)]
    service.unsubscribe(slow)
    service.unsubscribe(slow)  # twice is harmless
    service.execute(game_id, {"type": "add", "player": "red", "n": 1})
    assert slow.empty()


def test_concurrent_commands_on_one_game_are_serialised(service: GameService, log: GameLog) -> None:
    game_id, _ = service.new_game(NEW)
    updates = service.subscribe()
    start = threading.Barrier(6)

    def player() -> None:
        start.wait(timeout=10)
        for _ in range(10):
            service.execute(game_id, {"type": "add", "player": "red", "n": 1})

    threads = [threading.Thread(target=player) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert service.state(game_id).totals == {"red": 60}
    assert log.version(game_id) == 61
    versions = []
    while True:
        try:
            versions.append(updates.get_nowait())
        except queue.Empty:
            break
    assert [v for _, v in versions] == list(range(2, 62))  # in order, none lost


def test_a_log_the_rules_cannot_replay_is_a_clear_error_and_stays(service: GameService, log: GameLog) -> None:
    from companion.store.errors import GameUnreadableError

    game_id = log.create_game("from the future", first_event={"type": "new_game_v9"})
    before = db_snapshot(log)
    with pytest.raises(GameUnreadableError, match="cannot be rebuilt") as caught:
        service.state(game_id)
    assert not isinstance(caught.value, ValueError) and caught.value.game_id == game_id
    assert db_snapshot(log) == before
