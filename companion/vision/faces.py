"""Faces read as tray: the lit side of a block, bleached by the light, beside its own colour.

A block's faces meet the light at different angles. The face turned to the lamp can come out
paler and lighter than anything its sample showed (glare adds white: the hue stays, the chroma
drops), and a pale face can lie nearer a look of the tray than its own colour — on a wooden
desk a salmon red face reads as wood, on a bright look a pale teal one as glare. The counter
then sees only the block's darker rims, or nothing, and says nothing: the worst miss.

The face still shows what the eye goes by: it is clearly coloured, of its block's hue, and
touches that block's pixels. Tray pixels that are all three, and that are unlike the tray
look they were read as (a look of its own hue and colour explains them: wood beside a yellow
cube is wood — unless a colour's hue is nearer still: a hue goes to the nearer of the two),
form a *face read as tray*. A solid one of a third of a cube is reported for
the players to look at; from below (a tower's cube shows one face) it is never counted, since
only the eye can tell its block apart. From the side, where blocks are counted by their faces
(:mod:`companion.vision.lit_faces`), it is taken for its block's colour and counts with the
block's other faces (``counting._faces_taken``; :attr:`Face.mask` holds its pixels).

The same witness finds what no colour names: a solid patch read as tray that is clearly
coloured and of no hue of the tray look it was read as — the tray does not explain it — is an
*unexplained patch* when it touches no block of its hue (or has no cube colour's hue at all).
A calibration whose tray look took in part of a cube (a sample box drawn over a block's dark
side learns that side; its lit face, of another hue, widened a pale look of the desk) reads
every such face as tray; the patch is reported as an unknown object, never counted.

A face can also be *burnt out*: where the light is brighter than the camera's exposure allows,
its channels stop at the sensor's ceiling (:data:`CLIPPED`), and its chroma goes with them —
a salmon face turns nearly white, its hue kept only faintly. Such a pixel is judged with the
low chroma floor of a colour that has any hue at all, and only as a face beside its colour:
the tray's own glare, clipped one channel after another, changes hue and says nothing.

Whether a colour could be such a face depends on the colour alone, so it is decided once per
calibration for every cell of the 64³ colour table; a count looks it up at half the working
resolution (a face is a third of a cube or more: half the pixels still show it) — at the
working resolution itself where a frame's cubes are smaller than that resolution is chosen for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.classify import (BACKGROUND, CHROMATIC, UNKNOWN, Reference, cell_colours, hue_turn, lut_index,
                                       of_colour)
from companion.vision.colors import CUBE_COLORS

BESIDE_ONLY = 8  # added to a face code in the table: a face beside its colour, elsewhere explained by the tray look
CLIPPED = 250  # 8-bit code from which a channel is at the sensor's ceiling (JPEG leaves clipping a few codes under 255)


@dataclass(frozen=True)
class Face:
    code: int  # the colour whose hue it has and whose pixels it touches; UNKNOWN: an unexplained patch
    area: int  # working pixels
    box: tuple[int, int, int, int]  # x, y, w, h, working pixels
    centre: tuple[float, float]  # working pixels
    mask: np.ndarray | None = field(default=None, compare=False, repr=False)  # its pixels over box, at its search step

    def pixels(self, size: tuple[int, int]) -> np.ndarray:
        """The face's pixels in a working image of ``size`` (height, width): H×W bool."""
        out = np.zeros(size, bool)
        if self.mask is None:
            return out
        x, y, w, h = self.box
        grown = cv2.resize(self.mask.view(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST).view(bool)
        part = out[y:y + h, x:x + w]
        part |= grown[:part.shape[0], :part.shape[1]]
        return out


def _hues(references: Sequence[Reference], tray: bool) -> list[tuple[int, int, float]]:
    """(index, code, Lab hue in degrees) of the chromatic references of the tray, or of the colours."""
    out = []
    for k, ref in enumerate(references):
        a, b = ref.lab[1] - 128.0, ref.lab[2] - 128.0
        if (ref.code == BACKGROUND) == tray and np.hypot(a, b) >= CHROMATIC:
            out.append((k, ref.code, float(np.degrees(np.arctan2(b, a)))))
    return out


def face_table(references: Sequence[Reference], ref_index: np.ndarray, same_hue: float,
               coloured: float) -> np.ndarray:
    """Per cell of the 64³ colour table (:func:`~companion.vision.classify.lut_index`): the
    colour code a tray pixel of that colour could be a face of, :data:`UNKNOWN` when it is
    unexplained but of no colour's hue, or 0. Both are clearly coloured (Lab chroma
    ``coloured`` or more) and not of the hue of a chromatic tray look they are read as
    (``ref_index``, the table of each colour's nearest reference, see
    :func:`~companion.vision.classify.full_tables`), or nearer some colour's hue than that
    look's: the tray does not explain them. A face's colour is also within ``same_hue``
    degrees of that colour's hue and nearer it than any other colour's. Built once per
    calibration (0.04 s here)."""
    _, lab = cell_colours()
    a, b = lab[:, 1] - 128.0, lab[:, 2] - 128.0
    hue = np.degrees(np.arctan2(b, a))
    table = np.zeros(len(lab), np.uint8)
    colours = _hues(references, tray=False)
    if not colours:
        return table
    codes = sorted({code for _, code, _ in colours})
    turn = np.stack([np.min([hue_turn(hue, h) for _, c, h in colours if c == code], axis=0) for code in codes])
    nearest = np.argmin(turn, axis=0)
    closest = turn[nearest, np.arange(len(lab))]
    clear = np.hypot(a, b) >= coloured
    unexplained, explained_less = clear.copy(), np.zeros(len(lab), bool)
    for k, _, look_hue in _hues(references, tray=True):  # wood beside a yellow cube is wood
        look_turn = hue_turn(hue, look_hue)
        by_look = (ref_index == k) & (look_turn <= same_hue)
        unexplained &= ~by_look
        explained_less |= by_look & (look_turn > closest)
    face = (unexplained | (clear & explained_less)) & (closest <= same_hue)
    table[unexplained] = UNKNOWN
    table[face] = np.array(codes, np.uint8)[nearest[face]] + np.where(unexplained[face], 0, BESIDE_ONLY)
    return table


def burnt_face_table(references: Sequence[Reference], ref_index: np.ndarray, same_hue: float,
                     coloured: float) -> np.ndarray:
    """The :func:`face_table` for pixels at the sensor's ceiling (see the module docstring):
    ``coloured`` is the lower chroma floor, and no cell is an unexplained patch."""
    table = face_table(references, ref_index, same_hue, coloured)
    table[table == UNKNOWN] = 0
    return table


def burnt_pixels(image: np.ndarray) -> np.ndarray:
    """Where a BGR image (camera colours, before any correction) reaches :data:`CLIPPED` in
    some channel: H×W bool."""
    # One pass of OpenCV's range test: numpy's max across three channels costs ms per frame.
    return cv2.inRange(image, (0, 0, 0), (CLIPPED - 1,) * 3) == 0


def _could_be(classes: np.ndarray, relit: np.ndarray, table: np.ndarray, step: int,
              burnt: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The face code of every tray pixel (0 elsewhere) — :func:`face_table`'s, or for the
    pixels of ``burnt``'s mask the better of it and its table's —, the class map, and the
    codes of :func:`face_table` alone, all at 1/``step`` of the working resolution."""
    h, w = classes.shape
    size = (max(1, w // step), max(1, h // step))
    small = cv2.resize(classes, size, interpolation=cv2.INTER_NEAREST)
    cells = lut_index(cv2.resize(relit, size, interpolation=cv2.INTER_NEAREST))
    lit = np.take(table, cells)
    lit[small != BACKGROUND] = 0
    could_be = lit
    beside_only = lit > UNKNOWN  # faces only beside their colour: elsewhere the tray look explains them
    if beside_only.any():
        could_be = np.where(beside_only, lit - BESIDE_ONLY, lit).astype(np.uint8)
        lit = np.where(beside_only, 0, lit).astype(np.uint8)
    if burnt is not None:
        mask = cv2.resize(burnt[0].view(np.uint8), size, interpolation=cv2.INTER_NEAREST).view(bool)
        mask &= (small == BACKGROUND) & ((could_be == 0) | (could_be == UNKNOWN))
        could_be = could_be.copy()
        faint = np.take(burnt[1], cells[mask])
        faint = np.where(faint > UNKNOWN, faint - BESIDE_ONLY, faint)
        could_be[mask] = np.where(faint > 0, faint, could_be[mask])
    return could_be, small, lit


def faces_read_as_tray(classes: np.ndarray, relit: np.ndarray, table: np.ndarray, min_area: float,
                       radius: float, unexplained: bool = True,
                       burnt: tuple[np.ndarray, np.ndarray] | None = None,
                       speckled: bool = True, step: int = 2) -> list[Face]:
    """The faces read as tray in a class map (see the module docstring), in working pixels,
    and — with ``unexplained`` — the unexplained patches (code :data:`UNKNOWN`).

    ``relit`` is the frame the classes were read from, ``table`` its calibration's
    :func:`face_table`. A face or patch must survive opening with a disc of ``radius`` (thin
    fringes along a block's edge do not) and cover ``min_area`` pixels. Without
    ``unexplained`` (a count with the empty photo, which already makes every changed pixel
    read as tray an unknown one) only faces beside their colour are looked for. ``burnt`` is
    the frame's :func:`burnt_pixels` at working resolution and the calibration's
    :func:`burnt_face_table`, which judges those pixels. With ``speckled``, the block's own
    pixels strewn over a face (within its closing by the same disc) are part of it: a face
    read half as tray, half as its colour pixel by pixel is full of holes, and the opening
    that drops fringes dropped the whole face — on dobot under its drifts, 35 blocks that
    vanished without a flag. Only to *say* a face: counted (``counting._faces_taken``), such a
    face joined to its block's own pixels splits into more faces lit alike than the block has.
    So are, with ``speckled``, the pixels of no colour's hue joined to a face (:func:`_joined`):
    glare can turn part of a lamp-lit top pinker than ``same_hue`` from its colour, the two
    parts mixed and neither solid alone — on dobot under its drifts, 5 blocks that vanished
    without a flag; they are then no unexplained patch of their own. (The said table marks
    such pixels from a fainter colour on, strays beside a face only: see ``counting._face_tables``.)
    ``step``: the search runs at 1/``step`` of the working resolution (after a first look at
    half that); the faces come back in working pixels either way.
    """
    # A quick look at half the search's resolution first (a quarter of the working one, as a
    # count mostly searches): most frames hold no colour that could be a face over a whole
    # face's area, and are done after it.
    could_be, _, _ = _could_be(classes, relit, table, 2 * step, burnt)
    seen = np.bincount(could_be.ravel(), minlength=UNKNOWN + 1)[1:] * (2 * step) ** 2
    enough = seen[:len(CUBE_COLORS)] >= min_area
    loose = unexplained and seen.sum() >= min_area
    if not enough.any() and not loose:
        return []
    could_be, half, lit = _could_be(classes, relit, table, step, burnt)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, int(radius / step) | 1),) * 2)
    faces = []
    beside = np.zeros(could_be.shape, bool)  # pixels of a face beside its colour
    for code in np.flatnonzero(enough) + 1:
        candidate = (could_be == code).view(np.uint8)
        own = of_colour(half, code).view(np.uint8)
        count, labels = cv2.connectedComponents(candidate | own, connectivity=8)
        touching = np.zeros(count, bool)
        touching[labels[own.view(bool)]] = True
        touching[0] = False
        face = candidate.view(bool) & touching[labels]
        beside |= face
        if speckled:  # the block's own pixels strewn over its face are part of the face
            face |= cv2.morphologyEx(face.view(np.uint8), cv2.MORPH_CLOSE, disc).view(bool) & own.view(bool)
            stray = _joined(face, could_be == UNKNOWN)
            face |= stray
            beside |= stray
        faces += _solid_patches(face.view(np.uint8), disc, min_area, int(code), step)
    if loose:
        # Only colours the camera read: burnt pixels away from a colour say nothing, the
        # tray's own glare clips too.
        faces += _solid_patches(((lit > 0) & ~beside).view(np.uint8), disc, min_area, UNKNOWN, step)
    return faces


def _joined(face: np.ndarray, stray: np.ndarray) -> np.ndarray:
    """The pixels of ``stray`` joined to ``face`` through ``stray`` itself (8-connected)."""
    count, labels = cv2.connectedComponents((face | stray).view(np.uint8), connectivity=8)
    held = np.zeros(count, bool)
    held[labels[face]] = True
    held[0] = False
    return stray & held[labels]


def _solid_patches(mask: np.ndarray, disc: np.ndarray, min_area: float, code: int, step: int) -> list[Face]:
    """The pieces of ``mask`` (1/``step`` of the working resolution) that survive opening with
    ``disc`` and cover ``min_area`` working pixels, as faces of ``code`` in working pixels."""
    solid = cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc)
    count, labels = cv2.connectedComponents(solid, connectivity=8)
    if count < 2:
        return []
    ys, xs = np.nonzero(solid)  # OpenCV's statistics cost several times the labelling
    of = labels[ys, xs]
    area = np.bincount(of, minlength=count)
    out = []
    for i in np.flatnonzero(step * step * area[1:] >= min_area) + 1:
        fx, fy = xs[of == i], ys[of == i]
        x, y = int(fx.min()), int(fy.min())
        x1, y1 = int(fx.max()) + 1, int(fy.max()) + 1
        box = (step * x, step * y, step * (x1 - x), step * (y1 - y))
        out.append(Face(code, step * step * int(area[i]), box, (step * float(fx.mean()), step * float(fy.mean())),
                        labels[y:y1, x:x1] == i))
    return out
