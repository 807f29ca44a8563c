"""The mocked camera: a seeded renderer of the tray as the camera sees it from below.

It draws the bottom faces of the cubes (rotated squares with bevelled, slightly darker edges),
touching clusters of one or several colours, cubes lying across the tray outline, foreign
objects of no cube colour, on whatever lies behind the tray (plain, wood, two-tone or a busy
textured scene: :mod:`companion.vision.scene`), and then applies what a real camera adds:
uneven light, vignetting, a hard shadow, a light level and white balance of the moment, the
ring light's reflections, a wide lens's view of the cubes' sides and its barrel distortion, a
camera that leans, scratches, blur, sensor noise and JPEG compression.

Guarantees:
- Same arguments → the same image, byte for byte (everything is drawn from ``seed``).
- Ground truth follows the counting rule of the package: a cube counts when its centre lies
  inside the tray outline (ROI); ``RenderedFrame.counts`` holds exactly those cubes.
- Positions (``TrueCube.x``, ``y``) are a level camera's distortion-free picture's;
  :func:`in_picture` says where a camera with ``tilt`` and ``barrel`` draws them, and
  ``RenderedFrame.roi`` is the outline as drawn.
- Cubes never overlap (a cube lying on another would be invisible from below, so the renderer
  does not produce that case); cubes of one cluster touch edge to edge.
- The picture model is multiplicative, like a real scene: pixel = light(x, y) · white balance ·
  reflectance, plus additive glare (scratches, reflections) and noise. The empty-tray photo
  of the same ``tray_seed`` shows the same tray surface, scratches and reflections; with the
  same ``seed`` it has the same light and shadow.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.vision import scene
from companion.vision.colors import CUBE_COLORS

# Reflectance (B, G, R) of the painted wooden cubes; the renderer's own choice, not a measurement.
CUBE_REFLECTANCE: dict[str, tuple[float, float, float]] = {
    "red": (0.10, 0.10, 0.62),
    "blue": (0.55, 0.25, 0.08),
    "yellow": (0.12, 0.66, 0.80),
    "purple": (0.42, 0.13, 0.36),
    "black": (0.06, 0.06, 0.07),
    "green": (0.14, 0.46, 0.13),
}
# Foreign objects (a token, a bead): colours far from every cube colour.
FOREIGN_REFLECTANCE: tuple[tuple[float, float, float], ...] = (
    (0.66, 0.60, 0.10),  # teal
    (0.70, 0.42, 0.92),  # pink
)


@dataclass(frozen=True)
class RenderConditions:
    """Everything about one photo except which cubes lie in the tray.

    Tray fields (``size``, ``roi``, ``cube_px``, ``background*``, ``tray_seed``, ``scratches``)
    describe the tower and stay the same between its photos; the others change per throw.
    """

    size: tuple[int, int] = (1280, 960)  # width, height
    roi: tuple[tuple[int, int], ...] = ((120, 90), (1165, 100), (1185, 870), (100, 860))
    cube_px: float = 36.0  # side of a cube's bottom face in pixels
    background: tuple[float, float, float] = (0.74, 0.76, 0.78)  # tray surface reflectance, BGR
    background_variation: float = 0.08  # ± relative blotchiness of the tray surface
    surface: str = "plain"  # plain, wood, two-tone or textured (see companion.vision.scene)
    tray_seed: int = 0
    scratches: int = 0
    reflections: int = 0  # the ring light's LEDs mirrored in the tray (bright spots)
    light: float = 1.0  # overall light level
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # B, G, R gains
    light_gradient: float = 0.0  # 0 = even light; 0.4 = one side 40 % darker than the centre
    vignette: float = 0.12  # light lost towards the corners
    shadow: float = 0.0  # a hard shadow over part of the tray takes this share of the light
    jpeg_quality: int = 0  # 0: no JPEG; else the photo goes through JPEG at this quality
    noise: float = 2.0  # sensor noise, standard deviation in grey levels
    blur: float = 0.0  # Gaussian blur sigma in pixels
    cluster: float = 0.0  # probability that a cube touches others in a cluster
    outside: int = 0  # extra cubes lying across the tray outline (some count, some not)
    foreign: int = 0  # objects of no cube colour inside the tray
    # A lens under the tray sees each cube's sides too, towards the picture's centre, the
    # wider the farther the cube lies from it: their width at the picture's corner, in cube
    # sides (0: every cube straight from below). About the tangent of the angle at which the
    # lens sees the corner, times floor distance / (floor distance + cube height): 0.6 to 1.0
    # for the set-ups of firmware_notes/optics.md (Camera Module 3 at 20 cm to its Wide at 11).
    side_view: float = 0.0
    # A wide lens's barrel distortion: the picture's point at a distance r from its centre
    # (r as a share of the half-diagonal) shows what a distortion-free lens would put at
    # r · (1 + barrel · r²). 0: none. A cube at the corner then looks 1 / (1 + barrel) as wide
    # across the radius and 1 / (1 + 3 · barrel) along it. The renderer's parameter, not a
    # measurement of any lens.
    barrel: float = 0.0
    # The camera leaning this many degrees about the picture's horizontal axis, still aimed at
    # the tray's middle: the top of the picture is nearer and larger, the bottom farther and
    # smaller (a pinhole of TILT_FOCAL pixels, about a Camera Module 3 Wide's at 1280 × 960).
    tilt: float = 0.0


@dataclass(frozen=True)
class TrueCube:
    color: str
    x: float
    y: float
    angle: float  # degrees
    inside: bool  # centre inside the ROI → it counts


@dataclass(frozen=True)
class RenderedFrame:
    image: np.ndarray  # H×W×3 BGR uint8
    cubes: tuple[TrueCube, ...]  # the cubes that count (centre inside the ROI)
    others: tuple[TrueCube, ...]  # cubes visible in the picture whose centre is outside the ROI
    counts: dict[str, int]  # per colour, zero counts omitted
    unknown: int  # foreign objects inside the ROI
    roi: tuple[tuple[int, int], ...]
    moving: bool = False  # part of a settling sequence while the cubes still move


@dataclass
class _Piece:
    color: str  # a cube colour or "foreign"
    x: float
    y: float
    angle: float
    size: float  # cube side, or disc diameter for a foreign object
    bgr: tuple[float, float, float]
    inside: bool = True
    extra: dict = field(default_factory=dict)


# ---------------------------------------------------------------- layout (where things lie)

def _roi_contour(cond: RenderConditions) -> np.ndarray:
    return np.array(cond.roi, dtype=np.float32).reshape(-1, 1, 2)


def _cluster_cells(n: int, rng: np.random.Generator) -> list[tuple[int, int]]:
    """A connected shape of ``n`` lattice cells, grown one random neighbour at a time."""
    cells = [(0, 0)]
    while len(cells) < n:
        cx, cy = cells[rng.integers(len(cells))]
        dx, dy = ((1, 0), (-1, 0), (0, 1), (0, -1))[rng.integers(4)]
        if (cx + dx, cy + dy) not in cells:
            cells.append((cx + dx, cy + dy))
    return cells


def _shade(bgr: tuple[float, float, float], rng: np.random.Generator) -> tuple[float, ...]:
    """One object's own tint: no two painted cubes are exactly alike."""
    tint = np.array(bgr) * rng.uniform(0.92, 1.08) * rng.uniform(0.96, 1.04, size=3)
    return tuple(float(v) for v in tint)


