"""Issue 24 — what a new group tripped over at the table, each checked in real Chromium on the
real server: a tap on a field's name changes nothing and buttons keep their own names; no
"closed without sending" after one's own action; forms and results come into view; the round
scoring shows every column without sideways scrolling; one name rule; the new-game form says
which seat to fix and lets every colour be changed.

Positions are reached through the JSON API (tests/e2e/test_two_tablets.Api); what is tested is
what the page shows and does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from .helpers import expect_version, form, panel, submit, version
from .test_layout import open_page  # noqa: F401 (a fixture: a page per size and locale)
from .test_two_tablets import Api

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}

# Everything a tap could change inside `root`: pressed buttons, numbers, picks, typed text, rows.
SNAPSHOT = """(root) => JSON.stringify([...root.querySelectorAll(
  'button, output, select, input, textarea, .placement, .field-note, .error')].map((n) => [
  n.tagName, n.getAttribute('aria-pressed'), n.value ?? null, n.checked ?? null, n.disabled ?? null,
  n.hidden, n.tagName === 'OUTPUT' ? n.textContent : null]))"""


@pytest.fixture
def api(server, browser: Browser) -> Iterator[Api]:
    context = browser.new_context()
    yield Api(context, server.url)
    context.close()


def to_reinforcements(api: Api, game: int) -> None:
    """Deployment, starting resources and the seeding: the first player reinforces next."""
    api.to_actions(game)  # the engine's own way there; then back to the reinforcements by undo
    for _ in range(4):  # start_actions and the three reinforcements
        api.do(game, type="undo")
    assert api.state(game)["phase"] == "reinforcements"


def no_label_holds_a_button(page: Page) -> None:
    """A <label> names its first labelable descendant and a tap on it clicks that one: no label
    on the page may hold a button or more than one control."""
    crowded = page.evaluate("""() => [...document.querySelectorAll('label')].filter((l) =>
        l.querySelector('button') || l.querySelectorAll('input, select, textarea, output').length > 1)
        .map((l) => l.textContent.trim().slice(0, 40))""")
    assert crowded == []


def tap_every_field_name(page: Page, scope, game: bool = True) -> int:
    """Tap the name of every visible field in `scope`; nothing there (and, on a game page, no
    game state) may change. Returns how many names were tapped."""
    v = version(page) if game else None
    names = scope.locator(".field-label, label.field")
    tapped = 0
    for i in range(names.count()):
        name = names.nth(i)
        if not name.is_visible():
            continue
        before = scope.evaluate(SNAPSHOT)
        name.click(position={"x": 2, "y": 2})  # the name's first letters, never the control
        assert scope.evaluate(SNAPSHOT) == before, f"tapping “{name.inner_text()}” changed the form"
        tapped += 1
    if game:
        expect_version(page, v)
    return tapped


def test_a_tap_on_a_field_name_changes_nothing_in_any_action_form(server, api, open_page) -> None:
    game = api.new_game()
    api.to_actions(game)
    page = open_page(f"/games/{game}")
    expect(panel(page)).to_have_attribute("data-options", "ready")
    buttons = page.locator("#panel .action-grid button:not([disabled])")
    tapped = 0
    for i in range(buttons.count()):
        action = buttons.nth(i).get_attribute("data-action")
        buttons.nth(i).click()
        f = form(page, action)
        expect(f).to_be_visible()
        no_label_holds_a_button(page)
        tapped += tap_every_field_name(page, f)
    assert tapped >= 5  # attack (source, target, armies, card, …), pass (compensation), …
    # Buttons are read by their own words, not the field's: "1 gold", inside "Compensation".
    page.locator('#panel .action-grid button[data-action="pass"]').click()
    f = form(page, "pass")
    expect(f.get_by_role("group", name="Compensation", exact=True)).to_be_visible()
    expect(f.get_by_role("button", name="1 gold", exact=True)).to_be_visible()
    expect(f.get_by_role("button", name=re.compile("Compensation"))).to_have_count(0)


def test_a_tap_on_placements_adds_no_row_and_the_armies_name_cuts_nothing(server, api, open_page) -> None:
    game = api.new_game()
    to_reinforcements(api, game)
    page = open_page(f"/games/{game}")
    f = form(page, "reinforce")
    expect(f).to_be_visible()
    no_label_holds_a_button(page)
    f.get_by_text("Placements", exact=True).click()
    expect(f.locator(".placement")).to_have_count(0)
    assert tap_every_field_name(page, f) >= 1
    # the battle: an attack's armies keep their number when "Armies" is tapped
    game = api.new_game()
    api.to_actions(game)
    page = open_page(f"/games/{game}")
    page.locator('#panel .action-grid button[data-action="attack"]').click()
    f = form(page, "attack")
    armies = f.locator('[data-for="armies"]')
    armies.locator(".field-label").click()
    no_label_holds_a_button(page)
    expect(armies).to_be_visible()


def test_ones_own_pass_is_not_reported_as_a_form_closed_without_sending(server, api, open_page) -> None:
    game = api.new_game()
    api.to_actions(game)
    for locale, closed in (("en-US", "closed without sending"), ("de-DE", "ohne Senden")):
        page = open_page(f"/games/{game}", locale=locale)
        expect(panel(page)).to_have_attribute("data-options", "ready")
        first = panel(page).locator("[data-active]").get_attribute("data-active")
        page.locator('#panel .action-grid button[data-action="pass"]').click()
        submit(page, form(page, "pass"))
        expect(panel(page).locator("[data-active]")).not_to_have_attribute("data-active", first)
        expect(panel(page)).to_have_attribute("data-options", "ready")
        expect(page.locator("#form-closed")).to_have_count(0)
        expect(page.locator("#panel")).not_to_contain_text(closed)


def test_ones_own_pass_whose_answer_comes_after_the_live_news_is_not_a_form_closed(server, api, open_page) -> None:
    """The live stream may bring the state a command made before that command's own answer: the
    pass was sent, not abandoned. Held here on purpose: the answer is let through only after the
    page has drawn the next player's turn from the stream."""
    game = api.new_game()
    api.to_actions(game)
    page = open_page(f"/games/{game}")
    expect(panel(page)).to_have_attribute("data-options", "ready")
    first = panel(page).locator("[data-active]").get_attribute("data-active")
    held = []

    def hold(route) -> None:  # the server takes the pass now; the page hears back later
        held.append((route, route.fetch()))

    page.route(re.compile(r".*/api/games/\d+/commands$"), hold)
    page.locator('#panel .action-grid button[data-action="pass"]').click()
    submit(page, form(page, "pass"))
    expect(panel(page).locator("[data-active]")).not_to_have_attribute("data-active", first)
    expect(page.locator("#form-closed")).to_have_count(0)
    assert len(held) == 1 and held[0][1].status == 200
    route, answer = held[0]
    route.fulfill(response=answer)
    expect_version(page, api.state(game)["version"])
    expect(page.locator("#form-closed")).to_have_count(0)
    expect(page.locator("#panel .error:visible")).to_have_count(0)


