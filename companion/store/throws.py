"""The tower's throws, per colour, in a table the statistics can aggregate.

Every throw into the tower is an event (``seed_tower``: 7 cubes per player and 10 green into the
empty tower; ``resolve_battle``: the battle's throw). For the tower model the statistics need,
per throw and colour, what was thrown in, what the game's estimate said was inside before, and
what the tray showed. Re-deriving that from the events on every request would mean re-reading
every event of every game, so :func:`sync_throws` keeps ``throw_cubes`` up to date
incrementally: per game it remembers up to which event it has looked (``throws_synced``) and the
interior estimate there, and only reads the events after it.

``throw_cubes`` is derived data like ``battles``: the events remain the truth; deleting the two
tables' rows (in a copy of the file) and syncing again gives the same rows. A throw the players
accepted although the accounting said it could not be (``clamped``) is marked ``doubtful``: the
interior estimate before it was wrong, so the fit leaves it out.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.analysis.regression import FILL_EDGES, SIZE_EDGES
from companion.store.log import GameLog

THROW_EVENTS = ("seed_tower", "resolve_battle")
_READ_EVENTS = (*THROW_EVENTS, "attack")  # an attack is not a throw; its seq pairs odds and battles


def throw_of_event(payload: Mapping[str, Any], inside: Mapping[str, int]) -> dict[str, Any] | None:
    """``{kind, thrown, seen, inside, inside_after, doubtful}`` of a throw event, else ``None``.

    ``inside`` is the interior estimate before the event. ``thrown`` comes from the pending
    battle's ``throw``; for the seeding (and as a fallback) from the accounting itself:
    thrown = seen + change of the interior − cubes clamped (see companion.game.tower).
    """
    kind = payload.get("type")
    if kind not in THROW_EVENTS:
        return None
    if kind == "seed_tower":
        seen = dict((payload.get("command") or {}).get("tray") or {})
    else:
        seen = payload.get("reading")
        if seen is None:
            seen = (payload.get("command") or {}).get("counts") or {}
        seen = dict(seen)
    delta: dict[str, int] = {}
    for effect in payload.get("effects") or ():
        if effect.get("op") == "interior":
            delta[effect["color"]] = delta.get(effect["color"], 0) + int(effect["delta"])
    clamped = {c: int(n) for c, n in (payload.get("clamped") or {}).items()}
    battle = payload.get("battle") or {}
    thrown = dict(battle.get("throw") or {}) if kind == "resolve_battle" else {}
    colours = set(seen) | set(delta) | set(thrown) | set(clamped)
    if not thrown:
        thrown = {c: seen.get(c, 0) + delta.get(c, 0) - clamped.get(c, 0) for c in colours}
    after = {c: inside.get(c, 0) + delta.get(c, 0) for c in set(inside) | set(delta)}
    return {
        "kind": "seeding" if kind == "seed_tower" else "battle",
        "thrown": {c: n for c, n in thrown.items() if n},
        "seen": {c: n for c, n in seen.items() if n},
        "inside": {c: n for c, n in inside.items() if n},
        "inside_after": {c: n for c, n in after.items() if n},
        "doubtful": bool(clamped) or bool(payload.get("accepted_impossible")),
    }


def _stale_games(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    return conn.execute(
        """SELECT g.id, g.version, coalesce(s.seq, 0) AS done, coalesce(s.inside, '{}') AS inside,
                  s.attack AS attack
             FROM games AS g LEFT JOIN throws_synced AS s ON s.game_id = g.id
            WHERE g.version > coalesce(s.seq, 0)"""
    ).fetchall()


def sync_throws(log: GameLog) -> int:
    """Bring ``throw_cubes`` up to date with the events; return the number of throws added.

    Cheap when nothing changed (one read over the games table). Safe against concurrent callers:
    the high-water marks are re-read inside each write transaction. Works in transactions of at
    most :data:`BATCH` games, so catching up on a large old log (the first call after an
    upgrade) never holds the write lock long enough to make a move at the table wait.
    """
    added = 0
    while True:
        with log.reading() as conn:
            if not _stale_games(conn):
                return added
        added += _sync_batch(log)


BATCH = 100


def _odds_outcome(conn: sqlite3.Connection, game_id: int, seq: int, attack: int,
                  payload: Mapping[str, Any]) -> None:
    """Pair the odds kept for ``attack`` (if any) with the battle's outcome — when they were
    computed for the same sides and stance as the battle fought."""
    odds = conn.execute("SELECT * FROM odds WHERE game_id = ? AND attack_seq = ?",
                        (game_id, attack)).fetchone()
    battle = payload.get("battle") or {}
    if odds is None or (odds["attacker"], odds["defender"], odds["stance"]) != (
            battle.get("attacker"), battle.get("defender") or None, battle.get("stance")):
        return
    winner = (payload.get("result") or {}).get("winner")
    conn.execute(
        """INSERT INTO odds_outcomes (game_id, seq, attacker, defender, win, lose, winner)
           VALUES (?, ?, ?, ?, ?, ?, ?)""",
        (game_id, seq, odds["attacker"], odds["defender"], odds["win"], odds["lose"],
         "tie" if winner is None else str(winner)))


def _sync_batch(log: GameLog) -> int:
    added = 0
    with log._transaction(write=True) as conn:  # noqa: SLF001 — same package, derived data
        for game in _stale_games(conn)[:BATCH]:
            inside: dict[str, int] = json.loads(game["inside"])
            attack = game["attack"]
            rows = conn.execute(
                f"""SELECT seq, type, payload FROM events
                     WHERE game_id = ? AND seq > ? AND seq <= ?
                       AND type IN ({",".join("?" * len(_READ_EVENTS))}) ORDER BY seq""",
                (game["id"], game["done"], game["version"], *_READ_EVENTS),
            ).fetchall()
            for row in rows:
                if row["type"] == "attack":
                    attack = row["seq"]
                    continue
                payload = json.loads(row["payload"])
                if row["type"] == "resolve_battle" and attack is not None:
                    # A battle resolves the latest attack (an undone one is followed by a new one).
                    conn.execute("INSERT INTO battle_attacks (game_id, seq, attack_seq) VALUES (?, ?, ?)",
                                 (game["id"], row["seq"], attack))
                    _odds_outcome(conn, game["id"], row["seq"], attack, payload)
                throw = throw_of_event(payload, inside)
                if throw is None:
                    continue
                for colour in sorted(set(throw["thrown"]) | set(throw["inside"]) | set(throw["seen"])):
                    conn.execute(
                        """INSERT INTO throw_cubes (game_id, seq, kind, color, thrown, inside, seen,
                                                     doubtful) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                        (game["id"], row["seq"], throw["kind"], colour,
                         throw["thrown"].get(colour, 0), throw["inside"].get(colour, 0),
                         throw["seen"].get(colour, 0), int(throw["doubtful"])),
                    )
                inside = throw["inside_after"]
                added += 1
            conn.execute(
                """INSERT INTO throws_synced (game_id, seq, inside, attack) VALUES (?, ?, ?, ?)
                   ON CONFLICT (game_id) DO UPDATE
                   SET seq = excluded.seq, inside = excluded.inside, attack = excluded.attack""",
                (game["id"], game["version"], json.dumps(inside), attack),
            )
    return added


