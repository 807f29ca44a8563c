"""Exports of every game: one CSV per table, one JSON document, and "Send to BG Stats" links.

CSV tables (header row, ``\\r\\n`` line ends, as spreadsheets expect):

- ``games.csv`` — one row per game: id, title, status, rounds, created/finished, winners;
- ``seats.csv`` — one row per player of a game: colour, name, person (roster id and name, empty
  when not linked), tribes, VP, rank, winner;
- ``rounds.csv`` — one row per scored round and player: the VP gained and the total after it;
- ``battles.csv`` — one row per battle (the existing :func:`companion.store.export.battles_csv`)
  plus the odds shown before it, when they were.

- ``tabletop_games.csv`` / ``tabletop_players.csv`` — the other games of the game nights
  (:mod:`companion.store.nights_report`).

The JSON document (:func:`all_json`) holds the same tables and the roster.

:func:`bgstats_url` builds BG Stats' documented ``createPlay`` link
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/): the
game's BoardGameGeek id comes from the group settings and is left out when unset — never guessed.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from companion.store.export import battles_csv
from companion.store.export_shapes import COLUMNS, createplay_url, play_date
from companion.store.log import GameLog, utc_now
from companion.store.nights_report import export_tables

EXPORT_FORMAT = "immortals-companion-all"
EXPORT_VERSION = 1
GAME_NAME = "Immortals"
TABLES = ("games", "seats", "rounds", "battles", "tabletop_games", "tabletop_players")


def _csv(header: Iterable[str], rows: Iterable[Iterable[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(list(header))
    for row in rows:
        writer.writerow(["" if v is None else v for v in row])
    return out.getvalue()


def _games(log: GameLog) -> list[dict[str, Any]]:
    with log.reading() as conn:
        rows = conn.execute("SELECT * FROM games ORDER BY id").fetchall()
    return [{"id": r["id"], "title": r["title"], "status": r["status"], "round": r["round"],
             "created_at": r["created_at"], "finished_at": r["finished_at"],
             "winners": (json.loads(r["result"]) or {}).get("winners") if r["result"] else None}
            for r in rows]


def _seats(log: GameLog) -> list[dict[str, Any]]:
    with log.reading() as conn:
        rows = conn.execute(
            """SELECT g.id AS game_id, g.status, g.result, p.key AS seat, p.value AS player,
                      s.person_id, pe.name AS person_name
                 FROM games AS g, json_each(g.players) AS p
                 LEFT JOIN seats AS s ON s.game_id = g.id
                      AND s.color = json_extract(p.value, '$.color')
                 LEFT JOIN people AS pe ON pe.id = s.person_id
                ORDER BY g.id, p.key""").fetchall()
    out = []
    for r in rows:
        player = json.loads(r["player"])
        result = json.loads(r["result"]) if r["result"] else None
        standing = next((s for s in (result or {}).get("standings") or () if s.get("color") == player.get("color")), {})
        out.append({
            "game_id": r["game_id"], "seat": int(r["seat"]) + 1, "color": player.get("color"),
            "name": player.get("name"), "person_id": r["person_id"], "person": r["person_name"],
            "light_tribe": player.get("light_tribe"), "dark_tribe": player.get("dark_tribe"),
            "vp": player.get("vp"), "rank": standing.get("rank"),
            "winner": None if result is None else player.get("color") in (result.get("winners") or []),
        })
    return out


def _rounds(log: GameLog) -> list[dict[str, Any]]:
    with log.reading() as conn:
        rows = conn.execute(
            "SELECT game_id, seq, type, payload FROM events WHERE type IN ('score_round', 'undo')"
            " ORDER BY game_id, seq").fetchall()
    undone = {(r["game_id"], json.loads(r["payload"]).get("undoes")) for r in rows if r["type"] == "undo"}
    out: list[dict[str, Any]] = []
    totals: dict[tuple[int, str], int] = {}
    for r in rows:
        if r["type"] != "score_round" or (r["game_id"], r["seq"]) in undone:
            continue
        for effect in json.loads(r["payload"]).get("effects") or ():
            if effect.get("op") != "score":
                continue
            record = effect.get("value") or {}
            for colour, b in (record.get("players") or {}).items():
                gained = int((b or {}).get("total") or 0)
                key = (r["game_id"], colour)
                totals[key] = totals.get(key, 0) + gained
                out.append({"game_id": r["game_id"], "round": record.get("round"), "color": colour,
                            "vp_gained": gained, "vp_total": totals[key]})
    return out


def _odds_by_battle(log: GameLog) -> dict[tuple[int, int], dict[str, Any]]:
    from companion.store.insights import _ODDS_BATTLES
    from companion.store.throws import sync_throws

    sync_throws(log)
    with log.reading() as conn:
        return {(r["game_id"], r["seq"]): {"odds_win": r["win"], "odds_tie": round(1 - r["win"] - r["lose"], 4),
                                           "odds_lose": r["lose"]}
                for r in conn.execute(_ODDS_BATTLES)}


def tables(log: GameLog) -> dict[str, list[dict[str, Any]]]:
    """Every table of :data:`TABLES` as lists of rows (dicts)."""
    from companion.store.nights_report import export_tables

    odds = _odds_by_battle(log)
    battles = [{**b, **odds.get((b["game_id"], b["seq"]), {})} for b in log.battles()]
    return {"games": _games(log), "seats": _seats(log), "rounds": _rounds(log), "battles": battles,
            **export_tables(log)}


def table_csv(log: GameLog, table: str) -> str:
    """One of :data:`TABLES` as CSV text. Raises ``KeyError`` for an unknown table."""
    if table == "battles":
        text = battles_csv(log)
        odds = _odds_by_battle(log)
        rows = list(csv.reader(io.StringIO(text)))
        if not rows:
            return text
        head = rows[0] + ["odds_win", "odds_tie", "odds_lose"]
        body = []
        for row in rows[1:]:
            o = odds.get((int(row[0]), int(row[1])), {})
            body.append(row + [o.get("odds_win"), o.get("odds_tie"), o.get("odds_lose")])
        return _csv(head, body)
    if table not in TABLES:
        raise KeyError(table)
    if table.startswith("tabletop_"):
        rows = export_tables(log)[table]
    else:
        rows = {"games": _games, "seats": _seats, "rounds": _rounds}[table](log)
    columns = COLUMNS[table]

    def cell(v: Any) -> Any:
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, list):  # names of people may hold spaces; colours do not
            return ("; " if table.startswith("tabletop_") else " ").join(map(str, v))
        return v

    return _csv(columns, ([cell(r[c]) for c in columns] for r in rows))


def all_json(log: GameLog) -> dict[str, Any]:
    """Every game as one JSON-safe document: the four tables and the roster."""
    from companion.store.people import roster

    return {"format": EXPORT_FORMAT, "format_version": EXPORT_VERSION, "exported_at": utc_now(),
            "people": roster(log), **tables(log)}


def bgstats_play(log: GameLog, game_id: int, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The ``data`` object of BG Stats' createPlay link for one game.

    Players with name (the roster name when linked), score (VP), winner, start player and rank;
    play date (the game's start), duration (start to finish, finished games only), location
    (setting, when set); the game's BoardGameGeek id only when the setting holds one.
    """
    summary = log.game(game_id)
    from companion.store.people import game_seats

    seats = {s["color"]: s for s in game_seats(log, game_id)}
    first = None
    events = log.events(game_id, after=0)[:1]
    if events:
        first = (events[0].payload.get("command") or {}).get("first_player")
    result = summary.result or {}
    standings = {s.get("color"): s for s in result.get("standings") or ()}
    players = []
    for p in summary.players:
        colour = p.get("color")
        person = (seats.get(colour) or {}).get("person")
        entry: dict[str, Any] = {
            "name": person["name"] if person else p.get("name") or colour,
            "score": p.get("vp"),
            "startPlayer": colour == first,
            "sourcePlayerId": f"person-{person['id']}" if person else f"game-{game_id}-{colour}",
        }
        if summary.status == "finished":
            entry["winner"] = colour in (result.get("winners") or [])
            if standings.get(colour, {}).get("rank") is not None:
                entry["rank"] = standings[colour]["rank"]
        players.append(entry)
    game: dict[str, Any] = {"name": GAME_NAME, "highestWins": True, "noPoints": False,
                            "sourceGameId": "immortals"}
    if settings.get("bgg_id"):
        game["bggId"] = int(settings["bgg_id"])
    data: dict[str, Any] = {"game": game, "playDate": play_date(summary.created_at),
                            "players": players}
    if summary.finished_at:
        start, end = datetime.fromisoformat(summary.created_at), datetime.fromisoformat(summary.finished_at)
        data["durationMin"] = max(0, round((end - start).total_seconds() / 60))
    if settings.get("location"):
        data["location"] = settings["location"]
    return data


def bgstats_url(log: GameLog, game_id: int, settings: Mapping[str, Any]) -> str:
    return createplay_url(bgstats_play(log, game_id, settings))
