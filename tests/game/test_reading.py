"""The shared tray reading: camera counts and every +/− are events, so the version covers them."""

import pytest

from companion.game.engine import decide, replay
from companion.game.errors import (IllegalActionError, InvalidCommandError, UndoNotAllowedError,
                                   WrongPhaseError)
from companion.game.reading import news, news_message, stale_message

from .conftest import deployed, in_actions, run
from .test_warfare import attack, white_falls  # noqa: F401  (fixture)


def counted(s, **counts):
    return run(s, type="read_tray", counts=counts, reading="5-12-abcdef01", unknown=1)


def test_camera_reading_starts_the_shared_reading(white_falls):
    s = counted(attack(white_falls), purple=4, blue=3, green=1)
    assert s.reading == {"id": "5-12-abcdef01", "camera": {"purple": 4, "blue": 3, "green": 1},
                         "counts": {"purple": 4, "blue": 3, "green": 1}, "unknown": 1, "changes": []}
    assert s.to_dict()["reading"] == s.reading


def test_a_correction_changes_counts_not_camera_and_names_the_device(white_falls):
    s = counted(attack(white_falls), purple=4, blue=3, green=1)
    before = s.version
    s = run(s, type="correct_tray", color="purple", count=5, device="Ani's phone", player="blue")
    assert s.version == before + 1
    assert s.reading["camera"]["purple"] == 4 and s.reading["counts"]["purple"] == 5
    assert s.reading["changes"] == [{"color": "purple", "from": 4, "to": 5, "version": before + 1,
                                     "device": "Ani's phone", "player": "blue"}]
    s = run(s, type="correct_tray", color="green", count=0)
    assert "green" not in s.reading["counts"]
    assert replay(s.log) == s


def test_counting_by_hand_starts_from_an_empty_reading(white_falls):
    s = run(attack(white_falls), type="correct_tray", color="blue", count=3)
    assert s.reading["id"] is None and s.reading["camera"] is None
    assert s.reading["counts"] == {"blue": 3}


def test_resolve_takes_the_camera_counts_from_the_shared_reading_and_clears_it(white_falls):
    s = counted(attack(white_falls), purple=4, blue=3, green=1)
    s = run(s, type="correct_tray", color="purple", count=5)
    event = decide(s, {"type": "resolve_battle", "counts": s.reading["counts"],
                       "camera_counts": {"purple": 9}})  # a device cannot claim another camera
    assert event["camera_counts"] == {"purple": 4, "blue": 3, "green": 1}
    assert event["corrections"] == {"purple": 1}
    assert event["reading_id"] == "5-12-abcdef01"
    s = run(s, type="resolve_battle", counts=s.reading["counts"])
    assert s.reading is None


def test_refusals_change_nothing(white_falls):
    s = counted(attack(white_falls), purple=4)
    with pytest.raises(IllegalActionError, match="Purple already counts 4"):
        decide(s, {"type": "correct_tray", "color": "purple", "count": 4})
    with pytest.raises(InvalidCommandError, match="Yellow is not playing"):
        decide(s, {"type": "correct_tray", "color": "yellow", "count": 1})
    with pytest.raises(InvalidCommandError, match="at most 60"):
        decide(s, {"type": "correct_tray", "color": "blue", "count": 61})
    with pytest.raises(InvalidCommandError, match="count"):
        decide(s, {"type": "correct_tray", "color": "blue", "count": -1})
    with pytest.raises(WrongPhaseError):
        decide(in_actions(), {"type": "correct_tray", "color": "blue", "count": 1})


def test_the_camera_count_cannot_be_undone_but_a_correction_can(white_falls):
    s = counted(attack(white_falls), purple=4, blue=3)
    with pytest.raises(UndoNotAllowedError, match="correct the count"):
        decide(s, {"type": "undo"})
    corrected = run(s, type="correct_tray", color="blue", count=2)
    undone = run(corrected, type="undo")
    assert undone.reading == s.reading


