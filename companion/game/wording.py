"""The rules engine's words for messages: players by name, regions by board name, in a realm.

Use these to build the parameters of a :class:`companion.messages.Message` so that a refusal
names "Anna", not "black", in whatever language it is rendered later (see docs/i18n.md)::

    raise NotEnoughArmiesError(msg("err_no_army", player=player(state, color),
                                   region=place(state, region, realm), why=Term("why_attack_from")))
"""

from __future__ import annotations

from typing import Any

from companion.messages import Message, Named, Place, Player, Sentences, Term, msg

from .state import GameState

__all__ = ["Message", "Named", "Place", "Player", "Sentences", "Term", "msg", "named", "place", "player", "realm",
           "tribe"]


def player(state: GameState, color: str) -> Player:
    """The player of ``color`` as messages name them (their name; the colour word if nameless
    or not playing)."""
    try:
        return Player(color, state.player(color).name)
    except KeyError:
        return Player(color)


def named(board: Any, kind: str, item_id: str) -> Named | str:
    """A region (``kind`` "region"), area ("area") or tribe ("tribe") of ``board`` as the
    reader's page names it (:class:`Named`); the id itself when the board lacks it."""
    items = {"region": board.regions, "area": board.areas, "tribe": board.tribes}[kind]
    item = items.get(item_id)
    if item is None:
        return item_id
    if getattr(item, "named", True):
        return Named(item.name, getattr(item, "name_de", None))
    if kind == "tribe":
        same = [t for t in items.values() if t.realm == item.realm]
        return Named(item.name, None, f"unnamed_tribe_{item.realm}", same.index(item) + 1)
    return Named(item.name, None, f"unnamed_{kind}", list(items).index(item_id) + 1)


def place(state: GameState, region: str, realm_: str | None = None) -> Place:
    """A region by its board name, in ``realm_`` when given ("White Falls (light)")."""
    return Place(named(state.board, "region", region), realm_)


def realm(realm_: str) -> Term:
    """"light" / "Licht" — the realm as an adjective inside a sentence."""
    return Term(f"realm_adj_{realm_}")


def tribe(state: GameState, tribe_id: str) -> Named | str:
    """A tribe by its board name (a proper noun; the German rulebook keeps "Night Elves")."""
    return named(state.board, "tribe", tribe_id)
