"""The synthetic stress set: what the renderer can throw at the counter, seeded.

Trays (what the camera sees behind the cubes): light grey, dark (the tower's underside), bright
white, wood, two-tone, and a busy textured scene — the last four with the ring light's
reflections. Per frame: 0–30 cubes of all six colours, touching clusters, cubes across the
outline, foreign objects, light level and white balance drift, gradient, vignetting, a hard
shadow in a quarter of the frames, noise, blur, JPEG in half of them, and the camera up to 30 %
higher or lower than at calibration (cubes ×0.77 to ×1.3 in size).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.vision.colors import CUBE_COLORS
from companion.vision.synthetic import RenderConditions

# name: (surface, reflectance B, G, R, LED reflections, deepest shadow)
Tray = tuple[str, tuple[float, float, float], int, float]
TRAYS: dict[str, Tray] = {
    "light grey": ("plain", (0.74, 0.76, 0.78), 0, 0.55),
    "dark": ("plain", (0.2, 0.21, 0.23), 8, 0.3),
    "bright white": ("plain", (0.9, 0.9, 0.88), 0, 0.55),
    "wood": ("wood", (0.45, 0.6, 0.75), 8, 0.45),
    "two-tone": ("two-tone", (0.7, 0.72, 0.74), 8, 0.45),
    "textured": ("textured", (0.42, 0.43, 0.45), 8, 0.3),
}

# Behind the tray, a surface of a saturated colour (a cloth, a felt, a stained wood) — what
# the stress set lacks and a table may have; each near one cube colour (ΔE in CIE Lab from the
# nearest: purple 8, blue 10, yellow 12, red 14, green 22, the pink 45); the blue, red and
# purple ones so near that calibration refuses that colour's sample. The renderer's choice,
# not a measurement. ``python -m benchmarks.vision --coloured``.
COLOURED_TRAYS: dict[str, Tray] = {
    "pink cloth": ("plain", (0.62, 0.45, 0.85), 0, 0.45),
    "green felt": ("plain", (0.25, 0.42, 0.18), 0, 0.45),
    "blue felt": ("plain", (0.55, 0.30, 0.15), 0, 0.45),
    "red felt": ("plain", (0.15, 0.12, 0.55), 0, 0.45),
    "yellow wood": ("wood", (0.25, 0.65, 0.8), 8, 0.45),
    "purple cloth": ("textured", (0.45, 0.2, 0.4), 8, 0.3),
}


def tray_conditions(name: str, index: int, trays: dict[str, Tray] = TRAYS) -> RenderConditions:
    """The tower (tray, surface, reflections) of tray ``name`` of ``trays``: what a calibration
    is made on."""
    surface, background, reflections, _ = trays[name]
    return replace(RenderConditions(), surface=surface, background=background, reflections=reflections,
                   tray_seed=index, scratches=6)


def stress_case(index: int, seed: int, trays: dict[str, Tray] = TRAYS) -> tuple[str, dict[str, int], RenderConditions]:
    """Tray name, counts and conditions of frame ``index`` of the stress set (deterministic);
    with other ``trays``, the same conditions behind those."""
    names = list(trays)
    name = names[index % len(names)]
    rng = np.random.default_rng([seed, index])
    total = int(rng.integers(0, 31))
    weights = rng.dirichlet(np.ones(len(CUBE_COLORS)))
    counts = dict(zip(CUBE_COLORS, (int(v) for v in rng.multinomial(total, weights))))
    tower = tray_conditions(name, names.index(name), trays)
    height = float(rng.uniform(0.77, 1.3))
    cond = replace(
        tower,
        cube_px=tower.cube_px * height,
        light=float(rng.uniform(0.6, 1.15)),
        white_balance=tuple(float(v) for v in rng.uniform(0.8, 1.2, size=3)),
        light_gradient=float(rng.uniform(0.0, 0.4)),
        vignette=float(rng.uniform(0.0, 0.3)),
        shadow=float(rng.uniform(0.2, trays[name][3])) if rng.random() < 0.25 else 0.0,
        noise=float(rng.uniform(1.0, 4.0)), blur=float(rng.uniform(0.0, 1.2)),
        jpeg_quality=int(rng.integers(60, 96)) if rng.random() < 0.5 else 0,
        cluster=float(rng.uniform(0.0, 0.7)), outside=int(rng.integers(0, 3)),
        foreign=int(rng.random() < 0.25))
    return name, counts, cond
