"""Calibration: what the tray, a cube and each colour look like to this camera.

``calibrate`` turns one photo with sample boxes (each box holds exactly one cube of a known
colour) into colour models in the light-corrected space, the area of one cube, the tray outline
and the working resolution. ``save_calibration`` / ``load_calibration`` keep it as versioned
JSON; loading validates every field and raises :class:`CalibrationError` with a sentence that
says what is wrong. The lookup table is derived on load, never stored.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.vision import light
from companion.vision.classify import ColorModel, classify, full_lut
from companion.vision.colors import CUBE_COLORS
from companion.vision.errors import CalibrationError, ImageReadError, ImageSizeError
from companion.vision.segment import find_blobs

FORMAT = "immortals-tower-calibration"
VERSION = 1
WORKING_SIDE = 16.0  # a cube should be about this many pixels wide at working resolution

Box = tuple[int, int, int, int]  # x, y, width, height in camera pixels


@dataclass(frozen=True)
class Sample:
    """A box on the calibration photo that encloses exactly one cube of ``color``."""

    color: str
    box: Box


@dataclass(frozen=True, eq=False)
class Calibration:
    """Everything the counter needs to know about one tower's camera. Immutable."""

    image_size: tuple[int, int]  # width, height of the camera photos
    roi: tuple[tuple[int, int], ...] | None  # tray outline in camera pixels; None = whole photo
    scale: int  # the counter works at 1/scale of the camera resolution
    cube_area: dict[str, float]  # one cube's classified area, in camera pixels, per colour
    background: ColorModel
    colors: dict[str, ColorModel]
    samples: tuple[Sample, ...] = field(default=())
    # Camera settings held while the calibration photo was taken (exposure, gain, white balance,
    # focus — whatever the backend can fix), restored by the camera backend on start so the
    # light does not drift between calibration and battles. Keys belong to the backend
    # (``{"backend": "picamera2", "controls": {...}}``); the counter never reads them.
    camera: dict = field(default_factory=dict)

    @functools.cached_property
    def lut(self) -> np.ndarray:
        """The colour table spread to every 8-bit colour (built on first use, 16 MB)."""
        return full_lut(self.background, tuple(sorted(self.colors.items())))

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
            "cube_area": {c: round(a, 2) for c, a in self.cube_area.items()},
            "background": _model_dict(self.background),
            "colors": {c: _model_dict(m) for c, m in self.colors.items()},
            "samples": [{"color": s.color, "box": list(s.box)} for s in self.samples],
            "camera": self.camera,
        }


def _model_dict(model: ColorModel) -> dict:
    return {"mean": [round(v, 3) for v in model.mean],
            "cov": [[round(v, 3) for v in row] for row in model.cov]}


# ---------------------------------------------------------------- building one

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
    x, y, w, h = (int(v) for v in box)
    if w < 4 or h < 4:
        raise CalibrationError(f"The {what} box {x},{y},{w},{h} is too small; "
                               "draw it around the whole cube.")
    if x < 0 or y < 0 or x + w > width or y + h > height:
        raise CalibrationError(f"The {what} box {x},{y},{w},{h} reaches outside the "
                               f"{width}×{height} photo.")
    return x, y, w, h


