"""The statistics page and the odds on the battle screen, in Chromium against the real server.

A fresh companion first: every section says "not enough data yet" and nothing breaks. Then a
generated history (benchmarks.stats.generate_log: 6 finished games with a known tower, people,
odds) lands in the same database: the charts are drawn by the vendored Chart.js, the roster can
be changed from the page, and on two tablets the battle screen shows the same kept odds.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from benchmarks.stats import generate_log
from tests.web.conftest import DRAFTS, PLAYERS, SEED_TRAY, START

pytestmark = pytest.mark.e2e


def test_a_fresh_companion_says_not_enough_data(server, browser, artifacts) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/stats?lang=en")
    expect(page.locator("body[data-stats-ready='yes']")).to_have_count(1)
    for section in ("tower", "odds", "people", "game", "tribes"):
        expect(page.locator(f"#{section}-section .not-enough").first).to_be_visible()
    expect(page.locator("#stats-section-body .error, .stat-panel .error:visible")).to_have_count(0)
    assert errors == []
    page.screenshot(path=str(artifacts / "stats-empty.png"), full_page=True)
    page.close()


def _api(request, base: str, method: str, path: str, body=None):  # noqa: ANN001, ANN202
    answer = request.fetch(f"{base}{path}", method=method, data=body)
    assert answer.ok, answer.text()
    return answer.json()


def _attack_declared(request, base: str) -> int:
    game = _api(request, base, "POST", "/api/games", {"players": PLAYERS, "first_player": "red"})["id"]

    def do(**command):  # noqa: ANN003, ANN202
        return _api(request, base, "POST", f"/api/games/{game}/commands", {"command": command})["state"]

    for p in PLAYERS:
        do(type="deploy_start", player=p["color"], armies=6, **({"region": START[p["color"]]} if START[p["color"]] else {}))
    state = _api(request, base, "GET", f"/api/games/{game}")["state"]
    for _ in PLAYERS:
        region, realm = DRAFTS[state["turn"]]
        state = do(type="deploy", player=state["turn"], region=region, realm=realm, armies=5)
    do(type="finish_deployment")
    for p in PLAYERS:
        do(type="starting_resources", player=p["color"], gold=7, energy=9)
    state = do(type="seed_tower", tray=SEED_TRAY,
               limbo_split={p["color"]: {"light": SEED_TRAY.get(p["color"], 0), "dark": 0} for p in PLAYERS})
    for _ in PLAYERS:
        state = do(type="reinforce", player=state["turn"], placements=[])
    state = do(type="start_actions")
    while state["turn"] != "red":
        state = do(type="pass", player=state["turn"], compensation="gold")
    do(type="attack", player="red", source="borderland", target="white-falls", realm="light", armies=3, card="target")
    return game


def test_with_history_the_charts_roster_and_odds_work(server, browser, artifacts) -> None:
    generate_log_into = server.data_dir / "companion.sqlite3"
    _append_history(generate_log_into)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/stats?lang=en")
    expect(page.locator("body[data-stats-ready='yes']")).to_have_count(1)
    for chart in ("chart-fairness", "chart-calibration", "chart-vp", "chart-tribes", "chart-people"):
        assert page.evaluate(f"!!window.Chart.getChart(document.getElementById('{chart}'))"), chart
    expect(page.locator("#tower-basis")).to_contain_text("throws")
    expect(page.locator("#tower-table tr[data-row='red'] td[data-fair]")).to_contain_text(re.compile("bias|Not enough"))
    # every bias with its range (issue 23), the level it holds at, and whether the model fits
    expect(page.locator("#tower-table td[data-fair='no_sign']").first).to_contain_text(
        re.compile(r"lands at once between \d+ % (less|more)"))
    expect(page.locator("#fair-level")).to_contain_text("together they hold in 95 % of groups")
    api_check = context.request.get(f"{server.url}/api/stats/tower").json()["fairness"]["model_check"]
    expect(page.locator("#model-check")).to_have_attribute("data-fits", str(api_check["fits"]).lower())
    expect(page.locator("#model-check")).to_contain_text("Does the model fit this tower?")
    expect(page.locator("#model-check")).to_contain_text(
        "The model fits this tower" if api_check["fits"] else "depend on how full it is")
    expect(page.locator("#people-table tr[data-person]")).to_have_count(10)
    page.screenshot(path=str(artifacts / "stats-history.png"), full_page=True)

    # The roster from the page: add someone, then rename them.
    page.fill("#roster-name", "Quinn")
    page.click("#roster-add button[type=submit]")
    row = page.locator("#roster-table tr", has=page.locator("input[value='Quinn']"))
    expect(row).to_have_count(1)
    row.locator("input").fill("Quinn Q.")
    row.get_by_role("button", name="Rename").click()
    expect(page.locator("#roster-table input[value='Quinn Q.']")).to_have_count(1)

    # Odds on (the group setting), then a battle: two tablets see the same kept odds.
    page.check("#odds-enabled")
    expect(page.locator("#odds-enabled")).to_be_checked()
    game = _attack_declared(context.request, server.url)
    other = browser.new_context(viewport={"width": 1024, "height": 768})
    tablets = [context.new_page(), other.new_page()]
    lines = []
    for tablet in tablets:
        tablet.goto(f"{server.url}/games/{game}?lang=en")
        line = tablet.locator("#battle-odds .odds-line")
        expect(line).to_contain_text(re.compile(r"Red wins \d+ % · tie \d+ % · loses \d+ %"))
        lines.append(line.inner_text())
        expect(tablet.locator("#interior-model li").first).to_contain_text("inside, about")
    assert lines[0] == lines[1]
    tablets[1].screenshot(path=str(artifacts / "battle-odds.png"), full_page=True)
    assert errors == []
    other.close()
    context.close()


def _luminance(colour: str) -> float:
    """WCAG relative luminance of "#rgb", "#rrggbb", "#rrggbbaa" (alpha ignored) or "rgb(a)(…)"."""
    if colour.startswith("rgb"):
        rgb = [float(v) for v in re.findall(r"[\d.]+", colour)[:3]]
    else:
        h = colour.lstrip("#")
        h = "".join(x + x for x in h[:3]) if len(h) in (3, 4) else h[:6]
        rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    lin = [(v / 255) / 12.92 if v / 255 <= 0.03928 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a: str, b: str) -> float:
    la, lb = _luminance(a), _luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def test_each_landing_point_stands_out_from_its_own_colours_bar(server, browser) -> None:
    """Issue 24: black's point was drawn black on black's bar. Every point's ring contrasts
    (>= 3:1, WCAG for graphics) with the bar's colour and with the point's own fill, and the
    canvas really shows that ring at the point."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    if not context.request.get(f"{server.url}/api/stats/tower").json()["enough_data"]:
        _append_history(server.data_dir / "companion.sqlite3")
    page = context.new_page()
    page.goto(f"{server.url}/stats?lang=en")
    expect(page.locator("body[data-stats-ready='yes']")).to_have_count(1)
    points = page.evaluate("""() => {
      const chart = window.Chart.getChart(document.getElementById("chart-fairness"));
      const bars = chart.getDatasetMeta(0).data, dots = chart.getDatasetMeta(1).data;
      const canvas = chart.canvas, scale = canvas.width / canvas.clientWidth;
      const pixel = (x, y) => [...canvas.getContext("2d").getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data];
      return chart.data.labels.map((label, i) => ({
        label, bar: bars[i].options.borderColor, fill: dots[i].options.backgroundColor,
        ring: dots[i].options.borderColor, ringPixels: [5, 5.5, 6, 6.5, 7].map((d) => pixel(dots[i].x + d, dots[i].y)) }));
    }""")
    assert "Black" in [p["label"] for p in points], points
    for p in points:
        assert _contrast(p["ring"], p["bar"]) >= 3, p
        assert _contrast(p["ring"], p["fill"]) >= 3, p
        drawn = ["rgb({}, {}, {})".format(*px[:3]) for px in p["ringPixels"]]
        assert min(_contrast(d, p["ring"]) for d in drawn) < 1.3, p  # the ring is what the canvas shows there
    context.close()


