"""Does this tower favour a colour? A likelihood-ratio test per colour, stated honestly.

For each colour ``c``: the null hypothesis is that ``c`` behaves like every other colour (one
``land`` and one ``release`` chance shared by all); the alternative lets ``c`` have its own pair
while the others share theirs. ``LR = 2·(ℓ_alt − ℓ_null)`` is χ² with as many degrees of freedom
as ``c`` has free parameters (2, or 1 when none of its cubes was ever inside during a throw).
The verdict corrects for testing several colours (Holm), so a fair tower is flagged in at most
5 % of groups, not 5 % per colour.

With fewer than :data:`MIN_THROWS` throws of a colour there is no verdict, only "not enough data
yet". Otherwise the answer also says how large a bias the data could have detected (the relative
difference in the chance to land at once that a 5 % test finds with 80 % power) and after about
how many throws a 10 % bias would show.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.analysis.tests import chi2_sf, z_quantile
from companion.analysis.tower_model import (
    COLOURS,
    ColourFit,
    CubeTable,
    Throw,
    colour_arrays,
    cube_table,
    fit_arrays,
)

ALPHA = 0.05
POWER = 0.80
MIN_THROWS = 30
REFERENCE_BIAS = 0.10  # "a 10 % bias would show after about N throws"


@dataclass(frozen=True)
class ColourVerdict:
    colour: str
    throws: int
    verdict: str  # not_enough_data | no_sign | favoured | disfavoured
    p_value: float | None = None
    p_adjusted: float | None = None
    statistic: float | None = None
    df: int | None = None
    bias: float | None = None  # relative difference of the landing chance vs the others
    detectable_bias: float | None = None
    throws_for_reference: int | None = None

    @property
    def sentence(self) -> str:
        if self.verdict == "not_enough_data":
            return (f"Not enough data yet: {self.throws} throws with {self.colour} cubes; "
                    f"a verdict needs at least {MIN_THROWS}.")
        if self.verdict in ("favoured", "disfavoured"):
            more = "more" if self.verdict == "favoured" else "less"
            return (f"{self.colour.capitalize()} cubes land at once {abs(self.bias or 0) * 100:.0f} % "
                    f"{more} often than the others ({_p(self.p_adjusted)} after "
                    f"{self.throws} throws) — this tower seems to {'favour' if more == 'more' else 'hold back'} "
                    f"{self.colour}.")
        text = f"No sign of bias after {self.throws} throws"
        if self.detectable_bias is not None and self.detectable_bias <= REFERENCE_BIAS:
            return text + f"; a bias of {self.detectable_bias * 100:.0f} % or more would have shown."
        if self.throws_for_reference is not None:
            return text + (f"; a {REFERENCE_BIAS * 100:.0f} % bias would show after about "
                           f"{self.throws_for_reference} throws.")
        return text + "."

    def to_dict(self) -> dict[str, Any]:
        r = lambda v, n=4: None if v is None else round(v, n)  # noqa: E731
        return {
            "colour": self.colour, "throws": self.throws, "verdict": self.verdict,
            "p_value": r(self.p_value), "p_adjusted": r(self.p_adjusted),
            "statistic": r(self.statistic, 3), "df": self.df, "bias": r(self.bias),
            "detectable_bias": r(self.detectable_bias),
            "throws_for_reference": self.throws_for_reference, "sentence": self.sentence,
        }


def _p(p: float | None) -> str:
    return "p < 0.001" if p is not None and p < 0.001 else f"p = {p:.3f}"


def _land_var(fit: ColourFit) -> float | None:
    """Variance of the landing chance (delta method from the logit scale)."""
    if fit.land is None or fit.cov is None or not math.isfinite(fit.cov[0][0]):
        return None
    p = fit.land.estimate
    return (p * (1 - p)) ** 2 * fit.cov[0][0]


def test_colours(data: CubeTable | list[Throw], colours: Iterable[str] = COLOURS) -> dict[str, Any]:
    """Per colour a :class:`ColourVerdict`, plus ``any_flagged`` (Holm-corrected at 5 %)."""
    colours = tuple(colours)
    throws = data if isinstance(data, dict) else cube_table(data, colours)
    present = [c for c in colours if fit_arrays(*colour_arrays(throws, (c,))).throws > 0]
    null = fit_arrays(*colour_arrays(throws, present)) if present else None
    raw: dict[str, dict[str, Any]] = {}
    for c in present:
        own = fit_arrays(*colour_arrays(throws, (c,)))
        rest_colours = [x for x in present if x != c]
        if own.throws < MIN_THROWS or not rest_colours or own.land is None:
            raw[c] = {"own": own}
            continue
        rest = fit_arrays(*colour_arrays(throws, rest_colours))
        df = (own.land is not None) + (own.release is not None)
        stat = max(0.0, 2 * (own.loglik + rest.loglik - null.loglik)) if null else 0.0
        raw[c] = {"own": own, "rest": rest, "stat": stat, "df": df, "p": chi2_sf(stat, df)}
    # Holm: sort the p-values, multiply the j-th smallest by (m − j), keep them monotone.
    tested = sorted((c for c in raw if "p" in raw[c]), key=lambda c: raw[c]["p"])
    m, running = len(tested), 0.0
    for j, c in enumerate(tested):
        running = max(running, min(1.0, raw[c]["p"] * (m - j)))
        raw[c]["p_adj"] = running
    out: dict[str, ColourVerdict] = {}
    z = z_quantile(1 - ALPHA / 2) + z_quantile(POWER)
    for c in present:
        info, own = raw[c], raw[c]["own"]
        if "p" not in info:
            out[c] = ColourVerdict(c, own.throws, "not_enough_data")
            continue
        rest = info["rest"]
        bias = own.land.estimate / rest.land.estimate - 1 if rest.land and rest.land.estimate else None
        v_own, v_rest = _land_var(own), _land_var(rest)
        detectable = needed = None
        if v_own is not None and v_rest is not None and rest.land and rest.land.estimate > 0:
            detectable = z * math.sqrt(v_own + v_rest) / rest.land.estimate
            needed = int(math.ceil(own.throws * (detectable / REFERENCE_BIAS) ** 2))
        flagged = info["p_adj"] < ALPHA
        verdict = "no_sign" if not flagged else ("favoured" if (bias or 0) > 0 else "disfavoured")
        out[c] = ColourVerdict(c, own.throws, verdict, info["p"], info["p_adj"], info["stat"],
                               info["df"], bias, detectable, needed)
    return {
        "alpha": ALPHA,
        "min_throws": MIN_THROWS,
        "any_flagged": any(v.verdict in ("favoured", "disfavoured") for v in out.values()),
        "enough_data": any(v.verdict != "not_enough_data" for v in out.values()),
        "colours": {c: v.to_dict() for c, v in out.items()},
    }
