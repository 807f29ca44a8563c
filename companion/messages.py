"""Sentences for players as *a catalogue key plus parameters*, rendered in the reader's language.

The catalogue is the one the pages use (``companion/web/i18n/en.json`` and ``de.json``): one
flat JSON object per language, ``{name}`` placeholders, plural forms as ``key_one`` /
``key_other``. The server does not keep a second catalogue: a message raised by the rules engine
and a label drawn by a page are looked up in the same place, and the key test
(``tests/e2e/test_i18n.py``) checks both at once — same keys in both languages, same placeholders.

Babel (CLDR data) does what must not be hand-written per language: the plural form of a count,
decimal numbers ("0.33" / "0,33") and lists ("Anna, Ben and Eva" / "Anna, Ben und Eva").

How to write one (see docs/i18n.md)::

    from companion.messages import msg, Player
    raise NotEnoughArmiesError(msg("err_leave_one", player=Player("black", "Anna"), have=5, ...))

Guarantees:
- :meth:`Message.render` never raises for a known language: a key missing in the language falls
  back to English, a key missing everywhere renders as the key itself, an unknown placeholder
  stays as ``{name}`` (the key test catches all three before a player could).
- ``str(message)`` is the English sentence, so logs, the CLI and existing ``str(err)`` callers
  keep working unchanged.
- Parameters are values, not text: numbers and lists are formatted for the language at render
  time; a :class:`Player` renders as the player's name (the colour's name only when the player has
  no name), never as a colour id.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.numbers import format_decimal

DEFAULT_LANGUAGE = "en"
_CATALOGUE = Path(__file__).resolve().parent / "web" / "i18n"
_FIELD = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=8)
def catalogue(lang: str) -> Mapping[str, str]:
    """The catalogue of ``lang`` (read once; read-only use). Unknown language: English."""
    path = _CATALOGUE / f"{lang}.json"
    if not path.is_file():
        path = _CATALOGUE / f"{DEFAULT_LANGUAGE}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def lookup(key: str, lang: str) -> str:
    """The catalogue text of ``key`` in ``lang``, else in English, else the key itself."""
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue(DEFAULT_LANGUAGE).get(key, key)
    return text


@lru_cache(maxsize=8)
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


def plural_form(n: int | float, lang: str) -> str:
    """CLDR plural category of ``n`` in ``lang`` ("one", "other", ...), from Babel."""
    return _locale(lang).plural_form(abs(n))


def number(value: int | float, lang: str) -> str:
    """A number as the language writes it: at most two decimals ("0.33" / "0,33")."""
    return format_decimal(value, format="#,##0.##", locale=_locale(lang))


# The companion writes British English ("colour"): lists without the serial comma, as CLDR's en_GB.
_LIST_LOCALE = {"en": "en_GB"}


def join(items: list[str], lang: str) -> str:
    """"Anna, Ben and Eva" / "Anna, Ben und Eva" (Babel's CLDR list patterns)."""
    return format_list(list(items), locale=_locale(_LIST_LOCALE.get(lang, lang))) if items else ""


@dataclass(frozen=True)
class Player:
    """A player as a sentence names them: by name; by the colour's word only when nameless."""

    color: str
    name: str = ""

    def render(self, lang: str) -> str:
        return self.name or lookup(f"color_{self.color}", lang)


@dataclass(frozen=True)
class Term:
    """A word of the catalogue used inside a sentence (a realm, a building, an action)."""

    key: str
    default: str = ""  # said when no catalogue has the key (e.g. an event type without a word)

    def render(self, lang: str) -> str:
        if self.default and self.key not in catalogue(lang) and self.key not in catalogue(DEFAULT_LANGUAGE):
            return self.default
        return lookup(self.key, lang)


@dataclass(frozen=True)
class Named:
    """A board item (region, area, tribe) by the name the reader's page shows: its German name
    on a German page when the owner entered one, its name, or — not entered yet — the
    catalogue's stand-in ("Area 3 (no name yet)" / "Region 3 (noch ohne Namen)")."""

    name: str
    name_de: str | None = None
    unnamed: str | None = None  # catalogue key of the stand-in when the name is not entered
    n: int = 0

    def render(self, lang: str) -> str:
        if self.unnamed is not None:
            return _fill(lookup(self.unnamed, lang), {"n": self.n}, lang)
        if lang == "de" and self.name_de:
            return self.name_de
        return self.name


@dataclass(frozen=True)
class Place:
    """A region of the board, optionally in one realm: "White Falls (light)" / "(Lichtwelt)".

    Region and tribe names are proper nouns of the board: the German rulebook keeps them too.
    """

    name: str | Named
    realm: str | None = None

    def render(self, lang: str) -> str:
        name = render_value(self.name, lang)
        if self.realm not in ("light", "dark"):
            return name
        return _fill(lookup(f"msg_place_{self.realm}", lang), {"region": name}, lang)


@dataclass(frozen=True)
class Message:
    """A sentence: a catalogue ``key``, its ``params``, and optionally which param is the count
    that picks the plural form (the key then gets ``_one`` / ``_other`` appended)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    count: str | None = None

    def full_key(self, lang: str) -> str:
        if self.count is None:
            return self.key
        return f"{self.key}_{plural_form(self.params[self.count], lang)}"

    def render(self, lang: str = DEFAULT_LANGUAGE) -> str:
        key = self.full_key(lang)
        if self.count is not None and key not in catalogue(lang) and key not in catalogue(DEFAULT_LANGUAGE):
            key = f"{self.key}_other"  # a CLDR form the catalogue does not spell out
        return _fill(lookup(key, lang), self.params, lang)

    def __str__(self) -> str:
        return self.render(DEFAULT_LANGUAGE)


def msg(key: str, /, *, count: str | None = None, **params: Any) -> Message:
    """``msg("err_not_your_turn", turn=Player(...), player=Player(...))``.

    ``count="n"`` makes ``params["n"]`` choose between ``key_one`` and ``key_other``.
    """
    return Message(key, params, count)


def render_value(value: Any, lang: str) -> str:
    """One parameter as text: messages and words rendered, numbers and lists formatted."""
    if hasattr(value, "render"):
        return value.render(lang)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return number(value, lang)
    if isinstance(value, (list, tuple)):
        return join([render_value(v, lang) for v in value], lang)
    return str(value)


def _fill(text: str, params: Mapping[str, Any], lang: str) -> str:
    return _FIELD.sub(lambda m: render_value(params[m[1]], lang) if m[1] in params else m[0], text)


def to_json(message: Message) -> dict[str, Any]:
    """A message as JSON (for the game log: stored warnings render in the reader's language).

    ``{"key", "params", "count"?, "text"}``; ``text`` is the English sentence, so a reader that
    knows nothing of keys (an old page, an export) still has words.
    """
    out: dict[str, Any] = {"key": message.key,
                           "params": {k: _encode(v) for k, v in message.params.items()}}
    if message.count is not None:
        out["count"] = message.count
    out["text"] = message.render(DEFAULT_LANGUAGE)
    return out


def from_json(data: Mapping[str, Any]) -> Message:
    """The inverse of :func:`to_json` (``text`` is ignored: it is re-rendered)."""
    params = {k: _decode(v) for k, v in dict(data.get("params") or {}).items()}
    return Message(str(data["key"]), params, data.get("count"))


def render_stored(value: Any, lang: str) -> str:
    """A stored sentence in ``lang``: a plain string as it is (older logs), a :func:`to_json`
    dict rendered; a malformed dict, or one whose key the catalogue lacks, falls back to its
    English ``text``."""
    if isinstance(value, Mapping) and "key" in value:
        english = catalogue(DEFAULT_LANGUAGE)
        key = str(value["key"])
        if key not in english and f"{key}_other" not in english:  # a key this version lacks
            return str(value.get("text", key))
        try:
            return from_json(value).render(lang)
        except (KeyError, TypeError, ValueError):
            return str(value.get("text", value["key"]))
    return str(value)


def _encode(value: Any) -> Any:
    if isinstance(value, Player):
        return {"player": value.color, "name": value.name}
    if isinstance(value, Named):
        return {"named": value.name, "de": value.name_de, "unnamed": value.unnamed, "n": value.n}
    if isinstance(value, Place):
        return {"place": _encode(value.name), "realm": value.realm}
    if isinstance(value, Term):
        return {"term": value.key, "default": value.default}
    if isinstance(value, Message):
        return {"message": to_json(value)}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, Mapping):
        if "player" in value:
            return Player(str(value["player"]), str(value.get("name") or ""))
        if "named" in value:
            return Named(str(value["named"]), value.get("de"), value.get("unnamed"), int(value.get("n") or 0))
        if "place" in value:
            place = value["place"]
            return Place(_decode(place) if isinstance(place, Mapping) else str(place), value.get("realm"))
        if "term" in value:
            return Term(str(value["term"]), str(value.get("default") or ""))
        if "message" in value:
            return from_json(value["message"])
    return value


def localize(value: object, lang: str) -> str:
    """Text of an error (or message, or plain string) in ``lang``: an error raised with a
    :class:`Message` renders it; anything else is its ``str()`` (English, as before)."""
    if isinstance(value, Message):
        return value.render(lang)
    args = getattr(value, "args", None)
    if isinstance(value, BaseException) and args and isinstance(args[0], Message):
        return args[0].render(lang)
    return str(value)


def localize_warnings(data: Any, lang: str) -> Any:
    """A copy of JSON ``data`` with every list under a ``"warnings"`` key rendered in ``lang``
    (a game's state, its scores, an event): stored messages become sentences, strings stay."""
    if isinstance(data, Mapping):
        return {k: ([render_stored(w, lang) for w in v] if k == "warnings" and isinstance(v, list)
                    else localize_warnings(v, lang)) for k, v in data.items()}
    if isinstance(data, list):
        return [localize_warnings(v, lang) for v in data]
    return data


@dataclass(frozen=True)
class Sentences:
    """Several sentences said one after the other (joined by ``sep``), each in the language."""

    items: tuple[Any, ...]
    sep: str = " "

    def render(self, lang: str) -> str:
        return self.sep.join(render_value(i, lang) for i in self.items)


def localize_all(data: Any, lang: str) -> Any:
    """A JSON-safe copy of ``data``: every :class:`Message` rendered in ``lang``, and every list
    under ``"warnings"`` rendered as :func:`localize_warnings` does."""
    if isinstance(data, Message):
        return data.render(lang)
    if isinstance(data, Mapping):
        return {k: ([render_stored(w, lang) for w in v] if k == "warnings" and isinstance(v, list)
                    else localize_all(v, lang)) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [localize_all(v, lang) for v in data]
    return data


class Said(str):
    """A message's English sentence that remembers the message: JSON and ``==`` see plain
    English (so existing readers and tests are unchanged), while an encoder that knows its
    reader's language (the live stream, :func:`localize_said`) says it in that language."""

    message: Message

    def __new__(cls, message: Message) -> Said:
        obj = super().__new__(cls, message.render(DEFAULT_LANGUAGE))
        obj.message = message
        return obj


def localize_said(data: Any, lang: str) -> Any:
    """A copy of ``data`` with every :class:`Said` in ``lang`` (other values untouched)."""
    if isinstance(data, Said):
        return data.message.render(lang)
    if isinstance(data, Mapping):
        return {k: localize_said(v, lang) for k, v in data.items()}
    if isinstance(data, list):
        return [localize_said(v, lang) for v in data]
    return data
