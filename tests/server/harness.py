"""Helpers for the server tests: a real uvicorn server in a thread, socket clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from mazo.server.app import create_app
from mazo.server.limits import Limits


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(db: Path | str, **options: Any) -> Iterator[str]:
    """A real server on loopback (uvicorn in a thread); yields its base address."""
    options.setdefault("bot_delay", 0.0)
    options.setdefault("allow_seed", True)
    options.setdefault("bot_processes", False)
    # tests create many tables from loopback; tests/server/test_limits.py tests the limits
    options.setdefault("limits", Limits(creates_per_minute=0))
    app = create_app(db, **options)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65_536
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


class Client:
    """One socket to a table: every message it got, the latest state."""

    def __init__(self, ws: ClientConnection, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.texts: list[str] = []
        self.latest: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, address: str, table: str, token: str | None = None) -> Client:
        url = f"ws://{address}/ws/tables/{table}"
        if token:
            url += f"?token={token}"
        ws = await connect(url, max_size=2**22)
        client = cls(ws, None)
        first = await client.receive()
        assert first["type"] == "state", first
        client.seat = first["seat"]
        return client

    async def receive(self, timeout: float = 20) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(text, str)
        self.texts.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            if self.latest is None or message["version"] >= self.latest["version"]:
                self.latest = message
        elif message["type"] == "error":
            self.errors.append(message)
        return message

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def act(self, action: str) -> None:
        assert self.latest is not None
        await self.send({"type": "act", "version": self.latest["version"], "action": action})

    async def until(self, predicate: Any, timeout: float = 30) -> dict[str, Any]:
        """Read messages until ``predicate(message)``; return that message."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the expected message did not come")
            message = await self.receive(left)
            if predicate(message):
                return message

    async def close(self) -> None:
        await self.ws.close()


def http(address: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """A tiny JSON HTTP client over the standard library (no event loop needed)."""
    import http.client

    conn = http.client.HTTPConnection(address, timeout=20)
    data = None if body is None else json.dumps(body)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    conn.request(method, path, body=data, headers=headers)
    response = conn.getresponse()
    raw = response.read()
    conn.close()
    try:
        return response.status, json.loads(raw)
    except json.JSONDecodeError:
        return response.status, raw.decode()


async def create_table(address: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/tables`` from async code; the answer (asserted created)."""
    import asyncio

    status, table = await asyncio.to_thread(http, address, "POST", "/api/tables", body)
    assert status == 201, table
    answer: dict[str, Any] = table
    return answer


def new_table(client: Any, **body: Any) -> dict[str, Any]:
    """``POST /api/tables`` through an in-process test client (default: 2p Briscola);
    the answer (asserted created)."""
    body.setdefault("game", "briscola")
    body.setdefault("players", 2)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer
