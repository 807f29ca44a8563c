"""Faces read as tray (companion/vision/faces.py): the lit face of a block that the class map
put in the tray, found beside its own colour; a coloured patch the tray does not explain,
found as an unknown object; and nothing else."""

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.vision.classify import BACKGROUND, UNKNOWN, code_of, lut_index
from companion.vision.counting import _face_table, _face_tables, _geometry
from companion.vision.faces import BESIDE_ONLY, CLIPPED, burnt_face_table, burnt_pixels, face_table, faces_read_as_tray
from companion.vision.frontend import NO_HUE, PLAIN
from companion.vision.naming import SAME_HUE

RED = code_of("red")
PALE_RED = (150, 150, 235)  # red with white added: the red hue, half its chroma
FAINT_RED = (170, 170, 225)  # paler still: Lab chroma 21, between SAID_HUE and NO_HUE
GREY = (170, 170, 170)


def _reference_bgr(calibration, code: int) -> np.ndarray:
    return np.array(max((r for r in calibration.references if r.code == code), key=lambda r: r.weight).bgr)


def _block(calibration, face_bgr, rim: bool = True, width: int | None = None):
    """A class map and its frame: tray everywhere, one block whose face (``face_bgr``, read as
    tray) is framed by a rim of 2 pixels of its red (``rim``); ``width`` overrides the face's."""
    geo = _geometry(calibration, *calibration.image_size)
    side = int(round(np.sqrt(geo.unit_area)))
    size = 6 * side
    classes = np.full((size, size), BACKGROUND, np.uint8)
    relit = np.full((size, size, 3), GREY, np.uint8)
    x0, y0, w, h = 2 * side, 2 * side, width or side, side
    if rim:
        classes[y0 - 2:y0 + h + 2, x0 - 2:x0 + w + 2] = RED
        relit[y0 - 2:y0 + h + 2, x0 - 2:x0 + w + 2] = np.round(_reference_bgr(calibration, RED))
    classes[y0:y0 + h, x0:x0 + w] = BACKGROUND
    relit[y0:y0 + h, x0:x0 + w] = face_bgr
    return geo, classes, relit, (x0, y0, w, h)


def _faces(calibration, geo, classes, relit, unexplained=True, step=2):
    return faces_read_as_tray(classes, relit, _face_table(calibration), 0.3 * geo.unit_area, 0.5 * geo.unit_radius,
                              unexplained, step=step)


def test_the_table_names_pale_colours_of_a_colours_hue_only(calibration):
    table = face_table(calibration.references, calibration.tables[1], SAME_HUE, NO_HUE)
    cells = table[lut_index(np.array([[PALE_RED, GREY, (200, 150, 150)]], np.uint8))][0]
    assert cells[0] == RED
    assert cells[1] == 0  # no hue: no face of any colour
    assert cells[2] != RED  # a pale blue is no red face


def test_the_table_calls_a_coloured_tray_pixel_of_no_colours_hue_unexplained(calibration):
    """A clear orange is of no calibrated colour's hue (red, blue, yellow, green, …) and of
    no tray look's: read as the grey tray, it is unexplained, not a face of any colour."""
    table = face_table(calibration.references, calibration.tables[1], SAME_HUE, NO_HUE)
    hues = [r for r in calibration.references if r.code != BACKGROUND]
    orange = np.array([[(40, 130, 230)]], np.uint8)
    from companion.vision.classify import hue_gap, to_lab
    lab = to_lab(orange)[0, 0] - (0.0, 128.0, 128.0)
    assert all(hue_gap(lab[1:], (r.lab[1] - 128.0, r.lab[2] - 128.0)) > SAME_HUE for r in hues)
    assert table[lut_index(orange)][0, 0] == UNKNOWN


