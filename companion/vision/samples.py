"""A sample box on the calibration photo: the one cube inside it, its look, its shape.

A box's border ring is the local tray — or, when the box was drawn tight and its border runs
over the cube, the band just outside the box — less any look of it that covers the box's middle
(a person centres a box on what they mean: that look is the object); the cube is what differs
from it — less the tray's own shadow and the ring light's glare — the largest such region
nearest the box centre. A box whose ring is all object lies on it: the object is grown from
the colour at its centre.
Two halves of clearly different colours in one box are refused: the box is on two cubes; a
half tinted like the tray is the cube's contact shadow, not a second colour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.classify import BACKGROUND, GLARE_CHROMA, Reference, hue_gap, to_lab
from companion.vision.errors import CalibrationError, NoObjectInBoxError, TwoColoursInBoxError

Box = tuple[int, int, int, int]  # x, y, width, height in camera pixels
CORNERS = 6  # a cube or block seen from anywhere is a polygon of at most this many corners …
ROUND_DEPARTURE = 0.1  # … objects departing further from one (area share) are round (a disc: 0.17–0.21)
TWO_HUES = 35.0  # degrees of hue between two colourful halves of a box that mean two cubes
SHADOW_TINT = 20.0  # Lab chroma distance from the tray within which a darker pixel is shadow
SHADOW_DEPTH = 0.55  # … as long as its lightness is at least this share of the tray's
RING_OFF = 0.1  # share of a box's border ring unlike the band outside it: the box runs over its object
CENTRE = 0.2  # the middle of a box, as a share of its sides, that a person puts on the object
TRIM = 1.75  # distance to a sample's own reference beyond which a pixel is not the sample's colour
TRIM_ROUNDS = 3
GROW = 1.2  # each try of the search around a point is this much wider than the last
MIN_OBJECT = 64  # camera pixels: anything smaller under a point is noise, not a cube


@dataclass(frozen=True)
class Sample:
    """A box on the calibration photo that encloses exactly one cube of ``color``."""

    color: str
    box: Box


def box_text(box: Box) -> str:
    return ",".join(map(str, box))


def _no_object(sample: Sample) -> NoObjectInBoxError:
    """The refusal of a box in which nothing stands out from the tray — no cube, or a cube of
    the tray's colour (a blue cube on a blue felt): the sentence says both, as a tap does."""
    return NoObjectInBoxError(f"The {sample.color} sample box {box_text(sample.box)} shows no cube: it looks like "
                              "empty tray. Draw the box around one cube. (If a cube lies there, the camera cannot "
                              f"tell a {sample.color} cube from this tray: add light, or put something of another "
                              "colour under the tray.)")


