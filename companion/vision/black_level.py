"""Black level: undo a lift of the blacks (haze, a fogged or dirty tray, a camera's black level
drifting) that the light correction's gains cannot.

The light correction (:mod:`companion.vision.light`) multiplies: ``frame = gain · calibration``.
A lift adds: ``frame = lift + gain · calibration``. Under a lift every colour moves towards
grey, and cubes fall out of their colours — on the sweets set a lift of 15 % of full scale
turned 81 sweets "unknown". A uniform tray alone cannot tell a lift from a gain (one colour
gives one equation per channel), so the objects are the second witness, read through the
*dark channel* (each pixel's darkest channel — the quantity the dark-channel prior of haze
removal rests on): a coloured cube has one dark channel however bright it is, and a lift raises
it with everything else.

With ``t`` the tray's dark channel and ``d`` the objects' dark end (a low percentile of their
dark channel), in the calibration photo (``t₀``, ``d₀``) and in the frame (``t``, ``d``), the
model ``x = lift + gain · x₀`` on both gives

    lift = (d · t₀ − t · d₀) / (t₀ − d₀)

and physics bounds it: no pixel of a lifted frame is darker than the lift, so the estimate is
capped at the frame's own darkest pixels (a scene whose objects are merely lighter than the
calibration's — only yellow sweets — has dark shadows or edges somewhere, and its estimate is
cut down to them). A lift under :data:`LIFT_MIN` is noise of content, not haze: ignored, so a
frame in the calibration's light is never touched.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.classify import BACKGROUND

OBJECT_DARK_PERCENTILE = 10.0  # the objects' dark end: this percentile of their dark channel
FLOOR_PERCENTILE = 0.2  # the frame's darkest pixels (the physical bound on a lift)
LIFT_MIN = 20.0  # 8-bit levels (about 8 % of full scale) below which no lift is removed
GAIN_RANGE = (0.25, 4.0)  # the change of light a frame may show against the calibration photo
MIN_OBJECT_PIXELS = 10  # objects' pixels read (a quarter of the working pixels) below which the frame tells nothing


@dataclass(frozen=True)
class DarkLevels:
    """The dark channel of one picture: the objects' dark end, the tray's median and the
    picture's floor (8-bit levels); ``objects`` is None with too few object pixels."""

    objects: float | None
    tray: float
    floor: float


def _percentile(hist: np.ndarray, q: float) -> float:
    """The ``q``-th percentile (0..100) of the values a 256-bin histogram counts."""
    cumulative = np.cumsum(hist)
    return float(np.searchsorted(cumulative, q / 100.0 * cumulative[-1], side="left"))


def dark_levels(small: np.ndarray, classes: np.ndarray, inside: np.ndarray | None = None) -> DarkLevels:
    """The :class:`DarkLevels` of a working image with its class map, counting only the pixels
    ``inside`` (H×W uint8/bool, the tray outline) when given. Every second pixel of every
    second row is read: a percentile does not need them all (a quarter of the time)."""
    b, g, r = cv2.split(small)
    dark = cv2.min(cv2.min(b, g), r)[::2, ::2].astype(np.intp)
    # One histogram of three kinds of pixel: 0 tray, 1 object, 2 outside the outline.
    kind = (classes[::2, ::2] != BACKGROUND).view(np.uint8).astype(np.intp)
    if inside is not None:
        kind[~inside[::2, ::2].astype(bool)] = 2
    hist = np.bincount((kind * 256 + dark).ravel(), minlength=3 * 256).reshape(3, 256)
    tray, objects = hist[0], hist[1]
    within = tray + objects
    return DarkLevels(_percentile(objects, OBJECT_DARK_PERCENTILE) if objects.sum() >= MIN_OBJECT_PIXELS else None,
                      _percentile(tray if tray.sum() else within, 50.0), _percentile(within, FLOOR_PERCENTILE))


def lift_of(frame: DarkLevels, calibration: tuple[float, float]) -> float:
    """The lift (8-bit levels) that separates ``frame`` from the calibration photo's
    ``(objects, tray)`` dark levels; 0 when it is under :data:`LIFT_MIN` or cannot be told."""
    objects0, tray0 = calibration
    if frame.objects is None or tray0 - objects0 < 2 * LIFT_MIN:
        return 0.0  # no objects, or a calibration whose tray is as dark as its cubes: no lever
    # The same model on both gives the frame's gain too; a gain no change of light makes (the
    # objects now lighter than the tray, where they were darker) says the frame's objects are
    # not like the calibration's — other colours, not a lift.
    gain = (frame.tray - frame.objects) / (tray0 - objects0)
    if not GAIN_RANGE[0] <= gain <= GAIN_RANGE[1]:
        return 0.0
    lift = min(frame.tray - gain * tray0, frame.floor)
    return float(lift) if lift >= LIFT_MIN else 0.0


def remove_lift(small: np.ndarray, lift: float) -> np.ndarray:
    """``small`` with ``lift`` levels taken off every channel (saturating at 0)."""
    return cv2.subtract(small, np.full(small.shape, int(round(lift)), np.uint8))
