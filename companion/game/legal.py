"""The legal choices: what each picker may offer a player now.

``options(state, color)`` lists, per command type the player may send in this state, the
choices the rules allow: regions where the player has armies, targets one step (or one
portal) away, the realms where a transition can bring armies, amounts within the limbo and
the purse, the player's own tribe's special only, the action spaces still free. Every choice
is tested with the same rule tests the engine raises from (:mod:`companion.game.checks`), so an
option offered is a command the engine accepts and a choice left out is one it refuses.

Guarantees (tested by a property test): for every option, the command built from it (with
the amount or cost the board data does not know filled in by the table) is accepted by
``engine.decide``; a region, target or amount outside the options is refused, and a refused
command changes nothing. Adjacency the owner has not entered yet is offered with
``"checked": false`` (the engine allows it with a warning).

Shape (JSON-safe; ``node`` = ``{"region", "realm"}``)::

    {"version", "player", "phase", "turn": bool, "commands": {type: detail, …}}

A type is present only when at least one choice is legal; details per type are documented
at each builder below.
"""

from __future__ import annotations

from typing import Any

from . import spaces as sp
from .actions import BUILD_VP, MAGIC, MOVE, TRANSITION_3, building_cost, transition_problem, transition_size
from .board import BUILDINGS, Cost
from .checks import (army_problem, attack_space, building_problem, leave_problem, pay_problem, reachable,
                     space_problem, step, target_problem)
from .colors import REALMS, other_realm
from .commands import COMPENSATIONS
from .engine import RULES, allowed_commands
from .state import GameState

Node = tuple[str, str]


def _node(n: Node, **extra: Any) -> dict[str, Any]:
    return {"region": n[0], "realm": n[1], **extra}


def own_nodes(state: GameState, color: str, realm: str | None = None) -> list[Node]:
    """(region, realm) pairs holding at least one army of ``color``, in board order."""
    realms = (realm,) if realm else REALMS
    return [(r, rl) for rl in realms for r in state.board.regions if not army_problem(state, color, r, rl)]


def _space_free(state: GameState, color: str, space: str) -> bool:
    return space_problem(state, color, space) is None


def _affordable(state: GameState, color: str, cost: Cost | None) -> bool:
    return cost is None or pay_problem(state, color, cost.gold, cost.energy, "") is None


def _special(state: GameState, color: str, action: str):
    """The player's dark-tribe special for ``action`` when the special space is still free."""
    t = state.board.tribes.get(state.player(color).dark_tribe)
    if t is None or t.special is None or t.special.action != action:
        return None
    return t if _space_free(state, color, "special") else None


# --- army spaces --------------------------------------------------------------------------------


def _extract(state: GameState, color: str, resource: str) -> dict[str, Any] | None:
    """{where: [node + amount (printed, or null: the table enters it)], special: bool}."""
    space = f"extract_{resource}"
    plain = _space_free(state, color, space)
    special = resource == "gold" and _special(state, color, "extract_gold") is not None
    if not (plain or special):
        return None
    where = [_node(n, amount=state.board.regions[n[0]].yields(n[1]).get(resource)) for n in own_nodes(state, color)]
    if not where:
        return None
    return {"where": where, "plain": plain, "special": special}


def _transition_3(state: GameState, color: str) -> dict[str, Any] | None:
    """{where: [node + armies (exactly that many: min(3, limbo))], plain, special}."""
    plain = _space_free(state, color, "transition_3") and _affordable(state, color, TRANSITION_3)
    tribe = _special(state, color, "transition_3")
    special = tribe is not None and _affordable(state, color, tribe.special.cost)
    if not (plain or special):
        return None
    where = [_node(n, armies=transition_size(state, color, n[1], 3, None)) for n in own_nodes(state, color)
             if transition_problem(state, color, n[1], 3, None) is None]
    return {"where": where, "plain": plain, "special": special} if where else None


def _builds(state: GameState, color: str, buildings: tuple[str, ...], cost_of) -> list[dict[str, Any]]:
    out = []
    for n in own_nodes(state, color):
        allowed = {}
        for b in buildings:
            cost = cost_of(b)
            if building_problem(state, n[0], n[1], b) is None and _affordable(state, color, cost):
                allowed[b] = cost.to_dict() if cost is not None else None
        if allowed:
            out.append(_node(n, buildings=allowed))
    return out


