import numpy as np

from companion.vision.annotate import annotate
from companion.vision.counting import count_cubes
from companion.vision.synthetic import RenderConditions, render_tray


def test_every_cube_and_unknown_is_marked_and_the_input_is_kept(calibration):
    frame = render_tray({"red": 2, "black": 2}, seed=31, conditions=RenderConditions(foreign=1))
    before = frame.image.copy()
    result = count_cubes(frame.image, calibration)
    out = annotate(frame.image, result, calibration.roi, calibration.cube_side)
    assert np.array_equal(frame.image, before)
    assert out.shape == frame.image.shape and out.dtype == np.uint8
    changed = np.abs(out.astype(int) - before).max(axis=2) > 40
    r = int(calibration.cube_side * 0.5) + 2
    for cube in result.cubes:  # a ring is drawn around each cube
        x, y = int(cube.x), int(cube.y)
        assert changed[y - r - 3:y + r + 4, x - r - 3:x + r + 4].sum() > 4 * r
    for x, y, w, h in result.unknown_boxes:
        assert changed[y:y + h, x].sum() > h // 2  # the box's left side
    assert changed[5:20, :].any()  # the summary line


def test_empty_result_still_gets_a_summary(calibration):
    frame = render_tray({}, seed=32)
    out = annotate(frame.image, count_cubes(frame.image, calibration))
    assert (out[:20] != frame.image[:20]).any()
    assert np.array_equal(out[100:], frame.image[100:])


def test_every_doubtful_place_is_boxed_in_its_colour(calibration):
    """A doubt (green: none or one?) is boxed where it is, in green, so the players see on the
    picture where the camera was unsure — not only in the list beside it."""
    from companion.vision.colors import DRAW_BGR
    from companion.vision.counting import Doubt, TrayCount

    frame = render_tray({}, seed=33)
    box = (300, 200, 80, 60)
    doubt = Doubt("green", 0, "size", "1", 340.0, 230.0, box)
    plain = annotate(frame.image, TrayCount({}, (), 0, 0.0))
    out = annotate(frame.image, TrayCount({}, (), 0, 0.0, doubtful=(doubt,)))
    x, y, w, h = box
    left = out[y + 5:y + h - 20, x].astype(int)  # the box's left side, below the label
    assert (np.abs(left - DRAW_BGR["green"]).max(axis=1) < 40).mean() > 0.8
    assert np.array_equal(plain[y:y + h, x], frame.image[y:y + h, x])  # drawn for the doubt only
    assert (out[y + h - 30:y + h, x + 2:x + 60] != plain[y + h - 30:y + h, x + 2:x + 60]).any()  # "0/1?"
