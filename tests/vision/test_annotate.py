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
