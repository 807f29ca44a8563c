"""The recap of one evening: every game logged that night — Immortals games of the main log and
the game-night log's games — with who played, who won, how long it took, the pictures, and a few
facts drawn from the data.

Guarantees: read-only (nothing here writes a game); a fact is only stated when the data holds
it (no kept odds → no underdog fact; no finished game → no "most wins"); facts are catalogue
messages (``{"key", "params"}``) so every reader gets them in their language. The *night* of a
game is :func:`companion.store.nights.night_of` of its start, for both kinds of game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from companion.store.errors import StoreError
from companion.store.log import GameLog
from companion.store.nights import list_games, minutes, night_of
from companion.store.review import Replayer, game_review

UNDERDOG_BELOW = 0.30  # "given less than 30 % to win"


class InvalidNightError(StoreError, ValueError):
    """An evening that is not written as a date (2026-11-24)."""

    def __init__(self, night: object) -> None:
        from companion.messages import msg

        super().__init__(msg("err_recap_bad_night", night=str(night)[:40]))


class NightNotFoundError(StoreError, ValueError):
    """No game at all was logged that evening."""

    def __init__(self, night: str) -> None:
        from companion.messages import msg

        super().__init__(msg("err_recap_no_games", night=night))


def check_night(night: Any) -> str:
    """``night`` if it is a date ``YYYY-MM-DD``, else :class:`InvalidNightError`."""
    if isinstance(night, str) and len(night) == 10:
        try:
            return date.fromisoformat(night).isoformat()
        except ValueError:
            pass
    raise InvalidNightError(night)


def recap_nights(log: GameLog) -> list[dict[str, Any]]:
    """Every evening with a game of either kind: ``[{"night", "games"}]``, newest first."""
    counts: Counter[str] = Counter(night_of(g.created_at) for g in log.games())
    counts.update(night_of(g["started_at"]) for g in list_games(log))
    return [{"night": k, "games": n} for k, n in sorted(counts.items(), reverse=True)]


def _joined(names: list[str]) -> str:
    """How :func:`companion.store.rules.game_title` names a game after its players."""
    return f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else (names[0] if names else "")


def _battle(b: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    return {"seq": b["seq"], "round": b["round"], "attacker": b["attacker"], "defender": b["defender"],
            "attacker_name": names.get(b["attacker"], b["attacker"]),
            "defender_name": names.get(b["defender"]) if b["defender"] else None,
            "target": b["target"], "realm": b["realm"], "winner": b["winner"], "odds": b["odds"],
            "chance_of_result": b["chance_of_result"], "counts": b["counts"], "camera": b["camera"],
            "corrections": len(b["corrections"]), "reading_id": b["reading_id"]}


def _immortals(log: GameLog, night: str, replayer: Replayer) -> list[dict[str, Any]]:
    out = []
    for g in sorted((g for g in log.games() if night_of(g.created_at) == night), key=lambda g: g.created_at):
        winners = (g.result or {}).get("winners") or []
        names = {p["color"]: p.get("name") or p["color"] for p in g.players}
        review = game_review(log, g.id, replayer)
        # A game without its own title is named after its players (companion.store.rules): the
        # reader's language joins the names ("Ani, Ben und Cleo"), not the stored English.
        own = g.title != _joined(list(names.values()))
        out.append({
            "kind": "immortals", "id": g.id, "game": "immortals", "name": "Immortals",
            "title": g.title if own else None, "title_names": None if own else list(names.values()),
            "status": g.status, "started_at": g.created_at, "ended_at": g.finished_at,
            "minutes": minutes(g.created_at, g.finished_at), "photo": None,
            "players": [{"name": names[p["color"]], "color": p["color"], "score": p.get("vp"),
                         "winner": g.status == "finished" and p["color"] in winners} for p in g.players],
            "battles": [_battle(b, names) for b in review["battles"]],
            "upsets": review["turning_points"]["upsets"],
        })
    return out


def _tabletop(log: GameLog, night: str) -> list[dict[str, Any]]:
    return [{"kind": "tabletop", "id": g["id"], "game": g["game"], "name": g["name"], "title": g["name"],
             "title_names": None,
             "status": g["status"], "started_at": g["started_at"], "ended_at": g["ended_at"],
             "minutes": g["minutes"], "photo": g["id"] if g["photo"] else None,
             "players": [{"name": p["name"], "score": p["score"], "winner": p["winner"]} for p in g["players"]],
             "battles": [], "upsets": []}
            for g in list_games(log) if night_of(g["started_at"]) == night]


def _underdog(games: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The player who won most battles the kept odds gave them less than 30 % to win."""
    given: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for g in games:
        for b in g["battles"]:
            odds = b["odds"]
            if not odds:
                continue
            sides = [(b["attacker_name"], odds["win"], b["winner"] == "attacker")]
            if b["defender_name"]:
                sides.append((b["defender_name"], odds["lose"], b["winner"] == "defender"))
            for name, chance, did in sides:
                if chance < UNDERDOG_BELOW:
                    given[name] += 1
                    won[name] += did
    if not won or max(won.values()) == 0:
        return None
    name = max(won, key=lambda n: (won[n], -given[n], n))
    return {"key": "recap_fact_underdog", "params": {"name": name, "won": won[name], "n": given[name],
                                                      "percent": round(UNDERDOG_BELOW * 100)}}


def facts(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A few sentences drawn from the evening's data (only what the data holds)."""
    out: list[dict[str, Any]] = []
    finished = [g for g in games if g["status"] == "finished"]
    wins: Counter[str] = Counter(p["name"] for g in finished for p in g["players"] if p["winner"])
    played: Counter[str] = Counter(p["name"] for g in games for p in g["players"])
    if wins:
        name = max(wins, key=lambda n: (wins[n], -played[n], n))
        out.append({"key": "recap_fact_most_wins", "params": {"name": name, "won": wins[name], "played": played[name]}})
    underdog = _underdog(games)
    if underdog:
        out.append(underdog)
    timed = [g for g in games if g["minutes"] is not None]
    if len(timed) > 1:
        longest = max(timed, key=lambda g: g["minutes"])
        out.append({"key": "recap_fact_longest", "params": {"game": longest["title"] or longest["title_names"],
                                                             "minutes": longest["minutes"]}})
    battles = [b for g in games for b in g["battles"]]
    if battles:
        out.append({"key": "recap_fact_battles", "params": {
            "n": len(battles), "corrected": sum(1 for b in battles if b["corrections"]),
            "camera": sum(1 for b in battles if b["camera"] is not None)}})
    return out


def night_recap(log: GameLog, night: Any, replayer: Replayer | None = None) -> dict[str, Any]:
    """The recap of the evening ``night`` (``YYYY-MM-DD``): games oldest first, players, facts."""
    night = check_night(night)
    games = _immortals(log, night, replayer or Replayer(log)) + _tabletop(log, night)
    if not games:
        raise NightNotFoundError(night)
    games.sort(key=lambda g: (g["started_at"], g["kind"], g["id"]))
    players = sorted({p["name"] for g in games for p in g["players"]}, key=str.casefold)
    return {"night": night, "games": games, "players": players, "facts": facts(games)}
