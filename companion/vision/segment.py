"""From a class map to blobs: connected regions of non-tray pixels and their colour make-up,
cut where two colours meet.

Shared by calibration (measure one cube) and counting (measure every blob), so that a cube's
area is measured the same way in both — the count of a cluster is its area over that one-cube
area, and any systematic difference would bias it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.classify import AMBIGUOUS, BACKGROUND, UNKNOWN

_KERNEL = np.ones((3, 3), np.uint8)
_BRIDGE = np.ones((5, 5), np.uint8)  # closes gaps up to 4 px, a quarter of a working cube
N_CLASSES = 2 * AMBIGUOUS  # background, 6 colours, unknown, and the 6 colours' ambiguous codes


@dataclass(frozen=True)
class Blobs:
    """Connected non-tray regions. Index 0 is the tray itself and is never a blob."""

    count: int  # number of labels including 0
    labels: np.ndarray  # H×W int32
    stats: np.ndarray  # x, y, w, h, area per label (as cv2's stats; row 0 is not filled in)
    histogram: np.ndarray  # count × N_CLASSES: pixels of each class in each blob
    sum_x: np.ndarray  # count × N_CLASSES: sums of x of those pixels (for centroids)
    sum_y: np.ndarray
    colour_sum: np.ndarray | None  # count × N_CLASSES × 3: sums of the image's B, G, R (if given)
    radius: np.ndarray  # per label: the largest distance from a blob pixel to the tray
    depth: np.ndarray  # H×W float32: each pixel's distance to the tray (distance transform)

    def own(self, label: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
        """Blob ``label``'s pixels (bool) over its bounding box, and that box (x, y, w, h)."""
        x, y, w, h = (int(v) for v in self.stats[label, :4])
        return self.labels[y:y + h, x:x + w] == label, (x, y, w, h)

    def own_framed(self, label: int) -> np.ndarray:
        """Blob ``label``'s pixels over its bounding box as a uint8 mask (1 inside) with a frame
        of one empty pixel round it: distances and contours then end at the blob's edge, not
        the box's."""
        return cv2.copyMakeBorder(self.own(label)[0].view(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)


def find_blobs(classes: np.ndarray, image: np.ndarray | None = None, solid: int = 0,
               alike: Sequence[tuple[int, int]] = ()) -> Blobs:
    """Blobs of a class map. Thin lines (scratch glare, one-pixel rims) are opened away first,
    gaps of up to 4 pixels closed. Bridged pixels belong to the blob but to no colour.

    With ``solid`` (a width in pixels), blobs are also cut where two colours' sides meet
    (:func:`colour_sides`): two objects of different colours are two objects, however they
    touch. Only regions of a colour that survive opening with a disc ``solid`` wide make a
    side: a rim, a reflection or a shaded edge that reads as another colour cuts nothing. Two
    colours ``alike`` (pairs of colour codes) are one side: where the light can turn one into
    the other, their meeting says nothing (a dark red sweet half read as purple).

    ``radius`` is the radius of the largest disc that fits in each blob (distance transform):
    one cube's half side for a lone cube *and* for a chain of touching cubes, so the median over
    a frame's blobs tells the cube size of this frame whatever the camera height. With
    ``image`` (the frame the classes came from) each blob's colour sums per class are kept too."""
    mask = (classes != BACKGROUND).view(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL)
    # A scratch's glare across a cube reads as a line of tray: closing bridges it, so the two
    # halves stay one blob and add up to one cube instead of two halves that count for nothing.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _BRIDGE)
    # Labels without OpenCV's stats (which cost several times the labelling itself); the few
    # statistics needed come from the foreground pixels alone.
    side = colour_sides(classes, solid, alike) if solid else None
    if side is None:
        count, labels = cv2.connectedComponents(mask, connectivity=8)
    else:
        # The cut: pixels of a side with another side among their 8 neighbours (a line one
        # pixel wide on each side). 0 is no side: side - 1 wraps it to 255 for the erosion.
        least = cv2.erode(side - np.uint8(1), _KERNEL)
        cut = (cv2.dilate(side, _KERNEL) != least + np.uint8(1)) & (side > 0) & mask.view(bool)
        count, labels = cv2.connectedComponents(np.where(cut, 0, mask).astype(np.uint8), connectivity=8)
        labels = _cut_rejoined(labels, cut)
    flat = np.flatnonzero(mask.view(bool))
    width = classes.shape[1]
    lab = labels.ravel()[flat]
    xs, ys = flat % width, flat // width
    key = lab * N_CLASSES + classes.ravel()[flat]
    size = count * N_CLASSES
    histogram, colour_sum = class_sums(key, count, None if image is None else image.reshape(-1, 3)[flat])
    sum_x = np.bincount(key, weights=xs, minlength=size).reshape(count, N_CLASSES)
    sum_y = np.bincount(key, weights=ys, minlength=size).reshape(count, N_CLASSES)
    stats = np.zeros((count, 5), np.int64)
    stats[:, 4] = histogram.sum(axis=1)
    radius = np.zeros(count, np.float32)
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, cv2.DIST_MASK_5)
    if count > 1:  # bounding boxes and radii: group the pixels by label, then reduce each group
        order = np.argsort(lab, kind="stable")
        starts = np.concatenate(([0], np.cumsum(stats[1:-1, 4])))
        for axis, coord in enumerate((xs[order], ys[order])):
            low = np.minimum.reduceat(coord, starts)
            stats[1:, axis] = low
            stats[1:, axis + 2] = np.maximum.reduceat(coord, starts) - low + 1
        radius[1:] = np.maximum.reduceat(depth.ravel()[flat][order], starts)
    return Blobs(count, labels, stats, histogram, sum_x, sum_y, colour_sum, radius, depth)


