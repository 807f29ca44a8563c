"""The painted wooden blocks of ``../shared/realsets/dobot-blocks-wood`` (README there): 2:1
blocks on an orange-brown desk close to red and yellow, oblique phone photos, packed groups.

Calibrated by its ``calib.json`` (one box per colour, drawn on the block itself, the other
blocks of the photo unboxed). The floors hold what the counter reaches today (``make bench``
prints the numbers): a change that loses blocks fails here even when the candy set gains.
Skipped, with the reason, where the folder is absent.
"""

import numpy as np
import pytest

from benchmarks.drift import BOX_DRAWINGS, DRIFTS
from benchmarks.realsets import CANDY, DOBOT, RealSet
from benchmarks.stages import Stages
from benchmarks.vision import run_realset
from companion.hw.calibration_store import Tap, sample_at
from companion.vision import black_level, counting, lit_faces
from companion.vision.calibration import calibrate
from companion.vision.counting import count_cubes
from companion.vision.errors import TwoColoursInBoxError
from companion.vision.imageio import read_image
from companion.vision.samples import Sample, sample_object

needs_blocks = pytest.mark.skipif(not DOBOT.present, reason=f"real photo set missing: {DOBOT.folder}")


@pytest.fixture(scope="module")
def blocks():
    cal = calibrate(read_image(DOBOT.folder / DOBOT.calibration_photo), DOBOT.samples)
    truth, boxes = DOBOT.truth(), DOBOT.boxes()
    results = {name: count_cubes(read_image(DOBOT.folder / name), cal)
               for name in sorted(truth) if name != DOBOT.calibration_photo}
    stages = Stages()
    for name, result in results.items():
        stages.add(name, boxes[name], result)
    return cal, truth, results, stages


@needs_blocks
def test_boxes_drawn_on_the_blocks_calibrate_every_colour(blocks):
    cal, _, _, _ = blocks
    assert set(cal.colors) == {"red", "yellow", "green", "blue"}


@needs_blocks
def test_the_blocks_found_take_their_own_colour(blocks):
    """The colour stage: of the blocks counted at all, every one in its own colour (measured:
    200 of 200; 198 of 198 before the faces' floor was 0.175 of the largest instead of a quarter
    (2026-11-28), 188 of 188 before faces read as tray were taken for their block seen from the
    side, 183 of 183 before a pile's size was guessed from each colour's part of it,
    152 of 156 before blocks seen from the side were counted by their faces,
    155 of 159 before frames nearer than foreseen were sized by their clusters, 160 of 164
    before frames were sized by blocks alone, 140 of 149 before blobs were cut where two
    colours meet); the desk is never counted red or yellow in bulk. Extra cubes, counted where
    no block lies: 5 (6 before faces read as tray were taken; 2 before a pile's size was
    guessed from each colour's part: the smaller
    size that finds the blocks of 153000 and 153027 also counts the grey-blue keyboard of 153030
    and 153031 as blue; 17 before the faces — a standing block counted as two by its area, the
    keyboard read as blue — and 21, 33, 35 before the earlier changes)."""
    _, _, _, stages = blocks
    assert stages.found >= 197, stages.line()
    assert stages.found - stages.right <= 1, stages.line()
    assert stages.extra <= 6, stages.line()


@needs_blocks
def test_the_blocks_are_seen_from_the_side_and_the_sweets_are_round(blocks):
    """The set's calibration learns that its camera sees the blocks from the side (a sample
    shows its lit top and its shaded side), so they are counted by their faces lit alike; the candy
    set's sweets are round and are not."""
    cal, _, _, _ = blocks
    assert cal.seen_from_side and not cal.round_objects
    candy = calibrate(read_image(CANDY.folder / CANDY.calibration_photo), CANDY.samples)
    assert candy.round_objects and not candy.seen_from_side


@needs_blocks
@pytest.mark.parametrize("blur", [1.2, 1.5, 1.875, 2.25])
def test_the_side_is_seen_whatever_the_faces_blur(monkeypatch, blur):
    """The set's one sample that shows its side shows it at every blur of the faces' edges from
    0.8 to 1.5 times the shipped one. Measured: before the lightness split was a second
    witness (2026-11-28), at 1.875 the edge between that sample's top and side broke, the
    calibration judged "from below", and the set fell from 20 to 8 of 31 exact."""
    monkeypatch.setattr(lit_faces, "FACE_BLUR", blur)
    cal = calibrate(read_image(DOBOT.folder / DOBOT.calibration_photo), DOBOT.samples)
    assert cal.seen_from_side


