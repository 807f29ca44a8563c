"""Has the tray stopped moving? Compare each frame with the previous one at low resolution.

A pixel has *changed* when it differs from the previous frame by more than ``threshold`` grey
levels after removing the frame-wide shift (auto-exposure, mains flicker). Averaging down to
160×120 leaves sensor noise far below the threshold, while a cube that moves by a fraction of
its size changes several pixels along its edges. The tray is *settled* after ``still_frames``
consecutive frames with at most ``max_changed`` changed pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

_SMALL = (160, 120)


class SettleDetector:
    """Feed frames in order; :meth:`feed` returns True once the tray has been still long enough."""

    def __init__(self, threshold: float = 8.0, still_frames: int = 3, max_changed: int = 2) -> None:
        if threshold <= 0 or still_frames < 1 or max_changed < 0:
            raise ValueError("The settle threshold must be positive, at least one still frame is "
                             "needed and the number of changed pixels cannot be negative.")
        self.threshold = threshold
        self.still_frames = still_frames
        self.max_changed = max_changed
        self.reset()

    def reset(self) -> None:
        """Forget every frame seen so far (call before a new throw)."""
        self._previous: np.ndarray | None = None
        self._still = 0
        self.last_change: int | None = None  # changed pixels between the last two frames

    @property
    def settled(self) -> bool:
        return self._still >= self.still_frames

    def feed(self, frame: np.ndarray) -> bool:
        """Take the next frame; True when the last ``still_frames`` changes were all small.
        A frame of another size than the previous one starts the count again."""
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        small = cv2.resize(gray, _SMALL, interpolation=cv2.INTER_AREA).astype(np.int16)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            self._still = 0
            return False
        diff = small - previous
        diff -= np.int16(np.median(diff))
        self.last_change = int(np.count_nonzero(np.abs(diff) > self.threshold))
        self._still = self._still + 1 if self.last_change <= self.max_changed else 0
        return self.settled
