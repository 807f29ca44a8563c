"""What the board data still lacks, and which rules of a game that switches off.

Pure functions of a :class:`~companion.game.board.Board` (and, for a game, the chosen tribes).
Guarantees: nothing here changes or guesses data; every gap names its item by id (for links)
and by display name (for people), and the ``rule`` keys are stable so pages can translate them.

A region is complete when its English name, area, neighbours ("all neighbours entered") and the
resources of both realms' card halves are entered. An area is complete when it is named and
holds its five regions. A tribe is complete when its name, starting gold and energy, army
groups and (light tribes) start region are entered. German names are optional everywhere: the
German rulebook prints the English names. Building costs are judged per player (a player's two
tribe boards together), in :func:`game_gaps`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .board import BUILDINGS, REGIONS_PER_AREA, Area, Board, Region, Tribe
from .colors import REALMS


def region_missing(region: Region) -> list[str]:
    """The fields of a region card not entered yet, in the order of the set-up page."""
    missing = []
    if not region.named:
        missing.append("name")
    if region.area is None:
        missing.append("area")
    for realm in REALMS:
        y = region.yields(realm)
        if y.gold is None and y.energy is None:
            missing.append(realm)
    if not region.neighbours_complete:
        missing.append("neighbours")
    return missing


def area_missing(board: Board, area: Area) -> list[str]:
    missing = [] if area.named else ["name"]
    if len(board.area_regions(area.id)) != REGIONS_PER_AREA:
        missing.append("regions")
    return missing


def tribe_missing(tribe: Tribe) -> list[str]:
    missing = [] if tribe.named else ["name"]
    if tribe.realm == "light" and tribe.start_region is None:
        missing.append("start_region")
    if tribe.start_gold is None:
        missing.append("start_gold")
    if tribe.start_energy is None:
        missing.append("start_energy")
    if tribe.army_groups is None:
        missing.append("army_groups")
    return missing


def progress(board: Board) -> dict[str, Any]:
    """Per kind: how many items are complete, of how many, and what each one still lacks."""
    kinds = {
        "regions": {r.id: region_missing(r) for r in board.regions.values()},
        "areas": {a.id: area_missing(board, a) for a in board.areas.values()},
        "tribes": {t.id: tribe_missing(t) for t in board.tribes.values()},
        "spaces": {s.id: [] if s.named else ["name"] for s in board.spaces.values()},
    }
    return {kind: {"complete": sum(1 for m in items.values() if not m), "total": len(items),
                   "missing": {k: m for k, m in items.items() if m}}
            for kind, items in kinds.items()}


@dataclass(frozen=True)
class Gap:
    """A rule the companion cannot apply in full because board data is missing."""

    rule: str  # stable key: area_bonus, adjacency, resources, start_region, costs, start_resources
    message: str  # English sentence for logs and non-translating clients
    names: tuple[str, ...]  # display names of the items concerned
    ids: tuple[str, ...]  # their ids (for links, never shown)
    kind: str  # "areas", "regions" or "tribes": where on the set-up page to enter it

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "message": self.message, "names": list(self.names),
                "ids": list(self.ids), "kind": self.kind, "count": len(self.ids)}


def _list(names: Sequence[str], most: int = 4) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


def board_gaps(board: Board) -> list[Gap]:
    """Rules every game on this board plays with less checking."""
    gaps = []
    areas = [a for a in board.areas.values() if not board.area_complete(a.id)]
    if areas:
        names = tuple(a.name for a in areas)
        gaps.append(Gap("area_bonus", f"Areas not entered ({_list(names)}): the area bonus is not scored "
                        "there, and one capital per area is checked only against the regions entered.",
                        names, tuple(a.id for a in areas), "regions"))
    open_ = [r for r in board.regions.values() if not r.neighbours_complete]
    if open_:
        names = tuple(r.name for r in open_)
        gaps.append(Gap("adjacency", f"Neighbours not entered for {len(open_)} regions: an attack or a move "
                        "between regions not known to border each other is allowed with a warning.",
                        names, tuple(r.id for r in open_), "regions"))
    dry = [r for r in board.regions.values() if {"light", "dark"} & set(region_missing(r))]
    if dry:
        names = tuple(r.name for r in dry)
        gaps.append(Gap("resources", f"Resources not entered for {len(dry)} regions: extracting gold or energy "
                        "there asks for the number printed on the region card.",
                        names, tuple(r.id for r in dry), "regions"))
    return gaps


def game_gaps(board: Board, pairs: Iterable[tuple[str, str]]) -> list[Gap]:
    """The board's gaps plus those of the chosen tribes: ``pairs`` = (light tribe, dark tribe)
    per player. Unknown or unchosen ("") tribe ids are skipped (the new-game check names them);
    building costs are judged only for players with both tribes chosen."""
    pairs = list(pairs)
    gaps = board_gaps(board)
    lights = [board.tribes[lt] for lt, _ in pairs if lt in board.tribes]
    no_start = [t for t in lights if t.start_region is None]
    if no_start:
        names = tuple(t.name for t in no_start)
        gaps.append(Gap("start_region", f"Start region not entered for {_list(names)}: the start deployment "
                        "asks for the region named on the player board.", names,
                        tuple(t.id for t in no_start), "tribes"))
    chosen = [board.tribes[x] for pair in pairs for x in pair if x in board.tribes]
    no_money = [t for t in chosen if t.start_gold is None or t.start_energy is None]
    if no_money:
        names = tuple(t.name for t in no_money)
        gaps.append(Gap("start_resources", f"Starting gold and energy not entered for {_list(names)}: they are "
                        "taken as the table enters them, without a check.", names,
                        tuple(t.id for t in no_money), "tribes"))
    unpriced = []
    for lt, dt in pairs:
        if lt not in board.tribes or dt not in board.tribes:
            continue
        light, dark = board.tribes[lt], board.tribes[dt]
        if any(b not in light.costs and b not in dark.costs for b in BUILDINGS):
            unpriced.append((light, dark))
    if unpriced:
        names = tuple(f"{light.name} with {dark.name}" for light, dark in unpriced)
        gaps.append(Gap("costs", f"Building costs not entered for {_list(names)}: construction asks for the "
                        "price printed on the player board.", names, tuple(light.id for light, _ in unpriced), "tribes"))
    return gaps