@needs_blocks
def test_blocks_missed_without_a_flag_stay_few(blocks):
    """Measured: 1 of 216 blocks neither counted nor flagged (0.5 %; 3 before a pile's size
    was guessed from each colour's part of it, 4 before blocks seen from the side were counted by their faces, 19 before the black level and the no-place flags, 10
    before faces read as tray were said, 6 before blobs were cut where two colours meet, 5
    before a frame sized by guess had its piles said). The target is none; the floor stops it
    from growing."""
    _, _, _, stages = blocks
    assert stages.missed <= 1, stages.line()


@needs_blocks
def test_every_miscounted_photo_tells_the_table_to_look(blocks):
    """Per photo, what a table lives through: of the 12 photos miscounted, every one carries a
    flag (a doubtful blob or an object of no colour), so no battle is decided wrongly without a
    word. Measured beside it (``make bench``, "exact photos flagged anyway"): every one of the
    19 exact photos is flagged too — a frame sized by guess doubts its piles — so on this set
    the flags carry no news; the test holds the half that matters most."""
    from benchmarks.vision import told

    _, truth, results, _ = blocks
    untold = [name for name, r in results.items() if r.counts != truth[name] and not told(r)]
    assert untold == []


@needs_blocks
def test_a_lone_block_whose_lit_face_reads_as_the_desk_is_counted(blocks):
    """20250329_152838: the red block's face, paled by the lamp, reads as the orange-brown desk
    and only its rims as red — too little for a block. Seen from the side, the face beside its
    red is taken for the block: one red, counted where it lies. It was said (red, 0 or 1?)
    before faces were taken, and missed without a flag before faces were said."""
    _, _, results, _ = blocks
    name = "20250329_152838.jpg"
    (_, bx, by, bw, bh), = [b for b in DOBOT.boxes()[name] if b[0] == "red"]
    red = [c for c in results[name].cubes if c.color == "red"]
    assert len(red) == 1 and bx <= red[0].x <= bx + bw and by <= red[0].y <= by + bh


@needs_blocks
def test_the_pale_tops_of_blocks_seen_from_the_side_count(blocks):
    """The red close-ups of 2025-04-08 and the piles of 2025-03-29: the lamp-lit tops of red
    blocks read as the desk, and each such block was a block short (said, not counted).
    Measured: 153022 red 2 → 3, 141008 red 3 → 4; all 31 photos 14 → 19 exact."""
    _, truth, results, _ = blocks
    for name in ("20250329_153022.jpg", "20250408_141008.jpg"):
        assert results[name].counts.get("red", 0) == truth[name]["red"], name


@needs_blocks
def test_blocks_the_brighter_light_burnt_out_are_said(blocks):
    """Under the light ×1.25 the salmon tops of the red blocks reach the sensor's ceiling and
    come out nearly white, under the chroma of a face read as tray: 13 of 216 blocks went
    unsaid there, both stacked reds of 20250408_140817 among them. A burnt face beside its
    colour is judged with the chroma floor of any hue and said: 8, none of 140817's (5 since
    a pile's size is guessed from each colour's part of it)."""
    cal = blocks[0]
    drift = DRIFTS["light ×1.25"]
    stages, photo = Stages(), Stages()
    for name, boxes in DOBOT.boxes().items():
        if name == DOBOT.calibration_photo:
            continue
        result = count_cubes(drift(read_image(DOBOT.folder / name)), cal)
        stages.add(name, boxes, result)
        if name == "20250408_140817.jpg":
            photo.add(name, boxes, result)
    assert photo.objects == 5 and photo.missed == 0, photo.line()
    assert stages.missed <= 6, stages.line()



