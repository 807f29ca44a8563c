"""Blocks counted by their faces lit alike, where the camera sees them from the side.

Seen from straight below (the tower's camera), a cube shows one face and a pile's area says how
many cubes it holds. Seen from the side (a phone, a robot arm's camera), a block shows up to
three faces, a pile's front hides part of what lies behind it, and blocks standing, lying or
turned show different areas: the area no longer says how many there are.

The faces still do. The faces of a block meet at edges, and so do the faces of two blocks
side by side (a seam, a shadow). Under one light, faces turned the same way are lit alike,
and a block's other faces are darker or paler by their angle to the light. So the faces of
one colour in a pile fall into layers lit alike — the tops, the fronts, the sides turned to
the lamp — and each block shows at most one face in each layer: the fullest layer counts the
blocks. (The brightest layer alone was tried first: where the tops of a row meet with no
edge the lightness shows, the fronts still count it; seen nearly from above, the brightest
faces may be a few narrow lit ends.)

A face is a piece of one colour's pixels, at the camera's resolution, that edges in the
lightness (Canny) do not cut, of ``FACE_AREA`` of the largest such piece or more (smaller
pieces are bevels, slivers, parts the others hide). Sorted by lightness, a new layer starts
where the next face is more than ``LIT`` darker. Each face of the fullest layer is one object,
at its centre. A colour has faces in a blob only with ``FACE_AREA`` of a cube of its pixels
there.

Only where the camera sees the objects from the side: the calibration says so when a sample
shows two faces lit differently, a top and a side (:func:`shows_a_side`). Seen from above,
two touching cubes may show no edge between them (dark cubes: none at all), and the area
still says how many.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.classify import of_colour

FACE_EDGES = (20, 50)  # Canny thresholds on the 8-bit lightness: where two faces meet
FACE_BLUR = 1.5  # sigma (camera pixels) of the smoothing before the edges: wood grain and noise
LIT = 30.0  # 8-bit Lab lightness: a face more than this darker than the next brighter starts a new layer
FACE_AREA = 0.175  # of the largest face of its colour (and, to have faces at all, of a cube's area); see docs/vision.md, Constants


def enlarged(mask: np.ndarray, size: tuple[int, int], scale: int) -> np.ndarray:
    """A working-resolution mask (bool) enlarged to ``size`` (camera pixels, width and height)
    and taken in by ``scale`` pixels: a working pixel is ``scale`` camera pixels wide, so the
    enlarged edge runs up to that far past the object's outline — part tray, and faces would
    join round the ends of the seams there."""
    big = cv2.resize(mask.view(np.uint8), size, interpolation=cv2.INTER_NEAREST)
    return cv2.erode(big, np.ones((2 * scale + 1, 2 * scale + 1), np.uint8)) > 0


def _smoothed(lightness: np.ndarray) -> np.ndarray:
    """The lightness smoothed by :data:`FACE_BLUR`: wood grain and noise gone, faces kept."""
    return cv2.GaussianBlur(lightness, (0, 0), FACE_BLUR)


def lightness_edges(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 8-bit Lab lightness of a camera crop and its edges between faces (a 0/1 mask,
    widened by a pixel so that the pieces either side do not touch)."""
    lightness = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0]
    edges = cv2.Canny(_smoothed(lightness), *FACE_EDGES)
    return lightness, cv2.dilate(edges, np.ones((3, 3), np.uint8)) > 0


def faces(lightness: np.ndarray, edges: np.ndarray, mask: np.ndarray) -> tuple[list[float], list[tuple[float, float]]]:
    """The faces of one colour's pixels ``mask``: the pieces ``edges`` leave of
    :data:`FACE_AREA` of the largest piece or more, as their mean lightness and their centres.
    Relative to the largest, not to a cube's size: without a tray outline that size is often
    a guess (a row of blocks with nothing alone beside it), and a face is a face at any size."""
    n, labels, stats, centres = cv2.connectedComponentsWithStats((mask & ~edges).view(np.uint8), connectivity=4)
    if n < 2:
        return [], []
    least = FACE_AREA * stats[1:, cv2.CC_STAT_AREA].max()
    keep = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= least]
    light = [cv2.mean(lightness, mask=(labels == k).view(np.uint8))[0] for k in keep]
    return light, [(float(centres[k][0]), float(centres[k][1])) for k in keep]


