"""Calibrating the camera from the tablet: taps on a photo become a calibration, checked and kept.

Two halves, kept apart:

* **From taps to a calibration** (no files): :func:`parse_setup` checks the request's shape (a
  tray outline of at least three points inside the photo, taps of known colours);
  :func:`sample_at` turns a tap into a sample box around the one cube under the finger (the
  vision package's own sample logic, :func:`companion.vision.samples.cube_in_box`, on growing
  boxes until the cube lies wholly inside one); :func:`check_setup` calibrates the photo with
  those boxes and counts the photo back with the new calibration, saying what it found and what
  to worry about (two colours alike under this light, a tapped cube not found).
* **Keeping calibrations** (:class:`CalibrationStore`): every saved calibration stays in the
  data folder's ``calibrations/<id>/`` with its photo and a thumbnail; one of them is *active*
  — a copy at the tower's calibration path, what the tower counts with. Restore makes an older
  one active again; delete removes one that is not active.

Guarantees: bad input raises a :class:`SetupError` (a ``ValueError``) whose message names the
outline point, the colour or the tap, before anything is written; a save writes the history
entry completely before the active file is replaced atomically, so a failure leaves the active
calibration as it was.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import shutil
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.vision.calibration import Calibration, calibrate, load_calibration, save_calibration
from companion.vision.classify import BACKGROUND
from companion.vision.colors import CUBE_COLORS
from companion.vision.errors import CalibrationError
from companion.vision.perspective import MIN_OFF_CENTRE, off_centre
from companion.vision.samples import Box, Found, Sample, centred_box, cube_in_box, object_at
from companion.vision.tray import like_tray, look_alike

THUMB_WIDTH = 240
PHOTOS_KEPT = 4  # photos taken on the set-up page, kept in memory until calibrated


class SetupError(CalibrationError):
    """A camera set-up request that cannot be used; the message names the item."""


class OutlineError(SetupError):
    """The tray outline has fewer than three points or a point outside the photo."""


class TapError(SetupError):
    """A tap is not on one cube: on the tray, on two cubes, or on the same cube as another."""


class UnknownCalibrationError(SetupError):
    """No saved calibration has this id."""


class ActiveCalibrationError(SetupError):
    """The calibration the tower uses cannot be deleted."""


@dataclass(frozen=True)
class Tap:
    """A finger on the photo: ``color`` is the cube's colour, or None for plain tray."""

    color: str | None
    x: int
    y: int

    def text(self) -> str:
        return f"the {self.color or 'background'} tap"  # players tap, they do not read pixels


@dataclass(frozen=True)
class Setup:
    """A parsed set-up request: outline in camera pixels and the taps, in the order given."""

    outline: tuple[tuple[int, int], ...]
    taps: tuple[Tap, ...]

    @property
    def colour_taps(self) -> tuple[Tap, ...]:
        return tuple(t for t in self.taps if t.color is not None)


@dataclass(frozen=True)
class SetupCheck:
    """A calibration made from taps, and what counting its own photo back found."""

    calibration: Calibration
    samples: tuple[Sample, ...]
    found: dict[str, int]
    unknown: int
    warnings: tuple[dict[str, Any], ...]  # {"kind": "alike"|"like_tray"|"not_found"|"sides_unmeasured", "colors": [...]}
    annotated: np.ndarray

    def to_json(self) -> dict[str, Any]:
        return {"found": dict(self.found), "unknown": self.unknown,
                "colors": list(self.calibration.colors), "warnings": list(self.warnings),
                "samples": [{"color": s.color, "box": list(s.box)} for s in self.samples]}


# ---------------------------------------------------------------- parsing

