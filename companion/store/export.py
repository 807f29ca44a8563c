"""Exports: one game as a JSON document, battles as CSV.

The JSON document holds everything needed to rebuild the game elsewhere (the events are the
truth; the summary and battle records are conveniences). The CSV has one row per resolved battle
with one column per cube colour, for spreadsheets.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from companion.store.log import GameLog, utc_now

EXPORT_FORMAT = "immortals-companion-game"
EXPORT_VERSION = 1
COLOURS = ("red", "blue", "yellow", "purple", "black", "green")  # canonical column order

_BATTLE_COLUMNS = (
    "game_id", "seq", "round", "realm", "region", "attacker", "defender", "stance",
    "winner", "tray_size", "corrected", "created_at",
)  # fmt: skip


def export_game(log: GameLog, game_id: int) -> dict[str, Any]:
    """The whole game as a JSON-safe document; raises GameNotFoundError for an unknown id.

    ``{"format", "format_version", "exported_at", "game": <summary>, "events": [{"seq",
    "type", "created_at", "payload"}], "battles": [<battle record>], "readings": [<confirmed
    tray count>]}``
    """
    summary = log.game(game_id)
    events = log.events(game_id)
    return {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "exported_at": utc_now(),
        "game": summary.to_dict(),
        "events": [
            {"seq": e.seq, "type": e.type, "created_at": e.created_at, "payload": e.payload}
            for e in events
        ],
        "battles": log.battles(game_id),
        "readings": log.readings(game_id),
    }


def battles_csv(log: GameLog, game_id: int | None = None) -> str:
    """Battles of one game (or of all games) as CSV text with a header row.

    Columns: the battle fields, then ``tray_<colour>`` (confirmed) and ``camera_<colour>`` (read;
    empty when counted by hand) for each colour. ``corrected`` is ``yes``/``no``/empty.
    """
    rows = log.battles(game_id)
    extra = sorted({c for r in rows for c in r["tray_counts"]} - set(COLOURS))  # placeholders
    colours = (*COLOURS, *extra)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(
        [*_BATTLE_COLUMNS, *(f"tray_{c}" for c in colours), *(f"camera_{c}" for c in colours)]
    )
    for r in rows:
        camera = r["camera_counts"]
        fields = {**r, "corrected": {None: None, True: "yes", False: "no"}[r["corrected"]]}
        writer.writerow(
            [
                *("" if fields[k] is None else fields[k] for k in _BATTLE_COLUMNS),
                *(r["tray_counts"].get(c, 0) for c in colours),
                *(("" if camera is None else camera.get(c, 0)) for c in colours),
            ]
        )
    return out.getvalue()
