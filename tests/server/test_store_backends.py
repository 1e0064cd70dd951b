"""One conformance suite for both stores of the server: SQLite (:class:`ThreadedStore`) and
PostgreSQL (:class:`PostgresStore`, on a fresh database from the ``pg_url`` fixture: skipped
without a server, failed without one when ``MAZO_REQUIRE_SERVICES=1``).

Each test is sync and runs its scenario with ``asyncio.run``; the leases, which SQLite does
not have (one process owns every table there), are tested on PostgreSQL, with SQLite's
answers checked to be the yes-saying no-ops the protocol asks for.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from mazo.server.schema import SCHEMA_VERSION
from mazo.server.store import (
    LeaseLost,
    SeatRow,
    StoreError,
    TableRow,
    TableStore,
    ThreadedStore,
)

T = TypeVar("T")


@dataclass
class Backend:
    kind: str
    make: Callable[[], TableStore]  # a new, unopened store on the test's database
    sql: Callable[[str], list[tuple[Any, ...]]]  # a raw statement (committed), its rows

    def run(self, body: Callable[[TableStore], Awaitable[T]]) -> T:
        """``body`` with an open store, closed after."""

        async def main() -> T:
            store = self.make()
            await store.open()
            try:
                return await body(store)
            finally:
                await close(store)

        return asyncio.run(main())


async def close(store: TableStore) -> None:
    await store.close()
    if isinstance(store, ThreadedStore):
        store.shutdown()


def sqlite_backend(path: Path) -> Backend:
    def sql(statement: str) -> list[tuple[Any, ...]]:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            return db.execute(statement).fetchall()
        finally:
            db.close()

    return Backend("sqlite", lambda: ThreadedStore(path), sql)


def postgres_backend(url: str) -> Backend:
    import psycopg

    from mazo.server.pgstore import PostgresStore

    def sql(statement: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(url, autocommit=True) as conn:
            cur = conn.execute(statement)  # type: ignore[arg-type]
            return cur.fetchall() if cur.description else []

    return Backend("postgresql", lambda: PostgresStore(url), sql)


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    if request.param == "sqlite":
        yield sqlite_backend(tmp_path / "tables.sqlite3")
    else:
        # only the PostgreSQL case asks for a server (and skips or fails without one)
        yield postgres_backend(request.getfixturevalue("pg_url"))


@pytest.fixture
def pg(pg_url: str) -> Backend:
    return postgres_backend(pg_url)


def table(
    table_id: str,
    created: float = 1000.0,
    *,
    public: bool = True,
    options: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
) -> TableRow:
    return TableRow(
        id=table_id,
        game="briscola",
        players=2,
        options={"variant": "classic"} if options is None else options,
        seed=2**63 - 1,  # the largest seed: BIGINT in PostgreSQL
        title=f"Table {table_id} · ñ",
        public=public,
        created=created,
        finished=False,
        seats=[
            SeatRow(seat=0, kind="human", level=None, name="Ana", token_hash="a" * 64),
            SeatRow(seat=1, kind="bot", level="normal", name="Bot 2", token_hash=None),
        ],
        settings={} if settings is None else settings,
    )


# -- tables ---------------------------------------------------------------------------


def test_create_and_load_round_trip(backend: Backend) -> None:
    async def body(store: TableStore) -> None:
        assert store.kind == backend.kind
        await store.check()
        first = table(
            "t1",
            1234.5678,
            options={"target": 61, "nested": {"a": [1, 2]}},
            settings={"timer": 30, "autoplay": True},
        )
        await store.create_table(first)
        loaded = await store.load_table("t1")
        assert loaded is not None
        row, actions = loaded
        assert actions == []
        assert row == first  # every field: seats, options, settings, created to the bit
        assert (row.finished, row.finished_at, row.next, row.closed) == (False, None, None, None)
        assert await store.load_table("missing") is None
        # a rematch points the old table at the new one, in the same call
        await store.create_table(table("t2", 2000.0, public=False), rematch_of="t1")
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded[0].next == "t2"
        loaded = await store.load_table("t2")
        assert loaded is not None and loaded[0].public is False and loaded[0].next is None
        # the same id twice is the database's error, and leaves the first table alone
        with pytest.raises(StoreError):
            await store.create_table(table("t1", 9.0, options={"other": 1}))
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded[0].options == first.options

    backend.run(body)


def test_actions_in_order_and_a_duplicate_refused(backend: Backend) -> None:
    async def body(store: TableStore) -> None:
        await store.create_table(table("t1"))
        for n, (seat, action) in enumerate([(0, "play 3"), (1, "play 7"), (0, "play 1")], 1):
            await store.append_action("t1", n, seat, action)
        with pytest.raises(StoreError):
            await store.append_action("t1", 2, 1, "play 9")
        loaded = await store.load_table("t1")
        assert loaded is not None
        assert [(a.n, a.seat, a.action) for a in loaded[1]] == [
            (1, 0, "play 3"),
            (2, 1, "play 7"),
            (3, 0, "play 1"),
        ]
        # read back in n's order, whatever the order of the inserts
        await store.append_action("t1", 5, 1, "five")
        await store.append_action("t1", 4, 0, "four")
        loaded = await store.load_table("t1")
        assert loaded is not None and [a.n for a in loaded[1]] == [1, 2, 3, 4, 5]
        # an action for a table that does not exist is refused
        with pytest.raises(StoreError):
            await store.append_action("nope", 1, 0, "play 3")

    backend.run(body)


def test_the_end_is_committed_with_its_action(backend: Backend) -> None:
    async def body(store: TableStore) -> None:
        await store.create_table(table("t1"))
        await store.append_action("t1", 1, 0, "play 3")
        # the last action fails (a duplicate n): the end it carried must not be written
        with pytest.raises(StoreError):
            await store.append_action("t1", 1, 0, "play 3", finished_at=5000.25)
        loaded = await store.load_table("t1")
        assert loaded is not None
        assert (loaded[0].finished, loaded[0].finished_at) == (False, None)
        assert await store.table_ids(unfinished_only=True) == ["t1"]
        await store.append_action("t1", 2, 1, "play 7", finished_at=5000.25)
        loaded = await store.load_table("t1")
        assert loaded is not None
        assert (loaded[0].finished, loaded[0].finished_at) == (True, 5000.25)
        assert [a.n for a in loaded[1]] == [1, 2]
        assert await store.table_ids(unfinished_only=True) == []
        assert await store.finished_public_ids() == ["t1"]

    backend.run(body)


def test_mark_closed_and_set_seat(backend: Backend) -> None:
    async def body(store: TableStore) -> None:
        await store.create_table(table("t1"))
        await store.create_table(table("t2", 2000.0))
        await store.set_seat("t1", 1, "Luis", "b" * 64)
        await store.set_seat("t1", 0, "", None)
        loaded = await store.load_table("t1")
        assert loaded is not None
        assert [(s.seat, s.kind, s.level, s.name, s.token_hash) for s in loaded[0].seats] == [
            (0, "human", None, "", None),
            (1, "bot", "normal", "Luis", "b" * 64),
        ]
        await store.mark_closed("t2", "abandoned", 3000.5)
        loaded = await store.load_table("t2")
        assert loaded is not None
        row = loaded[0]
        assert (row.finished, row.finished_at, row.closed) == (True, 3000.5, "abandoned")
        # a closed match is not a finished one to show
        assert await store.finished_public_ids() == []
        assert await store.table_ids(unfinished_only=True) == ["t1"]

    backend.run(body)


def test_table_ids_filters_and_orders(backend: Backend) -> None:
    async def body(store: TableStore) -> None:
        # created out of order; a, c public; b private
        await store.create_table(table("c", 3000.0))
        await store.create_table(table("a", 1000.0))
        await store.create_table(table("b", 2000.0, public=False))
        await store.create_table(table("d", 4000.0))
        await store.create_table(table("e", 5000.0))
        assert await store.table_ids() == ["e", "d", "c", "b", "a"]
        assert await store.table_ids(public_only=True) == ["e", "d", "c", "a"]
        # finished: a last (6000), b (private), d first (7000), e closed
        await store.append_action("d", 1, 0, "x", finished_at=7000.0)
        await store.append_action("a", 1, 0, "x", finished_at=6000.0)
        await store.append_action("b", 1, 0, "x", finished_at=8000.0)
        await store.mark_closed("e", "abandoned", 9000.0)
        assert await store.table_ids(unfinished_only=True) == ["c"]
        assert await store.table_ids(unfinished_only=True, public_only=True) == ["c"]
        await store.create_table(table("f", 500.0, public=False))
        assert await store.table_ids(unfinished_only=True, public_only=True) == ["c"]
        assert await store.table_ids(unfinished_only=True) == ["c", "f"]
        assert await store.finished_public_ids() == ["d", "a"]
        assert await store.finished_public_ids(limit=1) == ["d"]
        assert await store.exists("a") and await store.exists("f")
        assert not await store.exists("zz")

    backend.run(body)


def test_a_corrupt_row_is_a_value_error(backend: Backend) -> None:
    async def create(store: TableStore) -> None:
        await store.create_table(table("t1"))
        await store.create_table(table("t2"))

    backend.run(create)
    backend.sql("UPDATE tables SET options = '{not json' WHERE id = 't1'")

    async def load(store: TableStore) -> None:
        with pytest.raises(ValueError):
            await store.load_table("t1")
        assert await store.load_table("t2") is not None  # the rest is readable

    backend.run(load)


def test_reopening_keeps_the_data_and_the_schema(backend: Backend) -> None:
    async def create(store: TableStore) -> None:
        await store.create_table(table("t1"))
        await store.append_action("t1", 1, 0, "play 3")

    backend.run(create)

    async def reopen(store: TableStore) -> None:
        loaded = await store.load_table("t1")
        assert loaded is not None and [a.n for a in loaded[1]] == [1]

    backend.run(reopen)
    if backend.kind == "sqlite":
        assert backend.sql("PRAGMA user_version") == [(SCHEMA_VERSION,)]
    else:
        assert backend.sql("SELECT version FROM mazo_schema") == [(SCHEMA_VERSION,)]
    # migration 3's lease columns are there
    backend.sql("SELECT owner, lease_until FROM tables")


def test_sqlite_leases_say_yes(tmp_path: Path) -> None:
    """One process owns every table of a SQLite file: the lease calls are no-ops."""

    async def body(store: TableStore) -> None:
        await store.create_table(table("t1"), owner="A", ttl=0.1)
        assert await store.acquire("t1", "A", 0.1)
        assert await store.acquire("t1", "B", 0.1)
        await asyncio.sleep(0.2)
        await store.append_action("t1", 1, 0, "play 3", owner="A")
        await store.append_action("t1", 2, 0, "play 1", owner="B")
        assert await store.orphans() == []
        await store.renew("A", 1.0)
        await store.release("A")

    sqlite_backend(tmp_path / "tables.sqlite3").run(body)


# -- PostgreSQL: migrations, leases, errors ---------------------------------------------


def test_postgres_processes_starting_together_migrate_once(pg: Backend, pg_url: str) -> None:
    from mazo.server.pgstore import PostgresStore

    async def main() -> None:
        stores = [PostgresStore(pg_url) for _ in range(3)]
        # all of them opened (or failed) before any is closed: a failure must not leave
        # the others' pools open behind it
        opened = await asyncio.gather(*(s.open() for s in stores), return_exceptions=True)
        try:
            assert opened == [None, None, None]
            await stores[0].create_table(table("t1"))
            assert await stores[2].exists("t1")
        finally:
            await asyncio.gather(*(s.close() for s in stores))

    asyncio.run(main())
    assert pg.sql("SELECT version FROM mazo_schema") == [(SCHEMA_VERSION,)]


def test_postgres_refuses_a_newer_schema(pg: Backend) -> None:
    pg.run(lambda store: store.check())
    pg.sql(f"UPDATE mazo_schema SET version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer"):
        pg.run(lambda store: store.check())


def test_postgres_errors_are_store_errors(pg_url: str) -> None:
    from mazo.server.pgstore import PostgresStore

    async def main() -> None:
        # nothing listens on port 1
        unreachable = PostgresStore("postgresql://mazo:secret@127.0.0.1:1/x", timeout=2)
        with pytest.raises(StoreError) as caught:
            await unreachable.open()
        assert "secret" not in str(caught.value)  # the password is not in the message
        with pytest.raises(StoreError, match="not open"):
            await unreachable.exists("t1")
        store = PostgresStore(pg_url)
        await store.open()
        await store.open()  # opening an open store does nothing
        await store.close()
        with pytest.raises(StoreError, match="not open"):
            await store.load_table("t1")

    started = time.monotonic()
    asyncio.run(main())
    assert time.monotonic() - started < 10  # refused at once, not after a pool's timeout


def test_postgres_leases(pg: Backend) -> None:
    async def body(store: TableStore) -> None:
        await store.create_table(table("t1", 1000.0))
        await store.create_table(table("t2", 2000.0), owner="A", ttl=30)
        await store.create_table(table("t3", 3000.0))
        # t1 and t3 have no owner; t2 is A's from its creation
        assert await store.orphans() == ["t1", "t3"]
        assert await store.orphans(limit=1) == ["t1"]
        assert not await store.acquire("t2", "B", 30)
        assert await store.acquire("t2", "A", 30)  # ours already: extended
        assert await store.acquire("t1", "A", 30)
        assert not await store.acquire("t1", "B", 30)
        assert not await store.acquire("missing", "A", 30)
        assert await store.orphans() == ["t3"]
        assert await store.renew("A", 30) == {"t1", "t2"}
        assert await store.renew("B", 30) == set()

        # only the owner writes
        await store.append_action("t1", 1, 0, "play 3", owner="A")
        with pytest.raises(LeaseLost):
            await store.append_action("t1", 2, 0, "play 1", owner="B")
        with pytest.raises(LeaseLost):  # a table nobody owns is nobody's to write
            await store.append_action("t3", 1, 0, "play 1", owner="A")
        loaded = await store.load_table("t1")
        assert loaded is not None and [a.n for a in loaded[1]] == [1]
        assert issubclass(LeaseLost, StoreError)

        # A stops renewing: B takes t1 once the lease expires, and A can no longer write
        assert await store.acquire("t1", "A", 0.2)
        assert not await store.acquire("t1", "B", 30)
        await asyncio.sleep(0.4)
        assert await store.orphans() == ["t1", "t3"]
        assert await store.acquire("t1", "B", 30)
        with pytest.raises(LeaseLost):
            await store.append_action("t1", 2, 0, "play 1", owner="A")
        assert await store.renew("A", 30) == {"t2"}  # A learns it lost t1
        await store.append_action("t1", 2, 1, "play 7", owner="B")

        # an expired lease nobody took is still nobody's to write until renewed
        assert await store.acquire("t3", "C", 0.2)
        await asyncio.sleep(0.4)
        with pytest.raises(LeaseLost):
            await store.append_action("t3", 1, 0, "x", owner="C")
        assert await store.renew("C", 30) == {"t3"}
        await store.append_action("t3", 1, 0, "x", owner="C")

        # release frees at once; others' leases are untouched
        await store.release("B", ["t1", "t2"])  # t2 is A's: not B's to free
        assert await store.orphans() == ["t1"]
        assert await store.acquire("t1", "D", 30)
        await store.release("A")
        assert await store.orphans() == ["t2"]
        await store.release("D", [])

        # the match's end: nobody needs the lease any more
        await store.append_action("t1", 3, 0, "y", finished_at=9000.0, owner="D")
        assert await store.renew("D", 30) == set()
        assert await store.acquire("t1", "E", 30)  # finished: yes, without a lease
        rows = pg.sql("SELECT owner FROM tables WHERE id = 't1'")
        assert rows == [("D",)]
        await store.mark_closed("t2", "abandoned", 9100.0)
        assert await store.orphans() == []

    pg.run(body)


def test_postgres_an_action_waits_for_a_takeover_in_progress(pg: Backend, pg_url: str) -> None:
    """B takes A's table (its UPDATE not yet committed) while A writes an action: A's
    write must wait for B's commit and then be refused, not slip in on the old owner."""
    import psycopg

    from mazo.server.pgstore import NOW, PostgresStore

    async def main() -> None:
        a = PostgresStore(pg_url)
        await a.open()
        try:
            await a.create_table(table("t1"), owner="A", ttl=30)
            async with await psycopg.AsyncConnection.connect(pg_url) as takeover:
                await takeover.execute(
                    f"UPDATE tables SET owner = 'B', lease_until = {NOW} + 30 WHERE id = 't1'"
                )
                write = asyncio.create_task(a.append_action("t1", 1, 0, "x", owner="A"))
                await asyncio.sleep(0.5)
                assert not write.done()  # held by the takeover's row lock
                await takeover.commit()
            with pytest.raises(LeaseLost):
                await write
            loaded = await a.load_table("t1")
            assert loaded is not None and loaded[1] == []
        finally:
            await a.close()

    asyncio.run(main())


def test_postgres_commits_do_not_wait_for_the_disk_unless_asked(pg_url: str) -> None:
    """synchronous_commit is off on the store's connections (the SQLite store's bargain:
    an action survives the server being killed; see pgstore's docstring); a URL that
    names it keeps its own choice."""
    from mazo.server.pgstore import PostgresStore

    async def setting(url: str) -> str:
        store = PostgresStore(url)
        await store.open()
        try:
            assert store._pool is not None
            async with store._pool.connection() as conn:
                row = await (await conn.execute("SHOW synchronous_commit")).fetchone()
        finally:
            await store.close()
        assert row is not None
        return str(row[0])

    assert asyncio.run(setting(pg_url)) == "off"
    sep = "&" if "?" in pg_url else "?"
    durable = f"{pg_url}{sep}options=-c%20synchronous_commit%3Don"
    assert asyncio.run(setting(durable)) == "on"
