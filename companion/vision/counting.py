"""Counting the cubes in the tray: light correction → class map → blobs → cubes.

Rules the count follows (documented for players in docs/vision.md):
- A cube counts when the centre of its visible face lies inside the tray outline (ROI).
- Touching cubes of one colour are counted from their area over one cube's calibrated area;
  the further that ratio is from a whole number, the lower the confidence of those cubes.
- A blob that is mostly of no calibrated colour is ``unknown``: it is reported, never guessed.
- A cube lying on top of another hides it; the camera cannot count what it does not see.
"""

from __future__ import annotations

import math
import time
import weakref
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision import light
from companion.vision.calibration import WORKING_SIDE, Calibration, check_empty, check_image
from companion.vision.classify import UNKNOWN, classify
from companion.vision.colors import CUBE_COLORS
from companion.vision.errors import ImageSizeError
from companion.vision.segment import Blobs, class_pixels, find_blobs

MIN_FRACTION = 0.5  # less than half a cube's area of a colour in a blob is a rim, not a cube
UNKNOWN_SHARE = 0.5  # a blob is unknown when at least this share of it has no known colour


@dataclass(frozen=True)
class CubeDetection:
    color: str
    x: float  # centre in camera pixels
    y: float
    confidence: float  # 0..1
    bbox: tuple[int, int, int, int]  # x, y, w, h of the blob it belongs to, camera pixels


@dataclass(frozen=True)
class TrayCount:
    counts: dict[str, int]  # per colour, zero counts omitted
    cubes: tuple[CubeDetection, ...]
    unknown: int  # blobs of no calibrated colour inside the tray outline
    ms: float  # time taken by count_cubes
    unknown_boxes: tuple[tuple[int, int, int, int], ...] = field(default=())

    def to_json(self, image: str | None = None) -> dict:
        """The JSON object of ``companion vision count --json`` (DESIGN.md)."""
        out: dict = {} if image is None else {"image": image}
        out["counts"] = dict(self.counts)
        out["cubes"] = [{"color": c.color, "x": round(c.x, 1), "y": round(c.y, 1),
                         "confidence": round(c.confidence, 2)} for c in self.cubes]
        out["unknown"] = self.unknown
        out["ms"] = round(self.ms, 1)
        return out


@dataclass(frozen=True)
class _Geometry:
    scale: int
    crop: tuple[int, int, int, int]  # x0, y0, x1, y1 in camera pixels: the outline plus a cube
    cube_area: np.ndarray  # working pixels per class code (index 1..6)
    roi_mask: np.ndarray | None  # working resolution over the crop, 1 inside the outline


_GEOMETRY: "weakref.WeakKeyDictionary[Calibration, dict]" = weakref.WeakKeyDictionary()


