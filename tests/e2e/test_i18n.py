"""The interface strings: same keys in every language, every key the UI uses exists, language choice."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.web import i18n
from tests.web.conftest import PLAYERS

from .test_layout import games, open_page  # noqa: F401  (fixtures: a game in the actions phase and one in a battle)

WEB = Path(i18n.__file__).resolve().parent.parent
# t("key") / plural("key") in the JS modules and t.key in the templates.
_JS_KEY = re.compile(r"\b(?:t|plural)\(\"([a-z0-9_]+)\"")
_JS_PLURAL = re.compile(r"\bplural\(\"([a-z0-9_]+)\"")
_TEMPLATE_KEY = re.compile(r"\bt\.([a-z0-9_]+)")


def _used_keys() -> set[str]:
    keys: set[str] = set()
    for js in (WEB / "static" / "js").glob("*.js"):
        text = js.read_text(encoding="utf-8")
        keys |= set(_JS_KEY.findall(text)) - set(_JS_PLURAL.findall(text))
        keys |= {f"{k}_{form}" for k in _JS_PLURAL.findall(text) for form in ("one", "other")}
    for html in (WEB / "templates").glob("*.html"):
        keys |= set(_TEMPLATE_KEY.findall(html.read_text(encoding="utf-8")))
    return keys


def test_both_languages_have_exactly_the_same_keys() -> None:
    en, de = i18n.strings("en"), i18n.strings("de")
    assert set(en) == set(de), sorted(set(en) ^ set(de))


def test_every_key_the_ui_uses_exists() -> None:
    used = _used_keys()
    assert len(used) > 100  # the scan really found the UI's keys
    missing = sorted(used - set(i18n.strings("en")))
    assert not missing, missing


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_placeholders_match_between_languages(lang: str) -> None:
    field = re.compile(r"\{(\w+)\}")
    en = i18n.strings("en")
    for key, text in i18n.strings(lang).items():
        assert set(field.findall(text)) == set(field.findall(en[key])), key


def test_german_uses_the_rulebook_words() -> None:
    de = i18n.strings("de")
    assert de["realm_light"] == "Lichtwelt" and de["realm_dark"] == "Schattenwelt"
    assert de["field_region"] == "Land"  # our region is the German "Land"
    assert de["board_areas"] == "Regionen"  # our area is the German "Region"
    assert de["act_transition_3"] == "Erwecken 3"
    rulebook = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "immortals-rules-de.txt"
    if rulebook.exists():
        text = rulebook.read_text(encoding="utf-8")
        for word in ("Limbus", "Schrein", "Hauptstadt", "Bewohner", "Vorrat", "Startspieler", "Erwecken 3"):
            assert word in text


def test_strings_returns_a_copy() -> None:
    first = i18n.strings("en")
    first["app_title"] = "changed"
    assert i18n.strings("en")["app_title"] != "changed"


def test_unknown_language_is_a_clear_value_error() -> None:
    with pytest.raises(i18n.UnknownLanguageError, match="no texts"):
        i18n.strings("fr")
    assert issubclass(i18n.UnknownLanguageError, ValueError)


@pytest.mark.parametrize(
    ("query", "cookie", "header", "expected"),
    [
        (None, None, None, "en"),
        (None, None, "de-DE,de;q=0.9,en;q=0.8", "de"),
        (None, None, "fr-FR, en;q=0.5, de;q=0.7", "de"),
        (None, None, "fr, it", "en"),
        (None, "de", "en", "de"),
        ("en", "de", "de", "en"),
        ("xx", "de", "en", "de"),
        ("DE", None, None, "de"),
        (None, None, "de;q=0, en;q=0.1", "en"),
        (None, None, "de;q=bogus, en", "en"),
    ],
)
def test_choose_language(query, cookie, header, expected) -> None:
    assert i18n.choose_language(query, cookie, header) == expected


def test_strings_files_are_plain_json_objects_of_text() -> None:
    for lang in i18n.LANGUAGES:
        data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        assert all(isinstance(v, str) for v in data.values())


# --- every page in German, in a real browser (issue 14) ------------------------------------------

# English words that must not appear on a German page ("Region" is German too: our area). The board's own names (regions, areas,
# tribes — proper nouns the German rulebook keeps in English) and the players' names are taken
# out first; everything else a German player reads must be German.
ENGLISH_WORDS = (
    "the", "and", "of", "with", "for", "not", "only", "must", "has", "cannot", "yet", "none",
    "turn", "round", "player", "players", "game", "games", "attack", "attacker", "defender",
    "battle", "seeding", "armies", "army", "regions", "area", "limbo", "tray", "cube",
    "cubes", "tower", "energy", "light", "dark", "realm", "pass", "move", "shrine", "capital",
    "marker", "wins", "undo", "loading", "entered", "settings", "statistics", "camera", "count",
    "simulated", "calibrated", "colors", "colours", "ready", "buttons", "seen",
)
_WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+")


_NOT_WORDS = re.compile(r"\S+\.(?:csv|json|toml|jpg)\b")  # file names (ids on screen still count)


def english_words(text: str, names: set[str]) -> list[str]:
    text = text.replace("\u00ad", "")  # a soft hyphen only marks where a word may break ("Startspieler­marker")
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    text = _NOT_WORDS.sub(" ", text)
    english = set(ENGLISH_WORDS)
    return sorted({w for w in _WORD.findall(text) if w.lower() in english})


@pytest.mark.e2e
@pytest.mark.parametrize("name", ["games", "new-game", "game-actions", "game-battle", "game-over", "stats", "tower", "board",
                                  "night", "camera-setup"])
def test_every_page_in_german_has_no_english_words(open_page, games, name: str) -> None:
    from playwright.sync_api import expect

    from .test_layout import PAGES

    path, ready = PAGES[name]
    page = open_page(path.format(**games), "tablet", locale="de-DE")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator(ready).first).to_be_attached()
    if name.startswith("game-"):
        expect(page.locator("#history li").first).to_be_attached()
    boards = [page.evaluate("async () => (await fetch('/api/board')).json()")]
    if name.startswith("game-"):  # the game's own board snapshot (its names when it started)
        game = path.format(**games).rsplit("/", 1)[1]
        boards.append(page.evaluate(f"async () => (await (await fetch('/api/games/{game}')).json()).state.board"))
    names = {x["name"] for board in boards for key in ("regions", "areas", "tribes") for x in _rows(board.get(key))}
    names |= {p["name"] for p in PLAYERS}
    names |= {"Wrath of the Immortals", "Immortal (Game-O-Gami)", "Amrtaka"}  # games' own names
    text = page.locator("body").inner_text()
    found = english_words(text, names)
    assert found == [], [line for line in text.splitlines() if set(_WORD.findall(line)) & set(found)][:12]
    assert page.js_errors == [], page.js_errors


def _rows(value: object) -> list[dict]:
    if isinstance(value, dict):
        return [dict(v, id=k) if isinstance(v, dict) else {"name": str(v)} for k, v in value.items()]
    return [v for v in value or [] if isinstance(v, dict) and "name" in v]
