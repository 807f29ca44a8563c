"""Speed of the web app against DESIGN.md's bars: ``python -m benchmarks.web``.

Starts the real server (``python -m companion serve``: waitress, real HTTP, simulated tower) in
its own process on a free port with a throw-away data directory, plays a 5-player game of about 200 events through the API, then times every
endpoint and page (median / max ms), the button press → reading on an open live stream, a
command → state event on an open live stream, and reports the process's resident memory.

Bars (DESIGN.md): every page and API call ≤ 100 ms with a 5-player game of 200 events;
button press → counted result on every tablet ≤ 1 s after the tray settled; RSS ≤ 250 MB.
This prints numbers; it never fails on them (timings belong in benchmarks, not tests).
"""

from __future__ import annotations

import argparse
import signal
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

PIN = "4711"  # the table PIN the benchmark server is started with (COMPANION_PIN)
REQUEST_TIMEOUT_S = 30.0

PLAYERS = [
    {"color": "red", "name": "Ada", "light_tribe": "elves", "dark_tribe": "demons"},
    {"color": "blue", "name": "Bo", "light_tribe": "dwarves", "dark_tribe": "orcs"},
    {"color": "yellow", "name": "Cy", "light_tribe": "light-tribe-3", "dark_tribe": "necromancers"},
    {"color": "purple", "name": "Di", "light_tribe": "light-tribe-4", "dark_tribe": "night_elves"},
    {"color": "black", "name": "Ed", "light_tribe": "light-tribe-5", "dark_tribe": "trolls"},
]
# Start regions the packaged board does not know yet (the elves start in Treehome).
START = {"blue": "mountainhome", "yellow": "white-falls", "purple": "shore-lake", "black": "heartwood"}
DRAFT = {"red": "borderland", "blue": "tribute-pass", "yellow": "the-murk", "purple": "emerald-cliff",
         "black": "forge-fire"}


class ServerGone(Exception):
    """The server stopped answering (it was killed)."""


class HttpClient:
    """A keep-alive JSON client that keeps the session cookie; any transport error (the server
    was killed) is :class:`ServerGone`."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT_S)

    def call(self, method: str, path: str, body: Any = None, label: str | None = None) -> tuple[int, Any]:
        response, raw = self._exchange(method, path, body, label)
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(raw) if kind.startswith("application/json") else raw

    def _exchange(self, method: str, path: str, body: Any,
                  label: str | None) -> tuple[http.client.HTTPResponse, bytes]:
        """Send one request and read its whole answer, keeping any cookie it sets."""
        headers = {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None if body is None else json.dumps(body)
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.conn.close()
            raise ServerGone(str(exc)) from None
        for header in response.headers.get_all("Set-Cookie") or ():
            name, _, value = header.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        return response, raw

    def close(self) -> None:
        self.conn.close()


def sign_in(client: HttpClient, pin: str = PIN) -> None:
    """Sign this client in with the table PIN (the session cookie is kept by the client).

    A server without a PIN route (404/405) needs no signing in."""
    status, body = client.call("POST", "/api/session", {"pin": pin})
    if status in (404, 405):
        return
    if status >= 300:
        raise RuntimeError(f"signing in failed: {status} {body}")


class Client(HttpClient):
    """:class:`HttpClient` signed in with the table PIN, recording the latency of every call by
    label (request sent to answer read)."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.timings: dict[str, list[float]] = {}
        status, _ = self.call("POST", "/api/session", {"pin": PIN}, "POST /api/session")
        assert status == 200, "the benchmark server did not take its table PIN"

    def _exchange(self, method: str, path: str, body: Any,
                  label: str | None) -> tuple[http.client.HTTPResponse, bytes]:
        start = time.perf_counter()
        answer = super()._exchange(method, path, body, label)
        elapsed = (time.perf_counter() - start) * 1000
        self.timings.setdefault(label or f"{method} {path}", []).append(elapsed)
        return answer


