"""How big a cube is in this frame, and which blobs are shaped like one object.

The camera may sit higher or lower than when it was calibrated; the counter reads the size of a
cube from the frame itself (rules in :mod:`companion.vision.counting`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import cv2
import numpy as np

from companion.vision.classify import AMBIGUOUS
from companion.vision.colors import CUBE_COLORS
from companion.vision.segment import Blobs

# Blobs whose radius over the calibrated one lies outside this range do not vote on the size.
# With a tray outline the camera is fixed to the tower: only its height may have changed
# (±30 % → ×0.77 to ×1.43). Without one, photos may come from any distance.
SIZE_VOTE_FIXED = (0.7, 1.5)
SIZE_VOTE_FREE = (0.5, 2.0)
SIZE_PRIOR = 0.5  # weight of the pull towards the likeliest size for frames of clusters only
# Lone objects that size a frame: with a tray outline one does (the size may only move ±30 %);
# without one, a single lone object would decide the scale ×0.5 to ×2 alone, and it may be
# part of an object (the end of a block standing up, beside others lying down): two at least.
MIN_LONE_FIXED, MIN_LONE_FREE = 1, 2
COMPACT = (0.92, 1.7, 2.2)  # solidity at least, length over width at most, cube areas under: one object
PART = 0.25  # share of a cluster's colour pixels that makes a colour one of its parts (for a guessed size)
FAR = 0.25  # free camera: objects down to this size over the calibrated one say it is farther away


class FrameSize(NamedTuple):
    """This frame's cube size over the calibrated one, and how it was found."""

    factor: float
    guessed: bool  # from the widths of clusters alone: no lone object to measure, no outline to bound it
    measured: bool = True  # False: nothing in the frame could vote, the calibrated size stands


def size_factor(blobs: Blobs, shapes: Shapes, candidates: np.ndarray, area: np.ndarray,
                colour_area: np.ndarray, unit_area: float, unit_radius: float, fixed_camera: bool,
                classes: np.ndarray | None = None, alike: Sequence[tuple[int, int]] = ()) -> FrameSize:
    """This frame's cube size over the calibrated one (rules in :mod:`companion.vision.counting`).

    ``candidates`` are the blob labels that may vote, ``area`` every blob's cube area and
    ``colour_area`` its share per colour (blobs × colours, each row summing to ``area``), and
    ``unit_area`` / ``unit_radius`` one calibrated cube at working resolution. ``classes``
    (the class map the blobs came from) and ``alike`` (pairs of colour codes that are one
    colour to the eye) let a frame sized by its clusters' widths measure each colour's part
    of a cluster (:func:`part_radii`); without them, each cluster as a whole."""
    low, high = SIZE_VOTE_FREE if not fixed_camera else SIZE_VOTE_FIXED
    # Best evidence: lone objects (compact, of a plausible area) — their area is their size.
    plausible = candidates[(area[candidates] >= low ** 2 * unit_area)
                           & (area[candidates] <= high ** 2 * unit_area)]
    # Without an outline the photo may be taken from the side, where a block cut from a pile
    # by its colour is the part the others leave in view: only objects alone measure the size.
    # From above, a cube cut from its neighbour is whole (and the size moves ±30 % at most).
    lone = [int(b) for b in plausible if shapes.one_object(int(b), 0.5 * low * unit_radius)
            and (fixed_camera or shapes.alone(int(b)))]
    # Area: finer than the width, and it scales exactly with the size.
    if len(lone) >= (MIN_LONE_FIXED if fixed_camera else MIN_LONE_FREE):
        return FrameSize(float(np.sqrt(np.median(area[lone]) / unit_area)), False)
    if fixed_camera and len(candidates):
        # Only clusters of one size of cube. A cluster is never narrower than one cube, an L
        # about 1.17× wider, a T turned 45° (its largest inscribed disc sits where the three
        # meet) up to 1.4×: the narrowest cluster brackets the size. Within that
        # bracket, the size that makes every colour of every cluster a whole number of cubes —
        # each colour, not only the cluster: a red and two greens are three cubes, never two.
        narrowest = float((blobs.radius[candidates] / unit_radius).min())
        return FrameSize(whole_cubes_size(colour_area[candidates] / unit_area,
                                          max(low, narrowest / 1.45), min(high, narrowest * 1.05),
                                          narrowest / 1.1), False)
    # Only clusters, and a camera at any distance: a chain is about as wide as one object —
    # a guess (a row of blocks standing up is as wide as one is long), so their counts are said.
    # Every cluster wider than the range allows: the camera is nearer than it foresees (a
    # cluster is never narrower than its objects), and their width is a better guess than the
    # calibration's size, which counted each block many times. Narrow blobs prove nothing so:
    # a rim, a key of a keyboard, a cable.
    # A cluster of several colours is several objects side by side across its width too: each
    # colour's part of it is as wide as one object (a pile of blocks seen from the side). When
    # no part is as wide as an object may be, the clusters as wholes are the guess.
    widths = [] if classes is None else [part_radii(blobs, classes, candidates, alike)]
    for width in widths + [blobs.radius[candidates]]:
        ratio = width / unit_radius
        votes = ratio[(ratio >= low) & (ratio <= high)]
        if not len(votes) and not fixed_camera:
            votes = ratio[ratio > high]
        if len(votes):
            return FrameSize(float(np.median(votes)), True)
    return FrameSize(1.0, False, False)


