"""The real thing: waitress over real HTTP on a free port, a live SSE client, `companion serve`."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.web.serve import make_server

from .conftest import PLAYERS, TABLE_PIN, make_app

TIMEOUT = 10.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[object, int]]:
    # Pings every 60 s: any event that arrives sooner was flushed at once, not by a ping.
    app = make_app(tmp_path / "data", SSE_PING_SECONDS=60.0)
    srv = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=srv.run, name="waitress-under-test", daemon=True)
    thread.start()
    _sign_in(srv.effective_port)
    yield app, srv.effective_port
    app.extensions["companion"].close()  # ends the live streams first, as `companion serve` does
    srv.close()
    thread.join(timeout=TIMEOUT)


_COOKIES: dict[int, str] = {}  # port → the session cookie of the signed-in device


def _sign_in(port: int) -> None:
    """Enter the table PIN once, as a tablet does; request() then sends the cookie."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        conn.request("POST", "/api/session", body=json.dumps({"pin": TABLE_PIN}),
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        assert response.status == 200
        _COOKIES[port] = response.getheader("Set-Cookie").split(";", 1)[0]
    finally:
        conn.close()


def request(port: int, method: str, path: str, body: object = None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        data = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json"}
        if port in _COOKIES:
            headers["Cookie"] = _COOKIES[port]
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


class SseClient:
    """A minimal EventSource over a raw socket: every read is bounded by TIMEOUT."""

    def __init__(self, port: int, path: str, last_event_id: str | None = None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id else ""
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n{extra}\r\n".encode())
        self.buffer = b""
        head = self._read_until(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        assert b"text/event-stream" in head
        self.chunked = b"transfer-encoding: chunked" in head.lower()

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("the server closed the stream")
            self.buffer += data
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    def _payload(self) -> Iterator[str]:
        while True:
            if self.chunked:
                size = int(self._read_until(b"\r\n"), 16)
                if size == 0:
                    raise EOFError("the stream ended")
                while len(self.buffer) < size + 2:
                    data = self.sock.recv(65536)
                    if not data:
                        raise EOFError("the server closed the stream")
                    self.buffer += data
                chunk, self.buffer = self.buffer[:size], self.buffer[size + 2 :]
                yield chunk.decode()
            else:
                yield self._read_until(b"\n\n").decode() + "\n\n"

    def events(self) -> Iterator[dict[str, str]]:
        text = ""
        for chunk in self._payload():
            text += chunk
            while "\n\n" in text:
                block, _, text = text.partition("\n\n")
                fields = {}
                for line in block.split("\n"):
                    key, _, value = line.partition(": ")
                    fields[key] = value
                yield fields

    def next_event(self, name: str) -> dict[str, str]:
        for fields in self.events():
            if fields.get("event") == name:
                return fields
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.sock.close()


def test_health_over_real_http(server):
    _app, port = server
    status, body = request(port, "GET", "/api/health")
    assert status == 200 and body["ok"] is True and body["simulated"] is True


def test_sse_client_receives_the_state_event_after_a_command_at_once(server):
    _app, port = server
    status, created = request(port, "POST", "/api/games", {"players": PLAYERS, "first_player": "red"})
    assert status == 201
    game = created["id"]
    sse = SseClient(port, f"/api/events?game={game}", last_event_id="1")
    try:
        assert next(sse.events()).get("retry")  # the first block sets the reconnect delay
        assert sse.next_event("tower")
        status, _ = request(port, "POST", f"/api/games/{game}/commands",
                            {"command": {"type": "deploy_start", "player": "red", "armies": 6}})
        assert status == 200
        # A few hundred bytes, no ping for 60 s: this only arrives if waitress flushes each event.
        event = sse.next_event("state")
        assert event["id"] == "2"
        assert json.loads(event["data"]) == {"game": game, "version": 2, "type": "deploy_start",
                                             "news": "Dirk set up 6 armies in the start region Treehome"}
    finally:
        sse.close()


def test_shutdown_ends_an_open_stream(server):
    app, port = server
    sse = SseClient(port, "/api/events")
    try:
        sse.next_event("tower")
        app.extensions["companion"].close()
        with pytest.raises(EOFError):
            for _ in sse.events():
                pass
    finally:
        sse.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_companion_serve_honours_port_and_data_and_stops_cleanly_on_sigterm(tmp_path):
    port = free_port()
    data = tmp_path / "data"
    env = {
        **os.environ,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "COMPANION_DATA": str(data),
        "COMPANION_CAMERA": "synthetic",
        "COMPANION_GPIO": "mock",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve"], env=env, cwd=Path(__file__).parents[2],
        stderr=subprocess.PIPE, text=True,
    )
    try:
        log_lines = []
        for line in proc.stderr:  # the server logs "serving on …" once it listens
            log_lines.append(line)
            if "serving on" in line:
                break
        log = "".join(log_lines)
        assert f"serving on port {port} of 127.0.0.1" in log, log
        assert "SIMULATED" in log, "the log must say the tower is simulated"
        status, body = request(port, "GET", "/api/health")
        assert status == 200 and body["simulated"] is True
        assert (data / "companion.sqlite3").is_file()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=TIMEOUT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()


def test_companion_serve_on_a_taken_port_says_so_and_exits_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "COMPANION_DATA": str(tmp_path),
               "COMPANION_CAMERA": "synthetic", "COMPANION_GPIO": "mock"}
        done = subprocess.run(
            [sys.executable, "-m", "companion", "serve"], env=env, cwd=Path(__file__).parents[2],
            capture_output=True, text=True, timeout=60,
        )
    assert done.returncode == 2
    assert "another companion" in done.stderr and "Traceback" not in done.stderr


def _open_and_close(port: int, path: str) -> int:
    """Open a live stream like a page that goes away at once; the HTTP status it got."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\nAccept: text/event-stream\r\n\r\n".encode())
        head = b""
        while b"\r\n" not in head:
            data = sock.recv(4096)
            if not data:
                break
            head += data
    return int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0


def _play_draft_and_resources(port: int, game: int) -> list[int]:
    """Ten commands through the API, each decided on the version it saw; the versions made."""
    from .conftest import DRAFTS, START

    made = []

    def send(cmd: dict) -> None:
        status, state = request(port, "GET", f"/api/games/{game}")
        body = {"command": cmd, "expected_version": state["state"]["version"]}
        status, answer = request(port, "POST", f"/api/games/{game}/commands", body)
        assert status == 200, answer
        made.append(answer["state"]["version"])

    for color in ("red", "blue", "purple"):
        send({"type": "deploy_start", "player": color, "armies": 6,
              **({"region": START[color]} if START[color] else {})})
    for _ in range(3):
        turn = request(port, "GET", f"/api/games/{game}")[1]["state"]["turn"]
        region, realm = DRAFTS[turn]
        send({"type": "deploy", "player": turn, "region": region, "realm": realm, "armies": 5})
    send({"type": "finish_deployment"})
    for color in ("red", "blue", "purple"):
        send({"type": "starting_resources", "player": color, "gold": 7, "energy": 9})
    return made


def test_200_streams_opened_and_closed_while_a_game_is_played(server):
    """Issue 11: pages that come and go must not use up the 24 stream slots (no 503), and every
    stream that stays open gets every state event."""
    app, port = server
    hub = app.extensions["companion"].hub
    status, created = request(port, "POST", "/api/games", {"players": PLAYERS, "first_player": "red"})
    game = created["id"]
    held = [SseClient(port, f"/api/events?game={game}") for _ in range(3)]
    for sse in held:
        assert sse.next_event("state")["id"] == "1"
    made: list[int] = []
    player = threading.Thread(target=lambda: made.extend(_play_draft_and_resources(port, game)))
    player.start()
    statuses = [
        _open_and_close(port, f"/api/events?game={game}" if i % 2 else "/api/events")
        for i in range(200)
    ]
    player.join(timeout=60)
    assert not player.is_alive()
    assert statuses == [200] * 200, {s: statuses.count(s) for s in set(statuses)}
    assert made == list(range(2, 12))
    for sse in held:
        got = []
        while not got or got[-1] != made[-1]:
            event = sse.next_event("state")
            got.append(int(event["id"]))
        assert got == made, "a held stream missed (or repeated) a state event"
        sse.close()
    # The closed streams gave their slots back: waitress saw each close at once.
    deadline = threading.Event()
    for _ in range(100):
        if hub.client_count == 0:
            break
        deadline.wait(0.05)
    assert hub.client_count == 0
