"""Camera set-up and the empty-tray step, timed: ``python -m benchmarks.camera_setup``.

Prints, each beside its baseline (one core, medians of ``--repeat`` runs):

* **taps → calibration → check**: :func:`check_setup` with one tap per colour on a 1280×960
  photo (finding each sample box, calibrating, counting the photo back) beside the old path,
  :func:`calibrate` with the boxes typed by hand plus one count (the tap search is the difference);
* **one live picture**: a capture of the simulated tower shrunk to 800 px and JPEG-encoded at
  quality 70 (what ``/api/camera/preview.jpg`` sends) beside the full-size photo at quality 88;
* **the empty-tray check**: one count of an empty 1280×960 tray (added before every throw);
* **a count while a page watches**: the simulated tower's throw-and-count with a thread asking
  for a live picture every 250 ms beside the same counts with nobody watching.

It prints numbers and never fails on them (timings belong here, not in the tests).
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

from benchmarks.timing import median_ms, pin_one_core


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--counts", type=int, default=4, help="simulated counts per case")
    args = parser.parse_args(argv)
    pin_one_core()

    from companion.hw.calibration_store import jpeg, parse_setup, check_setup, sample_at
    from companion.hw.simulator import TowerSimulator
    from companion.hw.tower import Tower
    from companion.vision.calibration import calibrate
    from companion.vision.counting import count_cubes
    from companion.vision.synthetic import RenderConditions, render_empty_tray, render_tray, synthetic_calibration

    colours = ("red", "blue", "yellow", "purple", "black", "green")
    frame = render_tray({c: 1 for c in colours}, seed=3)
    where = {c.color: (round(c.x), round(c.y)) for c in frame.cubes}
    body = {"outline": [list(p) for p in RenderConditions().roi],
            "taps": [{"color": c, "x": x, "y": y} for c, (x, y) in where.items()]}
    setup = parse_setup(body, (1280, 960))
    boxes = [sample_at(frame.image, t) for t in setup.colour_taps]  # the boxes a person would type

    def typed() -> None:
        cal = calibrate(frame.image, boxes, roi=setup.outline)
        count_cubes(frame.image, cal)

    print(f"load average {os.getloadavg()[0]:.1f}; medians of {args.repeat} runs, one core")
    print(f"{'what':44} {'ours':>10} {'baseline':>10}  baseline is")
    ours = median_ms(lambda: check_setup(frame.image, setup), args.repeat)
    base = median_ms(typed, args.repeat)
    print(f"{'6 taps → calibration → check (ms)':44} {ours:10.0f} {base:10.0f}  boxes typed by hand, calibrate + count")

    full = median_ms(lambda: jpeg(frame.image, 88), args.repeat * 4)
    small = median_ms(lambda: jpeg(frame.image, 70, 800), args.repeat * 4)
    print(f"{'one live picture, encode (ms)':44} {small:10.1f} {full:10.1f}  the full photo at quality 88")
    print(f"{'one live picture (kB)':44} {len(jpeg(frame.image, 70, 800)) / 1000:10.0f} "
          f"{len(jpeg(frame.image, 88)) / 1000:10.0f}")

    cal = synthetic_calibration()
    empty = render_empty_tray(seed=5).image
    check = median_ms(lambda: count_cubes(empty, cal), args.repeat * 4)
    thrown = render_tray({"red": 3, "blue": 2, "green": 1}, seed=5).image
    count = median_ms(lambda: count_cubes(thrown, cal, empty=empty), args.repeat * 4)
    print(f"{'empty-tray check before a throw (ms)':44} {check:10.1f} {count:10.1f}  the count of the throw itself")

    def counts(watch: bool) -> float:
        from companion.hw.camera import open_camera

        sim = TowerSimulator(seed=1)
        tower = Tower(open_camera=lambda: open_camera("synthetic", simulator=sim, seed=1),
                      open_controls=None, simulator=sim, calibration=cal)
        stop = threading.Event()

        def watcher() -> None:
            while not stop.is_set():
                try:
                    jpeg(tower.preview(), 70, 800)
                except Exception:
                    pass
                stop.wait(0.25)

        thread = threading.Thread(target=watcher, daemon=True)
        if watch:
            thread.start()
        times = []
        for _ in range(args.counts):
            start = time.perf_counter()
            tower.count_throw({"red": 3, "blue": 2, "green": 1}, timeout=30)
            times.append((time.perf_counter() - start) * 1000)
        stop.set()
        if watch:
            thread.join()
        tower.close()
        return statistics.median(times)

    counts(False)  # warm-up: the renderer's first layouts
    alone, watched = counts(False), counts(True)
    print(f"{'throw → count, a page watching (ms)':44} {watched:10.0f} {alone:10.0f}  nobody watching")

    # Taps (6 px off each cube's centre) on the six trays of the vision stress set, three photos each.
    from benchmarks.stress import TRAYS, tray_conditions
    from companion.hw.calibration_store import SetupError

    good, total, refused = 0, 0, []
    for name in TRAYS:
        cond = tray_conditions(name, list(TRAYS).index(name))
        for seed in (1, 2, 3):
            shot = render_tray({c: 1 for c in colours}, seed=seed, conditions=cond)
            taps = {"outline": [list(p) for p in cond.roi],
                    "taps": [{"color": c.color, "x": c.x + 6, "y": c.y - 5} for c in shot.cubes]}
            total += 1
            try:
                result = check_setup(shot.image, parse_setup(taps, (1280, 960)))
            except SetupError as exc:
                refused.append(f"{name} {seed}: {str(exc).split(':')[0]}")
                continue
            good += result.found == {c: 1 for c in colours} and not any(
                w["kind"] == "not_found" for w in result.warnings)
    print(f"{'stress trays calibrated from taps, all found':44} {good:7d}/{total}")
    for line in refused:
        print(f"    refused: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
