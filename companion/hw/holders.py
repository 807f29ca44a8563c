"""Who holds the camera: telling "in use by another program" from a cable fault.

Picamera2 re-raises libcamera's acquire failure (``RuntimeError("Failed to acquire camera:
Device or resource busy")``, errno EBUSY; older versions ``"camera.acquire() returned
unexpected code: -16"``, libcamera logging "Pipeline handler in use by another process") as a
plain ``RuntimeError("Camera __init__ sequence did not complete.")`` raised *while handling*
it — so the busy reason is only in the outer error's ``__context__`` (raspberrypi/picamera2
#399, #587, #991). :func:`is_busy` therefore walks the whole chain.

:func:`camera_holders` names the processes that have a camera device open by reading
``/proc/<pid>/fd`` (only processes of the same user, or all as root, are visible; the others
are skipped silently) — Linux only; elsewhere it finds nothing.
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

# Device nodes a libcamera camera is opened through on a Pi (unicam/CFE, the ISP, the sensor).
CAMERA_DEVICES = re.compile(r"^/dev/(media\d+|video\d+|v4l-subdev\d+)$")
_BUSY_WORDS = ("resource busy", "pipeline handler in use", "returned unexpected code: -16",
               "ebusy")


@dataclass(frozen=True)
class Holder:
    """A process holding a camera device open."""

    pid: int
    name: str  # the command line, shortened
    device: str

    def __str__(self) -> str:
        return f"{self.name} (process {self.pid})"


def exception_chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and every exception it was raised from or while handling, outermost first."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def is_busy(exc: BaseException) -> bool:
    """True when anywhere in ``exc``'s chain the camera was refused as in use (EBUSY)."""
    for link in exception_chain(exc):
        if isinstance(link, OSError) and link.errno == errno.EBUSY:
            return True
        if any(word in str(link).lower() for word in _BUSY_WORDS):
            return True
    return False


def camera_holders(proc: Path = Path("/proc"), devices: re.Pattern[str] = CAMERA_DEVICES,
                   skip: Iterable[int] = ()) -> list[Holder]:
    """The processes (other than this one and ``skip``) with a camera device open."""
    mine = {os.getpid(), *skip}
    found: list[Holder] = []
    try:
        entries = list(proc.iterdir())
    except OSError:
        return found
    for entry in entries:
        if not entry.name.isdigit() or int(entry.name) in mine:
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:  # another user's process, or gone
            continue
        for fd in fds:
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if devices.match(target):
                found.append(Holder(int(entry.name), _command(entry), target))
                break
    return found


def _command(entry: Path) -> str:
    try:
        raw = (entry / "cmdline").read_bytes()
    except OSError:
        return "?"
    words = [w.decode(errors="replace") for w in raw.split(b"\0") if w]
    if not words:
        return "?"
    words[0] = os.path.basename(words[0])  # "python3 -m companion serve", not the venv path
    text = " ".join(w if len(w) <= 40 else w[:39] + "…" for w in words)
    return text if len(text) <= 100 else text[:99] + "…"


def busy_message(exc: BaseException | None = None, holders: list[Holder] | None = None) -> str:
    """The sentence for a camera held by another program, naming it when it can be found."""
    holders = camera_holders() if holders is None else holders
    if holders:
        who = ", ".join(str(h) for h in holders)
        fix = ("stop it (the companion service: sudo systemctl stop companion; another "
               "program: close it or kill its process)")
        return (f"The Pi camera is in use by another program: {who} — {fix}. "
                "Enter the counts by hand meanwhile.")
    return ("The Pi camera is in use by another program (often the companion service or a "
            "second 'companion serve') — stop it: sudo systemctl stop companion, or close the "
            "other camera program. Enter the counts by hand meanwhile.")
