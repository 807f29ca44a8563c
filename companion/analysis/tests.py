"""The two distributions the statistics need — the χ² upper tail and the normal quantile — and
the Wilson interval of a share built on the latter.

Why not SciPy: the tests here only ever use a χ² with a *whole* number of degrees of freedom
(2 per colour tested), whose tail has an exact closed form (a finite series of Poisson terms for
even df, plus ``erfc`` for odd df), and the normal quantile is in the standard library
(:class:`statistics.NormalDist`). That is a dozen lines against a 40 MB dependency on the Pi;
``tests/analysis/test_tests.py`` checks both against published table values.
"""

from __future__ import annotations

import math
from functools import lru_cache
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


def wilson(share: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a ``share`` seen in ``n`` trials (closed form; stays inside
    [0, 1] and, unlike Wald, is not empty at 0 or 1: 7 of 7 gives 65 %–100 %). No trials: 0–1."""
    if n <= 0:
        return 0.0, 1.0
    z = z_quantile(0.5 + confidence / 2)
    z2n = z * z / n
    centre = (share + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(share * (1 - share) / n + z2n / (4 * n)) / (1 + z2n)
    low = 0.0 if share <= 0 else max(0.0, centre - half)
    high = 1.0 if share >= 1 else min(1.0, centre + half)
    return low, high


def chi2_isf(p: float, df: int) -> float:
    """The x with ``chi2_sf(x, df) == p`` (0 < p < 1), by bisection on the exact tail."""
    if not 0 < p < 1:
        raise ValueError(f"a tail probability lies strictly between 0 and 1, not {p!r}")
    low, high = 0.0, 1.0
    while chi2_sf(high, df) > p:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if chi2_sf(mid, df) > p:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def ncx2_sf(x: float, df: int, noncentrality: float) -> float:
    """P(X ≥ x) for X ~ noncentral χ²(df, λ): the Poisson(λ/2) mixture of central χ²(df + 2j)
    tails, summed until the Poisson weights left are below 1e-12."""
    half = noncentrality / 2
    if half <= 0:
        return chi2_sf(x, df)
    total, j, weight, used = 0.0, 0, math.exp(-half), 0.0
    while True:
        total += weight * chi2_sf(x, df + 2 * j)
        used += weight
        j += 1
        weight *= half / j
        if 1 - used < 1e-12 or j > 10_000:
            return min(1.0, total)


@lru_cache(maxsize=64)
def noncentrality_for_power(df: int, alpha: float, power: float) -> float:
    """The noncentrality λ at which a χ²(df) test at level ``alpha`` rejects with probability
    ``power`` (for a Wald or likelihood-ratio test, λ = θᵀ I θ: the effect measured in its own
    standard errors, squared)."""
    critical = chi2_isf(alpha, df)
    low, high = 0.0, 1.0
    while ncx2_sf(critical, df, high) < power:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if ncx2_sf(critical, df, mid) < power:
            low = mid
        else:
            high = mid
    return (low + high) / 2
