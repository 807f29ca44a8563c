"""From a working image to a class map — the one path shared by calibration and counting.

Calibration measures one cube exactly as the counter will later measure every blob, so both
call :func:`class_map`: relight to the calibration light, classify by the learned references,
and, when the empty tray of this same light is known, let nothing that did not change since the
empty photo be a cube (static screws, rails, reflections and stains drop out pixel by pixel) —
and nothing that changed other than as light changes the tray be tray.

The light is read from the tray. When the surface behind the tray is not the calibration's any
more (another background, another table), the tray's witness is wrong, and under its light most
of the objects take no colour. The frame is then read again under the light the cubes
themselves imply — the cubes are a colour chart (:func:`light.chart_gain`) — and that reading
is kept when it names enough of what the tray's reading left unnamed. The tray's light is
doubted when half of the objects' pixels take no colour under it, unless the cubes it does
name confirm it (their chart gives the same light: what it leaves unnamed is then a foreign
object or a rim, not a cube under another light) — another light must then name half of what
it left — and already when a fifth take none and those cubes imply another light: a fifth of
it is enough then (:func:`_tray_light_doubt`); fewer, when they make whole objects and the
cubes imply a light far off. A pixel named black that the photo
shows clearly coloured counts as unnamed: a wrong light can darken every cube into black as
well as leave it no colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from companion.vision import light
from companion.vision.black_level import histogram_percentile
from companion.vision.classify import (AMBIGUOUS, BACKGROUND, CHROMATIC, REJECT_DISTANCE, TRAY_SHADES, UNKNOWN,
                                       Reference, classify, lut_index, pixels_of, to_lab)
from companion.vision.perspective import drop_sides

UNCHANGED = 14  # grey levels (working resolution): a change since the empty photo this large is one, however noisy
CHANGE_BOX = 3  # working pixels: the change since the empty photo is judged on means this wide…
NOISE_BAR = 5  # … and is none below this many times the frame's typical change (+1), at most UNCHANGED
LIGHT_ONLY = 1.2  # a shadow or reflection changes a pixel's channels by factors this close
UNNAMED = 0.5  # this share of the objects' pixels of no known colour: the tray's light is doubted…
CONFIRMED = 1.1  # … unless the cubes it names imply its light, within this factor in every channel;
SOME_UNNAMED = 0.2  # from this share on, doubted when the cubes it names imply another light…
FEWER_UNNAMED = 0.8  # … and the cubes' light then kept when it leaves under this share of what the tray's did
WHOLLY_UNNAMED = 0.05  # from this share on in objects mostly of no known colour, the tray's light is doubted…
FAR_OFF = 1.3  # … when the cubes it names imply a light this far off in some channel
CHART_ROUNDS = 1  # readings under the cubes' own light after the uncorrected one (1, 2 and 3 count alike)
NO_HUE = 2 * CHROMATIC  # Lab chroma in the photo from which a pixel is clearly of some hue
PLAIN = CHROMATIC / 2  # a colour whose every reference is greyer than this has no hue (black);
# a dark teal's sample drawn half off its block came to chroma 11
SURFACE_CORE = 0.8  # share of a tray look's pixels the model of the surface as photographed is fitted on
SURFACE_MIN_PIXELS = 50  # fewer pixels of a tray look than this are not modelled (kept as the tray reading said)
SURFACE_SHADES = (1.0, TRAY_SHADES[1])  # a look as photographed, in no deeper shade: this frame's light is in it already


def class_map(small: np.ndarray, references: Sequence[Reference], tables: tuple[np.ndarray, np.ndarray],
              tray_bgr: Sequence[float], empty_small: np.ndarray | None = None,
              tray_cells: np.ndarray | None = None,
              sides: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The frame relit to the calibration light, and its H×W uint8 class map (see :func:`classify`).

    ``tables`` is :func:`~companion.vision.classify.full_tables` of ``references``;
    ``empty_small`` the empty tray at the same resolution, taken under the same light;
    ``tray_cells`` the calibration's tray on the same cell grid (see :func:`light.gain_field`);
    ``sides`` where the cubes' sides the lens sees lie (:func:`perspective.towards_centre`'s
    maps): left out when a reading's unnamed pixels are counted (they stay in the map).
    """
    full_lut, ref_index = tables
    field = light.gain_field(small, references, ref_index, tray_bgr, empty_small, tray_cells)
    relit = light.relight(small, field)
    classes = _classes(relit, small, full_lut, empty_small)
    plain = _plain_codes(references)
    coloured = _coloured_plain(classes, small, plain)
    unnamed, objects = _unnamed(classes, coloured, sides)
    bar = _tray_light_doubt(unnamed / max(1, objects), relit, classes, references,
                            lambda: _wholly_unnamed(classes, coloured, sides) / max(1, objects))
    if bar is not None:
        # Where the objects are, the tray's reading still tells: its light makes the new
        # surface look like the calibrated one. With the empty photo that is sure (what
        # changed since it is no tray); without it, what the photo shows unlike the rest of
        # the surface is taken back out of it.
        surface = classes == BACKGROUND
        if empty_small is None:
            surface = _surface_by_its_looks(small, relit, surface, references, ref_index)
        relit, classes, coloured = _by_the_cubes(small, references, full_lut, empty_small, plain, surface,
                                                 (unnamed, relit, classes, coloured), bar, sides)
    # Whichever reading stands, a pixel it names black that the photo shows clearly coloured
    # is no black cube: unknown, for the table to look at, never counted.
    classes[coloured] = UNKNOWN
    return relit, classes


