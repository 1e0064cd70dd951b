#!/usr/bin/env python3
"""Search samples per CPU second of the search levels' presets (issue 18's measure).

For each configuration (every game at its smallest table, and Briscola with 4 players
and Envite with 8 by default), the positions are those the seat to act meets in matches
of ``normal`` bots (seeded, so every run and every tree sees the same ones); at each, a
fresh ``hard`` bot with a fixed ``iterations=`` budget (``hard`` and ``expert`` differ
only in their clock, so at fixed iterations they are the same search) decides, and its
``choose`` call is timed in CPU time (``time.process_time``: the machine is shared, wall
clocks read low under load).  Positions where the search draws no sample (a forced move, a solved
ending, a bet the heuristic makes) are left out.  Reported per configuration: samples
drawn over the CPU seconds spent drawing them.

Run from the repository root::

    python bench/bench_playouts.py                          # this tree, one round
    python bench/bench_playouts.py --compare /tmp/old --rounds 5
    python bench/bench_playouts.py --game briscola --bot infer=plays   # another setting

``--bot`` passes search options on top of the level's preset (``key=value``, ``:``
between them, as ``mazo tournament`` spells a bot's options).  30 positions a
configuration by default: with 12, one position's long search moved a median by a
tenth.

``--compare TREE`` measures TREE (another checkout, e.g. ``git worktree add /tmp/old
<commit>``) and this tree in interleaved rounds (the order alternates), each run in its
own process, and prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]

CONFIGS = (
    ("briscola", 2),
    ("briscola", 4),
    ("envite", 4),
    ("envite", 8),
    ("escoba", 2),
    ("trionfetti", 4),
)


def positions(name: str, players: int, count: int, seed: int) -> list[Any]:
    """Up to ``count`` states where the seat to act has more than one move, along matches
    of the ``normal`` level (every other decision is kept, to spread them over deals)."""
    import mazo
    from mazo.core.rng import derive_seed

    game = mazo.load_game(name, players=players)
    out: list[Any] = []
    match = 0
    while len(out) < count:
        bots = [
            mazo.make_bot("normal", game, seed=derive_seed(seed, match, s)) for s in range(players)
        ]
        state = game.new_match(seed=derive_seed(seed, "bench playouts", match))
        match += 1
        step = 0
        while not state.match_over and len(out) < count:
            seat = state.to_act
            obs = state.observation(seat)
            if len(obs["legal_actions"]) > 1 and step % 2 == 0:
                out.append(state)
            step += 1
            state = state.apply(bots[seat].choose(obs), seat=seat)
    return out


def bot_options(text: str) -> dict[str, str]:
    """``key=value:key=value`` as a dict of options (values stay text: the bot parses
    them); a clear error for anything else."""
    out: dict[str, str] = {}
    for part in filter(None, text.split(":")):
        key, eq, value = part.partition("=")
        if not eq or not key or not value:
            raise ValueError(f"--bot wants key=value pairs joined by ':', not {part!r}")
        out[key] = value
    return out


def measure(
    name: str,
    players: int,
    level: str,
    iterations: int,
    count: int,
    seed: int,
    options: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Samples per CPU second of ``level`` at ``iterations`` (and ``options``) over
    ``count`` positions."""
    import mazo
    from mazo.core.rng import derive_seed

    game = mazo.load_game(name, players=players)
    extra = dict(options or {})
    samples = 0
    cpu = 0.0
    searched = 0
    for i, state in enumerate(positions(name, players, count, seed)):
        seat = state.to_act
        obs = state.observation(seat)
        bot = mazo.make_bot(
            level, game, seed=derive_seed(seed, "bot", i), iterations=iterations, **extra
        )
        for _ in range(4):  # a sign to the partners first (Envite), then the move
            start = time.process_time()
            action = bot.choose(obs)
            took = time.process_time() - start
            drawn = getattr(bot, "last_iterations", 0)
            if drawn:
                samples += drawn
                cpu += took
                searched += 1
            if action not in game.info.message_actions:
                break
            state = state.apply(action, seat=seat)
            obs = state.observation(seat)
    return {
        "game": name,
        "players": players,
        "level": level,
        "iterations": iterations,
        "options": extra,
        "positions": searched,
        "samples": samples,
        "cpu_s": cpu,
        "samples_per_cpu_s": samples / cpu if cpu else None,
    }


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    configs = [(g, p) for g, p in CONFIGS if not args.game or g in args.game]
    options = bot_options(args.bot)
    return [
        measure(g, p, args.level, args.iterations, args.positions, args.seed, options)
        for g, p in configs
    ]


def _worker(tree: Path, argv: list[str]) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, str(Path(__file__).resolve()), "--json", "--tree", str(tree), *argv]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    result: list[dict[str, Any]] = json.loads(out)
    return result


def compare(args: argparse.Namespace, argv: list[str]) -> None:
    trees = {"old": Path(args.compare).resolve(), "new": HERE}
    rates: dict[tuple[str, str, int], list[float]] = {}
    for r in range(args.rounds):
        order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
        for label in order:
            for row in _worker(trees[label], argv):
                key = (label, row["game"], row["players"])
                rates.setdefault(key, []).append(row["samples_per_cpu_s"] or 0.0)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    print(f"{args.level} iterations={args.iterations}, {args.rounds} rounds, medians")
    print(f"{'game':<12}{'p':>3}{'old /CPU s':>14}{'new /CPU s':>14}{'ratio':>8}   runs (new)")
    for g, p in CONFIGS:
        if ("old", g, p) not in rates:
            continue
        old = statistics.median(rates["old", g, p])
        new = statistics.median(rates["new", g, p])
        runs = " ".join(f"{x:.0f}" for x in rates["new", g, p])
        ratio = new / old if old else float("nan")
        print(f"{g:<12}{p:>3}{old:>14.0f}{new:>14.0f}{ratio:>7.1f}x   {runs}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument(
        "--bot", default="", metavar="K=V[:K=V...]", help="search options on top of the preset"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    parser.add_argument("--compare", metavar="TREE")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    try:
        bot_options(args.bot)
    except ValueError as err:
        parser.error(str(err))
    sys.path.insert(0, str(Path(args.tree).resolve() if args.tree else HERE))
    if args.compare:
        argv = [a for a in sys.argv[1:] if not a.startswith("--compare") and a != args.compare]
        argv = _strip(argv, "--rounds")
        compare(args, argv)
        return
    rows = run(args)
    if args.json:
        print(json.dumps(rows))
        return
    for row in rows:
        rate = row["samples_per_cpu_s"]
        print(
            f"{row['game']:<12}{row['players']:>3}p  {row['positions']:>3} positions  "
            f"{row['samples']:>6} samples  {row['cpu_s']:7.2f} CPU s  "
            f"{rate if rate is None else round(rate):>7} samples/CPU s"
        )


def _strip(argv: list[str], flag: str) -> list[str]:
    """``argv`` without ``flag`` and its value (either spelling)."""
    out: list[str] = []
    skip = False
    for a in argv:
        if skip:
            skip = False
            continue
        if a == flag:
            skip = True
            continue
        if a.startswith(flag + "="):
            continue
        out.append(a)
    return out


if __name__ == "__main__":
    main()