def parse_setup(body: Mapping[str, Any], size: tuple[int, int]) -> Setup:
    """Check a set-up request ``{"outline": [[x, y], …], "taps": [{"color", "x", "y"}, …]}``
    against a photo of ``size`` (width, height). ``color`` null or "background" marks plain tray.
    Raises :class:`SetupError` naming the wrong item."""
    width, height = size
    outline = body.get("outline")
    if not isinstance(outline, list) or len(outline) < 3:
        raise OutlineError("The tray outline needs at least three corner points: drag its "
                           "corners onto the corners of the tray.")
    points = []
    for n, point in enumerate(outline, 1):
        if not (isinstance(point, (list, tuple)) and len(point) == 2
                and all(_number(v) for v in point)):
            raise OutlineError(f"Outline point {n} must be two numbers, x and y.")
        x, y = (int(round(v)) for v in point)
        if not (0 <= x < width and 0 <= y < height):
            raise OutlineError(f"Outline point {n} ({x},{y}) lies outside the {width}×{height} photo.")
        points.append((x, y))
    if abs(cv2.contourArea(np.array(points, np.float32))) < 0.01 * width * height:
        raise OutlineError("The tray outline encloses almost nothing: drag its corners onto the "
                           "corners of the tray.")
    taps_in = body.get("taps")
    if not isinstance(taps_in, list) or not taps_in:
        raise TapError("Tap one cube of each colour in play on the photo.")
    taps = []
    for n, tap in enumerate(taps_in, 1):
        if not isinstance(tap, Mapping) or not _number(tap.get("x")) or not _number(tap.get("y")):
            raise TapError(f"Tap {n} needs a colour and x and y in photo pixels.")
        color = tap.get("color")
        if color in (None, "background"):
            color = None
        elif color not in CUBE_COLORS:
            raise TapError(f"Tap {n}: {color!r} is not a cube colour; use one of {', '.join(CUBE_COLORS)}.")
        x, y = int(round(tap["x"])), int(round(tap["y"]))
        if not (0 <= x < width and 0 <= y < height):
            raise TapError(f"Tap {n} ({color or 'background'} at {x},{y}) lies outside the photo.")
        taps.append(Tap(color, x, y))
    if not any(t.color for t in taps):
        raise TapError("Tap at least one cube and say its colour; background taps alone teach nothing.")
    return Setup(tuple(points), tuple(taps))


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


# ---------------------------------------------------------------- taps → sample boxes

def _object_at(image: np.ndarray, tap: Tap) -> Found | None:
    """The one object under ``tap`` (the vision's own search, :func:`object_at`); None on tray."""
    return object_at(image, tap.x, tap.y, tap.color or "background")


def sample_at(image: np.ndarray, tap: Tap) -> Sample:
    """The sample box for a colour tap: 1.6 cube sides around the cube under the finger.

    Raises :class:`TapError` when the tap is on plain tray (nothing there differs from it).
    """
    found = _object_at(image, tap)
    if found is None:
        raise TapError(f"{_cap(tap.text())} is on the tray, not on a cube: tap the middle of a "
                       f"{tap.color} cube. (If a cube lies there, the camera cannot tell it from "
                       "the tray: add light, or put something lighter under the tray.)")
    height, width = image.shape[:2]
    side = int(round(1.6 * found.side)) + 4
    box = centred_box(int(found.centre[0]), int(found.centre[1]), side, width, height)
    sample = Sample(tap.color or "background", box)
    try:
        cube_in_box(image, sample)  # as calibrate will see it
    except CalibrationError:
        # the tidy box's border crosses something (a tray edge, a neighbour): keep the box the
        # search found the cube in, with tray all around it
        sample = Sample(tap.color or "background", found.box)
    return sample


def background_at(image: np.ndarray, tap: Tap, cube_side: float) -> Box:
    """A box of plain tray for a background tap (one cube wide); :class:`TapError` when a cube
    lies there."""
    if _object_at(image, tap) is not None:
        raise TapError(f"{_cap(tap.text())} is on a cube or a mark: tap plain, empty tray.")
    height, width = image.shape[:2]
    return centred_box(tap.x, tap.y, max(8, int(cube_side)), width, height)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# ---------------------------------------------------------------- calibrate and check

def check_setup(image: np.ndarray, setup: Setup) -> SetupCheck:
    """Calibrate ``image`` from ``setup``'s taps and count it back with the new calibration.

    Raises :class:`TapError` for a tap on tray, two colours tapped on one cube, and whatever
    :func:`~companion.vision.calibration.calibrate` refuses (colours the camera cannot tell
    apart); returns the calibration and what it found otherwise.
    """
    from companion.vision.annotate import annotate
    from companion.vision.counting import count_cubes

    samples: list[Sample] = []
    centres: list[tuple[Tap, tuple[float, float], float]] = []
    for tap in setup.colour_taps:
        sample = sample_at(image, tap)
        x, y, w, h = sample.box
        centre, side = (x + w / 2, y + h / 2), w / 1.6
        for other, (ox, oy), _ in centres:
            if math.hypot(ox - centre[0], oy - centre[1]) < 0.5 * side:
                if other.color == tap.color:
                    raise TapError(f"{_cap(tap.text())} is on the same cube as the one before; "
                                   "tap another cube or leave it out.")
                raise TapError(f"{_cap(tap.text())} and {other.text()} are on the same cube: "
                               f"{other.color} and {tap.color} need a cube each.")
        centres.append((tap, centre, side))
        samples.append(sample)
    cube_side = float(np.median([side for _, _, side in centres]))
    backgrounds = [background_at(image, t, cube_side) for t in setup.taps if t.color is None]
    calibration = calibrate(image, samples, backgrounds, roi=setup.outline)
    result = count_cubes(image, calibration)
    warnings = _warnings(calibration)
    for tap, (cx, cy), side in centres:
        seen = any(c.color == tap.color and math.hypot(c.x - cx, c.y - cy) < 0.75 * side
                   for c in result.cubes)
        if not seen:
            warnings.append({"kind": "not_found", "colors": [tap.color], "x": tap.x, "y": tap.y})
    return SetupCheck(calibration, tuple(samples), dict(result.counts), result.unknown,
                      tuple(warnings), annotate(image, result))


