"""The other screens in real Chromium: German, board set-up, statistics, tower, a phone in
portrait, and a server restart that the open tablet rides out (badge, then the same game)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Server
from .helpers import Shots

pytestmark = pytest.mark.e2e

NEW_GAME = {"players": [{"color": "purple", "name": "Mia", "light_tribe": "elves", "dark_tribe": "demons"},
                        {"color": "black", "name": "Tom", "light_tribe": "dwarves", "dark_tribe": "orcs"},
                        {"color": "red", "name": "Eva", "light_tribe": "light-tribe-3", "dark_tribe": "trolls"}],
            "first_player": "purple"}


@pytest.fixture(scope="module")
def shots(artifacts) -> Shots:
    return Shots(artifacts, "screens")


def open_page(browser: Browser, url: str, locale: str = "en-US", viewport=None) -> Page:
    context = browser.new_context(locale=locale, viewport=viewport or {"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    return page


def make_game(page: Page, base: str) -> int:
    answer = page.request.post(f"{base}/api/games", data=NEW_GAME)
    assert answer.status == 201, answer.text()
    return answer.json()["id"]


def test_german_from_the_browser_and_the_switch(server, browser, shots) -> None:
    page = open_page(browser, server.url + "/", locale="de-DE")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#new-game")).to_have_text("Neue Partie")
    expect(page.locator("#sim-banner")).to_have_text("Simulierter Würfelturm — keine Kamera angeschlossen")
    game = make_game(page, server.url)
    page.goto(f"{server.url}/games/{game}")
    expect(page.locator("#realm-dark h2")).to_have_text("Schattenwelt")
    expect(page.locator("#realm-light h2")).to_have_text("Lichtwelt")
    expect(page.locator("#phase-name")).to_have_text("Startrunde: Armeengruppen einsetzen")
    expect(page.locator('.player[data-player="purple"] h3')).to_contain_text("Mia (Lila)")
    expect(page.locator('#panel form[data-command="deploy_start"] button[type="submit"]')).to_have_text("Ausführen")
    shots(page, "german-game")
    page.locator('.langswitch a[data-lang="en"]').click()
    expect(page.locator("#realm-dark h2")).to_have_text("Dark realm")
    page.goto(server.url + "/stats")  # the choice is remembered (cookie), whatever the browser says
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_statistics_and_tower_pages(server, browser, shots) -> None:
    page = open_page(browser, server.url + "/")
    make_game(page, server.url)
    page.goto(server.url + "/stats")
    expect(page.locator("#stats table").first).to_be_visible()
    expect(page.locator('#stats [data-count="total"] b')).not_to_have_text("0")
    page.locator('#stats button[data-scope="unfinished"]').click()
    expect(page.locator('#stats button[data-scope="unfinished"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#stats-error")).to_be_hidden()
    shots(page, "statistics")
    page.goto(server.url + "/tower")
    expect(page.locator("#tower-status")).to_contain_text("simulated camera")  # the backend in words
    expect(page.locator("#tower-messages")).to_contain_text("Simulated tower")
    page.locator("#press-cancel").click()
    expect(page.locator("#press-log")).to_have_text("Pressed: Cancel")
    shots(page, "tower")


def test_phone_portrait_shows_board_and_panel(server, browser, shots) -> None:
    page = open_page(browser, server.url + "/", viewport={"width": 390, "height": 844})
    game = make_game(page, server.url)
    page.goto(f"{server.url}/games/{game}")
    submit = page.locator('#panel form[data-command="deploy_start"] button[type="submit"]')
    expect(submit).to_be_visible()
    box = submit.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44  # a finger-sized target
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"
    shots(page, "phone-game")


def test_a_server_restart_loses_nothing(browser, shots, tmp_path) -> None:
    """The open tablet shows "reconnecting…" while the server is down, then the same game."""
    first = Server(tmp_path, tmp_path / "server.log")
    first.wait_ready()
    page = open_page(browser, first.url + "/")
    game = make_game(page, first.url)
    page.goto(f"{first.url}/games/{game}")
    page.locator('#panel form[data-command="deploy_start"] button[type="submit"]').click()
    expect(page.locator("#state-version")).to_have_text("2")
    expect(page.locator("body")).to_have_attribute("data-live", "open")
    first.stop()
    expect(page.locator("#live-badge")).to_be_visible(timeout=15_000)
    shots(page, "reconnecting")
    second = Server(tmp_path, tmp_path / "server.log", port=first.port)
    try:
        second.wait_ready()
        expect(page.locator("#live-badge")).to_be_hidden(timeout=20_000)
        page.reload()
        expect(page.locator("#state-version")).to_have_text("2")
        expect(page.locator('#realm-light [data-region="treehome"] [data-colour="purple"]')).to_contain_text("3")
    finally:
        second.stop()
