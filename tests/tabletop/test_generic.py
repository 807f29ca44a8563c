"""Any game: winners from scores, ranks or the table's word; shared wins; a result once."""

from __future__ import annotations

import pytest

from companion.tabletop import parse_event, rules_for
from companion.tabletop.errors import GameOverError, InvalidEventError, UnknownGameError, UnknownPlayerError

RULES = rules_for("generic")
P = ["p1", "p2", "p3"]


def result(**fields):
    return RULES.apply(RULES.new_state(P, {}), parse_event(RULES, {"type": "result", **fields}))


def test_winners_from_scores_ranks_or_named():
    assert RULES.winners(result(scores={"p1": 10, "p2": 12, "p3": -3})) == ["p2"]
    assert RULES.winners(result(scores={"p1": 10, "p2": 12, "p3": 10}, lowest_wins=True)) == ["p1", "p3"]
    assert RULES.winners(result(ranks={"p1": 2, "p2": 1, "p3": 1})) == ["p2", "p3"]
    assert RULES.winners(result(winners=["p3"], scores={"p1": 1, "p2": 2, "p3": 0})) == ["p3"]
    assert RULES.winners(result(winners=[])) == []  # nobody won (a co-op loss)


def test_bad_results_are_refused():
    with pytest.raises(UnknownPlayerError):
        result(scores={"p1": 1, "p2": 2, "p9": 3})
    with pytest.raises(InvalidEventError, match="missing"):
        result(scores={"p1": 1})
    with pytest.raises(InvalidEventError):
        result(ranks={"p1": 4, "p2": 1, "p3": 2})
    with pytest.raises(InvalidEventError):
        parse_event(RULES, {"type": "result"})
    done = result(scores={"p1": 1, "p2": 2, "p3": 3})
    with pytest.raises(GameOverError):
        RULES.apply(done, parse_event(RULES, {"type": "result", "winners": ["p1"]}))
    with pytest.raises(UnknownGameError):
        rules_for("chess")
