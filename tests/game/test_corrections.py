"""``correct``: logged manual fixes that keep the cube accounting exact."""

import pytest

from companion.game.engine import decide, replay
from companion.game.errors import InvalidCommandError

from .conftest import conserved, fix, in_actions, run


def test_correction_sets_absolute_values_and_logs_the_reason():
    s = in_actions()
    t = run(s, type="correct", reason="Ani had 8 gold, not 7", resources=[{"player": "blue", "gold": 8, "vp": 3}],
            cards=[{"region": "foothold", "holder": "blue"}],
            armies=[{"region": "foothold", "realm": "light", "color": "blue", "count": 2}])
    assert t.player("blue").gold == 8 and t.player("blue").vp == 3 and t.cards["foothold"] == "blue"
    assert t.armies("foothold", "light", "blue") == 2 and t.unaccounted == {"blue": 2}
    assert t.log[-1]["command"]["reason"] == "Ani had 8 gold, not 7"
    assert t.turn == s.turn and conserved(t) and replay(t.log) == t


def test_tray_and_limbo_corrections_are_booked_as_unaccounted():
    t = fix(in_actions(), tray={"green": 1, "red": 1}, limbo=[{"player": "red", "realm": "dark", "count": 0}])
    assert t.tray == {"green": 1, "red": 1}
    assert t.unaccounted == {"green": -1, "red": 1 - 3}
    assert conserved(t)


@pytest.mark.parametrize(
    "fields, words",
    [
        ({}, "changes nothing"),
        ({"armies": [{"region": "atlantis", "realm": "light", "color": "red", "count": 1}]}, "no region “atlantis”"),
        ({"armies": [{"region": "foothold", "realm": "light", "color": "black", "count": 1}]}, "Black is not playing"),
        ({"limbo": [{"player": "red", "realm": "light", "count": -1}]}, "0 or more"),
        ({"buildings": [{"region": "foothold", "realm": "light", "building": "tower"}]}, "none, shrine or capital"),
        ({"resources": [{"gold": 1}]}, "needs “player”"),
    ],
)
def test_bad_corrections_are_refused(fields, words):
    with pytest.raises(InvalidCommandError, match=words):
        decide(in_actions(), {"type": "correct", "reason": "fix", **fields})
