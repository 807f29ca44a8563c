"""The review of one game: its state at any version, every battle with what the camera saw and
who corrected it, the odds kept before each throw, and the turning points.

Guarantees:

- **Read-only.** Nothing here appends an event or changes a game; the only writes are the
  derived statistics tables :func:`companion.store.throws.sync_throws` keeps anyway.
- :func:`state_at` is exactly ``replay`` of the game's first ``version`` events — the state every
  tablet saw at that moment (undo included: an undo later in the log does not reach back).
- :func:`game_review` never invents: a battle without kept odds has ``odds: None`` and is no
  upset; a game without scored rounds has an empty VP chart and no lead change.

Cubes of one colour cannot be told apart, so "stayed in the tower" is a run of throws during
which the tower's interior estimate of that colour never fell to zero (said so on the page).
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from companion.store.errors import GameNotFoundError, GameUnreadableError, InvalidVersionError
from companion.store.log import GameLog, check_version
from companion.store.rules import EngineRules, Rules

UPSET_BELOW = 0.35  # a result the kept odds gave less than this is an upset
TOP_UPSETS = 3
_CACHED = 4  # games whose events are kept in memory for stepping (one reviewer, a few tabs)
THROW_EVENTS = ("seed_tower", "resolve_battle")


class VersionOutOfRangeError(InvalidVersionError):
    """The game has no such version (0 is before its first event, the last is its newest)."""

    def __init__(self, version: int, newest: int) -> None:
        from companion.messages import msg

        super().__init__(msg("err_review_no_step", step=version, newest=newest))
        self.version = version
        self.newest = newest


class Replayer:
    """States of a game at any version, by replaying its stored events. Thread-safe.

    The events of the last few games asked about are kept (keyed by the game's version, so a
    game that moved on is read again); each answer is a fresh replay, never a shared state.
    """

    def __init__(self, log: GameLog, rules: Rules | None = None) -> None:
        self.log = log
        self.rules = rules or EngineRules()
        self._lock = threading.Lock()
        self._events: OrderedDict[int, tuple[int, list[dict[str, Any]], list[str]]] = OrderedDict()
        self._reviews: OrderedDict[int, tuple[tuple[Any, ...], dict[str, Any]]] = OrderedDict()

    def events(self, game_id: int) -> tuple[list[dict[str, Any]], list[str]]:
        """``(payloads, created_at)`` of every event of the game, oldest first."""
        newest = self.log.version(game_id)  # GameNotFoundError for an unknown game
        with self._lock:
            kept = self._events.get(game_id)
            if kept is not None and kept[0] == newest:
                self._events.move_to_end(game_id)
                return kept[1], kept[2]
        stored = self.log.events(game_id)
        if not stored:
            raise GameNotFoundError(game_id)
        payloads = [{**e.payload, "type": e.type} for e in stored]
        times = [e.created_at for e in stored]
        with self._lock:
            self._events[game_id] = (len(payloads), payloads, times)
            self._events.move_to_end(game_id)
            while len(self._events) > _CACHED:
                self._events.popitem(last=False)
        return payloads, times

    def kept_review(self, game_id: int, key: tuple[Any, ...]) -> dict[str, Any] | None:
        """The review computed for ``key`` (the game's version and kept odds), if still kept."""
        with self._lock:
            found = self._reviews.get(game_id)
        return found[1] if found is not None and found[0] == key else None

    def keep_review(self, game_id: int, key: tuple[Any, ...], review: dict[str, Any]) -> None:
        with self._lock:
            self._reviews[game_id] = (key, review)
            self._reviews.move_to_end(game_id)
            while len(self._reviews) > _CACHED:
                self._reviews.popitem(last=False)

    def state_at(self, game_id: int, version: int) -> Any:
        """The game's state after its first ``version`` events (1 = just started)."""
        check_version(version)
        payloads, _ = self.events(game_id)
        if not 1 <= version <= len(payloads):
            raise VersionOutOfRangeError(version, len(payloads))
        try:
            return self.rules.replay(payloads[:version])
        except Exception as exc:
            raise GameUnreadableError(game_id, str(exc) or type(exc).__name__) from exc


def _undone(payloads: Sequence[Mapping[str, Any]]) -> set[int]:
    return {int(e["undoes"]) for e in payloads if e.get("type") == "undo" and "undoes" in e}


def _kept_odds(log: GameLog, game_id: int) -> dict[int, dict[str, Any]]:
    with log.reading() as conn:
        rows = conn.execute("SELECT attack_seq, win, tie, lose, basis FROM odds WHERE game_id = ?",
                            (game_id,)).fetchall()
    return {r["attack_seq"]: {"win": r["win"], "tie": r["tie"], "lose": r["lose"], "basis": r["basis"]}
            for r in rows}


def _chance_of_outcome(odds: Mapping[str, float] | None, winner: str | None) -> float | None:
    """What the kept odds gave the result that happened (attacker win, tie, or defence)."""
    if odds is None:
        return None
    if winner == "attacker":
        return float(odds["win"])
    if winner is None or winner == "tie":
        return float(odds["tie"])
    return float(odds["lose"])


def battles(payloads: Sequence[Mapping[str, Any]], times: Sequence[str],
            odds: Mapping[int, Mapping[str, Any]], rounds: Mapping[int, int]) -> list[dict[str, Any]]:
    """Every battle the log kept standing, in order: who, where, the camera's counts, every
    correction (device and player), the confirmed counts, the result and the kept odds.

    ``rounds``: the round at each seq. Undone attacks, readings and corrections are left out."""
    undone = _undone(payloads)
    out: list[dict[str, Any]] = []
    attack: int | None = None
    reading: dict[str, Any] | None = None
    for seq, e in enumerate(payloads, start=1):
        if seq in undone or e.get("type") == "undo":
            continue
        kind, cmd = e.get("type"), e.get("command") or {}
        if kind == "attack":
            attack, reading = seq, None
        elif kind == "read_tray":
            reading = {"id": cmd.get("reading"), "camera": dict(cmd.get("counts") or {}),
                       "unknown": cmd.get("unknown") or 0, "changes": [], "seq": seq}
        elif kind == "correct_tray":
            reading = reading or {"id": None, "camera": None, "unknown": 0, "changes": [], "seq": None}
            reading["changes"].append({"seq": seq, "at": times[seq - 1], "color": cmd.get("color"),
                                       "to": cmd.get("count"), "device": cmd.get("device"),
                                       "player": cmd.get("player")})
        elif kind == "resolve_battle":
            battle, result = e.get("battle") or {}, e.get("result") or {}
            kept = odds.get(attack) if attack is not None else None
            winner = result.get("winner")
            chance = _chance_of_outcome(kept, winner)
            out.append({
                "seq": seq, "attack_seq": attack, "at": times[seq - 1], "round": rounds.get(seq),
                "attacker": battle.get("attacker"), "defender": battle.get("defender"),
                "target": battle.get("target"), "realm": battle.get("realm"),
                "stance": battle.get("stance"), "throw": battle.get("throw") or {},
                "camera": e.get("camera_counts"), "counts": e.get("reading") or cmd.get("counts") or {},
                "reading_id": e.get("reading_id") or (reading or {}).get("id"),
                "unknown": (reading or {}).get("unknown", 0),
                "corrections": list((reading or {}).get("changes") or ()),
                "winner": winner, "strength": result.get("strength"),
                "placed": result.get("placed") or {}, "to_limbo": result.get("to_limbo") or {},
                "odds": dict(kept) if kept else None,
                "chance_of_result": None if chance is None else round(chance, 4),
            })
            attack = reading = None
    return out


def _walk(rules: Rules, payloads: Sequence[Mapping[str, Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """Fold the log once, noting per event the round, the tower's interior and the VP."""
    state = None
    steps: list[dict[str, Any]] = []
    for e in payloads:
        state = rules.evolve(state, dict(e))
        steps.append({"round": state.round, "interior": dict(state.interior),
                      "vp": {p.color: p.vp for p in state.players}})
    return state, steps


def vp_by_round(state: Any) -> list[dict[str, Any]]:
    """Per scored round, every player's VP after it (cumulative round scores, as scored)."""
    totals: dict[str, int] = {p.color: 0 for p in state.players}
    out = []
    for score in state.scores:
        for colour, breakdown in (score.get("players") or {}).items():
            totals[colour] = totals.get(colour, 0) + int((breakdown or {}).get("total") or 0)
        out.append({"round": score.get("round"), "vp": dict(totals)})
    return out


def lead_changes(chart: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Rounds after which another player (or set of tied players) led than the round before."""
    out = []
    before: list[str] | None = None
    for point in chart:
        vp = point["vp"]
        if not vp:
            continue
        best = max(vp.values())
        leaders = sorted(c for c, v in vp.items() if v == best)
        if before is not None and leaders != before:
            out.append({"round": point["round"], "from": before, "to": leaders, "vp": best})
        before = leaders
    return out


def tower_stays(payloads: Sequence[Mapping[str, Any]], steps: Sequence[Mapping[str, Any]],
                limit: int = 3) -> list[dict[str, Any]]:
    """Per colour the longest run of throws during which the tower was never empty of it."""
    throws = [i for i, e in enumerate(payloads) if e.get("type") in THROW_EVENTS]
    best: dict[str, dict[str, Any]] = {}
    run_start: dict[str, int] = {}
    for n, i in enumerate(throws):
        inside = steps[i]["interior"]
        for colour in set(inside) | set(run_start):
            if inside.get(colour, 0) > 0:
                run_start.setdefault(colour, n)
                length = n - run_start[colour] + 1
                if length > best.get(colour, {}).get("throws", 0):
                    first = throws[run_start[colour]]
                    best[colour] = {"color": colour, "throws": length,
                                    "from_seq": first + 1, "to_seq": i + 1,
                                    "from_round": steps[first]["round"], "to_round": steps[i]["round"]}
            else:
                run_start.pop(colour, None)
    ranked = sorted(best.values(), key=lambda s: (-s["throws"], s["color"]))
    return [s for s in ranked if s["throws"] > 1][:limit]


def game_review(log: GameLog, game_id: int, replayer: Replayer | None = None) -> dict[str, Any]:
    """Everything the review page shows but the per-version states (see the module docstring).

    Kept by the replayer until the game or its kept odds change (a fresh copy each call)."""
    replayer = replayer or Replayer(log)
    payloads, times = replayer.events(game_id)
    odds = _kept_odds(log, game_id)
    key = (len(payloads), tuple(sorted(odds)))
    kept = replayer.kept_review(game_id, key)
    if kept is None:
        kept = _review(log, game_id, replayer.rules, payloads, times, odds)
        replayer.keep_review(game_id, key, kept)
    return copy.deepcopy(kept)


def _review(log: GameLog, game_id: int, rules: Rules, payloads: list[dict[str, Any]],
            times: list[str], odds: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    summary = log.game(game_id)
    try:
        state, steps = _walk(rules, payloads)
    except Exception as exc:
        raise GameUnreadableError(game_id, str(exc) or type(exc).__name__) from exc
    undone = _undone(payloads)
    rounds = {i + 1: s["round"] for i, s in enumerate(steps)}
    fought = battles(payloads, times, odds, rounds)
    upsets = sorted((b for b in fought if b["chance_of_result"] is not None
                     and b["chance_of_result"] < UPSET_BELOW),
                    key=lambda b: (b["chance_of_result"], b["seq"]))[:TOP_UPSETS]
    chart = vp_by_round(state)
    timeline = [{"seq": i + 1, "type": e.get("type"), "command": e.get("command") or {},
                 "undoes": e.get("undoes"), "undone_type": e.get("undone_type"),
                 "undone": (i + 1) in undone, "at": times[i], "round": steps[i]["round"]}
                for i, e in enumerate(payloads)]
    return {
        "id": game_id, "title": summary.title, "status": summary.status,
        "created_at": summary.created_at, "finished_at": summary.finished_at,
        "version": len(payloads), "rounds": state.rounds,
        "players": [{"color": p.color, "name": p.name, "light_tribe": p.light_tribe,
                     "dark_tribe": p.dark_tribe, "vp": p.vp} for p in state.players],
        "board": state.board.to_dict(), "result": state.result, "timeline": timeline, "battles": fought,
        "vp_chart": chart,
        "turning_points": {"upsets": [b["seq"] for b in upsets], "lead_changes": lead_changes(chart),
                           "tower_stays": tower_stays(payloads, steps)},
    }
