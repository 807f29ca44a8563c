"""The OpenAPI document covers exactly the registered API, and its references resolve."""

from __future__ import annotations

import re

import pytest

from ..conftest import ok

IGNORED_METHODS = {"HEAD", "OPTIONS"}


def registered(app) -> dict[str, set[str]]:
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        routes.setdefault(path, set()).update(m.lower() for m in rule.methods - IGNORED_METHODS)
    return routes


def test_every_registered_api_route_and_method_is_documented_and_nothing_else(app, client):
    doc = ok(client.get("/api/openapi.json"))
    assert doc["openapi"].startswith("3.1")
    documented = {path: set(ops) for path, ops in doc["paths"].items()}
    assert documented == registered(app)


def test_every_operation_has_a_summary_and_responses(client):
    doc = ok(client.get("/api/openapi.json"))
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert op.get("summary"), f"{method.upper()} {path} has no summary"
            assert op.get("responses"), f"{method.upper()} {path} has no responses"
            for name in re.findall(r"{(\w+)}", path):
                assert any(p["name"] == name and p["in"] == "path" for p in op.get("parameters", [])), (
                    f"{method.upper()} {path} does not describe its {name} parameter"
                )


def test_every_reference_resolves(client):
    doc = ok(client.get("/api/openapi.json"))

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref":
                    yield value
                else:
                    yield from walk(value)
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)

    refs = set(walk(doc))
    assert refs, "the document should use shared schemas"
    for ref in refs:
        target = doc
        for part in ref.removeprefix("#/").split("/"):
            assert part in target, f"{ref} does not resolve"
            target = target[part]