def _warnings(calibration: Calibration) -> list[dict[str, Any]]:
    """Colours close to each other or to the tray under this light (the thresholds of
    :func:`companion.vision.tray.colour_warnings`), and every sample too near the middle to
    measure the cubes' sides (:mod:`companion.vision.perspective`), as data the tablet words
    itself."""
    cubes = [r for r in calibration.references if r.code != BACKGROUND]
    tray = [r for r in calibration.references if r.code == BACKGROUND]
    out: list[dict[str, Any]] = []
    pairs: set[tuple[str, str]] = set()
    for a, b in look_alike(cubes):
        pair = tuple(sorted((a.name, b.name), key=CUBE_COLORS.index))
        if pair not in pairs:
            pairs.add(pair)
            out.append({"kind": "alike", "colors": list(pair)})
    hidden = sorted({a.name for a in like_tray(cubes, tray)}, key=CUBE_COLORS.index)
    out += [{"kind": "like_tray", "colors": [c]} for c in hidden]
    # Every tap near the middle: the sides the lens sees near the edge were not measured.
    if calibration.roi is not None and not calibration.round_objects and not calibration.side_reach and not any(
            off_centre(x + w / 2, y + h / 2, calibration.image_size) >= MIN_OFF_CENTRE
            for x, y, w, h in (s.box for s in calibration.samples)):
        out.append({"kind": "sides_unmeasured", "colors": []})
    return out


# ---------------------------------------------------------------- photos and kept calibrations

_ID = re.compile(r"^\d{8}-\d{6}-\d{6}-[0-9a-f]{4}$")


@dataclass
class _Photo:
    image: np.ndarray
    checked: np.ndarray | None = None


@dataclass(frozen=True)
class Entry:
    """One kept calibration, as listed on the set-up page."""

    id: str
    created_at: str
    colors: tuple[str, ...]
    warnings: tuple[dict[str, Any], ...]
    active: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "created_at": self.created_at, "colors": list(self.colors),
                "warnings": list(self.warnings), "active": self.active,
                "origin": self.extra.get("origin"),
                "thumbnail_url": f"/api/camera/calibrations/{self.id}/thumbnail.jpg"}


