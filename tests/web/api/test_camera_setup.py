"""The camera set-up page's API on the simulated tower: taps on a photo become a calibration the
tower counts with; every bad input is a 400 naming the item and changes nothing; the battle's
empty-tray check refuses a tray with cubes left in it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.counting import count_cubes
from companion.vision.synthetic import RenderConditions, synthetic_calibration

from ..conftest import attack_declared, error_of, ok, state_of

ALL = ("red", "blue", "yellow", "purple", "black", "green")
OUTLINE = [list(p) for p in RenderConditions().roi]


def photo_of(client, cubes=None):
    """Take the set-up photo and find where the cubes of ``cubes``' colours lie (with the
    renderer's own calibration: the test's eyes). The simulated tower's set-up photo holds one
    cube of every colour whatever its tray holds (so the tray is filled first, to show that)."""
    ok(client.put("/api/tower/simulated-tray", json={"cubes": {"red": 2}}))
    photo = ok(client.post("/api/camera/photos"), 201)
    data = client.get(photo["url"]).data
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    cubes_seen = count_cubes(image, synthetic_calibration()).cubes
    assert sorted(c.color for c in cubes_seen) == sorted(ALL)  # every colour can be tapped
    wanted = cubes or {c: 1 for c in ALL}
    return photo, {c.color: (round(c.x), round(c.y)) for c in cubes_seen if c.color in wanted}


def setup_body(photo, where, **changes):
    body = {"photo": photo["photo"], "outline": OUTLINE,
            "taps": [{"color": c, "x": x, "y": y} for c, (x, y) in where.items()]}
    return {**body, **changes}


def test_taps_make_a_calibration_that_counts_its_own_photo_back_without_saving(app, client):
    photo, where = photo_of(client)
    assert set(where) == set(ALL)
    # a finger is not a mouse: taps a little off the cube's centre
    off = {c: (x + 8, y - 6) for c, (x, y) in where.items()}
    checked = ok(client.post("/api/camera/check", json=setup_body(photo, off)))
    assert checked["found"] == {c: 1 for c in ALL}
    assert checked["warnings"] == [] and sorted(checked["colors"]) == sorted(ALL)
    assert client.get(checked["checked_url"]).mimetype == "image/jpeg"
    assert ok(client.get("/api/camera/calibrations"))["calibrations"] == []  # nothing saved


def test_a_saved_calibration_is_active_and_a_battle_counts_with_it(app, client, data_dir):
    tower = app.extensions["companion"].tower
    photo, where = photo_of(client, {"red": 1, "blue": 1, "purple": 1, "green": 1})
    entry = ok(client.post("/api/camera/calibrations", json=setup_body(photo, where)), 201)
    assert entry["active"] and entry["colors"] == ["red", "blue", "purple", "green"]
    assert tower.calibration.colors == ("red", "blue", "purple", "green")
    assert (data_dir / "calibration.json").is_file()
    assert client.get(entry["thumbnail_url"]).mimetype == "image/jpeg"
    ok(client.put("/api/tower/simulated-tray", json={"cubes": {}}))  # the players clear it
    game = attack_declared(client)
    reading = ok(client.post(f"/api/games/{game}/battle/count"))["reading"]
    assert reading["counts"] == tower.simulator.last_fallen
    # the empty tray checked before the throw is kept with the reading
    assert client.get(reading["empty_url"]).mimetype == "image/jpeg"


def _saved_state(client, data_dir):
    active = data_dir / "calibration.json"
    return ok(client.get("/api/camera/calibrations")), active.read_bytes() if active.exists() else None


@pytest.mark.parametrize("change, words", [
    ({"outline": [[120, 90], [1165, 100]]}, "at least three corner points"),
    ({"outline": [[120, 90], [1400, 100], [1185, 870]]}, "Outline point 2 (1400,100) lies outside"),
    ({"outline": "all"}, "tray outline"),
])
def test_a_bad_outline_is_refused_and_nothing_changes(client, data_dir, change, words):
    photo, where = photo_of(client)
    ok(client.post("/api/camera/calibrations", json=setup_body(photo, where)), 201)
    before = _saved_state(client, data_dir)
    error = error_of(client.post("/api/camera/calibrations", json=setup_body(photo, where, **change)), 400)
    assert words in error["message"]
    assert _saved_state(client, data_dir) == before


def test_a_tap_on_the_tray_named_as_a_colour_is_refused(client, data_dir):
    photo, where = photo_of(client, {"red": 1, "blue": 1})
    before = _saved_state(client, data_dir)
    taps = setup_body(photo, where)["taps"] + [{"color": "yellow", "x": 640, "y": 150}]
    error = error_of(client.post("/api/camera/calibrations", json=setup_body(photo, where, taps=taps)), 400)
    assert error["message"].startswith("The yellow tap is on the tray")
    assert _saved_state(client, data_dir) == before


def test_two_colours_from_the_same_cube_are_refused(client, data_dir):
    photo, where = photo_of(client, {"red": 1, "blue": 1})
    x, y = where["red"]
    taps = [{"color": "red", "x": x, "y": y}, {"color": "blue", "x": x + 4, "y": y + 3}]
    before = _saved_state(client, data_dir)
    error = error_of(client.post("/api/camera/check", json=setup_body(photo, where, taps=taps)), 400)
    assert "blue tap" in error["message"] and "red tap" in error["message"] and "same cube" in error["message"]
    assert _saved_state(client, data_dir) == before


@pytest.mark.parametrize("taps, words", [
    ([], "Tap one cube"),
    ([{"color": "orange", "x": 10, "y": 10}], "'orange' is not a cube colour"),
    ([{"color": "red", "x": 5000, "y": 10}], "lies outside the photo"),
    ([{"color": None, "x": 640, "y": 150}], "background taps alone"),
    ([{"color": "red", "x": "left", "y": 10}], "x"),
])
def test_bad_taps_are_refused(client, taps, words):
    photo, where = photo_of(client, {"red": 1})
    error = error_of(client.post("/api/camera/check", json=setup_body(photo, where, taps=taps)), 400)
    assert words in error["message"]


def test_an_unknown_photo_is_refused(client):
    body = {"photo": "nope", "outline": OUTLINE, "taps": [{"color": "red", "x": 1, "y": 1}]}
    assert "take a new one" in error_of(client.post("/api/camera/check", json=body), 400)["message"]


def test_restore_an_earlier_calibration_and_delete_one(app, client, data_dir):
    tower = app.extensions["companion"].tower
    photo, where = photo_of(client, {"red": 1, "blue": 1, "green": 1})
    first = ok(client.post("/api/camera/calibrations", json=setup_body(photo, where)), 201)
    photo, where = photo_of(client)
    second = ok(client.post("/api/camera/calibrations", json=setup_body(photo, where)), 201)
    listed = ok(client.get("/api/camera/calibrations"))["calibrations"]
    # the simulator's own calibration, in use before the first save, is kept to restore
    assert [e["id"] for e in listed][:2] == [second["id"], first["id"]] and listed[0]["active"]
    assert len(listed) == 3 and listed[2]["origin"] == "simulator" and not listed[2]["active"]
    error = error_of(client.delete(f"/api/camera/calibrations/{second['id']}"), 400)
    assert "tower uses now" in error["message"]
    after = ok(client.post(f"/api/camera/calibrations/{first['id']}/restore"))["calibrations"]
    assert [e["active"] for e in after] == [False, True, False]
    assert tower.calibration.colors == ("red", "blue", "green")
    left = ok(client.delete(f"/api/camera/calibrations/{second['id']}"))["calibrations"]
    assert [e["id"] for e in left][:1] == [first["id"]]
    # and the simulator's own comes back: every colour counted again
    ok(client.post(f"/api/camera/calibrations/{left[1]['id']}/restore"))
    assert sorted(tower.calibration.colors) == sorted(ALL)
    assert "no such saved calibration" in error_of(
        client.post(f"/api/camera/calibrations/{second['id']}/restore"), 404)["message"]
    assert client.delete(f"/api/camera/calibrations/{second['id']}").status_code == 404
    assert client.get(f"/api/camera/calibrations/{second['id']}/thumbnail.jpg").status_code == 404


def test_the_preview_is_a_small_jpeg_with_the_camera_size(client):
    answer = client.get("/api/camera/preview.jpg")
    assert answer.status_code == 200 and answer.mimetype == "image/jpeg"
    assert (answer.headers["X-Photo-Width"], answer.headers["X-Photo-Height"]) == ("1280", "960")
    image = cv2.imdecode(np.frombuffer(answer.data, np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[1] == 800 and answer.headers["Cache-Control"] == "no-store"


def test_cubes_left_in_the_tray_stop_the_count_until_it_is_cleared(app, client):
    tower = app.extensions["companion"].tower
    game = attack_declared(client)
    before = state_of(client, game)
    ok(client.put("/api/tower/simulated-tray", json={"cubes": {"red": 2, "black": 1}}))
    throws = tower.simulator.throws
    error = error_of(client.post(f"/api/games/{game}/battle/count"), 409)
    assert error["kind"] == "TrayNotEmptyError"
    assert error["message"].startswith("2 red, 1 black — clear the tray")
    assert tower.simulator.throws == throws  # nothing was thrown
    assert state_of(client, game) == before
    assert ok(client.get("/api/tower"))["tray_left"] == {"red": 2, "black": 1}
    error_of(client.post(f"/api/games/{game}/battle/tray-check"), 409)  # the check says the same
    ok(client.put("/api/tower/simulated-tray", json={"cubes": {}}))
    assert ok(client.post(f"/api/games/{game}/battle/tray-check"))["empty"] is True
    reading = ok(client.post(f"/api/games/{game}/battle/count"))["reading"]
    assert tower.simulator.throws == throws + 1 and "empty_url" in reading
    assert ok(client.get("/api/tower"))["tray_left"] == {}


def test_bad_simulated_tray_is_refused(client):
    error = error_of(client.put("/api/tower/simulated-tray", json={"cubes": {"orange": 1}}), 400)
    assert "orange" in error["message"]


@pytest.mark.parametrize("method, path", [
    ("post", "/api/camera/photos"), ("post", "/api/camera/check"), ("post", "/api/camera/calibrations"),
    ("put", "/api/tower/simulated-tray"), ("delete", "/api/camera/calibrations/20260101-000000-000000-abcd"),
])
def test_a_tablet_without_the_table_pin_changes_nothing(app, method, path):
    from ..conftest import guest_client

    guest = guest_client(app)
    answer = getattr(guest, method)(path, json={"cubes": {}})
    assert answer.status_code == 401
    assert app.extensions["companion"].tower.simulator.tray == {}
