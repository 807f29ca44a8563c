"""A TEST DOUBLE of the Raspberry Pi's ``picamera2`` library — not the real thing.

Picamera2 only exists on a Pi (apt package python3-picamera2). This fake implements just the
calls our backend makes and records them *in order* (``calls``), with every control dict it
was sent (``control_calls``). It models what the backend relies on and must check:

* automatic exposure/white balance report metered values until fixed values are set;
* values set take effect ``delay`` frames later (as on a real camera, the metadata lags);
* ``ignore_controls`` makes a camera that never takes them (the check must notice);
* a focus motor (``has_focus``): ``autofocus_cycle`` moves the lens to ``af_result``;
* ``capture_request(flush=True)`` skips queued frames; :class:`OldPicamera2` has no ``flush``;
* no camera, stale queued frames, frames straddling the call, drifting light;
* **a stalled sensor** (:meth:`FakePicamera2.stall`: a loose ribbon, a brown-out — libcamera logs
  "Camera frontend has timed out!" and no frame ever comes). As in Picamera2 0.3.20+ (source
  of ``dispatch_functions``, ``Job`` and ``cancel_all_and_flush``): every call that waits for a
  frame is a *job*; ``wait=None``/``True`` blocks until a frame comes — here, while stalled, the
  call blocks and, after :data:`FOREVER` seconds, fails the test rather than hang it;
  ``wait=<seconds>`` raises ``TimeoutError`` and **leaves the job queued**, so it takes the next
  frame and holds up later jobs (``stop()`` included) until ``cancel_all_and_flush()`` cancels
  it; ``wait=False`` returns the job for :meth:`FakePicamera2.wait`. :class:`OldPicamera2`
  (before 0.3.20) has no timeouts and no ``cancel_all_and_flush``;
* **opening a camera another program holds**: ``busy_holder`` makes ``Picamera2()`` fail as the
  real one does — libcamera's ``RuntimeError("Failed to acquire camera: Device or resource
  busy")`` re-raised as ``RuntimeError("Camera __init__ sequence did not complete.")`` (the
  first is only the second's ``__context__``);
* **auto-exposure and libcamera ≥ 0.5's mode controls** (``modes``): while ``ExposureTimeMode``
  / ``AnalogueGainMode`` are not manual (1), AE keeps choosing exposure and gain and a sent
  ``ExposureTime``/``AnalogueGain`` is ignored; the picture's brightness follows the exposure ×
  gain the sensor really used; ``metadata_lies`` reports the asked values while AE goes on.

Tests inject it as ``module=`` or through ``sys.modules``. :func:`broken_package` writes a
``picamera2`` package that raises on import, like apt's Picamera2 beside a second numpy.
"""

from __future__ import annotations

import threading
import types
from concurrent.futures import CancelledError
from pathlib import Path

import numpy as np

RIBBON_ID = "/base/soc/i2c0mux/i2c@1/imx708@1a"  # a Camera Module 3 on the ribbon (Pi 4)
USB_ID = "/base/scb/pcie@7d500000/pci@0,0/usb@0,0-1.3:1.0-046d:0825"  # a USB webcam
FOREVER = 20.0  # seconds a wait=None call blocks on a stalled sensor before failing the test
EXPOSURE_MODE_MANUAL = 1  # libcamera's ExposureTimeModeEnum / AnalogueGainModeEnum: Auto 0, Manual 1

NUMPY_ABI_ERROR = ("numpy.dtype size changed, may indicate binary incompatibility. "
                   "Expected 96 from C header, got 88 from PyObject")


class FakeJob:
    """A Picamera2 ``Job``: done when its frame came, cancelled by ``cancel_all_and_flush``."""

    def __init__(self, camera: FakePicamera2, produce) -> None:
        self.camera = camera
        self.produce = produce  # makes the result from the next frame
        self.done = threading.Event()
        self.result = None
        self.error: BaseException | None = None

    def try_run(self) -> None:
        if not self.done.is_set() and not self.camera.stalled:
            try:
                self.result = self.produce()
            except Exception as exc:  # noqa: BLE001 - handed to the waiter, as Job does
                self.error = exc
            self.done.set()

    def cancel(self) -> None:
        self.error = CancelledError()
        self.done.set()

    def get_result(self, timeout: float | None) -> object:
        """As ``Job.get_result``: block up to ``timeout`` (None: for ever) for the frame."""
        self.camera.waiting.set()
        finished = self.done.wait(FOREVER if timeout is None else timeout)
        self.camera.waiting.clear()
        if not finished:
            if timeout is None:
                raise AssertionError("the code waited for a frame without a timeout: the real "
                                     "Picamera2 would block here for ever")
            raise TimeoutError()  # concurrent.futures.TimeoutError is this class on 3.11
        if self.error is not None:
            raise self.error
        return self.result


