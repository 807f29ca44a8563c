"""The tablet flow timed: taps and seconds of waiting a player sees, ``python -m benchmarks.tablet_flow``.

Starts the real server (waitress, real HTTP, the seeded simulated tower) and Debian's Chromium
(Playwright), brings a 3-player game to the actions over the API, then plays battles on the
tablet exactly as a player does: open *Attack*, pick where from, where to, the card, send; press
*Count the tray*, check, *Apply this result*. It counts every tap (a click, or one pick in a
drop-down — opening a native drop-down and choosing is counted as one tap, as in the baseline)
and times each wait between a tap and the screen being ready for the next one (Playwright's
auto-waiting adds up to a few ms of polling to each).

Baseline (issue 14, before the legal options): about 7 taps for the attack form, 3 from the
count button to applied. Target: ≤ 5 and ≤ 3, ≤ 10 s in all including the human check (the
human part is not measured here). Prints numbers; never fails on them.

The flow itself (:class:`Flow`, :func:`attack_via_form`, :func:`count_and_apply`) is shared with
the browser test ``tests/e2e/test_flow.py``, which asserts the tap counts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.e2e.test_two_tablets import Api  # the scripted 3-player game the e2e tests play

BASELINE = {"attack_form_taps": 7, "count_to_applied_taps": 3}
TARGET = {"attack_form_taps": 5, "count_to_applied_taps": 3}


def to_turn(api: Api, game: int, color: str) -> dict[str, Any]:
    """The others forfeit an action each until it is ``color``'s turn."""
    state = api.state(game)
    while state["turn"] != color:
        state = api.do(game, type="forfeit", player=state["turn"], compensation="gold")
    return state


@dataclass
class Flow:
    """One player's taps and the waits between them."""

    page: Any
    taps: int = 0
    waits: dict[str, list[float]] = field(default_factory=dict)

    def tap(self, locator: Any) -> None:
        self.taps += 1
        locator.click()

    def choose(self, locator: Any, value: str) -> None:
        self.taps += 1
        locator.select_option(value)

    def wait(self, label: str, condition: Any) -> None:
        """Time from now until ``condition()`` (a Playwright expectation) holds."""
        start = time.perf_counter()
        condition()
        self.waits.setdefault(label, []).append(time.perf_counter() - start)

    def pick(self, form: Any, name: str, value: str) -> None:
        """Pick a region in a node field: its button, or its entry in the drop-down."""
        from playwright.sync_api import expect

        button = form.locator(f'[data-field="{name}"] button[data-value="{value}"]')
        expect(form.locator(f'[data-field="{name}"] button[data-value="{value}"], select[name="{name}"]').first).to_be_visible()
        if button.count():
            if button.get_attribute("aria-pressed") != "true":  # taken already: no tap
                self.tap(button)
        else:
            self.choose(form.locator(f'select[name="{name}"]'), value)


def panel_ready(page: Any) -> None:
    from playwright.sync_api import expect

    expect(page.locator('#panel[data-options="ready"] .action-grid')).to_be_visible()


def attack_via_form(flow: Flow, source: str, target: str, card: str) -> int:
    """Attack as a player does; returns the taps this took (opening the form included)."""
    from playwright.sync_api import expect

    page = flow.page
    before = flow.taps
    flow.wait("game page opened → pickers ready", lambda: panel_ready(page))
    flow.tap(page.locator('#panel .action-grid button[data-action="attack"]'))
    f = page.locator('#panel form[data-command="attack"]')
    flow.wait("attack form shown", lambda: expect(f).to_be_visible())
    flow.pick(f, "source", source)
    flow.pick(f, "target", target)
    flow.tap(f.locator(f'[data-field="card"] button[data-value="{card}"]'))
    flow.tap(f.locator('button[type="submit"]'))
    flow.wait("attack sent → what to throw shown", lambda: expect(page.locator("#tray-instructions")).to_be_visible())
    return flow.taps - before


def count_and_apply(flow: Flow) -> int:
    """Press the count button on screen, take the reading as counted, apply; returns the taps."""
    from playwright.sync_api import expect

    page = flow.page
    before = flow.taps
    flow.tap(page.locator("#press-button"))
    flow.wait("count pressed → counted photo", lambda: expect(page.locator("#reading-photo")).to_be_visible(timeout=20_000))
    flow.wait("result in words", lambda: expect(page.locator("#result-words")).not_to_be_empty())
    if page.locator("#impossible").is_visible():  # the accounting doubts the reading: say so
        flow.tap(page.locator("#accept-impossible"))
    flow.tap(page.locator("#apply-battle"))
    flow.wait("apply → next player's panel ready", lambda: (
        expect(page.locator("#battle")).to_have_count(0), panel_ready(page)))
    return flow.taps - before


def _report(rows: list[dict[str, Any]], waits: dict[str, list[float]]) -> None:
    print(f"battles played: {len(rows)}")
    for key in ("attack_form_taps", "count_to_applied_taps"):
        values = [r[key] for r in rows]
        print(f"{key:>24}: median {statistics.median(values):.0f} (max {max(values)})   "
              f"baseline {BASELINE[key]}   target ≤ {TARGET[key]}")
    total = 0.0
    print("seconds of waiting a player sees (median / max):")
    for label, values in waits.items():
        per_battle = sum(values) / len(rows)
        total += per_battle
        print(f"  {label:<42} {statistics.median(values):6.3f} / {max(values):6.3f}")
    print(f"  {'machine waiting per battle (mean, summed)':<42} {total:6.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--battles", type=int, default=6)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, Server

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), Path(tmp) / "server.log")
        server.wait_ready()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                context = browser.new_context(viewport={"width": 1024, "height": 768})
                server.sign_in(context)
                api = Api(context, server.url)
                page = context.new_page()
                rows, waits = [], {}
                for _ in range(args.battles):
                    game = api.new_game()
                    api.to_actions(game)
                    to_turn(api, game, "red")
                    page.goto(f"{server.url}/games/{game}")
                    flow = Flow(page)
                    form_taps = attack_via_form(flow, "borderland|light", "white-falls|light", "target")
                    apply_taps = count_and_apply(flow)
                    rows.append({"attack_form_taps": form_taps, "count_to_applied_taps": apply_taps})
                    for label, values in flow.waits.items():
                        waits.setdefault(label, []).extend(values)
                browser.close()
        finally:
            server.stop()
    _report(rows, waits)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