CubeTable = dict[str, list[tuple[int, ...]]]  # (thrown, inside, seen, throws, fill, size)


def _cube_counts(conn: sqlite3.Connection, since: Mapping[int, int] | None = None) -> Counter:
    """Throws per (colour, thrown, inside, seen, fill, size) — fill and size the throw's cubes
    inside and thrown of all colours, binned as the covariate model bins them — doubtful ones
    left out, and the numbers of
    throws ``("throws",)`` and of battle throws ``("battles",)``: of every row, or with ``since``
    (``{game: seq}``) only of the named games' rows after that event."""
    if since is None:
        scope, params = "", ()
    else:
        scope = ("AND game_id IN (SELECT CAST(key AS INTEGER) FROM json_each(:since))"
                 " AND seq > json_extract(:since, '$.\"' || game_id || '\"')")
        params = {"since": json.dumps({str(g): seq for g, seq in since.items()})}
    counts: Counter = Counter()
    for colour, thrown, inside, seen, fill, size, n in conn.execute(
        f"""WITH throw AS (SELECT game_id, seq, sum(inside) AS fill, sum(thrown) AS size
                             FROM throw_cubes WHERE doubtful = 0 {scope} GROUP BY game_id, seq)
            SELECT c.color, c.thrown, c.inside, c.seen, {_bin_sql("t.fill", FILL_EDGES)},
                   {_bin_sql("t.size", SIZE_EDGES)}, count(*)
              FROM throw_cubes AS c JOIN throw AS t ON t.game_id = c.game_id AND t.seq = c.seq
             WHERE c.doubtful = 0 AND c.thrown + c.inside > 0
             GROUP BY 1, 2, 3, 4, 5, 6""", params
    ):
        counts[(colour, thrown, inside, seen, fill, size)] = n
    throws, battles = conn.execute(
        f"""SELECT count(*), coalesce(sum(kind = 'battle'), 0) FROM
             (SELECT DISTINCT game_id, seq, kind FROM throw_cubes WHERE doubtful = 0 {scope})""", params
    ).fetchone()
    counts[("throws",)], counts[("battles",)] = throws, battles
    return counts


