"""Errors of the game log, one class per way of being wrong.

Everything derives from :class:`StoreError` (itself a :class:`~companion.errors.CompanionError`).
Errors caused by what a caller sent (an unknown game, an event that is not JSON) also subclass
:class:`ValueError`. A stale ``expected_version`` is not bad input — the request was fine when it
was made — so :class:`VersionConflictError` is *not* a ``ValueError``; the web layer answers 409.
Every message is a sentence a player understands.
"""

from __future__ import annotations

from companion.errors import CompanionError


class StoreError(CompanionError):
    """Root of every deliberate error of ``companion.store``."""


class GameNotFoundError(StoreError, ValueError):
    """No game with this id exists in the log."""

    def __init__(self, game_id: object) -> None:
        super().__init__(f"There is no game number {game_id}. It may have been typed wrongly.")
        self.game_id = game_id


class VersionConflictError(StoreError):
    """Someone else changed the game first: the caller's ``expected_version`` is stale.

    ``expected`` is the version the caller acted on, ``actual`` the version in the log. Nothing was
    written; the caller should reload the game and decide again.

    ``changes`` (when given) is a sentence naming what changed in between, e.g. "Red was
    corrected to 5 on another tablet — check and apply again."; it becomes the message.
    """

    def __init__(
        self, game_id: int, expected: int, actual: int, changes: str | None = None
    ) -> None:
        super().__init__(
            changes
            or "Someone else changed this game a moment ago "
            f"(you saw step {expected}, the game is now at step {actual}). "
            "Reload the game and try again."
        )
        self.changes = changes
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class InvalidEventError(StoreError, ValueError):
    """An event that cannot be stored: not a dict, no ``type``, or not representable as JSON."""


class InvalidVersionError(StoreError, ValueError):
    """An ``expected_version`` that is not a whole number ≥ 0."""


class InvalidTitleError(StoreError, ValueError):
    """A game title that is empty or too long."""


class CreateKeyReusedError(StoreError, ValueError):
    """A create key (``Idempotency-Key``) already made a game from a different request."""

    def __init__(self, game_id: int) -> None:
        super().__init__(
            f"This request key already started game number {game_id} with other details. "
            "Use a new key for a new game (reload the page and start again)."
        )
        self.game_id = game_id


class InvalidRecordError(StoreError, ValueError):
    """A game summary or battle record with a missing or malformed field."""


class GameUnreadableError(StoreError):
    """A stored game cannot be rebuilt by replaying its events with the rules of this version.

    Nothing is changed; the events stay in the file (an older or newer companion, or a fixed
    one, may read them). Not bad input — the request was fine — so not a ``ValueError``.
    """

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(
            f"Game number {game_id} cannot be rebuilt from its saved moves by this version of "
            f"the companion ({reason}). Its moves are kept safe; export the game and report it."
        )
        self.game_id = game_id
        self.reason = reason


class DatabaseUnusableError(StoreError):
    """The database file cannot be opened safely (not SQLite, read-only, no write-ahead log)."""


class SchemaTooNewError(StoreError):
    """The database file was written by a newer version of the companion.

    Opening it with this version could damage it, so it is refused and left untouched.
    """

    def __init__(self, found: int, supported: int) -> None:
        super().__init__(
            f"The game database was made by a newer companion (format {found}; this one knows up "
            f"to {supported}). Update the companion before opening it."
        )
        self.found = found
        self.supported = supported


class StorageError(StoreError):
    """The disk refused to store a change. Nothing of it was saved (the transaction was rolled
    back), nothing confirmed before is lost; the game goes on once the disk takes writes again.
    Not bad input, so not a ``ValueError``: the web layer answers 503."""


class DiskFullError(StorageError):
    """The disk (or the database's size limit) is full."""

    def __init__(self, message: object = None) -> None:
        from companion.messages import msg

        super().__init__(message or msg("err_storage_full"))


class ReadOnlyStorageError(StorageError):
    """The data folder or the database file has become read-only."""

    def __init__(self, message: object = None) -> None:
        from companion.messages import msg

        super().__init__(message or msg("err_storage_read_only"))
