"""The state snapshot for the web UI and the cube accounting helper."""

import json

from .conftest import conserved, in_actions, new_game


def test_to_dict_is_json_and_has_the_documented_fields():
    d = in_actions().to_dict()
    json.dumps(d)
    for key in ("version", "round", "phase", "turn", "players", "regions", "cards", "tray", "interior",
                "green_supply", "battle", "scores", "result", "warnings", "board", "cube_totals",
                "first_player", "marker_holder", "passed", "used"):
        assert key in d
    assert set(d["regions"]) == {"light", "dark"} and len(d["regions"]["light"]) == 25
    assert "board" not in in_actions().to_dict(include_board=False)


def test_cube_totals_account_for_every_cube_from_the_start():
    s = new_game()
    assert s.cube_totals()["red"]["supply"] == 43 and s.cube_totals()["green"]["supply"] == 20
    assert conserved(s) and conserved(in_actions())


def test_label_uses_display_names():
    s = new_game()
    assert s.label("white-falls", "dark") == "White Falls (dark)"
