"""The tower as the web layer sees it: camera + buttons + LED (+ simulator off the Pi).

:class:`Tower` owns the devices and survives their failure. A camera or GPIO that is missing at
start or fails mid-game is recorded with a message for the screen; the tower keeps working with
what is left (on-screen buttons, counts entered by hand) and tries to reconnect at most every
``retry_interval`` seconds, whenever :meth:`Tower.status` or a count asks for the device.
A camera found by auto-detection is reopened as that same backend — a Pi camera that drops out
is never silently replaced by a simulated picture.

LED: ``counting`` while a count runs, else ``error`` while a device is missing, else
``attention`` after a timeout/cancel or when the web layer asks for it, else ``ready``.

Start on a real tower (:meth:`Tower.from_settings`): the calibration is read first, and the
camera settings it keeps (exposure, gain, white balance, focus: ``Calibration.camera``) are
restored when the camera opens, so the light is the calibration's from the first frame. An old
``camera-lock.json`` is still honoured when the calibration keeps none. On a Raspberry Pi the
numpy/OpenCV/Picamera2 combination is checked (:mod:`companion.hw.stack`), and ``auto`` never
falls back to the simulated tray: a camera that does not open shows as unavailable with its
reason. Nothing found at start — a broken calibration file, a broken stack, settings that did
not take — stops the companion: each becomes a sentence in :meth:`Tower.status` ``messages``.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.messages import Message, msg, to_json
from companion.hw.camera import Camera, open_camera
from companion.hw.controls import BUTTONS, TowerControls, make_pin_factory
from companion.hw.frames import check_frame, check_picture
from companion.hw.counting import CountOutcome, CountSession
from companion.hw.errors import (
    CameraUnavailableError,
    CountCancelledError,
    CountInProgressError,
    CountTimeoutError,
    GpioUnavailableError,
    HardwareError,
    ColoursNotCalibratedError,
    NotCalibratedError,
    TrayNotEmptyError,
    UnknownButtonError,
)
from companion.hw.settings import hardware_settings
from companion.hw.simulator import TowerSimulator, validate_cubes

log = logging.getLogger(__name__)

ButtonCallback = Callable[[str], None]


class Tower:
    """The one hardware object the web layer holds. Thread-safe; one count at a time."""

    def __init__(
        self,
        *,
        open_camera: Callable[[], Camera],
        open_controls: Callable[[], TowerControls] | None,
        simulator: TowerSimulator | None = None,
        calibration: Any = None,
        retry_interval: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        session_factory: Callable[..., CountSession] = CountSession,
        notes: Sequence[str] = (),
        tray_counter: Callable[[Any, Any], Any] | None = None,
    ) -> None:
        self.notes = list(notes)  # start-up findings for the screen (broken stack, calibration)
        self.simulator = simulator
        self.calibration = calibration
        self.retry_interval = retry_interval
        self._open_camera = open_camera
        self._open_controls = open_controls
        self._clock = clock
        self._session_factory = session_factory
        self._tray_counter = tray_counter  # counts the tray before a throw; default count_cubes
        self._lock = threading.RLock()
        self._count_lock = threading.Lock()
        # Held for each capture: a count holds it from start to end; a preview or snapshot
        # only when free (it never waits), so a count waits at most for one capture.
        self._camera_lock = threading.Lock()
        self._preview: tuple[float, Any] | None = None  # (when, frame) of the last preview
        self._tray_left: dict[str, int] = {}  # what the last empty-tray check found
        self._camera: Camera | None = None
        self._camera_name: str | None = None
        self._camera_error: str | None = None
        self._camera_tried: float | None = None
        self._controls: TowerControls | None = None
        self._gpio_error: str | None = None
        self._gpio_tried: float | None = None
        self._session: CountSession | None = None
        self._empty = None
        self._attention = False
        self._buttons: list[ButtonCallback] = []
        self._watchers: list[Callable[[dict[str, Any]], None]] = []
        self._published: dict[str, Any] | None = None  # the last status sent to the watchers
        self._connect_camera()
        self._connect_gpio()
        self._update_led()

    # --- construction ------------------------------------------------------------------------
    @classmethod
    def from_settings(cls, settings: Any = None, environ: Mapping[str, str] | None = None) -> Tower:
        """Real parts on a Pi, simulated elsewhere, as ``companion.config.Settings`` says."""
        hw = hardware_settings(settings, environ)
        notes: list[str] = []
        if hw.raspberry_pi:
            from companion.hw.stack import check_stack

            for finding in check_stack(raspberry_pi=True, import_camera=False):
                if not finding.ok:
                    log.error("start-up check: %s — %s", finding.summary, finding.fix)
                    notes.append(f"{finding.summary} — {finding.fix}")
        calibration = None
        if hw.camera != "synthetic":
            calibration = _calibration_file(hw.calibration_path, notes)
        camera_settings = _camera_settings(calibration, hw.exposure_lock_path, notes)
        simulator = TowerSimulator(seed=hw.sim_seed, retain_probability=hw.sim_retain,
                                   release_probability=hw.sim_release)
        options: dict[str, Any] = {
            "folder": hw.camera_folder, "device": hw.camera_device, "size": hw.camera_size,
            "channel_order": hw.channel_order, "simulator": simulator, "seed": hw.sim_seed,
            "settings": camera_settings, "simulate": not hw.raspberry_pi,
            "focus_distance_m": hw.focus_distance_m,  # only without saved camera settings
        }
        kind = {"value": hw.camera}

        def camera_opener() -> Camera:
            camera = open_camera(kind["value"], **options)
            kind["value"] = camera.name  # reconnect to the same backend, never fall back
            return camera

        def controls_opener() -> TowerControls:
            factory, _mock = make_pin_factory(hw.gpio)
            return TowerControls(hw.pins, pin_factory=factory)

        tower = cls(open_camera=camera_opener, open_controls=controls_opener,
                    simulator=simulator, retry_interval=hw.retry_interval, notes=notes)
        if kind["value"] != "synthetic":
            tower.simulator = None  # a real (or replayed) camera: the players throw by hand
        if tower.simulated and hw.sim_calibration_path is not None:
            # A calibration made on the renderer's tray (with fewer colours, say), to try the
            # flows a real tower's calibration leads to.
            tower.calibration = _calibration_file(hw.sim_calibration_path, tower.notes)
        elif tower.simulated and hw.calibration_path is not None and \
                (hw.calibration_path.parent / "calibrations" / "active.json").is_file():
            # Calibrated on the set-up page (companion.hw.calibration_store): the simulated
            # tower counts with what the players made, like a real one.
            tower.calibration = _calibration_file(hw.calibration_path, tower.notes)
        elif tower.simulated:  # the renderer's tray has its own, matching calibration
            from companion.vision.synthetic import synthetic_calibration

            tower.calibration = synthetic_calibration()
        else:
            tower.calibration = calibration
            if calibration is not None and not camera_settings and \
                    kind["value"] in ("picamera2", "opencv"):
                tower.notes.append(
                    "The calibration keeps no camera settings, so the exposure was measured "
                    "afresh and colours may differ from the calibration — calibrate with "
                    "'companion tower calibrate' to keep them.")
        tower._update_led()  # publish the notes
        return tower

    @property
    def simulated(self) -> bool:
        """True when the camera picture is rendered from the tower simulator."""
        return self.simulator is not None

    # --- buttons and LED ---------------------------------------------------------------------
    def on_button(self, callback: ButtonCallback) -> None:
        """Call ``callback("count" | "cancel")`` for each press, from GPIO or the screen."""
        self._buttons.append(callback)

    def on_status(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Call ``callback(status)`` whenever the LED, a device or the counting state changes."""
        self._watchers.append(callback)

    def press(self, button: str) -> None:
        """The on-screen button: the same path as the tower's own button.

        On mock pins the pin itself is driven; on real pins the press joins where the pin's
        debounced press would; with no GPIO at all it goes straight to the listeners.
        """
        if button not in BUTTONS:
            raise UnknownButtonError(f"There is no {button!r} button — use count or cancel.")
        controls = self._controls
        if controls is not None and controls.is_mock:
            controls.press(button)
        elif controls is not None:
            controls.emit(button)
        else:
            self._button_pressed(button)

    def set_attention(self, on: bool = True) -> None:
        """Ask the players to look at a tablet (slow blink), e.g. for an impossible reading."""
        self._attention = on
        self._update_led()

    # --- counting ----------------------------------------------------------------------------
    def count_throw(self, thrown: Mapping[str, int], timeout: float = 20.0) -> CountOutcome:
        """Throw ``thrown`` (simulated tower only; a real one was thrown by hand), then count.

        Raises :class:`CountTimeoutError`, :class:`CountCancelledError`,
        :class:`CameraUnavailableError`, :class:`NotCalibratedError`,
        :class:`CountInProgressError`, or ``InvalidThrowError`` for bad ``thrown`` (nothing thrown).
        """
        cubes = validate_cubes(thrown)
        return self._count(timeout, throw=cubes)

    @property
    def calibrated_colors(self) -> tuple[str, ...]:
        """The colours the camera's calibration can count (none without a calibration)."""
        return tuple(getattr(self.calibration, "colors", ()) or ())

    def check_colors(self, colors: Iterable[str]) -> None:
        """Raise :class:`ColoursNotCalibratedError` when the calibration lacks any of
        ``colors`` (a game's players and green); nothing when there is no calibration at all
        (counting then says :class:`NotCalibratedError` itself)."""
        if self.calibration is None:
            return
        have = set(self.calibrated_colors)
        missing = tuple(dict.fromkeys(c for c in colors if c not in have))
        if missing:
            raise ColoursNotCalibratedError(missing)

    def recount(self, timeout: float = 20.0) -> CountOutcome:
        """Count the tray again as it lies, without throwing (after a cancel or a timeout)."""
        return self._count(timeout, throw=None)

    def sync_simulation(self, interior: Mapping[str, int], tray: Mapping[str, int]) -> None:
        """Simulated tower only: hold ``interior`` inside and ``tray`` in the tray.

        For a game resumed after a restart, so the simulated tower holds what the game's
        accounts say it holds. Does nothing on a real tower (its cubes are where they are).
        """
        if self.simulator is not None:
            self.simulator.restore(interior, tray)

    def note_empty_tray(self) -> None:
        """Photograph the tray now, while it is empty; the next count uses it to correct light."""
        self._empty = self._capture_alone()

    def check_empty_tray(self) -> Any:
        """Photograph and count the tray before a throw (a real tower's first press).

        Empty: the photo becomes the next count's empty-tray reference (light correction, and
        stored with the reading) and is returned. Not empty: :class:`TrayNotEmptyError` with
        what lies there (also in :meth:`status` ``tray_left``), and the count waits.
        """
        if self.calibration is None:
            raise NotCalibratedError()
        if self.simulator is not None:
            self.simulator.empty_tray()  # the players clear the tray (forgotten cubes stay)
        photo = self._capture_alone()
        try:
            self._accept_empty(photo)
        except CameraUnavailableError as exc:  # a black or blank picture is no empty tray
            self._camera_failed(exc)
            raise
        return photo

    def require_camera(self) -> None:
        """Raise :class:`CameraUnavailableError` (with its reason) unless a camera is open."""
        self._require_camera()

    @property
    def empty_tray_ready(self) -> bool:
        """True when an empty-tray photo waits for the next count."""
        return self._empty is not None

    def set_calibration(self, calibration: Any) -> None:
        """Count with ``calibration`` from now on (the set-up page saved or restored one)."""
        self.calibration = calibration
        self._empty = None  # taken for the old calibration's check
        self._update_led()

    def camera_settings(self) -> dict[str, Any]:
        """The open camera's fixed settings, to keep with a calibration ({} without any)."""
        camera = self._camera
        try:
            return dict(camera.settings()) if camera is not None else {}
        except HardwareError:
            return {}

    def preview(self, max_age: float = 0.15) -> Any:
        """A recent frame for the set-up page's live picture; never waits and never delays a
        count: while a count (or another capture) holds the camera, the last frame is given
        again. Frames younger than ``max_age`` seconds are shared by every watching page, so
        more pages do not mean more captures. Raises :class:`CountInProgressError` when a count
        runs and no frame was taken yet."""
        last = self._preview
        now = self._clock()
        if last is not None and now - last[0] < max_age:
            return last[1]
        try:
            frame = self._capture_alone()
        except CountInProgressError:
            if last is None:
                raise
            return last[1]
        self._preview = (self._clock(), frame)
        return frame

    def snapshot(self) -> Any:
        """One fresh BGR frame of the tray now (the tower page's camera check); no counting.

        Raises :class:`CountInProgressError` while a count runs (the camera is busy settling).
        """
        return self._capture_alone()

    @property
    def controls(self) -> TowerControls | None:
        """The buttons and LED, or None while the GPIO is unavailable (for self-tests)."""
        return self._controls

    def cancel(self) -> None:
        """Cancel the running count, if any (what the cancel button does)."""
        session = self._session
        if session is not None:
            session.cancel()

    # --- status ------------------------------------------------------------------------------
    def status(self) -> dict[str, Any]:
        """Camera and GPIO state and sentences for the screen; retries missing devices first."""
        self._maybe_reconnect()
        return self._status()

    def close(self) -> None:
        with self._lock:
            if self._camera is not None:
                self._camera.close()
                self._camera = None
            if self._controls is not None:
                self._controls.close()
                self._controls = None

    # --- internals ---------------------------------------------------------------------------
    def _count(self, timeout: float, throw: dict[str, int] | None) -> CountOutcome:
        if not self._count_lock.acquire(blocking=False):
            raise CountInProgressError()
        try:
            camera = self._require_camera()
            if self.calibration is None:
                raise NotCalibratedError()
            with self._camera_lock:  # waits for at most one preview capture
                try:
                    if throw is not None and self.simulator is not None:
                        # The players clear the tray (forgotten cubes stay); it is checked
                        # before the cubes go in, and its photo is the empty-tray reference.
                        self.simulator.empty_tray()
                        self._accept_empty(camera.capture())  # garbage: CameraPictureError
                        self.simulator.throw(throw)
                    empty = self._empty
                    session = self._session_factory(camera, self.calibration, empty=empty)
                    self._session = session
                    self._attention = False
                    self._update_led()
                    outcome = session.run(timeout=timeout)
                except CameraUnavailableError as exc:
                    self._camera_failed(exc)
                    raise
                except (CountTimeoutError, CountCancelledError):
                    self._attention = True
                    raise
            self._empty = None  # the tray is no longer empty
            if empty is not None and hasattr(outcome, "empty"):
                outcome = dataclasses.replace(outcome, empty=empty)
            return outcome
        finally:
            self._session = None
            self._count_lock.release()
            self._update_led()

    def _accept_empty(self, photo: Any) -> None:
        """Count ``photo`` of the tray before a throw: empty → the empty-tray reference; else
        :class:`TrayNotEmptyError` naming what lies there. A photo that is no picture of a tray
        (for the vision's counter also a black or blank one) is :class:`CameraPictureError`."""
        counter = self._tray_counter
        if counter is None:  # the vision's counter: a real picture
            from companion.vision.counting import count_cubes as counter

            photo = check_picture(photo)
        else:
            photo = check_frame(photo)
        counts = {c: int(n) for c, n in dict(counter(photo, self.calibration).counts).items() if n}
        left = TrayNotEmptyError(counts) if counts else None
        self._tray_left = left.counts if left else {}  # colour order
        if left:
            self._empty = None
            self._attention = True
            self._update_led()
            raise left
        self._empty = photo
        self._update_led()

    def _capture_alone(self) -> Any:
        """One frame outside a count; a count owns the camera while it runs."""
        if self._count_lock.locked() or not self._camera_lock.acquire(blocking=False):
            raise CountInProgressError()
        try:
            camera = self._require_camera()
            try:
                return check_frame(camera.capture())  # garbage: CameraPictureError
            except CameraUnavailableError as exc:
                self._camera_failed(exc)
                raise
        finally:
            self._camera_lock.release()

    def _button_pressed(self, button: str) -> None:
        if button == "cancel":
            self.cancel()
        for callback in list(self._buttons):
            try:
                callback(button)
            except Exception:  # a failing listener must not break the button
                log.exception("tower button listener failed")

    def _require_camera(self) -> Camera:
        if self._camera is None:
            self._connect_camera()
        if self._camera is None:
            raise CameraUnavailableError(self._camera_error)
        return self._camera

    def _connect_camera(self) -> None:
        with self._lock:
            self._camera_tried = self._clock()
            try:
                camera = self._open_camera()
            except CameraUnavailableError as exc:
                self._camera_error = _player_message(exc, CameraUnavailableError.default_message)
                log.warning("camera unavailable: %s", exc)
                return
            self._camera, self._camera_name, self._camera_error = camera, camera.name, None
        self._update_led()

    def _camera_failed(self, exc: Exception) -> None:
        with self._lock:
            if self._camera is not None:
                try:
                    self._camera.close()
                except Exception:  # already broken; closing is best effort
                    log.debug("closing the failed camera failed", exc_info=True)
            self._camera = None
            self._camera_tried = self._clock()
            self._camera_error = _player_message(exc, CameraUnavailableError.default_message)
        log.warning("camera failed: %s", exc)
        self._update_led()

    def _connect_gpio(self) -> None:
        if self._open_controls is None:
            return
        with self._lock:
            self._gpio_tried = self._clock()
            try:
                controls = self._open_controls()
            except HardwareError as exc:
                self._gpio_error = _player_message(exc, GpioUnavailableError.default_message)
                log.warning("gpio unavailable: %s", exc)
                return
            controls.add_listener(self._button_pressed)
            self._controls, self._gpio_error = controls, None

    def _maybe_reconnect(self) -> None:
        now = self._clock()
        if self._camera is None and now - (self._camera_tried or 0) >= self.retry_interval:
            self._connect_camera()
        if (self._controls is None and self._open_controls is not None
                and now - (self._gpio_tried or 0) >= self.retry_interval):
            self._connect_gpio()
            self._update_led()

    def _led_state(self) -> str:
        if self._session is not None:
            return "counting"
        if self._camera is None:
            return "error"
        return "attention" if self._attention else "ready"

    def _update_led(self) -> None:
        state = self._led_state()
        controls = self._controls
        if controls is not None and controls.led_state != state:
            try:
                controls.set_led(state)
            except Exception as exc:  # the GPIO went away under us
                log.warning("gpio failed: %s", exc)
                with self._lock:
                    self._controls = None
                    self._gpio_error = GpioUnavailableError.default_message
                    self._gpio_tried = self._clock()
                try:
                    controls.close()
                except Exception:
                    log.debug("closing the failed controls failed", exc_info=True)
        status = self._status()
        if status == self._published:
            return  # nothing changed: no event for the tablets
        self._published = status
        for watcher in list(self._watchers):
            try:
                watcher(status)
            except Exception:
                log.exception("tower status listener failed")

    def _status(self) -> dict[str, Any]:
        camera, controls = self._camera, self._controls
        messages: list[Any] = [m for m in (self._camera_error, self._gpio_error) if m]
        messages += self.notes + list(getattr(camera, "warnings", None) or ())
        if self.simulated:
            messages.append(msg("tower_note_simulated"))
        if camera is not None and self.calibration is None:
            messages.append(msg("err_not_calibrated"))
        # "messages": English sentences (logs, scripts); "said": the same, each a catalogue
        # message ({key, params, text}) where there is one, for the tablet to say in its language.
        said = [to_json(m) if isinstance(m, Message) else str(m) for m in messages]
        messages = [str(m) for m in messages]
        return {
            "simulated": self.simulated,
            "camera": {"ok": camera is not None, "backend": self._camera_name,
                       "description": camera.description if camera else None,
                       "message": self._camera_error},
            "gpio": {"ok": controls is not None,
                     "mode": None if controls is None else ("mock" if controls.is_mock else "real"),
                     "message": self._gpio_error},
            "calibrated": self.calibration is not None,
            "calibrated_colors": list(self.calibrated_colors),
            "counting": self._session is not None,
            "empty_tray_ready": self._empty is not None,
            "tray_left": dict(self._tray_left),
            "led": self._led_state(),
            "messages": messages, "said": said,
        }


def _player_message(exc: Exception, fallback: str) -> str:
    return str(exc) or fallback


def _calibration_file(path: Path | None, notes: list[str]) -> Any:
    """The saved calibration, or None; a file that cannot be used becomes a note, not a crash."""
    if path is None or not path.exists():
        return None
    from companion.errors import CompanionError
    from companion.vision.calibration import load_calibration

    try:
        return load_calibration(path)
    except (CompanionError, ValueError, OSError) as exc:
        log.error("calibration unusable: %s", exc)
        notes.append(f"{exc} Until then, enter the counts by hand.")
        return None


def _camera_settings(calibration: Any, lock_path: Path | None, notes: list[str]) -> dict:
    """The camera settings to restore: the calibration's, else the old lock file's, else {}."""
    from companion.hw.cameras.picam import ExposureLock, settings_controls

    saved = dict(getattr(calibration, "camera", None) or {})
    if saved:
        try:
            settings_controls(saved)  # checked now: bad values are a note, not a crash later
        except HardwareError as exc:
            notes.append(str(exc))
            return {}
        return saved
    if lock_path is not None and lock_path.exists():
        try:
            return ExposureLock.load(lock_path).as_settings()
        except HardwareError as exc:
            notes.append(str(exc))
    return {}
