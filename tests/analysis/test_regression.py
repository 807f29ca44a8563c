"""The covariate tower model: its score and information are the likelihood's derivatives, its
plain fit is the EM fit, and it recovers a tower whose chances change with the fill."""

from __future__ import annotations

import numpy as np
import pytest

from companion.analysis import regression as reg
from companion.analysis.fairness import _base_design, stack
from companion.analysis.tower_model import cube_table, fit_arrays

from .games_sim import Tower, throws


def _data(seed: int, tower: Tower = Tower(), games: int = 8):  # noqa: ANN202
    s = stack(cube_table(throws(games, seed, tower)), ("red", "blue", "yellow", "green"))
    X = _base_design(s)
    return s, X


def test_score_and_information_are_the_derivatives_of_the_likelihood() -> None:
    s, X = _data(1)
    beta = np.array([0.3, -0.2, 0.1, -1.2, 0.2, 0.3])
    ll, g, info = reg._score_info(s.rows, X, X, beta)
    h = 1e-5
    for j in range(len(beta)):
        e = np.zeros_like(beta)
        e[j] = h
        up, down = reg._score_info(s.rows, X, X, beta + e), reg._score_info(s.rows, X, X, beta - e)
        assert g[j] == pytest.approx((up[0] - down[0]) / (2 * h), rel=1e-4, abs=1e-4)
        # Louis' observed information is minus the derivative of the score
        assert -info[:, j] == pytest.approx((up[1] - down[1]) / (2 * h), rel=1e-3, abs=1e-3)


def test_the_plain_fit_is_the_em_fit() -> None:
    s, _ = _data(2)
    ones = np.ones((len(s.rows), 1))
    plain = reg.fit(s.rows, ones, ones)
    em = fit_arrays(s.rows.t, s.rows.i, s.rows.y, s.rows.w.astype(int))
    assert reg.expit(plain.beta[0]) == pytest.approx(em.land.estimate, abs=1e-4)
    assert reg.expit(plain.beta[1]) == pytest.approx(em.release.estimate, abs=1e-4)
    assert plain.loglik == pytest.approx(em.loglik, abs=1e-3)


def test_a_tower_that_fills_up_is_seen_to_land_less_when_full() -> None:
    s, X = _data(3, Tower(fill_drop=0.03, knock=0.05), games=30)
    fitted = reg.fit(s.rows, X, X)
    fill_slope, size_slope_release = fitted.beta[1], fitted.beta[5]
    assert fill_slope < 0 < size_slope_release
    se = np.sqrt(np.diag(fitted.cov))
    assert fill_slope + 2 * se[1] < 0 and size_slope_release - 2 * se[5] > 0