class CubeRows:
    """:func:`cube_rows` kept up to date from the rows added since the last call.

    :func:`sync_throws` only ever adds rows, for the events after a game's ``throws_synced``
    mark, so the rows added since the last call are those after the marks seen then. A mark
    that went back or vanished, or a game whose ``created_at`` changed (another file in the same
    place), means the table was rebuilt: then everything is read again.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._state: dict[str, tuple[dict[int, tuple[int, str]], Counter]] = {}

    def rows(self, key: str, conn: sqlite3.Connection) -> tuple[CubeTable, int, int]:
        """:func:`cube_rows` of ``conn``'s snapshot; ``key`` names the database (its path)."""
        marks = {gid: (seq, created) for gid, seq, created in conn.execute(
            "SELECT s.game_id, s.seq, g.created_at FROM throws_synced AS s JOIN games AS g ON g.id = s.game_id")}
        with self._lock:
            known = self._state.get(key)
        rebuilt = known is None or any(
            gid not in marks or marks[gid][1] != created or marks[gid][0] < seq
            for gid, (seq, created) in known[0].items())
        if rebuilt:
            counts = _cube_counts(conn)
        else:
            old = known[0]
            since = {gid: old[gid][0] if gid in old else 0 for gid, mark in marks.items() if old.get(gid) != mark}
            counts = known[1] + _cube_counts(conn, since) if since else known[1]
        with self._lock:
            self._state[key] = (marks, counts)
        return _table(counts)


def _bin_sql(column: str, edges: tuple[int, ...]) -> str:
    """SQL for :func:`companion.analysis.regression.bin_of` of ``column``."""
    cases = " ".join(f"WHEN {column} >= {e} THEN {e}" for e in sorted(edges, reverse=True) if e > 0)
    return f"CASE {cases} ELSE 0 END"


def _table(counts: Counter) -> tuple[CubeTable, int, int]:
    table: CubeTable = {}
    for k in sorted(k for k in counts if len(k) == 6):
        table.setdefault(k[0], []).append((k[1], k[2], k[3], counts[k], k[4], k[5]))
    return table, counts[("throws",)], counts[("battles",)]


def cube_rows(conn: sqlite3.Connection) -> tuple[CubeTable, int, int]:
    """The model's input aggregated in SQL: per colour the distinct (thrown, inside, seen) with
    how many throws showed them (doubtful throws left out), and the numbers of throws and of
    battle throws."""
    return _table(_cube_counts(conn))
