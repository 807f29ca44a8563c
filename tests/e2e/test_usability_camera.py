"""Issue 24, items 2 and 8 — camera set-up on the simulated tower, as a new group did it: the
picture lets every colour be tapped whatever the game left in the simulated tray, a refusal
names no pixels and goes away once its colour is skipped or the check succeeds, and the
simulator's own calibration stays in the list to restore (its own module: saving changes
what the server's tower counts with)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_camera_setup import ALL, drag_outline, screen_point, take_photo
from .test_two_tablets import Api, tablets  # noqa: F401 (a fixture)

pytestmark = pytest.mark.e2e


def test_every_colour_can_be_tapped_and_the_simulators_calibration_can_be_restored(server, tablets, artifacts):
    page = tablets()
    api = Api(page.context, server.url)
    # what a game leaves in the simulated tray: only a few cubes of one colour
    assert api.request.put(f"{server.url}/api/tower/simulated-tray", data={"cubes": {"red": 2}}).ok
    page.goto(f"{server.url}/tower/camera")
    expect(page.locator("#camera-image")).to_have_attribute("data-live", "1")
    drag_outline(page)
    where = take_photo(page, server.url)
    assert sorted(where) == sorted(ALL)  # a cube of every colour to tap

    # red on its cube, blue on plain tray: refused, in words without pixel coordinates
    page.locator("#camera-overlay").scroll_into_view_if_needed()
    page.mouse.click(*screen_point(page, *where["red"]))
    expect(page.locator(".chip.current[data-colour=\"blue\"]")).to_be_visible()
    page.mouse.click(*screen_point(page, 640, 150))
    page.locator("#camera-check").click()
    error = page.locator("#camera-error")
    expect(error).to_contain_text("blue tap is on the tray", timeout=60_000)
    assert not re.search(r"\d+\s*,\s*\d+", error.inner_text())
    page.screenshot(path=str(artifacts / "usability-camera-1-refused.png"), full_page=True)
    # skipping blue makes the refusal old news
    page.locator('button[data-skip="blue"]').click()
    expect(error).to_be_hidden()
    # blue back, tapped on its cube, and every other colour
    page.locator('.chip[data-colour="blue"]').click()
    for colour in ALL:
        if colour == "red":
            continue
        expect(page.locator(f'.chip.current[data-colour="{colour}"]')).to_be_visible()
        page.locator("#camera-overlay").scroll_into_view_if_needed()
        page.mouse.click(*screen_point(page, *where[colour]))
    expect(page.locator("circle[data-tap]")).to_have_count(6)
    page.locator("#camera-check").click()
    expect(page.locator("#camera-result img")).to_be_visible(timeout=60_000)
    expect(error).to_be_hidden()
    for colour in ("Red", "Blue", "Yellow", "Purple", "Black", "Green"):
        expect(page.locator("#camera-found")).to_contain_text(colour)
    page.locator("#camera-save").click()
    expect(page.locator("#camera-saved")).to_be_visible(timeout=60_000)
    # the simulator's own calibration is kept, to restore
    history = page.locator("#camera-history li[data-id]")
    expect(history).to_have_count(2)
    own = history.filter(has_text="The simulated tower's own calibration")
    expect(own).to_have_count(1)
    page.screenshot(path=str(artifacts / "usability-camera-2-saved.png"), full_page=True)
    own.locator("button[data-restore]").click()
    expect(own.locator(".badge")).to_be_visible()
    camera = api.request.get(f"{server.url}/api/camera").json()
    assert sorted(camera["colors"]) == sorted(ALL)
    # and a battle counts with it
    game = api.new_game()
    api.request.put(f"{server.url}/api/tower/simulated-tray", data={"cubes": {}})
    api.to_battle(game)
    assert api.state(game)["reading"]["camera"]
