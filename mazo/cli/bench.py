"""``mazo bench``: engine speed under uniform random play, through the public API only.

For each game and player count:

* **throughput**: whole matches of random play, each step ``legal_actions()``, a uniform
  choice with :class:`mazo.core.rng.Rng`, then ``apply()`` (states are immutable; the
  old state is dropped).  Reported as actions, deals (hands) and matches per second.
* **apply**: the mean cost of one ``apply`` alone, timed in a separate loop over
  (state, action) pairs collected during the throughput phase, minus the cost of the
  bare loop.  ``legal_actions()`` and ``observation(to_act)`` are timed the same way.

Numbers depend on the machine and Python version; they are for comparing changes on one
machine, never a pass/fail test.  ``bench/bench_engine.py`` runs the same code.
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import json
import platform
import time
from collections.abc import Sequence
from typing import Any

import mazo
from mazo.core.errors import MazoError
from mazo.core.game import State
from mazo.core.rng import Rng, derive_seed
from mazo.games import GAMES

from .common import CliError, Output, game_class, subcommand

__all__ = ["add_parser", "measure", "run", "run_bench"]

SAMPLE_CAP = 20_000
_POOL = 1 << 16
_POOL_MASK = _POOL - 1
"""At most this many (state, action) pairs are kept for the per-call timings."""
_CHUNK = 256

# Share of a configuration's time spent in each phase.
_SHARE_PLAY, _SHARE_APPLY, _SHARE_LEGAL, _SHARE_OBS = 0.5, 0.25, 0.1, 0.15

TEXT = """\
measure engine speed with random play

Measure engine speed with uniform random play through the public API (legal_actions,
apply, observation).

examples:
  mazo bench                          every game, every player count, ~3 s per game
  mazo bench briscola --players 2     one configuration, all 3 s on it
  mazo bench briscola -p 2 -p 4 --seconds 10 --json > bench.json
  mazo bench --bots hard,expert --moves 20     bots' time per move and samples/CPU s

