"""The application factory: what it wires together, the pages, health, error shapes."""

from __future__ import annotations

import sys

from companion.config import Settings
from companion.web import create_app

from .conftest import FAST, error_of, ok


def test_runtime_objects_are_on_app_extensions(app, data_dir):
    rt = app.extensions["companion"]
    for name in ("log", "service", "tower", "hub", "readings", "counter"):
        assert getattr(rt, name) is not None
    assert (data_dir / "companion.sqlite3").is_file()
    assert app.config["DATA_DIR"] == data_dir


def test_health_says_ok_and_that_the_tower_is_simulated(client):
    health = ok(client.get("/api/health"))
    assert health["ok"] is True and health["simulated"] is True
    assert health["version"]
    assert {"camera", "gpio", "messages"} <= set(health["tower"])


def test_the_ui_pages_are_registered(client):
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"


def test_errors_outside_the_api_stay_html(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert error_of(client.get("/api/no-such-thing"), 404)["kind"] == "NotFound"


def test_without_a_tower_object_the_settings_build_a_simulated_one(tmp_path):
    data = tmp_path / "data"
    app = create_app(
        {"TESTING": True, "DATA_DIR": data, "SETTINGS": Settings(camera="synthetic", gpio="mock"), **FAST}
    )
    try:
        assert app.extensions["companion"].tower.simulated is True
        assert app.extensions["companion"].data_dir == data
    finally:
        app.extensions["companion"].close()


def test_status_page_when_the_ui_is_not_installed(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "companion.web.pages", None)  # import now fails
    app = create_app(
        {"TESTING": True, "DATA_DIR": tmp_path, "SETTINGS": Settings(camera="synthetic", gpio="mock"), **FAST}
    )
    try:
        page = app.test_client().get("/")
        assert page.status_code == 200
        assert b"SIMULATED" in page.data
    finally:
        app.extensions["companion"].close()


def test_unexpected_errors_are_json_and_readable(app, client, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(app.extensions["companion"].log, "games", broken)
    error = error_of(client.get("/api/games"), 500)
    assert error["kind"] == "InternalError" and "boom" not in error["message"]
