"""Rule checks shared by several commands. Each raises a narrow GameError with player words."""

from __future__ import annotations

from .colors import display
from .effects import Changes
from .errors import (IllegalActionError, InvalidCommandError, NotEnoughArmiesError,
                     NotEnoughResourcesError)
from .state import GameState

MAGIC_SPACES = 2  # red-framed magic spaces on every player board


def region_id(state: GameState, region: str) -> str:
    if region not in state.board.regions:
        raise InvalidCommandError(f"There is no region {region!r} on this board.")
    return region


def needs_army(state: GameState, color: str, region: str, realm: str, why: str = "act there") -> None:
    """The player must have at least one army in the region (in that realm)."""
    region_id(state, region)
    if state.armies(region, realm, color) < 1:
        raise NotEnoughArmiesError(
            f"{display(color)} has no army in {state.label(region, realm)} and so cannot {why}.")


def leaves_one_behind(state: GameState, color: str, node: tuple[str, str], armies: int, verb: str) -> None:
    """Armies leaving a region (to move or to attack) must leave at least one behind."""
    have = state.armies(*node, color)
    if armies > have - 1:
        raise NotEnoughArmiesError(
            f"{display(color)} has only {have} armies in {state.label(*node)} and must leave one "
            f"behind, so at most {max(have - 1, 0)} can {verb}.")


def can_pay(state: GameState, color: str, gold: int, energy: int, what: str) -> None:
    p = state.player(color)
    if p.gold >= gold and p.energy >= energy:
        return
    need = " and ".join(s for s in (f"{energy} energy" if energy else "", f"{gold} gold" if gold else "") if s)
    have = f"{p.energy} energy and {p.gold} gold"
    raise NotEnoughResourcesError(f"{display(color)} needs {need} for {what} but has only {have}.")


def use_space(state: GameState, ch: Changes, color: str, space: str, label: str) -> None:
    """Each action space once per round; at most two magic cards (spaces) per round."""
    used = list(state.used.get(color, []))
    if space in used:
        raise IllegalActionError(f"{display(color)} has already used the {label} space this round.")
    if space.startswith("magic:") and sum(u.startswith("magic:") for u in used) >= MAGIC_SPACES:
        raise IllegalActionError(f"{display(color)} has already played two magic cards this round.")
    used.append(space)
    new = {k: list(v) for k, v in state.used.items()}
    new[color] = used
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
