"""The JSON API behind the tablet UI, one blueprint per concern, all under ``/api``.

The exact contract is the "HTTP API" section of docs/CONTRACTS.md and the OpenAPI document
served at ``/api/openapi.json``. Every view is thin: parse the request, call the game service
or the tower, return JSON. Errors become ``{"error": {"kind", "message"}}`` in one place
(:mod:`companion.web.api.errors`).
"""

from __future__ import annotations

from flask import Flask


def register_api(app: Flask) -> None:
    from companion.web.api import battle, board, events, games, meta, people, stats, tower
    from companion.web.api import camera_setup

    from companion.web.api.spec import install

    install(app)  # bounded ids and Allow on 405, before any route exists
    from companion.web.api import nights, recap, review

    for module in (meta, games, battle, tower, board, stats, people, events, camera_setup, nights,
                   review, recap):
        app.register_blueprint(module.bp)
