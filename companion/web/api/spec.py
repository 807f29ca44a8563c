"""One definition per request and response: validation and the OpenAPI description both come
from it.

A route says what it takes and what it answers with decorators placed *under* the blueprint's
route decorator; the shapes are pydantic v2 models (:mod:`companion.web.api.shapes`)::

    @bp.post("/games/<int:game_id>/battle/preview")
    @operation("What the pending battle would give for these counts", errors=(400, 404))
    @accepts(PreviewRequest)                     # the JSON body, validated, as ``body=``
    @responds(200, Preview, "The preview.")
    def preview(game_id: int, body: PreviewRequest) -> Response: ...

Guarantees:

* ``@accepts(Model)`` runs before the view: a body that is not JSON, not an object, or does not
  match ``Model`` is refused with 400 and ``{"error": {"kind": "MalformedRequestError",
  "message": <one sentence naming the field>}}`` — nothing has been changed. The view gets the
  validated model instance as ``body`` (``@accepts_query(Model)``: the query string as
  ``query``).
* :func:`openapi_document` walks the app's URL map: every ``/api`` route is described, with its
  path parameters (an ``int`` id is ``1 ≤ id ≤ MAX_ID``; larger ids never reach a view, they are
  a 404), request body, responses and the common error answers: 405 (with ``Allow``) on every
  operation, 413 on those with a body, 403 on every state-changing one and 401/429 (the table
  PIN) and 503 (the disk refused the write) unless the view is marked ``changes_nothing``. A route without ``@operation`` is still
  listed (a test fails on it), so nothing is silently undocumented.
* JSON numbers: an integral float (``3.0``) is the integer it names, as in JSON Schema.
* Messages: a constrained type carries its wording, ``Annotated[int, Field(ge=0, le=99),
  Says("a whole number from 0 to 99")]``, and a field its name in words, ``Named("count for
  red")``; the error reads "The count for red must be a whole number from 0 to 99."
"""

from __future__ import annotations

import copy
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import wraps
from typing import Any, TypeVar

from flask import Flask, request
from pydantic import BaseModel, ValidationError
from pydantic.json_schema import models_json_schema
from werkzeug.routing import IntegerConverter

from companion.messages import Message, lookup, msg
from companion.web.api.errors import MalformedRequestError

JSON = "application/json"
MAX_ID = 2**63 - 1  # SQLite's INTEGER: a larger id cannot name anything
STATE_CHANGING = {"post", "put", "patch", "delete"}
F = TypeVar("F", bound=Callable[..., Any])


# -- wording of validation errors ---------------------------------------------------------------

@dataclass(frozen=True)
class Says:
    """What a value must be, in words: ``Says("a whole number from 0 to 99")``."""

    phrase: str


@dataclass(frozen=True)
class Named:
    """A field's name in words, for messages: ``Named("count for red")``."""

    name: str


def _markers(metadata: Iterable[Any]) -> tuple[str | None, str | None]:
    phrase = name = None
    for item in metadata:
        if isinstance(item, Says):
            phrase = item.phrase
        elif isinstance(item, Named):
            name = item.name
    return phrase, name


def _unwrap(annotation: Any) -> tuple[Any, list[Any]]:
    """The type under ``Annotated``/``Optional`` and the metadata found on the way."""
    metadata: list[Any] = []
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation, *extra = typing.get_args(annotation)
            metadata.extend(extra)
        elif origin in (typing.Union, types.UnionType):
            rest = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(rest) != 1:
                return annotation, metadata
            annotation = rest[0]
        else:
            return annotation, metadata


@dataclass(frozen=True)
class Phrase:
    """A ``Says``/``Named`` phrase (or a model's ``extra_message``) in the reader's language:
    the catalogue's ``shape:<English phrase>`` entry, else the English phrase itself;
    ``capital`` starts it with a capital letter (the start of a sentence)."""

    text: str
    capital: bool = False
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self, lang: str) -> str:
        text = lookup(f"shape:{self.text}", lang) if self.text else ""
        text = text.format(**self.params) if self.params else text
        return text[:1].upper() + text[1:] if self.capital else text

    def capitalized(self) -> Phrase:
        return Phrase(self.text, True, self.params)

    def __str__(self) -> str:
        return self.render("en")


