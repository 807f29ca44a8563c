"""Issue 14 — a phone that fits: every page at phone (390×844) and tablet (1280×800) size in real
Chromium, with a screenshot each (test-artifacts/e2e/layout-*.png).

Fails when a page scrolls sideways (``document.scrollingElement.scrollWidth > innerWidth``),
when a drop-down sticks out of the action panel, when the phone must scroll to see whose turn
it is, and when the tray photo cannot be opened full screen with the counted cubes marked and
the places the camera doubted boxed.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from .helpers import Shots
from .test_two_tablets import Api

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "tablet": TABLET}


@pytest.fixture(scope="module")
def shots(artifacts) -> Shots:
    return Shots(artifacts, "layout")


@pytest.fixture(scope="module")
def games(server, browser: Browser) -> dict[str, int]:
    """One game in the actions phase, one with a counted battle (the tray photo), one over."""
    context = browser.new_context()
    api = Api(context, server.url)
    actions = api.new_game()
    api.to_actions(actions)
    battle = api.new_game()
    api.to_battle(battle)
    over = api.new_game()
    api.to_actions(over)
    api.to_end(over)
    context.close()
    return {"actions": actions, "battle": battle, "over": over}


@pytest.fixture
def open_page(server, browser: Browser) -> Iterator[Callable[..., Page]]:
    contexts = []

    def _open(path: str, size: str = "tablet", locale: str = "en-US", guest: bool = False) -> Page:
        """``guest``: a device that has not entered the PIN (a TV, a spectator)."""
        make = browser.guest_context if guest else browser.new_context
        context = make(viewport=SIZES[size], locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.js_errors = []
        page.on("pageerror", lambda e: page.js_errors.append(str(e)))
        page.goto(server.url + path)
        return page

    yield _open
    for context in contexts:
        context.close()


def test_the_full_screen_photo_boxes_each_doubtful_place_in_its_colour(open_page, games, server) -> None:
    """A reading whose camera doubted a place (here: red, none or one?) shows a dashed box there
    in red over the full-screen photo, beside the rings of the cubes it counted. The reading is
    the battle's own, stored again with one doubt, as the camera stores every reading."""
    page = open_page(f"/games/{games['battle']}")
    rid = page.locator("#reading-photo").get_attribute("data-reading")
    source = server.data_dir / "readings" / rid
    copy = f"{rid.rsplit('-', 1)[0]}-d0b7d0b7"
    shutil.copytree(source, server.data_dir / "readings" / copy)
    reading = json.loads((source / "reading.json").read_text(encoding="utf-8"))
    reading["id"] = copy
    reading["doubtful"] = [{"color": "red", "cubes": 0, "reason": "size", "alternative": "1",
                            "x": 130.0, "y": 110.0, "bbox": [100, 80, 60, 60]}]
    (server.data_dir / "readings" / copy / "reading.json").write_text(json.dumps(reading), encoding="utf-8")
    page.evaluate("""async (rid) => {
      const game = document.querySelector('script[type="module"][src*="game.js"]').src;
      (await import(new URL("./photo_view.js", game).href)).openPhoto(rid);
    }""", copy)
    viewer = page.locator("#photo-viewer")
    expect(viewer.locator("svg .doubt-mark")).to_have_count(1)
    box = viewer.locator("svg .doubt-mark")
    drawn = (box.get_attribute("x"), box.get_attribute("width"), box.get_attribute("data-colour"))
    assert drawn == ("100", "60", "red")
    expect(viewer.locator("svg .cube-mark")).to_have_count(len(reading.get("cubes") or []))
    assert page.js_errors == []


def overflow(page: Page) -> dict:
    """How far the page is wider than the window, and the widest elements that stick out."""
    return page.evaluate("""() => {
      const root = document.scrollingElement, w = window.innerWidth;
      const out = [];
      for (const e of document.querySelectorAll('body *')) {
        const r = e.getBoundingClientRect();
        if (r.width && r.right > w + 1 && getComputedStyle(e).position !== 'fixed') {
          out.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')} → ${Math.round(r.right)}`);
        }
      }
      return { scroll: root.scrollWidth, inner: w, culprits: out.slice(0, 8) };
    }""")


def screen(page: Page, artifacts, name: str) -> None:
    """What the window shows without scrolling (a full-page capture would hide that)."""
    page.screenshot(path=str(artifacts / f"layout-screen-{name}.png"))


def assert_fits(page: Page) -> None:
    o = overflow(page)
    assert o["scroll"] <= o["inner"], o


