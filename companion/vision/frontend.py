"""From a working image to a class map — the one path shared by calibration and counting.

Calibration measures one cube exactly as the counter will later measure every blob, so both
call :func:`class_map`: relight to the calibration light, classify by the learned references,
and, when the empty tray of this same light is known, let nothing that did not change since the
empty photo be a cube (static screws, rails, reflections and stains drop out pixel by pixel).
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
        if suspect.any():
            ratio = (small[suspect].astype(np.float32) + 1.0) / (empty_small[suspect].astype(np.float32) + 1.0)
            level = ratio.mean(axis=1)
            lighting = ((ratio.max(axis=1) <= LIGHT_ONLY * ratio.min(axis=1))
                        & (level >= light.LEVEL_RANGE[0]) & (level <= light.LEVEL_RANGE[1]))
            ys, xs = np.nonzero(suspect)
            classes[ys[~lighting], xs[~lighting]] = UNKNOWN
    return relit, classes
