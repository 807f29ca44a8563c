"""The actions phase: army spaces, tribe specials and magic cards (everything but the battle).

Every action checks, in order: the action space is still free this round → the tribe special
(if any) → armies and regions → the price; then it pays and hands the turn on.
"""

from __future__ import annotations

from typing import Any

from . import commands as c
from .board import Cost
from .checks import (advance_turn, building_problem, can_pay, leaves_one_behind, needs_army, reachable,
                     region_id, require, step, step_problem, use_space)
from .colors import display, other_realm
from .effects import Changes
from .errors import (EmptyLimboError, GameError, IllegalActionError, InvalidCommandError,
                     TransitionCountError)
from .state import GameState
from .wording import Term, msg, named, place
from .wording import player as who

BUILD_VP = {"portal": 1, "shrine": 1, "capital": 2}
TRANSITION_3 = Cost(gold=1, energy=2)
MOVE = Cost(gold=1)
MAGIC = {  # command → (magic card / space, cost)
    "transition_5": ("transition_5", Cost(gold=1, energy=4)),
    "draw_conflict_card": ("conflict_or_marker", Cost(gold=1)),
    "take_first_player": ("conflict_or_marker", Cost(gold=1)),
    "take_over_card": ("take_over_or_shrine", Cost(gold=2, energy=2)),
    "magic_shrine": ("take_over_or_shrine", Cost(gold=2, energy=2)),
    "draw_two_cards": ("two_cards_or_transition_2", Cost(gold=2)),
    "transition_2": ("two_cards_or_transition_2", Cost(gold=2)),
}
Node = tuple[str, str]  # (region, realm)


def special_of(state: GameState, color: str, action: str, tribe: str | None = None):
    """The player's dark-tribe special for ``action``; only that tribe's player may use it."""
    p = state.player(color)
    t = state.board.tribes[p.dark_tribe]
    if t.special is None or t.special.action != action or (tribe is not None and t.id != tribe):
        raise IllegalActionError(msg("err_not_your_special", player=who(state, color), tribe=named(state.board, "tribe", t.id)))
    return t.special


def transition_problem(state: GameState, color: str, realm: str, size: int, given: int | None) -> GameError | None:
    """A transition of ``size`` places exactly ``size`` armies from the limbo, all of them only
    when the limbo holds fewer (rulebook: "A player with less than 3 armies in the respective
    limbo can only place those armies")."""
    limbo = state.player(color).limbo[realm]
    if limbo < 1:
        return EmptyLimboError(who(state, color), realm)
    if given is not None and given != min(size, limbo):
        return TransitionCountError(who(state, color), size, realm, limbo, given)
    return None


def transition_size(state: GameState, color: str, realm: str, size: int, given: int | None) -> int:
    """The number of armies the transition places (checked with :func:`transition_problem`)."""
    require(transition_problem(state, color, realm, size, given))
    return min(size, state.player(color).limbo[realm])


def _pay(state: GameState, ch: Changes, color: str, cost: Cost, what: str | Term) -> None:
    can_pay(state, color, cost.gold, cost.energy, what)
    ch.pay(color, cost.gold, cost.energy)


def extract(state: GameState, cmd: c.ExtractGold | c.ExtractEnergy) -> Changes:
    ch = Changes()
    resource = "gold" if cmd.type == "extract_gold" else "energy"
    special = getattr(cmd, "special", False)
    if special:
        special_of(state, cmd.player, "extract_gold")
    use_space(state, ch, cmd.player, "special" if special else cmd.type)
    needs_army(state, cmd.player, cmd.region, cmd.realm, Term(f"why_extract_{resource}", f"extract {resource} there"))
    printed = state.board.regions[cmd.region].yields(cmd.realm).get(resource)
    if printed is None and cmd.amount is None:
        raise InvalidCommandError(
            f"The board data does not know the {resource} of {state.label(cmd.region, cmd.realm)} yet; "
            f"enter the amount printed on the region card.")
    if printed is not None and cmd.amount is not None and cmd.amount != printed:
        raise IllegalActionError(
            f"{state.label(cmd.region, cmd.realm)} yields {printed} {resource}, not {cmd.amount}; "
            f"if the card says otherwise, correct the board data.")
    ch.player(cmd.player, resource, printed if printed is not None else cmd.amount)
    advance_turn(state, cmd.player, ch)
    return ch


