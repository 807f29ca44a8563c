"""Tower accounting: impossible readings are explained colour by colour."""

import pytest

from companion.game.errors import ImpossibleReadingError
from companion.game.tower import check_reading, reading_problems


def test_possible_reading_passes():
    check_reading({"red": 2, "green": 3}, {"red": 3, "green": 1}, {"red": 5, "green": 4})


def test_more_than_thrown_plus_interior_names_colour_and_numbers():
    with pytest.raises(ImpossibleReadingError) as info:
        check_reading({"red": 1}, {"red": 3}, {"red": 5})
    assert "5 red cubes, but only 3 were thrown and the tower should hold 1 more, so at most 4" in str(info.value)
    assert "Recount" in str(info.value)


def test_colour_not_in_game_and_more_than_exist():
    problems = reading_problems({}, {}, {"black": 1}, in_game=["red", "blue", "yellow"])
    assert [str(p) for p in problems] == ["The tray shows 1 black cube, but black is not playing in this game."]
    problems = reading_problems({"green": 30}, {}, {"green": 21})
    assert [str(p) for p in problems] == ["The tray shows 21 green cubes, but only 20 exist."]
    assert problems[0].render("de") == "In der Schale liegen 21 Würfel (Grün), aber es gibt nur 20."


def test_each_bad_colour_reported():
    assert len(reading_problems({}, {"red": 1}, {"red": 2, "blue": 1}, ["red", "blue"])) == 2
