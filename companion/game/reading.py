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
from .board import BUILDINGS
from .colors import GREEN, REALMS, display
from .effects import Changes
from .errors import IllegalActionError, InvalidCommandError
from .state import GameState
from .wording import Message, Place, Player, Sentences, Term, msg, named

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


def _place(board: Any, region: Any, realm: Any = None) -> Place | None:
    """A region as the reader's page names it ("Mountainhome (light)"); its id without a board."""
    if not region:
        return None
    name = named(board, "region", str(region)) if board is not None else str(region)
    return Place(name, realm if realm in REALMS else None)


def _effects(event: dict[str, Any], op: str) -> list[dict[str, Any]]:
    return [e for e in event.get("effects") or () if isinstance(e, Mapping) and e.get("op") == op]


def _armies(n: Any) -> Message:
    return msg("news_armies", count="n", n=n)


def _gain(event: dict[str, Any], who: str, field: str) -> int:
    """What ``who`` gained of ``field`` (gold, energy) by this event."""
    return sum(e.get("delta", 0) for e in _effects(event, "player")
               if e.get("player") == who and e.get("field") == field and e.get("delta", 0) > 0)


def _placed(event: dict[str, Any], who: str) -> tuple[int, list[dict[str, Any]]]:
    """The armies ``who`` put on the board by this event, and where (first mention first)."""
    added = [e for e in _effects(event, "armies") if e.get("color") == who and e.get("delta", 0) > 0]
    return sum(e["delta"] for e in added), added


def _resources(gold: int, energy: int) -> Any:
    parts = ([msg("news_gold", n=gold)] if gold else []) + ([msg("news_energy", n=energy)] if energy else [])
    return parts


def _battle_message(event: dict[str, Any], player: Any) -> Message:
    battle, result = event.get("battle") or {}, event.get("result") or {}
    where = _place(player.board, battle.get("target"), battle.get("realm"))
    if where is None or "winner" not in result:
        return msg("news_resolve_battle")
    winner = result["winner"]
    if winner == "attacker":
        return msg("news_battle_won", region=where, player=player(battle.get("attacker")))
    if winner == "defender":
        return msg("news_battle_held", region=where, player=player(battle.get("defender")))
    if winner == "inhabitants":
        return msg("news_battle_inhabitants", region=where)
    return msg("news_battle_tie", region=where)


class _Who:
    """Names the players of an event: by name when known, else by their colour."""

    def __init__(self, names: Mapping[str, str] | None, board: Any) -> None:
        self.names, self.board = names or {}, board

    def __call__(self, color: Any) -> Player:
        return Player(str(color or ""), self.names.get(color) or "")


def news_message(event: dict[str, Any], names: Mapping[str, str] | None = None, board: Any = None) -> Message:
    """One sentence saying what an event changed, for a device whose view it made stale:
    "Ani attacks Mountainhome (light) with 3 armies", "The battle for Mountainhome (light) was
    resolved: Ben wins". ``names`` (colour → player name) names the player who acted (else their
    colour); ``board`` names the regions (else their ids). No final full stop: the lines are
    also joined ("…; …") and said inside other sentences (:func:`stale_message`)."""
    kind = event.get("type", "")
    cmd = event.get("command") or {}
    who = cmd.get("player")
    player = _Who(names, board)
    if kind == "correct_tray":
        colour = str(cmd.get("color", ""))
        return msg("news_corrected", colour=Term(f"color_{colour}", display(colour)), n=cmd.get("count"))
    if kind == "read_tray":
        return msg("news_read_tray")
    if kind == "undo":
        undone = str(event.get("undone_type", ""))
        return msg("news_undone", what=Term(f"news_what_{undone}", undone.replace("_", " ")))
    if kind == "resolve_battle":
        return _battle_message(event, player)
    if kind in _NO_PLAYER:
        return msg(f"news_{kind}")
    if kind == "correct":
        return msg("news_correct", reason=str(cmd.get("reason", "")))
    said = _said(kind, cmd, event, player, board) if who else None
    if said is not None:
        return said
    what = Term(f"news_what_{kind}", kind.replace("_", " "))
    if who:
        return msg("news_player", player=player(who), what=what)
    return msg("news_event", what=what)


_NO_PLAYER = ("new_game", "finish_deployment", "seed_tower", "start_actions", "score_round")
_PLAIN = ("skip_deploy", "draw_conflict_card", "draw_two_cards", "take_first_player")  # "{player} …"


