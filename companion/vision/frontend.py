"""From a working image to a class map — the one path shared by calibration and counting.

Calibration measures one cube exactly as the counter will later measure every blob, so both
call :func:`class_map`: relight to the calibration light, classify by the learned references,
and, when the empty tray of this same light is known, let nothing that did not change since the
empty photo be a cube (static screws, rails, reflections and stains drop out pixel by pixel) —
and nothing that changed other than as light changes the tray be tray.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision import light
from companion.vision.classify import BACKGROUND, UNKNOWN, Reference, classify

UNCHANGED = 14  # grey levels (working resolution): a pixel this close to the empty tray is tray
LIGHT_ONLY = 1.2  # a shadow or reflection changes a pixel's channels by factors this close


def class_map(small: np.ndarray, references: Sequence[Reference], tables: tuple[np.ndarray, np.ndarray],
              tray_bgr: Sequence[float], empty_small: np.ndarray | None = None,
              tray_cells: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The frame relit to the calibration light, and its H×W uint8 class map (see :func:`classify`).

    ``tables`` is :func:`~companion.vision.classify.full_tables` of ``references``;
    ``empty_small`` the empty tray at the same resolution, taken under the same light;
    ``tray_cells`` the calibration's tray on the same cell grid (see :func:`light.gain_field`).
    """
    full_lut, ref_index = tables
    field = light.gain_field(small, references, ref_index, tray_bgr, empty_small, tray_cells)
    relit = light.relight(small, field)
    classes = classify(relit, full_lut)
    if empty_small is not None:
        diff = cv2.absdiff(small, empty_small)
        b, g, r = cv2.split(diff)
        change = cv2.max(cv2.max(b, g), r)
        classes[change < UNCHANGED] = BACKGROUND
        # Changed since the empty photo, yet read as tray: a cube whose colour the light moved
        # onto one of the tray's looks — unless the change is one of light alone (a cube's
        # shadow, a reflection off it): the same factor in every channel, as bright as
        # shadows and reflections make the tray. Such a pixel is of no known colour, never tray.
        suspect = (change >= 2 * UNCHANGED) & (classes == BACKGROUND)
        if suspect.any():  # judged on every second pixel of every second row: a quarter of the time
            h, w = suspect.shape
            half = (max(1, w // 2), max(1, h // 2))
            alone = _light_alone(cv2.resize(small, half, interpolation=cv2.INTER_NEAREST),
                                 cv2.resize(empty_small, half, interpolation=cv2.INTER_NEAREST)).view(np.uint8)
            alone = cv2.resize(alone, (w, h), interpolation=cv2.INTER_NEAREST).view(bool)
            classes[suspect & ~alone] = UNKNOWN
    return relit, classes


_LOG = np.round(32.0 * np.log(np.arange(256) + 1.0)).astype(np.uint8)  # 32·ln(v + 1): ratios as differences


def _light_alone(small: np.ndarray, empty_small: np.ndarray) -> np.ndarray:
    """Where ``small`` differs from ``empty_small`` as light alone changes it: every channel by
    the same factor (within :data:`LIGHT_ONLY`), from ×0.4 to ×2.5 (``light.LEVEL_RANGE``).
    Factors are compared as differences of logarithms (steps of about 3 %), in integers."""
    ratio = cv2.subtract(cv2.LUT(small, _LOG), cv2.LUT(empty_small, _LOG), dtype=cv2.CV_16S)
    b, g, r = cv2.split(ratio)
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    level = cv2.add(cv2.add(b, g), r)  # three times the mean log-factor
    low, high = (3 * 32.0 * np.log(v) for v in light.LEVEL_RANGE)
    return (spread <= 32.0 * np.log(LIGHT_ONLY)) & (level >= low) & (level <= high)