def farther_than_foreseen(area: np.ndarray, labels: np.ndarray, unit_area: float) -> float | None:
    """The size (over the calibrated one) of a free camera's frame that nothing could size
    because all its objects are smaller than a size vote allows: the median of
    ``sqrt(area / unit_area)`` over the ``labels`` (blobs of a colour) of :data:`FAR`² to
    ``SIZE_VOTE_FREE[0]``² of a cube's area — the camera is farther away than at calibration
    (calibrated on a close-up, counted from across the desk). None when there is no such blob:
    the frame shows nothing that could be an object further away."""
    low = SIZE_VOTE_FREE[0]
    ratio = area[labels] / unit_area
    small = ratio[(ratio >= FAR * FAR) & (ratio < low * low)]
    if not len(small):
        return None
    return float(np.sqrt(np.median(small)))


def part_radii(blobs: Blobs, classes: np.ndarray, candidates: np.ndarray,
               alike: Sequence[tuple[int, int]] = ()) -> np.ndarray:
    """The widths (largest inscribed disc's radius, working pixels) that ``candidates`` vote
    with: a blob of one colour its own; a blob whose colour pixels hold :data:`PART` or more
    of two colours or more (colours ``alike`` counted as one) one per such colour — the
    widest disc inside that colour's pixels of the blob."""
    group = list(range(len(CUBE_COLORS) + 1))  # colour code → the code standing for it
    for a, b in alike:
        group = [group[a] if g == group[b] else g for g in group]
    codes = np.arange(1, len(CUBE_COLORS) + 1)
    pixels = blobs.histogram[:, codes] + blobs.histogram[:, codes + AMBIGUOUS]
    share = np.zeros((blobs.count, len(group)))
    for code in codes:
        share[:, group[code]] += pixels[:, code - 1]
    parts = share >= PART * np.maximum(share.sum(axis=1, keepdims=True), 1)
    several = [int(b) for b in candidates if np.count_nonzero(parts[b]) >= 2]
    widths = [float(blobs.radius[b]) for b in candidates if int(b) not in several]
    if several:
        inside = blobs.labels > 0
        for g in np.flatnonzero(parts[several].any(axis=0)):
            members = [c for c in codes if group[c] == g]
            mask = np.isin(classes, members + [c + AMBIGUOUS for c in members]) & inside
            depth = cv2.distanceTransform(mask.view(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_5)
            widest = np.zeros(blobs.count, np.float32)
            np.maximum.at(widest, blobs.labels[mask], depth[mask])
            widths += [float(widest[b]) for b in several if parts[b, g]]
    return np.array(widths)


def whole_cubes_size(parts: np.ndarray, low: float, high: float, likely: float) -> float:
    """The size factor in [low, high] that makes every part of ``parts`` (clusters × colours,
    in calibrated cubes' areas) closest to a whole number of cubes, and every cluster at least
    one cube (sum of squared remainders, plus a pull towards ``likely`` that decides when
    several sizes fit equally well)."""
    if high <= low:
        return float(min(max(likely, low), high)) if high > 0 else 1.0
    factors = np.linspace(low, high, 81)
    ratios = parts.reshape(1, len(parts), -1) / (factors[:, None, None] ** 2)
    whole = np.round(ratios)
    totals = ratios.sum(axis=2)
    # A colour's few rim pixels may round to no cube; the cluster as a whole is one at least.
    misfit = ((ratios - whole) ** 2).sum(axis=(1, 2)) + (np.maximum(1.0 - totals, 0.0) ** 2).sum(axis=1)
    cost = misfit + SIZE_PRIOR * np.log(factors / likely) ** 2
    return float(factors[int(np.argmin(cost))])


class Shapes:
    """Whether a frame's blobs are shaped like one object — convex, compact, not a crumb —
    each blob measured once however often it is asked."""

    def __init__(self, blobs: Blobs, unit_radius: float) -> None:
        self.blobs = blobs
        # Thin rims and shadow crescents say nothing about an object's shape: opened away.
        k = max(3, int(0.4 * unit_radius) | 1)
        # A piece this large left beside another after the opening is an object of its own (a
        # quarter of a cube's face): two sweets joined by a thin bridge are not one object.
        self._piece = unit_radius * unit_radius
        self._kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        self._compact: dict[int, bool] = {}

    def one_object(self, label: int, min_radius: float) -> bool:
        if self.blobs.radius[label] < min_radius:
            return False
        if label not in self._compact:
            self._compact[label] = self._measure(label)
        return self._compact[label]

    def alone(self, label: int) -> bool:
        """Whether a blob touches no other blob: tray all round it. A blob cut from a pile
        where two colours meet is shaped like one object, but the part of a block the others
        leave in view: its area says nothing of a whole one's."""
        labels = self.blobs.labels
        x, y, w, h = (int(v) for v in self.blobs.stats[label, :4])
        x0, y0 = max(0, x - 1), max(0, y - 1)
        around = labels[y0:y + h + 1, x0:x + w + 1]
        grown = cv2.dilate((around == label).view(np.uint8), np.ones((3, 3), np.uint8)).view(bool)
        return not np.any(grown & (around != 0) & (around != label))

    def _measure(self, label: int) -> bool:
        mask = cv2.morphologyEx(self.blobs.own_framed(label), cv2.MORPH_OPEN, self._kernel)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            return False
        if sum(cv2.contourArea(c) >= self._piece for c in contours) > 1:
            return False
        outline = max(contours, key=cv2.contourArea)
        hull = cv2.contourArea(cv2.convexHull(outline))
        (_, _), (rw, rh), _ = cv2.minAreaRect(outline)
        if hull <= 0 or min(rw, rh) <= 0:
            return False
        solidity = cv2.countNonZero(mask) / (hull + cv2.arcLength(outline, True) / 2)  # pixel areas
        return solidity >= COMPACT[0] and max(rw, rh) / min(rw, rh) <= COMPACT[1]
