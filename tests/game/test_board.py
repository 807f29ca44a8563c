"""Board data: the packaged facts, placeholders, validation with file and line, round trips."""

import pytest

from companion.game.board import Board, board_to_toml, default_board_path, load_board, parse_board
from companion.game.errors import BoardDataError


@pytest.fixture(scope="module")
def board():
    return load_board()


def test_default_board_has_25_regions_in_5_areas(board):
    assert len(board.regions) == 25 and len(board.areas) == 5
    assert default_board_path().name == "board.toml"


def test_known_facts_from_the_rulebook(board):
    assert board.regions["shore-lake"].light.gold == 5
    assert board.regions["tribute-pass"].dark.energy == 6
    assert board.tribes["elves"].start_region == "treehome"
    assert board.tribes["elves"].costs["portal"].energy == 4
    assert board.tribes["demons"].special.action == "demons_shrine"
    assert board.tribes["night_elves"].special.cost.energy == 2
    assert board.tribes["trolls"].special.cost.gold == 2
    assert {t.id for t in board.tribes_of("dark")} == {"demons", "orcs", "necromancers", "night_elves", "trolls"}


def test_unknown_values_are_placeholders_not_inventions(board):
    assert board.regions["shore-lake"].light.energy is None
    assert board.regions["shore-lake"].dark.gold is None
    assert board.regions["region-12"].name == "Region 12 (name not entered)"
    assert not board.regions["region-12"].named and "name" not in board.to_dict()["regions"][11]
    assert board.tribes["light-tribe-3"].name == "Light tribe 3 (name not entered)"
    assert board.areas["area-1"].name == "Area 1 (name not entered)" and not board.areas["area-1"].named
    assert all(r.area is None for r in board.regions.values())
    assert board.tribes["dwarves"].start_region is None and not board.tribes["dwarves"].costs


def test_adjacency_known_true_and_unknown_none(board):
    assert board.adjacent("white-falls", "borderland") is True
    assert board.adjacent("treehome", "borderland") is True
    assert board.adjacent("forge-fire", "heartwood") is True
    assert board.adjacent("the-murk", "white-falls") is True
    assert board.adjacent("treehome", "white-falls") is None


def test_complete_neighbour_list_makes_others_not_adjacent(board):
    d = board.to_dict()
    for r in d["regions"]:
        if r["id"] == "borderland":
            r["neighbours_complete"] = True
    b = Board.from_dict(d)
    assert b.adjacent("borderland", "heartwood") is False
    assert b.adjacent("borderland", "treehome") is True


def test_dict_and_toml_round_trip(board):
    assert Board.from_dict(board.to_dict()) == board
    assert parse_board(board_to_toml(board)) == board


def test_writer_escapes_quotes(board):
    d = board.to_dict()
    d["regions"][0]["name"] = 'The "Old" Home\\'
    b = Board.from_dict(d)
    assert parse_board(board_to_toml(b)).regions["mountainhome"].name == 'The "Old" Home\\'


def test_syntax_error_names_file_and_line(tmp_path):
    p = tmp_path / "board.toml"
    p.write_text('format = 1\n[[areas]]\nid = "a\n')
    with pytest.raises(BoardDataError) as info:
        load_board(p)
    assert info.value.file == str(p) and info.value.line == 3
    assert "line 3" in str(info.value)


def _edit(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    "old, new, words, key",
    [
        ("gold = 5", "gold = -5", "whole number", "gold ="),
        ('"treehome",\n]', '"nowhere",\n]', "not a region id", "neighbours ="),
        ('start_region = "treehome"', 'start_region = "atlantis"', "not a region id", "start_region ="),
        ('name = "Shore Lake"', 'name = "Treehome"', "used twice", 'name = "Treehome"'),
        ('realm = "light"', 'realm = "grey"', "realm", "realm ="),
        ("gold = 5", "silver = 5", "unknown setting", "silver ="),
        ('id = "area-2"', 'id = "area-1"', "used twice", "areas = ["),
    ],
)
def test_semantic_error_names_the_line_of_the_key(old, new, words, key):
    text = _edit(default_board_path().read_text(), old, new)
    with pytest.raises(BoardDataError, match=words) as info:
        parse_board(text, "board.toml")
    line = text.splitlines()[info.value.line - 1]
    assert key in line


def test_wrong_region_count_is_rejected(board):
    d = board.to_dict()
    d["regions"].pop()
    with pytest.raises(BoardDataError, match="25 regions"):
        Board.from_dict(d)


def test_area_with_six_regions_is_rejected(board):
    d = board.to_dict()
    for r in d["regions"][:6]:
        r["area"] = "area-1"
    with pytest.raises(BoardDataError, match="more than 5"):
        Board.from_dict(d)


def test_area_complete_when_five_regions_entered(board):
    d = board.to_dict()
    for r in d["regions"][:5]:
        r["area"] = "area-2"
    b = Board.from_dict(d)
    assert b.area_complete("area-2") and not b.area_complete("area-1")
    assert len(b.area_regions("area-2")) == 5


def test_the_eighth_army_space_is_a_stand_in_until_the_owner_names_it() -> None:
    from companion.game.board_status import progress

    board = load_board()
    assert not board.spaces["army_8"].named and board.to_dict()["spaces"] == [{"id": "army_8"}]
    assert progress(board)["spaces"] == {"complete": 0, "total": 1, "missing": {"army_8": ["name"]}}
    data = board.to_dict()
    data["spaces"] = [{"id": "army_8", "name": "Recruit", "name_de": "Rekrutieren"}]
    named = Board.from_dict(data)
    assert named.spaces["army_8"].name == "Recruit" and named.spaces["army_8"].named
    assert parse_board(board_to_toml(named)) == named  # written and read back the same
    assert progress(named)["spaces"]["complete"] == 1
    del data["spaces"]  # a file from before spaces existed: the stand-in
    assert not Board.from_dict(data).spaces["army_8"].named


@pytest.mark.parametrize("spaces, reason", [
    ([{"id": "army_9"}], "only the eighth army space"),
    ([{"id": "army_8"}, {"id": "army_8"}], "used twice"),
    ([{"id": "army_8", "colour": "red"}], "colour"),
])
def test_a_space_the_board_data_does_not_name_is_refused(spaces: list, reason: str) -> None:
    data = load_board().to_dict()
    data["spaces"] = spaces
    with pytest.raises(BoardDataError, match=reason):
        Board.from_dict(data)