def test_error_responses_use_the_one_error_shape(client):
    doc = ok(client.get("/api/openapi.json"))
    error = doc["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    assert set(error["properties"]["error"]["required"]) == {"kind", "message"}


# -- the document describes what the server really answers -------------------------------------

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def conforms(doc, schema, value, where="$"):
    """A small JSON-schema check (type, enum, required, properties, items, $ref): enough to
    catch a document that drifted from the answers."""
    if "$ref" in schema:
        target = doc
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return conforms(doc, target, value, where)
    if "enum" in schema:
        assert value in schema["enum"], f"{where}: {value!r} not in {schema['enum']}"
    kinds = schema.get("type")
    if kinds is not None:
        kinds = kinds if isinstance(kinds, list) else [kinds]
        ok_type = any(
            (k == "integer" and isinstance(value, int) and not isinstance(value, bool))
            or (k == "number" and isinstance(value, (int, float)) and not isinstance(value, bool))
            or (k in _TYPES and isinstance(value, _TYPES[k]))
            for k in kinds
        )
        assert ok_type, f"{where}: {value!r} is not {kinds}"
    if isinstance(value, dict):
        for key in schema.get("required", []):
            assert key in value, f"{where}: missing {key!r}"
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                conforms(doc, sub, value[key], f"{where}.{key}")
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            for key, item in value.items():
                if key not in schema.get("properties", {}):
                    conforms(doc, extra, item, f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            conforms(doc, schema["items"], item, f"{where}[{i}]")


def documented(doc, path, method, status):
    response = doc["paths"][path][method]["responses"][str(status)]
    if "$ref" in response:
        response = doc["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    return response["content"]["application/json"]["schema"]


def test_real_answers_match_their_documented_schemas(client):
    from ..conftest import attack_declared, error_of

    doc = ok(client.get("/api/openapi.json"))
    checks = []
    game = attack_declared(client)
    checks.append(("/api/health", "get", 200, ok(client.get("/api/health"))))
    checks.append(("/api/games", "get", 200, ok(client.get("/api/games"))))
    checks.append(("/api/games/{game_id}", "get", 200, ok(client.get(f"/api/games/{game}"))))
    checks.append(("/api/tower", "get", 200, ok(client.get("/api/tower"))))
    reading = ok(client.post(f"/api/games/{game}/battle/count"))
    checks.append(("/api/games/{game_id}/battle/count", "post", 200, reading))
    checks.append(("/api/games/{game_id}/battle/reading", "get", 200,
                   ok(client.get(f"/api/games/{game}/battle/reading"))))
    preview = ok(client.post(f"/api/games/{game}/battle/preview", json={"counts": reading["reading"]["counts"]}))
    checks.append(("/api/games/{game_id}/battle/preview", "post", 200, preview))
    result = ok(client.post(f"/api/games/{game}/commands", json={"command": {
        "type": "resolve_battle", "counts": reading["reading"]["counts"], "accept_impossible": True}}))
    checks.append(("/api/games/{game_id}/commands", "post", 200, result))
    stale = client.post(f"/api/games/{game}/commands", json={"command": {"type": "undo"}, "expected_version": 0})
    checks.append(("/api/games/{game_id}/commands", "post", 409, {"error": error_of(stale, 409)}))
    missing = client.get("/api/games/999")
    checks.append(("/api/games/{game_id}", "get", 404, {"error": error_of(missing, 404)}))
    for path, method, status, body in checks:
        conforms(doc, documented(doc, path, method, status), body, f"{method.upper()} {path} {status}")


# -- one source: the document and the validation come from the same shapes -----------------------

HUGE = 10**30  # far past SQLite's 2**63 - 1


@pytest.mark.parametrize("path", [
    f"/api/games/{HUGE}", f"/api/games/{HUGE}/export.json", f"/api/games/{HUGE}/battles.csv",
    f"/api/games/{HUGE}/battle/reading", f"/api/events?game={HUGE}", f"/api/people/{HUGE}",
    f"/api/games/{2**63}", f"/api/stats/games/{HUGE}",
])
def test_an_id_past_what_sqlite_holds_is_not_found_not_a_server_error(client, path):
    answer = client.get(path)
    assert answer.status_code in (400, 404), answer.get_data(as_text=True)
    assert answer.get_json()["error"]["message"]


@pytest.mark.parametrize("path", [f"/api/games/{HUGE}/battle/count", f"/api/games/{HUGE}/battle/preview",
                                  f"/api/games/{HUGE}/commands"])
def test_a_huge_id_in_a_state_changing_route_is_not_found(client, path):
    answer = client.post(path, json={"counts": {}, "command": {"type": "undo"}})
    assert answer.status_code == 404, answer.get_data(as_text=True)


def test_id_parameters_are_bounded_in_the_document(client):
    doc = ok(client.get("/api/openapi.json"))
    for path, ops in doc["paths"].items():
        for op in ops.values():
            for p in op.get("parameters", []):
                if p["in"] == "path" and p["schema"].get("type") == "integer":
                    assert p["schema"]["minimum"] == 1 and p["schema"]["maximum"] == 2**63 - 1, path


def test_a_wrong_method_is_405_with_allow_as_documented(client):
    doc = ok(client.get("/api/openapi.json"))
    answer = client.delete("/api/games")
    assert answer.status_code == 405
    assert {"GET", "POST"} <= {m.strip() for m in answer.headers["Allow"].split(",")}
    assert answer.get_json()["error"]["kind"] == "MethodNotAllowed"
    assert doc["components"]["responses"]["MethodNotAllowed"]["headers"]["Allow"]["required"]
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            assert "405" in op["responses"], f"{method} {path}"


def test_state_changing_operations_list_the_pin_and_request_forgery_answers(client):
    doc = ok(client.get("/api/openapi.json"))
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            if method in ("post", "put", "patch", "delete"):
                assert "403" in op["responses"], f"{method} {path}"
    assert {"401", "429"} <= set(doc["paths"]["/api/games"]["post"]["responses"])
    assert "401" not in doc["paths"]["/api/games/{game_id}/battle/preview"]["post"]["responses"], (
        "a preview changes nothing and needs no PIN")


def test_creating_a_game_links_to_every_operation_that_takes_its_id(client):
    doc = ok(client.get("/api/openapi.json"))
    links = doc["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    ids = {op["operationId"]: (path, method) for path, ops in doc["paths"].items() for method, op in ops.items()}
    takes_game = {op["operationId"] for path, ops in doc["paths"].items() for op in ops.values()
                  if "{game_id}" in path}
    assert set(links) == takes_game
    for link in links.values():
        assert link["operationId"] in ids
        assert link["parameters"] == {"game_id": "$response.body#/id"}
    for needed in ("api_games_get_game", "api_games_execute", "api_battle_preview", "api_battle_count",
                   "api_games_export_json"):
        assert needed in links


def test_request_shapes_in_the_document_are_the_validated_ones(client):
    """The document's schema of a body is the model's: what it forbids is refused, in words."""
    from companion.web.api.shapes import PreviewRequest

    doc = ok(client.get("/api/openapi.json"))
    body = doc["paths"]["/api/games/{game_id}/battle/preview"]["post"]["requestBody"]
    name = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert name == PreviewRequest.__name__
    counts = doc["components"]["schemas"]["Counts"]
    assert counts["additionalProperties"] is False
    red = counts["properties"]["red"]["anyOf"][0]
    assert (red["minimum"], red["maximum"]) == (0, 99)


@pytest.mark.parametrize(("payload", "words"), [
    ({"counts": {"red": 100}}, "The count for red must be a whole number from 0 to 99."),
    ({"counts": {"red": "3"}}, "The count for red must be a whole number from 0 to 99."),
    ({"counts": {"pink": 1}}, "There are no pink cubes"),
    ({}, "The request needs the cube counts."),
])
def test_a_refused_body_says_in_words_what_is_wrong(client, payload, words):
    from ..conftest import attack_declared, error_of

    game = attack_declared(client)
    error = error_of(client.post(f"/api/games/{game}/battle/preview", json=payload), 400)
    assert error["kind"] == "MalformedRequestError"
    assert error["message"].startswith(words)
    assert "pydantic" not in error["message"] and "Input should" not in error["message"]


def test_a_whole_number_may_be_written_3_0_as_json_allows(client):
    from ..conftest import attack_declared

    game = attack_declared(client)
    ok(client.post(f"/api/games/{game}/battle/preview", data='{"counts": {"red": 3.0}}',
                   content_type="application/json"))


def test_a_nul_in_a_name_is_refused_not_a_server_error(client):
    from ..conftest import error_of

    assert error_of(client.post("/api/people", json={"name": "\x00Ani"}), 400)["kind"] == "MalformedRequestError"
    assert error_of(client.post("/api/games", json={"title": "\x00"}), 400)["kind"] == "MalformedRequestError"
