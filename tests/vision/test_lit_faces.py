"""Blocks counted by their lit faces (companion/vision/lit_faces.py): a camera that sees blocks
from the side is told by its samples, and there each block is one lit face, however much of
its side shows."""

import cv2
import numpy as np
import pytest

from companion.vision.calibration import Sample, calibrate, calibration_from_dict
from companion.vision.classify import code_of
from companion.vision.counting import count_cubes
from companion.vision.errors import CalibrationError
from companion.vision.lit_faces import FACE_AREA, LIT, faces, layers, lightness_edges, lit_faces, shows_a_side, two_lit_parts

RED = code_of("red")
DESK = (175, 180, 185)
TOP, FRONT = (100, 100, 235), (35, 35, 150)  # one red block: its lit top, its side in shade
SEAM = (20, 20, 60)


def _block(image: np.ndarray, x: int, y: int, top: int, front: int, width: int = 40) -> None:
    """A red block standing on the desk, seen from the side: its top above its front."""
    cv2.rectangle(image, (x, y), (x + width - 1, y + top - 1), TOP, -1)
    cv2.rectangle(image, (x, y + top), (x + width - 1, y + top + front - 1), FRONT, -1)


def _row(image: np.ndarray, x: int, y: int, blocks: int, top: int, front: int) -> None:
    """Blocks side by side, a dark seam between each two."""
    for k in range(blocks):
        _block(image, x + k * 42, y, top, front)
        if k:
            cv2.rectangle(image, (x + k * 42 - 2, y), (x + k * 42 - 1, y + top + front - 1), SEAM, -1)


def _sample_photo() -> np.ndarray:
    photo = np.full((300, 400, 3), DESK, np.uint8)
    _block(photo, 180, 110, 20, 40)
    return photo


def test_a_block_showing_its_top_and_its_side_is_seen_from_the_side():
    photo = _sample_photo()
    mask = np.zeros((60, 40), bool)
    mask[:, :] = True
    assert shows_a_side(photo[110:170, 180:220], mask)
    flat = np.full((60, 40, 3), TOP, np.uint8)
    assert not shows_a_side(flat, mask)
    # Shading within one face (a cube seen from above, lit unevenly) is no side.
    shaded = np.dstack([np.tile(np.linspace(0, LIT / 2, 40), (60, 1))] * 3) + np.array(TOP) - LIT
    assert not shows_a_side(np.clip(shaded, 0, 255).astype(np.uint8), mask)


def test_each_lit_face_is_one_block_and_the_sides_are_none():
    image = np.full((100, 200, 3), DESK, np.uint8)
    _row(image, 20, 20, 3, 20, 40)
    cv2.rectangle(image, (150, 20), (161, 31), TOP, -1)  # a lit sliver: a bevel, a hidden block's corner
    lightness, edges = lightness_edges(image)
    classes = np.where((np.abs(image.astype(int) - DESK).sum(axis=2) > 30), RED, 0).astype(np.uint8)
    found = lit_faces(lightness, edges, classes, classes > 0, [RED])
    assert len(found[RED]) == 3  # the sliver is under FACE_AREA of the largest face
    for (x, y), k in zip(sorted(found[RED]), range(3)):
        assert 20 + k * 42 <= x <= 60 + k * 42 and 20 <= y <= 40  # on the tops, not the fronts
    # Faces are measured against each other, not against a cube's size (often a guess without
    # an outline): the same row at twice the size has the same three.
    big = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    lightness, edges = lightness_edges(big)
    classes = np.where((np.abs(big.astype(int) - DESK).sum(axis=2) > 30), RED, 0).astype(np.uint8)
    assert len(lit_faces(lightness, edges, classes, classes > 0, [RED])[RED]) == 3



