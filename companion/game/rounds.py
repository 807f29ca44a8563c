"""The round: reinforcements, planning, turn order with pass and forfeit, scoring."""

from __future__ import annotations

from . import commands as c
from . import spaces
from .checks import advance_turn, needs_army, region_id, use_space
from .effects import Changes
from .errors import InvalidCommandError, NotEnoughArmiesError
from .scoring import breakdown, standings
from .state import GameState
from .wording import Term, msg, realm as realm_word
from .wording import player as who

REINFORCE_PER = 3  # one army per full three in a limbo


def reinforce(state: GameState, cmd: c.Reinforce) -> Changes:
    """Per limbo, one army per full 3 armies there, to regions of that realm holding an own army."""
    ch = Changes()
    p = state.player(cmd.player)
    per_realm = {"light": 0, "dark": 0}
    for pl in cmd.placements:
        if pl.realm is None:
            raise InvalidCommandError(msg("err_reinforce_realm"))
        region_id(state, pl.region)
        needs_army(state, cmd.player, pl.region, pl.realm, Term("why_reinforce", "send reinforcements there"))
        per_realm[pl.realm] += pl.armies
    for realm, n in per_realm.items():
        allowed = p.limbo[realm] // REINFORCE_PER
        if n > allowed:
            raise NotEnoughArmiesError(msg("err_reinforce_count", player=who(state, cmd.player), have=p.limbo[realm],
                                           realm=realm_word(realm), allowed=allowed, n=n))
    for pl in cmd.placements:
        ch.armies(pl.region, pl.realm, cmd.player, pl.armies)
        ch.limbo(cmd.player, pl.realm, -pl.armies)
    done = state.done + [cmd.player]
    if len(done) == len(state.players):
        ch.set("done", [])
        ch.set("phase", "planning")
        ch.set("turn", None)
    else:
        ch.set("done", done)
        ch.set("turn", state.next_color(cmd.player))
    return ch


def start_actions(state: GameState, cmd: c.StartActions) -> Changes:
    ch = Changes()
    ch.set("phase", "actions")
    ch.set("turn", state.first_player)
    return ch


def pass_turn(state: GameState, cmd: c.Pass) -> Changes:
    """1 gold or 1 energy now; the same choice again each time the turn comes round."""
    ch = Changes()
    ch.player(cmd.player, cmd.compensation, 1)
    advance_turn(state, cmd.player, ch, passing=cmd.compensation)
    return ch


def forfeit(state: GameState, cmd: c.Forfeit) -> Changes:
    """A revealed action not performed (blank card, impossible, or unwanted): 1 gold or 1 energy.

    Only a space that carried a card can be forfeited, so a player forfeits at most as many
    actions as the player board has spaces left this round (8 army, 2 magic); a named space is
    then used for the round."""
    ch = Changes()
    use_space(state, ch, cmd.player, cmd.space or spaces.ANY_ARMY)
    ch.player(cmd.player, cmd.compensation, 1)
    advance_turn(state, cmd.player, ch)
    return ch


def score_round(state: GameState, cmd: c.ScoreRound) -> Changes:
    """Score every player (from the left of the first player); end the game after the last round."""
    ch = Changes()
    order = state.order_from(state.next_color(state.first_player))
    players = {}
    vp = {}
    for color in order:
        b = breakdown(state, color)
        players[color] = b
        ch.player(color, "vp", b["total"])
        vp[color] = state.player(color).vp + b["total"]
        for w in b["warnings"]:
            ch.warn(w)
    ch.score({"round": state.round, "order": order, "players": players})
    if state.round >= state.rounds:
        armies = {col: state.armies_on_board(col) for col in state.colors}
        ch.set("result", standings(vp, armies, state.colors))
        ch.set("phase", "over")
        ch.set("turn", None)
        return ch
    first = state.marker_holder  # whoever holds the marker now starts the next round
    ch.set("round", state.round + 1)
    ch.set("phase", "reinforcements")
    ch.set("first_player", first)
    ch.set("turn", first)
    ch.set("done", [])
    ch.set("passed", {})
    ch.set("used", {})
    return ch