def cube_in_box(image: np.ndarray, sample: Sample) -> np.ndarray:
    """Mask (box-sized, camera pixels) of the one object in a sample box.

    The box's border ring (or the band outside a tight box), less what looks like the box's
    middle, is the local tray (:func:`_tray_looks`); the object is what differs from it, the
    largest such region nearest the box centre. Raises when there is none or when it holds
    two colours.
    """
    x, y, w, h = sample.box
    sub = image[y:y + h, x:x + w]
    lab = to_lab(sub)
    looks = _tray_looks(image, lab, sample.box)
    if not looks:  # the ring is all object (a box drawn on it) or all tray (a box on no cube)
        raise _no_object(sample)
    differs = off_tray(lab, looks, glare_margin=10.0).astype(np.uint8)
    side = math.sqrt(w * h)
    k = max(3, int(side / 20) | 1)
    differs = cv2.morphologyEx(differs, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    count, labels, stats, centres = cv2.connectedComponentsWithStats(differs, connectivity=8)
    if count < 2 or stats[1:, cv2.CC_STAT_AREA].max() < max(16, 0.04 * w * h):
        raise _no_object(sample)
    # The biggest object, preferring ones near the centre (a neighbour's corner may poke in).
    off = np.hypot(centres[1:, 0] - w / 2, centres[1:, 1] - h / 2) / side
    score = stats[1:, cv2.CC_STAT_AREA] * np.clip(1.2 - off, 0.1, 1.0)
    mask = labels == 1 + int(np.argmax(score))
    _check_one_colour(lab[mask], sample, looks)
    return mask


@dataclass(frozen=True)
class Found:
    """The one object under a point: the box the search found it in, its centre and its size
    (square root of its area), camera pixels."""

    box: Box
    centre: tuple[float, float]
    side: float

    @classmethod
    def of(cls, box: Box, mask: np.ndarray) -> Found:
        """The object ``mask`` marks inside ``box``."""
        ys, xs = np.nonzero(mask)
        return cls(box, (box[0] + float(xs.mean()), box[1] + float(ys.mean())), math.sqrt(float(mask.sum())))


def centred_box(x: int, y: int, side: int, width: int, height: int) -> Box:
    """A square box of ``side`` pixels centred on ``x, y``, moved inside the photo."""
    side = min(side, width, height)
    x0 = min(max(0, x - side // 2), width - side)
    y0 = min(max(0, y - side // 2), height - side)
    return x0, y0, side, side


def object_at(image: np.ndarray, x: int, y: int, color: str = "background") -> Found | None:
    """The one object under the point ``x, y`` (a finger's tap): the smallest square box around
    it, grown by :data:`GROW`, in which :func:`cube_in_box` finds an object with tray all
    around it (not cut by the box's border) that lies under the point (a quarter of its size
    of slack); failing that, the object grown from the colour under the point
    (:func:`_grown_at`: packed neighbours, a busy desk). None when the point is on tray.
    """
    height, width = image.shape[:2]
    side = max(12, min(width, height) // 60)
    limit = min(width, height) // 3
    while side <= limit:
        box = centred_box(x, y, side, width, height)
        side = int(side * GROW) + 1
        try:
            mask = cube_in_box(image, Sample(color, box))
        except CalibrationError:  # no object yet, or a neighbour of another colour in the box
            continue  # no object with tray around it yet (the box lies on the object): grow
        ys, xs = np.nonzero(mask)
        bx, by, bw, bh = box
        if xs.min() == 0 or ys.min() == 0 or xs.max() == bw - 1 or ys.max() == bh - 1:
            continue  # cut by the box: the tray ring is not around it yet
        area = float(mask.sum())
        size = math.sqrt(area)
        near = (bx + xs.min() - 0.25 * size <= x <= bx + xs.max() + 0.25 * size
                and by + ys.min() - 0.25 * size <= y <= by + ys.max() + 0.25 * size)
        if area >= MIN_OBJECT and near:
            return Found.of(box, mask)
        break  # a speck, or a neighbour beside the point: the point may still lie on an object
    return _grown_at(image, x, y, color, limit)


def _grown_at(image: np.ndarray, x: int, y: int, color: str, limit: int) -> Found | None:
    """The object under a point by its colour alone (:func:`grown_object` on seed boxes growing
    by :data:`GROW` round the point): for an object whose surroundings are no plain tray ring
    (packed neighbours, a busy desk). A seed on plain tray grows into the tray, reaches its
    window's border every time, and finds nothing."""
    height, width = image.shape[:2]
    side = max(8, min(width, height) // 80)
    while side <= limit:
        grown = grown_object(image, Sample(color, centred_box(x, y, side, width, height)))
        side = int(side * GROW) + 1
        if grown is None:
            continue
        sample, mask = grown
        return Found.of(sample.box, mask) if mask.sum() >= MIN_OBJECT else None
    return None


def sample_object(image: np.ndarray, sample: Sample) -> tuple[Sample, np.ndarray]:
    """The sample box to learn from and the mask of its object.

    A box drawn around its object (loose or tight) is used as drawn (:func:`cube_in_box`). A
    box drawn *on* the object — its border runs over the object on three or four sides, so no
    tray shows around it, as when a person boxes a long block's face — is grown from the colour
    at its centre (:func:`grown_object`), and the box becomes the object's own bounding box
    with a margin. Raises :class:`CalibrationError` when neither finds an object.
    """
    try:
        mask = cube_in_box(image, sample)
    except NoObjectInBoxError as exc:  # two colours in the box stays a refusal
        drawn_error, mask = exc, None
    if mask is not None:
        ys, xs = np.nonzero(mask)
        h, w = mask.shape
        cut = int(xs.min() == 0) + int(ys.min() == 0) + int(xs.max() == w - 1) + int(ys.max() == h - 1)
        if cut < 3:  # tray on two sides at least: drawn around the object (tight or at the edge)
            return sample, mask
    grown = grown_object(image, sample)
    if grown is None:
        if mask is not None:
            return sample, mask
        raise drawn_error
    return grown


SEED = 0.3  # the centre part of a box, as a share of its sides, whose colour a grown object has
GROW_DISTANCE = 3.5  # shade-aware distance to the seed colour within which a pixel is the object


def grown_object(image: np.ndarray, sample: Sample) -> tuple[Sample, np.ndarray] | None:
    """The object at the centre of a box drawn on it: the connected region, around the box
    centre, of pixels within :data:`GROW_DISTANCE` of the colour of a patch in the box's middle
    (:data:`SEED` of its sides, see below; shade-aware, so the object's darker sides stay in), searched in
    a window three times the box's size. None when that region reaches the window's border
    (the "object" is the tray itself) or is smaller than a third of the box.
    """
    x, y, w, h = sample.box
    height, width = image.shape[:2]
    # The patch starts at the corner of the box's central SEED part, but is SEED of the box's
    # *width* tall and of its *height* wide — turned against the box. Patches the other way
    # round, square or centred all measured worse on dobot-blocks-wood (docs/vision.md,
    # Bars and where they stand); it stays as measured until more block sets say otherwise.
    sx0, sy0 = x + int(w * (1 - SEED) / 2), y + int(h * (1 - SEED) / 2)
    seed = image[sy0:sy0 + max(2, int(w * SEED)), sx0:sx0 + max(2, int(h * SEED))].reshape(-1, 3)
    reference = sample_reference(BACKGROUND, seed)
    cx, cy = x + w // 2, y + h // 2
    wx0, wy0 = max(0, cx - 3 * w // 2), max(0, cy - 3 * h // 2)
    wx1, wy1 = min(width, cx + 3 * w // 2), min(height, cy + 3 * h // 2)
    window = to_lab(image[wy0:wy1, wx0:wx1])
    near = (reference.distance(window.reshape(-1, 3)) <= GROW_DISTANCE).reshape(window.shape[:2])
    k = max(3, int(math.sqrt(w * h) / 20) | 1)
    near = cv2.morphologyEx(near.view(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=8)
    label = labels[cy - wy0, cx - wx0]
    if label == 0:  # the very centre is a glint or a seam: the component nearest it
        if count < 2:
            return None
        ys, xs = np.nonzero(labels)
        nearest = int(np.argmin((xs - (cx - wx0)) ** 2 + (ys - (cy - wy0)) ** 2))
        label = labels[ys[nearest], xs[nearest]]
    bx, by, bw, bh, area = (int(v) for v in stats[label])
    touches = (bx == 0 and wx0 > 0) or (by == 0 and wy0 > 0) or (bx + bw == wx1 - wx0 and wx1 < width) \
        or (by + bh == wy1 - wy0 and wy1 < height)
    if touches or area < w * h / 3:
        return None
    pad = max(2, int(0.15 * max(bw, bh)))  # a margin of tray, within the window
    x0, y0 = max(0, bx - pad), max(0, by - pad)
    x1, y1 = min(wx1 - wx0, bx + bw + pad), min(wy1 - wy0, by + bh + pad)
    mask = labels[y0:y1, x0:x1] == label
    return Sample(sample.color, (wx0 + x0, wy0 + y0, x1 - x0, y1 - y0)), mask


def _tray_looks(image: np.ndarray, box_lab: np.ndarray, box: Box) -> list[Reference]:
    """The local tray of a sample box: from the box's own border ring, or — when more than
    :data:`RING_OFF` of that ring is not like the band just outside the box (the box was drawn
    tight, its border runs over the object) — from that outer band.

    A look that covers most of the box's middle (:data:`CENTRE` of its sides) is left out: a
    person centres a box on what they mean, so that look is the object — where the ring of a
    tight box runs over it, or a neighbour of its colour lies in the band — and as a tray look
    it would hide all of the object but its highlights. With no look left, the box lies on its
    object (or on plain tray)."""
    x, y, w, h = box
    width = max(2, int(round(0.12 * min(w, h))))
    inner = np.ones((h, w), bool)
    inner[width:h - width, width:w - width] = False
    looks = _ring_looks(box_lab[inner])
    H, W = image.shape[:2]
    x0, y0, x1, y1 = max(0, x - width), max(0, y - width), min(W, x + w + width), min(H, y + h + width)
    band = np.ones((y1 - y0, x1 - x0), bool)
    band[y - y0:y - y0 + h, x - x0:x - x0 + w] = False
    if band.sum() >= width * (w + h):  # less than half of the band in the photo: the ring it is
        outer = _ring_looks(to_lab(image[y0:y1, x0:x1])[band])
        if off_tray(box_lab[inner], outer, glare_margin=10.0).mean() > RING_OFF:
            looks = outer
    dy, dx = max(1, int(h * CENTRE / 2)), max(1, int(w * CENTRE / 2))
    middle = box_lab[h // 2 - dy:h // 2 + dy, w // 2 - dx:w // 2 + dx]
    return [look for look in looks if off_tray(middle, [look], glare_margin=10.0).mean() >= 0.5]


def off_tray(lab: np.ndarray, looks: Sequence[Reference], glare_margin: float) -> np.ndarray:
    """Bool mask of the Lab pixels (any leading shape, ×3) that are none of the tray's
    ``looks``: farther than 5 from each, not the shadow of one, and not glare.

    A shadow is the tray, darker: same tint, at least about half as light — a black cube is far
    darker than that, so it stays off the tray. Glare (the ring light mirrored in the plastic)
    is nearly grey and more than ``glare_margin`` lighter than the lightest look.
    """
    flat = lab.reshape(-1, 3)
    off = np.ones(len(flat), bool)
    for look in looks:
        tint = np.hypot(flat[:, 1] - look.lab[1], flat[:, 2] - look.lab[2])
        shadow = (tint < SHADOW_TINT) & (flat[:, 0] < look.lab[0]) & (flat[:, 0] >= SHADOW_DEPTH * look.lab[0])
        off &= (look.distance(flat) > 5.0) & ~shadow
    lightest = max(look.lab[0] for look in looks)
    chroma = np.hypot(flat[:, 1] - 128.0, flat[:, 2] - 128.0)
    off &= ~((flat[:, 0] > lightest + glare_margin) & (chroma <= GLARE_CHROMA))
    return off.reshape(lab.shape[:-1])


def _ring_looks(ring_lab: np.ndarray) -> list[Reference]:
    """The local tray around a sample cube, from the box's border ring: its usual look, and a
    second one when a quarter of the ring is something else that is neither that look's shadow
    nor glare (a patch or tray edge crossing the box). A neighbouring cube's corner poking into
    the ring is less than that, so it stays an object. Each look is one cluster of the ring's
    colours — those near its median (:func:`_cluster`) — so a cube's corner in the ring beside
    a tray edge does not widen the second look until it takes in the cube."""
    first = _cluster(ring_lab)
    rest = ring_lab[first.distance(ring_lab) > 5.0]
    tint = np.hypot(rest[:, 1] - first.lab[1], rest[:, 2] - first.lab[2])
    shadow = (tint < SHADOW_TINT) & (rest[:, 0] >= SHADOW_DEPTH * first.lab[0])
    glare = (rest[:, 0] > first.lab[0]) & (np.hypot(rest[:, 1] - 128, rest[:, 2] - 128) <= GLARE_CHROMA)
    other = rest[~shadow & ~glare]
    if len(other) >= 0.25 * len(ring_lab):
        return [first, _cluster(other)]
    return [first]


def _cluster(lab: np.ndarray) -> Reference:
    """The look of the Lab pixels within 30 of their median (all of them when fewer than 8 are)."""
    near = np.linalg.norm(lab - np.median(lab, axis=0), axis=1) < 30
    return Reference.from_lab(BACKGROUND, lab[near] if near.sum() >= 8 else lab)


def _check_one_colour(lab: np.ndarray, sample: Sample, looks: Sequence[Reference]) -> None:
    """Raise when a box's object is two cubes of clearly different colours.

    Shading changes a colour's lightness and chroma but hardly its hue, so two halves are two
    colours when both are colourful and their hues differ, or when one is colourful and the
    other grey and far darker than any shadow (a black cube beside a coloured one). A half
    tinted like the tray (within :data:`SHADOW_TINT` of a look's tint) is no colour of its
    own, however dark: it is the object's contact shadow, too deep for :func:`off_tray` to
    take for the tray's.
    """
    tray_lightness = max(look.lab[0] for look in looks)
    if len(lab) < 20:
        return
    ab = np.ascontiguousarray(lab[:, 1:] - 128.0, np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(1)
    _, labels, _ = cv2.kmeans(ab, 2, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    share = float(labels.mean())
    if min(share, 1 - share) < 0.25:
        return
    halves = [lab[labels == j] for j in (0, 1)]
    a, b = (np.median(h[:, 1:] - 128.0, axis=0) for h in halves)
    chroma = [float(np.hypot(*a)), float(np.hypot(*b))]
    apart = hue_gap(a, b)
    grey = int(np.argmin(chroma))
    grey_tint = np.median(halves[grey][:, 1:], axis=0)
    tray_tinted = any(np.hypot(*(grey_tint - look.lab[1:])) < SHADOW_TINT for look in looks)
    two_hues = min(chroma) > 15 and apart > TWO_HUES and not tray_tinted
    black_beside = (chroma[grey] < 8 and chroma[1 - grey] > 30
                    and float(np.median(halves[grey][:, 0])) < 0.45 * tray_lightness)
    if two_hues or black_beside:
        raise TwoColoursInBoxError(f"The {sample.color} sample box {box_text(sample.box)} holds two "
                               "colours; draw it around one cube only.")


def sample_reference(code: int, bgr_pixels: np.ndarray) -> Reference:
    """The colour of a sample: a reference fitted to its pixels, then refitted to those within
    :data:`TRIM` of it, a few times.

    The object's pixels still hold some of its contact shadow, rims mixed with the tray and
    glare; left in, they widen the reference towards the tray and other colours, and every
    count after inherits it. The distance is the counter's own (shade-aware: a darker or
    lighter part of the same colour stays), so only pixels of another colour are dropped.
    """
    pixels = np.asarray(bgr_pixels, np.uint8).reshape(-1, 3)
    reference = Reference.from_pixels(code, pixels)
    lab = to_lab(pixels.reshape(-1, 1, 3)).reshape(-1, 3).astype(np.float64)
    for _ in range(TRIM_ROUNDS):
        inside = reference.distance(lab) <= TRIM
        if inside.all() or inside.sum() < 20:
            break
        reference = Reference.from_pixels(code, pixels[inside])
    return reference


def core(mask: np.ndarray) -> np.ndarray:
    """The inside of an object mask, away from its edge (which mixes with the tray)."""
    side = math.sqrt(float(mask.sum()))
    k = max(3, int(side / 6) | 1)
    core = cv2.erode(mask.view(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
    return core if core.sum() >= 12 else mask


def is_round(masks: Sequence[np.ndarray]) -> bool:
    """True when the sample objects are round (sweets, beads), by their median
    :func:`polygon_departure`: a cube or a block, seen from any side, is a convex polygon of
    at most :data:`CORNERS` corners (the outline of a box in perspective), a disc or an oval
    departs from its best such polygon by 17 % of its area or more. Above
    :data:`ROUND_DEPARTURE` (about half a disc's) the objects are round. The fill of the
    tightest rectangle said this before, and took blocks seen at an angle (a hexagon fills
    0.67–0.85 of it) for round."""
    return float(np.median([polygon_departure(mask) for mask in masks])) > ROUND_DEPARTURE


def polygon_departure(mask: np.ndarray) -> float:
    """How far an object mask departs from a polygon of at most :data:`CORNERS` corners: the
    area between its convex hull and the largest such polygon on the hull's corners, over the
    mask's area. The polygon is found by dropping, one at a time, the corner whose triangle
    with its two neighbours is smallest (Visvalingam–Whyatt). 0 for a square, a parallelogram
    or a hexagon; for a disc or an oval at least 1 − 3√3/(2π) ≈ 0.173 (its best hexagon; the
    corners dropped one at a time find 0.17–0.21)."""
    contours, _ = cv2.findContours(mask.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    corners = hull.reshape(-1, 2).astype(np.float64)  # pixel positions: exact, and their products
    while len(corners) > CORNERS:
        before, after = np.roll(corners, 1, axis=0), np.roll(corners, -1, axis=0)
        u, v = corners - before, after - before
        triangles = np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])  # twice their areas
        corners = np.delete(corners, int(np.argmin(triangles)), axis=0)
    polygon = corners.astype(np.int32)  # back to the hull's own integer corners
    return (cv2.contourArea(hull) - cv2.contourArea(polygon)) / max(float(mask.sum()), 1.0)
