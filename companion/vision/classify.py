"""Per-pixel colour classification by learned references, through a lookup table.

Every class is a set of *references*: Gaussian clusters in OpenCV's 8-bit CIE Lab space, learned
from photos — the tray ("not a cube": as many clusters as the tray has looks, dark strips,
rails, shadows and reflections included) and each cube colour (one cluster per sample box, so a
colour that comes in two shades has two references). Nothing about any colour is assumed.

A pixel goes to the nearest reference by Mahalanobis distance. Each reference's covariance is
widened by a floor (sensor noise, JPEG) and along the colour's own direction from black (light
the correction did not fully remove, and the shading of a cube's faces, make a colour lighter
or darker with its chroma in proportion). A pixel near no
reference is ``UNKNOWN``: a foreign object, never guessed into a colour.

The table covers every 64³ quantised BGR colour; spread to all 2²⁴ colours (16 MB) one
``np.take`` classifies a frame. A second table gives the *reference* of each colour, which the
light correction needs (which tray look a tray pixel is).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.colors import CUBE_COLORS

BACKGROUND = 0
UNKNOWN = len(CUBE_COLORS) + 1  # 7; colours are 1..6 in CUBE_COLORS order
CLASS_NAMES: tuple[str, ...] = ("background",) + CUBE_COLORS + ("unknown",)
BITS = 6  # levels per channel = 2**BITS
_SHIFT = 8 - BITS

NOISE_FLOOR = 4.0  # Lab units (8-bit scale): always-present spread (sensor noise, JPEG, quantisation)
SHADES = (0.75, 1.2)  # Lab scale of a cube colour under other light: about ×0.4 to ×1.7 in intensity
TRAY_SHADES = (0.75, 1.2)  # the tray may also lie in deep shadow (tower walls, a hand, a cube's shadow)
AMBIGUOUS = 8  # added to a colour code when the next colour is nearly as close (see build_tables)
AMBIGUITY = 0.75  # nearest over next-nearest colour distance above which a pixel is ambiguous
REJECT_DISTANCE = 6.0  # Mahalanobis distance beyond which a pixel matches no reference
# Glare (reflections of the ring light, scratches) is brighter than the tray and nearly grey:
# such a pixel is tray, never a cube (a highlight on a yellow cube is not yellow).
GLARE_CHROMA = 14.0  # Lab units from neutral
CHROMATIC = 12.0  # Lab chroma below which a colour has no hue to compare (black, white, grey)


def hue_turn(hue: np.ndarray | float, other: float) -> np.ndarray | float:
    """The angle (0 to 180 degrees) between hues given in degrees."""
    return np.abs((hue - other + 180.0) % 360.0 - 180.0)


def hue_gap(ab: Sequence[float], other: Sequence[float]) -> float:
    """Degrees (0 to 180) between the Lab hues of two (a, b) pairs, both centred on grey."""
    return float(hue_turn(math.degrees(math.atan2(ab[1], ab[0])), math.degrees(math.atan2(other[1], other[0]))))


def code_of(color: str) -> int:
    """Class code of a cube colour (1..6)."""
    return CUBE_COLORS.index(color) + 1


@dataclass(frozen=True)
class Reference:
    """One learned look: the pixels of one class under the calibration light, as a Gaussian.

    ``lab`` mean and ``cov`` are in OpenCV's 8-bit Lab (L 0..255, a and b offset by 128);
    ``bgr`` is the mean in camera BGR, for the light correction.
    """

    code: int  # BACKGROUND or a colour code
    lab: tuple[float, float, float]
    cov: tuple[tuple[float, float, float], ...]
    bgr: tuple[float, float, float]
    weight: float = 1.0  # share of its class's training pixels

    @classmethod
    def from_pixels(cls, code: int, bgr_pixels: np.ndarray, weight: float = 1.0) -> "Reference":
        """The reference of an N×3 uint8 BGR array (N ≥ 1)."""
        px = np.ascontiguousarray(np.asarray(bgr_pixels, np.uint8).reshape(-1, 1, 3))
        lab = cv2.cvtColor(px, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float64)
        cov = np.cov(lab, rowvar=False) if len(lab) > 3 else np.zeros((3, 3))
        mean_bgr = px.reshape(-1, 3).astype(np.float64).mean(axis=0)
        return cls(code, _tup(lab.mean(axis=0)), tuple(_tup(r) for r in cov), _tup(mean_bgr), float(weight))

    @classmethod
    def from_lab(cls, code: int, lab_pixels: np.ndarray) -> "Reference":
        """A reference of N×3 Lab values (for local, throw-away models; ``bgr`` is unknown)."""
        lab = np.asarray(lab_pixels, np.float64).reshape(-1, 3)
        cov = np.cov(lab, rowvar=False) if len(lab) > 3 else np.zeros((3, 3))
        return cls(code, _tup(lab.mean(axis=0)), tuple(_tup(r) for r in cov), (0.0, 0.0, 0.0))

    @property
    def name(self) -> str:
        return CLASS_NAMES[self.code]

    @property
    def shades(self) -> tuple[float, float]:
        """The range of light scales this reference stands for."""
        return TRAY_SHADES if self.code == BACKGROUND else SHADES

    def metric(self) -> tuple[np.ndarray, np.ndarray]:
        """The mean as a vector from black (L, a−128, b−128) and the inverse covariance
        (the learned spread plus the noise floor)."""
        mean = np.array(self.lab) - _BLACK
        cov = np.array(self.cov) + NOISE_FLOOR ** 2 * np.eye(3)
        return mean, np.linalg.inv(cov)

    def distance(self, lab: np.ndarray, shades: tuple[float, float] | None = None) -> np.ndarray:
        """Distance of N×3 Lab values to this reference: see :func:`shade_distance` (over
        ``shades``, by default :attr:`shades`)."""
        mean, inv = self.metric()
        x = np.asarray(lab, np.float64).reshape(-1, 3) - _BLACK
        return shade_distance(x, mean, inv, self.shades if shades is None else shades)

    def to_dict(self) -> dict:
        return {"class": self.name, "lab": [round(v, 3) for v in self.lab],
                "cov": [[round(v, 3) for v in row] for row in self.cov],
                "bgr": [round(v, 2) for v in self.bgr], "weight": round(self.weight, 4)}


_BLACK = np.array([0.0, 128.0, 128.0])


def shade_distance(x: np.ndarray, mean: np.ndarray, inv: np.ndarray,
                   shades: tuple[float, float] = SHADES) -> np.ndarray:
    """Mahalanobis distance from N×3 colours ``x`` to the nearest *shade* of ``mean``.

    Both are vectors from black in Lab. Dimmer or brighter light scales a colour's L, a and b
    together, so the reference stands for the segment ``t · mean`` with ``t`` in ``shades`` —
    bounded: a tray in shadow stays tray, but a black cube is no tray "in very deep shadow".
    """
    px = x @ inv
    t = (px @ mean) / max(float(mean @ inv @ mean), 1e-9)
    t = np.clip(t, shades[0], shades[1])
    r = x - t[:, None] * mean
    return np.sqrt(np.maximum(np.einsum("ni,ij,nj->n", r, inv, r), 0.0))


def _tup(values) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


@functools.lru_cache(maxsize=1)
def cell_colours() -> tuple[np.ndarray, np.ndarray]:
    """BGR centres of the 64³ table cells (B major, R minor) and their Lab values (read-only)."""
    levels = ((np.arange(2 ** BITS) << _SHIFT) + (1 << _SHIFT) // 2).astype(np.uint8)
    b, g, r = np.meshgrid(levels, levels, levels, indexing="ij")
    bgr = np.stack([b.ravel(), g.ravel(), r.ravel()], axis=1)
    lab = cv2.cvtColor(bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
    bgr.setflags(write=False)
    lab.setflags(write=False)
    return bgr, lab


def build_tables(references: Sequence[Reference]) -> tuple[np.ndarray, np.ndarray]:
    """The 64³ tables (flat, indexed by :func:`lut_index`): class code, and the index of the
    nearest reference (255 where none is near). Both uint8."""
    _, lab = cell_colours()
    x = lab.astype(np.float64) - _BLACK
    dist = np.empty((len(lab), len(references)), np.float32)
    for k, ref in enumerate(references):
        dist[:, k] = shade_distance(x, *ref.metric(), ref.shades)
    nearest = np.argmin(dist, axis=1)
    codes = np.array([r.code for r in references], np.uint8)
    classes = codes[nearest]
    best = dist[np.arange(len(lab)), nearest]
    # A colour pixel whose next-nearest *other colour* is nearly as close is ambiguous (the
    # dark side of a glossy sweet, a rim mixing two cubes): it belongs to its blob's area but
    # does not vote on the blob's colour.
    for code in set(codes.tolist()) - {BACKGROUND}:
        mine = classes == code
        others = dist[:, (codes != code) & (codes != BACKGROUND)]
        if others.shape[1] and mine.any():
            near_other = others[mine].min(axis=1)
            unsure = best[mine] > AMBIGUITY * near_other
            idx = np.flatnonzero(mine)[unsure]
            classes[idx] = code + AMBIGUOUS
    far = best > REJECT_DISTANCE
    classes[far] = UNKNOWN
    index = nearest.astype(np.uint8)
    index[far] = 255
    tray = [r for r in references if r.code == BACKGROUND]
    if tray:  # glare: brighter than the brightest tray look and nearly grey
        brightest = max(r.lab[0] for r in tray)
        chroma = np.hypot(lab[:, 1] - 128.0, lab[:, 2] - 128.0)
        glare = (lab[:, 0] >= brightest) & (chroma <= GLARE_CHROMA)
        classes[glare] = BACKGROUND
        index[glare] = references.index(max(tray, key=lambda r: r.lab[0]))
    return classes, index


def expand_lut(lut: np.ndarray) -> np.ndarray:
    """The 64³ table spread to all 2²⁴ 8-bit colours (16 MB), indexed by the packed pixel
    ``B | G << 8 | R << 16`` — so a frame needs no arithmetic to find its table entries."""
    cube = np.ascontiguousarray(lut.reshape(2 ** BITS, 2 ** BITS, 2 ** BITS).transpose(2, 1, 0))
    step = 1 << _SHIFT  # cube is now [R][G][B], the order of the packed pixel's bytes
    return np.repeat(np.repeat(np.repeat(cube, step, 0), step, 1), step, 2).ravel()


@functools.lru_cache(maxsize=4)
def full_tables(references: tuple[Reference, ...]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`build_tables` spread by :func:`expand_lut` (class table, reference table), cached:
    calibrating and then counting with the same references builds them once."""
    classes, index = build_tables(references)
    full = expand_lut(classes)  # the reference table stays 64³: only coarse grids use it
    full.setflags(write=False)
    index.setflags(write=False)
    return full, index


