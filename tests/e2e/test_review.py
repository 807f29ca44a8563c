"""Issue 25 — the game review and the table display in real Chromium, at phone (390 px) and
tablet (1280 px) width, in English and German (screenshots: test-artifacts/e2e/review-*.png).

The review: the page steps with the keyboard and the buttons and shows the board as it was,
the battle with its photo, its camera counts and the correction with its device, the VP chart.
The display: a spectator (no PIN) sees the game follow a move made on another device without a
touch, the battle's photo once it is counted, and never the PIN.
"""

from __future__ import annotations


import pytest
from playwright.sync_api import Browser, Page, expect

from .helpers import Shots
from .test_layout import SIZES, open_page  # noqa: F401 — the fixture, shared
from .test_two_tablets import Api

pytestmark = pytest.mark.e2e

CASES = [(size, lang) for size in SIZES for lang in ("en", "de")]
STEPS = {"actions": lambda s: {"type": "pass", "player": s["turn"], "compensation": "gold"},
         "scoring": lambda s: {"type": "score_round"},
         "reinforcements": lambda s: {"type": "reinforce", "player": s["turn"], "placements": []},
         "planning": lambda s: {"type": "start_actions"}}


@pytest.fixture(scope="module")
def shots(artifacts) -> Shots:
    return Shots(artifacts, "review")


@pytest.fixture(scope="module")
def game(server, browser: Browser) -> int:
    """A game with a counted battle whose red count a tablet corrected, then two scored rounds."""
    context = browser.new_context()
    api = Api(context, server.url)
    g = api.new_game()
    state = api.to_battle(g)
    counts = dict(state["reading"]["counts"])
    api.do(g, type="correct_tray", color="red", count=counts.get("red", 0) + 1,
           device="Sofa tablet", player="blue")
    counts["red"] = counts.get("red", 0) + 1
    api.do(g, type="resolve_battle", counts=counts, accept_impossible=True)
    while (s := api.state(g))["round"] < 3 and s["phase"] != "over":
        api.do(g, **STEPS[s["phase"]](s))
    context.close()
    return g


def fits(page: Page) -> None:
    wide = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page scrolls sideways by {wide} px"


