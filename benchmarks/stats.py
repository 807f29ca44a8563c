"""Speed of the statistics (issue 15): ``python -m benchmarks.stats [--games 100 5000]``.

Generates a game log of N five-player games (a seeding throw, ~16 battles with odds kept, five
scored rounds, everyone on the roster) with a simulated tower of known behaviour (60 % of thrown
cubes land at once, 20 % of the interior comes out), then times, in this process:

- the first statistics call after the log was written (syncs the throws table and fits the
  model; once after new battles) and the steady state (median of 20 calls) of every statistics
  function the API serves, plus the whole ``GET /api/stats*`` set through Flask's test client;
- the odds of one battle (10 000 Monte Carlo draws), median of 200, beside the baseline of a
  plain-Python loop over the same draws.

Then (issue 23) the power and false-alarm rates of the verdicts on towers simulated apart from the
model (``--groups`` per line): a fair tower, a fair tower whose chances depend on its fill, a
tower holding red back 10 % at the throws the page names and after one night, black's first
battle odds.

Bars (issue 15): statistics page and API ≤ 100 ms with 100 games, ≤ 500 ms with 5 000; odds ≤
50 ms. Prints numbers; never fails on them. ``generate_log`` is also used by the tests.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.timing import median_max_ms

PLAYERS = ("red", "blue", "yellow", "purple", "black")
NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo")
LIGHT = ("elves", "dwarves", "light-tribe-3", "light-tribe-4", "light-tribe-5")
DARK = ("demons", "orcs", "necromancers", "night_elves", "trolls")
STANCES = ("for_attacker", "neutral", "against_attacker")
T0 = "2026-01-01T19:00:00.000+00:00"


def _winner(a: int, d: int | None, g: int, stance: str) -> str:
    if d is None:
        if stance != "against_attacker":
            return "attacker" if a >= 1 else "inhabitants"
        return "attacker" if a > g else "inhabitants"
    s_a = a + (g if stance == "for_attacker" else 0)
    s_d = d + (g if stance == "against_attacker" else 0)
    return "attacker" if s_a > s_d else "defender" if s_d > s_a else "tie"


def generate_log(path: Path, games: int, *, seed: int = 1, battles: int = 16, land: float = 0.6,
                 release: float = 0.2, land_of: dict[str, float] | None = None,
                 odds: bool = True, people: bool = True, finish: bool = True) -> Path:
    """Write ``games`` games into a new or existing companion database at ``path`` (schema by
    GameLog; the roster's people once), in one transaction through SQLite's own triggers (the append-only checks hold). Event payloads
    have the shape the engine writes (the fields the statistics read)."""
    from companion.analysis.odds import battle_odds
    from companion.analysis.tower_model import ColourFit, Interval, TowerModel
    from companion.store import GameLog

    GameLog(path).close()
    rng = np.random.default_rng(seed)
    pick = random.Random(seed)
    land_of = dict(land_of or {})
    truth = TowerModel({c: ColourFit(Interval(land_of.get(c, land), 0, 1), Interval(release, 0, 1), 1, 1, 1, 0.0)
                        for c in (*PLAYERS, "green")}, None, 1, 1,
                       {c: (land_of.get(c, land), release) for c in (*PLAYERS, "green")})
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    if people:
        conn.executemany("INSERT OR IGNORE INTO people (name, short_name, created_at) VALUES (?, ?, ?)",
                         [(n, n[:2], T0) for n in NAMES])
    for _ in range(games):
        seats = [{"color": c, "name": n, "light_tribe": lt, "dark_tribe": dt, "vp": 0}
                 for c, n, lt, dt in zip(PLAYERS, pick.sample(NAMES, 5), pick.sample(LIGHT, 5), pick.sample(DARK, 5))]
        gid = conn.execute("INSERT INTO games (title, created_at, updated_at, players) VALUES (?, ?, ?, ?)",
                           ("bench", T0, T0, json.dumps(seats))).lastrowid
        seq = 0

        def event(payload: dict[str, Any]) -> int:
            nonlocal seq
            seq += 1
            conn.execute("INSERT INTO events (game_id, seq, type, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                         (gid, seq, payload["type"], json.dumps(payload), T0))
            return seq

        event({"type": "new_game", "command": {"type": "new_game", "players": seats, "first_player": "red"},
               "effects": [], "warnings": []})
        inside = {c: 0 for c in (*PLAYERS, "green")}

        def throw(thrown: dict[str, int]) -> tuple[dict[str, int], list[dict[str, Any]]]:
            seen, effects = {}, []
            for c in inside:
                n = int(rng.binomial(thrown.get(c, 0), land_of.get(c, land)) + rng.binomial(inside[c], release))
                if n:
                    seen[c] = n
                delta = thrown.get(c, 0) - n
                if delta:
                    effects.append({"op": "interior", "color": c, "delta": delta})
                inside[c] += delta
            return seen, effects

        seed_thrown = {**{c: 7 for c in PLAYERS}, "green": 10}
        seen, effects = throw(seed_thrown)
        s = event({"type": "seed_tower", "command": {"type": "seed_tower", "tray": seen}, "effects": effects,
                   "warnings": [], "clamped": {}})
        conn.execute("INSERT INTO readings (game_id, seq, kind, confirmed, created_at) VALUES (?, ?, 'seeding', ?, ?)",
                     (gid, s, json.dumps(seen), T0))
        for _b in range(battles):
            attacker, defender = (str(x) for x in rng.choice(PLAYERS, 2, replace=False))
            defended = rng.random() < 0.8
            stance = STANCES[int(rng.integers(0, 3))]
            thrown = {attacker: int(rng.integers(1, 7)), "green": int(rng.integers(1, 4))}
            if defended:
                thrown[defender] = int(rng.integers(1, 7))
            battle = {"attacker": attacker, "defender": defender if defended else None, "stance": stance,
                      "throw": thrown, "target": "somewhere", "realm": "light"}
            a_seq = event({"type": "attack", "command": {"type": "attack", "player": attacker}, "effects": [],
                           "warnings": []})
            if odds:
                o = battle_odds(truth, attacker, battle["defender"], stance, thrown, inside, draws=400, seed=a_seq)
                conn.execute(
                    """INSERT INTO odds (game_id, attack_seq, version, attacker, defender, stance, win, tie,
                           lose, draws, basis, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                    (gid, a_seq, a_seq, attacker, battle["defender"], stance, o.win, o.tie, o.lose, o.draws,
                     0, T0))
            seen, effects = throw(thrown)
            winner = _winner(seen.get(attacker, 0), seen.get(defender, 0) if defended else None,
                             seen.get("green", 0), stance)
            r_seq = event({"type": "resolve_battle", "command": {"type": "resolve_battle", "counts": seen},
                           "effects": effects, "warnings": [], "battle": battle, "reading": seen,
                           "result": {"winner": None if winner == "tie" else winner}, "clamped": {}})
            conn.execute(
                """INSERT INTO battles (game_id, seq, round, realm, region, attacker, defender, stance,
                       tray_counts, tray_size, winner, created_at) VALUES (?, ?, 1, 'light', 'somewhere',
                       ?, ?, ?, ?, ?, ?, ?)""",
                (gid, r_seq, attacker, battle["defender"], stance, json.dumps(seen), sum(seen.values()),
                 winner, T0))
            conn.execute("INSERT INTO readings (game_id, seq, kind, confirmed, created_at) VALUES (?, ?, 'battle', ?, ?)",
                         (gid, r_seq, json.dumps(seen), T0))
        vp = {c: 0 for c in PLAYERS}
        for rnd in range(1, 6 if finish else 3):
            gained = {c: int(rng.integers(0, 9)) for c in PLAYERS}
            for c in PLAYERS:
                vp[c] += gained[c]
            event({"type": "score_round", "command": {"type": "score_round"}, "warnings": [],
                   "effects": [{"op": "score", "value": {"round": rnd, "order": list(PLAYERS),
                                                          "players": {c: {"total": gained[c]} for c in PLAYERS}}}]})
        for p in seats:
            p["vp"] = vp[p["color"]]
        if finish:
            best = max(vp.values())
            order = sorted(PLAYERS, key=lambda c: -vp[c])
            standings = [{"color": c, "vp": vp[c], "rank": 1 + sum(vp[o] > vp[c] for o in PLAYERS)} for c in order]
            result = {"winners": [c for c in PLAYERS if vp[c] == best], "standings": standings}
            conn.execute("UPDATE games SET status = 'finished', round = 5, players = ?, result = ?, finished_at = ?"
                         " WHERE id = ?", (json.dumps(seats), json.dumps(result), "2026-01-01T21:30:00.000+00:00", gid))
        else:
            conn.execute("UPDATE games SET round = 2, players = ? WHERE id = ?", (json.dumps(seats), gid))
        if people:
            ids = {n: i + 1 for i, n in enumerate(NAMES)}
            conn.executemany("INSERT INTO seats (game_id, color, person_id) VALUES (?, ?, ?)",
                             [(gid, p["color"], ids[p["name"]]) for p in seats])
    conn.execute("COMMIT")
    conn.close()
    return path


def bench_log(games: int, repeat: int = 20) -> None:
    from companion.store import GameLog
    from companion.store import insights
    from companion.store.stats import statistics as plain

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "companion.sqlite3"
        start = time.perf_counter()
        generate_log(path, games)
        made = time.perf_counter() - start
        log = GameLog(path)
        first = time.perf_counter()
        insights.tower_report(log)
        first_ms = (time.perf_counter() - first) * 1000
        print(f"\n{games} five-player games ({games * 16} battles), log written in {made:.1f} s; "
              f"first tower fit after writing (sync + fit): {first_ms:.0f} ms")
        rows = [
            ("store.stats.statistics (plain tables)", lambda: plain(log)),
            ("insights.tower_report (model + fairness)", lambda: insights.tower_report(log)),
            ("insights.odds_report (calibration)", lambda: insights.odds_report(log, True)),
            ("insights.people_report", lambda: insights.people_report(log)),
            ("insights.game_report (one game)", lambda: insights.game_report(log, 1)),
        ]
        total = 0.0
        for label, fn in rows:
            med, worst = median_max_ms(fn, repeat)
            total += med
            print(f"  {label:45s} median {med:7.1f} ms   max {worst:7.1f} ms")
        print(f"  {'sum of the above (what the page asks for)':45s} median {total:7.1f} ms")
        _http(path, games, repeat)
        log.close()


def _http(path: Path, games: int, repeat: int) -> None:
    """The same through the real Flask app (test client: no sockets, all of Flask and JSON)."""
    from companion.web.app import create_app

    app = create_app({"DATA_DIR": path.parent, "TESTING": True, "PIN": "4711"})
    client = app.test_client()
    client.post("/api/session", json={"pin": "4711"})  # a signed-in tablet may change settings
    urls = ["/api/stats", "/api/stats/tower", "/api/stats/odds", "/api/stats/people", "/api/stats/games/1"]
    flip = iter(range(10**6))

    def change() -> None:  # a new finished game with 16 battles: what a game night adds
        generate_log(path, 1, seed=1000 + next(flip))

    def cold(url: str) -> float:
        change()
        start = time.perf_counter()
        client.get(url)
        return (time.perf_counter() - start) * 1000

    warm_total = cold_total = 0.0
    print("  through Flask (cold = first call after another game was logged, warm = unchanged log):")
    for url in urls:
        cold_ms = statistics.median(cold(url) for _ in range(3))
        med, worst = median_max_ms(lambda: client.get(url), repeat)
        warm_total += med
        cold_total += cold_ms
        print(f"  GET {url:41s} cold {cold_ms:7.1f} ms   warm median {med:6.1f} ms   max {worst:6.1f} ms")
    print(f"  {'all five API calls of the statistics page':45s} cold {cold_total:7.1f} ms   warm median {warm_total:6.1f} ms")
    app.extensions["companion"].close()


def bench_odds(repeat: int = 200) -> None:
    from companion.analysis.odds import DRAWS, battle_odds
    from companion.analysis.tower_model import ColourFit, Interval, TowerModel

    fit = ColourFit(Interval(0.6, 0.5, 0.7), Interval(0.2, 0.1, 0.3), 100, 1, 1, 0.0)
    model = TowerModel({}, fit, 100, 100)
    args = (model, "red", "blue", "against_attacker", {"red": 6, "blue": 4, "green": 2},
            {"red": 5, "blue": 7, "green": 4})
    med, worst = median_max_ms(lambda: battle_odds(*args, draws=DRAWS), repeat)

    def baseline() -> None:  # the same draws, one cube at a time in plain Python
        r = random.Random(1)
        for _ in range(DRAWS):
            a = sum(r.random() < 0.6 for _ in range(6)) + sum(r.random() < 0.2 for _ in range(5))
            d = sum(r.random() < 0.6 for _ in range(4)) + sum(r.random() < 0.2 for _ in range(7))
            g = sum(r.random() < 0.6 for _ in range(2)) + sum(r.random() < 0.2 for _ in range(4))
            _ = (a > d + g) - (a < d + g)

    b_med, _ = median_max_ms(baseline, 5)
    print(f"\nodds of one battle, {DRAWS} Monte Carlo draws: median {med:.2f} ms, max {worst:.2f} ms "
          f"(bar 50 ms); plain-Python baseline of the same draws: median {b_med:.0f} ms")


def _share(flags: list[bool]) -> str:
    return f"{sum(flags) / len(flags) * 100:5.1f} % ({sum(flags)} of {len(flags)})"


def bench_quality(groups: int = 100) -> None:
    """How often the statistics are wrong, on towers simulated apart from the model
    (``tests/analysis/games_sim.py``: whole games, seeding into the empty tower, 16 battles)."""
    from companion.analysis.fairness import test_colours
    from companion.analysis.tower_model import cube_table
    from tests.analysis.games_sim import Tower, throws
    from tests.analysis.test_shrinkage import _first_black_battle

    start = time.perf_counter()
    print(f"\nquality of the verdicts ({groups} simulated groups per line, seeded; 3 players + green):")
    fixed = [test_colours(throws(25, s)) for s in range(groups)]
    print(f"  fair tower, 400 battles: fairness false alarms        {_share([r['any_flagged'] for r in fixed])}"
          "   (nominal 5 %)")
    print(f"  fair tower, 400 battles: model check false alarms     "
          f"{_share([r['model_check']['fits'] is False for r in fixed])}   (nominal 5 %)")
    filling = Tower(fill_drop=0.02, knock=0.03)
    groups_fill = [throws(25, 100_000 + s, filling) for s in range(groups)]
    fill = [test_colours(g) for g in groups_fill]
    plain = [test_colours({c: [r[:4] for r in rows] for c, rows in cube_table(g).items()})["any_flagged"]
             for g in groups_fill]
    print(f"  fair tower losing 2 %/cube inside: fairness false alarms {_share([r['any_flagged'] for r in fill])}"
          f"   (without fill and size in the model: {_share(plain)})")
    print(f"  the same tower: model check finds it                  "
          f"{_share([r['model_check']['fits'] is False for r in fill])}")
    biased = Tower(land_of={"red": 0.9})
    found = []
    for s in range(max(10, groups // 2)):
        group = throws(200, 200_000 + s, biased)
        named = test_colours(group[:20 * 17])["colours"]["red"]["throws_for_reference"]
        seen, cut = 0, len(group)
        for k in range(0, len(group), 17):
            seen += sum(1 for t in group[k:k + 17] if t.thrown.get("red", 0) or t.inside.get("red", 0))
            if seen >= named:
                cut = k + 17
                break
        found.append(test_colours(group[:cut])["colours"]["red"]["verdict"] != "no_sign")
    print(f"  red held back 10 %, at the throws the page named: found {_share(found)}   (promised ≥ 75 %, aimed at 80 %)")
    nights = [throws(3, 300_000 + s, biased, battles=14) for s in range(15 * groups)]
    night = [test_colours(g)["colours"]["red"] for g in nights]
    flagged = [k for k, v in enumerate(night) if v["verdict"] not in ("no_sign", "not_enough_data")]
    print(f"  the same after one night (42 battles, {len(nights)} groups): flagged {_share([k in flagged for k in range(len(night))])}")
    if flagged:
        mean_bias = sum(night[k]["bias"] for k in flagged) / len(flagged)
        plain95 = [test_colours(nights[k], interval_level=0.95)["colours"]["red"] for k in flagged]
        print(f"    when flagged: point estimate {mean_bias * 100:.0f} % on average (truth −10 %: the winner's curse);\n"
              f"    range at the verdict's level contains the truth "
              f"{_share([night[k]['bias_low'] <= -0.1 <= night[k]['bias_high'] for k in flagged])}, "
              f"a plain 95 % range {_share([v['bias_low'] <= -0.1 <= v['bias_high'] for v in plain95])}")
    black = [_first_black_battle(s) for s in range(30)]
    shown = [abs(a - b) for a, b, _ in black]
    own = [abs(c - b) for _, b, c in black]
    print(f"  black's first battle after 200 battles: shrunk odds off by {statistics.mean(shown) * 100:.1f} points "
          f"on average (max {max(shown) * 100:.1f}); its own fit alone {statistics.mean(own) * 100:.1f} "
          f"(max {max(own) * 100:.1f})")
    print(f"  ({time.perf_counter() - start:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="*", default=[100, 5000])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--groups", type=int, default=100,
                        help="simulated groups per power / false-alarm line (0: skip them)")
    args = parser.parse_args()
    bench_odds()
    for n in args.games:
        bench_log(n, args.repeat)
    if args.groups:
        bench_quality(args.groups)


if __name__ == "__main__":
    main()
