"""The battle over HTTP: count the tray with the simulated tower, the reading and its photos,
the preview, resolving with confirmed (or corrected) counts, and every way of failing."""

from __future__ import annotations

import csv
import io

import pytest

from companion.hw.errors import CameraUnavailableError, CountInProgressError
from companion.hw.tower import Tower

from ..conftest import (
    EventCollector,
    attack_declared,
    command,
    error_of,
    in_actions,
    make_app,
    ok,
    simulated_tower,
    state_of,
    to_seeding,
)


def count(client, game):
    return ok(client.post(f"/api/games/{game}/battle/count"))["reading"]


def test_count_reads_the_tray_for_the_pending_battle_and_changes_nothing(app, client):
    game = attack_declared(client)
    before = state_of(client, game)
    events = EventCollector(app, game)
    reading = count(client, game)
    assert reading["game"] == game and reading["version"] == before["version"]
    assert reading["thrown"] == before["battle"]["throw"]
    assert sum(reading["counts"].values()) == len(reading["cubes"])
    # The simulator only lets out what was thrown plus what the tower held before.
    for colour, n in reading["counts"].items():
        assert n <= reading["thrown"].get(colour, 0) + before["interior"].get(colour, 0)
    after = state_of(client, game)  # the counts became the shared reading: one read_tray event
    assert after["version"] == before["version"] + 1
    assert after["reading"] == {"id": reading["id"], "camera": reading["counts"],
                                "counts": reading["counts"], "unknown": reading["unknown"],
                                "changes": []}
    assert {**after, "version": before["version"], "reading": None} == before  # nothing else
    pushed = events.next("reading")
    assert pushed == {"game": game, "reading": reading}
    events.close()


def test_reading_photos_are_served_as_jpeg(client):
    game = attack_declared(client)
    reading = count(client, game)
    for url in (reading["photo_url"], reading["annotated_url"]):
        response = client.get(url)
        assert response.status_code == 200 and response.mimetype == "image/jpeg"
        assert response.data[:2] == b"\xff\xd8"  # JPEG start-of-image marker


def test_latest_reading_is_kept_for_reloads(client):
    game = attack_declared(client)
    assert error_of(client.get(f"/api/games/{game}/battle/reading"), 404)["kind"] == "NotFoundError"
    reading = count(client, game)
    assert ok(client.get(f"/api/games/{game}/battle/reading")) == {"reading": reading}


def test_second_count_of_the_same_throw_recounts_without_throwing_again(app, client):
    game = attack_declared(client)
    simulator = app.extensions["companion"].tower.simulator
    first = count(client, game)
    throws = simulator.throws
    second = count(client, game)
    assert simulator.throws == throws, "a recount must not throw the cubes a second time"
    assert second["counts"] == first["counts"] and second["id"] != first["id"]


def test_count_during_seeding_throws_seven_per_player_and_ten_green(client):
    game = to_seeding(client)
    reading = count(client, game)
    assert reading["thrown"] == {"red": 7, "blue": 7, "purple": 7, "green": 10}


def test_count_without_a_pending_throw_is_refused(client):
    game = in_actions(client)
    before = state_of(client, game)
    error = error_of(client.post(f"/api/games/{game}/battle/count"), 400)
    assert error["kind"] == "NoPendingBattleError" and "Declare an attack" in error["message"]
    assert state_of(client, game) == before


def test_count_for_an_unknown_game_is_404(client):
    assert error_of(client.post("/api/games/5/battle/count"), 404)["kind"] == "GameNotFoundError"
    assert error_of(client.get("/api/games/5/battle/reading"), 404)["kind"] == "GameNotFoundError"


def _no_camera() -> object:
    raise CameraUnavailableError()


def test_camera_unavailable_is_503_and_changes_nothing(tmp_path):
    tower = Tower(open_camera=_no_camera, open_controls=None, retry_interval=3600)
    app = make_app(tmp_path / "data", TOWER=tower)
    try:
        client = app.test_client()
        game = attack_declared(client)
        before = state_of(client, game)
        error = error_of(client.post(f"/api/games/{game}/battle/count"), 503)
        assert error["kind"] == "CameraUnavailableError" and "by hand" in error["message"]
        assert state_of(client, game) == before
        assert client.get(f"/api/games/{game}/battle/reading").status_code == 404
        assert ok(client.get("/api/health"))["tower"]["camera"]["ok"] is False
    finally:
        app.extensions["companion"].close()


def test_count_while_another_count_runs_is_409(app, client, monkeypatch):
    game = attack_declared(client)

    def busy(**_: object) -> None:
        raise CountInProgressError()

    monkeypatch.setattr(app.extensions["companion"].tower, "count_throw", busy)
    error = error_of(client.post(f"/api/games/{game}/battle/count"), 409)
    assert error["kind"] == "CountInProgressError"


def test_preview_gives_result_reasons_and_words_without_changing_the_game(client):
    game = attack_declared(client)
    before = state_of(client, game)
    body = ok(client.post(f"/api/games/{game}/battle/preview", json={"counts": {"red": 3, "purple": 1}}))
    assert body["result"]["winner"] == "attacker"
    assert body["impossible"] == []
    assert body["explanation"]
    assert state_of(client, game) == before


def test_preview_of_an_impossible_reading_says_why(client):
    game = attack_declared(client)
    body = ok(client.post(f"/api/games/{game}/battle/preview", json={"counts": {"purple": 40}}))
    assert body["impossible"] and any("purple" in reason for reason in body["impossible"])


