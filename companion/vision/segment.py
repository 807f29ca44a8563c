"""From a class map to blobs: connected regions of non-tray pixels and their colour make-up.

Shared by calibration (measure one cube) and counting (measure every blob), so that a cube's
area is measured the same way in both — the count of a cluster is its area over that one-cube
area, and any systematic difference would bias it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.classify import BACKGROUND, UNKNOWN

_KERNEL = np.ones((3, 3), np.uint8)
_BRIDGE = np.ones((5, 5), np.uint8)  # closes gaps up to 4 px, a quarter of a working cube
N_CLASSES = UNKNOWN + 1


@dataclass(frozen=True)
class Blobs:
    """Connected non-tray regions. Index 0 is the tray itself and is never a blob."""

    count: int  # number of labels including 0
    labels: np.ndarray  # H×W int32
    stats: np.ndarray  # x, y, w, h, area per label (as cv2's stats; row 0 is not filled in)
    histogram: np.ndarray  # count × N_CLASSES: pixels of each class in each blob
    sum_x: np.ndarray  # count × N_CLASSES: sums of x of those pixels (for centroids)
    sum_y: np.ndarray


def find_blobs(classes: np.ndarray) -> Blobs:
    """Blobs of a class map. Thin lines (scratch glare, one-pixel rims) are opened away first,
    gaps of up to 4 pixels closed. Bridged pixels belong to the blob but to no colour."""
    mask = (classes != BACKGROUND).view(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _KERNEL)
    # A scratch's glare across a cube reads as a line of tray: closing bridges it, so the two
    # halves stay one blob and add up to one cube instead of two halves that count for nothing.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _BRIDGE)
    # Labels without OpenCV's stats (which cost several times the labelling itself); the few
    # statistics needed come from the foreground pixels alone.
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    flat = np.flatnonzero(mask.view(bool))
    width = classes.shape[1]
    lab = labels.ravel()[flat]
    xs, ys = flat % width, flat // width
    key = lab * N_CLASSES + classes.ravel()[flat]
    size = count * N_CLASSES
    histogram = np.bincount(key, minlength=size).reshape(count, N_CLASSES)
    sum_x = np.bincount(key, weights=xs, minlength=size).reshape(count, N_CLASSES)
    sum_y = np.bincount(key, weights=ys, minlength=size).reshape(count, N_CLASSES)
    stats = np.zeros((count, 5), np.int64)
    stats[:, 4] = histogram.sum(axis=1)
    if count > 1:  # bounding boxes: group the pixels by label, then reduce each group
        order = np.argsort(lab, kind="stable")
        starts = np.concatenate(([0], np.cumsum(stats[1:-1, 4])))
        for axis, coord in enumerate((xs[order], ys[order])):
            low = np.minimum.reduceat(coord, starts)
            stats[1:, axis] = low
            stats[1:, axis + 2] = np.maximum.reduceat(coord, starts) - low + 1
    return Blobs(count, labels, stats, histogram, sum_x, sum_y)


def class_pixels(blobs: Blobs, classes: np.ndarray, label: int, cls: int) -> np.ndarray:
    """N×2 float32 (x, y) of the pixels of class ``cls`` in blob ``label``."""
    x, y, w, h = (int(v) for v in blobs.stats[label, :4])
    sub = (blobs.labels[y:y + h, x:x + w] == label) & (classes[y:y + h, x:x + w] == cls)
    ys, xs = np.nonzero(sub)
    return np.stack([xs + x, ys + y], axis=1).astype(np.float32)
