"""Board and tribe data: 25 regions in 5 areas, twins in both realms, and the ten tribes.

The rulebook does not print the map, so most of this data is entered by the owner. Unknown
values are ``None`` (absent from the TOML file) and the engine treats them gracefully: an
unknown adjacency is a warning, an unknown resource value or cost must come with the command,
an incomplete area scores no area bonus (with a warning). Nothing here is invented.

Guarantees: a :class:`Board` is always valid (loading or ``from_dict`` validates); region, area
and tribe ids are stable slugs; ``name`` fields are for display only. A name the owner has not
entered is absent from the file (``named`` is False) and ``name`` is then a stand-in such as
"Region 12 (name not entered)" (older files wrote that text as the name: it is read as not
entered). ``name_de`` is the optional German name (the German rulebook uses the
English names, so it is never required).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .colors import REALMS
from .errors import BoardDataError

REGION_COUNT = 25
AREA_COUNT = 5
REGIONS_PER_AREA = 5
BUILDINGS = ("portal", "shrine", "capital")
SPECIAL_ACTIONS = ("demons_shrine", "extract_gold", "transition_3", "attack")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
# Older files spelled "not entered" as a name; such a name is read as absent.
_LEGACY_PLACEHOLDER = re.compile(r"^(Region|Area|Light tribe|Dark tribe) \d+ \(name not entered\)$")


def stand_in(kind: str, number: int) -> str:
    """The English display name of an item whose name is not entered (``kind`` e.g. "Region")."""
    return f"{kind} {number} (name not entered)"


@dataclass(frozen=True)
class Cost:
    """Gold and energy to pay."""

    gold: int = 0
    energy: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"gold": self.gold, "energy": self.energy}


@dataclass(frozen=True)
class Yield:
    """Resources printed on one realm's half of a region card; ``None`` = not entered yet."""

    gold: int | None = None
    energy: int | None = None

    def get(self, resource: str) -> int | None:
        return self.gold if resource == "gold" else self.energy

    def to_dict(self) -> dict[str, int]:
        return {k: v for k, v in (("gold", self.gold), ("energy", self.energy)) if v is not None}


@dataclass(frozen=True)
class Region:
    id: str
    name: str  # display name: the English name, or a stand-in while ``named`` is False
    area: str | None = None  # None: membership not entered yet
    neighbours: tuple[str, ...] = ()  # known neighbours (the layout is the same in both realms)
    neighbours_complete: bool = False  # True: regions not listed are known NOT to border it
    light: Yield = field(default_factory=Yield)
    dark: Yield = field(default_factory=Yield)
    name_de: str | None = None
    named: bool = True

    def yields(self, realm: str) -> Yield:
        return self.light if realm == "light" else self.dark


@dataclass(frozen=True)
class Area:
    id: str
    name: str  # display name (a stand-in while ``named`` is False)
    name_de: str | None = None
    named: bool = True


@dataclass(frozen=True)
class Space:
    """An action space of the player board whose name only the printed board gives: the
    rulebook names seven of the eight army spaces (see companion/game/spaces.py), so the
    eighth's name is entered by the owner — a stand-in until then, never invented."""

    id: str
    name: str  # display name (a stand-in while ``named`` is False)
    name_de: str | None = None
    named: bool = False


OWNER_NAMED_SPACES = ("army_8",)


def _unnamed_spaces() -> dict[str, Space]:
    return {sid: Space(sid, "Eighth army space") for sid in OWNER_NAMED_SPACES}


@dataclass(frozen=True)
class Special:
    """A dark tribe's extra action space and what it costs."""

    action: str
    cost: Cost = field(default_factory=Cost)


@dataclass(frozen=True)
class Tribe:
    id: str
    name: str
    realm: str
    start_region: str | None = None  # light tribes only; None = not entered
    costs: Mapping[str, Cost] = field(default_factory=dict)  # building → cost, known ones only
    special: Special | None = None
    start_gold: int | None = None
    start_energy: int | None = None
    army_groups: tuple[int, ...] | None = None
    name_de: str | None = None
    named: bool = True


