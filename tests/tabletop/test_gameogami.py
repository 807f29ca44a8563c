"""Immortal (Game-O-Gami): end and tie rules against the sentences of its rulebook
(../shared/seeds/immortal-gameogami.txt)."""

from __future__ import annotations

import pytest

from companion.tabletop import parse_event, replay, rules_for, step
from companion.tabletop.errors import (
    GameOverError,
    ImpossibleLevelsError,
    InvalidEventError,
    NegativeScoreError,
    PlayersError,
    TieNeedsLevelsError,
    UnknownPlayerError,
)

RULES = rules_for("immortal_gameogami")
P3 = ["p1", "p2", "p3"]


def play(players, *acts, options=None):
    options = RULES.parse_options(options, players)
    state = RULES.new_state(players, options)
    for act in acts:
        state = RULES.apply(state, parse_event(RULES, {"type": "act", **act}))
    return state


def test_the_most_control_tokens_at_the_end_of_act_two_wins():
    """"The player with the most control tokens on the battlefield wins the game." — the act
    one winner does not matter for the match ("The goal of the game is to control the most cards
    on the battlefield at the end of Act Two.")."""
    state = play(P3, {"act": 1, "tokens": {"p1": 6, "p2": 3, "p3": 2}},
                 {"act": 2, "tokens": {"p1": 7, "p2": 9, "p3": 4}})
    assert state["act_winners"]["1"] == ["p1"]
    assert RULES.is_over(state) and RULES.winners(state) == ["p2"]
    assert state["scores"] == {"p1": 7, "p2": 9, "p3": 4}


def test_a_tie_is_broken_by_the_total_card_levels():
    """"each player in the tie adds up the total levels (I, II, and III) of the cards he controls
    on the battlefield. The tied player with the highest level count wins that battle." — and a
    player not in the tie does not take part, whatever levels they hold."""
    state = play(P3, {"act": 1, "tokens": {"p1": 5, "p2": 4, "p3": 1}},
                 {"act": 2, "tokens": {"p1": 9, "p2": 9, "p3": 2},
                  "levels": {"p1": 15, "p2": 13, "p3": 6}})
    assert RULES.winners(state) == ["p1"] and state["decided_by"] == "levels"


def test_a_token_tie_at_the_end_of_act_one_is_a_complete_tie():
    """Act One is played with the "9 level I cards" only: the level count of the tied players is
    their token count, so a token tie is "a complete tie" ("All players in the complete tie are
    considered to have won the battle") — no levels are asked, and any sent are not used."""
    state = play(P3, {"act": 1, "tokens": {"p1": 5, "p2": 5, "p3": 1}})
    assert state["act_winners"]["1"] == ["p1", "p2"] and state["acts"][0]["decided_by"] == "complete_tie"
    sent = play(P3, {"act": 1, "tokens": {"p1": 5, "p2": 5, "p3": 1}, "levels": {"p1": 6, "p2": 7}})
    assert sent["act_winners"]["1"] == ["p1", "p2"]


@pytest.mark.parametrize("levels", [{"p1": 28, "p2": 13}, {"p1": 15, "p2": 8}])
def test_levels_no_cards_could_make_are_refused_and_change_nothing(levels):
    """One control token on each card controlled, each card of level I–III: 9 tokens hold 9 to
    27 levels (the walk-through's "9 tokens with levels 5" decided a match)."""
    before = play(P3, {"act": 1, "tokens": {"p1": 4, "p2": 3, "p3": 3}})
    with pytest.raises(ImpossibleLevelsError, match="between 9 and 27"):
        RULES.apply(before, parse_event(RULES, {"type": "act", "act": 2, "tokens": {"p1": 9, "p2": 9, "p3": 1},
                                                "levels": levels}))
    assert len(before["acts"]) == 1 and not before["over"]


def test_a_complete_tie_at_the_end_of_the_match_is_won_by_all_tied_players():
    """"If a complete tie occurs at the end of a match, then all players tied for the level count
    win the match." """
    state = play(P3, {"act": 1, "tokens": {"p1": 4, "p2": 3, "p3": 3}},
                 {"act": 2, "tokens": {"p1": 8, "p2": 8, "p3": 8},
                  "levels": {"p1": 12, "p2": 12, "p3": 11}})
    assert RULES.winners(state) == ["p1", "p2"] and state["decided_by"] == "complete_tie"


