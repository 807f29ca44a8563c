"""Which colour an object is — or none: open-set naming by margin.

Pixel by pixel the class map names what lies near a calibrated colour. An object's *mean*
colour says more: a block the light made deeper or more saturated than its sample lies beyond
every colour pixel by pixel, yet averaged over the block it is clearly nearer its own colour
than any other. So an object takes its nearest colour when that colour is clearly nearer than
the next (``CLEAR_MARGIN``), not absurdly far (``NO_COLOUR_AT_ALL``) and of its hue
(``SAME_HUE``); it is flagged when its colour is far (``NO_SUCH_COLOUR``) or nearly as close
to another colour (``COLOUR_DOUBT``), and ``unknown`` when it is far from every colour and
close to none by hue — a hand, a coin, a die.

Colours are given as the counter's ``colour_refs``: per cube reference (code, Lab mean with a
and b centred, inverse covariance, shades), see
:meth:`~companion.vision.classify.Reference.metric`. Distances are
:func:`~companion.vision.classify.shade_distance`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from companion.vision.classify import AMBIGUOUS, CHROMATIC, UNKNOWN, hue_gap, shade_distance, to_lab
from companion.vision.colors import CUBE_COLORS
from companion.vision.segment import Blobs

NO_SUCH_COLOUR = 3.0  # an object whose mean colour is this far from its colour is of none …
CLEAR_MARGIN = 2.5  # … unless every other colour is this many times farther (open-set by margin)
NO_COLOUR_AT_ALL = 8.0  # … and never beyond this: a hand, a coin, a die
SAME_HUE = 25.0  # degrees of Lab hue within which a far object still shares its colour's hue
COLOUR_DOUBT = 0.7  # own-colour distance over next colour's distance above this: doubtful
NAMED_PIECE = 0.1  # of a cube: a piece of no colour this large is named by its mean colour, if by margin

ColourRefs = Sequence[tuple]  # (code, mean, inverse covariance, shades) per cube reference


def same_hue(lab: np.ndarray, ref: np.ndarray) -> bool:
    """Whether a Lab value (a, b centred) has the hue of a reference mean: both without
    chroma (a black cube gone grey), or both chromatic within :data:`SAME_HUE`."""
    chroma, ref_chroma = math.hypot(lab[1], lab[2]), math.hypot(ref[1], ref[2])
    if ref_chroma < CHROMATIC:
        return chroma < 2 * CHROMATIC
    return chroma >= CHROMATIC and hue_gap(lab[1:], ref[1:]) <= SAME_HUE


def shade_of_its_colour(colour_refs: ColourRefs, blobs: Blobs, label: int, held: float) -> bool:
    """Whether a blob's pixels of no colour are, on average, a shade of a colour the blob
    holds ``held`` pixels of: within :data:`NO_COLOUR_AT_ALL` of it and of its hue — the
    side of a block in deeper shadow than its sample showed."""
    codes = {c + 1 for c in np.flatnonzero(blobs.histogram[label, 1:UNKNOWN] >= held)}
    if not codes:  # a keyboard, a hand: no colour of its own to be a shade of
        return False
    n = blobs.histogram[label, UNKNOWN]
    lab = to_lab((blobs.colour_sum[label, UNKNOWN] / max(n, 1))[None, :].astype(np.uint8))[0] - (0.0, 128.0, 128.0)
    return any(code in codes and float(shade_distance(lab[None, :], mean, inv, shades)[0]) <= NO_COLOUR_AT_ALL
               and same_hue(lab, mean) for code, mean, inv, shades in colour_refs)


def distances(colour_refs: ColourRefs, lab: np.ndarray, codes: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For N Lab colours (a and b centred): the distance to their own colour's nearest
    reference (``codes``; without them, to the nearest colour's, which is then their own),
    that reference's index in ``colour_refs``, the distance to the nearest other colour, and
    that colour's code (0 when there is none)."""
    dists = [shade_distance(lab, mean, inv, shades) for _, mean, inv, shades in colour_refs]
    if codes is None:
        codes = np.array([ref[0] for ref in colour_refs])[np.argmin(dists, axis=0)]
    own = np.full(len(lab), np.inf)
    other = np.full(len(lab), np.inf)
    other_code = np.zeros(len(lab), int)
    own_ref = np.zeros(len(lab), int)
    for k, ((ref_code, _, _, _), dist) in enumerate(zip(colour_refs, dists)):
        mine = codes == ref_code
        own_ref = np.where(mine & (dist < own), k, own_ref)
        own = np.where(mine, np.minimum(own, dist), own)
        closer = ~mine & (dist < other)
        other = np.where(closer, dist, other)
        other_code = np.where(closer, ref_code, other_code)
    return own, own_ref, other, other_code


