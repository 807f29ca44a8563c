"""What the table display costs: the server and a Chromium showing ``/display``, side by side.

A real server (``companion serve``, simulated tower) and Debian's Chromium, started as the
kiosk of firmware_notes/display.md starts it but headless (this machine has no screen), at
1920×1080. First ``--idle`` seconds with nothing happening, then ``--play`` seconds with a move
every ``--every`` seconds made over HTTP by another "tablet" (the display follows each over its
live stream). Every second it reads /proc: the server's resident memory and CPU time, and the
whole Chromium process tree's proportional memory (PSS — shared pages counted once) and CPU
time. Prints the median and peak memory and the mean CPU share of one core, per phase.

    .venv/bin/python -m benchmarks.display [--idle 30 --play 60 --every 2]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.web import Client, Game, start_server

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
TICK = os.sysconf("SC_CLK_TCK")


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, ()))
    return out


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime + stime
        except (OSError, IndexError, ValueError):
            pass
    return total / TICK


def memory_mb(pids: list[int], key: str) -> float:
    """Sum of ``key`` (``Pss`` or ``Rss``) over ``pids`` from smaps_rollup, in MB."""
    total = 0
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith(key + ":"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def sample(server: int, browser: int, seconds: float, act=None, every: float = 2.0) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"server_mb": [], "chromium_mb": [], "server_cpu": [], "chromium_cpu": []}
    start = last_move = time.monotonic()
    pids = tree(browser)
    before = (cpu_seconds([server]), cpu_seconds(pids), time.monotonic())
    while time.monotonic() - start < seconds:
        time.sleep(1.0)
        if act is not None and time.monotonic() - last_move >= every:
            act()
            last_move = time.monotonic()
        pids = tree(browser)
        now = (cpu_seconds([server]), cpu_seconds(pids), time.monotonic())
        span = now[2] - before[2]
        out["server_cpu"].append((now[0] - before[0]) / span * 100)
        out["chromium_cpu"].append((now[1] - before[1]) / span * 100)
        out["server_mb"].append(memory_mb([server], "Rss"))
        out["chromium_mb"].append(memory_mb(pids, "Pss"))
        before = now
    return out


def report(phase: str, s: dict[str, list[float]]) -> None:
    print(f"{phase}: server RSS median {statistics.median(s['server_mb']):.0f} MB (peak {max(s['server_mb']):.0f}), "
          f"CPU {statistics.mean(s['server_cpu']):.1f} % of one core; "
          f"Chromium PSS median {statistics.median(s['chromium_mb']):.0f} MB (peak {max(s['chromium_mb']):.0f}), "
          f"CPU {statistics.mean(s['chromium_cpu']):.1f} % of one core")


def run(idle: float, play: float, every: float) -> None:
    data = Path(tempfile.mkdtemp(prefix="companion-display-bench-"))
    proc, port = start_server(data)
    profile = tempfile.mkdtemp(prefix="companion-display-chromium-")
    browser = None
    try:
        client = Client(port)
        game = Game(client)
        game.setup()
        browser = subprocess.Popen(
            [CHROMIUM, "--headless=new", "--no-sandbox", "--kiosk", "--noerrdialogs", "--disable-infobars",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--window-size=1920,1080", f"--user-data-dir={profile}",
             "--remote-debugging-port=0", f"http://127.0.0.1:{port}/games/{game.id}/display"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(5)  # the page loads and opens its live stream
        report(f"idle ({idle:.0f} s)", sample(proc.pid, browser.pid, idle))
        report(f"playing ({play:.0f} s, a move every {every:g} s)",
               sample(proc.pid, browser.pid, play, act=game.step, every=every))
        print(f"moves made: the game is at version {game.state['version']}")
    finally:
        if browser is not None:
            browser.terminate()
            browser.wait(timeout=30)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.display", description=__doc__.split("\n")[0])
    parser.add_argument("--idle", type=float, default=30)
    parser.add_argument("--play", type=float, default=60)
    parser.add_argument("--every", type=float, default=2.0)
    args = parser.parse_args(argv)
    run(args.idle, args.play, args.every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
