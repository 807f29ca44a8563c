"""Calibration: what the tray, a cube and each colour look like to this camera, learned from
one photo.

``calibrate`` takes a photo with sample boxes (each box holds exactly one cube of a known
colour; one box per shade; any subset of colours, at least one) and learns:

- a *reference* per sample box (the cube's colour, :class:`~companion.vision.classify.Reference`;
  finding the cube in its box: :mod:`~companion.vision.samples`);
- the tray's references — everything in the tray outline outside the sample boxes, plus optional
  background boxes and an empty-tray photo: dark, bright, wooden, two-tone, rails, screws,
  shadows, reflections (:mod:`~companion.vision.tray`). Nothing is assumed about the tray;
- one cube's area and radius, measured on the class map exactly as the counter measures blobs;
- the tray outline and the working resolution;
- the dark channel of its objects and of its tray, to read a later frame's black level by
  (:mod:`~companion.vision.black_level`).

``save_calibration`` / ``load_calibration`` keep it as versioned JSON; loading validates every
field and raises :class:`CalibrationError` with a sentence that says what is wrong. The lookup
tables are derived on load, never stored. A calibration is never half made: ``calibrate``
returns a complete one or raises.
"""

from __future__ import annotations

import functools
import json
import math
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from companion.vision import light
from companion.vision.black_level import dark_levels
from companion.vision.classify import (AMBIGUOUS, BACKGROUND, CLASS_NAMES, Reference, classify, code_of, full_tables,
                                       of_colour)
from companion.vision.colors import CUBE_COLORS
from companion.vision.errors import CalibrationError, ImageReadError, ImageSizeError
from companion.vision.frontend import class_map
from companion.vision.keystone import Keystone, area_factor, confirmed, keystone_of
from companion.vision.lens import MAX_BARREL, barrel_of, straight_box, straight_points, straighten
from companion.vision.lit_faces import enlarged, shows_a_side
from companion.vision.samples import Box, Sample, box_text, core, is_round, sample_object, sample_reference
from companion.vision.perspective import MAX_REACH, MIN_OFF_CENTRE, band_of, drop_sides, side_reach, towards_centre
from companion.vision.segment import N_CLASSES, Blobs, find_blobs
from companion.vision.tray import colour_warnings, outline_mask, sample_area, tray_pixels, tray_references

FORMAT = "immortals-tower-calibration"
VERSION = 2
WORKING_SIDE = 16.0  # a cube should be about this many pixels wide at working resolution
MAX_SCALE = 6

__all__ = ["Box", "Calibration", "Sample", "calibrate", "check_empty", "check_image",
           "load_calibration", "save_calibration", "calibration_from_dict"]


