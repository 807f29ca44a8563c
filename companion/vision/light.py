"""Light correction: bring a frame back to the light of the calibration photo.

The references of :mod:`companion.vision.classify` were learned under the calibration light.
A later frame may be brighter or dimmer, have another white balance, a vignette, a gradient, or
a hard shadow across part of the tray. The correction multiplies the frame, channel by channel,
by a smooth *gain field* that makes its tray look like the learned tray again — whatever that
tray looks like (light, dark, wood, two-tone): nothing assumes a tray colour.

How the field is found, on a coarse grid of cells about half a cube wide:
1. a global start: the calibration tray's median colour over the frame's median colour;
2. twice: classify the cells under the current gain; every cell that reads as one of the tray's
   learned looks gives its own gain (that look's colour over the cell's colour); cells whose
   own white balance strays far from the frame's are dropped (a cube, not tray); the median of
   the rest refines the global gain;
3. the cell gains are smoothed by normalised convolution — cells under cubes borrow from the
   tray around them — so the field follows gradients and shadow edges at cube scale.
With an empty-tray photo of the same light every cell is tray, and the field comes from it.

Gains are carried as 8-bit fixed point (``ONE`` = ×1) so that applying them is one saturating
OpenCV multiply per frame.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.classify import BACKGROUND, Reference, lut_index, pixels_of

SCALE = 2  # default: the counter works at 1/SCALE of the camera resolution
CELL = 8  # working pixels per cell of the coarse light grid (about half a cube)
ONE = 64  # fixed-point gain ×1 (gains from 0 to ×4)
MAX_GAIN = 255 / ONE
WHITE_BALANCE_SPREAD = 1.3  # a tray cell's own channel gains differ by at most this factor
LEVEL_RANGE = (0.4, 2.5)  # a tray cell's light may differ this much from the frame's (shadows)
SMOOTH_CELLS = 2.0  # sigma of the normalised convolution, in cells


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


def coarse(image: np.ndarray) -> np.ndarray:
    """Cell averages of a working image (float32, one pixel per :data:`CELL`² cell)."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(1, w // CELL), max(1, h // CELL)), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32)


