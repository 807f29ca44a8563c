import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.vision.placing import largest_remainder


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