def _tray_light_doubt(share: float, relit: np.ndarray, classes: np.ndarray, references: Sequence[Reference],
                      whole: Callable[[], float] = lambda: 0.0) -> float | None:
    """None when the tray's light stands, its reading (``relit``, ``classes``) leaving
    ``share`` of the objects' pixels unnamed, ``whole()`` of them in objects mostly unnamed
    (:func:`_wholly_unnamed`, asked only when it decides: a labelling of the objects takes a
    millisecond and a half); else the bar another light must pass: the share
    of the tray reading's unnamed pixels its reading may leave at most. Doubted when most of
    them are unnamed (:data:`UNNAMED`), unless the cubes it does name confirm its light — then
    another light must name half of what it left; when a fifth are (:data:`SOME_UNNAMED`), if
    those cubes imply another light — two witnesses disagree, and another light need only name
    a fifth of it (:data:`FEWER_UNNAMED`; half there as well left 7 frames of 300 fewer exact
    behind another tray, with the empty photo, and 4 more blocks miscounted over dobot's other
    calibrations). The cubes speak through the gain that would bring them to their
    references (:func:`light.chart_gain`, two colours at least), within :data:`CONFIRMED` of
    ×1 in every channel or not. Behind another surface the tray's light is wrong and the cubes
    it still names are off their references: on the synthetic trays counted behind another
    (``--surfaces``), ×1.57 in the median channel's worst, 376 of 380 charts beyond ×1.1; on
    the tray calibrated, with a fifth of the objects' pixels unnamed (a foreign object, rims),
    ×1.06 in the median, 54 of 65 within ×1.1. Without a chart (no cube named, or one colour)
    nothing contradicts the tray, and only "most unnamed" doubts it: an empty textured tray
    whose pattern left a fifth unnamed was read again and showed eight unknown objects. On real
    photos of blocks and sweets, whose faces are lit unlike their sample, the chart is rougher
    (×1.26 in the median) and seldom confirms.

    Fewer than a fifth unnamed still doubt the light when they make whole objects
    (:data:`WHOLLY_UNNAMED`) and the cubes imply a light :data:`FAR_OFF` in some channel: a
    wrong light leaves every cube of a colour or two without one (light grey's light on the
    wood tray: its purple cube, a sixth of the objects' pixels beside cubes that keep their
    colours), a right one leaves rims, glare and shadows — parts of objects — and a
    foreign object, whole but with the cubes near their light. Far off rather than
    :data:`CONFIRMED`: a foreign object beside sweets or blocks whose chart is rough (×1.26)
    would doubt a right light, and its reading lost yellow cubes (two synthetic frames
    without an outline)."""
    if share <= WHOLLY_UNNAMED:
        return None
    gain = light.chart_gain(relit, classes, references)
    if gain is None:  # no chart: nothing confirms the tray's light, nothing contradicts it
        return 0.5 if share > UNNAMED else None
    off = np.abs(np.log(gain))
    if np.all(off <= np.log(CONFIRMED)):
        return None
    if share <= SOME_UNNAMED:
        return FEWER_UNNAMED if np.any(off > np.log(FAR_OFF)) and whole() > WHOLLY_UNNAMED else None
    return 0.5 if share > UNNAMED else FEWER_UNNAMED


def _plain_codes(references: Sequence[Reference]) -> tuple[int, ...]:
    """The colours without hue (black): every reference of them has Lab chroma under
    :data:`PLAIN`."""
    codes = {r.code for r in references} - {BACKGROUND}
    return tuple(sorted(c for c in codes if all(
        np.hypot(r.lab[1] - 128.0, r.lab[2] - 128.0) < PLAIN for r in references if r.code == c)))


_Positions = tuple[np.ndarray, np.ndarray]  # rows and columns, as :func:`_coloured_plain` gives them


