"""Is this frame a picture of the tray at all? Checks every frame a count uses.

A camera that is unplugged raises; one that is failing may still *answer* — with an empty
buffer, a frame of the wrong shape, or a black picture (lens covered, the ring light off, a
sensor that lost its settings). Counting such a frame would report an empty tray as if it were
true, so it is refused with :class:`~companion.hw.errors.CameraPictureError`, a
:class:`CameraUnavailableError`: the tower marks the camera as failed (the tower page says
why), the tablet gets a 503 with the message and offers entering the counts by hand, and the
next count reconnects the camera.

* :func:`check_frame` — the structure: a non-empty ``uint8`` array of shape (H, W, 3).
* :func:`check_picture` — the content of the frame that is counted: not black, not blank.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.hw.errors import CameraPictureError
from companion.messages import msg

BLACK_MAX = 24  # no pixel brighter than this (of 255): nothing is lit
BLANK_STD = 1.0  # the whole picture one flat value: no tray, no cubes, no edges


def check_frame(frame: Any) -> np.ndarray:
    """``frame`` if it is a BGR ``uint8`` image of shape (H, W, 3), else CameraPictureError."""
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise CameraPictureError(msg("err_camera_picture_empty"))
    if frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
        raise CameraPictureError(
            msg("err_camera_picture_shape", shape=f"{tuple(frame.shape)}, {frame.dtype}")
        )
    return frame


def check_picture(frame: np.ndarray) -> np.ndarray:
    """``frame`` unless it is black or one flat colour (see the module docstring)."""
    check_frame(frame)
    if int(frame.max()) <= BLACK_MAX:
        raise CameraPictureError(msg("err_camera_picture_black"))
    if float(frame.std()) < BLANK_STD:
        raise CameraPictureError(msg("err_camera_picture_blank"))
    return frame
