"""Statistics across games: plain SQL over ``games`` and ``battles``, returned as JSON-safe dicts.

Three scopes, each with the same shape (:func:`_scope`): ``"finished"`` games, ``"unfinished"``
games (marked as such: their VP are the standings so far and they have no wins), and ``"all"``.
Shared victories count as a win for every winner (``shared_wins`` says how many were shared).
Averages are ``None`` when there is nothing to average, never a made-up 0.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from companion.store.log import GameLog

# Fixed SQL fragments (never user input) selecting the games of a scope.
_SCOPES = {
    "finished": "g.status = 'finished'",
    "unfinished": "g.status <> 'finished'",
    "all": "1",
}

_SEATS = """
    SELECT g.id AS game, g.status AS status, g.result AS result,
           json_extract(p.value, '$.color') AS color,
           json_extract(p.value, '$.vp') AS vp,
           json_extract(p.value, '$.light_tribe') AS light_tribe,
           json_extract(p.value, '$.dark_tribe') AS dark_tribe
      FROM games AS g, json_each(g.players) AS p
     WHERE {scope}
"""

# A seat won when its colour is among the result's winners; shared when there were several.
_WON = "EXISTS (SELECT 1 FROM json_each(result, '$.winners') AS w WHERE w.value = color)"
_SHARED = f"({_WON} AND json_array_length(result, '$.winners') > 1)"


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 2)


def _rate(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(part / whole, 3)


def _colours(conn: sqlite3.Connection, scope: str, wins: bool) -> dict[str, Any]:
    rows = conn.execute(
        f"""SELECT color, count(*) AS games, avg(vp) AS average_vp,
                   sum({_WON}) AS wins, sum({_SHARED}) AS shared_wins
              FROM ({_SEATS.format(scope=scope)})
             WHERE color IS NOT NULL
             GROUP BY color ORDER BY color"""
    ).fetchall()
    return {
        r["color"]: {
            "games": r["games"],
            "wins": r["wins"] if wins else None,
            "shared_wins": r["shared_wins"] if wins else None,
            "average_vp": _round(r["average_vp"]),
        }
        for r in rows
    }


def _tribes(conn: sqlite3.Connection, scope: str, wins: bool) -> dict[str, Any]:
    rows = conn.execute(
        f"""WITH seats AS ({_SEATS.format(scope=scope)}),
                 tribes AS (
                     SELECT 'light' AS realm, light_tribe AS tribe, color, vp, result
                       FROM seats WHERE light_tribe IS NOT NULL
                     UNION ALL
                     SELECT 'dark', dark_tribe, color, vp, result
                       FROM seats WHERE dark_tribe IS NOT NULL)
            SELECT realm, tribe, count(*) AS games, avg(vp) AS average_vp, sum({_WON}) AS wins
              FROM tribes GROUP BY realm, tribe ORDER BY realm DESC, tribe"""
    ).fetchall()
    out: dict[str, dict[str, Any]] = {"light": {}, "dark": {}}
    for r in rows:  # per realm: a placeholder tribe name may occur in both
        out[r["realm"]][r["tribe"]] = {
            "games": r["games"],
            "wins": r["wins"] if wins else None,
            "average_vp": _round(r["average_vp"]),
        }
    return out


def _battles(conn: sqlite3.Connection, scope: str) -> dict[str, Any]:
    outcome = """count(*) AS fought,
                 coalesce(sum(b.winner = 'attacker'), 0) AS attacker,
                 coalesce(sum(b.winner = 'defender'), 0) AS defender,
                 coalesce(sum(b.winner = 'inhabitants'), 0) AS inhabitants,
                 coalesce(sum(b.winner = 'tie'), 0) AS tie"""
    joined = f"FROM battles AS b JOIN games AS g ON g.id = b.game_id WHERE {scope}"
    total = conn.execute(
        f"SELECT {outcome}, avg(b.tray_size) AS average_tray_size,"
        f" coalesce(sum(b.defender IS NULL), 0) AS into_empty {joined}"
    ).fetchone()
    stances = conn.execute(
        f"SELECT b.stance, {outcome} {joined} GROUP BY b.stance ORDER BY b.stance"
    ).fetchall()

    def outcomes(r: sqlite3.Row) -> dict[str, Any]:
        return {
            "fought": r["fought"],
            "won_by_attacker": r["attacker"],
            "won_by_defender": r["defender"],
            "won_by_inhabitants": r["inhabitants"],
            "ties": r["tie"],
            "attacker_win_rate": _rate(r["attacker"], r["fought"]),
        }

    return {
        **outcomes(total),
        "into_empty_regions": total["into_empty"],
        "average_tray_size": _round(total["average_tray_size"]),
        "by_stance": {r["stance"]: outcomes(r) for r in stances},
    }


def _vision(conn: sqlite3.Connection, scope: str) -> dict[str, Any]:
    """How often the players corrected what the camera read: overall, per kind of throw
    (battle, seeding) and per cube colour.

    Per colour, a reading counts when that colour was seen by the camera or confirmed by the
    players; it was corrected when the two counts of that colour differ.
    """
    joined = f"FROM readings AS r JOIN games AS g ON g.id = r.game_id WHERE {scope}"
    outcome = """count(r.corrected) AS readings, coalesce(sum(r.corrected), 0) AS corrected,
                 coalesce(sum(r.corrected IS NULL), 0) AS by_hand"""
    total = conn.execute(f"SELECT {outcome} {joined}").fetchone()
    kinds = conn.execute(f"SELECT r.kind, {outcome} {joined} GROUP BY r.kind ORDER BY r.kind")
    # json_patch merges the two readings: its keys are every colour seen in either of them.
    per_colour = conn.execute(
        f"""SELECT c.key AS color, count(*) AS readings,
                   sum(coalesce(json_extract(r.confirmed, '$.' || c.key), 0)
                       <> coalesce(json_extract(r.camera, '$.' || c.key), 0)) AS corrected
              FROM readings AS r JOIN games AS g ON g.id = r.game_id,
                   json_each(json_patch(r.camera, r.confirmed)) AS c
             WHERE {scope} AND r.camera IS NOT NULL
             GROUP BY c.key ORDER BY c.key"""
    ).fetchall()

    def outcomes(row: sqlite3.Row) -> dict[str, Any]:
        return {
            "readings": row["readings"],
            "corrected": row["corrected"],
            "correction_rate": _rate(row["corrected"], row["readings"]),
            "counted_by_hand": row["by_hand"],
        }

    return {
        **outcomes(total),
        "by_kind": {r["kind"]: outcomes(r) for r in kinds},
        "by_colour": {
            r["color"]: {
                "readings": r["readings"],
                "corrected": r["corrected"],
                "correction_rate": _rate(r["corrected"], r["readings"]),
            }
            for r in per_colour
        },
    }


def _scope(conn: sqlite3.Connection, name: str) -> dict[str, Any]:
    scope = _SCOPES[name]
    wins = name != "unfinished"  # an unfinished game has no winner yet
    row = conn.execute(
        f"SELECT count(*) AS games FROM games AS g WHERE {scope}"
    ).fetchone()
    vp = conn.execute(f"SELECT avg(vp) FROM ({_SEATS.format(scope=scope)})").fetchone()[0]
    return {
        "games": row["games"],
        "average_vp": _round(vp),
        "colours": _colours(conn, scope, wins),
        "tribes": _tribes(conn, scope, wins),
        "battles": _battles(conn, scope),
        "vision": _vision(conn, scope),
    }


def statistics(log: GameLog) -> dict[str, Any]:
    """Statistics of every game in ``log`` from one consistent snapshot.

    ``{"games": {"finished", "unfinished", "total"}, "finished": S, "unfinished": S, "all": S}``
    where each ``S`` is ``{"games", "average_vp", "colours", "tribes", "battles", "vision"}``.
    Colours and tribes (``tribes[realm][tribe]``) map to ``{"games", "wins", "average_vp", …}``
    (``wins`` is ``None`` for unfinished games); ``battles`` counts outcomes overall and per
    stance; ``vision`` counts camera readings the players corrected, overall, per kind of
    throw (``battle``, ``seeding``) and per cube colour.
    """
    with log.reading() as conn:
        scopes = {name: _scope(conn, name) for name in _SCOPES}
    return {
        "games": {
            "finished": scopes["finished"]["games"],
            "unfinished": scopes["unfinished"]["games"],
            "total": scopes["all"]["games"],
        },
        **scopes,
    }
