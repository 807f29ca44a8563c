"""Crash safety: SIGKILL a writer at seeded random moments, then check every acknowledged event.

The child (``crash_child.py``) prints ``<game> <seq>`` after each ``append`` returned. After each
kill the parent reopens the file and checks: every acknowledged event is present and complete,
sequence numbers are gapless, at most the one in-flight event beyond the acknowledged ones was
committed, summaries and battle records agree with the events, and ``PRAGMA integrity_check``
says ``ok``. The parent never sleeps: it waits on the child's output with timeouts.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.store import GameLog
from companion.store.service import GameService
from tests.store.crash_child import expected_battle, expected_event

CHILD = Path(__file__).with_name("crash_child.py")
ROUNDS = 12
MIN_ROUNDS = 3  # run at least these, however slow the machine; more while the budget lasts
TIME_BUDGET_S = 20.0
LINE_TIMEOUT_S = 30.0


def _pump(stream, lines: queue.Queue) -> None:  # type: ignore[no-untyped-def]
    for line in stream:
        lines.put(line)
    lines.put(None)  # EOF


def _run_and_kill(path: Path, acknowledge: int, mode: str = "log") -> dict[int, int]:
    """Start the child, wait for ``acknowledge`` acknowledgements, SIGKILL it; return the
    highest acknowledged seq per game (including lines flushed just before the kill)."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(path), mode],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
        env=env,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True)
    reader.start()
    acked: dict[int, int] = {}
    try:
        seen = 0
        while seen < acknowledge:
            line = lines.get(timeout=LINE_TIMEOUT_S)
            if line is None:
                pytest.fail(f"the child died by itself: {proc.stderr.read() if proc.stderr else ''}")
            game, seq = map(int, line.split())
            acked[game] = max(acked.get(game, 0), seq)
            seen += 1
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=LINE_TIMEOUT_S)
    while (line := lines.get(timeout=LINE_TIMEOUT_S)) is not None:  # flushed before death
        game, seq = map(int, line.split())
        acked[game] = max(acked.get(game, 0), seq)
    reader.join(timeout=LINE_TIMEOUT_S)
    assert proc.returncode == -signal.SIGKILL
    return acked


def _check(path: Path, acked: dict[int, int], before: dict[int, int]) -> dict[int, int]:
    """Check the reopened file; ``before`` is what was present when the child started.
    Returns the number of events present per game."""
    raw = sqlite3.connect(path)  # before GameLog: recovery of the WAL by a plain client too
    assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    raw.close()
    present: dict[int, int] = {}
    with GameLog(path) as log:
        assert log.integrity_check() == "ok"
        for summary in log.games():
            game = summary.id
            events = log.events(game)
            seqs = [e.seq for e in events]
            present[game] = len(seqs)
            assert seqs == list(range(1, len(seqs) + 1)), "gap in the sequence numbers"
            assert len(seqs) >= acked.get(game, 0), "an acknowledged event is missing"
            for e in events:
                assert e.payload == expected_event(game, e.seq), f"event {game}/{e.seq} damaged"
            summary = log.game(game)
            assert summary.version == summary.round == len(seqs)
            battles = {b["seq"]: b for b in log.battles(game)}
            expected = {s: expected_battle(game, s) for s in seqs}
            assert set(battles) == {s for s, b in expected.items() if b is not None}
            for seq, row in battles.items():
                record = expected[seq]
                assert record is not None and row["tray_counts"] == record.tray_counts
    # beyond what was acknowledged or there before, only the one append in flight may have landed
    unacknowledged = sum(
        n - max(acked.get(g, 0), before.get(g, 0)) for g, n in present.items()
    )
    assert 0 <= unacknowledged <= 1
    return present


@pytest.mark.slow
def test_acknowledged_events_survive_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite3"
    rng = random.Random(20171121)  # seeded: the same kill points on every run
    deadline = time.monotonic() + TIME_BUDGET_S
    present: dict[int, int] = {}
    rounds = 0
    while rounds < MIN_ROUNDS or (rounds < ROUNDS and time.monotonic() < deadline):
        acked = _run_and_kill(path, acknowledge=rng.randint(1, 60))
        present = _check(path, acked, before=present)
        rounds += 1
    assert sum(present.values()) >= rounds  # progress across restarts, not the same event again


def _check_games(path: Path, acked: dict[int, int], before: dict[int, int]) -> dict[int, int]:
    """After a kill of the service child: every game replays, to at least what was acknowledged."""
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    raw.close()
    present: dict[int, int] = {}
    with GameLog(path) as log:
        service = GameService(log)
        for summary in log.games():
            state = service.state(summary.id)  # replay: raises on a damaged or partial log
            present[summary.id] = state.version
            assert state.version == summary.version == len(log.events(summary.id))
            assert state.version >= acked.get(summary.id, 0), "an acknowledged command is missing"
            assert summary.status == ("finished" if state.phase == "over" else "active")
            battles = [e.seq for e in log.events(summary.id) if e.type == "resolve_battle"]
            assert [b["seq"] for b in log.battles(summary.id)] == battles
    unacknowledged = sum(n - max(acked.get(g, 0), before.get(g, 0)) for g, n in present.items())
    assert 0 <= unacknowledged <= 1
    return present


@pytest.mark.slow
def test_acknowledged_commands_of_real_games_survive_sigkill(tmp_path: Path) -> None:
    """The same through GameService and the rules engine: kills land inside real commands
    (mid-battle too); afterwards every game replays to at least its acknowledged version."""
    path = tmp_path / "games.sqlite3"
    rng = random.Random(1122)
    deadline = time.monotonic() + TIME_BUDGET_S
    present: dict[int, int] = {}
    rounds = 0
    while rounds < MIN_ROUNDS or (rounds < ROUNDS and time.monotonic() < deadline):
        acked = _run_and_kill(path, acknowledge=rng.randint(1, 80), mode="service")
        present = _check_games(path, acked, before=present)
        rounds += 1
    assert len(present) >= 2  # several games were started across the kills
