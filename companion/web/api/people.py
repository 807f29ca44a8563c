"""The group's roster: list, add, rename, merge; and who sat at which colour of a game."""

from __future__ import annotations


from flask import Blueprint, Response, jsonify

from companion.store.people import PersonNotFoundError
from companion.web.api.errors import not_found_is_404
from companion.web.api.runtime import runtime
from companion.web.api.shapes_stats import GameSeats, Merge, NewPerson, Person, PersonChange, SeatLinks
from companion.web.api.spec import accepts, operation, responds

bp = Blueprint("api_people", __name__, url_prefix="/api")


_not_found_is_404 = not_found_is_404(PersonNotFoundError)


@bp.get("/people")
@operation("The roster")
@responds(200, list[Person], "People.")
def list_people() -> Response:
    from companion.store.people import roster

    return jsonify(roster(runtime().log))


@bp.post("/people")
@operation("Put someone on the roster")
@accepts(NewPerson)
@responds(201, Person, "The new entry.", links_id=("person_id", "$response.body#/id"))
def add(body: NewPerson) -> tuple[Response, int]:
    from companion.store.people import add_person

    return jsonify(add_person(runtime().log, body.name, body.short_name)), 201


@bp.get("/people/<int:person_id>")
@_not_found_is_404
@operation("One person (a merged entry answers with the one it was merged into)")
@responds(200, Person, "The person.")
def get(person_id: int) -> Response:
    from companion.store.people import person

    return jsonify(person(runtime().log, person_id))


@bp.patch("/people/<int:person_id>")
@_not_found_is_404
@operation("Rename, or set the short name")
@accepts(PersonChange)
@responds(200, Person, "The person.")
def update(person_id: int, body: PersonChange) -> Response:
    from companion.store.people import update_person

    return jsonify(update_person(runtime().log, person_id, body.changes()))


@bp.post("/people/<int:person_id>/merge")
@_not_found_is_404
@operation("Merge this person into another: their games follow")
@accepts(Merge)
@responds(200, Person, "The person merged into.")
def merge(person_id: int, body: Merge) -> Response:
    from companion.store.people import merge_people

    return jsonify(merge_people(runtime().log, person_id, body.into))


@bp.get("/games/<int:game_id>/people")
@operation("Who sat at which colour (person null: not linked to the roster)")
@responds(200, GameSeats, "Seats.")
def seats(game_id: int) -> Response:
    from companion.store.people import game_seats

    return jsonify({"id": game_id, "seats": game_seats(runtime().log, game_id)})


@bp.put("/games/<int:game_id>/people")
@_not_found_is_404
@operation("Link colours of a game to people ({colour: person id or null})")
@accepts(SeatLinks)
@responds(200, GameSeats, "Seats.")
def set_seats(game_id: int, body: SeatLinks) -> Response:
    from companion.store.people import set_game_seats

    people = body.people
    return jsonify({"id": game_id, "seats": set_game_seats(runtime().log, game_id, people)})