def transition_3(state: GameState, cmd: c.Transition3) -> Changes:
    ch = Changes()
    cost = special_of(state, cmd.player, "transition_3").cost if cmd.special else TRANSITION_3
    use_space(state, ch, cmd.player, "special" if cmd.special else "transition_3")
    needs_army(state, cmd.player, cmd.region, cmd.realm, Term("why_bring_from_limbo", "bring armies there from the limbo"))
    armies = transition_size(state, cmd.player, cmd.realm, 3, cmd.armies)
    _pay(state, ch, cmd.player, cost, Term("pay_transition_3", "a transition of 3"))
    ch.limbo(cmd.player, cmd.realm, -armies)
    ch.armies(cmd.region, cmd.realm, cmd.player, armies)
    advance_turn(state, cmd.player, ch)
    return ch


def _building_allowed(state: GameState, ch: Changes, region: str, realm: str, building: str) -> None:
    require(building_problem(state, region, realm, building))
    if building == "capital":
        area = state.board.regions[region].area
        if area is None or not state.board.area_complete(area):
            ch.warn(msg("warn_area_incomplete_capital", region=place(state, region)))


def _build(state: GameState, ch: Changes, color: str, region: str, realm: str, building: str) -> None:
    if building == "portal":
        ch.portal(region, realm)
    else:
        ch.building(region, realm, building)
    ch.player(color, "vp", BUILD_VP[building])


def building_cost(state: GameState, color: str, building: str) -> Cost | None:
    """The price printed on the player's board (light tribe first), or None when not entered."""
    p = state.player(color)
    for tribe_id in (p.light_tribe, p.dark_tribe):
        tribe = state.board.tribes.get(tribe_id)
        if tribe is not None and tribe.costs.get(building) is not None:
            return tribe.costs[building]
    return None


def construct(state: GameState, cmd: c.Construct) -> Changes:
    ch = Changes()
    use_space(state, ch, cmd.player, "construct")
    needs_army(state, cmd.player, cmd.region, cmd.realm, Term(f"why_build_{cmd.building}", f"build a {cmd.building} there"))
    _building_allowed(state, ch, cmd.region, cmd.realm, cmd.building)
    printed = building_cost(state, cmd.player, cmd.building)
    if printed is None and cmd.cost is None:
        raise InvalidCommandError(
            f"The board data does not know what a {cmd.building} costs {display(cmd.player)}; "
            f"enter the cost printed on the player board.")
    given = Cost(**cmd.cost) if cmd.cost is not None else None
    if printed is not None and given is not None and given != printed:
        raise IllegalActionError(
            f"A {cmd.building} costs {display(cmd.player)} {printed.energy} energy and {printed.gold} gold, "
            f"not {given.energy} energy and {given.gold} gold.")
    _pay(state, ch, cmd.player, printed or given, Term(f"pay_{cmd.building}", f"a {cmd.building}"))
    _build(state, ch, cmd.player, cmd.region, cmd.realm, cmd.building)
    advance_turn(state, cmd.player, ch)
    return ch


def demons_shrine(state: GameState, cmd: c.DemonsShrine) -> Changes:
    ch = Changes()
    cost = special_of(state, cmd.player, "demons_shrine").cost
    use_space(state, ch, cmd.player, "special")
    needs_army(state, cmd.player, cmd.region, cmd.realm, Term("why_build_shrine", "build a shrine there"))
    _building_allowed(state, ch, cmd.region, cmd.realm, "shrine")
    _pay(state, ch, cmd.player, cost, Term("pay_shrine", "a shrine"))
    _build(state, ch, cmd.player, cmd.region, cmd.realm, "shrine")
    advance_turn(state, cmd.player, ch)
    return ch


# --- moving -------------------------------------------------------------------------------


def check_path(state: GameState, ch: Changes, color: str, nodes: list[Node], what: str | Term) -> None:
    """Every step must be possible; unknown adjacency is a warning, never a refusal."""
    for a, b in zip(nodes, nodes[1:]):
        require(step_problem(state, a, b, what))
        if step(state, a, b) is None:
            ch.warn(msg("warn_adjacency_unknown", a=place(state, a[0]), b=place(state, b[0])))