@pytest.mark.parametrize("step", [2, 1])
def test_a_face_read_as_tray_beside_its_colour_is_found(calibration, step):
    """At half the working resolution (a count's usual step) and at the working resolution
    itself (a frame of cubes smaller than the working resolution is chosen for): the same
    face, its place, size and pixels in working pixels either way."""
    geo, classes, relit, (x0, y0, w, h) = _block(calibration, PALE_RED)
    (face,) = _faces(calibration, geo, classes, relit, step=step)
    assert face.code == RED
    assert abs(face.centre[0] - (x0 + w / 2)) < 2 and abs(face.centre[1] - (y0 + h / 2)) < 2
    assert 0.7 * w * h <= face.area <= 1.3 * w * h
    pixels = face.pixels(classes.shape)
    assert 0.7 * w * h <= pixels[y0:y0 + h, x0:x0 + w].sum() and pixels.sum() <= 1.3 * w * h



def test_a_face_strewn_with_its_own_colour_is_still_found(calibration):
    """A face that reads half as tray, half as its colour pixel by pixel (a checkerboard of
    its red over the pale face): left out, the red pixels hole the face, and the opening that
    drops fringes drops it all — the block vanished without a flag. Said, the strewn pixels
    are part of the face; counted (``speckled=False``), the face is only what read as tray."""
    geo, classes, relit, (x0, y0, w, h) = _block(calibration, PALE_RED)
    strewn = np.zeros(classes.shape, bool)
    strewn[y0:y0 + h, x0:x0 + w] = np.random.default_rng(5).random((h, w)) < 0.5
    classes[strewn] = RED
    relit[strewn] = np.round(_reference_bgr(calibration, RED))
    (face,) = _faces(calibration, geo, classes, relit)
    assert face.code == RED and 0.7 * w * h <= face.area <= 1.3 * w * h
    assert faces_read_as_tray(classes, relit, _face_table(calibration), 0.3 * geo.unit_area,
                              0.5 * geo.unit_radius, speckled=False) == []

@pytest.mark.parametrize("face_bgr, rim, width", [
    (GREY, True, None),  # no hue: tray inside a ring of red cubes
    (GREY, False, None),  # no hue, nothing around: tray
    (PALE_RED, True, 2),  # a fringe along the red block's edge, not a face
    (PALE_RED, False, 2),  # a thin coloured line on the tray (a scratch, a cable): no object
])
def test_nothing_else_is_a_face(calibration, face_bgr, rim, width):
    geo, classes, relit, _ = _block(calibration, face_bgr, rim, width)
    assert _faces(calibration, geo, classes, relit) == []


def test_a_coloured_patch_beside_no_block_of_its_hue_is_unexplained(calibration):
    """A pale red face whose rims the class map did not find either: the tray does not explain
    it, and nothing names it — an unknown object where it lies."""
    geo, classes, relit, (x0, y0, w, h) = _block(calibration, PALE_RED, rim=False)
    (patch,) = _faces(calibration, geo, classes, relit)
    assert patch.code == UNKNOWN
    assert abs(patch.centre[0] - (x0 + w / 2)) < 2 and abs(patch.centre[1] - (y0 + h / 2)) < 2
    # With the empty photo, a changed pixel read as tray is already unknown: not looked for.
    assert _faces(calibration, geo, classes, relit, unexplained=False) == []


def test_a_tray_look_of_its_own_hue_explains_the_colour(calibration):
    """Wood beside a yellow cube is wood: a colour that is read as a chromatic tray look of
    the same hue is never a face."""
    from dataclasses import replace

    from companion.vision.classify import Reference, build_tables

    noise = np.random.default_rng(1).integers(0, 6, (200, 3)).astype(np.uint8)
    pale = np.tile(np.array(PALE_RED, np.uint8), (200, 1)) + noise
    pink_tray = replace(calibration, references=calibration.references + (Reference.from_pixels(BACKGROUND, pale),))
    _, index = build_tables(pink_tray.references)
    table = face_table(pink_tray.references, index, SAME_HUE, NO_HUE)
    assert table[lut_index(np.array([[PALE_RED]], np.uint8))][0, 0] == 0



