"""Camera readings of the tray: kept on disk so a reload or a restart shows the same photo.

A reading is *not* a game event: it is what the camera saw, waiting for the players to confirm
or correct it. Only the ``resolve_battle`` command with the confirmed counts changes the game.

Layout: ``DATA_DIR/readings/<rid>/{reading.json, photo.jpg, annotated.jpg[, empty.jpg]}`` where
``rid = "<game>-<version>-<8 hex>"``. Each file is written to a temporary name, flushed to disk
and renamed, so a power cut never leaves half a reading behind; ``reading.json`` is written last,
so a reading without it never counts as taken.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.messages import msg
from companion.web.api.errors import NotFoundError

_RID = re.compile(r"^(\d+)-(\d+)-[0-9a-f]{8}$")
IMAGES = {"photo": "photo.jpg", "annotated": "annotated.jpg", "empty": "empty.jpg"}


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader sees either the old or the new file."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def _detection_to_dict(det: Any) -> dict[str, Any]:
    if isinstance(det, Mapping):
        return dict(det)
    out: dict[str, Any] = {
        "color": det.color,
        "x": det.x,
        "y": det.y,
        "confidence": round(float(det.confidence), 3),
    }
    bbox = getattr(det, "bbox", None)
    if bbox is not None:
        out["bbox"] = [int(v) for v in bbox]
    return out


def _vision_extras(outcome: Any) -> dict[str, Any]:
    """The vision result's own JSON (``TrayCount.to_json``) minus what the reading already has;
    nothing when the result has none or it is not JSON-safe."""
    result = getattr(outcome, "result", None)
    to_json = getattr(result, "to_json", None)
    if to_json is None:
        return {}
    try:
        extras = to_json()
        json.dumps(extras)
    except Exception:  # an extra is a courtesy: the reading itself must be stored
        return {}
    return dict(extras) if isinstance(extras, dict) else {}


class ReadingStore:
    """Readings by id, and the latest one of every game. Thread-safe."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._latest: dict[int, dict[str, Any]] = {}
        self._load_latest()

    def _load_latest(self) -> None:
        if not self.root.is_dir():
            return
        for entry in self.root.iterdir():
            meta = entry / "reading.json"
            if not _RID.match(entry.name) or not meta.is_file():
                continue
            try:
                reading = json.loads(meta.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # a damaged reading is skipped; the players can count again
            game = reading.get("game")
            current = self._latest.get(game)
            if current is None or reading["taken_at"] > current["taken_at"]:
                self._latest[game] = reading

    def save(self, game: int, version: int, outcome: Any, thrown: Mapping[str, int]) -> dict[str, Any]:
        """Store one camera outcome for ``game`` at state ``version``; returns the reading."""
        rid = f"{game}-{version}-{secrets.token_hex(4)}"
        folder = self.root / rid
        folder.mkdir(parents=True, exist_ok=False)
        atomic_write(folder / IMAGES["photo"], bytes(outcome.image_jpeg))
        atomic_write(folder / IMAGES["annotated"], bytes(outcome.annotated_jpeg))
        # The tray checked empty before the throw (the light reference), when there was one.
        empty = getattr(outcome, "empty_jpeg", None)
        if isinstance(empty, (bytes, bytearray)):
            atomic_write(folder / IMAGES["empty"], bytes(empty))
        reading = {
            "id": rid,
            "game": game,
            "version": version,
            "counts": {c: int(n) for c, n in dict(outcome.counts).items() if n},
            "cubes": [_detection_to_dict(d) for d in getattr(outcome, "detections", ())],
            "unknown": int(getattr(outcome, "unknown", 0)),
            "ms": round(float(getattr(outcome, "ms", 0.0)), 1),
            "thrown": {c: int(n) for c, n in thrown.items() if n},
            "photo_url": f"/api/readings/{rid}/photo.jpg",
            "annotated_url": f"/api/readings/{rid}/annotated.jpg",
            "taken_at": datetime.now(UTC).isoformat(timespec="milliseconds"),
        }
        if isinstance(empty, (bytes, bytearray)):
            reading["empty_url"] = f"/api/readings/{rid}/empty.jpg"
        # Whatever else the vision reports (per-colour confidence, doubtful blobs, …) passes
        # through unchanged, so a new field reaches the UI without a change here.
        for key, value in _vision_extras(outcome).items():
            reading.setdefault(key, value)
        atomic_write(folder / "reading.json", json.dumps(reading).encode("utf-8"))
        with self._lock:
            self._latest[game] = reading
        return reading

    def get(self, rid: str) -> dict[str, Any]:
        """One stored reading by id; :class:`NotFoundError` for an unknown one."""
        if not _RID.match(rid):
            raise NotFoundError(msg("err_no_reading"))
        with self._lock:
            for reading in self._latest.values():
                if reading["id"] == rid:
                    return reading
        try:
            return json.loads((self.root / rid / "reading.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise NotFoundError(msg("err_no_reading")) from None

    def latest(self, game: int) -> dict[str, Any] | None:
        with self._lock:
            return self._latest.get(game)

    def image_path(self, rid: str, which: str) -> Path:
        """The file of one image of a reading; :class:`NotFoundError` for anything else."""
        if not _RID.match(rid) or which not in IMAGES:
            raise NotFoundError(msg("err_no_photo"))
        path = self.root / rid / IMAGES[which]
        if not path.is_file():
            raise NotFoundError(msg("err_no_photo_other_day"))
        return path