def test_seeding_uses_the_shared_reading():
    s = deployed()
    for color in s.colors:
        s = run(s, type="starting_resources", player=color, gold=7, energy=9)
    tray = {"red": 2, "blue": 3, "purple": 1, "green": 4}
    s = run(s, type="read_tray", counts={**tray, "red": 1})
    s = run(s, type="correct_tray", color="red", count=2)
    split = {c: {"light": tray.get(c, 0), "dark": 0} for c in s.colors}
    event = decide(s, {"type": "seed_tower", "tray": tray, "limbo_split": split})
    assert event["camera_counts"] == {**tray, "red": 1}
    assert run(s, type="seed_tower", tray=tray, limbo_split=split).reading is None


def test_news_and_stale_message_name_what_changed():
    e = {"type": "correct_tray", "command": {"type": "correct_tray", "color": "red", "count": 5}}
    assert news(e) == "Red was corrected to 5"
    assert str(stale_message([e])) == "Red was corrected to 5 on another tablet — check and apply again."
    e4 = {"type": "correct_tray", "command": {"type": "correct_tray", "color": "red", "count": 4,
                                              "device": "Tablet 2"}}
    e5 = {"type": "correct_tray", "command": {**e4["command"], "count": 5}}
    assert str(stale_message([e4, e5])) == "Red was corrected to 5 on Tablet 2 — check and apply again."
    passed = {"type": "pass", "command": {"type": "pass", "player": "blue"}}
    assert str(stale_message([passed])).startswith("Blue passed on another tablet")
    assert stale_message([passed]).render("de").startswith("Auf einem anderen Tablet: Blau hat gepasst –")
    assert stale_message([e]).render("de") == ("Auf einem anderen Tablet: Rot wurde auf 5 korrigiert – "
                                               "prüfe und übernimm noch einmal.")


def _said(s, lang="en"):
    """The news line of the last event of ``s``, as the live stream says it."""
    names = {p.color: p.name for p in s.players}
    return news_message(s.log[-1], names, s.board).render(lang)


def test_the_news_line_is_a_sentence_naming_the_player_the_region_and_the_armies(white_falls):
    """Issue 24: the line said "ani: attack" and "resolve battle"."""
    s = attack(white_falls)
    assert _said(s) == "Mike attacks White Falls (dark) with 4 armies"
    assert _said(s, "de") == "Mike greift White Falls (Schattenwelt) mit 4 Armeen an"
    won = run(s, type="resolve_battle", counts={"purple": 4, "blue": 3, "green": 1})
    assert _said(won) == "The battle for White Falls (dark) was resolved: Mike wins"
    assert _said(won, "de") == "Der Kampf um White Falls (Schattenwelt) wurde ausgewertet: Mike gewinnt"
    held = run(attack(white_falls, card="other"), type="resolve_battle", counts={"purple": 1, "blue": 3})
    assert _said(held) == "The battle for White Falls (dark) was resolved: Ani holds the region"
    passed = run(won, type="pass", player=won.turn, compensation="energy")
    name = won.player(won.turn).name
    assert _said(passed) == f"{name} passed and took 1 energy"
    assert _said(passed, "de") == f"{name} hat gepasst und 1 Energie genommen"


def test_every_step_of_a_game_says_a_sentence_not_a_command_name():
    s = deployed()
    for color in s.colors:
        s = run(s, type="starting_resources", player=color, gold=7, energy=9)
        assert _said(s) == f"{s.player(color).name} starts with 7 gold and 9 energy"
    s = in_actions()
    said = [news_message(e, {p.color: p.name for p in s.players}, s.board) for e in s.log]
    for line in said:
        for lang in ("en", "de"):
            text = line.render(lang)
            assert ":" not in text and "_" not in text, text  # not "{player}: {what}", no command id
            assert text[0].isupper() and len(text.split()) >= 3, text
    english = [line.render("en") for line in said]
    assert english[0] == "A new game was started"
    assert any(t.startswith("Dirk set up ") and " in the start region " in t for t in english), english