def _lab_to_bgr(lab: tuple[float, float, float]) -> tuple[int, int, int]:
    return tuple(int(v) for v in cv2.cvtColor(np.array([[lab]], np.uint8), cv2.COLOR_Lab2BGR)[0, 0])


def test_a_hue_between_a_colour_and_a_wood_look_goes_to_the_nearer():
    """Wood whose hue lies within SAME_HUE of red's: a pale pixel read as that wood is red's
    face when its hue is nearer red's than the wood's and it touches red (a lit red top on a
    wooden desk), and wood when nearer the wood's. Away from red it stays wood, never an
    unexplained patch: a wooden tray under a warm light drifts towards red's hue."""
    from companion.vision.classify import Reference, build_tables

    rng = np.random.default_rng(3)
    red_hue, wood_hue = 30.0, 30.0 + 0.9 * SAME_HUE

    def at(hue: float, chroma: float, lightness: float) -> tuple[float, float, float]:
        return (lightness, 128 + chroma * np.cos(np.radians(hue)), 128 + chroma * np.sin(np.radians(hue)))

    def pixels(lab, spread):
        return np.array([_lab_to_bgr(np.clip(np.add(lab, rng.normal(0, spread, 3)), 0, 255)) for _ in range(300)])

    references = (Reference.from_pixels(BACKGROUND, pixels(at(wood_hue, 30, 170), 6)),
                  Reference.from_pixels(RED, pixels(at(red_hue, 55, 110), 3)))
    _, index = build_tables(references)
    table = face_table(references, index, SAME_HUE, NO_HUE)
    near_red = np.array([[_lab_to_bgr(at(red_hue + 0.3 * (wood_hue - red_hue), 32, 175))]], np.uint8)
    near_wood = np.array([[_lab_to_bgr(at(red_hue + 0.8 * (wood_hue - red_hue), 32, 175))]], np.uint8)
    assert index[lut_index(near_red)][0, 0] == 0 and index[lut_index(near_wood)][0, 0] == 0  # both read as wood
    assert table[lut_index(near_red)][0, 0] == RED + BESIDE_ONLY  # a face beside red only: elsewhere wood
    assert table[lut_index(near_wood)][0, 0] == 0

# A red face the lamp burnt out: its red channel at the ceiling, its chroma (about 15) under
# the floor of a face the camera read (NO_HUE) but over that of any hue (PLAIN).
BURNT_RED = (215, 215, 255)


def test_a_channel_at_the_sensors_ceiling_is_burnt():
    image = np.array([[(0, 0, CLIPPED), (CLIPPED - 1,) * 3, (255, 40, 40), (10, 10, 10)]], np.uint8)
    assert burnt_pixels(image).tolist() == [[True, False, True, False]]


def test_the_burnt_table_names_a_faint_colour_of_the_hue_and_nothing_unexplained(calibration):
    lit = face_table(calibration.references, calibration.tables[1], SAME_HUE, NO_HUE)
    burnt = burnt_face_table(calibration.references, calibration.tables[1], SAME_HUE, PLAIN)
    cells = lut_index(np.array([[BURNT_RED, GREY]], np.uint8))[0]
    assert lit[cells[0]] != RED  # read by the camera, so pale a colour is no face
    assert burnt[cells[0]] == RED  # burnt out, it is
    assert burnt[cells[1]] == 0  # no hue at all: no face even burnt
    assert not np.any(burnt == UNKNOWN)
    assert np.any(lit == UNKNOWN)


def _burnt_faces(calibration, geo, classes, relit, mask):
    return faces_read_as_tray(classes, relit, _face_table(calibration), 0.3 * geo.unit_area, 0.5 * geo.unit_radius,
                              burnt=(mask, _face_tables(calibration).burnt))


