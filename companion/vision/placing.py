"""Where the objects of a blob lie and which colour each is.

One colour: centres by k-means on its pixels. Several colours, objects of one size (cubes):
each colour gets its share of the blob's objects by its votes (largest remainder: its area
in cubes, rounded so that the shares add up), and its centres by k-means on its own pixels.
Several colours, objects of mixed sizes (sweets), where area says little about how many: the
blob is split into its objects by k-means on pixel positions, and each object takes the
colour most of its pixels vote for; where two colours both hold a good part of an object's
votes, its mean colour decides.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.vision.classify import AMBIGUOUS, UNKNOWN, shade_distance, to_lab
from companion.vision.segment import Blobs, class_pixels

CONTENDER = 0.3  # a colour with this share of the leading colour's votes in a place contends for it


def place_objects(blobs: Blobs, classes: np.ndarray, relit: np.ndarray, colour_refs: tuple, label: int,
             votes: np.ndarray, n: int, one_size: bool = False,
             sure: tuple[int, ...] = ()) -> list[tuple[int, float, float]]:
    """The ``n`` objects of one blob as (colour code, x, y), working pixels.

    One colour: centres by k-means on its pixels. Several colours and ``one_size`` (cubes):
    seats by the colours' votes (:func:`largest_remainder`), centres per colour. Several colours
    of mixed sizes: the blob's pixels are split into ``n`` places by k-means on their
    positions, and each place takes the colour most of its pixels vote for (confident pixels
    fully, ambiguous ones a quarter) — so a sweet that reads partly as its neighbour's colour
    is still one sweet of its own colour. Colour codes in ``sure`` (a colour with half an
    object of its own) get a place each, whichever way the places were given out: see
    :func:`_seat_every`.
    """
    return _seat_every(_places(blobs, classes, relit, colour_refs, label, votes, n, one_size),
                       sure, votes, blobs, classes, label)


def _places(blobs: Blobs, classes: np.ndarray, relit: np.ndarray, colour_refs: tuple, label: int,
            votes: np.ndarray, n: int, one_size: bool) -> list[tuple[int, float, float]]:
    """:func:`place_objects` before every sure colour is seated."""
    codes = np.flatnonzero(votes > 0.1 * votes.sum()) + 1
    if len(codes) == 1 or n == 1:
        code = int(codes[np.argmax(votes[codes - 1])]) if n == 1 else int(codes[0])
        return [(code, x, y) for x, y in cube_centres(blobs, classes, label, [code, code + AMBIGUOUS], n)]
    if one_size:
        out = []
        for code, seats in zip(codes, largest_remainder(votes[codes - 1], n)):
            if seats:
                out += [(int(code), x, y) for x, y in cube_centres(blobs, classes, label,
                                                                   [int(code), int(code) + AMBIGUOUS], int(seats))]
        return out
    inside, (x, y, w, h) = blobs.own(label)
    sub_classes = classes[y:y + h, x:x + w]
    colour = inside & (((sub_classes >= 1) & (sub_classes < UNKNOWN))
                       | ((sub_classes > AMBIGUOUS) & (sub_classes < UNKNOWN + AMBIGUOUS)))
    ys, xs = np.nonzero(colour)
    pts = np.stack([xs + x, ys + y], axis=1).astype(np.float32)
    if len(pts) < n:
        return []
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.2)
    cv2.setRNGSeed(n)
    _, assign, centres = cv2.kmeans(pts, n, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    px_codes = sub_classes[ys, xs].astype(np.int64)
    weight = np.where(px_codes > AMBIGUOUS, 0.25, 1.0)
    base_code = np.where(px_codes > AMBIGUOUS, px_codes - AMBIGUOUS, px_codes)
    tally = np.zeros((n, UNKNOWN), np.float64)
    np.add.at(tally, (assign.ravel(), base_code), weight)
    # Where two colours both hold a good part of a place's votes (a dark red and a purple
    # read alike pixel by pixel), the place's mean colour decides: averaging cancels the noise.
    colours = relit[y:y + h, x:x + w][ys, xs].astype(np.float64)
    out = []
    for k, (cx, cy) in enumerate(centres):
        votes_k = tally[k, 1:]
        contenders = np.flatnonzero(votes_k >= CONTENDER * votes_k.max()) + 1
        code = int(np.argmax(votes_k)) + 1
        if len(contenders) > 1:
            mean = colours[assign.ravel() == k].mean(axis=0)
            lab = to_lab(mean[None, :].astype(np.uint8)) - (0.0, 128.0, 128.0)
            best = {}
            for ref_code, ref_mean, inv, shades in colour_refs:
                if ref_code in contenders:
                    d = float(shade_distance(lab, ref_mean, inv, shades)[0])
                    best[ref_code] = min(best.get(ref_code, math.inf), d)
            code = min(best, key=best.get)
        out.append((code, float(cx), float(cy)))
    return out


def _seat_every(out: list[tuple[int, float, float]], sure: tuple[int, ...], votes: np.ndarray,
                blobs: Blobs, classes: np.ndarray, label: int) -> list[tuple[int, float, float]]:
    """``out`` with at least as many places of each colour as ``sure`` names it (a colour code
    once per object its own pixels make): a split by position alone can share a long block's
    pixels between its neighbours' places (a red block between a blue and a green one became a
    blue and two greens), and seats by votes or a single object's leading colour can leave a
    colour with fewer places than its own pixels make objects. A place given up is one of the
    colour with the most places for its votes beyond its own minimum, never one a colour
    needs; a colour whose number of places changed has its centres found again on its own
    pixels."""
    held = [c for c, _, _ in out]
    changed = set()
    for code in sorted(set(sure)):
        while held.count(code) < sure.count(code):
            donors = [c for c in set(held) if held.count(c) > sure.count(c)]
            if not donors:
                break
            donor = max(donors, key=lambda c: (c not in sure, held.count(c) / max(votes[c - 1], 1.0)))
            held[held.index(donor)] = code
            changed |= {code, donor}
    if not changed:
        return out
    kept = [place for place in out if place[0] not in changed]
    for code in sorted(changed):
        if held.count(code):
            kept += [(code, float(cx), float(cy)) for cx, cy in
                     cube_centres(blobs, classes, label, [code, code + AMBIGUOUS], held.count(code))]
    return kept


def largest_remainder(votes: np.ndarray, n: int) -> np.ndarray:
    """``n`` seats shared out in proportion to ``votes`` (Hamilton's method)."""
    quota = votes / votes.sum() * n
    seats = np.floor(quota).astype(int)
    order = np.argsort(-(quota - seats), kind="stable")
    seats[order[:n - int(seats.sum())]] += 1
    return seats


def cube_centres(blobs: Blobs, classes: np.ndarray, label: int, codes: list[int], n: int) -> list[tuple[float, float]]:
    """Centres of ``n`` touching cubes of one colour: k-means on that colour's pixels."""
    if n == 1:
        a = blobs.histogram[label, codes].sum()
        return [(blobs.sum_x[label, codes].sum() / a, blobs.sum_y[label, codes].sum() / a)]
    pts = class_pixels(blobs, classes, label, codes)
    if len(pts) < n:
        return [tuple(pts.mean(axis=0))] * n if len(pts) else []
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.2)
    cv2.setRNGSeed(n)
    _, _, centres = cv2.kmeans(pts, n, None, criteria, 1, cv2.KMEANS_PP_CENTERS)
    return [(float(cx), float(cy)) for cx, cy in centres]
