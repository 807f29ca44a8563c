"""Store benchmark (prints numbers; not a test): ``python -m tests.store.bench_store [DIR]``.

Measures on the disk of DIR (default: a temporary folder — use the Pi's data disk there):
GameLog.append with fsync; GameService.execute over the real engine in a 5-player game grown
to about 200 events (5 rounds, padded with corrections); a cold replay of that game after a
restart; its export; the statistics over 50 logged games. The web bar is 100 ms per API call with a 5-player game of 200 events.
"""

from __future__ import annotations

import statistics as stat
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.store import BattleRecord, GameLog, GameMeta
from companion.store.export import export_game
from companion.store.service import GameService
from companion.store.stats import statistics

PLAYERS = [
    {"color": c, "name": c.title(), "light_tribe": light, "dark_tribe": dark}
    for c, light, dark in [
        ("red", "elves", "demons"), ("blue", "dwarves", "orcs"),
        ("yellow", "light-tribe-3", "necromancers"), ("purple", "light-tribe-4", "night_elves"),
        ("black", "light-tribe-5", "trolls"),
    ]
]
STARTS = ["treehome", "mountainhome", "white-falls", "shore-lake", "foothold"]
DRAFTS = ["borderland", "heartwood", "forge-fire", "emerald-cliff", "tribute-pass"]


def ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {stat.median(ordered) * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms   (n={len(ordered)})"


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def five_player_game(service: GameService, events: int) -> tuple[int, list[float]]:
    game_id, state = service.new_game({"type": "new_game", "players": PLAYERS, "first_player": "red"})
    times: list[float] = []

    def run(**command: Any) -> None:
        nonlocal state
        start = time.perf_counter()
        state = service.execute(game_id, command, expected_version=state.version)
        times.append(time.perf_counter() - start)

    for color, region in zip(state.colors, STARTS):
        run(type="deploy_start", player=color, armies=6, region=region)
    for color in state.order_from(state.turn):
        run(type="deploy", player=color, region=DRAFTS[state.colors.index(color)], realm="light", armies=5)
    run(type="finish_deployment")
    for color in state.colors:
        run(type="starting_resources", player=color, gold=7, energy=9)
    tray = {"red": 2, "blue": 1, "yellow": 3, "purple": 1, "black": 2, "green": 2}
    run(type="seed_tower", tray=tray, limbo_split={c: {"light": tray[c], "dark": 0} for c in state.colors})
    n = 0
    while state.version < events:
        if state.phase == "reinforcements":
            run(type="reinforce", player=state.turn, placements=[])
        elif state.phase == "planning":
            run(type="start_actions")
        elif state.phase == "actions" and n % 7:
            run(type="correct", reason="bench",
                resources=[{"player": state.turn, "gold": state.player(state.turn).gold + 1}])
        elif state.phase == "actions":
            run(type="pass", player=state.turn, compensation="gold")
        elif state.phase == "scoring":
            run(type="score_round")
        else:
            break
        n += 1
    return game_id, times


def main(folder: str | None = None) -> None:
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        path = Path(tmp) / "bench.sqlite3"
        with GameLog(path) as log:
            game = log.create_game("append", first_event={"type": "new_game"})
            appends = [timed(lambda v=v: log.append(game, {"type": "tick", "n": v}, v)) for v in range(1, 201)]
            print(f"GameLog.append (fsync)           {ms(appends)}")

            service = GameService(log)
            game_id, executes = five_player_game(service, events=200)
            print(f"GameService.execute, 5 players   {ms(executes)}   game at {log.version(game_id)} events")
        with GameLog(path) as log:
            cold = [timed(lambda: GameService(log).state(game_id)) for _ in range(10)]
            print(f"cold replay of that game         {ms(cold)}")
            print(f"export_game of that game         {ms([timed(lambda: export_game(log, game_id)) for _ in range(10)])}")
            print(f"GameLog.games()                  {ms([timed(log.games) for _ in range(10)])}")
            players = [{"color": p["color"], "light_tribe": p["light_tribe"], "dark_tribe": p["dark_tribe"], "vp": i} for i, p in enumerate(PLAYERS)]
            for g in range(50):
                gid = log.create_game(f"g{g}", first_event={"type": "new_game"})
                for b in range(10):
                    log.append(gid, {"type": "resolve_battle"}, b + 1, battle=BattleRecord(
                        "red", "blue", "neutral", {"red": b % 4, "blue": 1, "green": 1}, "attacker",
                        camera_counts={"red": b % 3, "blue": 1, "green": 1}))
                log.append(gid, {"type": "score_round"}, 11, meta=GameMeta("finished", 5, players, {"winners": ["black"]}))
            print(f"statistics(), 50 games, 500 battles {ms([timed(lambda: statistics(log)) for _ in range(10)])}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