def shows_a_side(image: np.ndarray, mask: np.ndarray, split: bool = True) -> bool:
    """Whether a sample object (``mask`` over the ``image`` crop of its box) shows two faces
    lit differently — a top and a side: the camera sees it from the side.

    Two witnesses, either enough: the faces the edges cut (:func:`faces`), and the object's
    lightness split in two (:func:`two_lit_parts`). The edges alone hang on one closed line:
    where the edge between top and side breaks for a few pixels, the two join into one face,
    and a whole calibration would count as from below. The split needs no closed line.
    Without ``split`` only the edges speak: asked of every object of a frame rather than of
    a sample a person chose, the split also takes a cube's shaded rim, or a soft shadow
    between two touching cubes, for a side (the renderer's cubes seen from below)."""
    lightness, edges = lightness_edges(image)
    light, _ = faces(lightness, edges, mask)
    return (len(light) > 1 and max(light) - min(light) > LIT) or (split and two_lit_parts(lightness, mask))


def two_lit_parts(lightness: np.ndarray, mask: np.ndarray) -> bool:
    """Whether the object ``mask`` falls into a brighter and a darker part, each in one piece
    of :data:`FACE_AREA` of the other or more, more than :data:`LIT` apart: the lightness
    (smoothed as for the edges) split at Otsu's threshold, each part's largest piece after an
    opening (so that a few grain pixels do not bridge two pieces), at the mask's inside (its
    outline pixels are part object, part tray)."""
    inside = cv2.erode(mask.view(np.uint8), np.ones((3, 3), np.uint8)) > 0
    if np.count_nonzero(inside) < 2:
        return False
    smooth = _smoothed(lightness)
    threshold, _ = cv2.threshold(smooth[inside].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    parts = []
    for part in (inside & (smooth > threshold), inside & (smooth <= threshold)):
        opened = cv2.morphologyEx(part.view(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=4)
        if n < 2:
            return False
        largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        parts.append((int(stats[largest, cv2.CC_STAT_AREA]), cv2.mean(smooth, mask=(labels == largest).view(np.uint8))[0]))
    (bright_area, bright), (dark_area, dark) = parts
    return min(bright_area, dark_area) >= FACE_AREA * max(bright_area, dark_area) and bright - dark > LIT


def lit_faces(lightness: np.ndarray, edges: np.ndarray, classes: np.ndarray, inside: np.ndarray,
              codes: list[int], most: dict[int, float] | None = None
              ) -> dict[int, list[tuple[float, float]]]:
    """The objects of one blob by its faces lit alike: per colour code, the centres of the
    faces of its fullest layer, in the crop's pixels.

    ``classes`` is the class map at the crop's resolution, ``inside`` the blob's pixels there.
    Each colour in ``codes`` (with its ambiguous pixels) is cut by ``edges`` into faces
    (:func:`faces`), and its faces into layers lit alike (:func:`layers`); each block shows at
    most one face in a layer, so the fullest layer (of two as full, the brighter) holds one
    face per block — its faces are the colour's objects. A colour whose fullest layer has more
    faces than ``most`` allows it (by code: its pixels over :data:`FACE_AREA` of a cube — a
    block has that much of its colour in view) is left out: those faces are slivers of a rim
    the edges cut (a block whose face read as no colour, its rim left), not blocks.
    """
    out = {}
    for code in codes:
        light, centres = faces(lightness, edges, inside & of_colour(classes, code))
        if light:
            fullest = max(layers(light), key=len)
            if most is None or len(fullest) <= most[code]:
                out[code] = [centres[k] for k in fullest]
    return out


def layers(light: list[float]) -> list[list[int]]:
    """Faces (by their mean lightness) grouped into layers lit alike, brightest first: sorted
    by lightness, a new layer starts wherever the next face is more than :data:`LIT` darker."""
    order = sorted(range(len(light)), key=lambda k: -light[k])
    out = [[order[0]]]
    for brighter, k in zip(order, order[1:]):
        if light[brighter] - light[k] > LIT:
            out.append([])
        out[-1].append(k)
    return out
