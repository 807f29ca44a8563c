"""The OpenAPI paths and schemas of the statistics, people, settings and export endpoints
(issue 15), merged into the document by :mod:`companion.web.api.openapi`."""

from __future__ import annotations

from typing import Any

from companion.web.api.openapi_parts import json_body as _body
from companion.web.api.openapi_parts import json_response as _json
from companion.web.api.openapi_parts import ref as _ref

_ERR = {
    "400": {"$ref": "#/components/responses/BadRequest"},
    "404": {"$ref": "#/components/responses/NotFound"},
}


def _param(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True,
            "schema": {"type": "integer", "minimum": 1}, "description": description}


GAME = _param("game_id", "The number of the game.")
PERSON = _param("person_id", "The number of the person on the roster.")

_INTERVAL = {
    "type": ["object", "null"],
    "description": "Maximum-likelihood estimate with a 95 % confidence interval; null when the "
                   "data hold nothing to learn it from.",
    "properties": {"estimate": {"type": "number"}, "low": {"type": "number"}, "high": {"type": "number"}},
}
_FIT = {
    "type": "object",
    "properties": {
        "land": {**_INTERVAL, "description": "Chance that a thrown cube lands in the tray at once."},
        "release": {**_INTERVAL, "description": "Chance that a cube inside the tower comes out in a throw."},
        "throws": {"type": "integer", "description": "Throws (battles and seedings) with this colour."},
        "cubes_thrown": {"type": "integer"},
        "cubes_inside": {"type": "integer"},
    },
}
_ODDS = {
    "type": "object",
    "properties": {
        "win": {"type": "number"}, "tie": {"type": "number"}, "lose": {"type": "number"},
        "draws": {"type": "integer", "minimum": 10000},
        "basis": {"type": "integer", "description": "Throws the tower model rested on."},
        "attack_seq": {"type": "integer"}, "version": {"type": "integer"},
        "created_at": {"type": "string"},
    },
}
_PERSON = {
    "type": "object",
    "required": ["id", "name", "short_name"],
    "properties": {
        "id": {"type": "integer"}, "name": {"type": "string", "maxLength": 60},
        "short_name": {"type": ["string", "null"], "maxLength": 12},
        "games": {"type": "integer"}, "created_at": {"type": "string"},
        "merged_into": {"type": "integer"},
    },
}
_SEATS = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "seats": {"type": "array", "items": {"type": "object", "properties": {
            "color": {"type": "string"}, "name": {"type": "string", "description": "As stored in the game."},
            "person": {"oneOf": [_ref("Person"), {"type": "null"}]}}}},
    },
}
_SETTINGS = {
    "type": "object",
    "properties": {
        "odds": {"type": "boolean", "default": False, "description": "Show (and keep) the odds before each battle."},
        "bgg_id": {"type": ["integer", "null"], "description": "BoardGameGeek id for BG Stats; left out when null."},
        "location": {"type": ["string", "null"], "maxLength": 60},
    },
}

SCHEMAS: dict[str, Any] = {
    "TowerFit": _FIT,
    "Odds": _ODDS,
    "Person": _PERSON,
    "GameSeats": _SEATS,
    "GroupSettings": _SETTINGS,
    "TowerReport": {
        "type": "object",
        "properties": {
            "enough_data": {"type": "boolean"},
            "min_throws_for_odds": {"type": "integer"},
            "model": {"type": "object", "properties": {
                "throws": {"type": "integer"}, "battles": {"type": "integer"},
                "confidence": {"type": "number"},
                "pooled": {"oneOf": [_ref("TowerFit"), {"type": "null"}]},
                "colours": {"type": "object", "additionalProperties": _ref("TowerFit")}}},
            "fairness": {"type": "object", "properties": {
                "alpha": {"type": "number"}, "min_throws": {"type": "integer"},
                "any_flagged": {"type": "boolean"}, "enough_data": {"type": "boolean"},
                "colours": {"type": "object", "additionalProperties": {"type": "object", "properties": {
                    "verdict": {"enum": ["not_enough_data", "no_sign", "favoured", "disfavoured"]},
                    "throws": {"type": "integer"},
                    "p_value": {"type": ["number", "null"], "description": "Likelihood-ratio test, this colour vs the others."},
                    "p_adjusted": {"type": ["number", "null"], "description": "Holm-corrected over the colours."},
                    "statistic": {"type": ["number", "null"]}, "df": {"type": ["integer", "null"]},
                    "bias": {"type": ["number", "null"], "description": "Relative difference of the landing chance."},
                    "detectable_bias": {"type": ["number", "null"], "description": "Found by a 5 % test with 80 % power."},
                    "throws_for_reference": {"type": ["integer", "null"], "description": "Throws after which a 10 % bias would show."},
                    "sentence": {"type": "string"}}}}}},
        },
    },
}


