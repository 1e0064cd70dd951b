"""The table socket's protocol: what a client may send and what it is answered.

The same code serves a socket this process holds and a socket another process relays
over the bus (scale-out mode, :mod:`mazo.server.cluster`): :func:`admit` decides whether
a connection may join a table, :func:`handle` answers one client message, and
:func:`receive` reads a socket's messages with the size and rate limits.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from mazo.server.guard import check_depth
from mazo.server.hints import answer_hint
from mazo.server.limits import Limits
from mazo.server.tables import Connection, LiveTable, RequestError, TableManager
from mazo.server.views import state_message

__all__ = ["BURST", "MAX_MESSAGE", "RATE", "admit", "handle", "receive", "refuse", "send_loop"]

MAX_MESSAGE = 4096  # bytes of one client message on the socket
RATE = 100.0  # messages a second a connection may send, on average (scripts play fast)
BURST = 200.0


def admit(limits: Limits, table: LiveTable, token: str | None) -> tuple[int | None, Any]:
    """The seat a new connection plays (None: it watches), or a refusal: ``(None,
    (close_code, code, message))``. Checks the token and the per-table limits (watchers,
    sockets per seat); the per-address limit is the accepting process's."""
    seat: int | None = None
    if token:
        seat = table.seat_for_token(token)
        if seat is None:
            return None, (4403, "bad_token", "this token opens no seat here")
    here = table.connected.get(seat, 0)
    if seat is None and limits.watchers_per_table and here >= limits.watchers_per_table:
        most = limits.watchers_per_table
        why = f"this table has {most} watchers, the most it takes; try again later"
        return None, (4429, "too_many_watchers", why)
    if seat is not None and limits.sockets_per_seat and here >= limits.sockets_per_seat:
        most = limits.sockets_per_seat
        why = f"seat {seat} is open in {most} places already, the most it may be; close one"
        return None, (4429, "too_many_seat_connections", why)
    return seat, None


async def refuse(websocket: WebSocket, close_code: int, code: str, message: str) -> None:
    await websocket.send_text(json.dumps({"type": "error", "code": code, "message": message}))
    await websocket.close(code=close_code)


async def send_loop(websocket: WebSocket, conn: Connection) -> None:
    """Send the connection's queue in order; the end marker closes the socket with the
    connection's close code (fell behind: 4408; the table moved: 1012; a refusal)."""
    while True:
        text = await conn.outbox.get()
        if not text:
            await websocket.close(code=conn.close_code)
            return
        await websocket.send_text(text)


async def receive(
    websocket: WebSocket,
    conn: Connection,
    on_text: Callable[[str], Awaitable[None]],
    version: Callable[[], int | None],
) -> None:
    """Read the socket until it closes: each message within the size and rate limits
    goes to ``on_text``; the others get an error (with ``version()``, the table's)."""
    allowance, stamp = BURST, time.monotonic()
    while True:
        try:
            message = await websocket.receive()
        except WebSocketDisconnect:
            return
        if message["type"] == "websocket.disconnect":
            return
        now = time.monotonic()
        allowance = min(BURST, allowance + (now - stamp) * RATE)
        stamp = now
        if allowance < 1:
            error(conn, version(), "rate_limited", f"too many messages: at most {RATE:g} a second")
            continue
        allowance -= 1
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            if len(raw) > MAX_MESSAGE:
                error(conn, version(), "too_large", f"a message is at most {MAX_MESSAGE} bytes")
                continue
            try:
                text = raw.decode()
            except UnicodeDecodeError:
                error(conn, version(), "bad_message", "messages are UTF-8 JSON text")
                continue
        if len(text.encode()) > MAX_MESSAGE:
            error(conn, version(), "too_large", f"a message is at most {MAX_MESSAGE} bytes")
            continue
        await on_text(text)


async def handle(text: str, manager: TableManager, table: LiveTable, conn: Connection) -> None:
    """Answer one client message; a bad one gets an error (nothing changed)."""
    try:
        await _handle(text, manager, table, conn)
    except RequestError as exc:
        error(conn, table.version, exc.code, exc.message)


async def _handle(text: str, manager: TableManager, table: LiveTable, conn: Connection) -> None:
    check_depth(text, "the message")  # 2 KB of "[" would exhaust the parser's recursion
    try:
        msg = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RequestError(f"not JSON ({exc.msg}); send an object with a type") from exc
    if not isinstance(msg, dict):
        raise RequestError('a message is a JSON object with a "type": act, name or ping')
    kind = msg.get("type")
    if kind == "ping":
        conn.send({"type": "pong"})
    elif kind == "act":
        await manager.act(table, conn.seat, msg.get("version"), msg.get("action"))
    elif kind == "name":
        if conn.seat is None:
            raise RequestError("watchers have no seat to name", code="spectator")
        await manager.rename(table, conn.seat, msg.get("name"))
    elif kind in ("ready", "back"):
        changed = (manager.ready if kind == "ready" else manager.back)(table, conn.seat)
        if not changed:  # every message gets an answer: the state, unchanged
            conn.send(state_message(table, conn.seat))
    elif kind == "rematch":
        await manager.rematch(table, conn.seat)
    elif kind == "hint":
        await answer_hint(table, conn)
    elif kind == "sync":
        conn.send(state_message(table, conn.seat))
    else:
        raise RequestError(
            f"unknown message type {kind!r}; types are: act, name, ping,"
            " sync, ready, back, rematch, hint"
        )


def error(conn: Connection, version: int | None, code: str, message: str) -> None:
    conn.send({"type": "error", "code": code, "message": message, "version": version})
