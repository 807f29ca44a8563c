"""Per photo, whether the table was told to look: a miscounted photo with nothing flagged
decides a battle wrongly without a word (``untold``); an exact photo with a flag costs a look
for nothing (``alarms``) — the number that keeps "flag everything" from passing for safety."""

from benchmarks.vision import Score, told
from companion.vision.counting import Doubt, TrayCount


def _reading(unknown: int = 0, doubtful: bool = False) -> TrayCount:
    doubts = (Doubt("red", 1, "size", "2", 10.0, 10.0, (0, 0, 20, 20)),) if doubtful else ()
    return TrayCount({"red": 1}, (), unknown, 1.0, doubtful=doubts)


def test_a_doubt_or_an_unknown_beyond_the_foreign_objects_tells():
    assert not told(_reading())
    assert told(_reading(doubtful=True))
    assert told(_reading(unknown=1))
    assert not told(_reading(unknown=1), foreign=1)  # the die truly in the photo, said as such
    assert told(_reading(unknown=2), foreign=1)


def test_untold_miscounts_and_alarms_are_kept_apart():
    score = Score("ours")
    truth = {"red": 2}
    score.add("wrong, silent", truth, {"red": 1}, (1.0, 1.0), 1.0, 0, flagged=False)
    score.add("wrong, told", truth, {"red": 3}, (1.0, 1.0), 1.0, 0, flagged=True)
    score.add("right, flagged", truth, {"red": 2}, (1.0, 1.0), 1.0, 0, flagged=True)
    score.add("right, quiet", truth, {"red": 2}, (1.0, 1.0), 1.0, 0, flagged=False)
    assert score.flags
    assert score.untold == ["wrong, silent"]
    assert score.alarms == 1
    assert score.told_line() == ("    photos miscounted 2: with a flag 1, untold 1; "
                                 "exact photos flagged anyway 1 of 2")


def test_a_counter_that_never_flags_reports_no_told_line():
    baseline = Score("baseline (HSV)")
    baseline.add("wrong", {"red": 2}, {"red": 1}, (1.0, 1.0), 1.0)
    assert not baseline.flags and baseline.untold == [] and baseline.alarms == 0


def test_a_reading_is_scored_with_its_unknowns_beyond_the_foreign_objects():
    score = Score("ours")
    score.add_reading("die said", {"red": 2}, _reading(unknown=1), (1.0, 1.0), 1.0, foreign=1)
    assert (score.unknown, score.untold) == (0, ["die said"])  # the die is no flag on the count
    score.add_reading("die and more", {"red": 1}, _reading(unknown=2), (1.0, 1.0), 1.0, foreign=1)
    assert (score.unknown, score.alarms) == (1, 1)