def _cut_rejoined(labels: np.ndarray, cut: np.ndarray) -> np.ndarray:
    """``labels`` with each pixel of the ``cut`` given back to the blob beside it: the largest
    label among its 8 neighbours, its neighbours not cut lying on its own side, so the cut
    moves (almost) no pixel between blobs; three rounds, as a corner pixel may have only cut
    pixels beside it. Only the cut's pixels are looked at (a dilation of the whole label map
    cost 0.6 ms a round)."""
    height, width = labels.shape
    ys, xs = np.divmod(np.flatnonzero(cut), width)  # np.nonzero of a 2-D mask is several times slower
    for _ in range(3):
        # Neighbours beyond the edge are clipped back onto the pixel's own row or column:
        # pixels already among its neighbours, so the border counts for nothing.
        best = np.zeros(len(ys), labels.dtype)
        for dy in (-1, 0, 1):
            rows = np.clip(ys + dy, 0, height - 1)
            for dx in (-1, 0, 1):
                np.maximum(best, labels[rows, np.clip(xs + dx, 0, width - 1)], out=best)
        labels[ys, xs] = best
        left = best == 0
        if not left.any():
            break
        ys, xs = ys[left], xs[left]
    return labels


def class_sums(key: np.ndarray, count: int, bgr: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """Per label and class (count × N_CLASSES): the number of pixels by their ``key`` (label ·
    N_CLASSES + class, one per pixel) and — with ``bgr``, those pixels' colours (N×3) — their
    summed B, G, R (count × N_CLASSES × 3; else None)."""
    size = count * N_CLASSES
    histogram = np.bincount(key, minlength=size).reshape(count, N_CLASSES)
    if bgr is None:
        return histogram, None
    return histogram, np.stack([np.bincount(key, weights=bgr[:, c], minlength=size)
                                for c in range(3)], axis=1).reshape(count, N_CLASSES, 3)


def colour_sides(classes: np.ndarray, solid: int, alike: Sequence[tuple[int, int]] = ()) -> np.ndarray | None:
    """Which colour's side of the picture each pixel lies on: each colour's *solid regions*
    grown outwards a pixel at a time, ``solid`` times, over the pixels that are not of no
    colour — the nearest region's colour (a Voronoi partition seeded by them, in steps), so
    the pixels of a dark gap or a rim between two objects are shared out between the two. 0 is
    no side: pixels of no calibrated colour (an object the counter cannot name lies in one
    piece, never shared out among its neighbours) and pixels beyond reach. A colour's solid
    regions are its pixels, ambiguous ones included, that survive opening with a disc ``solid``
    pixels wide; colours ``alike`` (pairs of codes) are one. None when fewer than two sides
    have a solid region: nothing to cut."""
    # Ambiguous pixels count as their colour, and alike colours as one (the lowest code of
    # each group of colours joined by a pair).
    group = np.arange(256, dtype=np.uint8)
    group[AMBIGUOUS + 1:2 * AMBIGUOUS] -= AMBIGUOUS
    for _ in alike:  # as many passes as pairs: a chain of alike colours ends in one group
        for a, b in alike:
            group[group == max(group[a], group[b])] = min(group[a], group[b])
    colour = cv2.LUT(classes, group)
    # Every colour opened at once: a pixel survives the erosion of its colour where the disc
    # round it holds that colour only (its minimum equals its maximum), and the seeds that
    # survive, dilated by the same disc, are each colour's solid regions — no pixel of one
    # colour lies within a disc of another colour's seed, so the dilation mixes nothing.
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (solid, solid))
    present = _histogram(colour)
    large = np.zeros(256, np.uint8)  # colours with pixels enough to hold a solid region
    large[1:UNKNOWN] = present[1:UNKNOWN] >= solid * solid
    seeds = cv2.LUT(colour, large * np.arange(256, dtype=np.uint8))
    seeds[cv2.erode(colour, disc) != cv2.dilate(colour, disc)] = 0
    if np.count_nonzero(_histogram(seeds)[1:UNKNOWN]) < 2:
        return None
    side = cv2.dilate(seeds, disc)
    open_to = cv2.compare(colour, UNKNOWN, cv2.CMP_NE)
    for _ in range(solid):
        free = cv2.bitwise_and(cv2.compare(side, 0, cv2.CMP_EQ), open_to)
        cv2.copyTo(cv2.dilate(side, _KERNEL), free, side)
    return side


