"""The scale-out mode against a real PostgreSQL and Redis: two ``mazo serve`` processes
share every table (issue 17).

The services come from the fixtures of tests/server/services.py (skipped when they are
not reachable, failed under MAZO_REQUIRE_SERVICES=1, as in CI). Each test starts two real
server processes on one fresh database with a short lease (2 s), so a killed process's
tables move within seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from models import deck_codes
from websockets.exceptions import ConnectionClosed

import mazo
from mazo.server.store import ActionRow, TableRow

from .browser_fixtures import serve_process
from .harness import Client, create_table, http
from .test_leak import check_messages, knowledge_of, play_randomly

LEASE = "2"


@contextlib.contextmanager
def two_servers(pg_url: str, redis_url: str, lease: str = LEASE) -> Iterator[list[tuple[str, int]]]:
    """Two processes on one database and one bus: [(address, pid), ...]."""
    flags = ("--bus", redis_url, "--lease", lease)
    with (
        serve_process(pg_url, *flags) as (url_a, pid_a),  # type: ignore[arg-type]
        serve_process(pg_url, *flags) as (url_b, pid_b),  # type: ignore[arg-type]
    ):
        yield [(url_a.removeprefix("http://"), pid_a), (url_b.removeprefix("http://"), pid_b)]


def stored(pg_url: str, table_id: str) -> tuple[TableRow, list[ActionRow]]:
    from mazo.server.pgstore import PostgresStore

    async def load() -> tuple[TableRow, list[ActionRow]]:
        store = PostgresStore(pg_url)
        await store.open()
        try:
            loaded = await store.load_table(table_id)
        finally:
            await store.close()
        assert loaded is not None
        return loaded

    return asyncio.run(load())


def wait_for(what: Any, timeout: float = 10) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        got = what()
        if got:
            return got
        assert time.monotonic() < deadline, "it did not happen in time"
        time.sleep(0.1)


def test_a_table_made_on_one_process_is_seen_claimed_and_listed_on_the_other(
    pg_url: str, redis_url: str
) -> None:
    with two_servers(pg_url, redis_url) as [(a, _), (b, _)]:
        status, table = http(
            a,
            "POST",
            "/api/tables",
            {
                "game": "escoba",
                "public": True,
                "title": "Club",
                "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human"}],
            },
        )
        assert status == 201, table
        path = f"/api/tables/{table['id']}"
        # the view through the process that does not run the table is the owner's
        status, view_b = http(b, "GET", path)
        assert status == 200 and view_b["title"] == "Club" and view_b["version"] == 0
        assert view_b["observation"] == http(a, "GET", path)[1]["observation"]
        # the lobby of either process lists it
        assert wait_for(
            lambda: any(t["id"] == table["id"] for t in http(b, "GET", "/api/tables")[1]["tables"])
        )
        # a claim through B: the owner (A) takes it; the token opens the seat on both
        status, claim = http(b, "POST", f"{path}/seats/1/claim", {"name": "Bea"})
        assert status == 200, claim
        status, again = http(b, "POST", f"{path}/seats/1/claim", {"name": "Eva"})
        assert status == 409, again  # claimed once, whichever process is asked

        async def open_both() -> tuple[Any, Any]:
            on_a = await Client.open(a, table["id"], claim["token"])
            on_b = await Client.open(b, table["id"], claim["token"])
            seats = on_b.latest["table"]["seats"] if on_b.latest else None
            await on_a.close()
            await on_b.close()
            return on_a.seat, seats

        seat, seats = asyncio.run(open_both())
        assert seat == 1 and seats[1]["name"] == "Bea"
        # a bad token through the relay is refused by the owner, as locally
        with pytest.raises(AssertionError, match="bad_token"):
            asyncio.run(Client.open(b, table["id"], "not-a-token"))
        # no such table: 404 from either process
        assert http(b, "GET", "/api/tables/nosuch")[0] == 404


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("briscola", 4, {"signals_enabled": True, "match_wins_target": 2}), ("envite", 4, {})],
    ids=["briscola4", "envite4"],
)
def test_no_message_names_a_card_its_seat_may_not_know_over_two_processes(
    pg_url: str, redis_url: str, game: str, players: int, options: dict[str, Any]
) -> None:
    """The leak test with each table's sockets spread over both processes (half of them
    relayed over Redis)."""
    with two_servers(pg_url, redis_url) as [(a, _), (b, _)]:
        table_id, clients = asyncio.run(play_randomly(a, game, players, options, 41, spread=[a, b]))
    allowed, shown = knowledge_of(*stored(pg_url, table_id))
    codes = deck_codes(mazo.load_game(game, players, **options))
    check_messages(table_id, clients, allowed, shown, codes)


class Player:
    """A socket that keeps reading (its latest state) and says when it was closed."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.closed: int | None = None
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            while True:
                await self.client.receive(timeout=120)
        except ConnectionClosed as exc:
            self.closed = exc.rcvd.code if exc.rcvd else 1006

    @property
    def version(self) -> int:
        return self.client.latest["version"] if self.client.latest else -1

    async def stop(self) -> None:
        self.reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.reader
        with contextlib.suppress(Exception):
            await self.client.close()


