"""The camera interface every backend implements (backends: :mod:`companion.hw.cameras`).

Kept apart from the choice of backend (:mod:`companion.hw.camera`) so that the backends import
this module and nothing imports back: no import cycle between the interface and its backends.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

__all__ = ["Camera"]


class Camera(ABC):
    """A source of fresh BGR frames of the tray.

    ``name`` is the backend (``"picamera2"`` …); ``description`` says which device, for logs and
    the status screen. :meth:`capture` raises :class:`CameraUnavailableError` when the device
    stops answering; the caller may :meth:`close` and open a new one later.
    """

    name: str = "camera"
    description: str = ""

    @abstractmethod
    def capture(self) -> np.ndarray:
        """Return one fresh frame as a BGR ``uint8`` array of shape (H, W, 3)."""

    def settings(self) -> dict[str, Any]:
        """The fixed camera settings to keep with a calibration ({} when there are none)."""
        return {}

    #: Sentences for the owner about settings that did not take (shown by ``companion doctor``).
    warnings: list[str] = []

    def close(self) -> None:
        """Release the device. Idempotent."""

    def __enter__(self) -> Camera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.description or self.name}>"
