"""Set-up: new game, deployment (start region, draft rounds), starting resources, seeding.

Each function checks the rules for one command and returns its effects (a :class:`Changes`);
phase and turn were already checked by the engine.
"""

from __future__ import annotations

from typing import Any

from . import commands as c
from .board import Board, load_board
from .checks import region_id
from .colors import (DARK_START_ARMIES, DEFAULT_ROUNDS, GREEN, MAX_ROUNDS, SEED_GREEN,
                     SEED_GREEN_KEPT, SEED_PER_PLAYER, START_LIMBO, display)
from .effects import Changes
from .errors import (IllegalActionError, ImpossibleReadingError, InvalidCommandError,
                     NotEnoughArmiesError)
from .state import GameState
from .wording import Player, Term, msg, place
from .wording import tribe as tribe_of
from .wording import player as who
from .reading import camera_of
from .tower import check_colors, explain, reading_problems, throw_accounting

RESERVE = 2 * START_LIMBO + SEED_PER_PLAYER  # cubes a player must keep for limbos and seeding


def new_game_event(cmd: c.NewGame) -> dict[str, Any]:
    """Validate the players against the board; the event carries the board snapshot."""
    board = Board.from_dict(cmd.board) if cmd.board is not None else load_board()
    n = len(cmd.players)
    if n not in DEFAULT_ROUNDS:
        raise InvalidCommandError(msg("err_player_count", n=n))
    colors = [p.color for p in cmd.players]
    if len(set(colors)) != n:
        raise InvalidCommandError(msg("err_colour_twice"))
    for realm, key in (("light", "light_tribe"), ("dark", "dark_tribe")):
        tribes = [getattr(p, key) for p in cmd.players]
        for p, t in zip(cmd.players, tribes):
            tribe = board.tribes.get(t)
            if tribe is None or tribe.realm != realm:
                raise InvalidCommandError(msg(f"err_not_{realm}_tribe", player=Player(p.color, p.name), tribe=str(t)))
        if len(set(tribes)) != n:
            raise InvalidCommandError(msg(f"err_{realm}_tribe_twice"))
    if cmd.first_player not in colors:
        raise InvalidCommandError(msg("err_first_not_playing", colour=Term(f"color_{cmd.first_player}", str(cmd.first_player))))
    rounds = cmd.rounds if cmd.rounds is not None else DEFAULT_ROUNDS[n]
    if not DEFAULT_ROUNDS[n] <= rounds <= MAX_ROUNDS:
        raise InvalidCommandError(msg("err_rounds", n=n, rounds=DEFAULT_ROUNDS[n], most=MAX_ROUNDS, given=rounds))
    return {"players": [p.to_dict() for p in cmd.players], "first_player": cmd.first_player,
            "rounds": rounds, "title": cmd.title or "", "board": board.to_dict()}


def _check_supply(state: GameState, color: str, needed: int) -> None:
    p = state.player(color)
    most = p.supply - RESERVE  # the reserve is for the limbos and the tower
    if needed > most:
        raise NotEnoughArmiesError(msg("err_supply_reserve", player=who(state, color), supply=p.supply,
                                       reserve=RESERVE, most=max(most, 0)))


def _take_card(state: GameState, ch: Changes, color: str, region: str) -> None:
    holder = state.cards[region]
    if holder is None:
        ch.card(region, color)
    elif holder != color:
        ch.warn(msg("warn_card_held", holder=who(state, holder), region=place(state, region),
                    player=who(state, color)))


def _next_in_step(state: GameState, ch: Changes, color: str) -> list[str]:
    done = state.done + [color]
    ch.set("done", done)
    return done


def deploy_start(state: GameState, cmd: c.DeployStart) -> Changes:
    ch = Changes()
    p = state.player(cmd.player)
    known = state.board.tribes[p.light_tribe].start_region
    region = cmd.region
    if known is None and region is None:
        raise InvalidCommandError(msg("err_start_region_unknown", tribe=tribe_of(state, p.light_tribe)))
    if known is not None and region is not None and region != known:
        raise IllegalActionError(msg("err_start_region_wrong", tribe=tribe_of(state, p.light_tribe),
                                     region=place(state, known), given=place(state, region)))
    region = region_id(state, region or known)
    _check_supply(state, cmd.player, cmd.armies + DARK_START_ARMIES)
    ch.armies(region, "light", cmd.player, cmd.armies)
    ch.armies(region, "dark", cmd.player, DARK_START_ARMIES)
    ch.player(cmd.player, "supply", -(cmd.armies + DARK_START_ARMIES))
    _take_card(state, ch, cmd.player, region)
    done = _next_in_step(state, ch, cmd.player)
    if len(done) == len(state.players):
        ch.set("step", "draft")
        ch.set("draft_round", 1)
        ch.set("done", [])
        ch.set("turn", state.marker_holder)
    else:
        ch.set("turn", state.next_color(cmd.player))
    return ch


def _end_draft_turn(state: GameState, ch: Changes, color: str) -> None:
    done = _next_in_step(state, ch, color)
    if len(done) < len(state.players):
        ch.set("turn", state.next_color(color))
        return
    # The round is over: the first-player marker passes to the left neighbour.
    marker = state.next_color(state.marker_holder)
    ch.set("marker_holder", marker)
    ch.set("first_player", marker)
    ch.set("draft_round", state.draft_round + 1)
    ch.set("done", [])
    ch.set("turn", marker)