Columns: actions/s, deals/s and matches/s of random play (legal_actions + choice +
apply); the mean cost in microseconds of one apply(), legal_actions() and
observation(to_act), each timed alone.  Every time is CPU time (process_time): on a
shared machine a wall clock reads the other processes' load too.  Timings vary by
machine: compare runs on the same machine only.
"""


_BOTS_HELP = (
    "time bots instead of the engine: each listed bot (e.g. hard,expert, with options "
    "as in mazo tournament: hard:iterations=100:rollout=net) makes "
    "--moves timed decisions against 'normal' per configuration; reports ms per "
    "move, moves within the budget + 20%%, and search samples per second"
)


def add_parser(subparsers: Any) -> None:
    """Register ``mazo bench``."""
    p = subcommand(subparsers, "bench", TEXT)
    p.add_argument("game", nargs="?", metavar="GAME", help="one game (default: every game)")
    p.add_argument(
        "--players",
        "-n",
        "-p",
        type=int,
        action="append",
        metavar="N",
        help="player count (repeatable; default: each count the game allows)",
    )
    p.add_argument(
        "--seconds",
        "-s",
        type=float,
        default=3.0,
        metavar="S",
        help="CPU-time budget per game, shared by its player counts (default 3)",
    )
    p.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the deals (1)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--bots", metavar="A,B", help=_BOTS_HELP)
    p.add_argument(
        "--moves", type=int, default=20, metavar="N", help="timed decisions per bot (20)"
    )


def run(args: argparse.Namespace) -> int:
    """Benchmark and print; 2 on bad arguments."""
    out = Output()
    try:
        if args.bots:
            report = _bot_report(args)
        else:
            report = run_bench(args.game, args.players, args.seconds, args.seed)
    except (CliError, MazoError) as err:
        out.error(f"mazo bench: error: {err}")
        return 2
    if args.json:
        print(json.dumps(report, indent=2))
    elif args.bots:
        _print_bot_table(report, out)
    else:
        _print_table(report, out)
    return 0


def _bot_report(args: argparse.Namespace) -> dict[str, Any]:
    from mazo.bots import make_bot
    from mazo.sim.jobs import parse_bot_spec

    from .bench_bots import DEFAULT_CONFIGS, run_bot_bench

    # Levels with options as mazo tournament takes them: hard:iterations=100:rollout=net.
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    specs = [parse_bot_spec(b) for b in bots]  # a bad spec says what is wrong
    if args.moves < 1:
        raise CliError(f"--moves must be a positive int, not {args.moves}")
    if args.game:
        name = game_class(args.game).name
        counts = args.players or [GAMES[name].default_players]
        configs = [(name, n) for n in counts]
    else:
        configs = list(DEFAULT_CONFIGS)
    for name, n in configs:
        game = mazo.load_game(name, players=n)
        for bot_name, options in specs:
            make_bot(bot_name, game, seed=0, **options)  # a bad bot fails before any timing
    return run_bot_bench(bots, configs, args.moves, args.seed)


def _print_bot_table(report: dict[str, Any], out: Output) -> None:
    wide = max([8, *(len(r.get("spec", r["bot"])) + 1 for r in report["results"])])
    out.line(f"mazo {report['mazo']} · Python {report['python']} · {report['moves']} moves")
    out.line(
        f"{'game':<11}{'n':>3} {'bot':<{wide}}{'mean ms':>9}{'p99 ms':>9}{'max ms':>9}"
        f"{'budget':>8}{'in +20%':>9}{'samples/CPU s':>15}"
    )
    for r in report["results"]:
        budget = f"{r['budget_ms']:.0f}" if r["budget_ms"] else "-"
        within = f"{r['within_budget_plus_20pct']}/{r['moves']}" if r["budget_ms"] else "-"
        rate = f"{r['samples_per_cpu_s']:,.0f}" if r["samples_per_cpu_s"] else "-"
        label = r.get("spec", r["bot"])
        out.line(
            f"{r['game']:<11}{r['players']:>3} {label:<{wide}}{r['mean_ms']:>9.1f}"
            f"{r['p99_ms']:>9.1f}{r['max_ms']:>9.1f}{budget:>8}{within:>9}{rate:>15}"
        )


def run_bench(
    game: str | None = None,
    players: Sequence[int] | None = None,
    seconds: float = 3.0,
    seed: int = 1,
) -> dict[str, Any]:
    """Measure the chosen games and player counts; a JSON-ready report."""
    if not seconds > 0:
        raise CliError(f"--seconds must be positive, not {seconds}")
    names = [game_class(game).name] if game else mazo.list_games()
    configs: list[tuple[str, int, float]] = []
    for name in names:
        allowed = GAMES[name].player_counts
        counts = list(dict.fromkeys(players)) if players else list(allowed)
        bad = [n for n in counts if n not in allowed]
        if bad:
            raise CliError(
                f"{name} is played by {', '.join(map(str, allowed))} players, "
                f"not {', '.join(map(str, bad))}"
            )
        configs += [(name, n, seconds / len(counts)) for n in counts]
    results = [measure(name, n, budget, seed) for name, n, budget in configs]
    return {
        "mazo": mazo.__version__,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "seed": seed,
        "seconds_per_game": seconds,
        "results": results,
    }


def measure(game_name: str, players: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    """Random-play throughput and per-call costs for one configuration."""
    game = mazo.load_game(game_name, players=players)
    # The policy's random numbers are drawn before the clock starts, so the clock measures
    # the engine (legal_actions + apply), not the PRNG.  ``x % len(legal)`` of a 64-bit
    # number is uniform to within 2**-58 for any legal set mazo has.
    rng = Rng(derive_seed(seed, "bench choices", game_name, players))
    pool = [rng.next64() for _ in range(_POOL)]
    pairs: list[tuple[State, int]] = []
    # Partners' talk (signs, consultation) is free and unbounded in kind: a uniform policy
    # would mostly talk.  The policy plays the game; the filter's cost is in the numbers.
    talk = game.info.message_actions
    actions = deals = matches = 0
    budget = seconds * _SHARE_PLAY
    clock = time.process_time  # CPU time: the machine may be shared
    elapsed = 0.0
    i = 0
    while True:
        state: State = game.new_match(seed=derive_seed(seed, "bench match", matches))
        first = state
        t0 = clock()
        while state.to_act is not None:
            legal = state.legal_actions()
            if talk:
                legal = _moves(legal, talk) or legal
            state = state.apply(legal[pool[i & _POOL_MASK] % len(legal)])
            i += 1
        elapsed += clock() - t0
        # Bookkeeping outside the clock: count the match's deals.
        deals += sum(1 for e in state.events if e["type"] == "hand_end")
        matches += 1
        if len(pairs) < SAMPLE_CAP:
            _collect_pairs(first, pool, pairs)
        if elapsed >= budget:
            break
    actions = i
    states = [s for s, _ in pairs]
    return {
        "game": game_name,
        "players": players,
        "seconds": round(elapsed, 3),
        "actions": actions,
        "deals": deals,
        "matches": matches,
        "actions_per_s": round(actions / elapsed, 1),
        "deals_per_s": round(deals / elapsed, 2),
        "matches_per_s": round(matches / elapsed, 3),
        "actions_per_match": round(actions / matches, 1),
        "apply_us": _per_call_us(pairs, lambda s, a: s.apply(a), seconds * _SHARE_APPLY),
        "legal_actions_us": _per_call_us(
            [(s, 0) for s in states], lambda s, _a: s.legal_actions(), seconds * _SHARE_LEGAL
        ),
        "observation_us": _per_call_us(
            [(s, 0) for s in states],
            lambda s, _a: s.observation(s.to_act),
            seconds * _SHARE_OBS,
        ),
    }


def _collect_pairs(state: State, pool: list[int], pairs: list[tuple[State, int]]) -> None:
    """Replay a match's random choices (untimed), keeping (state, action) samples."""
    i = 0
    talk = state.game.info.message_actions
    while state.to_act is not None and len(pairs) < SAMPLE_CAP:
        legal = state.legal_actions()
        legal = _moves(legal, talk) or legal
        action = legal[pool[i & _POOL_MASK] % len(legal)]
        pairs.append((state, action))
        state = state.apply(action)
        i += 7  # a different slice of the pool from the timed run's


