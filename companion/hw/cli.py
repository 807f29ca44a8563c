"""``companion tower …``: commands for the person building and checking the tower.

* ``tower check``    — which camera and GPIO are active, a photo (and its count when the camera
  is calibrated), the channel order with a red cube, an LED walk-through and a button test.
* ``tower calibrate`` — fix exposure, gain, white balance and focus, photograph the sample
  cubes, calibrate the colours (``companion vision calibrate`` on that photo) and save the
  camera settings *in the calibration*, from where they are restored on every start.
* ``tower lock``     — retired (the separate exposure lock file); says to use ``calibrate``.
* ``tower simulate`` — a simulated tower: press the mock count button for each throw and compare
  the count with what the simulator let fall into the tray.
"""

from __future__ import annotations

import argparse
import logging
import queue
import threading
import time
from pathlib import Path

import cv2

from companion.hw.controls import LED_PATTERNS
from companion.hw.errors import HardwareError
from companion.hw.simulator import COLOURS


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    tower = subparsers.add_parser("tower", help="check, calibrate the exposure of, or simulate "
                                                "the cube tower")
    sub = tower.add_subparsers(dest="tower_command", required=True, metavar="ACTION")

    check = sub.add_parser("check", help="camera, count, LED and button self-test")
    check.add_argument("--out", type=Path, default=Path("tower-check"),
                       help="folder for frame.jpg and annotated.jpg (default: ./tower-check)")
    check.add_argument("--red-box", type=_box, metavar="X,Y,W,H",
                       help="a box around one red cube: checks the camera's channel order")
    check.add_argument("--buttons", type=float, default=10.0, metavar="SECONDS",
                       help="seconds to wait for each button press; 0 skips the button test")
    check.add_argument("--led-seconds", type=float, default=2.0,
                       help="how long each LED state is shown; 0 skips the LED walk-through")
    check.set_defaults(handler=_check)

    calibrate = sub.add_parser(
        "calibrate", help="fix exposure, white balance and focus, photograph the sample cubes "
                          "and calibrate the colours",
        description="Fix the camera's exposure, gain, white balance and focus, take the "
                    "calibration photo, run 'companion vision calibrate' on it with the other "
                    "options given here (--sample COLOUR=X,Y,W,H …, --background, --empty, "
                    "--roi …), and save the camera settings with the calibration. Stop the "
                    "companion service first: only one program can hold the camera.")
    calibrate.add_argument("--distance", type=float, metavar="CM",
                           help="lens to tray floor in cm: focus there (default: one autofocus "
                                "cycle on what the camera sees)")
    calibrate.add_argument("--out", type=Path,
                           help="calibration file (default: COMPANION_CALIBRATION or "
                                "COMPANION_DATA/calibration.json)")
    calibrate.add_argument("--photo", type=Path,
                           help="where to keep the calibration photo (default: next to the "
                                "calibration, calibration-photo.jpg)")
    calibrate.set_defaults(handler=_calibrate, pass_through=True)

    lock = sub.add_parser("lock", help="retired: the exposure is now kept with the calibration")
    lock.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    lock.set_defaults(handler=_lock)

    simulate = sub.add_parser("simulate", help="count simulated throws through the mock button")
    simulate.add_argument("throws", nargs="*", type=_cubes, metavar="COLOUR=N,…",
                          help="throws like red=3,green=1 (default: a seeding throw and three "
                               "battles)")
    simulate.add_argument("--seed", type=int, default=0)
    simulate.add_argument("--timeout", type=float, default=20.0)
    simulate.set_defaults(handler=_simulate)