@pytest.mark.parametrize(
    ("payload", "kind"),
    [
        ({}, "MalformedRequestError"),
        ({"counts": [1]}, "MalformedRequestError"),
        ({"counts": {"red": -1}}, "MalformedRequestError"),
        ({"counts": {"red": 1.5}}, "MalformedRequestError"),
        ({"counts": {"pink": 1}}, "MalformedRequestError"),
    ],
)
def test_bad_preview_input_is_400(client, payload, kind):
    game = attack_declared(client)
    assert error_of(client.post(f"/api/games/{game}/battle/preview", json=payload), 400)["kind"] == kind


def test_preview_without_a_battle_is_refused(client):
    game = in_actions(client)
    response = client.post(f"/api/games/{game}/battle/preview", json={"counts": {"red": 1}})
    assert error_of(response, 400)["kind"] == "WrongPhaseError"


def test_resolve_with_corrected_camera_counts_is_recorded_for_the_statistics(client):
    game = attack_declared(client)
    reading = count(client, game)
    confirmed = dict(reading["counts"])
    confirmed["red"] = confirmed.get("red", 0) + 1  # the players saw one more red cube
    preview = ok(client.post(f"/api/games/{game}/battle/preview", json={"counts": confirmed}))
    body = command(
        client, game, type="resolve_battle", counts=confirmed, camera_counts=reading["counts"],
        accept_impossible=bool(preview["impossible"]),
    )
    assert body["state"]["battle"] is None
    assert body["event"]["type"] == "resolve_battle"
    rows = list(csv.DictReader(io.StringIO(client.get(f"/api/games/{game}/battles.csv").get_data(as_text=True))))
    assert len(rows) == 1 and rows[0]["attacker"] == "red"


def test_impossible_reading_must_be_accepted_explicitly(client):
    game = attack_declared(client)
    before = state_of(client, game)
    counts = {"red": 3, "purple": 30}
    error = error_of(
        client.post(f"/api/games/{game}/commands", json={"command": {"type": "resolve_battle", "counts": counts}}),
        400,
    )
    assert error["kind"] == "ImpossibleReadingError"
    assert state_of(client, game) == before
    body = command(client, game, type="resolve_battle", counts=counts, accept_impossible=True)
    assert body["state"]["battle"] is None


@pytest.mark.parametrize(
    "url",
    [
        "/api/readings/1-2-deadbeef/photo.jpg",
        "/api/readings/not-a-reading/photo.jpg",
        "/api/readings/..%2F..%2Fcompanion.sqlite3/photo.jpg",
        "/api/readings/1-2-deadbeef/annotated.jpg",
    ],
)
def test_unknown_photos_are_404(client, url):
    assert client.get(url).status_code == 404


def test_after_a_timed_out_count_the_next_count_does_not_throw_again(app, client, monkeypatch):
    from companion.hw.errors import CountTimeoutError

    game = attack_declared(client)
    tower = app.extensions["companion"].tower
    real_count_throw = tower.count_throw

    def throw_then_time_out(thrown, timeout):
        tower.simulator.throw(thrown)  # the cubes went in…
        raise CountTimeoutError("The tray did not stop moving.")  # …but no count came

    monkeypatch.setattr(tower, "count_throw", throw_then_time_out)
    assert error_of(client.post(f"/api/games/{game}/battle/count"), 503)["kind"] == "CountTimeoutError"
    monkeypatch.setattr(tower, "count_throw", real_count_throw)
    throws = tower.simulator.throws
    reading = ok(client.post(f"/api/games/{game}/battle/count"))["reading"]
    assert tower.simulator.throws == throws
    assert reading["counts"]


def test_every_count_runs_on_the_same_worker_thread(app, client, monkeypatch):
    import threading

    game = attack_declared(client)
    tower = app.extensions["companion"].tower
    threads: list[int] = []
    for name in ("count_throw", "recount"):
        real = getattr(tower, name)

        def recording(*args, _real=real, **kwargs):
            threads.append(threading.get_ident())
            return _real(*args, **kwargs)

        monkeypatch.setattr(tower, name, recording)
    for _ in range(3):
        ok(client.post(f"/api/games/{game}/battle/count"))
    assert len(threads) == 3 and len(set(threads)) == 1
    assert threads[0] != threading.get_ident()


def test_a_game_colour_the_calibration_lacks_means_counting_by_hand(tmp_path):
    """The simulated camera calibrated without purple: a battle of a game with purple is not
    counted by the camera (the tray could hold purple cubes it would call unknown); the refusal
    names the colour, throws nothing and changes nothing, and the tower says what it knows."""
    from tests.hw.conftest import calibration_with_only

    tower = simulated_tower(tmp_path / "data")
    tower.calibration = calibration_with_only(tower.calibration, set(tower.calibration.colors) - {"purple"})
    app = make_app(tmp_path / "data", TOWER=tower)
    try:
        client = app.test_client()
        game = attack_declared(client)
        before = state_of(client, game)
        error = error_of(client.post(f"/api/games/{game}/battle/count"), 503)
        assert error["kind"] == "ColoursNotCalibratedError"
        assert "no sample of purple" in error["message"] and "by hand" in error["message"]
        assert state_of(client, game) == before
        assert client.get(f"/api/games/{game}/battle/reading").status_code == 404
        colours = ok(client.get("/api/health"))["tower"]["calibrated_colors"]
        assert "purple" not in colours and {"red", "blue", "green"} <= set(colours)
    finally:
        app.extensions["companion"].close()
