"""What every export shares: the columns of each CSV table and BG Stats' createPlay link.

One module both exporters import (:mod:`companion.store.export_all` for the Immortals games,
:mod:`companion.store.nights_report` for the other games of a game night), so neither imports
the other and a column or the link's format changes in one place.

BG Stats' link is documented at
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import quote

BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html?data="

# The columns of each CSV table, in order (the JSON export's rows carry the same keys).
COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("id", "title", "status", "round", "created_at", "finished_at", "winners"),
    "seats": ("game_id", "seat", "color", "name", "person_id", "person", "light_tribe",
              "dark_tribe", "vp", "rank", "winner"),
    "rounds": ("game_id", "round", "color", "vp_gained", "vp_total"),
    "tabletop_games": ("id", "game", "name", "night", "status", "started_at", "ended_at", "minutes",
                       "players", "winners", "notes"),
    "tabletop_players": ("game_id", "game", "name", "seat", "player", "person_id", "person", "score",
                         "rank", "winner"),
}


def play_date(iso: str) -> str:
    """BG Stats wants ``YYYY-MM-DD HH:MM:SS``; stored times are ISO 8601 UTC."""
    return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M:%S")


def createplay_url(data: Mapping[str, Any]) -> str:
    """The BG Stats app's "create a play" link carrying ``data`` (compact JSON, URL-quoted)."""
    return BGSTATS_URL + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
