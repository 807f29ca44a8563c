"""Odds: the vectorised winner is the rules' winner, and the odds are calibrated."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from companion.analysis.odds import battle_odds, calibration, luck, winners
from companion.analysis.tower_model import ColourFit, Interval, TowerModel, fit_tower
from companion.game.battle import resolve_battle

from .sim import STANCES, battles


@pytest.mark.parametrize("stance", STANCES)
def test_vectorised_winner_is_the_rules_winner(stance: str) -> None:
    trays = list(itertools.product(range(5), range(5), range(5)))
    a, d, g = (np.array(x) for x in zip(*trays))
    for defender in ("blue", None):
        got = winners(a, d if defender else None, g, stance)
        for (na, nd, ng), w in zip(trays, got):
            tray = {"red": na, "blue": nd if defender else 0, "green": ng}
            rule = resolve_battle("red", defender, stance, tray).winner
            assert w == {"attacker": 1, None: 0}.get(rule, -1), (tray, defender, rule)


def known(land: float = 0.6, release: float = 0.2) -> TowerModel:
    fit = ColourFit(Interval(land, land, land), Interval(release, release, release), 100, 1, 1, 0.0)
    return TowerModel({}, fit, 100, 100)


def test_odds_add_up_and_match_an_exact_case() -> None:
    # Empty region, neutral inhabitants: the attacker wins with at least one cube in the tray.
    odds = battle_odds(known(0.6, 0.2), "red", None, "neutral", {"red": 2, "green": 1}, {"red": 3},
                       seed=1)
    exact = 1 - 0.4**2 * 0.8**3
    assert odds.draws >= 10_000
    assert odds.win == pytest.approx(exact, abs=0.01)
    assert odds.win + odds.tie + odds.lose == pytest.approx(1.0)


def test_no_model_no_odds() -> None:
    assert battle_odds(fit_tower([]), "red", "blue", "neutral", {"red": 1}, {}) is None


def _observed(b) -> bool:  # noqa: ANN001
    s = b.throw.seen
    w = winners(np.array([s[b.attacker]]), None if b.defender is None else np.array([s[b.defender]]),
                np.array([s["green"]]), b.stance)
    return bool(w[0] == 1)


def _calibrate(model: TowerModel, n: int, seed: int) -> list[dict]:
    predicted, won = [], []
    for b in battles(n, seed):
        o = battle_odds(model, b.attacker, b.defender, b.stance, b.throw.thrown, b.throw.inside, seed=0)
        predicted.append(o.win)
        won.append(_observed(b))
    return calibration(predicted, won)


def _disagreements(bins: list[dict]) -> list[dict]:
    """Bins with ≥ 100 battles whose observed share is further from the prediction than 3 pp
    *and* than three standard errors of a share of that many battles."""
    bad = []
    for b in bins:
        if b["battles"] < 100:
            continue
        se = math.sqrt(max(b["predicted"] * (1 - b["predicted"]), 1e-4) / b["battles"])
        if abs(b["predicted"] - b["won"]) > max(0.03, 3 * se):
            bad.append(b)
    return bad


def test_odds_from_a_fitted_model_are_calibrated_on_2000_battles() -> None:
    model = fit_tower([b.throw for b in battles(2000, 1)])  # a group's first year or two
    bins = _calibrate(model, 2000, 99)
    assert sum(b["battles"] for b in bins) == 2000
    assert sum(b["battles"] >= 100 for b in bins) >= 5
    assert _disagreements(bins) == []


def test_the_calibration_check_catches_a_wrong_model() -> None:
    bins = _calibrate(known(land=0.35, release=0.5), 2000, 99)  # the tower really is 0.6 / 0.2
    assert _disagreements(bins)


def test_luck_is_won_minus_expected() -> None:
    assert luck([(0.7, True), (0.4, False), (0.5, True)]) == {
        "battles": 3, "won": 2, "expected": 1.6, "luck": 0.4}
    assert luck([])["luck"] is None


def test_calibration_from_sums_is_calibration_from_battles() -> None:
    from companion.analysis.odds import bin_of, calibration_of_bins

    rng = np.random.default_rng(3)
    p = rng.random(500)
    won = rng.random(500) < p
    sums: dict[int, list] = {}
    for chance, w in zip(p, won):
        s = sums.setdefault(bin_of(chance), [0, 0.0, 0])
        s[0] += 1
        s[1] += chance
        s[2] += int(w)
    assert calibration_of_bins([(b, *v) for b, v in sums.items()]) == calibration(p, won)
    assert bin_of(1.0) == 9 and bin_of(0.0) == 0 and bin_of(0.1) == 1
