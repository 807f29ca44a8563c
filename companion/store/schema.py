"""The database schema and its migrations.

The schema version lives in SQLite's own header field ``PRAGMA user_version`` (transactional,
no extra table). ``MIGRATIONS[i]`` takes the file from version ``i`` to ``i + 1``; each runs in
one ``BEGIN IMMEDIATE`` transaction together with the version bump, so a power cut during an
upgrade leaves the old version intact. Never edit a migration that has shipped: append one.

The append-only promise is enforced by the database itself, not only by the absence of code
paths: triggers abort every UPDATE or DELETE on ``events`` and ``battles`` and every DELETE on
``games``; another trigger admits an event only as the next number of its game, and
``games.version`` can only ever equal the number of events of the game.
"""

from __future__ import annotations

import sqlite3

from companion.store.errors import SchemaTooNewError


def _kept_as_written(table: str, why: str) -> tuple[str, ...]:
    """The two triggers that abort every UPDATE and every DELETE on ``table`` with ``why`` (the
    text of the shipped migrations, byte for byte)."""
    return tuple(f"""
    CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table}
    BEGIN SELECT RAISE(ABORT, '{why}'); END
    """ for op in ("UPDATE", "DELETE"))


_V1: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        title       TEXT    NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
        created_at  TEXT    NOT NULL,
        updated_at  TEXT    NOT NULL,
        version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),  -- = number of events
        status      TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished')),
        round       INTEGER,
        players     TEXT    NOT NULL DEFAULT '[]'
                            CHECK (json_valid(players) AND json_type(players) = 'array'),
        finished_at TEXT,
        result      TEXT    CHECK (result IS NULL OR
                                   (json_valid(result) AND json_type(result) = 'object'))
    )
    """,
    """
    CREATE TABLE events (
        game_id    INTEGER NOT NULL REFERENCES games (id),
        seq        INTEGER NOT NULL CHECK (seq >= 1),
        type       TEXT    NOT NULL CHECK (length(type) >= 1),
        payload    TEXT    NOT NULL CHECK (json_valid(payload)
                                           AND json_type(payload) = 'object'
                                           AND json_extract(payload, '$.type') = type),
        created_at TEXT    NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE battles (
        game_id       INTEGER NOT NULL,
        seq           INTEGER NOT NULL,          -- the resolve_battle event
        round         INTEGER,
        realm         TEXT    CHECK (realm IS NULL OR realm IN ('light', 'dark')),
        region        TEXT,
        attacker      TEXT    NOT NULL,
        defender      TEXT,                      -- NULL: the region was empty
        stance        TEXT    NOT NULL
                              CHECK (stance IN ('for_attacker', 'neutral', 'against_attacker')),
        tray_counts   TEXT    NOT NULL CHECK (json_valid(tray_counts)),   -- confirmed by players
        tray_size     INTEGER NOT NULL CHECK (tray_size >= 0),
        camera_counts TEXT    CHECK (camera_counts IS NULL OR json_valid(camera_counts)),
        corrected     INTEGER CHECK (corrected IS NULL OR corrected IN (0, 1)),  -- NULL: by hand
        winner        TEXT    NOT NULL
                              CHECK (winner IN ('attacker', 'defender', 'inhabitants', 'tie')),
        created_at    TEXT    NOT NULL,
        PRIMARY KEY (game_id, seq),
        FOREIGN KEY (game_id, seq) REFERENCES events (game_id, seq)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX games_by_status ON games (status, updated_at)",
    # -- append-only, enforced by the database -------------------------------------------------
    """
    CREATE TRIGGER events_next_seq_only BEFORE INSERT ON events
    WHEN NEW.seq IS NOT (SELECT version + 1 FROM games WHERE id = NEW.game_id)
    BEGIN SELECT RAISE(ABORT, 'events: seq must be the next number of its game'); END
    """,
    """
    CREATE TRIGGER events_count_version AFTER INSERT ON events
    BEGIN UPDATE games SET version = NEW.seq WHERE id = NEW.game_id; END
    """,
    *_kept_as_written("events", "events are append-only"),
    *_kept_as_written("battles", "battles are append-only"),
    """
    CREATE TRIGGER games_version_is_event_count BEFORE UPDATE OF version ON games
    WHEN NEW.version IS NOT (SELECT coalesce(max(seq), 0) FROM events WHERE game_id = NEW.id)
    BEGIN SELECT RAISE(ABORT, 'games.version must equal the number of events'); END
    """,
    """
    CREATE TRIGGER games_no_delete BEFORE DELETE ON games
    BEGIN SELECT RAISE(ABORT, 'games are kept for the statistics'); END
    """,
)

# v2: every confirmed tray count (the seeding throw too, not only battles) for the vision
# statistics; the readings of battles already logged are copied over.
_V2: tuple[str, ...] = (
    """
    CREATE TABLE readings (
        game_id    INTEGER NOT NULL,
        seq        INTEGER NOT NULL,             -- the event that confirmed the count
        kind       TEXT    NOT NULL CHECK (kind IN ('seeding', 'battle')),
        confirmed  TEXT    NOT NULL CHECK (json_valid(confirmed)),
        camera     TEXT    CHECK (camera IS NULL OR json_valid(camera)),
        corrected  INTEGER CHECK (corrected IS NULL OR corrected IN (0, 1)),  -- NULL: by hand
        created_at TEXT    NOT NULL,
        PRIMARY KEY (game_id, seq),
        FOREIGN KEY (game_id, seq) REFERENCES events (game_id, seq)
    ) WITHOUT ROWID
    """,
    """
    INSERT INTO readings (game_id, seq, kind, confirmed, camera, corrected, created_at)
    SELECT game_id, seq, 'battle', tray_counts, camera_counts, corrected, created_at FROM battles
    """,
    *_kept_as_written("readings", "readings are append-only"),
)

def _generation_triggers(tables: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[str, ...]:
    """Triggers that bump ``stats_generation`` on the given operations of each table, so the
    cached statistics know something they read has changed (the text of v3's, byte for byte)."""
    return tuple(
        f"""CREATE TRIGGER stats_generation_{table}_{op.lower()} AFTER {op} ON {table}
            BEGIN UPDATE stats_generation SET n = n + 1 WHERE id = 1; END"""
        for table, ops in tables
        for op in ops
    )


# v3 (issue 15): the group's roster of people and who sat at which colour; group settings; the
# tower's throws in a form the statistics can aggregate (derived from the events, filled in by
# companion.store.throws); the odds shown before each battle (append-only: the log keeps them).
_V3: tuple[str, ...] = (
    """
    CREATE TABLE people (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        name        TEXT    NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 60),
        short_name  TEXT    CHECK (short_name IS NULL OR length(trim(short_name)) BETWEEN 1 AND 12),
        merged_into INTEGER REFERENCES people (id),   -- NULL: on the roster
        created_at  TEXT    NOT NULL,
        CHECK (merged_into IS NULL OR merged_into <> id)
    )
    """,
    # One roster name once (case-insensitive for ASCII); merged entries leave the roster.
    "CREATE UNIQUE INDEX people_unique_name ON people (lower(trim(name))) WHERE merged_into IS NULL",
    """
    CREATE TABLE seats (
        game_id   INTEGER NOT NULL REFERENCES games (id),
        color     TEXT    NOT NULL,
        person_id INTEGER NOT NULL REFERENCES people (id),
        PRIMARY KEY (game_id, color)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX seats_by_person ON seats (person_id)",
    """
    CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL CHECK (json_valid(value))
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE throw_cubes (
        game_id  INTEGER NOT NULL,
        seq      INTEGER NOT NULL,              -- the seed_tower / resolve_battle event
        kind     TEXT    NOT NULL CHECK (kind IN ('seeding', 'battle')),
        color    TEXT    NOT NULL,
        thrown   INTEGER NOT NULL CHECK (thrown >= 0),
        inside   INTEGER NOT NULL CHECK (inside >= 0),  -- the interior estimate before the throw
        seen     INTEGER NOT NULL CHECK (seen >= 0),
        doubtful INTEGER NOT NULL CHECK (doubtful IN (0, 1)),  -- accepted although impossible
        PRIMARY KEY (game_id, seq, color),
        FOREIGN KEY (game_id, seq) REFERENCES events (game_id, seq)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE throws_synced (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        seq     INTEGER NOT NULL,               -- events up to here are in throw_cubes
        inside  TEXT    NOT NULL CHECK (json_valid(inside)),  -- the interior estimate after them
        attack  INTEGER                         -- the last attack event up to there
    )
    """,
    # Which attack each battle resolved (derived with throw_cubes): joins kept odds to outcomes.
    """
    CREATE TABLE battle_attacks (
        game_id    INTEGER NOT NULL,
        seq        INTEGER NOT NULL,            -- the resolve_battle event
        attack_seq INTEGER NOT NULL,            -- the attack it resolved
        PRIMARY KEY (game_id, seq),
        FOREIGN KEY (game_id, seq) REFERENCES events (game_id, seq)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX battle_attacks_by_attack ON battle_attacks (game_id, attack_seq)",
    # The kept odds of each resolved battle beside its outcome (derived with throw_cubes): what
    # calibration and luck read, without a join.
    """
    CREATE TABLE odds_outcomes (
        game_id  INTEGER NOT NULL,
        seq      INTEGER NOT NULL,              -- the resolve_battle event
        attacker TEXT    NOT NULL,
        defender TEXT,
        win      REAL    NOT NULL,              -- the attacker's kept chance to win
        lose     REAL    NOT NULL,              -- ... to lose (the defender's to win)
        winner   TEXT    NOT NULL CHECK (winner IN ('attacker', 'defender', 'inhabitants', 'tie')),
        PRIMARY KEY (game_id, seq),
        FOREIGN KEY (game_id, seq) REFERENCES events (game_id, seq)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE odds (
        game_id    INTEGER NOT NULL,
        attack_seq INTEGER NOT NULL,            -- the attack event of the battle
        version    INTEGER NOT NULL,            -- the game's version the odds were computed at
        attacker   TEXT    NOT NULL,
        defender   TEXT,
        stance     TEXT    NOT NULL,
        win        REAL    NOT NULL CHECK (win BETWEEN 0 AND 1),
        tie        REAL    NOT NULL CHECK (tie BETWEEN 0 AND 1),
        lose       REAL    NOT NULL CHECK (lose BETWEEN 0 AND 1),
        draws      INTEGER NOT NULL CHECK (draws > 0),
        basis      INTEGER NOT NULL CHECK (basis >= 0),  -- throws the tower model rested on
        created_at TEXT    NOT NULL,
        PRIMARY KEY (game_id, attack_seq),
        FOREIGN KEY (game_id, attack_seq) REFERENCES events (game_id, seq)
    ) WITHOUT ROWID
    """,
    # A counter that moves with every change the statistics read, so they can be cached until
    # the next one (companion.store.insights.cached) — one row, bumped in the same transaction.
    "CREATE TABLE stats_generation (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)",
    "INSERT INTO stats_generation (id, n) VALUES (1, 0)",
    *_generation_triggers((("events", ("INSERT",)), ("games", ("INSERT", "UPDATE")),
                           ("people", ("INSERT", "UPDATE")), ("seats", ("INSERT", "UPDATE", "DELETE")),
                           ("odds", ("INSERT",)), ("settings", ("INSERT", "UPDATE")))),
    *_kept_as_written("odds", "odds are kept as they were shown"),
)

# v4 (issue 12): create a game at most once per client-chosen key (the ``Idempotency-Key`` of
# ``POST /api/games``): a create retried after a lost answer or a power cut finds its game here
# instead of making a second one. Written in the game's own creation transaction; kept like the
# games (no update, no delete), so a key never points at another game.
_V4: tuple[str, ...] = (
    """
    CREATE TABLE create_keys (
        key         TEXT    PRIMARY KEY CHECK (length(key) BETWEEN 1 AND 255),
        fingerprint TEXT    NOT NULL,           -- sha256 of the request: same key, other body → refused
        game_id     INTEGER NOT NULL REFERENCES games (id),
        created_at  TEXT    NOT NULL
    ) WITHOUT ROWID
    """,
    *_kept_as_written("create_keys", "a create key always names the game it created"),
)

# v5 (issue 16): the game-night log of the other games of an evening (companion.store.nights).
# ``tt_events`` is append-only like ``events`` (a wrong entry is taken back by an undo event);
# the only way an event leaves is with its whole game, which is first marked 'deleting' in the
# same transaction. ``tt_games.state`` and ``winners`` are derived from the events.
_V5: tuple[str, ...] = (
    """
    CREATE TABLE tt_games (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        game       TEXT    NOT NULL CHECK (length(game) BETWEEN 1 AND 40),   -- the rules module
        name       TEXT    NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 100),
        options    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
        players    TEXT    NOT NULL CHECK (json_valid(players) AND json_type(players) = 'array'),
        status     TEXT    NOT NULL CHECK (status IN ('live', 'finished', 'deleting')),
        version    INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),  -- = number of events
        state      TEXT    NOT NULL CHECK (json_valid(state)),
        winners    TEXT    CHECK (winners IS NULL OR json_valid(winners)),
        started_at TEXT    NOT NULL,
        ended_at   TEXT,
        notes      TEXT    NOT NULL DEFAULT '' CHECK (length(notes) <= 2000),
        photo      TEXT,
        created_at TEXT    NOT NULL,
        updated_at TEXT    NOT NULL
    )
    """,
    "CREATE INDEX tt_games_by_start ON tt_games (started_at)",
    """
    CREATE TABLE tt_events (
        game_id    INTEGER NOT NULL REFERENCES tt_games (id),
        seq        INTEGER NOT NULL CHECK (seq >= 1),
        type       TEXT    NOT NULL,
        payload    TEXT    NOT NULL CHECK (json_valid(payload)
                                           AND json_extract(payload, '$.type') = type),
        created_at TEXT    NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID
    """,
    """
    CREATE TABLE tt_seats (
        game_id   INTEGER NOT NULL REFERENCES tt_games (id),
        player    TEXT    NOT NULL,
        person_id INTEGER NOT NULL REFERENCES people (id),
        PRIMARY KEY (game_id, player)
    ) WITHOUT ROWID
    """,
    "CREATE INDEX tt_seats_by_person ON tt_seats (person_id)",
    """
    CREATE TABLE tt_bgg_ids (
        game   TEXT    PRIMARY KEY,             -- a rules key, or a lower-case generic game name
        bgg_id INTEGER NOT NULL CHECK (bgg_id BETWEEN 1 AND 1000000000)
    ) WITHOUT ROWID
    """,
    """
    CREATE TRIGGER tt_events_next_seq_only BEFORE INSERT ON tt_events
    WHEN NEW.seq IS NOT (SELECT version + 1 FROM tt_games WHERE id = NEW.game_id)
    BEGIN SELECT RAISE(ABORT, 'tt_events: seq must be the next number of its game'); END
    """,
    """
    CREATE TRIGGER tt_events_count_version AFTER INSERT ON tt_events
    BEGIN UPDATE tt_games SET version = NEW.seq WHERE id = NEW.game_id; END
    """,
    """
    CREATE TRIGGER tt_events_no_update BEFORE UPDATE ON tt_events
    BEGIN SELECT RAISE(ABORT, 'game-night events are append-only'); END
    """,
    """
    CREATE TRIGGER tt_events_no_delete BEFORE DELETE ON tt_events
    WHEN (SELECT status FROM tt_games WHERE id = OLD.game_id) IS NOT 'deleting'
    BEGIN SELECT RAISE(ABORT, 'game-night events leave only with their game'); END
    """,
    *_generation_triggers((("tt_games", ("INSERT", "UPDATE", "DELETE")),
                           ("tt_seats", ("INSERT", "UPDATE", "DELETE")),
                           ("tt_bgg_ids", ("INSERT", "UPDATE", "DELETE")))),
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3, _V4, _V5)
SCHEMA_VERSION = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the database up to :data:`SCHEMA_VERSION`; return the version found before.

    ``conn`` must be in autocommit mode (``isolation_level=None``). Safe against concurrent
    openers: the version is re-read inside the write transaction. A file from a newer companion
    raises :class:`SchemaTooNewError` and is not touched.
    """
    found = schema_version(conn)
    if found > SCHEMA_VERSION:
        raise SchemaTooNewError(found, SCHEMA_VERSION)
    if found == SCHEMA_VERSION:
        return found
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = schema_version(conn)  # another process may have migrated meanwhile
        if current > SCHEMA_VERSION:
            raise SchemaTooNewError(current, SCHEMA_VERSION)
        for version in range(current, SCHEMA_VERSION):
            for statement in MIGRATIONS[version]:
                conn.execute(statement)
        # PRAGMA does not take parameters; the value is our own integer.
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return found
