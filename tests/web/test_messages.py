"""Server messages: catalogue key + parameters, rendered per language (companion.messages).

Complements tests/e2e/test_i18n.py (same keys and placeholders in both languages): here every
key the *Python* code names must exist in both catalogues, parameters are formatted for the
language with Babel, players are named, and the HTTP API answers in the page's language.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import messages
from companion.game.errors import NotYourTurnError
from companion.messages import Place, Player, Term, from_json, localize, msg, render_stored, to_json
from companion.web import i18n
from tests.web.conftest import in_actions, state_of

ROOT = Path(messages.__file__).resolve().parent
# msg("key" …) and Term("key" …) with a literal key, anywhere in the companion package.
_LITERAL = re.compile(r"""\b(?:msg|Term)\(\s*["']([a-z0-9_]+)["']""")
_PLURAL = re.compile(r"""\bmsg\(\s*["']([a-z0-9_]+)["'](?:(?!msg\()[^)])*\bcount=""")


def _python_keys() -> tuple[set[str], set[str]]:
    keys: set[str] = set()
    plurals: set[str] = set()
    for path in ROOT.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        keys |= set(_LITERAL.findall(text))
        plurals |= set(_PLURAL.findall(text))
    return keys - plurals, plurals


def test_the_scan_finds_the_server_messages() -> None:
    keys, plurals = _python_keys()
    assert {"err_not_your_turn", "err_undo_nothing", "err_no_army"} <= keys
    assert "err_leave_one" in plurals


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_message_key_the_server_uses_exists_in_every_language(lang: str) -> None:
    keys, plurals = _python_keys()
    catalogue = i18n.strings(lang)
    wanted = keys | {f"{k}_{form}" for k in plurals for form in ("one", "other")}
    missing = sorted(wanted - set(catalogue))
    assert not missing, missing


def test_players_are_named_not_coloured_and_colours_are_words_of_the_language() -> None:
    m = msg("err_not_your_turn", turn=Player("black", "Anna"), player=Player("red"))
    assert m.render("en") == "It is Anna's turn, not Red's."
    assert m.render("de") == "Anna ist am Zug, nicht Rot."
    assert str(m) == m.render("en")  # str() is the English sentence (logs, CLI, old callers)


def test_numbers_lists_and_plurals_follow_the_language() -> None:
    assert messages.number(1 / 3, "en") == "0.33" and messages.number(1 / 3, "de") == "0,33"
    assert messages.number(1234.5, "de") == "1.234,5"
    assert messages.join(["Anna", "Ben", "Eva"], "en") == "Anna, Ben and Eva"  # British, as the UI
    assert messages.join(["Anna", "Ben", "Eva"], "de") == "Anna, Ben und Eva"
    one = msg("err_leave_one", count="have", player=Player("red", "Dirk"), have=1,
              region=Place("White Falls", "light"), most=0, verb=Term("verb_attack"))
    assert one.render("en").startswith("Dirk has only 1 army in White Falls (light)")
    assert "1 Armee in White Falls (Lichtwelt)" in one.render("de")
    many = msg("err_leave_one", count="have", player=Player("red", "Dirk"), have=5,
               region=Place("The Murk", "dark"), most=4, verb=Term("verb_attack"))
    assert many.render("de") == ("Dirk hat nur 5 Armeen in The Murk (Schattenwelt) und muss eine "
                                 "zurücklassen, also können höchstens 4 angreifen.")


def test_an_error_raised_with_a_message_is_english_by_str_and_german_when_asked() -> None:
    err = NotYourTurnError(msg("err_not_your_turn", turn=Player("blue", "Ani"), player=Player("red", "Dirk")))
    assert str(err) == "It is Ani's turn, not Dirk's."
    assert localize(err, "de") == "Ani ist am Zug, nicht Dirk."
    assert localize(ValueError("plain"), "de") == "plain"  # an unconverted error stays as written


def test_a_stored_message_survives_json_and_renders_in_each_language() -> None:
    m = msg("warn_adjacency_unknown", a=Place("The Murk"), b=Place("Heartwood"))
    stored = to_json(m)
    assert stored["text"] == m.render("en")
    assert from_json(stored) == m
    assert render_stored(stored, "de") == m.render("de") != m.render("en")
    assert render_stored("an old English warning", "de") == "an old English warning"
    assert render_stored({"key": "x", "params": {"a": {"player": 5}}, "text": "kept"}, "de") == "kept"


def test_unknown_keys_fall_back_instead_of_failing() -> None:
    assert msg("no_such_key_anywhere").render("de") == "no_such_key_anywhere"
    assert Term("ev_no_such_event", "no such event").render("de") == "no such event"
    assert msg("err_no_army", player=Player("red", "Dirk")).render("en").count("{region}") == 1


def test_the_api_answers_a_refused_command_in_the_pages_language(client) -> None:
    game_id = in_actions(client)
    state = state_of(client, game_id)
    other = next(p["color"] for p in state["players"] if p["color"] != state["turn"])
    body = {"command": {"type": "pass", "player": other, "compensation": "gold"}}
    english = client.post(f"/api/games/{game_id}/commands", json=body)
    german = client.post(f"/api/games/{game_id}/commands", json=body, headers={"Accept-Language": "de"})
    assert english.status_code == german.status_code == 400
    assert english.get_json()["error"]["kind"] == german.get_json()["error"]["kind"] == "NotYourTurnError"
    names = {p["color"]: p["name"] for p in state["players"]}
    assert english.get_json()["error"]["message"] == f"It is {names[state['turn']]}'s turn, not {names[other]}'s."
    assert german.get_json()["error"]["message"] == f"{names[state['turn']]} ist am Zug, nicht {names[other]}."
    client.set_cookie("lang", "de")  # the page's remembered choice wins over the browser's
    again = client.post(f"/api/games/{game_id}/commands", json=body, headers={"Accept-Language": "en"})
    assert again.get_json()["error"]["message"] == german.get_json()["error"]["message"]
    assert state_of(client, game_id)["version"] == state["version"]  # refused: nothing changed


def test_http_errors_of_the_api_are_in_the_pages_language(client) -> None:
    answer = client.get("/api/nothing-here", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert answer.status_code == 404
    assert answer.get_json()["error"]["message"] == "Unter dieser Adresse gibt es nichts."


def test_live_news_is_english_json_and_said_in_each_devices_language() -> None:
    import json

    from companion.game.reading import news_message
    from companion.messages import Said
    from companion.web.live import Message as LiveMessage

    event = {"type": "correct_tray", "command": {"type": "correct_tray", "color": "red", "count": 5}}
    news = Said(news_message(event))
    assert news == "Red was corrected to 5" and json.dumps(news) == '"Red was corrected to 5"'
    live = LiveMessage("state", {"game": 1, "version": 4, "news": news}, game=1, id=4)
    assert '"news":"Red was corrected to 5"' in live.encode()
    assert '"news":"Rot wurde auf 5 korrigiert"' in live.encode("de")


def test_a_stale_refusal_names_the_player_who_acted_in_the_devices_language() -> None:
    from companion.game.reading import stale_message

    passed = {"type": "pass", "command": {"type": "pass", "player": "blue"}}
    said = stale_message([passed], names={"blue": "Ani"})
    assert str(said) == "Ani passed on another tablet — check and apply again."
    assert said.render("de") == "Auf einem anderen Tablet: Ani hat gepasst – prüfe und übernimm noch einmal."


def test_board_names_are_the_pages_names_german_when_entered_and_a_stand_in_when_not() -> None:
    from companion.messages import Named

    entered = Place(Named("White Falls", "Weiße Fälle"), "light")  # a name_de the owner typed
    assert entered.render("en") == "White Falls (light)"
    assert entered.render("de") == "Weiße Fälle (Lichtwelt)"
    unnamed = msg("warn_area_bonus_unknown", areas=[Named("Area 3 (name not entered)", None, "unnamed_area", 3)])
    assert "Area 3 (no name yet)" in unnamed.render("en")
    assert "Region 3 (noch ohne Namen)" in unnamed.render("de")  # our area is the German "Region"
    assert render_stored(to_json(unnamed), "de") == unnamed.render("de")
