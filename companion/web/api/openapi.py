"""The OpenAPI 3.1 document of the JSON API, written by hand (a test checks that every
registered ``/api`` route is in it, and that every path in it is a registered route).

The game state and the board are described by their top-level fields; their full shape is owned
by the game package (``GameState.to_dict()`` in companion/game/state.py, ``Board.to_dict()``).
"""

from __future__ import annotations

import copy
from typing import Any

from companion.web.api.openapi_parts import JSON
from companion.web.api.openapi_parts import json_body as _body
from companion.web.api.openapi_parts import json_response as _json
from companion.web.api.openapi_parts import ref as _ref

from companion.web.api import openapi_stats

_ERRORS = {
    "400": {"$ref": "#/components/responses/BadRequest"},
    "404": {"$ref": "#/components/responses/NotFound"},
    "409": {"$ref": "#/components/responses/Conflict"},
    "503": {"$ref": "#/components/responses/Unavailable"},
}


def _errors(*codes: str) -> dict[str, Any]:
    return {code: _ERRORS[code] for code in codes}


_GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
    "description": "The number of the game.",
}
_READING_ID = {
    "name": "rid",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": r"^\d+-\d+-[0-9a-f]{8}$"},
    "description": "The id of a camera reading (`<game>-<version>-<8 hex>`).",
}

