"""``companion …`` command line.

Each package that offers commands exposes ``add_commands(subparsers)``; this module only wires
them together, so a package can be removed or replaced without touching the others.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# (module, what it adds) — imported lazily so `companion serve` never pays for OpenCV start-up twice.
_COMMAND_MODULES = (
    "companion.web.serve",
    "companion.web.pin_cli",
    "companion.vision.cli",
    "companion.hw.cli",
    "companion.store.cli",
    "companion.hw.doctor",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Immortals tower companion")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a real missing dependency, not an absent optional module
                raise
            continue
        module.add_commands(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if rest and not getattr(args, "pass_through", False):
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    args.rest = rest  # a command that wraps another one hands these on (tower calibrate)
    return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