def test_a_tapped_form_and_the_battle_reading_come_into_view(server, api, open_page) -> None:
    game = api.new_game()
    api.to_actions(game)
    phone = open_page(f"/games/{game}", "phone")
    expect(panel(phone)).to_have_attribute("data-options", "ready")
    phone.locator('#panel .action-grid button[data-action="attack"]').click()
    expect(form(phone, "attack")).to_be_in_viewport()
    # the battle: the tablet that counts the tray sees the reading and the result
    battle = api.new_game()
    api.to_actions(battle)
    api.to_attack(battle)
    tablet = open_page(f"/games/{battle}", "tablet")
    tablet.locator("#press-button").click()
    expect(tablet.locator("#battle-reading")).to_be_in_viewport()
    expect(tablet.locator("#apply-battle")).to_be_visible()


def table_fits(page: Page, table) -> None:
    """Every cell of the score table is inside its panel and the window: nothing to scroll."""
    sizes = table.evaluate("""(t) => {
        const box = t.closest('.panel') || t.parentElement;
        const p = box.getBoundingClientRect();
        const cells = [...t.querySelectorAll('td')].map((c) => c.getBoundingClientRect());
        return {panel: [p.left, p.right], window: window.innerWidth,
                right: Math.max(...cells.map((r) => r.right)), left: Math.min(...cells.map((r) => r.left)),
                scroll: [t.parentElement.scrollWidth, t.parentElement.clientWidth]}
    }""")
    assert sizes["left"] >= sizes["panel"][0] - 1 and sizes["right"] <= sizes["panel"][1] + 1, sizes
    assert sizes["right"] <= sizes["window"], sizes
    assert sizes["scroll"][0] <= sizes["scroll"][1], sizes


