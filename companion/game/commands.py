"""Commands: what a player (or the table) asks the engine to do, parsed from JSON dicts.

Parsing only checks the *shape* (types, known fields, colours, realms, counts); whether the
command is allowed is the engine's job (``engine.decide``). ``parse_command`` raises
:class:`InvalidCommandError` naming the field that is wrong. Every command accepts an optional
``player``; for commands that nobody in particular performs it only records who pressed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .battle import validate_counts
from .board import BUILDINGS
from .colors import ALL_COLORS, PLAYER_COLORS, REALMS
from .errors import InvalidBattleError, InvalidCommandError
from .spaces import FORFEIT_SPACES

CARDS = ("target", "source", "other")  # which region the card played on the attack space shows
COMPENSATIONS = ("gold", "energy")
ATTACK_SPECIALS = ("night_elves", "trolls")


@dataclass(frozen=True)
class Placement:
    region: str
    armies: int
    realm: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"region": self.region, "armies": self.armies}
        if self.realm is not None:
            d["realm"] = self.realm
        return d


@dataclass(frozen=True)
class PlayerSetup:
    color: str
    name: str
    light_tribe: str
    dark_tribe: str

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Command:
    """Base of every command; ``type`` is the JSON ``"type"``."""

    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe, without absent optional fields; ``parse_command`` reads it back equal."""
        d: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if v is None or (v is False and f.default is False):
                continue
            if isinstance(v, tuple):
                v = [x.to_dict() if hasattr(x, "to_dict") else x for x in v]
            d[f.name] = v
        return d


def _cmd(name: str):
    def wrap(cls):
        cls.type = name
        return dataclass(frozen=True)(cls)
    return wrap


@_cmd("new_game")
class NewGame(Command):
    players: tuple[PlayerSetup, ...]
    first_player: str
    rounds: int | None = None
    board: Mapping[str, Any] | None = None
    title: str | None = None
    player: str | None = None


@_cmd("deploy_start")
class DeployStart(Command):
    player: str
    armies: int
    region: str | None = None


@_cmd("deploy")
class Deploy(Command):
    player: str
    region: str
    realm: str
    armies: int
    wild: bool = False


@_cmd("skip_deploy")
class SkipDeploy(Command):
    player: str


@_cmd("finish_deployment")
class FinishDeployment(Command):
    player: str | None = None


@_cmd("starting_resources")
class StartingResources(Command):
    player: str
    gold: int
    energy: int


@_cmd("seed_tower")
class SeedTower(Command):
    tray: Mapping[str, int]
    limbo_split: Mapping[str, Mapping[str, int]]
    camera_counts: Mapping[str, int] | None = None
    accept_impossible: bool = False
    player: str | None = None


@_cmd("reinforce")
class Reinforce(Command):
    player: str
    placements: tuple[Placement, ...]


@_cmd("start_actions")
class StartActions(Command):
    player: str | None = None


@_cmd("extract_gold")
class ExtractGold(Command):
    player: str
    region: str
    realm: str
    amount: int | None = None
    special: bool = False


@_cmd("extract_energy")
class ExtractEnergy(Command):
    player: str
    region: str
    realm: str
    amount: int | None = None


@_cmd("transition_3")
class Transition3(Command):
    player: str
    region: str
    realm: str
    armies: int | None = None
    special: bool = False


@_cmd("construct")
class Construct(Command):
    player: str
    region: str
    realm: str
    building: str
    cost: Mapping[str, int] | None = None


@_cmd("demons_shrine")
class DemonsShrine(Command):
    player: str
    region: str
    realm: str


@_cmd("attack")
class Attack(Command):
    player: str
    source: str
    target: str
    realm: str
    armies: int
    card: str
    via_portal: bool = False
    special: str | None = None


@_cmd("resolve_battle")
class ResolveBattle(Command):
    counts: Mapping[str, int]
    camera_counts: Mapping[str, int] | None = None
    accept_impossible: bool = False
    player: str | None = None


@_cmd("read_tray")
class ReadTray(Command):
    """What the camera counted in the tray for the pending throw (sent by the server's counter,
    not by a device). Starts (or, on a recount, replaces) the shared reading."""

    counts: Mapping[str, int]
    reading: str | None = None  # the id of the stored photo and its details
    unknown: int | None = None  # blobs of no known colour
    player: str | None = None


@_cmd("correct_tray")
class CorrectTray(Command):
    """One +/− on the shared reading: ``color`` now counts ``count`` (absolute: the tray is the
    truth, so two devices setting the same value agree). ``device`` names the tablet."""

    color: str
    count: int
    device: str | None = None
    player: str | None = None


@_cmd("move")
class Move(Command):
    player: str
    source: str
    target: str
    realm: str
    armies: int
    target_realm: str | None = None
    path: tuple[Placement, ...] | None = None  # waypoints as {region, realm?}; armies unused


