"""The group statistics over real HTTP-less Flask calls: tower, odds (setting, kept, luck),
calibration, people, one game, interior ranges, exports and the BG Stats link."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from benchmarks.stats import generate_log

from ..conftest import attack_declared, command, error_of, make_app, new_game, ok


@pytest.fixture
def history_client(data_dir: Path):  # noqa: ANN201 — a client over a log with 34 throws
    generate_log(data_dir / "companion.sqlite3", 2, battles=16, people=False, odds=False)
    app = make_app(data_dir)
    yield app.test_client()
    app.extensions["companion"].close()


def test_a_fresh_companion_answers_not_enough_data(client) -> None:
    tower = ok(client.get("/api/stats/tower"))
    assert tower["enough_data"] is False and tower["model"]["pooled"] is None
    assert ok(client.get("/api/stats/odds"))["enough_data"] is False
    assert ok(client.get("/api/stats/people")) == {"people": [], "enough_data": False}
    game = new_game(client)  # a game with no battles
    report = ok(client.get(f"/api/stats/games/{game}"))
    assert report["enough_data"] is False and report["rounds"] == []
    interior = ok(client.get(f"/api/games/{game}/interior"))
    assert interior["enough_data"] is False and interior["colours"] == {}
    error_of(client.get("/api/stats/games/999"), 404)


def test_odds_are_off_by_default_then_kept_and_give_luck(history_client) -> None:
    client = history_client
    game = attack_declared(client)
    assert ok(client.get(f"/api/games/{game}/battle/odds")) == {"enabled": False, "odds": None}
    assert ok(client.put("/api/settings", json={"odds": True}))["odds"] is True
    first = ok(client.get(f"/api/games/{game}/battle/odds"))
    assert first["enabled"] and first["kept"] is False and first["battle"]["attacker"] == "red"
    odds = first["odds"]
    assert odds["draws"] >= 10_000 and 0 <= odds["win"] <= 1
    again = ok(client.get(f"/api/games/{game}/battle/odds"))  # another tablet: the same odds
    assert again["odds"] == odds and again["kept"] is True
    command(client, game, type="resolve_battle", counts={"red": 3, "purple": 1})  # red wins
    report = ok(client.get(f"/api/stats/games/{game}"))
    red = next(p for p in report["players"] if p["color"] == "red")
    assert red["luck"]["battles"] == 1 and red["luck"]["luck"] == pytest.approx(1 - odds["win"], abs=1e-3)
    calib = ok(client.get("/api/stats/odds"))
    assert calib["enabled"] is True and calib["battles"] == 1
    after = ok(client.get(f"/api/games/{game}/battle/odds"))
    assert after["odds"] is None and after["enabled"]  # no battle pending any more
    battles = list(csv.DictReader(io.StringIO(client.get("/api/export/battles.csv").get_data(as_text=True))))
    kept = [b for b in battles if b["odds_win"]]
    assert len(kept) == 1 and float(kept[0]["odds_win"]) == odds["win"]


def test_tower_report_and_interior_ranges(history_client) -> None:
    client = history_client
    tower = ok(client.get("/api/stats/tower"))
    assert tower["enough_data"] and tower["model"]["throws"] == 2 * 17
    for fit in tower["model"]["colours"].values():
        assert fit["land"]["low"] <= fit["land"]["estimate"] <= fit["land"]["high"]
    for verdict in tower["fairness"]["colours"].values():
        assert verdict["sentence"]
    game = attack_declared(client)
    interior = ok(client.get(f"/api/games/{game}/interior"))
    assert interior["enough_data"] and interior["colours"]
    for colour, entry in interior["colours"].items():
        nxt = entry["next_out"]
        assert 0 <= nxt["low"] <= nxt["expected"] <= nxt["high"] <= entry["inside"], colour


def test_settings_refuse_bad_values_and_change_nothing(client) -> None:
    before = ok(client.get("/api/settings"))
    assert before == {"odds": False, "bgg_id": None, "location": None}
    error_of(client.put("/api/settings", json={"odds": True, "bgg_id": "twelve"}), 400)
    error_of(client.put("/api/settings", json={"volume": 3}), 400)
    error_of(client.put("/api/settings", data="[]", content_type="application/json"), 400)
    assert ok(client.get("/api/settings")) == before


def test_exports_and_bgstats_link(client) -> None:
    game = new_game(client)
    for table, first_column in (("games", "id"), ("seats", "game_id"), ("rounds", "game_id"),
                                ("battles", "game_id")):
        response = client.get(f"/api/export/{table}.csv")
        assert response.status_code == 200 and response.mimetype == "text/csv"
        header = next(csv.reader(io.StringIO(response.get_data(as_text=True))))
        assert header[0] == first_column
    seats = list(csv.DictReader(io.StringIO(client.get("/api/export/seats.csv").get_data(as_text=True))))
    assert [s["color"] for s in seats] == ["red", "blue", "purple"] and seats[0]["person"] == ""
    error_of(client.get("/api/export/secrets.csv"), 404)
    everything = ok(client.get("/api/export/all.json"))
    assert everything["format"] == "immortals-companion-all" and len(everything["games"]) == 1

    link = ok(client.get(f"/api/games/{game}/bgstats"))
    assert link["url"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(parse_qs(urlparse(link["url"]).query)["data"][0])
    assert data == link["data"]
    assert "bggId" not in data["game"]  # unset: left out, never guessed
    assert [p["startPlayer"] for p in data["players"]] == [True, False, False]
    ok(client.put("/api/settings", json={"bgg_id": 220877, "location": "Kitchen"}))
    data = ok(client.get(f"/api/games/{game}/bgstats"))["data"]
    assert data["game"]["bggId"] == 220877 and data["location"] == "Kitchen"
    error_of(client.get("/api/games/999/bgstats"), 404)


def test_a_group_with_one_game_gets_a_fit_but_no_verdict_and_no_odds(data_dir: Path) -> None:
    generate_log(data_dir / "companion.sqlite3", 1, battles=12, odds=False)  # 13 throws
    app = make_app(data_dir)
    try:
        client = app.test_client()
        tower = ok(client.get("/api/stats/tower"))
        assert tower["enough_data"] and tower["model"]["throws"] == 13
        verdicts = tower["fairness"]["colours"]
        assert verdicts and all(v["verdict"] == "not_enough_data" and v["p_value"] is None
                                for v in verdicts.values())
        assert not tower["fairness"]["any_flagged"]
        people = ok(client.get("/api/stats/people"))["people"]
        assert sum(p["games"] for p in people) == 5
        assert all(p["wins"] is None for p in people if not p["games"])  # in no game: no zero
        ok(client.put("/api/settings", json={"odds": True}))
        game = attack_declared(client)
        odds = ok(client.get(f"/api/games/{game}/battle/odds"))
        assert odds["odds"] is None and odds["reason"] == "not enough data yet"
        interior = ok(client.get(f"/api/games/{game}/interior"))
        assert interior["enough_data"] is False
        assert all(x["next_out"] is None for x in interior["colours"].values())
    finally:
        app.extensions["companion"].close()