# --- tower check -------------------------------------------------------------------------------
def _check(args: argparse.Namespace) -> int:
    from companion.config import settings_from_env
    from companion.hw.cameras.picam import channel_order_of
    from companion.hw.tower import Tower

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    tower = Tower.from_settings(settings_from_env())
    problems = 0
    try:
        status = tower.status()
        camera, gpio = status["camera"], status["gpio"]
        print(f"camera : {camera['backend'] or 'none'} — {camera['description'] or camera['message']}")
        print(f"gpio   : {gpio['mode'] or 'none'}{' — ' + gpio['message'] if gpio['message'] else ''}")
        for message in status["messages"]:
            print(f"note   : {message}")
        problems += (not camera["ok"]) + (not gpio["ok"])
        if camera["ok"]:
            args.out.mkdir(parents=True, exist_ok=True)
            frame = tower.snapshot()
            cv2.imwrite(str(args.out / "frame.jpg"), frame)
            print(f"frame  : {frame.shape[1]}×{frame.shape[0]} saved to {args.out / 'frame.jpg'}")
            if args.red_box:
                order = channel_order_of(frame, args.red_box)
                ok = order == "bgr"
                problems += not ok
                print("colours: red reads red — channel order correct" if ok else
                      "colours: red reads BLUE — set COMPANION_CAMERA_CHANNELS=rgb")
            if tower.calibration is not None:
                from companion.vision.annotate import annotate
                from companion.vision.counting import count_cubes

                result = count_cubes(frame, tower.calibration)
                cv2.imwrite(str(args.out / "annotated.jpg"), annotate(frame, result))
                print(f"count  : {_fmt(result.counts)}, unknown {result.unknown}, "
                      f"{result.ms:.1f} ms (see annotated.jpg)")
        controls = tower.controls
        if controls is not None and args.led_seconds > 0:
            for state in LED_PATTERNS:
                print(f"led    : {state}")
                controls.set_led(state)
                time.sleep(args.led_seconds)  # a person is watching the LED
            tower.set_attention(False)
        if controls is not None and not controls.is_mock and args.buttons > 0:
            problems += _button_test(tower, args.buttons)
        elif controls is not None and controls.is_mock:
            print("buttons: mock pins — no physical buttons to test")
    except HardwareError as exc:
        print(f"error  : {exc}")
        problems += 1
    finally:
        tower.close()
    print("result : all good" if not problems else f"result : {problems} problem(s) — see "
                                                   "firmware_notes/troubleshooting.md")
    return 0 if not problems else 1


def _button_test(tower, seconds: float) -> int:
    heard: queue.Queue[str] = queue.Queue()
    tower.on_button(heard.put)
    failures = 0
    for prompt, expected in (("press the COUNT button", "count"),
                             ("hold the COUNT button for a second", "cancel"),
                             ("press the CANCEL button", "cancel")):
        print(f"buttons: {prompt} (within {seconds:g} s)…", flush=True)
        try:
            got = heard.get(timeout=seconds)
        except queue.Empty:
            got = None
        ok = got == expected
        failures += not ok
        verdict = "ok" if ok else f"expected {expected}, got {got or 'nothing'}"
        print(f"buttons: {verdict}")
    return failures


# --- tower calibrate ---------------------------------------------------------------------------
def _calibrate(args: argparse.Namespace) -> int:
    import dataclasses
    import os
    import tempfile

    from companion.cli import main as companion_main
    from companion.config import settings_from_env
    from companion.hw.camera import open_camera
    from companion.hw.settings import hardware_settings
    from companion.hw.sharpness import sharpness
    from companion.vision.calibration import load_calibration, save_calibration

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    hw = hardware_settings(settings_from_env())
    out = args.out or hw.calibration_path
    photo = args.photo or out.with_name("calibration-photo.jpg")
    if args.distance is not None and not 1 <= args.distance <= 200:
        print("error: --distance is the lens-to-tray distance in centimetres (1 to 200).")
        return 2
    vision_args = list(getattr(args, "rest", []))
    if not any(a == "--sample" or a.startswith("--sample=") for a in vision_args):
        print("error: mark at least one cube: --sample COLOUR=X,Y,W,H (see docs/vision.md; "
              "'companion tower check' saves a photo to find the boxes on).")
        return 2
    from companion.hw.service import data_dir_mismatch

    mismatch = data_dir_mismatch(out.parent)
    if mismatch and args.out is None:
        print(f"warning: {mismatch}")
    kind = hw.camera if hw.camera != "auto" else "auto"
    try:
        camera = open_camera(kind, simulate=False, device=hw.camera_device, size=hw.camera_size,
                             channel_order=hw.channel_order, folder=hw.camera_folder,
                             settings=None,
                             focus_distance_m=hw.focus_distance_m if args.distance is None
                             else args.distance / 100)
    except HardwareError as exc:
        print(f"error: {exc}")
        return 2
    try:
        lock_check = getattr(camera, "check_exposure_lock", None)
        if lock_check is not None:  # the values to keep must really be obeyed
            lock = lock_check()
            print(f"lock   : {lock.sentence()}")
            if not lock.ok:
                print("error: the camera does not hold a fixed exposure, so the colours would "
                      "drift from the calibration — run 'companion doctor' for what to repair.")
                return 2
        frame = camera.capture()
        settings = camera.settings()
        warnings = list(getattr(camera, "warnings", None) or ())
        description = camera.description
    except HardwareError as exc:
        print(f"error: {exc}")
        return 2
    finally:
        camera.close()
    print(f"camera : {description}")
    for warning in warnings:
        print(f"warning: {warning}")
    sharp = sharpness(frame)
    print(f"focus  : {sharp.sentence()}")
    photo.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(photo), frame)
    print(f"photo  : {photo}")
    out.parent.mkdir(parents=True, exist_ok=True)
    handle, scratch = tempfile.mkstemp(suffix=".json", dir=out.parent)
    os.close(handle)
    try:
        code = companion_main(["vision", "calibrate", str(photo), *vision_args, "--out", scratch])
        if code != 0:
            print(f"The calibration was not saved; {out} is unchanged.")
            return code
        calibration = load_calibration(scratch)
        camera_record = {**settings, "sharpness": sharp.as_dict()} if settings else {}
        save_calibration(dataclasses.replace(calibration, camera=camera_record), scratch)
        os.replace(scratch, out)  # all or nothing: the old calibration stays until this line
    finally:
        if os.path.exists(scratch):
            os.unlink(scratch)
    kept = ("exposure, white balance and focus kept with it" if settings else
            "this camera has no settings to keep")
    print(f"saved  : {out} ({kept}). Restart the companion to use it "
          "(sudo systemctl restart companion).")
    return 0