def _construct(state: GameState, color: str) -> dict[str, Any] | None:
    """{where: [node + buildings: {building: cost | null (the table enters the price)}]}."""
    if not _space_free(state, color, "construct"):
        return None
    where = _builds(state, color, BUILDINGS, lambda b: building_cost(state, color, b))
    return {"where": where, "vp": dict(BUILD_VP)} if where else None


def _demons_shrine(state: GameState, color: str) -> dict[str, Any] | None:
    tribe = _special(state, color, "demons_shrine")
    if tribe is None:
        return None
    where = _builds(state, color, ("shrine",), lambda b: tribe.special.cost)
    return {"where": where} if where else None


def attack_targets(state: GameState, color: str, src: Node) -> list[dict[str, Any]]:
    """Regions one step from ``src`` (or its twin through a portal built there) that are empty
    or held by one other player: [node + via_portal, defender, checked]."""
    out = []
    candidates = [((r, src[1]), False) for r in state.board.regions if r != src[0]]
    if state.region(*src).portal:
        candidates.append(((src[0], other_realm(src[1])), True))
    for dst, via in candidates:
        ok = True if via else step(state, src, dst)
        if ok is False:
            continue
        if target_problem(state, color, dst) is not None:
            continue
        occupants = state.region(*dst).occupants()
        out.append(_node(dst, via_portal=via, defender=occupants[0] if occupants else None,
                         checked=ok is True))
    return out


def _sources(state: GameState, color: str, verb: str) -> list[tuple[Node, int]]:
    """Own regions with armies to spare (one stays behind) and how many may leave."""
    out = []
    for n in own_nodes(state, color):
        most = state.armies(*n, color) - 1
        if most >= 1 and leave_problem(state, color, n, most, verb) is None:
            out.append((n, most))
    return out


def _attack(state: GameState, color: str) -> dict[str, Any] | None:
    """{from: [node + max (armies that may attack) + targets], plain: bool, specials: [tribe id]}.
    ``plain``: the attack (or the attack-or-move) space is free."""
    plain = _space_free(state, color, attack_space(state, color))
    tribe = _special(state, color, "attack")
    specials = [tribe.id] if tribe is not None and _affordable(state, color, tribe.special.cost) else []
    if not (plain or specials):
        return None
    sources = []
    for n, most in _sources(state, color, "attack"):
        targets = attack_targets(state, color, n)
        if targets:
            sources.append(_node(n, max=most, targets=targets))
    return {"from": sources, "plain": plain, "specials": specials} if sources else None


def move_steps(state: GameState, color: str, mine: list[Node] | None = None) -> dict[str, list[dict[str, Any]]]:
    """For path picking: from each own node, the own nodes one step away
    ({"region|realm": [node + checked]}). ``mine``: :func:`own_nodes`, when known already."""
    if mine is None:
        mine = own_nodes(state, color)
    out: dict[str, list[dict[str, Any]]] = {}
    for a in mine:
        nxt = []
        for b in mine:
            ok = step(state, a, b) if a != b else False
            if ok is not False:
                nxt.append(_node(b, checked=ok is True))
        out[f"{a[0]}|{a[1]}"] = nxt
    return out


def _move(state: GameState, color: str) -> dict[str, Any] | None:
    """{from: [node + max + targets: [node + checked]], steps: move_steps, cost}."""
    if not _space_free(state, color, "attack_or_move") or not _affordable(state, color, MOVE):
        return None
    mine = own_nodes(state, color)  # once: the state does not change while the options are read
    sources = []
    for n, most in _sources(state, color, "move"):
        known = reachable(state, color, n, allow_unknown=False)
        maybe = reachable(state, color, n, allow_unknown=True)
        targets = [_node(t, checked=t in known) for t in mine if t != n and t in maybe]
        if targets:
            sources.append(_node(n, max=most, targets=targets))
    if not sources:
        return None
    return {"from": sources, "steps": move_steps(state, color, mine), "cost": MOVE.to_dict()}


# --- magic cards ----------------------------------------------------------------------------------


def _magic_free(state: GameState, color: str, command: str) -> bool:
    card, cost = MAGIC[command]
    return _space_free(state, color, f"magic:{card}") and _affordable(state, color, cost)


