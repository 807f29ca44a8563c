"""Does this tower favour a colour? A likelihood-ratio test per colour, stated honestly.

**The comparison.** All colours are fitted together in the covariate model of
:mod:`.regression`: the chance to land at once and the chance to come out depend on the throw's
fill (cubes inside, all colours) and size (cubes thrown, all colours), the same for every colour
(the null). For each colour ``c`` the alternative adds an offset of ``c`` to both chances, and
the score test (:func:`.regression.score_test`, the likelihood-ratio test's large-sample twin at
a fraction of its cost) is χ² with as many degrees of freedom as offsets (2, or 1 when none of
its cubes was ever inside during a throw); the offsets' estimate is the one Newton step from the
null. Because every colour meets the same fill and size
in the null, a tower whose chances depend on how full it is does not make a colour look unfair
just because that colour is thrown in other patterns (green ten at a time into the empty tower
at the seeding, then one to three per battle). The verdict is Holm-corrected over the colours,
so a fair tower is flagged in at most 5 % of groups, not 5 % per colour.

**How large a bias, how sure.** The bias (relative difference of the chance to land at once,
against the others at this colour's throws) always comes with an interval at the level the
verdict uses (1 − 5 %/m for m colours tested: the intervals of all colours hold together with
95 %). That level matters: a bias is only stated when it was significant, and an estimate
selected that way exaggerates (the winner's curse); a nominal 95 % interval would then miss the
truth about half the time, the verdict's own level about one time in ten
(``tests/analysis/test_fairness.py`` measures it).

**What could have shown.** The *detectable bias* is the one this verdict (its degrees of
freedom, the Holm level α/m) finds with 80 % power on the data so far — from the noncentral χ²
and the colour offsets' information — and the throws (and nights) after which a 10 % bias would.

With fewer than :data:`MIN_THROWS` throws of a colour there is no verdict, only "not enough data
yet". :func:`model_check` tests the plain model (fixed chances) against the covariate model on
the group's own throws.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.analysis import regression as reg
from companion.analysis.tests import chi2_sf, noncentrality_for_power, z_quantile
from companion.analysis.tower_model import COLOURS, ColourFit, CubeTable, Throw, cube_table

ALPHA = 0.05
POWER = 0.80
MIN_THROWS = 30
REFERENCE_BIAS = 0.10  # "a 10 % bias would show after about N throws"
REFERENCE_FILL = 20  # the model check's "with 20 cubes inside"


def _pct(x: float) -> str:
    return f"{abs(x) * 100:.0f} %"


def _range_words(low: float, high: float) -> str:
    """'between 9 % and 40 % less often', or across zero 'between 5 % less and 12 % more often'."""
    if low >= 0:
        return f"between {_pct(low)} and {_pct(high)} more often"
    if high <= 0:
        return f"between {_pct(high)} and {_pct(low)} less often"
    return f"between {_pct(low)} less and {_pct(high)} more often"


@dataclass(frozen=True)
class ColourVerdict:
    colour: str
    throws: int
    verdict: str  # not_enough_data | no_sign | favoured | disfavoured | differs
    p_value: float | None = None
    p_adjusted: float | None = None
    statistic: float | None = None
    df: int | None = None
    bias: float | None = None  # relative difference of the landing chance vs the others
    bias_low: float | None = None
    bias_high: float | None = None
    bias_level: float | None = None
    detectable_bias: float | None = None
    throws_for_reference: int | None = None
    nights_for_reference: int | None = None  # more nights until a 10 % bias would show

    @property
    def sentence(self) -> str:
        name = self.colour.capitalize()
        if self.verdict == "not_enough_data":
            return (f"Not enough data yet: {self.throws} throws with {self.colour} cubes; "
                    f"a verdict needs at least {MIN_THROWS}.")
        span = ""
        if self.bias_low is not None and self.bias_high is not None:
            span = f"{name} lands at once {_range_words(self.bias_low, self.bias_high)} than the others"
        if self.verdict in ("favoured", "disfavoured"):
            seems = "favour" if self.verdict == "favoured" else "hold back"
            return (f"{span} ({_p(self.p_adjusted)} after {self.throws} throws): this tower seems to "
                    f"{seems} {self.colour}.")
        if self.verdict == "differs":
            return (f"{name} behaves differently from the others ({_p(self.p_adjusted)} after "
                    f"{self.throws} throws); it lands at once {_range_words(self.bias_low or 0, self.bias_high or 0)}, "
                    f"so whether this tower holds it back or favours it is not yet clear.")
        text = f"No sign of bias after {self.throws} throws"
        if span:
            text += f" ({span})"
        if self.detectable_bias is not None and self.detectable_bias <= REFERENCE_BIAS:
            return text + f": a bias of {self.detectable_bias * 100:.0f} % or more would have shown."
        if self.nights_for_reference is not None:
            return text + (f". Too early to tell: after about {self.nights_for_reference} more "
                           f"night{'s' if self.nights_for_reference != 1 else ''} a "
                           f"{REFERENCE_BIAS * 100:.0f} % bias would show.")
        if self.throws_for_reference is not None:
            return text + (f". Too early to tell: a {REFERENCE_BIAS * 100:.0f} % bias would show "
                           f"after about {self.throws_for_reference} throws.")
        return text + "."

    def to_dict(self) -> dict[str, Any]:
        r = lambda v, n=4: None if v is None else round(v, n)  # noqa: E731
        return {
            "colour": self.colour, "throws": self.throws, "verdict": self.verdict,
            "p_value": r(self.p_value), "p_adjusted": r(self.p_adjusted),
            "statistic": r(self.statistic, 3), "df": self.df, "bias": r(self.bias),
            "bias_low": r(self.bias_low), "bias_high": r(self.bias_high),
            "bias_level": r(self.bias_level), "detectable_bias": r(self.detectable_bias),
            "throws_for_reference": self.throws_for_reference,
            "nights_for_reference": self.nights_for_reference, "sentence": self.sentence,
        }


def _p(p: float | None) -> str:
    return "p < 0.001" if p is not None and p < 0.001 else f"p = {p:.3f}"


# -- the data: every colour's rows, with the throw's fill and size ----------------------------

@dataclass(frozen=True)
class Stacked:
    """All colours' rows together: ``colour`` indexes ``names``; equal rows merged."""

    rows: reg.Rows
    fill: np.ndarray
    size: np.ndarray
    colour: np.ndarray
    names: tuple[str, ...]

    def throws_of(self, j: int) -> int:
        return int(self.rows.w[self.colour == j].sum())

    def inside_of(self, j: int) -> float:
        sel = self.colour == j
        return float((self.rows.w[sel] * self.rows.i[sel]).sum())


