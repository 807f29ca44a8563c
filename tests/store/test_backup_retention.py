"""Battle photo retention: by age and by total size, oldest first, never an unfinished game's;
only the photos go, each reading's counts stay."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from companion.store.retention import (
    RetentionSettingError,
    RetentionSettings,
    prune_photos,
    retention_settings,
)

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=timezone.utc)


def _reading(root: Path, game: int, days_old: float, kb: int = 100, n: int = 0) -> Path:
    folder = root / f"{game}-{n + 2}-{n:08x}"
    folder.mkdir(parents=True)
    taken = (NOW - timedelta(days=days_old)).isoformat(timespec="milliseconds")
    (folder / "reading.json").write_text(json.dumps({"id": folder.name, "game": game, "taken_at": taken}))
    (folder / "photo.jpg").write_bytes(b"j" * kb * 500)
    (folder / "annotated.jpg").write_bytes(b"a" * kb * 500)
    return folder


def _has_photos(folder: Path) -> bool:
    return (folder / "photo.jpg").exists() and (folder / "annotated.jpg").exists()


def test_old_photos_of_finished_games_go_and_their_counts_stay(tmp_path: Path) -> None:
    old = _reading(tmp_path, game=1, days_old=40, n=1)
    young = _reading(tmp_path, game=1, days_old=5, n=2)
    report = prune_photos(tmp_path, unfinished=[], settings=RetentionSettings(30, 0), now=NOW)
    assert report.pruned == [old] and not _has_photos(old) and _has_photos(young)
    assert (old / "reading.json").is_file()
    assert report.freed_bytes == 100_000


def test_an_unfinished_game_keeps_every_photo_however_old(tmp_path: Path) -> None:
    ongoing = _reading(tmp_path, game=7, days_old=400, n=1)
    report = prune_photos(tmp_path, unfinished=[7], settings=RetentionSettings(30, 0.01), now=NOW)
    assert _has_photos(ongoing) and report.pruned == [] and report.protected == 1


def test_over_the_size_limit_the_oldest_prunable_go_first(tmp_path: Path) -> None:
    a = _reading(tmp_path, game=1, days_old=3, n=1)  # oldest, but unfinished
    b = _reading(tmp_path, game=2, days_old=2, n=2)
    c = _reading(tmp_path, game=2, days_old=1, n=3)
    d = _reading(tmp_path, game=3, days_old=0, n=4)
    report = prune_photos(tmp_path, unfinished=[1], settings=RetentionSettings(0, 0.25), now=NOW)
    assert report.pruned == [b, c]  # 400 kB → 200 kB ≤ 250 kB
    assert _has_photos(a) and _has_photos(d) and report.kept_bytes == 200_000


def test_no_limits_prune_nothing(tmp_path: Path) -> None:
    folder = _reading(tmp_path, game=1, days_old=4000, n=1)
    assert prune_photos(tmp_path, [], RetentionSettings(0, 0), now=NOW).pruned == []
    assert _has_photos(folder)


def test_settings_come_from_the_environment() -> None:
    assert retention_settings({}) == RetentionSettings(365.0, 2000.0)
    assert retention_settings({"COMPANION_PHOTO_DAYS": "30", "COMPANION_PHOTO_MB": "500"}) == \
        RetentionSettings(30.0, 500.0)
    with pytest.raises(RetentionSettingError, match="COMPANION_PHOTO_MB"):
        retention_settings({"COMPANION_PHOTO_MB": "lots"})
    with pytest.raises(RetentionSettingError, match="COMPANION_PHOTO_DAYS"):
        retention_settings({"COMPANION_PHOTO_DAYS": "-1"})


def test_the_console_command_prunes_by_the_games_in_the_database(tmp_path: Path, monkeypatch, capsys) -> None:
    from companion.cli import main as cli
    from companion.store import GameLog, GameMeta

    data = tmp_path / "data"
    with GameLog(data / "companion.sqlite3") as log:
        done = log.create_game("Done", first_event={"type": "new_game"})
        log.append(done, {"type": "end"}, 1, meta=GameMeta(status="finished", round=8, players=[], result={"winners": []}))
        going = log.create_game("Going", first_event={"type": "new_game"})
    finished = _reading(data / "readings", game=done, days_old=500, n=1)
    ongoing = _reading(data / "readings", game=going, days_old=500, n=2)
    monkeypatch.setenv("COMPANION_DATA", str(data))
    monkeypatch.setenv("COMPANION_PHOTO_DAYS", "30")
    assert cli(["store", "prune-photos"]) == 0
    assert "pruned the photos of 1 readings" in capsys.readouterr().out
    assert not _has_photos(finished) and _has_photos(ongoing)
