"""The game state: a plain value folded from events (see ``engine.evolve``).

Nothing here decides rules; this module holds the data, answers questions about it and turns it
into JSON for the web UI. ``GameState`` compares equal field by field, so a replayed state can be
checked against the live one.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .board import Board
from .colors import ARMIES_PER_PLAYER, GREEN, GREEN_CUBES, REALMS, SEED_PER_PLAYER, START_LIMBO

PHASES = ("deployment", "resources", "seeding", "reinforcements", "planning", "actions",
          "battle", "scoring", "over")


@dataclass
class RegionState:
    """One region in one realm."""

    armies: dict[str, int] = field(default_factory=dict)  # colour → count, no zeros
    building: str | None = None  # None | "shrine" | "capital"
    portal: bool = False  # armies may go from here to the twin in the other realm

    def occupants(self) -> list[str]:
        return sorted(self.armies)

    def to_dict(self) -> dict[str, Any]:
        return {"armies": dict(self.armies), "building": self.building, "portal": self.portal}


@dataclass
class PlayerState:
    color: str
    name: str
    light_tribe: str
    dark_tribe: str
    limbo: dict[str, int] = field(default_factory=lambda: {"light": 0, "dark": 0})
    gold: int = 0
    energy: int = 0
    vp: int = 0
    supply: int = ARMIES_PER_PLAYER  # cubes still in the personal supply (set-up only)
    out_of_game: int = 0  # boxed after seeding

    def to_dict(self) -> dict[str, Any]:
        return {
            "color": self.color, "name": self.name, "light_tribe": self.light_tribe,
            "dark_tribe": self.dark_tribe, "limbo": dict(self.limbo), "gold": self.gold,
            "energy": self.energy, "vp": self.vp, "supply": self.supply,
            "out_of_game": self.out_of_game,
        }


@dataclass
class GameState:
    """Everything the companion knows about one game. See :meth:`to_dict` for each field."""

    board: Board
    players: list[PlayerState]
    rounds: int
    title: str = ""
    version: int = 0
    round: int = 0
    phase: str = "deployment"
    step: str = "start"  # deployment: "start" (light start region) or "draft"
    draft_round: int = 0
    first_player: str = ""
    marker_holder: str = ""
    turn: str | None = None
    done: list[str] = field(default_factory=list)  # who finished the current step
    passed: dict[str, str] = field(default_factory=dict)  # colour → compensation chosen at pass
    used: dict[str, list[str]] = field(default_factory=dict)  # colour → action spaces used
    regions: dict[str, dict[str, RegionState]] = field(default_factory=dict)  # realm → id → state
    cards: dict[str, str | None] = field(default_factory=dict)  # region id → holder
    tray: dict[str, int] = field(default_factory=dict)
    interior: dict[str, int] = field(default_factory=dict)
    green_supply: int = GREEN_CUBES
    unaccounted: dict[str, int] = field(default_factory=dict)  # cubes added by fixes/accepted readings
    battle: dict[str, Any] | None = None
    # The shared tray reading of the pending throw (battle or seeding): see reading.py.
    reading: dict[str, Any] | None = None
    scores: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    warnings: list[str] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)  # every event folded, undo included

    @classmethod
    def empty(cls, board: Board, players: list[PlayerState], rounds: int) -> GameState:
        regions = {realm: {rid: RegionState() for rid in board.regions} for realm in REALMS}
        return cls(board=board, players=players, rounds=rounds, regions=regions,
                   cards={rid: None for rid in board.regions})

    # --- questions ------------------------------------------------------------------------

    def player(self, color: str) -> PlayerState:
        for p in self.players:
            if p.color == color:
                return p
        raise KeyError(color)

    @property
    def colors(self) -> list[str]:
        """Player colours in seating (clockwise) order."""
        return [p.color for p in self.players]

    def next_color(self, color: str) -> str:
        cs = self.colors
        return cs[(cs.index(color) + 1) % len(cs)]

    def order_from(self, color: str) -> list[str]:
        cs = self.colors
        i = cs.index(color)
        return cs[i:] + cs[:i]

    def region(self, region: str, realm: str) -> RegionState:
        return self.regions[realm][region]

    def armies(self, region: str, realm: str, color: str) -> int:
        return self.regions[realm][region].armies.get(color, 0)

    def armies_on_board(self, color: str) -> int:
        return sum(r.armies.get(color, 0) for realm in self.regions.values() for r in realm.values())

    def owned(self, color: str) -> list[str]:
        return [rid for rid, holder in self.cards.items() if holder == color]

    def label(self, region: str, realm: str | None = None) -> str:
        """"White Falls (dark)" — how messages name a region."""
        name = self.board.name(region)
        return f"{name} ({realm})" if realm else name

    def cube_totals(self) -> dict[str, dict[str, int]]:
        """Where every cube is, per colour: regions, limbo, tray, interior, supply, out_of_game,
        plus ``unaccounted`` (cubes that manual fixes or accepted readings added; subtract it).

        Conservation: for every player colour the places sum to 43 + unaccounted, for green to
        20 + unaccounted.
        """
        out: dict[str, dict[str, int]] = {}
        for c in self.colors + [GREEN]:
            places = {
                "regions": self.armies_on_board(c),
                "limbo": 0, "tray": self.tray.get(c, 0), "interior": self.interior.get(c, 0),
                "supply": 0, "out_of_game": 0, "unaccounted": self.unaccounted.get(c, 0),
            }
            if c == GREEN:
                places["supply"] = self.green_supply
            else:
                p = self.player(c)
                places["limbo"] = p.limbo["light"] + p.limbo["dark"]
                places["supply"] = p.supply
                places["out_of_game"] = p.out_of_game
            out[c] = places
        return out

    def deployment_summary(self) -> dict[str, Any]:
        """During the deployment: ``placed`` (groups each colour deployed in the draft rounds,
        undone ones left out) and ``deployable`` (armies each could still deploy: the supply
        beyond what the limbos and the seeding need) — what ending the draft would skip."""
        undone = {e.get("undoes") for e in self.log if e.get("type") == "undo"}
        placed = {c: 0 for c in self.colors}
        for seq, e in enumerate(self.log, start=1):
            if e.get("type") == "deploy" and seq not in undone:
                who = (e.get("command") or {}).get("player")
                if who in placed:
                    placed[who] += 1
        reserve = 2 * START_LIMBO + SEED_PER_PLAYER
        return {"placed": placed,
                "deployable": {p.color: max(p.supply - reserve, 0) for p in self.players}}

    # --- JSON -----------------------------------------------------------------------------

    def to_dict(self, include_board: bool = True) -> dict[str, Any]:
        """JSON-safe snapshot for the web UI. Fields:

        - ``version``: events folded so far — the state id clients send back as expected_version.
        - ``title``, ``rounds`` (rounds to play), ``round`` (0 during set-up, then 1…rounds).
        - ``phase``: deployment | resources | seeding | reinforcements | planning | actions |
          battle | scoring | over. ``step``: during deployment "start" (light start region, then
          +2 in the dark twin) or "draft" (conflict-card rounds); ``draft_round`` counts them.
        - ``first_player``: colour that starts this round (or this deployment round);
          ``marker_holder``: who holds the first-player marker now (first player next round).
        - ``turn``: colour expected to act now, or null when anyone/nobody acts (resources,
          seeding, planning, scoring, battle resolution, over).
        - ``done``: colours that finished the current step (deploy start, resources, reinforce).
        - ``passed``: {colour: "gold"|"energy"} players who passed this round and the
          compensation they chose (they get it again each time their turn comes round).
        - ``used``: {colour: [action space ids used this round]}; spaces: extract_gold,
          extract_energy, transition_3, construct, attack, attack_or_move, special, forfeit…,
          magic:<card> (transition_5, conflict_or_marker, take_over_or_shrine, two_cards_or_transition_2).
        - ``players``: list in seating order of {color, name, light_tribe, dark_tribe,
          limbo: {light, dark}, gold, energy, vp, supply (personal supply during set-up),
          out_of_game}.
        - ``regions``: {realm: {region id: {armies: {colour: n}, building: null|"shrine"|
          "capital", portal: bool}}}.
        - ``cards``: {region id: holder colour or null (on the stack)} — ownership.
        - ``tray``: cubes per colour lying in the tray now; ``interior``: estimated cubes per
          colour inside the tower; ``green_supply``: inhabitants in the common supply;
          ``unaccounted``: cubes per colour added by corrections or accepted impossible readings.
        - ``battle``: null or the pending battle {attacker, defender, source, source_realm,
          target, realm, armies, card, stance, special, take_out (tray to empty), green_delta
          (−1 take one green from supply, +1 return one), throw (cubes to throw per colour),
          instructions: [sentences]}.
        - ``reading``: null, or the tray reading of the pending throw that every device shows and
          corrects: {id (stored photo, null when counted by hand), camera: {colour: n} | null,
          counts: {colour: n} (with every correction), unknown, changes: [{color, from, to,
          device, player, version}]}. Each change is an event, so ``version`` covers the reading.
        - ``deployment`` (only during the deployment): :meth:`deployment_summary`.
        - ``scores``: one entry per scored round {round, order, players: {colour: breakdown}}
          where breakdown = {regions, region_vp, shrines, capitals, areas: [{area, owned, vp}],
          total, warnings}.
        - ``result``: null until the game ends, then {standings: [{color, vp, armies, rank}],
          winners: [colours], shared: bool}.
        - ``warnings``: sentences about the last event (e.g. adjacency not checked).
        - ``board`` (when include_board): the board snapshot of this game (Board.to_dict()).
        - ``cube_totals``: as :meth:`cube_totals`.
        """
        d: dict[str, Any] = {
            "version": self.version, "title": self.title, "rounds": self.rounds,
            "round": self.round, "phase": self.phase, "step": self.step,
            "draft_round": self.draft_round, "first_player": self.first_player,
            "marker_holder": self.marker_holder, "turn": self.turn, "done": list(self.done),
            "passed": dict(self.passed), "used": {k: list(v) for k, v in self.used.items()},
            "players": [p.to_dict() for p in self.players],
            "regions": {realm: {rid: r.to_dict() for rid, r in rs.items()}
                        for realm, rs in self.regions.items()},
            "cards": dict(self.cards), "tray": dict(self.tray), "interior": dict(self.interior),
            "green_supply": self.green_supply, "unaccounted": dict(self.unaccounted),
            "battle": copy.deepcopy(self.battle), "reading": copy.deepcopy(self.reading),
            "scores": copy.deepcopy(self.scores),
            "result": copy.deepcopy(self.result),
            "warnings": list(self.warnings), "cube_totals": self.cube_totals(),
        }
        if self.phase == "deployment":
            d["deployment"] = self.deployment_summary()
        if include_board:
            d["board"] = self.board.to_dict()
        return d