_COUNTS = {
    "type": "object",
    "description": "Cubes per colour (red, blue, yellow, purple, black, green); zero counts may be omitted.",
    "additionalProperties": {"type": "integer", "minimum": 0},
}

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["kind", "message"],
                "properties": {
                    "kind": {
                        "type": "string",
                        "description": "The error class, e.g. NotYourTurnError, WrongPhaseError, "
                        "VersionConflictError, GameNotFoundError, CameraUnavailableError, "
                        "MalformedRequestError.",
                    },
                    "message": {"type": "string", "description": "A sentence for the players."},
                },
            }
        },
    },
    "Counts": _COUNTS,
    "TowerStatus": {
        "type": "object",
        "description": "Owned by companion.hw (Tower.status()); `message` is added to live "
        "`tower` events when a button press could not count.",
        "properties": {
            "simulated": {"type": "boolean"},
            "camera": {"type": ["object", "string"]},
            "gpio": {"type": ["object", "string"]},
            "messages": {"type": "array", "items": {"type": "string"}},
            "message": {"type": "string"},
        },
        "additionalProperties": True,
    },
    "Health": {
        "type": "object",
        "required": ["ok", "version", "simulated", "tower"],
        "properties": {
            "ok": {"type": "boolean"},
            "version": {"type": "string"},
            "simulated": {
                "type": "boolean",
                "description": "True when the camera and buttons are simulated (off the Pi): "
                "the UI must say so on screen.",
            },
            "tower": _ref("TowerStatus"),
        },
    },
    "GameState": {
        "type": "object",
        "description": "GameState.to_dict() of companion.game: the whole visible state. "
        "`version` is the state id to send back as `expected_version`.",
        "required": ["version"],
        "properties": {
            "version": {"type": "integer", "minimum": 0},
            "phase": {"type": "string"},
            "round": {"type": ["integer", "null"]},
            "players": {"type": "array", "items": {"type": "object"}},
            "battle": {"type": ["object", "null"]},
            "reading": {
                "type": ["object", "null"],
                "description": "The shared tray reading of the pending throw: {id, camera, "
                "counts, unknown, changes: [{color, from, to, device?, player?, version}]}.",
            },
            "warnings": {"type": "array", "items": {"type": "string"}},
        },
        "additionalProperties": True,
    },
    "Game": {
        "type": "object",
        "required": ["id", "state"],
        "properties": {"id": {"type": "integer"}, "state": _ref("GameState")},
    },
    "GameSummary": {
        "type": "object",
        "required": ["id", "title", "created_at", "updated_at", "status", "players", "round", "winner"],
        "properties": {
            "id": {"type": "integer"},
            "title": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
            "updated_at": {"type": "string", "format": "date-time"},
            "version": {"type": "integer"},
            "status": {"enum": ["active", "finished"]},
            "players": {"type": "array", "items": {"type": "object"}},
            "round": {"type": ["integer", "null"]},
            "winner": {
                "type": ["array", "null"],
                "items": {"type": "string"},
                "description": "Winning colours of a finished game; several = shared victory.",
            },
            "finished_at": {"type": ["string", "null"]},
            "result": {"type": ["object", "null"]},
        },
    },
    "NewGame": {
        "type": "object",
        "description": "The fields of the `new_game` command (see docs/CONTRACTS.md); the board "
        "is taken from the owner's board data and must not be sent.",
        "required": ["players", "first_player"],
        "properties": {
            "title": {"type": "string"},
            "players": {
                "type": "array",
                "minItems": 3,
                "maxItems": 5,
                "items": {
                    "type": "object",
                    "required": ["color"],
                    "properties": {
                        "color": {"enum": ["red", "blue", "yellow", "purple", "black"]},
                        "name": {"type": "string"},
                        "light_tribe": {"type": "string"},
                        "dark_tribe": {"type": "string"},
                    },
                },
            },
            "first_player": {"type": "string"},
            "rounds": {"type": "integer", "minimum": 1},
        },
        "additionalProperties": True,
    },
    "Command": {
        "type": "object",
        "description": "One command of the catalog in docs/CONTRACTS.md, e.g. "
        '{"type": "attack", "player": "purple", "source": …, "target": …}. '
        "Guards run in a fixed order: well-formed → phase → game not over → player → rules.",
        "required": ["type"],
        "properties": {"type": {"type": "string"}, "player": {"type": "string"}},
        "additionalProperties": True,
    },
    "CommandRequest": {
        "type": "object",
        "required": ["command"],
        "properties": {
            "command": _ref("Command"),
            "expected_version": {
                "type": "integer",
                "minimum": 0,
                "description": "The `state.version` the player acted on; a newer game answers 409.",
            },
        },
    },
    "CommandResult": {
        "type": "object",
        "required": ["id", "state", "event"],
        "properties": {
            "id": {"type": "integer"},
            "state": _ref("GameState"),
            "event": {
                "type": "object",
                "description": "The event the command produced (JSON, with `type`); for undo it "
                "names what was undone.",
            },
        },
    },
    "PreviewRequest": {
        "type": "object",
        "required": ["counts"],
        "properties": {"counts": _ref("Counts")},
    },
    "Preview": {
        "type": "object",
        "description": "The game's pure preview of the pending battle for these counts "
        "(companion.game.engine.preview_battle); nothing is changed.",
        "required": ["result", "impossible", "explanation"],
        "properties": {
            "result": {
                "type": ["object", "null"],
                "description": "winner (attacker | defender | inhabitants | null = tie), placed, "
                "to_limbo, to_supply, left_in_tray.",
            },
            "impossible": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Why the cube accounting says this reading cannot be true (empty "
                "when it can). Resolve with `accept_impossible: true` to accept it anyway.",
            },
            "explanation": {
                "type": "array",
                "items": {"type": "string"},
                "description": "The result in plain English sentences (\"Red 3 : 3 Purple.\", "
                "\"Purple: 3 to the dark limbo.\"); a translated UI words it from `result`.",
            },
        },
        "additionalProperties": True,
    },
    "Reading": {
        "type": "object",
        "description": "What the camera saw in the tray (photo and details). Its counts become "
        "the game's shared reading (`state.reading`, a `read_tray` event); every +/- is a "
        "`correct_tray` command; `resolve_battle` (or `seed_tower`) with the `expected_version` "
        "the device was shown applies it. Further fields the vision reports (e.g. per-colour "
        "confidence, doubtful blobs) pass through unchanged.",
        "additionalProperties": True,
        "required": ["id", "game", "version", "counts", "cubes", "unknown", "photo_url", "annotated_url", "taken_at"],
        "properties": {
            "id": {"type": "string"},
            "game": {"type": "integer"},
            "version": {"type": "integer", "description": "The state version it was taken at."},
            "counts": _ref("Counts"),
            "cubes": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "color": {"type": "string"},
                        "x": {"type": "number"},
                        "y": {"type": "number"},
                        "confidence": {"type": "number"},
                        "bbox": {"type": "array", "items": {"type": "integer"}},
                    },
                },
            },
            "unknown": {"type": "integer", "description": "Blobs of no known colour."},
            "ms": {"type": "number"},
            "thrown": _ref("Counts"),
            "photo_url": {"type": "string"},
            "annotated_url": {"type": "string"},
            "taken_at": {"type": "string", "format": "date-time"},
        },
    },
    "CountAnswer": {
        "type": "object",
        "required": ["reading", "state"],
        "properties": {"reading": _ref("Reading"), "state": _ref("GameState")},
    },
    "ReadingEnvelope": {
        "type": "object",
        "required": ["reading"],
        "properties": {"reading": _ref("Reading")},
    },
    "Press": {
        "type": "object",
        "required": ["button"],
        "properties": {"button": {"enum": ["count", "cancel"]}},
    },
    "Board": {
        "type": "object",
        "description": "Board.to_dict() of companion.game.board: regions, areas, adjacency, "
        "resources, tribes; unknown values are explicit placeholders.",
        "additionalProperties": True,
    },
}

