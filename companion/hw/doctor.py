"""``companion doctor``: is this tower ready for a game night? Checks, and says what to fix.

Run it on the Pi with the companion service stopped (only one program can hold the camera):

    sudo systemctl stop companion && .venv/bin/python -m companion doctor

It checks, in this order, and prints one line per check — ``ok`` or ``FIX`` with the repair:

1. **system** — the OS, Python, whether this is a Raspberry Pi;
2. **service** — whether the companion service is running (it then holds the camera, so the
   camera checks are skipped with the command to stop it), and whether this command's data
   folder is the service's (:mod:`companion.hw.service`);
3. **numpy / opencv / picamera2** — the combination is consistent (one numpy, apt's on the Pi;
   Picamera2 imports), see :mod:`companion.hw.stack`;
4. **calibration** — present, readable, keeps the camera settings (and says when it predates
   the black level, so haze is not corrected until it is made again);
5. **camera** — found and opened with the calibration's settings, which took; a camera held by
   another program is named as busy, with the program when it can be found;
6. **focus** — the sharpness figure of a fresh frame (:mod:`companion.hw.sharpness`);
7. **exposure** — mean brightness across ``frames`` (10) fresh frames of the still tray varies by
   at most 2 % (more means the light flickers, or the exposure drifts);
8. **lock** (Pi camera) — the exposure is proved fixed by *changing* it: stepped down for a few
   frames, the metadata and the picture must follow, then it is restored
   (:meth:`~companion.hw.cameras.picam.Picamera2Camera.check_exposure_lock`);
9. **buttons / led** — the pins open; at rest no button reads pressed; mock pins are pressed
   and heard; with ``--buttons S`` a person presses each real button within S seconds; the LED
   is switched on and off and the person at the terminal says what they saw (without a
   terminal the doctor says it cannot check it);
10. **disk** — free space for the data folder, and that it can be written.

Off the Pi the same checks run against the simulated camera and mock pins, so the doctor itself
is tested (tests/hw/test_doctor.py). Exit status: 0 when nothing needs fixing, 1 otherwise.
"""

from __future__ import annotations

import argparse
import queue
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from companion.hw.stack import Finding

EXPOSURE_TOLERANCE = 0.02  # relative spread of mean brightness across the frames
MIN_FREE_BYTES = 500 * 1024 * 1024  # a game log is small; photos of readings are not


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "doctor", help="check camera, focus, exposure, buttons, LED, libraries and disk; "
                       "print what to fix",
        description="Check the tower (stop the companion service first) and print what to fix.")
    parser.add_argument("--frames", type=int, default=10,
                        help="frames for the exposure check (default 10)")
    parser.add_argument("--buttons", type=float, default=0.0, metavar="SECONDS",
                        help="on real pins, wait this long for a press of each button "
                             "(default 0: only check that none reads pressed at rest)")
    parser.set_defaults(handler=_doctor)


def _doctor(args: argparse.Namespace) -> int:
    from companion.config import settings_from_env
    from companion.hw.settings import hardware_settings

    settings = settings_from_env()
    findings = run_checks(hardware_settings(settings), settings.data_dir, frames=args.frames,
                          button_seconds=args.buttons, out=print)
    to_fix = [f for f in findings if not f.ok]
    print(f"result: {'nothing to fix' if not to_fix else f'{len(to_fix)} thing(s) to fix'}"
          + (" — see the FIX lines above" if to_fix else ""))
    return 0 if not to_fix else 1


