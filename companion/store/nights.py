"""The game-night log: the other games of an evening, in the same SQLite file (schema v5).

A game here is a built-in game of :mod:`companion.tabletop` (or the generic one), its players
(roster people or free names), start and end time, notes and an optional photo, and its
**events** — the score sheet's acts, the live tracker's gains and turns, a generic result.
Guarantees, as for the main game log (:mod:`companion.store.log`):

- **Parse, then apply, then write.** A request is parsed into :class:`NewGame` / an event
  (shape only), applied to the state replayed from the stored events (the rules), and only
  then written — one ``BEGIN IMMEDIATE`` transaction per call. A refused input raises a
  ``ValueError`` subclass with a sentence for players and changes nothing.
- **Durable.** An acknowledged event is committed (WAL, ``synchronous=FULL``): a power cut
  during a live Amrtaka or Wrath game loses nothing that was confirmed.
- **Append-only events.** ``tt_events`` rows are never changed (the schema's triggers refuse
  it); a wrong entry is taken back by an ``undo`` event. ``state`` and ``winners`` of
  ``tt_games`` are derived from the events and rewritten with each one.
- **Optimistic concurrency.** An event may carry the version it was decided against; a stale
  one is refused with :class:`~companion.store.errors.VersionConflictError` (two tablets
  tapping +5 at once do not both count against an outdated screen).
- **Delete** removes the game, its events and its roster links together (the photo file is
  removed by the caller after the commit).

People: a player is ``{"key": "p1", "name": ..., "person_id": n | None}``; linked players show
the roster's current name (rename and merge follow, a merged entry is read through its
``merged_into``).

The *night* of a game is the local date of its start minus :data:`NIGHT_STARTS_BEFORE` hours, so
a game begun at 1 am belongs to the evening before.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from typing import Any

from companion.messages import Term, msg
from companion.names import first_repeated
from companion.store.errors import StoreError, VersionConflictError
from companion.store.log import GameLog
from companion.store.people import PersonNotFoundError, current_entry
from companion.tabletop import GAME_MODULES, parse_event, rules_for, step
from companion.tabletop.base import Event, Rules, State
from companion.tabletop.errors import TabletopError, name_seats

MAX_NAME = 60
MAX_GAME_NAME = 100
MAX_NOTES = 2000
NIGHT_STARTS_BEFORE = 6  # hours after midnight that still belong to the evening before
PHOTO_TYPES = {b"\xff\xd8\xff": ("image/jpeg", "jpg"), b"\x89PNG\r\n\x1a\n": ("image/png", "png")}
MAX_PHOTO_BYTES = 2 * 1024 * 1024


class NightError(StoreError, ValueError):
    """Root of the game-night log's errors caused by what the caller sent."""


class NightGameNotFoundError(NightError):
    def __init__(self, game_id: object) -> None:
        super().__init__(msg("tt_err_not_found", n=str(game_id)))
        self.game_id = game_id


class InvalidNightGameError(NightError):
    """A game to log that is not well formed (name, players, times, notes)."""


class InvalidPhotoError(NightError):
    """A photo that is not a JPEG or PNG picture, or too large."""


# -- parsing ---------------------------------------------------------------------------------------

def _text(value: Any, what: Any, limit: int, optional: bool = False) -> str | None:
    """Text of at most ``limit`` characters (spaces squeezed in names); ``what`` names the field
    in a refusal (a catalogue word or message)."""
    if value is None and optional:
        return None
    if not isinstance(value, str) or (not value.strip() and not optional):
        raise InvalidNightGameError(msg("tt_err_text_needed", what=what))
    value = " ".join(value.split()) if limit <= MAX_GAME_NAME else value.strip()
    if len(value) > limit:
        raise InvalidNightGameError(msg("tt_err_text_long", what=what, limit=limit))
    return value or None


