"""Any other game: its name, scores or ranks, and the winner(s) — shared wins allowed.

No rulebook: the result is what the table says. One event ends the game:

``{"type": "result", "scores": {p: number}?, "ranks": {p: 1..n}?, "winners": [p, ...]?,
"lowest_wins": bool?}``

* with ``winners`` the table names them (several = a shared win, an empty list = nobody won);
* else with ``ranks`` every player ranked 1 wins (several 1s = a shared win);
* else with ``scores`` the highest score wins (the lowest with ``lowest_wins``); equal best
  scores are a shared win.

Scores may be negative and fractional (many games have both); ranks are whole numbers from 1 to
the number of players.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from companion.tabletop.base import Event, Rules, State, player_of, seats, top
from companion.tabletop.errors import GameOverError, InvalidEventError, Seat, msg

MAX_ABS_SCORE = 1_000_000


def _scores(raw: Any) -> dict[str, float] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not raw:
        raise InvalidEventError(msg("tt_err_scores_shape"))
    out = {}
    for p, v in raw.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise InvalidEventError(msg("tt_err_score_number", player=Seat(str(p))))
        if abs(v) > MAX_ABS_SCORE:
            raise InvalidEventError(msg("tt_err_score_large", player=Seat(str(p))))
        out[str(p)] = int(v) if float(v).is_integer() else float(v)
    return out


def _ranks(raw: Any) -> dict[str, int] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not raw:
        raise InvalidEventError(msg("tt_err_ranks_shape"))
    out = {}
    for p, v in raw.items():
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InvalidEventError(msg("tt_err_rank_number", player=Seat(str(p))))
        out[str(p)] = v
    return out


class Generic(Rules):
    key = "generic"
    title_en = "Any game"
    min_players = 1
    max_players = 20
    live = False
    event_types = ("result",)

    def parse_fields(self, kind: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        scores, ranks = _scores(raw.get("scores")), _ranks(raw.get("ranks"))
        winners = raw.get("winners")
        if winners is not None and (not isinstance(winners, list)
                                    or not all(isinstance(w, str) for w in winners)):
            raise InvalidEventError(msg("tt_err_winners_shape"))
        if winners is not None and len(set(winners)) != len(winners):
            raise InvalidEventError(msg("tt_err_winner_twice"))
        if scores is None and ranks is None and winners is None:
            raise InvalidEventError(msg("tt_err_no_result"))
        lowest = raw.get("lowest_wins", False)
        if not isinstance(lowest, bool):
            raise InvalidEventError(msg("tt_err_lowest_wins"))
        return {"scores": scores, "ranks": ranks, "winners": winners, "lowest_wins": lowest}

    def apply_event(self, state: State, event: Event) -> None:
        f = event.fields
        if state.get("result"):
            raise GameOverError(msg("tt_err_result_done"))
        scores = {player_of(state, p): v for p, v in (f["scores"] or {}).items()}
        ranks = {player_of(state, p): v for p, v in (f["ranks"] or {}).items()}
        if ranks and max(ranks.values()) > len(state["players"]):
            raise InvalidEventError(msg("tt_err_last_place", n=len(state["players"])))
        if f["winners"] is not None:
            winners = [player_of(state, w) for w in f["winners"]]
        elif ranks:
            winners = [p for p in state["players"] if ranks.get(p) == 1]
            if not winners:
                raise InvalidEventError(msg("tt_err_no_first_place"))
        else:
            missing = [p for p in state["players"] if p not in scores]
            if missing:
                raise InvalidEventError(msg("tt_err_scores_missing", players=seats(missing)))
            winners = top(scores, lowest=f["lowest_wins"])
        state.update(scores={p: scores.get(p) for p in state["players"]},
                     ranks={p: ranks.get(p) for p in state["players"]} if ranks else None,
                     lowest_wins=f["lowest_wins"], result=True,
                     over=True, end="result", winners=[p for p in state["players"] if p in winners])


RULES = Generic()