def version(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-version"))


@pytest.mark.parametrize(("size", "lang"), CASES)
def test_review_steps_through_the_game_and_shows_the_battle(open_page, game, size, lang, shots, server):
    page = open_page(f"/games/{game}/review?lang={lang}", size)
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    newest = int(page.locator("#step-range").get_attribute("max"))
    assert version(page) == newest
    expect(page.locator("#review-title")).to_contain_text("Rückblick" if lang == "de" else "Review")
    card = page.locator(".battle-card").first
    expect(card.locator(".photos img").first).to_be_visible()
    assert card.locator(".photos img").first.evaluate("i => i.complete && i.naturalWidth > 0")
    expect(card.locator(".corrections")).to_contain_text("Sofa tablet")
    expect(card.locator("[data-counts=camera]")).not_to_be_empty()
    expect(page.locator("#vp-table tbody tr")).to_have_count(3)
    assert page.locator("#vp-chart").evaluate("c => c.width > 0")
    fits(page)
    shots(page, f"{size}-{lang}-last-step")

    page.locator("body").press("ArrowLeft")  # keyboard on a laptop
    expect(page.locator("body")).to_have_attribute("data-version", str(newest - 1))
    page.locator("body").press("Home")
    expect(page.locator("body")).to_have_attribute("data-version", "1")
    expect(page.locator("#review-board .armies > [data-colour]")).to_have_count(0)  # nobody deployed yet
    page.locator("#step-next").click()
    expect(page.locator("body")).to_have_attribute("data-version", "2")
    red = page.locator("#review-board [data-region=treehome][data-realm=light] .armies > [data-colour=red]")
    expect(red).to_contain_text("6")  # red's 6 armies in the elves' start region, Treehome
    # The battle's "show the board" jumps to that step: the target region is marked.
    card.locator("button.link").click()
    seq = card.get_attribute("data-seq")
    expect(page.locator("body")).to_have_attribute("data-version", seq)
    expect(page.locator(".battle-card.current")).to_have_count(1)
    fits(page)
    shots(page, f"{size}-{lang}-battle-step")
    assert page.js_errors == []


@pytest.mark.parametrize(("size", "lang"), CASES)
def test_display_follows_the_game_live_without_a_touch_and_never_shows_the_pin(
        open_page, browser, server, size, lang, shots):
    tablet = browser.new_context()
    api = Api(tablet, server.url)
    g = api.new_game()
    api.to_actions(g)
    page = open_page(f"/games/{g}/display?lang={lang}", size, guest=True)  # a TV: no PIN
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    before = version(page)
    expect(page.locator("#display-turn")).to_contain_text("Am Zug" if lang == "de" else "Turn")
    api.to_attack(g)  # on another device
    expect(page.locator("#display-battle")).to_be_visible()
    answer = tablet.request.post(f"{server.url}/api/games/{g}/battle/count", data={})
    assert answer.ok, answer.text()
    expect(page.locator("#display-photo")).to_be_visible()
    expect(page.locator("#display-result li").first).to_be_visible()
    assert version(page) > before
    fits(page)
    shots(page, f"display-{size}-{lang}-battle")
    assert server.pin not in page.content()
    assert page.js_errors == []
    tablet.close()


def test_display_without_a_game_number_follows_the_game_being_played(open_page, browser, server, game):
    tablet = browser.new_context()
    api = Api(tablet, server.url)
    g = api.new_game()
    page = open_page("/display", "tablet", guest=True)
    expect(page.locator("body")).to_have_attribute("data-game", str(g))
    api.do(g, type="deploy_start", player="red", armies=6)
    expect(page.locator("body")).to_have_attribute("data-version", "2")
    assert page.js_errors == []
    tablet.close()


@pytest.fixture(scope="module")
def evening(server, browser: Browser, game) -> str:
    """The evening of ``game`` with an Azul game of the game-night log beside it."""
    context = browser.new_context()
    answer = context.request.post(f"{server.url}/api/tabletop/games", data={
        "game": "generic", "name": "Azul", "players": ["Ani", "Jürgen"],
        "events": [{"type": "result", "winners": ["p2"]}]})
    assert answer.status == 201, answer.text()
    nights = context.request.get(f"{server.url}/api/recap").json()
    context.close()
    return nights[0]["night"]


@pytest.mark.parametrize(("size", "lang"), CASES)
def test_recap_shows_the_evening_and_its_share_opens_offline(open_page, browser, server, evening, game,
                                                          size, lang, shots, tmp_path):
    page = open_page(f"/recap/{evening}?lang={lang}", size)
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator(f".recap-game[data-kind=immortals][data-id='{game}']")).to_have_count(1)
    expect(page.locator(".recap-game[data-kind=tabletop]")).to_contain_text("Jürgen")
    expect(page.locator("#recap-facts li").first).to_contain_text("Jürgen")  # most wins tonight
    expect(page.locator("#recap-title")).to_contain_text("Spieleabend" if lang == "de" else "Game night")
    fits(page)
    shots(page, f"recap-{size}-{lang}")
    with page.expect_download() as download:
        page.locator("#share-html").click()
    saved = tmp_path / "evening.html"
    download.value.save_as(saved)
    offline = browser.guest_context(viewport=SIZES[size], offline=True)  # a phone without internet
    phone = offline.new_page()
    phone.goto(saved.as_uri())
    expect(phone.locator("h1")).to_contain_text("Spieleabend" if lang == "de" else "Game night")
    phone.locator("details summary").first.click()
    image = phone.locator(".battle img").first
    expect(image).to_be_visible()
    assert image.evaluate("i => i.complete && i.naturalWidth > 0")
    assert phone.evaluate("document.scrollingElement.scrollWidth - window.innerWidth") <= 0
    shots(phone, f"share-{size}-{lang}")
    offline.close()
    card = page.request.get(f"{server.url}/api/recap/{evening}/card.png?lang={lang}")
    assert card.ok and card.headers["content-type"] == "image/png"
    (shots.folder / f"review-card-{lang}.png").write_bytes(card.body())
    assert page.js_errors == []


def test_review_of_a_running_game_takes_in_new_steps(open_page, browser, server):
    tablet = browser.new_context()
    api = Api(tablet, server.url)
    g = api.new_game()
    page = open_page(f"/games/{g}/review", "tablet", guest=True)  # watching needs no PIN
    expect(page.locator("body")).to_have_attribute("data-version", "1")
    api.do(g, type="deploy_start", player="red", armies=6)  # on another device
    expect(page.locator("#step-range")).to_have_attribute("max", "2")
    expect(page.locator("body")).to_have_attribute("data-version", "2")  # the reader was at the end
    assert page.js_errors == []
    tablet.close()
