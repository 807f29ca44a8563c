"""Who may change the game: the table PIN, once per device, kept in a signed session cookie.

Guarantees (see docs/CONTRACTS.md, "Table PIN"):

* **Every change needs a signed-in device.** A request under ``/api/`` with any method other
  than GET, HEAD or OPTIONS is refused with **401** (:class:`PinRequiredError`) *before its view
  runs* — so it changes nothing — unless the device's session cookie says it entered the PIN.
  Exceptions: the sign-in route itself and views marked :func:`changes_nothing` (a battle
  preview computes, it stores nothing). Reading (GET) stays open: spectators watch the board,
  the battle and the statistics.
* **The cookie** is Flask's signed session cookie (itsdangerous, HMAC-SHA1 over a key derived
  from the stored secret and the PIN), ``HttpOnly``, ``SameSite=Strict``, kept for a year. A new
  PIN or secret (``companion pin reset``, a changed ``COMPANION_PIN``) makes every cookie
  invalid at once, also in a running server.
* **Guessing is slow.** After ``PIN_MAX_FAILURES`` wrong PINs (default 5) from one client
  address within ``PIN_FAILURE_WINDOW_SECONDS`` (default 60), every sign-in from that address is
  answered **429** with ``Retry-After`` — the right PIN too, so guesses teach nothing — until the
  oldest failure leaves the window. A right PIN does not clear earlier failures. A device that
  changes its address for every guess (IPv6 privacy addresses) meets the cap on all addresses
  together, ``PIN_MAX_FAILURES_ALL`` (default 6 × ``PIN_MAX_FAILURES``) in the same window:
  then new sign-ins from everywhere wait; devices already signed in are not affected.
* **The tower's own buttons** act on the server directly (GPIO), not over HTTP: they work
  whoever is signed in.

Routes: ``GET /api/session`` (signed in? and, for a signed-in device, the PIN to tell the
others), ``POST /api/session`` ``{"pin": "..."}`` (sign in), ``DELETE /api/session`` (sign out).
"""

from __future__ import annotations

import hmac
import math
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from datetime import timedelta
from typing import Annotated, Any, TypeVar

from flask import Blueprint, Flask, Response, current_app, jsonify, request, session
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer
from pydantic import Field

from companion.web.api.errors import ApiError
from companion.web.api.shapes import Answer, Request
from companion.web.api.spec import Named, Says, accepts, operation, responds
from companion.web.security import SAFE_METHODS
from companion.web.table_pin import Credentials, PinStore

EXTENSION_KEY = "companion.auth"
SESSION_LIFETIME = timedelta(days=365)
_SIGNED_IN = "table"  # the session key that marks a signed-in device
_ALL = "*"  # the key of the limiter over all addresses

DEFAULTS: dict[str, Any] = {
    "PIN_MAX_FAILURES": 5,
    "PIN_FAILURE_WINDOW_SECONDS": 60.0,
}

F = TypeVar("F", bound=Callable[..., Any])


# -- errors ----------------------------------------------------------------------------------


class AuthError(ApiError):
    """Root of the sign-in errors (their ``headers`` go out with the answer, see ApiError)."""


class PinRequiredError(AuthError):
    """A change was asked for by a device that has not entered the table PIN."""

    status = 401
    headers = {"WWW-Authenticate": 'TablePIN realm="companion"'}

    def __init__(self) -> None:
        super().__init__(
            "Enter the table PIN to change the game. Watching needs no PIN; the PIN is shown "
            "on the Pi's console and on the tower page of a tablet that is already signed in."
        )


class WrongPinError(AuthError, ValueError):
    """The PIN sent to sign in is not the table PIN."""

    status = 401
    headers = {"WWW-Authenticate": 'TablePIN realm="companion"'}

    def __init__(self) -> None:
        super().__init__("That is not the table PIN. Check it and try again.")


class TooManyPinAttemptsError(AuthError):
    """Too many wrong PINs from one address: sign-ins from it wait."""

    status = 429

    def __init__(self, retry_after: int) -> None:
        self.headers = {"Retry-After": str(retry_after)}
        super().__init__(
            f"Too many wrong PINs from this device. Wait {retry_after} seconds, then try again."
        )


# -- wrong-PIN limiter -------------------------------------------------------------------------


class FailureLimiter:
    """Counts failures per key (client address) in a sliding window. Thread-safe; remembers at
    most ``max_keys`` addresses (the oldest forgotten first), so a flood cannot fill memory."""

    def __init__(
        self, max_failures: int, window: float, clock: Callable[[], float] = time.monotonic,
        max_keys: int = 1024,
    ) -> None:
        self.max_failures = max_failures
        self.window = window
        self.clock = clock
        self.max_keys = max_keys
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def wait_seconds(self, key: str) -> int:
        """0 if ``key`` may try now, else whole seconds until it may."""
        with self._lock:
            times = self._recent(key)
            if len(times) < self.max_failures:
                return 0
            return max(1, math.ceil(times[0] + self.window - self.clock()))

    def fail(self, key: str) -> None:
        with self._lock:
            times = self._recent(key)
            times.append(self.clock())
            self._failures[key] = times
            self._failures.move_to_end(key)
            while len(self._failures) > self.max_keys:
                self._failures.popitem(last=False)

    def _recent(self, key: str) -> deque[float]:
        times = self._failures.get(key, deque())
        horizon = self.clock() - self.window
        while times and times[0] <= horizon:
            times.popleft()
        if not times:
            self._failures.pop(key, None)
        return times


