"""Statistics only this companion can give a group: its tower, its odds, its people.

Built on :mod:`companion.analysis` (pure statistics) over the log's tables:

- :func:`tower_report` — the tower model per colour with intervals, the fairness tests;
- :func:`interior_report` — the interior estimate with what the next throw will likely let out;
- :func:`record_odds` / :func:`battle_odds_for` — the odds shown before a battle, kept in the log;
- :func:`odds_report` — calibration of the kept odds against what happened;
- :func:`people_report` — per person: games, wins, average VP, luck, tribes, head-to-head;
- :func:`game_report` — one game: VP per round per player, luck per player.

Anything without enough data says so (``None`` values and ``enough_data: false``), never a
made-up zero. The fitted model is cached per database and number of logged throws, so a page
load costs one fit only after new battles.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from companion.analysis.fairness import test_colours
from companion.analysis.odds import DRAWS, Odds, battle_odds, calibration_of_bins, luck
from companion.analysis.tower_model import MIN_THROWS_FOR_ODDS, TowerModel, fit_tower, release_range
from companion.store.errors import GameNotFoundError
from companion.store.log import GameLog
from companion.store.nights import NIGHT_STARTS_BEFORE
from companion.store.throws import CubeRows, sync_throws
from companion.store.totals import RunningTotals, Selection, game_stamps

T = TypeVar("T")

_cache_lock = threading.Lock()
_cache: dict[str, tuple[int, TowerModel, dict[str, Any]]] = {}
_reports: dict[tuple[str, str], tuple[int, Any]] = {}
_CUBE_ROWS = CubeRows()  # the model's input, read one changed game at a time


def generation(log: GameLog) -> int:
    """A number that changes with every change the statistics read (schema v3's triggers)."""
    with log.reading() as conn:
        return int(conn.execute("SELECT n FROM stats_generation WHERE id = 1").fetchone()[0])


def cached(log: GameLog, name: str, compute: Callable[[], T]) -> T:
    """``compute()``'s answer, reused until anything it could read changed. The value is shared
    between callers: never change it."""
    key = (str(log.path), name)
    before = generation(log)
    with _cache_lock:
        hit = _reports.get(key)
    if hit is not None and hit[0] == before:
        return hit[1]
    value = compute()
    with _cache_lock:
        _reports[key] = (before, value)  # computed from data at least as new as ``before``
    return value


def tower_model(log: GameLog) -> tuple[TowerModel, dict[str, Any]]:
    """The fitted model and the fairness tests of this log's throws (cached until new throws)."""
    sync_throws(log)
    with log.reading() as conn:
        key = conn.execute("SELECT count(*) FROM throw_cubes").fetchone()[0]
        with _cache_lock:
            hit = _cache.get(str(log.path))
        if hit is not None and hit[0] == key:
            return hit[1], hit[2]
        table, throws, battles = _CUBE_ROWS.rows(str(log.path), conn)
        nights = conn.execute(  # game nights as companion.store.nights.night_of counts them
            "SELECT count(DISTINCT date(created_at, 'localtime', ?)) FROM games"
            " WHERE id IN (SELECT game_id FROM throws_synced)", (f"-{NIGHT_STARTS_BEFORE} hours",)).fetchone()[0]
    model = fit_tower(table, throws=throws, battles=battles)
    fairness = test_colours(table, nights=nights or None, pooled=model.pooled)
    with _cache_lock:
        _cache[str(log.path)] = (key, model, fairness)
    return model, fairness


def tower_report(log: GameLog) -> dict[str, Any]:
    model, fairness = tower_model(log)
    return {"enough_data": model.pooled is not None, "min_throws_for_odds": MIN_THROWS_FOR_ODDS,
            "model": model.to_dict(), "fairness": fairness}


def interior_report(model: TowerModel, interior: Mapping[str, int]) -> dict[str, Any]:
    """Per colour inside the tower (the game's estimate): how many the next throw will likely let
    out — expected and a 90 % range — from the fitted release chance; ``None`` without a fit."""
    out = {}
    enough = model.pooled is not None and model.throws >= MIN_THROWS_FOR_ODDS
    for colour, inside in sorted(interior.items()):
        if not inside:
            continue
        params = model.params(colour) if enough else None
        if params is None:
            out[colour] = {"inside": inside, "release": None, "next_out": None}
            continue
        expected, low, high = release_range(int(inside), params[1])
        out[colour] = {"inside": inside, "release": round(params[1], 4),
                       "next_out": {"expected": round(expected, 2), "low": low, "high": high, "level": 0.9}}
    return {"enough_data": enough, "basis": model.throws, "min_throws": MIN_THROWS_FOR_ODDS,
            "colours": out}


# -- odds ------------------------------------------------------------------------------------

def _odds_row(row: Any) -> dict[str, Any]:
    return {"win": row["win"], "tie": row["tie"], "lose": row["lose"], "draws": row["draws"],
            "basis": row["basis"], "attack_seq": row["attack_seq"], "version": row["version"],
            "created_at": row["created_at"]}


def battle_odds_for(log: GameLog, game_id: int, version: int, battle: Mapping[str, Any],
                    interior: Mapping[str, int]) -> dict[str, Any]:
    """The odds of the pending ``battle`` (at the game's ``version``), computed once and kept:
    the first answer for a battle is stored, every later one (another tablet, a reload) is
    the stored one. ``{"odds": None, "reason"}`` when the model cannot give odds yet."""
    with log.reading() as conn:
        attack = conn.execute(
            "SELECT max(seq) FROM events WHERE game_id = ? AND type = 'attack' AND seq <= ?",
            (game_id, version)).fetchone()[0]
        if attack is None:
            return {"odds": None, "reason": "no attack declared"}
        kept = conn.execute("SELECT * FROM odds WHERE game_id = ? AND attack_seq = ?",
                            (game_id, attack)).fetchone()
    if kept is not None:
        return {"odds": _odds_row(kept), "kept": True}
    model, _ = tower_model(log)
    if model.throws < MIN_THROWS_FOR_ODDS:
        return {"odds": None, "reason": "not enough data yet", "basis": model.throws,
                "min_throws": MIN_THROWS_FOR_ODDS}
    odds = battle_odds(model, battle["attacker"], battle.get("defender"), battle["stance"],
                       battle.get("throw") or {}, interior, draws=DRAWS)
    if odds is None:
        return {"odds": None, "reason": "not enough data yet"}
    record_odds(log, game_id, attack, version, battle, odds, model.throws)
    with log.reading() as conn:
        kept = conn.execute("SELECT * FROM odds WHERE game_id = ? AND attack_seq = ?",
                            (game_id, attack)).fetchone()
    return {"odds": _odds_row(kept), "kept": False}


def record_odds(log: GameLog, game_id: int, attack_seq: int, version: int,
                battle: Mapping[str, Any], odds: Odds, basis: int) -> None:
    """Keep the odds of a battle (the first ones win when two tablets ask at once)."""
    with log._transaction(write=True) as conn:  # noqa: SLF001 — same package
        conn.execute(
            """INSERT OR IGNORE INTO odds (game_id, attack_seq, version, attacker, defender, stance,
                   win, tie, lose, draws, basis, created_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (game_id, attack_seq, version, battle["attacker"], battle.get("defender"),
             battle["stance"], round(odds.win, 4), round(odds.tie, 4), round(odds.lose, 4),
             odds.draws, basis, log._clock()))  # noqa: SLF001


# Each kept odds row with the outcome of its battle (odds_outcomes, derived by sync_throws).
_ODDS_BATTLES = """
    SELECT game_id, seq, attacker, defender, win, lose, winner FROM odds_outcomes
"""


def odds_report(log: GameLog, enabled: bool) -> dict[str, Any]:
    """Calibration of the kept odds: per bin of predicted attacker win chance, the share won."""
    sync_throws(log)
    with log.reading() as conn:  # binned in SQL exactly as analysis.odds.bin_of does
        rows = conn.execute(
            """SELECT min(CAST(win * 10 AS INTEGER), 9) AS bin, count(*), sum(win),
                      sum(winner = 'attacker')
                 FROM odds_outcomes GROUP BY bin""").fetchall()
    bins = calibration_of_bins([tuple(r) for r in rows])
    battles = sum(b["battles"] for b in bins)
    return {"enabled": enabled, "battles": battles, "enough_data": battles > 0,
            "calibration": bins}


def _luck_by_seat(conn: Any, games: Selection) -> dict[tuple[int, str], dict[str, Any]]:
    """Per (game, colour): battles fought with kept odds, won, expected wins, luck — summed in
    SQL (as attacker: the kept chance to win; as defender: the attacker's chance to lose)."""
    where, params = games.where("game_id")
    rows = conn.execute(
        f"""SELECT game_id, attacker AS color, count(*) AS n, sum(winner = 'attacker') AS won,
                   sum(win) AS expected FROM odds_outcomes WHERE {where} GROUP BY game_id, attacker
            UNION ALL
            SELECT game_id, defender, count(*), sum(winner = 'defender'), sum(lose)
              FROM odds_outcomes WHERE defender IS NOT NULL AND {where} GROUP BY game_id, defender""",
        params * 2)
    acc: dict[tuple[int, str], list[float]] = {}
    for g, colour, n, won, expected in rows:
        a = acc.setdefault((g, colour), [0, 0, 0.0])
        a[0] += n
        a[1] += won
        a[2] += expected
    return {k: {"battles": n, "won": won, "expected": round(e, 3), "luck": round(won - e, 3)}
            for k, (n, won, e) in acc.items()}


# -- people ------------------------------------------------------------------------------------

def _seat_people(conn: Any, games: Selection) -> dict[int, dict[str, int]]:
    """Per game: the person on each colour's seat."""
    where, params = games.where("game_id")
    linked: dict[int, dict[str, int]] = defaultdict(dict)
    for game_id, colour, person_id in conn.execute(
            f"SELECT game_id, color, person_id FROM seats WHERE {where}", params):
        linked[game_id][colour] = person_id
    return linked


def _people_parts(conn: Any, games: Selection) -> dict[int, Counter]:
    """Each game's additive part of the people report, keyed ``(what, person, …)``: games,
    tribes and luck of every seat with a person; finished, wins, VP and head-to-head (who
    finished ahead of whom) of finished games."""
    linked = _seat_people(conn, games)
    where, params = games.where("id")
    rows = conn.execute(f"SELECT id, status, players, result FROM games WHERE {where}"
                        " AND id IN (SELECT game_id FROM seats)", params).fetchall()
    lucky = _luck_by_seat(conn, games)
    parts: dict[int, Counter] = defaultdict(Counter)
    for game_id, status, players, result_text in rows:  # each game's JSON parsed once
        part, seated = parts[game_id], linked[game_id]
        result = json.loads(result_text) if result_text else {}
        winners = result.get("winners") or []
        ranks = {s.get("color"): s.get("rank") for s in result.get("standings") or ()}
        placed: list[tuple[int, float | None, Any]] = []
        for p in json.loads(players):
            colour = p.get("color")
            pid = seated.get(colour)
            if pid is None:
                continue
            part[("games", pid)] += 1
            for realm in ("light", "dark"):
                if p.get(f"{realm}_tribe"):
                    part[("tribe", pid, realm, p[f"{realm}_tribe"])] += 1
            seat_luck = lucky.get((game_id, colour))
            if seat_luck and seat_luck["luck"] is not None:
                part[("luck", pid)] += seat_luck["luck"]
                part[("luck_n", pid)] += 1
            if status != "finished":
                continue
            part[("finished", pid)] += 1
            part[("wins", pid)] += colour in winners
            if p.get("vp") is not None:
                part[("vp", pid)] += p["vp"]
                part[("vp_n", pid)] += 1
            rank = ranks.get(colour)
            placed.append((pid, None if rank is None else float(rank), p.get("vp")))
        for pa, ra, va in placed:
            for pb, rb, vb in placed:
                if pa == pb:
                    continue
                # A lower rank is better; without ranks, more VP is better.
                a_key, b_key = (-ra, -rb) if ra is not None and rb is not None else (va, vb)
                if a_key is None or b_key is None:
                    continue
                part[("h2h", pa, pb, 0 if a_key > b_key else 1 if a_key == b_key else 2)] += 1
    return parts


_PEOPLE_TOTALS = RunningTotals(_people_parts)


def people_report(log: GameLog) -> dict[str, Any]:
    """Per person on the roster: games (finished / all), wins, average VP, luck (battles won
    minus expected, over battles with kept odds), favourite tribes (most games first, ties by
    name), head-to-head (finished games: how often they finished ahead of, level with, behind
    each other person).

    Running totals (:mod:`companion.store.totals`): a call reads only the games that changed
    — or whose seats changed (a rename or merge of people) — since the last call."""
    sync_throws(log)
    with log.reading() as conn:
        people = {r["id"]: {"id": r["id"], "name": r["name"], "short_name": r["short_name"]}
                  for r in conn.execute("SELECT * FROM people WHERE merged_into IS NULL")}
        linked = _seat_people(conn, Selection(None))
        stamps = {gid: (stamp, tuple(sorted(linked.get(gid, {}).items())))
                  for gid, stamp in game_stamps(conn).items()}
        total = _PEOPLE_TOTALS.sum(str(log.path), conn, stamps)
    tribes: dict[int, dict[str, list[tuple[str, int]]]] = defaultdict(lambda: {"light": [], "dark": []})
    h2h: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for key, n in total.items():
        if key[0] == "tribe":
            tribes[key[1]][key[2]].append((key[3], n))
        elif key[0] == "h2h":
            h2h[key[1]][key[2]][key[3]] = n
    out = []
    for pid, p in sorted(people.items(), key=lambda kv: kv[1]["name"].lower()):
        finished, luck_n, vp_n = (total.get((k, pid), 0) for k in ("finished", "luck_n", "vp_n"))
        out.append({
            **p,
            "games": total.get(("games", pid), 0),
            "finished": finished,
            "enough_data": finished > 0,
            "wins": total.get(("wins", pid), 0) if finished else None,
            "win_rate": round(total.get(("wins", pid), 0) / finished, 3) if finished else None,
            "average_vp": round(total.get(("vp", pid), 0) / vp_n, 2) if vp_n else None,
            "luck": round(total.get(("luck", pid), 0.0), 3) if luck_n else None,
            "luck_games": luck_n,
            "favourite_tribes": {realm: [{"tribe": t, "games": n} for t, n in
                                         sorted(tribes[pid][realm], key=lambda tn: (-tn[1], tn[0]))[:3]]
                                 for realm in ("light", "dark")},
            "head_to_head": [{"person": other, "name": people[other]["name"], "ahead": h[0],
                              "level": h[1], "behind": h[2]}
                             for other, h in sorted(h2h[pid].items()) if other in people],
        })
    return {"people": out, "enough_data": any(p["enough_data"] for p in out)}


def warm_up(log: GameLog) -> threading.Thread:
    """Read the whole log once on a background thread, so the running totals and the tower's
    input are in memory before the first statistics view after a start (reading a decade of
    games takes about a second; after that a view reads only what changed). Never raises: a
    failure is logged and the first view reads instead."""
    from companion.store.stats import statistics

    def run() -> None:
        try:
            tower_model(log)
            statistics(log)
            people_report(log)
        except Exception:  # noqa: BLE001 — a warm-up must never take the server down
            logging.getLogger("companion.store").exception("statistics warm-up failed")

    thread = threading.Thread(target=run, name="statistics-warm-up", daemon=True)
    thread.start()
    return thread


# -- one game ----------------------------------------------------------------------------------

def game_report(log: GameLog, game_id: int) -> dict[str, Any]:
    """VP after each scored round per player (undone scorings left out), and luck per player."""
    summary = log.game(game_id)  # GameNotFoundError for an unknown game
    sync_throws(log)
    with log.reading() as conn:
        rows = conn.execute(
            """SELECT seq, type, payload FROM events WHERE game_id = ?
                 AND type IN ('score_round', 'undo') ORDER BY seq""", (game_id,)).fetchall()
        people = {r["color"]: {"id": r["id"], "name": r["name"]} for r in conn.execute(
            "SELECT s.color, p.id, p.name FROM seats AS s JOIN people AS p ON p.id = s.person_id"
            " WHERE s.game_id = ?", (game_id,))}
        lucky = _luck_by_seat(conn, Selection([game_id]))
    events = [(r["seq"], r["type"], json.loads(r["payload"])) for r in rows]
    undone = {p.get("undoes") for _, t, p in events if t == "undo"}
    rounds: list[dict[str, Any]] = []
    totals: dict[str, int] = defaultdict(int)
    for seq, kind, payload in events:
        if kind != "score_round" or seq in undone:
            continue
        for effect in payload.get("effects") or ():
            if effect.get("op") != "score":
                continue
            record = effect.get("value") or {}
            for colour, b in (record.get("players") or {}).items():
                totals[colour] += int((b or {}).get("total") or 0)
            rounds.append({"round": record.get("round"), "vp": dict(totals),
                           "gained": {c: int((b or {}).get("total") or 0)
                                      for c, b in (record.get("players") or {}).items()}})
    players = [{"color": p.get("color"), "name": p.get("name"), "person": people.get(p.get("color")),
                "vp": p.get("vp"), "luck": lucky.get((game_id, p.get("color")), luck([]))}
               for p in summary.players]
    return {"id": game_id, "title": summary.title, "status": summary.status,
            "enough_data": bool(rounds), "rounds": rounds, "players": players}


__all__ = ["GameNotFoundError", "battle_odds_for", "game_report", "interior_report",
           "odds_report", "people_report", "record_odds", "tower_model", "tower_report", "warm_up"]