@dataclass(frozen=True)
class _Label:
    """A field's name built from its container's (entry 2 of the players, red in the counts)."""

    key: str
    params: Mapping[str, Any]
    capital: bool = False

    def render(self, lang: str) -> str:
        text = msg(self.key, **self.params).render(lang)
        return text[:1].upper() + text[1:] if self.capital else text

    def capitalized(self) -> _Label:
        return _Label(self.key, self.params, True)


Label = Phrase | _Label


def _describe(model: type[BaseModel], loc: tuple[Any, ...]) -> tuple[Label | None, Phrase | None]:
    """(what the value is called, what it must be) for an error at ``loc`` of ``model``."""
    label: Label | None = None
    phrase: Phrase | None = None
    current: Any = model
    for part in loc:
        current, meta = _unwrap(current)
        if isinstance(current, type) and issubclass(current, BaseModel) and part in current.model_fields:
            info = current.model_fields[part]
            p, n = _markers([*meta, *info.metadata])
            current = info.annotation
            inner, inner_meta = _unwrap(current)
            p2, n2 = _markers(inner_meta)
            phrase = _phrase(p or p2)
            label = Phrase(n or n2) if n or n2 else _Label("shape_field", {"name": info.alias or part})
        elif typing.get_origin(current) in (dict, Mapping) and isinstance(part, str):
            current = typing.get_args(current)[1]
            inner, inner_meta = _unwrap(current)
            p, n = _markers(inner_meta)
            phrase = _phrase(p)
            label = (Phrase(n, params={"key": part}) if n
                     else _Label("shape_key_in", {"key": part, "where": label or Phrase("the body")}))
        elif typing.get_origin(current) in (list, tuple) and isinstance(part, int):
            args = typing.get_args(current)
            current = args[0] if args else Any
            inner, inner_meta = _unwrap(current)
            phrase = _phrase(_markers(inner_meta)[0])
            label = _Label("shape_entry_of", {"n": part + 1, "where": label or Phrase("the list")})
        else:
            break  # a union member's tag or an unknown key: keep what we have
    return label, phrase


def _phrase(text: str | None) -> Phrase | None:
    return None if text is None else Phrase(text)


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> Any:
    """The model class found at ``loc`` (None when it is not a model)."""
    current: Any = model
    for part in loc:
        current, _ = _unwrap(current)
        if isinstance(current, type) and issubclass(current, BaseModel) and part in current.model_fields:
            current = current.model_fields[part].annotation
        elif typing.get_origin(current) in (list, tuple, dict, Mapping):
            args = typing.get_args(current)
            current = args[-1] if args else None
        else:
            return None
    current, _ = _unwrap(current)
    return current


def message_for(model: type[BaseModel], error: Mapping[str, Any]) -> Message:
    """One sentence for one pydantic error, naming the field in the players' words (a catalogue
    message: English and German)."""
    loc = tuple(error.get("loc", ()))
    kind = error.get("type", "")
    if kind == "extra_forbidden":
        owner = _model_at(model, loc[:-1])
        custom = getattr(owner, "extra_message", None)
        if custom:
            return msg("shape_sentence", text=Phrase(custom, params={"key": loc[-1]}))
        where = _describe(model, loc[:-1])[0] if len(loc) > 1 else None
        return msg("err_shape_no_field", where=(where or Phrase("the request")).capitalized(), key=loc[-1])
    label, phrase = _describe(model, loc)
    label = label or Phrase("the request body")
    if kind == "missing":
        return msg("err_shape_missing", field=label)
    if phrase is None:  # no wording given: pydantic's own (English), lower-cased after the field
        text = str(error.get("msg", "is not valid"))
        text = text[0].lower() + text[1:] if text else "valid"
        text = text.removeprefix("input should be ")
        if text.startswith("value error, "):
            return msg("shape_sentence", text=Phrase(text.removeprefix("value error, ")))
        return msg("err_shape_invalid", field=label.capitalized(), what=text)
    return msg("err_shape_must", field=label.capitalized(), what=phrase)