def _histogram(image: np.ndarray) -> np.ndarray:
    """The 256 bins' pixel counts of a uint8 image (OpenCV's is several times numpy's bincount)."""
    return cv2.calcHist([image], [0], None, [256], [0, 256]).ravel()


def cores(blobs: Blobs, depth: float) -> np.ndarray:
    """Per label, the number of separate *cores*: regions deeper than ``depth`` inside it.

    Two touching round objects meet at a waist much narrower than either, so their cores
    (everything further than ``depth`` from the tray) come apart; touching squares meet along a
    whole side and keep one core. Cores of fewer than 2 pixels are noise.
    """
    deep = (blobs.depth >= depth).view(np.uint8)
    n, core_labels = cv2.connectedComponents(deep, connectivity=8)
    out = np.zeros(blobs.count, np.int64)
    if n > 1:
        flat = np.flatnonzero(deep.view(bool))
        core_of = core_labels.ravel()[flat]
        size = np.bincount(core_of, minlength=n)
        first = np.zeros(n, np.int64)
        first[core_of[::-1]] = flat[::-1]  # any pixel of a core tells its blob
        keep = np.flatnonzero(size[1:] >= 2) + 1
        out += np.bincount(blobs.labels.ravel()[first[keep]], minlength=blobs.count)
    return out


def class_pixels(blobs: Blobs, classes: np.ndarray, label: int, codes) -> np.ndarray:
    """N×2 float32 (x, y) of the pixels of blob ``label`` whose class is in ``codes``."""
    mine, (x, y, w, h) = blobs.own(label)
    sub = mine & np.isin(classes[y:y + h, x:x + w], codes)
    ys, xs = np.nonzero(sub)
    return np.stack([xs + x, ys + y], axis=1).astype(np.float32)
