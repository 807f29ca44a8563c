"""The group's roster of people, and who played which colour in which game.

A game's events know colours and the names typed for them; people live beside the log, in the
``people`` and ``seats`` tables (schema v3), so renaming or merging someone never touches a
stored event. Guarantees:

- a roster name occurs once (case-insensitive); a short name is optional (≤ 12 characters);
- **rename** changes the name everywhere at once (games refer to the person, not the text);
- **merge** moves every seat of one person to another and takes the first off the roster;
  the merged entry is kept (``merged_into``), so nothing that referred to it breaks;
- a game without seats (an old game, or one started without the roster) stays readable: its
  players are shown by the names stored in the game.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from companion.store.errors import GameNotFoundError, StoreError
from companion.store.log import GameLog

MAX_NAME = 60
MAX_SHORT = 12


class PersonError(StoreError, ValueError):
    """Root of the roster's errors caused by what the caller sent."""


class PersonNotFoundError(PersonError):
    def __init__(self, person_id: object) -> None:
        super().__init__(f"There is nobody with number {person_id} on the roster.")
        self.person_id = person_id


class InvalidPersonError(PersonError):
    """A name that is empty, too long, or not text."""


class DuplicatePersonError(PersonError):
    def __init__(self, name: str) -> None:
        super().__init__(f"{name} is already on the roster. Pick another name, or merge the two.")


class InvalidSeatError(PersonError):
    """A seat assignment naming a colour the game does not have, or one person twice."""


