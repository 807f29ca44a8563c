"""A camera fault on the tablet: the real server on a real (not simulated) tower whose camera
answers with black pictures (the folder camera replaying a black frame: a covered lens, the
ring light off). The battle screen says what happened and offers counting by hand; the Tower
page shows the camera's state; the game is unchanged and goes on by hand."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from playwright.sync_api import expect

from companion.vision.calibration import save_calibration
from companion.vision.synthetic import synthetic_calibration

from .conftest import running_server
from .test_two_tablets import Api, tablets  # noqa: F401 (a fixture)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def black_camera(tmp_path_factory):
    data = tmp_path_factory.mktemp("companion-black-camera")
    save_calibration(synthetic_calibration(), data / "calibration.json")
    frames = data / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "black.png"), np.zeros((960, 1280, 3), np.uint8))
    with running_server(data, env={"COMPANION_CAMERA": "folder", "COMPANION_CAMERA_FOLDER": str(frames)}) as srv:
        yield srv


def test_a_black_camera_is_named_on_the_battle_screen_and_counting_goes_by_hand(black_camera, tablets,
                                                                              artifacts):
    page = tablets()
    api = Api(page.context, black_camera.url)
    game = api.new_game()
    api.to_actions(game)
    api.to_attack(game)
    before = api.state(game)["version"]
    page.goto(f"{black_camera.url}/games/{game}")
    check = page.locator("#tray-check-button")  # a real tower: the empty tray first
    expect(check).to_be_visible()
    check.click()
    error = page.locator(".panel.press .error")
    expect(error).to_contain_text("camera picture is black")
    expect(error).to_contain_text("by hand")
    page.screenshot(path=str(artifacts / "fault-camera-black.png"))
    assert api.state(game)["version"] == before  # nothing recorded
    page.locator("#manual-count").click()
    expect(page.locator("#count-editor")).to_be_visible()

    tower = tablets(f"{black_camera.url}/tower")
    expect(tower.locator("body")).to_contain_text("camera picture is black")
