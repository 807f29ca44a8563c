"""The data folder check at start: a folder that takes no write, or a full disk, is one sentence
naming the folder and what to do (the real read-only start is in tests/web/test_faults_start.py)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from companion.store.datadir import DataFolderFullError, DataFolderReadOnlyError, check_data_folder
from companion.store.errors import DiskFullError, ReadOnlyStorageError


def test_a_writable_folder_passes_and_keeps_no_probe(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "data"
    check_data_folder(folder)  # created on the way
    assert folder.is_dir() and list(folder.iterdir()) == []


def test_a_full_disk_at_start_names_the_folder(tmp_path: Path, monkeypatch) -> None:
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(DataFolderFullError, match="is full") as caught:
        check_data_folder(tmp_path)
    assert isinstance(caught.value, DiskFullError) and str(tmp_path) in str(caught.value)
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []  # the probe is gone


def test_a_folder_that_is_a_file_cannot_be_written(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a folder")
    with pytest.raises(DataFolderReadOnlyError, match="COMPANION_DATA") as caught:
        check_data_folder(blocker)
    assert isinstance(caught.value, ReadOnlyStorageError)
