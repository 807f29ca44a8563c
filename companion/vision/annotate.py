"""The picture the players check before a count changes the game: every cube outlined in its
colour and numbered, unsure cubes marked, unknown objects boxed, every doubtful place boxed in
its colour with its two readings ("0/1?": none or one; "?": which colour), the tray outline
drawn. The marks are numbers and symbols, not words: the picture reads the same in any
language."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.colors import CUBE_COLORS, DRAW_BGR
from companion.vision.counting import TrayCount

UNSURE = 0.6  # cubes below this confidence get a "?" so players look twice


def _label(img: np.ndarray, text: str, org: tuple[int, int], scale: float, color) -> None:
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 4, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, color, 1, cv2.LINE_AA)


def annotate(image: np.ndarray, result: TrayCount,
             roi: Sequence[Sequence[int]] | None = None, cube_side: float | None = None) -> np.ndarray:
    """A copy of ``image`` with the count drawn on it; ``image`` itself is not changed."""
    out = image.copy()
    h, w = out.shape[:2]
    if roi is not None:
        cv2.polylines(out, [np.array(roi, np.int32)], True, (255, 255, 255), 2, cv2.LINE_AA)
    radius = int(round((cube_side or max(12.0, w / 36.0)) * 0.5))  # inside the face: edges stay visible
    font = max(0.4, radius / 28.0)
    numbers: dict[str, int] = {}
    for cube in result.cubes:
        numbers[cube.color] = numbers.get(cube.color, 0) + 1
        centre = (int(round(cube.x)), int(round(cube.y)))
        ring = DRAW_BGR.get(cube.color, (255, 255, 255))
        cv2.circle(out, centre, radius, (255, 255, 255), 4, cv2.LINE_AA)  # visible on black cubes
        cv2.circle(out, centre, radius, ring, 2, cv2.LINE_AA)
        text = str(numbers[cube.color]) + ("?" if cube.confidence < UNSURE else "")
        _label(out, text, (centre[0] - radius // 2, centre[1] + radius // 3), font, (255, 255, 255))
    for x, y, bw, bh in result.unknown_boxes:
        cv2.rectangle(out, (x, y), (x + bw, y + bh), (255, 255, 255), 2, cv2.LINE_AA)
        _label(out, "?", (x + 4, y + int(24 * font)), font, (255, 255, 255))
    for doubt in result.doubtful:  # where to look first: the camera was unsure there
        x, y, bw, bh = doubt.bbox
        colour = DRAW_BGR.get(doubt.color, (255, 255, 255))
        cv2.rectangle(out, (x, y), (x + bw, y + bh), colour, 2, cv2.LINE_AA)
        text = f"{doubt.cubes}/{doubt.alternative}?" if doubt.reason == "size" else "?"
        _label(out, text, (x + 4, y + bh - 6), font, colour)
    parts = [f"{c} {result.counts[c]}" for c in CUBE_COLORS if result.counts.get(c)]
    if result.unknown:
        parts.append(f"unknown {result.unknown}")
    summary = "  ".join(parts) or "tray empty"
    cv2.rectangle(out, (0, 0), (w, int(36 * max(font, 0.6))), (0, 0, 0), -1)
    _label(out, summary, (8, int(26 * max(font, 0.6))), max(font, 0.6), (255, 255, 255))
    return out
