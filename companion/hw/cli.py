"""``companion tower …``: commands for the person building and checking the tower.

* ``tower check``    — which camera and GPIO are active, a photo (and its count when the camera
  is calibrated), the channel order with a red cube, an LED walk-through and a button test.
* ``tower lock``     — meter the Pi camera once and save exposure, gain and white balance.
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

    lock = sub.add_parser("lock", help="meter the Pi camera once and save the exposure lock")
    lock.add_argument("--out", type=Path, help="where to save (default: COMPANION_DATA/"
                                               "camera-lock.json)")
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


# --- tower lock --------------------------------------------------------------------------------
def _lock(args: argparse.Namespace) -> int:
    from companion.config import settings_from_env
    from companion.hw.cameras.picam import Picamera2Camera
    from companion.hw.settings import hardware_settings

    hw = hardware_settings(settings_from_env())
    out = args.out or hw.exposure_lock_path
    try:
        camera = Picamera2Camera(lock=None, size=hw.camera_size)
    except HardwareError as exc:
        print(f"error: {exc}")
        return 2
    try:
        camera.lock.save(out)
    finally:
        camera.close()
    print(f"locked: exposure {camera.lock.exposure_us} µs, gain {camera.lock.analogue_gain:.2f}, "
          f"colour gains {camera.lock.colour_gains} → {out}")
    print("Recalibrate the colours now (companion vision calibrate), under this same lock.")
    return 0


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
