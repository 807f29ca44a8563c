"""Wrath of the Immortals: end rules and the foil helper against the sentences of its rulebook
(../shared/seeds/wrath-of-the-immortals.txt)."""

from __future__ import annotations

import random

import pytest

from companion.tabletop import parse_event, rules_for
from companion.tabletop.errors import GameOverError, InvalidEventError, NegativeScoreError, UnknownPlayerError
from companion.tabletop.wrath_of_the_immortals import WrathOfTheImmortals, foil_outcome, power_total

RULES = rules_for("wrath_of_the_immortals")


def run(players, *events, rules=RULES):
    state = rules.new_state(players, {})
    for e in events:
        state = rules.apply(state, parse_event(rules, e))
    return state


def power(player, **how):
    return {"type": "power", "player": player, **how}


def test_everyone_starts_with_a_hierarch_immortal_worth_16():
    """"Each player starts with one Hierarch Immortal in play" — "6 Hierarch 16"."""
    assert run(["p1", "p2", "p3"])["scores"] == {"p1": 16, "p2": 16, "p3": 16}


def test_controlling_100_power_points_wins():
    """"Be the first player to control 100 power points worth of Immortals & Resource cards" """
    state = run(["p1", "p2"], power("p1", delta=50), power("p1", set=99))
    assert not state["over"]
    state = RULES.apply(state, parse_event(RULES, power("p1", delta=1)))
    assert state["over"] and state["end"] == "target" and RULES.winners(state) == ["p1"]
    with pytest.raises(GameOverError):
        RULES.apply(state, parse_event(RULES, power("p2", delta=3)))


def test_reducing_all_opponents_to_zero_wins():
    """"or Reduce all of your opponents to zero power." — with three players, one at zero is
    not enough."""
    state = run(["p1", "p2", "p3"], power("p2", set=0))
    assert not state["over"]
    state = RULES.apply(state, parse_event(RULES, power("p3", delta=-16)))
    assert state["end"] == "others_at_zero" and RULES.winners(state) == ["p1"]


def test_power_never_goes_below_zero():
    state = run(["p1", "p2"])
    with pytest.raises(NegativeScoreError, match="below zero"):
        RULES.apply(state, parse_event(RULES, power("p1", delta=-17)))
    with pytest.raises(NegativeScoreError):
        parse_event(RULES, power("p1", set=-1))
    with pytest.raises(UnknownPlayerError):
        RULES.apply(state, parse_event(RULES, power("p9", delta=1)))
    with pytest.raises(InvalidEventError):
        parse_event(RULES, power("p1", delta=2, set=4))


def test_the_foil_power_total_and_who_wins():
    """"Power Total = 1D20 + the Power of the Immortal + the power of all Resources attached to
    that Immortal + The power of any Power cards played." — "The side with the highest power
    total wins. (Reroll ties) If the Foiler wins, the action is negated"."""
    actor = {"roll": 11, "immortal": 10, "resources": 3, "powers": 0}
    foiler = {"roll": 4, "immortal": 16, "resources": 2, "powers": 3}
    assert power_total(actor) == 24 and power_total(foiler) == 25
    assert foil_outcome(actor, foiler) == "foiled"
    assert foil_outcome(foiler, actor) == "succeeds"
    assert foil_outcome(actor, {**foiler, "roll": 3}) == "reroll"


def test_a_foil_entry_keeps_the_rolls_and_changes_no_power():
    rules = WrathOfTheImmortals(rng=random.Random(3))
    event = parse_event(rules, {"type": "foil", "actor": "p1", "foiler": "p2",
                                "actor_side": {"immortal": 16, "resources": 0, "powers": 0},
                                "foiler_side": {"immortal": 16, "resources": 0, "powers": 0, "roll": 20}})
    assert 1 <= event.fields["actor_side"]["roll"] <= 20  # the app rolled before storing
    assert event.fields["foiler_side"]["roll"] == 20  # the table's roll is kept
    state = rules.apply(rules.new_state(["p1", "p2"], {}), event)
    assert state["scores"] == {"p1": 16, "p2": 16} and len(state["foils"]) == 1
    with pytest.raises(InvalidEventError, match="d20"):
        parse_event(rules, {"type": "foil", "actor": "p1", "foiler": "p2",
                            "actor_side": {"immortal": 1, "resources": 0, "powers": 0, "roll": 21},
                            "foiler_side": {"immortal": 1, "resources": 0, "powers": 0}})