RESPONSES: dict[str, Any] = {
    "BadRequest": _json(_ref("Error"), "Bad input or a move the rules refuse. Nothing changed."),
    "NotFound": _json(_ref("Error"), "No such game, reading or address."),
    "Conflict": _json(
        _ref("Error"), "Someone changed the game first (stale expected_version): reload."
    ),
    "Unavailable": _json(
        _ref("Error"), "The camera or the buttons are not available: offer manual entry."
    ),
}

_SSE_DESCRIPTION = """Server-sent events (text/event-stream). Events:
* `state` — data `{"game", "version", "type", "news", "device"?}`, `id:` = version: reload the
  game; `news` says what changed ("Red was corrected to 5"), `device` where.
* `tower` — data: the tower status (plus `message` when a button press could not count).
* `reading` — data `{"game", "reading"}`: the camera counted the tray.
* `bye` — the stream reached its maximum age (60 s): reconnect now; nothing is lost.
The stream starts with `retry:` and the tower status; with `game`, also the game's current
`state` unless `Last-Event-ID` (or `last_event_id`) already equals its version — its `news` then
names what the device missed. A `: ping` comment is sent whenever the stream was quiet for 15 s.
A stream ends within a second of its client closing the connection; a new stream with the same
`client` replaces the older one at once."""