def test_slivers_of_a_rim_are_no_blocks():
    """A block whose face read as no colour leaves its rim: the edges cut the rim into
    slivers, each as large as the others and all lit alike — eight faces of a layer. Its
    colour's pixels make no eight blocks (``most``: what they allow at FACE_AREA of a cube
    each), so the colour is left to its area; the three blocks of a row still count."""
    image = np.full((120, 200, 3), DESK, np.uint8)
    classes = np.zeros(image.shape[:2], np.uint8)
    for k in range(8):  # a rim of eight short pieces of the block's colour, dark gaps between
        x = 20 + 20 * k
        cv2.rectangle(image, (x, 20), (x + 15, 24), TOP, -1)
        classes[20:25, x:x + 16] = RED
    lightness, edges = lightness_edges(image)
    rim = classes.copy()
    assert len(lit_faces(lightness, edges, rim, rim > 0, [RED])[RED]) == 8
    allowed = np.count_nonzero(rim) / (FACE_AREA * 40 * 60)  # a cube of 40 × 60 pixels: 640 rim pixels make 1.5
    assert allowed < 2
    assert lit_faces(lightness, edges, rim, rim > 0, [RED], {RED: allowed}) == {}
    row = np.full((100, 200, 3), DESK, np.uint8)
    _row(row, 20, 20, 3, 20, 40)
    lightness, edges = lightness_edges(row)
    classes = np.where((np.abs(row.astype(int) - DESK).sum(axis=2) > 30), RED, 0).astype(np.uint8)
    allowed = np.count_nonzero(classes) / (FACE_AREA * 40 * 60)
    assert len(lit_faces(lightness, edges, classes, classes > 0, [RED], {RED: allowed})[RED]) == 3

def test_faces_lit_alike_are_one_layer_and_the_fullest_layer_counts():
    assert layers([200.0, 190.0, 80.0, 185.0, 75.0, 70.0]) == [[0, 1, 3], [2, 4, 5]]
    assert layers([200.0, 160.0, 120.0]) == [[0], [1], [2]]  # each step darker than LIT
    assert layers([100.0]) == [[0]]
    # Three blocks whose tops meet with no edge between them (one lit face), their fronts
    # apart: the fronts are the fuller layer, and count three.
    image = np.full((100, 200, 3), DESK, np.uint8)
    _row(image, 20, 20, 3, 20, 40)
    cv2.rectangle(image, (20, 20), (143, 39), TOP, -1)  # the tops as one
    lightness, edges = lightness_edges(image)
    classes = np.where((np.abs(image.astype(int) - DESK).sum(axis=2) > 30), RED, 0).astype(np.uint8)
    found = lit_faces(lightness, edges, classes, classes > 0, [RED])
    assert len(found[RED]) == 3 and all(40 <= y <= 80 for _, y in found[RED])


def test_the_calibration_learns_whether_it_sees_the_objects_from_the_side():
    sample = [Sample("red", (160, 90, 80, 100))]
    side = calibrate(_sample_photo(), sample)
    assert side.seen_from_side
    above = np.full((300, 400, 3), DESK, np.uint8)
    cv2.rectangle(above, (180, 130), (219, 169), TOP, -1)  # a cube seen from above: one face
    assert not calibrate(above, [Sample("red", (160, 110, 80, 80))]).seen_from_side
    # Kept in the file; files written before it was kept read as "from above".
    assert calibration_from_dict(side.to_dict()).seen_from_side
    old = side.to_dict()
    del old["seen_from_side"]
    assert not calibration_from_dict(old).seen_from_side
    old["seen_from_side"] = "yes"
    with pytest.raises(CalibrationError, match="seen_from_side"):
        calibration_from_dict(old)


