"""Counting the cubes in the tray: relight → class map → blobs → cubes, each with how sure.

Rules the count follows (documented for players in docs/vision.md):
- A cube counts when the centre of its visible face lies inside the tray outline (ROI), so a
  cube cut by the outline counts once or not at all, never twice.
- Two colours that meet are two objects: blobs are cut where the *sides* of two colours meet —
  each colour's solid regions (what survives opening with a disc of ``SOLID`` of a cube's
  radius: rims and reflections do not) grown over the pixels around them, pixels of no colour
  excepted, so an object the counter cannot name stays whole in its blob
  (:func:`companion.vision.segment.colour_sides`).
- The size of one cube is read from the frame itself (:mod:`companion.vision.sizing`), from its
  lone objects (blobs shaped like one object, see below, of a plausible area): their median
  area over the calibrated cube's (without a tray outline, at least two of them, each with
  tray all round it: seen from the side, a block cut from a pile by its colour is only the
  part the others leave in view). The camera
  may sit higher or lower than at calibration: with a tray outline (a camera fixed to the
  tower) by ×0.7 to ×1.5 (±30 % of height); without one, photos may come from any distance
  (×0.5 to ×2). A frame of clusters only (with an outline)
  is bracketed by its narrowest cluster (never narrower than one cube; a T turned 45° about
  1.4× wider) and takes, within that bracket, the size that makes each colour of every
  cluster closest to a whole number of cubes — each colour, because a cluster's whole area is
  often whole at a wrong size too (a red and two greens 13 % smaller are two cubes' area 6 %
  larger); without an outline, where objects differ in size, the median width of its
  clusters (a chain is about as wide as one object; a cluster of several colours, each with
  a quarter of its colour pixels, by each colour's part: a pile seen from the side is
  several objects wide; when every cluster is wider than ×2, the median of those: the camera
  is nearer than foreseen; when nothing can vote because every object is under ×0.5 the
  calibrated size (and ×0.25 or over), the camera is farther away than foreseen — calibrated on a
  close-up — and the frame is read again at a working scale fine enough for objects of
  their median size, and sized there by its own objects) — a guess, so every blob counted
  in such a frame is *doubtful* (size): a row of blocks standing up is as wide as one is
  long, and four of them read as one; four packed in a square are shaped like one object, and
  a frame whose only pile that is takes its width for one block's. So is, without an outline, every
  blob counted as more objects than it has separate cores: seen from the side, a pile's front
  hides part of what lies behind it, and its area undercounts.
- A blob holds ``round(area / one cube)`` objects — its area counting every pixel of a
  colour, ambiguous or not, and the pixels of no colour inside it (dark bevels, glare, rims) —
  and never fewer than it has separate cores (parts deeper than 0.65 of a cube's radius):
  touching round objects meet at a narrow waist, which splits their cores. When the samples
  are round (sweets, beads: no polygon of six corners fits them, while a cube or a block from
  any side is one — see :func:`companion.vision.samples.is_round`), objects also differ in
  size, so the cores are counted at several depths (0.5 to 1 radius), the most win, and that
  number stands unless the area says 0.75 of an object more.
- A blob of one colour (80 % of its votes) with no waist (convex: solidity ≥ 0.92, thin rims
  aside — but if opening the rims away leaves two pieces of a quarter of a cube each, those are
  two objects whose shadows joined), no more than 1.7 times as long as it is wide, is *one*
  object as long as its area is under 2.2 cubes — two touching cubes make a rectangle twice as
  long as wide, and a 2×2 block has four cubes' area — even when it is small (down to 0.3 of a
  cube, when its radius is at least half a cube's).
- Where the calibration saw its samples from the side (a top and a side lit differently:
  blocks photographed at an angle), a blob's objects of each colour are its faces *lit
  alike* — pieces of that colour cut apart by edges in the lightness, grouped into layers of
  like lightness (tops, fronts, sides); a block shows one face per layer, so the fullest layer
  counts the blocks (:mod:`companion.vision.lit_faces`); where the area says otherwise the
  blob is doubtful. There a block's face read as tray beside its own colour (paler than its
  sample under the lamp, or burnt out: :mod:`companion.vision.faces`) is taken for that
  colour before the blobs are counted — kept out of the blob's mean colour; from below, such
  a face stays said, never counted.
- Which colour each object is: :mod:`companion.vision.placing`.
- The confidence of a cube is ``1 − 2·|area ratio − n|`` (0 halfway between two counts) times
  the share of its blob's votes that agree with the colours given out, times the share of its
  pixels of a known colour, halved when its colour is doubtful. A blob more than 0.3 from a
  whole number of cubes is *doubtful* (size); so is one whose mean colour lies nearly as close
  to another colour (colour).
- A blob mostly of no calibrated colour, or an object whose mean colour is far from every
  reference of the colour its pixels lean to (a cube of a colour with no sample, a token), is
  ``unknown``: reported, never guessed. So is a blob holding a *solid* piece of no colour of
  half a cube (what survives opening with a disc of a cube's radius — rims and glare do not),
  and that piece's area makes no cubes — unless the blob's pixels of no colour are a shade of
  one of its colours (near it and of its hue): the side of a block in deeper shadow.
- Before the blobs are formed, a piece of pixels of no calibrated colour (a tenth of a cube
  or more) whose mean colour is a colour *by margin* — within ``NO_COLOUR_AT_ALL`` of it,
  every other colour ``CLEAR_MARGIN`` times farther, of its hue — takes that colour: a block
  deeper or more saturated than its sample is beyond every colour pixel by pixel, not on average.
- Nothing of a third of a cube vanishes unsaid: a colour with that much of its own pixels in a
  blob but no place in it, a blob of a third to half a cube not shaped like one object, a
  smaller one (down to a tenth) as deep in its own pixels as half a cube's radius — what is
  left of a block whose face reads as tray, or that the frame's size misjudges; a rim or a
  speck is thin — and, without an outline (the frame's size a guess), one of a third of the
  calibrated cube, and a block's face read as tray beside its own colour
  (:mod:`companion.vision.faces`; said from a fainter colour, :data:`SAID_HUE`, than it is
  taken for its block from) are ``doubtful`` ("0 or 1?"); without the empty photo, a
  solid patch read as tray that is clearly coloured and of no hue of the tray look it was
  read as, beside no block of its hue, is ``unknown``.
- A cube lying on top of another hides it; the camera cannot count what it does not see.
"""

from __future__ import annotations

