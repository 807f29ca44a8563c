"""The sensitivity benchmark varies what it says it varies, and puts everything back."""

import importlib
import sys

import pytest

from benchmarks import sensitivity
from benchmarks.drift import DRIFTS


@pytest.mark.parametrize("module, name", sensitivity.CONSTANTS)
def test_every_listed_constant_is_a_number_of_its_module(module, name):
    value = getattr(importlib.import_module(module), name)
    assert isinstance(value, (int, float)) and not isinstance(value, bool)


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
