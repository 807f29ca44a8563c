"""Building blocks of the OpenAPI description, shared by its modules (openapi, openapi_stats)."""

from __future__ import annotations

from typing import Any

JSON = "application/json"


def ref(name: str) -> dict[str, str]:
    """A reference to a schema of ``components``."""
    return {"$ref": f"#/components/schemas/{name}"}


def json_response(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def json_body(schema: dict[str, Any], description: str = "") -> dict[str, Any]:
    return {"required": True, "description": description, "content": {JSON: {"schema": schema}}}