def parse_time(value: Any, what: str) -> str | None:
    """An ISO 8601 time with its zone (``2026-11-24T19:30:00Z``) as stored UTC text."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidNightGameError(f"The {what} must be a date and time like 2026-11-24T19:30:00Z.")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise InvalidNightGameError(
            f"The {what} {value!r} is not a date and time like 2026-11-24T19:30:00Z.") from None
    if moment.tzinfo is None:
        raise InvalidNightGameError(f"The {what} must say its time zone (…Z or +01:00).")
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds")


def _person_id(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidNightGameError(f"{value!r} is not the number of anyone on the roster.")
    return value


def parse_players(raw: Any) -> list[dict[str, Any]]:
    """``[{"name": ..., "person_id": n?}, ...]`` → players with keys ``p1``, ``p2``, … in order.
    A name may be left out when a person is given (the roster name is used)."""
    if not isinstance(raw, list) or not raw:
        raise InvalidNightGameError("Name the players: a list like [{\"name\": \"Ani\"}, …].")
    out = []
    for i, p in enumerate(raw):
        if isinstance(p, str):
            p = {"name": p}
        if not isinstance(p, Mapping):
            raise InvalidNightGameError(f"Player {i + 1} must have a name or a roster person.")
        person = _person_id(p.get("person_id"))
        name = _text(p.get("name"), msg("tt_field_player_name", n=i + 1), MAX_NAME, optional=person is not None)
        out.append({"key": f"p{i + 1}", "name": name, "person_id": person})
    return out


@dataclass(frozen=True)
class NewGame:
    """A checked request to log a game (nothing looked up in the database yet)."""

    game: str
    name: str
    players: list[dict[str, Any]]
    options: dict[str, Any]
    started_at: str | None
    ended_at: str | None
    notes: str
    events: list[Event] = field(default_factory=list)


def parse_new_game(raw: Any) -> NewGame:
    """A :class:`NewGame` from untrusted JSON: ``{"game", "name"?, "players", "options"?,
    "started_at"?, "ended_at"?, "notes"?, "events"?}``. The game's rules check its events' shape
    here and the events against each other on :func:`create_game`."""
    if not isinstance(raw, Mapping):
        raise InvalidNightGameError("Send the game as named values.")
    unknown = set(raw) - {"game", "name", "players", "options", "started_at", "ended_at", "notes", "events"}
    if unknown:
        raise InvalidNightGameError(f"A game-night game has no field {', '.join(sorted(unknown))}.")
    rules = rules_for(raw.get("game"))
    name = _text(raw.get("name"), Term("tt_field_game_name"), MAX_GAME_NAME,
                 optional=rules.key != "generic") or rules.title_en
    players = parse_players(raw.get("players"))
    keys = [p["key"] for p in players]
    options = rules.parse_options(raw.get("options"), keys)
    rules.check_players(keys, options)
    events = raw.get("events") or []
    if not isinstance(events, list):
        raise InvalidNightGameError("The events must be a list.")
    return NewGame(game=rules.key, name=name, players=players, options=options,
                   started_at=parse_time(raw.get("started_at"), "start"),
                   ended_at=parse_time(raw.get("ended_at"), "end"),
                   notes=_text(raw.get("notes") or "", Term("tt_field_notes"), MAX_NOTES, optional=True) or "",
                   events=[parse_event(rules, e) for e in events])


# -- reading ---------------------------------------------------------------------------------------

def _check_id(game_id: Any) -> int:
    if isinstance(game_id, bool) or not isinstance(game_id, int) or game_id < 1:
        raise NightGameNotFoundError(game_id)
    return game_id


def _row(conn: sqlite3.Connection, game_id: int) -> sqlite3.Row:
    row = conn.execute("SELECT * FROM tt_games WHERE id = ? AND status <> 'deleting'", (game_id,)).fetchone()
    if row is None:
        raise NightGameNotFoundError(game_id)
    return row


def _events(conn: sqlite3.Connection, game_id: int) -> list[dict[str, Any]]:
    return [json.loads(r[0]) for r in conn.execute(
        "SELECT payload FROM tt_events WHERE game_id = ? ORDER BY seq", (game_id,))]


def night_of(started_at: str) -> str:
    """The evening a game belongs to (local date of its start minus a few hours)."""
    moment = datetime.fromisoformat(started_at).astimezone()
    return (moment - timedelta(hours=NIGHT_STARTS_BEFORE)).date().isoformat()


def minutes(started_at: str | None, ended_at: str | None) -> int | None:
    if not started_at or not ended_at:
        return None
    span = datetime.fromisoformat(ended_at) - datetime.fromisoformat(started_at)
    return max(0, round(span.total_seconds() / 60))


_PEOPLE = """SELECT s.game_id, s.player, p.id, p.name FROM tt_seats AS s
               JOIN people AS o ON o.id = s.person_id
               JOIN people AS p ON p.id = coalesce(o.merged_into, o.id)"""


def _linked(conn: sqlite3.Connection, game_id: int | None = None) -> dict[tuple[int, str], dict[str, Any]]:
    sql, args = (_PEOPLE, ()) if game_id is None else (_PEOPLE + " WHERE s.game_id = ?", (game_id,))
    return {(g, k): {"id": pid, "name": name} for g, k, pid, name in conn.execute(sql, args)}


def _as_dict(row: sqlite3.Row, linked: Mapping[tuple[int, str], dict[str, Any]],
             events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    state = json.loads(row["state"])
    players = []
    for p in json.loads(row["players"]):
        person = linked.get((row["id"], p["key"]))
        players.append({"key": p["key"], "name": person["name"] if person else p["name"],
                        "person": person, "score": state["scores"].get(p["key"]),
                        "winner": row["status"] == "finished" and p["key"] in state["winners"]})
    out = {"id": row["id"], "game": row["game"], "name": row["name"], "status": row["status"],
           "version": row["version"], "live": rules_for(row["game"]).live,
           "options": json.loads(row["options"]), "players": players,
           "winners": json.loads(row["winners"]) if row["winners"] else None,
           "started_at": row["started_at"], "ended_at": row["ended_at"],
           "minutes": minutes(row["started_at"], row["ended_at"]), "night": night_of(row["started_at"]),
           "notes": row["notes"], "photo": bool(row["photo"]), "state": state,
           "created_at": row["created_at"], "updated_at": row["updated_at"]}
    if events is not None:
        out["events"] = events
    return out


def get_game(log: GameLog, game_id: Any) -> dict[str, Any]:
    """One game with its state, players (roster names where linked) and its events."""
    game_id = _check_id(game_id)
    with log.reading() as conn:
        row = _row(conn, game_id)
        return _as_dict(row, _linked(conn, game_id), _events(conn, game_id))


def list_games(log: GameLog, night: Any = None) -> list[dict[str, Any]]:
    """Every game (of one night, ``YYYY-MM-DD``, when given), newest first."""
    where, args = "", ()
    if night is not None:
        try:
            day = date.fromisoformat(night)
        except (TypeError, ValueError):
            raise InvalidNightGameError(f"{night!r} is not a date like 2026-11-24.") from None
        where, args = " AND started_at >= ? AND started_at < ?", _night_range(day)
    with log.reading() as conn:
        rows = conn.execute(f"SELECT * FROM tt_games WHERE status <> 'deleting'{where}"
                            " ORDER BY started_at DESC, id DESC", args).fetchall()
        linked = _linked(conn)
    return [_as_dict(r, linked) for r in rows]


def _night_range(day: date) -> tuple[str, str]:
    """The stored-time range (UTC text, as :func:`parse_time` writes it) of one evening."""
    after = day + timedelta(days=1)
    # Naive local times made aware one by one: a night across a clock change is 23 or 25 hours.
    bounds = (datetime(day.year, day.month, day.day, NIGHT_STARTS_BEFORE).astimezone(),
              datetime(after.year, after.month, after.day, NIGHT_STARTS_BEFORE).astimezone())
    return tuple(b.astimezone(timezone.utc).isoformat(timespec="milliseconds") for b in bounds)  # type: ignore[return-value]


def nights(log: GameLog) -> list[dict[str, Any]]:
    """The evenings with games: ``[{"night", "games"}]``, newest first."""
    counts: dict[str, int] = {}
    with log.reading() as conn:
        for (started,) in conn.execute("SELECT started_at FROM tt_games WHERE status <> 'deleting'"):
            key = night_of(started)
            counts[key] = counts.get(key, 0) + 1
    return [{"night": k, "games": n} for k, n in sorted(counts.items(), reverse=True)]


# -- writing ---------------------------------------------------------------------------------------

def _check_people(conn: sqlite3.Connection, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Fill the roster name of players given only as a person; refuse unknown people and one
    person twice."""
    seen: set[int] = set()
    out = []
    for p in players:
        pid = p["person_id"]
        if pid is not None:
            try:
                row = current_entry(conn, pid)
            except PersonNotFoundError:
                raise InvalidNightGameError(msg("tt_err_not_on_roster", n=str(pid))) from None
            if row["id"] in seen:
                raise InvalidNightGameError(msg("tt_err_person_twice", name=row["name"]))
            seen.add(row["id"])
            p = {**p, "person_id": row["id"], "name": p["name"] or row["name"]}
        out.append(p)
    if first_repeated(p["name"] for p in out if p["person_id"] is None) is not None:
        raise InvalidNightGameError(msg("tt_err_same_name"))
    return out


