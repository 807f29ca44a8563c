"""Buttons and LED, driven through gpiozero's mock pins (press, bounce, long press)."""

from __future__ import annotations

import threading

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hw.controls import LED_PATTERNS, PinConfig, TowerControls, make_pin_factory
from companion.hw.errors import (
    GpioUnavailableError,
    InvalidPinError,
    UnknownButtonError,
    UnknownLedStateError,
)

from .conftest import WAIT


def press(pin, clock, seconds):
    pin.drive_low()
    clock.advance(seconds)
    pin.drive_high()


def test_short_press_of_count_button_emits_count(controls, mock_factory, clock, recorder):
    press(mock_factory.pin(17), clock, 0.2)
    assert recorder.next() == "count"
    assert recorder.drained() == []


def test_cancel_button_emits_cancel(controls, mock_factory, clock, recorder):
    press(mock_factory.pin(27), clock, 0.2)
    assert recorder.next() == "cancel"


def test_direct_callbacks_are_called(controls, mock_factory, clock):
    got = threading.Event()
    controls.on_count = got.set
    press(mock_factory.pin(17), clock, 0.2)
    assert got.wait(WAIT)


def test_contact_bounce_is_one_press(controls, mock_factory, clock, recorder):
    pin = mock_factory.pin(17)
    # the contacts chatter for a few milliseconds on the way down and on the way up
    for _ in range(3):
        press(pin, clock, 0.002)
        clock.advance(0.001)
    pin.drive_low()
    clock.advance(0.3)
    pin.drive_high()
    for _ in range(3):
        clock.advance(0.001)
        press(pin, clock, 0.002)
    assert recorder.next() == "count"
    assert recorder.drained() == []


def test_bounce_alone_is_no_press(controls, mock_factory, clock, recorder):
    for _ in range(5):
        press(mock_factory.pin(17), clock, 0.01)
    assert recorder.drained() == []


def test_long_press_of_count_button_cancels(mock_factory, clock, recorder):
    controls = TowerControls(PinConfig(hold_time=0.05, bounce_time=0.01), clock=clock)
    controls.add_listener(recorder)
    held = threading.Event()
    controls.add_listener(lambda name: held.set())
    try:
        pin = mock_factory.pin(17)
        pin.drive_low()
        assert held.wait(WAIT), "gpiozero's hold thread never fired"
        clock.advance(2.0)
        pin.drive_high()
        assert recorder.next() == "cancel"
        assert recorder.drained() == []  # the release after a hold is not also a count
    finally:
        controls.close()


def test_press_helper_goes_through_the_pins(mock_factory, recorder):
    controls = TowerControls(PinConfig(hold_time=0.05, bounce_time=0.01))
    controls.add_listener(recorder)
    try:
        controls.press("count")
        assert recorder.next() == "count"
        controls.press("count", hold=True)
        assert recorder.next() == "cancel"
        assert recorder.drained() == []
        assert mock_factory.pin(17).state == 1  # released again (pull-up)
    finally:
        controls.close()


def test_unknown_button_is_refused(controls, recorder):
    with pytest.raises(UnknownButtonError, match="no 'start' button"):
        controls.press("start")
    assert recorder.drained() == []


def test_listener_failure_does_not_silence_others(controls, mock_factory, clock, recorder):
    def broken(_name):
        raise RuntimeError("boom")

    controls._listeners.insert(0, broken)
    press(mock_factory.pin(17), clock, 0.2)
    assert recorder.next() == "count"


def test_led_steady_states(controls, mock_factory):
    led = mock_factory.pin(22)
    controls.set_led("ready")
    assert led.state == 1 and controls.led_state == "ready"
    controls.set_led("off")
    assert led.state == 0 and controls.led_state == "off"


@pytest.mark.parametrize("state", ["counting", "attention", "error"])
def test_led_blinks_for_the_busy_states(controls, mock_factory, state):
    led = mock_factory.pin(22)
    controls.set_led(state)
    assert controls.led_state == state
    on, off = LED_PATTERNS[state]
    # the blink runs on gpiozero's thread; wait for one full on/off cycle of the mock pin
    deadline = threading.Event()
    for _ in range(200):
        if [s.state for s in led.states[1:3]] == [True, False]:
            break
        deadline.wait((on + off) / 20)
    assert [s.state for s in led.states[1:3]] == [True, False]


def test_unknown_led_state_changes_nothing(controls):
    controls.set_led("ready")
    with pytest.raises(UnknownLedStateError, match="not 'green'"):
        controls.set_led("green")
    assert controls.led_state == "ready"


def test_pins_are_configurable(mock_factory, clock, recorder):
    controls = TowerControls(PinConfig(count_pin=5, cancel_pin=6, led_pin=13, hold_time=30),
                             clock=clock)
    controls.add_listener(recorder)
    try:
        press(mock_factory.pin(6), clock, 0.2)
        assert recorder.next() == "cancel"
        controls.set_led("ready")
        assert mock_factory.pin(13).state == 1
    finally:
        controls.close()


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"count_pin": 40}, "BCM number from 2 to 27"),
        ({"led_pin": 17}, "three different GPIO pins"),
        ({"bounce_time": 2.0, "hold_time": 1.0}, "shorter than the long-press time"),
    ],
)
def test_bad_pin_config_is_a_clear_error(kwargs, words):
    with pytest.raises(InvalidPinError, match=words):
        PinConfig(**kwargs)


def test_pin_in_use_is_gpio_unavailable(controls):
    with pytest.raises(GpioUnavailableError):
        TowerControls(PinConfig())  # same pins as the fixture's controls


def test_pin_factory_modes():
    factory, mock = make_pin_factory("mock")
    assert mock and isinstance(factory, MockFactory)
    with pytest.raises(InvalidPinError, match="auto, real or mock"):
        make_pin_factory("maybe")


def test_auto_falls_back_to_mock_and_real_refuses(monkeypatch):
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def no_pi():
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_pi))
    factory, mock = make_pin_factory("auto")
    assert mock and isinstance(factory, MockFactory)
    with pytest.raises(GpioUnavailableError, match="buttons on the screen"):
        make_pin_factory("real")
