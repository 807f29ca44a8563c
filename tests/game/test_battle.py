"""The battle contract of DESIGN.md: every case of RULES.md and the rulebook's examples."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.game.battle import BattleResult, Stance, prepare_tray, resolve_battle
from companion.game.colors import ALL_COLORS, PLAYER_COLORS
from companion.game.errors import GameError, InvalidBattleError

FOR, NEUTRAL, AGAINST = Stance.FOR_ATTACKER, Stance.NEUTRAL, Stance.AGAINST_ATTACKER


def test_prepare_tray_adds_a_green_when_none():
    assert prepare_tray({"green": 0, "red": 2}) == ({"green": 1, "red": 2}, -1)


def test_prepare_tray_returns_one_green_when_more_than_three():
    assert prepare_tray({"green": 4, "blue": 1}) == ({"green": 3, "blue": 1}, +1)


@pytest.mark.parametrize("green", [1, 2, 3])
def test_prepare_tray_keeps_one_to_three_greens(green):
    assert prepare_tray({"green": green}) == ({"green": green}, 0)


def test_prepare_tray_with_empty_supply_cannot_add_green():
    assert prepare_tray({"red": 1}, green_supply=0) == ({"red": 1}, 0)


def test_prepare_tray_rejects_negative_counts():
    with pytest.raises(ValueError, match="counts start at 0"):
        prepare_tray({"red": -1})


def test_rulebook_example_purple_beats_yellow_with_inhabitants():
    r = resolve_battle("purple", "yellow", FOR, {"purple": 4, "yellow": 3, "green": 1, "blue": 1})
    assert r.winner == "attacker"
    assert r.strength == {"attacker": 5, "defender": 3}
    assert r.placed == {"purple": 2}
    assert r.to_limbo == {"purple": 2, "yellow": 3}
    assert r.to_supply == 1
    assert r.left_in_tray == {"blue": 1}


def test_rulebook_example_frank_beats_two_inhabitants():
    r = resolve_battle("yellow", None, AGAINST, {"yellow": 3, "green": 2})
    assert (r.winner, r.placed, r.to_limbo, r.to_supply, r.left_in_tray) == (
        "attacker", {"yellow": 1}, {"yellow": 2}, 2, {})


@pytest.mark.parametrize("stance", [FOR, NEUTRAL])
def test_empty_region_friendly_or_neutral_one_cube_wins(stance):
    r = resolve_battle("red", None, stance, {"red": 1, "green": 3, "blue": 2})
    assert r.winner == "attacker"
    assert r.placed == {"red": 1}
    assert r.left_in_tray == {"green": 3, "blue": 2}
    assert r.to_limbo == {} and r.to_supply == 0


@pytest.mark.parametrize("stance", [FOR, NEUTRAL, AGAINST])
def test_empty_region_no_attacker_cube_means_inhabitants_keep_it(stance):
    r = resolve_battle("red", None, stance, {"green": 2, "blue": 1})
    assert r.winner == "inhabitants"
    assert r.placed == {}
    assert r.left_in_tray == {"green": 2, "blue": 1}


def test_empty_region_against_attacker_equal_numbers_attacker_loses():
    r = resolve_battle("red", None, AGAINST, {"red": 2, "green": 2})
    assert r.winner == "inhabitants"
    assert r.to_limbo == {"red": 2} and r.to_supply == 2 and r.placed == {}


def test_empty_region_against_attacker_fewer_attackers_green_rest_stays():
    r = resolve_battle("red", None, AGAINST, {"red": 1, "green": 3})
    assert r.winner == "inhabitants"
    assert r.to_limbo == {"red": 1} and r.to_supply == 1
    assert r.left_in_tray == {"green": 2}


def test_neutral_inhabitants_stay_in_tray_and_do_not_count():
    r = resolve_battle("red", "blue", NEUTRAL, {"red": 2, "blue": 1, "green": 3})
    assert r.winner == "attacker" and r.strength == {"attacker": 2, "defender": 1}
    assert r.placed == {"red": 1}
    assert r.to_limbo == {"red": 1, "blue": 1}
    assert r.left_in_tray == {"green": 3}


def test_inhabitants_for_defender_defender_wins_removing_green_first():
    r = resolve_battle("red", "blue", AGAINST, {"red": 2, "blue": 2, "green": 1})
    assert r.winner == "defender"
    assert r.to_limbo == {"red": 2, "blue": 1}
    assert r.to_supply == 1
    assert r.placed == {"blue": 1}


def test_inhabitants_for_attacker_lose_with_attacker():
    r = resolve_battle("red", "blue", FOR, {"red": 1, "blue": 4, "green": 1})
    assert r.winner == "defender"
    assert r.to_limbo == {"red": 1, "blue": 2}
    assert r.to_supply == 1
    assert r.placed == {"blue": 2}


def test_inhabitants_for_defender_lose_with_defender():
    r = resolve_battle("red", "blue", AGAINST, {"red": 5, "blue": 1, "green": 2})
    assert r.winner == "attacker"
    assert r.to_limbo == {"blue": 1, "red": 3}
    assert r.to_supply == 2
    assert r.placed == {"red": 2}


def test_winning_green_beyond_the_loss_stays_in_tray():
    r = resolve_battle("red", "blue", FOR, {"red": 1, "blue": 1, "green": 3})
    assert r.winner == "attacker"
    assert r.to_supply == 1 and r.to_limbo == {"blue": 1}
    assert r.placed == {"red": 1}
    assert r.left_in_tray == {"green": 2}


def test_tie_sends_both_sides_away_and_fighting_green_to_supply():
    r = resolve_battle("red", "blue", AGAINST, {"red": 3, "blue": 2, "green": 1, "black": 2})
    assert r.winner is None
    assert r.to_limbo == {"red": 3, "blue": 2}
    assert r.to_supply == 1 and r.placed == {}
    assert r.left_in_tray == {"black": 2}


def test_tie_with_neutral_inhabitants_leaves_them():
    r = resolve_battle("red", "blue", NEUTRAL, {"red": 2, "blue": 2, "green": 2})
    assert r.winner is None and r.to_supply == 0 and r.left_in_tray == {"green": 2}


def test_zero_counts_accepted_and_omitted_from_output():
    r = resolve_battle("red", "blue", NEUTRAL, {"red": 2, "blue": 0, "green": 0, "black": 0})
    assert r.placed == {"red": 2} and r.to_limbo == {} and r.left_in_tray == {}


def test_stance_given_as_string():
    assert resolve_battle("red", None, "neutral", {"red": 1}).winner == "attacker"


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(attacker="red", defender="red", stance=FOR, tray={}), "own armies"),
        (dict(attacker="red", defender="blue", stance="friendly", tray={}), "stance"),
        (dict(attacker="red", defender="blue", stance=FOR, tray={"red": -2}), "counts start at 0"),
        (dict(attacker="red", defender="blue", stance=FOR, tray={"pink": 1}), "colour"),
        (dict(attacker="green", defender="blue", stance=FOR, tray={}), "player colour"),
        (dict(attacker="red", defender="blue", stance=FOR, tray={"red": 1.5}), "whole number"),
    ],
)
def test_bad_input_is_a_value_error_with_player_words(kwargs, words):
    with pytest.raises(InvalidBattleError, match=words) as info:
        resolve_battle(**kwargs)
    assert isinstance(info.value, ValueError) and isinstance(info.value, GameError)


def test_result_round_trips_through_dict():
    r = resolve_battle("purple", "yellow", FOR, {"purple": 4, "yellow": 3, "green": 1})
    assert BattleResult.from_dict(r.to_dict()) == r


trays = st.dictionaries(st.sampled_from(ALL_COLORS), st.integers(0, 12), max_size=6)
sides = st.sampled_from(PLAYER_COLORS).flatmap(
    lambda a: st.tuples(st.just(a), st.one_of(st.none(), st.sampled_from([c for c in PLAYER_COLORS if c != a])))
)


@settings(max_examples=200, deadline=None)
@given(sides=sides, stance=st.sampled_from(list(Stance)), tray=trays)
def test_cubes_are_conserved(sides, stance, tray):
    attacker, defender = sides
    r = resolve_battle(attacker, defender, stance, tray)
    total: dict[str, int] = {}
    for part in (r.placed, r.to_limbo, r.left_in_tray):
        assert all(n > 0 for n in part.values())
        for c, n in part.items():
            total[c] = total.get(c, 0) + n
    if r.to_supply:
        total["green"] = total.get("green", 0) + r.to_supply
    assert total == {c: n for c, n in tray.items() if n}
    assert "green" not in r.placed and "green" not in r.to_limbo
    assert set(r.placed) <= {attacker, defender}
    for other in set(PLAYER_COLORS) - {attacker, defender}:
        assert r.left_in_tray.get(other, 0) == tray.get(other, 0)
    if r.winner == "attacker":
        assert defender not in r.placed
    elif r.winner is not None:
        assert attacker not in r.placed
    else:
        assert r.placed == {}
