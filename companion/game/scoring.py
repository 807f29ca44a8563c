"""Scoring of a round and the final standings (rulebook "Scoring", "End of the game").

Per player: 1 VP per 2 region cards held (rounded down); +1 per shrine and +1 per capital in
held regions (both realms); per area +2 for exactly 3 or 4 of its 5 regions, +3 for all 5. An
area whose five regions are not all entered in the board data scores no bonus, and the
breakdown says so.
"""

from __future__ import annotations

from typing import Any

from .colors import REALMS
from companion.messages import to_json

from .state import GameState
from .wording import msg, named

AREA_VP = {3: 2, 4: 2, 5: 3}


def breakdown(state: GameState, color: str) -> dict[str, Any]:
    """The VP a player scores this round, item by item."""
    owned = state.owned(color)
    shrines = capitals = 0
    for rid in owned:
        for realm in REALMS:
            b = state.region(rid, realm).building
            shrines += b == "shrine"
            capitals += b == "capital"
    areas = []
    unknown = []
    for area in state.board.areas.values():
        members = state.board.area_regions(area.id)
        held = sum(1 for r in members if r in owned)
        if state.board.area_complete(area.id):
            vp = AREA_VP.get(held, 0)
            if vp:
                areas.append({"area": area.id, "name": area.name, "owned": held, "vp": vp})
        else:
            unknown.append(named(state.board, "area", area.id))
    warnings = []
    if unknown and owned:
        warnings.append(to_json(msg("warn_area_bonus_unknown", areas=unknown)))
    region_vp = len(owned) // 2
    total = region_vp + shrines + capitals + sum(a["vp"] for a in areas)
    return {"regions": len(owned), "region_vp": region_vp, "shrines": shrines,
            "capitals": capitals, "areas": areas, "total": total, "warnings": warnings}


def standings(vp: dict[str, int], armies: dict[str, int], seating: list[str]) -> dict[str, Any]:
    """Most VP wins; tie → most armies on the board; still tied → shared victory."""
    key = {c: (vp[c], armies[c]) for c in seating}
    ordered = sorted(seating, key=lambda c: key[c], reverse=True)
    rows = []
    for c in ordered:
        rank = 1 + sum(1 for o in seating if key[o] > key[c])
        rows.append({"color": c, "vp": vp[c], "armies": armies[c], "rank": rank})
    winners = [r["color"] for r in rows if r["rank"] == 1]
    return {"standings": rows, "winners": winners, "shared": len(winners) > 1}
