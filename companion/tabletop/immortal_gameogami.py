"""Immortal (Game-O-Gami): a score sheet for two acts, standard (2–4 players) or Team Battle.

Rulebook: ``immortal-gameogami.txt`` (the Game-O-Gami rulebook, English). The sentences the
rules below rest on:

* "Play is divided into two rounds, called "acts." The goal of the game is to control the most
  cards on the battlefield at the end of Act Two."
* End of Act One: "The winner of this act is the player with the most control tokens on the
  battlefield. In the case of a tie, see Resolving Ties. All cards on the battlefield remain
  there for the next act"
* End of Act Two: "The player with the most control tokens on the battlefield wins the game."
* Resolving Ties: "each player in the tie adds up the total levels (I, II, and III) of the cards
  he controls on the battlefield. The tied player with the highest level count wins that battle."
  — "If the level count also results in a tie, then it is a "complete tie." All players in the
  complete tie are considered to have won the battle." — "If a complete tie occurs at the end
  of a match, then all players tied for the level count win the match."
* Team Battle: "for 4 players competing in teams of 2. Teammates ally their cards and combine
  control tokens." — "In the case of a complete tie, neither team wins this act." — "In the case
  of a complete tie, the match is a draw." (So a complete tie of teams has **no** winner,
  unlike the standard game.)

Events (in this order, each once):

* ``{"type": "act", "act": 1 | 2, "tokens": {player: n}, "levels": {player: n}?}`` — the
  control tokens each player has on the battlefield at the end of the act; ``levels`` (total
  card levels controlled) is needed only for the players tied on tokens at the end of Act Two,
  and refused (:class:`TieNeedsLevelsError`) when a tie needs it and it is missing.

What the tokens say about the levels: "When a player places a card onto the battlefield, he
puts one of his control tokens on it" — one token per card controlled, and a card is of level
I, II or III. So n tokens hold between n and 3n levels (:class:`ImpossibleLevelsError`
otherwise), and at the end of Act One, when only "level I cards are sorted into a deck for play
during Act One", the level count *is* the token count: a token tie there is a complete tie
(all tied players win the act; no levels are asked, and any sent are not used).

The sheet does not add the two acts: the cards stay on the battlefield, so the tokens at the end
of Act Two are the match's count ("the most cards on the battlefield at the end of Act Two").
The rulebook gives no upper bound for tokens or levels; 999 is only a guard against typos.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.tabletop.base import Event, Rules, State, per_player, player_of, seats, top, whole
from companion.tabletop.errors import (
    GameOverError,
    ImpossibleLevelsError,
    InvalidEventError,
    PlayersError,
    Seat,
    TieNeedsLevelsError,
    msg,
)


def resolve(tokens: Mapping[str, int], levels: Mapping[str, int] | None,
            complete_tie_wins: bool) -> tuple[list[str], str]:
    """The winners of one act among ``tokens``' sides, and how it was decided.

    Most control tokens; a tie is broken by the tied sides' card levels; a complete tie is won
    by all tied sides (standard game) or by nobody (Team Battle: ``complete_tie_wins=False``).
    Returns ``(winners, "tokens" | "levels" | "complete_tie")``.
    """
    best = top(tokens)
    if len(best) == 1:
        return best, "tokens"
    missing = [p for p in best if levels is None or p not in levels]
    if missing:
        tied = [Seat(p, p.replace("team", "Team ")) if p.startswith("team") else Seat(p) for p in best]
        raise TieNeedsLevelsError(msg("tt_err_tie_levels", players=tied, tokens=tokens[best[0]]))
    assert levels is not None
    by_level = top(levels, among=best)
    if len(by_level) == 1:
        return by_level, "levels"
    return (by_level if complete_tie_wins else []), "complete_tie"


def check_levels(tokens: Mapping[str, int], levels: Mapping[str, int] | None) -> None:
    """Refuse a level count no cards could make: n tokens (cards) of level I–III hold n to 3n."""
    for p, level in (levels or {}).items():
        n = tokens.get(p, 0)
        if not n <= level <= 3 * n:
            raise ImpossibleLevelsError(msg("tt_err_levels_range", player=Seat(p), tokens=n,
                                            low=n, high=3 * n, levels=level))


class ImmortalGameOGami(Rules):
    key = "immortal_gameogami"
    title_en = "Immortal (Game-O-Gami)"
    min_players = 2
    max_players = 4
    live = False
    event_types = ("act",)

    def parse_options(self, raw: Mapping[str, Any] | None, players: Sequence[str]) -> dict[str, Any]:
        """``{"teams": [[p, p], [p, p]]}`` for Team Battle ("4 players competing in teams of 2")."""
        raw = dict(raw or {})
        teams = raw.pop("teams", None)
        if raw:
            raise InvalidEventError(msg("tt_err_only_teams", options=list(raw)))
        if teams is None:
            return {}
        if (not isinstance(teams, list) or len(teams) != 2
                or not all(isinstance(t, list) and len(t) == 2 for t in teams)):
            raise PlayersError(msg("tt_err_teams_shape"))
        flat = [p for t in teams for p in t]
        if sorted(map(str, flat)) != sorted(players) or len(players) != 4:
            raise PlayersError(msg("tt_err_teams_all"))
        return {"teams": [[str(p) for p in t] for t in teams]}

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> State:
        state = super().new_state(players, options)
        state.update(acts=[], act_winners={}, decided_by=None)
        if options.get("teams"):
            state["team_scores"] = {f"team{i + 1}": 0 for i in range(2)}
        return state

    def parse_fields(self, kind: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        act = whole(raw, "act", low=1, high=2)
        tokens = per_player(raw, "tokens")
        levels = per_player(raw, "levels", optional=True)
        return {"act": act, "tokens": tokens, "levels": levels}

    def apply_event(self, state: State, event: Event) -> None:
        f = event.fields
        done = len(state["acts"])
        if done == 2:
            raise GameOverError(msg("tt_err_acts_done"))
        if f["act"] != done + 1:
            raise InvalidEventError(msg("tt_err_act_order", act=f["act"], next=done + 1)
                                    if f["act"] > done + 1 else msg("tt_err_act_done", act=f["act"]))
        tokens = {player_of(state, p): n for p, n in f["tokens"].items()}
        missing = [p for p in state["players"] if p not in tokens]
        if missing:
            raise InvalidEventError(msg("tt_err_tokens_missing", players=seats(missing)))
        levels = None if f["levels"] is None else {player_of(state, p): n for p, n in f["levels"].items()}
        if f["act"] == 1:
            levels = dict(tokens)  # every card of Act One is level I: levels = tokens
        else:
            check_levels(tokens, levels)
        teams = state["options"].get("teams")
        if teams:
            names = [f"team{i + 1}" for i in range(len(teams))]
            side_tokens = {n: sum(tokens[p] for p in t) for n, t in zip(names, teams)}
            side_levels = None
            if levels is not None and all(p in levels for t in teams for p in t):
                side_levels = {n: sum(levels[p] for p in t) for n, t in zip(names, teams)}
            won, how = resolve(side_tokens, side_levels, complete_tie_wins=False)
            winners = [p for n, t in zip(names, teams) if n in won for p in t]
            state["team_scores"] = side_tokens
        else:
            winners, how = resolve(tokens, levels, complete_tie_wins=True)
        state["acts"].append({"act": f["act"], "tokens": tokens, "levels": levels,
                              "winners": winners, "decided_by": how})
        state["act_winners"][str(f["act"])] = winners
        state["scores"] = dict(tokens)
        if f["act"] == 2:
            state["over"], state["end"] = True, "act_two"
            state["winners"], state["decided_by"] = winners, how


RULES = ImmortalGameOGami()