def test_a_burnt_face_beside_its_colour_is_found_only_where_the_camera_clipped(calibration):
    geo, classes, relit, (x0, y0, w, h) = _block(calibration, BURNT_RED)
    clipped = np.zeros(classes.shape, bool)
    assert _burnt_faces(calibration, geo, classes, relit, clipped) == []  # not clipped: too pale
    clipped[y0:y0 + h, x0:x0 + w] = True
    (face,) = _burnt_faces(calibration, geo, classes, relit, clipped)
    assert face.code == RED
    assert abs(face.centre[0] - (x0 + w / 2)) < 2 and abs(face.centre[1] - (y0 + h / 2)) < 2


def test_a_faint_burnt_patch_beside_no_colour_is_no_unknown_object(calibration):
    """The tray's own glare clips too, its hue turning as its channels clip one by one: a
    patch only the burnt table names, away from every block, says nothing. A patch clearly
    coloured as the camera read it stays unexplained, clipped or not (as before)."""
    geo, classes, relit, _ = _block(calibration, BURNT_RED, rim=False)
    assert _burnt_faces(calibration, geo, classes, relit, np.ones(classes.shape, bool)) == []
    geo, classes, relit, _ = _block(calibration, PALE_RED, rim=False)
    (patch,) = _burnt_faces(calibration, geo, classes, relit, np.ones(classes.shape, bool))
    assert patch.code == UNKNOWN


