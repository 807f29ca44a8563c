"""What lies behind the cubes and how it is lit, for the synthetic camera.

The real camera looks up through clear plastic at whatever is above the tray — the tower's
dark underside, a wooden table, a two-tone printed tray, the room — lit by its own ring light,
whose LEDs mirror in the plastic. This module draws those backgrounds (reflectance, 8-bit) and
the light that falls on them (a per-pixel, per-channel gain): level, white balance, gradient,
vignetting, and a hard shadow across part of the tray. Everything is drawn from seeds: the same
arguments give the same picture.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

SURFACES = ("plain", "wood", "two-tone", "textured")
EXPOSURE = 240.0  # grey level of a perfect white under light 1.0


@functools.lru_cache(maxsize=16)
def surface(size: tuple[int, int], background: tuple[float, float, float], variation: float,
            style: str, tray_seed: int) -> np.ndarray:
    """Reflectance ×255 of the empty tray, H×W×3 uint8 (8-bit: OpenCV anti-aliases drawing
    only on 8-bit images).

    ``plain``: the base colour with smooth blotches. ``wood``: grain — bands along one
    direction with knots of darker wood. ``two-tone``: the tray split by a straight line into the
    base colour and a darker, differently tinted part. ``textured``: a busy scene (the tower's
    underside, a room) of patches from dark to light.
    """
    if style not in SURFACES:
        raise ValueError(f"{style!r} is not a tray surface; use one of {', '.join(SURFACES)}.")
    w, h = size
    rng = np.random.default_rng([tray_seed, 17])
    blotch = cv2.resize(rng.uniform(-1.0, 1.0, size=(6, 8)).astype(np.float32), (w, h),
                        interpolation=cv2.INTER_CUBIC)
    base = np.array(background, np.float32) * 255.0
    tone = 1.0 + variation * blotch  # H×W
    tint = np.broadcast_to(base, (h, w, 3)).astype(np.float32)
    if style == "wood":
        angle = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        across = xx * math.cos(angle) + yy * math.sin(angle)
        along = -xx * math.sin(angle) + yy * math.cos(angle)
        wobble = 12.0 * np.sin(along / rng.uniform(60, 140))
        grain = np.sin((across + wobble) / rng.uniform(5, 9)) * 0.5 + np.sin((across + wobble) / 23.0) * 0.5
        tone = tone * (1.0 + 0.14 * grain)
        for _ in range(2):  # knots
            cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(15, 35)
            knot = np.exp(-((xx - cx) ** 2 + ((yy - cy) * 1.8) ** 2) / (2 * r * r))
            tone = tone * (1.0 - 0.35 * knot)
    elif style == "two-tone":
        angle = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        side = (xx - w / 2) * math.cos(angle) + (yy - h / 2) * math.sin(angle) > rng.uniform(-0.2, 0.2) * w
        other = base * np.array([0.55, 0.5, 0.42], np.float32)  # darker and warmer
        tint = np.where(side[..., None], other, tint)
    elif style == "textured":
        patches = rng.uniform(0.6, 1.3, size=(12, 16)).astype(np.float32)
        tone = tone * cv2.resize(patches, (w, h), interpolation=cv2.INTER_NEAREST)
        tone = cv2.GaussianBlur(tone, (0, 0), 3.0)
    out = tint * tone[..., None]
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


@functools.lru_cache(maxsize=8)
def scratch_layer(size: tuple[int, int], scratches: int, tray_seed: int) -> np.ndarray | None:
    """Glare of scratches on the tray, H×W float32 in 0..1 (same scratches for every photo)."""
    if scratches <= 0:
        return None
    w, h = size
    rng = np.random.default_rng([tray_seed, 29])
    layer = np.zeros((h, w), np.float32)
    for _ in range(scratches):
        x0, y0 = rng.uniform(0, w), rng.uniform(0, h)
        length, angle = rng.uniform(80, 400), rng.uniform(0, math.pi)
        bend = rng.uniform(-0.3, 0.3)
        pts = []
        for t in np.linspace(0.0, 1.0, 8):
            a = angle + bend * t
            pts.append((x0 + math.cos(a) * length * t, y0 + math.sin(a) * length * t))
        cv2.polylines(layer, [np.array(pts, np.int32)], False, float(rng.uniform(0.3, 0.7)),
                      int(rng.integers(1, 3)), cv2.LINE_AA)
    return cv2.GaussianBlur(layer, (0, 0), 0.7)


@functools.lru_cache(maxsize=8)
def reflection_layer(size: tuple[int, int], reflections: int, tray_seed: int) -> np.ndarray | None:
    """The ring light's LEDs mirrored in the tray's plastic: ``reflections`` small bright spots
    on a circle around the centre, H×W float32 in 0..1 (fixed for a tower)."""
    if reflections <= 0:
        return None
    w, h = size
    rng = np.random.default_rng([tray_seed, 31])
    layer = np.zeros((h, w), np.float32)
    cx, cy = w / 2 + rng.uniform(-20, 20), h / 2 + rng.uniform(-20, 20)
    ring = min(w, h) * rng.uniform(0.2, 0.38)
    start = rng.uniform(0, 2 * math.pi)
    for k in range(reflections):
        a = start + 2 * math.pi * k / reflections
        centre = (int(round((cx + ring * math.cos(a)) * 16)), int(round((cy + ring * math.sin(a)) * 16)))
        cv2.circle(layer, centre, int(rng.uniform(4, 8) * 16), 1.0, -1, cv2.LINE_AA, 4)
    return cv2.GaussianBlur(layer, (0, 0), 2.0)


def light_field(size: tuple[int, int], light: float, white_balance, gradient: float,
                vignette: float, shadow: float, rng: np.random.Generator) -> np.ndarray:
    """Per-pixel, per-channel gain H×W×3 float32 (×EXPOSURE): level, white balance, a linear
    gradient, vignetting, and a hard-edged shadow (light × (1 − ``shadow``)) over one side of
    a random straight edge — the tower's wall, a hand."""
    w, h = size
    sw, sh = 80, 60
    u = np.linspace(-1.0, 1.0, sw, dtype=np.float32)[None, :]
    v = np.linspace(-1.0, 1.0, sh, dtype=np.float32)[:, None]
    direction = rng.uniform(0, 2 * math.pi)
    ramp = 1.0 + gradient * 0.5 * (math.cos(direction) * u + math.sin(direction) * v)
    fall = 1.0 - vignette * (u * u + v * v) / 2.0
    level = (light * ramp * fall).astype(np.float32)
    small = np.stack([level * float(g * EXPOSURE) for g in white_balance], axis=2).astype(np.float32)
    field = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if shadow > 0:
        angle = rng.uniform(0, 2 * math.pi)
        offset = rng.uniform(0.25, 0.45) * min(w, h)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        dist = (xx - w / 2) * math.cos(angle) + (yy - h / 2) * math.sin(angle) - offset
        edge = np.clip(0.5 - dist / 3.0, 0.0, 1.0)  # a penumbra of a few pixels
        field *= (1.0 - shadow * edge)[..., None]
    return field


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` after a round trip through JPEG at ``quality`` (0: unchanged)."""
    if quality <= 0:
        return image
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else image