async def play_until(players: dict[int, Player], stop: Any, timeout: float = 60) -> int:
    """Each person plays their first legal move when it is their turn (the bot plays
    its own), until ``stop(version, observation)``; returns the version reached."""
    deadline = time.monotonic() + timeout
    acted: dict[int, int] = {}
    while True:
        assert time.monotonic() < deadline, "the match did not move on"
        newest = max(players.values(), key=lambda p: p.version).client.latest
        assert newest is not None
        obs, version = newest["observation"], newest["version"]
        if stop(version, obs):
            return int(version)
        seat = obs["to_act"]
        player = players.get(seat)
        if player is not None and player.version == version and acted.get(seat) != version:
            acted[seat] = version
            await player.client.act(player.client.latest["observation"]["legal_actions"][0])  # type: ignore[index]
        await asyncio.sleep(0.02)


def test_killing_the_process_that_runs_a_table_loses_nothing(pg_url: str, redis_url: str) -> None:
    """A 4-player match with its people spread over two processes: SIGKILL the one that
    runs it mid-match; everyone reconnects to the other, which takes the table over once
    its lease expires, and the match ends with every action kept and the bot moving."""
    with two_servers(pg_url, redis_url) as [(a, pid_a), (b, _)]:

        async def match() -> tuple[str, int, int, list[int | None]]:
            table = await create_table(
                a,
                {
                    "game": "briscola",
                    "players": 4,
                    "seed": 7,
                    "options": {"match_wins_target": 2},
                    "settings": {"dwell": 0},
                    "seats": [
                        {"kind": "human", "name": "Ana"},
                        {"kind": "human", "name": "Bea"},
                        {"kind": "human", "name": "Cai"},
                        {"kind": "bot", "level": "easy"},
                    ],
                },
            )
            tid, tokens = table["id"], {s["seat"]: s.get("token") for s in table["seats"]}
            where = {0: a, 1: b, 2: a}  # seat 1's socket is relayed to A over Redis
            players = {s: Player(await Client.open(where[s], tid, tokens[s])) for s in where}
            killed_at = await play_until(players, lambda v, obs: v >= 12)
            os.kill(pid_a, signal.SIGKILL)
            # A's sockets drop; B closes its relayed one with 1012 (service restart)
            deadline = time.monotonic() + 10
            while any(p.closed is None for p in players.values()):
                assert time.monotonic() < deadline, [p.closed for p in players.values()]
                await asyncio.sleep(0.05)
            codes = [players[s].closed for s in (0, 1, 2)]
            seen = max(p.version for p in players.values())
            for p in players.values():
                await p.stop()
            # everyone back, on B (it waits for A's lease to expire, then runs the table)
            players = {s: Player(await Client.open(b, tid, tokens[s])) for s in where}
            back = min(p.version for p in players.values())
            assert back >= seen, f"the table came back at {back}, clients had seen {seen}"
            final = await play_until(players, lambda v, obs: obs["match_over"], timeout=90)
            for p in players.values():
                await p.stop()
            assert killed_at <= seen
            return tid, seen, final, codes

        tid, seen, final, codes = asyncio.run(match())
        assert codes[1] == 1012, codes  # the relayed socket was told to reconnect
        row, actions = stored(pg_url, tid)
        assert row.finished and len(actions) == final  # every action the clients saw, kept
        assert [x.n for x in actions] == list(range(1, final + 1))
        assert any(x.seat == 3 and x.n > seen for x in actions), "the bot moved after the kill"
        health = http(b, "GET", "/api/health")[1]
        assert health["ok"] and health["database"]["kind"] == "postgresql", health
        assert health["bus"] == {"ok": True}, health
        assert json.dumps(health).count("cluster") == 1


