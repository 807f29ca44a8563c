"""What can change between calibration and a battle, applied to a real photo — and how else
the sample boxes of a calibration might have been drawn.

Each drift is a pure function of a BGR photo (seeded where random), so every run of
``python -m benchmarks.vision --drift`` counts the very same pictures. They stand for a room
whose light dims or warms, another white balance, another tone curve, the camera ±30 % in
height, a soft focus, a harder JPEG and a noisier sensor, and several of these at once (another
session of the same tower) — not for anything about one photo.

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


_CODES = np.arange(256) / 255.0
_LINEAR = np.where(_CODES <= 0.04045, _CODES / 12.92, ((_CODES + 0.055) / 1.055) ** 2.4)  # sRGB decoded


def _encoded(linear: np.ndarray) -> np.ndarray:
    """8-bit sRGB codes of linear light (clipped to 0..1)."""
    linear = np.clip(linear, 0.0, 1.0)
    encoded = np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)
    return np.round(255.0 * encoded).astype(np.uint8)


def _exposure(factor: float) -> Drift:
    """The exposure ×``factor`` on the sensor's linear light (sRGB decoded, scaled, encoded
    again and clipped), as a camera's longer or shorter shutter makes it."""
    lut = _encoded(_LINEAR * factor)
    return lambda im: lut[im]


def _haze(lift: float) -> Drift:
    """Blacks lifted by ``lift`` of full scale (haze, a dirty tray, a sensor's black level):
    ``v → lift + (1 − lift)·v``."""
    lut = np.round(255.0 * (lift + (1.0 - lift) * np.arange(256) / 255.0)).astype(np.uint8)
    return lambda im: lut[im]


def _white_balance_kelvin(shift: float) -> Drift:
    """Another white balance by ``shift`` kelvin from daylight (6 500 K): the channel gains of
    a black body at 6 500 K + shift over one at 6 500 K (Planck's law at 450, 540 and 610 nm,
    normalised on green), applied on linear light."""
    def body(kelvin: float) -> np.ndarray:
        wavelengths = np.array([450e-9, 540e-9, 610e-9])  # B, G, R
        radiance = 1.0 / (wavelengths ** 5 * (np.exp(1.4388e-2 / (wavelengths * kelvin)) - 1.0))
        return radiance / radiance[1]
    gains = (body(6500.0 + shift) / body(6500.0)).astype(np.float32)
    luts = [_encoded(_LINEAR * gain) for gain in gains]

    def apply(im: np.ndarray) -> np.ndarray:
        out = np.empty_like(im)
        for c in range(3):
            out[..., c] = luts[c][im[..., c]]
        return out
    return apply


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


def _chain(*drifts: Drift) -> Drift:
    """The drifts one after the other, as the world stacks them."""
    def apply(im: np.ndarray) -> np.ndarray:
        for drift in drifts:
            im = drift(im)
        return im
    return apply


# A second session of the same tower, as issue 21 met it on real wooden cubes: the exposure
# about 1.4× brighter, the light cooler and the blacks lifted — and then another resolution.
_ANOTHER_SESSION = (_exposure(1.4), _white_balance_kelvin(1500.0), _haze(0.10))

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
    "exposure ×0.5": _exposure(0.5),
    "exposure ×1.6": _exposure(1.6),
    "haze (blacks +15 %)": _haze(0.15),
    "white balance −2000 K": _white_balance_kelvin(-2000.0),
    "white balance +2000 K": _white_balance_kelvin(2000.0),
    "resolution ×0.6 (scaled)": _height(0.6),
    "another session (×1.4, +1500 K, haze 10 %)": _chain(*_ANOTHER_SESSION),
    "another session, resolution ×0.6": _chain(*_ANOTHER_SESSION, _height(0.6)),
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
