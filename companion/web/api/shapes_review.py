"""Shapes of the game review's API (:mod:`companion.web.api.review`)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import ConfigDict, Field

from companion.web.api.shapes import Answer, GameState, Request, Version
from companion.web.api.spec import Named


class ReviewStateQuery(Request):
    model_config = ConfigDict(strict=False, extra="ignore")  # query values are text
    version: Annotated[Version, Field(description="The step to show: 1 (the game just started) to "
                                      "the game's newest version."), Named('"version"')]


class ReviewState(Answer):
    id: int
    version: int = Field(description="The step shown.")
    newest: int = Field(description="The game's newest version (the last step).")
    event: dict[str, Any] = Field(description="The event of this step (with `type` and `seq`).")
    state: GameState


class ReviewBattle(Answer):
    seq: int
    attacker: str | None = None
    defender: str | None = None
    winner: str | None = None
    odds: dict[str, Any] | None = Field(default=None, description="The odds kept before the "
                                        "throw {win, tie, lose, basis}; null when none were shown.")
    chance_of_result: float | None = None
    corrections: list[dict[str, Any]] = Field(description="Every +/− on the camera's counts: "
                                              "{seq, at, color, to, device, player}.")
    photos: dict[str, Any] = Field(description="{photo, annotated, empty}: URLs, null when the "
                                   "file is missing; `missing`/`damaged` name what is not there.")


class Review(Answer):
    id: int
    title: str
    status: str
    version: int
    players: list[dict[str, Any]]
    timeline: list[dict[str, Any]]
    battles: list[ReviewBattle]
    vp_chart: list[dict[str, Any]] = Field(description="Per scored round: {round, vp: {colour: "
                                           "VP after it}}.")
    turning_points: dict[str, Any] = Field(description="{upsets: [battle seq], lead_changes: "
                                           "[{round, from, to, vp}], tower_stays: [{color, "
                                           "throws, from_round, to_round, …}]}.")


class RecapNight(Answer):
    night: str = Field(description="The evening, YYYY-MM-DD.")
    games: int


class Recap(Answer):
    night: str
    games: list[dict[str, Any]] = Field(description="Every game, oldest first: {kind (immortals | "
                                        "tabletop), id, name, title, status, started_at, ended_at, "
                                        "minutes, photo, players: [{name, score, winner}], "
                                        "battles, upsets}.")
    players: list[str]
    facts: list[dict[str, Any]] = Field(description="Sentences as catalogue messages {key, params}.")
