"""The store's records, and the statements both stores run to write and read them, once.

The SQL is written with psycopg's ``%s`` placeholders; :func:`for_sqlite` gives SQLite's
``?`` spelling.  Where the two databases differ (PostgreSQL's leases, its ``NULLS LAST``
that SQLite has by default), the store says so itself.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "CLOSE",
    "EXISTS",
    "FINISH",
    "INSERT_ACTION",
    "INSERT_SEAT",
    "INSERT_TABLE",
    "SELECT_ACTIONS",
    "SELECT_SEATS",
    "SELECT_TABLE",
    "SET_NEXT",
    "SET_SEAT",
    "ActionRow",
    "SeatRow",
    "TableRow",
    "for_sqlite",
    "ids_query",
    "read_table",
    "seat_params",
    "table_params",
]


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" or "bot"
    level: str | None  # a bot level, None for people
    name: str  # "" until a person names the seat
    token_hash: str | None  # None: a bot, or a public seat nobody has claimed


@dataclass
class ActionRow:
    n: int
    seat: int
    action: str


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    title: str
    public: bool
    created: float
    finished: bool
    seats: list[SeatRow] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)  # as stored ({} : defaults)
    finished_at: float | None = None  # when the match ended
    next: str | None = None  # the rematch's table id
    closed: str | None = None  # why the server closed the unfinished match ("abandoned")


# A new table (not finished); PostgreSQL adds its lease in the same transaction.
INSERT_TABLE = (
    "INSERT INTO tables (id, game, players, options, seed, title, public, created,"
    " finished, settings) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, 0, %s)"
)
INSERT_SEAT = (
    "INSERT INTO seats (table_id, seat, kind, level, name, token_hash)"
    " VALUES (%s, %s, %s, %s, %s, %s)"
)
SET_NEXT = "UPDATE tables SET next = %s WHERE id = %s"
INSERT_ACTION = "INSERT INTO actions (table_id, n, seat, action, at) VALUES (%s, %s, %s, %s, %s)"
FINISH = "UPDATE tables SET finished = 1, finished_at = %s WHERE id = %s"
CLOSE = "UPDATE tables SET finished = 1, finished_at = %s, closed = %s WHERE id = %s"
SET_SEAT = "UPDATE seats SET name = %s, token_hash = %s WHERE table_id = %s AND seat = %s"
EXISTS = "SELECT 1 FROM tables WHERE id = %s"
SELECT_TABLE = (
    "SELECT id, game, players, options, seed, title, public, created, finished,"
    " settings, finished_at, next, closed FROM tables WHERE id = %s"
)
SELECT_SEATS = (
    "SELECT seat, kind, level, name, token_hash FROM seats WHERE table_id = %s ORDER BY seat"
)
SELECT_ACTIONS = "SELECT n, seat, action FROM actions WHERE table_id = %s ORDER BY n"


def for_sqlite(query: str) -> str:
    """The statement with SQLite's placeholders."""
    return query.replace("%s", "?")


def ids_query(*, unfinished_only: bool, public_only: bool) -> str:
    """``SELECT id FROM tables``, filtered, newest first."""
    where = []
    if unfinished_only:
        where.append("finished = 0")
    if public_only:
        where.append("public = 1")
    clause = f" WHERE {' AND '.join(where)}" if where else ""
    return f"SELECT id FROM tables{clause} ORDER BY created DESC"


def table_params(table: TableRow) -> tuple[Any, ...]:
    """INSERT_TABLE's values (options and settings as sorted JSON)."""
    return (
        table.id,
        table.game,
        table.players,
        json.dumps(table.options, sort_keys=True),
        table.seed,
        table.title,
        int(table.public),
        table.created,
        json.dumps(table.settings, sort_keys=True),
    )


def seat_params(table: TableRow) -> list[tuple[Any, ...]]:
    """INSERT_SEAT's values, a row per seat."""
    return [(table.id, s.seat, s.kind, s.level, s.name, s.token_hash) for s in table.seats]


def read_table(
    row: Sequence[Any], seats: Sequence[Sequence[Any]], actions: Sequence[Sequence[Any]]
) -> tuple[TableRow, list[ActionRow]]:
    """The rows of SELECT_TABLE, SELECT_SEATS and SELECT_ACTIONS as the store's records;
    ValueError (or TypeError) for a row whose JSON does not parse."""
    table = TableRow(
        id=row[0],
        game=row[1],
        players=row[2],
        options=json.loads(row[3]),
        seed=row[4],
        title=row[5],
        public=bool(row[6]),
        created=row[7],
        finished=bool(row[8]),
        settings=json.loads(row[9]),
        finished_at=row[10],
        next=row[11],
        closed=row[12],
    )
    table.seats = [
        SeatRow(seat=s[0], kind=s[1], level=s[2], name=s[3], token_hash=s[4]) for s in seats
    ]
    return table, [ActionRow(n=a[0], seat=a[1], action=a[2]) for a in actions]
