"""Load benchmark of ``mazo serve`` (a script, not a test).

Starts a real server in its own process (one core for it), then simulated players in this
process: for each step of ``--tables`` it opens that many tables, one socket per human
seat, and each player acts a random legal move after a think time (``--think`` seconds,
uniform).  It measures, for every action, the time from sending ``act`` to receiving the
``state`` with the new version on the same socket (the action-to-update latency people
feel), and reports percentiles per step; it stops at the first step whose p99 is over
``--p99-limit`` ms.

    .venv/bin/python bench/load_server.py                      # 50,100,200,300,400,500 tables
    .venv/bin/python bench/load_server.py --tables 100,500 --seconds 30 --json

The clients share the machine with the server: on 2 cores the load generator takes one
core, so the numbers are for the server on about one core.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(base: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


class Player:
    def __init__(self, ws: ClientConnection, rng: random.Random, think: tuple[float, float]):
        self.ws = ws
        self.rng = rng
        self.think = think
        self.latencies: list[float] = []
        self.errors = 0
        self.pending: tuple[int, float] | None = None  # (version acted on, sent at)
        self.version = -1
        self.state: dict[str, Any] | None = None
        self.over = False

    async def run(self, stop: asyncio.Event) -> None:
        reader = asyncio.create_task(self.read())
        try:
            while not stop.is_set() and not self.over:
                await asyncio.sleep(self.rng.uniform(*self.think))
                state = self.state
                if state is None or self.pending is not None:
                    continue
                obs = state["observation"]
                legal = [a for a in obs["legal_actions"] if not a.startswith("signal")]
                if obs["to_act"] != state["seat"] or not legal:
                    continue
                self.pending = (state["version"], time.perf_counter())
                await self.ws.send(
                    json.dumps(
                        {
                            "type": "act",
                            "version": state["version"],
                            "action": self.rng.choice(legal),
                        }
                    )
                )
        finally:
            reader.cancel()

    async def read(self) -> None:
        async for text in self.ws:
            message = json.loads(text)
            if message["type"] == "state":
                if message["version"] >= self.version:
                    self.version = message["version"]
                    self.state = message
                    self.over = message["observation"]["match_over"]
                if self.pending is not None and message["version"] > self.pending[0]:
                    self.latencies.append(time.perf_counter() - self.pending[1])
                    self.pending = None
            elif message["type"] == "error":
                self.errors += 1
                self.pending = None


async def run_step(
    base: str, address: str, tables: int, args: argparse.Namespace, rng: random.Random
) -> dict[str, Any]:
    seats = [{"kind": "human", "name": f"p{i}"} for i in range(args.players)]
    players: list[Player] = []
    created = await asyncio.gather(
        *(
            asyncio.to_thread(
                post,
                base,
                "/api/tables",
                {"game": args.game, "players": args.players, "seats": seats},
            )
            for _ in range(tables)
        )
    )
    for table in created:
        for seat in table["seats"]:
            ws = await connect(
                f"ws://{address}/ws/tables/{table['id']}?token={seat['token']}", max_size=2**22
            )
            players.append(
                Player(ws, random.Random(rng.random()), (args.think_min, args.think_max))
            )
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.run(stop)) for p in players]
    await asyncio.sleep(args.warmup)
    for p in players:
        p.latencies.clear()
    started = time.perf_counter()
    await asyncio.sleep(args.seconds)
    elapsed = time.perf_counter() - started
    lat = sorted(x for p in players for x in p.latencies)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(p.ws.close() for p in players), return_exceptions=True)
    if not lat:
        return {"tables": tables, "actions": 0}

    def pct(q: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(q * len(lat)))]

    return {
        "tables": tables,
        "connections": len(players),
        "actions": len(lat),
        "actions_per_s": len(lat) / elapsed,
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "max_ms": 1000 * lat[-1],
        "mean_ms": 1000 * statistics.fmean(lat),
        "errors": sum(p.errors for p in players),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--tables", default="50,100,200,300,400,500", help="table counts to try, in order"
    )
    parser.add_argument("--game", default="briscola")
    parser.add_argument(
        "--players", type=int, default=2, help="human seats per table (all simulated)"
    )
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per step")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured seconds per step")
    parser.add_argument("--think-min", type=float, default=1.0, help="shortest think time (s)")
    parser.add_argument("--think-max", type=float, default=3.0, help="longest think time (s)")
    parser.add_argument("--p99-limit", type=float, default=100.0, help="stop above this p99 (ms)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets

    port = free_port()
    address = f"127.0.0.1:{port}"
    base = f"http://{address}"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "load.sqlite3"
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mazo",
                "serve",
                "--port",
                str(port),
                "--db",
                str(db),
                "--bot-delay",
                "0",
                "--log-level",
                "warning",
                # every simulated player comes from loopback: no per-client limits
                "--tables-per-minute",
                "0",
                "--sockets-per-client",
                "0",
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(base + "/api/health", timeout=2).read()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            rng = random.Random(args.seed)
            results = []
            for n in [int(x) for x in args.tables.split(",")]:
                result = asyncio.run(run_step(base, address, n, args, rng))
                results.append(result)
                if not args.json:
                    print(
                        f"{n:5d} tables {result.get('connections', 0):5d} sockets "
                        f"{result.get('actions_per_s', 0):7.1f} actions/s  "
                        f"p50 {result.get('p50_ms', 0):6.1f}  p95 {result.get('p95_ms', 0):6.1f}  "
                        f"p99 {result.get('p99_ms', 0):6.1f}  "
                        f"max {result.get('max_ms', 0):7.1f} ms  "
                        f"errors {result.get('errors', 0)}",
                        flush=True,
                    )
                if result.get("p99_ms", 0) > args.p99_limit:
                    break
        finally:
            server.terminate()
            server.wait(timeout=20)
    held = [r["tables"] for r in results if r.get("p99_ms", 1e9) <= args.p99_limit]
    summary = {
        "game": args.game,
        "players": args.players,
        "think_s": [args.think_min, args.think_max],
        "cpus": os.cpu_count(),
        "steps": results,
        "tables_held": max(held) if held else 0,
        "p99_limit_ms": args.p99_limit,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"held {summary['tables_held']} tables with p99 <= {args.p99_limit:g} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
