"""``/api/health`` (is the companion up, is the tower simulated) and ``/api/openapi.json``."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from flask import Blueprint, Response, current_app, jsonify

from companion.web.api.openapi import openapi_document
from companion.web.api.runtime import runtime
from companion.web.api.shapes import Health
from companion.web.api.spec import operation, responds

bp = Blueprint("api_meta", __name__, url_prefix="/api")


def _version() -> str:
    try:
        return version("companion")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+source"


@bp.get("/health")
@operation("Is the companion up; is the tower simulated")
@responds(200, Health, "Status.")
def health() -> Response:
    rt = runtime()
    status = rt.tower.status()
    return jsonify(
        {
            "ok": True,
            "version": _version(),
            "simulated": bool(rt.tower.simulated),
            "tower": status,
        }
    )


@bp.get("/openapi.json")
@operation("This document")
@responds(200, {"type": "object"}, "The OpenAPI 3.1 document.")
def openapi() -> Response:
    return jsonify(openapi_document(current_app))
