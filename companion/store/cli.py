"""``companion store …``: look after the game database without the web UI.

* ``store backup DEST``   — a consistent copy (SQLite backup API), also while a game is played.
* ``store check``         — SQLite's integrity check and the number of games and events.
* ``store export GAME``   — one game as JSON (``--csv``: its battles as CSV) on standard output.
* ``store stats``         — the statistics as JSON.
* ``store prune-photos``  — prune battle photos of finished games now (age / size settings).

And two top-level commands (:mod:`companion.store.backup`):

* ``backup``              — a backup now into ``$COMPANION_DATA/backups`` (keeps the last
  ``COMPANION_BACKUP_KEEP``); ``backup --list`` lists them.
* ``restore FILE``        — put a backup back (refused while a server runs on the folder; the
  backup is checked first; the current database is kept as ``before-restore-….sqlite3``).

The database is ``$COMPANION_DATA/companion.sqlite3`` unless ``--db`` names another file.
Exit status 2 with a one-line reason when the file or the game cannot be used.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.config import settings_from_env
from companion.store.errors import StoreError
from companion.store.log import GameLog


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    store = subparsers.add_parser("store", help="back up, check or export the game database")
    store.add_argument("--db", type=Path, help="the database file (default: from COMPANION_DATA)")
    sub = store.add_subparsers(dest="store_command", required=True, metavar="ACTION")
    backup = sub.add_parser("backup", help="copy the database consistently, also during a game")
    backup.add_argument("dest", type=Path, help="the file to write")
    backup.set_defaults(handler=_backup)
    sub.add_parser("check", help="integrity check and counts").set_defaults(handler=_check)
    export = sub.add_parser("export", help="one game as JSON (or its battles as CSV)")
    export.add_argument("game", type=int, help="the game number")
    export.add_argument("--csv", action="store_true", help="the battles as CSV instead")
    export.set_defaults(handler=_export)
    sub.add_parser("stats", help="statistics over every game, as JSON").set_defaults(handler=_stats)
    sub.add_parser(
        "prune-photos", help="prune battle photos of finished games (COMPANION_PHOTO_DAYS / _MB)"
    ).set_defaults(handler=_prune_photos)

    backup_now = subparsers.add_parser(
        "backup", help="back up the game database now into COMPANION_DATA/backups")
    backup_now.add_argument("--list", action="store_true", help="list the backups instead")
    backup_now.set_defaults(handler=_backup_now)
    restore = subparsers.add_parser(
        "restore", help="put a backup back (stop the server first)")
    restore.add_argument("file", help="the backup: a path, or a name from 'companion backup --list'")
    restore.set_defaults(handler=_restore)


def _open(args: argparse.Namespace) -> GameLog:
    """The log at ``--db`` or the configured path; never creates a database that is not there."""
    path = args.db or settings_from_env().database_path
    if not Path(path).is_file():
        raise StoreError(f"There is no game database at {path}.")
    return GameLog(path)


def _run(args: argparse.Namespace, action) -> int:  # type: ignore[no-untyped-def]
    try:
        with _open(args) as log:
            return int(action(log) or 0)
    except (StoreError, ValueError) as exc:
        print(f"companion store: {exc}", file=sys.stderr)
        return 2


def _backup(args: argparse.Namespace) -> int:
    if args.dest.exists():
        print(f"companion store: {args.dest} exists already; choose a new name.", file=sys.stderr)
        return 2

    def action(log: GameLog) -> None:
        log.backup(args.dest)
        print(f"backed up {len(log.games())} games to {args.dest}")

    return _run(args, action)


def _check(args: argparse.Namespace) -> int:
    def action(log: GameLog) -> int:
        verdict = log.integrity_check()
        games = log.games()
        print(f"integrity: {verdict}")
        print(f"games: {len(games)} ({sum(g.status == 'finished' for g in games)} finished), "
              f"events: {sum(g.version for g in games)}")
        return 0 if verdict == "ok" else 1

    return _run(args, action)


def _export(args: argparse.Namespace) -> int:
    from companion.store.export import battles_csv, export_game

    def action(log: GameLog) -> None:
        if args.csv:
            sys.stdout.write(battles_csv(log, args.game))
        else:
            json.dump(export_game(log, args.game), sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")

    return _run(args, action)


def _stats(args: argparse.Namespace) -> int:
    from companion.store.stats import statistics

    def action(log: GameLog) -> None:
        json.dump(statistics(log), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")

    return _run(args, action)


def _prune_photos(args: argparse.Namespace) -> int:
    from companion.store.retention import prune_photos, retention_settings, unfinished_games

    def action(log: GameLog) -> None:
        data_dir = settings_from_env().data_dir if args.db is None else Path(args.db).parent
        report = prune_photos(data_dir / "readings", unfinished_games(log), retention_settings())
        print(report)

    return _run(args, action)


def _backup_now(args: argparse.Namespace) -> int:
    from companion.store.backup import backup_folder, backup_settings, backups, make_backup

    settings = settings_from_env()
    folder = backup_folder(settings.data_dir)
    try:
        if args.list:
            found = backups(folder) + sorted(folder.glob("before-restore-*.sqlite3"))
            for path in found:
                print(f"{path.name}  {path.stat().st_size / 1e6:.1f} MB")
            if not found:
                print(f"no backups in {folder}")
            return 0
        path = make_backup(settings.database_path, folder, keep=backup_settings().keep)
    except (StoreError, ValueError) as exc:
        print(f"companion backup: {exc}", file=sys.stderr)
        return 2
    print(f"backed up the game database to {path}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    from companion.store.backup import find_backup, restore

    settings = settings_from_env()
    try:
        done = restore(find_backup(args.file, settings.data_dir), settings.database_path,
                       settings.data_dir)
    except (StoreError, ValueError) as exc:
        print(f"companion restore: {exc}", file=sys.stderr)
        return 2
    print(f"restored {done.database} from {done.source}")
    if done.kept is not None:
        print(f"the database as it was is kept in {done.kept}")
    return 0