@pytest.mark.parametrize(("side_rows", "seen_from_side"), [(5, False), (7, False), (11, True), (16, True)])
def test_a_side_a_fifth_of_the_top_shows_the_side_a_rim_does_not(side_rows, seen_from_side):
    """A 40-pixel top above a strip of its shaded side ``side_rows`` high: once the edge
    between them is cut out, the side is 0.05, 0.10, 0.21 and 0.34 of the top. From
    ``FACE_AREA`` (0.175) of the largest face on, it is a side: `dobot-blocks-wood`'s photos
    taken at an angle have samples whose sides are 0.18 to 0.23 of their tops, and at a
    quarter five of them calibrated as a camera from below. A tenth is still a rim (the
    renderer's cubes seen from below show none over 0.01)."""
    photo = np.full((80 + side_rows, 80, 3), DESK, np.uint8)
    cv2.rectangle(photo, (20, 10), (59, 49), TOP, -1)
    cv2.rectangle(photo, (20, 50), (59, 49 + side_rows), FRONT, -1)
    mask = np.zeros(photo.shape[:2], bool)
    mask[10:50 + side_rows, 20:60] = True
    assert shows_a_side(photo, mask) is seen_from_side


def _broken_edge_photo() -> tuple[np.ndarray, np.ndarray]:
    """A block's lit top above its shaded side, the edge between them broken: over a third of
    the width the top fades into the side over 24 rows (a rounded, worn or blurred corner)
    instead of meeting it at a line."""
    photo = np.full((110, 80, 3), DESK, np.uint8)
    cv2.rectangle(photo, (20, 10), (59, 49), TOP, -1)
    cv2.rectangle(photo, (20, 50), (59, 89), FRONT, -1)
    fade = np.linspace(0.0, 1.0, 24)[:, None, None]
    photo[38:62, 34:48] = (np.array(TOP) * (1 - fade) + np.array(FRONT) * fade).astype(np.uint8)
    mask = np.zeros(photo.shape[:2], bool)
    mask[10:90, 20:60] = True
    return photo, mask


def test_a_side_is_seen_where_the_edge_between_top_and_side_breaks():
    """The edges alone need one closed line between top and side; where it breaks, the two
    join into one face, and a whole calibration would count as from below (the set
    `dobot-blocks-wood` at a blur of 1.875 instead of 1.5: its one sample showing a side lost
    it, and the set fell from 20 to 8 of 31). The lightness split in two is the second witness."""
    photo, mask = _broken_edge_photo()
    lightness, edges = lightness_edges(photo)
    light, _ = faces(lightness, edges, mask)
    assert len(light) == 1  # the edges see one face: the first witness fails here
    assert two_lit_parts(lightness, mask)
    assert shows_a_side(photo, mask)


def test_the_lightness_split_is_held_to_what_makes_a_side():
    """The split is held to what makes a side a side: two parts in one piece each, the smaller
    of ``FACE_AREA`` of the larger or more, more than ``LIT`` apart."""
    mask = np.ones((60, 60), bool)
    face = np.full((60, 60, 3), FRONT, np.uint8)
    glare = face.copy()
    cv2.circle(glare, (30, 30), 10, (200, 200, 255), -1)  # about a tenth of the face, much paler
    assert not shows_a_side(glare, mask)
    # A glare of a quarter of the face is a second face to either witness alike: the split
    # adds no "side" the edges do not already see.
    big_glare = face.copy()
    cv2.circle(big_glare, (30, 30), 16, (200, 200, 255), -1)
    lightness, edges = lightness_edges(big_glare)
    light, _ = faces(lightness, edges, mask)
    assert len(light) == 2 and max(light) - min(light) > LIT
    assert two_lit_parts(lightness, mask)
    # Specks of the other lightness all over the face are no part in one piece.
    specks = face.copy()
    specks[::4, ::4] = TOP
    assert not two_lit_parts(cv2.cvtColor(specks, cv2.COLOR_BGR2LAB)[:, :, 0], mask)
    # Two parts lit alike (less than LIT apart) are one face in two tones.
    tones = face.copy()
    tones[30:] = np.clip(np.array(FRONT) + 20, 0, 255)
    assert not two_lit_parts(cv2.cvtColor(tones, cv2.COLOR_BGR2LAB)[:, :, 0], mask)


