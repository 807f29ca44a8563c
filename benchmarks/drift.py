"""What can change between calibration and a battle, applied to a real photo — and how else
the sample boxes of a calibration might have been drawn.

Each drift is a pure function of a BGR photo (seeded where random), so every run of
``python -m benchmarks.vision --drift`` counts the very same pictures. They stand for a room
whose light dims or warms, another white balance, another tone curve, the camera ±30 % in
height, a soft focus, a harder JPEG and a noisier sensor — not for anything about one photo.

Each box drawing (``--boxes``) turns a sample box into the box another person might have drawn
round the same cube: tighter, looser, or off centre.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

Drift = Callable[[np.ndarray], np.ndarray]
Box = tuple[int, int, int, int]  # x, y, width, height
BoxDrawing = Callable[[Box], Box]


def _gains(b: float, g: float, r: float) -> Drift:
    gains = np.array([b, g, r], np.float32)
    return lambda im: np.clip(im.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def _tone(gamma: float) -> Drift:
    lut = np.round(255.0 * (np.arange(256) / 255.0) ** gamma).astype(np.uint8)
    return lambda im: lut[im]


def _height(factor: float) -> Drift:
    mode = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    return lambda im: cv2.resize(im, None, fx=factor, fy=factor, interpolation=mode)


def _blur(sigma: float) -> Drift:
    return lambda im: cv2.GaussianBlur(im, (0, 0), sigma)


def _jpeg(quality: int) -> Drift:
    return lambda im: cv2.imdecode(cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
                                   cv2.IMREAD_COLOR)


def _noise(sigma: float) -> Drift:
    def apply(im: np.ndarray) -> np.ndarray:
        rng = np.random.default_rng(im.size)  # the same noise for the same photo, every run
        return np.clip(im + rng.normal(0.0, sigma, im.shape), 0, 255).astype(np.uint8)
    return apply


DRIFTS: dict[str, Drift] = {
    "light ×0.7": _gains(0.7, 0.7, 0.7),
    "light ×1.25": _gains(1.25, 1.25, 1.25),
    "warmer light": _gains(0.85, 1.0, 1.12),
    "cooler light": _gains(1.12, 1.0, 0.88),
    "greener light": _gains(0.95, 1.1, 0.95),
    "tone curve γ0.8": _tone(0.8),
    "tone curve γ1.25": _tone(1.25),
    "camera 30 % higher": _height(1 / 1.3),
    "camera 30 % lower": _height(1.3),
    "soft focus σ1.5": _blur(1.5),
    "JPEG quality 40": _jpeg(40),
    "sensor noise σ6": _noise(6.0),
}


def _redrawn(scale: float, dx: float = 0.0, dy: float = 0.0) -> BoxDrawing:
    """The box ``scale`` times as wide and high round its centre, moved by ``dx``, ``dy`` of
    its own size."""
    def apply(box: Box) -> Box:
        x, y, w, h = box
        cx, cy = x + w / 2 + dx * w, y + h / 2 + dy * h
        nw, nh = round(w * scale), round(h * scale)
        return (round(cx - nw / 2), round(cy - nh / 2), nw, nh)
    return apply


BOX_DRAWINGS: dict[str, BoxDrawing] = {
    "boxes ×0.8 (tight)": _redrawn(0.8),
    "boxes ×0.9": _redrawn(0.9),
    "boxes ×1.2": _redrawn(1.2),
    "boxes ×1.5": _redrawn(1.5),
    "boxes ×2.0 (loose)": _redrawn(2.0),
    "boxes 10 % right": _redrawn(1.0, 0.1, 0.0),
    "boxes 10 % down": _redrawn(1.0, 0.0, 0.1),
    "boxes 10 % up-left": _redrawn(1.0, -0.1, -0.1),
    "boxes 15 % down-right": _redrawn(1.0, 0.15, 0.15),
}
