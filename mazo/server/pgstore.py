"""The tables' store in PostgreSQL, for the scale-out mode (several ``mazo serve`` processes).

The same tables as the SQLite store (one schema, :mod:`mazo.server.schema`), reached with
psycopg 3's async driver through a small connection pool, so a query that waits holds up
only the table that asked.  Each method is one short transaction.

Durability: the connections run with ``synchronous_commit = off``, the same bargain as the
SQLite store's ``synchronous=NORMAL``: a committed action survives the ``mazo serve``
process being killed (it is in PostgreSQL's memory and WAL buffers, written within a
fraction of a second); a crash of PostgreSQL itself or a power cut may lose the last
fraction of a second of actions, and never corrupts anything.  It spares every action
a wait for the disk, which under load (or on a busy disk) is most of its cost.  A URL
that names ``synchronous_commit`` itself (``?options=-c%20synchronous_commit%3Don``)
keeps its own choice.

Its version is the one row of ``mazo_schema``; the migrations run in one transaction under
an advisory lock, so processes that start together migrate once (the others wait, then
find the schema current).

Leases: the process that runs an unfinished table holds ``owner`` and ``lease_until`` on
its row.  Times of leases are read from the database's clock (``clock_timestamp()``), the
one clock all processes share; ``created``, ``at`` and ``finished_at`` are epoch seconds of
the writing process's clock, as in SQLite.  An action commits only while its writer holds
the lease: the row is locked, then checked, in the insert's transaction, so a process
taking the table over waits for that insert to commit (and then replays it) or makes it
fail with :class:`~mazo.server.store.LeaseLost`; ``(table_id, n)`` being the primary key
keeps one order of actions whatever happens.

Every error of the database (or of the pool: no connection in time) is a
:class:`~mazo.server.store.StoreError` saying which call failed; a stored row that cannot
be read (JSON that does not parse) is ``ValueError``, as with SQLite.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg.rows import TupleRow
from psycopg_pool import AsyncConnectionPool

from mazo.server import rows as q
from mazo.server.rows import ActionRow, TableRow
from mazo.server.schema import SCHEMA_VERSION, base, migration
from mazo.server.store import LeaseLost, StoreError

__all__ = ["PostgresStore", "is_postgres_url"]

Connection = psycopg.AsyncConnection[TupleRow]

# pg_advisory_xact_lock key of the migrations ("mazo" in ASCII): one per database, held
# until the migrating transaction ends.
MIGRATION_LOCK: Final = 0x6D617A6F
# The database's clock in epoch seconds. clock_timestamp(), not now(): now() is frozen at
# the start of the transaction, which may have waited for a row lock.
NOW: Final = "extract(epoch from clock_timestamp())::double precision"


def is_postgres_url(url: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (anything else is a SQLite path)."""
    return url.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