@pytest.mark.parametrize("size", ["phone", "tablet"])
def test_the_round_scoring_shows_every_column_without_sideways_scrolling(server, api, open_page, size) -> None:
    game = api.new_game()
    api.to_actions(game)
    while (s := api.state(game))["phase"] == "actions":
        api.do(game, type="pass", player=s["turn"], compensation="gold")
    api.do(game, type="score_round")
    page = open_page(f"/games/{game}", size)
    table = page.locator("#last-scoring table.score-table")
    expect(table).to_be_visible()
    table_fits(page, table)
    for col, words in (("total", "This round"), ("vp", "VP total")):
        cell = table.locator(f'tbody tr >> nth=0 >> td[data-col="{col}"]')
        expect(cell).to_be_visible()
        cell.scroll_into_view_if_needed()  # down to it: the table itself must not need scrolling
        expect(cell).to_be_in_viewport()
        expect(cell).to_have_attribute("data-label", words)  # named next to the number when narrow


def test_a_name_twice_in_other_capitals_is_refused_and_the_seat_is_marked(server, open_page) -> None:
    page = open_page("/games/new")
    expect(page.locator("#seats li")).to_have_count(3)
    page.locator("#start-game").click()
    expect(page.locator("#wizard-error")).to_have_text("Player 1 needs a name.")
    name0 = page.locator('#seats li[data-seat="0"] input[data-field="name"]')
    expect(name0).to_have_attribute("aria-invalid", "true")
    expect(name0).to_be_focused()
    for i, name in enumerate(("Ani", "Ben", "ani")):
        page.locator(f'#seats li[data-seat="{i}"] input[data-field="name"]').fill(name)
    page.locator("#start-game").click()
    expect(page.locator("#wizard-error")).to_contain_text("Players 1 and 3 are both called “ani”")
    expect(page.locator('#seats li[data-seat="2"] input[data-field="name"]')).to_have_attribute("aria-invalid", "true")
    expect(name0).not_to_have_attribute("aria-invalid", "true")
    expect(page).to_have_url(re.compile(r"/games/new$"))
    # the server has the same rule (a page that skipped the check, or another client)
    answer = page.request.post(page.url.replace("/games/new", "/api/games"), data={
        "players": [{"color": "red", "name": "Ani", "light_tribe": "elves", "dark_tribe": "demons"},
                    {"color": "blue", "name": "Ben", "light_tribe": "dwarves", "dark_tribe": "orcs"},
                    {"color": "yellow", "name": " ANI ", "light_tribe": "light-tribe-3", "dark_tribe": "trolls"}],
        "first_player": "red"})
    assert answer.status in (400, 422), answer.text()
    assert "ANI" in answer.json()["error"]["message"]


