"""Small drivers for the UI's controls, so the game script reads like the game night it plays.

Every helper waits through Playwright's expectations (auto-retrying), never with sleeps.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect


class Shots:
    """Numbered screenshots of each screen in test-artifacts/e2e/ (the list goes into the report)."""

    def __init__(self, folder: Path, prefix: str) -> None:
        self.folder = folder
        self.prefix = prefix
        self.n = 0
        self.taken: list[str] = []
        for old in folder.glob(f"{prefix}-*.png"):  # a run's series replaces the previous one
            old.unlink()

    def __call__(self, page: Page, name: str) -> None:
        self.n += 1
        path = self.folder / f"{self.prefix}-{self.n:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        # A full-page capture leaves Chromium scrolled to the end, where focusing a button
        # scrolls the page between mousedown and mouseup and the click is lost: start over.
        page.evaluate("window.scrollTo(0, 0)")
        self.taken.append(path.name)


def version(page: Page) -> int:
    return int(page.locator("#state-version").inner_text())


def expect_version(page: Page, v: int) -> None:
    expect(page.locator("#state-version")).to_have_text(str(v))


def panel(page: Page) -> Locator:
    return page.locator("#panel")


def form(page: Page, command: str) -> Locator:
    return page.locator(f'#panel form[data-command="{command}"]')


def set_stepper(scope: Locator, value: int | None) -> None:
    """Tap − / + until the stepper inside ``scope`` shows ``value`` (None = "–")."""
    out = scope.locator("output.val")
    want = "–" if value is None else str(value)
    for _ in range(80):
        shown = out.inner_text()
        if shown == want:
            return
        go_up = value is not None and (shown == "–" or int(shown) < value)
        scope.locator(f'button[data-step="{"plus" if go_up else "minus"}"]').click()
        expect(out).not_to_have_text(shown)
    raise AssertionError(f"the stepper never reached {want}")


def field(f: Locator, name: str) -> Locator:
    return f.locator(f'[data-for="{name}"]')


def choose(f: Locator, name: str, value: str) -> None:
    button = f.locator(f'[data-field="{name}"] button[data-value="{value}"]')
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")


def submit(page: Page, f: Locator) -> None:
    """Send the form and wait until the game moved exactly one step."""
    v = version(page)
    f.locator('button[type="submit"]').click()
    try:
        expect_version(page, v + 1)
    except AssertionError as exc:  # say what the UI said instead
        errors = [e for e in f.locator(".error").all_inner_texts() if e]
        raise AssertionError(f"the command was not accepted; the page says: {errors}") from exc


def submit_rejected(page: Page, f: Locator, message: str | re.Pattern[str]) -> None:
    """Send the form, expect the inline message, and that the game did not move."""
    v = version(page)
    f.locator('button[type="submit"]').click()
    expect(f.locator(".error")).to_contain_text(message)
    expect_version(page, v)


def set_counts(page: Page, counts: dict[str, int]) -> None:
    """Correct the tray reading to exactly ``counts`` (every other colour to 0) with − and +."""
    rows = page.locator("#count-editor .count-row")
    for i in range(rows.count()):
        row = rows.nth(i)
        colour = row.get_attribute("data-colour")
        set_stepper(row, counts.get(colour, 0))
    # every tap is a correction on the server: wait until all of them arrived
    expect(page.locator("body")).to_have_attribute("data-pending", "0")


def stepper_value(scope: Locator) -> int:
    return int(scope.locator("output.val").inner_text())


def confirm(page: Page, command: str, asks: str | re.Pattern[str] | None = None) -> None:
    """Tap a button of an irreversible step, check the question, say yes; the game moves one step."""
    v = version(page)
    page.locator(f'#panel button[data-command="{command}"]').click()
    box = page.locator(f'#panel [data-confirm="{command}"]')
    expect(box).to_be_visible()
    expect(box).to_contain_text("can take this back")
    if asks is not None:
        expect(box).to_contain_text(asks)
    expect_version(page, v)  # asking changed nothing
    box.locator(f'button[data-confirm-yes="{command}"]').click()
    expect_version(page, v + 1)
