"""Errors of the tower hardware layer.

Every message is a sentence for the players at the table: what happened and what to do now.
Errors caused by bad input (an unknown camera kind, a bad pin number, a negative cube count)
also subclass :class:`ValueError`; errors caused by the devices do not.
"""

from __future__ import annotations

from companion.errors import CompanionError
from companion.messages import msg
from companion.vision.colors import CUBE_COLORS


class HardwareError(CompanionError):
    """Root of every deliberate error raised by :mod:`companion.hw`."""


class CameraUnavailableError(HardwareError):
    """The camera is missing, could not be opened, or stopped answering."""

    default_message = (
        "The camera is not answering — enter the counts by hand; "
        "the companion keeps trying to reconnect."
    )

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.default_message)


class CameraBusyError(CameraUnavailableError):
    """Another program holds the camera (often a second ``companion serve`` or the service):
    the fix is to stop that program, not to check the cable."""


class CameraTimeoutError(CameraUnavailableError):
    """The camera stopped sending frames (a stalled sensor); it was closed, and is opened
    again at the next count."""


class CameraSettingsError(HardwareError, ValueError):
    """Saved camera settings (in the calibration, or the old lock file) cannot be used."""


class GpioUnavailableError(HardwareError):
    """The buttons and the LED could not be reached through the GPIO pins."""

    default_message = (
        "The tower buttons are not connected — use the buttons on the screen; "
        "the companion keeps trying to reconnect."
    )

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.default_message)


class CountTimeoutError(HardwareError):
    """The tray did not stop moving (or no frame came) before the time limit."""


class CountCancelledError(HardwareError):
    """Someone pressed cancel while the tray was being counted."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or "Counting was cancelled. Press count when the cubes are in.")


class CountInProgressError(HardwareError):
    """A second count was asked for while one is still running."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            message or "The tray is already being counted — wait for the result or press cancel."
        )


class UnknownCameraKindError(HardwareError, ValueError):
    """The camera setting names no known backend."""


class InvalidPinError(HardwareError, ValueError):
    """A GPIO pin setting is not a usable pin number."""


class InvalidThrowError(HardwareError, ValueError):
    """The cubes handed to the tower simulator are not a valid throw."""


class UnknownButtonError(HardwareError, ValueError):
    """A button name other than "count" or "cancel"."""


class UnknownLedStateError(HardwareError, ValueError):
    """An LED state other than ready, counting, attention, error or off."""


class NotCalibratedError(HardwareError):
    """The real camera has no colour calibration yet, so it cannot count."""

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or msg("err_not_calibrated"))


class ColoursNotCalibratedError(NotCalibratedError):
    """The calibration has no sample of some colours the game uses, so the camera cannot
    count its battles: any of those cubes in the tray would read as unknown."""

    def __init__(self, colors: tuple[str, ...]) -> None:
        self.colors = tuple(colors)
        names = " and ".join(", ".join(self.colors).rsplit(", ", 1))
        super().__init__(
            f"The camera has no sample of {names} yet, so it cannot count this game's battles: "
            "enter the counts by hand, or calibrate the camera with one cube of each colour in "
            "play (tower page, or 'companion tower calibrate')."
        )


class TrayNotEmptyError(HardwareError):
    """Cubes lie in the tray before a throw: the count waits until the tray is cleared."""

    def __init__(self, counts: dict[str, int]) -> None:
        order = CUBE_COLORS
        self.counts = {c: int(counts[c]) for c in sorted(counts, key=lambda c: order.index(c)
                                                          if c in order else len(order)) if counts[c]}
        what = ", ".join(f"{n} {c}" for c, n in self.counts.items())
        super().__init__(f"{what} — clear the tray, then press count again.")


class CameraPictureError(CameraUnavailableError):
    """The camera answered, but with a picture that cannot be counted (empty, the wrong shape,
    black or blank): treated like a camera that stopped answering — reconnected, counts by hand."""
