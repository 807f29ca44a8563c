"""A seeded stochastic model of the Immortals cube tower.

The real tower keeps some of the cubes thrown into it and lets go of some it kept from earlier
throws. The simulator models exactly that and nothing more:

* each thrown cube is **retained** inside the tower with probability ``retain_probability``;
* each cube already inside (from earlier throws) is **released** with ``release_probability``.

Both probabilities are *model parameters chosen for a lively demo*, not measurements of the
real tower; nobody has measured them. Change them freely (``COMPANION_SIM_RETAIN`` /
``COMPANION_SIM_RELEASE`` in :mod:`companion.hw.settings`).

The simulator holds its own interior, so a demo game accumulates cubes inside the tower the way a
real one does. It also models the few moments after a throw when cubes are still dropping into
the tray: :attr:`frames_until_settled` counts the camera frames the tray keeps moving, and the
synthetic camera calls :meth:`advance_frame` once per frame.

Guarantees: the same seed and the same calls give the same results; no cube is ever created or
lost — ``interior_before + thrown == interior_after + fallen`` per colour after every throw;
a rejected throw changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from companion.hw.errors import InvalidThrowError

COLOURS = ("red", "blue", "yellow", "purple", "black", "green")

# Model parameters (see the module docstring): plausible for a demo, not measured.
DEFAULT_RETAIN_PROBABILITY = 0.25
DEFAULT_RELEASE_PROBABILITY = 0.3
# How many camera frames the tray keeps moving after a throw (inclusive range).
DEFAULT_SETTLE_FRAMES = (3, 8)


def validate_cubes(cubes: Mapping[str, int], what: str = "throw") -> dict[str, int]:
    """Return ``cubes`` as a plain dict without zero entries, or raise :class:`InvalidThrowError`."""
    if not isinstance(cubes, Mapping):
        raise InvalidThrowError(f"The {what} must list cubes per colour, like {{\"red\": 3}}.")
    clean: dict[str, int] = {}
    for colour, count in cubes.items():
        if colour not in COLOURS:
            raise InvalidThrowError(
                f"There are no {colour!r} cubes in Immortals — use {', '.join(COLOURS)}."
            )
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InvalidThrowError(
                f"The number of {colour} cubes in the {what} must be a whole number of zero "
                f"or more, not {count!r}."
            )
        if count:
            clean[colour] = count
    return clean


class TowerSimulator:
    """The tower's interior and tray, driven by a seeded random number generator."""

    def __init__(
        self,
        seed: int = 0,
        retain_probability: float = DEFAULT_RETAIN_PROBABILITY,
        release_probability: float = DEFAULT_RELEASE_PROBABILITY,
        settle_frames: tuple[int, int] = DEFAULT_SETTLE_FRAMES,
        interior: Mapping[str, int] | None = None,
    ) -> None:
        for name, p in (("retain", retain_probability), ("release", release_probability)):
            if not 0.0 <= p <= 1.0:
                raise InvalidThrowError(f"The {name} probability must be between 0 and 1, not {p}.")
        low, high = settle_frames
        if not 0 <= low <= high:
            raise InvalidThrowError(f"The settle frame range {settle_frames} is not a range.")
        self.seed = seed
        self.retain_probability = retain_probability
        self.release_probability = release_probability
        self.settle_frames = (low, high)
        self._rng = random.Random(seed)
        self._interior = validate_cubes(interior or {}, "tower interior")
        self._tray: dict[str, int] = {}
        self._left: dict[str, int] = {}  # put in by hand and forgotten: see place()
        self.throws = 0  # number of throws so far; the synthetic camera's layout seed uses it
        self.frames_until_settled = 0
        self.last_fallen: dict[str, int] = {}

    @property
    def interior(self) -> dict[str, int]:
        """Cubes held inside the tower now (a copy)."""
        return dict(self._interior)

    @property
    def tray(self) -> dict[str, int]:
        """Cubes lying in the tray now (a copy), including those still rolling."""
        return dict(self._tray)

    @property
    def moving(self) -> bool:
        """True while cubes are still dropping into the tray after a throw."""
        return self.frames_until_settled > 0

    def throw(self, cubes: Mapping[str, int]) -> dict[str, int]:
        """Throw ``cubes`` into the tower; return the cubes that fell into the tray.

        What fell is added to :attr:`tray` (the players empty the tray before each battle
        throw, see :meth:`empty_tray`). Raises :class:`InvalidThrowError` on bad input,
        before anything changes.
        """
        thrown = validate_cubes(cubes)
        fallen: dict[str, int] = {}
        interior: dict[str, int] = {}
        for colour in COLOURS:
            held = self._interior.get(colour, 0)
            released = self._draws(held, self.release_probability)
            new = thrown.get(colour, 0)
            retained = self._draws(new, self.retain_probability)
            fell = (new - retained) + released
            if fell:
                fallen[colour] = fell
            if held - released + retained:
                interior[colour] = held - released + retained
        self._interior = interior
        for colour, n in fallen.items():
            self._tray[colour] = self._tray.get(colour, 0) + n
        self.throws += 1
        self.last_fallen = dict(fallen)
        low, high = self.settle_frames
        self.frames_until_settled = self._rng.randint(low, high)
        return fallen

    def empty_tray(self) -> dict[str, int]:
        """Take the cubes out of the tray (as players do before a throw); return them.

        Cubes put in by :meth:`place` are forgotten there: they stay until :meth:`place` is
        called again (a player clearing the tray by hand for real, ``place({})``).
        """
        taken = {c: n - self._left.get(c, 0) for c, n in self._tray.items() if n > self._left.get(c, 0)}
        self._tray = dict(self._left)
        self.frames_until_settled = 0
        return taken

    def place(self, cubes: Mapping[str, int]) -> None:
        """The tray holds exactly ``cubes`` now, put in by hand (cubes for calibrating, or cubes
        the players forget to take out before a throw): the routine clearing before a throw
        (:meth:`empty_tray`) leaves them; ``place({})`` clears the tray for good. These cubes
        come from the supply, not the tower: the tower's interior is not touched. Validated
        before anything changes."""
        cubes = validate_cubes(cubes, "tray")
        self._tray, self._left = dict(cubes), dict(cubes)
        self.frames_until_settled = 0

    def restore(self, interior: Mapping[str, int], tray: Mapping[str, int]) -> None:
        """Put the tower back in a known state (the game's accounts after a restart).

        Both are validated before anything changes; the random stream is not touched.
        """
        new_interior = validate_cubes(interior, "tower interior")
        new_tray = validate_cubes(tray, "tray")
        self._interior, self._tray, self._left = new_interior, new_tray, {}
        self.frames_until_settled = 0

    def advance_frame(self) -> None:
        """One camera frame has passed: the cubes in the tray move a little less."""
        if self.frames_until_settled > 0:
            self.frames_until_settled -= 1

    def _draws(self, n: int, p: float) -> int:
        """How many of ``n`` independent events of probability ``p`` happen."""
        return sum(1 for _ in range(n) if self._rng.random() < p)
