"""Running totals over games, kept up to date one changed game at a time.

A statistics report sums additive parts: per game, so many seats of red, so many battles won by
the attacker in the "neutral" stance, so much luck for Anna. :class:`RunningTotals` keeps each
game's part and their sum per database; a call reads every game's *stamp* (cheap: one small
column per game) and recomputes only the parts whose stamp changed, subtracting the old part
and adding the new one. So the first statistics view after a battle reads one game, not the
whole decade of games; only the first call of a process reads everything.

Guarantee: with stamps that change whenever a game's part could change, :meth:`RunningTotals.sum`
equals the sum of ``part_of`` over every game of the snapshot it was given. The game log is
append-only and ``games.version`` counts a game's events, so ``(id, version, created_at)``
identifies what a game holds (``created_at`` tells a game of a restored or replaced database
apart from an earlier one with the same id and version); the ``throws_synced`` mark says how far
the tables derived from the events have caught up.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

#: One game's part: additive numbers under hashable keys (counts, sums).
Part = Counter
#: Computes the parts of the given games (``None``: every game) in one pass; a game with nothing
#: to add may be left out.
PartsOf = Callable[[sqlite3.Connection, "Selection"], Mapping[int, Part]]


class Selection:
    """Which games a pass reads: all of them, or a list of ids, as an SQL condition on a column.

    ``where("b.game_id")`` gives ``(sql, params)`` to append after ``WHERE``; every game is the
    plain condition ``1`` so a first pass scans each table once, as a report without totals would.
    """

    def __init__(self, ids: Sequence[int] | None) -> None:
        self.ids = None if ids is None else list(ids)

    def where(self, column: str) -> tuple[str, tuple[Any, ...]]:
        if self.ids is None:
            return "1", ()
        return f"{column} IN (SELECT value FROM json_each(?))", (json.dumps(self.ids),)


def game_stamps(conn: sqlite3.Connection) -> dict[int, Hashable]:
    """Each game's stamp: what changes whenever anything logged about it changes, or what is
    derived from its events (``throw_cubes``, ``odds_outcomes``) catches up with them."""
    return {gid: (version, created, synced) for gid, version, created, synced in conn.execute(
        """SELECT g.id, g.version, g.created_at, s.seq FROM games AS g
             LEFT JOIN throws_synced AS s ON s.game_id = g.id""")}


class RunningTotals:
    """The sum of every game's part, per database file, updated by the games that changed.

    Thread-safe: concurrent callers may both recompute, and the last one to finish keeps its
    (equally correct) state.
    """

    def __init__(self, parts_of: PartsOf) -> None:
        self._parts_of = parts_of
        self._lock = threading.Lock()
        self._state: dict[str, tuple[dict[int, tuple[Hashable, Part]], Part]] = {}

    def sum(self, key: str, conn: sqlite3.Connection, stamps: Mapping[int, Hashable]) -> Part:
        """The total over the games in ``stamps`` (read in the same snapshot as ``conn``).

        ``key`` names the database (its path). The answer is shared: never change it.
        """
        with self._lock:
            known, total = self._state.get(key, ({}, Part()))
        stale = [gid for gid, stamp in stamps.items() if gid not in known or known[gid][0] != stamp]
        gone = [gid for gid in known if gid not in stamps]
        if not stale and not gone:
            return total
        everything = len(stale) == len(stamps)
        fresh = self._parts_of(conn, Selection(None if everything else stale))
        if everything:
            parts = {gid: (stamps[gid], fresh.get(gid, Part())) for gid in stamps}
            total = Part()
            for _, part in parts.values():
                total.update(part)
        else:
            parts = dict(known)
            total = Part(total)
            for gid in (*stale, *gone):
                old = parts.pop(gid, None)
                if old is not None:
                    total.subtract(old[1])
            for gid in stale:
                part = fresh.get(gid, Part())
                parts[gid] = (stamps[gid], part)
                total.update(part)
        total = Part({k: v for k, v in total.items() if v})  # a count back at 0 is no entry
        with self._lock:
            self._state[key] = (parts, total)
        return total