def run_checks(hw: Any, data_dir: Path, frames: int = 10, button_seconds: float = 0.0,
               out: Callable[[str], None] = print,
               ask: Callable[[str], str] | None = None) -> list[Finding]:
    """Every check, printed through ``out`` as it completes; returns the findings.

    ``ask`` puts a yes/no question to the person at the Pi (default: ``input`` when stdin is a
    terminal, else nobody — then what only a person can see is reported as not checked).
    """
    if ask is None and sys.stdin is not None and sys.stdin.isatty():
        ask = input
    findings: list[Finding] = []

    def report(finding: Finding) -> None:
        findings.append(finding)
        mark = "ok " if finding.ok else "FIX"
        out(f"  {mark}  {finding.name:11s} {finding.summary}")
        if not finding.ok and finding.fix:
            out(f"       {'':11s} → {finding.fix}")

    from companion.hw.osinfo import detect_machine
    from companion.hw.stack import check_stack, python_summary

    machine = detect_machine()
    pi = hw.raspberry_pi
    out(f"companion doctor — {machine.os.name}, "
        f"{'a Raspberry Pi' if pi else 'not a Raspberry Pi'}; {python_summary()}")
    service_running = _check_service(data_dir, report)
    for finding in check_stack(raspberry_pi=pi, import_camera=True):
        report(finding)
    calibration, settings, notes = _read_calibration(hw)
    if service_running:
        camera = None
        report(Finding("camera", False, "not checked: the companion service is running and "
                       "holds the camera", "sudo systemctl stop companion, then run the doctor "
                       "again (start it after: sudo systemctl start companion)"))
    else:
        camera = _check_camera(hw, settings, report)
    _check_calibration(hw, calibration, notes, simulated=getattr(camera, "name", "") ==
                       "synthetic", report=report)
    if camera is not None:
        try:
            _check_focus(camera, report)
            _check_exposure(camera, frames, report)
            _check_lock(camera, report)
        finally:
            camera.close()
    _check_controls(hw, button_seconds, report, out, ask)
    _check_disk(data_dir, report)
    return findings


# --- the service ------------------------------------------------------------------------------
def _check_service(data_dir: Path, report: Callable[[Finding], None]) -> bool:
    """Report whether the service runs (True: it holds the camera) and shares our data folder."""
    from companion.hw.service import data_dir_mismatch, service_state

    state = service_state()
    running = state in ("active", "activating", "reloading")
    if running:
        report(Finding("service", False, "the companion service is running: it holds the "
                       "camera and the buttons", "sudo systemctl stop companion, then run the "
                       "doctor again (start it after: sudo systemctl start companion)"))
    else:
        report(Finding("service", True, "the companion service is not running" if state
                       else "no companion service installed (or no systemd)"))
    mismatch = data_dir_mismatch(data_dir)
    if mismatch:
        report(Finding("data", False, mismatch, "cd to the companion folder (the service's "
                       "data is its 'data' folder), or set COMPANION_DATA as the unit does"))
    return running


# --- calibration and camera ------------------------------------------------------------------
def _read_calibration(hw: Any) -> tuple[Any, dict, list[str]]:
    """The calibration, the camera settings to restore, and what was wrong reading them."""
    from companion.hw.tower import _calibration_file, _camera_settings

    if hw.camera == "synthetic":
        return None, {}, []
    notes: list[str] = []
    calibration = _calibration_file(hw.calibration_path, notes)
    return calibration, _camera_settings(calibration, hw.exposure_lock_path, notes), notes


def _check_calibration(hw: Any, calibration: Any, notes: list[str], simulated: bool,
                       report: Callable[[Finding], None]) -> None:
    path = hw.calibration_path
    if simulated:
        report(Finding("calibration", True, "simulated tower: the renderer's own calibration"))
    elif notes:
        report(Finding("calibration", False, notes[0],
                       "companion tower calibrate --sample COLOUR=X,Y,W,H … (docs/hardware.md)"))
    elif calibration is None:
        report(Finding("calibration", False, f"no calibration at {path}: the camera cannot "
                       "count", "companion tower calibrate --sample COLOUR=X,Y,W,H … "
                       "(docs/hardware.md)"))
    elif not calibration.camera:
        report(Finding("calibration", False, f"{path} keeps no camera settings: exposure and "
                       "white balance are measured afresh at every start",
                       "calibrate with 'companion tower calibrate' so they are kept"))
    else:
        # Not a fault — it counts as before — but haze will not be corrected until it is redone.
        older = ("; made before the counter read each photo's black level, so haze on the tray or "
                 "window is not corrected: calibrate again ('companion tower calibrate') to get it"
                 if calibration.dark is None else "")
        report(Finding("calibration", True, f"{path}, camera settings for "
                       f"{calibration.camera.get('backend')}{older}"))