def _write_state(conn: sqlite3.Connection, game_id: int, state: Mapping[str, Any], now: str,
                 ended_at: str | None, started_at: str) -> None:
    status = "finished" if state["over"] else "live"
    if status == "finished" and ended_at is None:
        ended_at = now if now >= started_at else started_at
    if status == "live":
        ended_at = None
    conn.execute("UPDATE tt_games SET state = ?, status = ?, winners = ?, ended_at = ?, updated_at = ?"
                 " WHERE id = ?",
                 (json.dumps(state), status, json.dumps(state["winners"]) if state["over"] else None,
                  ended_at, now, game_id))


def _step(rules: Rules, keys: list[str], options: Mapping[str, Any], events: list[dict[str, Any]],
          event: Event, names: Mapping[str, str]) -> State:
    """:func:`companion.tabletop.step`, with the players in a refusal named as the table knows them."""
    try:
        return step(rules, keys, options, events, event)
    except TabletopError as exc:
        raise name_seats(exc, names) from None


def create_game(log: GameLog, new: NewGame) -> dict[str, Any]:
    """Log a game (with its first events, e.g. a score sheet's two acts, all or nothing)."""
    now = log._clock()  # noqa: SLF001 — same package
    started = new.started_at or now
    if new.ended_at is not None and new.ended_at < started:
        raise InvalidNightGameError(msg("tt_err_end_before_start"))
    rules = rules_for(new.game)
    keys = [p["key"] for p in new.players]
    state = rules.new_state(keys, new.options)
    stored: list[dict[str, Any]] = []
    with log.reading() as conn:  # roster names for a refusal's message (checked again below)
        names = {p["key"]: p["name"] for p in _check_people(conn, new.players)}
    for event in new.events:
        state = _step(rules, keys, new.options, stored, event, names)
        stored.append(event.to_json())
    with log._transaction(write=True) as conn:  # noqa: SLF001
        players = _check_people(conn, new.players)
        game_id = conn.execute(
            """INSERT INTO tt_games (game, name, options, players, status, state, started_at,
                   ended_at, notes, created_at, updated_at)
               VALUES (?, ?, ?, ?, 'live', ?, ?, ?, ?, ?, ?)""",
            (new.game, new.name, json.dumps(new.options),
             json.dumps([{"key": p["key"], "name": p["name"]} for p in players]),
             json.dumps(state), started, new.ended_at, new.notes, now, now)).lastrowid
        conn.executemany("INSERT INTO tt_seats (game_id, player, person_id) VALUES (?, ?, ?)",
                         [(game_id, p["key"], p["person_id"]) for p in players if p["person_id"]])
        for seq, payload in enumerate(stored, start=1):
            conn.execute("INSERT INTO tt_events (game_id, seq, type, payload, created_at)"
                         " VALUES (?, ?, ?, ?, ?)", (game_id, seq, payload["type"], json.dumps(payload), now))
        _write_state(conn, game_id, state, now, new.ended_at, started)
        return _as_dict(_row(conn, game_id), _linked(conn, game_id), stored)


