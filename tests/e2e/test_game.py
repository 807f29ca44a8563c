"""A scripted 3-player game of Immortals played through the tablet UI only, in real Chromium.

Ann (red), Ben (blue) and Cid (yellow) set the game up, seed the tower with the camera,
reinforce, act, fight six battles through the simulated tower (an empty region with each
stance, an occupied region won, lost and tied — the confirmed counts steered with the +/−
correction, exactly as players correct a reading), undo a step, score seven rounds and see
the winner. A second device follows every step live without reloading, and a German tablet
sees the same game in German. Screenshots of each screen go to test-artifacts/e2e/.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import Browser, Page, expect

from .helpers import (Shots, choose, confirm, expect_version, field, form, panel, set_counts, set_stepper,
                      stepper_value, submit, submit_rejected, version)

pytestmark = pytest.mark.e2e

PLAYERS = [("Ann", "red", "elves", "demons"), ("Ben", "blue", "dwarves", "orcs"),
           ("Cid", "yellow", "light-tribe-3", "trolls")]
TABLET = {"width": 1280, "height": 900}


def new_page(browser: Browser, locale: str = "en-US", **options) -> Page:
    context = browser.new_context(viewport=TABLET, locale=locale, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors  # checked at the end: no script may have crashed
    return page


def create_game(page: Page, base: str, shots: Shots) -> int:
    page.goto(base + "/")
    expect(page.locator("#sim-banner")).to_be_visible()
    expect(page.locator("#sim-banner")).to_have_text("Simulated tower — no camera connected")
    shots(page, "games-list")
    page.locator("#new-game").click()
    expect(page.locator("#seats li")).to_have_count(3)
    # Inline validation before anything is sent: names and tribes are missing.
    page.locator("#start-game").click()
    expect(page.locator("#wizard-error")).to_have_text("Player 1 needs a name.")
    for i, (name, colour, light, dark) in enumerate(PLAYERS):
        seat = page.locator(f'#seats li[data-seat="{i}"]')
        seat.locator('input[data-field="name"]').fill(name)
        expect(seat.locator(f'button[data-colour="{colour}"]')).to_have_attribute("aria-pressed", "true")
        seat.locator('select[data-field="light_tribe"]').select_option(light)
        seat.locator('select[data-field="dark_tribe"]').select_option(dark)
    page.locator("#first-player").select_option("red")
    expect(page.locator("#rounds")).to_have_value("7")
    # The server's rule check shows inline too: 3 players play at least 7 rounds.
    page.locator("#rounds").fill("2")
    page.locator("#start-game").click()
    expect(page.locator("#wizard-error")).to_contain_text("7 rounds")
    page.locator("#rounds").fill("7")
    shots(page, "new-game-wizard")
    page.locator("#start-game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    expect(page.locator("#phase-name")).to_have_text("Starting round: deploy your army groups")
    return int(page.url.rsplit("/", 1)[1])


def deploy(page: Page, shots: Shots) -> None:
    p = panel(page)
    expect(p.locator("[data-active]")).to_have_attribute("data-active", "red")
    shots(page, "deploy-start")
    f = form(page, "deploy_start")
    expect(field(f, "region")).to_have_count(0)  # the Elves' start region is known: Treehome
    submit(page, f)
    for colour, region in (("blue", "mountainhome"), ("yellow", "shore-lake")):
        expect(p.locator("[data-active]")).to_have_attribute("data-active", colour)
        f = form(page, "deploy_start")
        f.locator('select[name="region"]').select_option(region)
        submit(page, f)
    expect(page.locator('#realm-light [data-region="treehome"] [data-colour="red"]')).to_contain_text("3")
    expect(page.locator('#realm-dark [data-region="treehome"] [data-colour="red"]')).to_contain_text("2")
    # Draft round 1: one group each. Only unoccupied regions are offered (not Blue's Mountainhome).
    f = form(page, "deploy")
    expect(f.locator('select[name="where"] option[value="white-falls|dark"]')).to_have_count(1)
    expect(f.locator('select[name="where"] option[value="mountainhome|light"]')).to_have_count(0)
    shots(page, "deploy-draft")
    for region, realm in (("white-falls", "dark"), ("heartwood", "light"), ("forge-fire", "dark")):
        f = form(page, "deploy")
        pick_node(f, "where", f"{region}|{realm}")
        submit(page, f)
    finish = page.locator('#panel button[data-command="finish_deployment"]')
    expect(finish).to_be_visible()
    confirm(page, "finish_deployment", "End the draft for everyone after draft round 1?")


def starting_resources(page: Page, shots: Shots) -> None:
    expect(page.locator("#phase-name")).to_have_text("Starting resources")
    shots(page, "starting-resources")
    for colour, gold, energy in (("red", 7, 9), ("blue", 6, 8), ("yellow", 5, 10)):
        section = page.locator(f'#panel section[data-player="{colour}"]')
        f = section.locator('form[data-command="starting_resources"]')
        set_stepper(field(f, "gold"), gold)
        set_stepper(field(f, "energy"), energy)
        submit(page, f)
    expect(page.locator('.player[data-player="yellow"] [data-num="energy"] b')).to_have_text("10")


def seed(page: Page, shots: Shots) -> None:
    expect(page.locator("#phase-name")).to_have_text("Seeding the tower")
    expect(page.locator("#seeding")).to_contain_text("Throw 7 cubes of each player (21 for 3 players) and 10 green")
    page.locator("#press-button").click()  # the simulated tower throws, settles and is counted
    expect(page.locator("#reading-photo")).to_be_visible(timeout=20_000)
    rows = page.locator("#limbo-split .count-row")
    expect(rows).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]  # no sideways scrolling
    shots(page, "seeding-reading")
    v = version(page)
    page.locator("#seed-apply").click()
    accept = page.locator("#seed-accept")
    # A camera reading the accounting doubts must be accepted explicitly.
    page.wait_for_function(
        "v => document.body.dataset.version != v || !document.querySelector('#seed-accept')?.closest('label')?.hidden",
        arg=str(v))
    if version(page) == v:
        accept.check()
        page.locator("#seed-apply").click()
    expect_version(page, v + 1)
    expect(page.locator("#phase-name")).to_have_text("Reinforcements")


def reinforce_all(page: Page, placements: dict[str, tuple[str, str, int]] | None = None) -> None:
    """Every player reinforces in turn; ``placements`` gives one (region, realm, armies) each."""
    placements = placements or {}
    for _ in range(3):
        colour = panel(page).locator("[data-active]").get_attribute("data-active")
        f = form(page, "reinforce")
        if colour in placements:
            region, realm, armies = placements[colour]
            f.locator('[data-add="placements"]').click()
            row = f.locator(".placement").last
            row.locator("select").select_option(region)
            row.locator(f'button[data-value="{realm}"]').click()
            set_stepper(row, armies)
        submit(page, f)
    expect(page.locator("#phase-name")).to_have_text("Planning")


def start_actions(page: Page) -> None:
    confirm(page, "start_actions", "Has everyone planned?")
    expect(page.locator("#phase-name")).to_have_text("Actions")


def open_action(page: Page, action: str):
    page.locator(f'#panel .action-grid button[data-action="{action}"]').click()
    return form(page, action)


def pick_node(f, name: str, value: str) -> None:
    """A region picker offers only legal regions ("region|realm"): buttons, or a drop-down."""
    button = f.locator(f'[data-field="{name}"] button[data-value="{value}"]')
    expect(f.locator(f'[data-field="{name}"] button[data-value="{value}"], select[name="{name}"]').first).to_be_visible()
    if button.count():
        if button.get_attribute("aria-pressed") != "true":  # a single choice is taken already
            button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
    else:
        f.locator(f'select[name="{name}"]').select_option(value)


def attack(page: Page, source: str, target: str, realm: str, armies: int, card: str) -> None:
    f = open_action(page, "attack")
    pick_node(f, "source", f"{source}|{realm}")
    pick_node(f, "target", f"{target}|{realm}")
    set_stepper(field(f, "armies"), armies)
    choose(f, "card", card)
    submit(page, f)
    expect(page.locator("#battle")).to_be_visible()


def battle(page: Page, shots: Shots, name: str, counts: dict[str, int], headline: str,
           press: str = "screen", other: Page | None = None, more: tuple[str, ...] = (),
           probe_impossible: str | None = None) -> None:
    """Count the tray (on-screen button, or the tower's button pressed on another device),
    correct the reading to ``counts``, check the result in words, apply."""
    expect(page.locator("#tray-instructions")).to_contain_text("Take every cube out of the tray")
    expect(page.locator("#tray-instructions")).to_contain_text("Throw all of these into the tower")
    if press == "screen":
        page.locator("#press-button").click()
        expect(page.locator("#reading-photo")).to_be_visible(timeout=20_000)
    else:  # the physical button: here the tower page's on-screen twin on the second device
        pressed = time.monotonic()
        other.locator("#press-count").click()
        expect(page.locator("#reading-photo")).to_be_visible(timeout=20_000)
        # printed, not asserted: includes the simulated tray settling, and Playwright's polling
        print(f"\nbutton press on one tablet → counted photo on another: {time.monotonic() - pressed:.2f} s")
        expect(other.locator("#press-log")).to_have_text("Pressed: Count")
    camera = {}
    for row in page.locator("#count-editor .count-row").all():
        camera[row.get_attribute("data-colour")] = stepper_value(row)
    if probe_impossible:  # more cubes of a colour than can have fallen: explained, not accepted
        row = page.locator(f'#count-editor .count-row[data-colour="{probe_impossible}"]')
        for _ in range(30):
            if page.locator("#impossible").is_visible():
                break
            wanted = int(row.locator("output.val").inner_text()) + 1
            row.locator('button[data-step="plus"]').click()
            # wait until the result on screen is the preview of the new count
            expect(page.locator("#result-words")).to_have_attribute(
                "data-counts", re.compile(rf'"{probe_impossible}":{wanted}[,}}]'))
        expect(page.locator("#impossible")).to_contain_text("This reading cannot be right")
        expect(page.locator("#impossible li").first).to_contain_text(probe_impossible)
        shots(page, f"battle-{name}-impossible")
        page.locator("#apply-battle").click()
        expect(page.locator("#battle-reading .error").last).to_contain_text("accept anyway")
    set_counts(page, counts)
    if any(camera.get(c, 0) != counts.get(c, 0) for c in set(camera) | set(counts)):
        expect(page.locator("#corrected-mark")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]
    words = page.locator("#result-words")
    expect(words).to_have_attribute("data-counts", json.dumps(dict(sorted((c, n) for c, n in counts.items() if n)),
                                                                  separators=(",", ":")))
    expect(words).to_contain_text(headline)
    for sentence in more:
        expect(words).to_contain_text(sentence)
    shots(page, f"battle-{name}")
    impossible = page.locator("#impossible")
    v = version(page)
    if probe_impossible:
        expect(impossible).to_be_hidden()  # the planned counts are possible again
    if impossible.is_visible():
        page.locator("#apply-battle").click()
        expect(page.locator("#battle-reading .error").last).to_contain_text("accept anyway")
        page.locator("#accept-impossible").check()
    page.locator("#apply-battle").click()
    expect_version(page, v + 1)
    expect(page.locator("#battle")).to_have_count(0)


def pass_turn(page: Page, compensation: str = "gold") -> None:
    f = open_action(page, "pass")
    choose(f, "compensation", compensation)
    submit(page, f)


def test_a_whole_game_through_the_ui(server, browser, artifacts) -> None:
    started = time.monotonic()
    shots = Shots(artifacts, "game")
    page = new_page(browser)
    game_id = create_game(page, server.url, shots)

    # A second tablet on the table follows every change live (no reload), and the tower page.
    watcher = new_page(browser)
    watcher.goto(f"{server.url}/games/{game_id}")
    expect(watcher.locator("#state-version")).to_have_text("1")
    tower = new_page(browser)
    tower.goto(f"{server.url}/tower")
    expect(tower.locator("#tower-status")).to_contain_text("simulated camera")  # the backend in words

    deploy(page, shots)
    expect(watcher.locator("#state-version")).to_have_text(str(version(page)))
    expect(watcher.locator('#realm-dark [data-region="white-falls"] [data-colour="red"]')).to_contain_text("2")
    starting_resources(page, shots)
    seed(page, shots)
    shots(page, "board-after-seeding")

    # Round 1.
    reinforce_all(page, {"red": ("treehome", "light", 1), "yellow": ("shore-lake", "light", 1)})
    expect(page.locator('#realm-light [data-region="treehome"] [data-colour="red"]')).to_contain_text("4")
    start_actions(page)
    shots(page, "actions")

    # The first-player marker moved left after the draft round: Blue starts, then Yellow, Red.
    expect(panel(page).locator("[data-active]")).to_have_attribute("data-active", "blue")
    # Blue: the pickers offer only legal choices: at most 2 of the 3 armies may attack (one
    # stays behind), so the stepper starts at 2 and goes no higher.
    f = open_action(page, "attack")
    pick_node(f, "source", "mountainhome|light")
    pick_node(f, "target", "the-murk|light")
    expect(field(f, "armies").locator("output.val")).to_have_text("2")
    expect(field(f, "armies").locator('button[data-step="plus"]')).to_be_disabled()
    choose(f, "card", "source")
    expect(f.locator('[data-explain="card"]')).to_have_text(
        "The card shows the attacking region: the inhabitants (green) are neutral and do not fight.")
    shots(page, "attack-form")
    # B1 — Blue, empty region, inhabitants neutral: Blue takes it with 1 cube.
    submit(page, f)
    expect(page.locator("#battle .stance")).to_have_attribute("data-stance", "neutral")
    shots(page, "battle-instructions")
    battle(page, shots, "empty-neutral", {"blue": 1, "green": 2}, "Blue takes The Murk with 1 cube.")
    expect(page.locator('#realm-light [data-region="the-murk"] [data-colour="blue"]')).to_contain_text("1")

    # B2 — Yellow, empty region, inhabitants fight for themselves: 3 : 1 for Yellow.
    attack(page, "shore-lake", "tribute-pass", "light", 2, "other")
    expect(page.locator("#battle .stance")).to_have_attribute("data-stance", "against_attacker")
    battle(page, shots, "empty-against", {"yellow": 3, "green": 1}, "Yellow wins 3 : 1.",
           more=("Yellow: 1 cube to your dark limbo, 2 cubes onto Tribute Pass.", "1 green cube back to the supply."))
    expect(page.locator('#realm-light [data-region="tribute-pass"] [data-colour="yellow"]')).to_contain_text("2")

    # B3 — Red, empty region, inhabitants for the attacker; the tower's own button counts
    # (pressed on the second device's tower page), the reading reaches this tablet live.
    attack(page, "treehome", "borderland", "light", 2, "target")
    expect(page.locator("#battle .stance")).to_have_attribute("data-stance", "for_attacker")
    battle(page, shots, "empty-for-attacker", {"red": 2, "green": 1}, "Red takes Borderland with 2 cubes.",
           press="tower", other=tower)
    expect(page.locator('#realm-light [data-region="borderland"] [data-colour="red"]')).to_contain_text("2")

    # B4 — Blue attacks Red's Borderland; the inhabitants defend: Blue loses 1 : 2.
    attack(page, "heartwood", "borderland", "light", 1, "other")
    battle(page, shots, "occupied-lose", {"blue": 1, "red": 1, "green": 1}, "Red wins 2 : 1.")

    # B5 — Yellow attacks Blue's The Murk, inhabitants neutral: a tie, the region is left empty.
    attack(page, "shore-lake", "the-murk", "light", 1, "source")
    battle(page, shots, "occupied-tie", {"yellow": 1, "blue": 1}, "Tie 1 : 1 — the region is left empty.",
           more=("Yellow: 1 cube to your dark limbo.", "Blue: 1 cube to your dark limbo."))
    expect(page.locator('#realm-light [data-region="the-murk"] .armies')).to_have_text("")

    # Red has used the attack space but not yet "attack or move": attack is still offered.
    expect(page.locator('#panel .action-grid button[data-action="attack"]')).not_to_have_class(re.compile(r"\bused\b"))
    # B6 — Red attacks Blue (occupied) with the inhabitants: Red wins 3 : 1, in plain words.
    attack(page, "treehome", "mountainhome", "light", 1, "target")
    battle(page, shots, "occupied-win", {"red": 2, "blue": 1, "green": 1}, "Red wins 3 : 1.",
           more=("Blue: 1 cube to your dark limbo.", "Red: 2 cubes onto Mountainhome.",
                 "1 green cube back to the supply.", "Red takes the region card of Mountainhome."),
           probe_impossible="red")
    expect(page.locator('#realm-light [data-region="mountainhome"] [data-colour="red"]')).to_contain_text("2")
    expect(page.locator('#realm-light [data-region="mountainhome"] .holder')).to_contain_text("Red")

    # Blue has used both attack spaces this round: the button says so.
    expect(page.locator('#panel .action-grid button[data-action="attack"]')).to_have_class(re.compile(r"\bused\b"))
    # Blue extracts gold, then undoes it: the undo says what it took back.
    gold = page.locator('.player[data-player="blue"] [data-num="gold"] b')
    gold_before = gold.inner_text()
    f = open_action(page, "extract_gold")
    pick_node(f, "where", "heartwood|light")
    submit_rejected(page, f, "enter the amount printed on the region card")
    set_stepper(field(f, "amount"), 2)
    submit(page, f)
    expect(gold).to_have_text(str(int(gold_before) + 2))
    v = version(page)
    page.locator("#undo-btn").click()
    expect_version(page, v + 1)
    expect(page.locator("#undo-result")).to_contain_text("Undone:")
    expect(page.locator("#undo-result")).to_contain_text("Extract gold — Ben (Blue)")
    expect(gold).to_have_text(gold_before)
    expect(page.locator("#history li.undone").first).to_contain_text("Extract gold")
    shots(page, "undo")
    # Blue acts again now; everyone passes to end the round.
    pass_turn(page, "gold")
    pass_turn(page, "energy")
    pass_turn(page, "gold")
    expect(page.locator("#phase-name")).to_have_text("Scoring")
    shots(page, "scoring")
    confirm(page, "score_round", "Score round 1 now?")
    expect(page.locator("#last-scoring .score-table tbody tr")).to_have_count(3)
    expect(page.locator("#last-scoring h3")).to_have_text("Scoring of round 1")
    shots(page, "scoring-breakdown")
    expect(watcher.locator("#state-version")).to_have_text(str(version(page)))
    assert watcher.locator("#last-scoring").is_visible()
    shots(watcher, "second-device-live")

    # A cube was knocked over: the table is the truth, the board is corrected with a reason.
    page.locator("#corrections summary").click()
    page.locator('#corrections [data-field="correction_kind"] button[data-value="armies"]').click()
    f = page.locator('#corrections form[data-command="correct"]')
    f.locator('select[name="region"]').select_option("white-falls")
    choose(f, "realm", "dark")
    choose(f, "color", "red")
    set_stepper(field(f, "count"), 3)
    submit_rejected(page, f, "Please fill in: Why")
    f.locator('input[name="reason"]').fill("a red cube fell off the board")
    submit(page, f)
    expect(page.locator('#realm-dark [data-region="white-falls"] [data-colour="red"]')).to_contain_text("3")
    expect(watcher.locator('#realm-dark [data-region="white-falls"] [data-colour="red"]')).to_contain_text("3")
    shots(page, "correction")

    # Rounds 2–7: reinforcements, planning, everyone passes, scoring.
    for rnd in range(2, 8):
        expect(page.locator("#round-no")).to_have_text(str(rnd))
        reinforce_all(page)
        start_actions(page)
        for _ in range(3):
            pass_turn(page, "energy")
        confirm(page, "score_round")

    expect(page.locator("#end-screen")).to_be_visible()
    expect(page.locator("#winner")).to_contain_text("The winner is")
    expect(page.locator("#standings tbody tr")).to_have_count(3)
    expect(page.locator("#tie-break")).not_to_be_empty()
    shots(page, "end")
    expect(watcher.locator("#end-screen")).to_be_visible()

    # The games list offers the finished game; a reload shows exactly the same end screen.
    page.reload()
    expect(page.locator("#end-screen")).to_be_visible()
    page.goto(server.url + "/")
    expect(page.locator(f'#games-list li[data-game-id="{game_id}"]')).to_contain_text("Ann")
    shots(page, "games-list-after")

    for p in (page, watcher, tower):
        assert p.js_errors == [], p.js_errors
    duration = time.monotonic() - started
    print(f"\nE2E game: {duration:.1f} s for set-up, 6 battles, undo and 7 rounds; "
          f"screenshots: {', '.join(shots.taken)}")
