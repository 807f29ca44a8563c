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
