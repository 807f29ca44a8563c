"""The HTML shells of the pages blueprint, on an app that holds only this blueprint."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask

from companion.web import pages

WEB = Path(pages.__file__).resolve().parent
PAGES = ["/", "/games/new", "/games/7", "/setup/board", "/stats", "/tower"]


@pytest.fixture()
def client():
    app = Flask(__name__)
    app.config["TESTING"] = True
    app.register_blueprint(pages.bp)
    return app.test_client()


@pytest.mark.parametrize("path", PAGES)
def test_every_page_renders_its_shell_with_the_strings(client, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert '<script id="i18n" type="application/json">' in html
    assert "Simulated tower — no camera connected" in html  # the banner is in every page, shown by JS
    assert answer.headers["Cache-Control"] == "no-store"


def test_language_follows_accept_language(client) -> None:
    html = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}).get_data(as_text=True)
    assert '<html lang="de">' in html and "Neue Partie" in html


def test_lang_query_switches_and_is_remembered_in_a_cookie(client) -> None:
    answer = client.get("/?lang=de", headers={"Accept-Language": "en"})
    assert "Neue Partie" in answer.get_data(as_text=True)
    assert "lang=de" in answer.headers["Set-Cookie"]
    again = client.get("/stats", headers={"Accept-Language": "en"})  # cookie jar sends lang=de
    assert '<html lang="de">' in again.get_data(as_text=True)


def test_unknown_lang_query_is_ignored_and_sets_no_cookie(client) -> None:
    answer = client.get("/?lang=klingon", headers={"Accept-Language": "en"})
    assert '<html lang="en">' in answer.get_data(as_text=True)
    assert "Set-Cookie" not in answer.headers


def test_game_page_carries_the_game_id(client) -> None:
    assert 'data-game-id="42"' in client.get("/games/42").get_data(as_text=True)


def test_a_game_id_that_is_not_a_number_is_not_found(client) -> None:
    assert client.get("/games/abc").status_code == 404


def test_every_asset_a_page_links_is_served(client) -> None:
    linked: set[str] = set()
    for path in PAGES:
        html = client.get(path).get_data(as_text=True)
        linked |= set(re.findall(r'(?:src|href)="(/assets/[^"]+)"', html))
    assert any(p.endswith(".css") for p in linked) and any(p.endswith(".js") for p in linked)
    for asset in linked:
        assert client.get(asset).status_code == 200, asset


def test_every_js_import_resolves_to_a_served_module(client) -> None:
    importer = re.compile(r"from \"\./([a-z_]+\.js)\"")
    for js in (WEB / "static" / "js").glob("*.js"):
        for target in importer.findall(js.read_text(encoding="utf-8")):
            assert client.get(f"/assets/js/{target}").status_code == 200, (js.name, target)


def test_no_asset_or_template_reaches_the_internet() -> None:
    remote = re.compile(r"""(?:src|href|url\(|import|from)\s*=?\s*["'(]?\s*(?:https?:)?//""", re.I)
    files = [*WEB.joinpath("templates").rglob("*.html"), *WEB.joinpath("static").rglob("*.*")]
    assert files
    for file in files:
        if file.suffix in {".html", ".js", ".css", ".svg"}:
            assert not remote.search(file.read_text(encoding="utf-8")), file


def test_a_page_preloads_exactly_the_modules_it_imports(client) -> None:
    html = client.get("/games/3").get_data(as_text=True)
    preloaded = set(re.findall(r'rel="modulepreload" href="/assets/js/([a-z_]+\.js)"', html))
    assert {"game.js", "battle.js", "words.js", "common.js", "api.js"} <= preloaded
    assert not {"wizard.js", "stats.js", "board_setup.js"} & preloaded  # other pages' entries
