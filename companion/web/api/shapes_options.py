"""The shapes of ``GET /api/games/<id>/options`` (the legal choices of one player now).

The detail of each command's options is the game's (:mod:`companion.game.legal` documents it);
the HTTP layer describes the envelope.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.game.colors import PLAYER_COLORS
from companion.messages import Player, msg
from companion.web.api.errors import ApiError
from companion.web.api.spec import MAX_ID, Says


class OptionsQuery(BaseModel):
    """``?player=<colour>``; absent: the player whose turn it is."""

    model_config = ConfigDict(extra="forbid")
    player: Annotated[Literal[PLAYER_COLORS] | None,  # type: ignore[valid-type]
                      Says("one of " + ", ".join(PLAYER_COLORS))] = None


class Options(BaseModel):
    """The legal choices of ``player`` at state ``version`` (send it back as expected_version)."""

    model_config = ConfigDict(extra="allow")
    version: Annotated[int, Field(ge=0, le=MAX_ID)]
    player: Literal[PLAYER_COLORS]  # type: ignore[valid-type]
    phase: str
    turn: bool = Field(description="whether it is this player's turn")
    commands: dict[str, dict[str, Any]] = Field(
        description="per command type the player may send now, its choices (companion.game.legal); "
                    "a type is absent when the rules allow no choice of it")


class NotPlayingError(ApiError, ValueError):
    """The options of a colour nobody plays in this game."""

    status = 400

    def __init__(self, color: str) -> None:
        super().__init__(msg("err_not_playing", player=Player(color)))
