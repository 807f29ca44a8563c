"""The HTTP surface's protections that hold for every request, signed in or not.

Guarantees:

* **No request forgery.** A request that may change something (any method but GET, HEAD,
  OPTIONS) whose ``Origin`` header — or, without one, whose ``Referer`` — names another origin
  than this server's own (scheme, host and port, as the request addressed it) is refused with
  **403** (:class:`CrossOriginError`) before its view runs, so it changes nothing. ``Origin:
  null`` (a sandboxed frame, a privacy-stripped form) counts as another origin. A request with
  neither header is not from a web page of another site (browsers send ``Origin`` on every
  cross-origin POST, PUT, PATCH and DELETE): scripts, the CLI and the tests are let through,
  and the table PIN still applies.
* **Headers on every answer** (pages, API, assets, errors): a Content-Security-Policy that
  allows scripts, styles, pictures and connections from this server only (no inline scripts,
  no ``eval``), forbids framing (``frame-ancestors 'none'``) and plugins;
  ``X-Content-Type-Options: nosniff``; ``Referrer-Policy: same-origin``;
  ``X-Frame-Options: DENY`` for browsers that predate ``frame-ancestors``.
* The body cap (``MAX_CONTENT_LENGTH``, 2 MiB → 413) is set in :mod:`companion.web.app`.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, request

from companion.web.api.errors import ApiError

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

# data: and blob: pictures: the board editor's previews and the camera's photos drawn locally.
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}

_DEFAULT_PORTS = {"http": "80", "https": "443"}


class CrossOriginError(ApiError):
    """A change was asked for by a page of another web site."""

    status = 403

    def __init__(self) -> None:
        super().__init__(
            "This request came from another web site and was refused. Open the companion's own "
            "page to change the game."
        )


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of ``url`` in lower case, default ports left out; None if it
    is not an http(s) address."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"  # IPv6
    if port is not None and str(port) != _DEFAULT_PORTS[scheme]:
        host = f"{host}:{port}"
    return f"{scheme}://{host}"


def own_origin() -> str | None:
    return origin_of(f"{request.scheme}://{request.host}")


def check_origin() -> None:
    """Refuse a state-changing request sent by a page of another origin (see the docstring)."""
    if request.method in SAFE_METHODS:
        return
    claimed = request.headers.get("Origin")
    if claimed is None:
        referer = request.headers.get("Referer")
        if not referer:
            return  # not sent by a web page: the PIN decides
        claimed = referer
    mine = own_origin()
    if mine is None or origin_of(claimed) != mine:
        raise CrossOriginError()


def add_headers(response: Response) -> Response:
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_security(app: Flask) -> None:
    """Install the origin check (first of the before-request hooks) and the headers."""
    app.before_request_funcs.setdefault(None, []).insert(0, check_origin)
    app.after_request(add_headers)
