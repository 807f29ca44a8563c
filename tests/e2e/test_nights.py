"""The game night in Chromium against the real server: one game of each kind logged on a phone
(390 px wide, nothing wider than the screen), the live trackers played to their end, the
German page, and the games in the statistics page's "Game nights" section."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}


def _no_horizontal_overflow(page) -> None:  # noqa: ANN001
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def _open(browser, server, viewport=PHONE, lang="en"):  # noqa: ANN001, ANN202
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/night?lang={lang}")
    expect(page.locator("body[data-night-ready='yes']")).to_have_count(1)
    return page, errors


def _players(page, *names: str) -> None:  # noqa: ANN001
    while page.locator(".tt-player").count() < len(names):
        page.click("#tt-add-player")
    for i, name in enumerate(names):
        page.locator(f".tt-player[data-player='p{i + 1}'] input[data-field='name']").fill(name)


def test_log_a_generic_game_and_a_game_o_gami_sheet_on_a_phone(server, browser, artifacts) -> None:
    page, errors = _open(browser, server)
    page.click("#tt-picker [data-game='generic']")
    page.fill("#tt-name", "Azul")
    _players(page, "Ani", "Ben", "Cem")
    for key, score in (("p1", 61), ("p2", 74), ("p3", 74)):
        page.fill(f"#tt-form input[data-field='score'][data-player='{key}']", str(score))
    _no_horizontal_overflow(page)
    # logged afterwards with both times at "now": it would have lasted 0 minutes — asked first
    page.click("#tt-submit")
    expect(page.locator("#tt-form-error")).to_contain_text("Started and Ended are the same minute")
    expect(page.locator("#tt-start")).to_be_focused()
    page.fill("#tt-start", "2026-01-10T19:30")
    page.fill("#tt-end", "2026-01-10T20:15")
    page.click("#tt-submit")
    card = page.locator("#night-games li", has_text="Azul")
    expect(card).to_contain_text("45 min")
    expect(card.locator(".tt-result")).to_have_text("Shared win: Ben, Cem")

    page.click("#tt-picker [data-game='immortal_gameogami']")
    _players(page, "Ani", "Ben")
    # the act rows name the players as they are typed; Act One asks no card levels
    expect(page.locator("[data-act='1'] [data-name-of='p2']")).to_have_text("Ben")
    expect(page.locator("[data-act='1'] input[data-field='levels_1']")).to_have_count(0)
    page.fill("#tt-start", "2026-01-10T20:30")
    page.fill("#tt-end", "2026-01-10T21:00")
    for act, tokens in ((1, (6, 4)), (2, (9, 9))):
        for key, n in zip(("p1", "p2"), tokens):
            page.fill(f"[data-act='{act}'] input[data-field='tokens_{act}'][data-player='{key}']", str(n))
    page.click("#tt-submit")
    expect(page.locator("#tt-form-error")).to_contain_text("card levels")  # the tie needs them
    page.fill("[data-act='2'] input[data-field='levels_2'][data-player='p1']", "14")
    page.fill("[data-act='2'] input[data-field='levels_2'][data-player='p2']", "12")
    page.click("#tt-submit")
    sheet = page.locator("#night-games li", has_text="Immortal (Game-O-Gami)")
    expect(sheet.locator(".tt-result")).to_have_text("Ani won")
    _no_horizontal_overflow(page)
    page.screenshot(path=str(artifacts / "night-phone.png"), full_page=True)

    # A wrong result: undo it on the game's page and enter it again
    card.locator("a.resume").click()
    expect(page.locator("body[data-tt-ready='yes']")).to_have_count(1)
    page.click("#tt-undo")
    expect(page.locator("#tt-status")).to_have_text("Still going")
    page.click("#tt-sheet [data-mode='winners']")
    page.check("#tt-sheet input[data-field='winner'][data-player='p1']")
    page.click("#tt-sheet-save")
    expect(page.locator("#tt-status")).to_have_text("Ani won")
    _no_horizontal_overflow(page)
    assert errors == []
    page.close()


def test_an_amrtaka_game_tracked_live_to_60_on_a_phone(server, browser, artifacts) -> None:
    page, errors = _open(browser, server)
    page.click("#tt-picker [data-game='amrtaka']")
    _players(page, "Ani", "Ben")
    page.click("#tt-submit")
    expect(page.locator("body[data-tt-ready='yes']")).to_have_count(1)
    expect(page.locator("#tt-current")).to_have_text("Ani's turn")
    page.click("#tt-end-turn")
    expect(page.locator("#tt-turn")).to_have_text("Turn 2 of 30")
    ben = page.locator(".tt-card[data-player='p2']")
    # letters in the "+" box are said, not silently dropped; a gain of 3 (VP come in fives) is
    # asked about, and "no" sends nothing
    ben.locator("input.tt-gain-input").press_sequentially("3x")
    ben.locator("button", has_text="Add").click()
    expect(page.locator("#tt-error")).to_have_text("Type a whole number (digits only).")
    ben.locator("input.tt-gain-input").fill("3")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    ben.locator("button", has_text="Add").click()
    expect(page.locator("#tt-error")).to_be_hidden()
    assert asked and "5- and 15-point tokens" in asked[0]
    expect(ben.locator("[data-score='p2']")).to_contain_text("0")
    for expected in ("15", "30", "45"):
        ben.locator("[data-gain='15']").click()
        expect(ben.locator("[data-score='p2']")).to_contain_text(expected)
    _no_horizontal_overflow(page)
    ben.locator("[data-gain='15']").click()
    expect(page.locator("#tt-status")).to_have_text("Ben won")
    expect(page.locator("#tt-end-turn")).to_be_disabled()
    page.screenshot(path=str(artifacts / "night-amrtaka-phone.png"), full_page=True)
    page.click("#tt-undo")  # a wrong last gain: taken back, the game goes on
    expect(page.locator("#tt-status")).to_have_text("Still going")
    assert errors == []
    page.close()


def test_a_wrath_game_with_a_foil_on_a_tablet(server, browser, artifacts) -> None:
    page, errors = _open(browser, server, viewport=TABLET)
    page.click("#tt-picker [data-game='wrath_of_the_immortals']")
    _players(page, "Ani", "Ben")
    page.click("#tt-submit")
    expect(page.locator("body[data-tt-ready='yes']")).to_have_count(1)
    expect(page.locator("[data-score='p1']")).to_contain_text("16")
    page.fill("input[data-side='actor'][data-field='immortal']", "16")
    page.fill("input[data-side='foiler'][data-field='immortal']", "10")
    page.fill("input[data-side='actor'][data-field='roll']", "5")
    page.fill("input[data-side='foiler'][data-field='roll']", "11")
    page.click("#tt-foil-go")
    expect(page.locator("#tt-foil-result")).to_have_text(re.compile(r"^A tie \(21 against 21\)"))
    # "Reroll ties": the powers stay in the form, the rolls are entered anew
    expect(page.locator("input[data-side='actor'][data-field='immortal']")).to_have_value("16")
    expect(page.locator("input[data-side='actor'][data-field='roll']")).to_have_value("")
    page.fill("input[data-side='actor'][data-field='roll']", "5")
    page.fill("input[data-side='foiler'][data-field='roll']", "12")
    page.click("#tt-foil-go")
    expect(page.locator("#tt-foil-result")).to_have_text(re.compile(r"^Foiled: Ben 22 against Ani 21"))
    ben = page.locator(".tt-card[data-player='p2']")
    # "set 250": above 100, which wins at once — asked, and "no" changes nothing
    ben.locator("input.tt-gain-input").fill("250")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    ben.locator("button", has_text="Set").click()
    expect(page.locator("#tt-status")).to_have_text("Still going")
    assert asked and "above 100" in asked[0]
    ben.locator("input.tt-gain-input").fill("0")
    ben.locator("button", has_text="Set").click()
    expect(page.locator("#tt-status")).to_have_text("Ani won")
    page.screenshot(path=str(artifacts / "night-wrath-tablet.png"), full_page=True)
    assert errors == []
    page.close()


def test_the_night_page_in_german_and_the_games_in_the_statistics(server, browser) -> None:
    page, errors = _open(browser, server, lang="de")
    made = page.request.post(f"{server.url}/api/tabletop/games", data={
        "game": "generic", "name": "Azul", "players": ["Ani", "Ben"], "events": [{"type": "result", "winners": ["p2"]}]})
    assert made.ok, made.text()
    page.reload()
    expect(page.locator("body[data-night-ready='yes']")).to_have_count(1)
    expect(page.locator("h1")).to_have_text("Spieleabend")
    expect(page.locator("#tt-picker [data-game='generic']")).to_have_text("Ein anderes Spiel")
    page.click("#tt-picker [data-game='amrtaka']")
    expect(page.locator("#tt-submit")).to_have_text("Spiel beginnen")
    # Everything but names (players, game titles) is German
    from .test_i18n import english_words

    names = {"Ani", "Ben", "Cem", "Azul", "Wrath of the Immortals", "Immortal (Game-O-Gami)", "Amrtaka"}
    assert english_words(page.locator("body").inner_text(), names) == []
    page.goto(server.url + page.locator("#night-games li a.resume").first.get_attribute("href"))
    expect(page.locator("body[data-tt-ready='yes']")).to_have_count(1)
    assert english_words(page.locator("body").inner_text(), names) == []
    page.goto(f"{server.url}/stats?lang=en")
    expect(page.locator("body[data-tabletop-ready='yes']")).to_have_count(1)
    expect(page.locator("#tabletop-section")).to_contain_text("Azul")
    assert errors == []
    page.close()


def _two_tablets_and_a_new_game(browser, server):  # noqa: ANN001, ANN202
    """Two tablets on the evening page (the second opened first); the first logs an Amrtaka game
    of Cleo and Dan and is on its page. Returns both (page, errors) pairs and the game's id."""
    other = _open(browser, server, viewport=TABLET)
    page, _ = first = _open(browser, server, viewport=TABLET)
    page.click("#tt-picker [data-game='amrtaka']")
    _players(page, "Cleo", "Dan")
    page.click("#tt-submit")
    expect(page.locator("body[data-tt-ready='yes']")).to_have_count(1)
    return first, other, page.url.rsplit("/", 1)[-1]


