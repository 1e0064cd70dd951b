"""Load benchmark of ``mazo serve`` (a script, not a test).

Starts real servers in their own processes, then simulated clients in this process: for
each step of ``--tables`` it opens that many tables (a mix of kinds, ``--mix``), one
socket per human seat plus ``--watchers`` watching sockets per table, and each person acts
a random legal move after a think time (``--think-min``/``--think-max`` seconds, uniform).
It measures, for every action of a person, the time from sending ``act`` to receiving
the ``state`` with the new version on the same socket (the action-to-update latency people
feel), and for watchers the time from that ``act`` to the watcher's copy. It reports
percentiles per step and per kind of table, with the CPU share of the servers and of the
load generator, and stops at the first step whose p99 is over ``--p99-limit`` ms.

    .venv/bin/python bench/load_server.py                      # 50,100,200,300,400,500 tables
    .venv/bin/python bench/load_server.py --tables 100,500 --seconds 30 --json
    .venv/bin/python bench/load_server.py --mix h2:6,bot:2,h4:1,bot4:1 --hard-share 0.2 \\
        --watchers 1 --tables 50,100
    .venv/bin/python bench/load_server.py --servers 2 \\
        --db postgresql://mazo:mazo@127.0.0.1:5432/bench --bus redis://127.0.0.1:6379/0
    .venv/bin/python bench/load_server.py --suite --tables 250,500,750,1000 \\
        --pg postgresql://mazo:mazo@127.0.0.1:5432/postgres --redis redis://127.0.0.1:6379/0

The clients share the machine with the servers: on 2 cores the load generator competes
with them for the CPU (its share is printed beside every step), so the numbers are a
floor for what the servers would do on cores of their own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect


@dataclass(frozen=True)
class Kind:
    """A kind of table: how many seats, how many of them people (the rest are bots)."""

    name: str
    players: int
    humans: int
    what: str


KINDS = {
    k.name: k
    for k in (
        Kind("h2", 2, 2, "two people"),
        Kind("bot", 2, 1, "one person and a bot"),
        Kind("h4", 4, 4, "four people"),
        Kind("bot4", 4, 1, "one person and three bots"),
    )
}


def parse_mix(text: str) -> dict[str, float]:
    """``h2:6,bot:2,h4:1`` -> the share of each kind (weights, normalised)."""
    weights: dict[str, float] = {}
    for part in text.split(","):
        name, _, weight = part.strip().partition(":")
        if name not in KINDS:
            raise SystemExit(f"--mix: unknown kind {name!r}; kinds: {', '.join(KINDS)}")
        try:
            weights[name] = float(weight or 1)
        except ValueError:
            raise SystemExit(f"--mix: {part!r} is not KIND:WEIGHT") from None
        if weights[name] < 0:
            raise SystemExit(f"--mix: weight of {name} must be >= 0")
    total = sum(weights.values())
    if total <= 0:
        raise SystemExit("--mix: the weights add up to 0")
    return {name: w / total for name, w in weights.items() if w > 0}


def split_tables(n: int, mix: dict[str, float]) -> list[str]:
    """``n`` tables' kinds in the proportions of ``mix`` (largest remainder), interleaved
    so that every prefix of the list has about the same mix."""
    exact = {k: n * share for k, share in mix.items()}
    counts = {k: int(x) for k, x in exact.items()}
    for k in sorted(exact, key=lambda k: exact[k] - counts[k], reverse=True)[
        : n - sum(counts.values())
    ]:
        counts[k] += 1
    # Spread each kind evenly over the list: kind k's j-th table goes at (j + 0.5) / count.
    slots = [((j + 0.5) / c, k) for k, c in counts.items() for j in range(c)]
    return [k for _, k in sorted(slots)]


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
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)
    except urllib.error.HTTPError as err:
        raise SystemExit(f"POST {base}{path} -> {err.code}: {err.read().decode()[:300]}") from None


# ---------------------------------------------------------------------------- CPU time

CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _proc_stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process and of its reaped children) from
    /proc/<pid>/stat; None when the process is gone or there is no /proc."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and brackets: split after the last ')'.
    rest = text[text.rindex(")") + 2 :].split()
    # rest[0] is field 3 (state): ppid is field 4, utime/stime/cutime/cstime 14-17.
    ticks = sum(int(x) for x in rest[11:15])
    return int(rest[1]), ticks / CLK_TCK


def tree_cpu(root: int) -> float | None:
    """CPU seconds of a process and all its live descendants (the bot worker processes
    of a server), each with its reaped children. A descendant that ended and was reaped
    by a process in the tree is counted in its parent's cutime/cstime, so nothing is
    counted twice; only a descendant that ended within the window loses its last slice.
    ``resource.getrusage(RUSAGE_CHILDREN)`` would only count finished children."""
    stats: dict[int, tuple[int, float]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    for name in names:
        if name.isdigit():
            s = _proc_stat(int(name))
            if s is not None:
                stats[int(name)] = s
    if root not in stats:
        return None
    children: dict[int, list[int]] = {}
    for pid, (ppid, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += stats[pid][1]
        todo.extend(children.get(pid, ()))
    return total


# ---------------------------------------------------------------------------- servers


class Servers:
    """``n`` ``mazo serve`` processes on ``n`` ports sharing one database (and, for
    PostgreSQL, one Redis bus)."""

    def __init__(self, n: int, db: str, bus: str | None, args: argparse.Namespace) -> None:
        self.n, self.db, self.bus, self.args = n, db, bus, args
        self.ports = [free_port() for _ in range(n)]
        self.procs: list[subprocess.Popen[bytes]] = []

    def addresses(self) -> list[str]:
        return [f"127.0.0.1:{p}" for p in self.ports]

    def start(self) -> None:
        for port in self.ports:
            command = [
                sys.executable,
                "-m",
                "mazo",
                "serve",
                "--port",
                str(port),
                "--db",
                self.db,
                "--bot-delay",
                str(self.args.bot_delay),
                "--log-level",
                "warning",
                # every simulated client comes from loopback: no per-client limits, and
                # no limit of watchers or sockets per seat (--watchers may be large)
                "--tables-per-minute",
                "0",
                "--sockets-per-client",
                "0",
                "--watchers-per-table",
                "0",
                "--sockets-per-seat",
                "0",
                # tables left idle between steps must not be closed under the bench
                "--expire-after",
                "0",
            ]
            if self.bus is not None:
                command += ["--bus", self.bus]
            self.procs.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
        deadline = time.monotonic() + 60
        for port, proc in zip(self.ports, self.procs, strict=True):
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2).read()
                    break
                except OSError:
                    if proc.poll() is not None:
                        self.stop()
                        raise SystemExit(
                            f"mazo serve on port {port} ended with code {proc.returncode}"
                            f" (see its messages above)"
                        ) from None
                    if time.monotonic() > deadline:
                        self.stop()
                        raise SystemExit(f"mazo serve on port {port} did not start") from None
                    time.sleep(0.1)

    def cpu(self) -> list[float | None]:
        return [tree_cpu(p.pid) for p in self.procs]

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


# ---------------------------------------------------------------------------- clients


@dataclass
class TableClients:
    """What the clients of one table share: when each version was asked for by a person
    (so a watcher can tell how long the move took to reach it)."""

    id: str
    kind: str
    asked: dict[int, float] = field(default_factory=dict)  # version to be made -> sent at


class Player:
    def __init__(
        self,
        ws: ClientConnection,
        table: TableClients,
        rng: random.Random,
        think: tuple[float, float],
    ):
        self.ws = ws
        self.table = table
        self.rng = rng
        self.think = think
        self.latencies: list[float] = []
        self.errors = 0
        self.pending: tuple[int, float] | None = None  # (version acted on, sent at)
        self.version = -1
        self.state: dict[str, Any] | None = None
        self.readied = -1  # the version at which this seat last sent `ready`
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
                    # After a deal the table pauses until every connected person has
                    # read the result; bots do not move meanwhile, so a person who is
                    # not to act clicks on, as the page's button does.
                    ready = state["table"].get("ready")
                    if (
                        ready
                        and state["seat"] in ready["waiting"]
                        and self.readied != state["version"]
                    ):
                        self.readied = state["version"]
                        await self.ws.send('{"type": "ready"}')
                    continue
                sent = time.perf_counter()
                self.pending = (state["version"], sent)
                self.table.asked[state["version"] + 1] = sent
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


class Watcher:
    """A socket with no token: it only receives, and times each person's move from the
    `act` to this watcher's `state` of the new version."""

    def __init__(self, ws: ClientConnection, table: TableClients):
        self.ws = ws
        self.table = table
        self.latencies: list[float] = []
        self.version = -1
        self.messages = 0

    async def run(self, stop: asyncio.Event) -> None:
        async for text in self.ws:
            now = time.perf_counter()
            self.messages += 1
            message = json.loads(text)
            if message["type"] == "state" and message["version"] > self.version:
                self.version = message["version"]
                asked = self.table.asked.get(self.version)
                if asked is not None:
                    self.latencies.append(now - asked)
            if stop.is_set():
                return


