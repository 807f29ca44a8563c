"""The cubes' sides a lens close under the tray sees.

The tower's camera looks straight up at the tray from close below, through a wide lens. A cube
at the picture's centre shows only its bottom face, the one lying on the tray. A cube away from
the centre is seen a little from the side too: its top face, farther from the lens, appears
nearer the picture's centre, and the band between the two faces is its sides. By the pinhole
model the band is ``r · tan(a) · d / (d + s)`` cube sides wide, towards the centre, where ``r``
is the cube's distance from the centre over the half-diagonal, ``a`` the lens's angle from its
axis to the picture's corner, ``d`` the lens's distance below the tray and ``s`` a cube's side:
0.6 to 1.0 cube at the corners for every set-up in ``firmware_notes/optics.md``. Read as
cube, the band makes a lone cube near the edge one and a half, and joins cubes in a row.

The band's width at the corner, in cube sides — the *reach* — is learned at calibration from the
sample cubes away from the centre (:func:`side_reach`). Before blobs are found, every class map
loses the band (:func:`drop_sides`): a pixel of an object stays only where the point one band
nearer the picture's centre is object too. A cube's bottom face passes (its own band lies
there); its band does not (tray lies beyond it). What is left is each cube's bottom face, whose
area and place are the cube's, as for a cube seen straight on.

Only for a calibration with a tray outline: a camera fixed under the tray. A photo taken from
anywhere (no outline) sees blocks from one side, not towards its centre (see
:mod:`~companion.vision.lit_faces`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.classify import BACKGROUND

MIN_OFF_CENTRE = 0.25  # of the half-diagonal: nearer the centre, a cube's band is too thin to measure
MIN_REACH = 0.1  # cube sides at the corner: a narrower band is under a working pixel at every cube
MAX_REACH = 3.0  # cube sides at the corner: a lens seeing more of a cube's sides than this is not under a tray

__all__ = ["MAX_REACH", "MIN_OFF_CENTRE", "MIN_REACH", "band_of", "drop_sides", "off_centre", "side_reach", "towards_centre"]


def band_of(mask: np.ndarray, origin: tuple[float, float], size: tuple[int, int]) -> tuple[float, float, float]:
    """One lone cube's band: its width and its face's side (pixels) and its distance from the
    picture's centre (:func:`off_centre`), from ``mask`` (the cube's pixels, its top-left corner
    at ``origin`` in a picture of ``size``, width and height; at least one pixel).

    A square turned any way is as wide along a direction as across it; a band along one
    direction adds its width there only. The band's width is the cube's extent towards the
    centre less its extent across, and the face is the area less the band's (width × across)."""
    ys, xs = np.nonzero(mask)
    points = np.stack([xs + origin[0], ys + origin[1]], axis=1).astype(np.float64)
    mean_x, mean_y = points.mean(axis=0)
    towards = np.array([size[0] / 2.0 - mean_x, size[1] / 2.0 - mean_y])
    u = towards / max(float(np.hypot(*towards)), 1e-9)
    along = float(np.ptp(points @ u)) + 1.0
    across = float(np.ptp(points @ np.array([-u[1], u[0]]))) + 1.0
    band = max(0.0, along - across)
    face = math.sqrt(max(len(points) - band * across, 0.5 * len(points)))
    return band, face, off_centre(mean_x, mean_y, size)


def off_centre(x: float, y: float, size: tuple[int, int]) -> float:
    """How far camera pixel (x, y) lies from the centre of a photo of ``size`` (width,
    height), over the half-diagonal: 0 at the centre, 1 at a corner."""
    return math.hypot(x - size[0] / 2.0, y - size[1] / 2.0) / (math.hypot(*size) / 2.0)


def side_reach(bands: Sequence[tuple[float, float, float]]) -> float:
    """The band's width at the picture's corner in cube sides, from lone cubes' :func:`band_of`:
    the least-squares slope of band over face × distance, of the cubes at least
    :data:`MIN_OFF_CENTRE` from the centre; 0 with none, or a band under :data:`MIN_REACH`."""
    measured = [b for b in bands if b[2] >= MIN_OFF_CENTRE]
    if not measured:
        return 0.0
    band = np.array([b[0] for b in measured])
    lever = np.array([b[1] * b[2] for b in measured])
    reach = float(band @ lever / (lever @ lever))
    return round(min(reach, MAX_REACH), 3) if reach >= MIN_REACH else 0.0


def towards_centre(shape: tuple[int, int], size: tuple[int, int], origin: tuple[int, int], scale: int,
                   reach: float) -> tuple[np.ndarray, np.ndarray]:
    """For every pixel of a working-resolution map of ``shape``, cut at camera pixel ``origin``
    from a photo of ``size`` (width, height) shrunk ``scale`` times, the point nearer the
    photo's centre by ``reach`` working pixels at the corner and in proportion nearer it: the
    maps :func:`cv2.remap` takes."""
    h, w = shape
    cx, cy = (size[0] / 2.0 - origin[0]) / scale, (size[1] / 2.0 - origin[1]) / scale
    k = np.float32(reach / (math.hypot(*size) / 2.0 / scale))
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    map_x = np.broadcast_to(xs + (np.float32(cx) - xs) * k, (h, w))
    map_y = np.broadcast_to(ys + (np.float32(cy) - ys) * k, (h, w))
    return np.ascontiguousarray(map_x), np.ascontiguousarray(map_y)


def drop_sides(classes: np.ndarray, maps: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """``classes`` with the cubes' bands made tray, in place, and returned: an object's pixel
    stays only where the point :func:`towards_centre` gives for it is object too."""
    objects = (classes != BACKGROUND).view(np.uint8)
    there = cv2.remap(objects, maps[0], maps[1], cv2.INTER_NEAREST,
                      borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    classes[(objects > there)] = BACKGROUND
    return classes