# --- tower lock (retired) ----------------------------------------------------------------------
def _lock(args: argparse.Namespace) -> int:
    print("'companion tower lock' is retired: exposure, white balance and focus are now saved "
          "with the colour calibration. Run 'companion tower calibrate --sample COLOUR=X,Y,W,H "
          "…' (see docs/hardware.md); an existing camera-lock.json is still read meanwhile.")
    return 2


# --- tower simulate ----------------------------------------------------------------------------
DEFAULT_THROWS = (
    {"red": 7, "blue": 7, "yellow": 7, "green": 10},  # seeding, three players
    {"red": 3, "blue": 2, "green": 1},
    {"yellow": 4, "red": 2, "green": 2},
    {"blue": 5, "green": 1},
)


def _simulate(args: argparse.Namespace) -> int:
    from companion.config import Settings
    from companion.hw.tower import Tower

    tower = Tower.from_settings(Settings(camera="synthetic", gpio="mock"),
                                environ={"COMPANION_SIM_SEED": str(args.seed)})
    results: queue.Queue = queue.Queue()
    pending: dict[str, dict[str, int]] = {}

    def on_button(button: str) -> None:  # what the web layer does: count on a worker thread
        if button == "count":
            threading.Thread(target=_count_into, args=(tower, pending["throw"], args.timeout,
                                                       results)).start()

    tower.on_button(on_button)
    wrong = 0
    try:
        for thrown in args.throws or DEFAULT_THROWS:
            pending["throw"] = thrown
            start = time.perf_counter()
            tower.press("count")  # drives the mock GPIO pin, like a finger on the button
            outcome = results.get(timeout=args.timeout + 30)
            if isinstance(outcome, Exception):
                print(f"throw {_fmt(thrown)}: {outcome}")
                wrong += 1
                continue
            fell = tower.simulator.last_fallen
            ok = outcome.counts == fell
            wrong += not ok
            print(f"throw {_fmt(thrown)} → fell {_fmt(fell)} → counted {_fmt(outcome.counts)} "
                  f"{'OK' if ok else 'WRONG'}; {outcome.frames_to_settle} frames to settle, "
                  f"{outcome.after_settle_ms:.0f} ms after settling, "
                  f"{time.perf_counter() - start:.2f} s from the press; "
                  f"tower keeps {_fmt(tower.simulator.interior)}")
    finally:
        tower.close()
    return 0 if not wrong else 1


def _count_into(tower, thrown, timeout, results: queue.Queue) -> None:
    try:
        results.put(tower.count_throw(thrown, timeout=timeout))
    except HardwareError as exc:
        results.put(exc)


# --- argument types ----------------------------------------------------------------------------
def _fmt(cubes: dict[str, int]) -> str:
    return ", ".join(f"{c} {cubes[c]}" for c in COLOURS if cubes.get(c)) or "nothing"


def _box(text: str) -> tuple[int, int, int, int]:
    try:
        x, y, w, h = (int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a box is X,Y,W,H in pixels, not {text!r}") from None
    if w <= 0 or h <= 0:
        raise argparse.ArgumentTypeError("a box needs a positive width and height")
    return x, y, w, h


def _cubes(text: str) -> dict[str, int]:
    cubes: dict[str, int] = {}
    for part in filter(None, text.split(",")):
        colour, _, number = part.partition("=")
        if colour not in COLOURS or not number.isdigit():
            raise argparse.ArgumentTypeError(
                f"write throws like red=3,green=1 (colours: {', '.join(COLOURS)}), not {part!r}")
        cubes[colour] = cubes.get(colour, 0) + int(number)
    return cubes
