"""Parsing: shape only, with messages that name the wrong field."""

import pytest

from companion.game.commands import COMMANDS, Attack, Placement, parse_command
from companion.game.errors import InvalidCommandError


def test_every_catalog_command_is_known():
    expected = {"new_game", "deploy_start", "deploy", "skip_deploy", "finish_deployment",
                "starting_resources", "seed_tower", "reinforce", "start_actions", "extract_gold",
                "extract_energy", "transition_3", "construct", "demons_shrine", "attack",
                "resolve_battle", "move", "transition_5", "transition_2", "draw_conflict_card",
                "take_first_player", "draw_two_cards", "take_over_card", "magic_shrine", "forfeit",
                "pass", "score_round", "undo", "correct", "read_tray", "correct_tray"}
    assert set(COMMANDS) == expected


def test_parse_and_round_trip():
    d = {"type": "attack", "player": "purple", "source": "the-murk", "target": "white-falls",
         "realm": "dark", "armies": 2, "card": "target"}
    cmd = parse_command(d)
    assert isinstance(cmd, Attack) and cmd.via_portal is False
    assert cmd.to_dict() == d and parse_command(cmd.to_dict()) == cmd


def test_placements_and_path_strings():
    cmd = parse_command({"type": "move", "player": "red", "source": "a", "target": "b", "realm": "light",
                         "armies": 1, "path": ["borderland", {"region": "x", "realm": "dark"}]})
    assert cmd.path == (Placement("borderland", 0), Placement("x", 0, "dark"))


@pytest.mark.parametrize(
    "data, words",
    [
        ({"type": "fly"}, "There is no command 'fly'"),
        ([1, 2], "must be an object"),
        ({"type": "pass", "player": "red"}, "missing the field 'compensation'"),
        ({"type": "pass", "player": "red", "compensation": "silver"}, "one of gold, energy"),
        ({"type": "pass", "player": "red", "compensation": "gold", "mood": 1}, "unknown field 'mood'"),
        ({"type": "deploy", "player": "red", "region": "x", "realm": "grey", "armies": 1}, "'realm'"),
        ({"type": "deploy", "player": "red", "region": "x", "realm": "light", "armies": 0}, "at least 1"),
        ({"type": "deploy", "player": "red", "region": "x", "realm": "light", "armies": True}, "whole number"),
        ({"type": "resolve_battle", "counts": {"red": -1}}, "counts start at 0"),
        ({"type": "resolve_battle", "counts": {"pink": 1}}, "colour 'pink'"),
        ({"type": "attack", "player": "red", "source": "a", "target": "b", "realm": "light", "armies": 1,
          "card": "target", "special": "dragons"}, "night_elves, trolls"),
        ({"type": "reinforce", "player": "red", "placements": [{"armies": 1}]}, "name a region"),
        ({"type": "construct", "player": "red", "region": "a", "realm": "light", "building": "tower"}, "portal"),
        ({"type": "seed_tower", "tray": {}, "limbo_split": {"red": {"up": 1}}}, "light, dark"),
    ],
)
def test_malformed_commands_name_the_problem(data, words):
    with pytest.raises(InvalidCommandError, match=words) as info:
        parse_command(data)
    assert isinstance(info.value, ValueError)