def test_a_process_stopped_cleanly_hands_its_tables_over_at_once(
    pg_url: str, redis_url: str
) -> None:
    """SIGTERM (systemctl stop, a rolling restart): the process gives its leases back as
    it stops, so the other one runs its tables without waiting for the lease (60 s here,
    longer than the reconnect below may take)."""
    with two_servers(pg_url, redis_url, lease="60") as [(a, pid_a), (b, _)]:

        async def handover() -> tuple[int, int]:
            table = await create_table(
                a,
                {
                    "game": "escoba",
                    "seed": 3,
                    "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "easy"}],
                },
            )
            token = table["seats"][0]["token"]
            player = Player(await Client.open(b, table["id"], token))  # relayed to A
            await play_until({0: player}, lambda v, obs: v >= 4)
            before = player.version
            os.kill(pid_a, signal.SIGTERM)
            deadline = time.monotonic() + 15
            while player.closed is None:
                assert time.monotonic() < deadline, "the relayed socket was not closed"
                await asyncio.sleep(0.05)
            closed = player.closed
            await player.stop()
            again = Client.open(b, table["id"], token)
            back = Player(await asyncio.wait_for(again, 20))  # B runs it now
            after = await play_until({0: back}, lambda v, obs: v >= before + 4)
            await back.stop()
            assert after >= before + 4
            return closed, before

        closed, before = asyncio.run(handover())
        assert closed == 1012 and before >= 4
        health = http(b, "GET", "/api/health")[1]
        assert health["cluster"]["tables_run"] == 1, health


def test_unreachable_services_stop_the_server_with_the_reason(pg_url: str) -> None:
    """No traceback, no half-started server: one line saying what could not be reached."""
    import subprocess
    import sys

    from .harness import free_port

    dead = f"redis://127.0.0.1:{free_port()}/0"
    command = [sys.executable, "-m", "mazo", "serve", "--port", str(free_port())]
    done = subprocess.run(
        [*command, "--db", pg_url, "--bus", dead], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert done.stderr.startswith("mazo serve: cannot reach the bus (Redis) at " + dead)
    assert "Traceback" not in done.stderr
    wrong = pg_url.replace("mazo:mazo@", "mazo:not-the-password@")
    done = subprocess.run(
        [*command, "--db", wrong, "--bus", dead], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "cannot connect to PostgreSQL at" in done.stderr
    assert "not-the-password" not in done.stderr  # the password is not printed


def test_a_broadcast_to_several_relayed_sockets_is_one_message_and_order_holds() -> None:
    from mazo.server.cluster import _grouped

    p, q = "mazo:p:B", "mazo:p:C"
    s1, s2 = '{"v": 1}', '{"v": 2}'
    batch = [
        (p, {"conn": "a", "text": s1}),
        (p, {"conn": "b", "text": s1}),
        (p, {"conn": "c", "text": s1}),
        (q, {"conn": "x", "text": s1}),
        (p, {"conn": "a", "text": s2}),
        (p, {"conn": "c", "text": s1}),  # not merged into the first run: after a's s2
        (p, {"conn": "a", "close": 1012}),
    ]
    assert _grouped(batch) == [
        (p, {"conns": ["a", "b", "c"], "text": s1}),
        (q, {"conns": ["x"], "text": s1}),
        (p, {"conns": ["a"], "text": s2}),
        (p, {"conns": ["c"], "text": s1}),
        (p, {"conn": "a", "close": 1012}),
    ]
