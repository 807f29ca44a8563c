"""Odds of a battle before the throw, and how they are checked afterwards.

:func:`battle_odds` draws the tray ``draws`` times from the fitted tower model (each thrown cube
lands with its colour's ``land`` chance, each cube inside comes out with its ``release`` chance)
and resolves every draw by the rules — vectorised, the same decision as
:func:`companion.game.battle.resolve_battle` (a test checks the two agree on every small tray).
Only the attacker's, the defender's and the green cubes matter to the outcome, so only they are
drawn.

:func:`calibration` bins predicted win chances against the share of battles actually won;
:func:`luck` is battles won minus battles expected to be won.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.analysis.tests import wilson
from companion.analysis.tower_model import TowerModel

DRAWS = 10_000
GREEN = "green"
STANCES = ("for_attacker", "neutral", "against_attacker")


@dataclass(frozen=True)
class Odds:
    """The attacker's chances: ``win`` (takes or holds the region), ``tie``, ``lose`` (the
    defender or the inhabitants keep it). They add up to 1."""

    win: float
    tie: float
    lose: float
    draws: int

    def to_dict(self) -> dict[str, Any]:
        return {"win": round(self.win, 4), "tie": round(self.tie, 4), "lose": round(self.lose, 4),
                "draws": self.draws}


def winners(attacker_cubes: np.ndarray, defender_cubes: np.ndarray | None, green: np.ndarray,
            stance: str) -> np.ndarray:
    """+1 attacker wins, 0 tie, −1 attacker loses, per tray (arrays of equal length).

    Mirrors :func:`companion.game.battle.resolve_battle`'s winner.
    """
    a, g = attacker_cubes, green
    if defender_cubes is None:
        if stance != "against_attacker":
            return np.where(a >= 1, 1, -1)
        return np.where(a > g, 1, -1)
    s_a = a + (g if stance == "for_attacker" else 0)
    s_d = defender_cubes + (g if stance == "against_attacker" else 0)
    return np.sign(s_a - s_d).astype(np.int64)


def battle_odds(model: TowerModel, attacker: str, defender: str | None, stance: str,
                thrown: Mapping[str, int], inside: Mapping[str, int], *, draws: int = DRAWS,
                seed: int | None = None) -> Odds | None:
    """Odds of the battle, or ``None`` when the model has no fit for a colour that matters."""
    if stance not in STANCES:
        raise ValueError(f"unknown stance {stance!r}")
    rng = np.random.default_rng(seed)
    trays: dict[str, np.ndarray] = {}
    for colour in [attacker, GREEN] + ([defender] if defender else []):
        params = model.params(colour)
        if params is None:
            return None
        land, release = params
        trays[colour] = (rng.binomial(int(thrown.get(colour, 0)), land, draws)
                         + rng.binomial(int(inside.get(colour, 0)), release, draws))
    w = winners(trays[attacker], trays[defender] if defender else None, trays[GREEN], stance)
    win, tie = float(np.mean(w == 1)), float(np.mean(w == 0))
    return Odds(win, tie, max(0.0, 1.0 - win - tie), draws)


def calibration(predicted: Iterable[float], won: Iterable[bool], bins: int = 10) -> list[dict[str, Any]]:
    """Per bin of predicted win chance: battles, mean prediction, share won (with a 95 % Wilson
    interval). Bins without battles are left out; ``share`` is never invented."""
    p = np.asarray(list(predicted), dtype=float)
    y = np.asarray(list(won), dtype=bool)
    index = np.minimum((p * bins).astype(int), bins - 1)
    return calibration_of_bins(
        [(b, int((index == b).sum()), float(p[index == b].sum()), int(y[index == b].sum()))
         for b in range(bins)], bins)


def bin_of(chance: float, bins: int = 10) -> int:
    """The calibration bin of a predicted chance (the SQL in the store does the same)."""
    return min(int(chance * bins), bins - 1)


def calibration_of_bins(rows: Iterable[tuple[int, int, float, int]], bins: int = 10) -> list[dict[str, Any]]:
    """:func:`calibration` from per-bin sums ``(bin, battles, sum of predictions, won)``."""
    out = []
    for b, n, total, k in sorted(rows):
        if not n:
            continue
        low, high = wilson(k / n, n)
        out.append({"bin": [b / bins, (b + 1) / bins], "battles": n,
                    "predicted": round(total / n, 4), "won": round(k / n, 4),
                    "low": round(low, 4), "high": round(high, 4)})
    return out


def luck(outcomes: Iterable[tuple[float, bool]]) -> dict[str, Any]:
    """``outcomes``: (chance to win, won) per battle of one player. Luck = won − expected."""
    items = list(outcomes)
    if not items:
        return {"battles": 0, "won": None, "expected": None, "luck": None}
    expected = sum(p for p, _ in items)
    won = sum(1 for _, w in items if w)
    return {"battles": len(items), "won": won, "expected": round(expected, 3),
            "luck": round(won - expected, 3)}