import math
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.vision import light
from companion.vision.black_level import dark_levels, lift_of, remove_lift
from companion.vision.calibration import WORKING_SIDE, Calibration, check_empty, check_image
from companion.vision.classify import AMBIGUOUS, BACKGROUND, UNKNOWN, cell_colours, of_colour
from companion.vision.colors import CUBE_COLORS
from companion.vision.errors import ImageSizeError
from companion.vision.faces import BESIDE_ONLY, burnt_face_table, burnt_pixels, face_table, faces_read_as_tray
from companion.vision.frontend import NO_HUE, PLAIN, class_map
from companion.vision.lens import picture_points, straight_box, straight_points, straighten
from companion.vision.lit_faces import FACE_AREA, enlarged, lightness_edges, lit_faces, shows_a_side
from companion.vision.naming import NO_SUCH_COLOUR, SAME_HUE, colour_doubts, name_by_margin, shade_of_its_colour
from companion.vision.perspective import drop_sides, towards_centre
from companion.vision.placing import cube_centres, place_objects
from companion.vision.segment import N_CLASSES, Blobs, class_sums, cores, find_blobs
from companion.vision.sizing import COMPACT, FrameSize, Shapes, farther_than_foreseen, size_factor
from companion.vision.tray import look_alike

MIN_FRACTION = 0.5  # less than half a cube's area of a colour in a blob is a rim, not a cube
UNKNOWN_SHARE = 0.5  # a blob is unknown when at least this share of it has no known colour
# Objects of a frame that show a top and a side before a free camera calibrated from above is
# taken to see this frame from the side (one may be a cube crossed by a hard shadow).
SIDE_WITNESSES = 2
SIZE_DOUBT = 0.3  # a cluster ratio this far from a whole number is doubtful
UNPLACED = 0.3  # a colour with this share of an object of its own pixels and no place is doubtful
CORE_DEPTH = 0.65  # of a cube's radius: deeper than this is a cube's core (see segment.cores)
PEAK_DEPTHS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)  # round objects: cores counted at each depth, the most win
ROUND_SLACK = 0.75  # round objects: area may exceed the waists' count by this much and not add one
ONE_COLOUR = 0.8  # share of a blob's colour votes for one colour that makes it one-coloured
SOLID = 0.5  # of a cube's radius: a region that survives opening with a disc this wide is solid, no rim
BRIDGE = 0.5  # cube sides: sides this wide between two cubes of a pile add half a cube to its area, and the count rounds up
CRUMB = 0.3  # of a cube's area: a blob this large is an object, or a crumb said "0 or 1?" …
DEEP = 0.5  # … and so is a smaller one this deep in its own pixels (of a cube's radius) …
DEEP_AREA = 0.1  # … down to this share of a cube's area
SAID_HUE = 0.75 * NO_HUE  # Lab chroma from which a face read as tray is said (taken from NO_HUE on)
SIDES_AGAIN = 0.1  # a frame's cubes this much larger or smaller than at calibration: their sides taken off again


@dataclass(frozen=True)
class CubeDetection:
    color: str
    x: float  # centre in camera pixels
    y: float
    confidence: float  # 0..1
    bbox: tuple[int, int, int, int]  # x, y, w, h of the blob it belongs to, camera pixels


@dataclass(frozen=True)
class Doubt:
    """A blob the counter is unsure about, for the players to look at first."""

    color: str  # the colour it was counted as
    cubes: int  # how many cubes it was counted as
    reason: str  # "size" (between two numbers of cubes) or "colour" (between two colours)
    alternative: str  # the other reading: "2" cubes, or the other colour's name
    x: float  # centre, camera pixels
    y: float
    bbox: tuple[int, int, int, int]

    def to_json(self) -> dict:
        return {"color": self.color, "cubes": self.cubes, "reason": self.reason,
                "alternative": self.alternative, "x": round(self.x, 1), "y": round(self.y, 1),
                "bbox": list(self.bbox)}


@dataclass(frozen=True)
class TrayCount:
    counts: dict[str, int]  # per colour, zero counts omitted
    cubes: tuple[CubeDetection, ...]
    unknown: int  # blobs of no calibrated colour inside the tray outline
    ms: float  # time taken by count_cubes
    unknown_boxes: tuple[tuple[int, int, int, int], ...] = field(default=())
    confidence: dict[str, float] = field(default_factory=dict)  # per counted colour, 0..1
    doubtful: tuple[Doubt, ...] = field(default=())  # least sure first
    size_factor: float = 1.0  # cube size in this frame over the calibrated size

    def to_json(self, image: str | None = None) -> dict:
        """The JSON object of ``companion vision count --json`` (DESIGN.md)."""
        out: dict = {} if image is None else {"image": image}
        out["counts"] = dict(self.counts)
        out["cubes"] = [{"color": c.color, "x": round(c.x, 1), "y": round(c.y, 1),
                         "confidence": round(c.confidence, 2)} for c in self.cubes]
        out["unknown"] = self.unknown
        out["confidence"] = {c: round(v, 2) for c, v in self.confidence.items()}
        out["doubtful"] = [d.to_json() for d in self.doubtful]
        out["size_factor"] = round(self.size_factor, 3)
        out["ms"] = round(self.ms, 1)
        return out


@dataclass(frozen=True)
class _Geometry:
    scale: int
    crop: tuple[int, int, int, int]  # x0, y0, x1, y1 in camera pixels: the outline plus a cube
    unit_area: float  # one cube's blob area at calibration, working pixels
    unit_radius: float  # one cube's blob radius at calibration, working pixels
    roi_mask: np.ndarray | None  # working resolution over the crop, 1 inside the outline
    colour_refs: tuple  # (code, mean, inverse covariance, shades) of every cube reference
    tray_cells: np.ndarray | None  # the calibration's tray over the crop, on the light grid
    alike: tuple[tuple[int, int], ...]  # pairs of colour codes the calibration warns look alike
    # Where each working pixel's point one band of sides nearer the picture's centre lies (see
    # perspective); None where the calibration saw no sides.
    towards_centre: tuple[np.ndarray, np.ndarray] | None = None
    # A lens that bends the picture (see lens): the camera pixels x0, y0, x1, y1 of the photo
    # the crop's straight picture comes from, and where each working pixel of the crop lies in
    # that part shrunk (the maps cv2.remap takes); None for a straight lens.
    lens: tuple[tuple[int, int, int, int], np.ndarray, np.ndarray] | None = None


_GEOMETRY: "weakref.WeakKeyDictionary[Calibration, dict]" = weakref.WeakKeyDictionary()
_FACE_TABLES: "weakref.WeakKeyDictionary[Calibration, _FaceTables]" = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class _FaceTables:
    """A calibration's tables of the colours a pixel read as tray could be a face of (see
    :mod:`~companion.vision.faces`): ``lit`` for a face taken for its block, ``burnt`` for a
    pixel at the sensor's ceiling, ``said`` for a face only said."""

    lit: np.ndarray
    burnt: np.ndarray
    said: np.ndarray