class Game:
    """Plays a game through the API, choosing plausible commands from the state."""

    def __init__(self, client: Client) -> None:
        self.client = client
        status, body = client.call("POST", "/api/games", {"players": PLAYERS, "first_player": "red",
                                                           "title": "Benchmark", "rounds": 8}, "POST /api/games")
        assert status == 201, body
        self.id = body["id"]
        self.state = body["state"]

    def send(self, **command: Any) -> bool:
        """Execute one command; True when accepted. Timed as accepted or refused."""
        accepted, refused = "POST /api/games/<id>/commands (accepted)", "POST /api/games/<id>/commands (refused)"
        status, body = self.client.call(
            "POST", f"/api/games/{self.id}/commands",
            {"command": command, "expected_version": self.state["version"]}, accepted,
        )
        if status == 200:
            self.state = body["state"]
            return True
        self.client.timings.setdefault(refused, []).append(self.client.timings[accepted].pop())
        self.last_refusal = body
        return False

    def armies_of(self, color: str) -> list[tuple[str, str, int]]:
        out = []
        for realm, regions in self.state["regions"].items():
            for rid, region in regions.items():
                n = region["armies"].get(color, 0)
                if n:
                    out.append((rid, realm, n))
        return out

    def setup(self) -> None:
        for p in PLAYERS:
            cmd = {"type": "deploy_start", "player": p["color"], "armies": 6}
            if p["color"] in START:
                cmd["region"] = START[p["color"]]
            assert self.send(**cmd), "deploy_start refused"
        for _ in PLAYERS:
            turn = self.state["turn"]
            assert self.send(type="deploy", player=turn, region=DRAFT[turn], realm="dark", armies=5)
        assert self.send(type="finish_deployment")
        for p in PLAYERS:
            assert self.send(type="starting_resources", player=p["color"], gold=8, energy=8)
        tray = {"red": 2, "blue": 1, "yellow": 3, "purple": 2, "black": 1, "green": 4}
        split = {p["color"]: {"light": tray[p["color"]], "dark": 0} for p in PLAYERS}
        assert self.send(type="seed_tower", tray=tray, limbo_split=split)

    def step(self) -> None:
        s = self.state
        phase, turn = s["phase"], s["turn"]
        if phase == "reinforcements":
            assert self.send(type="reinforce", player=turn, placements=[])
        elif phase == "planning":
            assert self.send(type="start_actions")
        elif phase == "scoring":
            assert self.send(type="score_round")
        elif phase == "battle":
            counts = dict(s["battle"]["throw"])
            assert self.send(type="resolve_battle", counts=counts, camera_counts=counts,
                             accept_impossible=True)
        elif phase == "actions":
            self.act(turn)
        else:
            raise RuntimeError(f"the benchmark does not know phase {phase!r}")

    def act(self, player: str) -> None:
        used = self.state["used"].get(player, [])
        mine = self.armies_of(player)
        rid, realm, _n = mine[0] if mine else ("", "light", 0)
        tries: list[dict[str, Any]] = []
        if "extract_gold" not in used and mine:
            tries.append({"type": "extract_gold", "player": player, "region": rid, "realm": realm, "amount": 2})
        if "extract_energy" not in used and mine:
            tries.append({"type": "extract_energy", "player": player, "region": rid, "realm": realm, "amount": 2})
        for source, src_realm, n in mine:
            if n > 1 and "attack" not in used:
                for target in self.state["regions"][src_realm]:
                    occupants = self.state["regions"][src_realm][target]["armies"]
                    if target != source and player not in occupants and len(occupants) <= 1:
                        tries.append({"type": "attack", "player": player, "source": source,
                                      "target": target, "realm": src_realm, "armies": 1,
                                      "card": "source"})
                        break
                break
        tries.append({"type": "pass", "player": player, "compensation": "gold"})
        for cmd in tries:
            if self.send(**cmd):
                return
        raise RuntimeError(f"no command of {player} was accepted")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> tuple[float, float]:
    """(current, peak) resident memory of process ``pid`` in MB, from /proc."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0]) / 1024
    return values.get("VmRSS", float("nan")), values.get("VmHWM", float("nan"))


def start_server(data: Path) -> tuple[subprocess.Popen[str], int]:
    """``python -m companion serve`` exactly as ``make run`` starts it, simulated tower."""
    port = free_port()
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", "COMPANION_DATA": str(data),
           "COMPANION_CAMERA": "synthetic", "COMPANION_GPIO": "mock", "COMPANION_PIN": PIN}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve"], env=env,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:
        if "serving on" in line:
            break
    else:
        raise RuntimeError("the server did not start")
    # Keep draining its log so the server never blocks on a full pipe.
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    return proc, port


class Stream:
    """An SSE reader on a thread; ``wait(event, after)`` returns the arrival time."""

    def __init__(self, port: int, path: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.arrivals: list[tuple[float, str, dict[str, Any]]] = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event, data = None, None
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                elif not line and event:
                    with self.cond:
                        self.arrivals.append((time.perf_counter(), event, data or {}))
                        self.cond.notify_all()
                    event, data = None, None
        except Exception:
            pass

    def wait(self, event: str, since: float, match: Callable[[dict[str, Any]], bool], timeout: float = 30) -> float:
        deadline = time.perf_counter() + timeout
        with self.cond:
            while True:
                for at, name, data in self.arrivals:
                    if at >= since and name == event and match(data):
                        return at
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"no {event} event within {timeout} s")
                self.cond.wait(left)


def run(events_wanted: int, repeats: int) -> None:
    data = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    proc, port = start_server(data)
    try:
        measure(proc, port, events_wanted, repeats)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)


def measure(proc: subprocess.Popen[str], port: int, events_wanted: int, repeats: int) -> None:
    client = Client(port)

    t0 = time.perf_counter()
    game = Game(client)
    game.setup()
    while game.state["version"] < events_wanted and game.state["phase"] != "over":
        game.step()
    while game.state["phase"] != "actions" or game.state["turn"] is None:
        if game.state["phase"] == "over":
            break
        game.step()
    build_s = time.perf_counter() - t0
    version = game.state["version"]
    g = game.id

    # A pending battle, so preview / count / reading have something to work on.
    battle = False
    if game.state["phase"] == "actions":
        player = game.state["turn"]
        for source, realm, n in game.armies_of(player):
            for target, region in game.state["regions"][realm].items():
                if n > 1 and target != source and player not in region["armies"] and len(region["armies"]) <= 1:
                    battle = game.send(type="attack", player=player, source=source, target=target,
                                       realm=realm, armies=1, card="target")
                    if battle:
                        break
            if battle:
                break

    stream = Stream(port, f"/api/events?game={g}")
    stream.wait("tower", 0, lambda d: True)

    # Button press → reading on an open live stream (includes the simulated settle frames).
    press_ms: list[float] = []
    if battle:
        for _ in range(3):
            start = time.perf_counter()
            client.call("POST", "/api/tower/press", {"button": "count"}, "POST /api/tower/press")
            try:
                at = stream.wait("reading", start, lambda d: d.get("game") == g, timeout=60)
            except TimeoutError:
                print("a button press brought no reading within 60 s; tower said:",
                      [d.get("message") for _, e, d in stream.arrivals if e == "tower" and d.get("message")])
                continue
            press_ms.append((at - start) * 1000)
    status, reading = client.call("GET", f"/api/games/{g}/battle/reading", label="GET /api/games/<id>/battle/reading")
    rid = reading["reading"]["id"] if status == 200 else None

    gets = {
        "GET /api/health": "/api/health",
        "GET /api/games": "/api/games",
        "GET /api/games/<id>": f"/api/games/{g}",
        "GET /api/board": "/api/board",
        "GET /api/tower": "/api/tower",
        "GET /api/stats": "/api/stats",
        "GET /api/openapi.json": "/api/openapi.json",
        "GET /api/games/<id>/export.json": f"/api/games/{g}/export.json",
        "GET /api/games/<id>/battles.csv": f"/api/games/{g}/battles.csv",
        "GET /api/games/<id>/battle/reading": f"/api/games/{g}/battle/reading",
    }
    if rid:
        gets["GET /api/readings/<rid>/annotated.jpg"] = f"/api/readings/{rid}/annotated.jpg"
    for page in ("/", "/games/new", f"/games/{g}", "/setup/board", "/stats", "/tower"):
        gets[f"GET page {page.replace(str(g), '<id>')}"] = page
    for _ in range(repeats):
        for label, path in gets.items():
            client.call("GET", path, label=label)
        refused = {"command": {"type": "pass", "player": "nobody", "compensation": "gold"}}
        client.call("POST", f"/api/games/{g}/commands", refused, "POST /api/games/<id>/commands (refused)")
        if battle:
            client.call("POST", f"/api/games/{g}/battle/preview", {"counts": {"green": 1}},
                        "POST /api/games/<id>/battle/preview")

    # Command → state event on an open stream (a device watching the game).
    sse_ms = []
    if battle:
        # The counts above became the shared reading (read_tray events): decide on that state.
        game.state = client.call("GET", f"/api/games/{g}", label="GET /api/games/<id>")[1]["state"]
        counts = dict(game.state["battle"]["throw"])
        start = time.perf_counter()
        game.send(type="resolve_battle", counts=counts, accept_impossible=True)
        new = game.state["version"]
        at = stream.wait("state", start, lambda d: d.get("version") == new)
        sse_ms.append((at - start) * 1000)
        for _ in range(repeats // 3 or 1):
            start = time.perf_counter()
            if not game.send(type="pass", player=game.state["turn"], compensation="energy"):
                break
            new = game.state["version"]
            at = stream.wait("state", start, lambda d: d.get("version") == new)
            sse_ms.append((at - start) * 1000)

    rss, peak = rss_mb(proc.pid)
    _, export = client.call("GET", f"/api/games/{g}/export.json", label="GET /api/games/<id>/export.json")
    kinds: dict[str, int] = {}
    for event in export["events"]:
        kinds[event["type"]] = kinds.get(event["type"], 0) + 1
    print(f"5-player game of {version} events built through the API in {build_s:.1f} s "
          f"(phase {game.state['phase']}, round {game.state['round']}); battle pending: {battle}")
    print("events by type: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"{'endpoint':52} {'n':>4} {'median ms':>10} {'max ms':>8}")
    for label, samples in sorted(client.timings.items()):
        if samples:
            print(f"{label:52} {len(samples):4d} {statistics.median(samples):10.1f} {max(samples):8.1f}")
    for label, samples in (("button press -> reading on a live stream", press_ms),
                           ("command -> state event on a live stream", sse_ms)):
        if samples:
            print(f"{label:52} {len(samples):4d} {statistics.median(samples):10.1f} {max(samples):8.1f}")
    print(f"resident memory of the server process: {rss:.0f} MB now, {peak:.0f} MB peak")


def _stream_churn(lookahead: int, n: int, samples: int) -> dict[str, float]:
    """Open and close ``n`` live streams one after another against an in-process waitress (the
    app's own 24 stream slots), and time how long one closed stream holds its slot."""
    import dataclasses

    from waitress.server import create_server

    from companion.config import settings_from_env
    from companion.web import create_app
    from companion.web.serve import REQUEST_THREADS

    with tempfile.TemporaryDirectory() as tmp:
        settings = dataclasses.replace(settings_from_env({"COMPANION_CAMERA": "synthetic",
                                                          "COMPANION_GPIO": "mock"}),
                                       data_dir=Path(tmp))
        app = create_app({"SETTINGS": settings})
        hub = app.extensions["companion"].hub
        srv = create_server(app, host="127.0.0.1", port=0, ident="companion",
                            threads=int(app.config["SSE_MAX_CLIENTS"]) + REQUEST_THREADS,
                            channel_request_lookahead=lookahead)
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        port = srv.effective_port

        def once() -> int:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: b\r\n\r\n")
                head = sock.recv(64)
            return int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0

        start = time.perf_counter()
        statuses = [once() for _ in range(n)]
        churn_s = time.perf_counter() - start
        freed = []
        for _ in range(samples):  # how long one closed stream keeps its slot
            deadline = time.perf_counter() + 60
            while hub.client_count and time.perf_counter() < deadline:
                time.sleep(0.005)
            once()
            closed_at = time.perf_counter()
            while hub.client_count and time.perf_counter() < deadline:
                time.sleep(0.005)
            freed.append((time.perf_counter() - closed_at) * 1000)
        app.extensions["companion"].close()
        srv.close()
        thread.join(timeout=10)
    return {"refused": sum(1 for s in statuses if s != 200), "per_stream_ms": churn_s / n * 1000,
            "slot_freed_ms": statistics.median(freed)}


def streams(n: int) -> None:
    """Ours (waitress keeps reading the connection) beside the baseline (waitress defaults, as
    before issue 11). The baseline's slots come back only when a ping write fails (15 s pings):
    this takes a minute or two."""
    print(f"\nLive streams: {n} opened and closed one after another, 24 stream slots")
    print(f"{'server':44} {'refused (503)':>14} {'ms / stream':>12} {'slot freed after (median ms)':>30}")
    for label, lookahead, samples in (("ours (channel_request_lookahead=1)", 1, 5),
                                      ("baseline (waitress default, lookahead=0)", 0, 1)):
        r = _stream_churn(lookahead, n, samples)
        freed = f"{r['slot_freed_ms']:.0f}" if r["slot_freed_ms"] < 59_000 else "> 60000"
        print(f"{label:44} {r['refused']:>14} {r['per_stream_ms']:>12.1f} {freed:>30}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web", description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=200, help="events in the game (default 200)")
    parser.add_argument("--repeats", type=int, default=30, help="timed calls per endpoint (default 30)")
    parser.add_argument("--streams", type=int, default=200, help="live streams opened and closed (default 200)")
    parser.add_argument("--streams-only", action="store_true", help="only the live-stream measurement")
    args = parser.parse_args(argv)
    if not args.streams_only:
        run(args.events, args.repeats)
    streams(args.streams)
    return 0


if __name__ == "__main__":
    sys.exit(main())
