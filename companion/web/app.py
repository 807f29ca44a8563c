"""The Flask application factory.

``create_app(test_config=None)`` builds one complete companion: it opens the game log at
``DATA_DIR/companion.sqlite3``, the game service on top of it and the tower (real parts on a
Pi, simulated elsewhere), wires the tower's count button to the battle counter, registers the
JSON API and the tablet pages, and starts the relay that pushes every change to every device.

``test_config`` may override any config key and these objects:

* ``DATA_DIR`` — where the database, readings and board data live (default: COMPANION_DATA);
* ``SETTINGS`` — a :class:`~companion.config.Settings` (default: from the environment);
* ``TOWER`` — a ready tower object, or a Settings to build a simulated/real one from;
* ``PIN`` — the table PIN (else ``COMPANION_PIN``, else the one stored in DATA_DIR); see
  :mod:`companion.web.auth` (``PIN_MAX_FAILURES``, ``PIN_FAILURE_WINDOW_SECONDS``);
* ``SSE_PING_SECONDS``, ``SSE_RETRY_MS``, ``SSE_MAX_CLIENTS``, ``SSE_POLL_SECONDS``,
  ``SSE_MAX_AGE_SECONDS``, ``COUNT_TIMEOUT``,
  ``TOWER_POLL_SECONDS`` — live-update and counting knobs (tests shorten them).

The runtime is at ``app.extensions["companion"]``; call ``app.extensions["companion"].close()``
(done by ``companion serve`` on shutdown) to end live streams and release the hardware.
"""

from __future__ import annotations

import dataclasses
import importlib
import logging
from pathlib import Path
from typing import Any

from flask import Flask

from companion.config import Settings, settings_from_env
from companion.web.api import register_api
from companion.web.api.counting import BattleCounter, throw_for
from companion.web.api.errors import register_error_handlers
from companion.web.api.readings import ReadingStore
from companion.web.api.runtime import EXTENSION_KEY, Runtime
from companion.web.auth import init_auth
from companion.web.live import Hub
from companion.web.security import init_security

log = logging.getLogger("companion.web")

DEFAULTS: dict[str, Any] = {
    "SSE_PING_SECONDS": 15.0,
    "SSE_RETRY_MS": 2000,
    "SSE_MAX_CLIENTS": 24,
    "SSE_POLL_SECONDS": 0.25,  # how soon a closed stream frees its thread
    "SSE_MAX_AGE_SECONDS": 60.0,  # a vanished device (no close) frees its slot by then
    "COUNT_TIMEOUT": 20.0,
    "TOWER_POLL_SECONDS": 2.0,
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,  # a board file is a few kB; refuse anything silly
}


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    # static_folder=None: the pages blueprint serves the assets under /assets/.
    app = Flask("companion.web", static_folder=None)
    app.config.from_mapping(DEFAULTS)
    config = dict(test_config or {})
    settings: Settings = config.pop("SETTINGS", None) or settings_from_env()
    data_dir = Path(config.pop("DATA_DIR", settings.data_dir))
    if data_dir != settings.data_dir:
        settings = dataclasses.replace(settings, data_dir=data_dir)
    tower_config = config.pop("TOWER", None)
    app.config.update(config)
    app.config["DATA_DIR"] = data_dir
    app.json.sort_keys = False  # keep the documented field order; also cheaper

    data_dir.mkdir(parents=True, exist_ok=True)
    init_security(app)  # origin check and headers (companion/web/security.py)
    init_auth(app)  # the table PIN, before the hardware opens: a bad PIN stops here
    rt = _build_runtime(app, settings, data_dir, tower_config)
    app.extensions[EXTENSION_KEY] = rt

    register_error_handlers(app)
    register_api(app)
    _register_pages(app)
    rt.start()
    if rt.tower.simulated:
        log.warning("no tower hardware in use: the camera picture is SIMULATED")
    return app


def _build_runtime(
    app: Flask, settings: Settings, data_dir: Path, tower_config: Any
) -> Runtime:
    from companion.store import GameLog, GameService

    game_log = GameLog(settings.database_path)
    service = GameService(game_log)
    tower = _open_tower(tower_config, settings)
    hub = Hub(
        ping_seconds=float(app.config["SSE_PING_SECONDS"]),
        retry_ms=int(app.config["SSE_RETRY_MS"]),
        max_clients=int(app.config["SSE_MAX_CLIENTS"]),
        poll_seconds=float(app.config["SSE_POLL_SECONDS"]),
        max_age_seconds=app.config["SSE_MAX_AGE_SECONDS"],
    )
    readings = ReadingStore(data_dir / "readings")
    counter = BattleCounter(
        service, tower, readings, hub, timeout=float(app.config["COUNT_TIMEOUT"])
    )
    rt = Runtime(
        settings=settings,
        data_dir=data_dir,
        log=game_log,
        service=service,
        tower=tower,
        hub=hub,
        readings=readings,
        counter=counter,
        tower_poll_seconds=float(app.config["TOWER_POLL_SECONDS"]),
    )
    tower.on_button(lambda button: counter.handle_button(button, lambda: _game_for_button(rt)))
    tower.on_status(hub.publish_tower)  # LED, device and counting changes reach every device
    return rt


def _open_tower(tower_config: Any, settings: Settings) -> Any:
    from companion.hw.tower import Tower

    if tower_config is None:
        return Tower.from_settings(settings)
    if isinstance(tower_config, Settings):
        return Tower.from_settings(tower_config)
    return tower_config  # a ready tower (tests pass a seeded simulated one)


def _game_for_button(rt: Runtime) -> int | None:
    """The game a press of the physical count button belongs to: the game a device touched
    last if it waits for a count, else the most recently changed game that does."""
    if rt.active_game is not None:
        try:
            if throw_for(rt.service.state(rt.active_game)) is not None:
                return rt.active_game
        except ValueError:
            pass  # the game vanished (e.g. a test database): look further
    for summary in sorted(rt.log.games(), key=lambda s: s.updated_at, reverse=True):
        if summary.status == "active" and throw_for(rt.service.state(summary.id)) is not None:
            return summary.id
    return None


def _register_pages(app: Flask) -> None:
    """The tablet pages belong to the UI engineer; until they exist, a tiny status page."""
    try:
        pages = importlib.import_module("companion.web.pages")
    except ModuleNotFoundError as exc:
        if exc.name != "companion.web.pages":
            raise  # a real missing dependency inside the pages module
        pages = None
    if pages is not None:
        app.register_blueprint(pages.bp)
        return

    @app.get("/")
    def status() -> str:
        simulated = app.extensions[EXTENSION_KEY].tower.simulated
        tower = "the SIMULATED tower (no camera or buttons attached)" if simulated else "the tower"
        return (
            "<!doctype html><title>Immortals tower companion</title>"
            f"<h1>Immortals tower companion</h1><p>Running with {tower}.</p>"
            '<p>API: <a href="/api/openapi.json">/api/openapi.json</a></p>'
        )