def _face_tables(cal: Calibration) -> _FaceTables:
    """The calibration's :class:`_FaceTables`, built on first use: a face is clearly coloured
    from :data:`~companion.vision.frontend.NO_HUE` on, and said from :data:`SAID_HUE` on —
    beside its colour only: an unexplained patch still needs ``NO_HUE``; a pixel at the
    sensor's ceiling has hue from :data:`~companion.vision.frontend.PLAIN` on."""
    tables = _FACE_TABLES.get(cal)
    if tables is None:
        said = face_table(cal.references, cal.tables[1], SAME_HUE, SAID_HUE)
        # The floor only decides which cells are clearly coloured: the table from NO_HUE on
        # is the one from SAID_HUE on with the cells under NO_HUE emptied (built once, not twice).
        _, lab = cell_colours()
        faint = np.hypot(lab[:, 1] - 128.0, lab[:, 2] - 128.0) < NO_HUE
        lit = np.where(faint, 0, said).astype(np.uint8)
        # Between the two floors a colour is a face beside its colour only, and one of no
        # colour's hue a stray joined to a face only: away from every block neither is an
        # unexplained patch (wood grain of a red hue on another tray).
        said[faint & (said > 0) & (said <= UNKNOWN)] += BESIDE_ONLY
        tables = _FACE_TABLES[cal] = _FaceTables(lit, burnt_face_table(cal.references, cal.tables[1], SAME_HUE, PLAIN),
                                                 said)
    return tables


def _face_table(cal: Calibration) -> np.ndarray:
    """The calibration's :func:`~companion.vision.faces.face_table`, built on first use."""
    return _face_tables(cal).lit


