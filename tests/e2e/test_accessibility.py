"""Issue 24 — an accessibility audit of every page with axe-core (the engine ships inside the
test-only package axe-playwright-python; nothing is fetched at run time): no serious or
critical violation at 390 and 1280 px, in English and German, so what a screen reader says for
a field is the field's name. The game page is audited in each kind of screen (an action form
open, a battle reading, the new-game form with an error showing, the end screen)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from .test_layout import games  # noqa: F401 (a fixture: games in each screen)

pytestmark = pytest.mark.e2e

SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1280, "height": 800}}
SERIOUS = ("serious", "critical")
AXE = Axe()


@pytest.fixture(scope="module")
def places(server, browser: Browser, games: dict[str, int]) -> dict[str, int]:
    """The layout tests' games (actions, a counted battle, one over) and a game-night game of
    each kind of page."""
    context = browser.new_context()
    live = context.request.post(f"{server.url}/api/tabletop/games", data={"game": "amrtaka", "players": ["Ani", "Ben"]})
    assert live.ok, live.text()
    done = context.request.post(f"{server.url}/api/tabletop/games", data={
        "game": "generic", "name": "Azul", "players": ["Ani", "Ben"], "events": [{"type": "result", "winners": ["p2"]}]})
    assert done.ok, done.text()
    made = {**games, "night_live": live.json()["id"], "night_done": done.json()["id"]}
    context.close()
    return made


def _action_form(page: Page) -> None:
    expect(page.locator("#panel")).to_have_attribute("data-options", "ready")
    page.locator('#panel .action-grid button[data-action="attack"]').click()
    expect(page.locator('#panel form[data-command="attack"]')).to_be_visible()


def _wizard_error(page: Page) -> None:
    expect(page.locator("#seats li")).to_have_count(3)
    page.locator("#start-game").click()
    expect(page.locator("#wizard-error")).to_be_visible()


# (name, path, what shows the page is drawn, what to do first)
PAGES: list[tuple[str, Callable[[dict], str], str, Callable[[Page], None] | None]] = [
    ("games", lambda p: "/", "#games-list li, #games-empty:not([hidden])", None),
    ("new-game", lambda p: "/games/new", "#seats li", _wizard_error),
    ("game-actions", lambda p: f"/games/{p['actions']}", "#panel .action-grid", _action_form),
    ("game-battle", lambda p: f"/games/{p['battle']}", "#battle-reading", None),
    ("game-over", lambda p: f"/games/{p['over']}", "#end-screen", None),
    ("board-setup", lambda p: "/setup/board", "#board-form *", None),
    ("stats", lambda p: "/stats", "body[data-stats-ready='yes']", None),
    ("night", lambda p: "/night", "body[data-night-ready='yes']", None),
    ("night-live", lambda p: f"/night/games/{p['night_live']}", "body[data-tt-ready='yes']", None),
    ("night-done", lambda p: f"/night/games/{p['night_done']}", "body[data-tt-ready='yes']", None),
    ("tower", lambda p: "/tower", "#tower-status *", None),
    ("camera", lambda p: "/tower/camera", "#camera-image[data-live='1']", None),
    ("review", lambda p: f"/games/{p['battle']}/review", "body[data-ready='yes']", None),
    ("display", lambda p: f"/games/{p['actions']}/display", "body[data-ready='yes']", None),
    ("recap", lambda p: "/recap", "body[data-ready='yes']", None),
]


@pytest.fixture
def open_page(server, browser: Browser) -> Iterator[Callable[..., Page]]:
    contexts = []

    def _open(path: str, size: str, lang: str) -> Page:
        context = browser.new_context(viewport=SIZES[size], locale="de-DE" if lang == "de" else "en-US")
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{server.url}{path}{'&' if '?' in path else '?'}lang={lang}")
        return page

    yield _open
    for context in contexts:
        context.close()


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings, one line each: rule, impact, where, why."""
    results = AXE.run(page).response
    out = []
    for v in results["violations"]:
        if v["impact"] not in SERIOUS:
            continue
        for node in v["nodes"]:
            out.append(f"{v['id']} ({v['impact']}) at {' '.join(node['target'])}: {node['failureSummary'][:200]}")
    return out


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", ["phone", "tablet"])
def test_no_serious_accessibility_violation_on_any_page(places, open_page, size: str, lang: str) -> None:
    found: dict[str, list[str]] = {}
    for name, path, ready, before in PAGES:
        page = open_page(path(places), size, lang)
        expect(page.locator(ready).first).to_be_attached()
        if before:
            before(page)
        problems = serious_violations(page)
        if problems:
            found[name] = problems
        page.context.close()
    assert found == {}, "\n".join(f"{name}: {line}" for name, lines in found.items() for line in lines)
