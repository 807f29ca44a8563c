"""``companion serve``: the production WSGI server (waitress) on PORT, data in COMPANION_DATA.

Every open live-update stream holds one waitress thread for as long as the device stays
connected, so the server gets the hub's stream limit plus a reserve for ordinary requests:
a room full of tablets can never starve the API. A stream whose client closed the connection
ends within ``SSE_POLL_SECONDS`` (waitress keeps reading the channel: ``channel_request_lookahead``). waitress sends each chunk as soon as it is
produced (``send_bytes=1``), so a server-sent event leaves the Pi the moment it is published
(the option is deprecated, so it is not pinned here; tests/web/test_server.py checks the
behaviour over real HTTP instead).

On SIGTERM or Ctrl-C the live streams are closed first (each would otherwise keep its thread
until the next ping), then waitress stops, then the camera and the pins are released.
"""

from __future__ import annotations

import argparse
import logging
import signal
from typing import Any

from flask import Flask

from companion.config import settings_from_env

log = logging.getLogger("companion")

REQUEST_THREADS = 8  # threads kept free for ordinary requests, beside the live streams


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="serve the tablet UI on PORT (default 8000)")
    parser.set_defaults(handler=_serve)


def make_server(app: Flask, host: str, port: int) -> Any:
    """A waitress server for ``app`` (not yet running: call ``.run()``; ``port=0`` = any free
    port, read it back from ``.effective_port``)."""
    from waitress.server import create_server

    threads = int(app.config["SSE_MAX_CLIENTS"]) + REQUEST_THREADS
    return create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        ident="companion",
        # Keep reading a connection while its request runs, so a closed live stream is seen at
        # once (environ["waitress.client_disconnected"]) and its thread freed within a second.
        channel_request_lookahead=1,
    )


def describe_tower(app: Flask) -> str:
    tower = app.extensions["companion"].tower
    status = tower.status()
    camera = status.get("camera", "?")
    gpio = status.get("gpio", "?")
    kind = "SIMULATED tower (synthetic camera, mock buttons)" if tower.simulated else "real tower"
    return f"{kind}; camera: {camera}; buttons: {gpio}"


def pin_banner(app: Flask) -> str:
    """The console line that tells the host the table PIN (tablets need it to play)."""
    from companion.web.auth import pin_store

    creds = pin_store(app).credentials()
    source = "set by COMPANION_PIN" if creds.from_env else "`companion pin reset` makes a new one"
    return f"table PIN: {creds.pin} — enter it on a tablet to play ({source})"


def _serve(args: argparse.Namespace) -> int:
    from companion.memory import limit_heap_growth

    limit_heap_growth()  # before the first image is allocated: see companion/memory.py
    from companion.web import create_app

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    settings = settings_from_env()
    from companion.errors import CompanionError
    from companion.store.backup import backup_settings, start_maintenance
    from companion.store.datadir import check_data_folder
    from companion.store.retention import retention_settings

    try:  # a data folder that takes no writes, or a bad setting: one clear sentence, exit 2
        check_data_folder(settings.data_dir)
        backup_settings(), retention_settings()
        app = create_app({"SETTINGS": settings})
    except CompanionError as exc:
        log.error("cannot start: %s", exc)
        return 2
    runtime = app.extensions["companion"]
    try:
        server = make_server(app, settings.host, settings.port)
    except OSError as exc:
        runtime.close()
        log.error(
            "cannot listen on %s:%d (%s) — is another companion running? Set PORT to another "
            "number.", settings.host, settings.port, exc.strerror or exc,
        )
        return 2

    def stop(signum: int, _frame: object) -> None:
        log.info("stopping (signal %d): closing live updates", signum)
        runtime.hub.close()
        raise SystemExit(0)  # waitress's run() catches it and shuts its threads down

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log.info("data in %s", settings.data_dir.resolve())
    log.info("tower: %s", describe_tower(app))
    from companion.web.netaddr import addresses, console_lines, every_interface

    # Bound to every interface by default: say so, never "0.0.0.0", which no tablet can open.
    where = "every network interface" if every_interface(settings.host) else settings.host
    log.info("serving on port %s of %s", server.effective_port, where)

    for line in console_lines(addresses(settings.host, server.effective_port)):
        print(line, flush=True)  # the address to type on the tablets, and its QR code
    log.info("%s", pin_banner(app))
    # The statistics' running totals, read once while nobody is looking yet.
    from companion.store.insights import warm_up

    warm_up(runtime.log)
    # Daily backups and photo pruning on their own thread; holds the data folder's lock.
    maintenance = start_maintenance(settings.data_dir, settings.database_path, runtime.log)
    try:
        server.run()
    finally:
        maintenance.stop()
        runtime.close()
    return 0
