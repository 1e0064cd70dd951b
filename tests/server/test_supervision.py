"""What keeps one server standing (issue 17, items 3 to 5): a stored table that cannot be
replayed is quarantined while every other table starts; one server per SQLite file; the
bot worker pool is replaced when a worker dies, and no worker outlives its server."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import mazo
from mazo.server.app import create_app

from .harness import Client, free_port, http, new_table
from .test_restart import play_moves, serve_process, wait_until_up

HUMAN_AND_BOT = [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "normal"}]


def children(pid: int) -> set[int]:
    """The live (not zombie) processes whose parent is ``pid``, from /proc."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            out.add(int(entry.name))
    return out


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def play_a_few(client: TestClient, table: dict[str, Any], moves: int = 3) -> int:
    """Play seat 0's first legal move ``moves`` times (the bot answers); the version."""
    url = f"/ws/tables/{table['id']}?token={table['seats'][0]['token']}"
    with client.websocket_connect(url) as ws:
        state = ws.receive_json()
        made = 0
        while made < moves:
            obs = state["observation"]
            if obs["to_act"] == 0 and state["table"]["ready"] is None:
                ws.send_json(
                    {"type": "act", "version": state["version"], "action": obs["legal_actions"][0]}
                )
                made += 1
            state = ws.receive_json()
            while state["type"] != "state":
                state = ws.receive_json()
        while state["observation"]["to_act"] != 0:  # the bot answered: the table rests
            state = ws.receive_json()
        return int(state["version"])


def corrupt(db: Path, ids: dict[str, str]) -> None:
    """Break stored tables as an editor or a bad migration would."""
    con = sqlite3.connect(db)
    with con:
        con.execute(
            "UPDATE actions SET action = 'ZZ' WHERE table_id = ? AND n = 2", (ids["edited"],)
        )
        con.execute("DELETE FROM actions WHERE table_id = ? AND n = 2", (ids["deleted"],))
        con.execute(
            "UPDATE tables SET options = '{\"no_such_option\": 1}' WHERE id = ?", (ids["option"],)
        )
        con.execute("UPDATE tables SET game = 'poker' WHERE id = ?", (ids["game"],))
    con.close()


REASONS = {
    "edited": "stored action 2 ('ZZ' by seat",
    "deleted": "stored action 2 is missing",
    "option": "no option no_such_option",
    "game": "unknown game 'poker'",
}


