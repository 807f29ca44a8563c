"""The game review API: the state at any step, every battle with photos, camera counts,
corrections (device and player) and kept odds, turning points — and it changes nothing."""

from __future__ import annotations

from companion.analysis.odds import Odds
from companion.store.insights import record_odds
from companion.store.review import lead_changes

from ..conftest import attack_declared, command, error_of, ok, state_of


def _battle_with_corrections(app, client) -> tuple[int, dict]:
    game = attack_declared(client)
    reading = ok(client.post(f"/api/games/{game}/battle/count"))["reading"]
    counts = dict(reading["counts"])
    counts["red"] = counts.get("red", 0) + 1
    command(client, game, type="correct_tray", color="red", count=counts["red"],
            device="Kitchen tablet", player="blue")
    version = state_of(client, game)["version"]
    ok(client.post(f"/api/games/{game}/commands", json={
        "command": {"type": "resolve_battle", "counts": counts, "accept_impossible": True},
        "expected_version": version}))
    return game, reading


def test_a_battle_shows_photos_camera_counts_and_every_correction(app, client):
    game, reading = _battle_with_corrections(app, client)
    before = state_of(client, game)["version"]
    review = ok(client.get(f"/api/games/{game}/review"))
    assert review["version"] == before and len(review["timeline"]) == before
    [battle] = review["battles"]
    assert battle["attacker"] == "red" and battle["defender"] == "purple"
    assert battle["reading_id"] == reading["id"]
    assert battle["camera"] == reading["counts"]
    assert battle["counts"]["red"] == reading["counts"].get("red", 0) + 1
    [change] = battle["corrections"]
    assert change["device"] == "Kitchen tablet" and change["player"] == "blue"
    assert change["color"] == "red" and change["to"] == battle["counts"]["red"]
    photos = battle["photos"]
    assert photos["photo"] == reading["photo_url"] and photos["missing"] == [] and photos["damaged"] == []
    assert client.get(photos["photo"]).status_code == 200
    assert battle["odds"] is None and battle["chance_of_result"] is None
    assert review["turning_points"]["upsets"] == []
    assert state_of(client, game)["version"] == before  # the review changed nothing


def test_kept_odds_sit_beside_the_outcome_and_an_unlikely_result_is_an_upset(app, client):
    game, _ = _battle_with_corrections(app, client)
    log = app.extensions["companion"].log
    review = ok(client.get(f"/api/games/{game}/review"))
    [battle] = review["battles"]
    won = battle["winner"]
    # Odds that made what happened unlikely (10 %), kept as the battle page would have kept them.
    chances = {"attacker": (0.1, 0.1, 0.8), None: (0.45, 0.1, 0.45)}.get(won, (0.8, 0.1, 0.1))
    record_odds(log, game, battle["attack_seq"], battle["attack_seq"],
                {"attacker": "red", "defender": "purple", "stance": "for_attacker"},
                Odds(*chances, draws=10_000), basis=50)
    review = ok(client.get(f"/api/games/{game}/review"))
    [battle] = review["battles"]
    assert battle["odds"]["win"] == chances[0]
    assert battle["chance_of_result"] == 0.1
    assert review["turning_points"]["upsets"] == [battle["seq"]]


def test_the_state_at_a_step_is_the_game_as_it_was_then(client):
    game = attack_declared(client)
    now = state_of(client, game)
    first = ok(client.get(f"/api/games/{game}/review/state?version=1"))
    assert first["version"] == 1 and first["newest"] == now["version"]
    assert first["event"]["type"] == "new_game" and first["state"]["phase"] == "deployment"
    assert all(not r["armies"] for realm in first["state"]["regions"].values() for r in realm.values())
    last = ok(client.get(f"/api/games/{game}/review/state?version={now['version']}"))
    assert last["state"]["regions"] == now["regions"] and last["state"]["battle"] == now["battle"]
    assert last["event"]["type"] == "attack"


def test_an_undone_step_stays_in_the_timeline_and_the_state_before_the_undo_keeps_it(client):
    game = attack_declared(client)
    attacked = state_of(client, game)["version"]
    command(client, game, type="undo")
    review = ok(client.get(f"/api/games/{game}/review"))
    assert review["timeline"][attacked - 1]["undone"] is True
    assert review["timeline"][-1]["type"] == "undo"
    then = ok(client.get(f"/api/games/{game}/review/state?version={attacked}"))["state"]
    after = ok(client.get(f"/api/games/{game}/review/state?version={attacked + 1}"))["state"]
    assert then["battle"] is not None and after["battle"] is None


def test_a_step_outside_the_game_is_refused_in_words_in_both_languages(client):
    game = attack_declared(client)
    newest = state_of(client, game)["version"]
    err = error_of(client.get(f"/api/games/{game}/review/state?version={newest + 1}"), 400)
    assert f"1 to {newest}" in err["message"] and str(newest + 1) in err["message"]
    err = error_of(client.get(f"/api/games/{game}/review/state?version={newest + 1}",
                              headers={"Accept-Language": "de"}), 400)
    assert "Schritt" in err["message"]
    for bad in ("0", "x", "-1", ""):
        error_of(client.get(f"/api/games/{game}/review/state?version={bad}"), 400)
    error_of(client.get(f"/api/games/{game}/review/state"), 400)
    error_of(client.get("/api/games/999/review"), 404)
    error_of(client.get("/api/games/999/review/state?version=1"), 404)


def test_missing_and_damaged_photos_are_named_and_the_review_still_works(app, client):
    game, reading = _battle_with_corrections(app, client)
    folder = app.extensions["companion"].readings.root / reading["id"]
    (folder / "photo.jpg").unlink()
    (folder / "annotated.jpg").write_bytes(b"not a picture")
    [battle] = ok(client.get(f"/api/games/{game}/review"))["battles"]
    assert battle["photos"]["photo"] is None and battle["photos"]["missing"] == ["photo"]
    assert battle["photos"]["annotated"] is None and battle["photos"]["damaged"] == ["annotated"]
    assert battle["camera"] == reading["counts"]  # the log still has what the camera counted


def test_the_lead_changes_only_when_another_player_leads():
    chart = [{"round": 1, "vp": {"red": 2, "blue": 1}}, {"round": 2, "vp": {"red": 3, "blue": 3}},
             {"round": 3, "vp": {"red": 3, "blue": 5}}, {"round": 4, "vp": {"red": 4, "blue": 6}}]
    assert lead_changes(chart) == [
        {"round": 2, "from": ["red"], "to": ["blue", "red"], "vp": 3},
        {"round": 3, "from": ["blue", "red"], "to": ["blue"], "vp": 5},
    ]
    assert lead_changes([]) == []