@needs_blocks
def test_a_frame_of_small_blocks_looks_for_faces_at_the_working_resolution(blocks, monkeypatch):
    """``20250329_153028`` under a cooler light: taken from farther than the calibration photo
    (its blocks 0.65 as wide), the middle red block's pale top reads as desk all over, beside
    a few of its red pixels. At half the working resolution that face is a handful of pixels,
    the opening that drops fringes dropped it, and the block vanished without a flag. Where a
    frame's cube is under ``WORKING_SIDE`` wide, faces are looked for at the working
    resolution itself, and the block is said. (Its face is also said at half resolution since
    faces are said from a fainter colour than they are taken from: here they are said only as
    they are taken, so that the resolution alone is judged.)"""
    cal = blocks[0]
    name = "20250329_153028.jpg"
    image = DRIFTS["cooler light"](read_image(DOBOT.folder / name))
    _faces_said_as_taken(monkeypatch, cal)
    fine, halved = Stages(), Stages()
    fine.add(name, DOBOT.boxes()[name], count_cubes(image, cal))
    monkeypatch.setattr(counting, "_face_step", lambda unit: 2)
    halved.add(name, DOBOT.boxes()[name], count_cubes(image, cal))
    assert (fine.missed, halved.missed) == (0, 1), (fine.line(), halved.line())


def _faces_said_as_taken(monkeypatch, cal) -> None:
    """From here on, ``cal``'s faces read as tray are said only as a face taken is: from the
    chroma ``NO_HUE`` (not ``SAID_HUE``), and of their colour's hue alone (no pixels of no
    colour's hue joined to them)."""
    from companion.vision import faces

    tables = counting._face_tables(cal)
    monkeypatch.setattr(counting, "_face_tables", lambda c: counting._FaceTables(tables.lit, tables.burnt, tables.lit))
    monkeypatch.setattr(faces, "_joined", lambda face, stray: np.zeros_like(stray))


@needs_blocks
@pytest.mark.parametrize("name, drift", [("20250408_141025.jpg", "cooler light"),
                                         ("20250329_152954.jpg", "light ×1.25"),
                                         ("20250329_153013.jpg", "light ×1.25")])
def test_a_faint_or_partly_turned_top_is_said(blocks, monkeypatch, name, drift):
    """Two lamp-lit tops that read as desk, said "0 or 1?" since a face is said from a fainter
    colour than it is taken from; said only as a face taken is, each block vanished without
    a flag.

    - ``141025`` under a cooler light: a red block on the light desk of that day shows a top
      so pale (Lab chroma about 19 after relighting) that only its two thin rims read red —
      each under a third of a block, said where it lies, but neither where the block is. A
      face is taken from a chroma of ``NO_HUE`` on and said from ``SAID_HUE`` on.
    - ``152954`` under the light ×1.25: the top of the red block at the left is part of
      red's hue and part turned pinker than ``SAME_HUE`` (of no colour's hue), the two
      mixed, neither solid alone. The pixels of no colour's hue joined to a face are part of
      it, to be said.
    - ``153013`` under the light ×1.25: the top of the red block at the left is turned 28°
      from red's hue and is under ``NO_HUE`` (chroma 23): a stray, from ``SAID_HUE`` on,
      joined to the few pixels of red's hue by its rims.
    """
    cal = blocks[0]
    image = DRIFTS[drift](read_image(DOBOT.folder / name))
    said, as_taken = Stages(), Stages()
    said.add(name, DOBOT.boxes()[name], count_cubes(image, cal))
    _faces_said_as_taken(monkeypatch, cal)
    as_taken.add(name, DOBOT.boxes()[name], count_cubes(image, cal))
    assert (said.missed, as_taken.missed) == (0, 1), (said.line(), as_taken.line())


@needs_blocks
def test_under_every_drift_few_blocks_vanish_unsaid():
    """The 20 drifts of ``--drift`` (light, white balance, tone curve, exposure, haze, focus,
    noise, camera height…), each counted with the set's calibration as ``make bench`` counts
    them (the true boxes resized with a photo that is): blocks neither counted
    nor flagged. Measured: 6 of 20 × 216 (2026-11-29; 8 before the pixels of no colour's hue
    under NO_HUE, from SAID_HUE on, were strays too; 11 before the pixels of no colour's hue
    joined to a face read as tray were said with it; 19 before a face read as tray was
    said from a chroma of SAID_HUE, three quarters of what a face taken needs; 26 before a frame of blocks smaller than
    the working resolution is chosen for looked for faces read as tray at that resolution, not
    half of it; 37 before a piece of a colour under a
    third of a block but deep in its own pixels was said, and without an outline a third of
    the calibrated block whatever the frame's size guess; 71 before a face read half as tray,
    half as its colour pixel by pixel, was said whole — the opening that drops fringes
    dropped it through its holes; 76 before a hue nearer a colour's than the desk's was that
    colour's face). The target is none; the floor stops it from growing."""
    stages = Stages()
    for drift in DRIFTS.values():
        stages.extend(run_realset(DOBOT, drift=drift, baseline=False)[0].stages)
    assert stages.missed <= 9, stages.line()

