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
TRAYS: dict[str, tuple[str, tuple[float, float, float], int, float]] = {
    "light grey": ("plain", (0.74, 0.76, 0.78), 0, 0.55),
    "dark": ("plain", (0.2, 0.21, 0.23), 8, 0.3),
    "bright white": ("plain", (0.9, 0.9, 0.88), 0, 0.55),
    "wood": ("wood", (0.45, 0.6, 0.75), 8, 0.45),
    "two-tone": ("two-tone", (0.7, 0.72, 0.74), 8, 0.45),
    "textured": ("textured", (0.42, 0.43, 0.45), 8, 0.3),
}


def tray_conditions(name: str, index: int) -> RenderConditions:
    """The tower (tray, surface, reflections) of tray ``name``: what a calibration is made on."""
    surface, background, reflections, _ = TRAYS[name]
    return replace(RenderConditions(), surface=surface, background=background, reflections=reflections,
                   tray_seed=index, scratches=6)


def stress_case(index: int, seed: int) -> tuple[str, dict[str, int], RenderConditions]:
    """Tray name, counts and conditions of frame ``index`` of the stress set (deterministic)."""
    names = list(TRAYS)
    name = names[index % len(names)]
    rng = np.random.default_rng([seed, index])
    total = int(rng.integers(0, 31))
    weights = rng.dirichlet(np.ones(len(CUBE_COLORS)))
    counts = dict(zip(CUBE_COLORS, (int(v) for v in rng.multinomial(total, weights))))
    tower = tray_conditions(name, names.index(name))
    height = float(rng.uniform(0.77, 1.3))
    cond = replace(
        tower,
        cube_px=tower.cube_px * height,
        light=float(rng.uniform(0.6, 1.15)),
        white_balance=tuple(float(v) for v in rng.uniform(0.8, 1.2, size=3)),
        light_gradient=float(rng.uniform(0.0, 0.4)),
        vignette=float(rng.uniform(0.0, 0.3)),
        shadow=float(rng.uniform(0.2, TRAYS[name][3])) if rng.random() < 0.25 else 0.0,
        noise=float(rng.uniform(1.0, 4.0)), blur=float(rng.uniform(0.0, 1.2)),
        jpeg_quality=int(rng.integers(60, 96)) if rng.random() < 0.5 else 0,
        cluster=float(rng.uniform(0.0, 0.7)), outside=int(rng.integers(0, 3)),
        foreign=int(rng.random() < 0.25))
    return name, counts, cond