def stack(table: CubeTable, colours: Iterable[str]) -> Stacked:
    """The rows of ``colours`` (those with any) from a :data:`CubeTable`."""
    names, parts = [], []
    for c in colours:
        rows = [r if len(r) >= 6 else (*r[:4], 0, 0) for r in table.get(c, []) if (r[0] or r[1]) and r[3] > 0]
        if rows:
            a = np.asarray(rows, dtype=np.int64)[:, :6]
            parts.append(np.concatenate([a, np.full((len(a), 1), len(names))], axis=1))
            names.append(c)
    if not parts:
        empty = np.zeros(0, np.int64)
        return Stacked(reg.Rows(empty, empty, empty, empty), empty, empty, empty, ())
    a = np.concatenate(parts)
    if np.any(a[:, 2] > a[:, 0] + a[:, 1]) or np.any(a[:, :3] < 0):
        raise ValueError("a throw shows more cubes than were thrown plus inside the tower")
    cols = a[:, [0, 1, 2, 4, 5, 6]]
    bases = cols.max(axis=0) + 1
    key = np.zeros(len(a), np.int64)
    for j in range(cols.shape[1]):  # one integer per distinct row: a 1-D unique is fast
        key = key * bases[j] + cols[:, j]
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    uniq = cols[first]
    w = np.bincount(inverse.reshape(-1), weights=a[:, 3], minlength=len(uniq))
    rows = reg.Rows(uniq[:, 0], uniq[:, 1], uniq[:, 2], w)
    return Stacked(rows, uniq[:, 3], uniq[:, 4], uniq[:, 5], tuple(names))


