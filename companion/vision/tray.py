"""The tray as the calibration learns it: every look of it, from the calibration photo itself.

Everything in the tray outline outside the sample boxes, plus background boxes and the empty
photo, is tray — dark, bright, wood, two-tone, rails, screws, shadows, reflections — except
unmarked things shaped like cubes. Its looks are k-means clusters in Lab, each a reference —
but not a minor one of a sampled colour's hue and chroma: the unboxed cubes of that colour.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import cv2
import numpy as np

from companion.vision.classify import BACKGROUND, CHROMATIC, Reference, hue_gap, to_lab
from companion.vision.errors import CalibrationError
from companion.vision.samples import Box, Sample, off_tray

TRAY_LOOKS = 6  # k-means clusters for the tray
TRAY_SAMPLE = 30000  # tray pixels the clusters are learned from (a random subset)
MIN_LOOK_SHARE = 0.003  # a tray look covering less than this share of the tray is noise
SAME_COLOUR = 2.0  # references of two colours closer than this cannot be told apart
CLOSE_COLOUR = 5.0  # … closer than this: a warning (references of trimmed samples, see samples.sample_reference)
LIKE_TRAY = 3.0  # a colour this close to a look of the tray is hard to see there
MINOR_LOOK = 0.1  # a tray look under this share of the tray may be unmarked cubes …
CUBE_HUE = 25.0  # … when within these degrees of a sampled colour's Lab hue …
CUBE_CHROMA = 0.5  # … and at least half its chroma: about as colourful as the cubes


def sample_area(shape: tuple[int, int], samples: Sequence[Sample], scale: int) -> np.ndarray:
    """H×W bool at working resolution: the sample boxes, padded (shadows and rims beside the
    cube stay out of the tray)."""
    h, w = shape
    area = np.zeros((h, w), bool)
    for s in samples:
        x, y, bw, bh = s.box
        pad = int(0.25 * max(bw, bh))
        area[max(0, (y - pad) // scale):(y + bh + pad) // scale + 1,
             max(0, (x - pad) // scale):(x + bw + pad) // scale + 1] = True
    return area


def outline_mask(shape: tuple[int, int], roi_points, scale: int) -> np.ndarray:
    """The tray outline (camera pixels) as an H×W uint8 mask (1 inside) at 1/``scale``."""
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(np.array(roi_points, np.float64) / scale).astype(np.int32)], 1)
    return mask


def tray_pixels(small: np.ndarray, scale: int, samples: Sequence[Sample], backgrounds: Sequence[Box],
                 roi_points, cube_area: float, cube_refs: Sequence[Reference] = ()) -> np.ndarray:
    """N×3 BGR pixels of tray in the working image: inside the outline, outside every sample
    box, plus the background boxes — less any unmarked object (see :func:`unmarked_objects`)
    and anything that looks like a sampled colour (:func:`like_samples`)."""
    h, w = small.shape[:2]
    keep = np.ones((h, w), np.uint8) if roi_points is None else outline_mask((h, w), roi_points, scale)
    keep[sample_area((h, w), samples, scale)] = 0
    keep[unmarked_objects(small, keep.view(bool), cube_area)] = 0
    keep[like_samples(small, cube_refs, cube_area)] = 0
    for x, y, bw, bh in backgrounds:
        keep[y // scale:(y + bh) // scale + 1, x // scale:(x + bw) // scale + 1] = 1
    return small[keep.view(bool)]


LIKE_SAMPLE = 2.5  # shade-aware distance to a sampled colour within which a pixel is no tray


def like_samples(small: np.ndarray, cube_refs: Sequence[Reference], cube_area: float) -> np.ndarray:
    """H×W bool: pixels within :data:`LIKE_SAMPLE` of a sampled colour, in patches of at least a
    tenth of a cube, grown by a rim: the unboxed cubes of the calibration photo, whatever their
    shape or however they touch (a packed group of blocks is no cube-sized blob). Left in the
    tray's training pixels they would teach the tray to look like a cube colour, and every
    cube of that colour would vanish into the tray. Thin grain or a scratch of that colour stays.
    """
    out = np.zeros(small.shape[:2], bool)
    if not cube_refs:
        return out
    flat = to_lab(small).reshape(-1, 3)
    near = np.zeros(len(flat), bool)
    for ref in cube_refs:
        near |= ref.distance(flat) <= LIKE_SAMPLE
    near = near.reshape(out.shape).view(np.uint8)
    near = cv2.morphologyEx(near, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=8)
    big = np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= 0.1 * cube_area)
    big = big[big > 0]
    patch = np.isin(labels, big).view(np.uint8)
    margin = max(3, int(0.3 * math.sqrt(cube_area)) | 1)
    return cv2.dilate(patch, np.ones((margin, margin), np.uint8)).view(bool)


def unmarked_objects(small: np.ndarray, tray: np.ndarray, cube_area: float) -> np.ndarray:
    """H×W bool: things in the tray area shaped like cubes that no sample box marks (other
    cubes in the calibration photo), grown by a margin for their rims and shadows.

    What differs from every main look of the tray (a tenth of it or more), and is neither its
    shadow nor glare, is a candidate; it is an object when it is cube-sized — from a third of a
    cube to eight cubes, not a thin line, not longer than five cubes — and tray otherwise (a
    dark strip, a rail, a screw, a stain): that is learned as tray.
    """
    pixels = small[tray]
    if len(pixels) < 200:
        return np.zeros(tray.shape, bool)
    sample = pixels[np.random.default_rng(11).choice(len(pixels), min(len(pixels), 8000), replace=False)]
    lab = to_lab(sample).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(13)
    _, labels, _ = cv2.kmeans(lab, 3, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    looks = [Reference.from_lab(BACKGROUND, lab[labels == j]) for j in range(3) if np.mean(labels == j) >= 0.1]
    candidate = (off_tray(to_lab(small), looks, glare_margin=0.0) & tray).view(np.uint8)
    candidate = cv2.morphologyEx(candidate, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels_img, stats, _ = cv2.connectedComponentsWithStats(candidate, connectivity=8)
    side = math.sqrt(cube_area)
    objects = np.zeros(tray.shape, np.uint8)
    depth = cv2.distanceTransform(candidate, cv2.DIST_L2, cv2.DIST_MASK_5)
    for label in range(1, count):
        area = stats[label, cv2.CC_STAT_AREA]
        longest = max(stats[label, cv2.CC_STAT_WIDTH], stats[label, cv2.CC_STAT_HEIGHT])
        if not (0.33 * cube_area <= area <= 8 * cube_area and longest <= 5 * side):
            continue
        component = labels_img == label
        if depth[component].max() >= 0.2 * side:  # not a thin line
            objects[component] = 1
    margin = max(3, int(0.3 * side) | 1)
    return cv2.dilate(objects, np.ones((margin, margin), np.uint8)).view(bool)


def tray_references(pixels: np.ndarray, cube_refs: Sequence[Reference]) -> list[Reference]:
    """The tray's looks: k-means clusters of its pixels in Lab, each a reference."""
    if len(pixels) < 50:
        raise CalibrationError("Hardly any empty tray is visible in the calibration photo; "
                               "leave space around the sample cubes or mark --background boxes.")
    rng = np.random.default_rng(7)
    if len(pixels) > TRAY_SAMPLE:
        pixels = pixels[rng.choice(len(pixels), TRAY_SAMPLE, replace=False)]
    lab = to_lab(pixels).astype(np.float32)
    k = min(TRAY_LOOKS, max(1, len(pixels) // 200))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.5)
    cv2.setRNGSeed(3)
    _, labels, _ = cv2.kmeans(lab, k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    labels = labels.ravel()
    refs = []
    for j in range(k):
        members = pixels[labels == j]
        share = len(members) / len(pixels)
        if share < MIN_LOOK_SHARE or len(members) < 8:
            continue
        ref = Reference.from_pixels(BACKGROUND, members, share)
        if any(c.distance(np.array([ref.lab]))[0] < 1.5 for c in cube_refs) or \
                (share < MINOR_LOOK and any(_as_colourful(ref, c) for c in cube_refs)):
            continue  # a look that is a sampled colour itself: unmarked cubes, not tray
        refs.append(ref)
    if not refs:
        raise CalibrationError("The calibration photo shows no empty tray apart from cubes; "
                               "take it with a few cubes spread out on the tray.")
    return refs


def _as_colourful(look: Reference, cube: Reference) -> bool:
    """Whether a tray look has a sampled colour's hue (within :data:`CUBE_HUE`) and at least
    :data:`CUBE_CHROMA` of its chroma: the unboxed cubes of that colour, lit otherwise than the
    boxed one (a long block's side, a second block nearer the lamp, paler or deeper). A tray,
    even a wooden one, is far greyer than painted cubes of its hue."""
    ab = (look.lab[1] - 128.0, look.lab[2] - 128.0)
    cube_ab = (cube.lab[1] - 128.0, cube.lab[2] - 128.0)
    chroma, cube_chroma = math.hypot(*ab), math.hypot(*cube_ab)
    return (cube_chroma >= 2 * CHROMATIC and chroma >= CUBE_CHROMA * cube_chroma
            and hue_gap(ab, cube_ab) <= CUBE_HUE)


def colour_distances(cube_refs: Sequence[Reference]) -> Iterator[tuple[Reference, Reference, float]]:
    """Every pair of references of two different colours, with how far apart they are (the
    nearer of the two ways round, each in its reference's own spread)."""
    for i, a in enumerate(cube_refs):
        for b in cube_refs[i + 1:]:
            if a.code != b.code:
                yield a, b, float(min(a.distance(np.array([b.lab]))[0], b.distance(np.array([a.lab]))[0]))


def look_alike(cube_refs: Sequence[Reference]) -> list[tuple[Reference, Reference]]:
    """The pairs of references of two different colours within :data:`CLOSE_COLOUR` of each
    other: the colours the calibration warns look alike under its light."""
    return [(a, b) for a, b, d in colour_distances(cube_refs) if d < CLOSE_COLOUR]


def like_tray(cube_refs: Sequence[Reference], tray_refs: Sequence[Reference]) -> list[Reference]:
    """The colour references that lie within :data:`LIKE_TRAY` of a look of the tray."""
    return [a for a in cube_refs if any(a.distance(np.array([t.lab]))[0] < LIKE_TRAY for t in tray_refs)]


def colour_warnings(cube_refs: Sequence[Reference], tray_refs: Sequence[Reference]) -> list[str]:
    """Raise when two colours cannot be told apart; warnings when they are close, or a colour
    is close to the tray."""
    warnings = []
    for a, b, d in colour_distances(cube_refs):
        if d < SAME_COLOUR:
            raise CalibrationError(f"The {a.name} and {b.name} samples look the same to the camera; "
                                   "check that each box holds the right cube, or improve the light.")
    for a, b in look_alike(cube_refs):
        warnings.append(f"{a.name.capitalize()} and {b.name} look alike under this light; "
                        "check those counts, or add light.")
    for a in like_tray(cube_refs, tray_refs):
        warnings.append(f"{a.name.capitalize()} cubes look like part of the tray here; "
                        "a different background under the tray would help.")
    return sorted(set(warnings))
