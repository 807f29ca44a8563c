"""The battle: what goes into the tower, and what the tray means afterwards.

Pure functions over cube counts, no game state. The algorithm is the one in RULES.md
("Battle — the exact algorithm"); every cube of the tray ends up in exactly one of
``placed``, ``to_limbo``, ``to_supply`` (green only) or ``left_in_tray``.

Zero counts may be omitted from inputs and are always omitted from outputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .colors import ALL_COLORS, GREEN, PLAYER_COLORS, display
from .errors import InvalidBattleError

MAX_GREEN_BEFORE_THROW = 3  # more inhabitants than this in the tray: one goes back to the supply


class Stance(str, Enum):
    """Whom the inhabitants of the attacked region fight for, set by the card played."""

    FOR_ATTACKER = "for_attacker"  # the card shows the attacked region
    NEUTRAL = "neutral"  # the card shows the attacking region
    AGAINST_ATTACKER = "against_attacker"  # any other region

    @classmethod
    def parse(cls, value: Stance | str) -> Stance:
        """A :class:`Stance` from itself or its value; anything else is an InvalidBattleError."""
        try:
            return cls(value)
        except ValueError:
            allowed = ", ".join(s.value for s in cls)
            raise InvalidBattleError(
                f"The inhabitants' stance {value!r} is unknown; it must be one of {allowed}."
            ) from None


@dataclass(frozen=True)
class BattleResult:
    """Where each cube of the tray goes. Dicts never hold zero counts.

    ``winner`` is ``"attacker"``, ``"defender"``, ``"inhabitants"`` (an empty region that was not
    taken) or ``None`` (a tie between two players). ``to_limbo`` goes to each owner's limbo of the
    realm *other* than the one fought in. ``to_supply`` counts green cubes back to the supply.
    """

    winner: str | None
    placed: dict[str, int] = field(default_factory=dict)
    to_limbo: dict[str, int] = field(default_factory=dict)
    to_supply: int = 0
    left_in_tray: dict[str, int] = field(default_factory=dict)
    strength: dict[str, int] = field(default_factory=dict)  # "attacker"/"defender" totals shown to players

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "placed": dict(self.placed),
            "to_limbo": dict(self.to_limbo),
            "to_supply": self.to_supply,
            "left_in_tray": dict(self.left_in_tray),
            "strength": dict(self.strength),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BattleResult:
        return cls(
            winner=d["winner"],
            placed=dict(d.get("placed", {})),
            to_limbo=dict(d.get("to_limbo", {})),
            to_supply=int(d.get("to_supply", 0)),
            left_in_tray=dict(d.get("left_in_tray", {})),
            strength=dict(d.get("strength", {})),
        )


def validate_counts(counts: Mapping[str, Any], what: str = "The tray") -> dict[str, int]:
    """Counts per colour as a clean dict without zeros; rejects unknown colours and bad numbers."""
    if not isinstance(counts, Mapping):
        raise InvalidBattleError(f"{what} must list a number of cubes per colour.")
    clean: dict[str, int] = {}
    for color, n in counts.items():
        if color not in ALL_COLORS:
            raise InvalidBattleError(
                f"{what} names the colour {color!r}, but cubes are only "
                f"{', '.join(ALL_COLORS)}."
            )
        if isinstance(n, bool) or not isinstance(n, int):
            raise InvalidBattleError(f"{what}: the number of {color} cubes must be a whole number.")
        if n < 0:
            raise InvalidBattleError(f"{what} cannot hold {n} {color} cubes; counts start at 0.")
        if n:
            clean[color] = n
    return clean


def prepare_tray(tray: Mapping[str, int], green_supply: int | None = None) -> tuple[dict[str, int], int]:
    """What to throw of the cubes taken out of the tray, and the change to the green supply.

    No inhabitant among them: add one from the supply (``-1``), unless ``green_supply`` says the
    supply is empty. More than three: return one to the supply (``+1``). Otherwise ``0``.
    """
    to_throw = validate_counts(tray)
    green = to_throw.get(GREEN, 0)
    delta = 0
    if green == 0 and (green_supply is None or green_supply > 0):
        delta = -1
    elif green > MAX_GREEN_BEFORE_THROW:
        delta = +1
    green -= delta
    if green:
        to_throw[GREEN] = green
    else:
        to_throw.pop(GREEN, None)
    return to_throw, delta


def _add(d: dict[str, int], color: str, n: int) -> None:
    if n:
        d[color] = d.get(color, 0) + n


def resolve_battle(
    attacker: str,
    defender: str | None,
    stance: Stance | str,
    tray: Mapping[str, int],
) -> BattleResult:
    """Resolve a battle from the tray after the throw (``defender=None``: the region was empty).

    Guarantees: ``placed + to_limbo + to_supply + left_in_tray`` equals ``tray`` colour by
    colour; green cubes are never placed; cubes of uninvolved players always stay in the tray.
    """
    stance = Stance.parse(stance)
    if attacker not in PLAYER_COLORS:
        raise InvalidBattleError(f"The attacker must be a player colour, not {attacker!r}.")
    if defender is not None and defender not in PLAYER_COLORS:
        raise InvalidBattleError(f"The defender must be a player colour or none, not {defender!r}.")
    if attacker == defender:
        raise InvalidBattleError(f"{display(attacker)} cannot attack their own armies.")
    counts = validate_counts(tray)
    a, g = counts.get(attacker, 0), counts.get(GREEN, 0)
    left = dict(counts)
    placed: dict[str, int] = {}
    to_limbo: dict[str, int] = {}

    def take(color: str, n: int) -> None:
        if n:
            left[color] -= n
            if not left[color]:
                del left[color]

    if defender is None:
        if stance is not Stance.AGAINST_ATTACKER:
            winner = "attacker" if a >= 1 else "inhabitants"
            take(attacker, a)
            _add(placed, attacker, a)
            return BattleResult(winner, placed, to_limbo, 0, left, {"attacker": a})
        # Inhabitants fight for themselves: equal numbers leave the tray on both sides.
        k = min(a, g)
        take(attacker, a)
        take(GREEN, k)
        _add(to_limbo, attacker, k)
        _add(placed, attacker, a - k)
        winner = "attacker" if a > g else "inhabitants"  # a <= g leaves no attacker cube
        return BattleResult(winner, placed, to_limbo, k, left, {"attacker": a, "inhabitants": g})

    d = counts.get(defender, 0)
    green_for_a = g if stance is Stance.FOR_ATTACKER else 0
    green_for_d = g if stance is Stance.AGAINST_ATTACKER else 0
    s_a, s_d = a + green_for_a, d + green_for_d
    strength = {"attacker": s_a, "defender": s_d}
    to_supply = 0
    if s_a == s_d:
        # Tie: every cube of both sides leaves; fighting inhabitants return to the supply.
        take(attacker, a)
        take(defender, d)
        take(GREEN, green_for_a + green_for_d)
        _add(to_limbo, attacker, a)
        _add(to_limbo, defender, d)
        return BattleResult(None, placed, to_limbo, green_for_a + green_for_d, left, strength)

    if s_a > s_d:
        winner, win_color, win_own, win_green = "attacker", attacker, a, green_for_a
        lose_color, lose_own, lose_green, loss = defender, d, green_for_d, s_d
    else:
        winner, win_color, win_own, win_green = "defender", defender, d, green_for_d
        lose_color, lose_own, lose_green, loss = attacker, a, green_for_a, s_a
    # The loser's cubes all leave the tray.
    take(lose_color, lose_own)
    _add(to_limbo, lose_color, lose_own)
    take(GREEN, lose_green)
    to_supply += lose_green
    # The winner removes as many as the loser's strength: fighting inhabitants first.
    green_out = min(win_green, loss)
    own_out = loss - green_out
    take(GREEN, green_out)
    to_supply += green_out
    take(win_color, win_own)
    _add(to_limbo, win_color, own_out)
    _add(placed, win_color, win_own - own_out)
    return BattleResult(winner, placed, to_limbo, to_supply, left, strength)
