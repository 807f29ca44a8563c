"""The χ² tail and the normal quantile against published table values."""

from __future__ import annotations

import math

import pytest

from companion.analysis.tests import chi2_sf, z_quantile

# Critical values of χ² at 5 % and 1 % (any statistics table).
TABLE = [(3.841459, 1, 0.05), (5.991465, 2, 0.05), (7.814728, 3, 0.05), (9.487729, 4, 0.05),
         (11.070498, 5, 0.05), (6.634897, 1, 0.01), (9.210340, 2, 0.01), (15.086272, 5, 0.01),
         (23.209251, 10, 0.01)]


@pytest.mark.parametrize(("x", "df", "p"), TABLE)
def test_chi2_tail_matches_the_table(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-5)


def test_chi2_tail_edges() -> None:
    assert chi2_sf(0.0, 3) == 1.0
    assert chi2_sf(2.0, 2) == pytest.approx(math.exp(-1.0))
    assert chi2_sf(200.0, 2) < 1e-40
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


def test_normal_quantile() -> None:
    assert z_quantile(0.975) == pytest.approx(1.959964, abs=1e-6)
    assert z_quantile(0.8) == pytest.approx(0.841621, abs=1e-6)