@needs_blocks
def test_a_second_sessions_haze_is_read_by_each_colour(blocks, monkeypatch):
    """Another session (exposure ×1.4, +1 500 K, blacks lifted 10 % = 25.5 levels): in 153013
    the blocks in view are darker than the calibration photo's (pale tops), and the objects'
    dark end as a whole read 9 levels, under the bar, so nothing was taken off. Each colour
    against its own dark end reads the lift (measured 25.5)."""
    cal = blocks[0]
    calls = []

    def spy(frame, *calibration):
        calls.append((frame, black_level.lift_of(frame, *calibration)))
        return calls[-1][1]

    monkeypatch.setattr(counting, "lift_of", spy)
    photo = read_image(DOBOT.folder / "20250329_153013.jpg")
    count_cubes(DRIFTS["another session (×1.4, +1500 K, haze 10 %)"](photo), cal)
    frame, lift = calls[0]
    assert lift == pytest.approx(25.5, abs=3.0)
    assert black_level.lift_of(frame, cal.dark) == 0.0  # the objects as a whole: none


@needs_blocks
def test_a_block_deeper_than_its_sample_is_named_by_margin(blocks):
    """A blue block of another, more saturated blue than its sample reads pixel by pixel as
    no colour; its mean colour is clearly blue (by margin, of blue's hue), so it is counted
    blue — flagged — not reported unknown. Measured: a blue cube counted on 16 of the 24 blue
    blocks (11 before)."""
    _, _, results, _ = blocks
    blue = [(name, b) for name, bs in DOBOT.boxes().items() if name in results for b in bs if b[0] == "blue"]
    counted = sum(any(c.color == "blue" and x <= c.x <= x + w and y <= c.y <= y + h for c in results[name].cubes)
                  for name, (_, x, y, w, h) in blue)
    assert len(blue) == 24 and counted >= 15


def _overlap(a, b) -> bool:
    return a[1] < b[1] + b[3] and b[1] < a[1] + a[3] and a[2] < b[2] + b[4] and b[2] < a[2] + a[4]


@needs_blocks
def test_no_lone_block_is_reported_unknown(blocks):
    """An unknown box may hold a pile or a keyboard, never a block lying alone (its true box
    touching no other): a lone block of a calibrated colour is counted, at worst flagged."""
    _, _, results, _ = blocks
    boxes = DOBOT.boxes()
    for name, result in results.items():
        lone = [b for b in boxes[name] if not any(_overlap(b, o) for o in boxes[name] if o is not b)]
        for ux, uy, uw, uh in result.unknown_boxes:
            inside = [b for b in boxes[name] if ux <= b[1] + b[3] / 2 <= ux + uw and uy <= b[2] + b[4] / 2 <= uy + uh]
            assert not (len(inside) == 1 and inside[0] in lone), (name, inside[0])


@needs_blocks
def test_block_counts_do_not_fall_below_today(blocks):
    _, truth, results, _ = blocks
    missed = sum(abs(truth[n].get(c, 0) - r.counts.get(c, 0))
                 for n, r in results.items() for c in set(truth[n]) | set(r.counts))
    # measured: 19 (21 before the faces' floor was 0.175, 32 before faces read as tray were taken
    # for their block, 33 before a pile's size was guessed from each colour's part, 71 before the
    # faces lit alike, 72 before close-ups were sized by their clusters, 71 before the samples'
    # tray looks changed, 75 before sizing by blocks alone, 84 before the colour cut)
    assert missed <= 21, f"objects miscounted: {missed}"
    exact = sum(all(truth[n].get(c, 0) == r.counts.get(c, 0) for c in set(truth[n]) | set(r.counts))
                for n, r in results.items())
    # measured: 20 — issue 21's bar (19 before the faces' floor was 0.175 of the largest face:
    # 153015's middle red block shows a face of 0.247 of the largest there; 14 before faces read
    # as tray were taken for their block; 15 before a pile's size was guessed from each colour's
    # part: 153030 and 153031 lost to the keyboard read as blue and a red part cut in three
    # faces, while 153000 and 153027 gained blocks but not yet exactness; every other measure of
    # the set gained — docs/vision.md; 8 before the faces lit alike, 7 before the samples' tray
    # looks changed, 8 before sizing by blocks alone, 3 before the colour cut)
    assert exact >= 20, f"photos exact: {exact}"


