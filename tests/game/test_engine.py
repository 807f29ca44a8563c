"""The reducer: guards in order, one event per command, replay, undo as data."""

import pytest

from companion.game.engine import decide, evolve, preview_battle, replay
from companion.game.errors import (GameOverError, InvalidCommandError, InvalidEventError, NotYourTurnError,
                                   UndoNotAllowedError, WrongPhaseError)

from .conftest import deployed, in_actions, new_game, run, seeded


def test_new_game_snapshots_the_board_and_starts_deployment():
    s = new_game()
    assert s.version == 1 and s.phase == "deployment" and s.step == "start"
    assert s.turn == "red" and s.rounds == 7
    assert s.log[0]["board"]["regions"][0]["id"] == "mountainhome"


def test_version_counts_events_and_replay_equals_live_state():
    s = in_actions()
    assert s.version == len(s.log)
    assert replay(s.log) == s


def test_replay_accepts_stored_event_objects():
    class Stored:
        def __init__(self, e):
            self.type, self.payload = e["type"], {k: v for k, v in e.items() if k != "type"}

    s = seeded()
    assert replay([Stored(e) for e in s.log]) == s


def test_events_are_json_safe():
    import json

    s = in_actions()
    assert json.loads(json.dumps(s.log)) == s.log
    json.dumps(s.to_dict())


def test_wrong_phase_is_refused_before_the_player_check():
    s = new_game()
    with pytest.raises(WrongPhaseError, match="Pass is not possible during the deployment to the start regions"):
        decide(s, {"type": "pass", "player": "blue", "compensation": "gold"})


def test_not_your_turn():
    s = new_game()
    with pytest.raises(NotYourTurnError, match="It is Dirk's turn, not Ani's"):
        decide(s, {"type": "deploy_start", "player": "blue", "armies": 5, "region": "mountainhome"})


def test_player_not_in_game_is_invalid():
    s = new_game()
    with pytest.raises(InvalidCommandError, match="Black is not playing"):
        decide(s, {"type": "deploy_start", "player": "black", "armies": 5})


def test_command_before_new_game_and_second_new_game():
    with pytest.raises(WrongPhaseError, match="new game first"):
        decide(None, {"type": "undo"})
    s = new_game()
    with pytest.raises(WrongPhaseError):
        decide(s, {"type": "new_game", "players": [], "first_player": "red"})


def test_decide_does_not_change_the_state():
    s = in_actions()
    before = s.to_dict()
    decide(s, {"type": "pass", "player": s.turn, "compensation": "gold"})
    assert s.to_dict() == before


def test_undo_goes_back_one_event_at_a_time():
    s0 = deployed()
    s1 = run(s0, type="starting_resources", player="red", gold=7, energy=9)
    s2 = run(s1, type="starting_resources", player="blue", gold=3, energy=4)
    u1 = run(s2, type="undo")
    assert u1.version == s2.version + 1
    assert u1.log[-1]["undoes"] == s2.version
    assert u1.player("blue").gold == 0 and u1.player("red").gold == 7
    u2 = run(u1, type="undo")
    assert u2.player("red").gold == 0 and u2.done == []
    assert replay(u2.log) == u2


def test_undo_of_a_throw_is_refused():
    s = seeded()
    with pytest.raises(UndoNotAllowedError, match="already been thrown"):
        decide(s, {"type": "undo"})


def test_nothing_to_undo_after_new_game():
    with pytest.raises(UndoNotAllowedError, match="nothing left"):
        decide(new_game(), {"type": "undo"})


def test_preview_needs_a_pending_battle():
    with pytest.raises(WrongPhaseError):
        preview_battle(in_actions(), {"red": 1})


def test_evolve_rejects_a_log_not_starting_with_new_game():
    with pytest.raises(InvalidEventError, match="must be new_game"):
        evolve(None, {"type": "pass", "effects": []})
    with pytest.raises(InvalidEventError):
        replay([])


def test_a_damaged_log_is_a_clear_error():
    s = in_actions()
    bad = s.log + [{"type": "pass", "effects": [{"op": "teleport"}]}]
    with pytest.raises(InvalidEventError, match=f"Event {len(bad)} \\(pass\\).*unknown effect 'teleport'"):
        replay(bad)
    negative = {"type": "pass", "effects": [{"op": "tray", "color": "red", "delta": -5}]}
    with pytest.raises(InvalidEventError, match="cannot be applied"):
        evolve(s, negative)


def test_game_over_refuses_everything_but_undo(monkeypatch):
    s = in_actions()
    s.phase = "over"
    with pytest.raises(GameOverError):
        decide(s, {"type": "pass", "player": s.turn or "red", "compensation": "gold"})


def test_allowed_commands_follow_the_phase():
    from companion.game.engine import allowed_commands

    assert allowed_commands(None) == ["new_game"]
    assert allowed_commands(new_game()) == ["deploy_start", "correct", "undo"]
    acts = allowed_commands(in_actions())
    assert {"attack", "move", "pass", "forfeit", "transition_5", "correct", "undo"} <= set(acts)
    assert "resolve_battle" not in acts
