"""Set-up: new game validation, deployment, starting resources, seeding the tower."""

import pytest

from companion.game.engine import decide
from companion.game.errors import (IllegalActionError, ImpossibleReadingError, InvalidCommandError,
                                   NotEnoughArmiesError)

from .conftest import PLAYERS, deployed, new_game, run, seeded

FOUR = PLAYERS + [{"color": "yellow", "name": "Frank", "light_tribe": "light-tribe-4", "dark_tribe": "trolls"}]


@pytest.mark.parametrize("players, rounds", [(PLAYERS, 7), (FOUR, 5)])
def test_rounds_by_player_count(players, rounds):
    assert new_game(players).rounds == rounds


def test_agreed_extra_rounds_allowed_fewer_refused():
    assert new_game(rounds=8).rounds == 8
    with pytest.raises(InvalidCommandError, match="lasts 7 rounds"):
        new_game(rounds=5)


@pytest.mark.parametrize(
    "players, words",
    [
        (PLAYERS[:2], "3 to 5 players"),
        ([PLAYERS[0], PLAYERS[1], dict(PLAYERS[2], color="red")], "different colour"),
        ([PLAYERS[0], PLAYERS[1], dict(PLAYERS[2], dark_tribe="demons")], "different dark tribe"),
        ([PLAYERS[0], PLAYERS[1], dict(PLAYERS[2], light_tribe="trolls")], "not a light tribe"),
    ],
)
def test_bad_new_game(players, words):
    with pytest.raises(InvalidCommandError, match=words):
        new_game(players)


def test_deploy_start_uses_the_known_start_region_and_the_dark_twin():
    s = run(new_game(), type="deploy_start", player="red", armies=8)
    assert s.armies("treehome", "light", "red") == 8
    assert s.armies("treehome", "dark", "red") == 2
    assert s.cards["treehome"] == "red"
    assert s.player("red").supply == 43 - 10
    assert s.turn == "blue"


def test_deploy_start_needs_a_region_when_the_board_does_not_know_it():
    s = run(new_game(), type="deploy_start", player="red", armies=8)
    with pytest.raises(InvalidCommandError, match="start region of Dwarves"):
        decide(s, {"type": "deploy_start", "player": "blue", "armies": 8})


def test_deploy_start_elsewhere_than_the_printed_region_is_refused():
    with pytest.raises(IllegalActionError, match="Elves start in Treehome"):
        decide(new_game(), {"type": "deploy_start", "player": "red", "armies": 8, "region": "foothold"})


def test_a_player_keeps_cubes_for_limbos_and_tower():
    with pytest.raises(NotEnoughArmiesError, match="must keep 13"):
        decide(new_game(), {"type": "deploy_start", "player": "red", "armies": 29})


def _at_draft():
    s = new_game()
    s = run(s, type="deploy_start", player="red", armies=6)
    s = run(s, type="deploy_start", player="blue", armies=6, region="mountainhome")
    return run(s, type="deploy_start", player="purple", armies=6, region="white-falls")


def test_draft_deploy_takes_the_card_and_marker_passes_after_the_round():
    s = _at_draft()
    assert s.step == "draft" and s.turn == "red"
    s = run(s, type="deploy", player="red", region="foothold", realm="dark", armies=4)
    assert s.cards["foothold"] == "red" and s.armies("foothold", "dark", "red") == 4
    s = run(s, type="skip_deploy", player="blue")
    s = run(s, type="deploy", player="purple", region="heartwood", realm="light", armies=4)
    assert s.marker_holder == "blue" and s.first_player == "blue" and s.turn == "blue"
    assert s.draft_round == 2


def test_card_held_by_another_player_is_kept_with_a_warning():
    s = _at_draft()
    s = run(s, type="deploy", player="red", region="foothold", realm="dark", armies=4)
    s = run(s, type="deploy", player="blue", region="foothold", realm="light", armies=4)
    assert s.cards["foothold"] == "red"
    assert s.armies("foothold", "light", "blue") == 4
    assert "Dirk already holds the Foothold card" in s.warnings[0]["text"]  # players by name


