"""Limits (issue 17 item 6): a paginated, cached lobby; per-client limits on creating
tables and on sockets; watchers per table and sockets per seat; abandoned tables closed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from mazo.server.app import create_app

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