def by_margin(colour_refs: ColourRefs, lab: np.ndarray, own: np.ndarray, own_ref: np.ndarray,
              other: np.ndarray) -> np.ndarray:
    """Which colours are their own colour *by margin*: within :data:`NO_COLOUR_AT_ALL` of it,
    every other colour :data:`CLEAR_MARGIN` times farther, and of its hue — an uncalibrated
    purple is far from blue and farther from the rest, yet it is no blue cube."""
    clear = (own <= NO_COLOUR_AT_ALL) & (other >= CLEAR_MARGIN * own)
    for i in np.flatnonzero(clear):  # few: only colours the light moved far
        clear[i] = same_hue(lab[i], colour_refs[own_ref[i]][1])
    return clear


def colour_doubts(colour_refs: ColourRefs, blobs: Blobs, pieces: list[tuple[int, int]],
                  left_out: tuple[np.ndarray, np.ndarray] | None = None) -> list[tuple[float, str | None, bool]]:
    """For each (blob, colour code) piece: the distance of its pixels' mean colour to that
    colour's nearest reference, the other colour it is nearly as close to (its distance over
    the other's above :data:`COLOUR_DOUBT`) or None, and whether it is that colour *by margin*
    only: farther than :data:`NO_SUCH_COLOUR` from it (light the correction missed), but every
    other colour :data:`CLEAR_MARGIN` times farther still — counted, and flagged.
    ``left_out`` (colour sums and counts per blob and class, as ``blobs.colour_sum`` and
    ``blobs.histogram``) are pixels kept out of the mean."""
    if not pieces:
        return []
    labels = np.array([p[0] for p in pieces])
    codes = np.array([p[1] for p in pieces])
    sums = blobs.colour_sum[labels, codes] + blobs.colour_sum[labels, codes + AMBIGUOUS]
    n = blobs.histogram[labels, codes] + blobs.histogram[labels, codes + AMBIGUOUS]
    if left_out is not None:
        out_sums, out_n = left_out
        sums = sums - out_sums[labels, codes] - out_sums[labels, codes + AMBIGUOUS]
        n = n - out_n[labels, codes] - out_n[labels, codes + AMBIGUOUS]
    lab = to_lab((sums / np.maximum(n, 1)[:, None]).astype(np.uint8)) - (0.0, 128.0, 128.0)
    own, own_ref, other, other_code = distances(colour_refs, lab, codes)
    doubt = (other_code > 0) & (own > 1.0) & (own > COLOUR_DOUBT * other)
    # Open set by margin: far from its colour under this light, but clearly nearer to it than
    # to any other colour, an object is that colour (flagged by the caller) — not unknown.
    far = own > NO_SUCH_COLOUR
    far[far] = by_margin(colour_refs, lab[far], own[far], own_ref[far], other[far])
    return [(float(o), CUBE_COLORS[c - 1] if d else None, bool(m))
            for o, c, d, m in zip(own, other_code, doubt, far)]


def name_by_margin(colour_refs: ColourRefs, unit_area: float, classes: np.ndarray, relit: np.ndarray) -> None:
    """Pieces of no colour named by their mean colour, in ``classes`` in place: a piece of
    pixels of no calibrated colour, of :data:`NAMED_PIECE` of a cube (``unit_area`` working
    pixels) or more, whose mean colour in ``relit`` is a colour *by margin* (:func:`by_margin`)
    takes that colour. Pixel by pixel, a block the light made deeper or more saturated than its
    sample lies beyond every colour; averaged over the piece it is still clearly its own (the
    object is then flagged when its colour is far, see :func:`colour_doubts`). A hand, a coin,
    a die stay unknown."""
    h, w = classes.shape
    size = (max(1, w // 2), max(1, h // 2))  # pieces of a tenth of a cube still show at half the pixels
    strange = cv2.compare(cv2.resize(classes, size, interpolation=cv2.INTER_NEAREST), UNKNOWN, cv2.CMP_EQ)
    least = NAMED_PIECE * unit_area / 4
    if cv2.countNonZero(strange) < least:
        return
    count, labels = cv2.connectedComponents(strange, connectivity=8)
    big = np.flatnonzero(np.bincount(labels.ravel(), minlength=count)[1:] >= least) + 1
    if not len(big):
        return
    half = cv2.resize(relit, size, interpolation=cv2.INTER_NEAREST)
    masks = [cv2.compare(labels, int(piece), cv2.CMP_EQ) for piece in big]
    mean = np.array([cv2.mean(half, mask=mask)[:3] for mask in masks])
    lab = to_lab(np.round(mean).astype(np.uint8)) - (0.0, 128.0, 128.0)
    own, own_ref, other, _ = distances(colour_refs, lab)
    for mask, named, ref in zip(masks, by_margin(colour_refs, lab, own, own_ref, other), own_ref):
        if named:
            piece = cv2.resize(mask, (w, h), interpolation=cv2.INTER_NEAREST) > 0
            classes[piece & (classes == UNKNOWN)] = colour_refs[ref][0]
