"""The request checks speak the device's language: every phrase a request shape gives its fields
(``Named``, ``Says``, a model's ``extra_message``) has an English and a German catalogue entry,
and a refused request is explained in German on a German tablet, naming the field."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import typing
from typing import Any

import pytest
from pydantic import BaseModel

import companion.web.api as api
from companion.web import i18n
from companion.web.api.spec import Named, Says, _unwrap


def _phrases() -> set[str]:
    """Every phrase of every request/response model of the API modules."""
    found: set[str] = set()
    seen: set[type] = set()

    def markers(items: Any) -> None:
        for m in items:
            if isinstance(m, Says):
                found.add(m.phrase)
            elif isinstance(m, Named):
                found.add(m.name)

    def annotation(ann: Any) -> None:
        inner, meta = _unwrap(ann)
        markers(meta)
        for arg in typing.get_args(inner):
            annotation(arg)
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            model(inner)

    def model(cls: type[BaseModel]) -> None:
        if cls in seen:
            return
        seen.add(cls)
        if getattr(cls, "extra_message", None):
            found.add(cls.extra_message)
        for info in cls.model_fields.values():
            markers(info.metadata)
            annotation(info.annotation)

    for module in pkgutil.iter_modules(api.__path__):
        for _, cls in inspect.getmembers(importlib.import_module(f"{api.__name__}.{module.name}"), inspect.isclass):
            if issubclass(cls, BaseModel) and cls is not BaseModel:
                model(cls)
    return found


def test_the_scan_finds_the_phrases() -> None:
    phrases = _phrases()
    assert "a whole number from 0 to 99" in phrases and "the count for red" in phrases
    assert len(phrases) > 50


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_phrase_of_the_request_shapes_is_in_the_catalogue(lang: str) -> None:
    catalogue = i18n.strings(lang)
    missing = sorted(p for p in _phrases() if f"shape:{p}" not in catalogue)
    assert not missing, f"{lang}: no catalogue entry shape:<phrase> for {missing}"


def test_a_malformed_request_is_explained_in_the_devices_language(client) -> None:
    body = {"counts": {"red": 120}}
    english = client.post("/api/games/1/battle/preview", json=body, headers={"Accept-Language": "en"})
    german = client.post("/api/games/1/battle/preview", json=body, headers={"Accept-Language": "de"})
    assert english.status_code == german.status_code == 400
    assert english.get_json()["error"]["message"] == "The count for red must be a whole number from 0 to 99."
    assert german.get_json()["error"]["message"] == "Die Anzahl für Rot muss eine ganze Zahl von 0 bis 99 sein."
    not_json = client.post("/api/games", data="x", headers={"Accept-Language": "de", "Content-Type": "text/plain"})
    assert not_json.status_code == 400
    assert not_json.get_json()["error"]["message"].startswith("Schicke den Inhalt der Anfrage als JSON")
