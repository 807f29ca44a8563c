"""Issue 9 on the tablet: a game colour the camera's calibration lacks is named before the
first throw, and the camera's count is refused with the reason (count by hand); the colours the
camera doubted come first on the correction screen, saying what was doubted.

The server is the real one with the simulated tower, calibrated (as a group would) from the
renderer's calibration photo — here without a purple sample.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from companion.vision.calibration import calibrate, save_calibration
from companion.vision.synthetic import render_calibration_photo

from .conftest import running_server
from .test_two_tablets import Api, tablets  # noqa: F401 (a fixture)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def no_purple_server(tmp_path_factory):
    data = tmp_path_factory.mktemp("companion-no-purple")
    frame, samples, empty = render_calibration_photo()
    cal = calibrate(frame.image, [s for s in samples if s.color != "purple"], empty=empty.image, roi=frame.roi)
    save_calibration(cal, data / "sim-calibration.json")
    with running_server(data, env={"COMPANION_SIM_CALIBRATION": str(data / "sim-calibration.json")}) as srv:
        yield srv


def test_a_colour_without_a_sample_is_named_before_the_throw_and_counted_by_hand(no_purple_server, tablets):
    page = tablets()
    api = Api(page.context, no_purple_server.url)
    game = api.new_game()
    api.to_resources(game)
    for color in ("red", "blue", "purple"):
        api.do(game, type="starting_resources", player=color, gold=7, energy=9)
    page.goto(f"{no_purple_server.url}/games/{game}")
    notice = page.locator("#calibration-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Purple")
    expect(notice.locator("a")).to_have_attribute("href", re.compile(r"^/tower/camera\?game=\d+$"))
    before = api.state(game)["version"]
    page.locator("#press-button").click()
    expect(page.locator(".panel.press .error")).to_contain_text("no sample of purple")
    assert api.state(game)["version"] == before  # nothing thrown, nothing recorded
    page.locator("#manual-count").click()
    expect(page.locator("#count-editor")).to_be_visible()


def test_the_colours_the_camera_doubted_come_first(server, tablets):
    """The stored reading's ``doubtful`` list (here: the camera unsure whether a blob is one
    blue cube or two) puts that colour's row first, saying what was doubted. The reading's
    details are passed through the real server's answer, with the doubt added to it."""
    import json

    page = tablets()
    api = Api(page.context, server.url)
    game = api.new_game()
    api.to_battle(game)

    def with_a_doubt(route):
        answer = route.fetch()
        body = answer.json()
        body["reading"]["doubtful"] = [{"color": "blue", "cubes": 1, "reason": "size", "alternative": "2",
                                        "x": 10, "y": 10, "bbox": [0, 0, 20, 20]}]
        route.fulfill(response=answer, body=json.dumps(body))

    page.route(lambda url: "/api/readings/" in url and not url.endswith(".jpg"), with_a_doubt)
    page.goto(f"{server.url}/games/{game}")
    rows = page.locator("#count-editor .count-row")
    expect(rows.first).to_have_attribute("data-colour", "blue")
    expect(rows.first.locator(".doubt")).to_have_text("camera unsure: 1 or 2?")
    expect(page.locator("#count-editor .count-row.doubtful")).to_have_count(1)
