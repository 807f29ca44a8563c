import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.vision.placing import _seat_every, largest_remainder


@pytest.mark.parametrize("votes, n, seats", [
    ([756, 374, 372], 4, [2, 1, 1]),  # two reds, a yellow and a purple in one cluster
    ([500, 500], 1, [1, 0]),  # a tie goes to the first, always the same way
    ([100, 0, 10], 2, [2, 0, 0]),
])
def test_seats_follow_the_colours_areas(votes, n, seats):
    assert largest_remainder(np.array(votes, float), n).tolist() == seats


@given(st.lists(st.floats(0.0, 1e4), min_size=1, max_size=6).filter(lambda v: sum(v) > 1.0),
       st.integers(1, 30))
def test_every_seat_is_given_out_and_none_is_negative(votes, n):
    seats = largest_remainder(np.array(votes), n)
    assert seats.sum() == n and (seats >= 0).all()
    quota = np.array(votes) / sum(votes) * n
    assert (np.abs(seats - quota) < 1.0 + 1e-9).all()  # never a whole seat away from its share


def _blob_with(colours: dict[int, tuple[int, float, float]]):
    """A one-blob stand-in for :class:`Blobs`: per colour code, pixel count and centroid."""
    from types import SimpleNamespace

    from companion.vision.segment import N_CLASSES

    histogram = np.zeros((2, N_CLASSES))
    sum_x, sum_y = np.zeros((2, N_CLASSES)), np.zeros((2, N_CLASSES))
    for code, (pixels, x, y) in colours.items():
        histogram[1, code], sum_x[1, code], sum_y[1, code] = pixels, pixels * x, pixels * y
    return SimpleNamespace(histogram=histogram, sum_x=sum_x, sum_y=sum_y)


def _strip_of(parts: tuple[tuple[int, int], ...]):
    """A class map of one 10-pixel-high strip of touching parts, (colour code, width) left to
    right from x = 1: the map, its blobs and the strip's label."""
    from companion.vision.segment import find_blobs

    classes = np.zeros((12, 2 + sum(w for _, w in parts)), np.uint8)
    x = 1
    for code, width in parts:
        classes[1:11, x:x + width] = code
        x += width
    blobs = find_blobs(classes)
    return classes, blobs, int(blobs.labels[5, 5])


def test_a_colour_with_half_an_object_of_its_own_keeps_a_place():
    # A red block (code 1) between a blue (2) and a green (6): the split by position gave
    # its pixels to its neighbours' places — a blue and two greens.
    blobs = _blob_with({1: (413, 10.0, 20.0), 2: (468, 30.0, 5.0), 6: (551, 40.0, 30.0)})
    votes = np.array([413.0, 468.0, 0.0, 0.0, 0.0, 551.0])
    split = [(2, 30.0, 5.0), (6, 40.0, 35.0), (6, 38.0, 25.0)]
    placed = _seat_every(list(split), (1, 2, 6), votes, blobs, None, 1)
    assert sorted(c for c, _, _ in placed) == [1, 2, 6]
    red = next(p for p in placed if p[0] == 1)
    assert red[1:] == pytest.approx((10.0, 20.0))  # at the red pixels' centre


def test_a_colours_only_place_is_never_given_up():
    blobs = _blob_with({1: (300, 0.0, 0.0), 2: (300, 10.0, 0.0)})
    votes = np.array([300.0, 300.0, 0, 0, 0, 0])
    placed = _seat_every([(2, 10.0, 0.0)], (1, 2), votes, blobs, None, 1)
    assert placed == [(2, 10.0, 0.0)]  # one place, two sure colours: nothing to move


def test_seats_by_votes_leave_no_sure_colour_out():
    # One blob of cubes: 900 red, 300 blue and 300 green pixels, three cubes. By votes alone
    # the seats are red 2, blue 1, green 0 — the green cube, with a cube's worth of its own
    # pixels, would vanish without a flag.
    from companion.vision.placing import place_objects

    classes, blobs, label = _strip_of(((1, 90), (2, 30), (6, 30)))
    votes = np.array([900.0, 300.0, 0.0, 0.0, 0.0, 300.0])
    assert largest_remainder(votes[[0, 1, 5]], 3).tolist() == [2, 1, 0]
    placed = place_objects(blobs, classes, None, (), label, votes, 3, one_size=True, sure=(1, 2, 6))
    assert sorted(c for c, _, _ in placed) == [1, 2, 6]
    green = next(p for p in placed if p[0] == 6)
    assert 121 <= green[1] <= 151  # at the green pixels


def test_a_colour_keeps_as_many_places_as_its_own_pixels_make_objects():
    # A pile of two red, two yellow and a green block, split by position into a red, three
    # yellows and a green: the second red block vanished without a flag.
    classes, blobs, label = _strip_of(((1, 60), (3, 60), (6, 30)))
    votes = np.array([600.0, 0.0, 600.0, 0.0, 0.0, 300.0])
    split = [(1, 30.0, 5.0), (3, 70.0, 5.0), (3, 90.0, 5.0), (3, 110.0, 5.0), (6, 135.0, 5.0)]
    placed = _seat_every(list(split), (1, 1, 3, 3, 6), votes, blobs, classes, label)
    assert sorted(c for c, _, _ in placed) == [1, 1, 3, 3, 6]
    assert all(1 <= x <= 61 for c, x, _ in placed if c == 1)  # both on the red pixels
    assert all(61 <= x <= 121 for c, x, _ in placed if c == 3)  # the yellows found again
    assert (6, 135.0, 5.0) in placed  # a colour that kept its places is not moved


def test_places_a_colour_needs_are_never_given_up():
    blobs = _blob_with({1: (600, 0.0, 0.0), 2: (300, 10.0, 0.0)})
    votes = np.array([600.0, 300.0, 0, 0, 0, 0])
    out = [(1, 0.0, 0.0), (1, 2.0, 0.0), (2, 10.0, 0.0)]
    assert _seat_every(list(out), (1, 1, 2, 2), votes, blobs, None, 1) == out