@dataclass(frozen=True, eq=False)
class Calibration:
    """Everything the counter needs to know about one tower's camera. Immutable."""

    image_size: tuple[int, int]  # width, height of the camera photos
    roi: tuple[tuple[int, int], ...] | None  # tray outline in camera pixels; None = whole photo
    scale: int  # the counter works at 1/scale of the camera resolution
    references: tuple[Reference, ...]  # tray looks and cube colours
    cube_area: dict[str, float]  # one cube's blob area, camera pixels, per calibrated colour
    cube_radius: dict[str, float]  # one cube's blob radius (largest inscribed disc), camera pixels
    tray_bgr: tuple[float, float, float]  # median colour of the tray in the calibration photo
    # The tray itself on the light-correction grid (cells of light.CELL working pixels over the
    # whole photo, uint8 BGR), for a camera fixed to the tower (a calibration with an outline);
    # None without an outline, where photos may be taken from anywhere.
    tray_cells: np.ndarray | None = None
    # Whether the sample objects are round (sweets, beads) rather than square (cubes): learned
    # from the samples' outlines; round objects are split at their waists (see counting).
    round_objects: bool = False
    samples: tuple[Sample, ...] = field(default=())
    backgrounds: tuple[Box, ...] = field(default=())
    # Camera settings held while the calibration photo was taken (exposure, gain, white balance,
    # focus — whatever the backend can fix), restored by the camera backend on start so the
    # light does not drift between calibration and battles. Keys belong to the backend
    # (``{"backend": "picamera2", "controls": {...}}``); the counter never reads them.
    camera: dict = field(default_factory=dict)
    warnings: tuple[str, ...] = field(default=())  # things worth telling the person calibrating
    # The calibration photo's dark channel: its objects' dark end and its tray's median (8-bit
    # levels), against which a frame's black level is read (see black_level). None in files
    # written before it was kept: no lift is then removed.
    dark: tuple[float, float] | None = None
    # Whether the camera sees the (non-round) objects from the side: a sample showed a top and a
    # side lit differently. Blocks are then counted by their faces lit alike (see lit_faces). False in
    # files written before it was kept, and for a camera looking straight at the cubes.
    seen_from_side: bool = False
    # The dark end of each colour's pixels in the calibration photo (8-bit levels), each colour
    # a witness of a frame's black level of its own (see black_level). Empty in files written
    # before it was kept: the objects as a whole are then the witness.
    dark_colours: dict[str, float] = field(default_factory=dict)
    # How wide the cubes' sides a lens under the tray sees are at the picture's corner, in cube
    # sides (see perspective); taken off every frame before counting. 0 in files written before
    # it was kept, without an outline, and where the sample cubes showed no sides.
    side_reach: float = 0.0
    # The lens's barrel distortion (see lens): every photo is straightened by it before
    # anything else, and everything above but ``roi``, ``samples`` and ``backgrounds`` (the
    # photo's own pixels, as tapped) is of the straight picture. 0 in files written before it
    # was kept, without an outline, and where the samples showed a straight lens.
    barrel: float = 0.0
    # The keystone of a camera that leans (see keystone): after the lens, every photo is
    # levelled by it, so that the tray outline's corners make a rectangle. None in files written
    # before it was kept, without an outline, and for a camera that looks straight at the tray.
    keystone: Keystone | None = None

    @property
    def straightened(self) -> bool:
        """Whether photos are straightened (lens) or levelled (keystone) before counting."""
        return self.barrel > 0 or self.keystone is not None

    @property
    def colors(self) -> tuple[str, ...]:
        """The calibrated colours, in the package's colour order."""
        present = {r.code for r in self.references}
        return tuple(c for c in CUBE_COLORS if code_of(c) in present)

    def missing(self, colors: Iterable[str]) -> tuple[str, ...]:
        """Those of ``colors`` this calibration cannot count (no sample of them)."""
        have = set(self.colors)
        return tuple(c for c in colors if c not in have)

    @functools.cached_property
    def tables(self) -> tuple[np.ndarray, np.ndarray]:
        """The class table spread to every 8-bit colour (16 MB) and the reference table (built
        on first use)."""
        return full_tables(self.references)

    @property
    def dark_codes(self) -> dict[int, float]:
        """:attr:`dark_colours` by colour code, as :func:`~companion.vision.black_level.lift_of` takes them."""
        return {code_of(c): v for c, v in self.dark_colours.items()}

    @property
    def cube_side(self) -> float:
        """Side of one cube's face in camera pixels (from the median area)."""
        return math.sqrt(float(np.median(list(self.cube_area.values()))))

    def to_dict(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "image_size": list(self.image_size),
            "roi": None if self.roi is None else [list(p) for p in self.roi],
            "scale": self.scale,
            "colors": list(self.colors),
            "references": [r.to_dict() for r in self.references],
            "cube_area": {c: round(a, 2) for c, a in self.cube_area.items()},
            "cube_radius": {c: round(r, 3) for c, r in self.cube_radius.items()},
            "tray_bgr": [round(v, 2) for v in self.tray_bgr],
            "tray_cells": None if self.tray_cells is None else self.tray_cells.tolist(),
            "round_objects": self.round_objects,
            "samples": [{"color": s.color, "box": list(s.box)} for s in self.samples],
            "backgrounds": [list(b) for b in self.backgrounds],
            "camera": self.camera,
            "warnings": list(self.warnings),
            "dark": None if self.dark is None else [round(v, 2) for v in self.dark],
            "seen_from_side": self.seen_from_side,
            "dark_colours": {c: round(v, 2) for c, v in self.dark_colours.items()},
            "side_reach": self.side_reach,
            "barrel": self.barrel,
            "keystone": None if self.keystone is None else list(self.keystone),
        }


