"""The tables' durable store: one SQLite file, written before anything is broadcast.

A table is its creation row, its seats and its ordered actions; the server rebuilds the
live state by replaying the actions through the engine, so nothing but the actions has to
be kept in step with the game.  The file runs in WAL mode with ``synchronous=NORMAL``:
each action is one short transaction that survives the server process being killed (the
restart test kills it); only a power cut could lose the last few, which a card table can
afford.

Tokens are stored as SHA-256 digests: a copy of the database does not let anyone act.

The schema (:mod:`mazo.server.schema`, shared with PostgreSQL) has a version (``PRAGMA
user_version``); its migrations bring an older file up to date when it is opened, so a
database written by an earlier ``mazo serve`` keeps working.

:class:`Store` is synchronous (tests read files with it); the server uses it through
:class:`ThreadedStore`, which runs every call on one thread of its own, so a database that
waits (a slow disk, a lock held by a backup) never holds up the event loop and the other
tables.  Both stores of the server (this one and :class:`mazo.server.pgstore.PostgresStore`)
follow :class:`TableStore`.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from mazo.server import rows as q
from mazo.server.rows import ActionRow, SeatRow, TableRow
from mazo.server.schema import SCHEMA_VERSION, base, migration

__all__ = [
    "ActionRow",
    "DatabaseInUse",
    "DatabaseLock",
    "LeaseLost",
    "SeatRow",
    "Store",
    "StoreError",
    "TableRow",
    "TableStore",
    "ThreadedStore",
    "is_postgres_url",
    "redact",
    "token_digest",
]


# The version-0 tables in SQLite's spelling (tests write old files with it).
SCHEMA = base("sqlite")


class StoreError(Exception):
    """The database failed (the message says how); nothing of the call was committed."""


class LeaseLost(StoreError):
    """A write for a table this process no longer owns (another process took its lease)."""


class DatabaseInUse(RuntimeError):
    """Another server holds the database file (the message says which file and process)."""


class DatabaseLock:
    """One server per SQLite file: an exclusive ``flock`` on ``<db>.lock``, held for the
    server's life. The kernel drops it when the holder's process ends, however it ends
    (kill -9 included), so a crash never leaves a stale lock behind. ``":memory:"`` needs
    none. ``acquire`` raises :class:`DatabaseInUse`; acquiring a held lock does nothing."""

    def __init__(self, db_path: str | Path) -> None:
        self.db_path = str(db_path)
        self.path = None if self.db_path in ("", ":memory:") else self.db_path + ".lock"
        self._file: Any = None

    @property
    def held(self) -> bool:
        return self._file is not None

    def acquire(self) -> None:
        if self.path is None or self._file is not None:
            return
        f = open(self.path, "a+")  # noqa: SIM115 (held open for the server's life)
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.seek(0)
            holder = f.read().strip()
            f.close()
            who = f" (process {holder})" if holder.isdigit() else ""
            raise DatabaseInUse(
                f"another mazo serve{who} is already using the database {self.db_path}:"
                " two servers on one SQLite file would both run its tables. Stop that one,"
                " or give this one another --db."
            ) from None
        f.seek(0)
        f.truncate()
        f.write(f"{os.getpid()}\n")
        f.flush()
        self._file = f

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file drops the flock
            self._file = None


def is_postgres_url(url: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (anything else is a SQLite path)."""
    return url.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """A URL without its password (for messages and logs)."""
    if "@" not in url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    creds, host = rest.rsplit("@", 1)
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}" if ":" in creds else url