def _coloured_plain(classes: np.ndarray, small: np.ndarray, plain: tuple[int, ...]) -> _Positions:
    """Rows and columns where ``classes`` names a colour without hue (``plain``) yet the photo
    itself is clearly coloured (chroma of :data:`NO_HUE` or more): a red cube that a wrong
    light correction darkened into a black one. Judged on the uncorrected photo, whose chroma
    no correction of the light has made or taken away. Only the pixels named black are
    converted to Lab, by their coordinates: masks over the whole frame cost 1.4 ms a count."""
    ys, xs = pixels_of(classes, [c + shift for c in plain for shift in (0, AMBIGUOUS)])
    if not len(ys):
        return ys, xs
    lab = to_lab(small[ys, xs]) - (0.0, 128.0, 128.0)
    coloured = np.hypot(lab[:, 1], lab[:, 2]) >= NO_HUE
    return ys[coloured], xs[coloured]


def _unnamed(classes: np.ndarray, coloured: _Positions,
             sides: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[int, int]:
    """Pixels the reading ``classes`` leaves without a colour, and those it names black
    against what the photo shows (``coloured``, see :func:`_coloured_plain`): a light
    correction that darkened every cube to black is as wrong as one that left them no colour.
    And the objects' pixels. Without the cubes' sides the lens sees (``sides``, see
    :mod:`~companion.vision.perspective`): darker than any light their colour was calibrated
    under, they are mostly of no colour, and counted they doubted a right light (wide sides,
    1 cube at the corner: lone yellow cubes read as unknown, relit by a wrong chart)."""
    if sides is not None:
        classes = drop_sides(classes.copy(), sides)
        ys, xs = coloured
        kept = classes[ys, xs] != BACKGROUND
        coloured = (ys[kept], xs[kept])
    return int(np.count_nonzero(classes == UNKNOWN)) + len(coloured[0]), int(np.count_nonzero(classes))


def _wholly_unnamed(classes: np.ndarray, coloured: _Positions,
                    sides: tuple[np.ndarray, np.ndarray] | None = None) -> int:
    """Pixels of the objects (8-connected pieces of ``classes`` that are not tray) of which
    more than half are unnamed as :func:`_unnamed` counts them (``coloured`` blacks included,
    the cubes' ``sides`` left out): whole objects of no known colour, not rims of named ones."""
    if sides is not None:
        classes = drop_sides(classes.copy(), sides)
    unnamed = classes == UNKNOWN
    unnamed[coloured] = True
    count, labels = cv2.connectedComponents((classes != BACKGROUND).view(np.uint8), connectivity=8)
    total = np.bincount(labels.ravel(), minlength=count)
    mostly = 2 * np.bincount(labels[unnamed], minlength=count) > total
    mostly[0] = False  # the tray
    return int(total[mostly].sum())


def _by_the_cubes(small: np.ndarray, references: Sequence[Reference], full_lut: np.ndarray,
                  empty_small: np.ndarray | None, plain: tuple[int, ...], surface: np.ndarray,
                  tray_reading: tuple[int, np.ndarray, np.ndarray, _Positions], bar: float,
                  sides: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray, _Positions]:
    """The frame's objects (everything but ``surface``) read under the frame's own light, then
    under the light its cubes imply (the gain that brings each named colour to its reference,
    :data:`CHART_ROUNDS` times): the reading that leaves the fewest pixels unnamed, if it
    leaves fewer than ``bar`` of the tray reading's (:func:`_tray_light_doubt`), else the
    tray reading. A reading is ``(unnamed, relit,
    classes, coloured blacks)``; the last three of the one kept are returned."""
    best = tray_reading
    unnamed_by_the_tray = tray_reading[0]
    relit = small
    for round_ in range(CHART_ROUNDS + 1):
        classes = _classes(relit, small, full_lut, empty_small)
        classes[surface] = BACKGROUND
        coloured = _coloured_plain(classes, small, plain)
        unnamed, _ = _unnamed(classes, coloured, sides)
        if unnamed < min(best[0], bar * unnamed_by_the_tray):
            best = (unnamed, relit, classes, coloured)
        gain = light.chart_gain(small, classes, references) if round_ < CHART_ROUNDS else None
        if gain is None:
            break
        relit = np.clip(small.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    return best[1:]


def _surface_by_its_looks(small: np.ndarray, relit: np.ndarray, surface: np.ndarray,
                          references: Sequence[Reference], ref_index: np.ndarray) -> np.ndarray:
    """``surface`` (where the tray's reading saw tray) without what the photo shows unlike
    the rest of it. Under a wrong light a bright cube can be darkened into one of the tray's
    looks; in the photo itself it is still unlike the surface around it. The pixels of each
    tray look are modelled as they are in the photo (fitted on the :data:`SURFACE_CORE`
    nearest their median, so a few cubes among them do not widen the model) and the pixels
    beyond :data:`REJECT_DISTANCE` of their look's model are not surface.

    The model allows no deeper shade of the look (:data:`SURFACE_SHADES`), where a reference
    learned at calibration allows the tray in shadow: fitted on this frame, it holds this
    frame's light already, and what is darker than it is a shadow — which the reading that
    follows names tray again — or a dark object. With the calibration's allowance a black
    cube on a dark surface passed as that surface in deep shadow, and was lost without a flag
    (``--surfaces``, the textured tray's calibration on the dark tray)."""
    nearest = ref_index[lut_index(relit)]
    lab = to_lab(small)
    keep = surface.copy()
    for k, ref in enumerate(references):
        if ref.code != BACKGROUND:
            continue
        look = surface & (nearest == k)
        px = lab[look]
        if len(px) < SURFACE_MIN_PIXELS:
            continue
        spread = np.abs(px - np.median(px, axis=0)).sum(axis=1)
        core = px[spread <= np.quantile(spread, SURFACE_CORE)]
        model = Reference.from_lab(BACKGROUND, core)
        keep[look] = model.distance(px, SURFACE_SHADES) <= REJECT_DISTANCE
    return keep


def _classes(relit: np.ndarray, small: np.ndarray, full_lut: np.ndarray,
             empty_small: np.ndarray | None) -> np.ndarray:
    """The class map of ``relit`` (``small`` corrected to the calibration light), with the
    empty photo's rules when one is given (see the module docstring)."""
    classes = classify(relit, full_lut)
    if empty_small is not None:
        classes[_unchanged(small, empty_small)] = BACKGROUND
        change = _largest_channel(cv2.absdiff(small, empty_small))
        # Changed since the empty photo, yet read as tray: a cube whose colour the light moved
        # onto one of the tray's looks — unless the change is one of light alone (a cube's
        # shadow, a reflection off it): the same factor in every channel, as bright as
        # shadows and reflections make the tray. Such a pixel is of no known colour, never tray.
        suspect = (change >= 2 * UNCHANGED) & (classes == BACKGROUND)
        if suspect.any():  # judged on every second pixel of every second row: a quarter of the time
            h, w = suspect.shape
            half = (max(1, w // 2), max(1, h // 2))
            alone = _light_alone(cv2.resize(small, half, interpolation=cv2.INTER_NEAREST),
                                 cv2.resize(empty_small, half, interpolation=cv2.INTER_NEAREST)).view(np.uint8)
            alone = cv2.resize(alone, (w, h), interpolation=cv2.INTER_NEAREST).view(bool)
            classes[suspect & ~alone] = UNKNOWN
    return classes


def _largest_channel(image: np.ndarray) -> np.ndarray:
    """Per pixel, the largest of the three channels."""
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r)


def _unchanged(small: np.ndarray, empty_small: np.ndarray) -> np.ndarray:
    """Where the frame still shows the empty photo (H×W bool): its means over
    :data:`CHANGE_BOX` pixels within the bar of the empty photo's in every channel.

    The bar follows the noise between the two photos: :data:`NOISE_BAR` times the frame's
    median change (+1 for the 8-bit rounding) — most of a tray is empty, so the median is what
    sensor noise, JPEG and a flicker of the light make there — and never above
    :data:`UNCHANGED`, the fixed bar it replaces. A fixed bar lost cubes in dim light: a green
    cube on green felt at two thirds of the light differed from the felt by 7 to 14 grey levels,
    was read green, and was made tray by the empty photo (three of eight lost, nothing said).
    On means, noise is a third of a pixel's, and a cube's change, the same over its face, is not."""
    box = (CHANGE_BOX, CHANGE_BOX)
    change = _largest_channel(cv2.absdiff(cv2.blur(small, box), cv2.blur(empty_small, box)))
    sample = change[::2, ::2]  # a quarter of the pixels tell the median as well
    median = histogram_percentile(np.bincount(sample.ravel(), minlength=256), 50.0)
    return change < min(UNCHANGED, NOISE_BAR * (median + 1))


_LOG = np.round(32.0 * np.log(np.arange(256) + 1.0)).astype(np.uint8)  # 32·ln(v + 1): ratios as differences


def _light_alone(small: np.ndarray, empty_small: np.ndarray) -> np.ndarray:
    """Where ``small`` differs from ``empty_small`` as light alone changes it: every channel by
    the same factor (within :data:`LIGHT_ONLY`), from ×0.4 to ×2.5 (``light.LEVEL_RANGE``).
    Factors are compared as differences of logarithms (steps of about 3 %), in integers."""
    ratio = cv2.subtract(cv2.LUT(small, _LOG), cv2.LUT(empty_small, _LOG), dtype=cv2.CV_16S)
    b, g, r = cv2.split(ratio)
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    level = cv2.add(cv2.add(b, g), r)  # three times the mean log-factor
    low, high = (3 * 32.0 * np.log(v) for v in light.LEVEL_RANGE)
    return (spread <= 32.0 * np.log(LIGHT_ONLY)) & (level >= low) & (level <= high)
