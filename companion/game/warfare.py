"""The battle in the game: declaring an attack, then applying the confirmed tray reading.

``attack`` records a pending battle with the instructions for the table (empty the tray, the
green adjustment, what to throw) and moves nothing yet; ``resolve_battle`` books the whole
throw at once: the tray emptied, attackers and defenders thrown, the tower interior, and the
result of :func:`companion.game.battle.resolve_battle`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import commands as c
from .actions import check_path, special_of
from .battle import Stance, prepare_tray, resolve_battle
from .checks import (advance_turn, attack_space, can_pay, leaves_one_behind, needs_army, region_id, require,
                     target_problem, use_space)
from .colors import GREEN, display, other_realm
from .effects import Changes
from .errors import IllegalActionError, ImpossibleReadingError
from .state import GameState
from .wording import Term, msg, place
from .reading import camera_of
from .tower import check_colors, explain, reading_problems, throw_accounting

STANCE_OF_CARD = {"target": Stance.FOR_ATTACKER, "source": Stance.NEUTRAL, "other": Stance.AGAINST_ATTACKER}


def _add(d: dict[str, int], color: str, n: int) -> None:
    if n:
        d[color] = d.get(color, 0) + n


def _cubes(counts: Mapping[str, int]) -> str:
    parts = [f"{n} {col}" for col, n in counts.items() if n]
    return ", ".join(parts) if parts else "nothing"


def attack(state: GameState, cmd: c.Attack) -> Changes:
    ch = Changes()
    if cmd.special:
        special = special_of(state, cmd.player, "attack", tribe=cmd.special)
        use_space(state, ch, cmd.player, "special")
    else:
        special = None
        space = attack_space(state, cmd.player)
        use_space(state, ch, cmd.player, space)
    src = (region_id(state, cmd.source), cmd.realm)
    if cmd.via_portal:
        dst = (region_id(state, cmd.target), other_realm(cmd.realm))
        if cmd.target != cmd.source:
            raise IllegalActionError(msg("err_portal_twin"))
        if not state.region(*src).portal:
            raise IllegalActionError(msg("err_no_portal", region=place(state, *src)))
    else:
        dst = (region_id(state, cmd.target), cmd.realm)
        if src == dst:
            raise IllegalActionError(msg("err_attack_self"))
        check_path(state, ch, cmd.player, [src, dst], Term("what_the_attack", "the attack"))
    needs_army(state, cmd.player, src[0], src[1], Term("why_attack_from", "attack from there"))
    leaves_one_behind(state, cmd.player, src, cmd.armies, Term("verb_attack", "attack"))
    require(target_problem(state, cmd.player, dst))
    occupants = state.region(*dst).occupants()
    defender = occupants[0] if occupants else None
    if special is not None:
        can_pay(state, cmd.player, special.cost.gold, special.cost.energy, Term("pay_special_attack", "this special attack"))
        ch.pay(cmd.player, special.cost.gold, special.cost.energy)
    stance = STANCE_OF_CARD[cmd.card]
    take_out = dict(state.tray)
    to_throw, green_delta = prepare_tray(take_out, state.green_supply)
    defenders = state.armies(*dst, defender) if defender else 0
    throw = dict(to_throw)
    _add(throw, cmd.player, cmd.armies)
    if defender:
        _add(throw, defender, defenders)
    steps = [f"Take every cube out of the tray ({_cubes(take_out)})."]
    if green_delta < 0:
        steps.append("There is no inhabitant among them: add 1 green cube from the supply.")
    elif green_delta > 0:
        steps.append("There are more than 3 inhabitants among them: return 1 green cube to the supply.")
    elif not take_out.get(GREEN) and state.green_supply == 0:
        ch.warn(msg("warn_green_empty"))
    steps.append(f"Throw them with {display(cmd.player)}'s {cmd.armies} attacking armies"
                 + (f" and {display(defender)}'s {defenders} defending armies" if defender else "")
                 + f": {_cubes(throw)}.")
    battle = {
        "attacker": cmd.player, "defender": defender, "source": src[0], "source_realm": src[1],
        "target": dst[0], "realm": dst[1], "armies": cmd.armies, "defenders": defenders,
        "card": cmd.card, "stance": stance.value, "special": cmd.special,
        "take_out": take_out, "green_delta": green_delta, "throw": throw, "instructions": steps,
    }
    ch.set("battle", battle)
    ch.set("phase", "battle")
    return ch


def preview(state: GameState, counts: Mapping[str, int]) -> dict[str, Any]:
    """The result the reading would give, and why the accounting doubts it (no event)."""
    b = state.battle
    assert b is not None
    problems = reading_problems(state.interior, b["throw"], counts, state.colors)
    result = resolve_battle(b["attacker"], b["defender"], b["stance"], counts)
    return {"result": result.to_dict(), "impossible": problems,
            "explanation": explain_result(state, result.to_dict())}


def explain_result(state: GameState, r: Mapping[str, Any]) -> list[str]:
    b = state.battle
    assert b is not None
    where = state.label(b["target"], b["realm"])
    limbo = other_realm(b["realm"])
    lines = []
    s = r.get("strength", {})
    if "defender" in s:
        lines.append(f"{display(b['attacker'])} {s['attacker']} : {s['defender']} {display(b['defender'])}.")
    elif "inhabitants" in s:
        lines.append(f"{display(b['attacker'])} {s['attacker']} : {s['inhabitants']} inhabitants.")
    winner = r["winner"]
    lines.append({"attacker": f"{display(b['attacker'])} wins {where}.",
                  "defender": f"{display(b['defender'] or '')} holds {where}.",
                  "inhabitants": f"The inhabitants keep {where}.",
                  None: f"A tie: {where} is left empty."}[winner])
    for color, n in r["to_limbo"].items():
        lines.append(f"{display(color)}: {n} to the {limbo} limbo.")
    if r["to_supply"]:
        lines.append(f"{r['to_supply']} green back to the supply.")
    for color, n in r["placed"].items():
        lines.append(f"{display(color)}: place {n} on {where}.")
    if r["left_in_tray"]:
        lines.append(f"Leave in the tray: {_cubes(r['left_in_tray'])}.")
    return lines


def resolve(state: GameState, cmd: c.ResolveBattle) -> tuple[Changes, dict[str, Any]]:
    b = state.battle
    assert b is not None
    check_colors(cmd.counts, state.colors)
    problems = reading_problems(state.interior, b["throw"], cmd.counts, state.colors)
    if problems and not cmd.accept_impossible:
        raise ImpossibleReadingError(explain(problems))
    result = resolve_battle(b["attacker"], b["defender"], b["stance"], cmd.counts)
    ch = Changes()
    # The throw: tray emptied and adjusted, armies leave both regions.
    for color, n in b["take_out"].items():
        ch.cubes("tray", color, -n)
    ch.green_supply(b["green_delta"])
    ch.armies(b["source"], b["source_realm"], b["attacker"], -b["armies"])
    if b["defender"]:
        ch.armies(b["target"], b["realm"], b["defender"], -b["defenders"])
    info = throw_accounting(state, ch, state.interior, b["throw"], cmd.counts)
    # The result: every cube of the tray goes to exactly one place.
    limbo = other_realm(b["realm"])
    for color, n in result.placed.items():
        ch.cubes("tray", color, -n)
        ch.armies(b["target"], b["realm"], color, n)
    for color, n in result.to_limbo.items():
        ch.cubes("tray", color, -n)
        ch.limbo(color, limbo, n)
    ch.cubes("tray", GREEN, -result.to_supply)
    ch.green_supply(result.to_supply)
    holder = state.cards[b["target"]]
    if result.winner == "attacker":
        ch.card(b["target"], b["attacker"])
    elif result.winner is None and holder in (b["attacker"], b["defender"]):
        ch.card(b["target"], None)
    ch.set("battle", None)
    ch.set("reading", None)
    ch.set("phase", "actions")
    advance_turn(state, b["attacker"], ch)
    camera = camera_of(state, cmd.camera_counts)
    info.update({
        "battle": dict(b), "result": result.to_dict(), "reading": dict(cmd.counts),
        "camera_counts": camera, "reading_id": (state.reading or {}).get("id"),
        "impossible": [str(p) for p in problems], "accepted_impossible": bool(problems),  # as logged before
    })
    if camera is not None:
        info["corrections"] = {col: cmd.counts.get(col, 0) - camera.get(col, 0)
                               for col in set(cmd.counts) | set(camera)
                               if cmd.counts.get(col, 0) != camera.get(col, 0)}
    if info["clamped"]:
        ch.warn(msg("warn_clamped", cubes=[msg("msg_cubes", count="n", n=n, colour=Term(f"colour_word_{col}", col))
                                           for col, n in info["clamped"].items()]))
    return ch, info