def _fits(x: float, y: float, radius: float, placed: list[tuple[float, float, float]]) -> bool:
    return all((x - px) ** 2 + (y - py) ** 2 >= (radius + pr + 3.0) ** 2 for px, py, pr in placed)


def _place(radius: float, contour: np.ndarray, placed, rng, inset: float) -> tuple[float, float] | None:
    xs, ys = contour[:, 0, 0], contour[:, 0, 1]
    for _ in range(400):
        x = rng.uniform(xs.min(), xs.max())
        y = rng.uniform(ys.min(), ys.max())
        if cv2.pointPolygonTest(contour, (x, y), True) >= inset and _fits(x, y, radius, placed):
            return x, y
    return None


def _layout(counts: Mapping[str, int], seed: int, cond: RenderConditions) -> list[_Piece]:
    for color, n in counts.items():
        if color not in CUBE_COLORS:
            raise ValueError(f"{color!r} is not a cube colour; use one of {', '.join(CUBE_COLORS)}.")
        if int(n) < 0:
            raise ValueError(f"The number of {color} cubes cannot be negative (got {n}).")
    rng = np.random.default_rng(seed)
    side = cond.cube_px
    contour = _roi_contour(cond)
    colors = [c for c in CUBE_COLORS for _ in range(int(counts.get(c, 0)))]
    rng.shuffle(colors)
    groups: list[list[str]] = []
    i = 0
    while i < len(colors):
        size = int(rng.integers(2, 6)) if rng.random() < cond.cluster else 1
        groups.append(colors[i:i + size])
        i += size
    groups.sort(key=len, reverse=True)  # big clusters first, while there is room
    pieces: list[_Piece] = []
    placed: list[tuple[float, float, float]] = []
    queue = list(groups)
    while queue:
        group = queue.pop(0)
        cells = _cluster_cells(len(group), rng)
        pitch = side * (1.0 + rng.uniform(0.0, 0.03))
        mx = sum(c[0] for c in cells) / len(cells)
        my = sum(c[1] for c in cells) / len(cells)
        offsets = [((cx - mx) * pitch, (cy - my) * pitch) for cx, cy in cells]
        radius = max(math.hypot(ox, oy) for ox, oy in offsets) + side * 0.72
        spot = _place(radius, contour, placed, rng, inset=radius)
        if spot is None:
            if len(group) == 1:
                raise ValueError("That many cubes do not fit in the tray without lying on each other.")
            queue.extend([c] for c in group)  # no room for the cluster: scatter it
            continue
        placed.append((spot[0], spot[1], radius))
        angle = rng.uniform(0.0, 90.0)
        ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        for color, (ox, oy) in zip(group, offsets):
            x = spot[0] + ox * ca - oy * sa
            y = spot[1] + ox * sa + oy * ca
            pieces.append(_Piece(color, x, y, angle + rng.uniform(-1.0, 1.0), side * rng.uniform(0.98, 1.02),
                                 _shade(CUBE_REFLECTANCE[color], rng)))
    for _ in range(cond.outside):
        spot = _outline_spot(contour, placed, rng, side)
        if spot is not None:
            x, y, inside = spot
            placed.append((x, y, side * 0.72))
            color = CUBE_COLORS[rng.integers(len(CUBE_COLORS))]
            pieces.append(_Piece(color, x, y, rng.uniform(0, 90), side,
                                 _shade(CUBE_REFLECTANCE[color], rng), inside))
    for _ in range(cond.foreign):
        diameter = side * rng.uniform(1.2, 1.8)
        spot = _place(diameter / 2, contour, placed, rng, inset=diameter / 2)
        if spot is not None:
            placed.append((spot[0], spot[1], diameter / 2))
            bgr = FOREIGN_REFLECTANCE[rng.integers(len(FOREIGN_REFLECTANCE))]
            pieces.append(_Piece("foreign", spot[0], spot[1], 0.0, diameter, _shade(bgr, rng)))
    return pieces


