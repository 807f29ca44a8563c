"""The fairness test: a biased tower is caught, a fair one rarely flagged, small data no verdict."""

from __future__ import annotations

from companion.analysis.fairness import MIN_THROWS, test_colours as fairness

from .sim import battles


def throws(n: int, seed: int, **kw):  # noqa: ANN001, ANN201
    return [b.throw for b in battles(n, seed, **kw)]


def test_a_tower_biased_against_red_is_detected() -> None:
    for seed in range(5):
        result = fairness(throws(400, seed, land_of={"red": 0.45}))
        red = result["colours"]["red"]
        assert red["verdict"] == "disfavoured", red
        assert red["bias"] < -0.1
        assert "red" in red["sentence"]


def test_a_fair_tower_is_flagged_in_at_most_5_percent_of_seeds() -> None:
    flagged = sum(fairness(throws(300, 1000 + seed))["any_flagged"] for seed in range(100))
    assert flagged <= 5, flagged


def test_few_battles_give_no_verdict() -> None:
    result = fairness(throws(MIN_THROWS // 3, 3, land_of={"red": 0.1}))
    assert not result["enough_data"]
    for v in result["colours"].values():
        assert v["verdict"] == "not_enough_data"
        assert v["p_value"] is None
        assert "Not enough data yet" in v["sentence"]


def test_the_sentence_states_what_could_have_been_seen() -> None:
    v = fairness(throws(300, 11))["colours"]["blue"]
    assert v["verdict"] == "no_sign"
    assert v["detectable_bias"] > 0 and v["throws_for_reference"] > 0
    assert v["sentence"].startswith(f"No sign of bias after {v['throws']} throws")


def test_no_throws_at_all() -> None:
    result = fairness([])
    assert result["colours"] == {} and not result["enough_data"] and not result["any_flagged"]
