"""Exports: the JSON document rebuilds the game; the CSV parses back to the battle records."""

from __future__ import annotations

import csv
import io
import json

import pytest

from companion.store import BattleRecord, GameLog, GameMeta, GameNotFoundError
from companion.store.export import EXPORT_FORMAT, battles_csv, export_game


@pytest.fixture
def game(log: GameLog) -> int:
    game = log.create_game("Export night", first_event={"type": "new_game", "players": ["red"]},
                           meta=GameMeta(round=1, players=[{"color": "red", "vp": 2}]))
    log.append(game, {"type": "attack", "player": "red"}, 1)
    log.append(game, {"type": "resolve_battle", "counts": {"red": 2}}, 2, battle=BattleRecord(
        "red", "blue", "for_attacker", {"red": 2, "green": 1}, "attacker",
        camera_counts={"red": 1, "green": 1}, round=1, realm="light", region="treehome"))
    log.append(game, {"type": "resolve_battle", "counts": {"blue": 1}}, 3, battle=BattleRecord(
        "blue", None, "neutral", {"blue": 1}, "attacker"))
    return game


def test_export_document_holds_the_whole_game(log: GameLog, game: int) -> None:
    doc = export_game(log, game)
    doc = json.loads(json.dumps(doc))  # JSON-safe, and compared after a round trip
    assert doc["format"] == EXPORT_FORMAT and doc["format_version"] == 1
    assert doc["game"]["id"] == game and doc["game"]["title"] == "Export night"
    assert doc["game"]["version"] == len(doc["events"]) == 4
    assert [e["payload"] for e in doc["events"]] == [e.payload for e in log.events(game)]
    assert [e["seq"] for e in doc["events"]] == [1, 2, 3, 4]
    assert [b["seq"] for b in doc["battles"]] == [3, 4]
    assert [(r["seq"], r["kind"], r["corrected"]) for r in doc["readings"]] == [(3, "battle", True), (4, "battle", None)]


def test_export_of_an_unknown_game_is_not_found(log: GameLog) -> None:
    with pytest.raises(GameNotFoundError):
        export_game(log, 42)
    with pytest.raises(GameNotFoundError):
        battles_csv(log, 42)


def test_battles_csv_parses_back_to_the_records(log: GameLog, game: int) -> None:
    other = log.create_game("other")
    log.append(other, {"type": "resolve_battle"}, 0, battle=BattleRecord(
        "yellow", "red", "against_attacker", {"yellow": 1, "red": 1}, "tie"))
    rows = list(csv.DictReader(io.StringIO(battles_csv(log, game))))
    assert [r["seq"] for r in rows] == ["3", "4"]
    first, second = rows
    assert (first["attacker"], first["defender"], first["region"]) == ("red", "blue", "treehome")
    assert (first["tray_red"], first["camera_red"], first["tray_green"]) == ("2", "1", "1")
    assert (first["corrected"], second["corrected"]) == ("yes", "")
    assert second["defender"] == "" and second["camera_blue"] == "" and second["tray_blue"] == "1"
    assert first["tray_size"] == "3"
    everything = list(csv.DictReader(io.StringIO(battles_csv(log))))
    assert [(r["game_id"], r["seq"]) for r in everything] == [(str(game), "3"), (str(game), "4"), (str(other), "1")]
