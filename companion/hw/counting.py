"""Settle, then count: what happens between the count button and a reading.

After the button, cubes may still be dropping out of the tower and rolling. :class:`CountSession`
feeds frames to the vision package's settle detector until the tray is still, then takes **one
more fresh frame** and counts that one (the frame that proved stillness may be older than the
button press allows us to trust), and draws the annotated picture for the players to confirm.

Guarantees: :meth:`CountSession.run` returns a :class:`CountOutcome` or raises one of
:class:`CountTimeoutError` (never settled in time), :class:`CountCancelledError` (cancel was
pressed) or :class:`CameraUnavailableError` (the camera failed); it never returns a count of a
frame taken while the tray was moving.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.hw.camera import Camera
from companion.hw.errors import CountCancelledError, CountTimeoutError, HardwareError
from companion.hw.frames import check_frame, check_picture


@dataclass(frozen=True)
class CountOutcome:
    """One counted frame: the photo, the vision result and the annotated photo."""

    image: np.ndarray
    result: Any  # companion.vision.counting.TrayCount
    annotated: np.ndarray
    frames_to_settle: int
    after_settle_ms: float = 0.0  # from "settled" to this outcome: fresh frame + count + drawing
    taken_at: float = field(default_factory=time.time)  # wall-clock seconds, for the reading
    empty: np.ndarray | None = None  # the tray checked empty before the throw (light reference)

    @property
    def counts(self) -> dict[str, int]:
        return dict(self.result.counts)

    @property
    def detections(self) -> list[Any]:
        return list(self.result.cubes)

    @property
    def unknown(self) -> int:
        return self.result.unknown

    @property
    def ms(self) -> float:
        return self.result.ms

    @property
    def image_jpeg(self) -> bytes:
        return _jpeg(self.image)

    @property
    def annotated_jpeg(self) -> bytes:
        return _jpeg(self.annotated)

    @property
    def empty_jpeg(self) -> bytes | None:
        return None if self.empty is None else _jpeg(self.empty)


def _jpeg(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 88])
    if not ok:
        raise HardwareError("The photo of the tray could not be stored.")
    return data.tobytes()


def _vision_parts() -> tuple[Callable[[], Any], Callable[..., Any], Callable[..., Any]]:
    from companion.vision.annotate import annotate
    from companion.vision.counting import count_cubes
    from companion.vision.settle import SettleDetector

    return SettleDetector, count_cubes, annotate


class CountSession:
    """One press → settle → fresh frame → count. Create one per count; cancel from any thread.

    ``detector_factory``, ``counter`` and ``annotator`` default to the vision package's
    ``SettleDetector``, ``count_cubes`` and ``annotate``; ``clock`` measures the timeout.
    Every frame must be an image (:func:`~companion.hw.frames.check_frame`); with the real
    counter the counted frame must also show something (not black or blank:
    :func:`~companion.hw.frames.check_picture`) — else :class:`CameraPictureError`.
    """

    def __init__(
        self,
        camera: Camera,
        calibration: Any,
        *,
        empty: np.ndarray | None = None,
        detector_factory: Callable[[], Any] | None = None,
        counter: Callable[..., Any] | None = None,
        annotator: Callable[..., Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._check_counted = check_picture if counter is None else check_frame
        if detector_factory is None or counter is None or annotator is None:
            default_detector, default_counter, default_annotator = _vision_parts()
            detector_factory = detector_factory or default_detector
            counter = counter or default_counter
            annotator = annotator or default_annotator
        self.camera = camera
        self.calibration = calibration
        self.empty = empty
        self._detector_factory = detector_factory
        self._counter = counter
        self._annotator = annotator
        self._clock = clock
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        """Stop :meth:`run` at its next frame with :class:`CountCancelledError`."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def run(self, timeout: float = 20.0) -> CountOutcome:
        """Wait until the tray is still (at most ``timeout`` seconds), then count a fresh frame."""
        if timeout <= 0:
            raise CountTimeoutError("The counting time limit must be more than zero seconds.")
        detector = self._detector_factory()
        deadline = self._clock() + timeout
        frames = 0
        while True:
            self._check_cancel()
            if self._clock() > deadline:
                raise CountTimeoutError(
                    f"The tray did not stop moving within {timeout:g} seconds — make sure "
                    "nothing touches the tray, then press count again, or enter the counts by hand."
                )
            frames += 1
            if detector.feed(check_frame(self.camera.capture())):
                break
        self._check_cancel()
        settled_at = time.perf_counter()
        image = self._check_counted(self.camera.capture())  # the one fresh frame we count
        result = self._counter(image, self.calibration, empty=self.empty)
        annotated = self._annotator(image, result)
        return CountOutcome(image=image, result=result, annotated=annotated,
                            frames_to_settle=frames,
                            after_settle_ms=(time.perf_counter() - settled_at) * 1000)

    def _check_cancel(self) -> None:
        if self._cancelled.is_set():
            raise CountCancelledError()