class FakeRequest:
    def __init__(self, camera: FakePicamera2, timestamp: int, metadata: dict,
                 scale: float = 1.0) -> None:
        self.camera = camera
        self.timestamp = timestamp
        self.metadata = metadata
        self.scale = scale  # brightness from the exposure × gain the sensor really used
        self.released = False

    def get_metadata(self) -> dict:
        return {"SensorTimestamp": self.timestamp, **self.metadata}

    def make_array(self, stream: str) -> np.ndarray:
        assert stream == "main"
        w, h = self.camera.config["main"]["size"]
        if self.camera.picture is not None:
            assert self.camera.picture.shape[:2] == (h, w), "picture and configured size differ"
            if self.scale == 1.0:
                return self.camera.picture.copy()
            return np.clip(self.camera.picture * self.scale, 0, 255).astype(np.uint8)
        # libcamera "RGB888" is stored B, G, R: a red scene has its strength in the last channel
        frame = np.zeros((h, w, 3), np.uint8)
        scale = self.camera.brightness_of(self.metadata) * self.scale
        frame[:, :] = np.clip(np.array(self.camera.scene_bgr) * scale, 0, 255)
        frame[0, 0, 1] = self.timestamp % 256  # lets tests tell frames apart
        return frame

    def release(self) -> None:
        self.released = True
        self.camera.released += 1


