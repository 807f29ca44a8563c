"""Statistics across games over ``games``, ``battles`` and ``readings``, as JSON-safe dicts.

Every number is a sum of per-game parts (the games' JSON parsed in Python, battles and readings
grouped per game in SQL), kept as running totals: the first call reads each table once, later
calls only the games that changed (:mod:`companion.store.totals`).

Three scopes, each with the same shape (:func:`_scope`): ``"finished"`` games, ``"unfinished"``
games (marked as such: their VP are the standings so far and they have no wins), and ``"all"``.
Shared victories count as a win for every winner (``shared_wins`` says how many were shared).
Averages are ``None`` when there is nothing to average, never a made-up 0.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from companion.store.log import GameLog
from companion.store.totals import RunningTotals, Selection, game_stamps

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


_OUTCOMES = ("fought", "attacker", "defender", "inhabitants", "tie", "tray", "into_empty")
_KIND_KEYS = ("rows", "readings", "corrected", "by_hand")


def _parts(conn: sqlite3.Connection, games: Selection) -> dict[int, Counter]:
    """Each game's additive part of the statistics, keyed ``(table, *group, status, what)``
    (the game's status: the scopes are summed from the statuses when a report is made).

    Seats (the games' JSON parsed in Python: a seat won when its colour is among the result's
    winners, shared when there were several), battle outcomes per stance and camera readings
    per kind of throw and per colour (grouped in SQL) all go into the scopes of the game's
    status.
    """
    parts: dict[int, Counter] = defaultdict(Counter)
    statuses: dict[int, str] = {}
    loads = json.loads
    where, params = games.where("id")
    for gid, status, players, result in conn.execute(
            f"SELECT id, status, players, result FROM games WHERE {where}", params):
        statuses[gid] = status
        part = parts[gid]
        winners = (loads(result) or {}).get("winners") or [] if result else []
        for p in loads(players):
            colour, vp = p.get("color"), p.get("vp")
            won = colour is not None and colour in winners
            groups = [("seat",)]
            if colour is not None:
                groups.append(("colour", colour))
            for realm in ("light", "dark"):  # per realm: a placeholder tribe name may be in both
                if p.get(f"{realm}_tribe") is not None:
                    groups.append(("tribe", realm, p[f"{realm}_tribe"]))
            for group in groups:
                part[(*group, status, "games")] += 1
                if won:
                    part[(*group, status, "wins")] += 1
                    part[(*group, status, "shared")] += len(winners) > 1
                if vp is not None:
                    part[(*group, status, "vp")] += vp
                    part[(*group, status, "vp_n")] += 1
        part[("games", status, "n")] += 1

    where, params = games.where("game_id")
    for row in conn.execute(
            f"""SELECT game_id, stance, count(*) AS fought,
                       sum(winner = 'attacker') AS attacker, sum(winner = 'defender') AS defender,
                       sum(winner = 'inhabitants') AS inhabitants, sum(winner = 'tie') AS tie,
                       sum(tray_size) AS tray, sum(defender IS NULL) AS into_empty
                  FROM battles WHERE {where} GROUP BY game_id, stance""", params):
        if row["game_id"] in statuses:
            for key in _OUTCOMES:
                parts[row["game_id"]][("battle", row["stance"], statuses[row["game_id"]], key)] += row[key]
    # Per colour, a reading counts when that colour was seen by the camera or confirmed by the
    # players; it was corrected when the two counts differ. json_patch merges the two readings:
    # its keys are every colour seen in either of them.
    for row in conn.execute(
            f"""SELECT game_id, kind, count(*) AS rows, count(corrected) AS readings,
                       coalesce(sum(corrected), 0) AS corrected,
                       coalesce(sum(corrected IS NULL), 0) AS by_hand
                  FROM readings WHERE {where} GROUP BY game_id, kind""", params):
        if row["game_id"] in statuses:
            for key in _KIND_KEYS:
                parts[row["game_id"]][("kind", row["kind"], statuses[row["game_id"]], key)] += row[key]
    where, params = games.where("r.game_id")
    for gid, colour, readings, corrected in conn.execute(
            f"""SELECT r.game_id, c.key, count(*),
                       sum(coalesce(json_extract(r.confirmed, '$.' || c.key), 0)
                           <> coalesce(json_extract(r.camera, '$.' || c.key), 0))
                  FROM readings AS r, json_each(json_patch(r.camera, r.confirmed)) AS c
                 WHERE r.camera IS NOT NULL AND {where} GROUP BY r.game_id, c.key""", params):
        if gid in statuses:
            parts[gid][("seen", colour, statuses[gid], "readings")] += readings
            parts[gid][("seen", colour, statuses[gid], "corrected")] += corrected
    return parts


_TOTALS = RunningTotals(_parts)


def _groups(total: Counter, table: str, scope: str) -> dict[Any, dict[str, Any]]:
    """The totals of one table over the statuses of a scope, by group (the key between the
    table and the status)."""
    in_scope = _SCOPES[scope]
    out: dict[Any, dict[str, Any]] = defaultdict(lambda: defaultdict(int))
    for key, value in total.items():
        if key[0] == table and in_scope(key[-2]):
            group = key[1:-2]
            out[group[0] if len(group) == 1 else group][key[-1]] += value
    return out


def _seat_numbers(t: dict[str, Any], wins: bool, shared: bool = False) -> dict[str, Any]:
    numbers = {"games": t.get("games", 0), "wins": t.get("wins", 0) if wins else None}
    if shared:
        numbers["shared_wins"] = t.get("shared", 0) if wins else None
    numbers["average_vp"] = _round(t.get("vp", 0) / t["vp_n"]) if t.get("vp_n") else None
    return numbers


def _outcomes(r: dict[str, int]) -> dict[str, Any]:
    fought, attacker = r.get("fought", 0), r.get("attacker", 0)
    return {
        "fought": fought,
        "won_by_attacker": attacker,
        "won_by_defender": r.get("defender", 0),
        "won_by_inhabitants": r.get("inhabitants", 0),
        "ties": r.get("tie", 0),
        "attacker_win_rate": _rate(attacker, fought),
    }


def _readings(r: dict[str, int]) -> dict[str, Any]:
    return {
        "readings": r.get("readings", 0),
        "corrected": r.get("corrected", 0),
        "correction_rate": _rate(r.get("corrected", 0), r.get("readings", 0)),
        "counted_by_hand": r.get("by_hand", 0),
    }


def _scope(total: Counter, name: str) -> dict[str, Any]:
    wins = name != "unfinished"  # an unfinished game has no winner yet
    seats = _groups(total, "seat", name).get((), {})
    tribes: dict[str, dict[str, Any]] = {"light": {}, "dark": {}}
    for (realm, tribe), t in sorted(_groups(total, "tribe", name).items()):
        if t.get("games"):
            tribes[realm][tribe] = _seat_numbers(t, wins)
    stances = {s: t for s, t in sorted(_groups(total, "battle", name).items()) if t.get("fought")}
    battles = Counter()
    for t in stances.values():
        battles.update(t)
    kinds = {k: t for k, t in sorted(_groups(total, "kind", name).items()) if t.get("rows")}
    readings = Counter()
    for t in kinds.values():
        readings.update(t)
    return {
        "games": _groups(total, "games", name).get((), {}).get("n", 0),
        "average_vp": _round(seats.get("vp", 0) / seats["vp_n"]) if seats.get("vp_n") else None,
        "colours": {colour: _seat_numbers(t, wins, shared=True)
                    for colour, t in sorted(_groups(total, "colour", name).items()) if t.get("games")},
        "tribes": tribes,
        "battles": {
            **_outcomes(battles),
            "into_empty_regions": battles["into_empty"],
            "average_tray_size": _round(battles["tray"] / battles["fought"]) if battles["fought"] else None,
            "by_stance": {stance: _outcomes(t) for stance, t in stances.items()},
        },
        "vision": {
            **_readings(readings),
            "by_kind": {kind: _readings(t) for kind, t in kinds.items()},
            "by_colour": {
                colour: {"readings": t["readings"], "corrected": t.get("corrected", 0),
                         "correction_rate": _rate(t.get("corrected", 0), t["readings"])}
                for colour, t in sorted(_groups(total, "seen", name).items()) if t.get("readings")
            },
        },
    }


def statistics(log: GameLog) -> dict[str, Any]:
    """Statistics of every game in ``log`` from one consistent snapshot.

    ``{"games": {"finished", "unfinished", "total"}, "finished": S, "unfinished": S, "all": S}``
    where each ``S`` is ``{"games", "average_vp", "colours", "tribes", "battles", "vision"}``.
    Colours and tribes (``tribes[realm][tribe]``) map to ``{"games", "wins", "average_vp", …}``
    (``wins`` is ``None`` for unfinished games); ``battles`` counts outcomes overall and per
    stance; ``vision`` counts camera readings the players corrected, overall, per kind of
    throw (``battle``, ``seeding``) and per cube colour.

    Running totals (:mod:`companion.store.totals`): a call reads only the games that changed
    since the last call in this process.
    """
    with log.reading() as conn:  # one snapshot
        total = _TOTALS.sum(str(log.path), conn, game_stamps(conn))
    scopes = {name: _scope(total, name) for name in _SCOPES}
    return {
        "games": {
            "finished": scopes["finished"]["games"],
            "unfinished": scopes["unfinished"]["games"],
            "total": scopes["all"]["games"],
        },
        **scopes,
    }
