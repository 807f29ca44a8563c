"""Board file import/export, undo, the status and the gaps a game is told about.

Every bad file is refused with 400 and a message naming the item, and nothing saved changes
(the owner's file, its history and what GET /api/board answers are all as before)."""

from __future__ import annotations

import copy
import tomllib

import pytest

from ..conftest import PLAYERS, error_of, new_game, ok

TOML = "application/toml"


def _export(client) -> str:
    response = client.get("/api/board/export")
    assert response.status_code == 200
    assert response.mimetype == TOML
    assert "attachment" in response.headers["Content-Disposition"]
    return response.get_data(as_text=True)


def _import(client, text: str):
    return client.post("/api/board/import", json={"text": text, "filename": "shared.toml"})


def _with_name(board: dict, region_id: str, name: str) -> dict:
    changed = copy.deepcopy(board)
    for r in changed["regions"]:
        if r["id"] == region_id:
            r["name"] = name
    return changed


def test_export_then_import_gives_the_same_board(client):
    board = ok(client.get("/api/board"))
    named = ok(client.put("/api/board", json=_with_name(board, "region-12", "Ember Vale")))
    text = _export(client)
    assert 'name = "Ember Vale"' in text
    assert tomllib.loads(text)["format"] == 1
    ok(client.put("/api/board", json=board))  # someone changes it again …
    assert ok(_import(client, text)) == named  # … and the shared file brings it back
    assert ok(client.get("/api/board")) == named


def test_undo_restores_the_board_before_the_last_save(client, data_dir):
    board = ok(client.get("/api/board"))
    assert ok(client.get("/api/board/status"))["undo"] == 0
    ok(client.put("/api/board", json=_with_name(board, "region-12", "Ember Vale")))
    second = ok(client.put("/api/board", json=_with_name(board, "region-13", "Ash Hill")))
    assert ok(client.get("/api/board/status"))["undo"] == 2
    first = ok(client.post("/api/board/undo"))
    assert first == _with_name(board, "region-12", "Ember Vale")
    assert first != second
    assert ok(client.post("/api/board/undo")) == board
    error = error_of(client.post("/api/board/undo"), 400)
    assert "nothing to undo" in error["message"].lower()
    assert ok(client.get("/api/board")) == board


def _saved_files(data_dir):
    files = sorted(data_dir.rglob("board*.toml"))
    return {p: p.read_bytes() for p in files}


def _set_neighbours(board, region_id, neighbours):
    for r in board["regions"]:
        if r["id"] == region_id:
            r["neighbours"] = neighbours
    return board


def _bad_unknown_region(board):
    board["regions"][11]["id"] = "atlantis"
    return board, ["atlantis"]


def _bad_duplicate_id(board):
    board["regions"][12]["id"] = board["regions"][11]["id"]
    return board, ["region-12", "used twice"]


def _bad_area_of_six(board):
    for r in board["regions"][:6]:
        r["area"] = "area-2"
    return board, ["Area 2", "more than 5"]


def _bad_missing_neighbour(board):
    return _set_neighbours(board, "foothold", ["nowhere-land"]), ["Foothold", "nowhere-land"]


def _bad_one_sided_link(board):
    return _set_neighbours(board, "foothold", ["mountainhome"]), ["Foothold", "Mountainhome", "both ways"]


def _bad_unknown_tribe(board):
    board["tribes"][2]["id"] = "goblins"
    return board, ["goblins"]


BAD = [_bad_unknown_region, _bad_duplicate_id, _bad_area_of_six, _bad_missing_neighbour,
       _bad_one_sided_link, _bad_unknown_tribe]


@pytest.mark.parametrize("spoil", BAD, ids=lambda f: f.__name__[5:])
def test_a_bad_board_file_is_refused_naming_the_item_and_nothing_changes(client, data_dir, spoil):
    from companion.game.board import Board, board_to_toml

    ok(client.put("/api/board", json=_with_name(ok(client.get("/api/board")), "region-12", "Ember Vale")))
    before, files = ok(client.get("/api/board")), _saved_files(data_dir)
    bad, words = spoil(copy.deepcopy(before))
    try:
        text = board_to_toml(Board.from_dict(bad))
    except ValueError:  # invalid on its own: write the file by hand
        import tomli_w
        text = tomli_w.dumps(bad)
    error = error_of(_import(client, text), 400)
    for word in words:
        assert word in error["message"], (word, error["message"])
    assert _saved_files(data_dir) == files
    assert ok(client.get("/api/board")) == before


