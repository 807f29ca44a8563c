"""A data folder the companion cannot write: ``companion serve`` says so in one sentence and
stops (exit 2), instead of showing games it could not save a move of.

The real server process is started on a folder with mode 555. As root (CI containers) the
permission bits do not bind, so the server then runs without the capability that overrides
them (``setpriv --bounding-set -dac_override``) — the same refusal a Pi user gets.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.store import GameLog


def _serve_cmd() -> list[str]:
    cmd = [sys.executable, "-m", "companion", "serve"]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: a read-only folder cannot be made")
        cmd = [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--", *cmd]
    return cmd


def test_a_read_only_data_folder_stops_the_start_with_a_clear_sentence(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with GameLog(data / "companion.sqlite3") as log:  # games from before the folder went read-only
        log.create_game("Kept", first_event={"type": "new_game"})
    before = (data / "companion.sqlite3").read_bytes()
    data.chmod(0o555)
    try:
        env = {**os.environ, "COMPANION_DATA": str(data), "PORT": "1", "HOST": "127.0.0.1",
               "COMPANION_CAMERA": "synthetic", "COMPANION_GPIO": "mock"}
        done = subprocess.run(_serve_cmd(), env=env, capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
    finally:
        data.chmod(0o755)
    assert done.returncode == 2, done.stderr
    assert "cannot start" in done.stderr and "cannot be written" in done.stderr
    assert "COMPANION_DATA" in done.stderr and "Traceback" not in done.stderr
    assert (data / "companion.sqlite3").read_bytes() == before
