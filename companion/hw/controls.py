"""The tower's two buttons and its status LED, through gpiozero.

* **Count button** — a short press means "the cubes are in, count now"; holding it for
  ``hold_time`` seconds means "cancel".
* **Cancel button** — any press means "cancel" (or, when nothing is being counted, "reject the
  last reading and recount"; the web layer decides which).
* **Status LED** — ``ready`` (steady), ``counting`` (fast blink), ``attention`` (slow blink: look
  at a tablet), ``error`` (short flash every two seconds: a device is missing), ``off``.

Debounce: a press is accepted when the button is *released* after having been down for at
least ``bounce_time`` seconds; shorter contacts are switch bounce and are ignored. gpiozero's own
``bounce_time`` is also set, so real pins filter edges in the driver as well (gpiozero's mock pins
do not implement bounce, which is why the duration rule lives here, in code the tests reach).

The pin factory is swappable: pass ``pin_factory`` (``MockFactory()`` off the Pi), or leave it
``None`` to use gpiozero's ``Device.pin_factory``. Nothing here touches global state.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from gpiozero import LED, Button, Device
from gpiozero.exc import GPIOZeroError, PinFactoryFallback
from gpiozero.pins.mock import MockFactory

from companion.hw.errors import (
    GpioUnavailableError,
    InvalidPinError,
    UnknownButtonError,
    UnknownLedStateError,
)

log = logging.getLogger(__name__)

ButtonName = Literal["count", "cancel"]
BUTTONS: tuple[str, ...] = ("count", "cancel")

# (on seconds, off seconds); None = steady on, (0, 0) = off. One LED, so states differ by rhythm.
LED_PATTERNS: dict[str, tuple[float, float] | None] = {
    "ready": None,
    "counting": (0.1, 0.1),
    "attention": (0.5, 0.5),
    "error": (0.1, 1.9),
    "off": (0.0, 0.0),
}


@dataclass(frozen=True)
class PinConfig:
    """BCM pin numbers and timings. Defaults match the wiring table in firmware_notes/."""

    count_pin: int = 17
    cancel_pin: int = 27
    led_pin: int = 22
    bounce_time: float = 0.05
    hold_time: float = 1.0

    def __post_init__(self) -> None:
        pins = (self.count_pin, self.cancel_pin, self.led_pin)
        for pin in pins:
            if isinstance(pin, bool) or not isinstance(pin, int) or not 2 <= pin <= 27:
                raise InvalidPinError(
                    f"GPIO pin {pin!r} is not usable: use a BCM number from 2 to 27."
                )
        if len(set(pins)) != 3:
            raise InvalidPinError(
                "The count button, the cancel button and the LED need three different GPIO pins."
            )
        if not 0 < self.bounce_time < self.hold_time:
            raise InvalidPinError(
                "The bounce time must be above zero and shorter than the long-press time."
            )


def make_pin_factory(mode: str) -> tuple[Any, bool]:
    """Return ``(pin_factory, is_mock)`` for ``mode`` ``auto`` | ``real`` | ``mock``.

    ``auto`` tries gpiozero's real factories (lgpio on a current Pi) and falls back to mock pins;
    ``real`` raises :class:`GpioUnavailableError` when no real factory loads.
    """
    if mode == "mock":
        return MockFactory(), True
    if mode not in ("auto", "real"):
        raise InvalidPinError(f"COMPANION_GPIO must be auto, real or mock, not {mode!r}.")
    try:
        with warnings.catch_warnings():  # gpiozero warns per factory it skips; we log one line
            warnings.simplefilter("ignore", PinFactoryFallback)
            return Device._default_pin_factory(), False
    except (GPIOZeroError, ImportError, OSError) as exc:
        if mode == "real":
            raise GpioUnavailableError() from exc
        # gpiozero's reason ("Unable to load any default pin factory!") reads like a failure on a
        # laptop, where no pins is normal: it goes to the debug log only.
        log.info("gpio: no Raspberry Pi pins here — using the on-screen buttons")
        log.debug("gpio: %s", exc)
        return MockFactory(), True


class TowerControls:
    """Buttons and LED. Callbacks run on gpiozero's threads; keep them short."""

    def __init__(
        self,
        pins: PinConfig | None = None,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.pins = pins or PinConfig()
        self._clock = clock
        self._lock = threading.Lock()
        self._press_lock = threading.Lock()
        self._down_since: dict[str, float | None] = {"count": None, "cancel": None}
        self._held: dict[str, bool] = {"count": False, "cancel": False}
        self._hold_fired = {name: threading.Event() for name in BUTTONS}
        self._listeners: list[Callable[[str], None]] = []
        self.on_count: Callable[[], None] | None = None
        self.on_cancel: Callable[[], None] | None = None
        self.led_state = "off"
        p = self.pins
        try:
            self._buttons = {
                "count": Button(p.count_pin, pull_up=True, bounce_time=p.bounce_time,
                                hold_time=p.hold_time, pin_factory=pin_factory),
                "cancel": Button(p.cancel_pin, pull_up=True, bounce_time=p.bounce_time,
                                 hold_time=p.hold_time, pin_factory=pin_factory),
            }
            self._led = LED(p.led_pin, pin_factory=pin_factory)
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            self._close_partial()
            raise GpioUnavailableError() from exc
        for name, button in self._buttons.items():
            button.when_pressed = lambda _dev, n=name: self._pressed(n)
            button.when_released = lambda _dev, n=name: self._released(n)
            button.when_held = lambda _dev, n=name: self._held_down(n)

    @property
    def is_mock(self) -> bool:
        """True when the pins are gpiozero mock pins (off the Pi)."""
        return isinstance(self._buttons["count"].pin_factory, MockFactory)

    def add_listener(self, callback: Callable[[str], None]) -> None:
        """Call ``callback("count" | "cancel")`` for every accepted press."""
        self._listeners.append(callback)

    def set_led(self, state: str) -> None:
        """Show ``state`` (see :data:`LED_PATTERNS`); an unknown state changes nothing."""
        if state not in LED_PATTERNS:
            raise UnknownLedStateError(
                f"The LED knows the states {', '.join(LED_PATTERNS)}, not {state!r}."
            )
        pattern = LED_PATTERNS[state]
        if pattern is None:
            self._led.on()
        elif pattern == (0.0, 0.0):
            self._led.off()
        else:
            self._led.blink(on_time=pattern[0], off_time=pattern[1], background=True)
        self.led_state = state

    def press(self, button: str, *, hold: bool = False) -> None:
        """Press ``button`` on the mock pins, exactly as a finger would (for the on-screen buttons).

        The pin is held down for just over ``bounce_time`` (or until the hold fires when
        ``hold``), then released, so the press travels the same path as a real one.
        Only possible on mock pins; on real pins use :meth:`emit`.
        """
        if button not in BUTTONS:
            raise UnknownButtonError(f"There is no {button!r} button — use count or cancel.")
        if not self.is_mock:
            raise GpioUnavailableError("Real tower buttons cannot be pressed from the screen.")
        pin = self._buttons[button].pin
        fired = self._hold_fired[button]
        with self._press_lock:  # two screens pressing at once are two presses, one after another
            fired.clear()
            pin.drive_low()
            try:
                if hold:
                    fired.wait(self.pins.hold_time + 5.0)
                else:
                    # The press must outlast the bounce filter; nothing to await, so a short wait.
                    threading.Event().wait(self.pins.bounce_time * 1.5)
            finally:
                pin.drive_high()

    def emit(self, button: str) -> None:
        """Deliver an accepted press of ``button`` to every listener (the shared last step)."""
        if button not in BUTTONS:
            raise UnknownButtonError(f"There is no {button!r} button — use count or cancel.")
        direct = self.on_count if button == "count" else self.on_cancel
        if direct is not None:
            direct()
        for callback in list(self._listeners):
            try:
                callback(button)
            except Exception:  # one faulty listener must not silence the others
                log.exception("button listener failed")

    def pressed_now(self) -> dict[str, bool]:
        """Which buttons read as pressed at this moment (at rest: none — else a wiring fault)."""
        return {name: bool(button.is_pressed) for name, button in self._buttons.items()}

    def led_lit(self) -> bool:
        """Whether the LED pin is driven on right now (what the pin says, not what an eye sees)."""
        return bool(self._led.value)

    def close(self) -> None:
        """Release the pins (the LED goes dark)."""
        self._close_partial()

    # --- edges, on gpiozero's threads ------------------------------------------------------
    def _pressed(self, name: str) -> None:
        with self._lock:
            self._down_since[name] = self._clock()
            self._held[name] = False

    def _held_down(self, name: str) -> None:
        with self._lock:
            if self._down_since[name] is None or self._held[name]:
                return
            self._held[name] = True
        self._hold_fired[name].set()
        self.emit("cancel")  # a long press of either button means cancel

    def _released(self, name: str) -> None:
        with self._lock:
            since, held = self._down_since[name], self._held[name]
            self._down_since[name] = None
            self._held[name] = False
        if since is None or held:
            return
        if self._clock() - since < self.pins.bounce_time:
            return  # a contact bounce, not a press
        self.emit(name)

    def _close_partial(self) -> None:
        for device in (*getattr(self, "_buttons", {}).values(), getattr(self, "_led", None)):
            if device is not None:
                try:
                    device.close()
                except Exception:  # closing a half-open device must not mask the first error
                    log.debug("closing %r failed", device, exc_info=True)