@needs_blocks
def test_a_block_of_no_colour_in_a_pile_is_said_not_shared_out(blocks):
    """20250329_153002: the blue block in the middle of a pile, deeper than its sample, reads
    as no colour; its red and yellow neighbours are cut from each other where their colours
    meet, and the block is still reported (unknown) where it lies. (That pixels of no colour
    are no colour's side, so such a block is never shared out among its neighbours, is pinned
    by tests/vision/test_segment.py; a first version that shared them out left it unsaid.)"""
    _, _, results, _ = blocks
    name = "20250329_153002.jpg"
    (_, x, y, w, h), = [b for b in DOBOT.boxes()[name] if b[0] == "blue"]
    cx, cy = x + w / 2, y + h / 2
    result = results[name]
    assert any(ux <= cx <= ux + uw and uy <= cy <= uy + uh for ux, uy, uw, uh in result.unknown_boxes)


@pytest.mark.parametrize("realset", [CANDY, DOBOT], ids=lambda s: s.name)
def test_a_tap_on_one_object_per_shade_calibrates(realset: RealSet):
    """As on the tablet: a tap in the middle of each sample (no box drawn) becomes a sample
    box round the whole object, and the photo calibrates every colour."""
    if not realset.present:
        pytest.skip(f"real photo set missing: {realset.folder}")
    photo = read_image(realset.folder / realset.calibration_photo)
    taps = [Tap(s.color, s.box[0] + s.box[2] // 2, s.box[1] + s.box[3] // 2) for s in realset.samples]
    samples = [sample_at(photo, tap) for tap in taps]
    for tap, sample in zip(taps, samples):
        x, y, w, h = sample.box
        assert x <= tap.x <= x + w and y <= tap.y <= y + h
    cal = calibrate(photo, samples)
    assert set(cal.colors) == {s.color for s in realset.samples}


@pytest.mark.parametrize("drawing", list(BOX_DRAWINGS))
@pytest.mark.parametrize("realset", [CANDY, DOBOT], ids=lambda s: s.name)
def test_boxes_drawn_tighter_looser_or_off_centre_calibrate(realset: RealSet, drawing: str):
    """Every box drawing of ``make bench``'s box table calibrates every colour — but a box
    twice as large round a block packed beside another holds two colours and says so. Three
    drawings were refused on the blocks: ×0.9 (the ring ran over the yellow block and took it
    for the desk), 15 % down-right (the red block in half the ring, learned as a second desk
    look) and ×2.0 (past the photo's edge)."""
    if not realset.present:
        pytest.skip(f"real photo set missing: {realset.folder}")
    photo = read_image(realset.folder / realset.calibration_photo)
    samples = [Sample(s.color, BOX_DRAWINGS[drawing](s.box)) for s in realset.samples]
    if realset is DOBOT and drawing == "boxes ×2.0 (loose)":
        with pytest.raises(TwoColoursInBoxError, match="yellow"):
            calibrate(photo, samples)
        return
    assert set(calibrate(photo, samples).colors) == {s.color for s in realset.samples}


@needs_blocks
def test_a_hand_tight_box_learns_the_block_not_its_highlight():
    """calib.json's yellow box is drawn just inside the block: its ring runs over the block,
    and the ring's look (block and desk mixed) hid all of it but the lit edge, an L-shaped
    strip of 1 227 pixels the yellow reference was learned from. A look that covers the box's
    middle is the object: the face is grown from there instead."""
    photo = read_image(DOBOT.folder / DOBOT.calibration_photo)
    yellow, = [s for s in DOBOT.samples if s.color == "yellow"]
    _, mask = sample_object(photo, yellow)
    assert mask.sum() >= 0.5 * yellow.box[2] * yellow.box[3]


@needs_blocks
def test_calibrated_on_a_photo_from_far_away_the_close_ups_are_not_counted_many_times():
    """Calibrated on 20250329_152842 (the blocks far off, a true box per colour), the red
    close-ups of 2025-04-08 have every pile wider than a camera may move (×2) from that size.
    The frame then took the calibration's own size and counted a row of four red blocks as 26
    (248 blocks miscounted over the set); it takes its clusters' width now, said as a guess."""
    name = "20250329_152842.jpg"
    truth, boxes = DOBOT.truth(), DOBOT.boxes()
    photo = read_image(DOBOT.folder / name)
    samples = [Sample(c, next(b for b in boxes[name] if b[0] == c)[1:]) for c in ("red", "yellow", "green", "blue")]
    cal = calibrate(photo, samples)
    missed = 0
    for other in sorted(truth):
        if other != name:
            counts = count_cubes(read_image(DOBOT.folder / other), cal).counts
            missed += sum(abs(truth[other].get(c, 0) - counts.get(c, 0)) for c in set(truth[other]) | set(counts))
    assert missed <= 95, f"objects miscounted: {missed}"  # measured: 88


@needs_blocks
def test_a_box_drawn_over_a_blocks_dark_side_leaves_its_lit_faces_said():
    """The boxes drawn 10 % lower: the green box's middle lies on its block's dark side, which
    is all the green reference learns, and a pale look of the desk took in the unboxed blocks'
    lit faces. Every lit green face then reads as desk: 35 of the 48 green blocks went
    missing without a flag (42 blocks in all). Such a face is clearly coloured and of no hue
    of the look it is read as — the tray does not explain it — and is now reported unknown
    where it lies (measured: 13 blocks missed without a flag, 6 of them green; 5 since a deep
    piece under a third of a block is said, 2026-11-29)."""
    photo = read_image(DOBOT.folder / DOBOT.calibration_photo)
    cal = calibrate(photo, [Sample(s.color, BOX_DRAWINGS["boxes 10 % down"](s.box)) for s in DOBOT.samples])
    truth, boxes = DOBOT.truth(), DOBOT.boxes()
    stages = Stages()
    for name in sorted(truth):
        if name != DOBOT.calibration_photo:
            stages.add(name, boxes[name], count_cubes(read_image(DOBOT.folder / name), cal))
    assert stages.missed <= 8, stages.line()


@pytest.fixture(scope="module")
def other_calibrated():
    """The set calibrated on each of its other photos that shows every colour, from that
    photo's true boxes, every other photo counted (``make bench --calibrations``); four true
    boxes hold a neighbour's corner and are refused, said."""
    from benchmarks.vision import run_other_calibrations

    return run_other_calibrations(DOBOT)


@needs_blocks
def test_blocks_are_not_round_whichever_photo_calibrates(other_calibrated):
    """Calibrated on any other photo of the set with its true boxes, the blocks (seen at an
    angle: a hexagon of a top and a side, 0.67–0.83 of their tightest rectangle) were taken for
    round sweets 17 times in 20; as polygons of at most six corners, never (the sweets of
    candy stay round: tests/vision/test_realsets.py)."""
    calibrated = [run for run in other_calibrated if run.calibration is not None]
    assert len(calibrated) >= 16
    assert [run.photo for run in calibrated if run.calibration.round_objects] == []


@needs_blocks
def test_photos_taken_at_an_angle_calibrate_as_seen_from_the_side(other_calibrated):
    """Every photo of the set is a phone's, at 30–70° from above. Calibrated on any of them,
    a sample that shows its top and a side says so — the faces' floor (``FACE_AREA``) decides
    how small the second face may be. At a quarter of the largest face, 5 of these
    calibrations (`152838`, `152844`, `153028`, `153030`, `153033`: their samples' second
    faces are 0.18 to 0.23 of the first) were taken for a camera from below and counted by
    area: 9, 9, 9, 2 and 0 photos exact of 31. At 0.175 they see the side: 21, 21, 19, 10,
    11. Two photos whose samples show no second face of note (under 0.07) stay "from
    below" (`152840`, `152842`: blocks seen nearly from above); `153002` sees the side since
    each sample is also asked as the counter sees it — its yellow sample's blob shows the
    side its box does not (2026-11-29). The synthetic cubes seen from below show no
    second face over 0.01 (tests/benchmarks/test_synthetic.py)."""
    calibrated = [run for run in other_calibrated if run.calibration is not None]
    below = [run.photo for run in calibrated if not run.calibration.seen_from_side]
    assert len(below) <= 2, below


@needs_blocks
def test_calibrated_on_any_other_photo_few_blocks_vanish_unsaid(other_calibrated):
    """Every other photo counted with each of those calibrations. Measured: 13 of 4 348
    blocks missed without a flag, 303 of 620 photos exact, 574 blocks miscounted, 174 counted
    where none lies, since the pixels of no colour's hue joined to a face read as tray are
    said with it, from SAID_HUE on (2026-11-29; 16 with strays from NO_HUE on); 18 since a face read as tray is said from a chroma of
    SAID_HUE (2026-11-29); 34, 303, 574 and 174 since a frame of blocks smaller than the working resolution is chosen for
    looks for faces read as tray at that resolution (2026-11-29); 37, 303, 574 and 174 since a piece under a third of a block but deep in its own pixels is
    said, and without an outline a third of the calibrated block whatever the frame's size
    guess (2026-11-29); 47, 303, 574 and 174 since a sample is asked for its side as the counter sees it and a free
    camera's frame with two objects showing a side is seen from the side (2026-11-29); 47,
    288, 766 and 359 since a face strewn with its colour's pixels is said whole and a colour's
    lit faces are no more than its pixels make blocks (2026-11-29); 53, 286, 782 and 390 since a hue within SAME_HUE of both a desk look and a colour is a face of
    the colour when nearer its hue (2026-11-29); 64, 270, 809 and 391 since a tray look as photographed allows no deeper shade of itself
    (2026-11-28; two counts changed, wrong either way: 806 and 384 before); 64, 270, 806, 384
    since the faces' floor is 0.175 of the largest face (2026-11-28: five
    calibrations see the side they showed; before, 66, 220, 1 090 and 511). Earlier: 65 missed
    without a flag (68 before a blob shaped like one object in a frame sized by
    guess was said, 108 before a free camera farther away than at calibration
    was read again at a finer scale, 108 too before faces read as tray were taken for their
    block, 123 before a pile's size was guessed from each colour's
    part of it, 126 before blocks seen from the side were counted by their
    faces, 163 before coloured patches the tray does not explain were reported, 137 before
    piles counted beyond their cores were said), 219 of 620 photos exact (215 before the
    finer scale, 204 before faces were taken, 182 before the parts, 87 before the faces).
    A floor on silence where the calibration photo is not the one the set came with: what a
    change tuned to that photo would lose."""
    stages = Stages()
    for run in other_calibrated:
        stages.extend(run.stages)
    assert stages.objects >= 4000, stages.line()
    assert stages.missed <= 16, stages.line()
    exact = sum(run.score.exact for run in other_calibrated)
    assert exact >= 295, f"photos exact: {exact}"
    miscounted = sum(run.score.miscounted for run in other_calibrated)
    assert miscounted <= 620, f"blocks miscounted: {miscounted}"


@needs_blocks
def test_calibrated_on_a_close_up_the_photos_from_farther_away_are_not_read_empty():
    """Calibrated on `153015` (a close-up: a block about 130 pixels wide), `152844` and
    `153028` show their blocks about 0.4 times that size — under the smallest size a frame
    may vote for — and read as an empty tray, nothing said (truth 5 and 9 blocks). Read
    again at a scale fine enough for them, every block is counted in its colour, and the
    photos are flagged (measured: 6 for 5 and 11 for 9 — the grey-blue keyboard at the edge
    counts as blue at that size, as it does in 153030 as calibrated — each with its doubts)."""
    from benchmarks.vision import other_calibrations

    samples = dict(other_calibrations(DOBOT))["20250329_153015.jpg"]
    cal = calibrate(read_image(DOBOT.folder / "20250329_153015.jpg"), samples)
    truth = DOBOT.truth()
    for name in ("20250329_152844.jpg", "20250329_153028.jpg"):
        result = count_cubes(read_image(DOBOT.folder / name), cal)
        assert result.size_factor < 0.6, name
        assert all(result.counts.get(c, 0) >= n for c, n in truth[name].items()), (name, result.counts)
        assert result.doubtful, name


@needs_blocks
def test_calibrated_on_any_other_photo_no_miscounted_photo_goes_untold(other_calibrated):
    """Per photo: of the 401 photos miscounted over those calibrations, none carries no flag.
    1 did before a blob shaped like one object in a frame sized by guess was said (calibrated
    on 152838, 141008: 1 red of 4, four blocks packed in a square sizing the frame ×2.8 as
    one); 3 of 405 before a free camera farther away than at calibration was read again at
    a finer scale (152844 and 153028 read as an empty tray with the close-up 153015's
    calibration)."""
    untold = [(run.photo, photo) for run in other_calibrated for photo in run.score.untold]
    wrong = sum(run.score.photos - run.score.exact for run in other_calibrated)
    assert wrong > 300
    assert untold == []
