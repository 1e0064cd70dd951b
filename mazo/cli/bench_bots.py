"""``mazo bench --bots LEVEL,...``: how long bots think and how many samples they draw.

For each game configuration and bot, the bot plays seat 0 (and its partners) against the
``normal`` level until it has made ``moves`` timed decisions; each ``choose`` call is timed
from the observation in hand to the action returned.  Reported per bot: the mean, p99 and
largest time per move, the share of moves within the level's budget plus 20% (the promise
of ``hard`` and ``expert``), and for search bots the samples drawn per CPU second of search
(``ISMCTSBot.last_iterations`` over ``time.process_time``: on a shared machine a wall
clock reads 2-4 times low; solved and forced moves draw none and are left out).  The time
per move stays wall-clock time: the levels' budgets are.

Numbers depend on the machine and on what else runs: this is a benchmark, never a test.
"""

from __future__ import annotations

import platform
import time
from collections.abc import Sequence
from typing import Any

import mazo
from mazo.bots import make_bot
from mazo.bots.levels import BUDGET_MS
from mazo.core.rng import derive_seed
from mazo.games import GAMES, list_games, load_game
from mazo.sim.jobs import parse_bot_spec

__all__ = ["DEFAULT_CONFIGS", "measure_bot", "run_bot_bench"]

LARGE_TABLE = 8
"""Besides each game's smallest table, the bots are timed at this many players where a
game allows it: the largest table a bot's time budget is set for."""


def _default_configs() -> tuple[tuple[str, int], ...]:
    """Each registered game at its smallest player count, and at :data:`LARGE_TABLE`
    where it allows that, in the registry's order."""
    configs: list[tuple[str, int]] = []
    for name in list_games():
        counts = sorted(GAMES[name].player_counts)
        configs.append((name, counts[0]))
        if LARGE_TABLE in counts[1:]:
            configs.append((name, LARGE_TABLE))
    return tuple(configs)


DEFAULT_CONFIGS: tuple[tuple[str, int], ...] = _default_configs()


def measure_bot(
    game_name: str, players: int, bot_name: str, moves: int, seed: int = 1, **options: Any
) -> dict[str, Any]:
    """Time ``moves`` decisions of ``bot_name`` (seat 0's side) against ``normal``."""
    game = load_game(game_name, players=players)
    side_of = game.info.side_of
    times: list[float] = []
    sims = 0
    search_cpu = 0.0
    match = 0
    while len(times) < moves:
        bots = [
            make_bot(bot_name, game, seed=derive_seed(seed, match, s), **options)
            if side_of[s] == side_of[0]
            else make_bot("normal", game, seed=derive_seed(seed, match, s))
            for s in range(players)
        ]
        state = game.new_match(seed=derive_seed(seed, "bench bots", match))
        match += 1
        while not state.match_over and len(times) < moves:
            seat = state.to_act
            assert seat is not None
            obs = state.observation(seat)
            bot = bots[seat]
            if side_of[seat] == side_of[0]:
                start = time.perf_counter()
                cpu_start = time.process_time()
                action = bot.choose(obs)
                cpu = time.process_time() - cpu_start
                took = time.perf_counter() - start
                times.append(took)
                drawn = getattr(bot, "last_iterations", 0)
                if drawn:
                    sims += drawn
                    search_cpu += cpu
            else:
                action = bot.choose(obs)
            state = state.apply(action, seat=seat)
    times.sort()
    # As the levels read them: a clock asked for, else a sample count asked for has no
    # clock, else the level's own.
    if "think_ms" in options:
        budget = float(options["think_ms"]) / 1000
    else:
        budget = 0.0 if "iterations" in options else BUDGET_MS.get(bot_name, 0) / 1000
    within = sum(t <= budget * 1.2 for t in times) if budget else None
    return {
        "game": game_name,
        "players": players,
        "bot": bot_name,
        "options": dict(options),
        "moves": len(times),
        "mean_ms": 1000 * sum(times) / len(times),
        "p99_ms": 1000 * times[min(len(times) - 1, int(0.99 * len(times)))],
        "max_ms": 1000 * times[-1],
        "budget_ms": 1000 * budget if budget else None,
        "within_budget_plus_20pct": within,
        # Per CPU second (``samples_per_s`` is the name the report has always read).
        "samples_per_s": sims / search_cpu if search_cpu else None,
        "samples_per_cpu_s": sims / search_cpu if search_cpu else None,
    }


def run_bot_bench(
    bots: Sequence[str],
    configs: Sequence[tuple[str, int]] = DEFAULT_CONFIGS,
    moves: int = 20,
    seed: int = 1,
) -> dict[str, Any]:
    """Every bot at every configuration; a JSON-ready report."""
    results = []
    for name, players in configs:
        for spec in bots:
            bot_name, options = parse_bot_spec(spec)  # "hard:iterations=100" as tournaments
            results.append(measure_bot(name, players, bot_name, moves, seed, **options))
            results[-1]["spec"] = spec
    return {
        "mazo": mazo.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seed": seed,
        "moves": moves,
        "results": results,
    }