def _paths() -> dict[str, Any]:
    game = [_GAME_ID]
    return {
        "/api/health": {
            "get": {
                "summary": "Is the companion up; is the tower simulated",
                "responses": {"200": _json(_ref("Health"), "Status.")},
            }
        },
        "/api/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {"200": _json({"type": "object"}, "The OpenAPI 3.1 document.")},
            }
        },
        "/api/board": {
            "get": {
                "summary": "The owner's board data (or the packaged placeholders)",
                "responses": {"200": _json(_ref("Board"), "The board.")},
            },
            "put": {
                "summary": "Replace the owner's board data (validated, saved atomically to "
                "COMPANION_DATA/board.toml); used by new games from now on",
                "requestBody": _body(_ref("Board")),
                "responses": {"200": _json(_ref("Board"), "The board as saved."), **_errors("400")},
            },
        },
        "/api/games": {
            "get": {
                "summary": "Every game, for the list of games to resume",
                "responses": {
                    "200": _json({"type": "array", "items": _ref("GameSummary")}, "The games.")
                },
            },
            "post": {
                "summary": "Start a new game",
                "requestBody": _body(_ref("NewGame")),
                "responses": {"201": _json(_ref("Game"), "The new game."), **_errors("400")},
            },
        },
        "/api/games/{game_id}": {
            "get": {
                "summary": "One game's state",
                "parameters": game,
                "responses": {"200": _json(_ref("Game"), "The game."), **_errors("404")},
            }
        },
        "/api/games/{game_id}/commands": {
            "post": {
                "summary": "Execute one command (one command → one event); undo is a command",
                "parameters": game,
                "requestBody": _body(_ref("CommandRequest")),
                "responses": {
                    "200": _json(_ref("CommandResult"), "The new state and the event."),
                    **_errors("400", "404", "409"),
                },
            }
        },
        "/api/games/{game_id}/battle/preview": {
            "post": {
                "summary": "What the pending battle would give for these counts (changes nothing)",
                "parameters": game,
                "requestBody": _body(_ref("PreviewRequest")),
                "responses": {
                    "200": _json(_ref("Preview"), "The preview."),
                    **_errors("400", "404"),
                },
            }
        },
        "/api/games/{game_id}/battle/count": {
            "post": {
                "summary": "Count the tray for the pending throw (battle or seeding): settle → "
                "fresh frame → count. Same path as the tower's count button. Every device also "
                "gets a `reading` event, and the counts become the shared reading (one "
                "`read_tray` event; nothing else in the game changes).",
                "parameters": game,
                "responses": {
                    "200": _json(_ref("CountAnswer"), "The reading and the new state."),
                    "409": {
                        "description": "A count is already running, or someone pressed cancel.",
                        "content": {JSON: {"schema": _ref("Error")}},
                    },
                    **_errors("400", "404", "503"),
                },
            }
        },
        "/api/games/{game_id}/battle/reading": {
            "get": {
                "summary": "The latest camera reading of this game",
                "parameters": game,
                "responses": {
                    "200": _json(_ref("ReadingEnvelope"), "The latest reading."),
                    **_errors("404"),
                },
            }
        },
        "/api/readings/{rid}": {
            "get": {
                "summary": "One stored camera reading (all details the vision reported)",
                "parameters": [_READING_ID],
                "responses": {
                    "200": _json(_ref("ReadingEnvelope"), "The reading."),
                    **_errors("404"),
                },
            }
        },
        "/api/readings/{rid}/photo.jpg": {
            "get": {
                "summary": "The photo of a reading",
                "parameters": [_READING_ID],
                "responses": {
                    "200": {"description": "JPEG", "content": {"image/jpeg": {}}},
                    **_errors("404"),
                },
            }
        },
        "/api/readings/{rid}/annotated.jpg": {
            "get": {
                "summary": "The photo with every counted cube marked",
                "parameters": [_READING_ID],
                "responses": {
                    "200": {"description": "JPEG", "content": {"image/jpeg": {}}},
                    **_errors("404"),
                },
            }
        },
        "/api/tower": {
            "get": {
                "summary": "Tower status (camera, buttons, messages for the screen)",
                "responses": {"200": _json(_ref("TowerStatus"), "Status.")},
            }
        },
        "/api/tower/press": {
            "post": {
                "summary": "Press a tower button on screen (same path as the GPIO button). A "
                "count runs in the background; its result arrives as a `reading` event, or a "
                "`tower` event with a `message` saying why there is none.",
                "requestBody": _body(_ref("Press")),
                "responses": {
                    "202": _json(
                        {
                            "type": "object",
                            "properties": {
                                "pressed": {"type": "string"},
                                "tower": _ref("TowerStatus"),
                            },
                        },
                        "Pressed.",
                    ),
                    **_errors("400", "503"),
                },
            }
        },
        "/api/events": {
            "get": {
                "summary": "Live updates (server-sent events)",
                "description": _SSE_DESCRIPTION,
                "parameters": [
                    {
                        "name": "game",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "integer"},
                        "description": "Only this game's state and reading events.",
                    },
                    {
                        "name": "client",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
                        "description": "A random id per browser tab: its older stream ends at once.",
                    },
                    {
                        "name": "last_event_id",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "integer", "minimum": 0},
                        "description": "As Last-Event-ID, for a page that opens a new EventSource.",
                    },
                    {
                        "name": "Last-Event-ID",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string"},
                        "description": "Sent by the browser on reconnect: the last version seen.",
                    },
                ],
                "responses": {
                    "200": {"description": "The stream.", "content": {"text/event-stream": {}}},
                    **_errors("400", "404", "503"),
                },
            }
        },
        "/api/stats": {
            "get": {
                "summary": "Statistics over every game (companion.store.stats)",
                "responses": {"200": _json({"type": "object"}, "Statistics.")},
            }
        },
        "/api/games/{game_id}/export.json": {
            "get": {
                "summary": "The whole game (events and summary) as a JSON download",
                "parameters": game,
                "responses": {"200": _json({"type": "object"}, "The export."), **_errors("404")},
            }
        },
        "/api/games/{game_id}/battles.csv": {
            "get": {
                "summary": "The game's battles as CSV (counts, camera counts, corrections)",
                "parameters": game,
                "responses": {
                    "200": {"description": "CSV", "content": {"text/csv": {}}},
                    **_errors("404"),
                },
            }
        },
    }


def openapi_document() -> dict[str, Any]:
    """A fresh copy of the document (callers may not mutate a shared one)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Immortals tower companion",
            "version": "1",
            "description": "The JSON API behind the tablet UI. Errors are "
            '`{"error": {"kind", "message"}}` with 400 (bad input or a refused move: nothing '
            "changed), 404 (no such game), 409 (stale expected_version: reload), 503 (camera or "
            "buttons unavailable: count by hand). Every state-changing answer carries the new state.",
        },
        "paths": {**_paths(), **openapi_stats.paths()},
        "components": copy.deepcopy(
            {"schemas": {**SCHEMAS, **openapi_stats.SCHEMAS}, "responses": RESPONSES}
        ),
    }