_RANGES: dict[frozenset[int], tuple[int, int] | None] = {}


def _moves(legal: list[int], talk: frozenset[int]) -> list[int]:
    """The legal actions without the talk.  Legal lists are sorted and every game's talk
    ids are one contiguous range, so two bisections do it (a scan of a hundred message
    ids would cost more than the move itself)."""
    if not talk:
        return legal
    if talk not in _RANGES:
        lo, hi = min(talk), max(talk)
        _RANGES[talk] = (lo, hi) if hi - lo + 1 == len(talk) else None
    span = _RANGES[talk]
    if span is None:
        return [a for a in legal if a not in talk]
    lo, hi = span
    return legal[: bisect.bisect_left(legal, lo)] + legal[bisect.bisect_right(legal, hi) :]


def _per_call_us(pairs: list[tuple[State, int]], call: Any, budget: float) -> float:
    """Mean microseconds of ``call(state, action)`` over the pairs, bare loop subtracted.

    The pairs are walked in chunks, round and round, until the budget is spent (at least
    one chunk), so a slow call does not overrun the budget by a whole pass.
    """
    if not pairs:
        return 0.0
    chunks = [pairs[i : i + _CHUNK] for i in range(0, len(pairs), _CHUNK)]
    clock = time.process_time  # CPU time: the machine may be shared
    calls = 0
    used: list[int] = []
    start = clock()
    for index in itertools.cycle(range(len(chunks))):
        for state, action in chunks[index]:
            call(state, action)
        calls += len(chunks[index])
        used.append(index)
        if clock() - start >= budget:
            break
    spent = clock() - start
    noop = _noop
    base_start = clock()
    for index in used:
        for state, action in chunks[index]:
            noop(state, action)
    base = clock() - base_start
    return round(max(spent - base, 0.0) / calls * 1e6, 3)


def _noop(state: State, action: int) -> None:
    return None


def _print_table(report: dict[str, Any], out: Output) -> None:
    head = (
        f"mazo {report['mazo']} · {report['implementation']} {report['python']} "
        f"· {report['machine']} · seed {report['seed']}"
    )
    columns = [
        ("game", "game", "{}"),
        ("n", "players", "{}"),
        ("actions/s", "actions_per_s", "{:,.0f}"),
        ("deals/s", "deals_per_s", "{:,.0f}"),
        ("matches/s", "matches_per_s", "{:,.1f}"),
        ("apply µs", "apply_us", "{:.2f}"),
        ("legal µs", "legal_actions_us", "{:.2f}"),
        ("obs. µs", "observation_us", "{:.2f}"),
    ]
    rows = [[fmt.format(r[key]) for _, key, fmt in columns] for r in report["results"]]
    if out.rich:
        from rich import box
        from rich.table import Table

        table = Table(
            title="Random-play benchmark", caption=head, box=box.SIMPLE_HEAD, pad_edge=False
        )
        for i, (title, _, _) in enumerate(columns):
            table.add_column(title, justify="left" if i == 0 else "right", no_wrap=True)
        for row in rows:
            table.add_row(*row)
        out.renderable(table)
        return
    widths = [max(len(t), *(len(r[i]) for r in rows)) for i, (t, _, _) in enumerate(columns)]
    out.line(head)
    out.line("  ".join(t.rjust(w) for (t, _, _), w in zip(columns, widths, strict=True)))
    for row in rows:
        out.line("  ".join(v.rjust(w) for v, w in zip(row, widths, strict=True)))