def token_digest(token: str) -> str:
    """What the store keeps of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    """Every read and write the server makes to its database."""

    def __init__(
        self, path: str | Path, busy_timeout: float = 5.0, checkpoints: bool = True
    ) -> None:
        """``busy_timeout``: seconds a call waits for another connection's write lock
        before it fails (0: at once); ``checkpoints``: whether this connection's commits
        fold the WAL back into the file when it grows (else someone else must)."""
        self.path = str(path)
        # One thread at a time uses a connection; check_same_thread=False lets the app
        # be built in one thread and served in another (tests, uvicorn's startup).
        self.db = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=busy_timeout
        )
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        if not checkpoints:
            self.db.execute("PRAGMA wal_autocheckpoint=0")
        self.db.executescript(base("sqlite"))
        self._migrate()

    def _migrate(self) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        for step in range(version, SCHEMA_VERSION):
            # executescript commits first and runs in autocommit: wrap each step so a
            # crash leaves the file at the old version, not half migrated.
            self.db.executescript(
                f"BEGIN; {migration(step, 'sqlite')} PRAGMA user_version = {step + 1}; COMMIT;"
            )

    def close(self) -> None:
        self.db.close()

    def check(self) -> None:
        """A cheap query (the health check); raises sqlite3.Error when the file fails."""
        self.db.execute("SELECT COUNT(*) FROM (SELECT 1 FROM tables LIMIT 1)").fetchone()

    def create_table(self, table: TableRow, rematch_of: str | None = None) -> None:
        """Store a new table (and, for a rematch, point the old table's ``next`` at it in
        the same transaction)."""
        with self._transaction():
            self.db.execute(q.for_sqlite(q.INSERT_TABLE), q.table_params(table))
            self.db.executemany(q.for_sqlite(q.INSERT_SEAT), q.seat_params(table))
            if rematch_of is not None:
                self.db.execute(q.for_sqlite(q.SET_NEXT), (table.id, rematch_of))

    def append_action(
        self, table_id: str, n: int, seat: int, action: str, finished_at: float | None = None
    ) -> None:
        """Commit action number ``n`` (1-based: the version it creates) and, when it ended
        the match (``finished_at``), the table's end, in one transaction."""
        with self._transaction():
            self.db.execute(q.for_sqlite(q.INSERT_ACTION), (table_id, n, seat, action, time.time()))
            if finished_at is not None:
                self.db.execute(q.for_sqlite(q.FINISH), (finished_at, table_id))

    def exists(self, table_id: str) -> bool:
        return self.db.execute(q.for_sqlite(q.EXISTS), (table_id,)).fetchone() is not None

    def mark_finished(self, table_id: str, at: float) -> None:
        self.db.execute(q.for_sqlite(q.FINISH), (at, table_id))

    def mark_closed(self, table_id: str, reason: str, at: float) -> None:
        """The server closed the unfinished match (kept, no longer played)."""
        self.db.execute(q.for_sqlite(q.CLOSE), (at, reason, table_id))

    def set_seat(self, table_id: str, seat: int, name: str, token_hash: str | None) -> None:
        self.db.execute(q.for_sqlite(q.SET_SEAT), (name, token_hash, table_id, seat))

    def load_table(self, table_id: str) -> tuple[TableRow, list[ActionRow]] | None:
        row = self.db.execute(q.for_sqlite(q.SELECT_TABLE), (table_id,)).fetchone()
        if row is None:
            return None
        seats = self.db.execute(q.for_sqlite(q.SELECT_SEATS), (table_id,)).fetchall()
        actions = self.db.execute(q.for_sqlite(q.SELECT_ACTIONS), (table_id,)).fetchall()
        return q.read_table(row, seats, actions)

    def table_ids(self, *, unfinished_only: bool = False, public_only: bool = False) -> list[str]:
        """Table ids, newest first."""
        query = q.ids_query(unfinished_only=unfinished_only, public_only=public_only)
        return [r[0] for r in self.db.execute(query)]

    def finished_public_ids(self, limit: int = 20) -> list[str]:
        """Public finished tables, the most recently finished first, at most ``limit``."""
        return [
            r[0]
            for r in self.db.execute(
                "SELECT id FROM tables WHERE finished = 1 AND public = 1 AND closed IS NULL"
                " ORDER BY finished_at DESC, created DESC LIMIT ?",
                (limit,),
            )
        ]

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


