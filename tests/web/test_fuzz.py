"""schemathesis against the real server (waitress on a free port, temporary data folder, seeded
simulated tower), from the server's own OpenAPI document: every operation with data that fits
its schema and data that does not, stateful sequences that follow the document's links, and a
method each path does not take. A fixed seed keeps it repeatable; ``python -m benchmarks.fuzz``
runs the same with ≥ 10 000 requests.

Expected: no 5xx, every answer as documented, and no rejected request changes anything.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.fuzz import Report, fuzz

REQUESTS = 500
SEED = 20261124


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    return fuzz(REQUESTS, seed=SEED, data_dir=tmp_path_factory.mktemp("fuzz") / "data")


def _findings(report: Report, kind: str) -> str:
    return "\n".join(f"{f.operation} → {f.status}: {f.detail}" for f in report.findings if f.kind == kind)


def test_the_sample_is_as_large_as_asked(report: Report) -> None:
    assert report.requests >= REQUESTS


def test_no_server_errors(report: Report) -> None:
    assert report.server_errors == 0, _findings(report, "server error")


def test_every_answer_is_as_documented(report: Report) -> None:
    assert report.spec_violations == 0, _findings(report, "spec violation")


def test_no_rejected_request_changes_anything(report: Report) -> None:
    assert report.rejected_changing > 0, "no state-changing request was refused: nothing was checked"
    assert report.state_changes == 0, _findings(report, "state change")


def test_every_documented_operation_was_fuzzed(report: Report, tmp_path: Path) -> None:
    from tests.web.conftest import make_app

    app = make_app(tmp_path / "data")
    try:
        doc = app.test_client().get("/api/openapi.json").get_json()
    finally:
        app.extensions["companion"].close()
    documented = {f"{m.upper()} {p}" for p, ops in doc["paths"].items() for m in ops}
    # schemathesis loads the document from GET /api/openapi.json and leaves that one out
    assert documented - report.operations == {"GET /api/openapi.json"}


def test_stateful_sequences_create_a_game_and_play_it(report: Report) -> None:
    """The links from "create game" lead the state machine into a real game: a game was made
    and then read or changed through routes that take its id."""
    accepted = report.stateful_accepted
    assert accepted["POST /api/games"] > 0, json.dumps(accepted, indent=1)
    used = [op for op in accepted if "{game_id}" in op]
    assert len(used) >= 3, json.dumps(accepted, indent=1)


def test_the_fuzzer_is_signed_in(report: Report) -> None:
    """State-changing requests reached the routes, not the PIN check: 401 is the exception."""
    assert report.statuses[401] < report.requests / 20, dict(report.statuses)


def test_the_state_check_sees_a_commit_and_a_new_file(tmp_path: Path) -> None:
    """The zero above means something: a commit by another connection, or a file written to the
    data folder, changes the fingerprint; reading does not."""
    import sqlite3

    from benchmarks.fuzz import Fingerprint

    database = tmp_path / "companion.sqlite3"
    writer = sqlite3.connect(database)
    writer.execute("CREATE TABLE t (x)")
    writer.commit()
    fingerprint = Fingerprint(database, tmp_path)
    try:
        before = fingerprint.take()
        writer.execute("SELECT * FROM t").fetchall()
        assert fingerprint.take() == before
        writer.execute("INSERT INTO t VALUES (1)")
        writer.commit()
        after_commit = fingerprint.take()
        assert after_commit != before
        (tmp_path / "readings").mkdir()
        (tmp_path / "readings" / "photo.jpg").write_bytes(b"x")
        assert fingerprint.take() != after_commit
    finally:
        fingerprint.close()
        writer.close()
