"""Interface strings in English and German, and the choice of language for a request.

The strings live in one JSON file per language (``en.json``, ``de.json``) with exactly the same
keys (a test checks it). German wording follows the German rulebook: *Welt* = realm,
*Region* = our area, *Land* = our region.

Guarantees:
- :func:`choose_language` always returns one of :data:`LANGUAGES`, whatever it is given.
- :func:`strings` returns a fresh dict each call, so callers may not corrupt the cache.
"""

from __future__ import annotations

from companion.messages import catalogue

LANGUAGES: tuple[str, ...] = ("en", "de")
DEFAULT_LANGUAGE = "en"
COOKIE_NAME = "lang"


class UnknownLanguageError(ValueError):
    """A language was asked for that the companion has no strings for."""


def strings(lang: str) -> dict[str, str]:
    """All interface strings of ``lang`` (a copy). Raises :class:`UnknownLanguageError`."""
    if lang not in LANGUAGES:
        raise UnknownLanguageError(f"There are no texts in the language {lang!r}.")
    return dict(catalogue(lang))  # the one copy the server reads (companion.messages)


def parse_accept_language(header: str | None) -> list[str]:
    """Primary language tags of an Accept-Language header, best first (``q`` respected)."""
    if not header:
        return []
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        primary = tag.strip().split("-")[0].lower()
        if primary and quality > 0:
            # negative index keeps the header's order among equal weights after the reverse sort
            weighted.append((quality, -index, primary))
    return [tag for _, _, tag in sorted(weighted, reverse=True)]


def choose_language(
    query: str | None = None, cookie: str | None = None, accept_language: str | None = None
) -> str:
    """The language to show: an explicit ``?lang=`` first, then the cookie, then the browser's."""
    for candidate in (query, cookie):
        if candidate and candidate.lower() in LANGUAGES:
            return candidate.lower()
    for tag in parse_accept_language(accept_language):
        if tag in LANGUAGES:
            return tag
    return DEFAULT_LANGUAGE


def request_language() -> str:
    """The language of the current Flask request, chosen exactly as the pages choose it.

    The pages' scripts send their page's language as ``Accept-Language`` on every API call
    (``static/js/api.js``), and the ``lang`` cookie travels with them, so an error, a warning or
    a label rendered by the API is in the language of the page that asked.
    """
    from flask import request  # only the web layer calls this; the module stays Flask-free

    return choose_language(
        query=request.args.get("lang"),
        cookie=request.cookies.get(COOKIE_NAME),
        accept_language=request.headers.get("Accept-Language"),
    )
