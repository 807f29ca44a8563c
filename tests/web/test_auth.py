"""The table PIN (issue 12): changes need a signed-in device, watching does not; wrong PINs are
slowed down; the cookie's flags; reset and COMPANION_PIN sign everybody out; where the PIN lives."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
from pathlib import Path

import pytest
from flask import Flask

from companion.cli import main as cli_main
from companion.web.auth import FailureLimiter
from companion.web.serve import pin_banner
from companion.web.table_pin import FILE_NAME, PinSettingError, PinStore, check_pin

from .conftest import (
    PLAYERS,
    EventCollector,
    attack_declared,
    TABLE_PIN,
    command,
    error_of,
    guest_client,
    make_app,
    new_game,
    ok,
    state_of,
    to_seeding,
)

SAFE = {"GET", "HEAD", "OPTIONS"}


def fingerprint_of_data(data_dir: Path) -> str:
    """Everything the companion keeps: the database's content and every other file's bytes."""
    digest = hashlib.sha256()
    conn = sqlite3.connect(data_dir / "companion.sqlite3")
    try:
        for line in conn.iterdump():
            digest.update(line.encode())
    finally:
        conn.close()
    for path in sorted(data_dir.rglob("*")):
        if path.is_file() and not path.name.startswith("companion.sqlite3"):
            digest.update(str(path.relative_to(data_dir)).encode() + path.read_bytes())
    return digest.hexdigest()


def state_changing_routes(app: Flask) -> list[tuple[str, str]]:
    """Every (method, URL) under /api that may change something, ids filled with 1."""
    routes = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or rule.endpoint.startswith("auth."):
            continue
        if getattr(app.view_functions[rule.endpoint], "changes_nothing", False):
            continue
        url = re.sub(r"<(?:int:)?[^<>]+>", "1", rule.rule)
        for method in sorted(rule.methods - SAFE):
            routes.append((method, url))
    return routes


# -- who may change what -----------------------------------------------------------------------


def test_every_change_needs_the_pin_and_a_refused_one_changes_nothing(app, client, data_dir):
    game = to_seeding(client)  # a game in progress, made by a signed-in tablet
    ok(client.post("/api/people", json={"name": "Dirk"}), 201)
    guest = guest_client(app)
    before = fingerprint_of_data(data_dir)
    routes = state_changing_routes(app)
    # The kinds the issue names are all among them (a new route is covered by itself).
    for must in [("POST", "/api/games"), ("POST", "/api/games/1/commands"), ("PUT", "/api/board"),
                 ("POST", "/api/board/import"), ("PUT", "/api/settings"), ("POST", "/api/people"),
                 ("POST", "/api/games/1/battle/count"), ("POST", "/api/tower/press")]:
        assert must in routes
    for method, url in routes:
        answer = guest.open(url, method=method, json={"players": PLAYERS, "first_player": "red"})
        error = error_of(answer, 401)
        assert error["kind"] == "PinRequiredError", (method, url)
        assert "table PIN" in error["message"]
        assert answer.headers["WWW-Authenticate"].startswith("TablePIN")
    assert fingerprint_of_data(data_dir) == before
    assert state_of(guest, game)["version"] == state_of(client, game)["version"]


def test_a_guest_watches_everything_without_the_pin(app, client):
    game = to_seeding(client)
    guest = guest_client(app)
    for url in ["/api/games", f"/api/games/{game}", f"/api/games/{game}/export.json",
                f"/api/games/{game}/battles.csv", "/api/board", "/api/stats", "/api/people",
                "/api/settings", "/api/tower", "/api/health", "/api/openapi.json", "/", "/stats",
                f"/games/{game}", "/tower"]:
        assert guest.get(url).status_code == 200, url
    assert ok(guest.get("/api/session")) == {"signed_in": False}  # and no PIN for a guest


def test_a_battle_preview_changes_nothing_so_a_guest_may_ask_for_it(app, client):
    game = attack_declared(client)
    guest = guest_client(app)
    answer = guest.post(f"/api/games/{game}/battle/preview", json={"counts": {"red": 2}})
    assert answer.status_code == 200, answer.get_data(as_text=True)


def test_the_tower_button_needs_no_pin(app, client):
    """The physical buttons act on the server itself, not over HTTP: nobody has to sign in."""
    game = attack_declared(client)
    ok(client.delete("/api/session"))  # nobody is signed in any more
    events = EventCollector(app, game)
    try:
        app.extensions["companion"].tower.press("count")  # drives the (mock) GPIO pin itself
        assert events.next("reading", timeout=15)["game"] == game
    finally:
        events.close()


# -- signing in ----------------------------------------------------------------------------------


def test_signing_in_sets_a_signed_httponly_strict_cookie_and_shows_the_pin(app):
    guest = guest_client(app)
    assert error_of(guest.post("/api/games", json={"players": PLAYERS, "first_player": "red"}), 401)
    answer = guest.post("/api/session", json={"pin": TABLE_PIN})
    assert ok(answer) == {"signed_in": True, "pin": TABLE_PIN}
    cookie = answer.headers["Set-Cookie"]
    assert re.match(r"companion_[0-9a-f]{8}=", cookie)
    flags = {part.strip().split("=")[0].lower(): part for part in cookie.split(";")[1:]}
    assert "httponly" in flags and flags["samesite"].strip() == "SameSite=Strict"
    assert "expires" in flags  # kept across browser restarts: once per device
    assert answer.headers["Cache-Control"] == "no-store"
    assert ok(guest.get("/api/session")) == {"signed_in": True, "pin": TABLE_PIN}
    new_game(guest)
    # A forged cookie (right name, made-up content) is a guest.
    name = cookie.split("=", 1)[0]
    forged = guest_client(app)
    forged.set_cookie(name, 'eyJ0YWJsZSI6dHJ1ZX0.forged.signature')
    assert error_of(forged.post("/api/games", json={"players": PLAYERS, "first_player": "red"}), 401)


def test_signing_out_makes_the_device_a_guest_again(client):
    ok(client.delete("/api/session"))
    assert ok(client.get("/api/session")) == {"signed_in": False}
    assert error_of(client.post("/api/games", json={"players": PLAYERS, "first_player": "red"}), 401)


@pytest.mark.parametrize("body", [{}, {"pin": 4711}, {"pin": ""}, {"pin": "1", "x": 1}, ["4711"]])
def test_a_malformed_sign_in_is_400(app, body):
    assert error_of(guest_client(app).post("/api/session", json=body), 400)["kind"] == "MalformedRequestError"


def test_wrong_pins_are_401_then_429_with_retry_after_and_the_right_pin_waits_too(data_dir):
    now = [1000.0]
    app = make_app(data_dir, PIN_MAX_FAILURES=3, PIN_FAILURE_WINDOW_SECONDS=60.0, PIN_CLOCK=lambda: now[0])
    try:
        guest = guest_client(app)
        for wrong in ["0000", "1234", "9999"]:
            error = error_of(guest.post("/api/session", json={"pin": wrong}), 401)
            assert error["kind"] == "WrongPinError" and "not the table PIN" in error["message"]
        blocked = guest.post("/api/session", json={"pin": TABLE_PIN})  # even the right one
        assert error_of(blocked, 429)["kind"] == "TooManyPinAttemptsError"
        assert blocked.headers["Retry-After"] == "60"
        assert "Wait 60 seconds" in blocked.get_json()["error"]["message"]
        assert ok(guest.get("/api/session")) == {"signed_in": False}
        # Another address is not held up by this one.
        other = guest_client(app)
        ok(other.post("/api/session", json={"pin": TABLE_PIN}, environ_base={"REMOTE_ADDR": "10.0.0.9"}))
        now[0] += 45
        assert guest.post("/api/session", json={"pin": TABLE_PIN}).headers["Retry-After"] == "15"
        now[0] += 15
        assert ok(guest.post("/api/session", json={"pin": TABLE_PIN}))["signed_in"] is True
    finally:
        app.extensions["companion"].close()


def test_guesses_from_ever_new_addresses_meet_the_cap_on_all_of_them(data_dir):
    now = [0.0]
    app = make_app(data_dir, PIN_MAX_FAILURES=3, PIN_MAX_FAILURES_ALL=4, PIN_CLOCK=lambda: now[0])
    try:
        tablet = app.test_client()  # signed in before the guessing starts
        guest = guest_client(app)
        for i in range(4):  # one wrong PIN each from four addresses: none alone is at its cap
            answer = guest.post("/api/session", json={"pin": "0000"},
                                environ_base={"REMOTE_ADDR": f"fd00::{i}"})
            assert error_of(answer, 401)["kind"] == "WrongPinError"
        fifth = guest.post("/api/session", json={"pin": TABLE_PIN}, environ_base={"REMOTE_ADDR": "fd00::9"})
        assert error_of(fifth, 429)["kind"] == "TooManyPinAttemptsError"
        new_game(tablet)  # a tablet already signed in plays on
        now[0] += 61
        ok(guest.post("/api/session", json={"pin": TABLE_PIN}, environ_base={"REMOTE_ADDR": "fd00::9"}))
    finally:
        app.extensions["companion"].close()


def test_the_failure_limiter_slides_and_forgets_the_oldest_addresses():
    now = [0.0]
    limiter = FailureLimiter(2, 10.0, clock=lambda: now[0], max_keys=2)
    limiter.fail("a")
    now[0] = 5
    limiter.fail("a")
    assert limiter.wait_seconds("a") == 5
    now[0] = 10.5  # the first failure has left the window
    assert limiter.wait_seconds("a") == 0
    limiter.fail("b"), limiter.fail("c")  # a third address: the oldest ("a") is forgotten
    limiter.fail("a")
    assert limiter.wait_seconds("a") == 0


# -- where the PIN comes from ------------------------------------------------------------------


def test_the_pin_is_made_once_stored_privately_and_kept_across_restarts(tmp_path):
    data = tmp_path / "data"
    app = make_app(data, PIN=None)  # no PIN given: the companion makes one
    try:
        pin = ok(app.test_client().get("/api/session"))["pin"]  # the client signed in with it
    finally:
        app.extensions["companion"].close()
    assert re.fullmatch(r"\d{6}", pin)
    stored = json.loads((data / FILE_NAME).read_text())
    assert stored["pin"] == pin and len(stored["secret"]) == 64
    assert (data / FILE_NAME).stat().st_mode & 0o077 == 0  # only the companion's user reads it
    again = make_app(data, PIN=None)
    try:
        assert ok(again.test_client().get("/api/session"))["pin"] == pin
        assert pin in pin_banner(again)
    finally:
        again.extensions["companion"].close()


def test_the_pin_file_is_not_in_the_repository():
    root = Path(__file__).resolve().parents[2]
    assert not list(root.glob(f"**/{FILE_NAME}"))


def test_companion_pin_in_the_environment_sets_the_pin(data_dir, monkeypatch):
    monkeypatch.setenv("COMPANION_PIN", "kiosk-77")
    app = make_app(data_dir, PIN=None)
    try:
        guest = guest_client(app)
        error_of(guest.post("/api/session", json={"pin": "123456"}), 401)
        assert ok(guest.post("/api/session", json={"pin": " kiosk-77 "}))["pin"] == "kiosk-77"
        assert "set by COMPANION_PIN" in pin_banner(app)
    finally:
        app.extensions["companion"].close()


@pytest.mark.parametrize("bad", ["123", "with space", "x" * 33, ""])
def test_an_unusable_companion_pin_is_a_clear_error(bad):
    with pytest.raises(PinSettingError, match="PIN"):
        check_pin(bad)


def test_a_changed_pin_signs_every_device_out(data_dir):
    first = make_app(data_dir, PIN="1111")
    try:
        tablet = first.test_client()
        cookie = tablet.get_cookie(first.session_interface.get_cookie_name(first))
        assert cookie is not None
    finally:
        first.extensions["companion"].close()
    second = make_app(data_dir, PIN="2222")
    try:
        old = guest_client(second)
        old.set_cookie(cookie.key, cookie.value)
        assert ok(old.get("/api/session")) == {"signed_in": False}
    finally:
        second.extensions["companion"].close()


def test_pin_reset_on_the_console_signs_out_every_device_of_a_running_server(
    data_dir, monkeypatch, capsys
):
    app = make_app(data_dir, PIN=None)
    try:
        tablet = app.test_client()
        game = new_game(tablet)
        old_pin = ok(tablet.get("/api/session"))["pin"]
        monkeypatch.setenv("COMPANION_DATA", str(data_dir))
        monkeypatch.delenv("COMPANION_PIN", raising=False)
        assert cli_main(["pin", "reset"]) == 0
        new_pin = re.search(r"New table PIN: (\d{6})", capsys.readouterr().out).group(1)
        del old_pin  # a new PIN may repeat the old one by chance (1 in a million): the secret is new
        # The running server uses the new secret at once: the old cookie is a guest now.
        assert ok(tablet.get("/api/session")) == {"signed_in": False}
        error_of(tablet.post(f"/api/games/{game}/commands", json={"command": {
            "type": "deploy_start", "player": "red", "armies": 6}}), 401)
        assert cli_main(["pin", "show"]) == 0
        assert f"Table PIN: {new_pin}" in capsys.readouterr().out
        ok(tablet.post("/api/session", json={"pin": new_pin}))
        command(tablet, game, type="deploy_start", player="red", armies=6)
    finally:
        app.extensions["companion"].close()


def test_a_damaged_pin_file_is_replaced_and_a_read_only_folder_keeps_the_pin_in_memory(tmp_path, caplog):
    data = tmp_path / "data"
    data.mkdir()
    (data / FILE_NAME).write_text("{not json")
    creds = PinStore(data).credentials()
    assert json.loads((data / FILE_NAME).read_text())["pin"] == creds.pin
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    store = PinStore(blocked / "data")  # its folder cannot be made
    first = store.credentials()
    assert store.credentials() == first  # the same PIN for as long as the server runs
    assert "kept in memory" in caplog.text
    with pytest.raises(OSError):
        store.reset()  # `companion pin reset` says it could not, and nothing changed


@pytest.mark.parametrize("round_", range(5))
def test_two_processes_starting_at_once_agree_on_one_pin(tmp_path, round_):
    data = tmp_path / "data"
    data.mkdir()
    results: list[str] = []
    barrier = threading.Barrier(16)

    def start() -> None:
        barrier.wait()
        results.append(PinStore(data).credentials().pin)

    threads = [threading.Thread(target=start) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(results)) == 1 and results[0] == PinStore(data).credentials().pin
    assert [p.name for p in data.iterdir()] == [FILE_NAME]  # no temporary files left


def test_openapi_describes_the_session_routes(client):
    spec = ok(client.get("/api/openapi.json"))
    session = spec["paths"]["/api/session"]
    assert set(session) >= {"get", "post", "delete"}
    assert {"401", "429"} <= set(session["post"]["responses"])
    create = spec["paths"]["/api/games"]["post"]
    assert {"401", "403"} <= set(create["responses"])
    assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in create["parameters"])
