"""Errors of the vision package.

Every message is a sentence a player can act on. Errors caused by bad input (a broken
calibration file, an unreadable photo, a sample box outside the picture) also subclass
:class:`ValueError`; the command line turns any :class:`VisionError` into exit status 2.
"""

from __future__ import annotations

from companion.errors import CompanionError


class VisionError(CompanionError):
    """Root of every deliberate error of :mod:`companion.vision`."""


class CalibrationError(VisionError, ValueError):
    """A calibration file or calibration input is missing, malformed or inconsistent."""


class ImageReadError(VisionError, ValueError):
    """A photo could not be read or is not a colour image the counter can use."""


class ImageSizeError(VisionError, ValueError):
    """Two photos that must match (a frame and its empty-tray photo) have different sizes."""


class NoObjectInBoxError(CalibrationError):
    """A sample box shows no object apart from the tray around it."""


class TwoColoursInBoxError(CalibrationError):
    """A sample box holds two objects of clearly different colours."""
