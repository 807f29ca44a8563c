"""The OpenAPI document covers exactly the registered API, and its references resolve."""

from __future__ import annotations

import re

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
