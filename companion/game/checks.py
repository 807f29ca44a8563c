"""The rule tests: each answers one question about the state with ``None`` (allowed) or the
narrow :class:`GameError` that says why not — returned, not raised.

Both sides use these: the engine raises what they return (``require``), and
:mod:`companion.game.legal` keeps only the choices for which they return ``None``. So the
options a tablet offers and the engine's refusals cannot drift apart, and a refusal says the
same sentence the option list was built from.
"""

from __future__ import annotations

from collections import deque

from . import spaces as sp
from .wording import Place, Term, msg, named, place
from .effects import Changes
from .errors import (GameError, IllegalActionError, InvalidCommandError, NoSpaceLeftError,
                     NotEnoughArmiesError, NotEnoughResourcesError, SpaceUsedError)
from .state import GameState
from .wording import player as who

Node = tuple[str, str]  # (region, realm)


def require(problem: GameError | None) -> None:
    """Raise the problem a rule test found (the engine's side)."""
    if problem is not None:
        raise problem


# --- the tests --------------------------------------------------------------------------------


def region_problem(state: GameState, region: str) -> GameError | None:
    if region not in state.board.regions:
        return InvalidCommandError(msg("err_no_region", region=region))
    return None


def army_problem(state: GameState, color: str, region: str, realm: str,
                 why: str | Term = Term("why_act_there", "act there")) -> GameError | None:
    """The player must have at least one army in the region (in that realm). ``why`` completes
    "… and so cannot {why}" (a catalogue ``Term("why_…")``)."""
    if state.armies(region, realm, color) < 1:
        return NotEnoughArmiesError(msg("err_no_army", player=who(state, color),
                                        region=place(state, region, realm), why=why))
    return None


def leave_problem(state: GameState, color: str, node: Node, armies: int, verb: str | Term) -> GameError | None:
    """Armies leaving a region (to move or to attack) must leave at least one behind."""
    have = state.armies(*node, color)
    if armies > have - 1:
        return NotEnoughArmiesError(msg("err_leave_one", count="have", player=who(state, color), have=have,
                                        region=place(state, *node), most=max(have - 1, 0), verb=verb))
    return None


def target_problem(state: GameState, color: str, target: Node) -> GameError | None:
    """An attack's target may be empty or held by one other player: not one's own region, not
    a region two players share."""
    occupants = state.region(*target).occupants()
    if color in occupants:
        return IllegalActionError(msg("err_attack_own", player=who(state, color), region=place(state, *target)))
    if len(occupants) > 1:
        return IllegalActionError(msg("err_two_occupants", region=place(state, *target),
                                      players=[who(state, o) for o in occupants]))
    return None


def attack_space(state: GameState, color: str) -> str:
    """The action space a plain attack takes: the attack space, or the attack-or-move space
    once that is used."""
    return "attack" if "attack" not in state.used.get(color, []) else "attack_or_move"


def pay_problem(state: GameState, color: str, gold: int, energy: int, what: str | Term) -> GameError | None:
    p = state.player(color)
    if p.gold >= gold and p.energy >= energy:
        return None
    need = ([msg("msg_energy", n=energy)] if energy else []) + ([msg("msg_gold", n=gold)] if gold else [])
    have = [msg("msg_energy", n=p.energy), msg("msg_gold", n=p.gold)]
    return NotEnoughResourcesError(msg("err_cannot_pay", player=who(state, color), need=need, what=what,
                                       have=have))


def space_problem(state: GameState, color: str, space: str) -> GameError | None:
    """A revealed card lies on a space: each named space once per round, at most 8 army spaces
    and 2 magic spaces ("Each player board features 10 action spaces – 8 army spaces and 2
    magic spaces")."""
    used = state.used.get(color, [])
    if space not in (sp.ANY_ARMY, sp.ANY_MAGIC) and space in used:
        return SpaceUsedError(who(state, color), space, sp.label(space))
    army, magic = sp.counts(used)
    if sp.is_magic(space) and magic >= sp.MAGIC_SPACE_COUNT:
        return NoSpaceLeftError(who(state, color), "magic", sp.MAGIC_SPACE_COUNT)
    if not sp.is_magic(space) and army >= sp.ARMY_SPACE_COUNT:
        return NoSpaceLeftError(who(state, color), "army", sp.ARMY_SPACE_COUNT)
    return None


