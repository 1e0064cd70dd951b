"""Scale-out mode: several ``mazo serve`` processes on one PostgreSQL and one Redis.

One process at a time runs a live table: the holder of its lease in PostgreSQL (see
:mod:`mazo.server.pgstore`). It commits the table's actions, runs its bots and timers,
and holds *every* socket of the table: its own, and through Redis pub/sub those that
reached another process (a reverse proxy may send a table's players anywhere).

The channels:

- ``mazo:t:<table>``: what other processes send the table's owner (a relayed socket
  opened, a message from it, it closed; a call for an HTTP request). Only the owner
  subscribes, so the number of receivers a publish reports tells whether it is alive.
- ``mazo:p:<process>``: what the owner sends back to a process (a relayed socket's
  messages, its close, the answer to a call).

When the owner dies, Redis drops its subscriptions at once: relaying processes see the
table's channel with no receiver and close their sockets with 1012 (the pages
reconnect); the lease expires after ``lease_ttl`` seconds and the next process that gets
the table (a reconnecting page, or the orphan sweep every ``lease_ttl``) takes it,
rebuilds it from its stored actions, and runs its bots again. Every action commit is
fenced by the lease, so a process that lost its table cannot write to it.

The lobby: each process keeps the summaries of its open public tables under
``mazo:lobby:<process>`` (expiring unless refreshed every second); every process lists
all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub

from mazo.server.limits import Limits
from mazo.server.sockets import admit, handle
from mazo.server.store import redact
from mazo.server.tables import Connection, Elsewhere, LiveTable, RequestError, TableManager
from mazo.server.views import table_summary

__all__ = ["Cluster", "RemoteConnection", "process_name"]

log = logging.getLogger("mazo.server")

CALL_WAIT = 10.0  # seconds a process waits for the owner's answer to a call
LOBBY_EVERY = 1.0  # seconds between two writes of this process's lobby entries
LOBBY_KEEP = 5  # seconds a process's lobby entries outlive its last write
WATCH_EVERY = 1.0  # seconds between two checks that the other ends are alive


def process_name() -> str:
    """This process's name in leases and channels: host, pid and a random part (a pid
    is reused after a restart; the name must not be)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def table_channel(table_id: str) -> str:
    return f"mazo:t:{table_id}"


def process_channel(name: str) -> str:
    return f"mazo:p:{name}"


class RemoteConnection(Connection):
    """At the owner: a socket another process holds. What the table sends it goes to
    that process (in order, through the cluster's outbox); what the client sends is
    handled in order by a task of its own."""

    def __init__(self, cluster: Cluster, seat: int | None, proc: str, conn_id: str) -> None:
        super().__init__(seat)
        self.cluster = cluster
        self.proc = proc
        self.conn_id = conn_id
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.worker: asyncio.Task[None] | None = None

    def send(self, message: Any) -> None:
        if self.dropped:
            return
        text = message if isinstance(message, str) else json.dumps(message)
        self.cluster.post(process_channel(self.proc), {"conn": self.conn_id, "text": text})

    def close(self, code: int) -> None:
        if not self.dropped:
            self.dropped = True
            self.cluster.post(process_channel(self.proc), {"conn": self.conn_id, "close": code})


@dataclass(eq=False)
class Relay:
    """At a process that holds a socket of a table another process runs."""

    table_id: str
    conn: Connection  # the local socket's outbox (send_loop sends it)
    conn_id: str = field(default_factory=lambda: secrets.token_hex(8))


