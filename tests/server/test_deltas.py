"""Changes of names and connections reach the other sockets as small ``seats`` deltas,
coalesced per table, never as full states (docs/protocol.md, issue 17 item 7).

A full ``state`` is one observation per socket; a reconnect storm used to send every
socket of the table one per connect and one per disconnect (20 reconnects of a player
watched by 1,500 people: 61,500 messages).  Here real sockets count what arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from models import cards_named, deck_codes

import mazo
import mazo.server.tables as tables_module

from .browser_fixtures import create_table as create_page_table
from .browser_fixtures import new_page
from .harness import Client, create_table, http, running_server

SEAT_KEYS = {"seat", "kind", "name", "connected", "claimable", "autoplay", "level"}


async def drain(client: Client, quiet: float = 0.4) -> list[dict[str, Any]]:
    """Every message that arrives until none has for ``quiet`` seconds."""
    got = []
    with contextlib.suppress(TimeoutError):
        while True:
            got.append(await client.receive(timeout=quiet))
    return got


def check_seats_message(message: dict[str, Any], codes: frozenset[str]) -> None:
    """A ``seats`` message holds the seats and the watcher count, nothing that names a card."""
    assert set(message) == {"type", "version", "seats", "watchers"}, message
    for seat in message["seats"]:
        assert set(seat) <= SEAT_KEYS, seat
    assert not cards_named(json.dumps(message), codes), message


def of_type(messages: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [m for m in messages if m["type"] == kind]


def briscola_codes() -> frozenset[str]:
    return frozenset(deck_codes(mazo.load_game("briscola", 2)))


def test_reconnects_reach_watchers_as_a_few_seats_deltas(tmp_path: Path) -> None:
    watchers, reconnects = 10, 20
    codes = briscola_codes()

    async def run(address: str) -> None:
        # Two people and nobody acting: nothing but connections changes the table.
        table = await create_table(
            address,
            {
                "game": "briscola",
                "players": 2,
                "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"}],
            },
        )
        token = table["seats"][0]["token"]
        watching = [await Client.open(address, table["id"]) for _ in range(watchers)]
        for w in watching:
            await drain(w, quiet=0.2)  # the watchers' own arrivals
        for _ in range(reconnects):
            ana = await Client.open(address, table["id"], token)
            await ana.close()
        ana = await Client.open(address, table["id"], token)  # and she stays
        for w in watching:
            got = await drain(w)
            # not one full state for a connection: the version never moved
            assert not of_type(got, "state"), [m["type"] for m in got]
            seats = of_type(got, "seats")
            assert seats and len(seats) == len(got)
            # at most one per change; in practice the changes of a window share one
            assert len(seats) <= 2 * reconnects + 1
            for m in seats:
                check_seats_message(m, codes)
                assert m["version"] == 0 and m["watchers"] == watchers
            # the last one says how it ended: Ana is here, seat 2 is not
            assert [s["connected"] for s in seats[-1]["seats"]] == [True, False]
        await ana.close()
        for w in watching:
            last = of_type(await drain(w), "seats")[-1]
            assert [s["connected"] for s in last["seats"]] == [False, False]
            await w.close()

    with running_server(tmp_path / "t.sqlite3") as address:
        asyncio.run(run(address))


def test_a_burst_of_connects_makes_one_delta_per_window(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A wide window, so a slow test runner still fits the burst into one.
    monkeypatch.setattr(tables_module, "SEATS_DELAY", 0.5)
    burst = 8

    async def run(address: str) -> None:
        table = await create_table(
            address,
            {"game": "briscola", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]},
        )
        watcher = await Client.open(address, table["id"])
        await drain(watcher, quiet=0.7)
        tokens = [table["seats"][i % 2]["token"] for i in range(burst // 2)]
        others = await asyncio.gather(
            *(Client.open(address, table["id"], t) for t in tokens),
            *(Client.open(address, table["id"]) for _ in range(burst - len(tokens))),
        )
        got = await drain(watcher, quiet=1.0)
        assert not of_type(got, "state")
        seats = of_type(got, "seats")
        assert 1 <= len(seats) < burst, len(seats)
        assert seats[-1]["watchers"] == 1 + burst - len(tokens)
        assert [s["connected"] for s in seats[-1]["seats"]] == [True, True]
        # each newcomer got its own full state first, and no delta of its own arrival
        # unless someone else arrived after it
        for c in others:
            assert json.loads(c.texts[0])["type"] == "state"
            await c.close()
        await watcher.close()

    with running_server(tmp_path / "t.sqlite3") as address:
        asyncio.run(run(address))


def test_rename_and_claim_reach_the_others_as_seats(tmp_path: Path) -> None:
    codes = briscola_codes()

    async def run(address: str) -> None:
        table = await create_table(
            address,
            {
                "game": "briscola",
                "players": 2,
                "public": True,
                "seats": [{"kind": "human"}, {"kind": "human", "name": "Ana"}],
            },
        )
        ana = await Client.open(address, table["id"], table["seats"][1]["token"])
        watcher = await Client.open(address, table["id"])
        await drain(ana)
        await drain(watcher)

        # A claim (HTTP) names the open seat and closes it to other claimers.
        path = f"/api/tables/{table['id']}/seats/0/claim"
        status, answer = await asyncio.to_thread(http, address, "POST", path, {"name": "Bea"})
        assert status == 200, answer
        for c in (ana, watcher):
            got = await drain(c)
            assert [m["type"] for m in got] == ["seats"], got
            check_seats_message(got[0], codes)
            seat = got[0]["seats"][0]
            assert (seat["name"], seat["claimable"], seat["connected"]) == ("Bea", False, False)

        # Bea connects and renames herself: everyone, Bea too (her answer), gets seats.
        bea = await Client.open(address, table["id"], answer["token"])
        await drain(bea)
        await bea.send({"type": "name", "name": "Beatriz"})
        for c in (ana, watcher, bea):
            got = await drain(c)
            assert not of_type(got, "state"), got
            last = of_type(got, "seats")[-1]
            check_seats_message(last, codes)
            assert last["seats"][0]["name"] == "Beatriz" and last["seats"][0]["connected"]
        for c in (ana, watcher, bea):
            await c.close()

    with running_server(tmp_path / "t.sqlite3") as address:
        asyncio.run(run(address))


def test_actions_still_send_full_states_and_cancel_a_pending_delta(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A state sent while a delta waits shows the seats already: the delta is dropped.
    monkeypatch.setattr(tables_module, "SEATS_DELAY", 0.5)

    async def run(address: str) -> None:
        table = await create_table(
            address,
            {
                "game": "briscola",
                "players": 2,
                "seed": 5,
                "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}],
            },
        )
        players = [await Client.open(address, table["id"], s["token"]) for s in table["seats"]]
        watcher = await Client.open(address, table["id"])
        await asyncio.sleep(0.7)
        for c in (*players, watcher):
            await drain(c)
        mover = next(p for p in players if p.latest and p.latest["observation"]["to_act"] == p.seat)
        assert mover.latest is not None
        late = await Client.open(address, table["id"])  # a delta is now due...
        await mover.act(mover.latest["observation"]["legal_actions"][0])  # ...a state goes first
        got = await drain(watcher, quiet=1.0)
        assert [m["type"] for m in got] == ["state"], got
        assert got[0]["version"] == 1 and got[0]["table"]["watchers"] == 2
        for c in (*players, watcher, late):
            await c.close()

    with running_server(tmp_path / "t.sqlite3") as address:
        asyncio.run(run(address))


def test_browser_page_shows_a_seat_online_from_the_delta(base: str, browser: Any) -> None:
    """A second person connecting turns the first page's seat of theirs online through the
    ``seats`` delta alone: the page merges it into its state (no second state arrives)."""
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]
    t = create_page_table(base, "briscola", 2, seats, settings={"dwell": 0})
    pages = [new_page(browser) for _ in range(2)]
    try:
        ana, bea = (pg for _c, pg, _e in pages)
        frames: list[dict[str, Any]] = []
        ana.on(
            "websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(json.loads(f)))
        )
        ana.goto(base + t["seats"][0]["join_url"])
        ana.wait_for_selector("#status[data-version]")
        bea_seat = "#seats .seat[data-seat='1']"
        assert "away" in (ana.get_attribute(bea_seat, "class") or "")
        bea.goto(base + t["seats"][1]["join_url"])
        bea.wait_for_selector("#status[data-version]")
        ana.wait_for_function(
            f"!document.querySelector(\"{bea_seat}\").classList.contains('away')", timeout=5000
        )
        assert [f["type"] for f in frames if f["type"] != "pong"] == ["state", "seats"]
        assert ana.locator(f"{bea_seat} .badge.away").count() == 0
        # and she leaves: the seat goes away again, by the same road
        pages[1][0].close()
        ana.wait_for_function(
            f"document.querySelector(\"{bea_seat}\").classList.contains('away')", timeout=5000
        )
        assert [f["type"] for f in frames if f["type"] != "pong"] == ["state", "seats", "seats"]
    finally:
        for context, _pg, errors in pages:
            context.close()
            assert not errors, errors
