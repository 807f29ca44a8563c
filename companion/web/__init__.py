"""Flask application factory (placeholder status page until the tablet UI lands)."""

from __future__ import annotations

from typing import Any

from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    if test_config:
        app.config.update(test_config)

    @app.get("/")
    def status() -> str:
        return "<h1>Immortals tower companion</h1><p>Running with the simulated tower.</p>"

    return app