@pytest.mark.parametrize("spoil", [_bad_duplicate_id, _bad_area_of_six, _bad_missing_neighbour,
                                   _bad_one_sided_link], ids=lambda f: f.__name__[5:])
def test_the_same_bad_data_from_the_set_up_page_is_refused_too(client, data_dir, spoil):
    before = ok(client.get("/api/board"))
    bad, words = spoil(copy.deepcopy(before))
    error = error_of(client.put("/api/board", json=bad), 400)
    assert all(word in error["message"] for word in words), error["message"]
    assert not (data_dir / "board.toml").exists()
    assert ok(client.get("/api/board/status"))["undo"] == 0


@pytest.mark.parametrize("body, words", [
    ({"text": " "}, "empty"),
    ({"text": 'format = 1\nareas = [\n  { id = "a" \n'}, "shared.toml, line 3: The file is not valid TOML"),
    ({"text": "x" * (300 * 1024)}, "at most 256 kB"),
    ({"toml": "format = 1"}, "toml"),
])
def test_an_unreadable_file_is_refused(client, data_dir, body, words):
    error = error_of(client.post("/api/board/import", json={"filename": "shared.toml", **body}), 400)
    assert words in error["message"]
    assert not (data_dir / "board.toml").exists()


def test_status_counts_complete_regions_and_names_what_is_missing(client):
    status = ok(client.get("/api/board/status"))
    regions = status["progress"]["regions"]
    assert regions == {"complete": 0, "total": 25, "missing": regions["missing"]}
    assert regions["missing"]["region-12"] == ["name", "area", "light", "dark", "neighbours"]
    assert regions["missing"]["shore-lake"] == ["area", "dark", "neighbours"]
    assert {g["rule"] for g in status["gaps"]} == {"area_bonus", "adjacency", "resources"}
    area = next(g for g in status["gaps"] if g["rule"] == "area_bonus")
    assert area["message"].startswith("Areas not entered") and "area bonus is not scored" in area["message"]


def test_needs_name_start_regions_costs_and_starting_resources_of_the_chosen_tribes(client):
    gaps = ok(client.get("/api/board/needs?light=elves,dwarves&dark=demons,orcs"))["gaps"]
    by_rule = {g["rule"]: g for g in gaps}
    assert by_rule["start_region"]["ids"] == ["dwarves"]  # the elves' start region is known
    assert set(by_rule["start_resources"]["ids"]) == {"elves", "dwarves", "demons", "orcs"}
    assert by_rule["costs"]["names"] == ["Elves with Demons", "Dwarves with Orcs"]
    assert "area_bonus" in by_rule
    # only light tribes chosen so far: what they need is still said
    gaps = ok(client.get("/api/board/needs?light=dwarves"))["gaps"]
    assert [g["ids"] for g in gaps if g["rule"] == "start_region"] == [["dwarves"]]


def test_needs_refuses_a_malformed_query(client):
    error = error_of(client.get("/api/board/needs?light=Elves!"), 400)
    assert '"light"' in error["message"]


def test_a_game_says_which_rules_its_board_gaps_switch_off(client):
    game = new_game(client)
    gaps = ok(client.get(f"/api/games/{game}/board-gaps"))["gaps"]
    rules = {g["rule"] for g in gaps}
    assert {"area_bonus", "adjacency", "resources", "start_region", "costs"} <= rules
    start = next(g for g in gaps if g["rule"] == "start_region")
    light = {p["light_tribe"] for p in PLAYERS}
    assert set(start["ids"]) == light - {"elves"}
    assert error_of(client.get("/api/games/999/board-gaps"), 404)


def test_the_import_refusal_speaks_the_page_language(client):
    from companion.game.board import Board, board_to_toml

    bad = ok(client.get("/api/board"))
    bad["regions"][0]["id"] = "atlantis"
    answer = client.post("/api/board/import", json={"text": board_to_toml(Board.from_dict(bad))},
                         headers={"Accept-Language": "de"})
    error = error_of(answer, 400)
    assert error["message"].startswith("Die Spielplan-Datei enthält ein Land, das dieser Spielplan nicht kennt: „Mountainhome“")
    assert error["kind"] == "BoardFileError"