@dataclass(frozen=True)
class Board:
    """Validated board data. Dicts keep the file's order."""

    regions: Mapping[str, Region]
    areas: Mapping[str, Area]
    tribes: Mapping[str, Tribe]
    spaces: Mapping[str, Space] = field(default_factory=_unnamed_spaces)

    def name(self, region: str) -> str:
        """Display name of a region id (the id itself if unknown)."""
        r = self.regions.get(region)
        return r.name if r else region

    def adjacent(self, a: str, b: str) -> bool | None:
        """True/False when known; None when the owner has not entered it yet."""
        ra, rb = self.regions[a], self.regions[b]
        if b in ra.neighbours or a in rb.neighbours:
            return True
        if ra.neighbours_complete or rb.neighbours_complete:
            return False
        return None

    def area_regions(self, area: str) -> list[str]:
        return [r.id for r in self.regions.values() if r.area == area]

    def area_complete(self, area: str) -> bool:
        return len(self.area_regions(area)) == REGIONS_PER_AREA

    def tribes_of(self, realm: str) -> list[Tribe]:
        return [t for t in self.tribes.values() if t.realm == realm]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe; absent values are left out, exactly as in the TOML file."""
        return {
            "areas": [_named({"id": a.id}, a) for a in self.areas.values()],
            "regions": [_region_dict(r) for r in self.regions.values()],
            "tribes": [_tribe_dict(t) for t in self.tribes.values()],
            "spaces": [_named({"id": s.id}, s) for s in self.spaces.values()],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        """Validate and build; raises BoardDataError naming what is wrong."""
        try:
            return _build(data)
        except _Problem as p:
            raise BoardDataError(p.message) from None


def _named(d: dict[str, Any], item: Region | Area | Tribe | Space) -> dict[str, Any]:
    """``d`` plus the names the owner entered (absent ones stay absent)."""
    if item.named:
        d["name"] = item.name
    if item.name_de is not None:
        d["name_de"] = item.name_de
    return d


def _region_dict(r: Region) -> dict[str, Any]:
    d: dict[str, Any] = _named({"id": r.id}, r)
    if r.area is not None:
        d["area"] = r.area
    d["neighbours"] = list(r.neighbours)
    d["neighbours_complete"] = r.neighbours_complete
    d["light"] = r.light.to_dict()
    d["dark"] = r.dark.to_dict()
    return d


def _tribe_dict(t: Tribe) -> dict[str, Any]:
    d: dict[str, Any] = _named({"id": t.id}, t)
    d["realm"] = t.realm
    if t.start_region is not None:
        d["start_region"] = t.start_region
    if t.start_gold is not None:
        d["start_gold"] = t.start_gold
    if t.start_energy is not None:
        d["start_energy"] = t.start_energy
    if t.army_groups is not None:
        d["army_groups"] = list(t.army_groups)
    d["costs"] = {k: c.to_dict() for k, c in t.costs.items()}
    if t.special is not None:
        d["special"] = {"action": t.special.action, **t.special.cost.to_dict()}
    return d


# --- validation ---------------------------------------------------------------------------


class _Problem(Exception):
    """A semantic error plus where it is: a path like ("regions", 3, "light")."""

    def __init__(self, message: str, path: tuple[Any, ...] = ()):
        super().__init__(message)
        self.message = message
        self.path = path


def _table(data: Any, path: tuple[Any, ...], allowed: set[str], required: set[str]) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise _Problem(f"{_where(path)} must be a table of settings.", path)
    for key in data:
        if key not in allowed:
            raise _Problem(f"{_where(path)} has an unknown setting {key!r}.", path + (key,))
    for key in required:
        if key not in data:
            raise _Problem(f"{_where(path)} is missing the setting {key!r}.", path)
    return data


def _where(path: tuple[Any, ...]) -> str:
    if not path:
        return "The board file"
    if len(path) >= 2 and isinstance(path[1], int):
        what = {"regions": "Region", "areas": "Area", "tribes": "Tribe", "spaces": "Space"}.get(path[0], path[0])
        s = f"{what} number {path[1] + 1}"
        return s + "".join(f", {p}" for p in path[2:])
    return "The setting " + ".".join(str(p) for p in path)


def _text(value: Any, path: tuple[Any, ...], slug: bool = False) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Problem(f"{_where(path)} must be a non-empty text.", path)
    if slug and not _SLUG.match(value):
        raise _Problem(
            f"{_where(path)} {value!r} must be lower-case letters, digits, '-' or '_'.", path)
    return value


def _name(t: Mapping[str, Any], key: str, path: tuple[Any, ...]) -> str | None:
    """An optional name: absent (or an old placeholder) is None; present must be non-empty text."""
    if key not in t:
        return None
    value = _text(t[key], path + (key,))
    if len(value) > 60:
        raise _Problem(f"{_where(path + (key,))} is longer than 60 characters.", path + (key,))
    return None if _LEGACY_PLACEHOLDER.match(value) else value.strip()


def _count(value: Any, path: tuple[Any, ...]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Problem(f"{_where(path)} must be a whole number of 0 or more, not {value!r}.", path)
    return value


def _list(value: Any, path: tuple[Any, ...]) -> list[Any]:
    if not isinstance(value, list):
        raise _Problem(f"{_where(path)} must be a list.", path)
    return value


def _cost(value: Any, path: tuple[Any, ...], extra: set[str] = frozenset()) -> Cost:
    t = _table(value, path, {"gold", "energy"} | extra, {"gold", "energy"})
    return Cost(gold=_count(t["gold"], path + ("gold",)), energy=_count(t["energy"], path + ("energy",)))


def _build(data: Mapping[str, Any]) -> Board:
    top = _table(data, (), {"format", "areas", "regions", "tribes", "spaces"}, {"areas", "regions", "tribes"})
    areas: dict[str, Area] = {}
    for i, raw in enumerate(_list(top["areas"], ("areas",))):
        p = ("areas", i)
        t = _table(raw, p, {"id", "name", "name_de"}, {"id"})
        aid = _text(t["id"], p + ("id",), slug=True)
        if aid in areas:
            raise _Problem(f"The area id {aid!r} is used twice.", p + ("id",))
        name = _name(t, "name", p)
        areas[aid] = Area(aid, name or stand_in("Area", i + 1), _name(t, "name_de", p), name is not None)
    if len(areas) != AREA_COUNT:
        raise _Problem(f"The board has {AREA_COUNT} areas per realm, the file lists {len(areas)}.", ("areas",))

    raws = _list(top["regions"], ("regions",))
    ids: dict[str, int] = {}
    for i, raw in enumerate(raws):
        t = _table(raw, ("regions", i),
                   {"id", "name", "name_de", "area", "neighbours", "neighbours_complete", "light", "dark"},
                   {"id"})
        rid = _text(t["id"], ("regions", i, "id"), slug=True)
        if rid in ids:
            raise _Problem(f"The region id {rid!r} is used twice.", ("regions", i, "id"))
        ids[rid] = i
    if len(ids) != REGION_COUNT:
        raise _Problem(f"The board has {REGION_COUNT} regions, the file lists {len(ids)}.", ("regions",))
    regions: dict[str, Region] = {}
    names: set[str] = set()
    per_area: dict[str, int] = {}
    for i, t in enumerate(raws):
        p = ("regions", i)
        rid = t["id"]
        entered = _name(t, "name", p)
        if entered is not None and entered.casefold() in names:
            raise _Problem(f"The region name {entered!r} is used twice.", p + ("name",))
        if entered is not None:
            names.add(entered.casefold())
        name = entered or stand_in("Region", i + 1)
        area = t.get("area")
        if area is not None:
            if area not in areas:
                raise _Problem(f"{_where(p)} ({name}) names the area {area!r}, which is not listed.", p + ("area",))
            per_area[area] = per_area.get(area, 0) + 1
            if per_area[area] > REGIONS_PER_AREA:
                raise _Problem(f"The area {areas[area].name} has more than {REGIONS_PER_AREA} regions.", p + ("area",))
        neighbours = []
        for n in _list(t.get("neighbours", []), p + ("neighbours",)):
            if n not in ids:
                raise _Problem(f"{name} lists the neighbour {n!r}, which is not a region id.", p + ("neighbours",))
            if n == rid:
                raise _Problem(f"{name} cannot border itself.", p + ("neighbours",))
            neighbours.append(n)
        complete = t.get("neighbours_complete", False)
        if not isinstance(complete, bool):
            raise _Problem(f"{name}: neighbours_complete must be true or false.", p + ("neighbours_complete",))
        yields = {}
        for realm in REALMS:
            y = _table(t.get(realm, {}), p + (realm,), {"gold", "energy"}, set())
            yields[realm] = Yield(**{k: _count(v, p + (realm, k)) for k, v in y.items()})
        regions[rid] = Region(rid, name, area, tuple(neighbours), complete, yields["light"], yields["dark"],
                              _name(t, "name_de", p), entered is not None)
    # A neighbour listed on one side contradicts a "complete" list on the other side.
    for r in regions.values():
        for n in r.neighbours:
            other = regions[n]
            if other.neighbours_complete and r.id not in other.neighbours:
                raise _Problem(
                    f"{r.name} lists {other.name} as a neighbour, but the complete neighbour list "
                    f"of {other.name} does not contain {r.name}.", ("regions", ids[n], "neighbours"))

    tribes: dict[str, Tribe] = {}
    for i, raw in enumerate(_list(top["tribes"], ("tribes",))):
        p = ("tribes", i)
        t = _table(raw, p, {"id", "name", "name_de", "realm", "start_region", "costs", "special", "start_gold",
                            "start_energy", "army_groups"}, {"id", "realm"})
        tid = _text(t["id"], p + ("id",), slug=True)
        if tid in tribes:
            raise _Problem(f"The tribe id {tid!r} is used twice.", p + ("id",))
        realm = t["realm"]
        if realm not in REALMS:
            raise _Problem(f"{_where(p)}: realm must be \"light\" or \"dark\", not {realm!r}.", p + ("realm",))
        start = t.get("start_region")
        if start is not None and start not in regions:
            raise _Problem(f"{_where(p)} starts in {start!r}, which is not a region id.", p + ("start_region",))
        costs_raw = _table(t.get("costs", {}), p + ("costs",), set(BUILDINGS), set())
        costs = {b: _cost(c, p + ("costs", b)) for b, c in costs_raw.items()}
        special = None
        if "special" in t:
            s = _table(t["special"], p + ("special",), {"action", "gold", "energy"}, {"action"})
            if s["action"] not in SPECIAL_ACTIONS:
                raise _Problem(f"{_where(p)}: the special action must be one of {', '.join(SPECIAL_ACTIONS)}.",
                               p + ("special",))
            special = Special(s["action"], Cost(_count(s.get("gold", 0), p + ("special", "gold")),
                                                _count(s.get("energy", 0), p + ("special", "energy"))))
        groups = None
        if "army_groups" in t:
            groups = tuple(_count(g, p + ("army_groups",)) for g in _list(t["army_groups"], p + ("army_groups",)))
        entered = _name(t, "name", p)
        number = sum(1 for x in tribes.values() if x.realm == realm) + 1
        tribes[tid] = Tribe(
            tid, entered or stand_in(f"{realm.capitalize()} tribe", number), realm, start, costs, special,
            _count(t["start_gold"], p + ("start_gold",)) if "start_gold" in t else None,
            _count(t["start_energy"], p + ("start_energy",)) if "start_energy" in t else None,
            groups, _name(t, "name_de", p), entered is not None)
    spaces = _unnamed_spaces()
    seen: set[str] = set()
    for i, raw in enumerate(_list(top.get("spaces", []), ("spaces",))):
        p = ("spaces", i)
        t = _table(raw, p, {"id", "name", "name_de"}, {"id"})
        sid = _text(t["id"], p + ("id",), slug=True)
        if sid not in spaces:
            raise _Problem(f"{_where(p)}: only the eighth army space ({', '.join(OWNER_NAMED_SPACES)}) "
                           f"is named in the board data, not {sid!r}.", p + ("id",))
        if sid in seen:
            raise _Problem(f"The space id {sid!r} is used twice.", p + ("id",))
        seen.add(sid)
        entered = _name(t, "name", p)
        spaces[sid] = Space(sid, entered or spaces[sid].name, _name(t, "name_de", p), entered is not None)
    return Board(regions, areas, tribes, spaces)


# --- files --------------------------------------------------------------------------------


def default_board_path() -> Path:
    """The board data shipped with the package."""
    return Path(__file__).resolve().parent / "data" / "board.toml"


def load_board(path: str | Path | None = None) -> Board:
    """Read and validate a board file; a malformed file raises BoardDataError with file and line."""
    path = Path(path) if path is not None else default_board_path()
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BoardDataError(f"The board file cannot be read ({exc.strerror}).", str(path)) from None
    return parse_board(text, str(path))


def parse_board(text: str, filename: str = "board.toml") -> Board:
    """Validate board TOML text; errors name ``filename`` and the line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        reason = re.sub(r"\s*\(at line.*\)$", "", str(exc)) or "syntax error"
        raise BoardDataError(f"The file is not valid TOML: {reason}.", filename,
                             int(m.group(1)) if m else None) from None
    try:
        return _build(data)
    except _Problem as p:
        raise BoardDataError(p.message, filename, _line_of(text, p.path)) from None


