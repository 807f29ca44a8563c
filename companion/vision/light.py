"""Light correction: turn a photo into reflectance relative to the empty tray.

The counter never classifies raw pixels. It divides the frame, channel by channel, by what the
empty tray looks like *under the light of this frame*, so the tray surface becomes grey
``LEVEL`` whatever the light level, white balance or uneven lighting, and a cube's pixels
become its reflectance relative to the tray — the same numbers the calibration measured.

Where that "empty tray under this light" comes from, best first:
1. an empty-tray photo with a gain field fitted to the frame (same light: the field is ~1;
   other light: the field absorbs level, white balance and gradient);
2. the frame itself: a coarse median over cells as big as a cube, which ignores the cubes.
"""

from __future__ import annotations

import cv2
import numpy as np

LEVEL = 128  # grey level of the empty tray after correction (leaves head-room for brighter things)
SCALE = 2  # default: the counter works at 1/SCALE of the camera resolution
_CELL = 16  # working pixels per cell of the coarse light grid (about one cube)


def shrink(image: np.ndarray, scale: int = SCALE) -> np.ndarray:
    """The working-resolution copy of a camera image (area averaging, which also cuts noise)."""
    if scale == 1:
        return image
    h, w = image.shape[:2]
    return cv2.resize(image, (w // scale, h // scale), interpolation=cv2.INTER_AREA)


def _coarse(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    return cv2.resize(image, (max(1, w // _CELL), max(1, h // _CELL)), interpolation=cv2.INTER_AREA)


def _grow(coarse: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    return cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)


def background_estimate(small: np.ndarray, empty_small: np.ndarray | None = None) -> np.ndarray:
    """What the empty tray looks like under the light of ``small`` (both at working resolution).

    With ``empty_small`` the result keeps the tray's fine detail (scratches, blotches) and takes
    the light from the frame: per-cell frame/empty ratios, median-filtered so that cells covered
    by cubes take the light of their neighbours. Returns uint8 H×W×3, never zero.
    """
    if empty_small is None:
        coarse = cv2.medianBlur(_coarse(small), 5)
        coarse = cv2.medianBlur(coarse, 5)
        return np.maximum(_grow(coarse, small.shape), 1)
    frame_c = _coarse(small).astype(np.float32)
    empty_c = np.maximum(_coarse(empty_small).astype(np.float32), 1.0)
    ratio = cv2.medianBlur(frame_c / empty_c, 5)
    ratio = cv2.medianBlur(ratio, 5)
    gain = _grow(ratio, small.shape)
    corrected = cv2.multiply(empty_small.astype(np.float32), gain)
    return np.clip(corrected, 1, 255).astype(np.uint8)


def normalise(small: np.ndarray, background: np.ndarray) -> np.ndarray:
    """``small / background · LEVEL`` per channel, uint8 (saturates at twice the tray)."""
    return cv2.divide(small, background, scale=LEVEL)


def corrected(image: np.ndarray, empty: np.ndarray | None = None, scale: int = SCALE) -> np.ndarray:
    """Camera image (and optional empty-tray photo of the same size) → normalised working image."""
    small = shrink(image, scale)
    empty_small = None if empty is None else shrink(empty, scale)
    return normalise(small, background_estimate(small, empty_small))
