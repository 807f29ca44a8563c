"""A TEST DOUBLE of the Raspberry Pi's ``picamera2`` library — not the real thing.

Picamera2 only exists on a Pi (apt package python3-picamera2). This fake implements just the
calls our backend makes and records them *in order* (``calls``), with every control dict it
was sent (``control_calls``). It models what the backend relies on and must check:

* automatic exposure/white balance report metered values until fixed values are set;
* values set take effect ``delay`` frames later (as on a real camera, the metadata lags);
* ``ignore_controls`` makes a camera that never takes them (the check must notice);
* a focus motor (``has_focus``): ``autofocus_cycle`` moves the lens to ``af_result``;
* ``capture_request(flush=True)`` skips queued frames; :class:`OldPicamera2` has no ``flush``;
* no camera, stale queued frames, frames straddling the call, a dead cable, drifting light.

Tests inject it as ``module=`` or through ``sys.modules``. :func:`broken_package` writes a
``picamera2`` package that raises on import, like apt's Picamera2 beside a second numpy.
"""

from __future__ import annotations

import types
from pathlib import Path

import numpy as np

NUMPY_ABI_ERROR = ("numpy.dtype size changed, may indicate binary incompatibility. "
                   "Expected 96 from C header, got 88 from PyObject")


class FakeRequest:
    def __init__(self, camera: FakePicamera2, timestamp: int, metadata: dict) -> None:
        self.camera = camera
        self.timestamp = timestamp
        self.metadata = metadata
        self.released = False

    def get_metadata(self) -> dict:
        return {"SensorTimestamp": self.timestamp, **self.metadata}

    def make_array(self, stream: str) -> np.ndarray:
        assert stream == "main"
        w, h = self.camera.config["main"]["size"]
        if self.camera.picture is not None:
            assert self.camera.picture.shape[:2] == (h, w), "picture and configured size differ"
            return self.camera.picture.copy()
        # libcamera "RGB888" is stored B, G, R: a red scene has its strength in the last channel
        frame = np.zeros((h, w, 3), np.uint8)
        scale = self.camera.brightness_of(self.metadata)
        frame[:, :] = np.clip(np.array(self.camera.scene_bgr) * scale, 0, 255)
        frame[0, 0, 1] = self.timestamp % 256  # lets tests tell frames apart
        return frame

    def release(self) -> None:
        self.released = True
        self.camera.released += 1


class FakePicamera2:
    cameras: list[dict] = [{"Model": "imx708", "Num": 0}]
    instances: list[FakePicamera2] = []
    has_focus = True
    af_success = True  # whether an autofocus cycle reports success
    ignore_controls = False  # a camera that never takes the values it is sent
    start_delay = 0  # frames before values set ahead of start() show in the metadata
    picture: np.ndarray | None = None  # what the camera sees (BGR); None: a plain red scene

    def __init__(self, camera_num: int = 0) -> None:
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
        self.broken = False
        self.released = 0
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict]:
        return list(FakePicamera2.cameras)

    @property
    def camera_controls(self) -> dict:
        controls = {"ExposureTime": (75, 100_000_000, None), "AnalogueGain": (1.0, 16.0, None),
                    "ColourGains": (0.0, 32.0, None), "AeEnable": (False, True, None),
                    "AwbEnable": (False, True, None)}
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

    def set_controls(self, controls: dict) -> None:
        self.calls.append("set_controls")
        self.control_calls.append(dict(controls))
        unknown = set(controls) - set(self.camera_controls)
        if unknown:  # as Picamera2 does for controls the camera does not advertise
            raise RuntimeError(f"Control {sorted(unknown)[0]} is not advertised by libcamera")
        if not self.ignore_controls:
            self.pending.append((self.delay if self.started else self.start_delay,
                                 dict(controls)))

    def autofocus_cycle(self, wait=None) -> bool:
        self.calls.append("autofocus_cycle")
        self.lens = self.af_result
        return self.af_success

    # --- frames --------------------------------------------------------------------------------
    def _next_metadata(self) -> dict:
        """One frame goes by: pending controls come into force, and its metadata."""
        self.frame += 1
        waiting = []
        for left, controls in self.pending:
            if left <= 1:
                self.fixed.update(controls)
            else:
                waiting.append((left - 1, controls))
        self.pending = waiting
        md = dict(self.metered)
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in self.fixed:
                md[key] = self.fixed[key]
        md["ExposureTime"] = int(md["ExposureTime"] // self.exposure_step * self.exposure_step)
        if self.fixed.get("AfMode") == 0 and "LensPosition" in self.fixed:
            self.lens = self.fixed["LensPosition"]
        if self.has_focus:
            md["LensPosition"] = self.lens
        md["Frame"] = self.frame
        return md

    def brightness_of(self, metadata: dict) -> float:
        return (1.0 + self.drift) ** metadata.get("Frame", 0)

    def capture_metadata(self) -> dict:
        self.calls.append("capture_metadata")
        return self._next_metadata()

    def _request(self) -> FakeRequest:
        if self.broken:
            raise RuntimeError("Camera frontend has timed out!")
        self.now_ns += 33_000_000
        md = self._next_metadata()
        if self.stale:
            self.stale -= 1
            return FakeRequest(self, 0, md)  # exposed long before anyone asked (same clock)
        stamp = self.now_ns + self.clock_offset
        if self.straddle:
            self.straddle -= 1  # ends after the call, but its exposure began before it
            stamp = self.straddle_end_ns
        return FakeRequest(self, stamp, md)

    def capture_request(self, wait=None, signal_function=None, flush=None) -> FakeRequest:
        self.calls.append(f"capture_request(flush={flush})")
        asked_at = self.now_ns
        request = self._request()
        if flush:  # Picamera2 waits for a frame whose exposure began after the call
            while len(self.calls) < 10_000 and request.timestamp - 1000 * request.metadata["ExposureTime"] < asked_at:
                request.release()
                request = self._request()
        return request

    def stop(self) -> None:
        self.calls.append("stop")
        self.started = False

    def close(self) -> None:
        self.calls.append("close")
        self.closed = True


class OldPicamera2(FakePicamera2):
    """Picamera2 before ``capture_request(flush=…)`` existed."""

    def capture_request(self, wait=None, signal_function=None) -> FakeRequest:
        self.calls.append("capture_request()")
        return self._request()


def module(cls: type = FakePicamera2) -> types.ModuleType:
    """A fresh fake ``picamera2`` module."""
    m = types.ModuleType("picamera2")
    m.Picamera2 = cls
    FakePicamera2.cameras = [{"Model": "imx708", "Num": 0}]
    FakePicamera2.instances = []
    FakePicamera2.has_focus = True
    FakePicamera2.picture = None
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
