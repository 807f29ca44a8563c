"""Issue 11 — two (or three) tablets on one game, each a separate browser context on the real
server: the reading is shared live, a stale apply is refused and changes nothing, a half-filled
form survives another tablet's command, simultaneous starting resources stay separate, a
dropped stream catches up, and pages that come and go do not use up the live streams.

Positions are reached through the JSON API (the other tablets' taps are covered by
test_game.py); what is tested here is what each tablet shows and refuses.
"""

from __future__ import annotations

import re
import socket
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.web.conftest import DRAFTS, PLAYERS, SEED_TRAY, START

from .helpers import expect_version, field, form, set_stepper, stepper_value

pytestmark = pytest.mark.e2e

TABLET = {"width": 1280, "height": 900}


class Api:
    """Commands through the API of one browser context (that tablet's cookies and network)."""

    def __init__(self, context: BrowserContext, base: str) -> None:
        self.request, self.base = context.request, base

    def new_game(self) -> int:
        answer = self.request.post(f"{self.base}/api/games", data={"players": PLAYERS, "first_player": "red"})
        assert answer.status == 201, answer.text()
        return answer.json()["id"]

    def state(self, game: int) -> dict[str, Any]:
        return self.request.get(f"{self.base}/api/games/{game}").json()["state"]

    def do(self, game: int, **command: Any) -> dict[str, Any]:
        body = {"command": command, "expected_version": self.state(game)["version"]}
        answer = self.request.post(f"{self.base}/api/games/{game}/commands", data=body)
        assert answer.ok, answer.text()
        return answer.json()["state"]

    def to_resources(self, game: int) -> None:
        for color in ("red", "blue", "purple"):
            self.do(game, type="deploy_start", player=color, armies=6,
                    **({"region": START[color]} if START[color] else {}))
        for _ in range(3):
            turn = self.state(game)["turn"]
            region, realm = DRAFTS[turn]
            self.do(game, type="deploy", player=turn, region=region, realm=realm, armies=5)
        self.do(game, type="finish_deployment")

    def to_actions(self, game: int) -> None:
        self.to_resources(game)
        for color in ("red", "blue", "purple"):
            self.do(game, type="starting_resources", player=color, gold=7, energy=9)
        tray = SEED_TRAY
        self.do(game, type="seed_tower", tray=tray,
                limbo_split={c: {"light": tray[c], "dark": 0} for c in ("red", "blue", "purple")})
        for _ in range(3):
            self.do(game, type="reinforce", player=self.state(game)["turn"], placements=[])
        self.do(game, type="start_actions")

    def to_attack(self, game: int) -> None:
        """From the actions phase on: the others pass until red attacks purple in White Falls
        (light); the battle then waits for its count."""
        while (turn := self.state(game)["turn"]) != "red":
            self.do(game, type="pass", player=turn, compensation="gold")
        self.do(game, type="attack", player="red", source="borderland", target="white-falls",
                realm="light", armies=3, card="target")

    def to_end(self, game: int) -> None:
        """From the actions phase on: everyone passes and every round is scored, to the end."""
        steps = {"actions": lambda s: {"type": "pass", "player": s["turn"], "compensation": "gold"},
                 "scoring": lambda s: {"type": "score_round"},
                 "reinforcements": lambda s: {"type": "reinforce", "player": s["turn"], "placements": []},
                 "planning": lambda s: {"type": "start_actions"}}
        while (s := self.state(game))["phase"] != "over":
            self.do(game, **steps[s["phase"]](s))

    def to_battle(self, game: int) -> dict[str, Any]:
        """Red attacks purple in White Falls (light) and the camera counts the tray."""
        self.to_actions(game)
        self.to_attack(game)
        answer = self.request.post(f"{self.base}/api/games/{game}/battle/count", data={})
        assert answer.ok, answer.text()
        return answer.json()["state"]


@pytest.fixture
def tablets(browser: Browser):
    """A factory of tablets (a browser context each); every page's script errors are checked."""
    opened: list[tuple[BrowserContext, Page]] = []

    def open_tablet(url: str | None = None) -> Page:
        context = browser.new_context(viewport=TABLET, locale="en-US")
        page = context.new_page()
        page.js_errors = []
        page.on("pageerror", lambda e: page.js_errors.append(str(e)))
        if url:
            page.goto(url)
        opened.append((context, page))
        return page

    yield open_tablet
    for context, page in opened:
        assert page.js_errors == [], page.js_errors
        context.close()


def live(page: Page) -> None:
    expect(page.locator("body")).to_have_attribute("data-live", "open")


