"""The table socket of docs/protocol.md: whole matches, refusals that change nothing,
reconnects, out-of-turn calls, names, watchers."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import mazo
from mazo.server.app import MAX_MESSAGE, create_app
from mazo.server.store import Store

from .harness import Client, create_table, new_table, running_server


def next_state(ws: Any) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state":
            return message


def replayed(db: Path, table_id: str) -> Any:
    """The table's state rebuilt from the store alone, by the engine."""
    loaded = Store(db).load_table(table_id)
    assert loaded is not None
    row, actions = loaded
    state = mazo.load_game(row.game, row.players, **row.options).new_match(seed=row.seed)
    for a in actions:
        state = state.apply(a.action, seat=a.seat)
    return state


def test_a_whole_match_against_a_bot_through_the_socket(client: TestClient, db: Path) -> None:
    table = new_table(
        client,
        seed=21,
        seats=[{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "easy"}],
        settings={"dwell": 0},  # no pause after a deal: this player never clicks on
    )
    token = table["seats"][0]["token"]
    versions: list[int] = []
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        while True:
            message = next_state(ws)
            versions.append(message["version"])
            obs = message["observation"]
            assert message["seat"] == 0 and obs["seat"] == 0
            assert message["table"]["seats"][0]["name"] == "Ana"
            if obs["match_over"]:
                break
            if obs["to_act"] == 0:
                ws.send_json(
                    {
                        "type": "act",
                        "version": message["version"],
                        "action": obs["legal_actions"][-1],
                    }
                )
    final = message
    assert versions == sorted(versions)
    assert final["table"]["status"] == "finished"
    assert final["observation"]["winner"] in (0, 1)
    # The history is one line a deal, card-free, and adds up to the scores.
    history = final["history"]
    assert [h["deal"] for h in history] == list(range(1, len(history) + 1))
    assert history[-1]["scores"] == final["observation"]["scores"]
    # What the store kept replays, through the engine, to the very state the clients saw.
    state = replayed(db, table["id"])
    assert state.match_over and state.observation(0) == final["observation"]
    assert final["version"] == len(Store(db).load_table(table["id"])[1])  # type: ignore[index]


def test_refused_messages_answer_the_sender_and_change_nothing(client: TestClient) -> None:
    table = new_table(client, seed=4, seats=[{"kind": "human"}, {"kind": "human"}])
    tokens = [s["token"] for s in table["seats"]]
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={tokens[0]}") as ws:
        first = next_state(ws)
        obs = first["observation"]
        seat = obs["to_act"]
    mover = tokens[seat]
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={mover}") as ws:
        state = next_state(ws)
        obs = state["observation"]
        hand = obs["hand"]
        foreign = next(
            c for c in mazo.load_game("briscola", players=2).new_match(seed=4).hand(1 - seat)
        )
        cases = [
            ({"type": "act", "version": 99, "action": hand[0]}, "stale_version"),
            ({"type": "act", "version": 0, "action": foreign}, "illegal_action"),
            ({"type": "act", "version": 0, "action": "zz"}, "invalid_action"),
            ({"type": "act", "version": 0}, "bad_message"),
            ({"type": "act", "version": "0", "action": hand[0]}, "bad_message"),
            ({"type": "act", "version": 0, "action": True}, "bad_message"),
            ({"type": "dance"}, "bad_message"),
            ({"type": "name", "name": ""}, "bad_message"),
            ([1, 2, 3], "bad_message"),
        ]
        for message, code in cases:
            ws.send_json(message)
            error = ws.receive_json()
            assert error["type"] == "error" and error["code"] == code, (message, error)
            assert error["version"] == 0
        ws.send_text("{not json")
        assert ws.receive_json()["code"] == "bad_message"
        ws.send_text('{"type": "ping", "pad": "' + "x" * MAX_MESSAGE + '"}')
        assert ws.receive_json()["code"] == "too_large"
        # The illegal card's refusal says what is allowed.
        ws.send_json({"type": "act", "version": 0, "action": foreign})
        assert "playable now: " + ", ".join(hand) in ws.receive_json()["message"]
        # Nothing changed: the same state, and the first legal move still works.
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        assert client.get(f"/api/tables/{table['id']}").json()["version"] == 0
        ws.send_json({"type": "act", "version": 0, "action": hand[0].lower()})
        after = next_state(ws)
        assert after["version"] == 1 and after["last"] == {"seat": seat, "action": hand[0]}


def test_watchers_see_the_public_view_and_cannot_act(client: TestClient) -> None:
    table = new_table(client, seed=8, seats=[{"kind": "human"}, {"kind": "bot"}])
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        state = next_state(ws)
        assert state["seat"] is None
        expected = mazo.load_game("briscola", players=2).new_match(seed=8).observation(None)
        assert state["observation"] == expected
        ws.send_json({"type": "act", "version": 0, "action": "1O"})
        assert ws.receive_json()["code"] == "spectator"
        ws.send_json({"type": "name", "name": "Peeker"})
        assert ws.receive_json()["code"] == "spectator"


