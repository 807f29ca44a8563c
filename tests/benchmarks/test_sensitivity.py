"""The sensitivity benchmark varies what it says it varies, and puts everything back."""

import importlib
import sys

import numpy as np
import pytest

from benchmarks import sensitivity
from benchmarks.drift import DRIFTS


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@pytest.mark.parametrize("module, name", sensitivity.CONSTANTS)
def test_every_listed_constant_is_a_number_or_a_tuple_of_numbers_of_its_module(module, name):
    value = getattr(importlib.import_module(module), name)
    assert _number(value) or (isinstance(value, tuple) and value and all(map(_number, value)))


def test_a_tuple_is_moved_one_element_at_a_time_and_put_back():
    from companion.vision import classify, lit_faces

    assert sensitivity.variants(classify.SHADES) == [0, 1] and sensitivity.variants(lit_faces.LIT) == [None]
    shades, tray = classify.SHADES, classify.TRAY_SHADES
    with sensitivity.changed("companion.vision.classify", "SHADES", 0.8, 0) as value:
        assert value == pytest.approx((shades[0] * 0.8, shades[1]))
        assert classify.SHADES is value and classify.TRAY_SHADES is tray  # a namesake's value is not touched
        ref = classify.Reference.from_lab(1, np.array([[120.0, 170.0, 150.0]] * 3))
        assert ref.shades is value  # what the counter reads at run time
    assert classify.SHADES is shades
    with sensitivity.changed("companion.vision.lit_faces", "FACE_EDGES", 1.25, 1) as value:
        assert value == (20, 62) and isinstance(value[1], int)  # integers stay integers
    assert lit_faces.FACE_EDGES == (20, 50)


def test_a_change_reaches_every_module_that_imported_the_constant_and_is_undone():
    from companion.vision import counting, placing

    original = placing.CONTENDER
    with sensitivity.changed("companion.vision.placing", "CONTENDER", 1.25) as value:
        assert value == pytest.approx(original * 1.25)
        holders = [m for key, m in sys.modules.items() if key.startswith("companion.vision")
                   and getattr(m, "CONTENDER", None) is value]
        assert placing in holders
    assert placing.CONTENDER is original
    assert counting.MIN_FRACTION == 0.5  # nothing else was touched


def test_an_unknown_drift_is_refused_before_anything_runs(capsys):
    with pytest.raises(SystemExit):
        sensitivity.main(["--frames", "0", "--drift", "no such drift"])
    assert "invalid choice" in capsys.readouterr().err
    assert "haze (blacks +15 %)" in DRIFTS  # the name the docs use
