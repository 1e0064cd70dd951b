"""Issue 17 item 2: the database off the event loop, every failure reported and logged,
memory never ahead of what is committed.

The SQLite store runs on a thread of its own (ThreadedStore). These tests hold the file's
write lock from another connection (as a backup or a second writer would) or make the
store's calls fail (``ThreadedStore.fault``), and check what people see.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from mazo.server.app import create_app
from mazo.server.limits import Limits
from mazo.server.store import Store


def two_people(client: TestClient, public: bool = False) -> dict[str, Any]:
    body: dict[str, Any] = {
        "game": "briscola",
        "players": 2,
        "seed": 5,
        "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"}],
        "public": public,
    }
    if not public:
        body["seats"][1]["name"] = "Bea"
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table: dict[str, Any] = r.json()
    return table


def to_act(client: TestClient, table: dict[str, Any]) -> tuple[str, str]:
    """The token of the seat to act and one of its legal actions."""
    view = client.get(f"/api/tables/{table['id']}").json()
    seat = view["observation"]["to_act"]
    token = table["seats"][seat]["token"]
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        legal = ws.receive_json()["observation"]["legal_actions"]
    return token, legal[0]


def failing(names: set[str], times: int = 10**9) -> Any:
    """A fault hook: the store's calls named in ``names`` fail ``times`` times."""
    left = [times]

    def fault(name: str) -> None:
        if name in names and left[0] > 0:
            left[0] -= 1
            raise sqlite3.OperationalError("database is locked")

    return fault


@pytest.fixture
def app(db: Path) -> Any:
    # many tables from one address: the creation limit is tests/server/test_limits.py's
    return create_app(
        db, bot_delay=0, allow_seed=True, bot_processes=False, limits=Limits(creates_per_minute=0)
    )


def test_a_locked_database_does_not_hold_up_other_tables(app: Any, db: Path) -> None:
    """While another connection holds the file's write lock, a person's act waits for it,
    and meanwhile another table's socket still answers at once."""
    with TestClient(app) as client:
        a, b = two_people(client), two_people(client)
        token, action = to_act(client, a)
        holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN IMMEDIATE")  # the write lock, as a backup or another writer
        released = threading.Event()

        def release_later() -> None:  # a safety net: never hold it past the busy timeout
            time.sleep(4)
            released.set()
            holder.execute("COMMIT")

        threading.Thread(target=release_later, daemon=True).start()
        with (
            client.websocket_connect(f"/ws/tables/{a['id']}?token={token}") as wa,
            client.websocket_connect(f"/ws/tables/{b['id']}") as wb,
        ):
            assert wa.receive_json()["version"] == 0
            assert wb.receive_json()["type"] == "state"
            wa.send_json({"type": "act", "version": 0, "action": action})
            wb.send_json({"type": "ping"})
            assert wb.receive_json() == {"type": "pong"}
            # the ping was answered while the act still waited on the lock
            assert not released.is_set()
            released.wait()
            state = wa.receive_json()
            assert state["type"] == "state" and state["version"] == 1
        holder.close()
    assert len(Store(db).load_table(a["id"])[1]) == 1  # type: ignore[index]


def test_a_failed_action_write_is_reported_and_changes_nothing(
    app: Any, db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="mazo.server")
    with TestClient(app) as client:
        table = two_people(client)
        token, action = to_act(client, table)
        store = app.state.manager.store
        store.fault = failing({"append_action"})
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
            assert ws.receive_json()["version"] == 0
            ws.send_json({"type": "act", "version": 0, "action": action})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "store_failed", error
            assert "not taken" in error["message"] and error["version"] == 0
            # nothing moved: the same version, the same hand, nothing stored
            assert client.get(f"/api/tables/{table['id']}").json()["version"] == 0
            assert Store(db).load_table(table["id"])[1] == []  # type: ignore[index]
            store.fault = None
            ws.send_json({"type": "act", "version": 0, "action": action})
            assert ws.receive_json()["version"] == 1  # the same action, now taken
    assert f"table {table['id']} seat" in caplog.text and "could not be stored" in caplog.text


def test_a_failed_claim_leaves_the_seat_open(app: Any, db: Path) -> None:
    with TestClient(app) as client:
        table = two_people(client, public=True)
        app.state.manager.store.fault = failing({"set_seat"})
        r = client.post(f"/api/tables/{table['id']}/seats/1/claim", json={"name": "Eva"})
        assert r.status_code == 503 and "nothing changed" in r.json()["error"], r.text
        seat = client.get(f"/api/tables/{table['id']}").json()["seats"][1]
        assert seat["claimable"] and seat["name"] == ""  # not claimed with a token nobody got
        assert Store(db).load_table(table["id"])[0].seats[1].token_hash is None  # type: ignore[index]
        app.state.manager.store.fault = None
        r = client.post(f"/api/tables/{table['id']}/seats/1/claim", json={"name": "Eva"})
        assert r.status_code == 200 and r.json()["token"]


def test_a_failed_rename_is_reported_and_keeps_the_old_name(app: Any) -> None:
    with TestClient(app) as client:
        table = two_people(client)
        token = table["seats"][0]["token"]
        app.state.manager.store.fault = failing({"set_seat"})
        with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
            ws.receive_json()
            ws.send_json({"type": "name", "name": "Zoe"})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "store_failed", error
        assert client.get(f"/api/tables/{table['id']}").json()["seats"][0]["name"] == "Ana"


def test_a_bot_whose_move_could_not_be_stored_tries_again(
    app: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot's task neither dies nor waits for a change: the table is not stuck."""
    caplog.set_level(logging.INFO, logger="mazo.server")
    with TestClient(app) as client:
        app.state.manager.store.fault = failing({"append_action"}, times=2)
        for seed in range(40):  # a seed where the bot leads
            r = client.post(
                "/api/tables",
                json={
                    "game": "briscola",
                    "players": 2,
                    "seed": seed,
                    "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "easy"}],
                },
            )
            view = client.get(f"/api/tables/{r.json()['id']}").json()
            if view["observation"]["to_act"] == 1:
                break
        table_id = r.json()["id"]
        deadline = time.monotonic() + 15
        while client.get(f"/api/tables/{table_id}").json()["version"] < 1:
            assert time.monotonic() < deadline, "the bot's move was never stored"
            time.sleep(0.05)
    assert f"table {table_id} seat 1: action 1" in caplog.text
    assert "trying again" in caplog.text


def test_health_says_when_the_database_hangs(app: Any) -> None:
    with TestClient(app) as client:

        def hang(name: str) -> None:
            if name == "check":
                time.sleep(3)

        app.state.manager.store.fault = hang
        r = client.get("/api/health")
        assert r.status_code == 503
        assert r.json()["database"] == {"ok": False, "kind": "sqlite", "error": "no answer in 2 s"}
        app.state.manager.store.fault = None