def test_a_face_read_as_tray_is_taken_for_its_block_and_kept_out_of_its_colour(calibration):
    """Seen from the side the count goes by faces, so a pale face beside its red is taken for
    red (counting._faces_taken): its pixels painted red in the class map — and left out of
    the blob's mean colour, which only the pixels read as red speak for."""
    from companion.vision.counting import _faces_taken
    from companion.vision.naming import colour_doubts
    from companion.vision.segment import find_blobs

    geo, classes, relit, (x0, y0, w, h) = _block(calibration, PALE_RED)
    no_burnt = np.zeros(classes.shape, bool)
    taken = _faces_taken(geo, classes, relit, no_burnt, _face_tables(calibration), geo.unit_area, 1.0)
    assert taken is not None
    inner = taken.classes[y0 + 3:y0 + h - 3, x0 + 3:x0 + w - 3]
    assert np.all(inner == RED) and classes[y0 + h // 2, x0 + w // 2] == BACKGROUND  # a copy, painted
    assert 0.6 * w * h <= taken.pixels.sum() <= w * h and not taken.pixels[classes != BACKGROUND].any()
    blobs = find_blobs(taken.classes, relit)
    label = int(blobs.labels[y0 + h // 2, x0 + w // 2])
    (with_face,), (rim_only,) = (colour_doubts(geo.colour_refs, blobs, [(label, RED)], left_out)
                                 for left_out in (None, taken.colours(blobs, relit)))
    assert rim_only[0] < with_face[0]  # the rim is the red reference itself; the pale face is far
    # A grey patch inside a red ring is no face: nothing is taken.
    geo, classes, relit, _ = _block(calibration, GREY)
    assert _faces_taken(geo, classes, relit, no_burnt, _face_tables(calibration), geo.unit_area, 1.0) is None


def test_a_faint_face_is_said_but_not_taken(calibration):
    """A face paler than a taken face may be (its chroma under NO_HUE, from SAID_HUE on) beside
    its red is said "0 or 1?": counted, it could be wood grain beside a block; left unsaid, it
    was a block that vanished without a flag (a pale top on a light desk under cooler light)."""
    from companion.vision.counting import SAID_HUE, _faces_taken, _say_faces
    from companion.vision.classify import to_lab

    lab = to_lab(np.array([[FAINT_RED]], np.uint8))[0, 0] - (0.0, 128.0, 128.0)
    assert SAID_HUE <= np.hypot(lab[1], lab[2]) < NO_HUE
    geo, classes, relit, (x0, y0, w, h) = _block(calibration, FAINT_RED)
    geo = replace(geo, roi_mask=None)  # the small map is not the frame the outline was drawn on
    no_burnt = np.zeros(classes.shape, bool)
    assert _faces_taken(geo, classes, relit, no_burnt, _face_tables(calibration), geo.unit_area, 1.0) is None
    doubts = []
    _say_faces(geo, classes, relit, no_burnt, _face_tables(calibration), geo.unit_area, 1.0, True, [], doubts)
    ((_, doubt),) = doubts
    assert (doubt.color, doubt.cubes, doubt.alternative) == ("red", 0, "1")
    x, y = (x0 + w / 2) * geo.scale + geo.crop[0], (y0 + h / 2) * geo.scale + geo.crop[1]
    bx, by, bw, bh = doubt.bbox
    assert bx <= x <= bx + bw and by <= y <= by + bh
    # A paler face still, under SAID_HUE, is not said: the floor holds.
    geo2, classes, relit, _ = _block(calibration, (184, 184, 225))
    doubts = []
    _say_faces(replace(geo2, roi_mask=None), classes, relit, no_burnt, _face_tables(calibration), geo.unit_area, 1.0,
               True, [], doubts)
    assert doubts == []


def test_a_faint_patch_away_from_every_block_is_nothing(calibration):
    """Between SAID_HUE and NO_HUE a colour is a face beside its colour only (or, of no
    colour's hue, a stray joined to a face only): away from every block it is no unexplained patch (wood grain of a red hue on another tray read as 16
    unknown objects in a frame that held one), though a patch as clear as NO_HUE still is."""
    from companion.vision.counting import _say_faces

    for face_bgr, unknowns in ((FAINT_RED, 0), ((195, 180, 242), 0), (PALE_RED, 1)):
        geo, classes, relit, _ = _block(calibration, face_bgr, rim=False)
        no_burnt = np.zeros(classes.shape, bool)
        boxes, doubts = [], []
        _say_faces(replace(geo, roi_mask=None), classes, relit, no_burnt, _face_tables(calibration), geo.unit_area,
                   1.0, True, boxes, doubts)
        assert (len(boxes), doubts) == (unknowns, []), face_bgr


@pytest.mark.parametrize("stray", [(170, 150, 240),  # Lab hue 6°, 29° from red: of no colour's hue, chroma 36
                                    (195, 180, 242)])  # hue 2°, chroma 22: under NO_HUE, from SAID_HUE on
def test_a_face_partly_turned_beyond_its_hue_is_said_whole(calibration, stray):
    """A lamp-lit top whose glare turns part of it pinker than SAME_HUE from its red (of no
    colour's hue: unexplained pixel by pixel, or under NO_HUE and from SAID_HUE on: nothing
    pixel by pixel), mixed through the part still of red's hue:
    neither part is solid on its own, and the block vanished without a flag (dobot's 152954
    under the light ×1.25). To be said, the pixels of no colour's hue joined to a face are
    part of it; counted (``speckled=False``), the face is only what is of its colour's hue."""
    table = _face_tables(calibration).said
    assert table[lut_index(np.array([[stray]], np.uint8))][0, 0] in (UNKNOWN, UNKNOWN + BESIDE_ONLY)
    geo, classes, relit, (x0, y0, w, h) = _block(calibration, PALE_RED)
    mixed = np.zeros(classes.shape, bool)
    mixed[y0:y0 + h, x0:x0 + w] = np.random.default_rng(3).random((h, w)) < 0.5
    relit[mixed] = stray
    (face,) = faces_read_as_tray(classes, relit, table, 0.3 * geo.unit_area, 0.5 * geo.unit_radius)
    assert face.code == RED and 0.7 * w * h <= face.area <= 1.3 * w * h
    assert faces_read_as_tray(classes, relit, table, 0.3 * geo.unit_area, 0.5 * geo.unit_radius,
                              speckled=False) == []
