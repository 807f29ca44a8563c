"""The game-night log in the statistics and the exports.

- :func:`report` — per game (plays, finished, shared wins, draws, game length; the Immortals
  games of the main log as one more row) and per person (plays, wins, win rate, per game; their
  Immortals games beside them, so a person's line is the whole game night);
- :func:`export_tables` — ``tabletop_games`` and ``tabletop_players`` rows for the CSV/JSON
  exports of :mod:`companion.store.export_all`;
- :func:`bgstats_play` — BG Stats' ``createPlay`` data of one game (the BoardGameGeek id only
  when one is set for that game, never guessed).

Only finished games count for wins and lengths; a live game counts as played. Averages are
``None`` when there is nothing to average, never a made-up 0. Shared wins count as a win for
every winner (``shared_wins`` says how many were shared).
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from statistics import median
from typing import Any

from companion.store.export_shapes import createplay_url, play_date
from companion.store.log import GameLog
from companion.store.nights import _linked, bgg_ids, bgg_key, get_game, minutes, night_of
from companion.store.stats import _rate


def _rows(log: GameLog) -> tuple[list[dict[str, Any]], dict[tuple[int, str], dict[str, Any]]]:
    with log.reading() as conn:
        return _rows_in(conn)


def _rows_in(conn: sqlite3.Connection) -> tuple[list[dict[str, Any]], dict[tuple[int, str], dict[str, Any]]]:
    rows = [dict(r) for r in conn.execute(
        "SELECT id, game, name, status, players, state, winners, started_at, ended_at, notes"
        " FROM tt_games WHERE status <> 'deleting' ORDER BY started_at, id")]
    return rows, _linked(conn)


def _immortals_by_person(conn: sqlite3.Connection) -> dict[int, dict[str, int]]:
    """Per person: Immortals games played and (finished) won, from the main log's seats."""
    out: dict[int, dict[str, int]] = defaultdict(lambda: {"plays": 0, "finished": 0, "wins": 0})
    for pid, colour, status, result in conn.execute(
            """SELECT coalesce(p.merged_into, p.id), s.color, g.status, g.result FROM seats AS s
                 JOIN games AS g ON g.id = s.game_id JOIN people AS p ON p.id = s.person_id"""):
        a = out[pid]
        a["plays"] += 1
        if status == "finished":
            a["finished"] += 1
            a["wins"] += colour in ((json.loads(result) or {}).get("winners") or [] if result else [])
    return out


def _immortals_games(conn: sqlite3.Connection) -> dict[str, Any] | None:
    """The Immortals games of the main log as one more row of the per-game table (length: from
    the game's creation to its end), or ``None`` when there are none."""
    g: dict[str, Any] = {"game": "immortals", "name": "Immortals", "plays": 0, "finished": 0,
                         "shared_wins": 0, "draws": 0, "minutes": []}
    for status, created, finished, result in conn.execute(
            "SELECT status, created_at, finished_at, result FROM games"):
        g["plays"] += 1
        if status != "finished":
            continue
        g["finished"] += 1
        winners = (json.loads(result) or {}).get("winners") or [] if result else []
        g["shared_wins"] += len(winners) > 1
        g["draws"] += not winners
        length = minutes(created, finished)
        if length is not None:
            g["minutes"].append(length)
    return g if g["plays"] else None


def report(log: GameLog) -> dict[str, Any]:
    """Statistics of the game-night log (see the module docstring for what counts), all read
    from one snapshot of the database."""
    with log.reading() as conn:
        rows, linked = _rows_in(conn)
        immortals = _immortals_by_person(conn)
        roster = {r[0]: r[1] for r in conn.execute("SELECT id, name FROM people WHERE merged_into IS NULL")}
        immortals_row = _immortals_games(conn)
    games: dict[str, dict[str, Any]] = {}
    people: dict[int, dict[str, Any]] = {}
    for r in rows:
        key = bgg_key(r["game"], r["name"])
        g = games.setdefault(key, {"game": r["game"], "name": r["name"], "plays": 0, "finished": 0,
                                   "shared_wins": 0, "draws": 0, "minutes": []})
        g["plays"] += 1
        finished = r["status"] == "finished"
        winners = json.loads(r["winners"]) if r["winners"] else []
        if finished:
            g["finished"] += 1
            g["shared_wins"] += len(winners) > 1
            g["draws"] += not winners
            length = minutes(r["started_at"], r["ended_at"])
            if length is not None:
                g["minutes"].append(length)
        for p in json.loads(r["players"]):
            person = linked.get((r["id"], p["key"]))
            if person is None:
                continue
            a = people.setdefault(person["id"], {"plays": 0, "finished": 0, "wins": 0, "games": {}})
            per = a["games"].setdefault(key, {"name": r["name"], "plays": 0, "finished": 0, "wins": 0})
            for target in (a, per):
                target["plays"] += 1
                if finished:
                    target["finished"] += 1
                    target["wins"] += p["key"] in winners
    out_people = []
    for pid, name in sorted(roster.items(), key=lambda kv: kv[1].lower()):
        a = people.get(pid, {"plays": 0, "finished": 0, "wins": 0, "games": {}})
        imm = immortals.get(pid, {"plays": 0, "finished": 0, "wins": 0})
        if not a["plays"] and not imm["plays"]:
            continue
        out_people.append({
            "id": pid, "name": name, "plays": a["plays"], "finished": a["finished"], "wins": a["wins"],
            "win_rate": _rate(a["wins"], a["finished"]),
            "games": [{"key": k, **v, "win_rate": _rate(v["wins"], v["finished"])}
                      for k, v in sorted(a["games"].items())],
            "immortals": {**imm, "win_rate": _rate(imm["wins"], imm["finished"])},
            "whole_night": {"plays": a["plays"] + imm["plays"], "wins": a["wins"] + imm["wins"],
                            "win_rate": _rate(a["wins"] + imm["wins"], a["finished"] + imm["finished"])},
        })
    out_games = []
    if immortals_row is not None:
        games["immortals"] = immortals_row
    for key, g in sorted(games.items(), key=lambda kv: (-kv[1]["plays"], kv[0])):
        m = g.pop("minutes")
        out_games.append({"key": key, **g,
                          "average_minutes": round(sum(m) / len(m), 1) if m else None,
                          "median_minutes": median(m) if m else None,
                          "shortest_minutes": min(m) if m else None, "longest_minutes": max(m) if m else None})
    nights = sorted({night_of(r["started_at"]) for r in rows})
    return {"games": out_games, "people": out_people, "plays": len(rows), "nights": len(nights),
            "enough_data": any(g["finished"] for g in out_games)}


