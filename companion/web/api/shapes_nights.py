"""Request and response shapes of the game-night routes (``/api/tabletop``), as pydantic models
for :mod:`companion.web.api.spec` (validation and the OpenAPI document from one definition).

The HTTP layer checks the outer shape only; a game's own fields (an event's points, an act's
control tokens) are parsed by that game's rules module (:mod:`companion.tabletop`), which knows
what they mean, and checked against the state by the store.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.tabletop import GAME_MODULES
from companion.web.api.shapes import NO_CONTROL, Answer, Request, Version
from companion.web.api.spec import MAX_ID, Named, Says

Time = Annotated[str | None, Field(max_length=40),
                 Says("a date and time like 2026-11-24T19:30:00Z")]
PersonId = Annotated[int | None, Field(ge=1, le=MAX_ID), Says("the number of someone on the roster")]


class PlayerIn(Request):
    name: Annotated[str | None, Field(max_length=60, pattern=NO_CONTROL), Named("a player's name"),
                    Says("a text of at most 60 characters")] = None
    person_id: Annotated[PersonId, Named("a player's roster number")] = None


PlayerName = Annotated[str, Field(min_length=1, max_length=60, pattern=NO_CONTROL), Named("a player's name"),
                       Says("a text of 1 to 60 characters")]
Player = Annotated[PlayerIn | PlayerName, Named("a player"),
                   Says('a name, or {"name": ..., "person_id": ...}')]


class EventIn(BaseModel):
    """One entry of a game, e.g. ``{"type": "gain", "player": "p1", "points": 5}``; its fields
    are the game's (see docs/game-night.md). ``{"type": "undo"}`` takes the latest back."""

    model_config = ConfigDict(strict=True, extra="allow")
    type: Annotated[str, Field(min_length=1, max_length=40), Named("the entry's type"),
                    Says("the name of an entry of this game")]


class NewNightGame(Request):
    """A game to log. Score-sheet games (Game-O-Gami, any game) usually come with their
    ``events`` (the acts, the result); live trackers (Amrtaka, Wrath) start without."""

    extra_message: ClassVar[str | None] = 'A game-night game has no field "{key}".'
    game: Annotated[Literal[GAME_MODULES], Named("the game"),  # type: ignore[valid-type]
                    Says("one of the built-in games: " + ", ".join(GAME_MODULES))]
    name: Annotated[str | None, Field(max_length=100, pattern=NO_CONTROL), Named("the game's name"),
                    Says("a text of at most 100 characters")] = None
    players: Annotated[list[Player], Field(min_length=1, max_length=20), Named("the players"),
                       Says("a list of 1 to 20 players")]
    options: Annotated[dict[str, Any] | None, Named("the options")] = None
    started_at: Annotated[Time, Named("the start")] = None
    ended_at: Annotated[Time, Named("the end")] = None
    notes: Annotated[str | None, Field(max_length=2000), Named("the notes"),
                     Says("a text of at most 2000 characters")] = None
    events: Annotated[list[EventIn] | None, Field(max_length=50), Named("the entries")] = None


class NightGameChanges(Request):
    """What can be edited besides the scores (those change by undo and a new entry)."""

    extra_message: ClassVar[str | None] = (
        '"{key}" cannot be edited here; scores change by undo and a new entry.')
    name: Annotated[str | None, Field(min_length=1, max_length=100, pattern=NO_CONTROL), Named("the game's name"),
                    Says("a text of 1 to 100 characters")] = None
    notes: Annotated[str | None, Field(max_length=2000), Named("the notes"),
                     Says("a text of at most 2000 characters")] = None
    started_at: Annotated[Time, Named("the start")] = None
    ended_at: Annotated[Time, Named("the end")] = None
    players: Annotated[list[Player] | None, Field(min_length=1, max_length=20),
                       Named("the players")] = None


class EventRequest(Request):
    event: Annotated[EventIn, Named('"event"'), Says('a JSON object with a "type"')]
    expected_version: Annotated[
        Version | None,
        Field(description="The game's `version` the entry was decided against; a newer game answers 409."),
        Named('"expected_version"'),
    ] = None


BggId = Annotated[int | None, Field(ge=1, le=10**9),
                  Says("the BoardGameGeek number in the game's address (…/boardgame/NUMBER/…), or null")]


class BggIds(Request):
    ids: Annotated[dict[str, BggId], Named("the ids"), Says("{game: BoardGameGeek number or null}")]


# -- answers ---------------------------------------------------------------------------------------

class NightPlayer(Answer):
    key: str = Field(description="p1, p2, … in seat order; events name players by it.")
    name: str
    person: dict[str, Any] | None = Field(description="The roster entry, when linked.")
    score: float | None
    winner: bool


class NightGame(Answer):
    id: int
    game: str = Field(description="The rules module: " + ", ".join(GAME_MODULES) + ".")
    name: str
    status: str = Field(description="live or finished")
    version: int = Field(description="Number of entries; send it back as expected_version.")
    live: bool
    players: list[NightPlayer]
    winners: list[str] | None = Field(description="Player keys; several: a shared win; []: nobody won.")
    started_at: str
    ended_at: str | None
    minutes: int | None
    night: str = Field(description="The evening (YYYY-MM-DD) the game belongs to.")
    notes: str
    photo: bool
    state: dict[str, Any] = Field(description="Derived from the entries by the game's rules.")
    events: list[dict[str, Any]] | None = None


class CatalogueEntry(Answer):
    key: str
    title: str
    min_players: int
    max_players: int
    live: bool
    events: list[str]


class Night(Answer):
    night: str
    games: int


class TabletopStats(Answer):
    games: list[dict[str, Any]] = Field(description="Per game: plays, finished, shared wins, draws, minutes.")
    people: list[dict[str, Any]] = Field(description="Per person: plays, wins, win rate, per game, Immortals.")
    plays: int
    nights: int
    enough_data: bool


class BgStatsLink(Answer):
    url: str
    data: dict[str, Any]
