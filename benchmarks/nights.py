"""Speed of the game-night log (issue 16): ``python -m benchmarks.nights [--games 200 2000]``.

Times, in this process, on a fresh database in a temporary folder:

- **one tracker tap** (``add_event``: parse, replay the game's entries, apply, write, fsync) on a
  live Amrtaka game that already has 0, 30 and 120 entries, median of 30 — beside the **baseline**
  of the main game log's own append of one event (``GameLog.append``, the same fsynced write
  without any replay);
- the **statistics** (``nights_report.report``), the **exports** (``export_tables``) and the
  evening's list (``list_games``) with N logged games (generic, Game-O-Gami and finished Amrtaka
  games, 3 players each, a roster of 10), median of 10.

Bar (a tablet tap): ≤ 50 ms per tap; statistics ≤ 500 ms. Prints numbers; never fails on them.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from benchmarks.timing import median_max_ms
from companion.store import nights
from companion.store.log import GameLog
from companion.store.nights_report import export_tables, report
from companion.store.people import add_person

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo")


def _taps(log: GameLog) -> None:
    print("one tracker tap (add_event on a live Amrtaka game), median of 30:")
    for before in (0, 30, 120):
        game = nights.create_game(log, nights.parse_new_game({"game": "amrtaka", "players": ["Ada", "Bo", "Cy"]}))
        for i in range(before):  # end_turn stops at 30; gains of 1 VP never reach 60 here
            event = {"type": "end_turn"} if i < 29 and i % 4 == 3 else {"type": "gain", "player": f"p{i % 3 + 1}", "points": 1}
            game = nights.add_event(log, game["id"], event)
        taps = iter([{"type": "gain", "player": "p1", "points": 1}, {"type": "undo"}] * 20)
        med, worst = median_max_ms(lambda: nights.add_event(log, game["id"], next(taps)), 30)
        print(f"  with {before:3d} entries before: median {med:6.2f} ms   max {worst:6.2f} ms")
    main_game = log.create_game("baseline", first_event={"type": "note", "n": 0})
    version = [1]

    def append() -> None:
        version[0] = log.append(main_game, {"type": "note", "n": version[0]}, version[0])

    med, worst = median_max_ms(append, 30)
    print(f"  baseline: GameLog.append of one event   median {med:6.2f} ms   max {worst:6.2f} ms   (bar 50 ms)")


def _fill(log: GameLog, games: int, rng: random.Random) -> None:
    people = [add_person(log, n)["id"] for n in NAMES]
    for g in range(games):
        trio = rng.sample(people, 3)
        players = [{"person_id": p} for p in trio]
        start = f"2026-{1 + g % 12:02d}-{1 + g % 28:02d}T19:{g % 60:02d}:00Z"
        kind = g % 3
        if kind == 0:
            body = {"game": "generic", "name": rng.choice(("Azul", "Carcassonne", "Catan")), "players": players,
                    "started_at": start, "ended_at": start.replace("T19", "T20"),
                    "events": [{"type": "result", "scores": {f"p{i}": rng.randint(20, 90) for i in (1, 2, 3)}}]}
        elif kind == 1:
            body = {"game": "immortal_gameogami", "players": players, "started_at": start,
                    "ended_at": start.replace("T19", "T21"),
                    "events": [{"type": "act", "act": a, "tokens": {f"p{i}": rng.randint(0, 12) for i in (1, 2, 3)},
                                "levels": {f"p{i}": rng.randint(0, 30) for i in (1, 2, 3)}} for a in (1, 2)]}
        else:
            body = {"game": "amrtaka", "players": players, "started_at": start,
                    "events": [{"type": "gain", "player": f"p{i % 3 + 1}", "points": 15} for i in range(10)]}  # p1 reaches 60
        nights.create_game(log, nights.parse_new_game(body))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[200, 2000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        with GameLog(Path(folder) / "taps.sqlite3") as log:
            _taps(log)
        for n in args.games:
            with GameLog(Path(folder) / f"n{n}.sqlite3") as log:
                start = time.perf_counter()
                _fill(log, n, random.Random(n))
                made = time.perf_counter() - start
                print(f"\n{n} logged games (3 players, roster of 10), written in {made:.1f} s:")
                night = nights.list_games(log)[0]["night"]
                for label, fn in (("statistics (report)", lambda: report(log)),
                                  ("exports (export_tables)", lambda: export_tables(log)),
                                  ("one evening (list_games)", lambda: nights.list_games(log, night))):
                    med, worst = median_max_ms(fn, 10)
                    print(f"  {label:28s} median {med:7.1f} ms   max {worst:7.1f} ms   (bar 500 ms)")


if __name__ == "__main__":
    main()
