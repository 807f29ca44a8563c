"""Statistics over every game: the plain tables, and what only this companion can tell a group —
its tower's behaviour and fairness, the odds of its battles and whether they were honest, its
people across games — plus the group settings and the exports.

Views are thin: parse, call :mod:`companion.store.stats` / :mod:`companion.store.insights` /
:mod:`companion.store.export_all`, return JSON (or CSV). "Not enough data yet" is an answer with
``enough_data: false``, never an error.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.web.api.errors import NotFoundError
from companion.web.api.runtime import runtime
from companion.web.api.shapes_stats import (
    EXPORT_TABLE,
    BattleOdds,
    BgStats,
    GroupSettings,
    OddsReport,
    SettingsChange,
    TowerReport,
)
from companion.web.api.spec import accepts, operation, responds

_OBJECT = {"type": "object"}

bp = Blueprint("api_stats", __name__, url_prefix="/api")


@bp.get("/stats")
@operation("Statistics over every game (companion.store.stats)")
@responds(200, _OBJECT, "Statistics.")
def statistics() -> Response:
    from companion.store.insights import cached
    from companion.store.stats import statistics as compute

    log = runtime().log
    return jsonify(cached(log, "statistics", lambda: compute(log)))


@bp.get("/stats/tower")
@operation("The tower model per colour (landing and release chances with 95 % intervals) "
           "and the fairness tests")
@responds(200, TowerReport, "Model and fairness; enough_data false before any throw.")
def tower() -> Response:
    """The tower model per colour with intervals, and the fairness tests."""
    from companion.store.insights import cached, tower_report

    log = runtime().log
    return jsonify(cached(log, "tower", lambda: tower_report(log)))


@bp.get("/stats/odds")
@operation("Odds calibration: predicted attacker win chance in bins against the share "
           "actually won")
@responds(200, OddsReport, "Calibration.")
def odds() -> Response:
    """Calibration of the odds kept before battles against what happened."""
    from companion.store.group_settings import get_settings
    from companion.store.insights import odds_report

    from companion.store.insights import cached

    log = runtime().log
    return jsonify(cached(log, "odds", lambda: odds_report(log, get_settings(log)["odds"])))


@bp.get("/stats/people")
@operation("Per person: games, wins, average VP, luck, favourite tribes, head-to-head")
@responds(200, _OBJECT, "People; values null where there is not enough data.")
def people() -> Response:
    from companion.store.insights import cached, people_report

    log = runtime().log
    return jsonify(cached(log, "people", lambda: people_report(log)))


@bp.get("/stats/games/<int:game_id>")
@operation("One game: VP after each round per player, luck per player")
@responds(200, _OBJECT, "The game's statistics.")
def game(game_id: int) -> Response:
    """One game: VP per round per player, luck per player."""
    from companion.store.insights import game_report

    return jsonify(game_report(runtime().log, game_id))


@bp.get("/games/<int:game_id>/interior")
@operation("The interior estimate with what the next throw will likely let out (90 % range)")
@responds(200, _OBJECT, "Per colour: inside, release chance, next_out {expected, low, high}.")
def interior(game_id: int) -> Response:
    """The game's interior estimate with what the next throw will likely let out."""
    from companion.store.insights import interior_report, tower_model

    rt = runtime()
    state = rt.service.state(game_id)
    model, _ = tower_model(rt.log)
    return jsonify({"id": game_id, "version": state.version,
                    **interior_report(model, dict(state.interior))})


@bp.get("/games/<int:game_id>/battle/odds")
@operation("The attacker's odds of the pending battle (group setting `odds`); the first "
           "odds of a battle are kept in the log")
@responds(200, BattleOdds, "Odds, or why there are none.")
def battle_odds(game_id: int) -> Response:
    """The attacker's odds of the pending battle — only when the group turned odds on. The first
    odds computed for a battle are kept in the log and every later call answers with them."""
    from companion.store.group_settings import get_settings
    from companion.store.insights import battle_odds_for

    rt = runtime()
    state = rt.service.state(game_id)
    if not get_settings(rt.log)["odds"]:
        return jsonify({"enabled": False, "odds": None})
    if state.battle is None:
        return jsonify({"enabled": True, "odds": None, "reason": "no battle is waiting for its throw"})
    answer = battle_odds_for(rt.log, game_id, state.version, state.battle, dict(state.interior))
    return jsonify({"enabled": True, "battle": {k: state.battle.get(k) for k in
                                                ("attacker", "defender", "stance", "throw")},
                    **answer})


@bp.get("/settings")
@operation("The group settings")
@responds(200, GroupSettings, "Settings.")
def get_group_settings() -> Response:
    from companion.store.group_settings import get_settings

    return jsonify(get_settings(runtime().log))


@bp.put("/settings")
@operation("Change group settings (only the keys sent)")
@accepts(SettingsChange)
@responds(200, GroupSettings, "All settings.")
def put_group_settings(body: SettingsChange) -> Response:
    from companion.store.group_settings import update_settings

    return jsonify(update_settings(runtime().log, body.changes()))


# -- exports -----------------------------------------------------------------------------------

@bp.get("/export/<name>.csv")
@operation("Every game as CSV, one file per table", params=EXPORT_TABLE)
@responds(200, None, "CSV", content_type="text/csv")
def export_csv(name: str) -> Response:
    from companion.store.export_all import TABLES, table_csv

    if name not in TABLES:
        raise NotFoundError(f"There is no table called {name}; there are {', '.join(TABLES)}.")
    response = Response(table_csv(runtime().log, name), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="immortals-{name}.csv"'
    return response


@bp.get("/export/all.json")
@operation("Every game as one JSON document (the four tables and the roster)")
@responds(200, _OBJECT, "The export.")
def export_json() -> Response:
    from companion.store.export_all import all_json

    response = jsonify(all_json(runtime().log))
    response.headers["Content-Disposition"] = 'attachment; filename="immortals-all-games.json"'
    return response


@bp.get("/games/<int:game_id>/bgstats")
@operation("BG Stats createPlay link of a game (BoardGameGeek id from the settings, never guessed)")
@responds(200, BgStats, "The link and its data.")
def bgstats(game_id: int) -> Response:
    """BG Stats' createPlay link of a game (the BoardGameGeek id only when the setting has one)."""
    from companion.store.export_all import bgstats_play, bgstats_url
    from companion.store.group_settings import get_settings

    log = runtime().log
    settings = get_settings(log)
    return jsonify({"url": bgstats_url(log, game_id, settings),
                    "data": bgstats_play(log, game_id, settings)})
