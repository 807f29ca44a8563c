"""The shared tray reading: what the camera counted for the pending throw, and every +/−.

The reading lives in the game state (``state.reading``), so it has the game's version: each
camera count (``read_tray``) and each correction (``correct_tray``) is one event. A device that
applies a battle or the seeding sends the version it was shown; when anyone corrected the
reading since, the store refuses the stale command and names the change (see :func:`news`).
The log keeps every correction with the device that made it, which measures the camera.

Guarantees: ``reading.counts`` is always the camera's counts with every later correction;
``camera`` is never changed by a correction (null when the tray was counted by hand); the
reading is dropped when the throw it belongs to is applied.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from . import commands as c
from .colors import GREEN, display
from .effects import Changes
from .errors import IllegalActionError, InvalidCommandError
from .state import GameState
from .wording import Message, Player, Sentences, Term, msg

MAX_COUNT = 60  # more cubes than a tray holds is a typo


def empty_reading() -> dict[str, Any]:
    """A reading counted by hand: nothing from the camera yet."""
    return {"id": None, "camera": None, "counts": {}, "unknown": 0, "changes": []}


def read_tray(state: GameState, cmd: c.ReadTray) -> Changes:
    # Colours nobody plays are kept: the camera saw them, the players correct them.
    counts = {col: n for col, n in cmd.counts.items() if n}
    ch = Changes()
    ch.set("reading", {"id": cmd.reading, "camera": dict(counts), "counts": dict(counts),
                       "unknown": cmd.unknown or 0, "changes": []})
    return ch


def correct_tray(state: GameState, cmd: c.CorrectTray) -> Changes:
    if cmd.color != GREEN and cmd.color not in state.colors:
        raise InvalidCommandError(msg("err_colour_not_playing", colour=Term(f"color_{cmd.color}", cmd.color)))
    if cmd.count > MAX_COUNT:
        raise InvalidCommandError(msg("err_tray_too_many", cubes=msg("msg_cubes", count="n", n=cmd.count,
                                      colour=Term(f"colour_word_{cmd.color}", cmd.color)), most=MAX_COUNT))
    reading = copy.deepcopy(state.reading) if state.reading is not None else empty_reading()
    before = reading["counts"].get(cmd.color, 0)
    if before == cmd.count:
        raise IllegalActionError(msg("err_count_unchanged", colour=Term(f"color_{cmd.color}", cmd.color), n=cmd.count))
    if cmd.count:
        reading["counts"][cmd.color] = cmd.count
    else:
        reading["counts"].pop(cmd.color, None)
    change = {"color": cmd.color, "from": before, "to": cmd.count, "version": state.version + 1}
    if cmd.device:
        change["device"] = cmd.device
    if cmd.player:
        change["player"] = cmd.player
    reading["changes"].append(change)
    ch = Changes()
    ch.set("reading", reading)
    return ch


def camera_of(state: GameState, sent: Any) -> dict[str, int] | None:
    """What the camera read for this throw: the shared reading's, else what the command says."""
    if state.reading is not None and state.reading.get("camera") is not None:
        return dict(state.reading["camera"])
    return None if sent is None else dict(sent)


def news_message(event: dict[str, Any], names: Mapping[str, str] | None = None) -> Message:
    """One sentence saying what an event changed, for a device whose view it made stale.
    ``names`` (colour → player name) names the player who acted; else their colour."""
    kind = event.get("type", "")
    cmd = event.get("command") or {}
    who = cmd.get("player")
    if kind == "correct_tray":
        colour = str(cmd.get("color", ""))
        return msg("news_corrected", colour=Term(f"color_{colour}", display(colour)), n=cmd.get("count"))
    if kind == "read_tray":
        return msg("news_read_tray")
    if kind == "undo":
        undone = str(event.get("undone_type", ""))
        return msg("news_undone", what=Term(f"news_what_{undone}", undone.replace("_", " ")))
    what = Term(f"news_what_{kind}", kind.replace("_", " "))
    if who:
        if names and names.get(who):
            return msg("news_player", player=Player(who, names[who]), what=what)
        return msg("news_player", player=Term(f"color_{who}", display(who)), what=what)
    return msg("news_event", what=what)


def news(event: dict[str, Any]) -> str:
    """:func:`news_message` in English (the live stream's ``news``)."""
    return str(news_message(event))


def summary_message(events: list[dict[str, Any]], limit: int = 3,
                    names: Mapping[str, str] | None = None) -> Message:
    """"Red was corrected to 5; Blue: pass" — what ``events`` changed, the last ``limit``
    things named (a colour corrected twice counts once, with its last value)."""
    said: list[Message] = []
    for e in events:
        line = news_message(e, names)
        if e.get("type") == "correct_tray":
            said = [m for m in said if not (m.key == "news_corrected" and m.params["colour"] == line.params["colour"])]
        if line not in said:
            said.append(line)
    more = len(said) - limit
    lines = Sentences(tuple(said[-limit:]), "; ")
    if more > 0:
        return msg("news_more", count="n", lines=lines, n=more)
    return msg("news_lines", lines=lines)


def stale_message(events: list[dict[str, Any]], limit: int = 3,
                  names: Mapping[str, str] | None = None) -> Message:
    """"Red was corrected to 5 on another tablet — check and apply again." for the events a
    stale command missed (oldest first); ``str()`` is English, the API says it in the
    device's language."""
    if not events:
        return msg("stale_unknown")
    devices = {(e.get("command") or {}).get("device") for e in events}
    devices.discard(None)
    if len(devices) == 1:
        return msg("stale_on_device", changes=summary_message(events, limit, names), device=str(devices.pop()))
    return msg("stale_elsewhere", changes=summary_message(events, limit, names))
