"""The night recap and its share: every game of the evening (Immortals and the game-night log),
facts from the data, one self-contained HTML file (≤ 5 MB with 40 battle photos, offline) and
a PNG card — also when photos are missing or damaged, which the file then names."""

from __future__ import annotations

import io
import re
import shutil

from PIL import Image

from benchmarks.review import LongGame
from companion.store.nights import night_of

from ..conftest import error_of, ok
from .test_review import _battle_with_corrections

BASE = "/api/tabletop"


def _evening(app, client) -> tuple[str, int, dict, dict]:
    """An Immortals game with a counted, corrected battle and an Azul game with a table photo."""
    game, reading = _battle_with_corrections(app, client)
    azul = ok(client.post(f"{BASE}/games", json={"game": "generic", "name": "Azul", "players": ["Ani", "Jürgen"],
                                                  "events": [{"type": "result", "winners": ["p2"]}]}), 201)
    photo = io.BytesIO()
    Image.new("RGB", (1600, 1200), (30, 120, 60)).save(photo, "JPEG")
    ok(client.put(f"{BASE}/games/{azul['id']}/photo", data=photo.getvalue(), content_type="image/jpeg"))
    night = night_of(app.extensions["companion"].log.game(game).created_at)
    return night, game, reading, azul


def test_the_recap_has_every_game_of_the_evening_with_players_winners_and_facts(app, client):
    night, game, _, azul = _evening(app, client)
    assert {"night": night, "games": 2} in ok(client.get("/api/recap"))
    recap = ok(client.get(f"/api/recap/{night}"))
    kinds = {(g["kind"], g["id"]) for g in recap["games"]}
    assert kinds == {("immortals", game), ("tabletop", azul["id"])}
    tabletop = next(g for g in recap["games"] if g["kind"] == "tabletop")
    assert [p["name"] for p in tabletop["players"] if p["winner"]] == ["Jürgen"]
    assert tabletop["photo"] == azul["id"]
    immortals = next(g for g in recap["games"] if g["kind"] == "immortals")
    assert len(immortals["battles"]) == 1 and immortals["battles"][0]["corrections"] == 1
    assert "Jürgen" in recap["players"]
    keys = {f["key"] for f in recap["facts"]}
    assert "recap_fact_most_wins" in keys and "recap_fact_battles" in keys
    assert "recap_fact_underdog" not in keys  # no odds were kept: no such fact is made up


def test_the_share_file_holds_everything_and_loads_nothing(app, client):
    night, *_ = _evening(app, client)
    response = client.get(f"/api/recap/{night}/share.html?lang=de")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert "attachment" in response.headers["Content-Disposition"]
    html = response.get_data(as_text=True)
    assert "Spieleabend" in html and "Jürgen" in html
    assert len(re.findall(r'src="data:image/jpeg;base64,', html)) == 2  # the battle and the table
    assert not re.search(r'(src|href)="(https?:)?//', html), "the file must not load anything"
    assert "<link" not in html and '<script src' not in html
    assert "<style>" in html and "<script>" in html


def test_the_card_is_a_png_that_names_the_evening(app, client):
    night, *_ = _evening(app, client)
    response = client.get(f"/api/recap/{night}/card.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    card = Image.open(io.BytesIO(response.data))
    assert card.size == (1200, 630)
    assert len(card.convert("L").getcolors(maxcolors=1 << 16)) > 10  # text was drawn, not a blank card


def test_missing_and_damaged_photos_are_named_and_the_exports_still_work(app, client, data_dir):
    night, game, reading, azul = _evening(app, client)
    (app.extensions["companion"].readings.root / reading["id"] / "photo.jpg").unlink()
    for photo in (data_dir / "tabletop-photos").iterdir():
        photo.write_bytes(b"\xff\xd8\xff broken")
    html = ok_text(client.get(f"/api/recap/{night}/share.html"))
    assert "data:image/jpeg" not in html
    assert "battle in round 1: photo no longer kept" in html
    assert "Azul: photo of the table damaged" in html
    assert client.get(f"/api/recap/{night}/card.png").status_code == 200
    assert ok(client.get(f"/api/recap/{night}"))["games"]


def ok_text(response) -> str:
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def test_bad_and_empty_evenings_are_refused_in_words(client):
    for bad in ("2026-13-01", "yesterday", "2026-1-1"):
        assert "2026-11-24" in error_of(client.get(f"/api/recap/{bad}"), 400)["message"]
    german = error_of(client.get("/api/recap/x", headers={"Accept-Language": "de"}), 400)["message"]
    assert "Datum" in german
    assert "2001-01-01" in error_of(client.get("/api/recap/2001-01-01"), 404)["message"]
    error_of(client.get("/api/recap/2001-01-01/share.html"), 404)
    error_of(client.get("/api/recap/2001-01-01/card.png"), 404)


class _Client:
    """The benchmark game's client over the Flask test client."""

    def __init__(self, client) -> None:
        self.client, self.timings = client, {}

    def call(self, method, path, body=None, label=None):
        response = self.client.open(path, method=method, json=body)
        self.timings.setdefault(label or f"{method} {path}", []).append(0.0)
        return response.status_code, response.get_json(silent=True)


def test_an_evening_with_40_battle_photos_shares_in_at_most_5_mb(app, client):
    rt = app.extensions["companion"]
    game = LongGame(_Client(client))
    game.setup()
    photo = None
    battles = 0
    while game.state["phase"] != "over" and battles < 40:
        if game.state["phase"] == "battle":
            if photo is None:  # one real count: the camera's photo of the tray
                reading = ok(client.post(f"/api/games/{game.id}/battle/count"))["reading"]
                photo = rt.readings.root / reading["id"] / "photo.jpg"
            else:  # the same size of photo for every other battle
                rid = f"{game.id}-{game.state['version']}-{battles:08x}"
                (rt.readings.root / rid).mkdir()
                shutil.copy(photo, rt.readings.root / rid / "photo.jpg")
                rt.service.execute(game.id, {"type": "read_tray", "counts": game.state["battle"]["throw"],
                                             "reading": rid})
            game.state = ok(client.get(f"/api/games/{game.id}"))["state"]
            battles += 1
        game.step()
    assert battles == 40 and photo.stat().st_size > 50_000
    night = night_of(rt.log.game(game.id).created_at)
    html = ok_text(client.get(f"/api/recap/{night}/share.html"))
    assert html.count("data:image/jpeg;base64,") == 40
    assert len(html.encode("utf-8")) <= 5 * 1024 * 1024
