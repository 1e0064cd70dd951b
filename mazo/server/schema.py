"""The one schema of the tables' store, for SQLite and PostgreSQL alike.

The schema is :data:`BASE` (version 0, the first release's tables, created if missing)
and then its ordered migrations: ``MIGRATIONS[k]`` brings a database at version ``k`` to
``k + 1``, and a new database runs them all.  Each is written once, with placeholders for
the few types the two databases spell differently:

- ``{real}``: a float (epoch seconds): SQLite ``REAL``, PostgreSQL ``DOUBLE PRECISION``
  (PostgreSQL's ``REAL`` is 4 bytes, too coarse for a timestamp);
- ``{bigint}``: a 64-bit int (a seed up to 2**63-1): SQLite ``INTEGER``, PostgreSQL ``BIGINT``.

SQLite keeps its version in ``PRAGMA user_version`` (files written before this module
existed are at version 1 or 2 and keep working: the numbering is theirs); PostgreSQL in
the table ``mazo_schema``.
"""

from __future__ import annotations

__all__ = ["BASE", "MIGRATIONS", "SCHEMA_VERSION", "TYPES", "base", "migration"]

TYPES: dict[str, dict[str, str]] = {
    "sqlite": {"real": "REAL", "bigint": "INTEGER"},
    "postgresql": {"real": "DOUBLE PRECISION", "bigint": "BIGINT"},
}

# Version 0: the tables, their seats, their ordered actions.
BASE = """
    CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        players INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed {bigint} NOT NULL,
        title TEXT NOT NULL,
        public INTEGER NOT NULL,
        created {real} NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        level TEXT,
        name TEXT NOT NULL,
        token_hash TEXT,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL REFERENCES tables(id),
        n INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        at {real} NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    CREATE INDEX IF NOT EXISTS tables_open ON tables (finished, public, created);
"""

MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: table settings (JSON; an empty object for old tables: the defaults), when the match
    # ended (old finished tables: their last action's time), the rematch that followed.
    """
    ALTER TABLE tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{{}}';
    ALTER TABLE tables ADD COLUMN finished_at {real};
    ALTER TABLE tables ADD COLUMN next TEXT;
    UPDATE tables SET finished_at =
        (SELECT MAX(a.at) FROM actions a WHERE a.table_id = tables.id) WHERE finished = 1;
    """,
    # 1 -> 2: why an unfinished match was closed ('abandoned': nobody there for too
    # long); NULL for every match that ended by its rules.
    """
    ALTER TABLE tables ADD COLUMN closed TEXT;
    """,
    # 2 -> 3: the lease (scale-out mode): the process that runs the table, and until when
    # (epoch seconds on the database's clock). Unused, and NULL, with SQLite.
    """
    ALTER TABLE tables ADD COLUMN owner TEXT;
    ALTER TABLE tables ADD COLUMN lease_until {real};
    CREATE INDEX IF NOT EXISTS tables_owner ON tables (owner);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def base(dialect: str) -> str:
    """The version-0 tables in ``dialect``'s SQL (each created only if missing)."""
    return BASE.format(**TYPES[dialect])


def migration(step: int, dialect: str) -> str:
    """Migration ``step`` (from version ``step`` to ``step + 1``) in ``dialect``'s SQL."""
    return MIGRATIONS[step].format(**TYPES[dialect])
