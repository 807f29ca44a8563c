"""Colours, realms and the fixed component counts of Immortals.

Colours are lower-case strings everywhere (JSON, events, messages). Players use five colours;
the inhabitants are green. The two realms are ``"light"`` and ``"dark"``.
"""

from __future__ import annotations

PLAYER_COLORS: tuple[str, ...] = ("red", "blue", "yellow", "purple", "black")
GREEN = "green"
ALL_COLORS: tuple[str, ...] = PLAYER_COLORS + (GREEN,)
REALMS: tuple[str, ...] = ("light", "dark")

# Component counts from the rulebook ("Contents", "Set-up", "Seeding the dice tower").
ARMIES_PER_PLAYER = 43
GREEN_CUBES = 20
START_LIMBO = 3  # armies put on each limbo when the player board is flipped
SEED_PER_PLAYER = 7
SEED_GREEN = 10
SEED_GREEN_KEPT = 2  # inhabitants left in the tray after seeding
DARK_START_ARMIES = 2  # armies sent to the dark twin of the light start region
DEFAULT_ROUNDS = {3: 7, 4: 5, 5: 5}
MAX_ROUNDS = 10  # there are ten round tracker cards


def other_realm(realm: str) -> str:
    """The other realm: defeated armies go to the limbo of the realm they did not fight in."""
    return "dark" if realm == "light" else "light"


def display(color: str) -> str:
    """A colour as it starts a sentence ("Purple")."""
    return color.capitalize()


def realm_name(realm: str) -> str:
    """How a realm appears in a sentence ("light")."""
    return realm
