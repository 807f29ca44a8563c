"""How this group's tower behaves, fitted from the throws it has seen.

The model (the same one the simulator in :mod:`companion.hw.simulator` runs, written from the
tray's side): in a throw, each of the ``t`` cubes of a colour thrown in **lands in the tray at
once** with probability ``land``; each of the ``i`` cubes of that colour already **inside** the
tower **comes out** with probability ``release``; all independently. The tray then shows

    y = Binomial(t, land) + Binomial(i, release)

``t`` and ``y`` are logged; ``i`` is the game's interior estimate before the throw (thrown minus
seen, summed since the seeding — exact as long as every tray count was right). Only ``y`` is
seen, not which cubes came from where, so the fit is by maximum likelihood with EM (the number of
the thrown cubes that landed is the missing datum). Confidence intervals come from the observed
information on the logit scale (Wald), so they stay inside (0, 1); at the edge of the fit (an
estimate of 0 or 1, where that information is empty) the Wilson interval on the cubes that
informed it.

Guarantees: :func:`fit_colour` is deterministic; equal throws are pooled before fitting, so its
cost grows with the number of *different* throws (a few hundred), not with the log's length.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.analysis.regression import FILL_EDGES, SIZE_EDGES, bin_of
from companion.analysis.regression import expit as _expit
from companion.analysis.regression import logit as _logit
from companion.analysis.tests import wilson, z_quantile

COLOURS = ("red", "blue", "yellow", "purple", "black", "green")
CONFIDENCE = 0.95
MIN_THROWS_FOR_ODDS = 20  # below this the model gives no odds and no interior ranges
MIN_THROWS_FOR_SPREAD = 30  # colours with fewer throws do not inform the spread between colours
_EPS = 1e-9


@dataclass(frozen=True)
class Throw:
    """One throw into the tower: per colour, cubes thrown in, inside before, seen in the tray."""

    thrown: Mapping[str, int]
    inside: Mapping[str, int]
    seen: Mapping[str, int]


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"estimate": round(self.estimate, 4), "low": round(self.low, 4), "high": round(self.high, 4)}


@dataclass(frozen=True)
class ColourFit:
    """The fit of one colour (or of several pooled). ``release`` is ``None`` when no cube of it
    was ever inside the tower during a throw (nothing to learn that chance from)."""

    land: Interval | None
    release: Interval | None
    throws: int  # throws in which this colour was thrown in or inside
    cubes_thrown: int
    cubes_inside: int
    loglik: float
    # covariance of (logit land, logit release); None entries when not estimable
    cov: tuple[tuple[float, float], tuple[float, float]] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "land": None if self.land is None else self.land.to_dict(),
            "release": None if self.release is None else self.release.to_dict(),
            "throws": self.throws,
            "cubes_thrown": self.cubes_thrown,
            "cubes_inside": self.cubes_inside,
        }


@dataclass(frozen=True)
class TowerModel:
    """The fitted tower: per colour and all colours pooled, and how many throws it rests on."""

    colours: dict[str, ColourFit] = field(default_factory=dict)
    pooled: ColourFit | None = None
    throws: int = 0
    battles: int = 0
    # per colour (land, release) shrunk towards the pooled fit (:func:`shrink`)
    shrunk: dict[str, tuple[float, float]] = field(default_factory=dict)

    def params(self, colour: str) -> tuple[float, float] | None:
        """(land, release) for the odds and the interior ranges: the colour's own fit shrunk
        towards the pooled one as far as its own data and the spread between the colours say
        (:func:`shrink`); the pooled fit for a colour without data; ``None`` without any."""
        if colour in self.shrunk:
            return self.shrunk[colour]
        if self.pooled is None or self.pooled.land is None:
            return None
        return self.pooled.land.estimate, (self.pooled.release.estimate if self.pooled.release else 0.0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "throws": self.throws,
            "battles": self.battles,
            "confidence": CONFIDENCE,
            "pooled": None if self.pooled is None else self.pooled.to_dict(),
            "colours": {c: f.to_dict() for c, f in self.colours.items()},
        }


# -- the likelihood ----------------------------------------------------------------------------

class _Data:
    """Distinct (t, i, y) rows of one colour with their multiplicities, and the fixed
    binomial-coefficient tables the likelihood needs (computed once per fit)."""

    def __init__(self, t: np.ndarray, i: np.ndarray, y: np.ndarray, w: np.ndarray) -> None:
        base = int(max(t.max(initial=0), i.max(initial=0), y.max(initial=0))) + 1
        keys, inverse = np.unique((t * base + i) * base + y, return_inverse=True)  # 1-D: fast
        self.t, self.i, self.y = keys // (base * base), keys // base % base, keys % base
        self.w = np.bincount(inverse.reshape(-1), weights=w, minlength=len(keys)).astype(float)
        self.k = np.arange(int(self.t.max(initial=0)) + 1)[None, :]  # landed of the thrown
        top = int(max(self.t.max(initial=0), self.i.max(initial=0))) + 1
        lf = np.array([math.lgamma(n + 1) for n in range(top + 1)])
        t, i, y, k = self.t[:, None], self.i[:, None], self.y[:, None], self.k
        r = y - k  # came out of the interior
        self.valid = (k <= t) & (r >= 0) & (r <= i)
        kc, rc = np.clip(k, 0, None), np.clip(r, 0, None)
        tk, ir = np.clip(t - k, 0, None), np.clip(i - rc, 0, None)
        self.logc = np.where(self.valid, lf[t] - lf[np.minimum(kc, t)] - lf[tk]
                             + lf[i] - lf[np.minimum(rc, i)] - lf[ir], -np.inf)
        self.kk, self.rr, self.tk, self.ir = kc, rc, tk, ir

    def joint(self, land: float, release: float) -> np.ndarray:
        """P(k landed, y − k released) per row and k (0 where impossible)."""
        a, b = np.clip(land, _EPS, 1 - _EPS), np.clip(release, _EPS, 1 - _EPS)
        log = (self.logc + self.kk * math.log(a) + self.tk * math.log1p(-a)
               + self.rr * math.log(b) + self.ir * math.log1p(-b))
        return np.where(self.valid, np.exp(np.where(self.valid, log, 0.0)), 0.0)

    def loglik(self, land: float, release: float) -> float:
        total = self.joint(land, release).sum(axis=1)
        return float(np.sum(self.w * np.log(np.maximum(total, 1e-300))))


def _em(data: _Data, sum_t: float, sum_i: float, tol: float = 1e-7, max_iter: int = 3000) -> tuple[float, float]:
    # Start from least squares of y on t and i (E[y] = t·land + i·release), clipped into (0, 1).
    X = np.stack([data.t, data.i], axis=1).astype(float) * np.sqrt(data.w)[:, None]
    beta, *_ = np.linalg.lstsq(X, data.y * np.sqrt(data.w), rcond=None)
    land = float(np.clip(beta[0], 0.02, 0.98)) if sum_t else 0.5
    release = float(np.clip(beta[1], 0.02, 0.98)) if sum_i else 0.5
    for _ in range(max_iter):
        joint = data.joint(land, release)
        total = joint.sum(axis=1, keepdims=True)
        post = joint / np.maximum(total, 1e-300)
        landed = float(np.sum(data.w * (post * data.k).sum(axis=1)))
        new_land = landed / sum_t if sum_t else land
        new_release = (float(np.sum(data.w * data.y)) - landed) / sum_i if sum_i else release
        done = abs(new_land - land) < tol and abs(new_release - release) < tol
        land, release = new_land, new_release
        if done:
            break
    return land, release


def _covariance(data: _Data, land: float, release: float, free: tuple[bool, bool]) -> np.ndarray | None:
    """Inverse observed information of (logit land, logit release) by central differences."""
    x0 = np.array([_logit(land), _logit(release)])
    idx = [j for j in range(2) if free[j]]
    if not idx:
        return None
    h = 1e-3

    def f(x: np.ndarray) -> float:
        return data.loglik(_expit(x[0]), _expit(x[1]))

    n = len(idx)
    H = np.zeros((n, n))
    f0 = f(x0)
    for a, ja in enumerate(idx):
        for b, jb in enumerate(idx):
            if b < a:
                continue
            if ja == jb:
                e = np.zeros(2); e[ja] = h
                H[a, a] = (f(x0 + e) - 2 * f0 + f(x0 - e)) / h**2
            else:
                ea = np.zeros(2); ea[ja] = h
                eb = np.zeros(2); eb[jb] = h
                H[a, b] = H[b, a] = (f(x0 + ea + eb) - f(x0 + ea - eb) - f(x0 - ea + eb)
                                     + f(x0 - ea - eb)) / (4 * h * h)
    try:
        inv = np.linalg.inv(-H)
    except np.linalg.LinAlgError:
        return None
    cov = np.full((2, 2), np.nan)
    for a, ja in enumerate(idx):
        for b, jb in enumerate(idx):
            cov[ja, jb] = inv[a, b]
    return cov


_EDGE = 1e-4  # an estimate this close to 0 or 1 is at the edge of the fit


def _interval(estimate: float, var: float, trials: int) -> Interval:
    """The 95 % range of a fitted chance. Inside (0, 1): Wald on the logit scale from the observed
    information (``var``, of the logit). At the edge of the fit (every thrown cube landed: the
    estimate is 1 and the information says nothing) or when ``var`` is not usable: the Wilson
    interval on the ``trials`` that informed it (cubes thrown for the landing chance, cubes inside
    for the release) — boundary-aware, so a figure at the edge still has a range."""
    edge = min(estimate, 1 - estimate) < _EDGE
    if edge or not math.isfinite(var) or var <= 0:
        at = 0.0 if estimate < _EDGE else 1.0 if estimate > 1 - _EDGE else estimate
        low, high = wilson(at, trials)
        return Interval(estimate, low, high)
    z = z_quantile(0.5 + CONFIDENCE / 2)
    centre, half = _logit(estimate), z * math.sqrt(var)
    return Interval(estimate, _expit(centre - half), _expit(centre + half))


def fit_arrays(t: Iterable[int], i: Iterable[int], y: Iterable[int],
               w: Iterable[int] | None = None) -> ColourFit:
    """Fit (land, release) to throws given as equal-length sequences of counts: thrown ``t``,
    inside ``i``, seen ``y`` and optionally how many throws each row stands for (``w``).

    Rows with nothing thrown and nothing inside carry no information and are dropped. Raises
    ``ValueError`` when a row is impossible (more seen than thrown plus inside).
    """
    t, i, y = (np.asarray(list(v), dtype=np.int64) for v in (t, i, y))
    w = np.ones(len(t), np.int64) if w is None else np.asarray(list(w), dtype=np.int64)
    if not (len(t) == len(i) == len(y) == len(w)):
        raise ValueError("thrown, inside and seen need one entry per throw")
    keep = ((t + i) > 0) & (w > 0)
    t, i, y, w = t[keep], i[keep], y[keep], w[keep]
    if np.any(y > t + i) or np.any(np.minimum(t, np.minimum(i, y)) < 0):
        raise ValueError("a throw shows more cubes than were thrown plus inside the tower")
    n = int(w.sum())
    sum_t, sum_i = float((t * w).sum()), float((i * w).sum())
    if n == 0:
        return ColourFit(None, None, 0, 0, 0, 0.0)
    data = _Data(t, i, y, w)
    land, release = _em(data, sum_t, sum_i)
    free = (sum_t > 0, sum_i > 0)
    cov = _covariance(data, land, release, free)
    land_iv = _interval(land, cov[0, 0] if cov is not None else math.nan, int(sum_t)) if free[0] else None
    rel_iv = _interval(release, cov[1, 1] if cov is not None else math.nan, int(sum_i)) if free[1] else None
    cov_t = None if cov is None else ((float(cov[0, 0]), float(cov[0, 1])), (float(cov[1, 0]), float(cov[1, 1])))
    return ColourFit(land_iv, rel_iv, n, int(sum_t), int(sum_i),
                     data.loglik(land, release), cov_t)


# Per colour, the rows (thrown, inside, seen, how many throws, fill, size) — what the store
# aggregates in SQL. ``fill`` and ``size`` are the throw's cubes inside and thrown of *all*
# colours, binned (:func:`companion.analysis.regression.bin_of`); rows of four leave them out.
CubeTable = dict[str, list[tuple[int, ...]]]


def cube_table(throws: Iterable[Throw], colours: Iterable[str] = COLOURS) -> CubeTable:
    """The :data:`CubeTable` of a list of throws (one row per throw and colour)."""
    table: CubeTable = {c: [] for c in colours}
    for th in throws:
        fill = bin_of(sum(th.inside.values()), FILL_EDGES)
        size = bin_of(sum(th.thrown.values()), SIZE_EDGES)
        for c in table:
            row = (th.thrown.get(c, 0), th.inside.get(c, 0), th.seen.get(c, 0))
            if row[0] or row[1]:
                table[c].append((*row, 1, fill, size))
    return table


def colour_arrays(data: CubeTable | Iterable[Throw], colours: Iterable[str]) -> tuple[np.ndarray, ...]:
    """(t, i, y, w) of the given colours, from a :data:`CubeTable` or a list of throws."""
    colours = tuple(colours)
    table = data if isinstance(data, dict) else cube_table(data, colours)
    rows = [r[:4] for c in colours for r in table.get(c, [])]
    if not rows:
        return (np.zeros(0, np.int64),) * 4
    a = np.asarray(rows, dtype=np.int64)
    return a[:, 0], a[:, 1], a[:, 2], a[:, 3]


def fit_tower(data: CubeTable | list[Throw], throws: int | None = None, battles: int | None = None,
              colours: Iterable[str] = COLOURS) -> TowerModel:
    """Fit every colour on its own and all of them pooled. ``throws`` / ``battles``: how many
    throws (battles and seeding throws) the data holds, for the record; from a list of throws
    both default to its length."""
    colours = tuple(colours)
    table = data if isinstance(data, dict) else cube_table(data, colours)
    fits = {}
    for c in colours:
        fit = fit_arrays(*colour_arrays(table, (c,)))
        if fit.throws:
            fits[c] = fit
    pooled = fit_arrays(*colour_arrays(table, colours))
    n = len(data) if isinstance(data, list) else (throws if throws is not None else pooled.throws)
    if not pooled.throws:
        return TowerModel(fits, None, n, n if battles is None else battles)
    return TowerModel(fits, pooled, n, n if battles is None else battles, shrink(fits, pooled))


def _logit_var(fit: ColourFit, j: int) -> float:
    """Variance of logit(land) (j = 0) or logit(release) (j = 1); infinite when the data cannot
    pin it down (no curvature, or the estimate at 0 or 1, where the Wald variance means nothing)."""
    iv = fit.land if j == 0 else fit.release
    if iv is None or fit.cov is None or not 0.001 < iv.estimate < 0.999:
        return math.inf
    v = fit.cov[j][j]
    return v if math.isfinite(v) and v > 0 else math.inf


def shrink(fits: Mapping[str, ColourFit], pooled: ColourFit) -> dict[str, tuple[float, float]]:
    """Empirical-Bayes estimates per colour (normal–normal on the logit scale, method of moments).

    Per chance: the colours' logits θ_c scatter around the pooled θ₀ by their own sampling
    variance v_c plus a true spread τ² between colours; τ² = max(0, mean((θ_c − θ₀)² − v_c)) over
    the colours with at least :data:`MIN_THROWS_FOR_SPREAD` throws (below that the Wald v_c
    understates the scatter and one lucky first throw would pass for a real spread), and each colour gets θ₀ + τ²/(τ² + v_c)·(θ_c − θ₀). A colour
    with few throws (large v_c) stays near the pooled fit, a fair tower (τ² ≈ 0) gives every
    colour the pooled fit, and a colour with much data in a biased tower keeps its own. A
    colour without a release estimate takes the pooled one.
    """
    out: dict[str, list[float]] = {c: [0.0, 0.0] for c in fits}
    for j, base in enumerate((pooled.land, pooled.release)):
        if base is None:
            for c in out:
                out[c][j] = 0.0
            continue
        theta0 = _logit(base.estimate)
        own = {}
        for c, f in fits.items():
            iv = f.land if j == 0 else f.release
            if iv is not None:
                own[c] = (_logit(iv.estimate), _logit_var(f, j))
        finite = [own[c] for c, f in fits.items()
                  if c in own and f.throws >= MIN_THROWS_FOR_SPREAD and math.isfinite(own[c][1])]
        tau2 = max(0.0, sum((t - theta0) ** 2 - v for t, v in finite) / len(finite)) if finite else 0.0
        for c in out:
            theta, v = own.get(c, (theta0, math.inf))
            weight = tau2 / (tau2 + v) if tau2 > 0 and math.isfinite(v) else 0.0
            out[c][j] = _expit(theta0 + weight * (theta - theta0))
    return {c: (v[0], v[1]) for c, v in out.items()}


def release_range(inside: int, release: float, level: float = 0.9) -> tuple[float, int, int]:
    """Of ``inside`` cubes, how many the next throw lets out: expectation and the central
    ``level`` range of Binomial(inside, release)."""
    if inside <= 0:
        return 0.0, 0, 0
    k = np.arange(inside + 1)
    lf = np.array([math.lgamma(n + 1) for n in range(inside + 1)])
    b = min(max(release, _EPS), 1 - _EPS)
    pmf = np.exp(lf[inside] - lf[k] - lf[inside - k] + k * math.log(b) + (inside - k) * math.log1p(-b))
    cdf = np.cumsum(pmf)
    tail = (1 - level) / 2
    low = int(np.searchsorted(cdf, tail, side="left"))
    high = int(np.searchsorted(cdf, 1 - tail, side="left"))
    return inside * release, low, min(high, inside)
