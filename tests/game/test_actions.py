"""Actions: extract, transition, construct, specials, move, magic cards."""

import pytest

from companion.game.engine import decide, replay
from companion.game.errors import (IllegalActionError, InvalidCommandError, NotEnoughArmiesError,
                                   NotEnoughResourcesError)

from .conftest import conserved, fix, in_actions, run, to_turn


@pytest.fixture
def s():
    return in_actions()  # blue to act: Mountainhome L6 D2, Shore Lake L5; 7 gold 9 energy


def test_extract_gold_uses_the_printed_value(s):
    t = run(s, type="extract_gold", player="blue", region="shore-lake", realm="light")
    assert t.player("blue").gold == 12 and t.turn == "purple"


def test_extract_needs_the_amount_while_the_board_lacks_it(s):
    with pytest.raises(InvalidCommandError, match="does not know the energy of Shore Lake \\(light\\)"):
        decide(s, {"type": "extract_energy", "player": "blue", "region": "shore-lake", "realm": "light"})
    t = run(s, type="extract_energy", player="blue", region="shore-lake", realm="light", amount=3)
    assert t.player("blue").energy == 12


def test_extract_amount_contradicting_the_board_is_refused(s):
    with pytest.raises(IllegalActionError, match="yields 5 gold, not 4"):
        decide(s, {"type": "extract_gold", "player": "blue", "region": "shore-lake", "realm": "light", "amount": 4})


def test_extract_without_an_army_there(s):
    with pytest.raises(NotEnoughArmiesError, match="Ani has no army in Shore Lake \\(dark\\)"):
        decide(s, {"type": "extract_gold", "player": "blue", "region": "shore-lake", "realm": "dark", "amount": 1})


def test_each_space_once_per_round_but_orcs_extract_gold_again(s):
    t = run(s, type="extract_gold", player="blue", region="shore-lake", realm="light")
    t = to_turn(t, "blue")
    with pytest.raises(IllegalActionError, match="already used the extract gold space"):
        decide(t, {"type": "extract_gold", "player": "blue", "region": "shore-lake", "realm": "light"})
    t = run(t, type="extract_gold", player="blue", region="shore-lake", realm="light", special=True)
    assert t.player("blue").gold == 17


def test_only_orcs_have_the_extra_extract(s):
    t = to_turn(s, "red")
    with pytest.raises(IllegalActionError, match="Demons, who do not have this special action"):
        decide(t, {"type": "extract_gold", "player": "red", "region": "treehome", "realm": "light",
                   "amount": 2, "special": True})


def test_transition_of_3_costs_2_energy_1_gold(s):
    t = run(s, type="transition_3", player="blue", region="shore-lake", realm="light")
    b = t.player("blue")
    assert t.armies("shore-lake", "light", "blue") == 8 and b.limbo["light"] == 3
    assert (b.energy, b.gold) == (7, 6)


def test_transition_with_fewer_in_limbo_brings_what_is_there(s):
    t = fix(s, limbo=[{"player": "blue", "realm": "dark", "count": 2}])
    t = run(t, type="transition_3", player="blue", region="mountainhome", realm="dark")
    assert t.armies("mountainhome", "dark", "blue") == 4 and t.player("blue").limbo["dark"] == 0


def test_not_enough_resources_message(s):
    t = fix(s, resources=[{"player": "blue", "gold": 0, "energy": 1}])
    with pytest.raises(NotEnoughResourcesError, match="Ani needs 2 energy and 1 gold for a transition of 3 "
                                                      "but has only 1 energy and 0 gold"):
        decide(t, {"type": "transition_3", "player": "blue", "region": "shore-lake", "realm": "light"})


def test_elves_portal_costs_4_energy_and_scores_1(s):
    t = to_turn(s, "red")
    e = t.player("red").energy
    t = run(t, type="construct", player="red", region="treehome", realm="light", building="portal")
    assert t.region("treehome", "light").portal and t.player("red").vp == 1
    assert t.player("red").energy == e - 4


def test_unknown_cost_must_come_with_the_command(s):
    with pytest.raises(InvalidCommandError, match="does not know what a shrine costs Blue"):
        decide(s, {"type": "construct", "player": "blue", "region": "shore-lake", "realm": "light",
                   "building": "shrine"})
    t = run(s, type="construct", player="blue", region="shore-lake", realm="light", building="capital",
            cost={"gold": 3, "energy": 2})
    assert t.region("shore-lake", "light").building == "capital" and t.player("blue").vp == 2
    assert "one-capital-per-area rule was checked only" in t.warnings[0]["text"]  # a stored message


def test_shrine_xor_capital(s):
    t = fix(s, buildings=[{"region": "shore-lake", "realm": "light", "building": "shrine"}])
    with pytest.raises(IllegalActionError, match="already has a shrine; a region holds a shrine or a capital"):
        decide(t, {"type": "construct", "player": "blue", "region": "shore-lake", "realm": "light",
                   "building": "capital", "cost": {"gold": 1, "energy": 1}})


def test_one_capital_per_area_per_realm():
    from companion.game.board import load_board

    from .conftest import PLAYERS, new_game
    d = load_board().to_dict()
    for r in d["regions"]:
        if r["id"] in ("shore-lake", "mountainhome", "treehome", "borderland", "foothold"):
            r["area"] = "area-1"
    t = in_actions(new_game(PLAYERS, board=d))
    t = fix(t, buildings=[{"region": "mountainhome", "realm": "light", "building": "capital"}])
    with pytest.raises(IllegalActionError, match="Area 1 \\(no name yet\\) \\(light\\) already has a capital in Mountainhome"):
        decide(t, {"type": "construct", "player": "blue", "region": "shore-lake", "realm": "light",
                   "building": "capital", "cost": {"gold": 1, "energy": 1}})
    ok = run(t, type="construct", player="blue", region="mountainhome", realm="dark", building="capital",
             cost={"gold": 1, "energy": 1})
    assert ok.region("mountainhome", "dark").building == "capital" and ok.warnings == []


