"""Per-pixel colour classification through a quantised lookup table.

Each class (the tray background and the six cube colours) is a Gaussian model in the
light-corrected space of :mod:`companion.vision.light`. Its covariance is widened by a floor
(sensor noise) and along its own mean direction (a cube a bit brighter or darker than at
calibration — uneven light the correction did not fully remove — is still the same colour).
The table maps every 64³ quantised colour to the nearest model by Mahalanobis distance, or to
``UNKNOWN`` when no model is near. Applying it is one ``np.take`` per frame on the table
spread to every 8-bit colour (:func:`expand_lut`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.colors import CUBE_COLORS

BACKGROUND = 0
UNKNOWN = len(CUBE_COLORS) + 1  # 7; colours are 1..6 in CUBE_COLORS order
CLASS_NAMES: tuple[str, ...] = ("background",) + CUBE_COLORS + ("unknown",)
BITS = 6  # levels per channel = 2**BITS
_SHIFT = 8 - BITS

NOISE_FLOOR = 5.0  # grey levels: always-present spread (sensor noise, quantisation)
BRIGHTNESS_TOLERANCE = 0.2  # relative spread of brightness along the model's own colour
REJECT_DISTANCE = 5.0  # Mahalanobis distance beyond which a colour is no known class


@dataclass(frozen=True)
class ColorModel:
    """Mean and covariance of one class in the light-corrected B, G, R space."""

    mean: tuple[float, float, float]
    cov: tuple[tuple[float, float, float], ...]

    @classmethod
    def from_pixels(cls, pixels: np.ndarray) -> "ColorModel":
        """Model of an N×3 array of light-corrected pixels (N ≥ 1)."""
        px = np.asarray(pixels, dtype=np.float64).reshape(-1, 3)
        mean = px.mean(axis=0)
        cov = np.cov(px, rowvar=False) if len(px) > 3 else np.zeros((3, 3))
        return cls(tuple(float(v) for v in mean), tuple(tuple(float(v) for v in row) for row in cov))

    def widened(self) -> tuple[np.ndarray, np.ndarray]:
        """Mean and the widened inverse covariance used for classification."""
        mean = np.array(self.mean)
        along = BRIGHTNESS_TOLERANCE * mean
        cov = np.array(self.cov) + NOISE_FLOOR**2 * np.eye(3) + np.outer(along, along)
        return mean, np.linalg.inv(cov)


def build_lut(background: ColorModel, colors: dict[str, ColorModel]) -> np.ndarray:
    """The 64³ class table (uint8, flat, indexed by :func:`lut_index`)."""
    levels = (np.arange(2**BITS, dtype=np.float64) + 0.5) * (1 << _SHIFT)
    b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
    cells = np.stack([b.ravel(), g.ravel(), r.ravel()], axis=1).astype(np.float32)
    models = [background] + [colors.get(name) for name in CUBE_COLORS]
    dist = np.full((len(cells), len(models)), np.inf, dtype=np.float32)
    for k, model in enumerate(models):
        if model is None:
            continue
        mean, inv = model.widened()
        d = [cells[:, i] - np.float32(mean[i]) for i in range(3)]
        q = sum(np.float32(inv[i, j] * (1 if i == j else 2)) * d[i] * d[j]
                for i in range(3) for j in range(i, 3))
        dist[:, k] = np.sqrt(np.maximum(q, 0))
    lut = np.argmin(dist, axis=1).astype(np.uint8)
    lut[dist.min(axis=1) > REJECT_DISTANCE] = UNKNOWN
    # Glare (scratches, reflections) adds about the same light to every channel: anything at
    # least as bright as the tray in every channel and about as grey is tray, not an object.
    relative = cells / np.array(background.mean)
    glare = (relative.min(axis=1) >= 0.85) & (relative.max(axis=1) <= 1.3 * relative.min(axis=1))
    lut[glare] = BACKGROUND
    return lut


def expand_lut(lut: np.ndarray) -> np.ndarray:
    """The 64³ table spread to all 2²⁴ 8-bit colours (16 MB), indexed by the packed pixel
    ``B | G << 8 | R << 16`` — so a frame needs no arithmetic to find its table entries."""
    cube = np.ascontiguousarray(lut.reshape(2**BITS, 2**BITS, 2**BITS).transpose(2, 1, 0))
    step = 1 << _SHIFT  # cube is now [R][G][B], the order of the packed pixel's bytes
    return np.repeat(np.repeat(np.repeat(cube, step, 0), step, 1), step, 2).ravel()


@functools.lru_cache(maxsize=4)
def full_lut(background: ColorModel, colors: tuple[tuple[str, ColorModel], ...]) -> np.ndarray:
    """:func:`expand_lut` of :func:`build_lut`, cached: calibrating and then counting with the
    same models builds the table once."""
    table = expand_lut(build_lut(background, dict(colors)))
    table.setflags(write=False)
    return table


def lut_index(normalised: np.ndarray) -> np.ndarray:
    """Flat 64³-table index of every pixel of an H×W×3 uint8 image (B major, R minor)."""
    q = normalised >> _SHIFT
    idx = q[:, :, 0].astype(np.uint32) << (2 * BITS)
    idx |= q[:, :, 1].astype(np.uint32) << BITS
    idx |= q[:, :, 2]
    return idx


def classify(normalised: np.ndarray, full_lut: np.ndarray) -> np.ndarray:
    """H×W uint8 class map: BACKGROUND, 1..6 (CUBE_COLORS order) or UNKNOWN.

    ``full_lut`` is :func:`expand_lut` of the table. The pixel's three bytes are packed into
    one 32-bit word by OpenCV (BGR → BGRA) and masked; one ``np.take`` does the rest.
    """
    packed = cv2.cvtColor(normalised, cv2.COLOR_BGR2BGRA).view(np.uint32)[:, :, 0]
    return np.take(full_lut, packed & 0xFFFFFF)
