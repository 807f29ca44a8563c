"""Blocks counted by their lit faces, where the camera sees them from the side.

Seen from straight below (the tower's camera), a cube shows one face and a pile's area says how
many cubes it holds. Seen from the side (a phone, a robot arm's camera), a block shows up to
three faces, a pile's front hides part of what lies behind it, and blocks standing, lying or
turned show different areas: the area no longer says how many there are.

The faces still do. The faces of a block meet at edges, and so do the faces of two blocks
side by side (a seam, a shadow). Under one light, faces turned the same way are lit alike,
and a block's other faces are darker or paler by their angle to the light. So in a pile, of
the faces of one colour, those lit like its brightest one are one per block: the tops of a
row of standing blocks, the upper sides of blocks lying in a heap.

A face is a piece of one colour's pixels, at the camera's resolution, that edges in the
lightness (Canny) do not cut, of ``FACE_AREA`` of a cube or more (smaller pieces are bevels,
slivers, parts the others hide); it is *lit* within ``LIT`` of the lightness of the brightest
face of its colour in its blob. Each lit face is one object, at its centre.

Only where the camera sees the objects from the side: the calibration says so when a sample
shows two faces lit differently, a top and a side (:func:`shows_a_side`). Seen from above,
two touching cubes may show no edge between them (dark cubes: none at all), and the area
still says how many.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.classify import AMBIGUOUS

FACE_EDGES = (20, 50)  # Canny thresholds on the 8-bit lightness: where two faces meet
FACE_BLUR = 1.5  # sigma (camera pixels) of the smoothing before the edges: wood grain and noise
LIT = 30.0  # 8-bit Lab lightness: faces this close to the brightest face of their colour are lit alike
FACE_AREA = 0.25  # of a cube's area at the frame's size: a smaller piece is no face of its own


def lightness_edges(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 8-bit Lab lightness of a camera crop and its edges between faces (a 0/1 mask,
    widened by a pixel so that the pieces either side do not touch)."""
    lightness = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0]
    edges = cv2.Canny(cv2.GaussianBlur(lightness, (0, 0), FACE_BLUR), *FACE_EDGES)
    return lightness, cv2.dilate(edges, np.ones((3, 3), np.uint8)) > 0


def faces(lightness: np.ndarray, edges: np.ndarray, mask: np.ndarray, min_area: float
          ) -> tuple[list[float], list[tuple[float, float]]]:
    """The faces of one colour's pixels ``mask``: the pieces ``edges`` leave of ``min_area``
    pixels or more, as their mean lightness and their centres."""
    n, labels, stats, centres = cv2.connectedComponentsWithStats((mask & ~edges).view(np.uint8), connectivity=4)
    keep = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= min_area]
    light = [cv2.mean(lightness, mask=(labels == k).view(np.uint8))[0] for k in keep]
    return light, [(float(centres[k][0]), float(centres[k][1])) for k in keep]


def shows_a_side(image: np.ndarray, mask: np.ndarray) -> bool:
    """Whether a sample object (``mask`` over the ``image`` crop of its box) shows two faces
    lit differently — a top and a side: the camera sees it from the side."""
    lightness, edges = lightness_edges(image)
    light, _ = faces(lightness, edges, mask, FACE_AREA * float(mask.sum()))
    return len(light) > 1 and max(light) - min(light) > LIT


def lit_faces(lightness: np.ndarray, edges: np.ndarray, classes: np.ndarray, inside: np.ndarray,
              codes: list[int], unit: float) -> dict[int, list[tuple[float, float]]]:
    """The objects of one blob by its lit faces: per colour code, the centres of its lit
    faces in the crop's pixels.

    ``classes`` is the class map at the crop's resolution, ``inside`` the blob's pixels there,
    ``unit`` one cube's area there. Each colour in ``codes`` (with its ambiguous pixels) is cut
    by ``edges`` into faces of at least :data:`FACE_AREA` of a cube; its faces lit within
    :data:`LIT` of its brightest are its objects, one each. A colour with no face that large
    is left out (the count by area stands for it).
    """
    out = {}
    for code in codes:
        mask = inside & ((classes == code) | (classes == code + AMBIGUOUS))
        light, centres = faces(lightness, edges, mask, FACE_AREA * unit)
        if light:
            out[code] = [c for v, c in zip(light, centres) if v >= max(light) - LIT]
    return out
