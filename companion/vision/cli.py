"""``companion vision calibrate`` and ``companion vision count`` (shapes fixed in DESIGN.md).

Both commands print a one-line reason on stderr and exit with status 2 when a photo cannot be
read or a calibration is bad; ``calibrate`` writes nothing unless it succeeds.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.vision.annotate import annotate
from companion.vision.calibration import Sample, calibrate, load_calibration, save_calibration
from companion.vision.colors import CUBE_COLORS
from companion.vision.counting import count_cubes
from companion.vision.errors import VisionError
from companion.vision.imageio import read_image, write_image
from companion.vision.keystone import corners, lean_of
from companion.vision.lens import straight_points


def _numbers(text: str, what: str) -> list[int]:
    try:
        return [int(round(float(v))) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be numbers separated by commas, got {text!r}") from None


def parse_box(text: str) -> tuple[int, int, int, int]:
    """``X,Y,W,H`` → a box; argparse reports anything else."""
    values = _numbers(text, "a box")
    if len(values) != 4:
        raise argparse.ArgumentTypeError(f"a box is X,Y,W,H (four numbers), got {text!r}")
    return tuple(values)  # type: ignore[return-value]


def parse_sample(text: str) -> Sample:
    """``COLOR=X,Y,W,H`` → a :class:`Sample`."""
    color, sep, box = text.partition("=")
    color = color.strip().lower()
    if not sep:
        raise argparse.ArgumentTypeError(f"a sample is COLOR=X,Y,W,H, got {text!r}")
    if color not in CUBE_COLORS:
        raise argparse.ArgumentTypeError(f"{color!r} is not a cube colour; use one of {', '.join(CUBE_COLORS)}")
    return Sample(color, parse_box(box))


def parse_roi(text: str) -> list[tuple[int, int]]:
    """``X1,Y1,X2,Y2,…`` (at least three corners) → a list of points."""
    values = _numbers(text, "the tray outline")
    if len(values) < 6 or len(values) % 2:
        raise argparse.ArgumentTypeError("the tray outline is X1,Y1,X2,Y2,… with at least three corners")
    return list(zip(values[::2], values[1::2]))


def _fail(exc: Exception) -> int:
    print(f"error: {exc}", file=sys.stderr)
    return 2


def run_calibrate(args: argparse.Namespace) -> int:
    try:
        image = read_image(args.image)
        empty = read_image(args.empty) if args.empty else None
        cal = calibrate(image, args.sample, backgrounds=args.background or (), empty=empty, roi=args.roi)
        save_calibration(cal, args.out)
    except (VisionError, OSError) as exc:
        return _fail(exc)
    sizes = ", ".join(f"{c} {cal.cube_area[c]:.0f}" for c in cal.colors)
    print(f"Calibration written to {args.out}: colours {', '.join(cal.colors)}; cube about "
          f"{cal.cube_side:.0f} px wide (area per colour: {sizes}); {len(cal.references) - len(cal.colors)}"
          f" looks of the tray learned; working at 1/{cal.scale} resolution.")
    if cal.side_reach:
        print(f"The cubes' sides in view at the picture's corners: {cal.side_reach:.2f} of a cube wide "
              "(see firmware_notes/optics.md); taken off every photo before counting.")
    if cal.barrel:
        corner = 1 - 1 / ((1 + cal.barrel) * (1 + 3 * cal.barrel))
        print(f"The lens bends the picture (barrel {cal.barrel:.2f}): a cube at the picture's corners looks "
              f"{100 * corner:.0f} % smaller than in the middle; every photo is straightened before counting "
              "(see firmware_notes/optics.md).")
    if cal.keystone is not None:
        lean = lean_of(corners(straight_points(cal.roi, cal.barrel, cal.image_size)))
        print(f"The camera leans: one side of the tray outline is {100 * lean:.0f} % longer than the side "
              "opposite; every photo is levelled before counting. Set the camera level if you can "
              "(see firmware_notes/optics.md).")
    for warning in cal.warnings:
        print(f"warning: {warning}")
    return 0


def run_count(args: argparse.Namespace) -> int:
    try:
        cal = load_calibration(args.calibration)
        empty = read_image(args.empty) if args.empty else None
        if args.annotate:
            Path(args.annotate).mkdir(parents=True, exist_ok=True)
        for name in args.images:
            image = read_image(name)
            result = count_cubes(image, cal, empty)
            if args.annotate:
                out = Path(args.annotate) / f"{Path(name).stem}-annotated.jpg"
                write_image(out, annotate(image, result, cal.roi, cal.cube_side * image.shape[1] / cal.image_size[0]))
            if args.json:
                print(json.dumps(result.to_json(str(name))), flush=True)
            else:
                parts = [f"{c} {result.counts[c]}" for c in CUBE_COLORS if result.counts.get(c)]
                unsure = sum(c.confidence < 0.6 for c in result.cubes)
                print(f"{name}: {', '.join(parts) or 'no cubes'}; unknown objects {result.unknown}"
                      + (f"; {unsure} unsure — check the picture" if unsure else "")
                      + f" ({result.ms:.1f} ms)", flush=True)
    except (VisionError, OSError) as exc:
        return _fail(exc)
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Add ``vision calibrate`` and ``vision count`` to the ``companion`` command line."""
    vision = subparsers.add_parser("vision", help="calibrate the tray camera and count cubes in photos",
                                   description="Calibrate the tray camera and count cubes in photos.")
    commands = vision.add_subparsers(dest="vision_command", required=True, metavar="COMMAND")

    cal = commands.add_parser("calibrate", help="build a calibration from a photo with sample boxes",
                              description="Build a calibration from a photo with one marked cube per colour.")
    cal.add_argument("image", metavar="IMAGE", help="photo of the tray with a cube of each colour in play")
    cal.add_argument("--sample", metavar="COLOR=X,Y,W,H", type=parse_sample, action="append", required=True,
                     help="box around exactly one cube of COLOR (repeat: one per colour in play, one per "
                          "shade if a colour has two; at least one)")
    cal.add_argument("--background", metavar="X,Y,W,H", type=parse_box, action="append",
                     help="box of empty tray surface (optional, repeatable)")
    cal.add_argument("--empty", metavar="EMPTY_IMAGE", help="photo of the empty tray (optional)")
    cal.add_argument("--roi", metavar="X1,Y1,X2,Y2,…", type=parse_roi,
                     help="tray outline, corners in order (optional; default the whole photo)")
    cal.add_argument("--out", metavar="CAL.json", required=True, help="where to write the calibration")
    cal.set_defaults(handler=run_calibrate)

    cnt = commands.add_parser("count", help="count the cubes in tray photos",
                              description="Count the cubes in tray photos.")
    cnt.add_argument("images", metavar="IMAGE", nargs="+", help="tray photos")
    cnt.add_argument("--calibration", metavar="CAL.json", required=True, help="file from 'vision calibrate'")
    cnt.add_argument("--empty", metavar="EMPTY_IMAGE",
                     help="photo of the empty tray taken just before the throw (corrects the light)")
    cnt.add_argument("--annotate", metavar="DIR", help="write an annotated copy of each photo into DIR")
    cnt.add_argument("--json", action="store_true", help="print one JSON object per photo")
    cnt.set_defaults(handler=run_count)