class _Transaction:
    """BEGIN ... COMMIT (ROLLBACK on error) for the autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN")

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


T = TypeVar("T")
CHECKPOINT_EVERY = 1000  # writes on the loop's connection between two checkpoints


class TableStore(Protocol):
    """What the server needs of a database, all async (nothing that waits on the database
    may hold up the event loop). Errors of the database itself are :class:`StoreError`;
    a stored row that cannot be read is ``ValueError``/``TypeError`` (the table is
    quarantined, the rest goes on).

    Leases (scale-out mode): exactly one process at a time owns an unfinished table; it
    holds ``owner`` and ``lease_until`` (database clock) on the table's row, renews them,
    and every action it commits is fenced by them (:class:`LeaseLost` when another
    process took the table). With one process (SQLite) they are no-ops that say yes."""

    kind: str

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def check(self) -> None: ...
    async def create_table(
        self,
        table: TableRow,
        rematch_of: str | None = None,
        owner: str | None = None,
        ttl: float = 0,
    ) -> None: ...
    async def append_action(
        self,
        table_id: str,
        n: int,
        seat: int,
        action: str,
        finished_at: float | None = None,
        owner: str | None = None,
    ) -> None: ...
    async def mark_closed(self, table_id: str, reason: str, at: float) -> None: ...
    async def set_seat(
        self, table_id: str, seat: int, name: str, token_hash: str | None
    ) -> None: ...
    async def load_table(self, table_id: str) -> tuple[TableRow, list[ActionRow]] | None: ...
    async def exists(self, table_id: str) -> bool: ...
    async def table_ids(
        self, *, unfinished_only: bool = False, public_only: bool = False
    ) -> list[str]: ...
    async def finished_public_ids(self, limit: int = 20) -> list[str]: ...
    async def acquire(self, table_id: str, owner: str, ttl: float) -> bool: ...
    async def renew(self, owner: str, ttl: float) -> set[str]: ...
    async def release(self, owner: str, table_ids: Iterable[str] | None = None) -> None: ...
    async def orphans(self, limit: int = 100) -> list[str]: ...


class ThreadedStore:
    """The SQLite :class:`Store` for the server: nothing that waits on the database runs
    on the event loop. ``sqlite3.Error`` becomes :class:`StoreError`.

    Two connections to the file. The store's thread has one, with the usual busy timeout:
    reads (loading a table, lists), checkpoints, and any write that could not be made at
    once run there, and the event loop awaits them. The loop has the other, with no busy
    timeout at all: a short write (an action, a seat, a new table) is tried there first,
    and when another connection holds the file's write lock (a backup, the store's
    thread) it fails at once and goes to the thread to wait. In the common case a write
    is then a few tens of microseconds on the loop (WAL, ``synchronous=NORMAL``: no disk
    wait), where a hop to a thread and back cost far more under load: in
    ``bench/load_server.py`` at 1,000 tables, p99 340 ms with every call on the thread
    against 70 ms. The loop's connection never checkpoints (that can wait for the disk);
    the thread folds the WAL back into the file every CHECKPOINT_EVERY writes."""

    kind = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.store: Store | None = None  # the thread's connection
        self.fast: Store | None = None  # the event loop's connection
        self._writes = 0  # writes on the loop's connection since the last checkpoint
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mazo-sqlite")
        # Tests break the database on purpose: a function here is called before each
        # call with the call's name, and may raise sqlite3.Error.
        self.fault: Callable[[str], None] | None = None

    async def _run(self, name: str, *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, self._call, name, args, kwargs)

    async def _write(self, name: str, *args: Any) -> None:
        """A short write: on the loop's connection if the file's write lock is free now,
        else on the thread (which waits for it)."""
        fast = self.fast
        if fast is not None:
            try:
                if self.fault is not None:
                    self.fault(name)
                getattr(fast, name)(*args)
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise StoreError(f"the database failed ({name}): {exc}") from exc
            except sqlite3.Error as exc:
                raise StoreError(f"the database failed ({name}): {exc}") from exc
            else:
                self._writes += 1
                if self._writes >= CHECKPOINT_EVERY:
                    self._writes = 0
                    self._pool.submit(self._checkpoint)
                return
        await self._run(name, *args)

    def _checkpoint(self) -> None:
        """Fold the WAL back into the file (on the thread; it may wait for the disk)."""
        with contextlib.suppress(sqlite3.Error):
            if self.store is not None:
                self.store.db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        try:
            if self.fault is not None:
                self.fault(name)
            if self.store is None:
                raise StoreError("the database is not open")
            return getattr(self.store, name)(*args, **kwargs)
        except sqlite3.Error as exc:
            raise StoreError(f"the database failed ({name}): {exc}") from exc

    def open_now(self) -> None:
        """Open the file in the calling thread (building the app: a file that cannot be
        opened stops the server before it listens, with the reason)."""
        if self.store is None:
            self.store = Store(self.path)
            self.fast = Store(self.path, busy_timeout=0, checkpoints=False)

    async def open(self) -> None:
        if self.store is None:
            await asyncio.get_running_loop().run_in_executor(self._pool, self.open_now)

    async def close(self) -> None:
        if self.fast is not None:
            fast, self.fast = self.fast, None
            fast.close()
        if self.store is not None:
            store, self.store = self.store, None
            await asyncio.get_running_loop().run_in_executor(self._pool, store.close)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True)

    async def check(self) -> None:
        await self._run("check")

    async def create_table(
        self,
        table: TableRow,
        rematch_of: str | None = None,
        owner: str | None = None,
        ttl: float = 0,
    ) -> None:
        await self._write("create_table", table, rematch_of)

    async def append_action(
        self,
        table_id: str,
        n: int,
        seat: int,
        action: str,
        finished_at: float | None = None,
        owner: str | None = None,
    ) -> None:
        await self._write("append_action", table_id, n, seat, action, finished_at)

    async def mark_closed(self, table_id: str, reason: str, at: float) -> None:
        await self._write("mark_closed", table_id, reason, at)

    async def set_seat(self, table_id: str, seat: int, name: str, token_hash: str | None) -> None:
        await self._write("set_seat", table_id, seat, name, token_hash)

    async def load_table(self, table_id: str) -> tuple[TableRow, list[ActionRow]] | None:
        result: tuple[TableRow, list[ActionRow]] | None = await self._run("load_table", table_id)
        return result

    async def exists(self, table_id: str) -> bool:
        return bool(await self._run("exists", table_id))

    async def table_ids(
        self, *, unfinished_only: bool = False, public_only: bool = False
    ) -> list[str]:
        ids: list[str] = await self._run(
            "table_ids", unfinished_only=unfinished_only, public_only=public_only
        )
        return ids

    async def finished_public_ids(self, limit: int = 20) -> list[str]:
        ids: list[str] = await self._run("finished_public_ids", limit)
        return ids

    # One process owns every table of a SQLite file (DatabaseLock): leases say yes.
    async def acquire(self, table_id: str, owner: str, ttl: float) -> bool:
        return True

    async def renew(self, owner: str, ttl: float) -> set[str]:
        return set()

    async def release(self, owner: str, table_ids: Iterable[str] | None = None) -> None:
        return None

    async def orphans(self, limit: int = 100) -> list[str]:
        return []