def _outline_spot(contour, placed, rng, side) -> tuple[float, float, bool] | None:
    """A cube centre a clear distance inside or outside the ROI edge, so the cube straddles it."""
    pts = contour[:, 0, :].astype(np.float64)
    for _ in range(200):
        k = int(rng.integers(len(pts)))
        a, b = pts[k], pts[(k + 1) % len(pts)]
        t = rng.uniform(0.15, 0.85)
        edge = b - a
        normal = np.array([-edge[1], edge[0]]) / np.linalg.norm(edge)
        centre = a + t * edge
        inward = 1.0 if cv2.pointPolygonTest(contour, tuple(centre + normal * 5), False) > 0 else -1.0
        inside = bool(rng.random() < 0.5)
        depth = rng.uniform(0.25, 0.45) * side * (1.0 if inside else -1.0)
        x, y = centre + normal * inward * depth
        if _fits(x, y, side * 0.72, placed):
            return float(x), float(y), inside
    return None


# ---------------------------------------------------------------- drawing (what the camera sees)

@functools.lru_cache(maxsize=4)
def _noise_bank(size) -> np.ndarray:
    """One large field of unit Gaussian noise; each photo takes a seeded crop of it (fast)."""
    w, h = size
    rng = np.random.default_rng(12345)
    return rng.standard_normal((h + 64, w + 64, 3), dtype=np.float32)