def count_of(page: Page, colour: str) -> int:
    return stepper_value(page.locator(f'#count-editor .count-row[data-colour="{colour}"]'))


def test_a_correction_on_one_tablet_appears_on_the_others_and_a_stale_apply_is_refused(server, tablets):
    a = tablets()
    api = Api(a.context, server.url)
    game = api.new_game()
    state = api.to_battle(game)
    url = f"{server.url}/games/{game}"
    a.goto(url)
    b = tablets(url)
    # C's live stream hangs (a phone whose Wi-Fi lost its updates but not its requests): C
    # still shows the reading as it was when it loaded.
    c = tablets()
    c.context.route("**/api/events*", lambda route: None)
    c.goto(url)
    for page in (a, b, c):
        expect(page.locator("#reading-photo")).to_be_visible()
        expect_version(page, state["version"])
    live(a)
    live(b)
    red = state["reading"]["counts"].get("red", 0)
    assert count_of(c, "red") == red

    # A: red +2.
    row = a.locator('#count-editor .count-row[data-colour="red"]')
    set_stepper(row, red + 2)
    expect(a.locator("body")).to_have_attribute("data-pending", "0")
    corrected = state["version"] + 2
    expect_version(a, corrected)
    # B follows live: the counter, the list of changes and the note say who changed what.
    expect_version(b, corrected)
    expect(b.locator('#count-editor .count-row[data-colour="red"] output.val')).to_have_text(str(red + 2))
    expect(b.locator("#reading-changes li").first).to_contain_text(f"Red: {red + 1} → {red + 2} (another tablet)")
    expect(b.locator("#news")).to_have_text(f"Red was corrected to {red + 2}.")
    expect(b.locator('#count-editor [data-camera="red"]')).to_have_text(f"camera: {red}")

    # C never heard of it and applies the old reading: refused, nothing applied, and C is told
    # what changed; its screen now shows the corrected reading.
    assert count_of(c, "red") == red
    accept = c.locator("#accept-impossible")
    if c.locator("#impossible").is_visible():
        accept.check()
    c.locator("#apply-battle").click()
    expect(c.locator("#panel-notice")).to_have_text(
        f"Red was corrected to {red + 2} on another tablet — check and apply again.")
    expect(c.locator('#count-editor .count-row[data-colour="red"] output.val')).to_have_text(str(red + 2))
    after = api.state(game)
    assert after["version"] == corrected and after["phase"] == "battle"
    assert after["reading"]["counts"].get("red", 0) == red + 2

    # C checks and applies again: now it is the corrected reading that decides the battle.
    if c.locator("#impossible").is_visible():
        c.locator("#accept-impossible").check()
    c.locator("#apply-battle").click()
    expect_version(c, corrected + 1)
    expect(c.locator("#panel-notice")).to_be_hidden()
    for page in (a, b):
        expect(page.locator("#battle")).to_have_count(0)
    export = a.context.request.get(f"{server.url}/api/games/{game}/export.json").json()
    resolve = export["events"][-1]["payload"]
    assert resolve["type"] == "resolve_battle" and resolve["reading"].get("red", 0) == red + 2
    assert resolve["camera_counts"] == state["reading"]["camera"]


def test_the_info_line_says_in_a_sentence_who_did_what_where(server, tablets):
    """Issue 24: the line said "dirk: attack" and "resolve battle"; German says it in German."""
    a = tablets()
    api = Api(a.context, server.url)
    game = api.new_game()
    api.to_actions(game)
    a.goto(f"{server.url}/games/{game}")
    b = tablets(f"{server.url}/games/{game}?lang=de")
    for page in (a, b):
        live(page)
    api.to_attack(game)
    expect(a.locator("#news")).to_have_text("Dirk attacks White Falls (light) with 3 armies.")
    expect(b.locator("#news")).to_have_text("Dirk greift White Falls (Lichtwelt) mit 3 Armeen an.")
    api.do(game, type="resolve_battle", counts={"red": 3}, accept_impossible=True)
    expect(a.locator("#news")).to_have_text("The battle for White Falls (light) was resolved: Dirk wins.")
    expect(b.locator("#news")).to_have_text("Der Kampf um White Falls (Lichtwelt) wurde ausgewertet: Dirk gewinnt.")