def _cube_in_box(norm: np.ndarray, bg_mean: np.ndarray, box: Box, scale: int, what: str) -> np.ndarray:
    """Mask (box-sized, working resolution) of the biggest non-tray region in a sample box."""
    x, y, w, h = (v // scale for v in box)
    sub = norm[y:y + max(h, 1), x:x + max(w, 1)].astype(np.float32)
    differs = (np.linalg.norm(sub - bg_mean, axis=2) > 30).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(differs, connectivity=8)
    if count < 2 or stats[1:, cv2.CC_STAT_AREA].max() < 4:
        raise CalibrationError(f"The {what} sample box {','.join(map(str, box))} shows no cube: "
                               "it looks like empty tray. Draw the box around one cube.")
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return labels == biggest


def calibrate(image: np.ndarray, samples: Iterable[Sample], backgrounds: Iterable[Box] = (),
              empty: np.ndarray | None = None,
              roi: Sequence[Sequence[float]] | None = None) -> Calibration:
    """Build a calibration from a photo with at least one sample box per cube colour.

    ``backgrounds`` are boxes of empty tray surface, ``empty`` a photo of the empty tray (any
    light), ``roi`` the tray outline. Raises :class:`CalibrationError` (bad boxes, missing
    colours, colours that look alike) or :class:`ImageReadError`; never returns a half-made one.
    """
    image = check_image(image, "The calibration photo")
    height, width = image.shape[:2]
    empty = check_empty(empty, image, "the calibration photo")
    samples = tuple(samples)
    for s in samples:
        if s.color not in CUBE_COLORS:
            raise CalibrationError(f"{s.color!r} is not a cube colour; use one of {', '.join(CUBE_COLORS)}.")
    missing = [c for c in CUBE_COLORS if c not in {s.color for s in samples}]
    if missing:
        raise CalibrationError("There is no sample for " + ", ".join(missing) +
                               ": mark one cube of every colour with --sample COLOR=X,Y,W,H.")
    samples = tuple(Sample(s.color, _check_box(s.box, width, height, s.color)) for s in samples)
    backgrounds = tuple(_check_box(b, width, height, "background") for b in backgrounds)
    roi_points = _check_roi(roi, width, height)

    # Pass 1, full resolution: colour models and the size of a cube.
    norm = light.corrected(image, empty, scale=1)
    background = _background_model(norm, backgrounds, roi_points, 1)
    bg_mean = np.array(background.mean)
    pixels: dict[str, list[np.ndarray]] = {c: [] for c in CUBE_COLORS}
    sizes = []
    for s in samples:
        mask = _cube_in_box(norm, bg_mean, s.box, 1, s.color)
        sizes.append(float(mask.sum()))
        core = cv2.erode(mask.view(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
        x, y, w, h = s.box
        sub = norm[y:y + h, x:x + w]
        pixels[s.color].append(sub[core] if core.sum() >= 8 else sub[mask])
    colors = {c: ColorModel.from_pixels(np.concatenate(p)) for c, p in pixels.items()}
    _check_distinct(colors)
    scale = max(1, min(4, int(math.sqrt(float(np.median(sizes))) / WORKING_SIDE)))

    # Pass 2, working resolution: one cube's area exactly as the counter will measure it.
    lut = full_lut(background, tuple(sorted(colors.items())))
    classes = classify(light.corrected(image, empty, scale=scale), lut)
    areas: dict[str, list[float]] = {c: [] for c in CUBE_COLORS}
    for s in samples:
        x, y, w, h = (v // scale for v in s.box)
        blobs = find_blobs(classes[y:y + h, x:x + w])
        code = CUBE_COLORS.index(s.color) + 1
        if blobs.count < 2 or blobs.histogram[1:, code].max() < 4:
            area = 0.0
        else:  # the cube's blob: all its non-tray pixels, as the counter measures a cube
            best = 1 + int(np.argmax(blobs.histogram[1:, code]))
            area = float(blobs.histogram[best, 1:].sum())
        if area < 4:
            raise CalibrationError(f"The {s.color} sample box {','.join(map(str, s.box))} holds no "
                                   f"pixel recognised as {s.color}; is the box on the right cube?")
        areas[s.color].append(area * scale * scale)
    cube_area = {c: float(np.median(a)) for c, a in areas.items()}
    return Calibration((width, height), roi_points, scale, cube_area, background, colors, samples)


def _background_model(norm, backgrounds, roi_points, scale) -> ColorModel:
    if backgrounds:
        parts = [norm[y // scale:(y + h) // scale, x // scale:(x + w) // scale].reshape(-1, 3)
                 for x, y, w, h in backgrounds]
        return ColorModel.from_pixels(np.concatenate(parts))
    flat = norm[::4, ::4].reshape(-1, 3).astype(np.float32)
    near = flat[np.linalg.norm(flat - light.LEVEL, axis=1) < 25]
    if len(near) < 16:
        raise CalibrationError("Hardly any empty tray is visible in the calibration photo; "
                               "take it with only the sample cubes in the tray.")
    return ColorModel.from_pixels(near)


def _check_distinct(colors: dict[str, ColorModel]) -> None:
    names = list(colors)
    for i, a in enumerate(names):
        mean_a, inv_a = colors[a].widened()
        for b in names[i + 1:]:
            mean_b, _ = colors[b].widened()
            d = mean_b - mean_a
            if math.sqrt(float(d @ inv_a @ d)) < 3.0:
                raise CalibrationError(f"The {a} and {b} samples look almost the same to the camera; "
                                       "check that each box holds the right cube, or improve the light.")


# ---------------------------------------------------------------- JSON

def save_calibration(calibration: Calibration, path: str | Path) -> None:
    """Write ``calibration`` as JSON (UTF-8, indented); the file loads back equal."""
    Path(path).write_text(json.dumps(calibration.to_dict(), indent=2) + "\n", encoding="utf-8")


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
        raise bad(f"it has version {data.get('version')!r}, this program reads version {VERSION}")
    try:
        w, h = (int(v) for v in data["image_size"])
        if w < 32 or h < 32:
            raise bad("the photo size is too small")
        roi = data.get("roi")
        scale = data["scale"]
        if not isinstance(scale, int) or not 1 <= scale <= 8:
            raise bad("the working scale must be a whole number from 1 to 8")
        areas = {str(c): float(a) for c, a in data["cube_area"].items()}
        background = _model_from(data["background"], "background", bad)
        colors = {str(c): _model_from(m, str(c), bad) for c, m in data["colors"].items()}
        samples = tuple(Sample(str(s["color"]), tuple(int(v) for v in s["box"]))
                        for s in data.get("samples", []))
        camera = data.get("camera", {})
        if not isinstance(camera, dict):
            raise bad("the camera settings must be a JSON object")
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, CalibrationError):
            raise
        raise bad(f"a field is missing or has the wrong type ({exc})") from None
    for c in list(areas) + list(colors):
        if c not in CUBE_COLORS:
            raise bad(f"{c!r} is not a cube colour")
    missing = [c for c in CUBE_COLORS if c not in colors or c not in areas]
    if missing:
        raise bad("it has no model for " + ", ".join(missing))
    if any(not math.isfinite(a) or a <= 0 for a in areas.values()):
        raise bad("a cube area is not a positive number")
    try:
        roi_points = _check_roi(roi, w, h)
    except (CalibrationError, TypeError, IndexError) as exc:
        raise bad(f"the tray outline is wrong ({exc})") from None
    return Calibration((w, h), roi_points, scale, areas, background, colors, samples, camera)


def _model_from(d, what, bad) -> ColorModel:
    mean = np.array(d["mean"], dtype=np.float64)
    cov = np.array(d["cov"], dtype=np.float64)
    if mean.shape != (3,) or cov.shape != (3, 3) or not np.all(np.isfinite(cov)) \
            or not np.all(np.isfinite(mean)):
        raise bad(f"the {what} colour model needs a mean of 3 numbers and a 3×3 covariance")
    if not np.allclose(cov, cov.T, atol=1e-3) or np.linalg.eigvalsh(cov).min() < -1e-3:
        raise bad(f"the {what} covariance is not a valid covariance matrix")
    return ColorModel(tuple(mean.tolist()), tuple(tuple(r) for r in cov.tolist()))
