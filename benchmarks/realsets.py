"""Real photos with true counts (``../shared/realsets``), counted by the protocol of its README.

Calibrate once, on one photo of the set, with one sample box per shade of each colour and
nothing else a user would not have (no outline, no empty photo, no per-photo tuning, no ground
truth in the counter); count every other photo with that calibration.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from companion.vision.calibration import Sample

REALSETS = Path(os.environ.get("COMPANION_REALSETS",
                               Path(__file__).resolve().parent.parent.parent / "shared" / "realsets"))


@dataclass(frozen=True)
class RealSet:
    name: str
    folder: Path
    calibration_photo: str
    samples: tuple[Sample, ...]

    @property
    def present(self) -> bool:
        return (self.folder / "truth.json").is_file()

    def truth(self) -> dict[str, dict[str, int]]:
        return json.loads((self.folder / "truth.json").read_text(encoding="utf-8"))

    def boxes(self) -> dict[str, list[tuple[str, int, int, int, int]]] | None:
        """One box per true object, ``{photo: [(colour, x, y, w, h), …]}``, where the set has them."""
        path = self.folder / "boxes.json"
        if not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        return {photo: [(str(c), int(x), int(y), int(w), int(h)) for c, x, y, w, h in rows]
                for photo, rows in data.items()}


# 03.jpg shows every shade: red as pink and as dark red, green as green and as lime. The boxes
# were drawn by hand around one sweet of each shade, as a user would tap them.
CANDY = RealSet("candy", REALSETS / "candy", "03.jpg", (
    Sample("red", (747, 663, 94, 119)),     # pink
    Sample("red", (808, 1019, 87, 92)),     # dark red
    Sample("green", (922, 1101, 87, 101)),  # green
    Sample("green", (1029, 749, 87, 117)),  # lime
    Sample("purple", (832, 1329, 109, 101)),
    Sample("yellow", (812, 910, 86, 104)),
))


def _from_calib_json(name: str) -> RealSet:
    """A set whose ``calib.json`` names the calibration photo and one box per colour."""
    folder = REALSETS / name
    try:
        spec = json.loads((folder / "calib.json").read_text(encoding="utf-8"))
    except OSError:
        return RealSet(name, folder, "", ())
    samples = tuple(Sample(c, tuple(int(v) for v in box)) for c, box in spec["boxes"].items())
    return RealSet(name, folder, spec["photo"], samples)


DOBOT = _from_calib_json("dobot-blocks-wood")
SETS = (CANDY, DOBOT)