class CalibrationStore:
    """Photos taken for calibrating (memory) and saved calibrations (``root``/<id>/). The
    active calibration is a copy at ``active_path``. Thread-safe."""

    def __init__(self, root: Path, active_path: Path) -> None:
        self.root = root
        self.active_path = active_path
        self._lock = threading.Lock()
        self._photos: OrderedDict[str, _Photo] = OrderedDict()

    # --- photos of the set-up page
    def keep_photo(self, image: np.ndarray) -> str:
        """Keep a photo for tapping on; returns its id. Only the last few are kept."""
        photo_id = secrets.token_hex(6)
        with self._lock:
            self._photos[photo_id] = _Photo(image)
            while len(self._photos) > PHOTOS_KEPT:
                self._photos.popitem(last=False)
        return photo_id

    def photo(self, photo_id: object) -> np.ndarray:
        return self._photo(photo_id).image

    def checked_photo(self, photo_id: object) -> np.ndarray:
        photo = self._photo(photo_id)
        if photo.checked is None:
            raise SetupError("This photo has not been checked yet.")
        return photo.checked

    def note_checked(self, photo_id: str, annotated: np.ndarray) -> None:
        self._photo(photo_id).checked = annotated

    def _photo(self, photo_id: object) -> _Photo:
        with self._lock:
            photo = self._photos.get(photo_id) if isinstance(photo_id, str) else None
        if photo is None:
            raise SetupError("That photo is no longer kept: take a new one.")
        return photo

    # --- saved calibrations
    def save(self, calibration: Calibration, photo: np.ndarray,
             warnings: Iterable[dict[str, Any]] = (), origin: str | None = None) -> Entry:
        """Keep ``calibration`` with its photo and make it the active one. ``origin`` says where
        one not made on the set-up page came from ("simulator", "earlier")."""
        now = datetime.now(UTC)
        entry_id = f"{now:%Y%m%d-%H%M%S-%f}-{secrets.token_hex(2)}"  # sorts by time
        folder = self.root / entry_id
        folder.mkdir(parents=True)
        try:
            save_calibration(calibration, folder / "calibration.json")
            _write_jpeg(folder / "photo.jpg", photo, 90)
            _write_jpeg(folder / "thumbnail.jpg", _thumbnail(photo, calibration), 80)
            meta = {"id": entry_id, "created_at": now.isoformat(timespec="seconds"),
                    "colors": list(calibration.colors), "warnings": list(warnings),
                    **({"origin": origin} if origin else {})}
            (folder / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        self._activate(entry_id, calibration)
        return self._entry(entry_id, self.active_id())

    def list(self) -> list[Entry]:
        """Kept calibrations, newest first."""
        if not self.root.is_dir():
            return []
        entries = []
        active = self.active_id()  # read once, not once per kept calibration
        for folder in self.root.iterdir():
            if _ID.match(folder.name) and (folder / "meta.json").is_file():
                try:
                    entries.append(self._entry(folder.name, active))
                except (OSError, ValueError):
                    continue  # a damaged entry is left out, never shown half
        return sorted(entries, key=lambda e: e.id, reverse=True)

    def restore(self, entry_id: object) -> Calibration:
        """Make a kept calibration the active one again; returns it."""
        folder = self._folder(entry_id)
        calibration = load_calibration(folder / "calibration.json")
        self._activate(folder.name, calibration)
        return calibration

    def delete(self, entry_id: object) -> None:
        folder = self._folder(entry_id)
        if self.active_id() == folder.name:
            raise ActiveCalibrationError("This is the calibration the tower uses now: restore "
                                         "another one first, then delete this one.")
        shutil.rmtree(folder)

    def file(self, entry_id: object, name: str) -> Path:
        if name not in ("thumbnail.jpg", "photo.jpg"):
            raise UnknownCalibrationError("There is no such calibration picture.")
        return self._folder(entry_id) / name

    def active_id(self) -> str | None:
        try:
            value = json.loads((self.root / "active.json").read_text(encoding="utf-8")).get("id")
        except (OSError, ValueError, AttributeError):
            return None
        return value if isinstance(value, str) and (self.root / value).is_dir() else None

    def _activate(self, entry_id: str, calibration: Calibration) -> None:
        with self._lock:
            self.active_path.parent.mkdir(parents=True, exist_ok=True)
            save_calibration(calibration, self.active_path)  # atomic replace
            tmp = self.root / ".active.json.tmp"
            tmp.write_text(json.dumps({"id": entry_id}), encoding="utf-8")
            tmp.replace(self.root / "active.json")

    def _folder(self, entry_id: object) -> Path:
        if not isinstance(entry_id, str) or not _ID.match(entry_id) or not (self.root / entry_id).is_dir():
            raise UnknownCalibrationError("There is no such saved calibration; it may have been deleted.")
        return self.root / entry_id

    def _entry(self, entry_id: str, active: str | None) -> Entry:
        """The kept calibration ``entry_id``; ``active`` is :meth:`active_id`."""
        meta = json.loads((self.root / entry_id / "meta.json").read_text(encoding="utf-8"))
        return Entry(entry_id, str(meta["created_at"]), tuple(meta.get("colors", ())),
                     tuple(meta.get("warnings", ())), active == entry_id,
                     {"origin": meta["origin"]} if meta.get("origin") else {})


def _thumbnail(photo: np.ndarray, calibration: Calibration) -> np.ndarray:
    image = photo.copy()
    if calibration.roi:
        cv2.polylines(image, [np.array(calibration.roi, np.int32)], True, (40, 200, 255), 4)
    for s in calibration.samples:
        x, y, w, h = s.box
        cv2.rectangle(image, (x, y), (x + w, y + h), (255, 255, 255), 3)
    height, width = image.shape[:2]
    return cv2.resize(image, (THUMB_WIDTH, max(1, height * THUMB_WIDTH // width)), interpolation=cv2.INTER_AREA)


def _write_jpeg(path: Path, image: np.ndarray, quality: int) -> None:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError(f"could not encode {path.name}")
    path.write_bytes(data.tobytes())


def jpeg(image: np.ndarray, quality: int = 80, max_width: int | None = None) -> bytes:
    """``image`` as JPEG bytes, shrunk to ``max_width`` pixels wide when wider."""
    if max_width is not None and image.shape[1] > max_width:
        height = image.shape[0] * max_width // image.shape[1]
        # linear, not area averaging: a ×0.625 area resize costs more than the encoding itself
        image = cv2.resize(image, (max_width, height), interpolation=cv2.INTER_LINEAR)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise SetupError("The photo could not be encoded.")
    return data.tobytes()


__all__ = ["ActiveCalibrationError", "CalibrationStore", "Entry", "OutlineError", "Setup",
           "SetupCheck", "SetupError", "Tap", "TapError", "UnknownCalibrationError",
           "background_at", "check_setup", "jpeg", "parse_setup", "sample_at"]