async def loop_lag(stop: asyncio.Event, lags: list[float], every: float = 0.01) -> None:
    """How late this process's event loop wakes up: when the generator is short of CPU,
    its own delay is inside every latency it measures."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - before - every)


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"count": 0}
    values = sorted(values)

    def pct(q: float) -> float:
        return 1000 * values[min(len(values) - 1, int(q * len(values)))]

    return {
        "count": len(values),
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "max_ms": 1000 * values[-1],
        "mean_ms": 1000 * statistics.fmean(values),
    }


def table_request(kind: Kind, args: argparse.Namespace, hard: bool) -> dict[str, Any]:
    seats: list[dict[str, Any]] = [{"kind": "human", "name": f"p{i}"} for i in range(kind.humans)]
    level = "hard" if hard else "normal"
    seats += [{"kind": "bot", "level": level} for _ in range(kind.players - kind.humans)]
    return {"game": args.game, "players": kind.players, "seats": seats}


async def run_step(
    servers: Servers, tables: int, args: argparse.Namespace, rng: random.Random
) -> dict[str, Any]:
    addresses = servers.addresses()
    n = len(addresses)
    kinds = split_tables(tables, args.mix_shares)
    # A share --hard-share of the bot tables (spread over them) has hard bots.
    requests, hard_so_far, bot_tables = [], 0, 0
    for name in kinds:
        kind = KINDS[name]
        hard = False
        if kind.humans < kind.players:
            bot_tables += 1
            hard = int(bot_tables * args.hard_share + 1e-9) > hard_so_far
            hard_so_far += hard
        requests.append((name, table_request(kind, args, hard)))
    # Round-robin over the processes: table i is created on process i % n, and seat s's
    # socket goes to (i + s) % n, so one table's sockets land on different processes
    # (all but one relayed to the table's owner over the bus in the scale-out mode).
    created = await asyncio.gather(
        *(
            asyncio.to_thread(post, f"http://{addresses[i % n]}", "/api/tables", body)
            for i, (_, body) in enumerate(requests)
        )
    )
    think = (args.think_min, args.think_max)
    gate = asyncio.Semaphore(64)

    async def open_socket(i: int, slot: int, table_id: str, token: str | None) -> ClientConnection:
        query = f"?token={token}" if token else ""
        async with gate:
            return await connect(
                f"ws://{addresses[(i + slot) % n]}/ws/tables/{table_id}{query}", max_size=2**22
            )

    players: list[Player] = []
    watchers: list[Watcher] = []

    async def join(i: int, name: str, table: dict[str, Any]) -> None:
        clients = TableClients(table["id"], name)
        humans = [s for s in table["seats"] if s["kind"] == "human"]
        for seat in humans:
            ws = await open_socket(i, seat["seat"], table["id"], seat["token"])
            players.append(Player(ws, clients, random.Random(rng.random()), think))
        for w in range(args.watchers):
            ws = await open_socket(i, len(table["seats"]) + w, table["id"], None)
            watchers.append(Watcher(ws, clients))

    await asyncio.gather(
        *(join(i, name, t) for i, ((name, _), t) in enumerate(zip(requests, created, strict=True)))
    )
    stop = asyncio.Event()
    lags: list[float] = []
    tasks = [asyncio.create_task(p.run(stop)) for p in players]
    tasks += [asyncio.create_task(w.run(stop)) for w in watchers]
    lag_task = asyncio.create_task(loop_lag(stop, lags))
    await asyncio.sleep(args.warmup)
    for p in players:
        p.latencies.clear()
    for w in watchers:
        w.latencies.clear()
    lags.clear()
    cpu_before = servers.cpu()
    own_before = time.process_time()
    started = time.perf_counter()
    await asyncio.sleep(args.seconds)
    elapsed = time.perf_counter() - started
    own = time.process_time() - own_before
    cpu_after = servers.cpu()
    lat = [x for p in players for x in p.latencies]
    by_kind = {
        name: percentiles([x for p in players if p.table.kind == name for x in p.latencies])
        for name in args.mix_shares
    }
    watch = [x for w in watchers for x in w.latencies]
    lag = percentiles(lags)
    stop.set()
    lag_task.cancel()
    await asyncio.gather(*(p.ws.close() for p in players), return_exceptions=True)
    await asyncio.gather(*(w.ws.close() for w in watchers), return_exceptions=True)
    await asyncio.gather(*tasks, return_exceptions=True)
    cores = os.cpu_count() or 1
    server_cpu = [
        None if a is None or b is None else max(0.0, a - b)
        for a, b in zip(cpu_after, cpu_before, strict=True)
    ]
    known = [c for c in server_cpu if c is not None]
    return {
        "tables": tables,
        "kinds": {name: kinds.count(name) for name in args.mix_shares},
        "hard_tables": hard_so_far,
        "connections": len(players),
        "watchers": len(watchers),
        "actions": len(lat),
        "actions_per_s": len(lat) / elapsed,
        **{k: v for k, v in percentiles(lat).items() if k != "count"},
        "by_kind": by_kind,
        "watch": percentiles(watch),
        "errors": sum(p.errors for p in players),
        "matches_over": sum(p.over for p in players),
        "cpu": {
            "cores": cores,
            "seconds": elapsed,
            # each server process (with its bot workers): cores it kept busy
            "servers_cores": [None if c is None else c / elapsed for c in server_cpu],
            "servers_share": sum(known) / elapsed / cores if known else None,
            "generator_share": own / elapsed / cores,
        },
        "generator_lag": lag,
    }


def fmt(value: float | None, spec: str) -> str:
    return "n/a" if value is None else format(value, spec)


def print_step(r: dict[str, Any]) -> None:
    cpu = r["cpu"]
    print(
        f"{r['tables']:5d} tables {r.get('connections', 0):5d} sockets "
        f"{r.get('watchers', 0):5d} watchers {r.get('actions_per_s', 0):7.1f} actions/s  "
        f"p50 {r.get('p50_ms', 0):6.1f}  p95 {r.get('p95_ms', 0):6.1f}  "
        f"p99 {r.get('p99_ms', 0):6.1f}  max {r.get('max_ms', 0):7.1f} ms  "
        f"errors {r.get('errors', 0)}",
        flush=True,
    )
    servers = " + ".join(fmt(c, ".2f") for c in cpu["servers_cores"])
    print(
        f"      cpu: servers {fmt(cpu['servers_share'], '.0%')} of {cpu['cores']} cores"
        f" ({servers} cores), generator {cpu['generator_share']:.0%}"
        f" (its loop late p99 {r['generator_lag'].get('p99_ms', 0):.1f} ms)",
        flush=True,
    )
    if len(r["by_kind"]) > 1 or r["watch"]["count"]:
        parts = [
            f"{name} ({r['kinds'][name]}) p99 {s.get('p99_ms', 0):.1f} ms of {s['count']}"
            for name, s in r["by_kind"].items()
        ]
        if r["watch"]["count"]:
            parts.append(f"watchers p99 {r['watch']['p99_ms']:.1f} ms of {r['watch']['count']}")
        print("      " + "; ".join(parts), flush=True)


def run_config(n: int, db: str | None, bus: str | None, args: argparse.Namespace) -> dict[str, Any]:
    """Start the servers, run the steps until one is over the limit, stop them."""
    with tempfile.TemporaryDirectory() as tmp:
        servers = Servers(n, db or str(Path(tmp) / "load.sqlite3"), bus, args)
        servers.start()
        results: list[dict[str, Any]] = []
        try:
            rng = random.Random(args.seed)
            for tables in args.table_counts:
                result = asyncio.run(run_step(servers, tables, args, rng))
                results.append(result)
                if not args.json:
                    print_step(result)
                if result.get("p99_ms", 0) > args.p99_limit:
                    break
        finally:
            servers.stop()
    held = [r for r in results if r.get("p99_ms", 1e9) <= args.p99_limit]
    return {
        "servers": n,
        "database": "sqlite" if db is None or not is_pg(db) else "postgresql",
        "bus": "redis" if bus else None,
        "steps": results,
        "tables_held": held[-1]["tables"] if held else 0,
        # False: every step held, so the capacity is at least tables_held (ask for more)
        "limit_reached": len(held) < len(results),
        "cpu_at_held": held[-1]["cpu"] if held else None,
    }


def is_pg(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


class ThrowawayDatabase:
    """A fresh PostgreSQL database for one configuration, dropped afterwards, so one
    configuration's tables are not resumed by the next one's servers."""

    def __init__(self, admin_url: str) -> None:
        try:
            import psycopg  # noqa: F401  (the scale extra; the servers need it too)
        except ImportError:
            raise SystemExit(
                "--suite needs psycopg to create a throwaway database per configuration:"
                " pip install 'mazo[server,scale]'"
            ) from None
        self.admin_url = admin_url
        self.name = f"mazo_bench_{secrets.token_hex(4)}"
        parts = urllib.parse.urlsplit(admin_url)
        self.url = urllib.parse.urlunsplit(parts._replace(path="/" + self.name))

    def __enter__(self) -> str:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        return self.url

    def __exit__(self, *exc: object) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def suite(args: argparse.Namespace) -> list[dict[str, Any]]:
    if not args.pg or not args.redis:
        raise SystemExit(
            "--suite needs --pg URL (a PostgreSQL role that may create databases; the"
            " URL's database is only used to create and drop one per configuration) and"
            " --redis URL"
        )
    configs: list[dict[str, Any]] = []
    plan = [(1, False), (1, True), (2, True)]
    for n, pg in plan:
        label = f"{n} process{'es' if n > 1 else ''}, " + ("PostgreSQL + Redis" if pg else "SQLite")
        if not args.json:
            print(f"== {label}", flush=True)
        if pg:
            with ThrowawayDatabase(args.pg) as url:
                config = run_config(n, url, args.redis, args)
        else:
            config = run_config(n, None, None, args)
        config["label"] = label
        configs.append(config)
    return configs


def print_suite(configs: list[dict[str, Any]], args: argparse.Namespace) -> None:
    print()
    print(f"tables held at p99 <= {args.p99_limit:g} ms ({os.cpu_count()} cores):")
    print(
        f"{'configuration':34s} {'tables':>6s} {'p99 ms':>7s} {'servers cpu':>12s}"
        f" {'generator cpu':>14s}"
    )
    for c in configs:
        step = next((s for s in c["steps"] if s["tables"] == c["tables_held"]), None)
        cpu = c["cpu_at_held"] or {}
        held = f"{'' if c['limit_reached'] else '>='}{c['tables_held']}"
        print(
            f"{c['label']:34s} {held:>6s}"
            f" {fmt(step.get('p99_ms') if step else None, '7.1f')}"
            f" {fmt(cpu.get('servers_share'), '12.0%')}"
            f" {fmt(cpu.get('generator_share'), '14.0%')}"
        )
    first, second = configs[1]["tables_held"], configs[2]["tables_held"]
    if first:
        print(
            f"the second process added {second - first} tables"
            f" ({(second - first) / first:.0%} of the first one's {first})"
        )
    if not all(c["limit_reached"] for c in configs):
        print(">=: every step held; give larger --tables to find the limit")
    print(
        "cpu: share of all cores over the measured seconds of that step; on a 2-core"
        " machine the generator competes with the servers for the same cores."
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--tables", default="50,100,200,300,400,500", help="table counts to try, in order"
    )
    parser.add_argument("--game", default="briscola", help="the game of every table")
    parser.add_argument(
        "--mix",
        default="h2",
        help="kinds of tables with weights, e.g. h2:6,bot:2,h4:1,bot4:1 (h2: two people;"
        " bot: a person and a bot; h4: four people; bot4: a person and three bots;"
        " default h2)",
    )
    parser.add_argument(
        "--hard-share",
        type=float,
        default=0.0,
        metavar="F",
        help="share of the bot tables whose bots are hard (search in worker processes);"
        " the rest are normal (default 0)",
    )
    parser.add_argument(
        "--watchers", type=int, default=0, metavar="N", help="watching sockets per table"
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.0, help="mazo serve --bot-delay (default 0)"
    )
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds per step")
    parser.add_argument("--warmup", type=float, default=5, help="unmeasured seconds per step")
    parser.add_argument("--think-min", type=float, default=1.0, help="shortest think time (s)")
    parser.add_argument("--think-max", type=float, default=3.0, help="longest think time (s)")
    parser.add_argument("--p99-limit", type=float, default=100.0, help="stop above this p99 (ms)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--servers", type=int, default=1, metavar="N", help="mazo serve processes (default 1)"
    )
    parser.add_argument(
        "--db",
        help="mazo serve --db for every process (default: a fresh SQLite file; more than one"
        " process needs a postgresql:// URL, with --bus)",
    )
    parser.add_argument("--bus", help="mazo serve --bus (redis://...), with a PostgreSQL --db")
    parser.add_argument(
        "--suite",
        action="store_true",
        help="measure in turn: 1 process on SQLite, 1 and 2 processes on PostgreSQL +"
        " Redis (needs --pg and --redis)",
    )
    parser.add_argument(
        "--pg",
        metavar="URL",
        help="--suite: an admin URL of PostgreSQL; a throwaway database is created from it"
        " per configuration and dropped",
    )
    parser.add_argument("--redis", metavar="URL", help="--suite: the Redis URL")
    parser.add_argument("--json", action="store_true", help="print JSON only")
    args = parser.parse_args()
    args.table_counts = [int(x) for x in args.tables.split(",")]
    args.mix_shares = parse_mix(args.mix)
    if not 0 <= args.hard_share <= 1:
        parser.error("--hard-share must be 0 to 1")
    if args.watchers < 0 or args.servers < 1:
        parser.error("--watchers must be >= 0 and --servers >= 1")
    if not args.suite:
        pg = args.db is not None and is_pg(args.db)
        if args.servers > 1 and not pg:
            parser.error(
                "--servers over 1 needs --db postgresql://... and --bus redis://... (one"
                " SQLite file takes one server)"
            )
        if pg != (args.bus is not None):
            parser.error("--bus goes with a PostgreSQL --db, and only with one")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets

    common = {
        "game": args.game,
        "mix": args.mix_shares,
        "hard_share": args.hard_share,
        "watchers_per_table": args.watchers,
        "think_s": [args.think_min, args.think_max],
        "seconds": args.seconds,
        "cpus": os.cpu_count(),
        "p99_limit_ms": args.p99_limit,
    }
    if args.suite:
        configs = suite(args)
        if args.json:
            print(json.dumps({**common, "configurations": configs}, indent=2))
        else:
            print_suite(configs, args)
        return 0
    config = run_config(args.servers, args.db, args.bus, args)
    if args.json:
        print(json.dumps({**common, **config}, indent=2))
    else:
        more = "" if config["limit_reached"] else " (every step held: try more tables)"
        print(f"held {config['tables_held']} tables with p99 <= {args.p99_limit:g} ms{more}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
