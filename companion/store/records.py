"""The rows of the game log as immutable values.

:class:`StoredEvent` and :class:`GameSummary` come out of the log; :class:`GameMeta` and
:class:`BattleRecord` go into it together with an event. The two inbound kinds validate
themselves on construction (:class:`~companion.store.errors.InvalidRecordError`), so nothing
malformed reaches a transaction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.store.errors import InvalidRecordError

STATUSES = ("active", "finished")
READING_KINDS = ("seeding", "battle")
STANCES = ("for_attacker", "neutral", "against_attacker")
WINNERS = ("attacker", "defender", "inhabitants", "tie")
REALMS = ("light", "dark")


@dataclass(frozen=True)
class StoredEvent:
    """One event as stored; ``payload`` is the event dict as appended, ``"type"`` included."""

    seq: int
    type: str
    payload: dict[str, Any]
    created_at: str  # ISO 8601, UTC


@dataclass(frozen=True)
class GameMeta:
    """What the list of games shows about a game; written in the same transaction as an event.

    ``players``: ``[{"color", "name", "light_tribe", "dark_tribe", "vp"}, …]``.
    ``result`` (finished games): ``{"winners": [colour, …], "standings": [{"color", "vp",
    "armies", "rank", …}, …]}`` — several winners mean a shared victory.
    """

    status: str = "active"
    round: int | None = None
    players: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise InvalidRecordError(f"A game is either active or finished, not {self.status!r}.")
        if self.round is not None and (not isinstance(self.round, int) or self.round < 0):
            raise InvalidRecordError(f"The round must be a whole number ≥ 0, not {self.round!r}.")
        if not isinstance(self.players, list) or not all(isinstance(p, dict) for p in self.players):
            raise InvalidRecordError("The players of a game must be a list of player entries.")
        if self.status == "finished" and not isinstance(self.result, dict):
            raise InvalidRecordError("A finished game needs its final result.")
        if self.result is not None and not isinstance(self.result, dict):
            raise InvalidRecordError("The result of a game must be a set of named values.")


@dataclass(frozen=True)
class GameSummary:
    """One row of the games table. ``version`` is the number of events (the state id)."""

    id: int
    title: str
    created_at: str
    updated_at: str
    version: int
    status: str
    round: int | None
    players: list[dict[str, Any]]
    finished_at: str | None
    result: dict[str, Any] | None

    @property
    def winners(self) -> list[str] | None:
        """The winning colours of a finished game (several = shared victory), else ``None``."""
        if self.result is None:
            return None
        return list(self.result.get("winners", []))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe; the shape of one entry of ``GET /api/games`` (plus version and result)."""
        return {
            "id": self.id,
            "title": self.title,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "version": self.version,
            "status": self.status,
            "round": self.round,
            "players": self.players,
            "winner": self.winners,
            "finished_at": self.finished_at,
            "result": self.result,
        }


def _counts(name: str, value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0
        for k, v in value.items()
    ):
        raise InvalidRecordError(f"The {name} must give a whole number ≥ 0 per colour.")
    return {k: v for k, v in value.items() if v}  # zero counts may be omitted: drop them all


@dataclass(frozen=True)
class BattleRecord:
    """One resolved battle, for the statistics. Derived data: the event remains the truth.

    ``tray_counts`` are the counts the players confirmed, ``camera_counts`` what the camera read
    (``None`` when counted by hand). Zero counts are dropped, so equal readings compare equal.
    """

    attacker: str
    defender: str | None
    stance: str
    tray_counts: dict[str, int]
    winner: str  # attacker | defender | inhabitants | tie
    camera_counts: dict[str, int] | None = None
    round: int | None = None
    realm: str | None = None
    region: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.attacker, str) or not self.attacker:
            raise InvalidRecordError("A battle needs the attacking colour.")
        if self.defender is not None and (not isinstance(self.defender, str) or not self.defender):
            raise InvalidRecordError("The defender of a battle must be a colour or nobody.")
        if self.stance not in STANCES:
            raise InvalidRecordError(f"Unknown stance of the inhabitants: {self.stance!r}.")
        if self.winner not in WINNERS:
            raise InvalidRecordError(f"Unknown outcome of a battle: {self.winner!r}.")
        if self.realm is not None and self.realm not in REALMS:
            raise InvalidRecordError(f"A realm is light or dark, not {self.realm!r}.")
        object.__setattr__(self, "tray_counts", _counts("tray counts", self.tray_counts))
        if self.camera_counts is not None:
            object.__setattr__(self, "camera_counts", _counts("camera counts", self.camera_counts))

    @property
    def tray_size(self) -> int:
        return sum(self.tray_counts.values())

    @property
    def corrected(self) -> bool | None:
        """Did the players change what the camera read? ``None`` when counted by hand."""
        if self.camera_counts is None:
            return None
        return self.camera_counts != self.tray_counts


@dataclass(frozen=True)
class ReadingRecord:
    """One count of the tray the players confirmed, for the vision statistics.

    ``kind`` is ``"battle"`` or ``"seeding"``; ``confirmed`` the counts the players accepted,
    ``camera`` what the camera read (``None``: counted by hand). Zero counts are dropped.
    A battle's reading is written with its :class:`BattleRecord` automatically.
    """

    kind: str
    confirmed: dict[str, int]
    camera: dict[str, int] | None = None

    def __post_init__(self) -> None:
        if self.kind not in READING_KINDS:
            raise InvalidRecordError(f"Unknown kind of tray reading: {self.kind!r}.")
        object.__setattr__(self, "confirmed", _counts("confirmed counts", self.confirmed))
        if self.camera is not None:
            object.__setattr__(self, "camera", _counts("camera counts", self.camera))

    @classmethod
    def of_battle(cls, battle: BattleRecord) -> ReadingRecord:
        return cls("battle", battle.tray_counts, battle.camera_counts)

    @property
    def corrected(self) -> bool | None:
        """Did the players change what the camera read? ``None`` when counted by hand."""
        return None if self.camera is None else self.camera != self.confirmed
