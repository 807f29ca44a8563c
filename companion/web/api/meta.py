"""``/api/health`` (is the companion up, is the tower simulated) and ``/api/openapi.json``."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from flask import Blueprint, Response, jsonify

from companion.web.api.openapi import openapi_document
from companion.web.api.runtime import runtime

bp = Blueprint("api_meta", __name__, url_prefix="/api")


def _version() -> str:
    try:
        return version("companion")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+source"


@bp.get("/health")
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
def openapi() -> Response:
    return jsonify(openapi_document())
