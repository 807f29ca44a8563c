"""Issue 12 in real Chromium on the real server: a signed-in player and a spectator on one game
(the spectator sees every move live and gets the PIN dialog when trying to act); the tower page
shows the PIN to a signed-in tablet only; no page trips the Content-Security-Policy; a new game
whose answer is lost and is started again is still one game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, Route, expect

from .conftest import E2E_PIN
from .helpers import expect_version
from .test_game import PLAYERS as WIZARD_PLAYERS
from .test_two_tablets import Api

pytestmark = pytest.mark.e2e

TABLET = {"width": 1280, "height": 900}


def watch_csp(page: Page) -> list[str]:
    """Collect the browser's Content-Security-Policy complaints (and script errors) of a page."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text)
            if m.type == "error" and "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def submit(page: Page, command: str) -> None:
    page.locator(f'#panel form[data-command="{command}"] button[type="submit"]').click()


def test_a_spectator_watches_live_and_must_enter_the_pin_to_act(server, browser) -> None:
    player = browser.new_context(viewport=TABLET, locale="en-US").new_page()  # signed in
    guest_context = browser.guest_context(viewport=TABLET, locale="en-US")
    guest = guest_context.new_page()
    problems = watch_csp(player) + watch_csp(guest)
    game = Api(player.context, server.url).new_game()
    url = f"{server.url}/games/{game}"
    player.goto(url)
    guest.goto(url)
    expect(guest.locator("#pin-signin")).to_be_visible()
    expect(guest.locator("#pin-signin")).to_have_text("Sign in to play")
    expect(player.locator("body")).to_have_attribute("data-signed-in", "yes")
    expect(player.locator("#pin-signin")).to_be_hidden()
    expect(guest.locator("body")).to_have_attribute("data-live", "open")

    submit(player, "deploy_start")  # the player moves: the spectator sees it at once
    expect_version(player, 2)
    expect_version(guest, 2)

    # Blue's turn; the spectator picks Blue's start region and tries to act: the PIN dialog.
    guest.locator('#panel form[data-command="deploy_start"] select[name="region"]').select_option("mountainhome")
    submit(guest, "deploy_start")
    dialog = guest.locator("#pin-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Enter the table PIN to change the game")
    guest.locator("#pin-input").fill("0000")
    guest.locator("#pin-submit").click()
    expect(guest.locator("#pin-error")).to_have_text("That is not the table PIN. Check it and try again.")
    guest.locator("#pin-cancel").click()  # "just watch": the move is not made
    expect(dialog).to_be_hidden()
    expect(guest.locator('#panel form[data-command="deploy_start"] .error')).to_contain_text("table PIN")
    assert Api(player.context, server.url).state(game)["version"] == 2

    submit(guest, "deploy_start")  # again, now with the right PIN: signed in, the move goes
    guest.locator("#pin-input").fill(E2E_PIN)
    guest.locator("#pin-submit").click()
    expect(dialog).to_be_hidden()
    expect_version(guest, 3)
    expect_version(player, 3)
    expect(guest.locator("#pin-signin")).to_be_hidden()
    assert problems == []
    guest_context.close()
    player.context.close()


def test_the_tower_page_shows_the_pin_to_a_signed_in_tablet_only(server, browser) -> None:
    player = browser.new_page(viewport=TABLET, locale="en-US")
    player.goto(server.url + "/tower")
    expect(player.locator("#table-pin")).to_have_text(E2E_PIN)
    player.locator("#pin-signout").click()
    expect(player.locator("#pin-panel")).to_be_hidden()
    expect(player.locator("#pin-signin")).to_be_visible()

    guest_context = browser.guest_context(viewport=TABLET, locale="de-DE")
    guest = guest_context.new_page()
    guest.goto(server.url + "/tower")
    expect(guest.locator("#pin-signin")).to_have_text("Anmelden zum Mitspielen")
    expect(guest.locator("#table-pin")).to_have_count(0)
    guest.locator("#pin-signin").click()  # the button opens the dialog, in German
    expect(guest.locator("#pin-dialog")).to_contain_text("Gib die Tisch-PIN ein")
    guest.locator("#pin-input").fill(E2E_PIN)
    guest.locator("#pin-submit").click()
    expect(guest.locator("#table-pin")).to_have_text(E2E_PIN)
    guest_context.close()
    player.context.close()


@pytest.mark.parametrize("path", ["/", "/games/new", "/setup/board", "/stats", "/tower"])
def test_no_page_trips_the_content_security_policy(server, browser, path) -> None:
    page = browser.new_page(viewport=TABLET, locale="en-US")
    problems = watch_csp(page)
    response = page.goto(server.url + path)
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator("body")).to_have_attribute("data-signed-in", "yes")  # pin.js ran
    page.wait_for_load_state("networkidle")
    assert problems == []
    page.context.close()


def test_a_new_game_whose_answer_is_lost_is_one_game_when_started_again(server, browser) -> None:
    page = browser.new_page(viewport=TABLET, locale="en-US")
    api = Api(page.context, server.url)
    before = len(page.request.get(f"{server.url}/api/games").json())
    keys: list[str] = []

    def lose_the_first_answer(route: Route) -> None:
        keys.append(route.request.headers.get("idempotency-key", ""))
        answer = route.fetch()  # the server gets the request and makes the game …
        if len(keys) == 1:
            assert answer.status == 201
            route.abort("connectionreset")  # … but the tablet never hears back
        else:
            route.fulfill(response=answer)

    page.route(re.compile(r".*/api/games$"), lambda route: lose_the_first_answer(route)
               if route.request.method == "POST" else route.fallback())
    page.goto(server.url + "/games/new")
    expect(page.locator("#seats li")).to_have_count(3)
    for i, (name, colour, light, dark) in enumerate(WIZARD_PLAYERS):
        seat = page.locator(f'#seats li[data-seat="{i}"]')
        seat.locator('input[data-field="name"]').fill(name)
        seat.locator('select[data-field="light_tribe"]').select_option(light)
        seat.locator('select[data-field="dark_tribe"]').select_option(dark)
    page.locator("#first-player").select_option("red")
    page.locator("#start-game").click()
    expect(page.locator("#wizard-error")).to_contain_text("cannot be reached")  # the lost answer
    page.locator("#start-game").click()  # the player taps again
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    assert len(keys) == 2 and keys[0] == keys[1]
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", keys[0])
    games = page.request.get(f"{server.url}/api/games").json()
    assert len(games) == before + 1  # one game, not two
    assert int(page.url.rsplit("/", 1)[1]) == max(g["id"] for g in games)
    assert api.state(games[0]["id"])["version"] >= 1
    page.context.close()