def _said(kind: str, cmd: dict[str, Any], event: dict[str, Any], player: _Who, board: Any) -> Message | None:
    """The sentence of a player's own step, with the detail the event has; None: no sentence."""
    who = cmd["player"]
    p = player(who)
    region = _place(board, cmd.get("region"), cmd.get("realm"))
    if kind in _PLAIN:
        return msg(f"news_{kind}", player=p)
    if kind == "deploy_start":
        n, added = _placed(event, who)
        light = [e for e in added if e.get("realm") == "light"] or added
        where = _place(board, cmd.get("region") or (light[0]["region"] if light else None))
        if where is None:
            return None
        return msg("news_deploy_start", player=p, armies=_armies(cmd.get("armies", n)), region=where)
    if kind in ("deploy", "reinforce", "transition_2", "transition_3", "transition_5"):
        n, added = _placed(event, who)
        n = n or cmd.get("armies") or sum(pl.get("armies", 0) for pl in cmd.get("placements") or ())
        places = [] if region is None else [region]
        for e in added:
            there = _place(board, e.get("region"), e.get("realm"))
            if there not in places:
                places.append(there)
        key = "news_deploy" if kind == "deploy" else "news_reinforce" if kind == "reinforce" else "news_transition"
        if not places:
            return msg("news_reinforce_none", player=p) if kind == "reinforce" else None
        return msg(key, player=p, armies=_armies(n), regions=places)
    if kind == "starting_resources":
        return msg("news_starting_resources", player=p, gold=cmd.get("gold", 0), energy=cmd.get("energy", 0))
    if kind in ("extract_gold", "extract_energy") and region is not None:
        field = kind.removeprefix("extract_")
        return msg(f"news_{kind}", player=p, region=region, gain=msg(f"news_{field}", n=_gain(event, who, field)))
    if kind == "construct" and region is not None and cmd.get("building") in BUILDINGS:
        return msg(f"news_construct_{cmd['building']}", player=p, region=region)
    if kind in ("demons_shrine", "magic_shrine") and region is not None:
        return msg(f"news_{kind}", player=p, region=region)
    if kind == "take_over_card" and region is not None:
        won = any(e.get("holder") == who for e in _effects(event, "card"))
        return msg("news_took_over_card" if won else "news_kept_card", player=p, region=_place(board, cmd.get("region")))
    if kind == "attack":
        realm = cmd.get("realm")
        if cmd.get("via_portal"):
            realm = {"light": "dark", "dark": "light"}.get(realm, realm)
        target = _place(board, cmd.get("target"), realm)
        if target is None:
            return None
        return msg("news_attack", player=p, region=target, armies=_armies(cmd.get("armies", 0)))
    if kind == "move":
        source = _place(board, cmd.get("source"), cmd.get("realm"))
        target = _place(board, cmd.get("target"), cmd.get("target_realm") or cmd.get("realm"))
        if source is None or target is None:
            return None
        return msg("news_move", player=p, armies=_armies(cmd.get("armies", 0)), source=source, target=target)
    if kind in ("pass", "forfeit"):
        gained = _resources(_gain(event, who, "gold"), _gain(event, who, "energy"))
        if not gained:
            return msg(f"news_{kind}_nothing", player=p)
        return msg(f"news_{kind}", player=p, gain=gained)
    return None


def news(event: dict[str, Any]) -> str:
    """:func:`news_message` in English (the live stream's ``news``)."""
    return str(news_message(event))


def summary_message(events: list[dict[str, Any]], limit: int = 3,
                    names: Mapping[str, str] | None = None, board: Any = None) -> Message:
    """"Red was corrected to 5; Blue: pass" — what ``events`` changed, the last ``limit``
    things named (a colour corrected twice counts once, with its last value)."""
    said: list[Message] = []
    for e in events:
        line = news_message(e, names, board)
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
                  names: Mapping[str, str] | None = None, board: Any = None) -> Message:
    """"Red was corrected to 5 on another tablet — check and apply again." for the events a
    stale command missed (oldest first); ``str()`` is English, the API says it in the
    device's language."""
    if not events:
        return msg("stale_unknown")
    devices = {(e.get("command") or {}).get("device") for e in events}
    devices.discard(None)
    if len(devices) == 1:
        return msg("stale_on_device", changes=summary_message(events, limit, names, board), device=str(devices.pop()))
    return msg("stale_elsewhere", changes=summary_message(events, limit, names, board))
