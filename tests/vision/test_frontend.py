"""The front end's reading of black: a pixel named by a colour without hue that the photo
shows clearly coloured is no black cube."""

import numpy as np

from companion.vision.classify import AMBIGUOUS, BACKGROUND, UNKNOWN, Reference
from companion.vision.frontend import _coloured_plain, _plain_codes, _unnamed, _wholly_unnamed

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
    assert _unnamed(classes, coloured) == (3, 6)  # the unknown pixel and the two coloured "blacks"; 6 objects
    assert len(_coloured_plain(classes, small, ())[0]) == 0  # no colour without hue: nothing to judge
    assert len(_coloured_plain(np.zeros_like(classes), small, (BLACK,))[0]) == 0  # nothing named black


def _chart(light_change) -> tuple[np.ndarray, np.ndarray, list]:
    """A frame of one patch per cube colour of the light grey tray's references, each seen
    under ``light_change`` (B, G, R), with its class map and the references."""
    from companion.vision.synthetic import RenderConditions, synthetic_calibration

    references = synthetic_calibration(RenderConditions()).references
    cubes = [max((r for r in references if r.code == code), key=lambda r: r.weight)
             for code in sorted({r.code for r in references} - {BACKGROUND})]
    relit = np.concatenate([np.full((10, 10, 3), np.clip(np.array(r.bgr) * light_change, 0, 255), np.uint8)
                            for r in cubes], axis=1)
    classes = np.concatenate([np.full((10, 10), r.code, np.uint8) for r in cubes], axis=1)
    return relit, classes, references


def test_the_tray_light_is_doubted_by_what_it_leaves_unnamed_and_what_its_cubes_say():
    """A fifth of the objects unnamed doubts the tray's light only if the cubes it names imply
    another light, and then another light need only name a fifth of what it left; most of them
    unnamed doubts it unless those cubes confirm it, and another light must name half; with
    nothing to form a chart (no cube named), only "most"."""
    from companion.vision.frontend import CONFIRMED, FEWER_UNNAMED, SOME_UNNAMED, UNNAMED, _tray_light_doubt

    assert SOME_UNNAMED < UNNAMED and 0.5 < FEWER_UNNAMED < 1.0
    some, most = (SOME_UNNAMED + UNNAMED) / 2, (UNNAMED + 1.0) / 2
    on_refs = _chart((1.0, 1.0, 1.0))
    off_refs = _chart((1.0, 1.0, 1.3 * CONFIRMED))  # the cubes' red channel says another light
    relit, classes, references = on_refs
    nothing_named = (relit, np.zeros_like(classes), references)
    assert _tray_light_doubt(SOME_UNNAMED, *off_refs) is None  # too little unnamed to doubt anything
    assert _tray_light_doubt(some, *on_refs) is None and _tray_light_doubt(some, *off_refs) == FEWER_UNNAMED
    assert _tray_light_doubt(most, *on_refs) is None and _tray_light_doubt(most, *off_refs) == 0.5
    assert _tray_light_doubt(some, *nothing_named) is None and _tray_light_doubt(most, *nothing_named) == 0.5


def test_only_objects_mostly_of_no_colour_are_wholly_unnamed():
    """A named cube with a rim of no colour is no unnamed object; a piece of no colour is, and
    so is a clearly coloured piece named black; two touching pieces are one object, judged
    together."""
    small = np.full((12, 20, 3), 20, np.uint8)
    classes = np.zeros((12, 20), np.uint8)
    classes[1:5, 1:5] = RED
    classes[1:5, 4] = UNKNOWN  # a rim: 4 of the cube's 16 pixels
    assert _wholly_unnamed(classes, _coloured_plain(classes, small, (BLACK,))) == 0
    classes[1:4, 8:11] = UNKNOWN  # an object of no colour: 9 pixels
    assert _wholly_unnamed(classes, _coloured_plain(classes, small, (BLACK,))) == 9
    classes[7:10, 1:5] = BLACK
    small[7:10, 1:5] = (200, 60, 20)  # a blue cube read as black
    coloured = _coloured_plain(classes, small, (BLACK,))
    assert _wholly_unnamed(classes, coloured) == 9 + 12
    classes[7:10, 5:9] = GREEN  # a green cube touching it: 12 unnamed of 24 is not more than half
    assert _wholly_unnamed(classes, _coloured_plain(classes, small, (BLACK,))) == 9