def _square(x, y, side, angle) -> np.ndarray:
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    half = side / 2.0
    pts = [(x + dx * ca - dy * sa, y + dx * sa + dy * ca)
           for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half))]
    return np.round(np.array(pts) * 16).astype(np.int32)  # 4 fractional bits


SIDE_SHADE = 0.45  # a cube's side, lit from below at a grazing angle, against its face


def _draw_sides(albedo: np.ndarray, face: np.ndarray, cond: RenderConditions, colour) -> None:
    """A cube's sides as a wide lens sees them from below: its far face shifted towards the
    picture's centre (by ``cond.side_view`` cube sides at the corner), and the band between
    the two faces filled. ``face`` is :func:`_square`'s fixed-point outline."""
    w, h = cond.size
    centre = face.mean(axis=0) / 16.0
    side = float(np.linalg.norm(face[1] - face[0])) / 16.0
    shift = (np.array([w / 2.0, h / 2.0]) - centre) / math.hypot(w / 2.0, h / 2.0) * cond.side_view * side
    far = face + np.round(shift * 16).astype(np.int32)
    cv2.fillConvexPoly(albedo, cv2.convexHull(np.vstack([face, far])), colour, cv2.LINE_AA, 4)


def _bgr255(bgr) -> tuple[float, float, float]:
    return tuple(min(255.0, v * 255.0) for v in bgr)


def _draw(pieces: list[_Piece], cond: RenderConditions, seed: int, noise_seed: int,
          offsets=None) -> np.ndarray:
    rng = np.random.default_rng([seed, noise_seed])
    albedo = scene.surface(cond.size, tuple(cond.background), cond.background_variation,
                           cond.surface, cond.tray_seed).copy()
    if cond.side_view > 0:  # first: every cube's bottom face, on the floor, hides others' sides
        for k, p in enumerate(pieces):
            if p.color != "foreign":
                dx, dy, da = offsets[k] if offsets is not None else (0.0, 0.0, 0.0)
                _draw_sides(albedo, _square(p.x + dx, p.y + dy, p.size, p.angle + da), cond,
                            _bgr255(tuple(v * SIDE_SHADE for v in p.bgr)))
    for k, p in enumerate(pieces):
        dx, dy, da = offsets[k] if offsets is not None else (0.0, 0.0, 0.0)
        if p.color == "foreign":
            centre = (int(round((p.x + dx) * 16)), int(round((p.y + dy) * 16)))
            cv2.circle(albedo, centre, int(p.size / 2 * 16), _bgr255(p.bgr), -1, cv2.LINE_AA, 4)
            continue
        edge = _bgr255(tuple(v * 0.6 for v in p.bgr))  # bevelled edges catch less light
        cv2.fillConvexPoly(albedo, _square(p.x + dx, p.y + dy, p.size, p.angle + da), edge,
                           cv2.LINE_AA, 4)
        cv2.fillConvexPoly(albedo, _square(p.x + dx, p.y + dy, p.size * 0.88, p.angle + da),
                           _bgr255(p.bgr), cv2.LINE_AA, 4)
    light = scene.light_field(cond.size, cond.light, cond.white_balance, cond.light_gradient,
                              cond.vignette, cond.shadow, np.random.default_rng([seed, 5]))  # one light per seed
    image = cv2.multiply(albedo.astype(np.float32), light, scale=1.0 / 255.0)
    scratches = scene.scratch_layer(cond.size, cond.scratches, cond.tray_seed)
    if scratches is not None:
        image += (scratches * (70.0 * cond.light))[:, :, None]
    reflections = scene.reflection_layer(cond.size, cond.reflections, cond.tray_seed)
    if reflections is not None:  # the ring light's LEDs, mirrored: as bright as the light itself
        image += (reflections * (230.0 * cond.light))[:, :, None]
    if cond.tilt:
        w, h = cond.size
        image = cv2.warpPerspective(image, _tilt_matrix(cond), (w, h), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
    if cond.barrel > 0:
        image = _barrel(image, cond)
    if cond.blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), cond.blur)
    if cond.noise > 0:
        w, h = cond.size
        bank = _noise_bank(cond.size)
        ox, oy = int(rng.integers(64)), int(rng.integers(64))
        image = cv2.scaleAdd(bank[oy:oy + h, ox:ox + w], float(cond.noise), image)
    return scene.jpeg(np.clip(image, 0, 255).astype(np.uint8), cond.jpeg_quality)


