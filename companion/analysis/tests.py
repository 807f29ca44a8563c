"""The two distributions the statistics need: the χ² upper tail and the normal quantile.

Why not SciPy: the tests here only ever use a χ² with a *whole* number of degrees of freedom
(2 per colour tested), whose tail has an exact closed form (a finite series of Poisson terms for
even df, plus ``erfc`` for odd df), and the normal quantile is in the standard library
(:class:`statistics.NormalDist`). That is a dozen lines against a 40 MB dependency on the Pi;
``tests/analysis/test_tests.py`` checks both against published table values.
"""

from __future__ import annotations

import math
from statistics import NormalDist

_NORMAL = NormalDist()


def chi2_sf(x: float, df: int) -> float:
    """P(X ≥ x) for X ~ χ²(df), df a whole number ≥ 1. Exact up to floating point."""
    if not isinstance(df, int) or df < 1:
        raise ValueError(f"degrees of freedom must be a whole number ≥ 1, not {df!r}")
    if x <= 0:
        return 1.0
    half = x / 2.0
    if df % 2 == 0:
        # Q(df/2, x/2) = e^{-x/2} Σ_{k<df/2} (x/2)^k / k!
        term, total = 1.0, 1.0
        for k in range(1, df // 2):
            term *= half / k
            total += term
        return min(1.0, math.exp(-half) * total)
    # odd: erfc(√(x/2)) + e^{-x/2} Σ_{k=1}^{(df-1)/2} (x/2)^{k-1/2} / Γ(k+1/2)
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5)
    for k in range(1, (df - 1) // 2 + 1):
        if k > 1:
            term *= half / (k - 0.5)
        total += math.exp(-half) * term
    return min(1.0, total)


def z_quantile(p: float) -> float:
    """The standard normal quantile (``z_quantile(0.975) ≈ 1.96``)."""
    return _NORMAL.inv_cdf(p)