def building_problem(state: GameState, region: str, realm: str, building: str) -> GameError | None:
    """A portal per region and realm; a shrine or a capital, not both; one capital per area."""
    here = state.region(region, realm)
    label = place(state, region, realm)
    if building == "portal":
        return IllegalActionError(msg("err_has_portal", region=label)) if here.portal else None
    if here.building is not None:
        return IllegalActionError(msg("err_has_building", region=label,
                                      building=Term(f"msg_a_{here.building}", here.building)))
    if building == "capital":
        area = state.board.regions[region].area
        if area is not None:
            for other in state.board.area_regions(area):
                if state.region(other, realm).building == "capital":
                    return IllegalActionError(msg(
                        "err_one_capital", area=Place(named(state.board, "area", area), realm),
                        region=place(state, other)))
    return None


def step(state: GameState, a: Node, b: Node) -> bool | None:
    """Can armies go from a to b in one step? Twins only through a portal built at a.
    ``None``: the adjacency is not entered yet (allowed with a warning)."""
    if a[1] == b[1]:
        return False if a[0] == b[0] else state.board.adjacent(a[0], b[0])
    return a[0] == b[0] and state.region(*a).portal


def step_problem(state: GameState, a: Node, b: Node, what: str | Term) -> GameError | None:
    if step(state, a, b) is False:
        key = "err_not_adjacent_portal" if a[1] != b[1] else "err_not_adjacent"
        return IllegalActionError(msg(key, a=place(state, *a), b=place(state, *b), what=what))
    return None


def reachable(state: GameState, color: str, start: Node, allow_unknown: bool) -> set[Node]:
    """Every node one walk away from ``start`` whose inner stops all hold own armies (the
    rulebook's move: "each of the crossed regions must contain at least one of the player's
    own armies")."""
    seen, found, todo = {start}, set(), deque([start])
    nodes = [(r, realm) for realm in state.regions for r in state.board.regions]
    while todo:
        here = todo.popleft()
        for nxt in nodes:
            if nxt in seen:
                continue
            ok = step(state, here, nxt)
            if ok or (ok is None and allow_unknown):
                found.add(nxt)
                if state.armies(nxt[0], nxt[1], color) > 0:
                    seen.add(nxt)
                    todo.append(nxt)
    return found


# --- the engine's side: raise what the tests found -------------------------------------------


def region_id(state: GameState, region: str) -> str:
    require(region_problem(state, region))
    return region


def needs_army(state: GameState, color: str, region: str, realm: str,
               why: str | Term = Term("why_act_there", "act there")) -> None:
    region_id(state, region)
    require(army_problem(state, color, region, realm, why))


def leaves_one_behind(state: GameState, color: str, node: Node, armies: int, verb: str | Term) -> None:
    require(leave_problem(state, color, node, armies, verb))


def can_pay(state: GameState, color: str, gold: int, energy: int, what: str | Term) -> None:
    require(pay_problem(state, color, gold, energy, what))


def use_space(state: GameState, ch: Changes, color: str, space: str) -> None:
    """Record a revealed card on ``space`` (see :func:`space_problem`)."""
    require(space_problem(state, color, space))
    new = {k: list(v) for k, v in state.used.items()}
    new[color] = list(state.used.get(color, [])) + [space]
    ch.set("used", new)


def advance_turn(state: GameState, actor: str, ch: Changes, passing: str | None = None) -> None:
    """Hand the turn to the next player still acting; passed players met on the way are
    compensated again (the resource they chose when passing). Nobody left → scoring."""
    passed = dict(state.passed)
    if passing is not None:
        passed[actor] = passing
        ch.set("passed", passed)
    if all(c in passed for c in state.colors):
        ch.set("turn", None)
        ch.set("phase", "scoring")
        return
    c = state.next_color(actor)
    while c in passed:
        ch.player(c, passed[c], 1)
        c = state.next_color(c)
    ch.set("turn", c)
