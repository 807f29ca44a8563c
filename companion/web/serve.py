"""``companion serve``: the production WSGI server (waitress) on PORT."""

from __future__ import annotations

import argparse
import logging

from companion.config import settings_from_env


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the tablet UI on PORT (default 8000)")
    parser.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    from waitress import serve

    from companion.web import create_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    settings = settings_from_env()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    app = create_app()
    logging.getLogger("companion").info("serving on http://%s:%d/", settings.host, settings.port)
    serve(app, host=settings.host, port=settings.port, threads=8)
    return 0
