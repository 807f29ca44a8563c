"""The battle inside a game: attack → instructions → confirmed counts → result applied."""

import pytest

from companion.game.engine import decide, preview_battle, replay
from companion.game.errors import (IllegalActionError, ImpossibleReadingError,
                                   NotEnoughArmiesError, UndoNotAllowedError, WrongPhaseError)

from .conftest import conserved, fix, in_actions, new_game, run, to_turn


@pytest.fixture
def white_falls():
    """Rulebook example position: purple (The Murk, dark) against blue in White Falls (dark)."""
    s = in_actions()
    s = fix(s, armies=[{"region": "white-falls", "realm": "dark", "color": "purple", "count": 0},
                       {"region": "white-falls", "realm": "dark", "color": "blue", "count": 3}],
            cards=[{"region": "white-falls", "holder": "blue"}])
    return to_turn(s, "purple")


def attack(s, **kw):
    cmd = dict(type="attack", player="purple", source="the-murk", target="white-falls", realm="dark",
               armies=4, card="target")
    cmd.update(kw)
    return run(s, **cmd)


def test_attack_records_instructions_and_moves_nothing_yet(white_falls):
    s = attack(white_falls)
    b = s.battle
    assert s.phase == "battle"
    assert (b["attacker"], b["defender"], b["stance"]) == ("purple", "blue", "for_attacker")
    assert b["take_out"] == {"green": 2} and b["green_delta"] == 0
    assert b["throw"] == {"green": 2, "purple": 4, "blue": 3}
    assert "Take every cube out of the tray (2 green)." in b["instructions"]
    assert s.armies("the-murk", "dark", "purple") == 5
    assert s.warnings == []  # The Murk borders White Falls: checked


def test_rulebook_example_applied_to_the_game(white_falls):
    s = attack(white_falls)
    p = preview_battle(s, {"purple": 4, "blue": 3, "green": 1})
    assert p["impossible"] == [] and p["result"]["winner"] == "attacker"
    assert "Purple 5 : 3 Blue." in p["explanation"]
    limbo_before = {c: s.player(c).limbo["light"] for c in ("purple", "blue")}
    s = run(s, type="resolve_battle", counts={"purple": 4, "blue": 3, "green": 1})
    assert s.phase == "actions" and s.battle is None
    assert s.region("white-falls", "dark").armies == {"purple": 2}
    assert s.armies("the-murk", "dark", "purple") == 1
    assert s.player("purple").limbo["light"] == limbo_before["purple"] + 2
    assert s.player("blue").limbo["light"] == limbo_before["blue"] + 3
    assert s.cards["white-falls"] == "purple"
    assert s.tray == {}
    assert conserved(s) and replay(s.log) == s


def test_green_added_from_supply_when_the_tray_has_none(white_falls):
    s = fix(white_falls, tray={"red": 1})
    s = attack(s)
    assert s.battle["green_delta"] == -1 and s.battle["throw"]["green"] == 1
    assert any("add 1 green cube" in line for line in s.battle["instructions"])
    supply = s.green_supply
    s = run(s, type="resolve_battle", counts={"purple": 1})
    assert s.green_supply == supply - 1 and conserved(s)


def test_frank_attacks_an_empty_region_against_the_inhabitants():
    t = fix(in_actions(), armies=[{"region": "white-falls", "realm": "dark", "color": "purple", "count": 0}])
    t = to_turn(t, "purple")
    t = attack(t, armies=3, card="other")
    assert t.battle["defender"] is None and t.battle["stance"] == "against_attacker"
    t = run(t, type="resolve_battle", counts={"purple": 3, "green": 2})
    assert t.region("white-falls", "dark").armies == {"purple": 1}
    assert t.player("purple").limbo["light"] == 4 + 2
    assert t.cards["white-falls"] == "purple" and conserved(t)


def test_tie_returns_the_card_to_the_stack(white_falls):
    s = attack(white_falls, card="source")
    s = run(s, type="resolve_battle", counts={"purple": 2, "blue": 2, "green": 1})
    assert s.cards["white-falls"] is None
    assert s.region("white-falls", "dark").armies == {}
    assert s.tray == {"green": 1}


def test_defender_wins_and_keeps_the_card(white_falls):
    s = attack(white_falls, card="other")
    s = run(s, type="resolve_battle", counts={"purple": 1, "blue": 3})
    assert s.cards["white-falls"] == "blue" and s.region("white-falls", "dark").armies == {"blue": 2}


def test_one_army_must_stay_behind(white_falls):
    with pytest.raises(NotEnoughArmiesError,
                       match=r"Mike has only 5 armies in The Murk \(dark\) and must leave one behind, so at most 4 can attack"):
        decide(white_falls, {"type": "attack", "player": "purple", "source": "the-murk", "target": "white-falls",
                             "realm": "dark", "armies": 5, "card": "target"})


def test_unknown_adjacency_is_a_warning_known_non_adjacency_a_refusal(white_falls):
    s = attack(white_falls, source="the-murk", target="heartwood", armies=1)
    assert "adjacency of The Murk and Heartwood is not entered yet" in s.warnings[0]["text"]
    d = white_falls.board.to_dict()
    for r in d["regions"]:
        if r["id"] == "the-murk":
            r["neighbours_complete"] = True
            r["neighbours"] = ["white-falls"]
    from .conftest import PLAYERS
    g = in_actions(new_game(PLAYERS, board=d))
    g = fix(g, armies=[{"region": "the-murk", "realm": "dark", "color": "purple", "count": 3}])
    g = to_turn(g, "purple")
    with pytest.raises(IllegalActionError, match="The Murk \\(dark\\) does not border Heartwood"):
        decide(g, {"type": "attack", "player": "purple", "source": "the-murk", "target": "heartwood",
                   "realm": "dark", "armies": 1, "card": "target"})