def test_bad_tokens_and_unknown_tables_are_closed(client: TestClient) -> None:
    table = new_table(client)
    with client.websocket_connect(f"/ws/tables/{table['id']}?token=forged") as ws:
        assert ws.receive_json()["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect("/ws/tables/nope") as ws:
        assert ws.receive_json()["code"] == "no_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_naming_a_seat_reaches_everyone_and_the_lobby(client: TestClient) -> None:
    table = new_table(
        client, public=True, seats=[{"kind": "human"}, {"kind": "human", "name": "B"}]
    )
    claim = client.post(f"/api/tables/{table['id']}/seats/0/claim", json={"name": "Ana"}).json()
    with (
        client.websocket_connect(f"/ws/tables/{table['id']}?token={claim['token']}") as a,
        client.websocket_connect(
            f"/ws/tables/{table['id']}?token={table['seats'][1]['token']}"
        ) as b,
    ):
        next_state(a)
        next_state(b)
        a.send_json({"type": "name", "name": "  Ana   María "})
        seen = next_state(b)
        while seen["table"]["seats"][0]["name"] != "Ana María":
            seen = next_state(b)
        assert seen["table"]["seats"][0]["connected"] is True
    assert client.get(f"/api/tables/{table['id']}").json()["seats"][0]["name"] == "Ana María"


def test_a_reconnecting_player_gets_the_state_back(client: TestClient) -> None:
    table = new_table(client, seed=2, seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    url = f"/ws/tables/{table['id']}?token={table['seats'][0]['token']}"
    with client.websocket_connect(url) as ws:
        for _ in range(3):
            state = next_state(ws)
            while state["observation"]["to_act"] != 0:
                state = next_state(ws)
            ws.send_json(
                {
                    "type": "act",
                    "version": state["version"],
                    "action": state["observation"]["legal_actions"][0],
                }
            )
        state = next_state(ws)
        while state["observation"]["to_act"] != 0:
            state = next_state(ws)
    with client.websocket_connect(url) as ws:
        again = next_state(ws)
    assert again["version"] == state["version"] >= 5
    assert again["observation"] == state["observation"]


def test_envite_teammates_answer_bets_and_call_out_of_turn() -> None:
    """Four people at an Envite table over real sockets: an envío called by a seat that is
    not to play reaches all, and either member of the other team may answer it."""

    async def scenario(address: str) -> None:
        table = await create_table(
            address, {"game": "envite", "players": 4, "seed": 5, "seats": [{"kind": "human"}] * 4}
        )
        clients = [await Client.open(address, table["id"], s["token"]) for s in table["seats"]]
        obs = clients[0].latest["observation"]  # type: ignore[index]
        to_act = obs["to_act"]
        caller = next(c for c in clients if c.seat != to_act)
        assert "envio" in caller.latest["observation"]["legal_actions"]  # type: ignore[index]
        await caller.act("envio")
        for c in clients:
            await c.until(lambda m: m["type"] == "state" and m["version"] == 1)
        assert all(c.latest["last"] == {"seat": caller.seat, "action": "envio"} for c in clients)  # type: ignore[index]
        answering = [c for c in clients if c.seat % 2 != caller.seat % 2]  # type: ignore[operator]
        for c in answering:
            legal = c.latest["observation"]["legal_actions"]  # type: ignore[index]
            assert {"accept", "fold"} <= set(legal), legal
        await answering[1].act("accept")
        await answering[0].until(lambda m: m["type"] == "state" and m["version"] == 2)
        assert answering[0].latest["observation"]["bet"]["level"] >= 1  # type: ignore[index]
        # The first answer took the bet off the table: the teammate's is now stale.
        await answering[0].send({"type": "act", "version": 1, "action": "fold"})
        error = await answering[0].until(lambda m: m["type"] == "error")
        assert error["code"] == "stale_version"
        for c in clients:
            await c.close()

    with running_server(Path(":memory:")) as address:
        asyncio.run(scenario(address))


def test_the_record_is_published_when_the_match_is_over(client: TestClient) -> None:
    table = new_table(
        client,
        seed=21,
        seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
        settings={"dwell": 0},
    )
    assert client.get(f"/api/tables/{table['id']}/record").status_code == 409
    url = f"/ws/tables/{table['id']}?token={table['seats'][0]['token']}"
    with client.websocket_connect(url) as ws:
        while True:
            message = next_state(ws)
            obs = message["observation"]
            if obs["match_over"]:
                break
            if obs["to_act"] == 0:
                ws.send_json(
                    {
                        "type": "act",
                        "version": message["version"],
                        "action": obs["legal_actions"][0],
                    }
                )
    # The finished table left memory when its last socket closed; it is rebuilt on demand.
    manager = client.app.state.manager  # type: ignore[attr-defined]
    assert table["id"] not in manager.tables
    assert client.get(f"/api/tables/{table['id']}").json()["status"] == "finished"
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert mazo.replay(record).observation(0) == obs


def test_search_bots_think_in_worker_processes(tmp_path: Path) -> None:
    app = create_app(tmp_path / "t.sqlite3", bot_delay=0, allow_seed=True, bot_processes=True)
    with TestClient(app) as client:
        for seed in range(40):
            table = new_table(
                client,
                game="escoba",
                seed=seed,
                seats=[{"kind": "human"}, {"kind": "bot", "level": "hard"}],
            )
            view = client.get(f"/api/tables/{table['id']}").json()
            if view["observation"]["to_act"] == 1:
                break
        url = f"/ws/tables/{table['id']}?token={table['seats'][0]['token']}"
        with client.websocket_connect(url) as ws:
            message = next_state(ws)
            while message["version"] == 0:
                message = next_state(ws)
        assert message["last"]["seat"] == 1
        runner = app.state.manager.bots  # type: ignore[attr-defined]
        assert runner._processes is not None, "the hard bot ran in the process pool"


def test_a_thinking_bot_does_not_hold_up_other_tables(tmp_path: Path) -> None:
    """An expert bot thinks for about a second in a worker process; meanwhile a move at
    another table is answered (the event loop was never blocked by the search)."""
    app = create_app(tmp_path / "t.sqlite3", bot_delay=0, allow_seed=True, bot_processes=True)
    with TestClient(app) as client:
        thinking = None
        for seed in range(40):
            table = new_table(
                client, seed=seed, seats=[{"kind": "human"}, {"kind": "bot", "level": "expert"}]
            )
            if client.get(f"/api/tables/{table['id']}").json()["observation"]["to_act"] == 1:
                thinking = table
                break
        assert thinking is not None
        other = new_table(client, seed=1, seats=[{"kind": "human"}, {"kind": "human"}])
        seat = client.get(f"/api/tables/{other['id']}").json()["observation"]["to_act"]
        url = f"/ws/tables/{other['id']}?token={other['seats'][seat]['token']}"
        with client.websocket_connect(url) as ws:
            first = next_state(ws)
            action = first["observation"]["legal_actions"][0]
            ws.send_json({"type": "act", "version": 0, "action": action})
            assert next_state(ws)["version"] == 1
            assert client.get(f"/api/tables/{thinking['id']}").json()["version"] == 0
        # ...and the expert does move in the end.
        url = f"/ws/tables/{thinking['id']}"
        with client.websocket_connect(url) as ws:
            message = next_state(ws)
            while message["version"] == 0:
                message = next_state(ws)
            assert message["last"]["seat"] == 1


async def caught_up(client: Client, version: int) -> None:
    """Read until the client has seen ``version``."""
    while client.latest is None or client.latest["version"] < version:
        await client.receive()


def test_partners_talk_reaches_only_its_audience() -> None:
    """A Trionfetti ``tell`` (partner-only free text) goes to the partner; opponents and
    watchers learn only that the seat did something."""

    async def scenario(address: str) -> None:
        table = await create_table(
            address,
            {"game": "trionfetti", "players": 4, "seed": 3, "seats": [{"kind": "human"}] * 4},
        )
        clients = [await Client.open(address, table["id"], s["token"]) for s in table["seats"]]
        watcher = await Client.open(address, table["id"])
        rules = mazo.load_game("trionfetti")
        talk = {rules.action_to_string(a) for a in rules.info.message_actions}
        # Play plain moves until the seat to act may talk to its partner.
        rng = random.Random(2)
        version = 0
        for _ in range(200):
            for c in clients:
                await caught_up(c, version)
            obs = clients[0].latest["observation"]  # type: ignore[index]
            to_act = obs["to_act"]
            mover = clients[to_act]
            mine = mover.latest["observation"]  # type: ignore[index]
            if mine.get("talk") == "partner":
                break
            await mover.act(rng.choice([a for a in mine["legal_actions"] if a not in talk]))
            version += 1
        else:
            pytest.fail("no partner talk window in 200 moves")
        await mover.act("tell secret plan")
        version += 1
        for c in [*clients, watcher]:
            await caught_up(c, version)
            text = c.texts[-1]
            partner = c.seat is not None and c.seat % 2 == to_act % 2
            assert ("secret plan" in text) is partner, (c.seat, to_act)
        for c in [*clients, watcher]:
            await c.close()

    with running_server(Path(":memory:")) as address:
        asyncio.run(scenario(address))