def validate(model: type[BaseModel], data: Any) -> BaseModel:
    """``model`` validated from ``data``; :class:`MalformedRequestError` with the first problem
    in words (pydantic's report is never shown to players)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        errors = sorted(exc.errors(include_url=False), key=lambda e: e["type"] != "extra_forbidden")
        raise MalformedRequestError(message_for(model, errors[0])) from None


# -- what a route declares ---------------------------------------------------------------------

@dataclass
class Answer:
    description: str
    shape: Any  # a model, list[Model], a JSON schema dict, or None
    content_type: str = JSON
    headers: dict[str, Any] = field(default_factory=dict)
    links_id: tuple[str, str] | None = None  # (path parameter, runtime expression)


@dataclass
class Operation:
    summary: str = ""
    description: str | None = None
    body: type[BaseModel] | None = None
    body_description: str = ""
    query: type[BaseModel] | None = None
    answers: dict[int, Answer] = field(default_factory=dict)
    errors: set[int] = field(default_factory=set)
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    headers: list[dict[str, Any]] = field(default_factory=list)


def _op(view: Callable[..., Any]) -> Operation:
    op = getattr(view, "__api__", None)
    if op is None:
        op = Operation()
        view.__api__ = op  # type: ignore[attr-defined]
    return op


def operation(
    summary: str,
    *,
    description: str | None = None,
    errors: Iterable[int] = (),
    params: Mapping[str, Mapping[str, Any]] | None = None,
    headers: Iterable[Mapping[str, Any]] = (),
) -> Callable[[F], F]:
    """Summary, the error statuses the view itself can answer with (400, 404, 409, 503, …),
    descriptions/schemas of path parameters and request headers."""

    def decorate(view: F) -> F:
        op = _op(view)
        op.summary, op.description = summary, description
        op.errors.update(errors)
        for name, spec in (params or {}).items():
            op.params[name] = dict(spec)
        op.headers.extend(dict(h) for h in headers)
        return view

    return decorate


def responds(
    status: int,
    shape: type[BaseModel] | dict[str, Any] | None,
    description: str = "",
    *,
    content_type: str = JSON,
    headers: Mapping[str, Any] | None = None,
    links_id: tuple[str, str] | None = None,
) -> Callable[[F], F]:
    """A successful answer: its status, its shape (a model, a JSON schema, or None for a body
    that is not JSON, e.g. ``content_type="text/csv"``). ``links_id=("game_id",
    "$response.body#/id")`` links this answer to every operation taking that path parameter."""

    def decorate(view: F) -> F:
        _op(view).answers[status] = Answer(
            description or "OK.", shape, content_type, dict(headers or {}), links_id
        )
        return view

    return decorate


def json_body() -> Any:
    """The request body parsed as JSON (any JSON value); MalformedRequestError otherwise."""
    raw = request.get_data(cache=True)
    if not raw:
        raise MalformedRequestError(msg("err_body_missing"))
    if not request.is_json:
        raise MalformedRequestError(msg("err_body_not_json_type"))
    body = request.get_json(silent=True)
    if body is None:
        raise MalformedRequestError(msg("err_body_not_json"))
    return body


def json_numbers(value: Any) -> Any:
    """JSON has one kind of number: 3.0 is the integer 3 (as JSON Schema says), so an integral
    float becomes an int before the strict models see it; 3.5 stays a float."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: json_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_numbers(v) for v in value]
    return value