def test_attacking_own_region_is_refused(white_falls):
    s = fix(white_falls, armies=[{"region": "white-falls", "realm": "dark", "color": "blue", "count": 0},
                                 {"region": "white-falls", "realm": "dark", "color": "purple", "count": 1}])
    with pytest.raises(IllegalActionError, match="already has armies in White Falls.*use a move"):
        decide(s, {"type": "attack", "player": "purple", "source": "the-murk", "target": "white-falls",
                   "realm": "dark", "armies": 1, "card": "target"})


def test_impossible_reading_refused_then_accepted_and_clamped(white_falls):
    s = attack(white_falls)
    too_many = {"purple": 4, "blue": 3, "green": 9}  # 2 thrown + 6 in the tower
    with pytest.raises(ImpossibleReadingError, match="9 green cubes, but only 2 were thrown and the tower "
                                                     "should hold 6 more, so at most 8"):
        decide(s, {"type": "resolve_battle", "counts": too_many})
    assert preview_battle(s, too_many)["impossible"]
    before = dict(s.unaccounted)
    s = run(s, type="resolve_battle", counts=too_many, accept_impossible=True)
    assert s.log[-1]["clamped"] == {"green": 1} and s.log[-1]["accepted_impossible"]
    assert s.interior.get("green", 0) == 0 and s.unaccounted == {**before, "green": 1}
    assert conserved(s)
    assert "clamped" in s.warnings[0]["text"]


def test_camera_corrections_are_logged(white_falls):
    s = attack(white_falls)
    s = run(s, type="resolve_battle", counts={"purple": 4, "blue": 3}, camera_counts={"purple": 3, "blue": 3})
    assert s.log[-1]["corrections"] == {"purple": 1}


def test_attack_can_be_undone_the_throw_cannot(white_falls):
    s = attack(white_falls)
    u = run(s, type="undo")
    assert u.phase == "actions" and u.battle is None and u.turn == "purple"
    r = run(s, type="resolve_battle", counts={"purple": 1})
    with pytest.raises(UndoNotAllowedError, match="correct the count instead"):
        decide(r, {"type": "undo"})


def test_during_a_battle_only_the_count_undo(white_falls):
    s = attack(white_falls)
    with pytest.raises(WrongPhaseError, match="waiting for the tray count"):
        decide(s, {"type": "pass", "player": "purple", "compensation": "gold"})
    with pytest.raises(WrongPhaseError):
        decide(s, {"type": "correct", "reason": "x", "tray": {}})


def test_night_elves_special_attack_costs_2_energy_1_gold(white_falls):
    s = attack(white_falls, special="night_elves", armies=1)
    p = s.player("purple")
    assert (p.energy, p.gold) == (white_falls.player("purple").energy - 2, white_falls.player("purple").gold - 1)
    assert "special" in s.used["purple"]


def test_trolls_special_needs_the_trolls(white_falls):
    with pytest.raises(IllegalActionError, match="Night Elves, who do not have this special action"):
        decide(white_falls, {"type": "attack", "player": "purple", "source": "the-murk", "target": "white-falls",
                             "realm": "dark", "armies": 1, "card": "target", "special": "trolls"})


def test_two_basic_attacks_per_round_then_the_spaces_are_used(white_falls):
    s = white_falls
    for _ in range(2):
        s = attack(s, armies=1, card="other")
        s = run(s, type="resolve_battle", counts={"blue": 3})
        s = to_turn(s, "purple")
    with pytest.raises(IllegalActionError, match="already used the attack or move space"):
        attack(s, armies=1)


def test_attack_through_a_portal_reaches_only_the_twin(white_falls):
    s = fix(white_falls, buildings=[{"region": "the-murk", "realm": "dark", "portal": True}])
    s = attack(s, target="the-murk", via_portal=True, armies=2)
    assert (s.battle["target"], s.battle["realm"], s.battle["defender"]) == ("the-murk", "light", None)
    with pytest.raises(IllegalActionError, match="no portal"):
        attack(white_falls, target="the-murk", via_portal=True, armies=2)


def test_cubes_of_a_colour_nobody_plays_cannot_be_accepted(white_falls):
    s = attack(white_falls)
    with pytest.raises(ImpossibleReadingError, match="black cubes, but black is not playing"):
        decide(s, {"type": "resolve_battle", "counts": {"black": 1}, "accept_impossible": True})


def test_attack_from_a_region_without_own_armies(white_falls):
    with pytest.raises(NotEnoughArmiesError, match=r"Mike has no army in Foothold \(dark\) and so cannot attack from there"):
        decide(white_falls, {"type": "attack", "player": "purple", "source": "foothold", "target": "white-falls",
                             "realm": "dark", "armies": 1, "card": "target"})


def test_preview_explains_an_attack_on_the_inhabitants():
    t = fix(in_actions(), armies=[{"region": "white-falls", "realm": "dark", "color": "purple", "count": 0}])
    t = attack(to_turn(t, "purple"), armies=3, card="other")
    lines = preview_battle(t, {"purple": 3, "green": 2})["explanation"]
    assert lines[:2] == ["Purple 3 : 2 inhabitants.", "Purple wins White Falls (dark)."]
    assert "Purple: 2 to the light limbo." in lines and "Purple: place 1 on White Falls (dark)." in lines
