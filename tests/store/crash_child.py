"""Child process of the crash test: appends events forever and acknowledges each one.

Run as ``python tests/store/crash_child.py DB_PATH [log|service]``.

``log`` (default): writes to two games in turn (created on first use) straight through
``GameLog.append``; the content of every event is a pure function of (game, seq), so the parent
can tell a complete event from a damaged one.

``service``: plays real games of Immortals through ``GameService`` over and over (set-up, a
battle, passes to the end), so kills land inside real commands, also mid-battle.

Either way, after the write has returned it prints ``<game> <seq>`` and flushes, so every line
the parent reads is an acknowledged, committed event. The parent kills it with SIGKILL.
"""

from __future__ import annotations

import hashlib
import sys
from typing import Any

from companion.store import BattleRecord, GameLog, GameMeta

GAMES = ("crash A", "crash B")


def expected_event(game: int, seq: int) -> dict[str, Any]:
    """The event the child writes as number ``seq`` of ``game``: sizes vary to span pages."""
    digest = hashlib.sha256(f"{game}:{seq}".encode()).hexdigest()
    return {
        "type": "resolve_battle" if seq % 5 == 0 else "tick",
        "game": game,
        "seq": seq,
        "filler": digest * (1 + seq % 37),  # 64 … 2368 characters
        "digest": digest,
    }


def expected_battle(game: int, seq: int) -> BattleRecord | None:
    if seq % 5:
        return None
    return BattleRecord(
        "red", "blue", "neutral", {"red": seq % 7, "blue": 1}, "attacker",
        camera_counts={"red": seq % 7, "blue": seq % 2}, round=seq,
    )  # fmt: skip


def play_forever(path: str) -> None:
    from companion.store.service import GameService
    from tests.store.game_script import Table

    class AcknowledgingTable(Table):
        def run(self, **command: Any) -> Any:
            state = super().run(**command)
            sys.stdout.write(f"{self.game_id} {state.version}\n")
            sys.stdout.flush()
            return state

    service = GameService(GameLog(path))
    while True:
        table = AcknowledgingTable(service)
        sys.stdout.write(f"{table.game_id} {table.state.version}\n")
        sys.stdout.flush()
        table.to_actions()
        table.attack()
        table.resolve({"blue": 3, "purple": 2, "green": 1}, camera={"blue": 2, "purple": 2, "green": 1})
        while table.step_to_end() is not None:
            pass


def main(path: str) -> None:
    log = GameLog(path)
    known = {g.title: g.id for g in log.games()}
    ids = [known.get(title) or log.create_game(title) for title in GAMES]
    turn = 0
    while True:
        game = ids[turn % len(ids)]
        turn += 1
        version = log.version(game)
        seq = log.append(
            game,
            expected_event(game, version + 1),
            version,
            meta=GameMeta(round=version + 1, players=[{"color": "red", "vp": version + 1}]),
            battle=expected_battle(game, version + 1),
        )
        sys.stdout.write(f"{game} {seq}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "service":
        play_forever(sys.argv[1])
    else:
        main(sys.argv[1])
