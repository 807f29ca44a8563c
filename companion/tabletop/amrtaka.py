"""Amrtaka: The Battle for Immortality — a live VP tracker with a turn counter, 2–4 players.

Rulebook: ``amrtaka.txt`` (English). The sentences the rules below rest on:

* "a strategic board game for two to four players"
* "The objective is to be the first to reach 60 points, or have the most points after 30 total
  player turns."
* Ending the Game: "60 Points Reached: The game immediately ends when a player reaches or
  exceeds a total of 60 Victory Points. That player is the undisputed immortal ruler."
* "30 Turn Limit: If no one reaches 60 points, the game wraps up after 30 total player turns.
  The player with the most points at that moment is declared the winner."
* "Running Out of Cards (Sudden End): If a player cannot draw enough cards to fill their hand
  (...), the game ends instantly. The player with the highest score at that exact moment wins."
* The common gains (the tracker's quick buttons): "Gain +5 Victory Points (VP): Immediately
  collect a 5-point Victory Token." (a successful attack), "When a land becomes Immortal, you
  immediately gain a 15-point Victory Token.", "Gain 5 Victory Points at the end of your turn
  if you control 3 or more lands."; Point Tokens come as "10x5pt, 6x15pt".
* "The youngest player among you starts the game." — turns go round in seat order.

**Where the rulebook is silent** (our choices, said so in the app): a tie for the most points at
the turn limit or when the cards run out is a **shared win**; VP are only ever gained (the
rulebook has no way to lose points), so a gain must be at least 1 and a wrong entry is taken back
with *undo*, not with a negative gain; the largest single gain in the rulebook is +35 (Elixir
Pot God, conquest and immortal attack), so one entry is capped at 35.

Events:

* ``{"type": "gain", "player": p, "points": n}`` — n VP (1–35) for p; ends the game at once
  when p reaches 60;
* ``{"type": "end_turn"}`` — the current player's turn is over; the 30th ends the game;
* ``{"type": "cards_out"}`` — a player could not refill their hand: the game ends now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.tabletop.base import Event, Rules, State, player_of, top, whole
from companion.tabletop.errors import InvalidEventError, TurnLimitError, msg

TARGET_VP = 60
TURN_LIMIT = 30
MAX_GAIN = 35
QUICK_GAINS = (5, 15)


class Amrtaka(Rules):
    key = "amrtaka"
    title_en = "Amrtaka: The Battle for Immortality"
    min_players = 2
    max_players = 4
    live = True
    event_types = ("gain", "end_turn", "cards_out")

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> State:
        state = super().new_state(players, options)
        state.update(turns=0, turn_limit=TURN_LIMIT, target=TARGET_VP, current=players[0],
                     quick_gains=list(QUICK_GAINS))
        return state

    def parse_fields(self, kind: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        if kind == "gain":
            if not isinstance(raw.get("player"), str):
                raise InvalidEventError(msg("tt_err_say_player"))
            points = whole(raw, "points", low=0, high=MAX_GAIN)
            if points == 0:
                raise InvalidEventError(msg("tt_err_gain_zero"))
            return {"player": raw["player"], "points": points}
        return {}

    def apply_event(self, state: State, event: Event) -> None:
        if event.type == "gain":
            player = player_of(state, event.fields["player"])
            state["scores"][player] += event.fields["points"]
            if state["scores"][player] >= TARGET_VP:
                state.update(over=True, end="target", winners=[player])
        elif event.type == "end_turn":
            if state["turns"] >= TURN_LIMIT:  # only reachable through a hand-made state
                raise TurnLimitError(msg("tt_err_turn_limit", limit=TURN_LIMIT))
            state["turns"] += 1
            players = state["players"]
            state["current"] = players[state["turns"] % len(players)]
            if state["turns"] == TURN_LIMIT:
                state.update(over=True, end="turn_limit", winners=top(state["scores"]))
        else:  # cards_out
            state.update(over=True, end="cards_out", winners=top(state["scores"]))

    def apply(self, state: State, event: Event) -> State:
        if state["over"] and event.type == "end_turn" and state.get("end") == "turn_limit":
            raise TurnLimitError(msg("tt_err_turn_limit", limit=TURN_LIMIT))
        return super().apply(state, event)


RULES = Amrtaka()
