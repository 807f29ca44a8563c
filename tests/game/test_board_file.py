"""Board names, the checks a shared file must pass, the undo history and the completeness report."""

from __future__ import annotations

import copy

import pytest

from companion.game.board import Board, board_to_toml, load_board, parse_board
from companion.game.board_file import (BoardFileError, BoardHistory, NothingToUndoError,
                                       check_symmetric, export_board, import_board)
from companion.game.board_status import board_gaps, game_gaps, progress, region_missing
from companion.game.errors import BoardDataError


@pytest.fixture
def board() -> Board:
    return load_board()


def _region(d: dict, rid: str) -> dict:
    return next(r for r in d["regions"] if r["id"] == rid)


def complete_region(d: dict, rid: str, area: str = "area-1") -> dict:
    r = _region(d, rid)
    r.update(name=r.get("name", f"Vale {rid}"), area=area, neighbours_complete=True,
             light={"gold": 2}, dark={"energy": 3})
    return d


def test_an_old_placeholder_name_is_read_as_not_entered(board):
    text = board_to_toml(board).replace('id = "region-12"\n', 'id = "region-12"\nname = "Region 12 (name not entered)"\n')
    old = parse_board(text)
    assert not old.regions["region-12"].named
    assert old == board


def test_german_names_are_optional_and_round_trip(board):
    d = board.to_dict()
    _region(d, "treehome")["name_de"] = "Baumheim"
    d["areas"][0].update(name="North", name_de="Norden")
    b = Board.from_dict(d)
    assert b.regions["treehome"].name_de == "Baumheim" and b.regions["treehome"].name == "Treehome"
    assert b.areas["area-1"].named and b.areas["area-1"].name_de == "Norden"
    assert parse_board(export_board(b)) == b


@pytest.mark.parametrize("name, words", [("", "non-empty"), ("x" * 61, "longer than 60"), (7, "non-empty")])
def test_a_bad_name_is_refused_naming_the_field(board, name, words):
    d = board.to_dict()
    d["regions"][11]["name"] = name
    with pytest.raises(BoardDataError, match=words) as info:
        Board.from_dict(d)
    assert "Region number 12, name" in str(info.value)


def test_region_names_are_unique_whatever_the_case(board):
    d = board.to_dict()
    d["regions"][11]["name"] = "treehome"
    with pytest.raises(BoardDataError, match="used twice"):
        Board.from_dict(d)


def test_a_one_sided_neighbour_is_refused_naming_both_regions(board):
    d = board.to_dict()
    _region(d, "foothold")["neighbours"] = ["heartwood"]
    one_sided = Board.from_dict(d)  # a game snapshot may hold this; saving it may not
    with pytest.raises(BoardFileError, match="Foothold lists Heartwood.*Heartwood does not list Foothold"):
        check_symmetric(one_sided)
    check_symmetric(board)  # the packaged data lists every known link on both sides


def test_import_refuses_a_region_this_board_does_not_have(board):
    d = board.to_dict()
    d["regions"][11]["id"] = "atlantis"
    with pytest.raises(BoardFileError, match="region this board does not know.*atlantis"):
        import_board(board_to_toml(Board.from_dict(d)), board)


def test_import_of_an_export_is_the_same_board(board):
    d = complete_region(board.to_dict(), "region-12")
    b = Board.from_dict(d)
    assert import_board(export_board(b), board) == b


def test_history_keeps_the_replaced_board_and_undoes_in_order(tmp_path, board):
    history = BoardHistory(tmp_path / "board.toml")
    with pytest.raises(NothingToUndoError):
        history.undo()
    first = Board.from_dict(complete_region(board.to_dict(), "region-12"))
    second = Board.from_dict(complete_region(first.to_dict(), "region-13", "area-2"))
    history.save(first, board)
    history.save(second, first)
    assert history.depth() == 2 and load_board(history.path) == second
    assert history.undo() == first and load_board(history.path) == first
    assert history.undo() == board and history.depth() == 0


def test_a_failed_save_leaves_file_and_history_as_they_were(tmp_path, board, monkeypatch):
    import companion.game.board_file as bf

    history = BoardHistory(tmp_path / "board.toml")
    history.save(board, board)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*.toml")}
    real = bf._write

    def failing(path, text):
        if path == history.path:
            raise OSError("disk full")
        real(path, text)

    monkeypatch.setattr(bf, "_write", failing)
    with pytest.raises(OSError):
        history.save(Board.from_dict(complete_region(board.to_dict(), "region-12")), board)
    assert {p: p.read_bytes() for p in tmp_path.rglob("*.toml")} == before


def test_progress_counts_complete_regions(board):
    assert progress(board)["regions"]["complete"] == 0
    d = complete_region(board.to_dict(), "region-12")
    d = complete_region(d, "treehome")
    p = progress(Board.from_dict(d))
    assert p["regions"]["complete"] == 2 and p["regions"]["total"] == 25
    assert "region-12" not in p["regions"]["missing"]
    assert region_missing(board.regions["shore-lake"]) == ["area", "dark", "neighbours"]
    assert p["tribes"]["missing"]["elves"] == ["start_gold", "start_energy", "army_groups"]


def test_gaps_name_the_rules_and_vanish_when_the_data_is_entered(board):
    assert [g.rule for g in board_gaps(board)] == ["area_bonus", "adjacency", "resources"]
    d = copy.deepcopy(board.to_dict())
    for i, r in enumerate(d["regions"]):
        r.update(area=f"area-{i // 5 + 1}", neighbours_complete=True, light={"gold": 1}, dark={"energy": 1})
        r["neighbours"] = []
    assert board_gaps(Board.from_dict(d)) == []


def test_game_gaps_judge_costs_per_player_pair(board):
    d = board.to_dict()
    for t in d["tribes"]:
        if t["id"] == "demons":
            t["costs"] = {"shrine": {"gold": 1, "energy": 1}, "capital": {"gold": 2, "energy": 2}}
    b = Board.from_dict(d)
    rules = {g.rule: g for g in game_gaps(b, [("elves", "demons"), ("dwarves", "orcs")])}
    assert rules["costs"].names == ("Dwarves with Orcs",)  # elves' portal + demons' others = all
    assert rules["start_region"].ids == ("dwarves",)
    assert "Start region not entered for Dwarves" in rules["start_region"].message
