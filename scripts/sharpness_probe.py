#!/usr/bin/env python3
"""Where the "soft picture" threshold of companion/hw/sharpness.py comes from.

Prints the sharpness figure of every photo in a folder (default ../shared/realsets/candy, every
third photo) as taken and after a Gaussian blur of σ = 1, 2 and 3 pixels (at 1280 px wide).
Run from the repository: .venv/bin/python scripts/sharpness_probe.py [FOLDER]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402

from companion.hw.sharpness import SOFT, WIDTH, sharpness  # noqa: E402


def main(folder: Path) -> int:
    photos = sorted(folder.glob("*.jpg"))[::3]
    if not photos:
        print(f"skipped: no photos in {folder}")
        return 0
    columns = {"taken": [], "σ=1": [], "σ=2": [], "σ=3": []}
    for path in photos:
        image = cv2.imread(str(path))
        h, w = image.shape[:2]
        image = cv2.resize(image, (WIDTH, round(h * WIDTH / w)), interpolation=cv2.INTER_AREA)
        row = [sharpness(image).value] + [sharpness(cv2.GaussianBlur(image, (0, 0), s)).value
                                          for s in (1, 2, 3)]
        for key, value in zip(columns, row):
            columns[key].append(value)
        print(f"{path.name:12s} " + "  ".join(f"{k} {v:6.1f}" for k, v in zip(columns, row)))
    print(f"{len(photos)} photos, threshold {SOFT:g}:")
    for key, values in columns.items():
        soft = sum(v < SOFT for v in values)
        print(f"  {key:5s} {min(values):6.1f} – {max(values):6.1f}   called soft: {soft}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else
                  Path(__file__).resolve().parents[2] / "shared" / "realsets" / "candy"))
