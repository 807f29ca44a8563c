"""A TEST DOUBLE of the Raspberry Pi's ``picamera2`` library — not the real thing.

Picamera2 only exists on a Pi (apt package python3-picamera2). This fake implements just the
calls our backend makes, records what it was asked, and can be told to misbehave (no camera,
stale queued frames, a dead cable). Tests inject it as ``module=`` or through ``sys.modules``.
"""

from __future__ import annotations

import types

import numpy as np


class FakeRequest:
    def __init__(self, camera: FakePicamera2, timestamp: int) -> None:
        self.camera = camera
        self.timestamp = timestamp
        self.released = False

    def get_metadata(self) -> dict:
        return {"SensorTimestamp": self.timestamp, **self.camera.metadata}

    def make_array(self, stream: str) -> np.ndarray:
        assert stream == "main"
        w, h = self.camera.config["main"]["size"]
        # libcamera "RGB888" is stored B, G, R: a red scene has its strength in the last channel
        frame = np.zeros((h, w, 3), np.uint8)
        frame[:, :] = self.camera.scene_bgr
        frame[0, 0, 1] = self.timestamp % 256  # lets tests tell frames apart
        return frame

    def release(self) -> None:
        self.released = True
        self.camera.released += 1


class FakePicamera2:
    cameras: list[dict] = [{"Model": "imx708", "Num": 0}]
    instances: list[FakePicamera2] = []

    def __init__(self, camera_num: int = 0) -> None:
        self.camera_num = camera_num
        self.config: dict | None = None
        self.controls: dict = {}
        self.control_calls: list[dict] = []
        self.started = self.closed = False
        self.metadata = {"ExposureTime": 8123, "AnalogueGain": 1.75, "ColourGains": (2.1, 1.6)}
        self.scene_bgr = (20, 30, 200)
        self.now_ns = 1_000_000  # shared with the test's clock_ns
        self.stale = 0  # how many queued (old) requests to hand out first
        self.clock_offset = 0  # ns; a large negative value = timestamps from another clock
        self.broken = False
        self.released = 0
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict]:
        return list(FakePicamera2.cameras)

    def create_video_configuration(self, main=None, controls=None, queue=True, **kw) -> dict:
        self.queue = queue
        return {"main": dict(main), "controls": dict(controls or {}), **kw}

    def configure(self, config: dict) -> None:
        self.config = config
        self.controls.update(config["controls"])

    def start(self) -> None:
        self.started = True

    def set_controls(self, controls: dict) -> None:
        self.control_calls.append(dict(controls))
        self.controls.update(controls)

    def capture_metadata(self) -> dict:
        return dict(self.metadata)

    def capture_request(self) -> FakeRequest:
        if self.broken:
            raise RuntimeError("Camera frontend has timed out!")
        self.now_ns += 33_000_000
        if self.stale:
            self.stale -= 1
            return FakeRequest(self, timestamp=0)  # exposed before anyone asked (same clock)
        return FakeRequest(self, timestamp=self.now_ns + self.clock_offset)

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


def module() -> types.ModuleType:
    """A fresh fake ``picamera2`` module."""
    m = types.ModuleType("picamera2")
    m.Picamera2 = FakePicamera2
    FakePicamera2.cameras = [{"Model": "imx708", "Num": 0}]
    FakePicamera2.instances = []
    return m