class Cluster:
    """This process's part of the scale-out mode (started and stopped by the app)."""

    def __init__(
        self, manager: TableManager, bus_url: str, limits: Limits, lease_ttl: float
    ) -> None:
        assert manager.owner is not None
        self.manager = manager
        self.name = manager.owner
        self.bus_url = bus_url
        self.limits = limits
        self.ttl = lease_ttl
        self.redis: aioredis.Redis | None = None
        self.pubsub: PubSub | None = None
        self.subscribed: set[str] = set()  # table ids whose channel this process listens to
        self.since: dict[str, float] = {}  # table id -> when this process began to run it
        self.relays: dict[str, Relay] = {}  # conn id -> a socket relayed to an owner
        self.remote: dict[tuple[str, str], RemoteConnection] = {}  # (proc, conn id)
        self.calls: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.lobby_entries: list[dict[str, Any]] = []  # other processes' open public tables
        self._outbox: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self.ops: dict[str, Callable[[LiveTable, dict[str, Any]], Awaitable[Any]]] = {}
        manager.on_table = self._on_table

    # -- life --------------------------------------------------------------------------

    async def start(self) -> None:
        self.redis = aioredis.from_url(self.bus_url)
        try:
            await self.redis.ping()
        except Exception as exc:
            raise RuntimeError(f"the bus {redact(self.bus_url)} does not answer: {exc}") from exc
        self.pubsub = self.redis.pubsub()
        await self.pubsub.subscribe(process_channel(self.name))
        for table_id in list(self.manager.tables):
            self._on_table(table_id)
        for job in (
            self._listen,
            self._publish,
            self._renew,
            self._adopt,
            self._lobby,
            self._watch,
        ):
            self._tasks.append(asyncio.create_task(self._forever(job)))

    async def stop(self) -> None:
        """Let the tables go at once (the next process need not wait for the leases to
        expire) and tell the owners that our relayed sockets are closed."""
        for relay in list(self.relays.values()):
            self._send_owner(relay.table_id, {"op": "close", "conn": relay.conn_id})
            relay.conn.close(1012)
        with contextlib.suppress(Exception):
            await self.manager.store.release(self.name)
        for table in list(self.manager.tables.values()):
            if not table.state.match_over:
                self.manager.lose(table)
        await asyncio.sleep(0.05)  # let the publisher send what was queued
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()  # type: ignore[no-untyped-call]
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()

    async def _forever(self, job: Callable[[], Awaitable[None]]) -> None:
        """Run a loop of the cluster; an error is logged and the loop starts again."""
        while True:
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: %s failed; starting it again", job.__name__)
                await asyncio.sleep(1.0)

    async def bus_health(self, wait: float) -> dict[str, Any]:
        """Whether Redis answers a ping within ``wait`` seconds."""
        assert self.redis is not None
        try:
            await asyncio.wait_for(self.redis.ping(), wait)
        except Exception as exc:
            return {"ok": False, "error": str(exc) or f"no answer in {wait:g} s"}
        return {"ok": True}

    def health(self) -> dict[str, Any]:
        return {
            "process": self.name,
            "tables_run": sum(1 for t in self.manager.tables.values() if not t.state.match_over),
            "relayed_sockets": len(self.relays),
            "remote_sockets": len(self.remote),
            "lease_ttl": self.ttl,
        }

    # -- the bus -----------------------------------------------------------------------

    def post(self, channel: str, message: dict[str, Any]) -> None:
        """Queue a message (sent in order by one task: a socket's messages stay in order)."""
        self._outbox.put_nowait((channel, message))

    def _send_owner(self, table_id: str, message: dict[str, Any]) -> None:
        message["from"] = self.name
        self.post(table_channel(table_id), message)

    async def _publish(self) -> None:
        assert self.redis is not None
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get_nowait())
            async with self.redis.pipeline(transaction=False) as pipe:
                for ch, body in _grouped(batch):
                    pipe.publish(ch, json.dumps(body))
                await pipe.execute()

    async def _listen(self) -> None:
        assert self.pubsub is not None
        while True:
            if not self.pubsub.subscribed:
                await asyncio.sleep(0.05)
                continue
            message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"].decode()
            try:
                body = json.loads(message["data"])
            except ValueError:
                continue
            if channel.startswith("mazo:t:"):
                await self._at_owner(channel[len("mazo:t:") :], body)
            else:
                self._at_relay(body)

    def _on_table(self, table_id: str) -> None:
        """This process runs the table now: listen on its channel."""
        self.since[table_id] = time.monotonic()
        if table_id not in self.subscribed and self.pubsub is not None:
            self.subscribed.add(table_id)
            asyncio.get_running_loop().create_task(self._subscribe(table_id))

    async def _subscribe(self, table_id: str) -> None:
        assert self.pubsub is not None
        try:
            await self.pubsub.subscribe(table_channel(table_id))
        except Exception:
            self.subscribed.discard(table_id)
            log.exception("cluster: cannot listen for table %s", table_id)

    async def _unsubscribe(self, table_id: str) -> None:
        self.subscribed.discard(table_id)
        self.since.pop(table_id, None)
        if self.pubsub is not None:
            await self.pubsub.unsubscribe(table_channel(table_id))

    # -- at the owner: sockets and calls from other processes ---------------------------

    async def _at_owner(self, table_id: str, body: dict[str, Any]) -> None:
        op, proc = body.get("op"), str(body.get("from", ""))
        if op == "close":
            conn = self.remote.pop((proc, str(body.get("conn"))), None)
            if conn is not None:
                self._drop_remote(table_id, conn)
            return
        if op == "msg":
            conn = self.remote.get((proc, str(body.get("conn"))))
            if conn is not None:
                conn.inbox.put_nowait(str(body.get("text", "")))
            return
        table = self.manager.tables.get(table_id)
        if op == "open":
            await self._open_remote(table_id, table, proc, body)
        elif op == "call":
            asyncio.get_running_loop().create_task(self._answer_call(table, proc, body))

    async def _open_remote(
        self, table_id: str, table: LiveTable | None, proc: str, body: dict[str, Any]
    ) -> None:
        conn_id = str(body.get("conn"))
        if table is None or table.gone:
            # not ours any more: the other process tries again
            self.post(process_channel(proc), {"conn": conn_id, "close": 1012})
            return
        seat, refusal = admit(self.limits, table, body.get("token") or None)
        conn = RemoteConnection(self, seat, proc, conn_id)
        if refusal is not None:
            close_code, code, message = refusal
            conn.send({"type": "error", "code": code, "message": message})
            conn.close(close_code)
            return
        self.remote[(proc, conn_id)] = conn
        conn.worker = asyncio.get_running_loop().create_task(self._work(table, conn))
        self.manager.attach(table, conn)

    async def _work(self, table: LiveTable, conn: RemoteConnection) -> None:
        """Handle a relayed socket's messages in order, as a local socket's."""
        while True:
            text = await conn.inbox.get()
            if text is None:
                return
            try:
                await handle(text, self.manager, table, conn)
            except Exception:
                log.exception("table %s: a relayed message failed", table.row.id)

    def _drop_remote(self, table_id: str, conn: RemoteConnection) -> None:
        conn.inbox.put_nowait(None)
        conn.dropped = True
        table = self.manager.tables.get(table_id)
        if table is not None:
            self.manager.detach(table, conn)
        else:
            for t in list(self.manager.tables.values()):
                if conn in t.conns:
                    self.manager.detach(t, conn)

    async def _answer_call(self, table: LiveTable | None, proc: str, body: dict[str, Any]) -> None:
        rid = str(body.get("rid"))
        answer: dict[str, Any]
        op = self.ops.get(str(body.get("what")))
        if table is None or table.gone or op is None:
            answer = {"rid": rid, "retry": True}
        else:
            try:
                answer = {
                    "rid": rid,
                    "status": 200,
                    "body": await op(table, body.get("args") or {}),
                }
            except RequestError as exc:
                answer = {"rid": rid, "status": exc.status, "error": exc.message}
            except Exception as exc:
                log.exception("table %s: a call from %s failed", table.row.id, proc)
                answer = {"rid": rid, "status": 500, "error": f"the table's process failed: {exc}"}
        self.post(process_channel(proc), answer)

    # -- at a relaying process -----------------------------------------------------------

    def _at_relay(self, body: dict[str, Any]) -> None:
        if "rid" in body:
            future = self.calls.pop(str(body["rid"]), None)
            if future is not None and not future.done():
                future.set_result(body)
            return
        if "conns" in body:  # one text for several sockets (a broadcast)
            text = str(body["text"])
            for conn_id in body["conns"]:
                got = self.relays.get(str(conn_id))
                if got is not None:
                    got.conn.send(text)
            return
        relay = self.relays.get(str(body.get("conn")))
        if relay is None:
            return
        if "close" in body:
            del self.relays[relay.conn_id]
            relay.conn.close(int(body["close"]))
        elif "text" in body:
            relay.conn.send(str(body["text"]))

    async def _publish_now(self, table_id: str, message: dict[str, Any]) -> int:
        """Publish at once (not queued); how many processes received it (0: no owner)."""
        assert self.redis is not None
        message["from"] = self.name
        return int(await self.redis.publish(table_channel(table_id), json.dumps(message)))

    async def locate(self, table_id: str) -> LiveTable | None:
        """The table if this process runs it (or may read it: finished), taking it over
        when its owner has died (waiting for the lease to expire); None when the owner
        is alive elsewhere. Raises RequestError (404...) as TableManager.require does."""
        deadline = time.monotonic() + self.ttl + 2.0
        while True:
            try:
                return await self.manager.require(table_id)
            except Elsewhere:
                pass
            assert self.redis is not None
            listening = await self.redis.pubsub_numsub(table_channel(table_id))
            if listening and int(listening[0][1]) > 0:
                return None
            if time.monotonic() > deadline:
                raise RequestError(
                    f"table {table_id} is between server processes; try again",
                    status=503,
                    code="table_moving",
                )
            await asyncio.sleep(0.25)  # its owner died: the lease expires soon

    async def relay(self, table_id: str, token: str | None, conn: Connection) -> Relay | None:
        """Open a relayed socket to the table's owner; None if no owner listened."""
        relay = Relay(table_id, conn)
        self.relays[relay.conn_id] = relay
        got = await self._publish_now(
            table_id, {"op": "open", "conn": relay.conn_id, "token": token or ""}
        )
        if not got:
            del self.relays[relay.conn_id]
            return None
        return relay

    def forward(self, relay: Relay, text: str) -> None:
        self._send_owner(relay.table_id, {"op": "msg", "conn": relay.conn_id, "text": text})

    def unrelay(self, relay: Relay) -> None:
        if self.relays.pop(relay.conn_id, None) is not None:
            self._send_owner(relay.table_id, {"op": "close", "conn": relay.conn_id})

    async def call(self, table_id: str, what: str, args: dict[str, Any]) -> dict[str, Any]:
        """Ask the table's owner to answer an HTTP request (``what``: an op of ``ops``).
        Returns ``{"status", "body"}`` or ``{"status", "error"}``."""
        while True:
            table = await self.locate(table_id)
            if table is not None:  # it came here meanwhile
                try:
                    return {"status": 200, "body": await self.ops[what](table, args)}
                except RequestError as exc:
                    return {"status": exc.status, "error": exc.message}
            rid = secrets.token_hex(8)
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self.calls[rid] = future
            got = await self._publish_now(
                table_id, {"op": "call", "rid": rid, "what": what, "args": args}
            )
            try:
                if not got:
                    continue
                answer = await asyncio.wait_for(future, CALL_WAIT)
            except TimeoutError:
                continue  # its owner died while answering: find the table again
            finally:
                self.calls.pop(rid, None)
            if not answer.get("retry"):
                return answer
            await asyncio.sleep(0.1)

    # -- leases, orphans, the lobby, the other ends -------------------------------------

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            started = time.monotonic()
            held = await self.manager.store.renew(self.name, self.ttl)
            for table_id, table in list(self.manager.tables.items()):
                if table.state.match_over or table_id in held:
                    continue
                if self.since.get(table_id, started) >= started:
                    continue  # taken after the renewal began: its lease is fresh
                log.warning("table %s: its lease was lost; another process runs it", table_id)
                self.manager.lose(table)
            for table_id in list(self.subscribed):
                live = self.manager.tables.get(table_id)
                if live is None or live.gone or live.state.match_over:
                    await self._unsubscribe(table_id)

    async def _adopt(self) -> None:
        """Tables whose owner died and that nobody asked for: run them (their bots and
        timers must go on)."""
        while True:
            await asyncio.sleep(self.ttl)
            for table_id in await self.manager.store.orphans(limit=50):
                if table_id in self.manager.tables:
                    continue
                try:
                    table = await self.manager.get(table_id)
                except (Elsewhere, RequestError):
                    continue
                if table is not None and not table.state.match_over:
                    log.info("table %s: its process is gone; running it here", table_id)
                    self.manager.kick_bots(table)

    async def _lobby(self) -> None:
        assert self.redis is not None
        while True:
            mine = [
                table_summary(t)
                for t in self.manager.tables.values()
                if t.row.public and not t.row.finished and not t.state.match_over and not t.gone
            ]
            key = f"mazo:lobby:{self.name}"
            if mine:
                await self.redis.set(key, json.dumps(mine), ex=LOBBY_KEEP)
            else:
                await self.redis.delete(key)
            others: list[dict[str, Any]] = []
            keys = [k async for k in self.redis.scan_iter(match="mazo:lobby:*", count=500)]
            keys = [k for k in keys if k.decode() != key]
            if keys:
                for value in await self.redis.mget(keys):
                    if value:
                        others.extend(json.loads(value))
            self.lobby_entries = others
            await asyncio.sleep(LOBBY_EVERY)

    async def _watch(self) -> None:
        """Close relayed sockets whose owner is gone (1012: the page reconnects and the
        table is found again); detach sockets whose relaying process is gone."""
        assert self.redis is not None
        while True:
            await asyncio.sleep(WATCH_EVERY)
            tables = sorted({r.table_id for r in self.relays.values()})
            if tables:
                counts = dict(await self.redis.pubsub_numsub(*map(table_channel, tables)))
                for relay in list(self.relays.values()):
                    if not int(counts.get(table_channel(relay.table_id).encode(), 0)):
                        self.relays.pop(relay.conn_id, None)
                        relay.conn.close(1012)
            procs = sorted({proc for proc, _ in self.remote})
            if procs:
                counts = dict(await self.redis.pubsub_numsub(*map(process_channel, procs)))
                for (proc, conn_id), conn in list(self.remote.items()):
                    if not int(counts.get(process_channel(proc).encode(), 0)):
                        del self.remote[(proc, conn_id)]
                        for table in list(self.manager.tables.values()):
                            if conn in table.conns:
                                self._drop_remote(table.row.id, conn)


def _grouped(batch: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """The batch with each run of one text to several sockets of one process (a broadcast:
    the same state to every watcher there) as one message ``{"conns": [...], "text"}``.
    Only consecutive messages are merged, so every socket's messages keep their order."""
    out: list[tuple[str, dict[str, Any]]] = []
    for channel, body in batch:
        if out and body.keys() == {"conn", "text"}:
            last_channel, last = out[-1]
            if last_channel == channel and "conns" in last and last["text"] == body["text"]:
                last["conns"].append(body["conn"])
                continue
        if body.keys() == {"conn", "text"}:
            body = {"conns": [body["conn"]], "text": body["text"]}
        out.append((channel, body))
    return out
