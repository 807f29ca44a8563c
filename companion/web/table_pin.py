"""The table PIN and the secret that signs the devices' session cookies, kept with the data.

Both live in ``DATA_DIR/table-pin.json`` (file mode 0600), never in the repository. Guarantees:

* **Made once.** The first :meth:`PinStore.credentials` call of an installation makes a random
  6-digit PIN and a random 256-bit secret and writes them atomically (a link of a complete
  temporary file: two processes starting at once end up with the same PIN, never a half file).
* **Reset is seen at once.** :meth:`PinStore.reset` (``companion pin reset``) replaces the file
  atomically; a running server notices the new file on its next request (it compares the file's
  inode, size and modification time) and from then on accepts only cookies signed with the new
  secret and PIN: every device is signed out.
* **The owner may set the PIN.** ``COMPANION_PIN`` (or the app's ``PIN`` config) replaces the
  stored PIN; the secret still comes from the file. Any change of the PIN in use changes the
  signing key, so devices signed in with the old PIN are signed out.
* **A read-only or full data folder does not stop the companion.** If the file cannot be
  written, a PIN and secret are kept in memory until the next start (and a warning is logged);
  a damaged file is replaced by a new one.

This module has no Flask in it: the CLI uses it too.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path

from companion.errors import CompanionError

log = logging.getLogger("companion.web")

FILE_NAME = "table-pin.json"
PIN_DIGITS = 6
MIN_PIN_LENGTH = 4
MAX_PIN_LENGTH = 32


class PinSettingError(CompanionError, ValueError):
    """The PIN the owner chose (``COMPANION_PIN``) cannot be used."""


def check_pin(pin: object) -> str:
    """``pin`` as the PIN to use: 4 to 32 characters, no spaces; else :class:`PinSettingError`."""
    if not isinstance(pin, str):
        raise PinSettingError("The table PIN must be text.")
    pin = pin.strip()
    if not MIN_PIN_LENGTH <= len(pin) <= MAX_PIN_LENGTH:
        raise PinSettingError(
            f"The table PIN (COMPANION_PIN) must have {MIN_PIN_LENGTH} to {MAX_PIN_LENGTH} "
            f"characters, not {len(pin)}."
        )
    if any(ch.isspace() or not ch.isprintable() for ch in pin):
        raise PinSettingError("The table PIN (COMPANION_PIN) may not contain spaces.")
    return pin


def new_pin() -> str:
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


@dataclass(frozen=True)
class Credentials:
    """The PIN in use, the stored secret and the installation's cookie id."""

    pin: str
    secret: str
    cookie_id: str
    from_env: bool = False  # the PIN was set by COMPANION_PIN / config, not made here

    @property
    def signing_key(self) -> bytes:
        """Signs session cookies: changes whenever the secret or the PIN changes."""
        return hashlib.sha256(f"{self.secret}\0{self.pin}".encode()).digest()

    @property
    def cookie_name(self) -> str:
        # One name per installation: two companions on one host (tests, development) do not
        # overwrite each other's cookie (cookies ignore the port).
        return f"companion_{self.cookie_id}"


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


class PinStore:
    """The credentials of one data folder (see the module docstring for the guarantees)."""

    def __init__(self, data_dir: Path, pin_override: str | None = None) -> None:
        self.path = Path(data_dir) / FILE_NAME
        self.override = check_pin(pin_override) if pin_override is not None else None
        self._lock = threading.Lock()
        self._cached: tuple[tuple[int, int, int] | None, Credentials] | None = None
        self._memory_only = False

    def credentials(self) -> Credentials:
        """The credentials in force now (made and stored on first use)."""
        with self._lock:
            stamp = _stamp(self.path)
            if self._cached is not None and self._cached[0] == stamp:
                return self._cached[1]
            if stamp is None and self._memory_only and self._cached is not None:
                return self._cached[1]
            stored = self._read() if stamp is not None else None
            if stored is None:
                stored = self._create(damaged=stamp is not None)
            creds = self._apply_override(stored)
            self._cached = (_stamp(self.path), creds)
            return creds

    def reset(self) -> Credentials:
        """A new PIN and a new secret (every device signed out); returns the credentials now in
        force (the PIN stays the owner's if ``COMPANION_PIN`` sets it). Raises ``OSError`` if
        the data folder refuses the file: then nothing changed."""
        with self._lock:
            old = self._read() if _stamp(self.path) is not None else None
            cookie_id = old.cookie_id if old else secrets.token_hex(4)
            fresh = Credentials(new_pin(), secrets.token_hex(32), cookie_id)
            self._write(fresh, replace=True)
            creds = self._apply_override(fresh)
            self._cached = (_stamp(self.path), creds)
            return creds

    # -- the file ----------------------------------------------------------------------------

    def _apply_override(self, stored: Credentials) -> Credentials:
        if self.override is None:
            return stored
        return Credentials(self.override, stored.secret, stored.cookie_id, from_env=True)

    def _read(self) -> Credentials | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            creds = Credentials(
                check_pin(data["pin"]), str(data["secret"]), str(data["cookie_id"])
            )
            if len(creds.secret) < 32 or not creds.cookie_id.isalnum():
                raise ValueError("secret too short or bad cookie id")
            return creds
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("the table PIN file %s is unreadable (%s): making a new PIN", self.path, exc)
            return None

    def _create(self, *, damaged: bool) -> Credentials:
        """New credentials, stored; if another process stored some meanwhile, theirs (the file
        is the truth: what is returned is what a re-read gives)."""
        creds = Credentials(new_pin(), secrets.token_hex(32), secrets.token_hex(4))
        try:
            # A missing file is linked into place (never overwriting one that appeared since);
            # only a damaged one is replaced.
            self._write(creds, replace=damaged)
        except OSError as exc:
            log.warning(
                "cannot store the table PIN in %s (%s): it is kept in memory until the next start",
                self.path, exc.strerror or exc,
            )
            self._memory_only = True
            return creds
        on_disk = self._read()
        return on_disk if on_disk is not None else creds

    def _write(self, creds: Credentials, *, replace: bool) -> bool:
        """Write atomically (OSError if the folder refuses); False if another process created
        the file first (only when not ``replace``)."""
        text = json.dumps(
            {"pin": creds.pin, "secret": creds.secret, "cookie_id": creds.cookie_id}, indent=1
        )
        tmp = self.path.with_name(f".{FILE_NAME}.{secrets.token_hex(4)}.tmp")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            if replace:
                os.replace(tmp, self.path)
            else:
                try:
                    os.link(tmp, self.path)  # fails if the file exists: never overwrite a PIN
                except FileExistsError:
                    return False
        finally:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass
        self._memory_only = False
        return True