# ---------------------------------------------------------------- checking input

def check_image(image: object, what: str = "The photo") -> np.ndarray:
    """``image`` as an H×W×3 uint8 array, or :class:`ImageReadError`."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 \
            or image.shape[2] != 3 or min(image.shape[:2]) < 32:
        raise ImageReadError(f"{what} is not a colour picture the counter can use "
                             "(it needs an 8-bit colour image of at least 32×32 pixels).")
    return image


def check_empty(empty: object | None, image: np.ndarray, what: str) -> np.ndarray | None:
    """The empty-tray photo checked like ``image`` and of the same size, or None when absent.

    ``what`` names ``image`` in the message ("the tray photo", "the calibration photo").
    """
    if empty is None:
        return None
    empty = check_image(empty, "The empty-tray photo")
    if empty.shape != image.shape:
        raise ImageSizeError(f"The empty-tray photo is {empty.shape[1]}×{empty.shape[0]} but "
                             f"{what} is {image.shape[1]}×{image.shape[0]}; take both with the same camera.")
    return empty


def _check_roi(roi: Sequence[Sequence[float]] | None, width: int, height: int):
    if roi is None:
        return None
    points = tuple((int(round(p[0])), int(round(p[1]))) for p in roi)
    if len(points) < 3:
        raise CalibrationError("The tray outline needs at least three corner points.")
    for x, y in points:
        if not (0 <= x < width and 0 <= y < height):
            raise CalibrationError(f"The tray outline point {x},{y} lies outside the "
                                   f"{width}×{height} photo.")
    if abs(cv2.contourArea(np.array(points, np.float32))) < 100:
        raise CalibrationError("The tray outline encloses almost no area; check its corner points.")
    return points


def _check_box(box: Sequence[int], width: int, height: int, what: str) -> Box:
    """A box as drawn, cut to the photo: a box dragged a little past the photo's edge means
    the part inside it (a finger overshoots on the tablet); one mostly outside is refused."""
    x, y, w, h = (int(v) for v in box)
    if w < 4 or h < 4:
        raise CalibrationError(f"The {what} box {x},{y},{w},{h} is too small; "
                               "draw it around the whole cube.")
    x0, y0, x1, y1 = max(0, x), max(0, y), min(width, x + w), min(height, y + h)
    if x1 - x0 < 4 or y1 - y0 < 4 or (x1 - x0) * (y1 - y0) < 0.5 * w * h:
        raise CalibrationError(f"The {what} box {x},{y},{w},{h} reaches outside the "
                               f"{width}×{height} photo.")
    return x0, y0, x1 - x0, y1 - y0


# ---------------------------------------------------------------- calibrate

def calibrate(image: np.ndarray, samples: Iterable[Sample], backgrounds: Iterable[Box] = (),
              empty: np.ndarray | None = None,
              roi: Sequence[Sequence[float]] | None = None) -> Calibration:
    """Build a calibration from a photo with at least one sample box (any colours).

    ``backgrounds`` are boxes of empty tray surface, ``empty`` a photo of the empty tray (any
    light), ``roi`` the tray outline. Raises :class:`CalibrationError` (bad boxes, a box on no
    cube or on two colours, colours that look the same) or :class:`ImageReadError`; never
    returns a half-made calibration.
    """
    image = check_image(image, "The calibration photo")
    height, width = image.shape[:2]
    empty = check_empty(empty, image, "the calibration photo")
    samples = tuple(samples)
    if not samples:
        raise CalibrationError("Mark at least one cube: a sample box around one cube of a colour "
                               "in play (--sample COLOR=X,Y,W,H).")
    for s in samples:
        if s.color not in CUBE_COLORS:
            raise CalibrationError(f"{s.color!r} is not a cube colour; use one of {', '.join(CUBE_COLORS)}.")
    samples = tuple(Sample(s.color, _check_box(s.box, width, height, s.color)) for s in samples)
    backgrounds = tuple(_check_box(b, width, height, "background") for b in backgrounds)
    roi_points = _check_roi(roi, width, height)
    calibration, faces = _learn(image, samples, backgrounds, empty, roi_points)
    if roi_points is None:
        return calibration
    # A fixed camera's lens may draw the outer cubes smaller (see lens): learned from the
    # samples' faces as measured (sides taken off) — a lean's keystone, which draws the near
    # side's cubes larger, taken out of them first (see keystone) — and a camera may lean: the
    # outline's corners, straightened, say how. Then everything is learned again on the
    # straight, level picture, as every frame will be counted on it.
    size = (width, height)
    centres = np.array([(x + w / 2, y + h / 2) for x, y, w, h in (s.box for s in calibration.samples)])
    lean = keystone_of(roi_points, width)
    levelled = np.asarray(faces) * (1.0 if lean is None else area_factor(centres, lean, width))
    k = barrel_of(levelled, centres, size) or 0.0
    keystone = keystone_of(straight_points(roi_points, k, size), width)
    if keystone is not None and not confirmed(keystone, faces, straight_points(centres, k, size), width):
        keystone = None  # the tray is no rectangle: the cubes are one size without levelling
    if not k and keystone is None:
        return calibration
    straight, _ = _learn(straighten(image, k, keystone),
                         tuple(Sample(s.color, straight_box(s.box, k, size, keystone=keystone)) for s in samples),
                         tuple(straight_box(b, k, size, keystone=keystone) for b in backgrounds),
                         None if empty is None else straighten(empty, k, keystone),
                         _check_roi(np.clip(straight_points(roi_points, k, size, keystone), 0, (width - 1, height - 1)),
                                    width, height), 1.0 + k)
    return replace(straight, roi=roi_points, backgrounds=backgrounds, barrel=k, keystone=keystone, samples=tuple(
        Sample(s.color, straight_box(s.box, k, size, inverse=True, keystone=keystone)) for s in straight.samples))


def _learn(image: np.ndarray, samples: tuple[Sample, ...], backgrounds: tuple[Box, ...],
           empty: np.ndarray | None, roi_points, stretch: float = 1.0) -> tuple[Calibration, list[float]]:
    """:func:`calibrate` on checked input, the photo taken as straight: the calibration and
    each sample's face area (camera pixels, its sides taken off), in the order of its samples.
    The working resolution is chosen for cubes ``stretch`` times as wide as the photo's (a
    straight picture's are the lens's corner size: the photo's own scale keeps a count's
    pixels, and its time, as through a straight lens)."""
    height, width = image.shape[:2]
    # The cubes, at camera resolution: one reference per sample box, and their size.
    found = [sample_object(image, s) for s in samples]
    samples = tuple(s for s, _ in found)
    masks = [m for _, m in found]
    cube_refs = []
    for s, mask in zip(samples, masks):
        x, y, w, h = s.box
        cube_refs.append(sample_reference(code_of(s.color), image[y:y + h, x:x + w][core(mask)]))
    side = math.sqrt(float(np.median([m.sum() for m in masks])))
    scale = max(1, min(MAX_SCALE, int(side * stretch / WORKING_SIDE)))

    # The tray, at working resolution: everything else in the outline (and the empty photo).
    small = light.shrink(image, scale)
    cube_area_working = float(np.median([m.sum() for m in masks])) / scale ** 2
    tray = tray_pixels(small, scale, samples, backgrounds, roi_points, cube_area_working, cube_refs)
    tray_bgr = tuple(float(v) for v in np.median(tray, axis=0)) if len(tray) else (128.0,) * 3
    if empty is not None:  # any light: bring it to this photo's light by its median first
        empty_small = light.shrink(empty, scale)
        gain = np.array(tray_bgr) / np.maximum(np.median(empty_small.reshape(-1, 3), axis=0), 1.0)
        relit = np.clip(empty_small.astype(np.float32) * gain, 0, 255).astype(np.uint8)
        extra = tray_pixels(relit, scale, (), (), roi_points, cube_area_working)
        tray = np.concatenate([tray, extra]) if len(tray) else extra
    cells = None
    if roi_points is not None:  # a fixed camera: remember the tray spot by spot
        whole = (slice(0, small.shape[0] // light.CELL * light.CELL),
                 slice(0, small.shape[1] // light.CELL * light.CELL))  # whole cells, as counting crops
        if empty is not None:
            cells = light.tray_cells(relit[whole], np.zeros(small.shape[:2], bool)[whole])
        else:
            cells = light.tray_cells(small[whole], sample_area(small.shape[:2], samples, scale)[whole])
    tray_refs = tray_references(tray, cube_refs)
    warnings = colour_warnings(cube_refs, tray_refs)
    references = tuple(tray_refs) + tuple(cube_refs)

    # One cube measured exactly as the counter will measure it: on a fixed camera's class map
    # without the cubes' sides the lens sees (see perspective), as every frame's will be.
    tables = full_tables(references)
    _, classes = class_map(small, references, tables, tray_bgr, tray_cells=cells)
    blobs = find_blobs(classes)
    own = [_own_blob(blobs, classes, s, scale) for s in samples]
    round_objects = is_round(masks)
    reach = 0.0
    if roi_points is not None and not round_objects:
        reach, face, measured = _reach_of_sides(image, blobs, own, scale, tables[0])
        if not measured:
            warnings.append("Every sample cube lies near the middle of the picture, where the camera sees no "
                            "cube's sides; put one or two near the tray's edge and calibrate again, so that "
                            "the sides it sees there are not counted as cubes.")
        if reach:
            drop_sides(classes, towards_centre(classes.shape, (width, height), (0, 0), scale, reach * face))
            blobs = find_blobs(classes)
            own = [_own_blob(blobs, classes, s, scale) for s in samples]
    inside = None if roi_points is None else outline_mask(small.shape[:2], roi_points, scale)
    levels = dark_levels(small, classes, inside)
    dark = None if levels.objects is None else (levels.objects, levels.tray)
    dark_colours = {CLASS_NAMES[code]: level for code, level in levels.colours.items()}
    areas: dict[str, list[float]] = {}
    radii: dict[str, list[float]] = {}
    faces = []
    for s, (best, reaches, counts, (x, y, w, h)) in zip(samples, own):
        faces.append(float(counts[1:].sum()) * scale * scale)
        areas.setdefault(s.color, []).append(faces[-1])
        if reaches:
            radius = float(blobs.depth[y:y + h, x:x + w][blobs.labels[y:y + h, x:x + w] == best].max())
        else:
            radius = float(blobs.radius[best])
        radii.setdefault(s.color, []).append(radius * scale)
    cube_area = {c: float(np.median(a)) for c, a in areas.items()}
    cube_radius = {c: float(np.median(r)) for c, r in radii.items()}
    # Round objects are split at their waists; blocks seen from the side are counted by their
    # faces lit alike (a sample showing a top and a side says the camera looks from the side,
    # unless the sides are the ones a lens under the tray sees, towards the picture's centre).
    # Asked of each sample as boxed and as the counter sees it: a box drawn tight round a
    # block's top leaves its side out, the blob of its colour does not.
    boxed = ((image[y:y + h, x:x + w], mask) for (x, y, w, h), mask in zip((s.box for s in samples), masks))
    whole = (_whole_object(image, blobs, classes, s, best, scale) for s, (best, *_) in zip(samples, own))
    seen_from_side = not round_objects and not reach and (
        any(shows_a_side(crop, mask) for crop, mask in boxed) or any(shows_a_side(crop, mask) for crop, mask in whole))
    return Calibration((width, height), roi_points, scale, references, cube_area, cube_radius,
                       tray_bgr, cells, round_objects, samples, backgrounds, {}, tuple(warnings), dark,
                       seen_from_side, dark_colours, reach), faces


def _whole_object(image: np.ndarray, blobs: Blobs, classes: np.ndarray, sample: Sample, label: int,
                  scale: int) -> tuple[np.ndarray, np.ndarray]:
    """The camera-resolution crop of ``sample``'s blob (``label``, :func:`_own_blob`) and the
    mask of its pixels of the sample's colour there, the blob's enlarged edge (part tray) left
    out: the object as the counter sees it, whatever box a person drew round it."""
    own, (x, y, w, h) = blobs.own(label)
    mine = own & of_colour(classes[y:y + h, x:x + w], code_of(sample.color))
    crop = image[y * scale:(y + h) * scale, x * scale:(x + w) * scale]
    return crop, enlarged(mine, (crop.shape[1], crop.shape[0]), scale)


def _own_blob(blobs: Blobs, classes: np.ndarray, sample: Sample, scale: int
              ) -> tuple[int, bool, np.ndarray, Box]:
    """The blob of ``sample``'s cube on the calibration's class map: its label, whether it
    reaches beyond the box (it touches other cubes), its class histogram (within the box if it
    reaches out) and the box in working pixels. :class:`CalibrationError` if none is the
    sample's colour."""
    x, y, w, h = (v // scale for v in sample.box)
    w, h = max(w, 1), max(h, 1)
    inside = blobs.labels[y:y + h, x:x + w]
    code = code_of(sample.color)
    candidates = np.unique(inside[inside > 0])
    # A sample whose blob reaches well beyond its box touches its neighbours (a packed
    # group of blocks): its own part is what lies in the box.
    reaches = {lab: _reaches_out(blobs.stats[lab], x, y, w, h) for lab in candidates}
    box_classes = classes[y:y + h, x:x + w]
    counts = {lab: _box_histogram(box_classes, inside == lab) if reaches[lab] else blobs.histogram[lab]
              for lab in candidates}
    best = max(candidates, key=lambda lab: counts[lab][code] + counts[lab][code + AMBIGUOUS], default=None)
    mine = 0 if best is None else counts[best][code] + counts[best][code + AMBIGUOUS]
    if best is None or mine < max(4, 0.3 * counts[best][1:].sum()):
        raise CalibrationError(f"The {sample.color} sample box {box_text(sample.box)} holds no cube the "
                               f"counter recognises as {sample.color}; is the box on the right cube?")
    return int(best), bool(reaches[best]), counts[best], (x, y, w, h)


def _reach_of_sides(image: np.ndarray, blobs: Blobs, own: Sequence[tuple[int, bool, np.ndarray, Box]],
                    scale: int, full_lut: np.ndarray) -> tuple[float, float, bool]:
    """How wide the sides a lens under the tray sees are at the picture's corner, in cube sides
    (:func:`~companion.vision.perspective.side_reach`), a cube face's side in working pixels,
    and whether a sample cube lying alone was far enough from the centre to tell (0, 0, False
    with none alone), from the samples' blobs (``own``, :func:`_own_blob`). Measured in camera
    pixels: at a corner the band is a few working pixels wide, and a working pixel's rounding
    would be a third of it."""
    height, width = image.shape[:2]
    bands = []
    for best, reaches, _, _ in own:
        if reaches:
            continue
        bx, by, bw, bh = (int(v) for v in blobs.stats[best, :4])
        x0, y0 = max(0, (bx - 1) * scale), max(0, (by - 1) * scale)
        x1, y1 = min(width, (bx + bw + 1) * scale), min(height, (by + bh + 1) * scale)
        objects = (classify(image[y0:y1, x0:x1], full_lut) != BACKGROUND).view(np.uint8)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(objects, connectivity=8)
        if n < 2:
            continue
        largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        bands.append(band_of(labels == largest, (x0, y0), (width, height)))
    if not bands:
        return 0.0, 0.0, False
    return (side_reach(bands), float(np.median([b[1] for b in bands])) / scale,
            any(b[2] >= MIN_OFF_CENTRE for b in bands))


def _reaches_out(stats: np.ndarray, x: int, y: int, w: int, h: int) -> bool:
    """Whether a blob (cv2 stats row) reaches more than a quarter of the box beyond the box."""
    bx, by, bw, bh = (int(v) for v in stats[:4])
    mx, my = w // 4 + 1, h // 4 + 1
    return bx < x - mx or by < y - my or bx + bw > x + w + mx or by + bh > y + h + my


def _box_histogram(box_classes: np.ndarray, part: np.ndarray) -> np.ndarray:
    """Pixels of each class (as a blob histogram) in ``part``, a mask over ``box_classes``."""
    return np.bincount(box_classes[part], minlength=N_CLASSES)


# ---------------------------------------------------------------- JSON

def save_calibration(calibration: Calibration, path: str | Path) -> None:
    """Write ``calibration`` as JSON (UTF-8, indented); the file loads back equal.

    The file is replaced atomically: a crash or a full disk leaves the old calibration whole.
    """
    path = Path(path)
    text = json.dumps(calibration.to_dict(), indent=2) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=".calibration-", suffix=".json", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_calibration(path: str | Path) -> Calibration:
    """Read and validate a calibration file; :class:`CalibrationError` says what is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CalibrationError(f"{path} is not a calibration file: it is not text. Give the "
                               "JSON file that 'companion vision calibrate' wrote.") from None
    except OSError as exc:
        raise CalibrationError(f"Cannot read the calibration file {path}: "
                               f"{exc.strerror or exc}.") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{path} is not a calibration file: it is not valid JSON "
                               f"(line {exc.lineno}).") from None
    return calibration_from_dict(data, str(path))


def calibration_from_dict(data: object, name: str = "The calibration") -> Calibration:
    """Validate a decoded calibration document (see :meth:`Calibration.to_dict`)."""
    def bad(why: str) -> CalibrationError:
        return CalibrationError(f"{name} is not a usable calibration: {why}. Run "
                                "'companion vision calibrate' again.")

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad("it is not a tower calibration file")
    if data.get("version") != VERSION:
        raise bad(f"it was made by another version of the program (version {data.get('version')!r}; "
                  f"this one reads version {VERSION})")
    try:
        w, h = (int(v) for v in data["image_size"])
        if w < 32 or h < 32:
            raise bad("the photo size is too small")
        scale = data["scale"]
        if not isinstance(scale, int) or not 1 <= scale <= 8:
            raise bad("the working scale must be a whole number from 1 to 8")
        references = tuple(_reference_from(r, bad) for r in data["references"])
        areas = {str(c): float(a) for c, a in data["cube_area"].items()}
        radii = {str(c): float(r) for c, r in data["cube_radius"].items()}
        tray_bgr = tuple(float(v) for v in data["tray_bgr"])
        cells = data.get("tray_cells")
        cells = None if cells is None else np.array(cells, dtype=np.float64)
        round_objects = data.get("round_objects", False)
        seen_from_side = data.get("seen_from_side", False)
        if not isinstance(round_objects, bool) or not isinstance(seen_from_side, bool):
            raise bad("round_objects and seen_from_side must be true or false")
        samples = tuple(Sample(str(s["color"]), tuple(int(v) for v in s["box"]))
                        for s in data.get("samples", []))
        backgrounds = tuple(tuple(int(v) for v in b) for b in data.get("backgrounds", []))
        camera = data.get("camera", {})
        warnings = tuple(str(v) for v in data.get("warnings", []))
        dark = data.get("dark")
        dark = None if dark is None else tuple(float(v) for v in dark)
        dark_colours = {str(c): float(v) for c, v in data.get("dark_colours", {}).items()}
        side_reach = float(data.get("side_reach", 0.0))
        barrel = float(data.get("barrel", 0.0))
        keystone = data.get("keystone")
        keystone = None if keystone is None else tuple(float(v) for v in keystone)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, CalibrationError):
            raise
        raise bad(f"a field is missing or has the wrong type ({exc})") from None
    if not isinstance(camera, dict):
        raise bad("the camera settings must be a JSON object")
    if len(tray_bgr) != 3 or not all(math.isfinite(v) and v >= 0 for v in tray_bgr):
        raise bad("the tray colour needs three non-negative numbers")
    if dark is not None and (len(dark) != 2 or not all(math.isfinite(v) and 0 <= v <= 255 for v in dark)):
        raise bad("the dark levels need two numbers from 0 to 255")
    if any(c not in CUBE_COLORS or not (math.isfinite(v) and 0 <= v <= 255) for c, v in dark_colours.items()):
        raise bad("the dark levels of the colours need a cube colour and a number from 0 to 255 each")
    if not (math.isfinite(side_reach) and 0 <= side_reach <= MAX_REACH):
        raise bad(f"the width of the cubes' sides must be a number from 0 to {MAX_REACH:g}")
    if not (math.isfinite(barrel) and 0 <= barrel <= MAX_BARREL):
        raise bad(f"the lens's distortion must be a number from 0 to {MAX_BARREL:g}")
    if keystone is not None and (len(keystone) != 9 or not all(math.isfinite(v) for v in keystone)
                                 or abs(np.linalg.det(np.reshape(keystone, (3, 3)))) < 1e-9):
        raise bad("the camera's lean must be nine numbers of a homography that can be undone")
    if cells is not None:
        if cells.ndim != 3 or cells.shape[2] != 3 or cells.size == 0 or not np.all(np.isfinite(cells)) \
                or cells.min() < 0 or cells.max() > 255:
            raise bad("the tray cells must be rows of B, G, R values from 0 to 255")
        cells = cells.astype(np.uint8)
    if not any(r.code == BACKGROUND for r in references):
        raise bad("it has no model of the tray")
    colors = {CLASS_NAMES[r.code] for r in references if r.code != BACKGROUND}
    if not colors:
        raise bad("it has no cube colour")
    for c in list(areas) + list(radii):
        if c not in CUBE_COLORS:
            raise bad(f"{c!r} is not a cube colour")
    if set(areas) != colors or set(radii) != colors:
        raise bad("the cube sizes do not match its colours")
    if any(not math.isfinite(a) or a <= 0 for a in list(areas.values()) + list(radii.values())):
        raise bad("a cube size is not a positive number")
    try:
        roi_points = _check_roi(data.get("roi"), w, h)
    except (CalibrationError, TypeError, IndexError) as exc:
        raise bad(f"the tray outline is wrong ({exc})") from None
    return Calibration((w, h), roi_points, scale, references, areas, radii, tray_bgr, cells,
                       round_objects, samples, backgrounds, camera, warnings, dark, seen_from_side,
                       dark_colours, side_reach, barrel, keystone)


def _reference_from(d, bad) -> Reference:
    if not isinstance(d, dict) or d.get("class") not in CLASS_NAMES[:-1]:
        raise bad("a colour reference names no known class")
    lab = np.array(d["lab"], dtype=np.float64)
    cov = np.array(d["cov"], dtype=np.float64)
    bgr = np.array(d["bgr"], dtype=np.float64)
    if lab.shape != (3,) or cov.shape != (3, 3) or bgr.shape != (3,) \
            or not (np.all(np.isfinite(lab)) and np.all(np.isfinite(cov)) and np.all(np.isfinite(bgr))):
        raise bad(f"the {d['class']} reference needs a mean of 3 numbers and a 3×3 covariance")
    if not np.allclose(cov, cov.T, atol=1e-3) or np.linalg.eigvalsh(cov).min() < -1e-3:
        raise bad(f"the {d['class']} covariance is not a valid covariance matrix")
    weight = float(d.get("weight", 1.0))
    return Reference(CLASS_NAMES.index(d["class"]), tuple(lab.tolist()),
                     tuple(tuple(r) for r in cov.tolist()), tuple(bgr.tolist()), weight)