def paths() -> dict[str, Any]:
    obj = {"type": "object"}
    return {
        "/api/stats/tower": {"get": {
            "summary": "The tower model per colour (landing and release chances with 95 % intervals) and the fairness tests",
            "responses": {"200": _json(_ref("TowerReport"), "Model and fairness; enough_data false before any throw.")}}},
        "/api/stats/odds": {"get": {
            "summary": "Odds calibration: predicted attacker win chance in bins against the share actually won",
            "responses": {"200": _json({"type": "object", "properties": {
                "enabled": {"type": "boolean"}, "battles": {"type": "integer"}, "enough_data": {"type": "boolean"},
                "calibration": {"type": "array", "items": {"type": "object", "properties": {
                    "bin": {"type": "array", "items": {"type": "number"}}, "battles": {"type": "integer"},
                    "predicted": {"type": "number"}, "won": {"type": "number"},
                    "low": {"type": "number"}, "high": {"type": "number"}}}}}}, "Calibration.")}}},
        "/api/stats/people": {"get": {
            "summary": "Per person: games, wins, average VP, luck, favourite tribes, head-to-head",
            "responses": {"200": _json(obj, "People; values null where there is not enough data.")}}},
        "/api/stats/games/{game_id}": {"get": {
            "summary": "One game: VP after each round per player, luck per player",
            "parameters": [GAME],
            "responses": {"200": _json(obj, "The game's statistics."), **_ERR}}},
        "/api/games/{game_id}/interior": {"get": {
            "summary": "The interior estimate with what the next throw will likely let out (90 % range)",
            "parameters": [GAME],
            "responses": {"200": _json(obj, "Per colour: inside, release chance, next_out {expected, low, high}."), **_ERR}}},
        "/api/games/{game_id}/battle/odds": {"get": {
            "summary": "The attacker's odds of the pending battle (group setting `odds`); the first odds of a battle are kept in the log",
            "parameters": [GAME],
            "responses": {"200": _json({"type": "object", "properties": {
                "enabled": {"type": "boolean"}, "odds": {"oneOf": [_ref("Odds"), {"type": "null"}]},
                "reason": {"type": "string"}, "kept": {"type": "boolean"}}}, "Odds, or why there are none."), **_ERR}}},
        "/api/settings": {
            "get": {"summary": "The group settings", "responses": {"200": _json(_ref("GroupSettings"), "Settings.")}},
            "put": {"summary": "Change group settings (only the keys sent)",
                    "requestBody": _body(_ref("GroupSettings")),
                    "responses": {"200": _json(_ref("GroupSettings"), "All settings."), **_ERR}}},
        "/api/export/{name}.csv": {"get": {
            "summary": "Every game as CSV, one file per table",
            "parameters": [{"name": "name", "in": "path", "required": True,
                            "schema": {"enum": ["games", "seats", "rounds", "battles"]},
                            "description": "The table."}],
            "responses": {"200": {"description": "CSV", "content": {"text/csv": {}}}, **_ERR}}},
        "/api/export/all.json": {"get": {
            "summary": "Every game as one JSON document (the four tables and the roster)",
            "responses": {"200": _json(obj, "The export.")}}},
        "/api/games/{game_id}/bgstats": {"get": {
            "summary": "BG Stats createPlay link of a game (BoardGameGeek id from the settings, never guessed)",
            "parameters": [GAME],
            "responses": {"200": _json({"type": "object", "properties": {
                "url": {"type": "string"}, "data": obj}}, "The link and its data."), **_ERR}}},
        "/api/people": {
            "get": {"summary": "The roster", "responses": {"200": _json({"type": "array", "items": _ref("Person")}, "People.")}},
            "post": {"summary": "Put someone on the roster",
                     "requestBody": _body({"type": "object", "required": ["name"], "properties": {
                         "name": {"type": "string"}, "short_name": {"type": ["string", "null"]}}}),
                     "responses": {"201": _json(_ref("Person"), "The new entry."), **_ERR}}},
        "/api/people/{person_id}": {
            "get": {"summary": "One person (a merged entry answers with the one it was merged into)",
                    "parameters": [PERSON], "responses": {"200": _json(_ref("Person"), "The person."), **_ERR}},
            "patch": {"summary": "Rename, or set the short name",
                      "parameters": [PERSON],
                      "requestBody": _body({"type": "object", "properties": {
                          "name": {"type": "string"}, "short_name": {"type": ["string", "null"]}}}),
                      "responses": {"200": _json(_ref("Person"), "The person."), **_ERR}}},
        "/api/people/{person_id}/merge": {"post": {
            "summary": "Merge this person into another: their games follow",
            "parameters": [PERSON],
            "requestBody": _body({"type": "object", "required": ["into"], "properties": {"into": {"type": "integer"}}}),
            "responses": {"200": _json(_ref("Person"), "The person merged into."), **_ERR}}},
        "/api/games/{game_id}/people": {
            "get": {"summary": "Who sat at which colour (person null: not linked to the roster)",
                    "parameters": [GAME], "responses": {"200": _json(_ref("GameSeats"), "Seats."), **_ERR}},
            "put": {"summary": "Link colours of a game to people ({colour: person id or null})",
                    "parameters": [GAME],
                    "requestBody": _body({"type": "object", "required": ["people"], "properties": {
                        "people": {"type": "object", "additionalProperties": {"type": ["integer", "null"]}}}}),
                    "responses": {"200": _json(_ref("GameSeats"), "Seats."), **_ERR}}},
    }
