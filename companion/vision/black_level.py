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

Which objects lie in view changes that dark end: dobot's wooden blocks, their lit faces pale,
put it anywhere from 3 to 40 levels from photo to photo under one light, and the model read a
lift where there was none or missed one. So each colour is its own witness: the dark end of a
colour's pixels in the frame against the same colour's in the calibration photo, every colour
both show and the tray one point each of the line ``x = lift + gain · x₀``, fitted by least
squares (:func:`lift_of`). The objects as a whole speak only when fewer than
:data:`MIN_WITNESSES` colours are in both (one colour and the tray fit any line).

And physics bounds it: no pixel of a lifted frame is darker than the lift, so the estimate is
capped at the frame's own darkest pixels (a scene whose objects are merely lighter than the
calibration's — only yellow sweets — has dark shadows or edges somewhere, and its estimate is
cut down to them). A lift under :data:`LIFT_MIN` is noise of content, not haze: ignored, so a
frame in the calibration's light is never touched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.classify import AMBIGUOUS, BACKGROUND, UNKNOWN

OBJECT_DARK_PERCENTILE = 10.0  # the objects' dark end: this percentile of their dark channel
FLOOR_PERCENTILE = 0.2  # the frame's darkest pixels (the physical bound on a lift)
LIFT_MIN = 20.0  # 8-bit levels (about 8 % of full scale) below which no lift is removed
GAIN_RANGE = (0.25, 4.0)  # the change of light a frame may show against the calibration photo
MIN_OBJECT_PIXELS = 10  # objects' pixels read (a quarter of the working pixels) below which the frame tells nothing
MIN_WITNESSES = 2  # colours in both pictures that read the lift; with fewer, the objects as a whole
_OUTSIDE = UNKNOWN + 1  # the histogram row of pixels outside the tray outline


@dataclass(frozen=True)
class DarkLevels:
    """The dark channel of one picture: the objects' dark end, the tray's median and the
    picture's floor (8-bit levels); ``objects`` is None with too few object pixels.
    ``colours`` holds each colour's dark end (colour code → level), for the colours with
    :data:`MIN_OBJECT_PIXELS` read."""

    objects: float | None
    tray: float
    floor: float
    colours: Mapping[int, float] = field(default_factory=dict)


def histogram_percentile(hist: np.ndarray, q: float) -> float:
    """The ``q``-th percentile (0..100) of the values a 256-bin histogram counts."""
    cumulative = np.cumsum(hist)
    return float(np.searchsorted(cumulative, q / 100.0 * cumulative[-1], side="left"))


def dark_levels(small: np.ndarray, classes: np.ndarray, inside: np.ndarray | None = None) -> DarkLevels:
    """The :class:`DarkLevels` of a working image with its class map, counting only the pixels
    ``inside`` (H×W uint8/bool, the tray outline) when given. Every second pixel of every
    second row is read: a percentile does not need them all (a quarter of the time)."""
    b, g, r = cv2.split(small)
    dark = cv2.min(cv2.min(b, g), r)[::2, ::2].astype(np.intp)
    # One histogram per kind of pixel: its class (0 the tray, 1… the colours, an ambiguous
    # pixel its nearest colour's, UNKNOWN), and OUTSIDE the outline.
    kind = classes[::2, ::2].astype(np.intp) % AMBIGUOUS  # the tray (0) stays 0
    if inside is not None:
        kind[~inside[::2, ::2].astype(bool)] = _OUTSIDE
    hist = np.bincount((kind * 256 + dark).ravel(), minlength=(_OUTSIDE + 1) * 256).reshape(_OUTSIDE + 1, 256)
    tray, objects = hist[BACKGROUND], hist[BACKGROUND + 1:_OUTSIDE].sum(axis=0)
    within = tray + objects
    colours = {code: histogram_percentile(hist[code], OBJECT_DARK_PERCENTILE) for code in range(1, UNKNOWN)
               if hist[code].sum() >= MIN_OBJECT_PIXELS}
    dark_end = histogram_percentile(objects, OBJECT_DARK_PERCENTILE) if objects.sum() >= MIN_OBJECT_PIXELS else None
    return DarkLevels(dark_end, histogram_percentile(tray if tray.sum() else within, 50.0),
                      histogram_percentile(within, FLOOR_PERCENTILE), colours)


def lift_of(frame: DarkLevels, calibration: tuple[float, float],
            colours: Mapping[int, float] | None = None) -> float:
    """The lift (8-bit levels) that separates ``frame`` from the calibration photo's
    ``(objects, tray)`` dark levels and its ``colours``' (code → level, as
    :attr:`DarkLevels.colours`); 0 when it is under :data:`LIFT_MIN` or cannot be told.

    The colours both pictures show, and the tray, each give one point ``(x₀, x)`` of
    ``x = lift + gain · x₀``, fitted by least squares; with fewer than :data:`MIN_WITNESSES`
    colours in both, the objects as a whole and the tray give it."""
    objects0, tray0 = calibration
    shared = sorted(set(frame.colours) & set(colours or {}))
    if len(shared) >= MIN_WITNESSES:
        before = np.array([tray0] + [colours[c] for c in shared])
        after = np.array([frame.tray] + [frame.colours[c] for c in shared])
    elif frame.objects is not None:
        before, after = np.array([tray0, objects0]), np.array([frame.tray, frame.objects])
    else:
        return 0.0  # no objects
    if tray0 - before.min() < 2 * LIFT_MIN:
        return 0.0  # a calibration whose tray is as dark as its cubes: no lever
    gain, lift = np.polyfit(before, after, 1)
    # A gain no change of light makes (the objects now lighter than the tray, where they were
    # darker) says the frame's objects are not like the calibration's — other colours, not a lift.
    if not GAIN_RANGE[0] <= gain <= GAIN_RANGE[1]:
        return 0.0
    lift = min(float(lift), frame.floor)
    return lift if lift >= LIFT_MIN else 0.0


def remove_lift(small: np.ndarray, lift: float) -> np.ndarray:
    """``small`` with ``lift`` levels taken off every channel (saturating at 0)."""
    return cv2.subtract(small, np.full(small.shape, int(round(lift)), np.uint8))
