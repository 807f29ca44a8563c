"""The service over the real rules engine: a whole game, refusals, undo, replay after restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.game.errors import GameError, NotYourTurnError, UndoNotAllowedError
from companion.store import GameLog
from companion.store.service import GameService
from companion.store.stats import statistics
from tests.store.game_script import SEED_TRAY, Table


@pytest.fixture
def table(log: GameLog) -> Table:
    return Table(GameService(log), title="Engine night")


def db_snapshot(log: GameLog) -> tuple[object, ...]:
    return tuple((g, log.events(g.id), log.battles(g.id)) for g in log.games())


def replayed(path: Path, game_id: int) -> object:
    with GameLog(path) as reopened:
        return GameService(reopened).state(game_id)


def test_new_game_snapshots_the_packaged_board(table: Table, log: GameLog) -> None:
    [first] = log.events(table.game_id)
    assert first.type == "new_game" and first.payload["board"]["regions"]
    assert log.game(table.game_id).title == "Engine night"
    assert [p["color"] for p in log.game(table.game_id).players] == ["red", "blue", "purple"]


def test_a_whole_game_with_a_battle_is_logged_and_replays_equal(table: Table, log: GameLog, db_path: Path) -> None:
    table.to_actions(seed_camera={**SEED_TRAY, "blue": SEED_TRAY["blue"] - 1})  # one blue missed
    table.attack()
    assert table.state.phase == "battle"
    assert replayed(db_path, table.game_id) == table.state  # a power cut mid-battle resumes here
    table.resolve({"blue": 3, "purple": 2, "green": 1}, camera={"blue": 3, "purple": 1, "green": 1})
    [battle] = log.battles(table.game_id)
    assert battle["seq"] == table.state.version
    assert (battle["attacker"], battle["defender"], battle["region"], battle["realm"]) == (
        "blue", "purple", "white-falls", "light")
    assert (battle["stance"], battle["winner"], battle["corrected"]) == ("for_attacker", "attacker", True)
    assert battle["tray_counts"] == {"blue": 3, "purple": 2, "green": 1}
    assert battle["round"] == 1
    while table.step_to_end() is not None:
        pass
    summary = log.game(table.game_id)
    assert summary.status == "finished" and table.state.phase == "over"
    assert summary.version == table.state.version == len(log.events(table.game_id))
    assert summary.result == table.state.result
    assert summary.winners == table.state.result["winners"]
    assert summary.round == table.state.round
    assert {p["color"]: p["vp"] for p in summary.players} == {p.color: p.vp for p in table.state.players}
    assert replayed(db_path, table.game_id) == table.state
    vision = statistics(log)["finished"]["vision"]
    assert vision["by_kind"]["seeding"]["corrected"] == 1 and vision["by_kind"]["battle"]["corrected"] == 1
    assert vision["by_colour"]["blue"] == {"readings": 2, "corrected": 1, "correction_rate": 0.5}
    assert vision["by_colour"]["purple"]["corrected"] == 1


def test_refused_command_leaves_db_and_cache_unchanged(table: Table, log: GameLog) -> None:
    table.to_actions()
    cached = table.service.state(table.game_id)
    before, as_dict = db_snapshot(log), cached.to_dict()
    updates = table.service.subscribe()
    with pytest.raises(NotYourTurnError):  # it is Blue's turn
        table.service.execute(table.game_id, {"type": "pass", "player": "red", "compensation": "gold"})
    with pytest.raises(GameError):
        table.service.execute(table.game_id, {"type": "attack", "player": "blue"})  # malformed
    assert db_snapshot(log) == before
    assert table.service.state(table.game_id) is cached and cached.to_dict() == as_dict
    assert updates.empty()


def test_undo_is_an_appended_event_and_throws_cannot_be_undone(table: Table, log: GameLog, db_path: Path) -> None:
    table.to_actions()
    table.attack()
    version = table.state.version
    table.run(type="undo")
    assert table.state.phase == "actions" and table.state.version == version + 1
    events = log.events(table.game_id)
    assert [e.type for e in events[-2:]] == ["attack", "undo"]  # nothing deleted
    assert events[-1].payload["undoes"] == version
    assert replayed(db_path, table.game_id) == table.state
    table.attack()
    table.resolve({"blue": 1, "purple": 3, "green": 1})  # 1 + 1 green : 3
    before = db_snapshot(log)
    with pytest.raises(UndoNotAllowedError):
        table.run(type="undo")
    assert db_snapshot(log) == before
    [battle] = log.battles(table.game_id)
    assert (battle["winner"], battle["corrected"]) == ("defender", None)


def test_a_stale_apply_is_refused_naming_the_correction_and_changes_nothing(
    table: Table, log: GameLog
) -> None:
    from companion.store import VersionConflictError

    table.to_actions()
    table.attack()
    table.run(type="read_tray", counts={"blue": 3, "purple": 3, "green": 1}, reading="1-40-0badcafe")
    seen = table.state.version  # tablet B shows 3 : 3
    table.run(type="correct_tray", color="blue", count=5, device="Tablet A")
    before = db_snapshot(log)
    with pytest.raises(VersionConflictError) as caught:
        table.service.execute(table.game_id, {"type": "resolve_battle",
                                              "counts": {"blue": 3, "purple": 3, "green": 1}},
                              expected_version=seen)
    assert str(caught.value) == "Blue was corrected to 5 on Tablet A — check and apply again."
    assert (caught.value.expected, caught.value.actual) == (seen, seen + 1)
    assert db_snapshot(log) == before and table.service.state(table.game_id).phase == "battle"
    # The correction and the camera's counts are in the log: the stats see a corrected reading.
    table.resolve({"blue": 5, "purple": 3, "green": 1})
    [battle] = log.battles(table.game_id)
    assert battle["camera_counts"] == {"blue": 3, "purple": 3, "green": 1} and battle["corrected"]
    kinds = [e.type for e in log.events(table.game_id)][-3:]
    assert kinds == ["read_tray", "correct_tray", "resolve_battle"]
