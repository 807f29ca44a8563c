"""The game review against its speed bar: the state at any step of a 400-event game in ≤ 50 ms.

A real server process (``companion serve``, simulated tower) and real HTTP. A five-player game is
played through the API (10 rounds; every extraction undone and made again, as tables do) until
it has at least ``--events`` events. Then every step is asked once, in random order (each is a
fresh replay from the log: the server keeps no states per step), and the whole review once.
Beside it, the baseline the review replaces: the whole game's export (``export.json``), which a
page would have to fold itself. Prints median, 90th percentile and the slowest answer.

    .venv/bin/python -m benchmarks.review [--events 400]
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.web import PLAYERS, Client, Game, start_server


class LongGame(Game):
    """The benchmark game over ten rounds; every extraction is undone and made again."""

    def __init__(self, client: Client) -> None:  # noqa: D107 — as Game, with ten rounds
        self.client = client
        status, body = client.call("POST", "/api/games", {"players": PLAYERS, "first_player": "red",
                                                           "title": "Review benchmark", "rounds": 10})
        assert status == 201, body
        self.id, self.state = body["id"], body["state"]

    def send(self, **command: Any) -> bool:
        accepted = super().send(**command)
        if accepted and command.get("type") in ("extract_gold", "extract_energy"):
            assert super().send(type="undo") and super().send(**command)
        return accepted


def timed(client: Client, path: str) -> float:
    start = time.perf_counter()
    status, _ = client.call("GET", path)
    elapsed = (time.perf_counter() - start) * 1000
    assert status == 200, (path, status)
    return elapsed


def summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return f"{name:<44} n={len(ms):>4}  median {statistics.median(ms):6.1f} ms  p90 {p90:6.1f} ms  max {ms[-1]:6.1f} ms"


def run(events: int, seed: int) -> None:
    data = Path(tempfile.mkdtemp(prefix="companion-review-bench-"))
    proc, port = start_server(data)
    try:
        client = Client(port)
        game = LongGame(client)
        game.setup()
        while game.state["version"] < events and game.state["phase"] != "over":
            game.step()
        n = game.state["version"]
        print(f"game {game.id}: {n} events, phase {game.state['phase']}, round {game.state['round']}")
        first = timed(client, f"/api/games/{game.id}/review")
        review = [timed(client, f"/api/games/{game.id}/review") for _ in range(5)]
        steps = list(range(1, n + 1))
        random.Random(seed).shuffle(steps)
        state_ms = [timed(client, f"/api/games/{game.id}/review/state?version={v}") for v in steps]
        last = [timed(client, f"/api/games/{game.id}/review/state?version={n}") for _ in range(20)]
        export = [timed(client, f"/api/games/{game.id}/export.json") for _ in range(20)]
        print(f"review, first call (reads and folds the log): {first:.1f} ms")
        print(summary("GET …/review (again)", review))
        print(summary(f"GET …/review/state, every step 1–{n} once", state_ms))
        print(summary(f"GET …/review/state?version={n} (the longest)", last))
        print(summary("baseline: GET …/export.json (fold it yourself)", export))
        worst = max(state_ms)
        print(f"bar: ≤ 50 ms per step → {'met' if worst <= 50 else 'NOT met'} (slowest {worst:.1f} ms)")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.review", description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=400, help="events in the game (default 400)")
    parser.add_argument("--seed", type=int, default=1, help="order of the steps asked (default 1)")
    args = parser.parse_args(argv)
    run(args.events, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
