"""A camera that leans: the tray outline's keystone, taken out before counting.

A camera that does not look straight at the tray sees its near side larger than its far side:
the rectangle of the tray comes out a trapezoid (a *keystone*), and so do the cubes — a cube at
the near side of the picture looks larger than one at the far side. Counting compares each
pile's area with one cube's, so at a lean of 8° it counted whole piles a cube wrong, some with
nothing flagged (``make bench``'s ``--lens`` table).

The outline the group taps at set-up holds the answer: its four corners are where the tray's
corners are. The *level picture* is the photo redrawn (a homography, :func:`cv2.getPerspectiveTransform`)
so that those corners make a rectangle — of the outline's mean width and height, about its
centre — as a camera looking straight at the tray would show them; every cube then has one
size there. The tray's true proportions are not known, so the level picture may be stretched
a little along one axis: at 8°, by under 1 %, and the cube size is read from the calibration
made on the level picture itself.

Only an outline of four corners (a polygon that simplifies to four, within 2 % of its
perimeter: a tray's straight sides, a lens's bow straightened first) has a keystone, and only
one whose opposite sides differ by :data:`MIN_LEAN` or more — under it a tap a few pixels off,
or a tray a little out of square, would bend a level picture for nothing, and a lean that
small costs the count next to nothing (``--lens``: 2° 59 · 60 of 60 exact, levelled or not).
A tray that is no rectangle looks like a lean to the outline: the sample cubes say which it
is where they can (:func:`confirmed`). The homography works on coordinates over the photo's
width, so any resolution of one camera (same aspect) levels alike.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

MIN_LEAN = 0.05  # opposite sides of the outline this much apart (of their mean): a camera leaning about 2.5°
CORNER_FIT = 0.02  # of the outline's perimeter: how far a side may stray from a straight line and still be one

Keystone = tuple[float, ...]  # a 3×3 homography, row by row, on coordinates over the photo's width


def corners(outline: Sequence[Sequence[float]]) -> np.ndarray | None:
    """The outline's four corners (4×2: top left, top right, bottom right, bottom left), or
    None when it is no quadrilateral."""
    points = np.asarray(outline, np.float32).reshape(-1, 1, 2)
    if len(points) < 4:
        return None
    hull = cv2.convexHull(points)
    quad = cv2.approxPolyDP(hull, CORNER_FIT * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
    if len(quad) != 4:
        return None
    total, diff = quad.sum(axis=1), quad[:, 0] - quad[:, 1]
    order = [int(np.argmin(total)), int(np.argmax(diff)), int(np.argmax(total)), int(np.argmin(diff))]
    if len(set(order)) != 4:
        return None
    return quad[order]


def _sides(quad: np.ndarray) -> tuple[float, float, float, float]:
    """The lengths of a quadrilateral's top, right, bottom and left sides (corners as :func:`corners`)."""
    return tuple(float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4))


def lean_of(quad: np.ndarray) -> float:
    """How far a quadrilateral's opposite sides differ in length, over their mean (0: a
    parallelogram, as a level camera shows a rectangle)."""
    top, right, bottom, left = _sides(quad)
    return max(abs(top - bottom) / ((top + bottom) / 2), abs(left - right) / ((left + right) / 2))


def keystone_of(outline: Sequence[Sequence[float]] | None, width: int) -> Keystone | None:
    """The homography (:data:`Keystone`) that levels a photo ``width`` pixels wide whose tray
    outline is ``outline``; None for a level camera (:data:`MIN_LEAN`) or an outline of other
    than four corners."""
    quad = None if outline is None else corners(outline)
    if quad is None or lean_of(quad) < MIN_LEAN:
        return None
    quad = quad / width
    top, right, bottom, left = _sides(quad)
    w, h = (top + bottom) / 2, (left + right) / 2
    cx, cy = quad.mean(axis=0)
    level = np.array([(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2),
                      (cx - w / 2, cy + h / 2)])
    matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), level.astype(np.float32))
    return tuple(float(v) for v in (matrix / matrix[2, 2]).ravel())


def _matrix(keystone: Keystone, width: float, inverse: bool = False) -> np.ndarray:
    """The keystone as a 3×3 matrix on a photo's pixels (``width`` wide)."""
    scale = np.diag([width, width, 1.0])
    matrix = scale @ np.array(keystone, np.float64).reshape(3, 3) @ np.linalg.inv(scale)
    return np.linalg.inv(matrix) if inverse else matrix


def level_points(points: np.ndarray, keystone: Keystone, width: float, inverse: bool = False) -> np.ndarray:
    """N×2 points of a photo ``width`` pixels wide → the level picture (``inverse``: back)."""
    moved = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2),
                                     _matrix(keystone, width, inverse))
    return moved.reshape(-1, 2)


def area_factor(points: np.ndarray, keystone: Keystone, width: float) -> np.ndarray:
    """How many times larger a small area at each of N×2 ``points`` comes out in the level
    picture (the homography's Jacobian determinant there)."""
    matrix = _matrix(keystone, width)
    points = np.asarray(points, np.float64).reshape(-1, 2)
    w = points @ matrix[2, :2] + matrix[2, 2]
    return abs(np.linalg.det(matrix)) / np.abs(w) ** 3


def confirmed(keystone: Keystone, areas: Sequence[float], centres: np.ndarray, width: float) -> bool:
    """Whether the sample cubes' face ``areas`` (any unit) at ``centres`` bear a keystone out:
    where they lie far enough apart along the lean that levelling would change their sizes by
    :data:`MIN_LEAN` or more between them, levelled they must come out nearer one size than
    as photographed (least squares on the logarithm) — an outline that is no rectangle (a
    tray of another shape, a corner tapped off) is then told from a camera that leans. Where
    they cannot tell (all at one distance from the near side), the outline's word stands."""
    if len(areas) < 2:
        return True
    factor = np.log(area_factor(centres, keystone, width))
    if factor.max() - factor.min() < np.log(1.0 + MIN_LEAN):
        return True
    logs = np.log(np.asarray(areas, np.float64))
    return float(np.var(logs + factor)) < float(np.var(logs))
