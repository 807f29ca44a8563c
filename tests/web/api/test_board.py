"""The owner's board data: read, validate, save atomically, snapshot into new games only."""

from __future__ import annotations

import copy

import pytest

from ..conftest import error_of, new_game, ok, state_of


def test_get_board_gives_the_packaged_board_until_the_owner_saves_one(client, data_dir):
    board = ok(client.get("/api/board"))
    assert len(board["regions"]) == 25
    assert not (data_dir / "board.toml").exists()


def test_put_board_saves_it_and_new_games_use_it(client, data_dir):
    board = ok(client.get("/api/board"))
    changed = copy.deepcopy(board)
    changed["regions"][0]["name"] = "Mountain Home (renamed by the owner)"
    saved = ok(client.put("/api/board", json=changed))
    assert saved["regions"][0]["name"] == "Mountain Home (renamed by the owner)"
    assert ok(client.get("/api/board")) == saved
    assert (data_dir / "board.toml").is_file()
    assert not list(data_dir.glob(".board.toml.*"))  # no temporary file left behind
    game = new_game(client)
    assert state_of(client, game)["board"]["regions"][0]["name"].startswith("Mountain Home (renamed")


def test_a_running_game_keeps_its_board(client):
    board = ok(client.get("/api/board"))
    game = new_game(client)
    changed = copy.deepcopy(board)
    changed["regions"][0]["name"] = "Elsewhere"
    ok(client.put("/api/board", json=changed))
    assert state_of(client, game)["board"] == board


def _mangle_regions(board):
    board["regions"] = "all of them"


def _duplicate_region(board):
    board["regions"][1]["id"] = board["regions"][0]["id"]


def _drop_regions(board):
    del board["regions"]


@pytest.mark.parametrize("mangle", [_mangle_regions, _duplicate_region, _drop_regions])
def test_invalid_board_is_refused_and_nothing_is_saved(client, data_dir, mangle):
    board = ok(client.get("/api/board"))
    bad = copy.deepcopy(board)
    mangle(bad)
    error = error_of(client.put("/api/board", json=bad), 400)
    assert error["kind"] == "BoardDataError"
    assert not (data_dir / "board.toml").exists()
    assert ok(client.get("/api/board")) == board


def test_board_put_needs_a_json_object(client):
    assert error_of(client.put("/api/board", data="[", content_type="application/json"), 400)["kind"] == (
        "MalformedRequestError"
    )
