"""Fixtures of the store tests: a fresh log file per test, with a pinned clock."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.store import GameLog


class TickingClock:
    """Deterministic timestamps: every call is one second after the previous one."""

    def __init__(self) -> None:
        self._ticks = itertools.count()

    def __call__(self) -> str:
        n = next(self._ticks)
        return f"2026-11-21T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000+00:00"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "companion.sqlite3"


@pytest.fixture
def log(db_path: Path) -> Iterator[GameLog]:
    with GameLog(db_path, clock=TickingClock()) as game_log:
        yield game_log
