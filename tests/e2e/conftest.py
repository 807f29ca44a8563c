"""End-to-end fixtures: the real server as a subprocess (waitress, real HTTP, real SQLite, the
seeded simulated tower) and Debian's Chromium driven by Playwright.

Nothing here sleeps for a fixed time: the server is polled on its /api/health answer within a
deadline, and the browser side uses Playwright's auto-waiting expectations.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIM_SEED = "7"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _health(url: str) -> dict | None:
    try:
        with urllib.request.urlopen(f"{url}/api/health", timeout=2) as answer:
            return json.loads(answer.read())
    except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
        return None


class Server:
    """A running ``python -m companion serve``; ``url`` is its base address."""

    def __init__(self, data_dir: Path, log_path: Path, port: int | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.port = port or _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.data_dir = data_dir
        self.log_path = log_path
        env = {**os.environ, "PORT": str(self.port), "HOST": "127.0.0.1",
               "COMPANION_DATA": str(data_dir), "COMPANION_CAMERA": "synthetic",
               "COMPANION_GPIO": "mock", "COMPANION_SIM_SEED": SIM_SEED, **(env or {})}
        self._log = log_path.open("a")
        self.process = subprocess.Popen([sys.executable, "-m", "companion", "serve"], cwd=ROOT,
                                        env=env, stdout=self._log, stderr=subprocess.STDOUT)

    def wait_ready(self, deadline_s: float = 60.0) -> dict:
        """Poll /api/health until it answers; fail with the server log if it dies or never does."""
        waited = 0.0
        while waited < deadline_s:
            health = _health(self.url)
            if health is not None:
                return health
            try:  # waiting on the process doubles as the pause between polls, and notices a crash
                self.process.wait(timeout=0.2)
            except subprocess.TimeoutExpired:
                waited += 0.2
                continue
            break
        self.stop()
        pytest.fail(f"The server did not answer /api/health:\n{self.log_path.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self._log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("companion-data")
    srv = Server(data, data / "server.log")
    srv.health = srv.wait_ready()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
