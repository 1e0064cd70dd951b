"""Helpers for the tests of a table's flow (deal pause, turn timer, rematch, defer): a real
server with short timers, and socket clients that play a seat or wait for a change."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

from .harness import Client

Message = dict[str, Any]


def is_state(m: Message) -> bool:
    return bool(m["type"] == "state")


def ends_deal(m: Message) -> bool:
    return is_state(m) and any(e["type"] == "hand_end" for e in m["events"])


async def play_until(
    client: Client, done: Callable[[Message], bool], pick: int = 0, limit: float = 30
) -> Message:
    """Play this client's seat (the ``pick``-th legal action, or the last for -1) until a
    state message satisfies ``done``; return that message."""
    deadline = time.monotonic() + limit
    acted = -1
    message = client.latest
    assert message is not None
    while True:
        if done(message):
            return message
        obs = message["observation"]
        if obs["match_over"]:
            raise AssertionError("the match ended first")
        if obs["to_act"] == client.seat and message["version"] != acted:
            acted = message["version"]
            await client.act(obs["legal_actions"][pick])
        left = deadline - time.monotonic()
        assert left > 0, "timed out playing"
        message = await client.until(is_state, timeout=left)


async def quiet(client: Client, seconds: float) -> list[Message]:
    """The state messages that arrive within ``seconds``."""
    got: list[Message] = []
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        with contextlib.suppress(TimeoutError):
            m = await client.receive(timeout=left)
            if is_state(m):
                got.append(m)
    return got


async def next_version(client: Client, version: int, timeout: float = 20) -> Message:
    """The first state message past ``version``."""
    return await client.until(lambda m: is_state(m) and m["version"] > version, timeout)
