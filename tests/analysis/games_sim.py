"""Whole games thrown into a tower that need not follow the project's model — written apart from
the code under test (it knows nothing of the fit, only the game's pattern of throws).

A game: the seeding throws 7 cubes per player and 10 green into the **empty** tower, then
``battles`` battles throw 1–6 cubes of the attacker, 0–6 of the defender and 1–3 green into
whatever the tower holds. Per cube, the tower decides:

* a thrown cube lands at once with ``land × land_of[colour] × (1 − fill_drop)^fill`` —
  ``fill`` the cubes of all colours inside before the throw (a filling tower holds more back);
* a cube inside comes out with ``release × (1 + knock × thrown)`` (capped at 0.95) — a big throw
  knocks stuck cubes loose.

With ``fill_drop = knock = 0`` this is the fixed-chance tower of docs/statistics.md. The interior
is exact (the simulator knows it), so the statistics see what a game with right tray counts logs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from companion.analysis.tower_model import Throw

STANCES = ("for_attacker", "neutral", "against_attacker")


@dataclass(frozen=True)
class Tower:
    land: float = 0.6
    release: float = 0.2
    land_of: Mapping[str, float] | None = None  # per colour: a factor on the landing chance
    fill_drop: float = 0.0
    knock: float = 0.0

    def land_chance(self, colour: str, fill: int) -> float:
        factor = (self.land_of or {}).get(colour, 1.0)
        return min(0.99, self.land * factor * (1 - self.fill_drop) ** fill)

    def release_chance(self, thrown: int) -> float:
        return min(0.95, self.release * (1 + self.knock * thrown))


@dataclass(frozen=True)
class Battle:
    attacker: str
    defender: str | None
    stance: str
    throw: Throw


def throw(rng: np.random.Generator, tower: Tower, thrown: Mapping[str, int],
          inside: Mapping[str, int]) -> dict[str, int]:
    """The tray of one throw (per colour)."""
    fill, size = sum(inside.values()), sum(thrown.values())
    colours = sorted(set(thrown) | set(inside))  # a fixed order: the same draws in every run
    return {c: int(rng.binomial(thrown.get(c, 0), tower.land_chance(c, fill))
                   + rng.binomial(inside.get(c, 0), tower.release_chance(size))) for c in colours}


def games(n_games: int, seed: int, tower: Tower = Tower(),
          players: tuple[str, ...] = ("red", "blue", "yellow"), battles: int = 16,
          seeded: tuple[str, ...] | None = None) -> Iterator[tuple[str, Throw | Battle]]:
    """``("seeding", Throw)`` then ``("battle", Battle)`` per battle, game after game.
    ``seeded``: the colours seeded (default: the players)."""
    rng = np.random.default_rng(seed)
    colours = (*players, "green")
    for _ in range(n_games):
        inside = {c: 0 for c in colours}
        thrown = {c: 7 for c in (seeded or players)} | {"green": 10}
        seen = throw(rng, tower, thrown, inside)
        yield "seeding", Throw(thrown, dict(inside), seen)
        inside = {c: inside.get(c, 0) + thrown.get(c, 0) - seen.get(c, 0) for c in colours}
        for _ in range(battles):
            attacker, defender = (str(x) for x in rng.choice(players, 2, replace=False))
            thrown = {attacker: int(rng.integers(1, 7)), "green": int(rng.integers(1, 4))}
            defended = rng.random() < 0.8
            if defended:
                thrown[defender] = int(rng.integers(1, 7))
            seen = throw(rng, tower, thrown, inside)
            yield "battle", Battle(attacker, defender if defended else None,
                                   STANCES[int(rng.integers(0, 3))], Throw(thrown, dict(inside), seen))
            inside = {c: inside.get(c, 0) + thrown.get(c, 0) - seen.get(c, 0) for c in colours}


def throws(n_games: int, seed: int, tower: Tower = Tower(), **kw) -> list[Throw]:  # noqa: ANN003
    """Just the throws of :func:`games` (seedings and battles)."""
    return [x if kind == "seeding" else x.throw for kind, x in games(n_games, seed, tower, **kw)]
