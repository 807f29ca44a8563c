"""Battle photo retention: the camera's photos of finished games are pruned by age and total size.

Each camera reading lives in ``DATA/readings/<game>-<version>-<hex>/`` (see
:mod:`companion.web.api.readings`): ``reading.json`` (the counts, a few kB) and two photos,
``photo.jpg`` and ``annotated.jpg`` (most of the space). Pruning deletes the two photos and keeps
``reading.json``, so the counts and the game stay complete; the tablet then says the photo
"may have been taken on another day".

Rules, applied in this order:

1. Photos of a game that is not finished are **never** pruned (the players may still look at
   them, or correct a reading) — however old or large.
2. Photos older than ``max_age_days`` are pruned.
3. While all photos together take more than ``max_total_mb``, the oldest prunable reading's
   photos are pruned.

Settings (environment): ``COMPANION_PHOTO_DAYS`` (default 365; 0 = no age limit) and
``COMPANION_PHOTO_MB`` (default 2000; 0 = no size limit).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from companion.store.errors import StoreError

PHOTOS = ("photo.jpg", "annotated.jpg")
DEFAULT_DAYS = 365.0
DEFAULT_MB = 2000.0
_RID = re.compile(r"^(\d+)-(\d+)-[0-9a-f]{8}$")


class RetentionSettingError(StoreError, ValueError):
    """A photo retention setting in the environment is not a usable number."""


@dataclass(frozen=True)
class RetentionSettings:
    max_age_days: float = DEFAULT_DAYS  # 0: no age limit
    max_total_mb: float = DEFAULT_MB  # 0: no size limit


def retention_settings(environ: Mapping[str, str] | None = None) -> RetentionSettings:
    env = os.environ if environ is None else environ
    values = []
    for key, default in (("COMPANION_PHOTO_DAYS", DEFAULT_DAYS), ("COMPANION_PHOTO_MB", DEFAULT_MB)):
        raw = env.get(key, str(default))
        try:
            value = float(raw)
            if not value >= 0 or value == float("inf"):
                raise ValueError
        except ValueError:
            raise RetentionSettingError(
                f"{key} must be a number ≥ 0 (0 = no limit), not {raw!r}."
            ) from None
        values.append(value)
    return RetentionSettings(max_age_days=values[0], max_total_mb=values[1])


@dataclass
class _Reading:
    folder: Path
    game: int
    taken: datetime
    size: int  # bytes of its photos


@dataclass
class PruneReport:
    pruned: list[Path] = field(default_factory=list)  # reading folders whose photos went
    freed_bytes: int = 0
    kept_bytes: int = 0  # photos left, all games
    protected: int = 0  # readings of unfinished games left alone

    def __str__(self) -> str:
        return (f"pruned the photos of {len(self.pruned)} readings ({self.freed_bytes / 1e6:.1f} MB); "
                f"{self.kept_bytes / 1e6:.1f} MB of photos kept, {self.protected} readings of "
                "unfinished games left alone")


def _taken(folder: Path) -> datetime:
    try:
        data = json.loads((folder / "reading.json").read_text(encoding="utf-8"))
        return datetime.fromisoformat(data["taken_at"])
    except (OSError, ValueError, KeyError, TypeError):
        return datetime.fromtimestamp(folder.stat().st_mtime, timezone.utc)


def _readings(root: Path) -> list[_Reading]:
    out = []
    if not root.is_dir():
        return out
    for folder in root.iterdir():
        match = _RID.match(folder.name)
        if not match or not folder.is_dir():
            continue
        size = sum(p.stat().st_size for p in (folder / n for n in PHOTOS) if p.is_file())
        if size:  # photos pruned already: nothing left to weigh, so its reading.json is not read
            out.append(_Reading(folder, int(match.group(1)), _taken(folder), size))
    return sorted(out, key=lambda r: r.taken)


def prune_photos(root: Path, unfinished: Iterable[int], settings: RetentionSettings,
                 now: datetime | None = None) -> PruneReport:
    """Apply the rules of the module docstring to the readings under ``root``.

    ``unfinished`` are the ids of the games that are not over (their photos stay). Only photo
    files are deleted; a reading's ``reading.json`` is never touched."""
    now = now or datetime.now(timezone.utc)
    keep_games = set(unfinished)
    readings = _readings(root)
    report = PruneReport()
    total = sum(r.size for r in readings)
    cap = settings.max_total_mb * 1e6
    for r in readings:  # oldest first, each with photos
        if r.game in keep_games:
            report.protected += 1
            continue
        too_old = settings.max_age_days > 0 and (now - r.taken).total_seconds() > settings.max_age_days * 86400
        too_big = settings.max_total_mb > 0 and total > cap
        if not (too_old or too_big):
            continue
        for name in PHOTOS:
            (r.folder / name).unlink(missing_ok=True)
        total -= r.size
        report.freed_bytes += r.size
        report.pruned.append(r.folder)
    report.kept_bytes = total
    return report


def unfinished_games(log: object) -> list[int]:
    """The ids of the games in ``log`` (a GameLog) that are not finished."""
    return [g.id for g in log.games() if g.status != "finished"]  # type: ignore[attr-defined]
