"""The six cube colours the tower can hold, in one fixed order used everywhere in the package."""

from __future__ import annotations

PLAYER_COLORS: tuple[str, ...] = ("red", "blue", "yellow", "purple", "black")
INHABITANTS = "green"
CUBE_COLORS: tuple[str, ...] = PLAYER_COLORS + (INHABITANTS,)

# BGR colours for drawing (annotation); not used for classification.
DRAW_BGR: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 220),
    "blue": (220, 110, 30),
    "yellow": (30, 220, 240),
    "purple": (170, 50, 150),
    "black": (20, 20, 20),
    "green": (40, 170, 40),
    "unknown": (255, 255, 255),
}