def _clean_name(value: Any, what: str, limit: int, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        if optional and isinstance(value, str):
            return None
        raise InvalidPersonError(f"The {what} must be some text.")
    value = " ".join(value.split())
    if len(value) > limit:
        raise InvalidPersonError(f"The {what} can be at most {limit} characters long.")
    return value


def _person_id(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise PersonNotFoundError(value)
    return value


def _row(conn: sqlite3.Connection, person_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM people WHERE id = ?", (person_id,)).fetchone()
    if row is None:
        raise PersonNotFoundError(person_id)
    return row


def current_entry(conn: sqlite3.Connection, person_id: int) -> sqlite3.Row:
    """The roster entry a (possibly merged) person now lives on."""
    row = _row(conn, person_id)
    seen = {row["id"]}
    while row["merged_into"] is not None:
        row = _row(conn, row["merged_into"])
        if row["id"] in seen:  # cannot happen through this module; never loop on a bad file
            break
        seen.add(row["id"])
    return row


def _as_dict(row: sqlite3.Row, games: int | None = None) -> dict[str, Any]:
    out = {"id": row["id"], "name": row["name"], "short_name": row["short_name"],
           "created_at": row["created_at"]}
    if row["merged_into"] is not None:
        out["merged_into"] = row["merged_into"]
    if games is not None:
        out["games"] = games
    return out


def _unique(conn: sqlite3.Connection, name: str, except_id: int | None = None) -> None:
    clash = conn.execute(
        "SELECT id FROM people WHERE merged_into IS NULL AND lower(trim(name)) = lower(?)"
        " AND id IS NOT ?", (name, except_id)).fetchone()
    if clash is not None:
        raise DuplicatePersonError(name)


def add_person(log: GameLog, name: Any, short_name: Any = None) -> dict[str, Any]:
    """Put someone on the roster; return their entry."""
    clean = _clean_name(name, "name", MAX_NAME)
    short = _clean_name(short_name, "short name", MAX_SHORT, optional=True)
    with log._transaction(write=True) as conn:  # noqa: SLF001 — same package
        _unique(conn, clean)
        person_id = conn.execute(
            "INSERT INTO people (name, short_name, created_at) VALUES (?, ?, ?)",
            (clean, short, log._clock()),  # noqa: SLF001
        ).lastrowid
        return _as_dict(_row(conn, person_id), games=0)


def roster(log: GameLog) -> list[dict[str, Any]]:
    """Everyone on the roster (merged entries left out), by name, with their number of games."""
    with log.reading() as conn:
        rows = conn.execute(
            """SELECT p.*, (SELECT count(*) FROM seats AS s WHERE s.person_id = p.id) AS games
                 FROM people AS p WHERE p.merged_into IS NULL ORDER BY lower(p.name), p.id"""
        ).fetchall()
    return [_as_dict(r, r["games"]) for r in rows]


def person(log: GameLog, person_id: Any) -> dict[str, Any]:
    """One entry (a merged one answers with the entry it was merged into, and says so)."""
    person_id = _person_id(person_id)
    with log.reading() as conn:
        row = current_entry(conn, person_id)
        games = conn.execute("SELECT count(*) FROM seats WHERE person_id = ?", (row["id"],)).fetchone()[0]
    return _as_dict(row, games)


def update_person(log: GameLog, person_id: Any, changes: Mapping[str, Any]) -> dict[str, Any]:
    """Rename (``name``) and/or set or clear (``null``) the ``short_name``."""
    person_id = _person_id(person_id)
    unknown = set(changes) - {"name", "short_name"}
    if unknown:
        raise InvalidPersonError(f"A person has a name and a short name, not {', '.join(sorted(unknown))}.")
    with log._transaction(write=True) as conn:  # noqa: SLF001
        row = current_entry(conn, person_id)
        name = row["name"]
        short = row["short_name"]
        if "name" in changes:
            name = _clean_name(changes["name"], "name", MAX_NAME)
            _unique(conn, name, except_id=row["id"])
        if "short_name" in changes:
            short = _clean_name(changes["short_name"], "short name", MAX_SHORT, optional=True)
        conn.execute("UPDATE people SET name = ?, short_name = ? WHERE id = ?", (name, short, row["id"]))
        return _as_dict(_row(conn, row["id"]))


def merge_people(log: GameLog, person_id: Any, into_id: Any) -> dict[str, Any]:
    """Move every game of ``person_id`` to ``into_id`` and take ``person_id`` off the roster.

    Refused (nothing changes) when both played in the same game — one person cannot have sat
    at two colours.
    """
    source_id, target_id = _person_id(person_id), _person_id(into_id)
    with log._transaction(write=True) as conn:  # noqa: SLF001
        source, target = current_entry(conn, source_id), current_entry(conn, target_id)
        if source["id"] == target["id"]:
            raise InvalidPersonError("A person cannot be merged into themselves.")
        both = conn.execute(
            """SELECT a.game_id FROM seats AS a JOIN seats AS b ON a.game_id = b.game_id
                WHERE a.person_id = ? AND b.person_id = ? LIMIT 1""",
            (source["id"], target["id"])).fetchone()
        if both is not None:
            raise InvalidSeatError(
                f"{source['name']} and {target['name']} both played in game {both[0]}; "
                "they are two people and cannot be merged.")
        conn.execute("UPDATE seats SET person_id = ? WHERE person_id = ?", (target["id"], source["id"]))
        conn.execute("UPDATE people SET merged_into = ? WHERE id = ? OR merged_into = ?",
                     (target["id"], source["id"], source["id"]))
        games = conn.execute("SELECT count(*) FROM seats WHERE person_id = ?", (target["id"],)).fetchone()[0]
        return _as_dict(_row(conn, target["id"]), games)


def game_seats(log: GameLog, game_id: int) -> list[dict[str, Any]]:
    """The players of a game in seat order: colour, the name stored in the game, and the
    person (``None`` when the seat is not linked to the roster)."""
    with log.reading() as conn:
        return _seats(conn, game_id)


def _seats(conn: sqlite3.Connection, game_id: int) -> list[dict[str, Any]]:
    import json

    row = conn.execute("SELECT players FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFoundError(game_id)
    linked = {r["color"]: _as_dict(r) for r in conn.execute(
        """SELECT s.color, p.* FROM seats AS s JOIN people AS p ON p.id = s.person_id
            WHERE s.game_id = ?""", (game_id,))}
    return [{"color": p.get("color"), "name": p.get("name"), "person": linked.get(p.get("color"))}
            for p in json.loads(row["players"])]


def set_game_seats(log: GameLog, game_id: Any, people: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Link colours of a game to people: ``{colour: person_id | None}`` (``None`` unlinks).
    Colours not named keep their link. One person at most once per game."""
    if not isinstance(game_id, int) or isinstance(game_id, bool) or game_id < 1:
        raise GameNotFoundError(game_id)
    if not isinstance(people, Mapping):
        raise InvalidSeatError("Say which person sat at which colour, like {\"red\": 3}.")
    with log._transaction(write=True) as conn:  # noqa: SLF001
        seats = _seats(conn, game_id)
        colours = {s["color"] for s in seats}
        wanted = {s["color"]: (s["person"] or {}).get("id") for s in seats}
        for colour, pid in people.items():
            if colour not in colours:
                raise InvalidSeatError(f"Game {game_id} has no {colour} player.")
            wanted[colour] = None if pid is None else current_entry(conn, _person_id(pid))["id"]
        chosen = [p for p in wanted.values() if p is not None]
        if len(chosen) != len(set(chosen)):
            raise InvalidSeatError("One person can only play one colour in a game.")
        conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        conn.executemany("INSERT INTO seats (game_id, color, person_id) VALUES (?, ?, ?)",
                         [(game_id, c, p) for c, p in wanted.items() if p is not None])
        return _seats(conn, game_id)