# -- exports ---------------------------------------------------------------------------------------

def export_tables(log: GameLog) -> dict[str, list[dict[str, Any]]]:
    """``tabletop_games`` (one row per game) and ``tabletop_players`` (one row per player)."""
    rows, linked = _rows(log)
    games, players = [], []
    for r in rows:
        state = json.loads(r["state"])
        winners = json.loads(r["winners"]) if r["winners"] else None
        names = {}
        for seat, p in enumerate(json.loads(r["players"]), start=1):
            person = linked.get((r["id"], p["key"]))
            names[p["key"]] = person["name"] if person else p["name"]
            players.append({"game_id": r["id"], "game": r["game"], "name": r["name"], "seat": seat,
                            "player": names[p["key"]], "person_id": person["id"] if person else None,
                            "person": person["name"] if person else None,
                            "score": state["scores"].get(p["key"]),
                            "rank": (state.get("ranks") or {}).get(p["key"]),
                            "winner": None if winners is None else p["key"] in winners})
        games.append({"id": r["id"], "game": r["game"], "name": r["name"], "night": night_of(r["started_at"]),
                      "status": r["status"], "started_at": r["started_at"], "ended_at": r["ended_at"],
                      "minutes": minutes(r["started_at"], r["ended_at"]),
                      "players": [names[k] for k in names],
                      "winners": None if winners is None else [names[k] for k in winners],
                      "notes": r["notes"]})
    return {"tabletop_games": games, "tabletop_players": players}


# -- BG Stats --------------------------------------------------------------------------------------

def bgstats_play(log: GameLog, game_id: Any, location: str | None = None) -> dict[str, Any]:
    """The ``data`` object of BG Stats' createPlay link for one game-night game: players (name,
    score, winner, rank where known), play date (start), duration (start to end, finished games
    only), location when set, the game's BoardGameGeek id only when set for it."""
    g = get_game(log, game_id)
    finished = g["status"] == "finished"
    ranks = (g["state"].get("ranks") or {})
    lowest = bool(g["state"].get("lowest_wins"))
    has_points = any(p["score"] is not None for p in g["players"])
    players = []
    for p in g["players"]:
        entry: dict[str, Any] = {
            "name": p["name"],
            "sourcePlayerId": f"person-{p['person']['id']}" if p["person"] else f"night-{g['id']}-{p['key']}",
        }
        if p["score"] is not None:
            entry["score"] = p["score"]
        if finished:
            entry["winner"] = p["winner"]
            if ranks.get(p["key"]) is not None:
                entry["rank"] = ranks[p["key"]]
        players.append(entry)
    game: dict[str, Any] = {"name": g["name"], "highestWins": not lowest, "noPoints": not has_points,
                            "sourceGameId": f"night-{bgg_key(g['game'], g['name'])}"}
    bgg = bgg_ids(log).get(bgg_key(g["game"], g["name"]))
    if bgg:
        game["bggId"] = bgg
    data: dict[str, Any] = {"game": game, "playDate": play_date(g["started_at"]), "players": players}
    if finished and g["minutes"] is not None:
        data["durationMin"] = g["minutes"]
    if location:
        data["location"] = location
    return data


def bgstats_url(log: GameLog, game_id: Any, location: str | None = None) -> str:
    return createplay_url(bgstats_play(log, game_id, location))


__all__ = ["bgstats_play", "bgstats_url", "export_tables", "report"]
