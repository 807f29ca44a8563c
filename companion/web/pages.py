"""HTML pages of the tablet UI: server-rendered shells that ES modules in ``static/js`` fill in.

Each page renders the translated strings into the HTML (so the first paint is already in the
player's language) and embeds the same strings as JSON for the scripts. All game data comes
from the JSON API (``/api/...``); this blueprint never touches the game, the store or the tower,
so a page always answers fast, whatever the tower is doing.

Assets are served by this blueprint under ``/assets/`` — no CDN, no build step.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, make_response, render_template, request

from companion.web.i18n import COOKIE_NAME, LANGUAGES, request_language, strings

bp = Blueprint(
    "pages",
    __name__,
    template_folder="templates",
    static_folder="static",
    static_url_path="/assets",
)

_ONE_YEAR = 365 * 24 * 3600
_JS = Path(__file__).parent / "static" / "js"
_IMPORT = re.compile(r'from "\./([a-z_]+\.js)"')


@lru_cache(maxsize=None)
def _modules(entry: str) -> tuple[str, ...]:
    """``entry`` and every module it imports, directly or not (read once from the files).

    Each page preloads exactly these, so the browser fetches them in parallel instead of
    discovering the import graph one level per round trip.
    """
    seen: set[str] = set()
    todo = ["common.js", entry]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_IMPORT.findall((_JS / name).read_text(encoding="utf-8")))
    return tuple(sorted(seen))


def _render(template: str, page: str, entry: str, **context: Any) -> Response:
    """Render ``template`` in the request's language; remember an explicit ``?lang=`` choice."""
    asked = request.args.get("lang")
    lang = request_language()
    texts = strings(lang)
    response = make_response(
        render_template(template, t=texts, lang=lang, languages=LANGUAGES, page=page,
                        modules=_modules(entry), **context)
    )
    if asked and asked.lower() == lang:
        response.set_cookie(COOKIE_NAME, lang, max_age=_ONE_YEAR, samesite="Lax")
    # Shells are tiny and language-dependent: never let a proxy or the browser serve a stale one.
    response.headers["Cache-Control"] = "no-store"
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


@bp.get("/")
def games() -> Response:
    """The games list: resume a game, start a new one, statistics."""
    return _render("games.html", "games", "games.js")


@bp.get("/games/new")
def new_game() -> Response:
    """The new-game wizard (players, colours, tribes, seats, first player, rounds)."""
    return _render("new_game.html", "new_game", "wizard.js")


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> Response:
    """One game: set-up steps, board, actions, battle flow, scoring and the end screen."""
    return _render("game.html", "game", "game.js", game_id=game_id)


@bp.get("/setup/board")
def board_setup() -> Response:
    """The owner's board data: region names, areas, adjacency, resources, tribes."""
    return _render("board_setup.html", "board_setup", "board_setup.js")


@bp.get("/stats")
def stats() -> Response:
    """Statistics over every game played."""
    return _render("stats.html", "stats", "stats.js")


@bp.get("/night")
def night() -> Response:
    """The game night: the evening's games of every kind, and "log a game" (issue 16)."""
    return _render("night.html", "night", "tabletop.js")


@bp.get("/night/games/<int:game_id>")
def night_game(game_id: int) -> Response:
    """One game of the night: its live tracker (Amrtaka, Wrath) or its result, and details."""
    return _render("night_game.html", "night", "tabletop_game.js", game_id=game_id)


@bp.get("/tower")
def tower() -> Response:
    """Tower check: camera picture, buttons, backend status."""
    return _render("tower.html", "tower", "tower.js")


@bp.get("/tower/camera")
def camera_setup() -> Response:
    """Camera set-up: live picture, tray outline, one tap per colour, check, saved calibrations."""
    return _render("camera_setup.html", "tower", "camera_setup.js")


@bp.get("/games/<int:game_id>/review")
def review(game_id: int) -> Response:
    """A game's review: step through every event, battles with photos and odds, turning points."""
    return _render("review.html", "games", "review.js", game_id=game_id)


@bp.get("/display")
@bp.get("/games/<int:game_id>/display")
def display(game_id: int | None = None) -> Response:
    """The table display for a TV: read-only, large type, follows the game live (no PIN)."""
    return _render("display.html", "display", "display.js", game_id=game_id)


@bp.get("/recap")
@bp.get("/recap/<night>")
def recap(night: str | None = None) -> Response:
    """One evening's games of every kind, facts, and its share (HTML file, PNG card)."""
    return _render("recap.html", "night", "recap.js", night=night)