class PostgresStore:
    """:class:`~mazo.server.store.TableStore` in PostgreSQL (``url``: a libpq URL,
    ``postgresql://user:password@host:port/database``).

    ``min_size``/``max_size`` bound the pool's connections; ``timeout`` is how long a
    call waits for a connection (and :meth:`open` for the first one) before it fails."""

    kind = "postgresql"

    def __init__(
        self, url: str, *, min_size: int = 2, max_size: int = 10, timeout: float = 10.0
    ) -> None:
        self.url = url
        self.min_size = min_size
        self.max_size = max_size
        self.timeout = timeout
        self._pool: AsyncConnectionPool[Connection] | None = None

    def _connect_options(self) -> dict[str, str]:
        options = {"application_name": "mazo"}
        if "synchronous_commit" not in self.url:
            options["options"] = "-c synchronous_commit=off"  # see the module's docstring
        return options

    # -- life cycle -------------------------------------------------------------------

    async def open(self) -> None:
        """Connect, create or migrate the schema, then open the pool. A database that
        cannot be reached raises :class:`StoreError` with libpq's reason at once (a pool
        would retry in the background and only say that it timed out)."""
        if self._pool is not None:
            return
        try:
            conn = await psycopg.AsyncConnection.connect(
                self.url, connect_timeout=max(1, round(self.timeout)), application_name="mazo"
            )
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to PostgreSQL at {redact(self.url)}: {exc}") from exc
        try:
            async with conn:
                await self._migrate(conn)
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL failed (migrating the schema): {exc}") from exc
        pool: AsyncConnectionPool[Connection] = AsyncConnectionPool(
            self.url,
            min_size=self.min_size,
            max_size=self.max_size,
            timeout=self.timeout,
            kwargs=self._connect_options(),
            # a connection the server dropped (restart, failover) is replaced before use
            # instead of failing the call that gets it
            check=AsyncConnectionPool.check_connection,
            open=False,
            name="mazo",
        )
        try:
            await pool.open(wait=True, timeout=self.timeout)
        except BaseException as exc:
            # cancelled too: a pool left open keeps tasks that hang asyncio.run's end
            await pool.close()
            if isinstance(exc, psycopg.Error):
                raise StoreError(f"PostgreSQL failed (opening the pool): {exc}") from exc
            raise
        self._pool = pool

    async def _migrate(self, conn: Connection) -> None:
        async with conn.transaction():
            # Everything below waits for any other process migrating the same database.
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            await conn.execute("CREATE TABLE IF NOT EXISTS mazo_schema (version INTEGER NOT NULL)")
            row = await (await conn.execute("SELECT version FROM mazo_schema")).fetchone()
            if row is None:
                await conn.execute(base("postgresql"))
                await conn.execute("INSERT INTO mazo_schema (version) VALUES (0)")
                version = 0
            else:
                version = int(row[0])
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"the database's schema is at version {version}, newer than this mazo's"
                    f" ({SCHEMA_VERSION}): run the newer mazo"
                )
            for step in range(version, SCHEMA_VERSION):
                await conn.execute(migration(step, "postgresql"))
            if version < SCHEMA_VERSION:
                await conn.execute("UPDATE mazo_schema SET version = %s", (SCHEMA_VERSION,))

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    @asynccontextmanager
    async def _transaction(self, what: str) -> AsyncIterator[Connection]:
        """A pooled connection in a transaction: committed when the block ends, rolled back
        when it raises; psycopg's errors become StoreError naming the call."""
        if self._pool is None:
            raise StoreError(f"the database is not open ({what})")
        try:
            async with self._pool.connection() as conn:
                yield conn
        except psycopg.Error as exc:
            raise StoreError(f"PostgreSQL failed ({what}): {exc}") from exc

    async def check(self) -> None:
        async with self._transaction("check") as conn:
            await conn.execute("SELECT 1 FROM tables LIMIT 1")

    # -- tables -----------------------------------------------------------------------

    async def create_table(
        self,
        table: TableRow,
        rematch_of: str | None = None,
        owner: str | None = None,
        ttl: float = 0,
    ) -> None:
        """Store a new table, its seats, (rematch) the old table's ``next``, and (``owner``
        given) its lease for ``ttl`` seconds, in one transaction."""
        async with self._transaction("create_table") as conn:
            await conn.execute(q.INSERT_TABLE, q.table_params(table))
            if owner is not None:
                await conn.execute(
                    f"UPDATE tables SET owner = %s, lease_until = {NOW} + %s WHERE id = %s",
                    (owner, float(ttl), table.id),
                )
            async with conn.cursor() as cur:
                await cur.executemany(q.INSERT_SEAT, q.seat_params(table))
            if rematch_of is not None:
                await conn.execute(q.SET_NEXT, (table.id, rematch_of))

    async def append_action(
        self,
        table_id: str,
        n: int,
        seat: int,
        action: str,
        finished_at: float | None = None,
        owner: str | None = None,
    ) -> None:
        """Commit action ``n`` (1-based) and, when it ended the match (``finished_at``),
        the table's end, in one transaction. With ``owner``: only while ``owner`` holds a
        live lease on the table, else :class:`LeaseLost` and nothing is written. A
        duplicate ``n`` is a :class:`StoreError`."""
        async with self._transaction("append_action") as conn:
            if owner is not None:
                # The row lock makes a takeover (acquire: an UPDATE of this row) wait until
                # this action is committed, and this check wait for a takeover in progress.
                held = await (
                    await conn.execute(
                        "SELECT 1 FROM tables WHERE id = %s AND owner = %s"
                        f" AND lease_until > {NOW} FOR NO KEY UPDATE",
                        (table_id, owner),
                    )
                ).fetchone()
                if held is None:
                    raise LeaseLost(
                        f"table {table_id}: {owner} no longer holds its lease (action {n} not"
                        " written)"
                    )
            await conn.execute(q.INSERT_ACTION, (table_id, n, seat, action, time.time()))
            if finished_at is not None:
                await conn.execute(q.FINISH, (finished_at, table_id))

    async def mark_closed(self, table_id: str, reason: str, at: float) -> None:
        """The server closed the unfinished match (kept, no longer played)."""
        async with self._transaction("mark_closed") as conn:
            await conn.execute(q.CLOSE, (at, reason, table_id))

    async def set_seat(self, table_id: str, seat: int, name: str, token_hash: str | None) -> None:
        async with self._transaction("set_seat") as conn:
            await conn.execute(q.SET_SEAT, (name, token_hash, table_id, seat))

    async def load_table(self, table_id: str) -> tuple[TableRow, list[ActionRow]] | None:
        """The table, its seats and its actions in order, or None if there is no such
        table; ValueError for a row whose JSON does not parse."""
        async with self._transaction("load_table") as conn:
            # one snapshot for the three reads: the actions match the row's `finished`
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            row = await (await conn.execute(q.SELECT_TABLE, (table_id,))).fetchone()
            if row is None:
                return None
            seats = await (await conn.execute(q.SELECT_SEATS, (table_id,))).fetchall()
            actions = await (await conn.execute(q.SELECT_ACTIONS, (table_id,))).fetchall()
        return q.read_table(row, seats, actions)

    async def exists(self, table_id: str) -> bool:
        async with self._transaction("exists") as conn:
            row = await (await conn.execute(q.EXISTS, (table_id,))).fetchone()
        return row is not None

    async def table_ids(
        self, *, unfinished_only: bool = False, public_only: bool = False
    ) -> list[str]:
        """Table ids, newest first."""
        query = q.ids_query(unfinished_only=unfinished_only, public_only=public_only)
        return await self._ids("table_ids", query)

    async def finished_public_ids(self, limit: int = 20) -> list[str]:
        """Public finished tables, the most recently finished first, at most ``limit``."""
        # NULLS LAST: SQLite's order (a NULL is smaller than any number there)
        return await self._ids(
            "finished_public_ids",
            "SELECT id FROM tables WHERE finished = 1 AND public = 1 AND closed IS NULL"
            " ORDER BY finished_at DESC NULLS LAST, created DESC LIMIT %s",
            (limit,),
        )

    async def _ids(self, what: str, query: str, params: tuple[Any, ...] = ()) -> list[str]:
        async with self._transaction(what) as conn:
            rows = await (await conn.execute(query, params)).fetchall()
        return [r[0] for r in rows]

    # -- leases -----------------------------------------------------------------------

    async def acquire(self, table_id: str, owner: str, ttl: float) -> bool:
        """Take the lease of unfinished table ``table_id`` for ``ttl`` seconds if nobody
        holds it, its lease expired, or ``owner`` already holds it (then it is extended);
        False when another owner's lease is live, or there is no such table.

        A finished table is True without a lease: nothing will be written to it any more,
        so whoever asks may serve it (read only) and nobody needs to own it."""
        async with self._transaction("acquire") as conn:
            row = await (
                await conn.execute(
                    "WITH taken AS ("
                    f" UPDATE tables SET owner = %s, lease_until = {NOW} + %s"
                    " WHERE id = %s AND finished = 0 AND (owner IS NULL OR owner = %s"
                    f" OR lease_until IS NULL OR lease_until < {NOW}) RETURNING id)"
                    " SELECT EXISTS (SELECT 1 FROM taken)"
                    " OR EXISTS (SELECT 1 FROM tables WHERE id = %s AND finished = 1)",
                    (owner, float(ttl), table_id, owner, table_id),
                )
            ).fetchone()
        return bool(row and row[0])

    async def renew(self, owner: str, ttl: float) -> set[str]:
        """Extend by ``ttl`` seconds every lease ``owner`` holds on an unfinished table;
        the ids of those tables (a table missing from them was taken over: stop running
        it). A lease that expired but that nobody took yet is ``owner``'s again."""
        async with self._transaction("renew") as conn:
            rows = await (
                await conn.execute(
                    f"UPDATE tables SET lease_until = {NOW} + %s"
                    " WHERE owner = %s AND finished = 0 RETURNING id",
                    (float(ttl), owner),
                )
            ).fetchall()
        return {r[0] for r in rows}

    async def release(self, owner: str, table_ids: Iterable[str] | None = None) -> None:
        """Give up ``owner``'s leases (all of them, or those of ``table_ids``): another
        process may take the tables at once instead of after the lease's expiry."""
        ids = None if table_ids is None else list(table_ids)
        if ids == []:
            return
        async with self._transaction("release") as conn:
            if ids is None:
                await conn.execute(
                    "UPDATE tables SET owner = NULL, lease_until = NULL WHERE owner = %s",
                    (owner,),
                )
            else:
                await conn.execute(
                    "UPDATE tables SET owner = NULL, lease_until = NULL"
                    " WHERE owner = %s AND id = ANY(%s)",
                    (owner, ids),
                )

    async def orphans(self, limit: int = 100) -> list[str]:
        """Unfinished tables nobody runs (no owner, or the lease expired), the oldest
        created first, at most ``limit``."""
        return await self._ids(
            "orphans",
            "SELECT id FROM tables WHERE finished = 0 AND (owner IS NULL"
            f" OR lease_until IS NULL OR lease_until < {NOW}) ORDER BY created LIMIT %s",
            (limit,),
        )
