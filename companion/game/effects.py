"""Effects: the primitive changes an event carries, and how they are applied to a state.

``decide`` computes a list of effects from the rules; ``evolve`` only applies them. Because an
event carries its effects, replaying an old log gives the same state even after the rules code
or the owner's board data changed. Each effect is a small JSON dict with an ``"op"``.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from companion.messages import Message, to_json

from .errors import InvalidEventError
from .state import GameState, RegionState

Effect = dict[str, Any]

# Top-level state fields an event may set outright.
SETTABLE = {"phase", "step", "draft_round", "round", "first_player", "marker_holder", "turn",
            "done", "passed", "used", "battle", "result", "reading"}
PLAYER_FIELDS = {"gold", "energy", "vp", "supply", "out_of_game"}


class Changes:
    """Collects the effects and warnings of one decision, in the order they happen."""

    def __init__(self) -> None:
        self.effects: list[Effect] = []
        self.warnings: list[Any] = []  # sentences, or to_json() of a Message

    def armies(self, region: str, realm: str, color: str, delta: int) -> None:
        if delta:
            self.effects.append({"op": "armies", "region": region, "realm": realm, "color": color, "delta": delta})

    def limbo(self, player: str, realm: str, delta: int) -> None:
        if delta:
            self.effects.append({"op": "limbo", "player": player, "realm": realm, "delta": delta})

    def player(self, player: str, field: str, delta: int) -> None:
        assert field in PLAYER_FIELDS
        if delta:
            self.effects.append({"op": "player", "player": player, "field": field, "delta": delta})

    def pay(self, player: str, gold: int = 0, energy: int = 0) -> None:
        self.player(player, "gold", -gold)
        self.player(player, "energy", -energy)

    def card(self, region: str, holder: str | None) -> None:
        self.effects.append({"op": "card", "region": region, "holder": holder})

    def building(self, region: str, realm: str, building: str | None) -> None:
        self.effects.append({"op": "building", "region": region, "realm": realm, "building": building})

    def portal(self, region: str, realm: str, value: bool = True) -> None:
        self.effects.append({"op": "portal", "region": region, "realm": realm, "portal": value})

    def cubes(self, place: str, color: str, delta: int) -> None:
        """place: tray | interior | unaccounted."""
        if delta:
            self.effects.append({"op": place, "color": color, "delta": delta})

    def green_supply(self, delta: int) -> None:
        if delta:
            self.effects.append({"op": "green_supply", "delta": delta})

    def set(self, field: str, value: Any) -> None:
        assert field in SETTABLE, field
        self.effects.append({"op": "set", "field": field, "value": copy.deepcopy(value)})

    def score(self, record: dict[str, Any]) -> None:
        self.effects.append({"op": "score", "value": record})

    def warn(self, message: str | Message) -> None:
        """Add a warning once. A :class:`Message` is stored as JSON (key, params and the English
        text), so the API can say it in each reader's language; a plain string stays as it is."""
        stored: Any = to_json(message) if isinstance(message, Message) else message
        if stored not in self.warnings:
            self.warnings.append(stored)


def clone(state: GameState) -> GameState:
    """A copy that ``apply`` may change freely. It shares only what is never changed in place:
    the frozen board, the append-only log and score records, and the warnings list."""
    return dataclasses.replace(
        state,
        players=[dataclasses.replace(p, limbo=dict(p.limbo)) for p in state.players],
        done=list(state.done), passed=dict(state.passed),
        used={k: list(v) for k, v in state.used.items()},
        regions={realm: {rid: RegionState(dict(r.armies), r.building, r.portal) for rid, r in rs.items()}
                 for realm, rs in state.regions.items()},
        cards=dict(state.cards), tray=dict(state.tray), interior=dict(state.interior),
        unaccounted=dict(state.unaccounted), battle=copy.deepcopy(state.battle),
        reading=copy.deepcopy(state.reading),
        scores=list(state.scores), result=copy.deepcopy(state.result),
    )


def _bump(d: dict[str, int], key: str, delta: int) -> None:
    n = d.get(key, 0) + delta
    if n < 0:
        raise InvalidEventError(f"the event would leave {n} for {key}")  # decide never emits this
    if n:
        d[key] = n
    else:
        d.pop(key, None)


def apply(state: GameState, effects: list[Effect]) -> None:
    """Apply effects in place (on a clone)."""
    for e in effects:
        op = e["op"]
        if op == "armies":
            _bump(state.regions[e["realm"]][e["region"]].armies, e["color"], e["delta"])
        elif op == "limbo":
            p = state.player(e["player"])
            p.limbo[e["realm"]] += e["delta"]
        elif op == "player":
            p = state.player(e["player"])
            setattr(p, e["field"], getattr(p, e["field"]) + e["delta"])
        elif op == "card":
            state.cards[e["region"]] = e["holder"]
        elif op == "building":
            state.regions[e["realm"]][e["region"]].building = e["building"]
        elif op == "portal":
            state.regions[e["realm"]][e["region"]].portal = e["portal"]
        elif op in ("tray", "interior"):
            _bump(getattr(state, op), e["color"], e["delta"])
        elif op == "unaccounted":
            d = state.unaccounted
            d[e["color"]] = d.get(e["color"], 0) + e["delta"]
            if not d[e["color"]]:
                del d[e["color"]]
        elif op == "green_supply":
            state.green_supply += e["delta"]
        elif op == "set":
            setattr(state, e["field"], copy.deepcopy(e["value"]))
        elif op == "score":
            state.scores.append(copy.deepcopy(e["value"]))
        else:
            raise InvalidEventError(f"the event has an unknown effect {op!r}")
