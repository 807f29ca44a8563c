"""Per-object numbers on a real set with one box per true object (``boxes.json``): what the
counter's stages did with each object, not only whether the photo's totals came out right.

Every true object ends in exactly one of four outcomes:

- **right**: a counted cube of its colour lies in its box;
- **wrong colour**: a counted cube of another colour lies in its box (found, colour wrong);
- **flagged**: no cube, but an unknown object or a doubtful blob covers its centre (the table
  is told to look);
- **missed**: nothing at all — the silent miss the counter must never make.

Cubes are matched to boxes one to one, a cube to a box of its own colour first, so a cluster
counted as one cube finds one of its objects, not all of them. Counted cubes left over lie on
no true object: **extra**.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion.vision.counting import TrayCount

TrueBox = tuple[str, int, int, int, int]  # colour, x, y, w, h


@dataclass
class Stages:
    objects: int = 0
    right: int = 0
    wrong_colour: int = 0
    flagged: int = 0
    missed: int = 0
    extra: int = 0
    missed_in: list[str] = field(default_factory=list)

    @property
    def found(self) -> int:
        """Objects the counter saw at all (counted in some colour)."""
        return self.right + self.wrong_colour

    def add(self, photo: str, boxes: Sequence[TrueBox], result: TrayCount) -> None:
        outcome = match(boxes, result)
        self.objects += len(boxes)
        self.right += outcome["right"]
        self.wrong_colour += outcome["wrong colour"]
        self.flagged += outcome["flagged"]
        self.missed += outcome["missed"]
        self.extra += outcome["extra"]
        if outcome["missed"]:
            self.missed_in.append(photo)

    def extend(self, other: "Stages") -> None:
        """Add another set of outcomes (another calibration's, say) to these."""
        for name in ("objects", "right", "wrong_colour", "flagged", "missed", "extra"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.missed_in += other.missed_in

    def line(self) -> str:
        n = max(self.objects, 1)
        return (f"  objects {self.objects}: found {self.found} ({100 * self.found / n:.1f} %), colour right "
                f"{self.right} ({100 * self.right / n:.1f} %), wrong colour {self.wrong_colour}, flagged "
                f"{self.flagged}, missed without a flag {self.missed} ({100 * self.missed / n:.1f} %), "
                f"extra cubes {self.extra}")


def scaled(boxes: Sequence[TrueBox], factor: float) -> list[TrueBox]:
    """The true boxes of a photo resized by ``factor`` (a drift that moves the camera or
    changes the resolution), so that its objects are still matched where they lie."""
    return [(c, round(x * factor), round(y * factor), round(w * factor), round(h * factor))
            for c, x, y, w, h in boxes]


def _inside(box: TrueBox, x: float, y: float) -> bool:
    _, bx, by, bw, bh = box
    return bx <= x <= bx + bw and by <= y <= by + bh


def match(boxes: Sequence[TrueBox], result: TrayCount) -> dict[str, int]:
    """The outcome counts of one photo (see the module's docstring)."""
    free = list(range(len(boxes)))
    right = wrong = 0
    leftover = []
    for cube in result.cubes:  # own colour first
        hit = next((i for i in free if boxes[i][0] == cube.color and _inside(boxes[i], cube.x, cube.y)), None)
        if hit is None:
            leftover.append(cube)
        else:
            free.remove(hit)
            right += 1
    extra = 0
    for cube in leftover:
        hit = next((i for i in free if _inside(boxes[i], cube.x, cube.y)), None)
        if hit is None:
            extra += 1
        else:
            free.remove(hit)
            wrong += 1
    flags = [b for b in result.unknown_boxes] + [d.bbox for d in result.doubtful]
    flagged = 0
    for i in list(free):
        _, bx, by, bw, bh = boxes[i]
        cx, cy = bx + bw / 2, by + bh / 2
        if any(fx <= cx <= fx + fw and fy <= cy <= fy + fh for fx, fy, fw, fh in flags):
            free.remove(i)
            flagged += 1
    return {"right": right, "wrong colour": wrong, "flagged": flagged, "missed": len(free), "extra": extra}
