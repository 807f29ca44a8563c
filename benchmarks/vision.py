"""Vision benchmark: our counter beside a naive baseline, on the same photos, in one run.

    python -m benchmarks.vision [--frames 500] [--seed 2026] [--failures] [--skip-synthetic] [--drift] [--boxes]
                                [--calibrations] [--surfaces] [--coloured] [--perspective] [--lens]

Two sets, reported side by side:
- the synthetic stress set (benchmarks/stress.py): six kinds of tray, light and white-balance
  drift, shadows, vignetting, reflections, JPEG, the camera ±30 % in height; each tray
  calibrated once from its own calibration photo (one cube per colour) and an empty photo;
- the real photo sets (../shared/realsets, protocol in its README): one calibration photo,
  every other photo counted with it. A clear "skipped" line when the folder is missing.
- with ``--drift``, the real sets once more under each drift of :mod:`benchmarks.drift` (light,
  white balance, tone curve, camera height, focus, JPEG, noise) applied to the counted photos
  only, the calibration left as it was: how far the counter holds when the world moves;
- with ``--boxes``, the real sets calibrated again from the same photo with the sample boxes
  drawn otherwise (tighter, looser, off centre; :data:`benchmarks.drift.BOX_DRAWINGS`): how much
  the count depends on how a person drew the boxes;
- with ``--calibrations``, each real set with a box per true object calibrated again on every
  *other* photo that shows each of its colours (the first true box of each colour as the
  sample box) and every remaining photo counted: how much the numbers owe to the one
  calibration photo the set came with;
- with ``--surfaces``, synthetic frames of each tray counted with every *other* tray's
  calibration (each frame with its own empty photo, as the tower takes it before a throw): the
  surface behind the tray is not the one calibrated, the light must come from elsewhere;
- with ``--coloured``, the stress set's conditions behind trays of a saturated colour (a pink
  cloth, a green felt, a yellow wood…; :data:`benchmarks.stress.COLOURED_TRAYS`), each
  calibrated on its own photo: a surface near a cube colour, which the six trays lack;
- with ``--perspective``, the stress set's first frames with the cubes' sides in view, as a
  lens close under the tray sees them (0.3 to 1.0 cube sides at the picture's corner), the
  trays calibrated on photos taken the same way;
- with ``--lens``, the same frames bent by a wide lens's barrel distortion (a cube at the
  picture's corner up to a sixth narrower across the radius and three eighths along it), the
  trays calibrated on photos taken through the same lens; and taken by a camera leaning 2 to 8
  degrees, calibrated leaning alike.

For each: photos counted exactly (every colour right), objects miscounted (sum over photos and
colours of |counted − true|), median milliseconds per photo and per megapixel; on sets with a
box per true object, also the objects missed without a flag (``silent``: neither counted nor
covered by an unknown or doubtful box, :mod:`benchmarks.stages`) — the worst miss. Per photo, ours
also says how many miscounted photos carried no flag at all (``untold``: nothing doubtful, no
unknown object — a battle decided wrongly without a word) and how many exact photos were flagged
anyway (a look for nothing: flagging everything would make ``untold`` zero). Timing runs on
one core (the process pins itself to the first core it may use, so ``taskset -c 1`` moves it,
and OpenCV to one thread); the wall time of the first count of each photo, as in a game, and
its CPU time. Nothing here passes or fails; it prints numbers.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np

from benchmarks.baseline import BaselineModel, baseline_count, fit_baseline
from benchmarks.drift import BOX_DRAWINGS, DRIFTS
from benchmarks.realsets import SETS, RealSet
from benchmarks.stages import Stages, scaled
from benchmarks.stress import COLOURED_TRAYS, TRAYS, Tray, stress_case, tray_conditions
from benchmarks.timing import pin_one_core
from companion.vision.calibration import Calibration, Sample, calibrate
from companion.vision.counting import TrayCount, count_cubes
from companion.vision.errors import CalibrationError
from companion.vision.imageio import read_image
from companion.vision.synthetic import (RenderConditions, RenderedFrame, render_calibration_photo, render_empty_tray,
                                        render_tray)


@dataclass
class Score:
    name: str
    photos: int = 0
    exact: int = 0
    miscounted: int = 0
    ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    ms_per_mp: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    stages: Stages | None = None  # per true object, on sets with a box per object (stages.py)
    unknown: int | None = None  # objects our counter reported as of no colour (None: a baseline)
    unknown_in: int = 0  # photos with at least one
    flags: bool = False  # whether the counter says when to look (ours; the baseline never does)
    untold: list[str] = field(default_factory=list)  # photos miscounted with nothing flagged
    alarms: int = 0  # photos counted exactly and flagged all the same

    def add(self, photo: str, truth: dict[str, int], counts: dict[str, int], timing: tuple[float, float],
            megapixels: float, unknown: int | None = None, flagged: bool | None = None):
        """One photo's count. ``flagged`` (ours only): whether its reading told the table to
        look (:func:`told`)."""
        ms, cpu_ms = timing
        self.photos += 1
        if unknown is not None:
            self.unknown = (self.unknown or 0) + unknown
            self.unknown_in += unknown > 0
        wrong = sum(abs(truth.get(c, 0) - counts.get(c, 0)) for c in set(truth) | set(counts))
        self.miscounted += wrong
        self.exact += wrong == 0
        if wrong:
            self.failures.append(photo)
        if flagged is not None:
            self.flags = True
            if wrong and not flagged:
                self.untold.append(photo)
            self.alarms += bool(not wrong and flagged)
        self.ms.append(ms)
        self.cpu_ms.append(cpu_ms)
        self.ms_per_mp.append(ms / megapixels)

    def unknown_line(self) -> str:
        """The unknown rate: the real sets hold only objects of calibrated colours (the
        synthetic frames' foreign objects are taken off), so each unknown is an object the
        table must count by hand."""
        return (f"    unknown beyond the true foreign objects: {self.unknown} in {self.unknown_in} of {self.photos} photos "
                f"({self.unknown / max(self.photos, 1):.2f} per photo)")

    def add_reading(self, photo: str, truth: dict[str, int], result: TrayCount, timing: tuple[float, float],
                    megapixels: float, foreign: int = 0) -> None:
        """One photo counted by ours: :meth:`add` with the reading's unknowns beyond the
        ``foreign`` objects truly in the photo, and whether it told the table to look."""
        self.add(photo, truth, result.counts, timing, megapixels, max(0, result.unknown - foreign),
                 told(result, foreign))

    def told_line(self) -> str:
        """Per photo, what a table would live through: a miscounted photo with a flag is
        looked at; one without decides a battle wrongly (``untold``, the worst outcome); an
        exact photo with a flag costs a look for nothing (``flagged anyway``)."""
        wrong = self.photos - self.exact
        return (f"    photos miscounted {wrong}: with a flag {wrong - len(self.untold)}, untold {len(self.untold)}; "
                f"exact photos flagged anyway {self.alarms} of {self.exact}")

    def line(self) -> str:
        rate = 100.0 * self.exact / max(self.photos, 1)
        return (f"  {self.name:28} {self.exact:4d}/{self.photos:<4d} {rate:6.1f} %  "
                f"{self.miscounted:6d}  {np.median(self.ms):8.1f}  {np.median(self.cpu_ms):8.1f}"
                f"  {np.median(self.ms_per_mp):8.1f}")


def told(result: TrayCount, foreign: int = 0) -> bool:
    """Whether a reading tells the table to look: a doubtful blob, or an object of no colour
    beyond the ``foreign`` ones truly in the photo (a synthetic frame's die or coin)."""
    return bool(result.doubtful) or result.unknown > foreign


def _timed(fn, *args):
    """Result and (wall ms, CPU ms) of one call. CPU time is this process's own, so it holds
    when other programs share the core; wall time is what a player waits."""
    t0, c0 = time.perf_counter(), time.process_time()
    result = fn(*args)
    return result, ((time.perf_counter() - t0) * 1000.0, (time.process_time() - c0) * 1000.0)


@functools.lru_cache(maxsize=None)
def _calibration_photo(name: str, index: int):
    """Tray ``name`` (the ``index``-th) of the stress set: its conditions and its rendered
    calibration photo, samples and empty photo (rendered once, however many calibrations are
    made from it)."""
    tower = tray_conditions(name, index)
    photo, samples, empty = render_calibration_photo(tower)
    return tower, photo, samples, empty


def calibrate_trays(baseline: bool = True) -> tuple[dict[str, Calibration], dict[str, BaselineModel]]:
    """Each tray of the stress set calibrated once from its own calibration photo (with its
    empty photo and outline), and — when ``baseline`` — the baseline fitted on the same boxes."""
    cals, bases = {}, {}
    for index, name in enumerate(TRAYS):
        tower, photo, samples, empty = _calibration_photo(name, index)
        cals[name] = calibrate(photo.image, samples, empty=empty.image, roi=tower.roi)
        if baseline:
            bases[name] = fit_baseline(photo.image, samples, tower.roi)
    return cals, bases


def calibrate_tray(name: str) -> Calibration:
    """Tray ``name`` of the stress set calibrated as :func:`calibrate_trays` does it."""
    tower, photo, samples, empty = _calibration_photo(name, list(TRAYS).index(name))
    return calibrate(photo.image, samples, empty=empty.image, roi=tower.roi)


def stress_frame(index: int, seed: int, trays: dict[str, Tray] = TRAYS, side_view: float = 0.0,
                 barrel: float = 0.0, tilt: float = 0.0):
    """Frame ``index`` of the stress set (or of its conditions behind ``trays``, or with the
    cubes' sides in view: ``RenderConditions.side_view``, or through a lens with barrel
    distortion: ``barrel``, or a camera leaning: ``tilt``): its tray's name, the rendered frame
    and the photo of its empty tray under the same conditions."""
    name, counts, cond = stress_case(index, seed, trays)
    cond = replace(cond, side_view=side_view, barrel=barrel, tilt=tilt)
    render_seed = seed * 100003 + index
    return (name, render_tray(counts, seed=render_seed, conditions=cond),
            render_empty_tray(seed=render_seed, conditions=cond).image)


def every_cube_in_view(frame: RenderedFrame) -> dict[str, int]:
    """Per colour, every cube a rendered frame shows — those whose centre lies outside the
    tray outline too: what a camera without an outline counts."""
    return dict(Counter(cube.color for cube in (*frame.cubes, *frame.others)))


def free_calibrations() -> dict[str, Calibration]:
    """Each tray of the stress set calibrated from its calibration photo as a free camera would
    be: no outline, no empty photo (as the real sets are calibrated)."""
    cals = {}
    for index, name in enumerate(TRAYS):
        _, photo, samples, _ = _calibration_photo(name, index)
        cals[name] = calibrate(photo.image, samples)
    return cals


def run_synthetic(frames: int, seed: int, baseline: bool = True, free: bool = False) -> list[Score]:
    """Ours without and with the empty photo, the baseline, and — with ``free`` — ours
    calibrated without an outline (a free camera: the cubes seen from below all the same, so
    what the real sets' free-camera rules do to cubes shows here). Without an outline every
    cube in the photo counts, those lying across the tray's outline too
    (:func:`every_cube_in_view`)."""
    ours, ours_empty, naive = (Score("ours"), Score("ours, with empty photo"), Score("baseline (HSV)"))
    loose = Score("ours, no outline")
    cals, bases = calibrate_trays(baseline)
    free_cals = free_calibrations() if free else {}
    for i in range(frames):
        name, frame, empty = stress_frame(i, seed)
        mp = frame.image.shape[0] * frame.image.shape[1] / 1e6
        label = f"{i} ({name})"
        result, timing = _timed(count_cubes, frame.image, cals[name])
        ours.add_reading(label, frame.counts, result, timing, mp, frame.unknown)
        result, timing = _timed(count_cubes, frame.image, cals[name], empty)
        ours_empty.add_reading(label, frame.counts, result, timing, mp, frame.unknown)
        if free:
            result, timing = _timed(count_cubes, frame.image, free_cals[name])
            loose.add_reading(label, every_cube_in_view(frame), result, timing, mp, frame.unknown)
        if baseline:
            counted, timing = _timed(baseline_count, frame.image, bases[name])
            naive.add(label, frame.counts, counted, timing, mp)
    return [ours, ours_empty] + ([loose] if free else []) + [naive]


@functools.lru_cache(maxsize=None)
def _fitted(realset: RealSet, samples: tuple[Sample, ...]):
    """Our calibration and the baseline on ``realset``'s calibration photo with ``samples``:
    made once, however many drifts are counted with them (a calibration also builds its
    16 MB lookup table once, on its first count)."""
    photo = read_image(realset.folder / realset.calibration_photo)
    return calibrate(photo, samples), fit_baseline(photo, samples)


def run_realset(realset: RealSet, drift=None, drawing=None, baseline: bool = True) -> list[Score]:
    """Ours and the baseline on every photo of ``realset`` but its calibration photo, each
    photo first changed by ``drift`` when one is given (the calibration never is), with the
    sample boxes redrawn by ``drawing`` when one is given. Raises :class:`CalibrationError`
    when our calibration refuses those boxes."""
    truth = realset.truth()
    samples = realset.samples if drawing is None else tuple(
        Sample(s.color, drawing(s.box)) for s in realset.samples)
    cal, base = _fitted(realset, samples)
    ours, naive = Score("ours"), Score("baseline (HSV)")
    boxes = realset.boxes()
    if boxes is not None:
        ours.stages = Stages()
    for name in sorted(truth):
        if name == realset.calibration_photo:
            continue
        image = read_image(realset.folder / name)
        width = image.shape[1]
        if drift is not None:
            image = drift(image)
        mp = image.shape[0] * image.shape[1] / 1e6
        result, timing = _timed(count_cubes, image, cal)
        ours.add_reading(name, truth[name], result, timing, mp)
        if ours.stages is not None:  # boxes are in the photo's own pixels: resized with it
            ours.stages.add(name, scaled(boxes[name], image.shape[1] / width), result)
        if baseline:
            counted, timing = _timed(baseline_count, image, base)
            naive.add(name, truth[name], counted, timing, mp)
    return [ours, naive]


def variants_table(realset: RealSet, what: str, column: str, title: str, variants: dict,
                   failures: bool) -> list[str]:
    """One line per variant (``what`` is ``"drift"`` or ``"drawing"``, the argument of
    :func:`run_realset` it fills; ``column`` heads the first column): exact photos and objects
    miscounted, ours beside the baseline, or our calibration's refusal."""
    width = max(22, *(len(label) for label in variants))
    lines = [f"\nreal photos '{realset.name}' {title}",
             f"  {column:{width}} {'ours exact':>12} {'missed':>7} {'silent':>7} {'untold':>7}   "
             f"{'baseline exact':>15} {'missed':>7}"]
    for label, variant in variants.items():
        try:
            ours, naive = run_realset(realset, **{what: variant})
        except CalibrationError as exc:
            lines.append(f"  {label:{width}} refused: {exc}")
            continue
        silent = "—" if ours.stages is None else str(ours.stages.missed)
        lines.append(f"  {label:{width}} {ours.exact:7d}/{ours.photos:<4d} {ours.miscounted:7d} {silent:>7} "
                     f"{len(ours.untold):7d}   {naive.exact:10d}/{naive.photos:<4d} {naive.miscounted:7d}")
        if failures and ours.failures:
            lines.append(f"    wrong: {', '.join(ours.failures)}")
    return lines


def drift_table(realset: RealSet, failures: bool) -> list[str]:
    return variants_table(realset, "drift", "drift", "under drift (counted photos changed, calibration not)",
                          DRIFTS, failures)


def boxes_table(realset: RealSet, failures: bool) -> list[str]:
    return variants_table(realset, "drawing", "boxes", "with the sample boxes drawn otherwise (calibrated again "
                          f"on {realset.calibration_photo})", BOX_DRAWINGS, failures)


def other_calibrations(realset: RealSet) -> list[tuple[str, tuple[Sample, ...]]]:
    """Every photo of ``realset`` but its own calibration photo that holds a true box of each
    colour the set's samples name, with the first such box of each colour as its sample box —
    the calibrations a person might as well have made from that set. Empty without boxes."""
    boxes = realset.boxes()
    if boxes is None:
        return []
    colours = [s.color for s in realset.samples]
    out = []
    for name in sorted(realset.truth()):
        first = {c: next((b[1:] for b in boxes.get(name, []) if b[0] == c), None) for c in colours}
        if name != realset.calibration_photo and all(first.values()):
            out.append((name, tuple(Sample(c, first[c]) for c in colours)))
    return out


@dataclass
class OtherCalibration:
    """One of :func:`other_calibrations`, calibrated and with every other photo counted, or
    refused (``calibration`` None, the refusal's sentence in ``refused``)."""

    photo: str
    calibration: Calibration | None
    score: Score
    stages: Stages
    refused: str = ""


def run_other_calibrations(realset: RealSet) -> list[OtherCalibration]:
    """Each of :func:`other_calibrations` of ``realset`` calibrated, and every photo but its
    own counted with it: exact and miscounted (``score``), per true object (``stages``)."""
    truth, boxes = realset.truth(), realset.boxes()
    photos = {name: read_image(realset.folder / name) for name in sorted(truth)}
    out = []
    for name, samples in other_calibrations(realset):
        score, stages = Score("ours"), Stages()
        try:
            cal = calibrate(photos[name], samples)
        except CalibrationError as exc:
            out.append(OtherCalibration(name, None, score, stages, str(exc)))
            continue
        for other, image in photos.items():
            if other != name:
                result = count_cubes(image, cal)
                score.add_reading(other, truth[other], result, (0.0, 0.0), 1.0)
                stages.add(other, boxes[other], result)
        out.append(OtherCalibration(name, cal, score, stages))
    return out


def calibrations_table(realset: RealSet, failures: bool) -> list[str]:
    """One line per :func:`run_other_calibrations` of ``realset``: every other photo counted
    (exact, miscounted, silent, extra cubes), or the calibration's refusal; then the totals."""
    runs = run_other_calibrations(realset)
    if not runs:
        return []
    lines = [f"\nreal photos '{realset.name}' calibrated on each other photo that shows every colour "
             "(its first true box of each colour; every other photo counted)",
             f"  {'calibrated on':24} {'exact':>9} {'missed':>7} {'silent':>7} {'extra':>6} {'untold':>7}"]
    total = Stages()
    for run in runs:
        score, stages = run.score, run.stages
        if run.calibration is None:
            lines.append(f"  {run.photo:24} refused: {run.refused}")
            continue
        total.extend(stages)
        lines.append(f"  {run.photo:24} {score.exact:4d}/{score.photos:<4d} {score.miscounted:7d} {stages.missed:7d} "
                     f"{stages.extra:6d} {len(score.untold):7d}")
        if failures and score.failures:
            lines.append(f"    wrong: {', '.join(score.failures)}")
    calibrated = [run for run in runs if run.calibration is not None]
    lines.append(f"  all {len(calibrated)} calibrations ({len(runs) - len(calibrated)} refused): exact "
                 f"{sum(r.score.exact for r in calibrated)} of {sum(r.score.photos for r in calibrated)} photos, "
                 f"{sum(r.score.miscounted for r in calibrated)} objects miscounted, "
                 f"{sum(len(r.score.untold) for r in calibrated)} photos miscounted with nothing flagged")
    lines.append(total.line())
    return lines


def with_and_without_empty(frame: RenderedFrame, empty: np.ndarray, calibration: Calibration,
                           base: BaselineModel) -> tuple[np.ndarray, np.ndarray]:
    """One rendered frame counted three ways: whether ours with its ``empty`` photo, ours
    without it and the baseline are exact; and whether each of ours is wrong with nothing
    flagged (:func:`told`)."""
    truth = {c: n for c, n in frame.counts.items() if n}
    ours = (count_cubes(frame.image, calibration, empty), count_cubes(frame.image, calibration))
    exact = np.array([ours[0].counts == truth, ours[1].counts == truth, baseline_count(frame.image, base) == truth])
    return exact.astype(int), np.array([r.counts != truth and not told(r, frame.unknown) for r in ours], int)


def surfaces_table(frames: int, seed: int) -> list[str]:
    """Per calibrated tray (rows), the frames of each other tray (columns) counted exactly: ours
    with the frame's empty photo, ours without it, and the baseline fitted on the calibrated
    tray; then how many of ours were wrong with nothing flagged (no unknown, nothing doubtful)."""
    cals, bases = calibrate_trays()
    per_tray: dict[str, list] = {name: [] for name in TRAYS}
    i = 0
    while min(len(v) for v in per_tray.values()) < frames:
        name = stress_case(i, seed)[0]  # cheap: only the frames still wanted are rendered
        if len(per_tray[name]) < frames:
            per_tray[name].append(stress_frame(i, seed)[1:])
        i += 1
    width = max(len(name) for name in TRAYS)
    lines = [f"\nsynthetic: counted on another tray than calibrated ({frames} frames per pair; exact: ours "
             "with the frame's empty photo · ours without it · baseline)",
             f"  {'calibrated on':{width}} " + " ".join(f"{name:>14}" for name in TRAYS)]
    total = np.zeros(3, int)
    silent = np.zeros(2, int)  # ours with and without the empty photo: wrong, and nothing flagged
    for calibrated in TRAYS:
        cells = []
        for counted in TRAYS:
            if counted == calibrated:
                cells.append(f"{'—':>14}")
                continue
            exact = np.zeros(3, int)
            for frame, empty in per_tray[counted]:
                right, untold = with_and_without_empty(frame, empty, cals[calibrated], bases[calibrated])
                exact += right
                silent += untold
            total += exact
            cells.append(f"{' · '.join(str(v) for v in exact):>14}")
        lines.append(f"  {calibrated:{width}} " + " ".join(cells))
    pairs = frames * len(TRAYS) * (len(TRAYS) - 1)
    lines.append(f"  all pairs of {pairs} frames: ours with the empty photo {total[0]}, without {total[1]}, "
                 f"baseline {total[2]}")
    lines.append(f"  wrong without a flag (nothing doubtful, no unknown beyond the true foreign objects): ours with "
                 f"the empty photo {silent[0]}, without {silent[1]}")
    return lines


def calibrated_on_its_photo(tower: RenderConditions) -> tuple[Calibration, BaselineModel]:
    """The tower ``tower`` calibrated on its rendered calibration photo (samples, empty photo,
    outline) as the stress set's trays are, and the baseline fitted on the same boxes. Raises
    :class:`CalibrationError` as calibration does."""
    photo, samples, empty = render_calibration_photo(tower)
    return (calibrate(photo.image, samples, empty=empty.image, roi=photo.roi),
            fit_baseline(photo.image, samples, photo.roi))


def coloured_table(frames: int, seed: int) -> list[str]:
    """Per tray of a saturated colour (:data:`benchmarks.stress.COLOURED_TRAYS`), calibrated on
    its own calibration photo as the stress set's trays are: the frames counted exactly (ours
    with the frame's empty photo · ours without it · the baseline fitted on the same boxes) and
    ours wrong with nothing flagged; or the sentence that refused the calibration."""
    width = max(len(name) for name in COLOURED_TRAYS)
    lines = [f"\nsynthetic: trays of a saturated colour, which the stress set lacks ({frames} frames each, the stress "
             "set's conditions; exact: ours with the frame's empty photo · ours without it · baseline)",
             f"  {'tray':{width}} {'exact':>15} {'wrong without a flag (with · without)':>40}"]
    total, silent = np.zeros(3, int), np.zeros(2, int)
    for index, name in enumerate(COLOURED_TRAYS):
        try:
            calibration, base = calibrated_on_its_photo(tray_conditions(name, index, COLOURED_TRAYS))
        except CalibrationError as exc:
            lines.append(f"  {name:{width}} calibration refused: {exc}")
            continue
        exact, wrong = np.zeros(3, int), np.zeros(2, int)
        for i in range(frames):
            _, frame, empty_photo = stress_frame(i * len(COLOURED_TRAYS) + index, seed, COLOURED_TRAYS)
            right, untold = with_and_without_empty(frame, empty_photo, calibration, base)
            exact += right
            wrong += untold
        total += exact
        silent += wrong
        lines.append(f"  {name:{width}} {' · '.join(str(v) for v in exact):>15} {' · '.join(str(v) for v in wrong):>40}")
    lines.append(f"  all calibrated trays: ours with the empty photo {total[0]}, without {total[1]}, baseline "
                 f"{total[2]}; wrong without a flag: with the empty photo {silent[0]}, without {silent[1]}")
    return lines


SIDE_VIEWS = (0.0, 0.3, 0.6, 1.0)  # cube sides seen at the picture's corner (RenderConditions.side_view)
BARRELS = (0.0, 0.05, 0.1, 0.2)  # barrel distortion (RenderConditions.barrel)
TILTS = (0.0, 2.0, 4.0, 8.0, 12.0)  # degrees the camera leans (RenderConditions.tilt)


def lens_counts(frames: int, seed: int, side_view: float = 0.0, barrel: float = 0.0,
                tilt: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The stress set's first ``frames`` frames as a camera close under the tray takes them —
    the cubes' sides in view ``side_view`` cube sides wide at the picture's corner, the picture
    bent by ``barrel`` distortion, the camera leaning ``tilt`` degrees
    (:class:`RenderConditions`) — each tray calibrated on its
    calibration photo taken the same way: frames exact (ours with the frame's empty photo,
    ours without it, the baseline) and ours wrong with nothing flagged (with, without).
    Raises :class:`CalibrationError` naming the tray whose calibration was refused."""
    cals, bases = {}, {}
    for index, name in enumerate(TRAYS):
        tower = replace(tray_conditions(name, index), side_view=side_view, barrel=barrel, tilt=tilt)
        try:
            cals[name], bases[name] = calibrated_on_its_photo(tower)
        except CalibrationError as exc:
            raise CalibrationError(f"({name}): {exc}") from None
    exact, wrong = np.zeros(3, int), np.zeros(2, int)
    for i in range(frames):
        name, frame, empty_photo = stress_frame(i, seed, side_view=side_view, barrel=barrel, tilt=tilt)
        right, untold = with_and_without_empty(frame, empty_photo, cals[name], bases[name])
        exact += right
        wrong += untold
    return exact, wrong


def lens_table(title: str, unit: str, column: str, frames: int, seed: int, values: tuple[float, ...],
               what: str) -> list[str]:
    """Per value of the camera's ``what`` (``"side_view"``, ``"barrel"`` or ``"tilt"``, :func:`lens_counts`)
    the stress set's first ``frames`` frames counted exactly (ours with the frame's empty photo
    · ours without it · the baseline) and ours wrong with nothing flagged; or the sentence that
    refused a calibration."""
    lines = [f"\nsynthetic: {title} (the stress set's first {frames} frames; {unit}; exact: ours with the "
             "frame's empty photo · ours without it · baseline)",
             f"  {column:20} {'exact':>15} {'wrong without a flag (with · without)':>40}"]
    for value in values:
        try:
            exact, wrong = lens_counts(frames, seed, **{what: value})
        except CalibrationError as exc:
            lines.append(f"  {value:<20} calibration refused {exc}")
            continue
        lines.append(f"  {value:<20} {' · '.join(str(v) for v in exact):>15} "
                     f"{' · '.join(str(v) for v in wrong):>40}")
    return lines


def perspective_table(frames: int, seed: int, side_views: tuple[float, ...] = SIDE_VIEWS) -> list[str]:
    """The cubes' sides in view, as a lens close under the tray sees them (:data:`SIDE_VIEWS`
    cube sides at the picture's corner; :func:`lens_table`)."""
    return lens_table("the cubes' sides in view, as a lens close under the tray sees them",
                      "width of the sides at the picture's corner, in cube sides", "sides at the corner",
                      frames, seed, side_views, "side_view")


def tilt_table(frames: int, seed: int, tilts: tuple[float, ...] = TILTS) -> list[str]:
    """The camera leaning (:data:`TILTS` degrees; :func:`lens_table`)."""
    return lens_table("the camera leaning, still aimed at the tray's middle",
                      "degrees about the picture's horizontal axis: the top of the picture nearer, "
                      "the bottom farther", "tilt °", frames, seed, tilts, "tilt")


def barrel_table(frames: int, seed: int, barrels: tuple[float, ...] = BARRELS) -> list[str]:
    """The picture bent by a wide lens's barrel distortion (:data:`BARRELS`; :func:`lens_table`)."""
    return lens_table("the picture bent by a wide lens's barrel distortion",
                      "k: a cube at the picture's corner looks 1/(1+k) as wide across the radius and 1/(1+3k) "
                      "along it", "barrel k",
                      frames, seed, barrels, "barrel")


HEAD = f"  {'counter':28} {'exact':>9} {'':8}  {'missed':>6}  {'ms/photo':>8}  {'cpu ms':>8}  {'ms/MP':>8}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.vision", description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=500, help="synthetic frames (default 500)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--failures", action="store_true", help="list the photos counted wrongly")
    parser.add_argument("--skip-synthetic", action="store_true", help="real photos only")
    parser.add_argument("--drift", action="store_true",
                        help="also count the real photos under light, white-balance, height, focus and noise drift")
    parser.add_argument("--boxes", action="store_true",
                        help="also calibrate the real sets with their sample boxes drawn tighter, looser or off centre")
    parser.add_argument("--calibrations", action="store_true",
                        help="also calibrate the real sets with a box per object on each of their other photos")
    parser.add_argument("--surfaces", action="store_true",
                        help="also count synthetic frames with the calibration of another tray (and their empty photos)")
    parser.add_argument("--coloured", action="store_true",
                        help="also count synthetic frames on trays of a saturated colour (cloth, felt), each calibrated on its own")
    parser.add_argument("--perspective", action="store_true",
                        help="also count synthetic frames with the cubes' sides in view, as a lens close under the tray sees them")
    parser.add_argument("--lens", action="store_true",
                        help="also count synthetic frames bent by a wide lens's barrel distortion, and from a camera leaning")
    args = parser.parse_args(argv)
    if args.frames < 1:
        parser.error("--frames must be at least 1")
    pin_one_core()
    blocks = []
    if not args.skip_synthetic:
        scores = run_synthetic(args.frames, args.seed, free=True)
        blocks.append((f"synthetic stress set: {args.frames} frames of 1280×960, seed {args.seed}, "
                       f"trays: {', '.join(TRAYS)}", scores))
    for realset in SETS:
        if not realset.present:
            print(f"real photos '{realset.name}': skipped: folder missing ({realset.folder})")
            continue
        scores = run_realset(realset)
        blocks.append((f"real photos '{realset.name}' ({realset.folder}): calibrated on "
                       f"{realset.calibration_photo} only, {scores[0].photos} photos counted", scores))
    for title, scores in blocks:
        print(f"\n{title}")
        print(HEAD)
        for score in scores:
            print(score.line())
            if score.unknown is not None:
                print(score.unknown_line())
            if score.flags:
                print(score.told_line())
                if args.failures and score.untold:
                    print(f"    miscounted with nothing flagged: {', '.join(score.untold)}")
            if args.failures and score.failures:
                print(f"    wrong: {', '.join(score.failures[:60])}")
            if score.stages is not None:
                print(score.stages.line())
                if args.failures and score.stages.missed_in:
                    print(f"    objects missed in: {', '.join(score.stages.missed_in)}")
    for wanted, table in ((args.drift, drift_table), (args.boxes, boxes_table),
                          (args.calibrations, calibrations_table)):
        if wanted:
            for realset in SETS:
                if realset.present:
                    print("\n".join(table(realset, args.failures)))
    if args.surfaces:
        print("\n".join(surfaces_table(10, args.seed)))
    if args.coloured:
        print("\n".join(coloured_table(40, args.seed)))
    if args.perspective:
        print("\n".join(perspective_table(60, args.seed)))
    if args.lens:
        print("\n".join(barrel_table(60, args.seed)))
        print("\n".join(tilt_table(60, args.seed)))
    print(f"\n(exact: photos with every colour right; missed: objects miscounted in all; "
          f"ms/photo: median wall time of one count on one core; cpu ms: its CPU time; ms/MP: wall "
          f"time per megapixel; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
