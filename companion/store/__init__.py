"""The game log: SQLite event store, replay service, statistics and exports.

``GameLog`` (:mod:`companion.store.log`) is the append-only file; ``GameService``
(:mod:`companion.store.service`) is the only object the web layer uses to change games.
Dependencies point one way: store → game.
"""

from companion.store.errors import (
    GameNotFoundError,
    StoreError,
    VersionConflictError,
)
from companion.store.log import GameLog
from companion.store.records import (
    BattleRecord,
    GameMeta,
    GameSummary,
    ReadingRecord,
    StoredEvent,
)
from companion.store.service import GameService

__all__ = [
    "BattleRecord",
    "GameLog",
    "GameMeta",
    "GameNotFoundError",
    "GameService",
    "GameSummary",
    "ReadingRecord",
    "StoreError",
    "StoredEvent",
    "VersionConflictError",
]