def _check_camera(hw: Any, settings: dict, report: Callable[[Finding], None]) -> Any:
    from companion.hw.camera import open_camera
    from companion.hw.errors import HardwareError

    from companion.hw.errors import CameraBusyError

    try:
        camera = open_camera(hw.camera, simulate=not hw.raspberry_pi, folder=hw.camera_folder,
                             device=hw.camera_device, size=hw.camera_size,
                             channel_order=hw.channel_order, settings=settings or None,
                             seed=hw.sim_seed, focus_distance_m=hw.focus_distance_m)
    except CameraBusyError as exc:
        report(Finding("camera", False, f"busy: {exc}", "stop the program named above, then "
                       "run the doctor again"))
        return None
    except HardwareError as exc:
        report(Finding("camera", False, f"not found: {exc}",
                       "check the ribbon cable (rpicam-hello --list-cameras must list it), "
                       "and that the companion service is stopped"))
        return None
    warnings = list(getattr(camera, "warnings", None) or ())
    if camera.name == "synthetic":
        report(Finding("camera", True, f"{camera.description} — SIMULATED"
                       + (" (on a Pi this means no camera was found)" if hw.raspberry_pi
                          else "")))
    elif warnings:
        report(Finding("camera", False, f"{camera.description}; {' '.join(warnings)}",
                       "companion tower calibrate again; see firmware_notes/troubleshooting.md"))
    else:
        report(Finding("camera", True, camera.description))
    return camera


def _check_focus(camera: Any, report: Callable[[Finding], None]) -> None:
    from companion.hw.errors import HardwareError
    from companion.hw.sharpness import sharpness

    try:
        figure = sharpness(camera.capture())
    except HardwareError as exc:
        report(Finding("focus", False, f"no frame: {exc}", "check the camera cable"))
        return
    report(Finding("focus", not figure.soft, figure.sentence(),
                   "companion tower calibrate --distance CM … (CM: lens to tray floor), or "
                   "turn the lens of a fixed-focus camera; see firmware_notes/optics.md"))


def exposure_spread(means: list[float]) -> float:
    """(max − min) / mean of the frames' mean brightness."""
    average = float(np.mean(means))
    return (max(means) - min(means)) / average if average > 0 else float("inf")


def _check_exposure(camera: Any, frames: int, report: Callable[[Finding], None]) -> None:
    from companion.hw.errors import HardwareError

    try:
        means = [float(camera.capture().mean()) for _ in range(max(2, frames))]
    except HardwareError as exc:
        report(Finding("exposure", False, f"frames stopped: {exc}", "check the camera cable"))
        return
    spread = exposure_spread(means)
    summary = (f"mean brightness over {len(means)} frames {min(means):.1f}–{max(means):.1f}, "
               f"spread {spread * 100:.2f} % (at most {EXPOSURE_TOLERANCE * 100:g} %)")
    report(Finding("exposure", spread <= EXPOSURE_TOLERANCE, summary,
                   "keep the tray still and the box closed while checking; if it still "
                   "drifts: light that flickers (PWM-dimmed LEDs) or exposure not fixed — "
                   "companion tower calibrate again"))


def _check_lock(camera: Any, report: Callable[[Finding], None]) -> None:
    """Step the exposure down and back (Pi camera only): does the camera really obey it?"""
    from companion.hw.errors import HardwareError

    check = getattr(camera, "check_exposure_lock", None)
    if check is None:
        return
    try:
        result = check()
    except HardwareError as exc:
        report(Finding("lock", False, f"frames stopped: {exc}", "check the camera cable"))
        return
    report(Finding("lock", result.ok, result.sentence(),
                   "the automatic exposure still runs: update the system (sudo apt update && "
                   "sudo apt full-upgrade), then companion tower calibrate again; keep the "
                   "tray lit as for a game (a black or white-out picture cannot darken)"))


