"""End-to-end fixtures: the real server as a subprocess (waitress, real HTTP, real SQLite, the
seeded simulated tower) and Debian's Chromium driven by Playwright.

Nothing here sleeps for a fixed time: the server is polled on its /api/health answer within a
deadline, and the browser side uses Playwright's auto-waiting expectations.

Every server runs with the table PIN :data:`E2E_PIN` (``COMPANION_PIN``), and every browser
context made through the ``browser`` fixture is a tablet that entered it on every running
server (``POST /api/session`` through the context's own cookie jar). ``browser.guest_context()``
makes one that did not: a spectator.
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
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIM_SEED = "7"
E2E_PIN = "1357"
RUNNING: list[Server] = []  # servers started and not yet stopped, oldest first


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
               "COMPANION_GPIO": "mock", "COMPANION_SIM_SEED": SIM_SEED, "COMPANION_PIN": E2E_PIN,
               **(env or {})}
        self.pin = env["COMPANION_PIN"]
        self._log = log_path.open("a")
        self.process = subprocess.Popen([sys.executable, "-m", "companion", "serve"], cwd=ROOT,
                                        env=env, stdout=self._log, stderr=subprocess.STDOUT)
        RUNNING.append(self)

    def sign_in(self, context: object) -> None:
        """Enter the PIN in a browser context (its cookie jar), as the PIN dialog would."""
        answer = context.request.post(f"{self.url}/api/session", data={"pin": self.pin})
        assert answer.ok, answer.text()

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
        if self in RUNNING:
            RUNNING.remove(self)
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self._log.close()


@contextmanager
def running_server(data_dir: Path, env: dict[str, str] | None = None) -> Iterator[Server]:
    """A server on ``data_dir`` (log in ``server.log`` there) that answers /api/health, with its
    health in ``.health``; stopped when the block ends."""
    srv = Server(data_dir, data_dir / "server.log", env=env)
    srv.health = srv.wait_ready()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("companion-data")) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield SignedInBrowser(b)
        b.close()


class SignedInBrowser:
    """The Playwright browser, whose new contexts (and pages) are tablets signed in on every
    running server; anything else is the browser's own."""

    def __init__(self, browser: object) -> None:
        self._browser = browser

    def __getattr__(self, name: str) -> object:
        return getattr(self._browser, name)

    def guest_context(self, **options: object) -> object:
        """A context that has not entered the PIN (a spectator)."""
        return self._browser.new_context(**options)

    def new_context(self, **options: object) -> object:
        context = self._browser.new_context(**options)
        for server in RUNNING:
            if server.process.poll() is None:
                server.sign_in(context)
        return context

    def new_page(self, **options: object) -> object:
        return self.new_context(**options).new_page()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
