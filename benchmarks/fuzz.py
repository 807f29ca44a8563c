"""Fuzz the real server from its own OpenAPI document (schemathesis) and count what went wrong.

    python -m benchmarks.fuzz                 # ≥ 10 000 requests, seed 1
    python -m benchmarks.fuzz --requests 2000 --seed 7

The server is the real one: ``create_app`` served by waitress on a free port, in a thread, on a
temporary data folder, with the seeded simulated tower. The fuzzer signs in with the table PIN
first (:func:`sign_in`), so state-changing requests reach the game instead of stopping at 401.

Every operation of the document is fuzzed with data that fits its schema (positive) and data
that does not (negative), then schemathesis' state machine follows the document's links
(create a game → commands, battle, exports …; add a person → rename, merge …), and every path is
asked with a method it does not take. Per answer:

* **server error** — any 5xx;
* **spec violation** — the answer does not conform to the document (undocumented status,
  body not matching the schema, missing ``Allow`` on 405 …), a request that breaks the schema
  was accepted (2xx), or one that fits the schema was refused as malformed
  (``MalformedRequestError``: the document is looser than the validation);
* **state change by a rejected request** — a 4xx answer to a POST/PUT/PATCH/DELETE after which
  the database (SQLite ``PRAGMA data_version``: any commit by another connection) or the data
  folder's files differ from before.

``POST /api/tower/press`` with ``"count"`` is not sent: by design (202) it starts a count in the
background whose ``read_tray`` event lands later, and would be blamed on whatever request runs
then; its refusals (any other button) are fuzzed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PIN = "2468"
SAFE = {"GET", "HEAD", "OPTIONS"}
BASELINE = "issue 12 (before): 823 generated requests, 7 routes answered 500 on a large id, 4 spec-allowed requests refused, 2 undocumented statuses, 405 without Allow"


@dataclass
class Finding:
    kind: str  # "server error" | "spec violation" | "state change"
    operation: str
    status: int
    detail: str


@dataclass
class Report:
    requests: int = 0
    stateful_requests: int = 0
    server_errors: int = 0
    spec_violations: int = 0
    state_changes: int = 0
    rejected_changing: int = 0  # 4xx answers to state-changing requests (each one checked)
    statuses: Counter[int] = field(default_factory=Counter)
    operations: set[str] = field(default_factory=set)
    stateful_accepted: Counter[str] = field(default_factory=Counter)  # 2xx inside sequences
    seconds: Counter[str] = field(default_factory=Counter)  # time spent per operation
    # 400s to requests that fit the document: the rules said no (which error, where)
    rule_refusals: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)

    def add(self, kind: str, operation: str, status: int, detail: str) -> None:
        if kind == "server error":
            self.server_errors += 1
        elif kind == "spec violation":
            self.spec_violations += 1
        else:
            self.state_changes += 1
        if len(self.findings) < 200:
            self.findings.append(Finding(kind, operation, status, detail[:600]))

    def summary(self) -> str:
        lines = [
            f"requests:                          {self.requests} "
            f"({self.stateful_requests} in stateful sequences)",
            f"operations fuzzed:                 {len(self.operations)}",
            f"server errors (5xx):               {self.server_errors}",
            f"spec violations:                   {self.spec_violations}",
            f"state changes by rejected requests: {self.state_changes} "
            f"(of {self.rejected_changing} rejected state-changing requests)",
            "statuses: " + ", ".join(f"{s}×{n}" for s, n in sorted(self.statuses.items())),
        ]
        if self.rule_refusals:
            lines.append("most frequent 400s to requests that fit the document (the rules said no):")
            lines += [f"  {n:5d}  {what}" for what, n in self.rule_refusals.most_common(8)]
        for f in self.findings[:20]:
            lines.append(f"  {f.kind}: {f.operation} → {f.status}: {f.detail}")
        return "\n".join(lines)


# -- the real server -----------------------------------------------------------------------------

@contextlib.contextmanager
def real_server(data_dir: Path, seed: int = 7) -> Iterator[tuple[str, Any]]:
    """waitress serving ``create_app`` on a free port; yields (base URL, app)."""
    from companion.config import Settings
    from companion.hw.tower import Tower
    from companion.web import create_app
    from companion.web.serve import make_server

    settings = Settings(data_dir=data_dir, camera="synthetic", gpio="mock")
    app = create_app({
        "DATA_DIR": data_dir,
        "SETTINGS": settings,
        "TOWER": Tower.from_settings(settings, environ={"COMPANION_SIM_SEED": str(seed)}),
        "PIN": PIN,
        # The fuzzer sends wrong PINs too; it must not lock its own address out.
        "PIN_MAX_FAILURES": 10**9,
        # Live streams end quickly, so a fuzzed GET /api/events answers in time.
        "SSE_MAX_AGE_SECONDS": 0.3, "SSE_PING_SECONDS": 0.1, "SSE_POLL_SECONDS": 0.05,
        "SSE_RETRY_MS": 100, "COUNT_TIMEOUT": 5.0, "TOWER_POLL_SECONDS": 0.5,
    })
    server = make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, name="waitress-fuzzed", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}", app
    finally:
        app.extensions["companion"].close()
        server.close()
        thread.join(timeout=10)


def sign_in(session: Any, base: str) -> None:
    """Enter the table PIN: the session keeps the signed cookie."""
    answer = session.post(f"{base}/api/session", json={"pin": PIN}, timeout=10)
    answer.raise_for_status()


class Fingerprint:
    """Cheap "did anything change?": SQLite's data_version (moves on every commit by another
    connection) and the data folder's files (name, size) other than the database's."""

    def __init__(self, database: Path, data_dir: Path) -> None:
        self.conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, check_same_thread=False)
        self.data_dir = data_dir

    def take(self) -> tuple[int, frozenset[tuple[str, int]]]:
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        files = []
        for root, _, names in os.walk(self.data_dir):
            for name in names:
                if ".sqlite3" in name or name.endswith(".tmp"):
                    continue
                path = Path(root, name)
                with contextlib.suppress(FileNotFoundError):
                    files.append((str(path.relative_to(self.data_dir)), path.stat().st_size))
        return version, frozenset(files)

    def close(self) -> None:
        self.conn.close()


# -- the fuzzer ------------------------------------------------------------------------------------

class Fuzzer:
    def __init__(self, base: str, app: Any, report: Report) -> None:
        import requests
        import schemathesis
        from schemathesis.specs.openapi import checks as oa
        from schemathesis.checks import not_a_server_error

        self.base = base
        self.report = report
        self.session = requests.Session()
        sign_in(self.session, base)
        self.schema = schemathesis.openapi.from_url(f"{base}/api/openapi.json")
        settings = app.extensions["companion"].settings
        self.fingerprint = Fingerprint(Path(settings.database_path), Path(settings.data_dir))
        self.new_game = self._playable_new_game()
        self.creates = 0
        self.checks = [not_a_server_error, oa.status_code_conformance, oa.content_type_conformance,
                       oa.response_headers_conformance, oa.response_schema_conformance,
                       oa.negative_data_rejection]

    def _playable_new_game(self) -> dict[str, Any]:
        """Players and tribes the board has: random text never names a tribe of the board, so
        without these the state machine would never get a game to play."""
        tribes = self.session.get(f"{self.base}/api/board", timeout=10).json()["tribes"]
        light = [t["id"] for t in tribes if t.get("realm") == "light"]
        dark = [t["id"] for t in tribes if t.get("realm") == "dark"]
        colours = ("red", "blue", "yellow")
        players = [{"color": c, "light_tribe": light[i], "dark_tribe": dark[i]}
                   for i, c in enumerate(colours)]
        return {"players": players, "first_player": "red"}

    def playable(self, case: Any) -> None:
        """Every other create-game request of a sequence gets the board's players and tribes
        (its other fields stay as generated), so sequences go on into a real game."""
        if case.method.upper() == "POST" and case.path == "/api/games" and isinstance(case.body, dict):
            self.creates += 1
            if self.creates % 2:
                case.body = {**{k: v for k, v in case.body.items() if k in ("title", "rounds")},
                             **self.new_game}

    def close(self) -> None:
        self.fingerprint.close()
        self.session.close()

    @staticmethod
    def skipped(case: Any) -> bool:
        body = case.body if isinstance(getattr(case, "body", None), dict) else {}
        return case.path == "/api/tower/press" and body.get("button") == "count"

    def send(self, case: Any, *, stateful: bool = False) -> Any:
        """Send one case, check the answer, return it (a schemathesis Response)."""
        method = case.method.upper()
        label = f"{method} {case.path}"
        changing = method not in SAFE
        before = self.fingerprint.take() if changing else None
        started = time.perf_counter()
        response = case.call(base_url=self.base, session=self.session, timeout=30)
        self.report.seconds[label] += time.perf_counter() - started
        self.report.requests += 1
        self.report.stateful_requests += stateful
        self.report.statuses[response.status_code] += 1
        self.report.operations.add(label)
        status = response.status_code
        if stateful and status < 300:
            self.report.stateful_accepted[label] += 1
        if status >= 500:
            self.report.add("server error", label, status, _text(response))
        if before is not None and 400 <= status < 500:
            self.report.rejected_changing += 1
            if self.fingerprint.take() != before:
                self.report.add("state change", label, status, _text(response))
        self.check(case, response, label)
        if case.path == "/api/session" and method == "DELETE" and status < 300:
            sign_in(self.session, self.base)  # signed out on purpose: back in, to keep fuzzing
        return response

    def check(self, case: Any, response: Any, label: str) -> None:
        from schemathesis.core.failures import FailureGroup
        from schemathesis.generation import GenerationMode

        try:
            case.validate_response(response, checks=self.checks)
        except FailureGroup as group:
            for failure in group.exceptions:
                if type(failure).__name__ == "ServerError":
                    continue  # counted as a server error already
                if type(failure).__name__ == "AcceptedNegativeData" and 400 <= response.status_code < 500:
                    continue  # refused all the same (413 too large, 409 …): not accepted
                self.report.add("spec violation", label, response.status_code,
                                f"{type(failure).__name__}: {failure.title}")
        except AssertionError as exc:
            self.report.add("spec violation", label, response.status_code, str(exc))
        meta = getattr(case, "meta", None)
        mode = getattr(getattr(meta, "generation", None), "mode", None)
        if mode == GenerationMode.POSITIVE and response.status_code == 400:
            kind = _error_kind(response)
            self.report.rule_refusals[f"{label}: {kind}"] += 1
            if kind == "MalformedRequestError":
                self.report.add("spec violation", label, 400,
                                f"fits the document but refused as malformed: {_text(response)}")

    # -- phases --------------------------------------------------------------------------------

    def operations(self) -> list[Any]:
        return [result.ok() for result in self.schema.get_all_operations()]

    def fuzz_operation(self, operation: Any, mode: Any, examples: int, seed: int) -> None:
        from hypothesis import HealthCheck, Phase, given, settings
        from hypothesis import seed as fixed_seed
        from hypothesis.errors import Unsatisfiable

        @fixed_seed(seed)
        @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(generation_mode=mode))
        def run(case: Any) -> None:
            if not self.skipped(case):
                self.send(case)

        try:
            run()
        except Unsatisfiable:
            pass  # nothing of this kind to generate (e.g. no negative data for a bare GET)

    def stateful(self, examples: int, steps: int, seed: int) -> None:
        from hypothesis import HealthCheck, Phase, Verbosity, settings
        from hypothesis import seed as fixed_seed
        from hypothesis.errors import Flaky, FlakyStrategyDefinition
        from hypothesis.stateful import run_state_machine_as_test

        fuzzer = self
        base_machine = self.linked_schema().as_state_machine()

        class Machine(base_machine):  # type: ignore[misc,valid-type]
            def call(self, case: Any, **kwargs: Any) -> Any:
                if fuzzer.skipped(case):
                    case.body = {"button": "cancel"}
                fuzzer.playable(case)
                return fuzzer.send(case, stateful=True)

            def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
                pass  # send() checked it already

        run = fixed_seed(seed)(lambda: run_state_machine_as_test(Machine, settings=settings(
            max_examples=examples, stateful_step_count=steps, database=None, deadline=None,
            phases=[Phase.generate], verbosity=Verbosity.quiet,
            suppress_health_check=list(HealthCheck))))
        try:
            run()
        except (Flaky, FlakyStrategyDefinition):
            # Which rules can run depends on the server's answers (the links' bundles), so a
            # replay may draw differently: the sequences sent so far are sent; the caller
            # starts the next round with another seed (as schemathesis' own runner does).
            pass

    def linked_schema(self) -> Any:
        """The schema narrowed to the operations the links join (create game → its routes,
        add person → theirs): every sequence starts by creating something and goes on with it.
        Operations outside the links are fuzzed one by one already."""
        doc = self.session.get(f"{self.base}/api/openapi.json", timeout=10).json()
        ids = set()
        for ops in doc["paths"].values():
            for op in ops.values():
                for answer in op.get("responses", {}).values():
                    links = answer.get("links") or {}
                    if links:
                        ids.add(op["operationId"])
                        ids.update(link["operationId"] for link in links.values())
        return self.schema.include(operation_id=sorted(ids))

    def wrong_methods(self) -> None:
        """Every path asked with a method it does not take: 405 with an Allow header."""
        doc = self.session.get(f"{self.base}/api/openapi.json", timeout=10).json()
        for path, ops in doc["paths"].items():
            taken = {m.upper() for m in ops}
            url = self.base + path.replace("{", "").replace("}", "")
            for name, value in _sample_params(ops).items():
                url = url.replace(name, value)
            for method in ("GET", "PUT", "PATCH", "DELETE", "POST"):
                if method in taken:
                    continue
                response = self.session.request(method, url, timeout=10)
                self.report.requests += 1
                self.report.statuses[response.status_code] += 1
                allow = {m.strip() for m in response.headers.get("Allow", "").split(",") if m.strip()}
                if response.status_code >= 500:
                    self.report.add("server error", f"{method} {path}", response.status_code, response.text)
                elif response.status_code != 405 or not taken <= allow:
                    self.report.add("spec violation", f"{method} {path}", response.status_code,
                                    f"expected 405 with Allow ⊇ {sorted(taken)}, got Allow {sorted(allow)}")
                break  # one wrong method per path is enough


def _sample_params(ops: dict[str, Any]) -> dict[str, str]:
    values = {}
    for op in ops.values():
        for p in op.get("parameters", []):
            if p.get("in") == "path":
                schema = p.get("schema", {})
                values[p["name"]] = "1" if schema.get("type") == "integer" else "games"
    return values


def _text(response: Any) -> str:
    try:
        return response.text[:300]
    except Exception:  # a binary body
        return f"<{len(response.content)} bytes>"


def _error_kind(response: Any) -> str | None:
    try:
        body = response.json()
    except Exception:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    return error.get("kind") if isinstance(error, dict) else None


def fuzz(requests: int, seed: int = 1, data_dir: Path | None = None) -> Report:
    """Fuzz a fresh real server with about ``requests`` requests; the report of what went wrong.

    Budget: about 60 % single operations (positive and negative, evenly per operation), 40 %
    stateful sequences of up to 12 steps; plus one wrong-method probe per path.
    """
    from schemathesis.generation import GenerationMode

    report = Report()
    with contextlib.ExitStack() as stack:
        if data_dir is None:
            data_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fuzz-"))) / "data"
        base, app = stack.enter_context(real_server(data_dir))
        fuzzer = Fuzzer(base, app, report)
        stack.callback(fuzzer.close)
        fuzzer.wrong_methods()
        operations = fuzzer.operations()
        single = max(1, int(requests * 0.6) // (2 * len(operations)))
        for i, operation in enumerate(operations):
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                fuzzer.fuzz_operation(operation, mode, single, seed * 1000 + i)
        steps = 12
        left = max(0, requests - report.requests)
        round_ = 0
        while report.requests < requests and round_ < 50:
            before = report.requests
            fuzzer.stateful(max(1, left // steps), steps, seed * 7919 + round_)
            round_ += 1
            if report.requests == before:
                break
            left = requests - report.requests
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    report = fuzz(args.requests, args.seed)
    seconds = time.perf_counter() - start
    print(f"python -m benchmarks.fuzz --requests {args.requests} --seed {args.seed}")
    print(report.summary())
    print(f"time: {seconds:.0f} s ({report.requests / seconds:.0f} requests/s)")
    print(f"baseline: {BASELINE}")


if __name__ == "__main__":
    main()