def move(state: GameState, cmd: c.Move) -> Changes:
    ch = Changes()
    use_space(state, ch, cmd.player, "attack_or_move")
    src: Node = (region_id(state, cmd.source), cmd.realm)
    dst: Node = (region_id(state, cmd.target), cmd.target_realm or cmd.realm)
    if src == dst:
        raise IllegalActionError(msg("err_move_same"))
    needs_army(state, cmd.player, src[0], src[1], Term("why_move_from", "move armies from there"))
    leaves_one_behind(state, cmd.player, src, cmd.armies, Term("verb_move", "move"))
    needs_army(state, cmd.player, dst[0], dst[1], Term("why_move_to", "move armies there (armies move only to own regions)"))
    if cmd.path is not None:
        nodes = [src] + [(region_id(state, w.region), w.realm or cmd.realm) for w in cmd.path] + [dst]
        for n in nodes[1:-1]:
            needs_army(state, cmd.player, n[0], n[1], Term("why_move_through", "move armies through it"))
        check_path(state, ch, cmd.player, nodes, Term("what_the_armies", "the armies"))
    elif dst not in reachable(state, cmd.player, src, allow_unknown=False):
        if dst not in reachable(state, cmd.player, src, allow_unknown=True):
            raise IllegalActionError(msg("err_no_way", a=place(state, *src), b=place(state, *dst),
                                         player=who(state, cmd.player)))
        ch.warn(msg("warn_way_unknown", a=place(state, *src), b=place(state, *dst)))
    _pay(state, ch, cmd.player, MOVE, Term("pay_move", "a move"))
    ch.armies(*src, cmd.player, -cmd.armies)
    ch.armies(*dst, cmd.player, cmd.armies)
    advance_turn(state, cmd.player, ch)
    return ch


# --- magic cards --------------------------------------------------------------------------


def magic(state: GameState, cmd: c.Command) -> tuple[Changes, dict[str, Any]]:
    ch = Changes()
    card, cost = MAGIC[cmd.type]
    use_space(state, ch, cmd.player, f"magic:{card}")
    info: dict[str, Any] = {}
    if cmd.type in ("transition_5", "transition_2"):
        most = 5 if cmd.type == "transition_5" else 2
        total = transition_size(state, cmd.player, cmd.realm, most, sum(p.armies for p in cmd.placements))
        for p in cmd.placements:
            if p.realm not in (None, cmd.realm):
                raise IllegalActionError(msg("err_transition_realm"))
            needs_army(state, cmd.player, p.region, cmd.realm, Term("why_bring_from_limbo", "bring armies there from the limbo"))
        _pay(state, ch, cmd.player, cost, Term("pay_magic_card", "this magic card"))
        for p in cmd.placements:
            ch.armies(p.region, cmd.realm, cmd.player, p.armies)
        ch.limbo(cmd.player, cmd.realm, -total)
    elif cmd.type == "take_first_player":
        if state.marker_holder == cmd.player:
            raise IllegalActionError(msg("err_has_marker", player=who(state, cmd.player)))
        _pay(state, ch, cmd.player, cost, Term("pay_first_player", "the first-player marker"))
        ch.set("marker_holder", cmd.player)
    elif cmd.type in ("draw_conflict_card", "draw_two_cards"):
        _pay(state, ch, cmd.player, cost, Term("pay_conflict_cards", "drawing conflict cards"))  # hands are not tracked
    elif cmd.type == "magic_shrine":
        needs_army(state, cmd.player, cmd.region, cmd.realm, Term("why_build_shrine", "build a shrine there"))
        _building_allowed(state, ch, cmd.region, cmd.realm, "shrine")
        _pay(state, ch, cmd.player, cost, Term("pay_shrine", "a shrine"))
        _build(state, ch, cmd.player, cmd.region, cmd.realm, "shrine")
    elif cmd.type == "take_over_card":
        needs_army(state, cmd.player, cmd.region, cmd.realm, Term("why_claim_card", "claim its card"))
        holder = state.cards[cmd.region]
        if holder == cmd.player:
            raise IllegalActionError(msg("err_has_card", player=who(state, cmd.player), region=place(state, cmd.region)))
        if holder is None:
            raise IllegalActionError(msg("err_card_unheld", region=place(state, cmd.region)))
        twin = other_realm(cmd.realm)
        mine, theirs = state.armies(cmd.region, cmd.realm, cmd.player), state.armies(cmd.region, twin, holder)
        _pay(state, ch, cmd.player, cost, Term("pay_take_over", "taking over a region card"))
        success = mine > theirs
        if success:
            ch.card(cmd.region, cmd.player)
        else:
            ch.warn(msg("warn_take_over_failed", player=who(state, cmd.player), mine=mine,
                        region=place(state, cmd.region, cmd.realm), holder=who(state, holder), theirs=theirs,
                        twin=place(state, cmd.region, twin)))
        info["take_over"] = {"from": holder, "mine": mine, "theirs": theirs, "success": success}
    advance_turn(state, cmd.player, ch)
    return ch, info