def test_a_half_filled_form_survives_a_command_from_another_tablet(server, tablets):
    a = tablets()
    b = tablets()
    api_b = Api(b.context, server.url)
    game = api_b.new_game()
    api_b.to_actions(game)
    while api_b.state(game)["turn"] != "red":
        api_b.do(game, type="pass", player=api_b.state(game)["turn"], compensation="gold")
    a.goto(f"{server.url}/games/{game}")
    live(a)
    a.locator('#panel .action-grid button[data-action="attack"]').click()
    f = form(a, "attack")
    f.locator('[data-field="source"] button[data-value="borderland|light"]').click()
    f.locator('select[name="target"]').select_option("white-falls|light")
    set_stepper(field(f, "armies"), 2)
    f.locator('[data-field="card"] button[data-value="target"]').click()
    v = int(a.locator("#state-version").inner_text())

    # B corrects Ani's gold: A's panel is redrawn for the new state, the form is kept.
    api_b.do(game, type="correct", reason="miscounted", resources=[{"player": "blue", "gold": 12}])
    expect_version(a, v + 1)
    expect(a.locator('.player[data-player="blue"] [data-num="gold"] b')).to_have_text("12")
    f = form(a, "attack")
    expect(f.locator('[data-field="source"] button[data-value="borderland|light"]')).to_have_attribute("aria-pressed", "true")
    expect(f.locator('select[name="target"]')).to_have_value("white-falls|light")
    expect(f.locator('[data-field="card"] button[data-value="target"]')).to_have_attribute("aria-pressed", "true")
    assert stepper_value(field(f, "armies")) == 2
    expect(f.locator(".field-note:visible")).to_have_count(0)

    # B's next correction takes red's armies out of Borderland: the kept source is invalid
    # now — the form drops it and says which field and why (the target, offered for that
    # source, goes with it); the card stays.
    api_b.do(game, type="correct", reason="table check",
             armies=[{"region": "borderland", "realm": "light", "color": "red", "count": 0}])
    expect_version(a, v + 2)
    f = form(a, "attack")
    expect(f.locator('[data-note="source"]')).to_contain_text("your choice was dropped")
    expect(f.locator('[data-note="source"]')).to_contain_text("no armies in Borderland")
    expect(f.locator('[data-field="source"] button[data-value="borderland|light"]')).to_have_count(0)
    expect(f.locator('[data-field="source"] button[aria-pressed="true"]')).to_have_count(0)
    expect(f.locator('[data-field="card"] button[data-value="target"]')).to_have_attribute("aria-pressed", "true")


def test_simultaneous_starting_resources_keep_each_players_numbers(server, tablets):
    a = tablets()
    b = tablets()
    api = Api(a.context, server.url)
    game = api.new_game()
    api.to_resources(game)
    url = f"{server.url}/games/{game}"
    a.goto(url)
    b.goto(url)
    for page in (a, b):
        expect(page.locator("#phase-name")).to_have_text("Starting resources")
        live(page)
    red_form = a.locator('#panel section[data-player="red"] form[data-command="starting_resources"]')
    set_stepper(field(red_form, "gold"), 7)
    set_stepper(field(red_form, "energy"), 9)  # Dirk has typed his numbers, not sent yet
    blue_form = b.locator('#panel section[data-player="blue"] form[data-command="starting_resources"]')
    set_stepper(field(blue_form, "gold"), 7)
    set_stepper(field(blue_form, "energy"), 9)
    v = int(a.locator("#state-version").inner_text())
    blue_form.locator('button[type="submit"]').click()  # Ani sends hers first
    expect_version(a, v + 1)
    expect(a.locator('#panel section[data-player="blue"]')).to_contain_text("✓ done")
    red_form = a.locator('#panel section[data-player="red"] form[data-command="starting_resources"]')
    assert stepper_value(field(red_form, "gold")) == 7 and stepper_value(field(red_form, "energy")) == 9
    # Dirk sends his, decided before Ani's arrived: accepted, each keeps their own numbers.
    red_form.locator('button[type="submit"]').click()
    expect_version(a, v + 2)
    players = {p["color"]: p for p in api.state(game)["players"]}
    assert (players["red"]["gold"], players["red"]["energy"]) == (7, 9)
    assert (players["blue"]["gold"], players["blue"]["energy"]) == (7, 9)
    assert (players["purple"]["gold"], players["purple"]["energy"]) == (0, 0)


