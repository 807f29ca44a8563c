"""Games: list, create, read, change (commands), and the exports."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from companion.game.errors import InvalidCommandError
from companion.messages import localize_warnings, msg
from companion.names import first_repeated
from companion.web import create_once
from companion.web.api.board import current_board
from companion.web.api.shapes import CommandRequest, CommandResult, Game, GameSummary, NewGame
from companion.web.api.runtime import runtime
from companion.web.api.shapes_options import NotPlayingError, Options, OptionsQuery
from companion.web.api.spec import accepts, accepts_query, operation, responds
from companion.web.i18n import request_language

bp = Blueprint("api_games", __name__, url_prefix="/api")


def game_body(game_id: int, state: Any, **extra: Any) -> dict[str, Any]:
    """A game as the API sends it; stored warnings rendered in the page's language."""
    return localize_warnings({"id": game_id, "state": state.to_dict(), **extra}, request_language())


@bp.get("/games")
@operation("Every game, for the list of games to resume")
@responds(200, list[GameSummary], "The games.")
def list_games() -> Response:
    return jsonify([summary.to_dict() for summary in runtime().log.games()])


@bp.post("/games")
@operation("Start a new game", errors=(409,), headers=[create_once.HEADER_SPEC])
@accepts(NewGame)
@responds(201, Game, "The new game (or, for a repeated Idempotency-Key, the game it made).",
          links_id=("game_id", "$response.body#/id"))
def create_game(body: NewGame) -> tuple[Response, int]:
    rt = runtime()
    twice = first_repeated(p.name for p in body.players)
    if twice is not None:  # the game night's rule: "Ani" and "ani" are one player
        raise InvalidCommandError(msg("err_name_twice", name=twice.strip()))
    command, key = body.command(), create_once.create_key()
    if key is None:
        game_id, state = rt.service.new_game(command, board=current_board(rt))
        created = True
    else:
        game_id, state, created = rt.service.new_game_once(
            command, key, create_once.fingerprint(command), board=current_board(rt)
        )
    rt.touch(game_id)
    response = jsonify(game_body(game_id, state))
    if not created:
        response.headers["Idempotent-Replayed"] = "true"
    return response, 201


@bp.get("/games/<int:game_id>")
@operation("One game's state")
@responds(200, Game, "The game.")
def get_game(game_id: int) -> Response:
    rt = runtime()
    state = rt.service.state(game_id)
    rt.touch(game_id)
    return jsonify(game_body(game_id, state))


@bp.post("/games/<int:game_id>/commands")
@operation("Execute one command (one command → one event); undo is a command", errors=(409,))
@accepts(CommandRequest)
@responds(200, CommandResult, "The new state and the event.")
def execute(game_id: int, body: CommandRequest) -> Response:
    rt = runtime()
    state, event = rt.service.execute_with_event(
        game_id, body.command.model_dump(), expected_version=body.expected_version
    )
    rt.touch(game_id)
    return jsonify(game_body(game_id, state, event=event))


@bp.get("/games/<int:game_id>/export.json")
@operation("The whole game (events and summary) as a JSON download")
@responds(200, {"type": "object"}, "The export.")
def export_json(game_id: int) -> Response:
    from companion.store.export import export_game

    response = jsonify(export_game(runtime().log, game_id))
    response.headers["Content-Disposition"] = f'attachment; filename="immortals-game-{game_id}.json"'
    return response


@bp.get("/games/<int:game_id>/battles.csv")
@operation("The game's battles as CSV (counts, camera counts, corrections)")
@responds(200, None, "CSV", content_type="text/csv")
def battles_csv(game_id: int) -> Response:
    from companion.store.export import battles_csv as to_csv

    log = runtime().log
    log.game(game_id)  # 404 for a game that does not exist, not an empty table
    response = Response(to_csv(log, game_id), mimetype="text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="immortals-game-{game_id}-battles.csv"'
    )
    return response


@bp.get("/games/<int:game_id>/options")
@operation("The legal choices of one player now: what each picker may offer (regions with own "
           "armies, targets one step or one portal away, realms, amounts, own tribe's specials); "
           "the same rule tests the engine refuses with (companion.game.legal). Conditional: "
           "the ETag names the state version and the player; If-None-Match answers 304.",
           errors=(400, 404),
           headers=[{"name": "If-None-Match", "in": "header", "required": False,
                     "schema": {"type": "string"},
                     "description": "The ETag of the options the device has."}])
@accepts_query(OptionsQuery)
@responds(200, Options, "The options, versioned by the game's state version.",
          headers={"ETag": {"description": "State version and player.", "schema": {"type": "string"}}})
@responds(304, None, "Not modified: the device's options (If-None-Match) are still current.")
def options(game_id: int, query: OptionsQuery) -> Response:
    from flask import request

    from companion.game.legal import options as legal_options

    state = runtime().service.state(game_id)
    color = query.player or state.turn or state.first_player
    if color not in state.colors:
        raise NotPlayingError(color)
    tag = f"{state.version}-{color}"
    if request.if_none_match.contains(tag):
        response = Response(status=304)
    else:
        response = jsonify(legal_options(state, color))
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"  # revalidate: the game moves on
    return response
