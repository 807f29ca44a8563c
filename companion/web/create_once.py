"""``Idempotency-Key`` for ``POST /api/games``: a create retried after a lost answer (Wi-Fi
drop, power cut of the Pi) returns the game the first attempt made instead of a second one.

Guarantees (the store keeps them, see :meth:`companion.store.log.GameLog.create_game_once`):

* Same key, same request → the same game, the same status (201) and the same body (the game as
  it was created), plus ``Idempotent-Replayed: true``; no game, event or notification is added.
  This holds across restarts and power cuts: the key is in the database, written in the game's
  own creation transaction.
* Same key, another request (a different game set-up) → 409 ``CreateKeyReusedError``; nothing
  is created.
* Without the header, every POST creates a game, as before.

The key is the client's choice (the new-game page sends a ``crypto.randomUUID()`` per set-up):
1 to 255 visible ASCII characters; the structured-field string form (in double quotes) is
accepted too. Anything else is a 400.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from flask import request

from companion.messages import msg
from companion.web.api.errors import MalformedRequestError

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = 255

# The OpenAPI entry of the header (for @operation(headers=...)).
HEADER_SPEC: dict[str, Any] = {
    "name": HEADER,
    "in": "header",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH,
               "pattern": r"^[!-~]+$"},
    "description": "A key the client chooses for this create (e.g. a UUID). A retry with the "
    "same key and body returns the same game (same status and body, header "
    "`Idempotent-Replayed: true`) and creates nothing; the same key with another body is 409.",
}


def create_key() -> str | None:
    """The request's ``Idempotency-Key``, checked; None when the header is absent."""
    raw = request.headers.get(HEADER)
    if raw is None:
        return None
    key = raw.strip()
    if len(key) >= 2 and key[0] == key[-1] == '"':
        key = key[1:-1]
    if not 1 <= len(key) <= MAX_KEY_LENGTH or not all("!" <= ch <= "~" for ch in key):
        raise MalformedRequestError(msg("err_idempotency_key", header=HEADER, most=MAX_KEY_LENGTH))
    return key


def fingerprint(command: Any) -> str:
    """A digest of the create request as the server understood it (key order and spacing do
    not matter)."""
    text = json.dumps(command, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()