def lut_index(image: np.ndarray) -> np.ndarray:
    """Flat 64³-table index of every pixel of an H×W×3 uint8 image (B major, R minor)."""
    q = image >> _SHIFT
    idx = q[..., 0].astype(np.uint32) << (2 * BITS)
    idx |= q[..., 1].astype(np.uint32) << BITS
    idx |= q[..., 2]
    return idx


def of_colour(classes: np.ndarray, code: int) -> np.ndarray:
    """Where a class map names colour ``code``, sure or ambiguous (bool, the map's shape)."""
    return (classes == code) | (classes == code + AMBIGUOUS)


def pixels_of(classes: np.ndarray, codes: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Rows and columns of the pixels of a class map that hold one of ``codes`` (empty arrays
    when none does). One table lookup and OpenCV's gathering of non-zero pixels: a comparison
    mask over the whole frame per code costs milliseconds a count, and callers then touch only
    those pixels."""
    if not len(codes):
        return _NOWHERE
    table = np.zeros(256, np.uint8)
    table[list(codes)] = 1
    where = cv2.findNonZero(cv2.LUT(classes, table))
    if where is None:
        return _NOWHERE
    xs, ys = where.reshape(-1, 2).T
    return ys, xs


_NOWHERE = (np.zeros(0, np.intp), np.zeros(0, np.intp))


def classify(image: np.ndarray, full_lut: np.ndarray) -> np.ndarray:
    """H×W uint8 class map: BACKGROUND, 1..6 (CUBE_COLORS order) or UNKNOWN.

    ``full_lut`` is :func:`expand_lut` of the class table. The pixel's three bytes are packed
    into one 32-bit word by OpenCV (BGR → BGRA) and masked; one ``np.take`` does the rest.
    """
    packed = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA).view(np.uint32)[:, :, 0]
    return np.take(full_lut, packed & 0xFFFFFF)


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """N×3 (or H×W×3) uint8 BGR → float64 Lab of the same leading shape."""
    arr = np.ascontiguousarray(np.asarray(bgr, np.uint8))
    flat = arr.reshape(-1, 1, 3)
    return cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).astype(np.float64).reshape(arr.shape)
