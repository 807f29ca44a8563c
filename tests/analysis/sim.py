"""A tower with known behaviour for the statistics tests: per colour a chance to land at once
and a chance to come out of the interior, and battles thrown into it the way games throw them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from companion.analysis.tower_model import Throw

STANCES = ("for_attacker", "neutral", "against_attacker")


@dataclass
class SimBattle:
    attacker: str
    defender: str | None
    stance: str
    throw: Throw


def battles(n: int, seed: int, players: tuple[str, ...] = ("red", "blue", "yellow"),
            land: float = 0.6, release: float = 0.2,
            land_of: Mapping[str, float] | None = None) -> Iterator[SimBattle]:
    """``n`` battles: attacker 1–6 armies, defender 0–6 (none: empty region), 1–3 green; the
    interior carries over from battle to battle like a real game's (starts empty)."""
    rng = np.random.default_rng(seed)
    land_of = dict(land_of or {})
    colours = players + ("green",)
    inside = {c: 0 for c in colours}
    for _ in range(n):
        attacker, defender = rng.choice(players, 2, replace=False)
        thrown = {c: 0 for c in colours}
        thrown[str(attacker)] = int(rng.integers(1, 7))
        defended = rng.random() < 0.8
        if defended:
            thrown[str(defender)] = int(rng.integers(1, 7))
        thrown["green"] = int(rng.integers(1, 4))
        seen = {c: int(rng.binomial(thrown[c], land_of.get(c, land)) + rng.binomial(inside[c], release))
                for c in colours}
        yield SimBattle(str(attacker), str(defender) if defended else None,
                        STANCES[int(rng.integers(0, 3))], Throw(thrown, dict(inside), seen))
        inside = {c: inside[c] + thrown[c] - seen[c] for c in colours}
