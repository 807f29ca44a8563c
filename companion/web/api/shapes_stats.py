"""The shapes of the statistics, people, settings and export routes (issue 15), defined once
for validation and the OpenAPI description (see :mod:`companion.web.api.shapes`).

The store keeps its own checks (:mod:`companion.store.people`,
:mod:`companion.store.group_settings`) for callers that are not HTTP; these models say the same
in the HTTP layer, so a request the description allows is one the store takes.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from companion.game.colors import PLAYER_COLORS
from companion.store.export_all import TABLES
from companion.web.api.shapes import NO_CONTROL, SOME_TEXT, Answer, Id, Request
from companion.web.api.spec import Named, Says

Name = Annotated[str, Field(min_length=1, max_length=60, pattern=SOME_TEXT),
                 Says("some text of at most 60 characters on one line")]
ShortName = Annotated[str | None, Field(max_length=12, pattern=NO_CONTROL),
                      Says("a text of at most 12 characters on one line, or null")]


class Interval(Answer):
    """Maximum-likelihood estimate with a 95 % confidence interval."""

    estimate: float | None = None
    low: float | None = None
    high: float | None = None


class TowerFit(Answer):
    land: Interval | None = Field(default=None, description="Chance that a thrown cube lands in the tray at once.")
    release: Interval | None = Field(default=None, description="Chance that a cube inside the tower comes out in a throw.")
    throws: int | None = Field(default=None, description="Throws (battles and seedings) with this colour.")
    cubes_thrown: int | None = None
    cubes_inside: int | None = None


class Fairness(Answer):
    verdict: Literal["not_enough_data", "no_sign", "favoured", "disfavoured", "differs"] | None = Field(
        default=None, description="differs: flagged, but the landing range still holds both directions.")
    throws: int | None = None
    p_value: float | None = Field(default=None, description="Likelihood-ratio test, this colour vs the others, "
                                  "in a model where the chances depend on the tower's fill and the throw's size.")
    p_adjusted: float | None = Field(default=None, description="Holm-corrected over the colours.")
    statistic: float | None = None
    df: int | None = None
    bias: float | None = Field(default=None, description="Relative difference of the landing chance (never shown alone).")
    bias_low: float | None = Field(default=None, description="Lower end of the bias at bias_level.")
    bias_high: float | None = Field(default=None, description="Upper end of the bias at bias_level.")
    bias_level: float | None = Field(default=None, description="1 − 5 %/m: the level the verdict uses.")
    detectable_bias: float | None = Field(default=None, description="Found by this verdict (its df, Holm level) with 80 % power.")
    throws_for_reference: int | None = Field(default=None, description="Throws after which a 10 % bias would show.")
    nights_for_reference: int | None = Field(default=None, description="More game nights until a 10 % bias would show.")
    sentence: str | None = None


class ModelCheck(Answer):
    throws: int | None = None
    min_throws: int | None = None
    enough_data: bool | None = None
    statistic: float | None = None
    df: int | None = None
    p_value: float | None = Field(default=None, description="Fixed chances vs chances depending on fill and size.")
    fits: bool | None = None
    land_empty: float | None = None
    land_filled: float | None = None
    release_small: float | None = None
    release_big: float | None = None
    reference_fill: int | None = None
    sentence: str | None = None


class FairnessReport(Answer):
    alpha: float | None = None
    min_throws: int | None = None
    interval_level: float | None = None
    any_flagged: bool | None = None
    enough_data: bool | None = None
    colours: dict[str, Fairness] | None = None
    model_check: ModelCheck | None = None


class TowerModel(Answer):
    throws: int | None = None
    battles: int | None = None
    confidence: float | None = None
    pooled: TowerFit | None = None
    colours: dict[str, TowerFit] | None = None


class TowerReport(Answer):
    enough_data: bool | None = None
    min_throws_for_odds: int | None = None
    model: TowerModel | None = None
    fairness: FairnessReport | None = None


class CalibrationBin(Answer):
    bin: list[float] | None = None
    battles: int | None = None
    predicted: float | None = None
    won: float | None = None
    low: float | None = None
    high: float | None = None


class OddsReport(Answer):
    enabled: bool | None = None
    battles: int | None = None
    enough_data: bool | None = None
    calibration: list[CalibrationBin] | None = None


class Odds(Answer):
    win: float | None = None
    tie: float | None = None
    lose: float | None = None
    draws: int | None = None
    basis: int | None = Field(default=None, description="Throws the tower model rested on.")
    attack_seq: int | None = None
    version: int | None = None
    created_at: str | None = None


class BattleOdds(Answer):
    enabled: bool
    odds: Odds | None = None
    reason: str | None = None
    kept: bool | None = None


class Person(Answer):
    id: int
    name: str
    short_name: str | None
    games: int | None = None
    created_at: str | None = None
    merged_into: int | None = None


class Seat(Answer):
    color: str | None = None
    name: str | None = Field(default=None, description="As stored in the game.")
    person: Person | None = None


class GameSeats(Answer):
    id: int
    seats: list[Seat]


class GroupSettings(Answer):
    odds: bool = Field(default=False, description="Show (and keep) the odds before each battle.")
    bgg_id: int | None = Field(default=None, description="BoardGameGeek id for BG Stats; left out when null.")
    location: str | None = None


class SettingsChange(Request):
    """Only the settings sent are changed."""

    extra_message = "There is no group setting called {key}; there are odds, bgg_id, location."
    odds: Annotated[bool, Named("showing the odds"), Says("either on (true) or off (false)")] = None  # type: ignore[assignment]
    bgg_id: Annotated[int | None, Field(ge=1, le=10**9), Named("the BoardGameGeek id"),
                      Says("the whole number in the game's address on boardgamegeek.com "
                           "(…/boardgame/NUMBER/…), or null")] = None
    location: Annotated[str | None, Field(max_length=60, pattern=NO_CONTROL), Named("the location"),
                        Says("a short text (at most 60 characters), or null")] = None

    def changes(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


class NewPerson(Request):
    name: Annotated[Name, Named("the name")]
    short_name: Annotated[ShortName, Named("the short name")] = None


class PersonChange(Request):
    name: Annotated[Name, Named("the name")] = None  # type: ignore[assignment]
    short_name: Annotated[ShortName, Named("the short name")] = None

    def changes(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


class Merge(Request):
    into: Annotated[Id, Named('whom to merge into ("into")'), Says("a person's number")]


class SeatLinks(Request):
    people: Annotated[
        dict[Literal[PLAYER_COLORS], Annotated[Id | None, Says("a person's number or null")]],  # type: ignore[valid-type]
        Named('"people"'), Says("an object {colour: person number or null}"),
    ]


class BgStats(Answer):
    url: str
    data: dict[str, Any]


EXPORT_TABLE = {"name": {"schema": {"enum": list(TABLES)},  # what export_csv takes, all of it
                         "description": "The table."}}