@_cmd("transition_5")
class Transition5(Command):
    player: str
    realm: str
    placements: tuple[Placement, ...]


@_cmd("transition_2")
class Transition2(Command):
    player: str
    realm: str
    placements: tuple[Placement, ...]


@_cmd("draw_conflict_card")
class DrawConflictCard(Command):
    player: str


@_cmd("take_first_player")
class TakeFirstPlayer(Command):
    player: str


@_cmd("draw_two_cards")
class DrawTwoCards(Command):
    player: str


@_cmd("take_over_card")
class TakeOverCard(Command):
    player: str
    region: str
    realm: str


@_cmd("magic_shrine")
class MagicShrine(Command):
    player: str
    region: str
    realm: str


@_cmd("forfeit")
class Forfeit(Command):
    """A revealed card not performed. ``space``: the action space it lay on (see spaces.py);
    absent = an army space the table does not name."""

    player: str
    compensation: str
    space: str | None = None


@_cmd("pass")
class Pass(Command):
    player: str
    compensation: str


@_cmd("score_round")
class ScoreRound(Command):
    player: str | None = None


@_cmd("undo")
class Undo(Command):
    player: str | None = None


@_cmd("correct")
class Correct(Command):
    """A logged manual fix; each list entry sets an absolute value (the table is the truth)."""

    reason: str
    armies: tuple[Mapping[str, Any], ...] = ()  # {region, realm, color, count}
    limbo: tuple[Mapping[str, Any], ...] = ()  # {player, realm, count}
    resources: tuple[Mapping[str, Any], ...] = ()  # {player, gold?, energy?, vp?}
    cards: tuple[Mapping[str, Any], ...] = ()  # {region, holder: colour | null}
    buildings: tuple[Mapping[str, Any], ...] = ()  # {region, realm, building?: null|shrine|capital, portal?}
    tray: Mapping[str, int] | None = None
    first_player: str | None = None  # who starts this round
    marker_holder: str | None = None  # who holds the first-player marker (starts the next round)
    round: int | None = None  # the round being played
    player: str | None = None


COMMANDS: dict[str, type[Command]] = {
    c.type: c for c in Command.__subclasses__()  # type: ignore[misc]
}


# --- parsing ------------------------------------------------------------------------------


def _bad(cmd: str, message: str) -> InvalidCommandError:
    return InvalidCommandError(f"The {cmd.replace('_', ' ')} command {message}")


