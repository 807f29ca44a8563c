"""The action spaces of a player board, and which of them a player has used this round.

Rulebook ("Planning of actions"): "Each player board features 10 action spaces – 8 army spaces
and 2 magic spaces." The text names seven army spaces (extract gold, extract energy, transition
of 3, construct, attack, attack or movement, and the dark tribe's special action); the eighth is
printed on the player board only, so it is a placeholder here (``ARMY_SPACE_8``) whose name the
owner enters with the board data — never invented. A card revealed on it is performed by the
table and recorded with ``correct``, or forfeited (``forfeit`` with ``space: "army_8"``).

``state.used[colour]`` lists the spaces that carried a revealed card this round: the space ids
below for actions, ``magic:<card>`` for magic cards, and for forfeits the named space, or
``forfeit`` / ``magic:forfeit`` when the table did not say which space.
"""

from __future__ import annotations

from collections.abc import Iterable

ARMY_SPACE_8 = "army_8"
ARMY_SPACES: tuple[str, ...] = ("extract_gold", "extract_energy", "transition_3", "construct",
                                "attack", "attack_or_move", "special", ARMY_SPACE_8)
MAGIC_CARDS: tuple[str, ...] = ("transition_5", "conflict_or_marker", "take_over_or_shrine",
                                "two_cards_or_transition_2")
ARMY_SPACE_COUNT = 8
MAGIC_SPACE_COUNT = 2
ANY_ARMY = "forfeit"  # a forfeit on an army space the table did not name
ANY_MAGIC = "magic:forfeit"  # a forfeit on a magic space
MAGIC_SPACES: tuple[str, ...] = tuple(f"magic:{card}" for card in MAGIC_CARDS)
FORFEIT_SPACES: tuple[str, ...] = ARMY_SPACES + MAGIC_SPACES + (ANY_ARMY, ANY_MAGIC)
LABELS = {
    "extract_gold": "extract gold", "extract_energy": "extract energy",
    "transition_3": "transition of 3", "construct": "construct", "attack": "attack",
    "attack_or_move": "attack or move", "special": "tribe's special",
    ARMY_SPACE_8: "eighth army space (name not entered)",
    ANY_ARMY: "army", ANY_MAGIC: "magic",
}


def is_magic(space: str) -> bool:
    return space.startswith("magic:")


def counts(used: Iterable[str]) -> tuple[int, int]:
    """(army spaces, magic spaces) that carried a revealed card."""
    used = list(used)
    magic = sum(is_magic(u) for u in used)
    return len(used) - magic, magic


def label(space: str) -> str:
    if is_magic(space) and space != ANY_MAGIC:
        return "magic card " + space[len("magic:"):].replace("_", " ")
    return LABELS.get(space, space.replace("_", " "))
