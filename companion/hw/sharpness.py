"""How sharp is the picture? A figure for the calibration check and ``companion doctor``.

The figure is the variance of the Laplacian of the grey picture, after scaling it to
:data:`WIDTH` pixels wide so that cameras of different resolutions give comparable numbers.
Defocus removes fine detail, and the Laplacian measures exactly that detail.

The threshold is a rule of thumb from our measurements, not a law: on 13 real tray photos
(every third of ``../shared/realsets/candy``) the figure was 80–550 as taken, 14–48 after a
Gaussian blur of σ = 1 px, 6–11 at σ = 2 px and 3–5 at σ = 3 px
(``.venv/bin/python scripts/sharpness_probe.py``). A
lens focused at the tuning's default (about 1 m) for a tray 11–20 cm away blurs far more than
σ = 2 px. Below :data:`SOFT` we warn; a dim or featureless scene also scores low, so the
warning says to check the photo rather than claiming the focus is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WIDTH = 1280
SOFT = 15.0


@dataclass(frozen=True)
class Sharpness:
    value: float  # variance of the Laplacian at WIDTH pixels wide

    @property
    def soft(self) -> bool:
        return self.value < SOFT

    def sentence(self) -> str:
        if self.soft:
            return (f"sharpness {self.value:.0f} — SOFT (below {SOFT:g}): the cube edges are "
                    "blurred. Check the photo; refocus with --distance CM (lens to tray floor) "
                    "or, on a camera without a focus motor, turn the lens.")
        return f"sharpness {self.value:.0f} (sharp enough: {SOFT:g} or more)"

    def as_dict(self) -> dict[str, float | bool]:
        return {"laplacian_variance": round(self.value, 1), "soft": self.soft}


def sharpness(image: np.ndarray) -> Sharpness:
    """The sharpness figure of a BGR (or grey) ``uint8`` picture."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    height, width = grey.shape[:2]
    if width != WIDTH:
        interpolation = cv2.INTER_AREA if width > WIDTH else cv2.INTER_LINEAR
        grey = cv2.resize(grey, (WIDTH, max(1, round(height * WIDTH / width))),
                          interpolation=interpolation)
    return Sharpness(float(cv2.Laplacian(grey.astype(np.float32), cv2.CV_32F, ksize=3).var()))
