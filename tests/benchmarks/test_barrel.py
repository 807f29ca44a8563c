"""What the bench's table of a lens that bends the picture (``--lens``) measures; its rows are
checked with the sides' table in test_perspective.py."""

from benchmarks.vision import lens_counts


def test_a_lens_that_bends_the_corners_a_sixth_in_counts_as_a_straight_one():
    """``barrel`` 0.2: a cube at the picture's corner looks 17 % narrower across the radius and
    38 % along it, half its area; a straight edge across the top of the picture bows by 50
    pixels. The first 30 frames of the stress set, each tray calibrated through that lens:
    every one exact with the empty photo and without, as through a straight lens (before the
    lens was learned and straightened: 21 and 19, one wrong with nothing flagged)."""
    exact, wrong = lens_counts(30, 2026, barrel=0.2)
    assert wrong.tolist() == [0, 0]
    assert exact[:2].tolist() == [30, 30]
