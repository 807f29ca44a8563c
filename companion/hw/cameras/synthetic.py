"""The simulated camera: renders the tray of a :class:`TowerSimulator` with the vision renderer.

After each throw the simulator says for how many frames the tray keeps moving; this camera shows
that many frames of cubes sliding to rest (``render_settling_sequence``), then frames of the
still tray that differ only by sensor noise — what the settle detector sees on a real tower.
Every capture advances the simulator by one frame, so a capture is always a new frame.
"""

from __future__ import annotations

import numpy as np

from companion.hw.camera_base import Camera
from companion.hw.simulator import TowerSimulator

_STILL_FRAMES = 3  # distinct noise patterns cycled once the tray is still
_MOVING_CHUNK = 4  # moving frames rendered at a time: the renderer's motion fades after ~5


class SyntheticCamera(Camera):
    """Renders ``simulator``'s tray. ``seed`` varies the layouts between demo sessions."""

    name = "synthetic"

    def __init__(self, simulator: TowerSimulator | None = None, seed: int = 0,
                 conditions: object | None = None) -> None:
        from companion.vision.synthetic import RenderConditions

        self.simulator = simulator if simulator is not None else TowerSimulator(seed=seed)
        self.seed = seed
        self.conditions = conditions if conditions is not None else RenderConditions()
        self.description = f"simulated tower (seed {self.simulator.seed})"
        self._scene: tuple | None = None
        self._frames: list[np.ndarray] = []
        self._moving = 0
        self._still = _STILL_FRAMES
        self._round = 0
        self._index = 0

    def capture(self) -> np.ndarray:
        sim = self.simulator
        scene = (sim.throws, tuple(sorted(sim.tray.items())))
        if scene != self._scene:  # a throw happened or the tray was emptied: a new scene
            self._scene, self._round = scene, 0
            self._render_next()
        elif self._index >= len(self._frames) and self._still == 0:
            self._round += 1  # still moving after a whole chunk: keep the cubes rolling
            self._render_next()
        if self._index < len(self._frames):
            frame = self._frames[self._index]
        else:  # still tray: cycle the noise patterns of the final layout
            frame = self._frames[self._moving + (self._index - self._moving) % self._still]
        self._index += 1
        sim.advance_frame()
        return frame.copy()

    def _render_next(self) -> None:
        """Render the next frames lazily, at most a chunk of moving ones at a time."""
        from companion.vision.synthetic import render_settling_sequence

        sim = self.simulator
        left = sim.frames_until_settled
        self._moving = min(left, _MOVING_CHUNK)
        self._still = _STILL_FRAMES if left <= _MOVING_CHUNK else 0
        sequence = render_settling_sequence(
            sim.tray, seed=self.seed * 100_003 + sim.throws * 101 + self._round,
            conditions=self.conditions, moving=self._moving, still=self._still)
        self._frames = [f.image for f in sequence]
        self._index = 0