def _tray_cell_gains(cells: np.ndarray, gain: np.ndarray, references: Sequence[Reference],
                     ref_index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-cell gains (H×W×3) and a mask of the cells that read as tray under ``gain``."""
    lit = np.clip(cells * gain, 0, 255).astype(np.uint8)
    nearest = ref_index[lut_index(lit)]
    ref_bgr = np.array([r.bgr for r in references] + [(0.0, 0.0, 0.0)], np.float32)
    is_tray = np.array([r.code == BACKGROUND for r in references] + [False])
    ref = np.where(nearest == 255, len(references), nearest)
    tray = is_tray[ref] & (_channel_min(cells) >= 2.0)
    gains = ref_bgr[ref] / np.maximum(cells, 1.0)
    # A tray cell's own white balance stays near the frame's; a strongly coloured cell that
    # happened to land near a tray look (a cube's rim, a mixed cell) does not.
    relative = gains / gain
    tray &= _channel_max(relative) <= WHITE_BALANCE_SPREAD * _channel_min(relative)
    tray &= (_channel_min(gains) > 0) & (_channel_max(gains) < MAX_GAIN)
    return gains, tray


def gain_field(small: np.ndarray, references: Sequence[Reference], ref_index: np.ndarray,
               tray_bgr: Sequence[float], empty_small: np.ndarray | None = None,
               tray_cells: np.ndarray | None = None) -> np.ndarray:
    """The fixed-point gain field (H×W×3 uint8, ``ONE`` = ×1) that relights ``small`` to the
    calibration light.

    ``empty_small`` is the empty tray under the same light, if known. ``tray_cells`` is the
    calibration's own tray on the same cell grid (a camera fixed to the tower sees the tray at
    the same place): then each cell is compared with the very same spot of the tray, which
    holds on wood, two-tone and busy backgrounds where "the nearest tray look" is ambiguous.
    """
    source = coarse(small if empty_small is None else empty_small)
    gain = np.asarray(tray_bgr, np.float32) / np.maximum(np.median(source.reshape(-1, 3), axis=0), 1.0)
    aligned = tray_cells is not None and tray_cells.shape == source.shape
    gains, tray = None, None
    for _ in range(2):
        if aligned:
            gains = tray_cells.astype(np.float32) / np.maximum(source, 1.0)
            if empty_small is not None:  # every cell of the empty photo is tray
                tray = _channel_max(gains) < MAX_GAIN
            else:
                tray = _agrees(gains, gain)
        else:
            gains, tray = _tray_cell_gains(source, gain, references, ref_index)
        if tray.sum() < 4:
            break
        gain = np.median(gains[tray], axis=0).astype(np.float32)
    field = np.broadcast_to(gain, source.shape).astype(np.float32)
    if tray is not None and tray.sum() >= 4:
        weight = tray.astype(np.float32)
        local = np.where(tray[..., None], np.log(np.maximum(gains, 1e-3)), 0.0).astype(np.float32)
        sigma = 1.0 if (empty_small is not None or aligned) else SMOOTH_CELLS
        num = cv2.GaussianBlur(local, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
        den = cv2.GaussianBlur(weight, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
        known = den > 0.05
        smooth = np.exp(num / np.maximum(den, 1e-6)[..., None])
        field = np.where(known[..., None], smooth, gain).astype(np.float32)
    h, w = small.shape[:2]
    fixed = np.clip(field * ONE + 0.5, 0, 255).astype(np.uint8)
    return cv2.resize(fixed, (w, h), interpolation=cv2.INTER_LINEAR)


def _channel_max(a: np.ndarray) -> np.ndarray:
    """Maximum over the 3 channels of H×W×3 (explicit: numpy reduces a length-3 last axis slowly)."""
    return np.maximum(np.maximum(a[..., 0], a[..., 1]), a[..., 2])


def _channel_min(a: np.ndarray) -> np.ndarray:
    return np.minimum(np.minimum(a[..., 0], a[..., 1]), a[..., 2])


def _agrees(gains: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """Cells whose own gains look like a change of light from the frame's ``gain``: the same
    white balance within :data:`WHITE_BALANCE_SPREAD` and a level within :data:`LEVEL_RANGE`
    of it (a deep shadow over most of the tray leaves the rest about ×0.45 as bright) — not a
    coloured cube, nor a black one, lying where the tray was."""
    relative = gains / gain
    level = (relative[..., 0] + relative[..., 1] + relative[..., 2]) / 3.0
    return ((_channel_max(relative) <= WHITE_BALANCE_SPREAD * _channel_min(relative))
            & (level >= LEVEL_RANGE[0]) & (level <= LEVEL_RANGE[1]) & (_channel_max(gains) < MAX_GAIN))


def tray_cells(small: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """The tray on the coarse cell grid (uint8), with the cells ``hidden`` (H×W bool at working
    resolution: sample cubes and their shadows) filled in from the tray around them."""
    cells = coarse(small)
    hidden_cells = coarse(hidden.astype(np.float32)) > 0.02
    known = (~hidden_cells).astype(np.float32)
    values = cells * known[..., None]
    filled = cells.copy()
    for sigma in (1.0, 2.0, 4.0, 8.0):  # fill from ever further away until every hole is closed
        num = cv2.GaussianBlur(values, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
        den = cv2.GaussianBlur(known, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
        todo = hidden_cells & (den > 0.05)
        filled[todo] = (num[todo] / den[todo][:, None])
        hidden_cells &= ~todo
        if not hidden_cells.any():
            break
    return np.clip(filled + 0.5, 0, 255).astype(np.uint8)


CHART_MIN_PIXELS = 30  # working pixels of one colour that may speak for its cubes' light


def chart_gain(small: np.ndarray, classes: np.ndarray, references: Sequence[Reference]) -> np.ndarray | None:
    """The per-channel gain (B, G, R) that brings the cubes of ``small`` to their colours'
    references — the cubes as a colour chart: for every colour named on at least
    :data:`CHART_MIN_PIXELS` pixels of ``classes``, its reference over its pixels' median; the
    median over the colours. None with fewer than two colours (one colour cannot tell a change
    of light from a change of shade)."""
    codes = sorted({r.code for r in references} - {BACKGROUND})
    # The named pixels are gathered once, by their coordinates: a mask over the whole frame
    # per colour cost 2–4 ms a frame.
    ys, xs = pixels_of(classes, codes)
    named, colours = classes[ys, xs], small[ys, xs].astype(np.float32)
    gains = []
    for code in codes:
        pixels = colours[named == code]
        if len(pixels) < CHART_MIN_PIXELS:
            continue
        ref = max((r for r in references if r.code == code), key=lambda r: r.weight)
        seen = np.median(pixels, axis=0)
        gains.append(np.asarray(ref.bgr, np.float32) / np.maximum(seen, 1.0))
    if len(gains) < 2:
        return None
    return np.median(np.array(gains), axis=0)


def relight(small: np.ndarray, field: np.ndarray) -> np.ndarray:
    """``small × field`` in 8-bit saturating arithmetic (the corrected working image)."""
    return cv2.multiply(small, field, scale=1.0 / ONE)
