"""The OpenAPI 3.1 document of the JSON API, generated from the routes' declarations
(:mod:`companion.web.api.spec`) and the shapes they name (:mod:`companion.web.api.shapes`,
:mod:`companion.web.api.shapes_stats`): the same models validate the requests.

A test checks that every registered ``/api`` route is in it with a summary, and schemathesis
(tests/web/test_fuzz.py, benchmarks/fuzz.py) checks that the server answers as it says.
"""

from __future__ import annotations

import copy
from typing import Any

from flask import Flask

from companion.web.api import spec

INFO = {
    "title": "Immortals tower companion",
    "version": "1",
    "description": "The JSON API behind the tablet UI. Errors are "
    '`{"error": {"kind", "message"}}` with 400 (bad input or a refused move: nothing '
    "changed), 401 (enter the table PIN first), 403 (another site, or a wrong PIN), 404 (no "
    "such game), 405 (method not taken here; see `Allow`), 409 (stale expected_version: "
    "reload), 413 (body too large), 429 (too many wrong PINs), 503 (camera or buttons "
    "unavailable: count by hand). Every state-changing answer carries the new state. "
    "A rejected request changes nothing.",
}


def openapi_document(app: Flask) -> dict[str, Any]:
    """A fresh document for ``app`` (callers may change it); built once per app, as the
    routes do not change after start-up."""
    cached = app.extensions.get("companion_openapi")
    if cached is None:
        cached = app.extensions["companion_openapi"] = spec.openapi_document(app, INFO)
    return copy.deepcopy(cached)
