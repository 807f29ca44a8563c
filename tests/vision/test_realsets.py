"""Real photos that nobody on this project made (../shared/realsets), by the protocol of its
README: one calibration photo with a box per shade, every other photo counted with it.

Skipped, with the reason, where the folder is absent (a user's fresh clone does not have it).
The full numbers, beside the baseline, come from ``make bench``.
"""

import pytest

from benchmarks.drift import DRIFTS
from benchmarks.realsets import CANDY
from companion.vision.calibration import calibrate
from companion.vision.counting import count_cubes
from companion.vision.imageio import read_image

pytestmark = pytest.mark.skipif(not CANDY.present, reason=f"real photo set missing: {CANDY.folder}")


@pytest.fixture(scope="module")
def candy():
    truth = CANDY.truth()
    cal = calibrate(read_image(CANDY.folder / CANDY.calibration_photo), CANDY.samples)
    results = {name: count_cubes(read_image(CANDY.folder / name), cal)
               for name in sorted(truth) if name != CANDY.calibration_photo}
    return cal, truth, results


def test_calibration_learns_the_four_colours_and_that_sweets_are_round(candy):
    cal, _, _ = candy
    assert cal.colors == ("red", "yellow", "purple", "green")
    assert cal.round_objects
    assert any("purple" in w and "red" in w.lower() for w in cal.warnings)  # said, not hidden


def test_nearly_every_photo_is_counted_exactly(candy):
    _, truth, results = candy
    exact = [name for name, r in results.items() if r.counts == truth[name]]
    missed = sum(abs(truth[n].get(c, 0) - r.counts.get(c, 0))
                 for n, r in results.items() for c in set(truth[n]) | set(r.counts))
    # Measured: 36 of 37 exact, 1 sweet miscounted (make bench). The bar leaves one photo of
    # slack for a different OpenCV build (the Pi's apt one); a regression to the old counter
    # (0 exact) or the loss of a split fails it.
    assert len(exact) >= 35, f"exact: {len(exact)} of {len(results)}"
    assert missed <= 3


@pytest.mark.parametrize("drift", DRIFTS)
def test_a_drift_of_light_camera_or_haze_costs_at_most_a_few_photos(candy, drift):
    """Each photo changed as the world can change after calibration (benchmarks/drift.py),
    counted with the unchanged calibration. Measured (make bench): 34 to 37 of 37 exact under
    every drift, haze included (7 of 37 before the black level was read per frame). The bar
    leaves one photo under the 90 % target for another OpenCV build."""
    cal, truth, _ = candy
    exact = sum(count_cubes(DRIFTS[drift](read_image(CANDY.folder / name)), cal).counts == truth[name]
                for name in sorted(truth) if name != CANDY.calibration_photo)
    assert exact >= 33, f"{drift}: {exact} exact"


def test_every_miscount_is_flagged_for_the_players(candy):
    """Where the count is wrong, the reading says it is unsure: a doubtful blob or a low
    confidence on a colour that is wrong."""
    _, truth, results = candy
    for name, r in results.items():
        wrong = {c for c in set(truth[name]) | set(r.counts) if truth[name].get(c, 0) != r.counts.get(c, 0)}
        if wrong:
            assert r.doubtful, name
