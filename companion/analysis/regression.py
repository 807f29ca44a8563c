"""The tower model with covariates: chances that may depend on how full the tower is.

The plain model (:mod:`.tower_model`) gives every cube of a colour fixed chances. A real tower
may not: its ledges fill up, and a big throw knocks stuck cubes loose. Here both chances are
logistic in what each throw was thrown into:

    logit land    = X_land    · β_land
    logit release = X_release · β_release

with, per throw, the **fill** (cubes of all colours inside before the throw) and the **size**
(cubes of all colours thrown in) as columns, and, for the fairness test, an indicator of one
colour. The tray shows ``Binomial(t, land) + Binomial(i, release)`` as before; the fit is by
maximum likelihood with Newton's method on the marginal likelihood, the gradient from Fisher's
identity and the observed information from Louis' formula (complete-data information minus the
variance of the complete-data score given the tray), both exact — one pass over the rows per
step, which is why a fit of a few thousand rows takes milliseconds.

Fill and size are binned (:data:`FILL_EDGES`, :data:`SIZE_EDGES`; a bin stands for its lower
edge) so that the store can aggregate equal rows; the trend they model is the same.

Guarantees: deterministic; the log-likelihood never decreases from step to step (step halving);
coefficients stay within ±:data:`LIMIT` (a colour whose cubes *all* landed drives its coefficient
to the bound instead of to infinity, which the likelihood-ratio test handles).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

FILL_EDGES = (0, 2, 5, 10, 16, 25)  # cubes inside the tower before the throw, all colours
SIZE_EDGES = (0, 5, 9, 15, 25)  # cubes thrown, all colours (the seeding throws are 25+)
SCALE = 10.0  # covariates enter per 10 cubes (keeps the Newton steps well conditioned)
LIMIT = 12.0
_TINY = 1e-300


def bin_of(n: int, edges: Sequence[int]) -> int:
    """The lower edge of the bin ``n`` falls in (``edges`` ascending, the first 0)."""
    out = edges[0]
    for e in edges:
        if n >= e:
            out = e
    return out


@dataclass(frozen=True)
class RegressionFit:
    """Coefficients (land columns first, then release columns), their covariance (inverse
    observed information; ``None`` when singular) and the maximised log-likelihood."""

    beta: np.ndarray
    cov: np.ndarray | None
    loglik: float
    n_land: int
    moments: tuple[Any, ...] | None = None  # of the last evaluation (at ``beta``)


class Rows:
    """Throws as rows ``t`` thrown, ``i`` inside, ``y`` seen, ``w`` how many throws, with the
    binomial-coefficient tables the likelihood needs (computed once, reused by every fit).

    Of a row's ``y`` cubes, ``k`` landed at once and ``y − k`` came out of the interior, ``k``
    from ``max(0, y − i)`` to ``min(t, y)``; only that range is kept (a seeding throw into the
    empty tower has a single ``k``), so the work per step is the number of possible splits."""

    def __init__(self, t: np.ndarray, i: np.ndarray, y: np.ndarray, w: np.ndarray) -> None:
        self.t, self.i, self.y = (np.asarray(v, dtype=np.int64) for v in (t, i, y))
        self.w = np.asarray(w, dtype=float)
        t, i, y = self.t[:, None], self.i[:, None], self.y[:, None]
        k0 = np.maximum(0, y - i)
        width = int((np.minimum(t, y) - k0).max(initial=0)) + 1
        k = k0 + np.arange(width)[None, :]
        self.valid = k <= np.minimum(t, y)
        kc = np.where(self.valid, k, k0)
        top = int(max(self.t.max(initial=0), self.i.max(initial=0))) + 1
        lf = np.array([math.lgamma(n + 1) for n in range(top + 1)])
        rc = y - kc
        self.logc = np.where(self.valid, lf[t] - lf[kc] - lf[t - kc] + lf[i] - lf[rc] - lf[i - rc], -np.inf)
        self.k = kc.astype(float)
        self.tf, self.if_, self.yf = self.t.astype(float), self.i.astype(float), self.y.astype(float)

    def __len__(self) -> int:
        return len(self.t)


def _log_expit(x: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0.0, -x)


def _posterior(rows: Rows, eta_l: np.ndarray, eta_r: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """Log-likelihood, and per row the mean and variance of the landed count given the tray.

    P(k landed) ∝ C(t,k)·C(i,y−k)·ρᵏ with ρ = odds(land)/odds(release): everything else in the
    joint probability is the same for every ``k`` of a row."""
    lq, rp, rq = _log_expit(-eta_l), _log_expit(eta_r), _log_expit(-eta_r)
    log = rows.logc + rows.k * (eta_l - eta_r)[:, None]
    top = np.max(log, axis=1)
    p = np.exp(log - top[:, None])
    total = p.sum(axis=1)
    mean = (p * rows.k).sum(axis=1) / total
    var = np.maximum((p * (rows.k * rows.k)).sum(axis=1) / total - mean * mean, 0.0)
    ll = float(rows.w @ (np.log(total) + top + rows.tf * lq + rows.yf * rp + (rows.if_ - rows.yf) * rq))
    return ll, mean, var


def _moments(rows: Rows, XL: np.ndarray, XR: np.ndarray, beta: np.ndarray) -> tuple[Any, ...]:
    """(log-likelihood, posterior mean and variance of the landed counts, η_land, η_release)."""
    nl = XL.shape[1]
    eta_l = XL @ beta[:nl]
    eta_r = XR @ beta[nl:] if XR.shape[1] else np.full(len(rows), -LIMIT)
    return (*_posterior(rows, eta_l, eta_r), eta_l, eta_r)


def _score_info(rows: Rows, XL: np.ndarray, XR: np.ndarray, beta: np.ndarray,
                moments: tuple[Any, ...] | None = None) -> tuple[float, np.ndarray, np.ndarray]:
    """Log-likelihood, score and observed information at ``beta``; ``moments`` (of
    :func:`_moments`) when already known for the same linear predictors."""
    nl = XL.shape[1]
    ll, mean, var, eta_l, eta_r = moments if moments is not None else _moments(rows, XL, XR, beta)
    pl, pr = 1 / (1 + np.exp(-eta_l)), 1 / (1 + np.exp(-eta_r))
    w = rows.w
    g = np.concatenate([XL.T @ (w * (mean - rows.tf * pl)),
                        XR.T @ (w * (rows.yf - mean - rows.if_ * pr))])
    n = nl + XR.shape[1]
    info = np.zeros((n, n))
    info[:nl, :nl] = (XL * (w * rows.tf * pl * (1 - pl))[:, None]).T @ XL
    info[nl:, nl:] = (XR * (w * rows.if_ * pr * (1 - pr))[:, None]).T @ XR
    U = np.concatenate([XL, -XR], axis=1)  # the complete score moves with the landed count
    info -= (U * (w * var)[:, None]).T @ U
    return ll, g, info


def fit(rows: Rows, XL: np.ndarray, XR: np.ndarray, start: np.ndarray | None = None,
        max_iter: int = 50, tol: float = 1e-5) -> RegressionFit:
    """Maximum likelihood of the covariate model on ``rows`` (designs ``XL``, ``XR``: one row
    per data row; ``XR`` may have no columns when no cube was ever inside). Stops when the
    Newton decrement (the log-likelihood still to gain, to second order) is below ``tol``."""
    n = XL.shape[1] + XR.shape[1]
    beta = np.zeros(n) if start is None else np.asarray(start, dtype=float).copy()
    moments = _moments(rows, XL, XR, beta)
    ll, g, info = _score_info(rows, XL, XR, beta, moments)
    for _ in range(max_iter):
        step = _newton_step(info, g)
        if step is None or float(g @ step) / 2 < tol:
            break
        scale = 1.0
        for _halving in range(30):
            candidate = np.clip(beta + scale * step, -LIMIT, LIMIT)
            new_moments = _moments(rows, XL, XR, candidate)
            if new_moments[0] >= ll - 1e-12:
                break
            scale /= 2
        else:
            break
        beta, moments = candidate, new_moments
        ll, g, info = _score_info(rows, XL, XR, beta, moments)
    try:
        cov = np.linalg.inv(info)
        if not np.all(np.isfinite(cov)) or np.any(np.diag(cov) <= 0):
            cov = None
    except np.linalg.LinAlgError:
        cov = None
    return RegressionFit(beta, cov, ll, XL.shape[1], moments)


def score_test(rows: Rows, XL: np.ndarray, XR: np.ndarray, beta: np.ndarray,
               at: RegressionFit | None = None) -> tuple[float, RegressionFit]:
    """Rao's score test of a larger model at ``beta`` (the smaller model's maximum with the new
    coefficients at 0): ``Sᵀ I⁻¹ S`` from the score ``S`` and observed information ``I`` there,
    χ² with as many degrees of freedom as new coefficients — the likelihood-ratio test's
    large-sample twin, at the cost of one pass over the rows instead of a fit. Also returns the
    one-step estimate ``beta + I⁻¹ S`` with covariance ``I⁻¹`` (``cov`` None when singular).
    ``at``: the smaller model's fit, whose linear predictors equal the larger one's at ``beta``
    (the new coefficients are 0) — its moments are reused, so several tests cost one pass."""
    ll, g, info = _score_info(rows, XL, XR, beta, at.moments if at is not None else None)
    try:
        cov = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        return 0.0, RegressionFit(beta, None, ll, XL.shape[1])
    if not np.all(np.isfinite(cov)) or np.any(np.diag(cov) <= 0):
        return 0.0, RegressionFit(beta, None, ll, XL.shape[1])
    step = cov @ g
    return max(0.0, float(g @ step)), RegressionFit(np.clip(beta + step, -LIMIT, LIMIT), cov, ll, XL.shape[1])


def _newton_step(info: np.ndarray, g: np.ndarray) -> np.ndarray | None:
    """Solve ``info · step = g``; damped (Levenberg) while ``info`` is not positive definite."""
    n, ridge = len(g), 0.0
    for _attempt in range(10):
        try:
            chol = np.linalg.cholesky(info + ridge * np.eye(n))
            return np.linalg.solve(chol.T, np.linalg.solve(chol, g))
        except np.linalg.LinAlgError:
            ridge = ridge * 10 if ridge else 1e-6 * (1 + float(np.abs(np.diag(info)).max()))
    return None


def expit(x: float) -> float:
    x = min(max(x, -700.0), 700.0)
    return 1.0 / (1.0 + math.exp(-x))


def logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))