def test_the_new_game_buttons_wait_until_they_work(server, browser: Browser) -> None:
    """A tap on "5 players" before the page has loaded the board and the roster did nothing
    (a CI run under load saw 3 seats after it). The buttons come disabled and are enabled once
    they work; the board's answer is held here until the buttons have been checked."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    held = []
    page.route("**/api/board", lambda route: held.append(route))
    page.goto(server.url + "/games/new")
    expect(page.locator("#wizard")).to_have_attribute("aria-busy", "true")
    for n in (3, 4, 5):
        expect(page.locator(f'.player-count button[data-count="{n}"]')).to_be_disabled()
    expect(page.locator("#start-game")).to_be_disabled()
    assert len(held) == 1
    held[0].continue_()
    page.locator('.player-count button[data-count="5"]').click()  # waits until enabled
    expect(page.locator("#seats li")).to_have_count(5)
    expect(page.locator("#wizard")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#start-game")).to_be_enabled()
    context.close()


def test_a_tribe_twice_names_both_seats_and_every_colour_can_be_changed(server, open_page) -> None:
    page = open_page("/games/new")
    page.locator('.player-count button[data-count="5"]').click()
    expect(page.locator("#seats li")).to_have_count(5)
    seat = page.locator('#seats li[data-seat="4"]')
    before = [page.locator(f'#seats li[data-seat="{i}"] button[aria-pressed="true"]').get_attribute("data-colour")
              for i in range(5)]
    # every colour is taken with five players, yet each seat's colour can be changed: it swaps
    seat.locator(f'button[data-colour="{before[0]}"]').click()
    expect(seat.locator(f'button[data-colour="{before[0]}"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#seats li[data-seat="0"]').locator(f'button[data-colour="{before[4]}"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#seats button[data-colour][disabled]")).to_have_count(0)
    for i, name in enumerate(("Ani", "Ben", "Cid", "Dora", "Eva")):
        page.locator(f'#seats li[data-seat="{i}"] input[data-field="name"]').fill(name)
    light = page.locator('#seats li[data-seat="0"] select[data-field="light_tribe"]').input_value()
    seat.locator('select[data-field="light_tribe"]').select_option(light)
    page.locator("#start-game").click()
    expect(page.locator("#wizard-error")).to_contain_text(re.compile(r"Ani and Eva both chose .+; each tribe"))
    expect(seat.locator('select[data-field="light_tribe"]')).to_have_attribute("aria-invalid", "true")
    expect(seat.locator('select[data-field="light_tribe"]')).to_be_focused()
    no_label_holds_a_button(page)
    assert tap_every_field_name(page, page.locator("main"), game=False) >= 10


def test_another_tribes_own_action_is_not_offered(server, api, open_page) -> None:
    game = api.new_game()
    api.to_actions(game)
    page = open_page(f"/games/{game}")
    seen: dict[str, int] = {}
    for _ in range(3):  # every player's turn once: red plays the Demons
        turn = api.state(game)["turn"]
        expect(panel(page).locator("[data-active]")).to_have_attribute("data-active", turn)
        expect(panel(page)).to_have_attribute("data-options", "ready")
        seen[turn] = page.locator('#panel .action-grid button[data-action="demons_shrine"]').count()
        api.do(game, type="pass", player=turn, compensation="gold")
    assert seen == {"red": 1, "blue": 0, "purple": 0}


def test_board_set_up_names_every_wrong_field_at_once_and_keeps_what_was_typed(server, open_page) -> None:
    page = open_page("/setup/board#regions/12")
    card = page.locator("#board-form")
    expect(card.locator("h2")).to_have_text("Region 12 (no name yet)")
    gold, energy = card.locator('input[name="light.gold"]'), card.locator('input[name="dark.energy"]')
    gold.press_sequentially("zwei")
    energy.press_sequentially("x")
    expect(gold).to_have_value("zwei")  # no 3-character cut ("zwe")
    page.locator("#board-save").click()
    expect(page.locator("#board-error")).to_contain_text("“zwei” is not a whole number")
    expect(page.locator("#board-error")).to_contain_text("“x” is not a whole number")
    expect(gold).to_have_attribute("aria-invalid", "true")
    expect(energy).to_have_attribute("aria-invalid", "true")
    expect(card.locator(".field-note:visible")).to_have_count(2)
    expect(gold).to_be_focused()
    no_label_holds_a_button(page)


def _apply_elsewhere(base: str, game: int) -> None:
    """Another tablet applies the battle (plain HTTP with its own PIN session, so it can run
    while the browser holds a request back)."""
    import http.cookiejar
    import json
    import urllib.request

    from .conftest import E2E_PIN

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
        with opener.open(request, timeout=30) as answer:
            return json.loads(answer.read())

    call("/api/session", {"pin": E2E_PIN})
    state = call(f"/api/games/{game}")["state"]
    call(f"/api/games/{game}/commands", {"command": {"type": "resolve_battle", "counts": state["reading"]["counts"],
                                                     "accept_impossible": True},
                                         "expected_version": state["version"]})


def test_a_correction_that_arrives_after_another_tablet_applied_says_it_was_not_recorded(server, api, open_page) -> None:
    game = api.new_game()
    api.to_battle(game)
    page = open_page(f"/games/{game}")
    expect(page.locator("#count-editor")).to_be_visible()
    held = []

    def late(route) -> None:  # the tap's request leaves only after the other tablet applied
        if route.request.method == "POST" and b"correct_tray" in (route.request.post_data_buffer or b""):
            try:
                _apply_elsewhere(server.url, game)
                held.append("applied")
            except Exception as exc:  # noqa: BLE001 — said by the assertion below
                held.append(repr(exc))
        route.continue_()

    page.route(re.compile(r".*/api/games/\d+/commands$"), late)
    page.locator('#count-editor .count-row[data-colour="green"] button[data-step="plus"]').click()
    expect(page.locator("#battle")).to_have_count(0)
    assert held == ["applied"]
    expect(page.locator("#panel-notice")).to_contain_text("Your correction of Green to")
    expect(page.locator("#panel-notice")).to_contain_text("was not recorded")
    expect(page.locator("#battle")).to_have_count(0)


def test_a_rate_at_the_edge_of_the_fit_shows_its_range(server, open_page) -> None:
    """The tower figure "100 % (0 %–100 %)" after a few black cubes that all landed: the model now
    gives a boundary-aware range there (Wilson, tests/analysis), which the page shows; only a
    figure without any range says "too few throws"."""
    page = open_page("/tower")
    expect(page.locator("#tower-status *").first).to_be_attached()
    texts = page.evaluate("""async () => {
        const src = document.querySelector("script[src*='common.js']").src;
        const m = await import(new URL("charts.js", src).href);
        return [m.rateText({estimate: 1, low: 0.6457, high: 1}), m.rateText({estimate: 0.6, low: 0.45, high: 0.74}),
                m.rateText({estimate: 0.5, low: null, high: null}), m.rateText(null)];
    }""")
    assert texts == ["100 % (65 %–100 %)", "60 % (45 %–74 %)", "50 % (too few throws for a range)", "–"]


def test_an_empty_target_names_who_holds_its_card(server, api, open_page) -> None:
    game = api.new_game()
    api.to_actions(game)
    while (turn := api.state(game)["turn"]) != "red":
        api.do(game, type="pass", player=turn, compensation="gold")
    page = open_page(f"/games/{game}")
    page.locator('#panel .action-grid button[data-action="attack"]').click()
    f = form(page, "attack")
    source = f.locator('[data-field="source"] button[data-value="borderland|light"]')
    if source.count():
        source.click()
    else:
        f.locator('select[name="source"]').select_option("borderland|light")
    choices = f.locator('[data-field="target"] button, [data-field="target"] option')
    expect(choices.first).to_be_attached()
    empty = choices.filter(has_text=re.compile(r"· empty\b")).first
    target = (empty.get_attribute("data-value") or empty.get_attribute("value")).split("|")[0]
    # Mike (purple) holds the card of that empty region
    api.do(game, type="correct", reason="test: the card was handed over", cards=[{"region": target, "holder": "purple"}])
    label = f.locator(f'[data-field="target"] [data-value="{target}|light"], [data-field="target"] option[value="{target}|light"]')
    expect(label).to_contain_text("empty, its card held by Mike")


@pytest.mark.parametrize("lang", ["en-US", "de-DE"])
def test_the_phone_menu_shows_every_link_whole(server, open_page, lang: str) -> None:
    page = open_page("/", "phone", locale=lang)
    nav = page.locator("nav.topnav")
    expect(nav.locator("a")).to_have_count(5)
    assert nav.evaluate("n => n.scrollWidth <= n.clientWidth"), "the menu scrolls sideways"
    for link in nav.locator("a").all():
        box = link.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (link.inner_text(), box)


@pytest.mark.parametrize("size", ["phone", "tablet"])
def test_region_names_stay_in_their_tiles_and_the_counters_line_up(server, api, open_page, size: str) -> None:
    game = api.new_game()
    api.to_battle(game)
    page = open_page(f"/games/{game}", size)
    expect(page.locator("#count-editor .count-row")).not_to_have_count(0)
    spill = page.evaluate("""() => [...document.querySelectorAll('.region')].filter((r) =>
        r.scrollWidth > r.clientWidth + 1).map((r) => r.querySelector('.rname')?.textContent)""")
    assert spill == []
    lefts = page.evaluate("""() => [...document.querySelectorAll('#count-editor .count-row .stepper')]
        .map((s) => Math.round(s.getBoundingClientRect().left))""")
    assert len(set(lefts)) == 1, lefts