def _lens_centre(cond: RenderConditions) -> tuple[float, float, float]:
    """The picture's centre and the half-diagonal the barrel distortion is measured in."""
    w, h = cond.size
    return (w - 1) / 2.0, (h - 1) / 2.0, math.hypot(w, h) / 2.0


def _barrel(image: np.ndarray, cond: RenderConditions) -> np.ndarray:
    """``image`` as a lens with ``cond.barrel`` distortion draws it (see RenderConditions)."""
    w, h = cond.size
    cx, cy, half = _lens_centre(cond)
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32) - cx, np.arange(h, dtype=np.float32) - cy)
    grow = 1.0 + cond.barrel * (xs * xs + ys * ys) / (half * half)
    return cv2.remap(image, xs * grow + cx, ys * grow + cy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


TILT_FOCAL = 725.0  # pixels: 640 / tan(41.4°), half a 1280-wide picture over a Wide's half-angle at 4:3


@functools.lru_cache(maxsize=16)
def _tilt_matrix(cond: RenderConditions) -> np.ndarray:
    """The homography of a camera turned ``cond.tilt`` degrees about the picture's horizontal
    axis, shifted so that the picture's centre stays where it was."""
    w, h = cond.size
    cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
    lens = np.array([[TILT_FOCAL, 0, cx], [0, TILT_FOCAL, cy], [0, 0, 1]])
    t = math.radians(cond.tilt)
    turn = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    homography = lens @ turn @ np.linalg.inv(lens)
    centre = homography @ (cx, cy, 1.0)
    shift = np.array([[1, 0, cx - centre[0] / centre[2]], [0, 1, cy - centre[1] / centre[2]], [0, 0, 1]])
    return shift @ homography


def in_picture(x: float, y: float, cond: RenderConditions) -> tuple[float, float]:
    """Where the camera of ``cond`` draws the point (``x``, ``y``) of a level camera's
    distortion-free picture (its tilt, then its lens's barrel distortion)."""
    if cond.tilt:
        px, py, pw = _tilt_matrix(cond) @ (x, y, 1.0)
        x, y = px / pw, py / pw
    if cond.barrel <= 0:
        return x, y
    cx, cy, half = _lens_centre(cond)
    true = math.hypot(x - cx, y - cy) / half
    seen = true
    for _ in range(30):  # Newton on seen · (1 + k seen²) = true
        seen -= (seen * (1 + cond.barrel * seen * seen) - true) / (1 + 3 * cond.barrel * seen * seen)
    shrink = 1.0 if true == 0 else seen / true
    return cx + (x - cx) * shrink, cy + (y - cy) * shrink


def picture_outline(cond: RenderConditions) -> tuple[tuple[int, int], ...]:
    """The tray outline as the picture shows it: ``cond.roi``, or with a distorting lens each
    side drawn as the curve it becomes (16 points a side)."""
    if cond.barrel <= 0 and not cond.tilt:
        return cond.roi
    points = []
    for (x0, y0), (x1, y1) in zip(cond.roi, cond.roi[1:] + cond.roi[:1]):
        for t in np.arange(16) / 16.0:
            x, y = in_picture(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, cond)
            points.append((int(round(x)), int(round(y))))
    return tuple(points)


def _frame(pieces, cond, image, moving=False) -> RenderedFrame:
    cubes = tuple(TrueCube(p.color, p.x, p.y, p.angle % 90.0, p.inside)
                  for p in pieces if p.color != "foreign")
    counted = tuple(c for c in cubes if c.inside)
    counts: dict[str, int] = {}
    for c in counted:
        counts[c.color] = counts.get(c.color, 0) + 1
    return RenderedFrame(image=image, cubes=counted, others=tuple(c for c in cubes if not c.inside),
                         counts=counts, unknown=sum(p.color == "foreign" for p in pieces),
                         roi=picture_outline(cond), moving=moving)


# ---------------------------------------------------------------- public API

def render_tray(counts: Mapping[str, int], seed: int = 0,
                conditions: RenderConditions | None = None) -> RenderedFrame:
    """Render the tray holding ``counts`` cubes per colour (plus ``conditions.outside`` cubes
    across the outline and ``conditions.foreign`` foreign objects). Raises ``ValueError`` for an
    unknown colour, a negative count, or more cubes than fit in the tray."""
    cond = conditions or RenderConditions()
    pieces = _layout(counts, seed, cond)
    return _frame(pieces, cond, _draw(pieces, cond, seed, 7))


def render_empty_tray(seed: int = 0, conditions: RenderConditions | None = None) -> RenderedFrame:
    """The empty tray under ``conditions`` (same surface and scratches as every photo of that
    ``tray_seed``). With the ``seed`` of a ``render_tray`` call it is that tray's photo "just
    before the throw": same light, only the sensor noise differs."""
    cond = conditions or RenderConditions()
    return _frame([], cond, _draw([], cond, seed, 8))


def render_settling_sequence(counts: Mapping[str, int], seed: int = 0,
                             conditions: RenderConditions | None = None,
                             moving: int = 6, still: int = 4) -> list[RenderedFrame]:
    """Frames of cubes sliding and spinning to rest: ``moving`` frames in motion (``.moving``
    True), then ``still`` frames of the final layout that differ only by sensor noise. The last
    frame shows the same layout as ``render_tray(counts, seed, conditions)``."""
    cond = conditions or RenderConditions()
    pieces = _layout(counts, seed, cond)
    rng = np.random.default_rng([seed, 3])
    kicks = [(rng.uniform(-1, 1) * cond.cube_px, rng.uniform(-1, 1) * cond.cube_px,
              rng.uniform(-40, 40)) for _ in pieces]
    frames = []
    for k in range(moving):
        decay = 0.55 ** k
        offsets = [(dx * decay, dy * decay, da * decay) for dx, dy, da in kicks]
        frames.append(_frame(pieces, cond, _draw(pieces, cond, seed, 100 + k, offsets), True))
    for k in range(still):
        frames.append(_frame(pieces, cond, _draw(pieces, cond, seed, 7 if k == still - 1 else 200 + k)))
    return frames


def render_calibration_photo(conditions: RenderConditions | None = None):
    """The photo a player takes to calibrate: one cube of each colour in a row, well apart,
    under ``conditions``. Returns ``(frame, samples, empty)``: the frame, one
    :class:`~companion.vision.calibration.Sample` box per cube (1.6 cube sides wide) and an
    empty-tray photo under the same light."""
    from companion.vision.calibration import Sample

    cond = conditions or RenderConditions()
    pieces = []
    width = cond.roi[1][0] - cond.roi[0][0]
    x0, y0 = cond.roi[0][0] + width * 0.2, (cond.roi[0][1] + cond.roi[3][1]) / 2
    step = width * 0.6 / (len(CUBE_COLORS) - 1)
    for i, color in enumerate(CUBE_COLORS):
        pieces.append(_Piece(color, x0 + i * step, y0, 20.0 + 9 * i, cond.cube_px,
                             CUBE_REFLECTANCE[color]))
    image = _draw(pieces, cond, 0, 11)
    empty = _draw([], cond, 0, 13)
    box = int(cond.cube_px * 1.6)
    centres = [in_picture(p.x, p.y, cond) for p in pieces]
    samples = [Sample(p.color, (int(x - box / 2), int(y - box / 2), box, box)) for p, (x, y) in zip(pieces, centres)]
    return _frame(pieces, cond, image), samples, _frame([], cond, empty)


@functools.lru_cache(maxsize=8)
def _calibration_for(cond: RenderConditions):
    from companion.vision.calibration import calibrate

    frame, samples, empty = render_calibration_photo(cond)
    return calibrate(frame.image, samples, empty=empty.image, roi=frame.roi)


def synthetic_calibration(conditions: RenderConditions | None = None):
    """The calibration a player would make for the renderer's tray: one cube of each colour
    marked on a calibration photo, plus an empty-tray photo, both under ``conditions``'s tray
    and a neutral light. Built with the real :func:`calibrate`; cached."""
    cond = conditions or RenderConditions()
    neutral = replace(RenderConditions(), size=cond.size, roi=cond.roi, cube_px=cond.cube_px,
                      background=cond.background, background_variation=cond.background_variation,
                      surface=cond.surface, tray_seed=cond.tray_seed, scratches=cond.scratches,
                      reflections=cond.reflections)
    return _calibration_for(neutral)
