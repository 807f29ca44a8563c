"""Statistics across games over ``games``, ``battles`` and ``readings``, as JSON-safe dicts.

Each table is read once per call (the games' JSON parsed once in Python, battles and readings
grouped by game status in SQL) and the three scopes are summed from that, so the cost grows
linearly with the log, not three times over.

Three scopes, each with the same shape (:func:`_scope`): ``"finished"`` games, ``"unfinished"``
games (marked as such: their VP are the standings so far and they have no wins), and ``"all"``.
Shared victories count as a win for every winner (``shared_wins`` says how many were shared).
Averages are ``None`` when there is nothing to average, never a made-up 0.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from collections.abc import Callable
from typing import Any, NamedTuple

from companion.store.log import GameLog

# Which game statuses belong to a scope.
_SCOPES: dict[str, Callable[[str], bool]] = {
    "finished": lambda status: status == "finished",
    "unfinished": lambda status: status != "finished",
    "all": lambda status: True,
}


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 2)


def _rate(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(part / whole, 3)


def _mean(values: list[Any]) -> float | None:
    numbers = [v for v in values if v is not None]
    return _round(sum(numbers) / len(numbers)) if numbers else None


class _Seat(NamedTuple):
    status: str
    color: str | None
    vp: Any
    light_tribe: str | None
    dark_tribe: str | None
    won: bool
    shared: bool


def _seats(conn: sqlite3.Connection) -> list[_Seat]:
    """Every seat of every game, each game's JSON read once (one pass over ``games``).

    A seat won when its colour is among the result's winners; shared when there were several.
    """
    out = []
    loads = json.loads
    for status, players, result in conn.execute("SELECT status, players, result FROM games"):
        winners = (loads(result) or {}).get("winners") or [] if result else []
        shared = len(winners) > 1
        for p in loads(players):
            colour = p.get("color")
            won = colour is not None and colour in winners
            out.append(_Seat(status, colour, p.get("vp"), p.get("light_tribe"), p.get("dark_tribe"),
                             won, won and shared))
    return out


def _colours(seats: list[_Seat], wins: bool) -> dict[str, Any]:
    groups: dict[str, list[_Seat]] = defaultdict(list)
    for seat in seats:
        if seat.color is not None:
            groups[seat.color].append(seat)
    return {
        colour: {
            "games": len(rows),
            "wins": sum(r.won for r in rows) if wins else None,
            "shared_wins": sum(r.shared for r in rows) if wins else None,
            "average_vp": _mean([r.vp for r in rows]),
        }
        for colour, rows in sorted(groups.items())
    }


def _tribes(seats: list[_Seat], wins: bool) -> dict[str, Any]:
    groups: dict[tuple[str, str], list[_Seat]] = defaultdict(list)
    for seat in seats:  # per realm: a placeholder tribe name may occur in both
        if seat.light_tribe is not None:
            groups[("light", seat.light_tribe)].append(seat)
        if seat.dark_tribe is not None:
            groups[("dark", seat.dark_tribe)].append(seat)
    out: dict[str, dict[str, Any]] = {"light": {}, "dark": {}}
    for (realm, tribe), rows in sorted(groups.items()):
        out[realm][tribe] = {
            "games": len(rows),
            "wins": sum(r.won for r in rows) if wins else None,
            "average_vp": _mean([r.vp for r in rows]),
        }
    return out


_OUTCOMES = ("fought", "attacker", "defender", "inhabitants", "tie", "tray", "into_empty")


def _battle_groups(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    """Battle outcomes per game status and stance, in one pass over ``battles``."""
    return conn.execute(
        """SELECT g.status AS status, b.stance AS stance, count(*) AS fought,
                  sum(b.winner = 'attacker') AS attacker, sum(b.winner = 'defender') AS defender,
                  sum(b.winner = 'inhabitants') AS inhabitants, sum(b.winner = 'tie') AS tie,
                  sum(b.tray_size) AS tray, sum(b.defender IS NULL) AS into_empty
             FROM battles AS b JOIN games AS g ON g.id = b.game_id
            GROUP BY g.status, b.stance ORDER BY b.stance"""
    ).fetchall()


def _battles(groups: list[sqlite3.Row], in_scope: Callable[[str], bool]) -> dict[str, Any]:
    total = dict.fromkeys(_OUTCOMES, 0)
    stances: dict[str, dict[str, int]] = {}
    for g in groups:
        if not in_scope(g["status"]):
            continue
        part = stances.setdefault(g["stance"], dict.fromkeys(_OUTCOMES, 0))
        for key in _OUTCOMES:
            total[key] += g[key]
            part[key] += g[key]

    def outcomes(r: dict[str, int]) -> dict[str, Any]:
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
        "average_tray_size": _round(total["tray"] / total["fought"]) if total["fought"] else None,
        "by_stance": {stance: outcomes(part) for stance, part in sorted(stances.items())},
    }


def _vision_groups(conn: sqlite3.Connection) -> tuple[list[sqlite3.Row], list[sqlite3.Row]]:
    """Camera readings per game status and kind of throw, and per status and cube colour.

    Per colour, a reading counts when that colour was seen by the camera or confirmed by the
    players; it was corrected when the two counts of that colour differ. json_patch merges the
    two readings: its keys are every colour seen in either of them.
    """
    kinds = conn.execute(
        """SELECT g.status AS status, r.kind AS kind, count(r.corrected) AS readings,
                  coalesce(sum(r.corrected), 0) AS corrected,
                  coalesce(sum(r.corrected IS NULL), 0) AS by_hand
             FROM readings AS r JOIN games AS g ON g.id = r.game_id
            GROUP BY g.status, r.kind ORDER BY r.kind"""
    ).fetchall()
    colours = conn.execute(
        """SELECT g.status AS status, c.key AS color, count(*) AS readings,
                  sum(coalesce(json_extract(r.confirmed, '$.' || c.key), 0)
                      <> coalesce(json_extract(r.camera, '$.' || c.key), 0)) AS corrected
             FROM readings AS r JOIN games AS g ON g.id = r.game_id,
                  json_each(json_patch(r.camera, r.confirmed)) AS c
            WHERE r.camera IS NOT NULL
            GROUP BY g.status, c.key ORDER BY c.key"""
    ).fetchall()
    return kinds, colours


def _vision(groups: tuple[list[sqlite3.Row], list[sqlite3.Row]],
            in_scope: Callable[[str], bool]) -> dict[str, Any]:
    """How often the players corrected what the camera read: overall, per kind of throw
    (battle, seeding) and per cube colour."""
    kinds, colours = groups
    keys = ("readings", "corrected", "by_hand")
    total = dict.fromkeys(keys, 0)
    by_kind: dict[str, dict[str, int]] = {}
    for g in kinds:
        if in_scope(g["status"]):
            part = by_kind.setdefault(g["kind"], dict.fromkeys(keys, 0))
            for key in keys:
                total[key] += g[key]
                part[key] += g[key]
    by_colour: dict[str, dict[str, int]] = {}
    for g in colours:
        if in_scope(g["status"]):
            part = by_colour.setdefault(g["color"], {"readings": 0, "corrected": 0})
            part["readings"] += g["readings"]
            part["corrected"] += g["corrected"]

    def outcomes(r: dict[str, int]) -> dict[str, Any]:
        return {
            "readings": r["readings"],
            "corrected": r["corrected"],
            "correction_rate": _rate(r["corrected"], r["readings"]),
            "counted_by_hand": r["by_hand"],
        }

    return {
        **outcomes(total),
        "by_kind": {kind: outcomes(part) for kind, part in sorted(by_kind.items())},
        "by_colour": {
            colour: {**part, "correction_rate": _rate(part["corrected"], part["readings"])}
            for colour, part in sorted(by_colour.items())
        },
    }


def _scope(name: str, games: list[str], seats: list[_Seat], battles: list[sqlite3.Row],
           vision: tuple[list[sqlite3.Row], list[sqlite3.Row]]) -> dict[str, Any]:
    in_scope = _SCOPES[name]
    wins = name != "unfinished"  # an unfinished game has no winner yet
    mine = [s for s in seats if in_scope(s.status)]
    return {
        "games": sum(1 for status in games if in_scope(status)),
        "average_vp": _mean([s.vp for s in mine]),
        "colours": _colours(mine, wins),
        "tribes": _tribes(mine, wins),
        "battles": _battles(battles, in_scope),
        "vision": _vision(vision, in_scope),
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
    with log.reading() as conn:  # one snapshot; each table is read once for all three scopes
        games = [r[0] for r in conn.execute("SELECT status FROM games")]
        seats = _seats(conn)
        battles = _battle_groups(conn)
        vision = _vision_groups(conn)
    scopes = {name: _scope(name, games, seats, battles, vision) for name in _SCOPES}
    return {
        "games": {
            "finished": scopes["finished"]["games"],
            "unfinished": scopes["unfinished"]["games"],
            "total": scopes["all"]["games"],
        },
        **scopes,
    }