def test_deploying_into_an_occupied_region_is_refused():
    s = _at_draft()
    with pytest.raises(IllegalActionError, match="Mountainhome \\(light\\) is already occupied by Ani"):
        decide(s, {"type": "deploy", "player": "red", "region": "mountainhome", "realm": "light", "armies": 4})


def test_finish_deployment_only_between_rounds():
    s = _at_draft()
    s = run(s, type="skip_deploy", player="red")
    with pytest.raises(IllegalActionError, match="Ani and Mike still deploy"):
        decide(s, {"type": "finish_deployment"})


def test_starting_resources_then_three_armies_on_each_limbo():
    s = deployed()
    assert s.phase == "resources" and s.first_player == "blue"
    for color in s.colors:
        s = run(s, type="starting_resources", player=color, gold=7, energy=9)
    assert s.phase == "seeding"
    for p in s.players:
        assert p.limbo == {"light": 3, "dark": 3} and (p.gold, p.energy) == (7, 9)


def test_starting_resources_twice_is_refused():
    s = run(deployed(), type="starting_resources", player="red", gold=7, energy=9)
    with pytest.raises(IllegalActionError, match="already taken"):
        decide(s, {"type": "starting_resources", "player": "red", "gold": 1, "energy": 1})


def test_seeding_fills_limbos_keeps_two_green_and_boxes_the_rest():
    s = seeded(tray={"red": 2, "blue": 3, "purple": 0, "green": 5})
    assert s.phase == "reinforcements" and s.round == 1 and s.turn == "blue"
    assert s.tray == {"green": 2}
    assert s.interior == {"red": 5, "blue": 4, "purple": 7, "green": 5}
    assert s.green_supply == 20 - 10 + 3
    red = s.player("red")
    assert red.limbo == {"light": 5, "dark": 3} and red.supply == 0
    assert red.out_of_game == 43 - (6 + 2) - 5 - 6 - 7  # start, draft, limbos, tower
    assert all(sum(v.values()) - v["unaccounted"] == 43 for c, v in s.cube_totals().items() if c != "green")


def test_seeding_split_must_match_the_tray():
    s = deployed()
    for color in s.colors:
        s = run(s, type="starting_resources", player=color, gold=7, energy=9)
    with pytest.raises(InvalidCommandError, match="Dirk has 2 cubes in the tray"):
        decide(s, {"type": "seed_tower", "tray": {"red": 2}, "limbo_split": {"red": {"light": 1}}})


def test_seeding_reading_more_than_thrown_is_impossible_unless_accepted():
    s = deployed()
    for color in s.colors:
        s = run(s, type="starting_resources", player=color, gold=7, energy=9)
    cmd = {"type": "seed_tower", "tray": {"red": 8}, "limbo_split": {"red": {"light": 8}}}
    with pytest.raises(ImpossibleReadingError, match="8 red cubes, but only 7 were thrown"):
        decide(s, cmd)
    s = run(s, **cmd, accept_impossible=True)
    assert s.log[-1]["clamped"] == {"red": 1} and s.unaccounted == {"red": 1}
    assert s.interior.get("red", 0) == 0


def test_the_deployment_summary_says_what_ending_the_draft_would_skip():
    from .conftest import START, new_game, run

    s = new_game()
    for color in s.colors:
        cmd = {"type": "deploy_start", "player": color, "armies": 6}
        if START.get(color):
            cmd["region"] = START[color]
        s = run(s, **cmd)
    s = run(s, type="deploy", player=s.turn, region="borderland", realm="light", armies=5)
    s = run(s, type="skip_deploy", player=s.turn)
    deployer = s.log[-2]["command"]["player"]
    summary = s.to_dict()["deployment"]
    assert summary["placed"] == {c: int(c == deployer) for c in s.colors}
    # 43 armies, 8 at the start, 13 kept for the limbos and the seeding: 22 (17 after a group of 5).
    assert summary["deployable"] == {c: 17 if c == deployer else 22 for c in s.colors}
    s = run(s, type="undo")
    s = run(s, type="undo")
    assert s.to_dict()["deployment"]["placed"] == {c: 0 for c in s.colors}
