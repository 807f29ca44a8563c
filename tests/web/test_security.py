"""Request forgery and headers (issue 12): another site's page cannot change anything, even on a
signed-in tablet; every answer carries the protective headers; no page needs inline script."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from companion.web import pages
from companion.web.security import origin_of

from .conftest import PLAYERS, error_of, guest_client, new_game, ok, state_of

TEMPLATES = Path(pages.__file__).resolve().parent / "templates"
STATIC_JS = Path(pages.__file__).resolve().parent / "static" / "js"
HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "http://localhost:8000"},  # another port is another origin
        {"Origin": "https://localhost"},  # another scheme too
        {"Origin": "null"},  # a sandboxed frame or a stripped form
        {"Referer": "http://evil.example/game.html"},  # no Origin: the Referer decides
        {"Origin": "http://evil.example", "Referer": "http://localhost/games/1"},
    ],
)
def test_a_change_from_another_origin_is_refused_and_changes_nothing(client, headers):
    game = new_game(client)
    answer = client.post(f"/api/games/{game}/commands", headers=headers,
                         json={"command": {"type": "deploy_start", "player": "red", "armies": 6}})
    error = error_of(answer, 403)
    assert error["kind"] == "CrossOriginError" and "another web site" in error["message"]
    assert state_of(client, game)["version"] == 1
    error_of(client.post("/api/games", headers=headers,
                         json={"players": PLAYERS, "first_player": "red"}), 403)
    assert len(ok(client.get("/api/games"))) == 1
    # Even signing in is refused from another site (a login-forgery would plant a session).
    error_of(client.post("/api/session", headers=headers, json={"pin": "4711"}), 403)


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://localhost"},
        {"Origin": "HTTP://LOCALHOST:80"},  # the default port and case do not matter
        {"Referer": "http://localhost/games/1?lang=de"},
        {},  # not sent by a web page (a script, curl): the PIN decides
    ],
)
def test_a_change_from_the_companions_own_page_is_accepted(client, headers):
    game = new_game(client)
    answer = client.post(f"/api/games/{game}/commands", headers=headers,
                         json={"command": {"type": "deploy_start", "player": "red", "armies": 6}})
    assert answer.status_code == 200, answer.get_data(as_text=True)


def test_reading_from_another_origin_is_not_refused(client):
    assert client.get("/api/games", headers={"Origin": "http://evil.example"}).status_code == 200


def test_the_origin_check_comes_before_the_pin(app):
    answer = guest_client(app).post("/api/games", headers={"Origin": "http://evil.example"},
                                    json={"players": PLAYERS, "first_player": "red"})
    assert error_of(answer, 403)["kind"] == "CrossOriginError"


@pytest.mark.parametrize(
    "url",
    ["/", "/stats", "/tower", "/games/new", "/setup/board", "/api/games", "/api/openapi.json",
     "/api/session", "/assets/js/api.js", "/assets/css/app.css", "/no-such-page", "/api/no-such-thing"],
)
def test_every_answer_carries_the_protective_headers(app, url):
    answer = guest_client(app).get(url)
    assert {h: answer.headers.get(h) for h in HEADERS} == {
        "Content-Security-Policy": answer.headers["Content-Security-Policy"],
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    }
    assert answer.headers["X-Frame-Options"] == "DENY"


def test_errors_carry_the_headers_too(app):
    answer = guest_client(app).post("/api/games", json={"players": PLAYERS, "first_player": "red"})
    assert answer.status_code == 401
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]


def test_the_content_security_policy_forbids_inline_script_and_framing(client):
    csp = client.get("/").headers["Content-Security-Policy"]
    rules = dict(part.strip().split(" ", 1) for part in csp.split(";"))
    assert rules["default-src"] == "'self'"
    assert rules["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval'
    assert "unsafe" not in csp
    assert rules["frame-ancestors"] == "'none'"
    assert rules["object-src"] == "'none'"
    assert rules["img-src"] == "'self' data: blob:"


class _InlineFinder(HTMLParser):
    """Finds what a CSP without 'unsafe-inline' would block: inline scripts, on* handlers,
    style attributes, javascript: links."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>")
            if name == "style":
                self.found.append(f"<{tag} style=…>")
            if name in ("href", "src") and value and value.strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:…>")
        if tag == "script":
            is_data = names.get("type") == "application/json"  # data, never run
            self._in_script = "src" not in names and not is_data
        if tag == "style":
            self.found.append("<style>")

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.found.append(f"<script>{data.strip()[:40]}…")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False


@pytest.mark.parametrize("path", ["/", "/stats", "/tower", "/games/new", "/setup/board", "/games/1"])
def test_the_pages_need_no_inline_script_or_style(client, path):
    new_game(client)
    finder = _InlineFinder()
    finder.feed(client.get(path).get_data(as_text=True))
    assert finder.found == []


def test_the_templates_and_scripts_set_no_inline_handlers():
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text()
        assert " onclick=" not in text and "javascript:" not in text, template.name
    for script in STATIC_JS.glob("*.js"):
        text = script.read_text()
        assert 'setAttribute("style"' not in text, script.name  # el() sets style via CSSOM
        assert "eval(" not in text and "new Function(" not in text, script.name


def test_the_body_cap_stays_2_mib(client):
    answer = client.put("/api/board", data=b"{" + b" " * (2 * 1024 * 1024) + b"}",
                        content_type="application/json")
    assert error_of(answer, 413)


def test_origin_of_normalises_scheme_host_and_default_port():
    assert origin_of("http://Pi.local:80/x?y") == "http://pi.local"
    assert origin_of("https://pi.local:8443") == "https://pi.local:8443"
    assert origin_of("http://[::1]:8000/") == "http://[::1]:8000"
    assert origin_of("null") is None and origin_of("file:///etc") is None
    assert origin_of("http://pi.local:notaport") is None
