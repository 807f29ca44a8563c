"""Errors of the HTTP layer and the one place that turns any deliberate error into JSON.

Every error answer has the same shape, ``{"error": {"kind": ClassName, "message": sentence}}``;
the sentence is in the requesting page's language when the error carries a catalogue message
(:mod:`companion.messages`; language chosen by :func:`companion.web.i18n.request_language`);
the status says what the client should do (see the "HTTP API" section of docs/CONTRACTS.md):

* 400 — the request or the move is wrong; the game is unchanged, show the message inline;
* 404 — no such game (or reading, or page);
* 409 — someone else changed the game first (or started / cancelled the count): reload;
* 503 — the camera or the buttons are not available right now: offer manual entry; or the
  disk refused the write (full, read-only): nothing was saved, the message says what to do.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.errors import CompanionError
from companion.messages import localize, msg
from companion.web.i18n import request_language

log = logging.getLogger("companion.web")


class ApiError(CompanionError):
    """Root of the errors raised by the HTTP layer itself; ``headers`` go out with the JSON
    error (``WWW-Authenticate`` of a 401, ``Retry-After`` of a 429)."""

    status = 400
    headers: dict[str, str] = {}


class MalformedRequestError(ApiError, ValueError):
    """The body is not the JSON object the endpoint expects, or a field has the wrong type."""


class NotFoundError(ApiError, ValueError):
    """The thing asked for does not exist (a reading, a photo)."""

    status = 404


F = TypeVar("F", bound=Callable[..., Any])


def not_found_is_404(error: type[Exception]) -> Callable[[F], F]:
    """A view decorator: the store's ``error`` for an unknown thing (a ``ValueError`` there, so
    400) answers 404 like an unknown game, in the error's own words (a catalogue message stays
    one, said in the device's language)."""
    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return view(*args, **kwargs)
            except error as exc:
                raise NotFoundError(*exc.args) from None

        return wrapper  # type: ignore[return-value]

    return decorate


class NoPendingBattleError(ApiError, ValueError):
    """The tray can only be counted while a battle waits for its result."""

    def __init__(self, game_id: int) -> None:
        super().__init__(msg("err_no_pending_battle", game=str(game_id)))


class StreamUnavailableError(ApiError):
    """No live-update stream can be opened right now (server busy or shutting down)."""

    status = 503


def _status_table() -> list[tuple[type[BaseException], int]]:
    """Most specific first. Imported here, not at module level, so this module stays importable
    by tools that only want the classes above."""
    from companion.hw.calibration_store import UnknownCalibrationError
    from companion.hw.errors import CountCancelledError, CountInProgressError, HardwareError, TrayNotEmptyError
    from companion.store.errors import (
        CreateKeyReusedError,
        DatabaseUnusableError,
        GameNotFoundError,
        GameUnreadableError,
        SchemaTooNewError,
        StorageError,
        VersionConflictError,
    )

    return [
        (ApiError, -1),  # carries its own status
        (GameNotFoundError, 404),
        (UnknownCalibrationError, 404),  # a saved calibration that is not (or no longer) there
        # The stored log, not the request, is at fault: a server error with the store's words.
        (GameUnreadableError, 500),
        (DatabaseUnusableError, 500),
        (SchemaTooNewError, 500),
        (StorageError, 503),  # disk full / read-only: nothing was saved; try again later
        (VersionConflictError, 409),
        (CreateKeyReusedError, 409),  # an Idempotency-Key already made another game
        (CountInProgressError, 409),  # the other press wins; the reading reaches everyone anyway
        (CountCancelledError, 409),  # someone pressed cancel: not a broken camera
        (TrayNotEmptyError, 409),  # the players clear the tray (the tablets say what lies there)
        (HardwareError, 503),  # camera/buttons not available: the UI offers manual entry
        (ValueError, 400),
        (CompanionError, 400),  # a rule said no (e.g. not your turn): the move is refused
    ]


def status_for(exc: BaseException, table: list[tuple[type[BaseException], int]]) -> int:
    from companion.hw.errors import HardwareError

    # Bad input to the hardware layer (an unknown button name) is the client's fault, not the
    # camera's: 400, not 503.
    if isinstance(exc, HardwareError) and isinstance(exc, ValueError):
        return 400
    for cls, status in table:
        if isinstance(exc, cls):
            return exc.status if status == -1 else status  # type: ignore[attr-defined]
    return 500


def error_body(kind: str, message: str) -> dict[str, Any]:
    return {"error": {"kind": kind, "message": message}}


def error_response(kind: str, message: str, status: int) -> Response:
    response = jsonify(error_body(kind, message))
    response.status_code = status
    return response


def register_error_handlers(app: Flask) -> None:
    """JSON for every deliberate error anywhere; JSON for HTTP errors under ``/api``."""
    table = _status_table()

    @app.errorhandler(CompanionError)
    def _companion_error(exc: CompanionError) -> Response:
        status = status_for(exc, table)
        if status >= 500 and status != 503:
            log.exception("unexpected companion error", exc_info=exc)
        response = error_response(type(exc).__name__, localize(exc, request_language()), status)
        response.headers.update(getattr(exc, "headers", {}))
        return response

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response | HTTPException:
        if not request.path.startswith("/api/"):
            return exc  # the pages keep Flask's HTML error pages
        keys = {404: "msg_http_404", 405: "msg_http_405", 413: "msg_http_413", 415: "msg_http_415"}
        key = keys.get(exc.code or 500)
        message = (msg(key, method=request.method).render(request_language()) if key
                   else exc.description or msg("msg_http_failed").render(request_language()))
        return error_response(type(exc).__name__, message, exc.code or 500)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> Response | Exception:
        if isinstance(exc, HTTPException):
            return _http_error(exc)
        log.exception("unexpected error while answering %s %s", request.method, request.path)
        return error_response("InternalError", msg("msg_internal").render(request_language()), 500)