def test_a_few_unnamed_pixels_doubt_the_light_only_as_whole_objects_with_the_cubes_far_off():
    """Under a fifth of the objects' pixels unnamed, the tray's light is doubted when a
    twentieth of them lie in objects of no colour and the cubes it names imply a light
    :data:`FAR_OFF` in some channel; a chart merely off (beyond :data:`CONFIRMED`, as the real
    sets' rough charts are), or the unnamed pixels in rims, leaves it standing."""
    from companion.vision.frontend import (CONFIRMED, FAR_OFF, FEWER_UNNAMED, SOME_UNNAMED, WHOLLY_UNNAMED,
                                           _tray_light_doubt)

    assert CONFIRMED < FAR_OFF and WHOLLY_UNNAMED < SOME_UNNAMED
    few = whole = (WHOLLY_UNNAMED + SOME_UNNAMED) / 2
    far = _chart((1.0, 1.0, 1.1 * FAR_OFF))
    rough = _chart((1.0, 1.0, (CONFIRMED + FAR_OFF) / 2))
    assert _tray_light_doubt(few, *far, lambda: whole) == FEWER_UNNAMED
    assert _tray_light_doubt(few, *rough, lambda: whole) is None
    assert _tray_light_doubt(few, *far, lambda: WHOLLY_UNNAMED) is None  # rims and glare, not objects
    assert _tray_light_doubt(few, *far) is None
    assert _tray_light_doubt(WHOLLY_UNNAMED, *far, lambda: 1.0) is None  # too little unnamed to doubt anything
    relit, classes, references = far
    assert _tray_light_doubt(few, relit, np.zeros_like(classes), references, lambda: whole) is None  # no chart


def _felt_and_patch(noise: float, patch_change: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """An empty photo of a dim green felt and the same felt with a 12-pixel patch changed by
    ``patch_change`` (B, G, R), each photo with its own sensor noise of ``noise`` grey levels."""
    rng = np.random.default_rng(3)
    felt = np.full((96, 128, 3), (30.0, 67.0, 21.0))
    frame = felt.copy()
    frame[40:52, 60:72] += patch_change
    empty, frame = (np.clip(p + rng.normal(0.0, noise, p.shape), 0, 255).astype(np.uint8) for p in (felt, frame))
    return frame, empty


def test_what_changed_since_the_empty_photo_is_judged_against_the_noise():
    """A cube that differs from the felt by 7 to 12 grey levels (a dim green on green felt) is
    change where the two photos differ by a grey level of noise; the felt around it stays
    tray. Where the photos' noise is as large as the cube's difference, the bar rises
    to the fixed one (``UNCHANGED``) and the patch is taken for noise."""
    from companion.vision.frontend import UNCHANGED, _unchanged

    patch = (slice(41, 51), slice(61, 71))  # its inside: the 3×3 means at its edge are half felt
    frame, empty = _felt_and_patch(0.5, (-12, 7, -7))
    unchanged = _unchanged(frame, empty)
    assert not unchanged[patch].any()
    felt = np.ones_like(unchanged)
    felt[36:56, 56:76] = False
    assert unchanged[felt].mean() > 0.999
    # The fixed bar alone took the patch for felt: every channel within UNCHANGED.
    assert (np.abs(frame[patch].astype(int) - empty[patch]).max(axis=2) < UNCHANGED).mean() > 0.9
    noisy, noisy_empty = _felt_and_patch(12.0, (-12, 7, -7))
    assert _unchanged(noisy, noisy_empty)[patch].mean() > 0.5