def _geometry(cal: Calibration, width: int, height: int) -> _Geometry:
    """Scale, crop and outline for a photo of this size (photos may be smaller or larger than at
    calibration: everything scales with the width). Cached per calibration and photo size."""
    per_cal = _GEOMETRY.setdefault(cal, {})
    geo = per_cal.get((width, height))
    if geo is not None:
        return geo
    cal_w, cal_h = cal.image_size
    if abs(width / cal_w - height / cal_h) > 0.02 * width / cal_w:
        raise ImageSizeError(f"The photo is {width}×{height} but the calibration was made on "
                             f"{cal_w}×{cal_h} photos; the shapes differ, so calibrate again.")
    factor = width / cal_w
    side = cal.cube_side * factor
    scale = cal.scale if factor == 1 else max(1, min(4, int(side / WORKING_SIDE)))
    area = np.zeros(UNKNOWN + 1)
    for code, color in enumerate(CUBE_COLORS, start=1):
        area[code] = cal.cube_area[color] * factor * factor / (scale * scale)
    x0, y0, x1, y1 = 0, 0, width, height
    if cal.roi is not None:  # only the outline and a cube around it matter: less to compute
        pts = np.array(cal.roi, np.float64) * factor
        margin = int(math.ceil(side)) + 2
        x0 = max(0, int(pts[:, 0].min()) - margin) // scale * scale
        y0 = max(0, int(pts[:, 1].min()) - margin) // scale * scale
        x1 = min(width, int(math.ceil(pts[:, 0].max())) + margin)
        y1 = min(height, int(math.ceil(pts[:, 1].max())) + margin)
    # Whole cells of the light grid (and so whole working pixels): OpenCV then takes its fast
    # integer paths for halving and for the cell averages, several times faster.
    step = scale * light.CELL
    x0, x1 = _align(x0, x1, step, width)
    y0, y1 = _align(y0, y1, step, height)
    roi_mask = None
    if cal.roi is not None:
        roi_mask = np.zeros(((y1 - y0) // scale, (x1 - x0) // scale), np.uint8)
        local = (np.array(cal.roi, np.float64) * factor - (x0, y0)) / scale
        cv2.fillPoly(roi_mask, [np.round(local * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    geo = _Geometry(scale, (x0, y0, x1, y1), area, roi_mask)
    per_cal[(width, height)] = geo
    return geo


def _align(lo: int, hi: int, step: int, limit: int) -> tuple[int, int]:
    """Grow (or, at the picture's edge, shrink) ``lo..hi`` to a multiple of ``step``."""
    size = -(-(hi - lo) // step) * step
    if size > limit:
        size = limit // step * step or limit
    hi = min(limit, lo + size)
    return max(0, hi - size), hi


def _inside(geo: _Geometry, x: float, y: float) -> bool:
    if geo.roi_mask is None:
        return True
    h, w = geo.roi_mask.shape
    xi, yi = int(x), int(y)
    return 0 <= xi < w and 0 <= yi < h and bool(geo.roi_mask[yi, xi])


def _centres(blobs: Blobs, classes: np.ndarray, label: int, code: int, n: int) -> list[tuple[float, float]]:
    """Centres of ``n`` touching cubes of one colour: k-means on that colour's pixels."""
    if n == 1:
        a = blobs.histogram[label, code]
        return [(blobs.sum_x[label, code] / a, blobs.sum_y[label, code] / a)]
    pts = class_pixels(blobs, classes, label, code)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.2)
    _, _, centres = cv2.kmeans(pts, n, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    return [(float(cx), float(cy)) for cx, cy in centres]


def count_cubes(image: np.ndarray, calibration: Calibration,
                empty: np.ndarray | None = None) -> TrayCount:
    """Count the cubes in a tray photo.

    ``empty`` is a photo of the empty tray, best taken just before the throw (same light); it
    corrects light and white balance pixel by pixel. Without it the tray is estimated from the
    photo itself. Raises :class:`ImageReadError` / :class:`ImageSizeError` for unusable photos.
    """
    lut = calibration.lut  # built once per calibration, on first use; not part of a count's time
    start = time.perf_counter()
    image = check_image(image)
    h, w = image.shape[:2]
    empty = check_empty(empty, image, "the tray photo")
    geo = _geometry(calibration, w, h)
    x0, y0, x1, y1 = geo.crop
    if empty is not None:
        empty = empty[y0:y1, x0:x1]
    classes = classify(light.corrected(image[y0:y1, x0:x1], empty, geo.scale), lut)
    blobs = find_blobs(classes)
    s = geo.scale
    hist = blobs.histogram
    total = np.maximum(hist.sum(axis=1), 1)
    strange = hist[:, UNKNOWN]
    is_unknown = (strange >= UNKNOWN_SHARE * total) & (strange >= MIN_FRACTION * geo.cube_area[1:].min())
    is_unknown[0] = False
    unknown_boxes = []
    for label in np.flatnonzero(is_unknown):
        bx, by, bw, bh = (int(v) for v in blobs.stats[label, :4])
        if _inside(geo, bx + bw / 2, by + bh / 2):
            unknown_boxes.append((bx * s + x0, by * s + y0, bw * s, bh * s))
    ratios = hist[:, 1:UNKNOWN] / geo.cube_area[1:UNKNOWN]
    ratios[0] = 0.0  # label 0 is the tray
    # Pixels of a blob that belong to no counted colour (rims between cubes that read as a third
    # colour, dark bevels, glare) are still cube: share them out in proportion, as calibration
    # measured one cube with its rim.
    counted = ratios >= MIN_FRACTION
    kept = np.where(counted, hist[:, 1:UNKNOWN], 0).sum(axis=1)
    rest = hist[:, 1:].sum(axis=1) - kept
    # In an unknown blob (a foreign object touching cubes) the rest is the object: whole
    # cubes beside it still count, but they get none of its pixels.
    share = np.where((kept > 0) & ~is_unknown, 1.0 + rest / np.maximum(kept, 1), 1.0)
    ratios *= share[:, None]
    cubes: list[CubeDetection] = []
    for label, k in zip(*np.nonzero(counted)):
        code = int(k) + 1
        ratio = float(ratios[label, k])
        n = max(1, int(round(ratio)))
        # Halfway between two whole numbers is a coin toss: confidence 0 there. Stray pixels of
        # no known colour in the blob make every cube in it less sure too.
        confidence = (1.0 - 2.0 * abs(ratio - n)) * (1.0 - strange[label] / total[label])
        confidence = round(max(0.05, min(0.99, confidence)), 3)
        bx, by, bw, bh = (int(v) for v in blobs.stats[label, :4])
        bbox = (bx * s + x0, by * s + y0, bw * s, bh * s)
        for cx, cy in _centres(blobs, classes, int(label), code, n):
            if _inside(geo, cx, cy):
                cubes.append(CubeDetection(CUBE_COLORS[code - 1], (cx + 0.5) * s + x0,
                                           (cy + 0.5) * s + y0, confidence, bbox))
    counts: dict[str, int] = {}
    for c in cubes:
        counts[c.color] = counts.get(c.color, 0) + 1
    ms = (time.perf_counter() - start) * 1000.0
    return TrayCount(counts, tuple(cubes), len(unknown_boxes), ms, tuple(unknown_boxes))
