#!/usr/bin/env python3
"""Two checks for a change that should make the search faster and change nothing else.

``fingerprint``: a hash of everything the search levels decide over bench positions
(``hard`` at a fixed ``iterations=``, the positions of ``bench_playouts.positions`` for
two seeds): each chosen move, the samples drawn, every per-move reward of the paired
search, the worlds, the samples thrown away and the bot's Rng state after the move.  A
speed-up that keeps every choice, tie draw, float and Rng draw prints the same hash as
the tree it started from; any other change prints another (a float summed in another
order, one Rng draw more).  Compare two trees by running each with its own
``PYTHONPATH``.

``instructions``: the instructions the searches execute, counted by valgrind's
cachegrind (a count, not a clock: a shared machine's load does not move it, where CPU
time moves by 10-20%): the same script run twice under valgrind, with and without its
searches, and the difference printed, so interpreter start-up, imports and the
positions' own play cancel.  ``PYTHONHASHSEED=0`` keeps set orders alike between runs.
What is left moves a little: repeat runs of 30 positions agreed within about 0.3% (8M
of 3,350M in two-player Briscola), but the first search's one-time costs (lazy imports,
the net's load, memos built) move by tens of millions of instructions between runs, so
count many positions, never one.  Needs ``valgrind`` (``apt-get install valgrind``); a
run of 30 positions takes a few minutes.

Run from the repository root (``PYTHONPATH=TREE`` measures another checkout)::

    python bench/search_identity.py fingerprint                      # all six configurations
    python bench/search_identity.py fingerprint --config briscola-2
    python bench/search_identity.py instructions --config envite-8 --positions 30
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_playouts import CONFIGS, positions

FINGERPRINT_SEEDS = (7, 11)
INSTRUCTION_SEED = 2026


def config_names() -> list[str]:
    return [f"{name}-{players}" for name, players in CONFIGS]


def parse_config(text: str) -> tuple[str, int]:
    """``briscola-2`` as ("briscola", 2); a clear error for anything else."""
    name, dash, players = text.rpartition("-")
    if not dash or not players.isdigit() or not name:
        raise ValueError(f"a configuration is GAME-PLAYERS (such as briscola-2), not {text!r}")
    return name, int(players)


def decide(game: Any, state: Any, bot: Any) -> list[tuple[Any, ...]]:
    """The bot's decisions at ``state`` for the seat to act: a sign to the partners first
    (Envite) then the move, each with what the search recorded about it."""
    seat = state.to_act
    obs = state.observation(seat)
    out = []
    for _ in range(4):
        action = bot.choose(obs)
        out.append(
            (
                action,
                getattr(bot, "last_iterations", 0),
                sorted(getattr(bot, "last_paired", {}).items()),
                getattr(bot, "last_worlds", None),
                getattr(bot, "last_rejected", None),
                # The whole Rng state (the Mersenne Twister's words and its index).
                hashlib.sha256(repr(bot.random.getstate()).encode()).hexdigest()
                if hasattr(bot, "random")
                else None,
            )
        )
        if action not in game.info.message_actions:
            break
        state = state.apply(action, seat=seat)
        obs = state.observation(seat)
    return out


def fingerprint(name: str, players: int, count: int, iterations: int, level: str) -> str:
    """The hash of :func:`decide` over ``count`` positions of each fingerprint seed."""
    import mazo
    from mazo.core.rng import derive_seed

    game = mazo.load_game(name, players=players)
    digest = hashlib.sha256()
    for seed in FINGERPRINT_SEEDS:
        for i, state in enumerate(positions(name, players, count, seed)):
            bot = mazo.make_bot(
                level, game, seed=derive_seed(seed, "bot", i), iterations=iterations
            )
            digest.update(repr(decide(game, state, bot)).encode())
    return digest.hexdigest()[:16]


def search_positions(name: str, players: int, count: int, iterations: int, search: bool) -> int:
    """The instruction run's work: the positions and bots made, and searched only when
    ``search`` (the run without is the baseline subtracted).  Returns the decisions made."""
    import mazo
    from mazo.core.rng import derive_seed

    game = mazo.load_game(name, players=players)
    states = positions(name, players, count, INSTRUCTION_SEED)
    bots = [
        mazo.make_bot("hard", game, seed=derive_seed(1, "bot", i), iterations=iterations)
        for i in range(len(states))
    ]
    if not search:
        return 0
    return sum(len(decide(game, state, bot)) for state, bot in zip(states, bots, strict=True))


def count_instructions(name: str, players: int, count: int, iterations: int) -> int:
    """Instructions of the searches alone: two cachegrind runs of this script's ``work``
    command, with and without searching, subtracted."""
    if shutil.which("valgrind") is None:
        raise SystemExit("instructions needs valgrind on the PATH (apt-get install valgrind)")
    totals = []
    for search in ("1", "0"):
        command = [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "work",
            "--config",
            f"{name}-{players}",
            "--positions",
            str(count),
            "--iterations",
            str(iterations),
            "--search",
            search,
        ]
        # Both runs read the same bytecode: one writing .pyc files the other then reads
        # would move the difference by tens of millions.
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONDONTWRITEBYTECODE": "1"}
        run = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        totals.append(instruction_total(run.stderr))
    return totals[0] - totals[1]


def instruction_total(report: str) -> int:
    """The ``I refs`` total of a cachegrind report (its stderr)."""
    found = re.search(r"I\s+refs:\s+([\d,]+)", report)
    if found is None:
        raise ValueError("no 'I refs' line in the cachegrind report")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Check that a faster search decides the same (fingerprint) and count "
        "the instructions it executes (instructions, with valgrind)."
    )
    parser.add_argument("what", choices=("fingerprint", "instructions", "work"))
    parser.add_argument(
        "--config",
        action="append",
        help="GAME-PLAYERS, repeatable (default: all six: " + ", ".join(config_names()) + ")",
    )
    parser.add_argument(
        "--positions", type=int, help="positions a configuration (40 a seed; 30 for counts)"
    )
    parser.add_argument("--iterations", type=int, default=100, help="playouts a move (100)")
    parser.add_argument("--level", default="hard", help="the search level (fingerprint only)")
    parser.add_argument("--search", default="1", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        configs = [parse_config(c) for c in args.config or config_names()]
    except ValueError as exc:
        parser.error(str(exc))
    for name, players in configs:
        if args.what == "work":
            search_positions(
                name, players, args.positions or 30, args.iterations, args.search == "1"
            )
        elif args.what == "fingerprint":
            print(
                f"{name}-{players}",
                fingerprint(name, players, args.positions or 40, args.iterations, args.level),
                flush=True,
            )
        else:
            total = count_instructions(name, players, args.positions or 30, args.iterations)
            print(f"{name}-{players} {total / 1e6:,.0f}M instructions", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