def deploy(state: GameState, cmd: c.Deploy) -> Changes:
    ch = Changes()
    region = region_id(state, cmd.region)
    occupants = state.region(region, cmd.realm).occupants()
    if occupants:
        raise IllegalActionError(msg("err_deploy_occupied", region=place(state, region, cmd.realm),
                                     players=[who(state, o) for o in occupants]))
    if cmd.wild and state.board.regions[region].area is None:
        ch.warn(msg("warn_wild_area_unknown", region=place(state, region)))
    _check_supply(state, cmd.player, cmd.armies)
    ch.armies(region, cmd.realm, cmd.player, cmd.armies)
    ch.player(cmd.player, "supply", -cmd.armies)
    _take_card(state, ch, cmd.player, region)
    _end_draft_turn(state, ch, cmd.player)
    return ch


def skip_deploy(state: GameState, cmd: c.SkipDeploy) -> Changes:
    ch = Changes()
    _end_draft_turn(state, ch, cmd.player)
    return ch


def finish_deployment(state: GameState, cmd: c.FinishDeployment) -> Changes:
    if state.done:
        waiting = [who(state, x) for x in state.colors if x not in state.done]
        raise IllegalActionError(msg("err_draft_unfinished", players=waiting))
    ch = Changes()
    ch.set("phase", "resources")
    ch.set("step", "")
    ch.set("turn", None)
    ch.set("first_player", state.marker_holder)
    return ch


def starting_resources(state: GameState, cmd: c.StartingResources) -> Changes:
    if cmd.player in state.done:
        raise IllegalActionError(msg("err_resources_taken", player=who(state, cmd.player)))
    p = state.player(cmd.player)
    tribes = [state.board.tribes[p.light_tribe], state.board.tribes[p.dark_tribe]]
    for res in ("gold", "energy"):
        printed = [getattr(t, f"start_{res}") for t in tribes]
        if None not in printed and sum(printed) != getattr(cmd, res):
            raise IllegalActionError(msg("err_resources_printed", player=who(state, cmd.player),
                                         printed=msg(f"msg_{res}", n=sum(printed)), given=getattr(cmd, res)))
    ch = Changes()
    ch.player(cmd.player, "gold", cmd.gold)
    ch.player(cmd.player, "energy", cmd.energy)
    done = _next_in_step(state, ch, cmd.player)
    if len(done) == len(state.players):
        for color in state.colors:  # the boards are flipped: 3 armies on each limbo
            for realm in ("light", "dark"):
                ch.limbo(color, realm, START_LIMBO)
            ch.player(color, "supply", -2 * START_LIMBO)
        ch.set("done", [])
        ch.set("phase", "seeding")
    return ch


def seed_tower(state: GameState, cmd: c.SeedTower) -> tuple[Changes, dict[str, Any]]:
    """7 cubes per player + 10 green into the empty tower; the tray is read and split."""
    thrown = {color: SEED_PER_PLAYER for color in state.colors}
    thrown[GREEN] = SEED_GREEN
    check_colors(cmd.tray, state.colors)
    problems = reading_problems({}, thrown, cmd.tray, state.colors)
    if problems and not cmd.accept_impossible:
        raise ImpossibleReadingError(explain(problems))
    for color in state.colors:
        split = cmd.limbo_split.get(color, {"light": 0, "dark": 0})
        got = cmd.tray.get(color, 0)
        if split["light"] + split["dark"] != got:
            raise InvalidCommandError(msg("err_limbo_split", player=who(state, color), got=got,
                                          light=split["light"], dark=split["dark"]))
    extra = set(cmd.limbo_split) - set(state.colors)
    if extra:
        raise InvalidCommandError(msg("err_colour_not_playing", colour=Term(f"color_{sorted(extra)[0]}", display(sorted(extra)[0]))))
    ch = Changes()
    for color in state.colors:
        ch.player(color, "supply", -SEED_PER_PLAYER)
    ch.green_supply(-SEED_GREEN)
    info = throw_accounting(state, ch, {}, thrown, cmd.tray)
    for color in state.colors:
        split = cmd.limbo_split.get(color, {"light": 0, "dark": 0})
        for realm in ("light", "dark"):
            ch.limbo(color, realm, split[realm])
        ch.cubes("tray", color, -cmd.tray.get(color, 0))
        # Cubes still in the personal supply leave the game.
        left = state.player(color).supply - SEED_PER_PLAYER
        ch.player(color, "supply", -left)
        ch.player(color, "out_of_game", left)
    back = max(cmd.tray.get(GREEN, 0) - SEED_GREEN_KEPT, 0)
    ch.cubes("tray", GREEN, -back)
    ch.green_supply(back)
    ch.set("reading", None)
    ch.set("phase", "reinforcements")
    ch.set("round", 1)
    ch.set("first_player", state.marker_holder)
    ch.set("turn", state.marker_holder)
    ch.set("done", [])
    info["problems"] = problems
    info["accepted_impossible"] = bool(problems)
    info["camera_counts"] = camera_of(state, cmd.camera_counts)
    info["reading_id"] = (state.reading or {}).get("id")
    return ch, info
