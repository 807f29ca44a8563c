"""Light correction: turn a photo into reflectance relative to the empty tray.

The counter never classifies raw pixels. It divides the frame, channel by channel, by what the
empty tray looks like *under the light of this frame*, so the tray surface becomes grey
``LEVEL`` whatever the light level, white balance or uneven lighting, and a cube's pixels
become its reflectance relative to the tray — the same numbers the calibration measured.

Where that "empty tray under this light" comes from, best first:
1. an empty-tray photo, times a smooth light-change field fitted to the frame (same light: the
   field is 1; other light: it absorbs level, white balance and gradient);
2. the frame itself: a coarse median over cells as big as a cube, which ignores the cubes.
"""

from __future__ import annotations

import cv2
import numpy as np

LEVEL = 128  # grey level of the empty tray after correction (leaves head-room for brighter things)
SCALE = 2  # default: the counter works at 1/SCALE of the camera resolution
SAME_LIGHT = 2  # grey levels around LEVEL within which two photos count as equally lit
CELL = 16  # working pixels per cell of the coarse light grid (about one cube)


def shrink(image: np.ndarray, scale: int = SCALE) -> np.ndarray:
    """The working-resolution copy of a camera image (area averaging, which also cuts noise).
    Halving steps use OpenCV's fast 2×2 path; other factors take the general one."""
    while scale > 1 and scale % 2 == 0 and image.shape[0] % 2 == 0 and image.shape[1] % 2 == 0:
        h, w = image.shape[:2]
        image = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        scale //= 2
    if scale > 1:
        h, w = image.shape[:2]
        image = cv2.resize(image, (w // scale, h // scale), interpolation=cv2.INTER_AREA)
    return image


def _coarse(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return cv2.resize(image, (max(1, w // CELL), max(1, h // CELL)), interpolation=cv2.INTER_AREA)


def _grow(coarse: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)


def background_estimate(small: np.ndarray) -> np.ndarray:
    """The empty tray under the light of ``small``, estimated from ``small`` alone: a median
    over cells about a cube wide, so cubes and small clusters vanish. uint8."""
    coarse = cv2.medianBlur(cv2.medianBlur(_coarse(small), 5), 5)
    return _grow(coarse, small.shape)  # OpenCV's x / 0 is 0: a dead pixel stays dark


def normalise(small: np.ndarray, background: np.ndarray) -> np.ndarray:
    """``small / background · LEVEL`` per channel, uint8 (saturates at twice the tray)."""
    return cv2.divide(small, background, scale=LEVEL)


def relight(ratio: np.ndarray) -> np.ndarray:
    """Correct ``frame / empty · LEVEL`` for a change of light between the two photos.

    Per-cell median ratios (cells covered by cubes take their neighbours' value) give the light
    change as a smooth field; dividing by it leaves the tray at ``LEVEL`` everywhere. When both
    photos share the light the field is ``LEVEL`` and this changes nothing.
    """
    change = cv2.medianBlur(cv2.medianBlur(_coarse(ratio), 5), 5)
    if np.percentile(np.abs(change.astype(np.int16) - LEVEL), 90) <= SAME_LIGHT:
        # The usual case (empty photo seconds before): nothing to correct. The few cells that
        # differ are under big clusters, where a correction would only bend the cubes' colours.
        return ratio
    return cv2.divide(ratio, _grow(change, ratio.shape), scale=LEVEL)


def corrected(image: np.ndarray, empty: np.ndarray | None = None, scale: int = SCALE) -> np.ndarray:
    """Camera image (and optional empty-tray photo of the same size) → normalised working image.

    With ``empty`` the tray's fine detail (blotches, scratches) divides out pixel by pixel and
    the light of the frame is taken from the frame (:func:`relight`); without it the tray is
    estimated from the frame (:func:`background_estimate`). All in 8-bit OpenCV arithmetic.
    """
    small = shrink(image, scale)
    if empty is None:
        return normalise(small, background_estimate(small))
    return relight(normalise(small, shrink(empty, scale)))
