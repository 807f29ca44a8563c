"""The front end's reading of black: a pixel named by a colour without hue that the photo
shows clearly coloured is no black cube."""

import numpy as np

from companion.vision.classify import AMBIGUOUS, BACKGROUND, UNKNOWN, Reference
from companion.vision.frontend import _coloured_plain, _plain_codes, _unnamed

BLACK, GREEN, RED = 5, 6, 1


def _reference(code: int, lab: tuple[float, float, float]) -> Reference:
    return Reference(code, lab, ((4.0, 0, 0), (0, 4.0, 0), (0, 0, 4.0)), (0.0, 0.0, 0.0))


def test_only_a_colour_with_no_hue_at_all_is_plain():
    """Black (chroma 1) is plain; a dark teal whose sample came out at chroma 11 still has a
    hue, and a colour is plain only when every one of its references is."""
    refs = [_reference(BACKGROUND, (120.0, 128.0, 128.0)),
            _reference(BLACK, (10.0, 129.0, 128.0)),
            _reference(GREEN, (47.0, 118.0, 132.0)),  # chroma 10.8
            _reference(RED, (80.0, 130.0, 128.0)), _reference(RED, (90.0, 177.0, 162.0))]
    assert _plain_codes(refs) == (BLACK,)


def test_black_on_a_coloured_pixel_counts_as_unnamed():
    small = np.zeros((2, 3, 3), np.uint8)
    small[0] = (20, 20, 20)  # a black cube: no chroma
    small[1] = (20, 20, 200)  # a red cube read as black
    classes = np.array([[BLACK, BLACK + AMBIGUOUS, UNKNOWN],
                        [BLACK, BLACK + AMBIGUOUS, RED]], np.uint8)
    coloured = _coloured_plain(classes, small, (BLACK,))
    assert sorted(zip(*(v.tolist() for v in coloured))) == [(1, 0), (1, 1)]  # (row, column)
    assert _unnamed(classes, coloured) == 3  # the unknown pixel and the two coloured "blacks"
    assert len(_coloured_plain(classes, small, ())[0]) == 0  # no colour without hue: nothing to judge
    assert len(_coloured_plain(np.zeros_like(classes), small, (BLACK,))[0]) == 0  # nothing named black
