"""The naive counter we measure ourselves against: fixed HSV thresholds, one contour = one cube.

It is what one writes first: take each sample cube's hue, saturation and value from the
calibration photo, threshold every frame in HSV around them, and count every contour bigger
than a third of a cube as one cube. No light correction, no cluster splitting, no unknowns.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.colors import CUBE_COLORS


@dataclass(frozen=True)
class BaselineModel:
    ranges: tuple[tuple[str, np.ndarray, np.ndarray], ...]  # (colour, low, high) HSV, one per sample
    cube_area: float
    roi: tuple[tuple[int, int], ...] | None


def fit_baseline(image: np.ndarray, samples, roi=None) -> BaselineModel:
    """Thresholds from the centre patch of each sample box of the calibration photo (a colour
    with several samples — several shades — gets the union of their ranges)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    ranges, areas = [], []
    for s in samples:
        x, y, w, h = s.box
        cx, cy = x + w // 2, y + h // 2
        hh, ss, vv = (float(v) for v in np.median(hsv[cy - 3:cy + 4, cx - 3:cx + 4].reshape(-1, 3), axis=0))
        if s.color == "black":
            low, high = (0, 0, 0), (180, 255, vv * 2.2 + 10)
        else:
            low, high = (hh - 10, ss * 0.55, vv * 0.5), (hh + 10, 255, min(255, vv * 1.6 + 10))
        ranges.append((s.color, np.array(low, np.float64), np.array(high, np.float64)))
        areas.append(0.8 * w * h / 1.6 ** 2)
    return BaselineModel(tuple(ranges), float(np.median(areas)), roi)


def _in_range(hsv: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    if low[0] < 0 or high[0] > 180:  # red wraps around hue 0
        a = cv2.inRange(hsv, np.array([max(low[0], 0), low[1], low[2]]), np.array([min(high[0], 180), high[1], high[2]]))
        wrapped = (low[0] + 180, 180) if low[0] < 0 else (0, high[0] - 180)
        b = cv2.inRange(hsv, np.array([wrapped[0], low[1], low[2]]), np.array([wrapped[1], high[1], high[2]]))
        return a | b
    return cv2.inRange(hsv, low, high)


def baseline_count(image: np.ndarray, model: BaselineModel) -> dict[str, int]:
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    roi = None if model.roi is None else np.array(model.roi, np.float32)
    counts: dict[str, int] = {}
    for color in CUBE_COLORS:
        bounds = [(low, high) for c, low, high in model.ranges if c == color]
        if not bounds:
            continue
        mask = np.zeros(hsv.shape[:2], np.uint8)
        for low, high in bounds:
            mask |= _in_range(hsv, low, high)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        n = 0
        for c in contours:
            if cv2.contourArea(c) < model.cube_area / 3:
                continue
            m = cv2.moments(c)
            centre = (m["m10"] / m["m00"], m["m01"] / m["m00"])
            if roi is None or cv2.pointPolygonTest(roi, centre, False) >= 0:
                n += 1
        if n:
            counts[color] = n
    return counts