def test_ending_the_draft_asks_first_and_can_be_undone(server, tablets):
    a = tablets()
    api = Api(a.context, server.url)
    game = api.new_game()
    for color in ("red", "blue", "purple"):
        api.do(game, type="deploy_start", player=color, armies=6, **({"region": START[color]} if START[color] else {}))
    for _ in range(3):
        turn = api.state(game)["turn"]
        region, realm = DRAFTS[turn]
        api.do(game, type="deploy", player=turn, region=region, realm=realm, armies=5)
    a.goto(f"{server.url}/games/{game}")
    v = api.state(game)["version"]
    expect_version(a, v)  # the page has the game before its button is pressed
    a.locator('#panel button[data-command="finish_deployment"]').click()
    box = a.locator('#panel [data-confirm="finish_deployment"]')
    expect(box).to_contain_text("End the draft for everyone after draft round 1?")
    expect(box).to_contain_text("Dirk, Ani and Mike still have armies to deploy (Dirk 17, Ani 17, Mike 17)")
    box.locator('button[data-confirm-no="finish_deployment"]').click()
    expect(box).to_be_hidden()
    expect_version(a, v)  # asking and cancelling changed nothing
    a.locator('#panel button[data-command="finish_deployment"]').click()
    box.locator('button[data-confirm-yes="finish_deployment"]').click()
    expect(a.locator("#phase-name")).to_have_text("Starting resources")
    a.locator("#undo-btn").click()
    expect(a.locator("#undo-result")).to_contain_text("Undone")
    expect(a.locator('#panel button[data-command="finish_deployment"]')).to_be_visible()


def test_a_dropped_stream_catches_up_before_the_tablet_can_act(server, tablets):
    a = tablets()
    b = tablets()
    api_b = Api(b.context, server.url)
    game = api_b.new_game()
    api_b.to_resources(game)
    a.goto(f"{server.url}/games/{game}")
    live(a)
    v = int(a.locator("#state-version").inner_text())
    # A's Wi-Fi drops: its stream is cut and cannot come back for now.
    a.context.route("**/api/events*", lambda route: route.abort())
    tab = a.evaluate("sessionStorage.getItem('companion-tab')")
    assert tab
    # The server ends A's stream when the same tab id connects again (here: the test, as if
    # the tablet had come back for a moment and gone again).
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(f"GET /api/events?client={tab} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
        assert sock.recv(64).startswith(b"HTTP/1.1 200")
    expect(a.locator("body")).to_have_attribute("data-live", "lost")
    expect(a.locator("#catching-up")).to_be_visible()
    expect(a.locator("#panel")).to_have_attribute("aria-busy", "true")
    # Meanwhile B enters two players' starting resources.
    api_b.do(game, type="starting_resources", player="blue", gold=7, energy=9)
    api_b.do(game, type="starting_resources", player="purple", gold=7, energy=9)
    expect_version(a, v)  # A has not heard of it
    assert a.evaluate("document.getElementById('panel').inert") is True  # and cannot act on it
    # The network is back: A resumes from its last event id, catches up, then may act.
    a.context.unroute("**/api/events*")
    live(a)
    expect_version(a, v + 2)
    expect(a.locator("#catching-up")).to_be_hidden()
    assert a.evaluate("document.getElementById('panel').inert") is False
    expect(a.locator("#news")).to_have_text("Ani starts with 7 gold and 9 energy; Mike starts with 7 gold and 9 energy.")
    expect(a.locator('#panel section[data-player="purple"]')).to_contain_text("✓ done")


def test_pages_that_come_and_go_leave_every_held_stream_every_event(server, tablets):
    """The loop of the issue in a real browser: one tablet opens and closes 200 live streams
    (as page changes and flapping Wi-Fi do) while another plays; no stream is refused and the
    tablet that stays gets every state event."""
    held = tablets()
    churn = tablets()
    api = Api(churn.context, server.url)
    game = api.new_game()
    held.goto(f"{server.url}/games/{game}")
    live(held)
    held.evaluate("""game => {
        window.seen = [];
        const s = new EventSource(`/api/events?game=${game}`);
        s.addEventListener('state', (e) => window.seen.push(Number(e.lastEventId)));
    }""", game)
    held.wait_for_function("() => window.seen.length > 0")  # a function: the CSP forbids eval
    churn.goto(f"{server.url}/stats")
    churn.evaluate("""game => {
        window.loop = { opened: 0, failed: 0, done: false };
        const once = () => new Promise((resolve) => {
            const s = new EventSource(`/api/events?game=${game}`);
            s.onopen = () => { window.loop.opened += 1; s.close(); resolve(); };
            s.onerror = () => { window.loop.failed += 1; s.close(); resolve(); };
        });
        (async () => { for (let i = 0; i < 200; i++) await once(); window.loop.done = true; })();
    }""", game)
    api.to_resources(game)  # ten commands while the loop runs
    churn.wait_for_function("() => window.loop.done", timeout=60_000)
    loop = churn.evaluate("window.loop")
    assert loop == {"opened": 200, "failed": 0, "done": True}
    final = api.state(game)["version"]
    held.wait_for_function(f"() => window.seen.includes({final})")
    seen = held.evaluate("window.seen")
    assert seen == list(range(seen[0], final + 1)), seen
    expect_version(held, final)
