"""The roster: add, rename, merge; seats link games to people; old games stay readable."""

from __future__ import annotations

import pytest

from companion.store import GameLog, GameService
from companion.store.people import (
    DuplicatePersonError,
    InvalidPersonError,
    InvalidSeatError,
    PersonNotFoundError,
    add_person,
    game_seats,
    merge_people,
    person,
    roster,
    set_game_seats,
    update_person,
)

from .game_script import Table


def test_add_and_rename(log: GameLog) -> None:
    ana = add_person(log, "  Ana   Lima ", "AL")
    assert ana["name"] == "Ana Lima" and ana["short_name"] == "AL" and ana["games"] == 0
    with pytest.raises(DuplicatePersonError):
        add_person(log, "ana lima")
    renamed = update_person(log, ana["id"], {"name": "Ana L.", "short_name": None})
    assert renamed["name"] == "Ana L." and renamed["short_name"] is None
    for bad in ("", "   ", "x" * 61, 7):
        with pytest.raises(InvalidPersonError):
            add_person(log, bad)
    with pytest.raises(InvalidPersonError):
        update_person(log, ana["id"], {"colour": "red"})
    with pytest.raises(PersonNotFoundError):
        update_person(log, 999, {"name": "X"})
    assert [p["name"] for p in roster(log)] == ["Ana L."]


def test_seats_rename_and_merge_follow_the_history(log: GameLog) -> None:
    table = Table(GameService(log))
    old = Table(GameService(log))  # a game nobody links: stays readable by its stored names
    dirk, d2, ani = add_person(log, "Dirk"), add_person(log, "Dirk B."), add_person(log, "Ani")
    seats = set_game_seats(log, table.game_id, {"red": dirk["id"], "blue": ani["id"]})
    assert [(s["color"], s["name"], (s["person"] or {}).get("name")) for s in seats] == [
        ("red", "Dirk", "Dirk"), ("blue", "Ani", "Ani"), ("purple", "Mike", None)]
    assert all(s["person"] is None for s in game_seats(log, old.game_id))
    with pytest.raises(InvalidSeatError):
        set_game_seats(log, table.game_id, {"purple": dirk["id"]})  # one person, two colours
    with pytest.raises(InvalidSeatError):
        set_game_seats(log, table.game_id, {"yellow": d2["id"]})  # no yellow player
    update_person(log, dirk["id"], {"name": "Dirk A."})
    assert game_seats(log, table.game_id)[0]["person"]["name"] == "Dirk A."
    set_game_seats(log, old.game_id, {"red": d2["id"]})
    merged = merge_people(log, d2["id"], dirk["id"])
    assert merged["id"] == dirk["id"] and merged["games"] == 2
    assert game_seats(log, old.game_id)[0]["person"]["id"] == dirk["id"]
    assert person(log, d2["id"])["id"] == dirk["id"]  # the merged entry points on
    assert [p["name"] for p in roster(log)] == ["Ani", "Dirk A."]
    with pytest.raises(InvalidSeatError):
        merge_people(log, ani["id"], dirk["id"])  # both played game 1: two people
    with pytest.raises(InvalidPersonError):
        merge_people(log, dirk["id"], dirk["id"])
    # A merged person's name is free again for someone new.
    assert add_person(log, "Dirk B.")["name"] == "Dirk B."
