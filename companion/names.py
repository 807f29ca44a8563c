"""One rule for players' names, in a game and at the game night: names that differ only in
capitals or spacing are the same name ("Ani", "ani" and " ANI " are one player)."""

from __future__ import annotations

from collections.abc import Iterable


def name_key(name: str) -> str:
    """What two names are compared by: spacing collapsed, case folded ("Straße" = "STRASSE")."""
    return " ".join(name.split()).casefold()


def first_repeated(names: Iterable[str | None]) -> str | None:
    """The first name (as typed) that an earlier one already has by :func:`name_key`; empty
    names are not compared. None when every name is distinct."""
    seen: set[str] = set()
    for name in names:
        if not name or not name.strip():
            continue
        key = name_key(name)
        if key in seen:
            return name
        seen.add(key)
    return None
