"""Odds for a colour with little data of its own: shrunk towards the pooled fit (issue 23)."""

from __future__ import annotations

import numpy as np

from companion.analysis.odds import battle_odds
from companion.analysis.tower_model import ColourFit, Interval, Throw, TowerModel, fit_tower

from .games_sim import Tower, games, throw

TRUE = Tower(land=0.6, release=0.2)


def _truth() -> TowerModel:
    fit = ColourFit(Interval(0.6, 0.6, 0.6), Interval(0.2, 0.2, 0.2), 1, 1, 1, 0.0)
    return TowerModel({}, fit, 1, 1)


def _first_black_battle(seed: int) -> tuple[float, float, float]:
    """200 battles of red, blue and yellow (with their seedings), then a game that seeds black
    for the first time and black's first battle, against blue, neutral inhabitants: the model's
    win chance, the true one, and what black's own fit alone would have said."""
    logged = [x if kind == "seeding" else x.throw
              for kind, x in games(13, seed, TRUE, battles=15)][:208]
    rng = np.random.default_rng(10_000 + seed)
    seeding = {"red": 7, "blue": 7, "black": 7, "green": 10}
    seen = throw(rng, TRUE, seeding, {})
    logged.append(Throw(seeding, {}, seen))
    model = fit_tower(logged)
    inside = {c: seeding[c] - seen.get(c, 0) for c in seeding}
    battle = ("black", "blue", "neutral", {"black": 4, "blue": 3, "green": 2}, inside)
    shown = battle_odds(model, *battle, seed=seed)
    truth = battle_odds(_truth(), *battle, draws=200_000, seed=seed)
    own = model.colours["black"]
    alone = TowerModel({}, own if own.release else ColourFit(own.land, model.pooled.release, 1, 1, 1, 0.0), 1, 1)
    return shown.win, truth.win, battle_odds(alone, *battle, seed=seed).win


def test_black_first_battle_after_200_battles_is_within_a_few_points() -> None:
    errors, alone = [], []
    for seed in range(30):
        shown, truth, own = _first_black_battle(seed)
        errors.append(abs(shown - truth))
        alone.append(abs(own - truth))
    assert max(errors) < 0.05, max(errors)
    assert np.mean(errors) < 0.02, np.mean(errors)
    # the mechanism matters: black's own fit from its one throw is far off in many groups
    assert np.mean(alone) > 3 * np.mean(errors), (np.mean(alone), np.mean(errors))
    assert np.mean(np.array(alone) > 0.05) > 0.2, alone


def test_a_colour_with_much_data_in_a_biased_tower_keeps_its_own_chances() -> None:
    biased = Tower(land=0.6, release=0.2, land_of={"red": 0.7})  # red lands at 0.42
    model = fit_tower([x if k == "seeding" else x.throw for k, x in games(60, 5, biased)])
    red, blue = model.params("red"), model.params("blue")
    assert abs(red[0] - 0.42) < 0.04, red
    assert abs(blue[0] - 0.6) < 0.04, blue


def test_a_fair_tower_gives_every_colour_nearly_the_pooled_chances() -> None:
    model = fit_tower([x if k == "seeding" else x.throw for k, x in games(20, 6, TRUE)])
    pooled = model.pooled.land.estimate
    for colour in model.colours:
        assert abs(model.params(colour)[0] - pooled) < 0.03, (colour, model.params(colour), pooled)


def test_a_colour_without_a_fit_takes_the_pooled_chances() -> None:
    model = fit_tower([x if k == "seeding" else x.throw for k, x in games(2, 7, TRUE)])
    assert model.params("purple") == (model.pooled.land.estimate, model.pooled.release.estimate)
