"""The group's roster: list, add, rename, merge; and who sat at which colour of a game."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import Blueprint, Response, jsonify

from companion.web.api.errors import MalformedRequestError, NotFoundError
from companion.web.api.parsing import json_object, required_object
from companion.web.api.runtime import runtime

bp = Blueprint("api_people", __name__, url_prefix="/api")
F = TypeVar("F", bound=Callable[..., Any])


def _not_found_is_404(view: F) -> F:
    """An unknown person is a 404 like an unknown game (the store says ValueError: 400)."""
    from companion.store.people import PersonNotFoundError

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return view(*args, **kwargs)
        except PersonNotFoundError as exc:
            raise NotFoundError(str(exc)) from None

    return wrapper  # type: ignore[return-value]


@bp.get("/people")
def list_people() -> Response:
    from companion.store.people import roster

    return jsonify(roster(runtime().log))


@bp.post("/people")
def add() -> tuple[Response, int]:
    from companion.store.people import add_person

    body = json_object()
    return jsonify(add_person(runtime().log, body.get("name"), body.get("short_name"))), 201


@bp.get("/people/<int:person_id>")
@_not_found_is_404
def get(person_id: int) -> Response:
    from companion.store.people import person

    return jsonify(person(runtime().log, person_id))


@bp.patch("/people/<int:person_id>")
@_not_found_is_404
def update(person_id: int) -> Response:
    from companion.store.people import update_person

    return jsonify(update_person(runtime().log, person_id, json_object()))


@bp.post("/people/<int:person_id>/merge")
@_not_found_is_404
def merge(person_id: int) -> Response:
    from companion.store.people import merge_people

    body = json_object()
    if "into" not in body:
        raise MalformedRequestError('Say whom to merge into: {"into": <person number>}.')
    return jsonify(merge_people(runtime().log, person_id, body["into"]))


@bp.get("/games/<int:game_id>/people")
def seats(game_id: int) -> Response:
    from companion.store.people import game_seats

    return jsonify({"id": game_id, "seats": game_seats(runtime().log, game_id)})


@bp.put("/games/<int:game_id>/people")
@_not_found_is_404
def set_seats(game_id: int) -> Response:
    from companion.store.people import set_game_seats

    people = required_object(json_object(), "people")
    return jsonify({"id": game_id, "seats": set_game_seats(runtime().log, game_id, people)})