def _append_history(path) -> None:  # noqa: ANN001
    """Six finished games of a known tower, people and kept odds, written into the running
    server's database (the generator writes through SQLite's own append-only triggers)."""
    generate_log(path, 6, seed=4)


def test_the_wizard_picks_players_from_the_roster(server, browser) -> None:
    from tests.e2e.test_game import PLAYERS as WIZARD_PLAYERS

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.url}/games/new?lang=en")
    seats = page.locator("#seats li")
    expect(seats).to_have_count(3)
    first = seats.nth(0)
    first.locator('select[data-field="person"]').select_option(label="Ada")
    expect(first.locator('input[data-field="name"]')).to_have_value("Ada")  # the name follows
    seats.nth(1).locator('input[data-field="name"]').fill("bo")  # typed, and on the roster
    seats.nth(2).locator('input[data-field="name"]').fill("Zed")  # not on the roster
    for i, (_, _, light, dark) in enumerate(WIZARD_PLAYERS):
        seats.nth(i).locator('select[data-field="light_tribe"]').select_option(light)
        seats.nth(i).locator('select[data-field="dark_tribe"]').select_option(dark)
    page.locator("#start-game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+$"))
    game = int(page.url.rsplit("/", 1)[1])
    seats_now = page.request.get(f"{server.url}/api/games/{game}/people").json()["seats"]
    assert [(s["name"], (s["person"] or {}).get("name")) for s in seats_now] == [
        ("Ada", "Ada"), ("bo", "Bo"), ("Zed", None)]
    page.close()


def test_the_tower_page_shows_the_fitted_model(server, browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.url}/tower?lang=en")
    rows = page.locator("#tower-model tr[data-row]")
    expect(rows.first).to_be_visible()
    expect(page.locator("#tower-model tr[data-row='red']")).to_contain_text(re.compile(r"\d+ % \(\d+ %–\d+ %\)"))
    page.close()
