"""The rules engine's words for messages: players by name, regions by board name, in a realm.

Use these to build the parameters of a :class:`companion.messages.Message` so that a refusal
names "Anna", not "black", in whatever language it is rendered later (see docs/i18n.md)::

    raise NotEnoughArmiesError(msg("err_no_army", player=player(state, color),
                                   region=place(state, region, realm), why=Term("why_attack_from")))
"""

from __future__ import annotations

from companion.messages import Message, Place, Player, Sentences, Term, msg

from .state import GameState

__all__ = ["Message", "Place", "Player", "Sentences", "Term", "msg", "place", "player", "realm", "tribe"]


def player(state: GameState, color: str) -> Player:
    """The player of ``color`` as messages name them (their name; the colour word if nameless
    or not playing)."""
    try:
        return Player(color, state.player(color).name)
    except KeyError:
        return Player(color)


def place(state: GameState, region: str, realm_: str | None = None) -> Place:
    """A region by its board name, in ``realm_`` when given ("White Falls (light)")."""
    return Place(state.board.name(region), realm_)


def realm(realm_: str) -> Term:
    """"light" / "Licht" — the realm as an adjective inside a sentence."""
    return Term(f"realm_adj_{realm_}")


def tribe(state: GameState, tribe_id: str) -> str:
    """A tribe by its board name (a proper noun; the German rulebook keeps "Night Elves")."""
    t = state.board.tribes.get(tribe_id)
    return t.name if t else tribe_id