# (path, what to wait for) — {actions} / {battle} are filled with the games above.
PAGES = {
    "games": ("/", "#games-list li"),
    "new-game": ("/games/new", "#seats li"),
    "game-actions": ("/games/{actions}", "#panel .action-grid"),
    "game-battle": ("/games/{battle}", "#reading-photo"),
    "game-over": ("/games/{over}", "#winner"),
    "stats": ("/stats", "#tower-section-body :is(table, p, canvas)"),
    "tower": ("/tower", "#tower-status dt"),
    "camera-setup": ("/tower/camera", "#camera-history li"),
    "board": ("/setup/board", "#board-index li, #board-form *"),
    "night": ("/night", "#tt-picker *"),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_every_page_fits_the_width(open_page, games, shots, name: str, size: str) -> None:
    path, ready = PAGES[name]
    page = open_page(path.format(**games), size)
    expect(page.locator(ready).first).to_be_attached()
    shots(page, f"{name}-{size}")
    assert_fits(page)
    assert page.js_errors == [], page.js_errors


@pytest.mark.parametrize("size", SIZES)
def test_every_action_form_fits_its_panel(open_page, games, shots, size: str) -> None:
    page = open_page(f"/games/{games['actions']}", size)
    buttons = page.locator("#panel .action-grid button[data-action]:not([disabled])")
    expect(buttons.first).to_be_visible()
    actions = buttons.evaluate_all("bs => bs.map(b => b.dataset.action)")
    assert len(actions) >= 5
    for action in actions:
        page.locator(f'#panel .action-grid button[data-action="{action}"]').click()
        f = page.locator(f'#panel form[data-command="{action}"]')
        expect(f).to_be_visible()
        sticking = page.evaluate("""() => {
          const p = document.getElementById('panel').getBoundingClientRect();
          return [...document.querySelectorAll('#panel select, #panel input, #panel .btn')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.name || e.dataset.action || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
            .filter(([, r]) => r.right > p.right + 0.5 || r.left < p.left - 0.5)
            .map(([n, r]) => `${n}: ${Math.round(r.left)}–${Math.round(r.right)} of ${Math.round(p.left)}–${Math.round(p.right)}`);
        }""")
        assert sticking == [], (action, sticking)
        assert_fits(page)
        if action == "attack":
            shots(page, f"attack-form-{size}")
        back = page.locator("#panel [data-back], #panel button.back").first
        if back.count():
            back.click()
        else:
            page.reload()
        expect(buttons.first).to_be_visible()


def test_whose_turn_and_what_they_can_do_is_visible_on_a_phone_without_scrolling(open_page, games, artifacts) -> None:
    page = open_page(f"/games/{games['actions']}", "phone")
    first_action = page.locator("#panel .action-grid button[data-action]").first
    expect(first_action).to_be_visible()
    turn = page.locator("#panel .big-turn").first
    expect(turn).to_be_visible()
    for what in (turn, first_action):
        box = what.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], (what, box)
    assert page.evaluate("window.scrollY") == 0
    print(f"phone 390x844: whose turn ends at y={turn.bounding_box()['y'] + turn.bounding_box()['height']:.0f} px, "
          f"first action at y={first_action.bounding_box()['y']:.0f} px")
    screen(page, artifacts, "phone-game-first-screen")


@pytest.mark.parametrize("size", SIZES)
def test_the_tray_photo_opens_full_screen_with_the_cubes_marked(open_page, games, artifacts, size: str) -> None:
    page = open_page(f"/games/{games['battle']}", size)
    photo = page.locator("#reading-photo")
    expect(photo).to_be_visible()
    photo.click()
    viewer = page.locator("#photo-viewer")
    expect(viewer).to_be_visible()
    image = viewer.locator("img")
    expect(image).to_be_visible()
    box = image.bounding_box()
    window = SIZES[size]
    # Full screen: the photo fills the width or the height of the window (its own aspect kept).
    assert box["width"] >= 0.95 * window["width"] or box["height"] >= 0.85 * window["height"], box
    reading = page.evaluate(
        "async (id) => (await (await fetch(`/api/readings/${id}`)).json()).reading",
        photo.get_attribute("data-reading"))
    cubes = reading.get("cubes") or []
    assert cubes, "the simulated tower's reading has cube positions"
    expect(viewer.locator("svg .cube-mark")).to_have_count(len(cubes))
    colours = sorted(viewer.locator("svg .cube-mark").evaluate_all("ms => ms.map(m => m.dataset.colour)"))
    assert colours == sorted(c["color"] for c in cubes)
    doubts = [d for d in reading.get("doubtful") or [] if len(d.get("bbox") or []) == 4]
    expect(viewer.locator("svg .doubt-mark")).to_have_count(len(doubts))
    assert_fits(page)
    screen(page, artifacts, f"photo-full-screen-{size}")
    page.keyboard.press("Escape")
    expect(viewer).to_be_hidden()