def test_blocks_seen_from_the_side_are_counted_by_their_lit_faces_not_their_area():
    """Calibrated on a block standing up (its top and a tall side), then three blocks seen
    more from above (the same tops, short sides): their area is that of two calibrated blocks,
    their lit faces are three."""
    calibration = calibrate(_sample_photo(), [Sample("red", (160, 90, 80, 100))])
    assert calibration.seen_from_side
    frame = np.full((300, 400, 3), DESK, np.uint8)
    _row(frame, 100, 120, 3, 20, 12)
    result = count_cubes(frame, calibration)
    assert result.counts == {"red": 3}
    assert all(120 <= c.y <= 140 for c in result.cubes)  # each at its top
    assert any(d.reason == "size" for d in result.doubtful)  # the area said otherwise: said
    # The same frame counted as if seen from above: by its area, two.
    from dataclasses import replace
    assert count_cubes(frame, replace(calibration, seen_from_side=False)).counts == {"red": 2}


SHADED = tuple(int(0.6 * v) for v in TOP)  # a side in the shade the counter still names red (×0.6)


def _shaded_block(image: np.ndarray, x: int, y: int, top: int, side: int) -> None:
    """A red block seen from the side whose side is lit as a shade of its top's red."""
    cv2.rectangle(image, (x, y), (x + 39, y + top - 1), TOP, -1)
    cv2.rectangle(image, (x, y + top), (x + 39, y + top + side - 1), SHADED, -1)


def test_a_box_drawn_tight_round_a_blocks_top_still_sees_its_side():
    """The box holds the top and two rows of the side; the block as the counter sees it (its
    colour's blob) holds the whole side."""
    photo = np.full((300, 400, 3), DESK, np.uint8)
    _shaded_block(photo, 180, 110, 20, 40)
    x, y, w, h = box = (176, 106, 48, 26)
    boxed = photo[y:y + h, x:x + w]
    assert not shows_a_side(boxed, (boxed != DESK).any(axis=2))  # the box alone: a top and two rows
    assert calibrate(photo, [Sample("red", box)]).seen_from_side


def _row_of_shaded_blocks(frame: np.ndarray) -> None:
    """Three blocks side by side seen from the side (tops 20 high, sides 12), a dark seam
    between each two: one blob."""
    for k in range(3):
        _shaded_block(frame, 60 + k * 42, 120, 20, 12)
        if k:
            cv2.rectangle(frame, (60 + k * 42 - 2, 120), (60 + k * 42 - 1, 151), SEAM, -1)


def test_a_free_camera_calibrated_from_above_counts_a_frame_seen_from_the_side_by_its_faces(monkeypatch):
    """Calibrated on a cube seen from above, without an outline (a phone, a robot arm: the
    next photo may be taken from anywhere). A frame where two objects show a top and a side is
    seen from the side: each lit top is a block. One object alone is no proof (a hard shadow
    across a cube splits it as well): that frame is counted by area, as from above."""
    from companion.vision import counting

    above = np.full((300, 400, 3), DESK, np.uint8)
    cv2.rectangle(above, (180, 130), (219, 169), TOP, -1)
    calibration = calibrate(above, [Sample("red", (160, 110, 80, 80))])
    assert not calibration.seen_from_side and calibration.roi is None
    frame = np.full((300, 400, 3), DESK, np.uint8)
    _row_of_shaded_blocks(frame)
    _shaded_block(frame, 250, 200, 20, 20)
    assert count_cubes(frame, calibration).counts == {"red": 4}
    row = np.full((300, 400, 3), DESK, np.uint8)
    _row_of_shaded_blocks(row)
    by_area = count_cubes(row, calibration)
    assert by_area.counts != {"red": 3} and any(d.reason == "size" for d in by_area.doubtful)
    monkeypatch.setattr(counting, "SIDE_WITNESSES", 1)
    assert count_cubes(row, calibration).counts == {"red": 3}


def test_cubes_seen_from_below_are_not_seen_from_the_side(calibration):
    """The renderer's tray photographed from below (the tower's camera): one face per cube, so
    the count stays by area (touching dark cubes show no edge between them)."""
    assert not calibration.seen_from_side