class FakePicamera2:
    cameras: list[dict] = [{"Model": "imx708", "Num": 0, "Id": RIBBON_ID}]
    instances: list[FakePicamera2] = []
    has_focus = True
    af_success = True  # whether an autofocus cycle reports success
    ignore_controls = False  # a camera that never takes the values it is sent
    start_delay = 0  # frames before values set ahead of start() show in the metadata
    picture: np.ndarray | None = None  # what the camera sees (BGR); None: a plain red scene
    timeouts = True  # Picamera2 >= 0.3.20: wait=<seconds> and cancel_all_and_flush()
    modes = True  # libcamera >= 0.5: ExposureTimeMode / AnalogueGainMode must be manual
    metadata_lies = False  # reports the asked exposure while AE really goes on
    busy_holder: str | None = None  # another program holds the camera: Picamera2() fails

    def __init__(self, camera_num: int = 0) -> None:
        if self.busy_holder is not None:
            try:  # what libcamera's acquire() raises, wrapped as Picamera2.__init__ does
                raise RuntimeError("Failed to acquire camera: Device or resource busy")
            except Exception:
                raise RuntimeError("Camera __init__ sequence did not complete.")  # noqa: B904
        self.camera_num = camera_num
        self.config: dict | None = None
        self.calls: list[str] = []
        self.control_calls: list[dict] = []
        self.started = self.closed = False
        self.metered = {"ExposureTime": 8123, "AnalogueGain": 1.75, "ColourGains": (2.1, 1.6)}
        self.lens = 1.0  # dioptres: where the tuning parks the lens (about 1 m)
        self.af_result = 8.0  # where an autofocus cycle ends (12.5 cm)
        self.fixed: dict = {}  # controls in force
        self.pending: list[tuple[int, dict]] = []  # (frames until in force, controls)
        self.delay = 3
        self.exposure_step = 14  # µs: the sensor rounds exposure to whole lines
        self.scene_bgr = (20, 30, 200)
        self.drift = 0.0  # per frame, relative: light creeping when AE is not really off
        self.frame = 0
        self.now_ns = 1_000_000  # shared with the test's clock_ns
        self.stale = 0  # how many queued (old) requests to hand out first
        self.straddle = 0  # how many requests end at straddle_end_ns, begun before it
        self.straddle_end_ns = 0
        self.clock_offset = 0  # ns; a large negative value = timestamps from another clock
        self.stalled = False
        self.waiting = threading.Event()  # set while a call waits for a frame (tests await it)
        self.jobs: list[FakeJob] = []  # queued jobs, oldest first, as Picamera2's _job_list
        self.cancelled = 0  # jobs cancelled by cancel_all_and_flush
        self.locked_product: float | None = None  # exposure × gain when fixed values took
        self.released = 0
        FakePicamera2.instances.append(self)

    # --- a stalled sensor ----------------------------------------------------------------------
    def stall(self) -> None:
        """The frontend timed out: no frame comes until :meth:`recover`."""
        self.stalled = True

    def recover(self) -> None:
        """Frames come again; queued jobs (not cancelled) take the first ones, oldest first."""
        self.stalled = False
        for job in list(self.jobs):
            job.try_run()
        self.jobs = [j for j in self.jobs if not j.done.is_set()]

    def _dispatch(self, produce, wait, signal_function=None):
        """Picamera2's ``dispatch_functions``: queue a job, then wait as ``wait`` says."""
        if wait is None:
            wait = signal_function is None
        if not self.timeouts and wait is not False:
            wait = True  # before 0.3.20 a number was only "truthy": wait for ever
        job = FakeJob(self, produce)
        self.jobs.append(job)
        if len(self.jobs) == 1:
            job.try_run()  # a job queued behind another waits for it (frames go in order)
        if job.done.is_set():
            self.jobs.remove(job)
        if wait is False:
            return job
        return job.get_result(None if wait is True else float(wait))

    def wait(self, job: FakeJob, timeout: float | None = None) -> object:
        result = job.get_result(timeout)
        if job in self.jobs:
            self.jobs.remove(job)
        return result

    def cancel_all_and_flush(self) -> None:
        self.calls.append("cancel_all_and_flush")
        for job in self.jobs:
            job.cancel()
            self.cancelled += 1
        self.jobs = []

    @staticmethod
    def global_camera_info() -> list[dict]:
        return list(FakePicamera2.cameras)

    @property
    def camera_controls(self) -> dict:
        controls = {"ExposureTime": (75, 100_000_000, None), "AnalogueGain": (1.0, 16.0, None),
                    "ColourGains": (0.0, 32.0, None), "AeEnable": (False, True, None),
                    "AwbEnable": (False, True, None)}
        if self.modes:
            controls.update(ExposureTimeMode=(0, 1, 0), AnalogueGainMode=(0, 1, 0))
        if self.has_focus:
            controls.update(AfMode=(0, 2, 0), LensPosition=(0.0, 15.0, 1.0))
        return controls

    def create_video_configuration(self, main=None, controls=None, queue=True, **kw) -> dict:
        self.queue = queue
        return {"main": dict(main), "controls": dict(controls or {}), **kw}

    def configure(self, config: dict) -> None:
        self.calls.append("configure")
        self.config = config

    def start(self) -> None:
        self.calls.append("start")
        self.started = True

    def _blocked_behind_jobs(self, what: str) -> None:
        """stop()/close() are jobs too: behind a queued job on a stalled sensor they wait."""
        if self.stalled and self.jobs:
            self.waiting.set()
            raise AssertionError(f"{what}() queued behind a timed-out job on a stalled sensor "
                                 "would block for ever — cancel_all_and_flush() first")

    def set_controls(self, controls: dict) -> None:
        self.calls.append("set_controls")
        self.control_calls.append(dict(controls))
        unknown = set(controls) - set(self.camera_controls)
        if unknown:  # as Picamera2 does for controls the camera does not advertise
            raise RuntimeError(f"Control {sorted(unknown)[0]} is not advertised by libcamera")
        if not self.ignore_controls:
            self.pending.append((self.delay if self.started else self.start_delay,
                                 dict(controls)))

    def autofocus_cycle(self, wait=None, signal_function=None) -> bool:
        self.calls.append("autofocus_cycle")

        def focus() -> bool:
            self._next_frame()
            self.lens = self.af_result
            return self.af_success

        return self._dispatch(focus, wait, signal_function)

    # --- frames --------------------------------------------------------------------------------
    def _next_metadata(self) -> dict:
        return self._next_frame()[0]

    def _next_frame(self) -> tuple[dict, float]:
        """One frame goes by: pending controls come into force; its metadata and brightness."""
        self.frame += 1
        waiting = []
        for left, controls in self.pending:
            if left <= 1:
                self.fixed.update(controls)
            else:
                waiting.append((left - 1, controls))
        self.pending = waiting
        md = dict(self.metered)
        asked = dict(md)
        fixed_in_force = False
        for key, mode in (("ExposureTime", "ExposureTimeMode"),
                          ("AnalogueGain", "AnalogueGainMode"), ("ColourGains", None)):
            if key not in self.fixed:
                continue
            asked[key] = self.fixed[key]
            if mode is None or not self.modes or \
                    self.fixed.get(mode) == EXPOSURE_MODE_MANUAL:
                md[key] = self.fixed[key]  # the value is in force (else AE ignores it)
                fixed_in_force = fixed_in_force or key == "ExposureTime"
        md["ExposureTime"] = int(md["ExposureTime"] // self.exposure_step * self.exposure_step)
        product = md["ExposureTime"] * md["AnalogueGain"]
        if self.locked_product is None and fixed_in_force:
            self.locked_product = product  # the first fixed exposure: the picture's reference
        scale = 1.0 if self.locked_product is None else product / self.locked_product
        if self.metadata_lies:
            md.update({k: asked[k] for k in ("ExposureTime", "AnalogueGain")})
        if self.fixed.get("AfMode") == 0 and "LensPosition" in self.fixed:
            self.lens = self.fixed["LensPosition"]
        if self.has_focus:
            md["LensPosition"] = self.lens
        md["Frame"] = self.frame
        return md, scale

    def brightness_of(self, metadata: dict) -> float:
        return (1.0 + self.drift) ** metadata.get("Frame", 0)

    def capture_metadata(self, wait=None, signal_function=None) -> dict:
        self.calls.append("capture_metadata")
        return self._dispatch(self._next_metadata, wait, signal_function)

    def _request(self) -> FakeRequest:
        self.now_ns += 33_000_000
        md, scale = self._next_frame()
        if self.stale:
            self.stale -= 1
            return FakeRequest(self, 0, md, scale)  # exposed long before anyone asked (same clock)
        stamp = self.now_ns + self.clock_offset
        if self.straddle:
            self.straddle -= 1  # ends after the call, but its exposure began before it
            stamp = self.straddle_end_ns
        return FakeRequest(self, stamp, md, scale)

    def capture_request(self, wait=None, signal_function=None, flush=None) -> FakeRequest:
        self.calls.append(f"capture_request(flush={flush})")
        asked_at = self.now_ns

        def take() -> FakeRequest:
            request = self._request()
            if flush:  # Picamera2 waits for a frame whose exposure began after the call
                while len(self.calls) < 10_000 and request.timestamp - 1000 * request.metadata["ExposureTime"] < asked_at:
                    request.release()
                    request = self._request()
            return request

        return self._dispatch(take, wait, signal_function)

    def stop(self) -> None:
        self.calls.append("stop")
        self._blocked_behind_jobs("stop")
        self.started = False

    def close(self) -> None:
        self.calls.append("close")
        self._blocked_behind_jobs("close")
        self.closed = True


class OldPicamera2(FakePicamera2):
    """Picamera2 before ``capture_request(flush=…)`` (0.3.15), timeouts and
    ``cancel_all_and_flush`` (0.3.20) existed; libcamera before the exposure-mode controls."""

    timeouts = False
    modes = False
    cancel_all_and_flush = None  # type: ignore[assignment]  # absent: getattr finds None

    def capture_request(self, wait=None, signal_function=None) -> FakeRequest:
        self.calls.append("capture_request()")
        return self._dispatch(self._request, wait, signal_function)


def module(cls: type = FakePicamera2) -> types.ModuleType:
    """A fresh fake ``picamera2`` module."""
    m = types.ModuleType("picamera2")
    m.Picamera2 = cls
    FakePicamera2.cameras = [{"Model": "imx708", "Num": 0, "Id": RIBBON_ID}]
    FakePicamera2.instances = []
    FakePicamera2.has_focus = True
    FakePicamera2.picture = None
    FakePicamera2.busy_holder = None
    FakePicamera2.metadata_lies = False
    cls.has_focus = True
    return m


def broken_package(folder: Path, error: str = f"ValueError({NUMPY_ABI_ERROR!r})") -> Path:
    """Write a ``picamera2`` package into ``folder`` whose import raises ``error``."""
    package = folder / "picamera2"
    package.mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text(
        "# test double: what apt's Picamera2 does beside a numpy it was not built for\n"
        f"raise {error}\n")
    return folder