def _base_design(s: Stacked, extra: list[np.ndarray] | None = None) -> np.ndarray:
    """Intercept, fill and size (a column left out when it never varies), then ``extra``."""
    cols = [np.ones(len(s.fill))]
    for v in (s.fill, s.size):
        if len(v) and v.min() != v.max():
            cols.append(v.astype(float) / reg.SCALE)
    return np.stack(cols + list(extra or []), axis=1)


def _designs(s: Stacked, offset_of: int | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """(X_land, X_release, offsets) for the null (``offset_of`` None) or colour ``offset_of``."""
    any_inside = float((s.rows.w * s.rows.i).sum()) > 0
    ind = [] if offset_of is None else [(s.colour == offset_of).astype(float)]
    XL = _base_design(s, ind)
    release_offset = offset_of is not None and s.inside_of(offset_of) > 0
    XR = _base_design(s, ind if release_offset else []) if any_inside else np.zeros((len(s.fill), 0))
    return XL, XR, len(ind) + int(release_offset)


def _start(null: reg.RegressionFit, nl0: int, offsets: int) -> np.ndarray:
    """The null's coefficients with zero offsets inserted after the land and release columns."""
    b = null.beta
    land, release = b[:nl0], b[nl0:]
    out = [land, np.zeros(1)]
    if offsets == 2:
        out += [release, np.zeros(1)]
    else:
        out += [release]
    return np.concatenate(out)


def _relative(eta0: float, delta: float) -> float:
    return reg.expit(eta0 + delta) / reg.expit(eta0) - 1


def test_colours(data: CubeTable | list[Throw], colours: Iterable[str] = COLOURS,
                 nights: float | None = None, pooled: ColourFit | None = None,
                 interval_level: float | None = None) -> dict[str, Any]:
    """Per colour a :class:`ColourVerdict`, plus ``any_flagged`` (Holm-corrected at 5 %) and the
    :func:`model_check`. ``nights``: over how many game nights the throws were made (turns
    "after N more throws" into "after N more nights"); ``None`` when unknown. ``pooled``: the
    plain model's pooled fit of the same throws when already known (``TowerModel.pooled``):
    the model check's baseline, fitted here otherwise. ``interval_level``: the level of the bias
    ranges; ``None`` (what the page shows) is the verdict's own level 1 − 5 %/m."""
    colours = tuple(colours)
    table = data if isinstance(data, dict) else cube_table(data, colours)
    s = stack(table, colours)
    present = list(s.names)
    raw: dict[str, dict[str, Any]] = {}
    null = None
    plain = None
    if present:
        XL0, XR0, _ = _designs(s)
        plain = _plain_fit(s, XR0.shape[1] > 0, pooled)
        start = np.zeros(XL0.shape[1] + XR0.shape[1])  # from the plain fit: intercepts, no slopes
        start[0] = plain.beta[0]
        if XR0.shape[1]:
            start[XL0.shape[1]] = plain.beta[1]
        null = reg.fit(s.rows, XL0, XR0, start=start)
    for j, c in enumerate(present):
        n = s.throws_of(j)
        if n < MIN_THROWS or len(present) < 2:
            raw[c] = {"throws": n}
            continue
        XL, XR, offsets = _designs(s, j)
        stat, alt = reg.score_test(s.rows, XL, XR, _start(null, XL0.shape[1], offsets), at=null)
        raw[c] = {"throws": n, "alt": alt, "XL": XL, "offsets": offsets, "stat": stat,
                  "df": offsets, "p": chi2_sf(stat, offsets)}
    tested = sorted((c for c in raw if "p" in raw[c]), key=lambda c: raw[c]["p"])
    m, running = len(tested), 0.0
    for k, c in enumerate(tested):  # Holm: the k-th smallest times (m − k), kept monotone
        running = max(running, min(1.0, raw[c]["p"] * (m - k)))
        raw[c]["p_adj"] = running
    level = interval_level if interval_level is not None else 1 - ALPHA / max(m, 1)
    out = {c: _verdict(c, raw[c], s, present.index(c), m, level, nights) for c in present}
    return {
        "alpha": ALPHA,
        "min_throws": MIN_THROWS,
        "interval_level": round(level, 4),
        "any_flagged": any(v.verdict in ("favoured", "disfavoured", "differs") for v in out.values()),
        "enough_data": any(v.verdict != "not_enough_data" for v in out.values()),
        "colours": {c: v.to_dict() for c, v in out.items()},
        "model_check": model_check(s, null, plain),
    }


def _verdict(c: str, info: dict[str, Any], s: Stacked, j: int, m: int, level: float,
             nights: float | None) -> ColourVerdict:
    n = info["throws"]
    if "p" not in info:
        return ColourVerdict(c, n, "not_enough_data")
    alt: reg.RegressionFit = info["alt"]
    nl = info["XL"].shape[1]
    delta = float(alt.beta[nl - 1])
    # the others' landing chance at this colour's throws (weighted by its cubes thrown)
    sel = s.colour == j
    eta = info["XL"][sel, : nl - 1] @ alt.beta[: nl - 1]
    cubes = s.rows.w[sel] * s.rows.t[sel]
    eta0 = float(np.average(eta, weights=cubes)) if cubes.sum() else float(eta.mean())
    bias = _relative(eta0, delta)
    low = high = detectable = needed = more_nights = None
    if alt.cov is not None:
        idx = [nl - 1] + ([alt.beta.size - 1] if info["offsets"] == 2 else [])
        sub = alt.cov[np.ix_(idx, idx)]
        z = z_quantile(1 - (1 - level) / 2)
        se = math.sqrt(sub[0, 0])
        low, high = _relative(eta0, delta - z * se), _relative(eta0, delta + z * se)
        # the land offset's information with the release offset free: [Σ⁻¹]₁₁
        info11 = float(np.linalg.inv(sub)[0, 0])
        lam = noncentrality_for_power(info["df"], ALPHA / m, POWER)
        d_det = math.sqrt(lam / info11)
        detectable = max(-_relative(eta0, -d_det), _relative(eta0, d_det))
        p0 = reg.expit(eta0)
        d_ref = min(abs(reg.logit(p0 * (1 - REFERENCE_BIAS)) - eta0),
                    abs(reg.logit(min(p0 * (1 + REFERENCE_BIAS), 0.999)) - eta0))
        needed = int(math.ceil(n * (d_det / d_ref) ** 2))
        if nights and nights > 0:
            more_nights = max(0, int(math.ceil((needed - n) / (n / nights))))
    flagged = info["p_adj"] < ALPHA
    if not flagged:
        verdict = "no_sign"
    elif low is not None and low < 0 < high:
        verdict = "differs"  # a difference, but not (yet) clearly in the landing chance
    else:
        verdict = "favoured" if bias > 0 else "disfavoured"
    return ColourVerdict(c, n, verdict, info["p"], info["p_adj"], info["stat"], info["df"], bias,
                         low, high, level, detectable, needed, more_nights)


def _plain_fit(s: Stacked, any_inside: bool, pooled: ColourFit | None) -> reg.RegressionFit:
    """The plain model (fixed chances, all colours alike) in the regression's terms; from the
    EM fit ``pooled`` of the same throws when given (the same likelihood, tested)."""
    if pooled is not None and pooled.land is not None and (pooled.release is not None) == any_inside:
        beta = [reg.logit(pooled.land.estimate)] + ([reg.logit(pooled.release.estimate)] if any_inside else [])
        return reg.RegressionFit(np.array(beta), None, pooled.loglik, 1)
    ones = np.ones((len(s.fill), 1))
    return reg.fit(s.rows, ones, ones if any_inside else ones[:, :0])


def model_check(s: Stacked, covariate: reg.RegressionFit | None,
                plain: reg.RegressionFit | None) -> dict[str, Any]:
    """Goodness of fit of the plain model (fixed chances) against chances that depend on the
    throw's fill and size, on all colours' throws: a likelihood-ratio test, and the fitted
    chances in an empty and a filled tower and for a small and a big throw."""
    throws = int(s.rows.w.sum()) if len(s.rows) else 0
    out: dict[str, Any] = {"throws": throws, "min_throws": MIN_THROWS, "enough_data": False,
                           "statistic": None, "df": None, "p_value": None, "fits": None,
                           "land_empty": None, "land_filled": None, "release_small": None,
                           "release_big": None, "reference_fill": REFERENCE_FILL}
    if covariate is None or plain is None or throws < MIN_THROWS:
        return {**out, "sentence": f"Not enough data yet: {throws} throws; the check needs at least {MIN_THROWS}."}
    XL, XR, _ = _designs(s)
    df = XL.shape[1] - 1 + max(XR.shape[1] - 1, 0)
    if df == 0:
        return {**out, "sentence": "Every throw so far had the same fill and size: nothing to compare yet."}
    stat = max(0.0, 2 * (covariate.loglik - plain.loglik))
    p = chi2_sf(stat, df)
    fits = p >= ALPHA
    w = s.rows.w
    mean_fill = float(np.average(s.fill, weights=w))
    mean_size = float(np.average(s.size, weights=w))
    cols = _base_design(s).shape[1]
    has_fill = len(s.fill) and s.fill.min() != s.fill.max()
    has_size = len(s.size) and s.size.min() != s.size.max()

    def chance(beta: np.ndarray, fill: float, size: float) -> float:
        x = [1.0] + ([fill / reg.SCALE] if has_fill else []) + ([size / reg.SCALE] if has_size else [])
        return reg.expit(float(np.dot(x, beta[:cols])))

    b = covariate.beta
    land_empty, land_filled = chance(b, 0, mean_size), chance(b, REFERENCE_FILL, mean_size)
    rel = (chance(b[cols:], mean_fill, 2), chance(b[cols:], mean_fill, 10)) if XR.shape[1] else (None, None)
    out.update(enough_data=True, statistic=round(stat, 3), df=df, p_value=round(p, 4), fits=fits,
               land_empty=round(land_empty, 4), land_filled=round(land_filled, 4),
               release_small=None if rel[0] is None else round(rel[0], 4),
               release_big=None if rel[1] is None else round(rel[1], 4))
    if fits:
        sentence = (f"The tower model fits this tower: no sign that its chances depend on how full "
                    f"it is or how many cubes are thrown ({_p(p)} after {throws} throws).")
    else:
        sentence = (f"This tower's chances depend on how full it is or how many cubes are thrown "
                    f"({_p(p)} after {throws} throws): a cube lands at once {land_empty * 100:.0f} % "
                    f"of the time in an empty tower, {land_filled * 100:.0f} % with {REFERENCE_FILL} "
                    f"cubes inside")
        if rel[0] is not None:
            sentence += (f"; a cube inside comes out {rel[0] * 100:.0f} % of the time with a throw "
                         f"of 2 cubes, {rel[1] * 100:.0f} % with 10")
        sentence += (". The fairness verdict takes this into account; the chances per colour and "
                     "the odds assume fixed chances and are less exact.")
    return {**out, "sentence": sentence}
