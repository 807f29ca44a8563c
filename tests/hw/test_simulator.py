"""The seeded tower model: determinism, conservation of cubes, clean refusal of bad throws."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hw.errors import InvalidThrowError
from companion.hw.simulator import COLOURS, TowerSimulator

throws = st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 12), max_size=6)


def total(d):
    return {c: d.get(c, 0) for c in COLOURS}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), sequence=st.lists(throws, min_size=1, max_size=6))
def test_no_cube_is_created_or_lost(seed, sequence):
    sim = TowerSimulator(seed=seed)
    for thrown in sequence:
        before = total(sim.interior)
        fallen = sim.throw(thrown)
        after = total(sim.interior)
        for c in COLOURS:
            assert before[c] + thrown.get(c, 0) == after[c] + fallen.get(c, 0)
            assert after[c] >= 0 and fallen.get(c, 0) >= 0


def test_same_seed_same_story():
    a, b = TowerSimulator(seed=42), TowerSimulator(seed=42)
    story = [{"red": 7, "blue": 7, "green": 10}, {"red": 3, "green": 1}, {"blue": 4}]
    assert [a.throw(t) for t in story] == [b.throw(t) for t in story]
    assert a.interior == b.interior


def test_different_seeds_differ_somewhere():
    results = {
        tuple(sorted(TowerSimulator(seed=s).throw({"red": 20, "green": 20}).items()))
        for s in range(10)
    }
    assert len(results) > 1


def test_tower_keeps_and_releases_cubes():
    sim = TowerSimulator(seed=3, retain_probability=1.0, release_probability=0.0)
    assert sim.throw({"purple": 4}) == {}
    assert sim.interior == {"purple": 4}
    sim.release_probability = 1.0
    sim.retain_probability = 0.0
    assert sim.throw({"yellow": 2}) == {"purple": 4, "yellow": 2}
    assert sim.interior == {}


def test_fallen_cubes_collect_in_the_tray_until_emptied():
    sim = TowerSimulator(seed=1, retain_probability=0.0, release_probability=0.0)
    sim.throw({"red": 2})
    sim.throw({"red": 1, "green": 1})
    assert sim.tray == {"red": 3, "green": 1}
    assert sim.empty_tray() == {"red": 3, "green": 1}
    assert sim.tray == {}


def test_tray_moves_for_some_frames_then_settles():
    sim = TowerSimulator(seed=5, settle_frames=(2, 2))
    assert not sim.moving
    sim.throw({"red": 1})
    assert sim.moving
    sim.advance_frame()
    assert sim.moving
    sim.advance_frame()
    assert not sim.moving
    sim.advance_frame()
    assert sim.frames_until_settled == 0


@pytest.mark.parametrize(
    "bad, words",
    [
        ({"pink": 2}, "no 'pink' cubes"),
        ({"red": -1}, "zero or more"),
        ({"red": 1.5}, "whole number"),
        ({"red": True}, "whole number"),
        ([("red", 1)], "per colour"),
    ],
)
def test_bad_throw_is_refused_and_changes_nothing(bad, words):
    sim = TowerSimulator(seed=9, interior={"red": 2})
    sim.throw({"blue": 3})
    interior, tray, throws = sim.interior, sim.tray, sim.throws
    with pytest.raises(InvalidThrowError, match=words):
        sim.throw(bad)
    assert (sim.interior, sim.tray, sim.throws) == (interior, tray, throws)
    # and the random stream is untouched: a twin that never saw the bad throw agrees
    twin = TowerSimulator(seed=9, interior={"red": 2})
    twin.throw({"blue": 3})
    assert sim.throw({"green": 5}) == twin.throw({"green": 5})


def test_bad_probabilities_are_refused():
    with pytest.raises(InvalidThrowError, match="between 0 and 1"):
        TowerSimulator(retain_probability=1.5)
    with pytest.raises(ValueError):
        TowerSimulator(settle_frames=(5, 2))


def test_restore_puts_the_tower_in_a_known_state():
    sim = TowerSimulator(seed=4, retain_probability=0.0, release_probability=1.0)
    sim.restore({"red": 2, "green": 1}, {"blue": 1})
    assert (sim.interior, sim.tray) == ({"red": 2, "green": 1}, {"blue": 1})
    assert sim.throw({"yellow": 1}) == {"red": 2, "green": 1, "yellow": 1}
    with pytest.raises(InvalidThrowError, match="tray"):
        sim.restore({}, {"red": -1})
    assert sim.interior == {}  # the refused restore changed nothing