def _geometry(cal: Calibration, width: int, height: int, zoom: float = 1.0) -> _Geometry:
    """Scale, crop and outline for a photo of this size (photos may be smaller or larger than at
    calibration: everything scales with the width), its cubes ``zoom`` times the calibrated
    size (a free camera farther away: :func:`~companion.vision.sizing.farther_than_foreseen`).
    Cached per calibration, photo size and zoom."""
    per_cal = _GEOMETRY.setdefault(cal, {})
    geo = per_cal.get((width, height, zoom))
    if geo is not None:
        return geo
    cal_w, cal_h = cal.image_size
    # The outline as it lies in the straight picture (see lens), where every count is made.
    outline = None if cal.roi is None else straight_points(cal.roi, cal.barrel, cal.image_size, cal.keystone)
    if cal.roi is None:  # no outline to place: any photo, the long sides compared
        factor = max(width, height) / max(cal_w, cal_h)
    elif abs(width / cal_w - height / cal_h) > 0.02 * width / cal_w:
        raise ImageSizeError(f"The photo is {width}×{height} but the calibration was made on "
                             f"{cal_w}×{cal_h} photos: another camera or another orientation, "
                             "so the tray outline does not fit. Calibrate with this camera.")
    else:
        factor = width / cal_w
    size = factor * zoom  # one cube in this photo over one in the calibration photo
    side = cal.cube_side * size
    scale = cal.scale if size == 1 else max(1, min(6, int(side * (1 + cal.barrel) / WORKING_SIDE)))
    # All cubes are one size: the median over every sample is steadier than one sample's.
    unit_area = float(np.median([cal.cube_area[c] for c in cal.colors])) * size ** 2 / scale ** 2
    unit_radius = float(np.median([cal.cube_radius[c] for c in cal.colors])) * size / scale
    x0, y0, x1, y1 = 0, 0, width, height
    if cal.roi is not None:  # only the outline and a cube around it matter: less to compute
        pts = outline * factor
        margin = int(math.ceil(side)) + 2
        x0 = max(0, int(pts[:, 0].min()) - margin) // scale * scale
        y0 = max(0, int(pts[:, 1].min()) - margin) // scale * scale
        x1 = min(width, int(math.ceil(pts[:, 0].max())) + margin)
        y1 = min(height, int(math.ceil(pts[:, 1].max())) + margin)
    # Whole cells of the light grid (and so whole working pixels): OpenCV then takes its fast
    # integer paths for halving and for the cell averages.
    step = scale * light.CELL
    x0, x1 = _align(x0, x1, step, width)
    y0, y1 = _align(y0, y1, step, height)
    roi_mask = None
    if cal.roi is not None:
        roi_mask = np.zeros(((y1 - y0) // scale, (x1 - x0) // scale), np.uint8)
        local = (outline * factor - (x0, y0)) / scale
        cv2.fillPoly(roi_mask, [np.round(local * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    cubes = [r for r in cal.references if r.code != BACKGROUND]
    refs = tuple((r.code, *r.metric(), r.shades) for r in cubes)
    cells = None
    if cal.tray_cells is not None and size == 1 and scale == cal.scale:
        step = scale * light.CELL
        cells = cal.tray_cells[y0 // step:y1 // step, x0 // step:x1 // step]
    alike = tuple(sorted({(min(a.code, b.code), max(a.code, b.code)) for a, b in look_alike(cubes)}))
    reach = cal.side_reach * math.sqrt(unit_area) if roi_mask is not None else 0.0
    sides = towards_centre(roi_mask.shape, (width, height), (x0, y0), scale, reach) if reach else None
    lens = _lens_maps(cal, (width, height), (x0, y0, x1, y1), scale) if cal.straightened else None
    geo = _Geometry(scale, (x0, y0, x1, y1), unit_area, unit_radius, roi_mask, refs, cells, alike, sides, lens)
    per_cal[(width, height, zoom)] = geo
    return geo


def _lens_maps(cal: Calibration, size: tuple[int, int], crop: tuple[int, int, int, int], scale: int
               ) -> tuple[tuple[int, int, int, int], np.ndarray, np.ndarray]:
    """For the calibration's lens and lean (see lens, keystone) and the straight picture's
    ``crop`` (camera pixels of a photo of ``size``) at 1/``scale``: the part of the photo it
    comes from (camera pixels, on the working grid) and, for every working pixel of the crop,
    where it lies in that part shrunk. Straightened at working resolution, a count pays a remap
    of a fifth of a megapixel, not of the whole photo."""
    x0, y0, x1, y1 = crop
    h, w = (y1 - y0) // scale, (x1 - x0) // scale
    centre = (scale - 1) / 2.0  # a working pixel's centre, in camera pixels from its corner
    xs, ys = np.meshgrid(x0 + centre + scale * np.arange(w), y0 + centre + scale * np.arange(h))
    seen = picture_points(np.stack([xs.ravel(), ys.ravel()], axis=1), cal.barrel, size, cal.keystone)
    sx0, sy0 = (max(0, (int(v) - 2 * scale) // scale * scale) for v in seen.min(axis=0))
    sx1, sy1 = (min(limit // scale * scale, -(-(int(v) + 2 * scale) // scale) * scale)
                for v, limit in zip(seen.max(axis=0), size))
    map_x = ((seen[:, 0] - sx0 - centre) / scale).reshape(h, w).astype(np.float32)
    map_y = ((seen[:, 1] - sy0 - centre) / scale).reshape(h, w).astype(np.float32)
    first, second = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
    return (sx0, sy0, sx1, sy1), first, second


def _shrunk(image: np.ndarray, geo: _Geometry) -> np.ndarray:
    """The crop of a photo at working resolution — of its straight picture, where the lens bends it."""
    if geo.lens is None:
        x0, y0, x1, y1 = geo.crop
        return light.shrink(image[y0:y1, x0:x1], geo.scale)
    (x0, y0, x1, y1), first, second = geo.lens
    return cv2.remap(light.shrink(image[y0:y1, x0:x1], geo.scale), first, second, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE)


def _align(lo: int, hi: int, step: int, limit: int) -> tuple[int, int]:
    """``lo..hi`` grown to whole cells of ``step`` on the picture's own cell grid (so that the
    calibration's tray cells line up), and shrunk to whole cells at the picture's edge."""
    lo = lo // step * step
    hi = min(-(-hi // step) * step, limit // step * step or limit)
    return lo, max(hi, lo + min(step, limit - lo))


def _inside(geo: _Geometry, x: float, y: float) -> bool:
    if geo.roi_mask is None:
        return True
    h, w = geo.roi_mask.shape
    xi, yi = int(x), int(y)
    return 0 <= xi < w and 0 <= yi < h and bool(geo.roi_mask[yi, xi])


def _holds(box: tuple[int, int, int, int], x: float, y: float) -> bool:
    """Whether a box (x, y, w, h, camera pixels) holds the point."""
    bx, by, bw, bh = box
    return bx <= x <= bx + bw and by <= y <= by + bh


def _camera_box(geo: _Geometry, blobs: Blobs, label: int) -> tuple[int, int, int, int]:
    """A blob's bounding box in camera pixels."""
    return _camera_rect(geo, tuple(int(v) for v in blobs.stats[label, :4]))


def _camera_rect(geo: _Geometry, box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """A box (x, y, w, h) of the working image in camera pixels."""
    x, y, w, h = box
    return (*_camera_point(geo, x, y), w * geo.scale, h * geo.scale)


def _unknown_piece(blobs: Blobs, classes: np.ndarray, label: int, radius: float) -> float:
    """The area (working pixels) of the largest piece of no calibrated colour in a blob that
    is solid, not a rim: what is left after opening with a disc of one cube's ``radius``
    (about half its side) — a glare spot or a bevel does not survive that, a cube's face does."""
    mine, (x, y, w, h) = blobs.own(label)
    strange = (mine & (classes[y:y + h, x:x + w] == UNKNOWN)).view(np.uint8)
    k = max(3, int(radius) | 1)
    opened = cv2.morphologyEx(strange, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, _, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=4)
    return float(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0.0


def count_cubes(image: np.ndarray, calibration: Calibration,
                empty: np.ndarray | None = None) -> TrayCount:
    """Count the cubes in a tray photo.

    ``empty`` is a photo of the empty tray, best taken just before the throw (same light): the
    light correction then comes from it, and nothing that was already there counts. Without
    it the light is read from the frame's own tray. Raises :class:`ImageReadError` /
    :class:`ImageSizeError` for unusable photos. Guarantees: counts are never negative, every
    counted cube's centre lies in the tray outline (its sides as straight as the tray's, where
    a lens bends the picture: see :mod:`~companion.vision.lens`), every doubtful blob is listed,
    and every position is in the photo's own pixels.

    The stages, each a function below — on the photo straightened first where the calibration
    learned a lens that bends it or a camera that leans
    (:func:`~companion.vision.lens.straighten`): :func:`_read_frame` (relight and classify),
    :func:`_read_blobs` (objects found, unknown ones set apart), the frame's cube size
    (:func:`~companion.vision.sizing.size_factor`), for blocks seen from the side (the
    calibration's samples showed it, or, for a free camera, :func:`_shows_sides`)
    :func:`_faces_taken` (faces read as tray taken for their block, the blobs read again),
    :func:`_count_blobs` (how many objects each
    blob holds, and where; for blocks seen from the side :func:`_by_lit_faces`),
    :func:`_report` (cubes, colours, doubts) and :func:`_say_faces` (what reads as tray but is
    not).
    """
    _ = calibration.tables  # built once per calibration, on first use; not part of a count's time
    face_cells = _face_tables(calibration)  # likewise
    start = time.perf_counter()
    image = check_image(image)
    empty = check_empty(empty, image, "the tray photo")
    geo = _geometry(calibration, image.shape[1], image.shape[0])
    relit, classes, read, burnt = _read_frame(image, empty, calibration, geo)
    found = _read_blobs(geo, classes, relit)
    shapes, (factor, guessed, measured) = _frame_size(geo, found, classes)
    if read is not None and abs(factor - 1.0) > SIDES_AGAIN:
        # Cubes of another size than at calibration show sides as much wider: taken off again
        # at this frame's size (the first size, read with sides left on or faces cut, is off).
        classes = _without_sides(geo, read, relit, towards_centre(
            geo.roi_mask.shape, image.shape[1::-1], geo.crop[:2], geo.scale,
            calibration.side_reach * math.sqrt(geo.unit_area) * factor))
        found = _read_blobs(geo, classes, relit)
        shapes, (factor, guessed, measured) = _frame_size(geo, found, classes)
    zoom = 1.0
    if not measured and geo.roi_mask is None:
        # Nothing could size the frame, its objects all smaller than a vote allows: a free
        # camera farther away than at calibration. Read again at a working scale fine enough
        # for objects of their size, and sized there by its own objects.
        far = farther_than_foreseen(found.area, np.flatnonzero(found.coloured), geo.unit_area)
        if far is not None:
            zoom = far
            geo = _geometry(calibration, image.shape[1], image.shape[0], zoom)
            relit, classes, read, burnt = _read_frame(image, empty, calibration, geo)
            found = _read_blobs(geo, classes, relit)
            shapes, (factor, _, _) = _frame_size(geo, found, classes)
            guessed = True  # the calibration's size did not hold: every count rests on this frame's guess
    unit = geo.unit_area * factor * factor  # one cube's area in this frame, working pixels
    from_side = calibration.seen_from_side or (
        geo.roi_mask is None and not calibration.round_objects and _shows_sides(geo, image, classes, found, unit))
    taken = None
    if from_side:  # a face read as tray beside its block is part of it
        taken = _faces_taken(geo, classes, relit, burnt, face_cells, unit, factor)
        if taken is not None:
            classes = taken.classes
            found = _read_blobs(geo, classes, relit)
            shapes = Shapes(found.blobs, geo.unit_radius)
    counted, crumbs, waists = _count_blobs(geo, found, shapes, factor, unit, calibration.round_objects, classes, relit)
    if from_side:  # blocks by their faces lit alike, not their area
        counted = _by_lit_faces(geo, straighten(image, calibration.barrel, calibration.keystone), classes, found,
                                counted, unit)
    cubes, doubts = _report(geo, found, counted, crumbs, waists, unit, guessed, classes,
                            None if taken is None else taken.colours(found.blobs, relit))
    # The cubes' sides the lens sees are not tray that looks like a face: judged as read.
    _say_faces(geo, classes if read is None else read, relit, burnt, face_cells, unit, factor, empty is None,
               found.unknown_boxes, doubts)
    counts: dict[str, int] = {}
    sure: dict[str, float] = {}
    for c in cubes:
        counts[c.color] = counts.get(c.color, 0) + 1
        sure[c.color] = min(sure.get(c.color, 1.0), c.confidence)
    doubtful = tuple(d for _, d in sorted(doubts, key=lambda item: item[0]))
    unknown_boxes = tuple(found.unknown_boxes)
    if calibration.straightened:  # where the photo itself shows them
        cubes, unknown_boxes, doubtful = _in_photo(calibration, image.shape[1::-1], cubes, unknown_boxes,
                                                   doubtful)
    ms = (time.perf_counter() - start) * 1000.0
    return TrayCount(counts, tuple(cubes), len(unknown_boxes), ms, unknown_boxes, sure, doubtful, factor * zoom)


def _in_photo(cal: Calibration, size: tuple[int, int], cubes: Sequence[CubeDetection],
              unknown_boxes: tuple[tuple[int, int, int, int], ...], doubtful: tuple[Doubt, ...]):
    """The cubes, unknown boxes and doubts of a count on the straight picture, moved to where
    the photo of ``size`` shows them (see lens)."""
    def moved(item):
        (x, y), = picture_points(np.array([(item.x, item.y)]), cal.barrel, size, cal.keystone)
        return replace(item, x=float(x), y=float(y), bbox=box(item.bbox))

    def box(b):
        return straight_box(b, cal.barrel, size, inverse=True, keystone=cal.keystone)

    return ([moved(c) for c in cubes], tuple(box(b) for b in unknown_boxes),
            tuple(moved(d) for d in doubtful))


def _frame_size(geo: _Geometry, found: "_BlobReading", classes: np.ndarray) -> tuple[Shapes, FrameSize]:
    """Stage 3: the frame's blobs' shapes and its cube size over ``geo``'s
    (:func:`~companion.vision.sizing.size_factor`); blobs of a colour with a fifth of a cube's
    area or more vote."""
    shapes = Shapes(found.blobs, geo.unit_radius)
    voters = np.flatnonzero(found.coloured & (found.area >= 0.2 * geo.unit_area))
    colour_px = found.colour_pixels  # the blob's area shared out by its colours' pixels
    colour_area = colour_px * (found.area / np.maximum(colour_px.sum(axis=1), 1.0))[:, None]
    return shapes, size_factor(found.blobs, shapes, voters, found.area, colour_area, geo.unit_area,
                               geo.unit_radius, geo.roi_mask is not None, classes, geo.alike)


def _read_frame(image: np.ndarray, empty: np.ndarray | None, calibration: Calibration,
                geo: _Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
    """Stage 1: the crop at working resolution relit to the calibration light, its class
    map — blacks lifted since calibration taken off (haze, see
    :mod:`~companion.vision.black_level`), the cubes' sides the lens sees taken off (see
    :mod:`~companion.vision.perspective`), and pieces of no colour named by their mean colour
    where it is a colour by margin (:func:`~companion.vision.naming.name_by_margin`) — the
    class map as read before the sides were taken off (None when there were none to take),
    and where the camera's sensor was at its ceiling (:func:`~companion.vision.faces.burnt_pixels`)."""
    small = _shrunk(image, geo)
    burnt = burnt_pixels(small)
    empty_small = None if empty is None else _shrunk(empty, geo)
    relit, classes = class_map(small, calibration.references, calibration.tables, calibration.tray_bgr,
                               empty_small, geo.tray_cells, geo.towards_centre)
    lift = 0.0
    if calibration.dark is not None:  # haze: blacks lifted since calibration (see black_level)
        lift = lift_of(dark_levels(small, classes, geo.roi_mask), calibration.dark, calibration.dark_codes)
    if lift:
        small = remove_lift(small, lift)
        empty_small = None if empty_small is None else remove_lift(empty_small, lift)
        relit, classes = class_map(small, calibration.references, calibration.tables, calibration.tray_bgr,
                                   empty_small, geo.tray_cells, geo.towards_centre)
    if geo.towards_centre is None:
        name_by_margin(geo.colour_refs, geo.unit_area, classes, relit)
        return relit, classes, None, burnt
    return relit, _without_sides(geo, classes, relit, geo.towards_centre), classes, burnt


def _without_sides(geo: _Geometry, read: np.ndarray, relit: np.ndarray,
                   maps: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """A copy of the class map ``read`` with the cubes' sides taken off along ``maps`` (see
    :mod:`~companion.vision.perspective`) and pieces of no colour named by margin."""
    classes = drop_sides(read.copy(), maps)
    name_by_margin(geo.colour_refs, geo.unit_area, classes, relit)
    return classes


@dataclass
class _BlobReading:
    """Stage 2: the blobs of a class map and what each holds (one row per label; 0 the tray)."""

    blobs: Blobs
    total: np.ndarray  # pixels
    strange: np.ndarray  # pixels of no calibrated colour
    confident: np.ndarray  # labels × colours: pixels of each colour, sure
    ambiguous: np.ndarray  # … nearly as close to the next colour
    votes: np.ndarray  # labels × colours: confident pixels, ambiguous ones a quarter
    area: np.ndarray  # working pixels that make cubes (see _read_blobs)
    has_colour: np.ndarray  # bool per label
    is_unknown: np.ndarray  # bool per label: mostly of no calibrated colour
    named_not: set[int]  # labels holding a solid piece of no colour (reported unknown, no cubes)
    unknown_boxes: list[tuple[int, int, int, int]]  # camera pixels, in the order they were found

    @property
    def colour_pixels(self) -> np.ndarray:
        """Labels × colours: each colour's pixels, sure or ambiguous."""
        return self.confident + self.ambiguous

    @property
    def coloured(self) -> np.ndarray:
        """Per label, whether the blob may hold objects of a colour: it has colour pixels and
        is not mostly of no colour."""
        return self.has_colour & ~self.is_unknown


def _read_blobs(geo: _Geometry, classes: np.ndarray, relit: np.ndarray) -> _BlobReading:
    """Stage 2: blobs cut where two colours meet, unknown blobs set apart and boxed, and each
    blob's area in pixels that make cubes."""
    # Two colours that meet are two objects (unless the calibration found them alike): blobs
    # are cut between colours' solid regions.
    blobs = find_blobs(classes, relit, int(round(SOLID * geo.unit_radius)) | 1, geo.alike)
    hist = blobs.histogram
    total = np.maximum(hist.sum(axis=1), 1)
    strange = hist[:, UNKNOWN]
    is_unknown = (strange >= UNKNOWN_SHARE * total) & (strange >= MIN_FRACTION * geo.unit_area)
    is_unknown[0] = False
    # A block's side in shadow, darker than any light the colour was calibrated under, reads
    # as no colour — but beside that colour's own pixels and of its hue, it is that block.
    shaded = np.zeros(len(hist), bool)
    for label in np.flatnonzero(strange >= MIN_FRACTION * geo.unit_area):
        shaded[label] = label > 0 and shade_of_its_colour(geo.colour_refs, blobs, int(label),
                                                          UNPLACED * geo.unit_area)
    is_unknown &= ~shaded
    unknown_boxes = []
    for label in np.flatnonzero(is_unknown):
        bx, by, bw, bh = (int(v) for v in blobs.stats[label, :4])
        if _inside(geo, bx + bw / 2, by + bh / 2):
            unknown_boxes.append(_camera_box(geo, blobs, label))

    # How many cubes: the blob's cube area — every pixel of a colour, ambiguous or not, plus
    # pixels of no counted colour inside a cube blob (dark bevels, glare, rims) — over one
    # cube's area at this frame's cube size. Which colours: see placing.py; confident pixels
    # vote fully, ambiguous ones (the next colour nearly as close) a quarter. In an unknown
    # blob (a foreign object touching cubes) only the colour pixels make cubes: whole cubes
    # beside the object still count.
    confident = hist[:, 1:UNKNOWN].astype(np.float64)
    ambiguous = hist[:, 1 + AMBIGUOUS:UNKNOWN + AMBIGUOUS].astype(np.float64)
    votes = confident + 0.25 * ambiguous
    area = np.where(is_unknown, (confident + ambiguous).sum(axis=1), hist[:, 1:].sum(axis=1))
    area[0] = 0.0  # label 0 is the tray
    has_colour = votes.sum(axis=1) > 0
    # Half an object of no calibrated colour in one solid piece among cubes is something the
    # counter cannot name lying in the pile (a cube of a colour with no sample, one the light
    # moved far, a die): reported unknown later, and its area makes no cubes (nor sizes the frame).
    named_not = set()
    for label in np.flatnonzero(has_colour & ~is_unknown & ~shaded & (strange >= MIN_FRACTION * geo.unit_area)):
        piece = _unknown_piece(blobs, classes, int(label), geo.unit_radius)
        if piece >= MIN_FRACTION * geo.unit_area:
            named_not.add(int(label))
            area[label] -= piece
    return _BlobReading(blobs, total, strange, confident, ambiguous, votes, area, has_colour, is_unknown,
                        named_not, unknown_boxes)


def _count_blobs(geo: _Geometry, found: _BlobReading, shapes: Shapes, factor: float, unit: float,
                 round_objects: bool, classes: np.ndarray, relit: np.ndarray
                 ) -> tuple[list, list[tuple[int, float]], np.ndarray]:
    """Stage 4: how many objects each blob holds at the frame's cube size (``factor`` of the
    calibrated one, ``unit`` working pixels of area), and which colour each is and where
    (:func:`~companion.vision.placing.place_objects`).

    Returns the counted blobs as (label, area ratio, objects, placed objects, by shape), the
    crumbs as (label, ratio) — a third to half of an object, counted as none, and the smaller
    blobs still an object's (:func:`_small_objects`) — and each blob's number of separate cores."""
    cube_blobs = np.flatnonzero(found.has_colour & (found.area >= CRUMB * unit))
    depths = PEAK_DEPTHS if round_objects else (CORE_DEPTH,)
    waists = np.max([cores(found.blobs, d * geo.unit_radius * factor) for d in depths], axis=0)
    counted = []  # (label, ratio, n, objects, by_shape)
    crumbs = [(label, float(found.area[label] / unit)) for label in _small_objects(geo, found, unit, factor)]
    for label in cube_blobs:
        votes = found.votes[label]
        ratio = float(found.area[label] / unit)
        n = max(int(ratio + 0.5), int(waists[label]))  # half up: round(0.5) is 0 in Python
        if round_objects and 1 <= waists[label] and ratio <= waists[label] + ROUND_SLACK:
            n = int(waists[label])  # round objects of mixed sizes: their waists count, not area
        one_colour = votes.max() >= ONE_COLOUR * votes.sum()
        by_shape = ratio < COMPACT[2] and one_colour and shapes.one_object(int(label), 0.5 * geo.unit_radius * factor)
        if by_shape:
            n = 1
            ratio = min(max(ratio, 1.0 - SIZE_DOUBT), 1.0 + SIZE_DOUBT)  # its size is no doubt
        elif ratio < MIN_FRACTION:
            crumbs.append((int(label), ratio))  # under half an object, not shaped like one
            continue
        # Every colour with half an object of its own confident pixels is an object at least:
        # a red block touching a green one along a straight side has no waist, and the area of
        # one large object — without this the red one went missing without a flag.
        # And as many objects as its own pixels make whole ones, where those fit in the count.
        confident = found.confident[label]
        own = np.where(confident >= MIN_FRACTION * unit, np.maximum(np.round(confident / unit), 1), 0)
        if own.sum() > max(n, np.count_nonzero(own)):
            own = np.minimum(own, 1)
        sure = tuple(int(c) + 1 for c in np.flatnonzero(own) for _ in range(int(own[c])))
        n = max(n, len(sure))
        counted.append((int(label), ratio, n, place_objects(found.blobs, classes, relit, geo.colour_refs, int(label),
                                                            votes, n, not round_objects, sure), by_shape))
    return counted, crumbs, waists


def _small_objects(geo: _Geometry, found: _BlobReading, unit: float, factor: float) -> list[int]:
    """The blobs of a colour under :data:`CRUMB` of an object (``unit``) that are still an
    object's, to be said rather than dropped: those as deep in their own pixels as :data:`DEEP`
    of an object's radius (a rim, a line, a speck is thin; a block whose face mostly reads as
    tray, or one the frame's size misjudges, is not), and — without a tray outline, where the
    frame's size is a guess that may be too large — those of a crumb of the calibrated object."""
    floor = CRUMB * geo.unit_area if geo.roi_mask is None else math.inf
    small = found.has_colour & ~found.is_unknown & (found.area < CRUMB * unit) & (found.area >= DEEP_AREA * unit)
    return [int(label) for label in np.flatnonzero(small)
            if found.area[label] >= floor or _own_depth(found.blobs, int(label)) >= DEEP * geo.unit_radius * factor]


def _own_depth(blobs: Blobs, label: int) -> float:
    """The radius of the largest disc inside a blob's own pixels. ``Blobs.radius`` measures to
    the tray, and a piece cut from a pile by its colour lies deep in the pile however small."""
    return float(cv2.distanceTransform(blobs.own_framed(label), cv2.DIST_L2, cv2.DIST_MASK_5).max())


def _camera_crop(geo: _Geometry, image: np.ndarray, blobs: Blobs, label: int
                 ) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The camera-resolution crop of blob ``label``'s bounding box, and that box (working pixels)."""
    s, (x0, y0) = geo.scale, geo.crop[:2]
    bx, by, bw, bh = (int(v) for v in blobs.stats[label, :4])
    return image[y0 + by * s:y0 + (by + bh) * s, x0 + bx * s:x0 + (bx + bw) * s], (bx, by, bw, bh)


def _shows_sides(geo: _Geometry, image: np.ndarray, classes: np.ndarray, found: _BlobReading, unit: float) -> bool:
    """Whether :data:`SIDE_WITNESSES` objects of this frame show a top and a side lit
    differently — two faces an edge cuts apart, more than ``LIT`` apart
    (:func:`~companion.vision.lit_faces.shows_a_side` without its lightness split, which a
    cube's shaded rim also passes): a free camera may photograph from the side though its
    calibration photo was taken from above. One is no proof: a hard shadow across a cube cuts
    it into a bright and a dark face as well. Each colour of each blob with a cube's area of
    its pixels is asked, at the camera's resolution, until enough have shown a side."""
    colour_pixels = found.colour_pixels
    witnesses = 0
    for label in range(1, found.blobs.count):
        codes = [int(c) + 1 for c in np.flatnonzero(colour_pixels[label] >= unit)]
        if not codes:
            continue
        crop, _ = _camera_crop(geo, image, found.blobs, label)
        mine, (bx, by, bw, bh) = found.blobs.own(label)
        part = classes[by:by + bh, bx:bx + bw]
        for code in codes:
            if shows_a_side(crop, enlarged(mine & of_colour(part, code), crop.shape[1::-1], geo.scale), split=False):
                witnesses += 1
                if witnesses >= SIDE_WITNESSES:
                    return True
                break  # one blob is one witness, however many of its colours show a side
    return False


def _by_lit_faces(geo: _Geometry, image: np.ndarray, classes: np.ndarray, found: _BlobReading, counted: list,
                  unit: float) -> list:
    """Stage 4, for a camera that sees the objects from the side (the calibration's samples
    showed it): in each counted blob, each colour with faces has the faces of its fullest layer
    lit alike for objects, one per block (:mod:`companion.vision.lit_faces`); the blob's area
    ratio stays, so a count its area does not bear out is doubtful (size) in :func:`_report`."""
    s = geo.scale
    out = []
    for label, ratio, n, objects, by_shape in counted:
        codes = [int(c) + 1 for c in np.flatnonzero(found.colour_pixels[label]
                                                     >= FACE_AREA * unit)]
        crop, (bx, by, bw, bh) = _camera_crop(geo, image, found.blobs, label)
        size = (crop.shape[1], crop.shape[0])
        big = cv2.resize(classes[by:by + bh, bx:bx + bw], size, interpolation=cv2.INTER_NEAREST)
        inside = enlarged(found.blobs.own(label)[0], size, s)
        lightness, edges = lightness_edges(crop)
        most = {code: found.colour_pixels[label][code - 1] / (FACE_AREA * unit) for code in codes}
        lit = lit_faces(lightness, edges, big, inside, codes, most)
        if lit:  # working pixels, as the placed objects are
            objects = [o for o in objects if o[0] not in lit] + [
                (code, bx + (x + 0.5) / s - 0.5, by + (y + 0.5) / s - 0.5) for code, faces in lit.items()
                for x, y in faces]
            n = len(objects)
        out.append((label, ratio, n, objects, by_shape))
    return out


@dataclass
class _Taken:
    """Faces read as tray taken for their block's colour (:func:`_faces_taken`)."""

    classes: np.ndarray  # the class map with the faces painted in their colour
    pixels: np.ndarray  # H×W bool: the faces' pixels

    def colours(self, blobs: Blobs, relit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per blob and class (as ``blobs.colour_sum`` and ``blobs.histogram``): the colour
        sums and the number of the taken pixels — left out of a blob's mean colour, which only
        the pixels the colour names speak for."""
        key = blobs.labels[self.pixels] * N_CLASSES + self.classes[self.pixels]
        count, sums = class_sums(key, blobs.count, relit[self.pixels])
        return sums, count


def _faces_taken(geo: _Geometry, classes: np.ndarray, relit: np.ndarray, burnt: np.ndarray,
                 face_cells: _FaceTables, unit: float, factor: float) -> _Taken | None:
    """Stage 3b, for a camera that sees the objects from the side: the faces read as tray beside
    their colour (:mod:`companion.vision.faces`, lit or burnt) are taken for that colour — a
    block's face turned to the lamp, paler than its sample, beside the block's own pixels. None
    when there is none. From the side a block shows several faces and the count goes by them
    (:func:`_by_lit_faces`): a pale top left out is a block short. From below (the tower) a
    cube shows one face, and such a face stays said, never counted."""
    # Only what read as tray is taken: joined to its block's own pixels strewn over it
    # (``speckled``), a face splits into more faces lit alike than the block has.
    read = faces_read_as_tray(classes, relit, face_cells.lit, UNPLACED * unit, SOLID * geo.unit_radius * factor,
                              unexplained=False, burnt=(burnt, face_cells.burnt), speckled=False)
    faces = [f for f in read if f.code != UNKNOWN]
    if not faces:
        return None
    out = classes.copy()
    pixels = np.zeros(classes.shape, bool)
    for face in faces:
        mask = face.pixels(classes.shape) & (classes == BACKGROUND)
        out[mask] = face.code
        pixels |= mask
    return _Taken(out, pixels)


def _sides_at(geo: _Geometry, x: float, y: float) -> float:
    """How wide the cubes' sides the lens sees are at working pixel (x, y), working pixels
    (at the calibration's cube size; 0 where none were seen)."""
    if geo.towards_centre is None:
        return 0.0
    h, w = geo.towards_centre[0].shape
    col, row = min(max(int(x), 0), w - 1), min(max(int(y), 0), h - 1)
    return float(math.hypot(geo.towards_centre[0][row, col] - col, geo.towards_centre[1][row, col] - row))


def _camera_point(geo: _Geometry, x: float, y: float) -> tuple[float, float]:
    """A point of the working image in camera pixels."""
    return x * geo.scale + geo.crop[0], y * geo.scale + geo.crop[1]


def _report(geo: _Geometry, found: _BlobReading, counted: list, crumbs: list[tuple[int, float]],
            waists: np.ndarray, unit: float, guessed: bool, classes: np.ndarray,
            left_out: tuple[np.ndarray, np.ndarray] | None = None
            ) -> tuple[list[CubeDetection], list[tuple[float, Doubt]]]:
    """Stage 5: the cubes in camera pixels with how sure each is, and the doubts (each with the
    confidence it sorts by), at ``unit`` working pixels per cube (``guessed``: that size is a
    guess); blobs of a colour no calibration holds join ``found.unknown_boxes``. ``left_out``:
    colour sums and counts per blob and class kept out of the blobs' mean colours
    (:meth:`_Taken.colours`)."""
    blobs, unknown_boxes = found.blobs, found.unknown_boxes
    pieces = [(label, code) for label, _, _, objects, _ in counted for code in sorted({c for c, _, _ in objects})]
    doubt_of = dict(zip(pieces, colour_doubts(geo.colour_refs, blobs, pieces, left_out)))
    cubes: list[CubeDetection] = []
    doubts: list[tuple[float, Doubt]] = []
    for label, ratio, n, objects, by_shape in counted:
        votes = found.votes[label]
        seats = np.bincount([code - 1 for code, _, _ in objects], minlength=len(CUBE_COLORS))
        share = votes / votes.sum()
        # Halfway between two whole numbers is a coin toss: confidence 0 there. Votes that
        # disagree with the colours given out, and pixels of no known colour, lower it too.
        purity = 1.0 - 0.5 * float(np.abs(seats / n - share).sum())
        base = (1.0 - 2.0 * abs(ratio - n)) * purity * (1.0 - found.strange[label] / found.total[label])
        bx, by, bw, bh = (int(v) for v in blobs.stats[label, :4])
        bbox = _camera_box(geo, blobs, label)
        if label in found.named_not and bbox not in unknown_boxes:
            unknown_boxes.append(bbox)
        for code in sorted({code for code, _, _ in objects}):
            color = CUBE_COLORS[code - 1]
            own, other, far = doubt_of[(label, code)]
            if own > NO_SUCH_COLOUR and not far:  # no colour of the calibration: a foreign object
                if bbox not in unknown_boxes:
                    unknown_boxes.append(bbox)
                continue
            confidence = round(max(0.05, min(0.99, base * (0.5 if (other or far) else 1.0))), 3)
            placed = [(cx, cy) for c, cx, cy in objects if c == code and _inside(geo, cx, cy)]
            for cx, cy in placed:
                cubes.append(CubeDetection(color, *_camera_point(geo, cx + 0.5, cy + 0.5), confidence, bbox))
            if not placed:
                continue
            if other is not None or far:
                cx, cy = np.mean(placed, axis=0)
                doubts.append((confidence, Doubt(color, len(placed), "colour", other or "unknown",
                                                 *_camera_point(geo, cx + 0.5, cy + 0.5), bbox)))
        held = {code for code, _, _ in objects}
        # A third of an object of a colour's own pixels, and no place: say so. Its ambiguous
        # pixels count too: a dark blue cube among blacks under another tray's light reads as
        # "blue, black nearly as close", and a quarter vote each gives every seat to black.
        for c in np.flatnonzero(found.colour_pixels[label] >= UNPLACED * unit):
            if c + 1 not in held:
                (cx, cy), = cube_centres(blobs, classes, label, [c + 1, c + 1 + AMBIGUOUS], 1)
                doubts.append((round(max(0.05, base), 3), Doubt(
                    CUBE_COLORS[c], 0, "size", "1", *_camera_point(geo, cx + 0.5, cy + 0.5), bbox)))
        # Without an outline the photo may be taken from the side: a pile's area leaves out
        # what its front hides, so a count its cores do not show rests on a guess too. So
        # does one where the lens sees wide sides: between two cubes, a side is read as cube.
        by_area = not by_shape and n > waists[label]
        guess = geo.roi_mask is None or _sides_at(geo, bx + bw / 2, by + bh / 2) >= BRIDGE * math.sqrt(unit)
        if abs(ratio - n) > SIZE_DOUBT or guessed or (guess and by_area):
            alt = n + 1 if ratio >= n else n - 1
            main = CUBE_COLORS[int(np.argmax(seats))]
            doubts.append((round(max(0.05, base), 3),
                           Doubt(main, n, "size", str(alt), *_camera_point(geo, bx + bw / 2, by + bh / 2), bbox)))
    for label, ratio in crumbs:  # counted as none, but a third of an object or more: said
        bx, by, bw, bh = (int(v) for v in blobs.stats[label, :4])
        if _inside(geo, bx + bw / 2, by + bh / 2):
            main = CUBE_COLORS[int(np.argmax(found.votes[label]))]
            doubts.append((round(max(0.05, 1.0 - 2.0 * ratio), 3), Doubt(
                main, 0, "size", "1", *_camera_point(geo, bx + bw / 2, by + bh / 2), _camera_box(geo, blobs, label))))
    return cubes, doubts


def _face_step(unit: float) -> int:
    """The step (1 or 2 working pixels) faces read as tray are looked for at, in a frame whose
    cube is ``unit`` working pixels large: half the working resolution while a cube is
    :data:`~companion.vision.calibration.WORKING_SIDE` wide or more — the size the working
    resolution is chosen for — and the working resolution itself below: a frame taken from
    farther away than the calibration photo, where a third of a cube at half resolution is a
    handful of pixels, and the opening that drops fringes dropped whole faces."""
    return 2 if unit >= WORKING_SIDE ** 2 else 1


def _say_faces(geo: _Geometry, classes: np.ndarray, relit: np.ndarray, burnt: np.ndarray,
               face_cells: _FaceTables, unit: float, factor: float, unexplained: bool,
               unknown_boxes: list, doubts: list[tuple[float, Doubt]]) -> None:
    """Stage 6, in place: a block's lit face that reads as tray beside its own colour — or
    burnt out by the light there (``burnt``) — is said (once: "0 or 1?"), never counted; with
    ``unexplained`` (no empty photo), a coloured patch the tray does not explain, beside no
    block of its hue, is an unknown object (:mod:`companion.vision.faces`)."""
    for face in faces_read_as_tray(classes, relit, face_cells.said, UNPLACED * unit, SOLID * geo.unit_radius * factor,
                                   unexplained=unexplained, burnt=(burnt, face_cells.burnt), step=_face_step(unit)):
        cx, cy = face.centre
        if not _inside(geo, cx, cy):
            continue
        x, y = _camera_point(geo, cx + 0.5, cy + 0.5)
        box = _camera_rect(geo, face.box)
        if face.code == UNKNOWN:
            if not any(_holds(b, x, y) for b in [*unknown_boxes, *(d.bbox for _, d in doubts)]):
                unknown_boxes.append(box)
            continue
        color = CUBE_COLORS[face.code - 1]
        if not any(d.color == color and _holds(d.bbox, x, y) for _, d in doubts):
            doubts.append((0.05, Doubt(color, 0, "size", "1", x, y, box)))
