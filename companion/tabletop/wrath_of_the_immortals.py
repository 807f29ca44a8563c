"""Wrath of the Immortals (card game): a power-point tracker and the foil helper, 2+ players.

Rulebook: ``wrath-of-the-immortals.txt`` (English). The sentences the rules below rest on:

* VICTORY: "Be the first player to control 100 power points worth of Immortals & Resource cards
  or Reduce all of your opponents to zero power."
* SETUP: "Each player starts with one Hierarch Immortal in play of their respective alignment."
  and the level table "6 Hierarch 16" — so every player starts at 16 power points.
* FOIL PLOT ATTEMPT: "Power Total = 1D20 + the Power of the Immortal + the power of all
  Resources attached to that Immortal + The power of any Power cards played. (play Power cards
  before the dice roll is made) The side with the highest power total wins. (Reroll ties) If the
  Foiler wins, the action is negated and any card that was to be played is discarded. If the
  target of the foil wins, the action succeeds."

**Where the rulebook is silent** (our choices): it names no largest number of players (the app
allows up to 8); a player's power can never be below zero ("reduce ... to zero power"), so a
change that would take it below zero is refused; the largest single card is the 16 of a Hierarch
and 10 of a Major Artifact, but the tracker takes any whole total up to 999 as a typo guard.

Events:

* ``{"type": "power", "player": p, "delta": n}`` or ``{"type": "power", "player": p,
  "set": n}`` — p's power in play changes by n (cards recruited, stolen, killed) or is set to n;
* ``{"type": "foil", "actor": p, "foiler": q, "actor_side": SIDE, "foiler_side": SIDE}`` —
  SIDE is ``{"immortal": n, "resources": n, "powers": n, "roll": 1–20}``; the rolls are made
  before the event is stored (by the table or by the app), so replaying is exact. A tie is
  recorded as "reroll"; power is not changed by a foil (its outcome is the plot's).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from companion.tabletop.base import Event, Rules, State, player_of, whole
from companion.tabletop.errors import InvalidEventError, NegativeScoreError, Seat, field_word, msg

TARGET_POWER = 100
START_POWER = 16  # one Hierarch Immortal in play (level 6: 16 power points)
MAX_POWER = 999
SIDE_FIELDS = ("immortal", "resources", "powers")


def roll_d20(rng: random.Random | None = None) -> int:
    """One twenty-sided die (the app's roll when the table does not roll)."""
    return (rng or random.SystemRandom()).randint(1, 20)


def power_total(side: Mapping[str, int]) -> int:
    """"1D20 + the Power of the Immortal + ... Resources attached ... + ... Power cards played"."""
    return side["roll"] + side["immortal"] + side["resources"] + side["powers"]


def foil_outcome(actor: Mapping[str, int], foiler: Mapping[str, int]) -> str:
    """``"foiled"`` (the foiler wins: the action is negated), ``"succeeds"`` (the target of the
    foil wins) or ``"reroll"`` (equal totals: "Reroll ties")."""
    a, f = power_total(actor), power_total(foiler)
    return "foiled" if f > a else "succeeds" if a > f else "reroll"


def parse_side(raw: Any, who: str, rng: random.Random | None = None) -> dict[str, int]:
    """One side of a foil (``who``: ``actor`` or ``foiler``); a missing ``roll`` is rolled here
    (by the app), before storing."""
    if not isinstance(raw, Mapping):
        raise InvalidEventError(msg("tt_err_foil_side", side=field_word(who)))

    def what(k: str) -> Any:
        return msg("tt_field_side", field=field_word(k), side=field_word(who))

    side = {k: whole(raw, k, what(k), low=0, high=MAX_POWER) for k in SIDE_FIELDS}
    roll = whole(raw, "roll", what("roll"), low=1, high=20, optional=True)
    side["roll"] = roll if roll is not None else roll_d20(rng)
    return side  # type: ignore[return-value]


class WrathOfTheImmortals(Rules):
    key = "wrath_of_the_immortals"
    title_en = "Wrath of the Immortals"
    min_players = 2
    max_players = 8
    live = True
    event_types = ("power", "foil")

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng

    def new_state(self, players: Sequence[str], options: Mapping[str, Any]) -> State:
        state = super().new_state(players, options)
        state.update(scores={p: START_POWER for p in players}, target=TARGET_POWER, foils=[])
        return state

    def parse_fields(self, kind: str, raw: Mapping[str, Any]) -> dict[str, Any]:
        if kind == "power":
            if not isinstance(raw.get("player"), str):
                raise InvalidEventError(msg("tt_err_say_player"))
            if ("delta" in raw) == ("set" in raw):
                raise InvalidEventError(msg("tt_err_delta_or_set"))
            if "set" in raw:
                return {"player": raw["player"], "set": whole(raw, "set", low=0, high=MAX_POWER)}
            delta = whole(raw, "delta", low=-MAX_POWER, high=MAX_POWER)
            if delta == 0:
                raise InvalidEventError(msg("tt_err_delta_zero"))
            return {"player": raw["player"], "delta": delta}
        for key in ("actor", "foiler"):
            if not isinstance(raw.get(key), str):
                raise InvalidEventError(msg("tt_err_foil_who"))
        if raw["actor"] == raw["foiler"]:
            raise InvalidEventError(msg("tt_err_foil_self"))
        actor = parse_side(raw.get("actor_side"), "actor", self.rng)
        foiler = parse_side(raw.get("foiler_side"), "foiler", self.rng)
        return {"actor": raw["actor"], "foiler": raw["foiler"], "actor_side": actor,
                "foiler_side": foiler}

    def apply_event(self, state: State, event: Event) -> None:
        f = event.fields
        if event.type == "foil":
            player_of(state, f["actor"])
            player_of(state, f["foiler"])
            state["foils"].append({
                "actor": f["actor"], "foiler": f["foiler"],
                "actor_total": power_total(f["actor_side"]), "foiler_total": power_total(f["foiler_side"]),
                "outcome": foil_outcome(f["actor_side"], f["foiler_side"])})
            return
        player = player_of(state, f["player"])
        new = f["set"] if "set" in f else state["scores"][player] + f["delta"]
        if new < 0:
            raise NegativeScoreError(msg("tt_err_power_below_zero", player=Seat(player),
                                         have=state["scores"][player], take=-f["delta"]))
        if new > MAX_POWER:
            raise InvalidEventError(msg("tt_err_power_typo", most=MAX_POWER))
        state["scores"][player] = new
        if new >= TARGET_POWER:
            state.update(over=True, end="target", winners=[player])
            return
        standing = [p for p, v in state["scores"].items() if v > 0]
        if len(standing) == 1:
            state.update(over=True, end="others_at_zero", winners=standing)
        elif not standing:
            raise NegativeScoreError(msg("tt_err_all_at_zero"))


RULES = WrathOfTheImmortals()
