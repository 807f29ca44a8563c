"""The one root of every error the companion raises on purpose.

Each package narrows it (``companion.game.errors.GameError``, ``companion.vision.errors.VisionError``,
``companion.hw.errors.HardwareError``, ``companion.store.errors.StoreError``). Errors caused by bad
input also subclass :class:`ValueError`, so ``except ValueError`` keeps working for callers that
only care that the input was wrong. Every message is written for a player, not a programmer.
"""


class CompanionError(Exception):
    """Root of all deliberate companion errors. ``str(err)`` is a sentence a player understands."""
