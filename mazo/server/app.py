"""The ASGI app of ``mazo serve``: the lobby, the table pages, the JSON API, the sockets.

The protocol is documented in ``docs/protocol.md``; the tables' logic is in
:mod:`mazo.server.tables`, everything sent is built by :mod:`mazo.server.views`.
"""

from __future__ import annotations

import asyncio
import bisect
import calendar
import contextlib
import logging
import math
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from mazo.games import GAMES, list_games
from mazo.server.bots import SERVER_BOTS, BotRunner
from mazo.server.guard import SECURITY_HEADERS, SecurityHeaders, cross_origin, read_json_body
from mazo.server.limits import ClientLimits, Limits
from mazo.server.replay import Replays
from mazo.server.sockets import MAX_MESSAGE, admit, handle, receive, refuse, send_loop
from mazo.server.store import (
    DatabaseLock,
    StoreError,
    TableStore,
    ThreadedStore,
    is_postgres_url,
)
from mazo.server.tables import Connection, LiveTable, RequestError, TableManager
from mazo.server.views import public_view, table_summary

if TYPE_CHECKING:
    from mazo.server.cluster import Cluster

__all__ = ["MAX_MESSAGE", "WEB_DIR", "TokenRedactor", "create_app"]

log = logging.getLogger("mazo.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
MAX_BODY = 16_384  # bytes of an HTTP request body
LOBBY_PAGE = 50  # tables on one page of GET /api/tables (the default and the most)
EXPIRE_AFTER = 24 * 3600.0  # seconds an abandoned table stays open (0: forever)
SWEEP_EVERY = 300.0  # seconds between two looks for abandoned tables
LOBBY_REFRESH = 1.0  # seconds the lobby's list is reused before it is built again
LEASE_TTL = 10.0  # seconds a table's lease lasts unrenewed (scale-out: failover time)
HEALTH_WAIT = 2.0  # seconds /api/health waits for the database before it says it failed


class TokenRedactor(logging.Filter):
    """Blanks seat tokens in log lines: uvicorn logs every socket's path with its query
    string (``/ws/tables/ID?token=...``), and a token in a log file would let whoever
    reads the logs play that seat."""

    PATTERN = re.compile(r"token=[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(
                self.PATTERN.sub("token=***", a) if isinstance(a, str) else a for a in record.args
            )
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = self.PATTERN.sub("token=***", record.msg)
        return True

    @classmethod
    def install(cls) -> None:
        """On uvicorn's loggers (call after uvicorn has configured logging)."""
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
            logger = logging.getLogger(name)
            if not any(isinstance(f, cls) for f in logger.filters):
                logger.addFilter(cls())


def create_app(
    db_path: str | Path = "mazo.sqlite3",
    *,
    bot_delay: float = 0.6,
    allow_seed: bool = False,
    bot_processes: bool = True,
    timer_scale: float = 1.0,
    lobby_page: int = LOBBY_PAGE,
    lobby_refresh: float = LOBBY_REFRESH,
    limits: Limits | None = None,
    expire_after: float = EXPIRE_AFTER,
    sweep_every: float = SWEEP_EVERY,
    bus: str | None = None,
    lease_ttl: float = LEASE_TTL,
) -> Starlette:
    """The app, with its tables in the SQLite file ``db_path`` (``":memory:"`` for a
    throwaway server). ``timer_scale`` multiplies every table timer (tests).
    ``lobby_page``: the most tables one ``GET /api/tables`` lists; ``lobby_refresh``:
    seconds the lobby's list is reused before it is built again. ``limits``: per-client
    limits (creations, sockets), watchers per table, sockets per seat (0: none).
    ``expire_after``: seconds an unfinished table with nobody connected and nothing
    happening is kept open before it is closed as abandoned (0: never), looked for
    every ``sweep_every`` seconds.

    Scale-out mode: ``db_path`` a ``postgresql://`` URL and ``bus`` a ``redis://`` URL;
    any number of processes share every table (:mod:`mazo.server.cluster`); a dead
    process's tables move to another within ``lease_ttl`` seconds."""
    limits = limits or Limits()
    limits.check()
    clients = ClientLimits(limits)
    bots = BotRunner(processes=bot_processes)
    scale = is_postgres_url(str(db_path))
    if scale != (bus is not None):
        raise ValueError(
            "a PostgreSQL --db needs a --bus (redis://...), and a --bus needs a PostgreSQL --db"
        )
    store: TableStore
    cluster: Cluster | None = None
    lock = DatabaseLock(":memory:" if scale else db_path)
    if scale:
        from mazo.server.cluster import Cluster, process_name
        from mazo.server.pgstore import PostgresStore

        store = PostgresStore(str(db_path))
        manager = TableManager(
            store,
            bots,
            bot_delay=bot_delay,
            allow_seed=allow_seed,
            timer_scale=timer_scale,
            owner=process_name(),
            lease_ttl=lease_ttl,
        )
        assert bus is not None
        cluster = Cluster(manager, bus, limits, lease_ttl)
    else:
        # One server per SQLite file: a second one refuses to start (DatabaseInUse).
        lock.acquire()
        threaded = ThreadedStore(db_path)
        threaded.open_now()  # a file that cannot be opened stops the server before it listens
        store = threaded
        manager = TableManager(
            store, bots, bot_delay=bot_delay, allow_seed=allow_seed, timer_scale=timer_scale
        )
    replays = Replays(manager)
    lobby = Lobby(
        manager,
        page_size=lobby_page,
        refresh=lobby_refresh,
        others=(lambda: cluster.lobby_entries) if cluster is not None else None,
    )

    async def find(table_id: str) -> LiveTable | None:
        """The table if this process runs it (or may read it); None: another does."""
        if cluster is not None:
            return await cluster.locate(table_id)
        return await manager.require(table_id)

    def relayed(answer: dict[str, Any]) -> Response:
        if "error" in answer:
            return JSONResponse({"error": answer["error"]}, status_code=answer["status"])
        return JSONResponse(answer["body"], status_code=answer["status"])

    async def op_view(table: LiveTable, args: dict[str, Any]) -> Any:
        return public_view(table)

    async def op_claim(table: LiveTable, args: dict[str, Any]) -> Any:
        return await manager.claim(table, int(args["seat"]), args.get("body"))

    if cluster is not None:
        cluster.ops.update(view=op_view, claim=op_claim)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if not scale:
            lock.acquire()  # held already, unless the app is started a second time
        await store.open()  # (SQLite: open already, unless the app is started again)
        if cluster is not None:
            await cluster.start()
        resumed = await manager.resume_all()
        if resumed:
            log.info("resumed %d unfinished table(s)", resumed)
        if manager.quarantined:
            log.error(
                "%d stored table(s) quarantined (see /api/health): %s",
                len(manager.quarantined),
                ", ".join(manager.quarantined),
            )
        sweeper = None
        if expire_after > 0:
            sweeper = asyncio.create_task(_sweep(manager, expire_after, sweep_every))
        yield
        if sweeper is not None:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
        if cluster is not None:
            await cluster.stop()
        await manager.close()
        bots.close()
        await store.close()
        if isinstance(store, ThreadedStore):
            store.shutdown()
        lock.release()

    async def page(request: Request) -> Response:
        name = "table.html" if "table_id" in request.path_params else "index.html"
        path = WEB_DIR / name
        if not path.exists():
            return JSONResponse({"error": f"the web client is missing {name}"}, status_code=500)
        return FileResponse(path, headers={"Cache-Control": "no-cache"})

    async def rules_page(request: Request) -> Response:
        # one page for every game: js/rules.js loads /static/rules/<game>.<lang>.html
        game = request.path_params["game"]
        if game not in GAMES:
            known = ", ".join(list_games())
            return JSONResponse(
                {"error": f"no rules page for {game!r}; the games are {known}"}, status_code=404
            )
        return FileResponse(WEB_DIR / "rules.html", headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> Response:
        try:
            # a database that hangs makes the health check say so, not hang with it
            await asyncio.wait_for(store.check(), HEALTH_WAIT)
            database: dict[str, Any] = {"ok": True, "kind": store.kind}
        except (StoreError, TimeoutError) as exc:
            why = str(exc) or f"no answer in {HEALTH_WAIT:g} s"
            database = {"ok": False, "kind": store.kind, "error": why}
        answer = {
            "ok": database["ok"],
            "tables": len(manager.tables),
            "database": database,
            "bots": bots.health(),
            "quarantined": [{"id": k, "reason": v} for k, v in manager.quarantined.items()],
        }
        if cluster is not None:
            answer["cluster"] = cluster.health()
            answer["bus"] = await cluster.bus_health(HEALTH_WAIT)
            answer["ok"] = answer["ok"] and answer["bus"]["ok"]
        return JSONResponse(answer, status_code=200 if answer["ok"] else 503)

    async def games(request: Request) -> Response:
        out = []
        for name in list_games():
            cls = GAMES[name]
            teams = {}
            for n in cls.player_counts:
                teams[str(n)] = cls(n).info.teams
            out.append(
                {
                    "name": name,
                    "players": list(cls.player_counts),
                    "default_players": cls.default_players,
                    "teams": teams,
                    "options": [
                        {
                            "name": o.name,
                            "default": o.default,
                            "allowed": list(o.allowed) if o.allowed is not None else None,
                            "describe": o.allowed_text(),
                            "help": o.help,
                            "choices": list(o.choices) if o.choices is not None else None,
                        }
                        for o in cls.option_specs
                    ],
                }
            )
        return JSONResponse({"games": out, "bots": list(SERVER_BOTS)})

    async def tables(request: Request) -> Response:
        if request.method == "POST":
            host = request.client.host if request.client else "unknown"
            wait = clients.take_create(host)
            if wait > 0:
                return JSONResponse(
                    {
                        "error": f"too many new tables from {host}: at most"
                        f" {limits.creates_per_minute:g} a minute; try again in"
                        f" {math.ceil(wait)} s"
                    },
                    status_code=429,
                    headers={"Retry-After": str(math.ceil(wait))},
                )
            body = await _json_body(request)
            return JSONResponse(await manager.create(body), status_code=201)
        status = request.query_params.get("status")
        if status == "finished":
            return JSONResponse({"tables": await replays.finished()})
        if status not in (None, "", "playing"):
            raise RequestError(
                f"status must be 'playing' (the default: open tables) or 'finished'"
                f" (recently finished public tables), not {status!r}"
            )
        return JSONResponse(lobby.page(request.query_params))

    async def table_view(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        table = await find(table_id)
        if table is None:
            assert cluster is not None
            return relayed(await cluster.call(table_id, "view", {}))
        return JSONResponse(public_view(table))

    async def record(request: Request) -> Response:
        table = await find(request.path_params["table_id"])
        if table is None or not table.state.match_over:  # run elsewhere: still playing
            raise RequestError(
                "the record (every deck order) is published when the match is over",
                status=409,
                code="conflict",
            )
        return JSONResponse(table.state.record())

    async def replay(request: Request) -> Response:
        q = request.query_params
        table_id = request.path_params["table_id"]
        if await find(table_id) is None:  # run by another process: still playing
            raise RequestError(
                "a match is replayed once it is over (the replay shows every hand)",
                status=409,
                code="conflict",
            )
        answer = await replays.deal(table_id, q.get("seat"), q.get("deal"))
        return JSONResponse(answer)

    async def claim(request: Request) -> Response:
        table_id, seat = request.path_params["table_id"], request.path_params["seat"]
        table = await find(table_id)
        body = await _json_body(request)
        if table is None:
            assert cluster is not None
            return relayed(await cluster.call(table_id, "claim", {"seat": seat, "body": body}))
        return JSONResponse(await manager.claim(table, seat, body))

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        why = cross_origin(websocket.headers)  # a page of another site: refused
        if why is not None:
            await refuse(websocket, 4403, "bad_origin", why)
            return
        table_id = websocket.path_params["table_id"]
        try:
            table = await find(table_id)
        except RequestError as exc:  # 4404: no such table; 4503: quarantined (the reason)
            await refuse(websocket, 4000 + exc.status, exc.code, exc.message)
            return
        host = websocket.client.host if websocket.client else "unknown"
        if not clients.open_socket(host):
            most = limits.sockets_per_client
            why = f"{host} holds {most} sockets already, the most one address may; close some"
            await refuse(websocket, 4429, "too_many_connections", why)
            return
        try:
            if table is None:  # another process runs it: relay the socket to it
                assert cluster is not None
                await _relay_socket(websocket, cluster, table_id)
                return
            seat, refusal = admit(limits, table, websocket.query_params.get("token"))
            if refusal is not None:
                await refuse(websocket, *refusal)
                return
            await _serve_socket(websocket, manager, table, seat)
        finally:
            clients.close_socket(host)

    async def _serve_socket(
        websocket: WebSocket, manager: TableManager, table: LiveTable, seat: int | None
    ) -> None:
        conn = Connection(seat)
        sender = asyncio.create_task(send_loop(websocket, conn))
        manager.attach(table, conn)  # queues this connection's first state

        async def on_text(text: str) -> None:
            await handle(text, manager, table, conn)

        try:
            await receive(websocket, conn, on_text, lambda: table.version)
        finally:
            manager.detach(table, conn)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def _relay_socket(websocket: WebSocket, cluster: Cluster, table_id: str) -> None:
        conn = Connection(None)  # this end only queues what the owner sends
        sender = asyncio.create_task(send_loop(websocket, conn))
        relay = None
        try:
            relay = await cluster.relay(table_id, websocket.query_params.get("token"), conn)
            if relay is None:  # its owner died just now: the page reconnects
                conn.close(1012)
                await sender
                return
            opened = relay

            async def on_text(text: str) -> None:
                cluster.forward(opened, text)

            await receive(websocket, conn, on_text, lambda: None)
        finally:
            if relay is not None:
                cluster.unrelay(relay)
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender

    async def on_request_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestError)
        # 413: the rest of the body is never read; the connection is closed instead.
        headers = {"Connection": "close"} if exc.status == 413 else None
        return JSONResponse({"error": exc.message}, status_code=exc.status, headers=headers)

    async def on_server_error(request: Request, exc: Exception) -> Response:
        # Starlette answers a 500 from outside every middleware: the security headers
        # are added here, and the client gets JSON instead of a bare text page.
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        headers = {k.decode(): v.decode() for k, v in SECURITY_HEADERS}
        return JSONResponse(
            {"error": "the server failed; it is logged"}, status_code=500, headers=headers
        )

    routes = [
        Route("/", page),
        Route("/table/{table_id}", page),
        Route("/replay/{table_id}", page),
        Route("/rules/{game}", rules_page),
        Route("/api/health", health),
        Route("/api/games", games),
        Route("/api/tables", tables, methods=["GET", "POST"]),
        Route("/api/tables/{table_id}", table_view),
        Route("/api/tables/{table_id}/record", record),
        Route("/api/tables/{table_id}/replay", replay),
        Route("/api/tables/{table_id}/seats/{seat:int}/claim", claim, methods=["POST"]),
        WebSocketRoute("/ws/tables/{table_id}", socket),
        Mount("/static", StaticFiles(directory=WEB_DIR, check_dir=False), name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={RequestError: on_request_error, Exception: on_server_error},
        middleware=[Middleware(SecurityHeaders)],
    )
    app.state.manager = manager
    app.state.lobby = lobby
    app.state.clients = clients
    return app


async def _sweep(manager: TableManager, idle: float, every: float) -> None:
    """Close abandoned tables (see TableManager.expire) every ``every`` seconds."""
    while True:
        await asyncio.sleep(every)
        try:
            await manager.expire(idle)
        except Exception:
            log.exception("closing abandoned tables failed; trying again later")


class Lobby:
    """The open public tables for ``GET /api/tables``, newest first, in pages.

    The list of summaries is built at most once every ``refresh`` seconds and shared by
    every request meanwhile (twenty lobby tabs polling cost one build a second, not
    twenty); each request only cuts its page out of it. A page's ``next`` is the cursor
    of the page after it (``after=<cursor>``), None on the last page.
    """

    def __init__(
        self,
        manager: TableManager,
        page_size: int,
        refresh: float,
        others: Callable[[], list[dict[str, Any]]] | None = None,
    ) -> None:
        self.manager = manager
        # Scale-out: the other processes' open public tables (summaries, from the bus).
        self.others = others
        self.page_size = page_size
        self.refresh = refresh
        self.builds = 0  # how many times the list was built (tests)
        self._stamp = -float("inf")
        self._changes = -1  # the manager's change count the list was built at
        self._entries: list[dict[str, Any]] = []
        self._keys: list[tuple[float, str]] = []  # (-created, id), ascending

    def _current(self) -> tuple[list[dict[str, Any]], list[tuple[float, str]]]:
        now = time.monotonic()
        changes = self.manager.changes
        if changes != self._changes or now - self._stamp >= self.refresh:
            open_tables = [
                t
                for t in self.manager.tables.values()
                if t.row.public and not t.row.finished and not t.state.match_over
            ]
            open_tables.sort(key=lambda t: (-t.row.created, t.row.id))
            entries = [(-t.row.created, t.row.id, table_summary(t)) for t in open_tables]
            if self.others is not None:
                mine = {t.row.id for t in open_tables}
                for e in self.others():
                    if e["id"] not in mine:
                        created = calendar.timegm(time.strptime(e["created"], "%Y-%m-%dT%H:%M:%SZ"))
                        entries.append((-float(created), e["id"], e))
                entries.sort(key=lambda x: (x[0], x[1]))
            self._entries = [e for _, _, e in entries]
            self._keys = [(k, i) for k, i, _ in entries]
            self._stamp, self._changes = now, changes
            self.builds += 1
        return self._entries, self._keys

    def page(self, query: Mapping[str, str]) -> dict[str, Any]:
        limit_text = query.get("limit")
        limit = self.page_size
        if limit_text is not None:
            try:
                limit = int(limit_text)
            except ValueError:
                limit = 0
            if not 1 <= limit <= self.page_size:
                raise RequestError(
                    f"limit must be a whole number from 1 to {self.page_size}"
                    f" (the default), not {limit_text!r}"
                )
        entries, keys = self._current()
        start = 0
        after = query.get("after")
        if after:
            created, _, table_id = after.partition("~")
            try:
                key = (-float(created), table_id)
            except ValueError:
                key = None
            if key is None or not table_id or key[0] != key[0]:
                raise RequestError(
                    f"after must be the 'next' cursor of the previous page, not {after!r}"
                )
            start = bisect.bisect_right(keys, key)
        page = entries[start : start + limit]
        more = start + limit < len(entries)
        cursor = None
        if more and page:
            created_key, last_id = keys[start + limit - 1]
            cursor = f"{-created_key!r}~{last_id}"
        return {"tables": page, "next": cursor, "total": len(entries)}


async def _json_body(request: Request) -> Any:
    # Same-origin, application/json, refused while streaming past MAX_BODY, nesting bounded.
    return await read_json_body(request, MAX_BODY)
