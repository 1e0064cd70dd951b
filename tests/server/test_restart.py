"""Durability: kill the server mid-match (SIGKILL: no shutdown code runs), start it again
on the same database, and finish the match; bots that were to move move again."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import Client, free_port, http

SERVERS: dict[str, subprocess.Popen[bytes]] = {}


def serve_process(port: int, db: Path, bot_delay: float, log_level: str) -> subprocess.Popen[bytes]:
    """``mazo serve`` in its own process (seeds allowed), its log on a pipe."""
    command = [sys.executable, "-m", "mazo", "serve", "--port", str(port), "--db", str(db)]
    command += ["--bot-delay", str(bot_delay), "--allow-seed", "--log-level", log_level]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def wait_until_up(address: str, proc: subprocess.Popen[bytes]) -> None:
    """Poll /api/health for up to 30 s; a server that exits or never answers fails."""
    deadline = time.monotonic() + 30
    while True:
        with contextlib.suppress(OSError):
            if http(address, "GET", "/api/health")[0] == 200:
                return
        if proc.poll() is not None or time.monotonic() > deadline:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"mazo serve did not start: {err}")
        time.sleep(0.1)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[object]:
    started: list[subprocess.Popen[bytes]] = []

    def start(db: Path, bot_delay: float = 0.0) -> str:
        port = free_port()
        proc = serve_process(port, db, bot_delay=bot_delay, log_level="warning")
        started.append(proc)
        address = f"127.0.0.1:{port}"
        SERVERS[address] = proc
        wait_until_up(address, proc)
        return address

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def kill(address: str) -> None:
    """SIGKILL the server started on ``address`` (no shutdown code runs)."""
    proc = SERVERS.pop(address)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


async def play_moves(client: Client, moves: int) -> None:
    """Play ``moves`` of this seat's moves (the first legal one each time)."""
    made = 0
    while made < moves:
        message = client.latest
        assert message is not None
        obs = message["observation"]
        if obs["match_over"]:
            return
        if obs["to_act"] == client.seat:
            await client.act(obs["legal_actions"][0])
            made += 1
            version = message["version"]
            await client.until(lambda m, v=version: m["type"] == "state" and m["version"] > v)
        else:
            await client.receive()


def test_a_killed_server_resumes_every_table_where_it_was(tmp_path: Path, serve: object) -> None:
    db = tmp_path / "tables.sqlite3"
    start = serve  # type: ignore[assignment]
    address = start(db)  # type: ignore[operator]
    status, table = http(
        address,
        "POST",
        "/api/tables",
        {
            "game": "briscola",
            "players": 2,
            "seed": 12,
            "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "normal"}],
            # plays through deal ends without clicking on (no pause after a deal)
            "settings": {"dwell": 0},
        },
    )
    assert status == 201
    token = table["seats"][0]["token"]

    async def first_half() -> dict[str, object]:
        client = await Client.open(address, table["id"], token)
        await play_moves(client, 12)
        # Wait until the bot has answered too: the table rests on the person's turn.
        while client.latest["observation"]["to_act"] != 0:  # type: ignore[index]
            await client.receive()
        await client.close()
        assert client.latest is not None
        return client.latest

    before = asyncio.run(first_half())
    kill(address)
    address = start(db)  # type: ignore[operator]

    async def second_half() -> dict[str, object]:
        client = await Client.open(address, table["id"], token)
        resumed = client.latest
        assert resumed is not None
        assert resumed["version"] == before["version"]
        assert resumed["observation"] == before["observation"]
        assert resumed["history"] == before["history"]
        while not client.latest["observation"]["match_over"]:  # type: ignore[index]
            await play_moves(client, 1)
        await client.close()
        return client.latest  # type: ignore[return-value]

    final = asyncio.run(second_half())
    assert final["table"]["status"] == "finished"  # type: ignore[index]
    assert final["observation"]["winner"] in (0, 1)  # type: ignore[index]


def test_a_bot_that_was_to_move_moves_after_the_restart(tmp_path: Path, serve: object) -> None:
    db = tmp_path / "tables.sqlite3"
    start = serve  # type: ignore[assignment]
    # A long bot delay: the server dies while the bot waits to move.
    address = start(db, bot_delay=9)  # type: ignore[operator]
    for seed in range(40):
        status, table = http(
            address,
            "POST",
            "/api/tables",
            {
                "game": "escoba",
                "players": 2,
                "seed": seed,
                "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
            },
        )
        assert status == 201
        if http(address, "GET", f"/api/tables/{table['id']}")[1]["observation"]["to_act"] == 1:
            break
    else:
        pytest.fail("no seed in 0..39 lets the bot move first")
    assert http(address, "GET", f"/api/tables/{table['id']}")[1]["version"] == 0
    kill(address)
    address = start(db, bot_delay=0.0)  # type: ignore[operator]
    deadline = time.monotonic() + 30
    while http(address, "GET", f"/api/tables/{table['id']}")[1]["version"] == 0:
        assert time.monotonic() < deadline, "the bot never moved after the restart"
        time.sleep(0.1)
    view = http(address, "GET", f"/api/tables/{table['id']}")[1]
    assert view["last"]["seat"] == 1


def test_the_server_log_never_shows_a_seat_token(tmp_path: Path) -> None:
    """uvicorn logs each socket's path with its query string; the token is blanked."""
    port = free_port()
    proc = serve_process(port, tmp_path / "t.sqlite3", bot_delay=0, log_level="info")
    address = f"127.0.0.1:{port}"
    try:
        wait_until_up(address, proc)
        status, table = http(
            address,
            "POST",
            "/api/tables",
            {"game": "briscola", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]},
        )
        assert status == 201
        token = table["seats"][0]["token"]

        async def visit() -> None:
            client = await Client.open(address, table["id"], token)
            await client.close()

        asyncio.run(visit())
        time.sleep(0.3)
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    log = err.decode()
    assert f"/ws/tables/{table['id']}?token=***" in log, log
    assert token not in log