def test_a_bad_stored_table_is_quarantined_and_every_other_table_starts(
    db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = {"dwell": 0}
    with TestClient(create_app(db, bot_delay=0, allow_seed=True, bot_processes=False)) as c:
        tables = {
            kind: new_table(c, seed=i, seats=HUMAN_AND_BOT, public=True, settings=settings)
            for i, kind in enumerate(["edited", "deleted", "option", "game", "good"])
        }
        versions = {kind: play_a_few(c, table) for kind, table in tables.items()}
    ids = {kind: t["id"] for kind, t in tables.items()}
    corrupt(db, ids)

    caplog.set_level(logging.ERROR, logger="mazo.server")
    with TestClient(create_app(db, bot_delay=0, allow_seed=True, bot_processes=False)) as c:
        health = c.get("/api/health").json()
        assert health["ok"] is True
        quarantined = {q["id"]: q["reason"] for q in health["quarantined"]}
        assert set(quarantined) == {ids[k] for k in REASONS}
        for kind, says in REASONS.items():
            assert says in quarantined[ids[kind]], quarantined
            assert ids[kind] in caplog.text  # logged with its id
            r = c.get(f"/api/tables/{ids[kind]}")
            assert r.status_code == 503, r.text
            assert (
                r.json()["error"] == f"table {ids[kind]} is unavailable: {quarantined[ids[kind]]}"
            )
            with c.websocket_connect(f"/ws/tables/{ids[kind]}") as ws:
                error = ws.receive_json()
                assert error["code"] == "table_unavailable" and says in error["message"]
        assert "Traceback" not in caplog.text
        # The lobby lists the good table only; it resumed where it was and plays on.
        assert [t["id"] for t in c.get("/api/tables").json()["tables"]] == [ids["good"]]
        good = c.get(f"/api/tables/{ids['good']}").json()
        assert good["version"] == versions["good"]
        assert play_a_few(c, tables["good"], moves=1) > versions["good"]


def test_mazo_serve_starts_with_a_bad_stored_table_and_reports_it(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    with TestClient(create_app(db, bot_delay=0, allow_seed=True, bot_processes=False)) as c:
        tables = {
            kind: new_table(c, seed=i, seats=HUMAN_AND_BOT, settings={"dwell": 0})
            for i, kind in enumerate(["edited", "deleted", "option", "game", "good"])
        }
        for table in tables.values():
            play_a_few(c, table)
    ids = {kind: t["id"] for kind, t in tables.items()}
    corrupt(db, ids)
    port = free_port()
    address = f"127.0.0.1:{port}"
    proc = serve_process(port, db, bot_delay=0, log_level="warning")
    try:
        wait_until_up(address, proc)
        health = http(address, "GET", "/api/health")[1]
        assert {q["id"] for q in health["quarantined"]} == {ids[k] for k in REASONS}
        status, answer = http(address, "GET", f"/api/tables/{ids['edited']}")
        assert status == 503 and "stored action 2" in answer["error"]

        async def play_on() -> int:
            client = await Client.open(address, ids["good"], tables["good"]["seats"][0]["token"])
            assert client.latest is not None
            before = int(client.latest["version"])
            await play_moves(client, 1)
            await client.close()
            assert client.latest is not None
            return int(client.latest["version"]) - before

        assert asyncio.run(play_on()) >= 1
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    log = err.decode()
    for kind in REASONS:
        assert f"table {ids[kind]} is quarantined" in log, log


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for proc in started:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def test_a_second_server_on_the_same_file_refuses_to_start(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    db = tmp_path / "tables.sqlite3"
    port = free_port()
    first = serve_process(port, db, bot_delay=0, log_level="warning")
    processes.append(first)
    wait_until_up(f"127.0.0.1:{port}", first)

    second = serve_process(free_port(), db, bot_delay=0, log_level="warning")
    processes.append(second)
    _, err = second.communicate(timeout=30)
    assert second.returncode != 0
    message = err.decode()
    assert f"another mazo serve (process {first.pid}) is already using the database" in message
    assert str(db) in message and "Traceback" not in message
    assert http(f"127.0.0.1:{port}", "GET", "/api/health")[0] == 200  # the first goes on

    # kill -9 leaves no stale lock: the kernel drops it with the process
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)
    port = free_port()
    third = serve_process(port, db, bot_delay=0, log_level="warning")
    processes.append(third)
    wait_until_up(f"127.0.0.1:{port}", third)


def bot_first_seeds(start: int = 0) -> Iterator[int]:
    """Seeds of 2-player Briscola matches where seat 1 (the bot) plays first."""
    game = mazo.load_game("briscola", 2)
    return (seed for seed in range(start, start + 1000) if game.new_match(seed=seed).to_act == 1)


def bot_first_table(client: TestClient, level: str, start: int = 0) -> dict[str, Any]:
    """A Briscola table where the bot (seat 1, ``level``) is to move first."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": level}]
    return new_table(client, seed=next(bot_first_seeds(start)), seats=seats)


def wait_for_version(client: TestClient, table_id: str, version: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while client.get(f"/api/tables/{table_id}").json()["version"] < version:
        assert time.monotonic() < deadline, "the bot did not move"
        time.sleep(0.05)


def test_a_killed_bot_worker_is_replaced_and_the_search_goes_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="mazo.server")
    app = create_app(tmp_path / "t.sqlite3", bot_delay=0, allow_seed=True, bot_processes=True)
    with TestClient(app) as client:
        warm = bot_first_table(client, "hard")
        wait_for_version(client, warm["id"], 1)
        runner = app.state.manager.bots  # type: ignore[attr-defined]
        pids = [p.pid for p in runner._processes._processes.values()]
        assert pids, "the hard bot ran in the process pool"
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in pids):
            assert time.monotonic() < deadline
            time.sleep(0.05)

        table = bot_first_table(client, "hard", start=40)
        wait_for_version(client, table["id"], 1)
        # the move was the search's, not the first-legal fallback of a broken pool
        assert "first legal move" not in caplog.text, caplog.text
        # the restart is logged with the table and seat; the new pool's workers answer
        assert f"at table {table['id']} seat 1; starting a new pool (restart 1)" in caplog.text
        bots = client.get("/api/health").json()["bots"]
        assert bots["restarts"] == 1 and bots["alive"] >= 1, bots
        assert not set(runner.worker_pids()) & set(pids)


def test_health_reports_the_database_and_the_bot_pool(client: TestClient) -> None:
    health = client.get("/api/health").json()
    assert health["ok"] is True and health["database"] == {"ok": True, "kind": "sqlite"}
    assert health["bots"] == {"processes": False, "workers": 0, "alive": 0, "restarts": 0}
    assert health["quarantined"] == []


def bot_first_over_http(address: str, level: str) -> str:
    """A Briscola table of a real server where the bot (``level``) moves first; its id."""
    body = {
        "game": "briscola",
        "players": 2,
        "seed": next(bot_first_seeds()),
        "seats": [{"kind": "human"}, {"kind": "bot", "level": level}],
    }
    status, table = http(address, "POST", "/api/tables", body)
    assert status == 201
    return str(table["id"])


def started_workers(server: subprocess.Popen[bytes]) -> set[int]:
    """Wait until the server has started its bot pool; its child processes (the workers,
    and multiprocessing's resource tracker)."""
    deadline = time.monotonic() + 30
    while not children(server.pid):
        assert time.monotonic() < deadline, "no bot worker started"
        time.sleep(0.02)
    time.sleep(0.5)  # the expert search (about 1 s) is under way
    return children(server.pid)


def gone_within(workers: set[int], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in workers):
        left = {pid for pid in workers if alive(pid)}
        assert time.monotonic() < deadline, f"workers outlived the server: {left}"
        time.sleep(0.1)


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM])
def test_bot_workers_end_with_their_server_even_during_a_search(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]], stop: signal.Signals
) -> None:
    """kill -9 runs no shutdown code; SIGTERM lets uvicorn stop, while an expert search
    (about a second) may be running: either way no worker is left behind."""
    port = free_port()
    address = f"127.0.0.1:{port}"
    server = serve_process(port, tmp_path / "tables.sqlite3", bot_delay=0, log_level="warning")
    processes.append(server)
    wait_until_up(address, server)
    bot_first_over_http(address, "expert")
    workers = started_workers(server)
    server.send_signal(stop)
    server.wait(timeout=15)
    gone_within(workers, 5)