def _count(cmd: str, name: str, v: Any, minimum: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _bad(cmd, f"needs a whole number for {name!r}, not {v!r}.")
    if v < minimum:
        raise _bad(cmd, f"needs {name!r} to be at least {minimum}, not {v}.")
    return v


def _choice(cmd: str, name: str, v: Any, allowed: tuple[str, ...]) -> str:
    if v not in allowed:
        raise _bad(cmd, f"needs {name!r} to be one of {', '.join(allowed)}, not {v!r}.")
    return v


def _text(cmd: str, name: str, v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise _bad(cmd, f"needs a text for {name!r}.")
    return v


def _counts(cmd: str, name: str, v: Any) -> dict[str, int]:
    try:
        return validate_counts(v, f"The {name.replace('_', ' ')} of the {cmd.replace('_', ' ')} command")
    except InvalidBattleError as e:
        raise InvalidCommandError(str(e)) from None


def _placements(cmd: str, name: str, v: Any) -> tuple[Placement, ...]:
    if not isinstance(v, list):
        raise _bad(cmd, f"needs {name!r} as a list of {{region, armies}}.")
    out = []
    for item in v:
        if isinstance(item, str) and name == "path":
            item = {"region": item}
        if not isinstance(item, Mapping) or "region" not in item:
            raise _bad(cmd, f"needs every entry of {name!r} to name a region.")
        extra = set(item) - {"region", "realm", "armies"}
        if extra:
            raise _bad(cmd, f"has an unknown field {sorted(extra)[0]!r} in {name!r}.")
        realm = item.get("realm")
        if realm is not None:
            _choice(cmd, "realm", realm, REALMS)
        armies = 0 if name == "path" else _count(cmd, "armies", item.get("armies"), 1)
        out.append(Placement(_text(cmd, "region", item["region"]), armies, realm))
    return tuple(out)


def _players(cmd: str, v: Any) -> tuple[PlayerSetup, ...]:
    if not isinstance(v, list):
        raise _bad(cmd, "needs 'players' as a list.")
    out = []
    for p in v:
        if not isinstance(p, Mapping):
            raise _bad(cmd, "needs every player as {color, name, light_tribe, dark_tribe}.")
        extra = set(p) - {"color", "name", "light_tribe", "dark_tribe"}
        if extra:
            raise _bad(cmd, f"has an unknown player field {sorted(extra)[0]!r}.")
        color = _choice(cmd, "color", p.get("color"), PLAYER_COLORS)
        name = p.get("name") or color.capitalize()
        out.append(PlayerSetup(color, _text(cmd, "name", name),
                               _text(cmd, "light_tribe", p.get("light_tribe")),
                               _text(cmd, "dark_tribe", p.get("dark_tribe"))))
    return tuple(out)


def _entries(cmd: str, name: str, v: Any) -> tuple[Mapping[str, Any], ...]:
    if not isinstance(v, list) or not all(isinstance(x, Mapping) for x in v):
        raise _bad(cmd, f"needs {name!r} as a list of objects.")
    return tuple(dict(x) for x in v)


def _field(cmd: str, name: str, v: Any) -> Any:
    """Validate one field by its name: field names mean the same in every command."""
    if name == "color" and cmd == "correct_tray":
        return _choice(cmd, name, v, ALL_COLORS)
    if name == "count" and cmd == "correct_tray":
        return _count(cmd, name, v)
    if name == "unknown":
        return _count(cmd, name, v)
    if name in ("reading", "device"):
        text = _text(cmd, name, v)
        if len(text) > 60:
            raise _bad(cmd, f"needs {name!r} to be at most 60 characters long.")
        return text
    if name in ("player", "first_player", "marker_holder"):
        return _choice(cmd, name, v, PLAYER_COLORS)
    if name in ("realm", "target_realm"):
        return _choice(cmd, name, v, REALMS)
    if name in ("region", "source", "target", "reason", "title"):
        return _text(cmd, name, v)
    if name == "armies":
        return _count(cmd, name, v, 1)
    if name in ("amount", "gold", "energy"):
        return _count(cmd, name, v)
    if name == "space":
        return _choice(cmd, name, v, FORFEIT_SPACES)
    if name in ("rounds", "round"):
        return _count(cmd, name, v, 1)
    if name in ("wild", "special", "via_portal", "accept_impossible") and not (cmd == "attack" and name == "special"):
        if not isinstance(v, bool):
            raise _bad(cmd, f"needs {name!r} to be true or false.")
        return v
    if name == "special":
        return _choice(cmd, name, v, ATTACK_SPECIALS)
    if name == "card":
        return _choice(cmd, name, v, CARDS)
    if name == "compensation":
        return _choice(cmd, name, v, COMPENSATIONS)
    if name == "building":
        return _choice(cmd, name, v, BUILDINGS)
    if name in ("tray", "counts", "camera_counts"):
        return _counts(cmd, name, v)
    if name == "cost":
        if not isinstance(v, Mapping) or set(v) - {"gold", "energy"}:
            raise _bad(cmd, "needs 'cost' as {gold, energy}.")
        return {k: _count(cmd, k, v.get(k, 0)) for k in ("gold", "energy")}
    if name in ("placements", "path"):
        return _placements(cmd, name, v)
    if name == "players":
        return _players(cmd, v)
    if name == "limbo_split":
        if not isinstance(v, Mapping):
            raise _bad(cmd, "needs 'limbo_split' as {colour: {light, dark}}.")
        out = {}
        for color, split in v.items():
            _choice(cmd, "limbo_split colour", color, PLAYER_COLORS)
            if not isinstance(split, Mapping) or set(split) - set(REALMS):
                raise _bad(cmd, f"needs the limbo split of {color} as {{light, dark}}.")
            out[color] = {r: _count(cmd, f"{color} {r}", split.get(r, 0)) for r in REALMS}
        return out
    if name == "board":
        if not isinstance(v, Mapping):
            raise _bad(cmd, "needs 'board' as the board data object.")
        return v
    if name in ("armies_list", "limbo", "resources", "cards", "buildings"):
        return _entries(cmd, name, v)
    raise AssertionError(f"no validator for field {name}")  # a programming error, not input


def parse_command(data: Mapping[str, Any]) -> Command:
    """A typed command from a JSON dict; InvalidCommandError names what is wrong."""
    if not isinstance(data, Mapping):
        raise InvalidCommandError("A command must be an object with a \"type\".")
    kind = data.get("type")
    cls = COMMANDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidCommandError(f"There is no command {kind!r}.")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    for key in data:
        if key != "type" and key not in fields:
            raise _bad(kind, f"has an unknown field {key!r}.")
    values: dict[str, Any] = {}
    for name, f in fields.items():
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if name not in data or data[name] is None:
            if required:
                raise _bad(kind, f"is missing the field {name!r}.")
            continue
        v = data[name]
        if kind == "correct" and name == "armies":
            values[name] = _entries(kind, name, v)
        else:
            values[name] = _field(kind, name, v)
    return cls(**values)
