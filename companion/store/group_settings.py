"""Settings of the group, kept in the database (``settings`` table, schema v3).

=============== ======= =====================================================================
key             default meaning
=============== ======= =====================================================================
``odds``        false   show the attacker's odds on the battle screen (and keep them in the log)
``bgg_id``      null    the game's BoardGameGeek id for "Send to BG Stats"; left out when unset
``location``    null    where the group plays (BG Stats' location), optional
=============== ======= =====================================================================

Unknown keys and wrong types are refused with a sentence; nothing is changed then.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from companion.store.errors import StoreError
from companion.store.log import GameLog

DEFAULTS: dict[str, Any] = {"odds": False, "bgg_id": None, "location": None}


class InvalidSettingError(StoreError, ValueError):
    """A setting that does not exist or a value of the wrong kind."""


def _check(key: str, value: Any) -> Any:
    if key == "odds":
        if not isinstance(value, bool):
            raise InvalidSettingError("Showing the odds is either on (true) or off (false).")
        return value
    if key == "bgg_id":
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**9:
            raise InvalidSettingError(
                "The BoardGameGeek id is the whole number in the game's address on "
                "boardgamegeek.com (…/boardgame/NUMBER/…), or empty.")
        return value
    if key == "location":
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if not isinstance(value, str) or len(value.strip()) > 60:
            raise InvalidSettingError("The location is a short text (at most 60 characters).")
        return value.strip()
    raise InvalidSettingError(f"There is no group setting called {key!r}; there are "
                              f"{', '.join(DEFAULTS)}.")


def get_settings(log: GameLog) -> dict[str, Any]:
    with log.reading() as conn:
        stored = {r["key"]: json.loads(r["value"]) for r in conn.execute("SELECT key, value FROM settings")}
    return {k: stored.get(k, v) for k, v in DEFAULTS.items()}


def update_settings(log: GameLog, changes: Mapping[str, Any]) -> dict[str, Any]:
    """Change the given settings (all checked before any is written); return all of them."""
    if not isinstance(changes, Mapping):
        raise InvalidSettingError("Send the settings to change as named values.")
    clean = {k: _check(k, v) for k, v in changes.items()}
    with log._transaction(write=True) as conn:  # noqa: SLF001 — same package
        conn.executemany(
            "INSERT INTO settings (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            [(k, json.dumps(v)) for k, v in clean.items()])
    return get_settings(log)