def accepts(model: type[BaseModel], description: str = "") -> Callable[[F], F]:
    """Validate the JSON body against ``model`` before the view runs; pass it as ``body``."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            body = json_body()
            if not isinstance(body, dict) and _is_object(model):
                raise MalformedRequestError(msg("err_body_not_object"))
            return view(*args, body=validate(model, json_numbers(body)), **kwargs)

        op = _op(wrapper)
        op.body, op.body_description = model, description
        return wrapper  # type: ignore[return-value]

    return decorate


def accepts_query(model: type[BaseModel]) -> Callable[[F], F]:
    """Validate the query string against ``model``; the view gets it as ``query``."""

    def decorate(view: F) -> F:
        @wraps(view)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            values = dict(request.args.items())  # "?game=" is not a game: refused, as documented
            return view(*args, query=validate(model, values), **kwargs)

        _op(wrapper).query = model
        return wrapper  # type: ignore[return-value]

    return decorate


def _is_object(model: type[BaseModel]) -> bool:
    return model.model_json_schema().get("type", "object") == "object"


# -- ids in paths ------------------------------------------------------------------------------

class IdConverter(IntegerConverter):
    """``<int:…>`` in every route: 0 ≤ n ≤ MAX_ID. A longer number matches no route (404), so
    it never reaches SQLite (whose integers overflow past 2**63 - 1)."""

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:  # noqa: A002 — werkzeug's name
        kwargs.setdefault("max", MAX_ID)
        super().__init__(map, *args, **kwargs)


def install(app: Flask) -> None:
    """Bounded ids in every route, and ``Allow`` on every 405. Call before any blueprint is
    registered."""
    app.url_map.converters["int"] = IdConverter

    @app.after_request
    def _allow(response: Any) -> Any:
        # The JSON error handler builds a new response for a 405; the methods the address
        # takes are asked of the URL map again (RFC 9110: a 405 must carry Allow).
        if response.status_code == 405 and "Allow" not in response.headers:
            adapter = app.url_map.bind_to_environ(request.environ)
            methods = adapter.allowed_methods()
            if methods:
                response.headers["Allow"] = ", ".join(sorted(methods))
        return response


# -- the document --------------------------------------------------------------------------------

_COMMON = {
    400: ("BadRequest", "Bad input or a move the rules refuse; the message says what. Nothing changed."),
    401: ("Unauthorized", "This device has not entered the table PIN (needed to change anything)."),
    403: ("Forbidden", "Refused: the request came from another site, or the PIN is not accepted."),
    404: ("NotFound", "No such game, person, reading or address."),
    405: ("MethodNotAllowed", "This address does not take this method; `Allow` lists those it takes."),
    409: ("Conflict", "Someone changed the game first (stale expected_version) or a count is running: reload."),
    413: ("TooLarge", "The request body is larger than the server accepts (2 MiB)."),
    429: ("TooManyRequests", "Too many wrong PINs from this device: wait, then try again."),
    503: ("Unavailable", "The camera, the buttons or the live stream are not available now: count "
                          "by hand; or the disk refused to store a change (full, read-only): nothing was saved."),
}


def _path_params(rule: Any, op: Operation) -> list[dict[str, Any]]:
    params = []
    for name in re.findall(r"<(?:[^:<>]+:)?([^<>]+)>", rule.rule):
        converter = rule._converters.get(name)  # noqa: SLF001 — werkzeug keeps them here
        if isinstance(converter, IntegerConverter):
            schema: dict[str, Any] = {"type": "integer", "minimum": 1, "maximum": MAX_ID}
        else:
            schema = {"type": "string"}
        given = dict(op.params.get(name, {}))
        schema.update(given.pop("schema", {}))
        params.append({"name": name, "in": "path", "required": True, "schema": schema,
                       "description": given.pop("description", _PARAM_WORDS.get(name, name)),
                       **given})
    return params


_PARAM_WORDS = {
    "game_id": "The number of the game.",
    "person_id": "The number of the person on the roster.",
}


def _query_params(model: type[BaseModel]) -> list[dict[str, Any]]:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    required = set(schema.get("required", []))
    out = []
    for name, prop in schema.get("properties", {}).items():
        prop = dict(prop)
        description = prop.pop("description", "")
        prop.pop("title", None)
        out.append({"name": name, "in": "query", "required": name in required,
                    "schema": prop, "description": description})
    return out


def _strip_titles(node: Any) -> Any:
    """Pydantic's generated ``title`` on every property is noise in a description."""
    if isinstance(node, dict):
        return {k: _strip_titles(v) for k, v in node.items()
                if not (k == "title" and isinstance(v, str) and "properties" not in node)}
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    return node


def _models_in(shape: Any) -> list[type[BaseModel]]:
    if typing.get_origin(shape) is list:
        return _models_in(typing.get_args(shape)[0])
    return [shape] if isinstance(shape, type) and issubclass(shape, BaseModel) else []


def _operation_id(endpoint: str) -> str:
    return endpoint.replace(".", "_")


