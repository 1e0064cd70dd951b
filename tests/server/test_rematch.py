"""Rematch (docs/protocol.md): once the match is over a seated person asks for one; the
server makes one new table with the same seats, names, bots, options and settings, a new
seed, and the same token digests, so every person's link works with the new id."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

from mazo.server.store import Store

from .flow import is_state, play_until
from .harness import Client, create_table, http, running_server

BODY: dict[str, Any] = {
    "game": "briscola",
    "players": 4,
    "seed": 6,
    "title": "Friday club",
    "options": {"match_wins_target": 2},
    "seats": [
        {"kind": "human", "name": "Ana"},
        {"kind": "bot", "level": "easy"},
        {"kind": "human", "name": "Bea"},
        {"kind": "bot", "level": "random"},
    ],
    "settings": {"dwell": 0, "hints": True},
}


def over(m: dict[str, Any]) -> bool:
    return bool(m["observation"]["match_over"])


def test_play_again_makes_one_new_table_with_the_same_seats_and_links(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"

    async def scenario(address: str) -> str:
        table = await create_table(address, BODY)
        tokens = [s.get("token") for s in table["seats"]]
        ana = await Client.open(address, table["id"], tokens[0])
        bea = await Client.open(address, table["id"], tokens[2])
        watcher = await Client.open(address, table["id"])
        await ana.send({"type": "rematch"})
        error = await ana.until(lambda m: m["type"] == "error")
        assert error["code"] == "illegal_action" and "not over" in error["message"]
        ends = await asyncio.gather(play_until(ana, over), play_until(bea, over))
        assert all(m["table"]["next"] is None and m["table"]["finished"] for m in ends)
        await ana.send({"type": "rematch"})
        told = [
            await c.until(lambda m: is_state(m) and m["table"]["next"] is not None)
            for c in (ana, bea, watcher)
        ]
        new_id = told[0]["table"]["next"]
        assert {m["table"]["next"] for m in told} == {new_id} and new_id != table["id"]
        # Asking again (Bea too) answers with the same table.
        await bea.send({"type": "rematch"})
        again = await bea.until(is_state)
        assert again["table"]["next"] == new_id
        # The old links open the same seats at the new table, which starts afresh.
        old = http(address, "GET", f"/api/tables/{table['id']}")[1]
        new = http(address, "GET", f"/api/tables/{new_id}")[1]
        for key in ("game", "players", "title", "public", "options", "settings"):
            assert new[key] == old[key], key
        assert new["settings"]["hints"] is True and new["settings"]["dwell"] == 0
        assert [(s["kind"], s.get("level"), s["name"]) for s in new["seats"]] == [
            (s["kind"], s.get("level"), s["name"]) for s in old["seats"]
        ]
        assert new["status"] == "playing" and new["next"] is None
        assert new["finished"] is None
        for seat, token in ((0, tokens[0]), (2, tokens[2])):
            client = await Client.open(address, new_id, token)
            assert client.seat == seat and client.latest is not None
            assert client.latest["observation"]["hand"], "a new deal is in hand"
            await client.close()
        for c in (ana, bea, watcher):
            await c.close()
        return str(new_id)

    with running_server(db) as address:
        new_id = asyncio.run(scenario(address))
    store = Store(db)
    assert len(store.table_ids()) == 2, "one rematch table, however often it was asked for"
    (old_id,) = set(store.table_ids()) - {new_id}
    old_row, _ = store.load_table(old_id)  # type: ignore[misc]
    new_row, actions = store.load_table(new_id)  # type: ignore[misc]
    assert old_row.next == new_id and actions == []
    assert [s.token_hash for s in new_row.seats] == [s.token_hash for s in old_row.seats]
    # A server that takes seeds derives the rematch's from the old one (reproducible).
    digest = hashlib.sha256(f"{old_row.seed}:rematch".encode()).digest()
    assert new_row.seed == int.from_bytes(digest[:8], "big") >> 1 != old_row.seed
    store.close()
    # The link to the rematch survives a restart.
    with running_server(db) as address:
        assert http(address, "GET", f"/api/tables/{old_id}")[1]["next"] == new_id
