"""A bet put to a team of a person and a bot: the person gets the first say.

Trionfetti's vega is answered by the seat after the caller (``to_act``) or its partner.
When ``to_act`` is a bot and its partner a connected person, the bot waits (8 s; 2 s
here) so the person can answer; if they do, the bot does nothing."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

from .flow import is_state, next_version, quiet
from .harness import Client, create_table, running_server

SCALE = 0.25
DEFER = 8 * SCALE


async def drive(client: Client, stop: asyncio.Event) -> None:
    """Play the seat: the first legal move, except the vega, which seat 0 calls as soon
    as it may; stop when a vega is pending."""
    acted = -1
    while not stop.is_set():
        message = client.latest
        assert message is not None
        obs = message["observation"]
        if obs["match_over"] or obs["vega"]["pending"] is not None:
            return
        if obs["to_act"] == client.seat and message["version"] != acted:
            acted = message["version"]
            legal = obs["legal_actions"]
            if client.seat == 0 and "vega" in legal:
                await client.act("vega")
            else:
                await client.act(next(a for a in legal if a != "vega"))
        with contextlib.suppress(TimeoutError):
            await client.receive(timeout=0.2)


async def vega_to_a_bot(address: str) -> tuple[Client, Client, dict[str, Any]]:
    """Seats: 0 a person (the caller), 1 and 2 bots, 3 a person. A table where seat 0
    calls a vega that seat 1 (a bot) is to answer: seat 0's and seat 3's clients and the
    state that shows the vega pending."""
    for seed in range(12):
        table = await create_table(
            address,
            {
                "game": "trionfetti",
                "players": 4,
                "seed": seed,
                "seats": [
                    {"kind": "human", "name": "Caller"},
                    {"kind": "bot", "level": "easy"},
                    {"kind": "bot", "level": "easy"},
                    {"kind": "human", "name": "Partner"},
                ],
                "settings": {"dwell": 0},
            },
        )
        caller = await Client.open(address, table["id"], table["seats"][0]["token"])
        partner = await Client.open(address, table["id"], table["seats"][3]["token"])
        stop = asyncio.Event()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(drive(caller, stop), drive(partner, stop)), 10)
        stop.set()
        message = partner.latest
        assert message is not None
        obs = message["observation"]
        if obs["vega"]["pending"] is not None and message["last"] == {"seat": 0, "action": "vega"}:
            assert obs["to_act"] == 1 and {"accept", "refuse"} <= set(obs["legal_actions"])
            return caller, partner, message
        await caller.close()  # a bot called the vega, or none was called: another deal
        await partner.close()
    raise AssertionError("no seed in 0..11 has seat 0 call a vega for seat 1 to answer")


def accepted(m: dict[str, Any]) -> bool:
    vega = m["observation"]["vega"]
    return bool(vega["pending"] is None and vega["used"] and vega["stake"] > 1)


def refused(m: dict[str, Any]) -> bool:
    return bool(m["history"] and m["history"][-1]["detail"]["reason"] == "refused")


def run(scenario: Any) -> None:
    with running_server(Path(":memory:"), timer_scale=SCALE) as address:
        asyncio.run(scenario(address))


def test_the_person_answers_first_and_the_bot_does_nothing() -> None:
    async def scenario(address: str) -> None:
        caller, partner, pending = await vega_to_a_bot(address)
        # The bot to answer waits for its partner...
        assert await quiet(partner, DEFER / 3) == []
        await partner.act("accept")
        answered = await next_version(partner, pending["version"])
        # (the accept's text is not reported: it shows the partners' hands to them alone)
        assert answered["last"]["seat"] == 3 and accepted(answered)
        # ...and its own answer, if it had one, never lands.
        await caller.until(lambda m: is_state(m) and m["version"] == answered["version"])
        later = await quiet(caller, 0.3)
        assert all(m["last"]["action"] not in ("accept", "refuse") for m in later)
        await caller.close()
        await partner.close()

    run(scenario)


def test_the_bot_answers_when_the_person_does_not() -> None:
    async def scenario(address: str) -> None:
        caller, partner, pending = await vega_to_a_bot(address)
        seen = time.monotonic()
        first = await next_version(partner, pending["version"])
        assert time.monotonic() - seen > DEFER * 0.6
        assert first["last"]["seat"] == 1  # its answer (or a sign to its partner first)
        answered = first
        while answered["observation"]["vega"]["pending"] is not None:
            answered = await next_version(partner, answered["version"])
        assert answered["last"]["seat"] == 1
        assert accepted(answered) or refused(answered)
        await caller.close()
        await partner.close()

    run(scenario)


def test_the_bot_does_not_wait_for_a_person_who_left() -> None:
    async def scenario(address: str) -> None:
        caller, partner, pending = await vega_to_a_bot(address)
        await partner.close()
        seen = time.monotonic()
        answered = await next_version(caller, pending["version"])
        assert answered["last"]["seat"] == 1
        assert time.monotonic() - seen < DEFER / 2
        await caller.close()

    run(scenario)


def test_an_envite_bet_waits_for_the_person_of_the_team_too() -> None:
    async def scenario(address: str) -> None:
        table = await create_table(
            address,
            {
                "game": "envite",
                "players": 4,
                "seed": 5,
                "seats": [
                    {"kind": "human", "name": "Caller"},
                    {"kind": "bot", "level": "easy"},
                    {"kind": "bot", "level": "easy"},
                    {"kind": "human", "name": "Partner"},
                ],
                "settings": {"dwell": 0},
            },
        )
        caller = await Client.open(address, table["id"], table["seats"][0]["token"])
        partner = await Client.open(address, table["id"], table["seats"][3]["token"])
        assert caller.latest is not None
        assert "envio" in caller.latest["observation"]["legal_actions"]
        await caller.act("envio")
        called = await next_version(partner, caller.latest["version"])
        assert called["last"] == {"seat": 0, "action": "envio"}
        # seed 5: the bot after the caller is to answer (either member of the team may)
        assert called["observation"]["to_act"] == 1
        assert {"accept", "fold"} <= set(called["observation"]["legal_actions"])
        assert await quiet(partner, DEFER / 3) == []  # it leaves the first say to the person
        await partner.act("accept")
        answered = await next_version(partner, called["version"])
        assert answered["last"] == {"seat": 3, "action": "accept"}
        await caller.close()
        await partner.close()

    run(scenario)
