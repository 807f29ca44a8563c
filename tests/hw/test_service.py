"""The installed service as shell commands see it (state, data folder) and who holds the camera."""

from __future__ import annotations

import errno
import re
import subprocess
import sys
from pathlib import Path

from companion.hw.holders import busy_message, camera_holders, is_busy
from companion.hw.service import data_dir_mismatch, service_data_dir, service_state

UNIT = """[Service]
User=alice
WorkingDirectory=/home/alice/companion
Environment=PORT=8000
Environment=COMPANION_DATA=/home/alice/companion/data
"""


def test_the_units_data_folder_is_read_and_compared(tmp_path):
    unit = tmp_path / "companion.service"
    assert service_data_dir(unit) is None and data_dir_mismatch(tmp_path, unit) is None
    unit.write_text(UNIT)
    assert service_data_dir(unit) == Path("/home/alice/companion/data")
    said = data_dir_mismatch(tmp_path / "data", unit)
    assert said and "COMPANION_DATA=/home/alice/companion/data" in said
    assert data_dir_mismatch(Path("/home/alice/companion/data"), unit) is None


def test_service_state_from_systemctl_and_none_without_it(tmp_path):
    def answer(state):
        return lambda *a, **kw: subprocess.CompletedProcess(a, 0, stdout=state + "\n")

    assert service_state(answer("active"), systemctl="systemctl") == "active"
    assert service_state(answer("inactive"), systemctl="systemctl") == "inactive"
    assert service_state(systemctl=str(tmp_path / "no-systemctl")) is None  # OSError


def test_busy_is_found_in_the_context_or_the_errno():
    try:
        try:
            raise RuntimeError("Failed to acquire camera: Device or resource busy")
        except RuntimeError:
            raise RuntimeError("Camera __init__ sequence did not complete.")  # noqa: B904
    except RuntimeError as outer:
        assert is_busy(outer)
    assert is_busy(OSError(errno.EBUSY, "busy"))
    assert not is_busy(RuntimeError("Camera __init__ sequence did not complete."))
    assert not is_busy(OSError(errno.ENODEV, "No such device"))


def test_the_process_holding_the_camera_is_named(tmp_path):
    device = tmp_path / "media0"
    device.write_bytes(b"")
    script = tmp_path / "holder.py"
    script.write_text(f"import sys\nf = open({str(device)!r})\nprint('open', flush=True)\n"
                      "sys.stdin.read()\n")
    holder = subprocess.Popen([sys.executable, str(script), "companion-serve-stand-in"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    pattern = re.compile("^" + re.escape(str(device)) + "$")
    try:
        assert holder.stdout.readline().strip() == "open"  # awaited: the file is open now
        found = camera_holders(devices=pattern)
        assert [h.pid for h in found] == [holder.pid]
        assert "companion-serve-stand-in" in found[0].name
        said = busy_message(holders=found)
        assert f"process {holder.pid}" in said and "companion-serve-stand-in" in said
    finally:
        holder.stdin.close()
        holder.wait(5)
    assert camera_holders(devices=pattern) == []