# -- the session cookie ------------------------------------------------------------------------


class TableSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, keyed by the table credentials of the moment."""

    def __init__(self, store: PinStore) -> None:
        self.store = store
        self._made: tuple[Credentials, URLSafeTimedSerializer] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer:
        creds = self.store.credentials()
        made = self._made
        if made is None or made[0] is not creds:  # new credentials: a new key (reset, new PIN)
            serializer = URLSafeTimedSerializer(
                creds.signing_key,
                salt="companion-table-session",
                serializer=self.serializer,
                signer_kwargs={"key_derivation": self.key_derivation, "digest_method": self.digest_method},
            )
            made = self._made = (creds, serializer)
        return made[1]

    def get_cookie_name(self, app: Flask) -> str:
        return self.store.credentials().cookie_name


# -- wiring ------------------------------------------------------------------------------------


def changes_nothing(view: F) -> F:
    """Mark a POST view that only computes (no PIN needed, e.g. a battle preview)."""
    view.changes_nothing = True  # type: ignore[attr-defined]
    return view


def pin_store(app: Flask | None = None) -> PinStore:
    return (app or current_app).extensions[EXTENSION_KEY]["store"]


def credentials() -> Credentials:
    return pin_store().credentials()


def signed_in() -> bool:
    return session.get(_SIGNED_IN) is True


def init_auth(app: Flask) -> PinStore:
    """Install the table PIN on ``app``: the PIN store, the cookie session, the check before
    every change, the sign-in routes and the error answers. Call before other blueprints."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    override = app.config.get("PIN") or os.environ.get("COMPANION_PIN") or None
    store = PinStore(app.config["DATA_DIR"], override)
    store.credentials()  # made now, so `companion serve` can print it before the first request
    window = float(app.config["PIN_FAILURE_WINDOW_SECONDS"])
    clock = app.config.get("PIN_CLOCK") or time.monotonic
    per_address = int(app.config["PIN_MAX_FAILURES"])
    limiter = FailureLimiter(per_address, window, clock=clock)
    all_addresses = FailureLimiter(
        int(app.config.get("PIN_MAX_FAILURES_ALL") or 6 * per_address), window, clock=clock
    )
    app.extensions[EXTENSION_KEY] = {"store": store, "limiter": limiter, "limiter_all": all_addresses}
    app.session_interface = TableSessionInterface(store)
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        PERMANENT_SESSION_LIFETIME=SESSION_LIFETIME,
        SESSION_REFRESH_EACH_REQUEST=False,  # signed once at sign-in, not on every answer
    )
    app.before_request(_require_pin)
    app.register_blueprint(bp)
    return store


def _require_pin() -> None:
    if request.method in SAFE_METHODS or not request.path.startswith("/api/"):
        return
    if request.routing_exception is not None:
        return  # no such route or method: the 404 / 405 says more than a PIN prompt
    if request.endpoint is not None:
        if request.endpoint.startswith(f"{bp.name}."):
            return  # signing in and out
        view = current_app.view_functions.get(request.endpoint)
        if getattr(view, "changes_nothing", False):
            return
    if not signed_in():
        raise PinRequiredError()


# -- routes ------------------------------------------------------------------------------------

bp = Blueprint("auth", __name__, url_prefix="/api")


def _session_body() -> dict[str, Any]:
    if signed_in():
        return {"signed_in": True, "pin": credentials().pin}
    return {"signed_in": False}


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


class PinEntry(Request):
    """The table PIN, as the device's user typed it."""

    pin: Annotated[
        str, Field(min_length=1, max_length=64), Named("the PIN"), Says("text of 1 to 64 characters")
    ]


class SessionState(Answer):
    """Whether this device may change the game."""

    signed_in: bool
    pin: str | None = Field(
        None, description="The table PIN, sent to a signed-in device only (to tell the others)."
    )


@bp.get("/session")
@operation("Is this device signed in with the table PIN?")
@responds(200, SessionState, "Signed in or not; a signed-in device also gets the PIN.")
def get_session() -> Response:
    return _no_store(jsonify(_session_body()))


@bp.post("/session")
@operation(
    "Sign this device in with the table PIN",
    description="Sets the signed, HttpOnly, SameSite=Strict session cookie that every change "
    "needs. A wrong PIN answers 401; after too many wrong PINs from one address, 429 with "
    "Retry-After.",
    errors=(400, 401, 429),
)
@accepts(PinEntry)
@responds(200, SessionState, "Signed in.")
def sign_in(body: PinEntry) -> Response:
    limiter: FailureLimiter = current_app.extensions[EXTENSION_KEY]["limiter"]
    everyone: FailureLimiter = current_app.extensions[EXTENSION_KEY]["limiter_all"]
    address = request.remote_addr or "unknown"
    wait = max(limiter.wait_seconds(address), everyone.wait_seconds(_ALL))
    if wait:
        raise TooManyPinAttemptsError(wait)
    if not hmac.compare_digest(body.pin.strip().encode(), credentials().pin.encode()):
        limiter.fail(address)
        everyone.fail(_ALL)
        raise WrongPinError()
    session.clear()
    session[_SIGNED_IN] = True
    session.permanent = True
    return _no_store(jsonify(_session_body()))


@bp.delete("/session")
@operation("Sign this device out (it can still watch)")
@responds(200, SessionState, "Signed out.")
def sign_out() -> Response:
    session.clear()
    return _no_store(jsonify(_session_body()))
