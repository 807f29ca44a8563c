"""The tablet web app: Flask app factory, JSON API, live updates (and the UI's pages)."""

from companion.web.app import create_app

__all__ = ["create_app"]
