"""A wide lens's barrel distortion: learned from the sample cubes, straightened before counting.

A wide lens draws the picture's outer parts smaller: a cube near the corner looks smaller than
one in the middle, narrower along the radius than across it, and straight lines bow outwards.
Counting compares each pile's area with one cube's, so a lens that shrinks the corners by a
fifth counts the piles in the middle a cube too many (``make bench``'s ``--lens`` table).

The model is the usual one-coefficient radial model. With ``r`` a point's distance from the
picture's centre as a share of the half-diagonal, the picture shows at ``r`` what a
distortion-free lens would show at ``r · (1 + k · r²)``. The *straight picture* is that
distortion-free picture, scaled by ``1 / (1 + k)`` so that it keeps the photo's size and the
photo's corners stay its corners: every cube is drawn at one size there (the corner's, across
the radius), and the tray's straight sides are straight.

A camera that also leans is levelled in the same step (:mod:`~companion.vision.keystone`):
each function here takes the calibration's ``keystone`` too, applied after the lens.

Guarantees: :func:`straight_points` and :func:`picture_points` are each other's inverse
(within a hundredth of a pixel); ``k`` 0 changes nothing; everything depends on the photo's size
only through its centre and half-diagonal, so any resolution of one camera straightens alike.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.keystone import Keystone, level_points

MIN_BARREL = 0.05  # below this the lens is taken as straight: its smallest cubes lose 7 % of area at most
MAX_BARREL = 0.5  # a fish-eye beyond this is refused at calibration
MIN_SPREAD = 0.1  # the samples' squared distances from the centre must span this much to tell
_STEPS = np.linspace(0.0, MAX_BARREL, 201)


def _centre(size: tuple[int, int]) -> tuple[float, float, float]:
    width, height = size
    return (width - 1) / 2.0, (height - 1) / 2.0, math.hypot(width - 1, height - 1) / 2.0  # pixel centres


def _from_centre(points: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """N×2 points as float, the photo's centre, and each point's distance from it over the
    half-diagonal (N)."""
    points = np.array(points, np.float64).reshape(-1, 2)  # a copy: the caller's points stay
    cx, cy, half = _centre(size)
    centre = np.array([cx, cy])
    return points, centre, np.hypot(points[:, 0] - cx, points[:, 1] - cy) / half


def straight_points(points: np.ndarray, k: float, size: tuple[int, int],
                    keystone: Keystone | None = None) -> np.ndarray:
    """N×2 points of the photo (``size`` = width, height) → the straight picture (levelled by
    ``keystone`` too, where the camera leans: see keystone)."""
    points, centre, r = _from_centre(points, size)
    if k > 0:
        points = centre + (points - centre) * ((1.0 + k * r * r) / (1.0 + k))[:, None]
    return points if keystone is None else level_points(points, keystone, size[0])


def picture_points(points: np.ndarray, k: float, size: tuple[int, int],
                   keystone: Keystone | None = None) -> np.ndarray:
    """N×2 points of the straight picture (levelled by ``keystone``) → where the photo shows them."""
    if keystone is not None:
        points = level_points(points, keystone, size[0], inverse=True)
    points, centre, straight = _from_centre(points, size)
    if k <= 0:
        return points
    straight = straight * (1.0 + k)  # = r (1 + k r²), r the photo's
    r = straight.copy()
    for _ in range(12):  # Newton: r (1 + k r²) rises steadily, from r = straight it converges fast
        r -= (r * (1.0 + k * r * r) - straight) / (1.0 + 3.0 * k * r * r)
    shrink = np.where(straight > 0, r / np.maximum(straight, 1e-12) * (1.0 + k), 1.0)
    return centre + (points - centre) * shrink[:, None]


def straight_box(box: Sequence[int], k: float, size: tuple[int, int], inverse: bool = False,
                 keystone: Keystone | None = None) -> tuple[int, int, int, int]:
    """A box (x, y, w, h) of the photo → the box around its corners and sides' middles in the
    straight picture (``inverse``: the other way), cut to the picture."""
    x, y, w, h = box
    outline = np.array([(x + w * i / 2, y + h * j / 2) for i in range(3) for j in range(3) if (i, j) != (1, 1)])
    moved = (picture_points if inverse else straight_points)(outline, k, size, keystone)
    width, height = size
    x0, y0 = (max(0, int(math.floor(v))) for v in moved.min(axis=0))
    x1, y1 = (int(math.ceil(v)) for v in moved.max(axis=0))
    return x0, y0, max(1, min(width, x1) - x0), max(1, min(height, y1) - y0)


@functools.lru_cache(maxsize=2)  # about 7 MB each at 1280 × 960: a calibration needs one
def _maps(k: float, width: int, height: int, keystone: Keystone | None) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    seen = picture_points(np.stack([xs.ravel(), ys.ravel()], axis=1), k, (width, height), keystone)
    return cv2.convertMaps(seen[:, 0].reshape(height, width).astype(np.float32),
                           seen[:, 1].reshape(height, width).astype(np.float32), cv2.CV_16SC2)


def straighten(image: np.ndarray, k: float, keystone: Keystone | None = None) -> np.ndarray:
    """The straight picture of a photo (same size), levelled by ``keystone`` too; the photo
    itself when ``k`` is 0 and there is no keystone. The maps are made once per coefficient,
    keystone and size."""
    if k <= 0 and keystone is None:
        return image
    height, width = image.shape[:2]
    first, second = _maps(float(k), width, height, keystone)
    return cv2.remap(image, first, second, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def barrel_of(areas: Sequence[float], centres: Sequence[tuple[float, float]], size: tuple[int, int]) -> float | None:
    """The lens's ``k`` from sample cubes' face areas (any unit) and centres in the photo: the
    ``k`` under which they are most nearly of one size in the straight picture (least squares
    on the logarithm; a cube at ``r`` shows ``1 / ((1 + k r²)(1 + 3 k r²))`` of its area). 0
    under :data:`MIN_BARREL`; None when the samples are fewer than three or too near one
    distance from the centre to tell (:data:`MIN_SPREAD`)."""
    if len(areas) < 3:
        return None
    _, _, r = _from_centre(centres, size)
    r2 = r * r
    if r2.max() - r2.min() < MIN_SPREAD:
        return None
    logs = np.log(np.asarray(areas, np.float64))
    grown = logs[None, :] + np.log((1.0 + _STEPS[:, None] * r2) * (1.0 + 3.0 * _STEPS[:, None] * r2))
    misfit = ((grown - grown.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    k = float(_STEPS[int(np.argmin(misfit))])
    return k if k >= MIN_BARREL else 0.0