def test_a_second_tablet_follows_the_tracker_and_the_evening_live(server, browser) -> None:
    """Two tablets: one logs a game and plays it; the other sees the new game on its evening
    page and every gain on the game's page as it happens (the live stream, no reload)."""
    (page, errors), (other, other_errors), game = _two_tablets_and_a_new_game(browser, server)
    expect(other.locator(f"#night-games li[data-tt-game='{game}']")).to_have_count(1)  # no reload
    other.goto(f"{server.url}/night/games/{game}")
    expect(other.locator("body[data-tt-ready='yes']")).to_have_count(1)
    page.locator(".tt-card[data-player='p2'] [data-gain='15']").click()
    expect(other.locator(".tt-card[data-player='p2'] [data-score='p2']")).to_contain_text("15")
    page.click("#tt-end-turn")
    expect(other.locator("#tt-turn")).to_have_text("Turn 2 of 30")
    assert errors == [] and other_errors == []
    page.close()
    other.close()


def test_a_late_answer_for_another_evening_never_paints_over_the_logged_game(server, browser) -> None:
    """Today's evening is asked for, its answer held back; meanwhile a game of another evening
    is logged and shown. When today's late answer comes, it is dropped: the page keeps the
    logged game under its own evening's title (it once showed "No games logged" there)."""
    page, _ = _open(browser, server)
    today = page.evaluate("document.querySelector('#nights [aria-pressed=true]').dataset.night")
    held = []
    page.route(re.compile(rf"/games\?night={today}$"), lambda route: held.append(route))
    page.click(f"#nights [data-night='{today}']")
    page.click("#tt-picker [data-game='generic']")
    page.fill("#tt-name", "Carcassonne")
    _players(page, "Ani", "Ben")
    for key, score in (("p1", 61), ("p2", 74)):
        page.fill(f"#tt-form input[data-field='score'][data-player='{key}']", str(score))
    page.fill("#tt-start", "2026-02-14T19:30")
    page.fill("#tt-end", "2026-02-14T20:15")
    page.click("#tt-submit")
    card = page.locator("#night-games li", has_text="Carcassonne")
    expect(card).to_contain_text("45 min")
    answers = int(page.evaluate("document.body.dataset.nightAnswers"))
    assert held, "today's load was not held back"
    for route in held:
        route.continue_()
    page.wait_for_function("n => Number(document.body.dataset.nightAnswers) >= n", arg=answers + len(held))
    expect(card).to_contain_text("45 min")
    expect(page.locator("#night-title")).to_contain_text("February 14")


def test_a_change_made_before_a_tablets_stream_opens_still_reaches_it(server, browser) -> None:
    """A tablet reads the game, then opens its live stream; a gain another tablet enters in
    between is sent before this one listens. Held here (its stream's request waits until the
    gain is stored): once the stream opens, the page reads the game again and shows it."""
    (page, errors), (other, other_errors), game = _two_tablets_and_a_new_game(browser, server)
    held = []
    other.route("**/api/events*", lambda route: held.append(route))
    with other.expect_request("**/api/events*"):
        other.goto(f"{server.url}/night/games/{game}")
    expect(other.locator("body[data-tt-ready='yes']")).to_have_count(1)
    page.locator(".tt-card[data-player='p2'] [data-gain='15']").click()
    expect(page.locator(".tt-card[data-player='p2'] [data-score='p2']")).to_contain_text("15")
    expect(other.locator(".tt-card[data-player='p2'] [data-score='p2']")).to_contain_text("0 /")
    for route in held:
        route.continue_()
    other.unroute("**/api/events*")
    expect(other.locator(".tt-card[data-player='p2'] [data-score='p2']")).to_contain_text("15")
    assert errors == [] and other_errors == []
    page.close()
    other.close()