def openapi_document(app: Flask, info: Mapping[str, Any]) -> dict[str, Any]:
    """The OpenAPI 3.1 document of every ``/api`` route of ``app`` (a fresh dict each call)."""
    rules = [r for r in app.url_map.iter_rules() if r.rule.startswith("/api/")]
    ops: list[tuple[str, str, Any, Operation]] = []
    models: dict[type[BaseModel], str] = {}
    for rule in sorted(rules, key=lambda r: r.rule):
        view = app.view_functions[rule.endpoint]
        op = getattr(view, "__api__", None) or Operation()
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in sorted(m.lower() for m in rule.methods - {"HEAD", "OPTIONS"}):
            ops.append((path, method, rule, op))
            if op.body is not None:
                models.setdefault(op.body, "validation")
            for answer in op.answers.values():
                for model in _models_in(answer.shape):
                    models.setdefault(model, "serialization")
    keys, defs = models_json_schema(
        [(m, mode) for m, mode in models.items()],  # type: ignore[misc]
        ref_template="#/components/schemas/{model}",
    )
    schemas = _strip_titles(defs.get("$defs", {}))

    def ref(model: type[BaseModel]) -> dict[str, Any]:
        # pydantic names each schema (two models of one name get distinct ones): ask it
        return dict(keys[(model, models[model])])  # type: ignore[index]

    def shape(s: Any) -> dict[str, Any]:
        if typing.get_origin(s) is list:
            return {"type": "array", "items": shape(typing.get_args(s)[0])}
        return ref(s) if isinstance(s, type) else copy.deepcopy(s)

    # Which operations take which path parameter (for links from creating answers).
    takes: dict[str, list[tuple[str, str]]] = {}
    for path, method, rule, op in ops:
        for name in re.findall(r"{(\w+)}", path):
            takes.setdefault(name, []).append((path, method))

    paths: dict[str, Any] = {}
    for path, method, rule, op in ops:
        out: dict[str, Any] = {"operationId": _operation_id(rule.endpoint) + ("" if len(
            rule.methods - {"HEAD", "OPTIONS"}) == 1 else f"_{method}"),
            "summary": op.summary}
        if op.description:
            out["description"] = op.description
        params = _path_params(rule, op)
        if op.query is not None:
            params += _query_params(op.query)
        params += copy.deepcopy(op.headers)
        if params:
            out["parameters"] = params
        if op.body is not None:
            out["requestBody"] = {"required": True, "description": op.body_description,
                                  "content": {JSON: {"schema": ref(op.body)}}}
        responses: dict[str, Any] = {}
        for status, answer in sorted(op.answers.items()):
            entry: dict[str, Any] = {"description": answer.description}
            if answer.shape is not None or answer.content_type != JSON:
                entry["content"] = {answer.content_type: (
                    {"schema": shape(answer.shape)} if answer.shape is not None else {})}
            if answer.headers:
                entry["headers"] = copy.deepcopy(answer.headers)
            responses[str(status)] = entry
        codes = set(op.errors) | {405}
        if op.body is not None or op.query is not None:
            codes.add(400)
        if op.body is not None:
            codes.add(413)
        if method in STATE_CHANGING:
            codes.add(403)  # another site's request (CSRF)
            if not getattr(app.view_functions[rule.endpoint], "changes_nothing", False):
                codes |= {401, 429}  # the table PIN (companion.web.auth)
                codes.add(503)  # the disk refused the write (full, read-only): nothing saved
        if "{" in path:
            codes.add(404)
        for code in sorted(codes):
            responses[str(code)] = {"$ref": f"#/components/responses/{_COMMON[code][0]}"}
        out["responses"] = responses
        paths.setdefault(path, {})[method] = out

    # Links: an answer that creates something leads to every operation using its id.
    for path, method, rule, op in ops:
        for status, answer in op.answers.items():
            if answer.links_id is None:
                continue
            param, expression = answer.links_id
            links = {}
            for target_path, target_method in takes.get(param, []):
                target = paths[target_path][target_method]
                links[target["operationId"]] = {
                    "operationId": target["operationId"],
                    "parameters": {param: expression},
                }
            paths[path][method]["responses"][str(status)]["links"] = links

    error_schema = {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {
            "type": "object",
            "required": ["kind", "message"],
            "properties": {
                "kind": {"type": "string", "description": "The error class, e.g. NotYourTurnError, "
                         "WrongPhaseError, VersionConflictError, GameNotFoundError, "
                         "CameraUnavailableError, MalformedRequestError."},
                "message": {"type": "string", "description": "A sentence for the players."},
            },
        }},
    }
    responses = {}
    for code, (name, description) in _COMMON.items():
        entry = {"description": description,
                 "content": {JSON: {"schema": {"$ref": "#/components/schemas/Error"}}}}
        if code == 405:
            entry["headers"] = {"Allow": {"description": "The methods this address takes.",
                                          "required": True, "schema": {"type": "string"}}}
        responses[name] = entry
    return {
        "openapi": "3.1.0",
        "info": dict(info),
        "paths": paths,
        "components": {"schemas": {**schemas, "Error": error_schema}, "responses": responses},
    }
