"""The turn timer and autoplay (docs/protocol.md): a person whose time runs out is played
by a bot of the table's takeover level until they send ``back``. Timers run at 1/20."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from starlette.testclient import TestClient

from mazo.server.app import create_app

from .flow import is_state, next_version, play_until, quiet
from .harness import Client, create_table, new_table, running_server

SCALE = 0.05  # turn_timer 30 -> 1.5 s


def test_the_timer_hands_a_seat_to_a_bot_and_back_returns_it() -> None:
    async def scenario(address: str) -> None:
        table = await create_table(
            address,
            {
                "game": "briscola",
                "players": 2,
                "seed": 1,
                "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "random"}],
                "settings": {"turn_timer": 30, "takeover": "easy"},
            },
        )
        ana = await Client.open(address, table["id"], table["seats"][0]["token"])
        mine = await play_until(ana, lambda m: m["observation"]["to_act"] == 0)
        seen = time.monotonic()
        turn = mine["table"]["turn"]
        assert turn["seat"] == 0 and turn["limit"] == 1.5 and 1.0 < turn["remaining"] <= 1.5
        # Ana does nothing: the seat goes to a bot, which plays it at once.
        taken = await ana.until(lambda m: is_state(m) and m["table"]["seats"][0]["autoplay"])
        assert time.monotonic() - seen > 1.0
        assert taken["version"] == mine["version"] and taken["table"]["turn"] is None
        played = await next_version(ana, mine["version"])
        assert played["last"]["seat"] == 0
        # ...and on her later turns too, until she is back.
        later = await ana.until(lambda m: is_state(m) and m["version"] > played["version"] + 2)
        assert later["table"]["seats"][0]["autoplay"]
        await ana.send({"type": "back"})
        back = await ana.until(lambda m: is_state(m) and not m["table"]["seats"][0]["autoplay"])
        mine = await play_until(ana, lambda m: m["observation"]["to_act"] == 0)
        assert mine["table"]["turn"]["seat"] == 0
        assert mine["version"] >= back["version"]
        # Her turn waits for her now (the timer runs again: 1.5 s).
        assert await quiet(ana, 0.6) == []
        await ana.act(mine["observation"]["legal_actions"][0])
        assert (await next_version(ana, mine["version"]))["last"]["seat"] == 0
        await ana.close()

    with running_server(Path(":memory:"), timer_scale=SCALE) as address:
        asyncio.run(scenario(address))


def test_watchers_cannot_click_on_or_come_back(client: TestClient) -> None:
    table = new_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.receive_json()
        for kind in ("ready", "back", "rematch"):
            ws.send_json({"type": kind})
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == "spectator", error


def test_the_timer_is_off_at_private_tables_and_60_s_at_public_ones(db: Path) -> None:
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]
    with TestClient(create_app(db, bot_delay=0, allow_seed=True, bot_processes=False)) as c:
        private = new_table(c, seats=seats)
        public = new_table(c, seats=seats, public=True)
        assert c.get(f"/api/tables/{private['id']}").json()["turn"] is None
        turn = c.get(f"/api/tables/{public['id']}").json()["turn"]
        to_act = c.get(f"/api/tables/{public['id']}").json()["observation"]["to_act"]
        assert turn["seat"] == to_act and turn["limit"] == 60 and 55 < turn["remaining"] <= 60
        manager = c.app.state.manager  # type: ignore[attr-defined]
        driver = manager.tables[public["id"]].driver
        assert driver is not None and not driver.done()
    assert driver.done(), "the table's driver stops with the server"
    # After a restart the timer starts again (autoplay and timers live in memory).
    with TestClient(create_app(db, bot_delay=0, bot_processes=False)) as c:
        view = c.get(f"/api/tables/{public['id']}").json()
        assert view["turn"]["seat"] == to_act and view["turn"]["remaining"] > 55
        assert [s["autoplay"] for s in view["seats"]] == [False, False]


def test_playing_your_own_turn_ends_autoplay() -> None:
    async def scenario(address: str) -> None:
        table = await create_table(
            address,
            {
                "game": "escoba",
                "players": 2,
                "seed": 3,
                "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "random"}],
                "settings": {"turn_timer": 30},
            },
        )
        ana = await Client.open(address, table["id"], table["seats"][0]["token"])
        await play_until(ana, lambda m: m["observation"]["to_act"] == 0)
        taken = await ana.until(lambda m: is_state(m) and m["table"]["seats"][0]["autoplay"])
        # The bot playing for her waits bot_delay (0.5 s) before each move: she is faster.
        await ana.act(taken["observation"]["legal_actions"][0])
        mine = await next_version(ana, taken["version"])
        assert mine["last"]["seat"] == 0 and mine["table"]["seats"][0]["autoplay"] is False
        await ana.close()

    with running_server(Path(":memory:"), timer_scale=SCALE, bot_delay=0.5) as address:
        asyncio.run(scenario(address))
