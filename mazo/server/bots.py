"""Bots at server tables: they think off the event loop, from one seat's observation.

Only the levels a player picks in the lobby may sit at a table (``SERVER_BOTS``): a table
request naming anything else is refused, so no request can make the server build an
arbitrary bot (``mazo.make_bot`` also accepts other registry names and options that are
for researchers).  Search levels run in worker processes, because a second of Python
search holds the interpreter lock; the instant ones run in threads, where starting a
process would cost more than the move.

A bot's seed comes from the table's seed, the version and the seat, so a table plays the
same way after a restart as it would have without one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import lru_cache
from typing import Any

from mazo.bots import make_bot
from mazo.core.game import Game
from mazo.games import load_game

__all__ = ["SEARCH_LEVELS", "SERVER_BOTS", "BotRunner", "bot_seed", "choose_action"]

# What the lobby offers, weakest first.
SERVER_BOTS = ("random", "easy", "normal", "hard", "expert")
SEARCH_LEVELS = frozenset({"hard", "expert"})
WATCH_INTERVAL = 0.5  # seconds between a worker's checks that the server still runs

log = logging.getLogger("mazo.server")


def bot_seed(table_seed: int, version: int, seat: int) -> int:
    """The seed of the bot that moves at ``version`` for ``seat``."""
    digest = hashlib.sha256(f"{table_seed}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@lru_cache(maxsize=256)
def _game(name: str, players: int, options_json: str) -> Game:
    return load_game(name, players, **json.loads(options_json))


def choose_action(
    game: str, players: int, options_json: str, level: str, seed: int, observation: Any
) -> str:
    """The action a bot of ``level`` picks for the seat whose observation this is.

    A plain function of picklable arguments so a worker process can run it.
    """
    rules = _game(game, players, options_json)
    bot = make_bot(level, rules, seed=seed)
    return rules.action_to_string(bot.choose(observation))


def _watch_parent(parent: int) -> None:
    """A worker's initializer: a daemon thread ends the worker as soon as its parent (the
    server) is gone, whether it stopped, crashed or was killed with SIGKILL, even in the
    middle of a search; no worker outlives its server."""

    def watch() -> None:
        while True:
            time.sleep(WATCH_INTERVAL)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="mazo-watchdog", daemon=True).start()


class BotRunner:
    """Runs bot moves in threads or worker processes; the event loop only awaits them.

    The process pool is supervised: a worker that dies (killed, out of memory) breaks a
    ``ProcessPoolExecutor`` for good, so on ``BrokenProcessPool`` the runner logs it,
    starts a new pool and asks again; ``restarts`` counts the new pools."""

    def __init__(self, processes: bool = True, workers: int | None = None) -> None:
        self.use_processes = processes
        self.workers = workers or max(1, os.cpu_count() or 1)
        self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="mazo-bot")
        self._processes: ProcessPoolExecutor | None = None
        self.restarts = 0

    def _executor(self, level: str) -> Executor:
        if not self.use_processes or level not in SEARCH_LEVELS:
            return self._threads
        if self._processes is None:
            # spawn: the server's threads and sockets must not be forked into workers.
            self._processes = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_watch_parent,
                initargs=(os.getpid(),),
            )
        return self._processes

    def worker_pids(self) -> list[int]:
        """The pids of the live worker processes (none before the first search)."""
        pool = self._processes
        if pool is None:
            return []
        procs = getattr(pool, "_processes", None) or {}
        return [p.pid for p in list(procs.values()) if p.is_alive() and p.pid is not None]

    def health(self) -> dict[str, Any]:
        """What /api/health shows of the bots: the pool's size, its live workers, and how
        many times a broken pool was replaced."""
        return {
            "processes": self.use_processes,
            "workers": self.workers if self.use_processes else 0,
            "alive": len(self.worker_pids()),
            "restarts": self.restarts,
        }

    def _replace(self, broken: Executor, where: str, level: str) -> None:
        """A worker died: start a new pool (once, however many moves saw it break)."""
        if self._processes is not broken:
            return  # another move already replaced it
        self.restarts += 1
        log.error(
            "the bot worker pool broke (a worker process died) during a %s move at %s;"
            " starting a new pool (restart %d) and asking again",
            level,
            where,
            self.restarts,
        )
        self._processes = None
        _terminate(broken)

    async def choose(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        level: str,
        seed: int,
        observation: dict[str, Any],
        where: str = "a table",
    ) -> str:
        """The bot's action; ``where`` (``"table X seat N"``) names it in the log."""
        loop = asyncio.get_running_loop()
        options_json = json.dumps(options, sort_keys=True)
        args = (game, players, options_json, level, seed, observation)
        for attempt in (1, 2):
            executor = self._executor(level)
            try:
                return await loop.run_in_executor(executor, choose_action, *args)
            except BrokenProcessPool:
                self._replace(executor, where, level)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            # Terminate, not wait: a search in progress would hold the server's exit
            # (SIGTERM during a search) for as long as it thinks.
            _terminate(self._processes)
            self._processes = None


def _terminate(pool: ProcessPoolExecutor | Executor) -> None:
    """Shut a process pool down without waiting for its searches: its workers end now."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        with contextlib.suppress(Exception):
            if proc.is_alive():
                proc.terminate()