def _transition_magic(state: GameState, color: str, command: str, size: int) -> dict[str, Any] | None:
    """{realms: [{realm, armies (exactly that many: min(size, limbo)), regions: [region ids]}]}."""
    if not _magic_free(state, color, command):
        return None
    realms = []
    for realm in REALMS:
        regions = [r for r, _ in own_nodes(state, color, realm)]
        if regions and transition_problem(state, color, realm, size, None) is None:
            realms.append({"realm": realm, "armies": transition_size(state, color, realm, size, None),
                           "regions": regions})
    return {"realms": realms} if realms else None


def _take_over(state: GameState, color: str) -> dict[str, Any] | None:
    """{where: [node + holder + mine + theirs + success]} — regions whose card another player holds."""
    if not _magic_free(state, color, "take_over_card"):
        return None
    where = []
    for n in own_nodes(state, color):
        holder = state.cards.get(n[0])
        if holder is not None and holder != color:
            mine, theirs = state.armies(*n, color), state.armies(n[0], other_realm(n[1]), holder)
            where.append(_node(n, holder=holder, mine=mine, theirs=theirs, success=mine > theirs))
    return {"where": where} if where else None


def _magic_shrine(state: GameState, color: str) -> dict[str, Any] | None:
    if not _magic_free(state, color, "magic_shrine"):
        return None
    where = _builds(state, color, ("shrine",), lambda b: None)
    return {"where": where} if where else None


# --- turn ---------------------------------------------------------------------------------------


def _forfeit(state: GameState, color: str) -> dict[str, Any] | None:
    """{spaces: [space ids still free, named ones first], compensation}."""
    free = [s for s in sp.FORFEIT_SPACES if _space_free(state, color, s)]
    if sp.ANY_ARMY not in free and sp.ANY_MAGIC not in free:
        return None
    return {"spaces": free, "compensation": list(COMPENSATIONS)}


BUILDERS = {
    "extract_gold": lambda s, c: _extract(s, c, "gold"),
    "extract_energy": lambda s, c: _extract(s, c, "energy"),
    "transition_3": _transition_3,
    "construct": _construct,
    "demons_shrine": _demons_shrine,
    "attack": _attack,
    "move": _move,
    "transition_5": lambda s, c: _transition_magic(s, c, "transition_5", 5),
    "transition_2": lambda s, c: _transition_magic(s, c, "transition_2", 2),
    "draw_conflict_card": lambda s, c: {} if _magic_free(s, c, "draw_conflict_card") else None,
    "draw_two_cards": lambda s, c: {} if _magic_free(s, c, "draw_two_cards") else None,
    "take_first_player": lambda s, c: {} if s.marker_holder != c and _magic_free(s, c, "take_first_player") else None,
    "take_over_card": _take_over,
    "magic_shrine": _magic_shrine,
    "forfeit": _forfeit,
    "pass": lambda s, c: {"compensation": list(COMPENSATIONS)},
}


def _reinforce(state: GameState, color: str) -> dict[str, Any]:
    """{realms: {realm: {max, regions}}} — one army per full three in the limbo."""
    limbo = state.player(color).limbo
    return {"realms": {realm: {"max": limbo[realm] // 3, "regions": [r for r, _ in own_nodes(state, color, realm)]}
                       for realm in REALMS}}


def _deploy(state: GameState, color: str) -> dict[str, Any]:
    """{where: [empty nodes]} — a group goes to an unoccupied region."""
    return {"where": [_node((r, realm)) for realm in REALMS for r in state.board.regions
                      if not state.region(r, realm).occupants()]}


def options(state: GameState, color: str) -> dict[str, Any]:
    """The legal choices of ``color`` now (see the module docstring for the shape)."""
    if color not in state.colors:
        raise KeyError(color)
    allowed = [t for t in allowed_commands(state) if t != "undo"]
    mine = state.turn == color
    commands: dict[str, Any] = {}
    for kind in allowed:
        if RULES[kind].turn and not mine:
            continue
        if kind in BUILDERS:
            detail = BUILDERS[kind](state, color)
        elif kind == "reinforce":
            detail = _reinforce(state, color)
        elif kind == "deploy":
            detail = _deploy(state, color)
        else:
            detail = {}
        if detail is not None:
            commands[kind] = detail
    return {"version": state.version, "player": color, "phase": state.phase, "turn": mine,
            "commands": commands}