# --- buttons and LED -------------------------------------------------------------------------
def _check_controls(hw: Any, seconds: float, report: Callable[[Finding], None],
                    out: Callable[[str], None],
                    ask: Callable[[str], str] | None = None) -> None:
    from companion.hw.controls import LED_PATTERNS, TowerControls, make_pin_factory
    from companion.hw.errors import HardwareError

    try:
        factory, mock = make_pin_factory(hw.gpio)
        controls = TowerControls(hw.pins, pin_factory=factory)
    except HardwareError as exc:
        report(Finding("buttons", False, f"pins unavailable: {exc}",
                       "sudo apt install python3-lgpio; your user in the gpio group "
                       "(firmware_notes/wiring.md)"))
        return
    try:
        if hw.raspberry_pi and controls.is_mock:
            report(Finding("buttons", False, "the Pi's pins were not reached — mock pins in use",
                           "sudo apt install python3-lgpio, and run as a user in the gpio group"))
        stuck = [name for name, down in controls.pressed_now().items() if down]
        if stuck:
            report(Finding("buttons", False, f"{' and '.join(stuck)} reads pressed with nobody "
                           "pressing", "the button is wired to 3.3 V or shorted: it goes between "
                           "its GPIO pin and GND (firmware_notes/wiring.md)"))
        elif controls.is_mock:
            report(_press_mock_buttons(controls))
        elif seconds > 0:
            report(_press_real_buttons(controls, seconds, out))
        else:
            report(Finding("buttons", True, "pins open, no button stuck (presses: run with "
                           "--buttons 10)"))
        report(_check_led(controls, ask, LED_PATTERNS))
    finally:
        controls.close()


def _check_led(controls: Any, ask: Callable[[str], str] | None, patterns: Any) -> Finding:
    """The LED: a pin cannot tell whether light comes out, so on real pins a person says."""
    fix = "check the LED's polarity and its resistor (firmware_notes/wiring.md)"
    if controls.is_mock:
        for state in patterns:  # the state machine runs; there is no LED to look at
            controls.set_led(state)
        controls.set_led("ready")
        return Finding("led", controls.led_lit(), "mock pin: every LED state driven (no LED "
                       "to look at)", fix)
    if ask is None:
        controls.set_led("ready")
        return Finding("led", True, "not checked: no one at a terminal to say whether it "
                       "lights (it is switched on now — look at it)", fix)
    controls.set_led("ready")
    lit = _yes(ask("       Is the tower's status LED lit now? [y/n] "))
    controls.set_led("off")
    dark = _yes(ask("       And is it off now? [y/n] "))
    controls.set_led("ready")
    seen = ("lights and goes off as told" if lit and dark else
            "does not light" if not lit else "does not go off (wired to 3.3 V, not the pin?)")
    return Finding("led", lit and dark, f"you saw: the LED {seen}", fix)


def _yes(answer: str | None) -> bool:
    return (answer or "").strip().lower() in ("y", "yes", "j", "ja")


def _press_mock_buttons(controls: Any) -> Finding:
    heard: queue.Queue[str] = queue.Queue()
    controls.add_listener(heard.put)
    got = []
    for name in ("count", "cancel"):
        controls.press(name)
        try:
            got.append(heard.get(timeout=5.0))
        except queue.Empty:
            got.append(None)
    ok = got == ["count", "cancel"]
    return Finding("buttons", ok, f"mock pins: pressed count and cancel, heard {got}",
                   "the button handling is broken — report it")


def _press_real_buttons(controls: Any, seconds: float, out: Callable[[str], None]) -> Finding:
    heard: queue.Queue[str] = queue.Queue()
    controls.add_listener(heard.put)
    missing = []
    for name in ("count", "cancel"):
        out(f"       press the {name.upper()} button (within {seconds:g} s)…")
        sys.stdout.flush()
        try:
            got = heard.get(timeout=seconds)
        except queue.Empty:
            got = None
        if got != name:
            missing.append(f"{name} (heard {got or 'nothing'})")
    return Finding("buttons", not missing, "both buttons answer" if not missing else
                   f"no press from {', '.join(missing)}",
                   "check the wiring table in firmware_notes/wiring.md (GPIO numbers are not "
                   "pin numbers)")


# --- disk ------------------------------------------------------------------------------------
def _check_disk(data_dir: Path, report: Callable[[Finding], None]) -> None:
    folder = Path(data_dir)
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    free = shutil.disk_usage(existing).free
    summary = f"{free / 1024**3:.1f} GB free for {folder}"
    if free < MIN_FREE_BYTES:
        report(Finding("disk", False, summary + f" (less than {MIN_FREE_BYTES // 1024**2} MB)",
                       "free space: sudo apt clean; remove old files; or a larger SD card"))
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            pass
    except OSError as exc:
        report(Finding("disk", False, f"{folder} cannot be written ({exc.strerror or exc})",
                       f"sudo chown -R $USER {folder}"))
        return
    report(Finding("disk", True, summary + ", writable"))