def test_a_tie_without_the_card_levels_is_refused_and_changes_nothing():
    before = play(P3, {"act": 1, "tokens": {"p1": 4, "p2": 3, "p3": 3}})
    with pytest.raises(TieNeedsLevelsError, match="card levels"):
        RULES.apply(before, parse_event(RULES, {"type": "act", "act": 2, "tokens": {"p1": 8, "p2": 8, "p3": 1}}))
    assert len(before["acts"]) == 1 and not before["over"]


def test_team_battle_sums_teammates_and_a_complete_tie_is_a_draw():
    """"Teammates ally their cards and combine control tokens." — "In the case of a complete tie,
    the match is a draw." (Team Battle, unlike the standard game: nobody wins.)"""
    teams = {"teams": [["p1", "p3"], ["p2", "p4"]]}
    players = ["p1", "p2", "p3", "p4"]
    state = play(players, {"act": 1, "tokens": {"p1": 3, "p2": 5, "p3": 4, "p4": 1}},
                 {"act": 2, "tokens": {"p1": 6, "p2": 6, "p3": 5, "p4": 5},
                  "levels": {"p1": 9, "p2": 8, "p3": 7, "p4": 8}}, options=teams)
    assert state["act_winners"]["1"] == ["p1", "p3"]  # 7 against 6
    assert state["team_scores"] == {"team1": 11, "team2": 11}
    assert RULES.winners(state) == [] and state["decided_by"] == "complete_tie"
    won = play(players, {"act": 1, "tokens": {"p1": 3, "p2": 5, "p3": 4, "p4": 1}},
               {"act": 2, "tokens": {"p1": 2, "p2": 6, "p3": 5, "p4": 5}}, options=teams)
    assert RULES.winners(won) == ["p2", "p4"]


def test_the_players_and_teams_must_fit_the_rulebook():
    """"2 to 4 players" — Team Battle is "for 4 players competing in teams of 2"."""
    with pytest.raises(PlayersError):
        RULES.new_state(["p1"], {})
    with pytest.raises(PlayersError):
        RULES.new_state(["p1", "p2", "p3", "p4", "p5"], {})
    with pytest.raises(PlayersError):
        RULES.parse_options({"teams": [["p1", "p2"], ["p3", "p3"]]}, ["p1", "p2", "p3", "p4"])


def test_bad_sheets_are_refused_with_a_sentence():
    with pytest.raises(NegativeScoreError, match="below zero"):
        parse_event(RULES, {"type": "act", "act": 1, "tokens": {"p1": -1, "p2": 3}})
    one = play(["p1", "p2"], {"act": 1, "tokens": {"p1": 1, "p2": 3}})
    with pytest.raises(UnknownPlayerError, match="p7"):
        RULES.apply(one, parse_event(RULES, {"type": "act", "act": 2, "tokens": {"p1": 1, "p7": 3}}))
    with pytest.raises(InvalidEventError, match="already on the sheet"):
        RULES.apply(one, parse_event(RULES, {"type": "act", "act": 1, "tokens": {"p1": 1, "p2": 3}}))
    with pytest.raises(InvalidEventError, match="act 1 first"):
        RULES.apply(RULES.new_state(["p1", "p2"], {}),
                    parse_event(RULES, {"type": "act", "act": 2, "tokens": {"p1": 1, "p2": 3}}))
    done = play(["p1", "p2"], {"act": 1, "tokens": {"p1": 1, "p2": 3}}, {"act": 2, "tokens": {"p1": 4, "p2": 3}})
    with pytest.raises(GameOverError):  # "a game ended twice"
        RULES.apply(done, parse_event(RULES, {"type": "act", "act": 2, "tokens": {"p1": 1, "p2": 3}}))


def test_undo_takes_act_two_back_and_reopens_the_game():
    events = [{"type": "act", "act": 1, "tokens": {"p1": 1, "p2": 3}},
              {"type": "act", "act": 2, "tokens": {"p1": 4, "p2": 3}}]
    state = step(RULES, ["p1", "p2"], {}, events, parse_event(RULES, {"type": "undo"}))
    assert not state["over"] and len(state["acts"]) == 1
    assert replay(RULES, ["p1", "p2"], {}, [*events, {"type": "undo"}]) == state
