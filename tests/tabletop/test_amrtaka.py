"""Amrtaka: end and tie rules against the sentences of its rulebook (../shared/seeds/amrtaka.txt)."""

from __future__ import annotations

import pytest

from companion.tabletop import parse_event, rules_for, step
from companion.tabletop.errors import (
    GameOverError,
    InvalidEventError,
    NegativeScoreError,
    NothingToUndoError,
    PlayersError,
    TurnLimitError,
    UnknownPlayerError,
)

RULES = rules_for("amrtaka")


def run(players, *events):
    state = RULES.new_state(players, {})
    for e in events:
        state = RULES.apply(state, parse_event(RULES, e))
    return state


def gain(player, points):
    return {"type": "gain", "player": player, "points": points}


END = {"type": "end_turn"}


def test_reaching_60_ends_the_game_at_once_and_that_player_wins():
    """"The game immediately ends when a player reaches or exceeds a total of 60 Victory
    Points. That player is the undisputed immortal ruler." — 45 + 15 = 60 reaches it, and no
    further entry is taken."""
    state = run(["p1", "p2"], gain("p1", 15), gain("p1", 15), gain("p1", 15), END, gain("p2", 5), gain("p1", 15))
    assert state["over"] and state["end"] == "target" and RULES.winners(state) == ["p1"]
    with pytest.raises(GameOverError):
        RULES.apply(state, parse_event(RULES, gain("p2", 5)))


def test_exceeding_60_also_ends_it():
    state = run(["p1", "p2"], gain("p2", 35), gain("p2", 20), gain("p2", 15))
    assert state["scores"]["p2"] == 70 and RULES.winners(state) == ["p2"]


def test_after_30_total_player_turns_the_most_points_win():
    """"If no one reaches 60 points, the game wraps up after 30 total player turns. The player
    with the most points at that moment is declared the winner." — 30 turns in all, not per
    player: with three players that is ten each."""
    events = [gain("p2", 5)] + [END] * 29
    state = run(["p1", "p2", "p3"], *events)
    assert not state["over"] and state["turns"] == 29 and state["current"] == "p3"
    state = RULES.apply(state, parse_event(RULES, END))
    assert state["over"] and state["end"] == "turn_limit" and RULES.winners(state) == ["p2"]


def test_a_tie_at_the_turn_limit_is_a_shared_win_because_the_rulebook_is_silent():
    """The rulebook names only "The player with the most points"; for equal points it says
    nothing, so the app counts a shared win (docs/game-night.md)."""
    state = run(["p1", "p2", "p3"], gain("p1", 15), gain("p3", 15), gain("p2", 5), *[END] * 30)
    assert RULES.winners(state) == ["p1", "p3"]


def test_a_turn_past_the_limit_is_refused():
    state = run(["p1", "p2"], *[END] * 30)
    with pytest.raises(TurnLimitError, match="30 player turns"):
        RULES.apply(state, parse_event(RULES, END))


def test_running_out_of_cards_ends_the_game_with_the_highest_score_winning():
    """"If a player cannot draw enough cards to fill their hand (...), the game ends instantly.
    The player with the highest score at that exact moment wins." """
    state = run(["p1", "p2"], gain("p1", 5), gain("p2", 15), {"type": "cards_out"})
    assert state["end"] == "cards_out" and RULES.winners(state) == ["p2"]


def test_quick_gains_are_the_rulebook_tokens():
    """"Point Tokens (10x5pt, 6x15pt)" — the tracker's quick buttons are +5 and +15."""
    assert RULES.new_state(["p1", "p2"], {})["quick_gains"] == [5, 15]


def test_bad_entries_are_refused_and_change_nothing():
    before = run(["p1", "p2"], gain("p1", 5))
    with pytest.raises(NegativeScoreError, match="below zero"):
        parse_event(RULES, gain("p1", -5))
    with pytest.raises(InvalidEventError, match="at least 1"):
        parse_event(RULES, gain("p1", 0))
    with pytest.raises(UnknownPlayerError):
        RULES.apply(before, parse_event(RULES, gain("Zed", 5)))
    with pytest.raises(InvalidEventError):
        parse_event(RULES, {"type": "gain", "player": "p1", "points": "5"})
    assert before["scores"] == {"p1": 5, "p2": 0}
    with pytest.raises(PlayersError):  # "for two to four players"
        RULES.new_state(["p1", "p2", "p3", "p4", "p5"], {})


def test_undo_takes_back_the_winning_gain():
    events = [gain("p1", 35), gain("p1", 35)]
    state = step(RULES, ["p1", "p2"], {}, events, parse_event(RULES, {"type": "undo"}))
    assert not state["over"] and state["scores"]["p1"] == 35
    with pytest.raises(NothingToUndoError):
        step(RULES, ["p1", "p2"], {}, [], parse_event(RULES, {"type": "undo"}))
