"""Reading request bodies: the HTTP layer checks shapes only; the game checks the rules.

Each helper raises :class:`MalformedRequestError` with a sentence naming the field, so a client
that sends something odd learns exactly what to fix, and nothing has been changed yet.
"""

from __future__ import annotations

from typing import Any

from flask import request

from companion.web.api.errors import MalformedRequestError


def json_object() -> dict[str, Any]:
    """The request body as a JSON object (dict)."""
    raw = request.get_data(cache=True)
    if not raw:
        raise MalformedRequestError("The request needs a JSON body.")
    if not request.is_json:
        raise MalformedRequestError("Send the request body as JSON (Content-Type: application/json).")
    body = request.get_json(silent=True)
    if body is None:
        raise MalformedRequestError("The request body is not valid JSON.")
    if not isinstance(body, dict):
        raise MalformedRequestError("The request body must be a JSON object ({...}).")
    return body


def optional_version(body: dict[str, Any], key: str = "expected_version") -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MalformedRequestError(f'"{key}" must be a whole number of zero or more.')
    return value


def required_object(body: dict[str, Any], key: str) -> dict[str, Any]:
    value = body.get(key)
    if not isinstance(value, dict):
        raise MalformedRequestError(f'The request needs "{key}" as a JSON object.')
    return value


def counts(body: dict[str, Any], key: str = "counts") -> dict[str, int]:
    """A ``{colour: n}`` object with whole numbers ≥ 0 (colours are checked by the game)."""
    value = required_object(body, key)
    for colour, n in value.items():
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise MalformedRequestError(
                f'The count of {colour} in "{key}" must be a whole number of zero or more.'
            )
    return dict(value)
