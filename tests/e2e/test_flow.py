"""The tablet flow: a full battle from the attack form to "apply", and a move along a picked way.

The pickers offer only the legal choices (GET /api/games/<id>/options): the attack form takes
at most 5 taps from the action grid to sent, and at most 3 from the count button to applied.
Timings are not asserted here (benchmarks/tablet_flow.py prints them); taps are.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from benchmarks.tablet_flow import Flow, attack_via_form, count_and_apply, panel_ready, to_turn
from tests.e2e.test_two_tablets import Api

pytestmark = pytest.mark.e2e
TABLET = {"width": 1024, "height": 768}


@pytest.fixture
def setup(server, browser):
    page = browser.new_page(viewport=TABLET)
    api = Api(page.context, server.url)
    return page, api


def test_a_battle_from_the_attack_form_to_apply_in_few_taps(server, setup) -> None:
    page, api = setup
    game = api.new_game()
    api.to_actions(game)
    to_turn(api, game, "red")
    page.goto(f"{server.url}/games/{game}")
    panel_ready(page)
    # Only what the rules allow: Dirk plays the Demons, not the Night Elves.
    page.locator('#panel .action-grid button[data-action="attack"]').click()
    f = page.locator('#panel form[data-command="attack"]')
    sources = f.locator('[data-field="source"] button[data-value]')
    expect(sources).to_have_count(3)  # Treehome (light, dark), Borderland (light): own armies only
    assert sorted(sources.evaluate_all("bs => bs.map(b => b.dataset.value)")) == [
        "borderland|light", "treehome|dark", "treehome|light"]
    expect(f.locator('select[name="special"]')).to_have_count(0)
    f.locator('[data-field="source"] button[data-value="borderland|light"]').click()
    targets = f.locator('select[name="target"] option[value]:not([value=""])').evaluate_all("os => os.map(o => o.value)")
    assert "white-falls|light" in targets and "treehome|light" not in targets  # not into own armies
    assert all(v.endswith("|light") for v in targets)  # no portal at Borderland: same realm only
    expect(f.locator('[data-name="armies"] output.val')).to_have_text("4")  # all that may go
    page.reload()

    flow = Flow(page)
    form_taps = attack_via_form(flow, "borderland|light", "white-falls|light", "target")
    battle = api.state(game)["battle"]
    assert (battle["source"], battle["target"], battle["realm"], battle["armies"]) == (
        "borderland", "white-falls", "light", 4)
    apply_taps = count_and_apply(flow)
    state = api.state(game)
    assert state["battle"] is None and state["phase"] == "actions" and state["turn"] != "red"
    print(f"\ntaps: attack form {form_taps} (baseline 7), count → applied {apply_taps} (baseline 3)")
    assert form_taps <= 5 and apply_taps <= 3


def test_a_move_along_a_way_picked_on_the_board(server, setup) -> None:
    page, api = setup
    game = api.new_game()
    api.to_actions(game)
    to_turn(api, game, "red")
    # Dirk also holds White Falls (light): Treehome – Borderland – White Falls is a chain.
    api.do(game, type="correct", reason="test position",
           armies=[{"region": "white-falls", "realm": "light", "color": "red", "count": 2},
                   {"region": "white-falls", "realm": "light", "color": "purple", "count": 0}])
    page.goto(f"{server.url}/games/{game}")
    panel_ready(page)
    page.locator('#panel .action-grid button[data-action="move"]').click()
    f = page.locator('#panel form[data-command="move"]')
    expect(f).to_be_visible()
    # Source and target by tapping the board; the form offers and marks only legal regions.
    page.locator('#realm-light .region[data-region="treehome"]').click()
    expect(f.locator('[data-field="source"] button[data-value="treehome|light"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('#realm-light .region[data-region="white-falls"]')).to_have_class(re.compile(r"\bpickable\b"))
    page.locator('#realm-light .region[data-region="white-falls"]').click()
    expect(f.locator('[data-field="target"] [data-value="white-falls|light"], [data-field="target"] select')).not_to_have_count(0)
    # The way: through Borderland, tapped on the board, shown in the form and on the board.
    page.locator('#realm-light .region[data-region="borderland"]').click()
    expect(f.locator(".path-chain")).to_have_text("Treehome (light) → Borderland (light) → White Falls (light)")
    expect(page.locator('#realm-light .region[data-region="borderland"]')).to_have_class(re.compile(r"\bon-path\b"))
    v = int(page.locator("#state-version").inner_text())
    f.locator('button[type="submit"]').click()
    expect(page.locator("#state-version")).to_have_text(str(v + 1))
    export = page.context.request.get(f"{server.url}/api/games/{game}/export.json").json()
    move = export["events"][-1]["payload"]
    assert move["type"] == "move"
    assert [(w["region"], w["realm"]) for w in move["command"]["path"]] == [("borderland", "light")]
    state = api.state(game)
    assert state["regions"]["light"]["white-falls"]["armies"]["red"] == 2 + 5


def test_the_marker_is_corrected_on_the_tablet_and_undone(server, setup) -> None:
    page, api = setup
    game = api.new_game()
    api.to_actions(game)
    before = api.state(game)
    page.goto(f"{server.url}/games/{game}")
    panel_ready(page)
    page.locator("#corrections summary").click()
    page.locator('#corrections [data-field="correction_kind"] button[data-value="turn_order"]').click()
    f = page.locator('#corrections form[data-command="correct"]')
    f.locator('[data-field="marker_holder"] button[data-value="purple"]').click()
    f.locator('input[name="reason"]').fill("the marker went to the wrong player")
    v = int(page.locator("#state-version").inner_text())
    f.locator('button[type="submit"]').click()
    expect(page.locator("#state-version")).to_have_text(str(v + 1))
    state = api.state(game)
    assert state["marker_holder"] == "purple" and state["first_player"] == before["first_player"]
    page.locator("#undo-btn").click()
    expect(page.locator("#state-version")).to_have_text(str(v + 2))
    assert api.state(game)["marker_holder"] == before["marker_holder"]


def test_a_draft_deployment_offers_only_unoccupied_regions(server, setup) -> None:
    page, api = setup
    game = api.new_game()
    for color in ("red", "blue", "purple"):
        api.do(game, type="deploy_start", player=color, armies=6,
               **({"region": {"blue": "mountainhome", "purple": "white-falls"}[color]} if color != "red" else {}))
    page.goto(f"{server.url}/games/{game}")
    f = page.locator('#panel form[data-command="deploy"]')
    expect(f).to_be_visible()
    offered = f.locator('select[name="where"] option[value]:not([value=""])').evaluate_all("os => os.map(o => o.value)")
    assert "mountainhome|light" not in offered and "treehome|dark" not in offered  # occupied
    assert "mountainhome|dark" not in offered  # Ani's start: 2 armies went to the dark twin too
    assert "the-murk|dark" in offered and len(offered) == 50 - 6
    page.locator('#realm-dark .region[data-region="the-murk"]').click()  # picked on the board
    expect(f.locator('select[name="where"]')).to_have_value("the-murk|dark")
    v = int(page.locator("#state-version").inner_text())
    f.locator('button[type="submit"]').click()
    expect(page.locator("#state-version")).to_have_text(str(v + 1))
    state = api.state(game)
    assert any(n for n in state["regions"]["dark"]["the-murk"]["armies"].values())


def test_construct_offers_what_the_region_may_take_and_asks_the_price_only_when_unknown(server, setup) -> None:
    page, api = setup
    game = api.new_game()
    api.to_actions(game)
    to_turn(api, game, "red")
    energy = api.state(game)["players"][0]["energy"]
    page.goto(f"{server.url}/games/{game}")
    panel_ready(page)
    page.locator('#panel .action-grid button[data-action="construct"]').click()
    f = page.locator('#panel form[data-command="construct"]')
    f.locator('[data-field="where"] button[data-value="treehome|light"]').click()
    f.locator('[data-field="building"] button[data-value="shrine"]').click()
    expect(f.locator('[data-for="cost_gold"]')).to_be_visible()  # the Demons' shrine price: not entered
    f.locator('[data-field="building"] button[data-value="portal"]').click()
    expect(f.locator('[data-for="cost_gold"]')).to_be_hidden()  # the Elves' portal: 4 energy, known
    v = int(page.locator("#state-version").inner_text())
    f.locator('button[type="submit"]').click()
    expect(page.locator("#state-version")).to_have_text(str(v + 1))
    state = api.state(game)
    assert state["regions"]["light"]["treehome"]["portal"] is True
    assert state["players"][0]["energy"] == energy - 4
