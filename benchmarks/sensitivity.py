"""How the counts on every set move when one of the counter's constants moves.

``python -m benchmarks.sensitivity`` (``--frames N`` synthetic frames, default 60;
``--factors 0.8 1.25``; ``--only NAME …``; ``--drift NAME …`` to count the real sets under
drifts too; ``--sides N`` to count the first N frames of the stress set with the cubes' sides in
view, 0.6 and 1.0 cube at the corner, with the empty photo: ``vision --perspective``; ``--lens N``
likewise through a lens that bends the picture, barrel 0.1 and 0.2: ``vision --lens``) prints, for each named constant of
``companion.vision`` (of a range or tuple, each element on its own: ``SHADES[0]``) and each
factor, the photos exact on the synthetic stress set and on every
real set in ``../shared/realsets``, beside the same sets at the shipped value, in one run. A
constant whose change costs no set anything is a candidate for removal; one whose change raises
one set and lowers another is where the counter is tuned to a set (docs/vision.md, "Constants").

A constant is changed in every module that imported it (``from … import NAME`` copies the
binding), so the calibration and the counting see the same value, and the cached calibrations
and lookup tables are dropped on each change (each set is calibrated again). Values baked into a default argument at import are not reached;
none of the constants listed here is used that way.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from benchmarks.drift import DRIFTS
from benchmarks.realsets import SETS
from benchmarks.timing import pin_one_core
from benchmarks.vision import _fitted, lens_counts, run_realset, run_synthetic
from companion.vision.errors import CalibrationError
from companion.vision.classify import full_tables

# (module, name) of every scalar the counter is tuned by; integers stay integers.
CONSTANTS: tuple[tuple[str, str], ...] = (
    ("companion.vision.classify", "REJECT_DISTANCE"),
    ("companion.vision.classify", "AMBIGUITY"),
    ("companion.vision.classify", "NOISE_FLOOR"),
    ("companion.vision.classify", "GLARE_CHROMA"),
    ("companion.vision.light", "WHITE_BALANCE_SPREAD"),
    ("companion.vision.light", "SMOOTH_CELLS"),
    ("companion.vision.counting", "MIN_FRACTION"),
    ("companion.vision.counting", "UNKNOWN_SHARE"),
    ("companion.vision.counting", "CORE_DEPTH"),
    ("companion.vision.counting", "ONE_COLOUR"),
    ("companion.vision.naming", "NO_SUCH_COLOUR"),
    ("companion.vision.naming", "CLEAR_MARGIN"),
    ("companion.vision.naming", "SAME_HUE"),
    ("companion.vision.naming", "COLOUR_DOUBT"),
    ("companion.vision.placing", "CONTENDER"),
    ("companion.vision.samples", "TRIM"),
    ("companion.vision.samples", "GROW_DISTANCE"),
    ("companion.vision.samples", "SEED"),
    ("companion.vision.tray", "LIKE_SAMPLE"),
    ("companion.vision.tray", "TRAY_LOOKS"),
    ("companion.vision.frontend", "UNCHANGED"),
    ("companion.vision.frontend", "CHANGE_BOX"),
    ("companion.vision.frontend", "NOISE_BAR"),
    ("companion.vision.frontend", "LIGHT_ONLY"),
    ("companion.vision.frontend", "UNNAMED"),
    # The next five decide when the tray's light is doubted: rare on the sets this runs (6 of 400
    # synthetic counts, no real photo); their numbers are behind another tray (vision --surfaces).
    ("companion.vision.frontend", "SOME_UNNAMED"),
    ("companion.vision.frontend", "CONFIRMED"),
    ("companion.vision.frontend", "FEWER_UNNAMED"),
    ("companion.vision.frontend", "WHOLLY_UNNAMED"),
    ("companion.vision.frontend", "FAR_OFF"),
    ("companion.vision.frontend", "NO_HUE"),
    ("companion.vision.frontend", "PLAIN"),
    ("companion.vision.frontend", "SURFACE_CORE"),
    ("companion.vision.frontend", "SURFACE_MIN_PIXELS"),
    ("companion.vision.light", "CHART_MIN_PIXELS"),
    ("companion.vision.counting", "UNPLACED"),
    ("companion.vision.naming", "NAMED_PIECE"),
    ("companion.vision.counting", "SOLID"),
    ("companion.vision.samples", "CENTRE"),
    ("companion.vision.tray", "MINOR_LOOK"),
    ("companion.vision.tray", "CUBE_HUE"),
    ("companion.vision.tray", "CUBE_CHROMA"),
    ("companion.vision.black_level", "LIFT_MIN"),
    ("companion.vision.black_level", "OBJECT_DARK_PERCENTILE"),
    ("companion.vision.black_level", "FLOOR_PERCENTILE"),
    ("companion.vision.black_level", "MIN_WITNESSES"),  # acts under haze: see --drift
    ("companion.vision.lit_faces", "LIT"),
    ("companion.vision.lit_faces", "FACE_AREA"),
    ("companion.vision.lit_faces", "FACE_BLUR"),
    ("companion.vision.sizing", "PART"),
    ("companion.vision.sizing", "FAR"),  # acts only where the calibration's size fails: see --calibrations
    ("companion.vision.faces", "CLIPPED"),
    # Added 2026-11-28: the constants the list above left out. The sample search's and the
    # refusals' act at calibration (a change may refuse a set: the cell says so).
    ("companion.vision.counting", "SIZE_DOUBT"),
    ("companion.vision.counting", "ROUND_SLACK"),
    ("companion.vision.sizing", "SIZE_PRIOR"),
    ("companion.vision.samples", "CORNERS"),
    ("companion.vision.samples", "ROUND_DEPARTURE"),
    ("companion.vision.samples", "TWO_HUES"),
    ("companion.vision.samples", "SHADOW_TINT"),
    ("companion.vision.samples", "SHADOW_DEPTH"),
    ("companion.vision.samples", "RING_OFF"),
    ("companion.vision.tray", "SAME_COLOUR"),
    ("companion.vision.tray", "CLOSE_COLOUR"),
    ("companion.vision.tray", "LIKE_TRAY"),
    ("companion.vision.black_level", "MIN_OBJECT_PIXELS"),
    # Ranges and tuples: each element moved on its own (``NAME[k]``). SURFACE_SHADES's upper end
    # is TRAY_SHADES's, copied at import: moving one leaves the other as shipped.
    ("companion.vision.classify", "SHADES"),
    ("companion.vision.classify", "TRAY_SHADES"),
    ("companion.vision.frontend", "SURFACE_SHADES"),
    ("companion.vision.light", "LEVEL_RANGE"),
    ("companion.vision.black_level", "GAIN_RANGE"),
    ("companion.vision.sizing", "SIZE_VOTE_FIXED"),
    ("companion.vision.sizing", "SIZE_VOTE_FREE"),
    ("companion.vision.sizing", "COMPACT"),
    ("companion.vision.counting", "PEAK_DEPTHS"),
    ("companion.vision.lit_faces", "FACE_EDGES"),
    # Added 2026-11-28: the cubes' sides a lens close under the tray sees. They act only where
    # a calibration saw sides, which no set above has: see --sides.
    ("companion.vision.perspective", "MIN_OFF_CENTRE"),
    ("companion.vision.perspective", "MIN_REACH"),
    ("companion.vision.counting", "BRIDGE"),
    ("companion.vision.counting", "SIDES_AGAIN"),
    # Added 2026-11-29: a lens that bends the picture. They act only where a calibration has an
    # outline and samples spread from the centre: see --lens.
    ("companion.vision.lens", "MIN_BARREL"),
    ("companion.vision.lens", "MIN_SPREAD"),
    # Added 2026-11-29 too: a camera that leans. They act only where a calibration's outline
    # is a quadrilateral whose opposite sides differ: see --lens's second table.
    ("companion.vision.keystone", "MIN_LEAN"),
    ("companion.vision.keystone", "CORNER_FIT"),
    # Added 2026-11-29 too: what a blob must be to be counted or said. DEEP and DEEP_AREA only
    # add doubts ("0 or 1?"), which exact counts do not show: their silent misses are in
    # docs/vision.md, Constants.
    ("companion.vision.counting", "CRUMB"),
    ("companion.vision.counting", "DEEP"),
    ("companion.vision.counting", "DEEP_AREA"),
    # And what a face read as tray must be to be said: it only adds doubts (docs/vision.md,
    # step 7, has its silent misses).
    ("companion.vision.counting", "SAID_HUE"),
)

SIDES = (0.6, 1.0)  # the widths of the sides --sides counts at (RenderConditions.side_view)
BARRELS = (0.1, 0.2)  # the lenses --lens counts through (RenderConditions.barrel)


def _scaled(value, factor: float):
    """A number times ``factor``; an integer stays an integer."""
    return type(value)(round(value * factor)) if isinstance(value, int) else value * factor


def variants(value) -> list[int | None]:
    """The ways a constant is moved: as a whole (None) for a number, each element on its own
    (its index) for a tuple."""
    return list(range(len(value))) if isinstance(value, tuple) else [None]


@contextmanager
def changed(module: str, name: str, factor: float, index: int | None = None) -> Iterator[object]:
    """``module.name`` times ``factor`` — of a tuple, only its element ``index`` — in every loaded
    module bound to the same value, restored afterwards. Yields the new value."""
    original = getattr(sys.modules[module], name)
    if index is None:
        value = _scaled(original, factor)
    else:
        value = tuple(_scaled(v, factor) if k == index else v for k, v in enumerate(original))
    holders = [m for key, m in list(sys.modules.items())
               if key.startswith(("companion.vision", "benchmarks")) and getattr(m, name, None) is original]
    for m in holders:
        setattr(m, name, value)
    _drop_caches()  # calibrations and tables made under the old value must not be reused
    try:
        yield value
    finally:
        for m in holders:
            setattr(m, name, original)
        _drop_caches()


def _drop_caches() -> None:
    full_tables.cache_clear()
    _fitted.cache_clear()


def exact_per_set(frames: int, drifts: Sequence[str] = (), sides: int = 0, lens: int = 0) -> list[str]:
    """Photos exact on the synthetic set (``frames`` frames) and on every present real set, as
    taken and then under each of ``drifts`` (names in :data:`~benchmarks.drift.DRIFTS`); with
    ``sides``, that many frames with the cubes' sides in view (:data:`SIDES`), and with
    ``lens`` that many through a lens that bends the picture (:data:`BARRELS`), with the empty
    photo, and how many of them were wrong with nothing flagged."""
    cells = []
    for count, what, values in ((sides, "side_view", SIDES), (lens, "barrel", BARRELS)):
        for value in values if count else ():
            try:
                exact, wrong = lens_counts(count, 2026, **{what: value})
                cells.append(f"{exact[0]}/{count} ({wrong[0]} untold)")
            except CalibrationError as exc:
                cells.append(f"refused: {str(exc)[:30]}")
    if frames:  # without and with the empty photo (only the tower has one)
        cells += [f"{ours.exact}/{ours.photos}" for ours in run_synthetic(frames, 2026, baseline=False)[:2]]
    for drift in (None, *drifts):
        for realset in SETS:
            if realset.present:
                try:
                    ours = run_realset(realset, None if drift is None else DRIFTS[drift], baseline=False)[0]
                    cells.append(f"{ours.exact}/{ours.photos} ({ours.miscounted})")
                except ValueError as exc:  # CalibrationError: the set does not calibrate
                    cells.append(f"refused: {str(exc)[:30]}")
    return cells


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sensitivity", description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=60, help="synthetic frames per run (0: none)")
    parser.add_argument("--factors", type=float, nargs="+", default=[0.8, 1.25])
    parser.add_argument("--only", nargs="*", help="constants to vary (default: all)")
    parser.add_argument("--sides", type=int, default=0,
                        help="also count this many frames with the cubes' sides in view (0.6 and 1.0 cube at the corner)")
    parser.add_argument("--lens", type=int, default=0,
                        help="also count this many frames through a lens that bends the picture (barrel 0.1 and 0.2)")
    parser.add_argument("--drift", nargs="*", default=[], choices=list(DRIFTS), metavar="DRIFT",
                        help="also count every real set under these drifts (names as in benchmarks/drift.py)")
    args = parser.parse_args(argv)
    pin_one_core()
    present = [s.name for s in SETS if s.present]
    heads = ([f"sides {v}, empty photo" for v in SIDES] if args.sides else []) + \
        ([f"barrel {v}, empty photo" for v in BARRELS] if args.lens else []) + \
        (["synthetic", "synthetic, empty photo"] if args.frames else []) + present + [f"{n}, {d}"[:22] for d in args.drift for n in present]
    print("exact photos (objects miscounted); every set counted with the constant changed, others as shipped")
    print(f"  {'constant':34} " + "  ".join(f"{h:>22}" for h in heads))
    print(f"  {'(as shipped)':34} " + "  ".join(f"{c:>22}" for c in exact_per_set(args.frames, args.drift, args.sides, args.lens)), flush=True)
    for module, name in CONSTANTS:
        if args.only and name not in args.only:
            continue
        for index in variants(getattr(importlib.import_module(module), name)):
            for factor in args.factors:
                with changed(module, name, factor, index) as value:
                    label = (f"{name} ×{factor:g} = {value:g}" if index is None
                             else f"{name}[{index}] ×{factor:g} = {value[index]:g}")
                    print(f"  {label:34} " + "  ".join(f"{c:>22}" for c in exact_per_set(args.frames, args.drift, args.sides, args.lens)),
                          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
