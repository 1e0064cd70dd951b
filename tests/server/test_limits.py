"""Limits (issue 17 item 6): a paginated, cached lobby; per-client limits on creating
tables and on sockets; watchers per table and sockets per seat; abandoned tables closed."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from mazo.server.app import create_app
from mazo.server.limits import Limits
from mazo.server.store import Store

from .harness import new_table


def lobby_client(db: Path, **options: Any) -> TestClient:
    options.setdefault("bot_delay", 0)
    options.setdefault("allow_seed", True)
    options.setdefault("bot_processes", False)
    return TestClient(create_app(db, **options))


def test_the_lobby_comes_in_pages_with_a_cursor_newest_first(db: Path) -> None:
    with lobby_client(db, lobby_page=3) as c:
        made = [new_table(c, public=True, seed=i)["id"] for i in range(7)]
        new_table(c, seed=99)  # private: never listed
        first = c.get("/api/tables").json()
        assert len(first["tables"]) == 3  # the default page is the most
        assert first["total"] == 7
        seen = [t["id"] for t in first["tables"]]
        cursor = first["next"]
        while cursor is not None:
            page = c.get("/api/tables", params={"limit": 2, "after": cursor}).json()
            assert 1 <= len(page["tables"]) <= 2
            seen += [t["id"] for t in page["tables"]]
            cursor = page["next"]
        assert seen == made[::-1]
        for bad in ("0", "4", "x", "-1"):
            r = c.get("/api/tables", params={"limit": bad})
            assert r.status_code == 400
            assert "limit must be a whole number from 1 to 3" in r.json()["error"]
        r = c.get("/api/tables", params={"after": "nonsense"})
        assert r.status_code == 400
        assert "after must be the 'next' cursor" in r.json()["error"]
        assert c.get("/api/tables", params={"status": "finished"}).json() == {"tables": []}


def test_the_lobby_list_is_built_once_for_many_requests_and_again_on_a_new_table(
    db: Path,
) -> None:
    with lobby_client(db, lobby_refresh=60) as c:
        table = new_table(c, public=True, seed=1)
        lobby = c.app.state.lobby  # type: ignore[attr-defined]
        for _ in range(20):
            assert [t["id"] for t in c.get("/api/tables").json()["tables"]] == [table["id"]]
        assert lobby.builds == 1
        other = new_table(c, public=True, seed=2)  # a new table is listed at once
        ids = [t["id"] for t in c.get("/api/tables").json()["tables"]]
        assert ids == [other["id"], table["id"]]
        assert lobby.builds == 2


def refused(ws: Any, code: str) -> str:
    """The socket's error (asserted ``code``) and its close code 4429; the message."""
    reply = ws.receive_json()
    assert reply["type"] == "error" and reply["code"] == code, reply
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 4429
    message: str = reply["message"]
    return message


def test_one_client_address_creates_a_limited_number_of_tables_a_minute(db: Path) -> None:
    app = create_app(
        db, bot_delay=0, allow_seed=True, bot_processes=False, limits=Limits(creates_per_minute=3)
    )
    with TestClient(app) as c:
        for i in range(3):
            new_table(c, seed=i)
        r = c.post("/api/tables", json={"game": "briscola", "players": 2})
        assert r.status_code == 429
        assert 1 <= int(r.headers["Retry-After"]) <= 20
        assert "at most 3 a minute" in r.json()["error"]
        with TestClient(app, client=("10.0.0.2", 4000)) as other:  # another address
            new_table(other, seed=7)
    assert len(Store(db).table_ids()) == 4


def test_watchers_per_table_sockets_per_seat_and_per_client_are_capped(db: Path) -> None:
    limits = Limits(watchers_per_table=2, sockets_per_seat=2, sockets_per_client=5)
    app = create_app(db, bot_delay=0, allow_seed=True, bot_processes=False, limits=limits)
    with TestClient(app) as c:
        table = new_table(c, seed=1)
        watch = f"/ws/tables/{table['id']}"
        seat = f"{watch}?token={table['seats'][0]['token']}"
        with contextlib.ExitStack() as stack:
            opened = []
            for url in (watch, watch, seat, seat):
                ws = stack.enter_context(c.websocket_connect(url))
                assert ws.receive_json()["type"] == "state"
                opened.append(ws)
            with c.websocket_connect(watch) as ws:
                assert "2 watchers, the most" in refused(ws, "too_many_watchers")
            with c.websocket_connect(seat) as ws:
                assert "seat 0 is open in 2 places" in refused(ws, "too_many_seat_connections")
            other = new_table(c, seed=2)
            ws = stack.enter_context(c.websocket_connect(f"/ws/tables/{other['id']}"))
            assert ws.receive_json()["type"] == "state"  # the fifth socket of testclient
            with c.websocket_connect(f"/ws/tables/{other['id']}") as ws:
                assert "holds 5 sockets already" in refused(ws, "too_many_connections")
        # every socket closed: the counts are back to nothing
        assert app.state.clients.sockets == {}  # type: ignore[attr-defined]
        with c.websocket_connect(watch) as ws:
            assert ws.receive_json()["type"] == "state"


def test_a_table_nobody_is_at_is_closed_as_abandoned_kept_and_not_resumed(db: Path) -> None:
    app = create_app(
        db, bot_delay=0, allow_seed=True, bot_processes=False, expire_after=0.4, sweep_every=0.05
    )
    with TestClient(app) as c:
        left = new_table(c, public=True, seed=1)
        kept = new_table(
            c, public=True, seed=2, seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot"}]
        )
        watched = new_table(c, public=True, seed=3)
        seat = f"/ws/tables/{kept['id']}?token={kept['seats'][0]['token']}"
        with (
            c.websocket_connect(seat) as ws,
            c.websocket_connect(f"/ws/tables/{watched['id']}") as watcher,
        ):
            assert ws.receive_json()["type"] == "state"
            assert watcher.receive_json()["type"] == "state"
            time.sleep(1.2)
            listed = {t["id"] for t in c.get("/api/tables").json()["tables"]}
            assert listed == {kept["id"], watched["id"]}
        r = c.get(f"/api/tables/{left['id']}")
        assert r.status_code == 410
        assert r.json()["error"].startswith(f"table {left['id']} was closed (abandoned")
        with c.websocket_connect(f"/ws/tables/{left['id']}") as ws:
            assert ws.receive_json()["code"] == "table_closed"
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4410
        # the sockets closed: the other two are abandoned in their turn
        time.sleep(1.2)
        assert c.get("/api/tables").json()["tables"] == []
        assert left["id"] not in app.state.manager.tables  # type: ignore[attr-defined]
    store = Store(db)
    loaded = store.load_table(left["id"])
    assert loaded is not None
    row, _ = loaded
    assert row.finished and row.closed == "abandoned" and row.finished_at is not None
    assert store.table_ids(unfinished_only=True) == []
    assert store.finished_public_ids() == []  # not a finished match: no replay listed
    store.close()


def test_expiry_is_off_with_0_and_tables_stay(db: Path) -> None:
    app = create_app(db, bot_delay=0, bot_processes=False, expire_after=0, sweep_every=0.05)
    with TestClient(app) as c:
        table = new_table(c, public=True)
        time.sleep(0.3)
        assert [t["id"] for t in c.get("/api/tables").json()["tables"]] == [table["id"]]
