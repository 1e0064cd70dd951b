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
import hashlib
import json
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import lru_cache
from typing import Any

from mazo.bots import make_bot
from mazo.core.game import Game
from mazo.games import load_game

__all__ = ["SEARCH_LEVELS", "SERVER_BOTS", "BotRunner", "bot_seed", "choose_action"]

# What the lobby offers, weakest first.
SERVER_BOTS = ("random", "easy", "normal", "hard", "expert")
SEARCH_LEVELS = frozenset({"hard", "expert"})


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


class BotRunner:
    """Runs bot moves in threads or worker processes; the event loop only awaits them."""

    def __init__(self, processes: bool = True, workers: int | None = None) -> None:
        self.use_processes = processes
        self.workers = workers or max(1, os.cpu_count() or 1)
        self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="mazo-bot")
        self._processes: ProcessPoolExecutor | None = None

    def _executor(self, level: str) -> Executor:
        if not self.use_processes or level not in SEARCH_LEVELS:
            return self._threads
        if self._processes is None:
            # spawn: the server's threads and sockets must not be forked into workers.
            self._processes = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._processes

    async def choose(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        level: str,
        seed: int,
        observation: dict[str, Any],
    ) -> str:
        loop = asyncio.get_running_loop()
        options_json = json.dumps(options, sort_keys=True)
        return await loop.run_in_executor(
            self._executor(level),
            choose_action,
            game,
            players,
            options_json,
            level,
            seed,
            observation,
        )

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
