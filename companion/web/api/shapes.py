"""The request and response shapes of the game, battle, tower, board and live-update routes:
each defined once, as a pydantic model, for both the validation (:func:`spec.accepts`) and the
OpenAPI description (:func:`spec.openapi_document`).

The HTTP layer checks shapes only; the game checks the rules (a command's fields, whose turn it
is, …) and answers with its own 400. Game-owned shapes (the state, a command, the board) are
described by their top-level fields; the game package owns the rest (``GameState.to_dict()``,
``parse_command``, ``Board.to_dict()``).
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from companion.game.colors import ALL_COLORS, PLAYER_COLORS
from companion.game.commands import COMMANDS
from companion.web.api.spec import MAX_ID, Named, Says

# -- building blocks ----------------------------------------------------------------------------

PlayerColour = Annotated[
    Literal[PLAYER_COLORS],  # type: ignore[valid-type]
    Says("one of " + ", ".join(PLAYER_COLORS)),
]
Count = Annotated[int, Field(ge=0, le=99), Says("a whole number from 0 to 99")]
Version = Annotated[int, Field(ge=0, le=MAX_ID), Says("a whole number of zero or more")]
Id = Annotated[int, Field(ge=1, le=MAX_ID), Says("the number of an entry (a whole number from 1)")]

#: Text without control characters (NUL would end the text early in SQLite's length(), and no
#: name or title needs a tab or a bell); tabs and line breaks are allowed in ``NOTES`` only.
NO_CONTROL = r"^[^\x00-\x1f\x7f]*$"
#: As NO_CONTROL, and at least one character that is not a space.
SOME_TEXT = r"^[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f][^\x00-\x1f\x7f]*$"
NOTES = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"


class Request(BaseModel):
    """A request body: strict types (no "5" for 5, no true for 1), no unknown fields."""

    model_config = ConfigDict(strict=True, extra="forbid")
    #: the sentence for an unknown field, with ``{key}``; default: '… has no field "x"'
    extra_message: ClassVar[str | None] = None


class Answer(BaseModel):
    """A response body; further fields may be added later, so clients ignore unknown ones."""

    model_config = ConfigDict(extra="allow")


def _count_field(colour: str) -> Any:
    return Annotated[Count | None, Named(f"the count for {colour}")]


class Counts(Request):
    """Cubes per colour; zero counts may be omitted."""

    extra_message: ClassVar[str | None] = (
        "There are no {key} cubes; the colours are " + ", ".join(ALL_COLORS) + "."
    )
    red: _count_field("red") = None  # type: ignore[valid-type]
    blue: _count_field("blue") = None  # type: ignore[valid-type]
    yellow: _count_field("yellow") = None  # type: ignore[valid-type]
    purple: _count_field("purple") = None  # type: ignore[valid-type]
    black: _count_field("black") = None  # type: ignore[valid-type]
    green: _count_field("green") = None  # type: ignore[valid-type]

    def as_dict(self) -> dict[str, int]:
        return {c: n for c, n in self.model_dump(exclude_none=True).items()}


# -- games ---------------------------------------------------------------------------------------

class PlayerSetup(Request):
    color: Annotated[PlayerColour, Named("a player's colour")]
    name: Annotated[str | None, Field(max_length=60, pattern=NO_CONTROL), Named("a player's name"),
                    Says("a line of text of at most 60 characters")] = None
    light_tribe: Annotated[str, Field(min_length=1, max_length=60, pattern=SOME_TEXT),
                           Named("a player's light tribe"), Says("the name of a tribe")]
    dark_tribe: Annotated[str, Field(min_length=1, max_length=60, pattern=SOME_TEXT),
                          Named("a player's dark tribe"), Says("the name of a tribe")]


class NewGame(Request):
    """The fields of the ``new_game`` command (docs/CONTRACTS.md); the board is the owner's
    board data (the board set-up page) and is not sent. The game checks the rest (tribes,
    colours used once, the first player at the table)."""

    extra_message: ClassVar[str | None] = (
        'A new game has no field "{key}" (the board comes from the board set-up page).'
    )
    type: Literal["new_game"] = "new_game"
    title: Annotated[str | None, Field(max_length=200, pattern=NO_CONTROL),
                     Says("a line of text of at most 200 characters")] = None
    players: Annotated[list[PlayerSetup], Field(min_length=3, max_length=5), Named("the players"),
                       Says("a list of 3 to 5 players")]
    first_player: Annotated[PlayerColour, Named("the first player")]
    rounds: Annotated[int | None, Field(ge=1, le=99), Says("a whole number from 1 to 99")] = None
    player: PlayerColour | None = None
    device: Annotated[str | None, Field(min_length=1, max_length=60),
                      Says("a text of 1 to 60 characters")] = None

    def command(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class Command(BaseModel):
    """One command of the catalog in docs/CONTRACTS.md, e.g. ``{"type": "attack", "player":
    "purple", "source": …, "target": …}``. The game checks its fields; guards run in a fixed
    order: well-formed → phase → game not over → player → rules."""

    model_config = ConfigDict(strict=True, extra="allow")
    type: Annotated[
        Literal[tuple(sorted(set(COMMANDS) - {"new_game"}))],  # type: ignore[valid-type]
        Named("the command's type"),
        Says("a command of the catalog (a new game is started with POST /api/games)"),
    ]


class CommandRequest(Request):
    command: Annotated[Command, Named('"command"'), Says("a JSON object with a \"type\"")]
    expected_version: Annotated[
        Version | None,
        Field(description="The `state.version` the player acted on; a newer game answers 409."),
        Named('"expected_version"'),
    ] = None


class GameState(Answer):
    """``GameState.to_dict()`` of companion.game: the whole visible state. ``version`` is the
    state id to send back as ``expected_version``."""

    version: int = Field(ge=0)
    phase: str | None = None
    round: int | None = None
    players: list[dict[str, Any]] | None = None
    battle: dict[str, Any] | None = None
    reading: dict[str, Any] | None = Field(
        default=None,
        description="The shared tray reading of the pending throw: {id, camera, counts, unknown, "
        "changes: [{color, from, to, device?, player?, version}]}.")
    warnings: list[str] | None = None


class Game(Answer):
    id: int
    state: GameState


class CommandResult(Answer):
    id: int
    state: GameState
    event: dict[str, Any] = Field(description="The event the command produced (JSON, with "
                                  "`type`); for undo it names what was undone.")


class GameSummary(Answer):
    id: int
    title: str
    created_at: str
    updated_at: str
    version: int | None = None
    status: Literal["active", "finished"]
    players: list[dict[str, Any]]
    round: int | None
    winner: list[str] | None = Field(description="Winning colours of a finished game; several = shared victory.")
    finished_at: str | None = None
    result: dict[str, Any] | None = None


# -- battle ------------------------------------------------------------------------------------

class PreviewRequest(Request):
    counts: Annotated[Counts, Named("the cube counts"), Says("an object of counts per colour")]


class Preview(Answer):
    """The game's pure preview of the pending battle for these counts
    (companion.game.engine.preview_battle); nothing is changed."""

    result: dict[str, Any] | None = Field(description="winner (attacker | defender | inhabitants "
                                          "| null = tie), placed, to_limbo, to_supply, left_in_tray.")
    impossible: list[str] = Field(description="Why the cube accounting says this reading cannot "
                                  "be true (empty when it can); `accept_impossible: true` accepts it.")
    explanation: list[str] = Field(description="The result in plain sentences; a translated UI "
                                   "words it from `result`.")


class Cube(Answer):
    color: str | None = None
    x: float | None = None
    y: float | None = None
    confidence: float | None = None
    bbox: list[int] | None = None


class Reading(Answer):
    """What the camera saw in the tray (photo and details). Its counts become the game's shared
    reading (``state.reading``, a ``read_tray`` event); further fields the vision reports pass
    through unchanged."""

    id: str
    game: int
    version: int = Field(description="The state version it was taken at.")
    counts: dict[str, int]
    cubes: list[Cube]
    unknown: int = Field(description="Blobs of no known colour.")
    ms: float | None = None
    thrown: dict[str, int] | None = None
    photo_url: str
    annotated_url: str
    taken_at: str


class CountAnswer(Answer):
    reading: Reading
    state: GameState


class ReadingEnvelope(Answer):
    reading: Reading


# -- tower, health, board ----------------------------------------------------------------------

class TowerStatus(Answer):
    """Owned by companion.hw (``Tower.status()``); ``message`` is added to live ``tower`` events
    when a button press could not count."""

    simulated: bool | None = None
    camera: dict[str, Any] | str | None = None
    gpio: dict[str, Any] | str | None = None
    messages: list[str] | None = None
    message: str | None = None


class Health(Answer):
    ok: bool
    version: str
    simulated: bool = Field(description="True when the camera and buttons are simulated (off the "
                            "Pi): the UI must say so on screen.")
    tower: TowerStatus


class Press(Request):
    button: Annotated[Literal["count", "cancel"], Named('"button"'), Says('"count" or "cancel"')]


class Pressed(Answer):
    pressed: str
    tower: TowerStatus


class Board(BaseModel):
    """``Board.to_dict()`` of companion.game.board: regions, areas, adjacency, resources,
    tribes; unknown values are explicit placeholders. The game checks it (``Board.from_dict``)."""

    model_config = ConfigDict(extra="allow")


class EventsQuery(Request):
    model_config = ConfigDict(strict=False, extra="ignore")  # query values are text
    game: Annotated[Id | None, Field(description="Only this game's state and reading events."),
                    Named('"game"'), Says("the number of a game")] = None
    client: Annotated[str | None, Field(pattern=r"^[A-Za-z0-9_-]{1,64}$",
                                        description="A random id per browser tab: its older stream ends at once."),
                      Named('"client"'), Says('1 to 64 letters, digits, "-" or "_"')] = None
    last_event_id: Annotated[str | None, Field(
        description="As Last-Event-ID, for a page that opens a new EventSource "
        "(the last version seen; anything else is ignored).")] = None
