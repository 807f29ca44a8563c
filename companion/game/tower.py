"""Cube accounting for the tower: what a throw does to the estimated interior.

The tray is seen; the interior is inferred: after each throw, interior += thrown − tray, colour
by colour. A reading is impossible when more cubes of a colour lie in the tray than were thrown
plus those the tower can still hold — the players must recount, or accept it explicitly (then
the interior estimate is clamped at zero and the surplus is booked as ``unaccounted``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .colors import ARMIES_PER_PLAYER, GREEN, GREEN_CUBES, PLAYER_COLORS
from .effects import Changes
from .errors import ImpossibleReadingError
from .state import GameState
from .wording import Message, Sentences, Term, msg


def _cubes(n: int, color: str) -> Message:
    return msg("msg_cubes", count="n", n=n, colour=Term(f"colour_word_{color}", color))


def reading_problems(interior: Mapping[str, int], thrown: Mapping[str, int],
                     reading: Mapping[str, int], in_game: Iterable[str] = PLAYER_COLORS) -> list[Message]:
    """One sentence per colour whose reading cannot be true; empty list = possible. ``str()`` of
    each is English; the API renders them in the reader's language."""
    in_game = set(in_game)
    problems = []
    for color in sorted(set(reading) | set(thrown) | set(interior)):
        seen = reading.get(color, 0)
        if not seen:
            continue
        if color != GREEN and color not in in_game:
            problems.append(msg("err_tray_not_playing", cubes=_cubes(seen, color), colour=Term(f"colour_word_{color}", color)))
            continue
        exists = GREEN_CUBES if color == GREEN else ARMIES_PER_PLAYER
        t, inside = thrown.get(color, 0), interior.get(color, 0)
        if seen > exists:
            problems.append(msg("err_tray_more_than_exist", cubes=_cubes(seen, color), exists=exists))
        elif seen > t + inside:
            problems.append(msg("err_tray_more_than_thrown", cubes=_cubes(seen, color), thrown=t, inside=inside,
                                most=t + inside))
    return problems


def check_colors(reading: Mapping[str, int], in_game: Iterable[str]) -> None:
    """Cubes of a colour nobody plays cannot be accepted at all: the reading must be fixed."""
    foreign = sorted(c for c, n in reading.items() if n and c != GREEN and c not in set(in_game))
    if foreign:
        raise ImpossibleReadingError(msg("err_tray_foreign", count="n", n=len(foreign),
                                         colours=[Term(f"colour_word_{c}", c) for c in foreign]))


def explain(problems: list[Message]) -> Message:
    return msg("err_impossible_reading", problems=Sentences(tuple(problems)))


def check_reading(interior: Mapping[str, int], thrown: Mapping[str, int], reading: Mapping[str, int],
                  in_game: Iterable[str] = PLAYER_COLORS) -> None:
    """Raise ImpossibleReadingError naming each colour and its numbers when the reading cannot be."""
    problems = reading_problems(interior, thrown, reading, in_game)
    if problems:
        raise ImpossibleReadingError(explain(problems))


def throw_accounting(state: GameState, ch: Changes, interior: Mapping[str, int],
                     thrown: Mapping[str, int], reading: Mapping[str, int]) -> dict[str, Any]:
    """Effects of a throw: the reading lands in the tray, the rest stays in the tower.

    The caller has already removed the thrown cubes from where they came from. Returns
    ``{"clamped": {colour: n}}`` — cubes the accounting had to book as unaccounted.
    """
    clamped: dict[str, int] = {}
    for color in sorted(set(thrown) | set(reading)):
        t, seen, inside = thrown.get(color, 0), reading.get(color, 0), interior.get(color, 0)
        delta = t - seen
        if inside + delta < 0:
            clamped[color] = -(inside + delta)
            delta = -inside
        ch.cubes("tray", color, seen)
        ch.cubes("interior", color, delta)
        ch.cubes("unaccounted", color, clamped.get(color, 0))
    return {"clamped": clamped}
