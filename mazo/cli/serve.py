"""``mazo serve``: card tables in the browser for friends and bots.

The web stack (Starlette, uvicorn) is an optional extra, imported only when the command
runs, so ``mazo --help`` works without it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from .common import subcommand

TEXT = """\
play in the browser: tables for friends and bots

Serve the lobby, the table pages, the JSON API and the table sockets.

examples:
  mazo serve                              http://127.0.0.1:8000, tables in ./mazo.sqlite3
  mazo serve --host 0.0.0.0 --port 8080   reachable from the local network
  mazo serve --db /var/lib/mazo/tables.sqlite3 --bot-delay 1
  mazo serve --port 8001 --db postgresql://mazo@db/mazo --bus redis://cache:6379/0
                                          one of several processes sharing every table

Open the address in a browser: the lobby creates tables (any game, player count, options,
each seat a person or a bot level) and gives a join link per seat and a watch link.
Unfinished tables resume where they were when the server starts again; a stored table
that cannot be replayed is quarantined (logged, listed by /api/health) and the rest start.
One server per SQLite file: a second mazo serve on the same --db refuses to start.
Scale-out (pip install 'mazo[server,scale]'): any number of processes on one PostgreSQL
--db and one Redis --bus share every table, behind any reverse proxy; a process that dies
hands its tables to the others within --lease seconds. See docs/deploy.md.
The protocol for scripts and other clients is in docs/protocol.md.
"""


def add_parser(subparsers: Any) -> None:
    """Register ``mazo serve``."""
    p = subcommand(subparsers, "serve", TEXT)
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    p.add_argument("--port", type=int, default=8000, help="port (default %(default)s)")
    p.add_argument(
        "--db",
        default="mazo.sqlite3",
        metavar="PATH|URL",
        help="the SQLite file of the tables (default %(default)s; ':memory:' keeps nothing),"
        " or a postgresql:// URL for the scale-out mode (needs --bus)",
    )
    p.add_argument(
        "--bus",
        metavar="URL",
        help="scale-out mode: the redis:// URL that carries each table's changes between"
        " processes (needs a PostgreSQL --db)",
    )
    p.add_argument(
        "--lease",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="scale-out mode: how long a table stays with a process that stopped answering"
        " before another takes it over (default %(default)s)",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="pause before each bot move so people can follow (default %(default)s)",
    )
    p.add_argument(
        "--allow-seed",
        action="store_true",
        help="accept a table 'seed' (tests, demos: a known seed tells every card)",
    )
    p.add_argument(
        "--lobby-page",
        type=int,
        default=50,
        metavar="N",
        help="the most tables one page of the lobby's list holds (default %(default)s)",
    )
    limits = p.add_argument_group(
        "limits",
        "0 means no limit. A client is its address: behind a reverse proxy, see"
        " docs/protocol.md (Limits and hardening)",
    )
    limits.add_argument(
        "--tables-per-minute",
        type=float,
        default=20,
        metavar="N",
        help="tables one client address may create a minute, in bursts of N (default %(default)s)",
    )
    limits.add_argument(
        "--sockets-per-client",
        type=int,
        default=64,
        metavar="N",
        help="sockets one client address may hold open (default %(default)s)",
    )
    limits.add_argument(
        "--watchers-per-table",
        type=int,
        default=200,
        metavar="N",
        help="watchers one table takes (default %(default)s)",
    )
    limits.add_argument(
        "--sockets-per-seat",
        type=int,
        default=4,
        metavar="N",
        help="sockets (tabs, devices) that may play one seat at once (default %(default)s)",
    )
    limits.add_argument(
        "--expire-after",
        type=float,
        default=24,
        metavar="HOURS",
        help="close an unfinished table nobody has been at (no player, no watcher, no move)"
        " for this long; it is kept, marked abandoned (default %(default)s; 0: never)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        help="behind a reverse proxy: the proxy addresses (comma-separated, or '*') whose"
        " X-Forwarded-For gives each client's address for the per-client limits"
        " (default: 127.0.0.1, or the FORWARDED_ALLOW_IPS environment variable)",
    )
    # Tests only (hidden): multiplies every table timer (turn timer, deal pause, defer).
    p.add_argument("--timer-scale", type=float, default=1.0, help=argparse.SUPPRESS)
    p.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn's log level (default %(default)s)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from mazo.server.app import TokenRedactor, create_app
        from mazo.server.limits import Limits
        from mazo.server.store import DatabaseInUse, redact
    except ImportError as err:
        print(
            f"mazo serve: the web server is an optional extra ({err.name} is missing):"
            " pip install 'mazo[server]'",
            file=sys.stderr,
        )
        return 1
    if args.bot_delay < 0 or args.bot_delay > 10:
        print("mazo serve: --bot-delay must be 0 to 10 seconds", file=sys.stderr)
        return 2
    if not 0 < args.timer_scale <= 10:
        print("mazo serve: --timer-scale must be over 0 and at most 10", file=sys.stderr)
        return 2
    if not 1 <= args.lobby_page <= 1000:
        print("mazo serve: --lobby-page must be 1 to 1000", file=sys.stderr)
        return 2
    limits = Limits(
        creates_per_minute=args.tables_per_minute,
        sockets_per_client=args.sockets_per_client,
        watchers_per_table=args.watchers_per_table,
        sockets_per_seat=args.sockets_per_seat,
    )
    if args.expire_after < 0:
        print("mazo serve: --expire-after must be 0 (never) or more hours", file=sys.stderr)
        return 2
    try:
        limits.check()
    except ValueError as err:
        print(f"mazo serve: {err}", file=sys.stderr)
        return 2
    scale = args.db.startswith(("postgresql://", "postgres://"))
    if scale != (args.bus is not None):
        print(
            "mazo serve: a PostgreSQL --db (postgresql://...) needs a --bus (redis://...),"
            " and --bus needs a PostgreSQL --db; with a SQLite file there is one process",
            file=sys.stderr,
        )
        return 2
    if args.bus is not None and not args.bus.startswith(("redis://", "rediss://", "unix://")):
        print(f"mazo serve: --bus must be a redis:// URL, not {args.bus!r}", file=sys.stderr)
        return 2
    if not 1 <= args.lease <= 600:
        print("mazo serve: --lease must be 1 to 600 seconds", file=sys.stderr)
        return 2
    if scale:
        try:
            import psycopg  # noqa: F401
            import redis  # noqa: F401
        except ImportError as err:
            print(
                f"mazo serve: the scale-out mode is an optional extra ({err.name} is missing):"
                " pip install 'mazo[server,scale]'",
                file=sys.stderr,
            )
            return 1
    if scale:
        # Say plainly (before serving) when PostgreSQL or Redis cannot be reached.
        problem = asyncio.run(_check_services(args.db, args.bus))
        if problem:
            print(f"mazo serve: {problem}", file=sys.stderr)
            return 1
    try:
        app = create_app(
            args.db,
            bot_delay=args.bot_delay,
            allow_seed=args.allow_seed,
            timer_scale=args.timer_scale,
            lobby_page=args.lobby_page,
            limits=limits,
            expire_after=args.expire_after * 3600,
            bus=args.bus,
            lease_ttl=args.lease,
        )
    except DatabaseInUse as err:
        print(f"mazo serve: {err}", file=sys.stderr)
        return 1
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    where = redact(args.db) if scale else args.db
    print(f"mazo serve: open http://{shown}:{args.port}/  (tables kept in {where})", flush=True)
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=65_536,  # the app refuses anything over 4 KiB with a clear error
        ws_ping_interval=20,
        ws_ping_timeout=20,
        proxy_headers=True,  # X-Forwarded-For, from the trusted proxies only
        forwarded_allow_ips=args.forwarded_allow_ips,  # None: uvicorn's default
    )
    TokenRedactor.install()  # after Config, which sets up uvicorn's logging
    _tune_gc()
    uvicorn.Server(config).run()
    return 0


async def _check_services(db: str, bus: str) -> str | None:
    """Why the scale-out mode cannot start (PostgreSQL or Redis unreachable), or None.
    Opening the store also creates or migrates the schema."""
    import redis.asyncio as aioredis

    from mazo.server.pgstore import PostgresStore
    from mazo.server.store import StoreError, redact

    store = PostgresStore(db)
    try:
        await store.open()
    except StoreError as err:
        return str(err)
    finally:
        await store.close()
    client = aioredis.from_url(bus)
    try:
        await client.ping()
    except Exception as err:
        return f"cannot reach the bus (Redis) at {redact(bus)}: {err}"
    finally:
        await client.aclose()
    return None


def _tune_gc() -> None:
    """Fewer, cheaper garbage collections for a long-lived server. Everything loaded so
    far (modules, the games' tables, the app) is frozen out of the collector's scans, and
    the youngest generation is collected every 50,000 allocations instead of 700: with
    thousands of sockets, collections of the older generations paused the event loop
    for 200-300 ms a few times a minute, which was most of the latency tail in
    bench/load_server.py (1,000 tables: p99 265 and 278 ms without, 52 and 74 with,
    interleaved runs; see bench/README.md)."""
    import gc

    gc.freeze()
    gc.set_threshold(50_000, 50, 100)