def test_demons_shrine(s):
    t = to_turn(s, "red")
    t = run(t, type="demons_shrine", player="red", region="borderland", realm="light")
    assert t.region("borderland", "light").building == "shrine"
    assert t.player("red").energy == 9 - 2 and t.player("red").vp == 1


def test_move_along_own_regions_costs_1_gold(s):
    t = to_turn(s, "red")
    t = run(t, type="move", player="red", source="borderland", target="treehome", realm="light", armies=4)
    assert t.armies("borderland", "light", "red") == 1 and t.armies("treehome", "light", "red") == 10
    assert t.player("red").gold == 6 and t.warnings == []  # Borderland–Treehome is known


def test_move_with_path_and_leaving_one_behind(s):
    t = to_turn(s, "red")
    t = fix(t, armies=[{"region": "white-falls", "realm": "light", "color": "red", "count": 6},
                       {"region": "white-falls", "realm": "light", "color": "purple", "count": 0}])
    with pytest.raises(NotEnoughArmiesError, match="at most 5 can move"):
        decide(t, {"type": "move", "player": "red", "source": "white-falls", "target": "treehome",
                   "realm": "light", "armies": 6})
    t = run(t, type="move", player="red", source="white-falls", target="treehome", realm="light", armies=4,
            path=["borderland"])
    assert t.armies("white-falls", "light", "red") == 2 and t.warnings == []


def test_move_only_to_own_regions(s):
    with pytest.raises(NotEnoughArmiesError, match="armies move only to own regions"):
        decide(s, {"type": "move", "player": "blue", "source": "shore-lake", "target": "foothold",
                   "realm": "light", "armies": 1})


def test_move_through_a_portal_one_way(s):
    t = to_turn(s, "red")
    t = fix(t, buildings=[{"region": "treehome", "realm": "light", "portal": True}])
    t2 = run(t, type="move", player="red", source="treehome", target="treehome", realm="light",
             target_realm="dark", armies=3, path=[])
    assert t2.armies("treehome", "dark", "red") == 5
    with pytest.raises(IllegalActionError, match="portal leads only from the region where it was built"):
        decide(t, {"type": "move", "player": "red", "source": "treehome", "target": "treehome", "realm": "dark",
                   "target_realm": "light", "armies": 1, "path": []})


def test_transition_of_5_to_several_regions(s):
    t = run(s, type="transition_5", player="blue", realm="light",
            placements=[{"region": "shore-lake", "armies": 2}, {"region": "mountainhome", "armies": 3}])
    b = t.player("blue")
    assert b.limbo["light"] == 1 and (b.energy, b.gold) == (5, 6)
    assert t.armies("mountainhome", "light", "blue") == 9 and conserved(t)


def test_transition_of_2_at_most_two(s):
    with pytest.raises(IllegalActionError, match="exactly 2 armies .*so 2, not 3"):
        decide(s, {"type": "transition_2", "player": "blue", "realm": "light",
                   "placements": [{"region": "shore-lake", "armies": 3}]})


def test_first_player_marker_takes_effect_next_round(s):
    t = to_turn(s, "purple")
    t = run(t, type="take_first_player", player="purple")
    assert t.marker_holder == "purple" and t.first_player == "blue" and t.player("purple").gold == 6


def test_each_magic_card_once_and_two_magic_cards_per_round(s):
    t = run(s, type="draw_conflict_card", player="blue")
    t = to_turn(t, "blue")
    with pytest.raises(IllegalActionError, match="already used the magic card conflict card or first player marker space"):
        decide(t, {"type": "take_first_player", "player": "blue"})
    t = run(t, type="draw_two_cards", player="blue")
    t = to_turn(t, "blue")
    with pytest.raises(IllegalActionError, match="already used both magic spaces"):
        decide(t, {"type": "magic_shrine", "player": "blue", "region": "shore-lake", "realm": "light"})


def test_take_over_needs_strictly_more_armies_than_the_holder_in_the_twin(s):
    t = fix(s, armies=[{"region": "white-falls", "realm": "dark", "color": "blue", "count": 6},
                       {"region": "white-falls", "realm": "dark", "color": "purple", "count": 0}])
    same = run(t, type="take_over_card", player="blue", region="white-falls", realm="dark")
    assert same.cards["white-falls"] == "purple"
    assert same.log[-1]["take_over"] == {"from": "purple", "mine": 6, "theirs": 6, "success": False}
    assert (same.player("blue").energy, same.player("blue").gold) == (7, 5)  # paid anyway
    t = fix(t, armies=[{"region": "white-falls", "realm": "dark", "color": "blue", "count": 7}])
    won = run(t, type="take_over_card", player="blue", region="white-falls", realm="dark")
    assert won.cards["white-falls"] == "blue" and replay(won.log) == won


def test_take_over_needs_a_holder(s):
    t = fix(s, armies=[{"region": "foothold", "realm": "light", "color": "blue", "count": 1}])
    with pytest.raises(IllegalActionError, match="Nobody holds the Foothold card"):
        decide(t, {"type": "take_over_card", "player": "blue", "region": "foothold", "realm": "light"})
