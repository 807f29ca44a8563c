"""The per-object matching of benchmarks/stages.py and the calibrations benchmarks/vision.py
makes from a set's own true boxes."""

import pytest

from benchmarks.realsets import CANDY, DOBOT
from benchmarks.stages import Stages, match, scaled
from benchmarks.vision import other_calibrations
from companion.vision.counting import CubeDetection, TrayCount


def _count(cubes=(), unknown_boxes=()) -> TrayCount:
    counts = {}
    for c in cubes:
        counts[c.color] = counts.get(c.color, 0) + 1
    return TrayCount(counts, tuple(cubes), len(unknown_boxes), 0.0, tuple(unknown_boxes))


def test_boxes_follow_a_photo_that_was_resized():
    boxes = [("red", 100, 200, 60, 80), ("blue", 10, 11, 20, 21)]
    assert scaled(boxes, 0.5) == [("red", 50, 100, 30, 40), ("blue", 5, 6, 10, 10)]
    assert scaled(boxes, 1.0) == boxes
    # A cube found where the red object lies in the photo made 0.6 times as large.
    cube = CubeDetection("red", 78.0, 144.0, 0.9, (60, 120, 36, 48))
    assert match(scaled(boxes, 0.6), _count([cube]))["right"] == 1
    assert match(boxes, _count([cube]))["right"] == 0  # the boxes as they were miss it


def test_outcomes_of_two_runs_add_up():
    boxes = [("red", 100, 200, 60, 80), ("blue", 300, 300, 50, 50)]
    one, two = Stages(), Stages()
    one.add("a.jpg", boxes, _count([CubeDetection("red", 130.0, 240.0, 0.9, (100, 200, 60, 80))]))
    two.add("b.jpg", boxes, _count(unknown_boxes=[(290, 290, 80, 80)]))
    one.extend(two)
    assert (one.objects, one.right, one.flagged, one.missed) == (4, 1, 1, 2)
    assert one.missed_in == ["a.jpg", "b.jpg"]


def test_an_object_neither_counted_nor_flagged_is_missed_silently():
    boxes = [("red", 100, 200, 60, 80), ("blue", 300, 300, 50, 50)]
    outcome = match(boxes, _count(unknown_boxes=[(290, 290, 80, 80)]))
    assert (outcome["flagged"], outcome["missed"]) == (1, 1)


@pytest.mark.skipif(not DOBOT.present, reason=f"real photo set missing: {DOBOT.folder}")
def test_other_calibrations_take_a_true_box_of_every_colour_from_other_photos():
    truth, boxes = DOBOT.truth(), DOBOT.boxes()
    chances = other_calibrations(DOBOT)
    colours = [s.color for s in DOBOT.samples]
    assert len(chances) >= 20
    for name, samples in chances:
        assert name != DOBOT.calibration_photo and name in truth
        assert [s.color for s in samples] == colours
        for s in samples:
            assert (s.color, *s.box) in [tuple(b) for b in boxes[name]]


def test_a_set_without_boxes_has_no_other_calibrations():
    if CANDY.present:
        assert CANDY.boxes() is None
    assert other_calibrations(CANDY) == []