def add_event(log: GameLog, game_id: Any, raw: Any, expected_version: int | None = None) -> dict[str, Any]:
    """Apply one event (or ``{"type": "undo"}``) to a game; return the game as it is now.

    Refused (nothing written): an event of the wrong shape, against the rules (an unknown
    player, a score below zero, a game already over, a turn past the limit), or decided against
    an old version (:class:`VersionConflictError`)."""
    game_id = _check_id(game_id)
    with log.reading() as conn:
        rules = rules_for(_row(conn, game_id)["game"])
    event = parse_event(rules, raw)  # shape first, outside the write lock
    now = log._clock()  # noqa: SLF001
    with log._transaction(write=True) as conn:  # noqa: SLF001
        row = _row(conn, game_id)
        if expected_version is not None and expected_version != row["version"]:
            raise VersionConflictError(game_id, expected_version, row["version"],
                                       msg("tt_err_version"))  # type: ignore[arg-type]
        events = _events(conn, game_id)
        players = json.loads(row["players"])
        keys = [p["key"] for p in players]
        linked = _linked(conn, game_id)
        names = {p["key"]: (linked.get((game_id, p["key"])) or p)["name"] for p in players}
        state = _step(rules, keys, json.loads(row["options"]), events, event, names)
        payload = event.to_json()
        conn.execute("INSERT INTO tt_events (game_id, seq, type, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                     (game_id, row["version"] + 1, payload["type"], json.dumps(payload), now))
        keep_end = row["ended_at"] if row["status"] == "finished" else None
        _write_state(conn, game_id, state, now, keep_end, row["started_at"])
        return _as_dict(_row(conn, game_id), linked, [*events, payload])  # the seats did not change


def update_game(log: GameLog, game_id: Any, changes: Any) -> dict[str, Any]:
    """Edit what is not a score: ``name``, ``notes``, ``started_at``, ``ended_at`` (a finished
    game's), ``players`` (``[{"name", "person_id"?}]``, same number and order). Scores change
    through events (undo, then the right entry)."""
    game_id = _check_id(game_id)
    if not isinstance(changes, Mapping) or not changes:
        raise InvalidNightGameError("Send what to change, like {\"notes\": \"...\"}.")
    unknown = set(changes) - {"name", "notes", "started_at", "ended_at", "players"}
    if unknown:
        raise InvalidNightGameError(
            f"{', '.join(sorted(unknown))} cannot be edited here; scores change by undo and a new entry.")
    now = log._clock()  # noqa: SLF001
    with log._transaction(write=True) as conn:  # noqa: SLF001
        row = _row(conn, game_id)
        rules = rules_for(row["game"])
        name = row["name"]
        if "name" in changes:
            name = _text(changes["name"], Term("tt_field_game_name"), MAX_GAME_NAME)
        notes = row["notes"]
        if "notes" in changes:
            notes = _text(changes["notes"] or "", Term("tt_field_notes"), MAX_NOTES, optional=True) or ""
        started = parse_time(changes["started_at"], "start") if "started_at" in changes else row["started_at"]
        if started is None:
            raise InvalidNightGameError(msg("tt_err_need_start"))
        ended = parse_time(changes["ended_at"], "end") if "ended_at" in changes else row["ended_at"]
        if ended is not None and row["status"] != "finished":
            raise InvalidNightGameError(msg("tt_err_live_no_end"))
        if row["status"] == "finished" and ended is None:
            raise InvalidNightGameError(msg("tt_err_keeps_end"))
        if ended is not None and ended < started:
            raise InvalidNightGameError(msg("tt_err_end_before_start"))
        players = json.loads(row["players"])
        if "players" in changes:
            new = parse_players(changes["players"])
            if len(new) != len(players):
                raise InvalidNightGameError(
                    f"This game has {len(players)} players; rename them, but start a new game to change who played.")
            players = _check_people(conn, new)
            rules.check_players([p["key"] for p in players], json.loads(row["options"]))
            conn.execute("DELETE FROM tt_seats WHERE game_id = ?", (game_id,))
            conn.executemany("INSERT INTO tt_seats (game_id, player, person_id) VALUES (?, ?, ?)",
                             [(game_id, p["key"], p["person_id"]) for p in players if p["person_id"]])
            players = [{"key": p["key"], "name": p["name"]} for p in players]
        conn.execute("""UPDATE tt_games SET name = ?, notes = ?, started_at = ?, ended_at = ?, players = ?,
                            updated_at = ? WHERE id = ?""",
                     (name, notes, started, ended, json.dumps(players), now, game_id))
        return _as_dict(_row(conn, game_id), _linked(conn, game_id), _events(conn, game_id))


def delete_game(log: GameLog, game_id: Any) -> str | None:
    """Delete a game with its events and roster links; return its photo's file name (the caller
    removes the file after this commit) or ``None``."""
    game_id = _check_id(game_id)
    with log._transaction(write=True) as conn:  # noqa: SLF001
        row = _row(conn, game_id)
        conn.execute("UPDATE tt_games SET status = 'deleting' WHERE id = ?", (game_id,))
        conn.execute("DELETE FROM tt_events WHERE game_id = ?", (game_id,))
        conn.execute("DELETE FROM tt_seats WHERE game_id = ?", (game_id,))
        conn.execute("DELETE FROM tt_games WHERE id = ?", (game_id,))
        return row["photo"]


# -- photos ----------------------------------------------------------------------------------------

def photo_kind(data: bytes) -> tuple[str, str]:
    """``(mime type, extension)`` of a JPEG or PNG picture, else :class:`InvalidPhotoError`."""
    if not data:
        raise InvalidPhotoError("The photo is empty.")
    if len(data) > MAX_PHOTO_BYTES:
        raise InvalidPhotoError(f"The photo is larger than {MAX_PHOTO_BYTES // (1024 * 1024)} MB.")
    for magic, kind in PHOTO_TYPES.items():
        if data.startswith(magic):
            return kind
    raise InvalidPhotoError(msg("tt_err_photo_type"))


def set_photo(log: GameLog, game_id: Any, filename: str | None) -> str | None:
    """Record the game's photo file name (``None`` removes it); return the previous one."""
    game_id = _check_id(game_id)
    with log._transaction(write=True) as conn:  # noqa: SLF001
        old = _row(conn, game_id)["photo"]
        conn.execute("UPDATE tt_games SET photo = ?, updated_at = ? WHERE id = ?",
                     (filename, log._clock(), game_id))  # noqa: SLF001
        return old


def photo_of(log: GameLog, game_id: Any) -> str | None:
    game_id = _check_id(game_id)
    with log.reading() as conn:
        return _row(conn, game_id)["photo"]


# -- BoardGameGeek ids -----------------------------------------------------------------------------

def bgg_ids(log: GameLog) -> dict[str, int]:
    """The BoardGameGeek id per game (a rules key, or a generic game's name in lower case)."""
    with log.reading() as conn:
        return {r[0]: r[1] for r in conn.execute("SELECT game, bgg_id FROM tt_bgg_ids ORDER BY game")}


def set_bgg_ids(log: GameLog, changes: Any) -> dict[str, int]:
    """Set (a whole number) or clear (``null``) ids: ``{"amrtaka": 123, "carcassonne": null}``.
    All are checked before any is written."""
    if not isinstance(changes, Mapping) or not changes:
        raise InvalidNightGameError("Send the ids as {game: number or null}.")
    clean: dict[str, int | None] = {}
    for game, value in changes.items():
        key = game if game in GAME_MODULES else " ".join(str(game).split()).lower()
        if not key or len(key) > MAX_GAME_NAME:
            raise InvalidNightGameError("A game's name must be some text of at most 100 characters.")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= 10**9):
            raise InvalidNightGameError(msg("tt_err_bgg_id", game=str(game)))
        clean[key] = value
    with log._transaction(write=True) as conn:  # noqa: SLF001
        for key, value in clean.items():
            if value is None:
                conn.execute("DELETE FROM tt_bgg_ids WHERE game = ?", (key,))
            else:
                conn.execute("INSERT INTO tt_bgg_ids (game, bgg_id) VALUES (?, ?)"
                             " ON CONFLICT (game) DO UPDATE SET bgg_id = excluded.bgg_id", (key, value))
    return bgg_ids(log)


def bgg_key(game: str, name: str) -> str:
    """Which BoardGameGeek id a game uses: its rules key, or a generic game's name."""
    return " ".join(name.split()).lower() if game == "generic" else game


__all__ = ["InvalidNightGameError", "InvalidPhotoError", "NewGame", "NightError",
           "NightGameNotFoundError", "TabletopError", "add_event", "bgg_ids", "create_game",
           "delete_game", "get_game", "list_games", "nights", "parse_new_game", "set_bgg_ids",
           "set_photo", "update_game"]
