"""Reading a request body by hand, for the few routes that do not declare a shape.

Routes should declare their body with :func:`companion.web.api.spec.accepts` (one pydantic model
for the check and the OpenAPI description); this is what is left for code that reads a free
JSON object itself. Raises :class:`MalformedRequestError` with a sentence; nothing has changed.
"""

from __future__ import annotations

from typing import Any

from companion.messages import msg
from companion.web.api.errors import MalformedRequestError
from companion.web.api.spec import json_body


def json_object() -> dict[str, Any]:
    """The request body as a JSON object (dict)."""
    body = json_body()
    if not isinstance(body, dict):
        raise MalformedRequestError(msg("err_body_not_object"))
    return body
