"""``companion pin show`` and ``companion pin reset``: the table PIN, on the Pi's own console.

Only someone at the Pi (or logged in to it) can run these: that is the trust anchor. ``reset``
makes a new PIN and a new secret in COMPANION_DATA; a running server uses them from its next
request on, so every tablet has to enter the new PIN.
"""

from __future__ import annotations

import argparse
import os

from companion.config import settings_from_env
from companion.web.table_pin import PinSettingError, PinStore


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("pin", help="show or reset the table PIN tablets need to play")
    actions = parser.add_subparsers(dest="pin_action", required=True, metavar="ACTION")
    show = actions.add_parser("show", help="print the table PIN")
    show.set_defaults(handler=_show)
    reset = actions.add_parser(
        "reset", help="make a new table PIN and sign out every tablet (also a running server's)"
    )
    reset.set_defaults(handler=_reset)


def _store() -> PinStore:
    return PinStore(settings_from_env().data_dir, os.environ.get("COMPANION_PIN") or None)


def _show(args: argparse.Namespace) -> int:
    try:
        creds = _store().credentials()
    except PinSettingError as exc:
        print(exc)
        return 2
    source = " (set by COMPANION_PIN)" if creds.from_env else ""
    print(f"Table PIN: {creds.pin}{source}")
    return 0


def _reset(args: argparse.Namespace) -> int:
    try:
        store = _store()
        creds = store.reset()
    except PinSettingError as exc:
        print(exc)
        return 2
    except OSError as exc:
        print(f"Cannot write {store.path} ({exc.strerror or exc}); the PIN is unchanged.")
        return 1
    print(f"New table PIN: {creds.pin}")
    if creds.from_env:
        print("COMPANION_PIN is set, so the server keeps using that PIN; the secret is new, so "
              "every tablet is signed out all the same.")
    print("Every tablet is signed out and has to enter the new PIN (a running server too).")
    return 0