def _line_of(text: str, path: tuple[Any, ...]) -> int | None:
    """Line of the offending key: the n-th ``[[section]]`` header, then its sub-tables
    (``[regions.light]``) or inline keys, then the key itself. None when it cannot be found."""
    lines = text.splitlines()
    if not path:
        return None
    start, end = 0, len(lines)
    table: list[str] = []
    keys = [str(k) for k in path]
    if len(path) >= 2 and isinstance(path[1], int):
        headers = [i for i, ln in enumerate(lines) if ln.strip() == f"[[{path[0]}]]"]
        if path[1] >= len(headers):
            found = next((i for i, ln in enumerate(lines) if re.match(rf"^{re.escape(keys[0])}\s*=", ln)), None)
            return found + 1 if found is not None else None
        start = headers[path[1]]
        end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[[")), len(lines))
        table, keys = [keys[0]], keys[2:]
    line = start
    for depth, key in enumerate(keys):
        header = "[" + ".".join(table + [key]) + "]"
        hit = next((i for i in range(line, end) if lines[i].strip() == header), None)
        if hit is not None and depth < len(keys) - 1:
            table.append(key)
            line = hit
            end = next((i for i in range(hit + 1, end) if lines[i].lstrip().startswith("[")), end)
            continue
        if hit is not None:
            return hit + 1
        hit = next((i for i in range(line, end) if re.match(rf"^\s*{re.escape(key)}\s*=", lines[i])), None)
        return (hit if hit is not None else line) + 1
    return line + 1


_HEADER = """\
# Immortals board data for the tower companion.
# Absent values are not entered yet: the companion then asks the table instead of guessing.
# Area and region: name (English), name_de (German, optional).
# Region: area (area id), neighbours (region ids; the same layout in both realms),
#   neighbours_complete = true when every neighbour is listed, light/dark = card resources.
# Tribe: start_region (light tribes), costs.<portal|shrine|capital> = { gold, energy },
#   special = { action, gold, energy } (dark tribes), start_gold, start_energy, army_groups.
# Space: the player board's eighth army space (id army_8): name, name_de as printed on it.
"""


def board_to_toml(board: Board) -> str:
    """The board as TOML text that :func:`parse_board` reads back to an equal board.

    Written by tomli-w (a maintained TOML writer); empty tables are left out, which reads back
    the same (an absent table is an empty one).
    """
    import tomli_w

    return _HEADER + tomli_w.dumps({"format": 1, **_drop_empty(board.to_dict())})


def _drop_empty(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_empty(v) for k, v in value.items() if v != {}}
    if isinstance(value, list):
        return [_drop_empty(v) for v in value]
    return value
