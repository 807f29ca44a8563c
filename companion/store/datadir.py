"""Can the companion keep games in its data folder? Checked once when the server starts.

:func:`check_data_folder` creates the folder if needed and writes, flushes and removes a small
probe file. A folder that cannot be written (read-only file system, wrong owner) or a full disk
stops the start with one sentence on the console saying what to do — instead of a server that
shows the games and then cannot save the first move.
"""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path

from companion.store.errors import DiskFullError, ReadOnlyStorageError, StorageError


class DataFolderReadOnlyError(ReadOnlyStorageError):
    """The data folder cannot be written at start."""

    def __init__(self, folder: Path, reason: str) -> None:
        super().__init__(
            f"The data folder {folder} cannot be written ({reason}), so no game could be saved. "
            "Make it writable for the companion's user, or set COMPANION_DATA to a folder that "
            "is — for example a folder in your home."
        )
        self.folder = folder


class DataFolderFullError(DiskFullError):
    """The disk of the data folder is full at start."""

    def __init__(self, folder: Path) -> None:
        super().__init__(
            f"The disk of the data folder {folder} is full, so no game could be saved. Free some "
            "space (old backups in its 'backups' folder, or 'companion store prune-photos'), "
            "then start again."
        )
        self.folder = folder


def check_data_folder(folder: Path) -> None:
    """Create ``folder`` if missing and prove it takes a write; else a :class:`StorageError`."""
    folder = Path(folder)
    probe = folder / f".write-test-{secrets.token_hex(4)}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(probe, "wb") as fh:
            fh.write(b"companion")
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise DataFolderFullError(folder) from None
        raise DataFolderReadOnlyError(folder, exc.strerror or str(exc)) from None
    finally:
        try:
            probe.unlink(missing_ok=True)
        except OSError:
            pass
    database = folder / "companion.sqlite3"
    if database.exists() and not os.access(database, os.W_OK):
        raise DataFolderReadOnlyError(folder, f"{database.name} is read-only")


__all__ = ["DataFolderFullError", "DataFolderReadOnlyError", "StorageError", "check_data_folder"]
