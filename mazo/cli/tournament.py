"""``mazo tournament``: a round robin between bots on duplicate deals, with Elo ratings.

The work is done by :func:`mazo.sim.tournament.run_tournament`; this module parses flags,
shows progress on stderr (a bar on a terminal, plain lines in a log), prints tables (or
JSON alone with ``--json``) and draws the ``--plot`` PNG with :mod:`mazo.sim.plot`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mazo.bots import list_bots
from mazo.render import text_for
from mazo.sim.elo import ANCHOR
from mazo.sim.tournament import (
    UNITS,
    TournamentResult,
    TournamentStats,
    default_workers,
    rotations,
    run_tournament,
)

from .common import (
    CliError,
    Output,
    add_batch_flags,
    batch_start,
    isatty,
    listed,
    print_json,
    print_table,
    reported,
    subcommand,
    with_progress,
)
from .sim import add_backend_flags

__all__ = ["add_parser", "run"]

DEFAULT_BOTS = "heuristic,random"
DEFAULT_GAMES = 50

TEXT = """\
round robin between bots on duplicate deals, with Elo ratings

Play every pair of bots on the same deals with the sides rotated (duplicate deals), and
report per pair and per bot the win rate with its 95% confidence interval, mean points
per deal and final score with 95% intervals, how often each bot did better on the same
cards, and an Elo table.

examples:
  mazo tournament briscola --bots heuristic,random --games 200 --seed 1
  mazo tournament briscola --bots heuristic,random,ismcts:iterations=50 --games 20
  mazo tournament escoba --players 3 --bots heuristic,random --games 50 --workers 2
  mazo tournament briscola -n 4 --bots heuristic,random --games 100 --json > result.json
  mazo tournament briscola --bots heuristic,random --games 100 --plot result.png
  mazo tournament briscola --bots heuristic,random --games 500 --backend ray --address auto
  mazo tournament briscola --bots examples.ppo_bot:make,normal,random --games 20
  mazo tournament briscola --bots expert:iterations=100,normal --per deal --games 2000

bots: a comma-separated list of bot specs, NAME or NAME:KEY=VALUE:KEY=VALUE (e.g.
ismcts:iterations=50:exploration=0.5); a spec given twice is numbered (random#1,
random#2).  A plugin bot is an import path, package.module:factory[:KEY=VALUE...]:
factory(game, seed, **options) returns an object with choose(observation) -> int.
Every pair of bots plays (round robin); in team games partners are two
copies of the same bot.

duplicate deals: deal set i is the match seed derive_seed(SEED, "deal", i), the same for
every pair; it fixes every pack of the match and the first dealer.  Each deal set is
played under every rotation of the pair over the sides: A-B and B-A with two sides;
with three players all cyclic shifts of A,B,A and B,A,B (six).  So each bot plays every
side equally often with the same cards, and luck mostly cancels.  --games N counts deal
sets per pair: the tournament plays pairs x N x rotations matches.

statistics: win rates are per side played, with the 95% Wilson interval (baseline
1/sides); means (points per deal, final score) are shown as mean +- 1.96 s/sqrt(n).
"duplicate" is better-even-worse: in how many deal sets the bot won more sides over the
rotations than its opponent, as many, or fewer.  Elo: a Bradley-Terry fit to the
pairwise match results (a draw is half a win; one virtual draw per pair keeps a clean
sweep finite), shifted so the mean rating is 1500.  The results do not depend on
--workers.  See docs/tournament.md.

per deal: every bot's deals are counted too (a second table): deals won with the 95%
Wilson interval, the mean points margin (its side's points minus the best other side's)
and its share of all points, both with 95% intervals over deal sets.  With --per deal a
deal set is the first deal of its match seed alone, played under every rotation (the
same pack and dealer, from 0-0): the way to compare bots by the thousand deals; its
duplicate record then compares the points taken over the rotations.
"""


def add_parser(subparsers: Any) -> None:
    """Register ``mazo tournament``."""
    p = subcommand(subparsers, "tournament", TEXT)
    games = (
        f"deal sets per pair (default {DEFAULT_GAMES}); each is played under every "
        "rotation, so matches = pairs x N x rotations"
    )
    bots = (
        f"comma-separated bot specs, NAME[:KEY=VALUE...] (default {DEFAULT_BOTS}; "
        f"bots: {', '.join(list_bots())})"
    )
    add_batch_flags(
        p,
        "the game to play, e.g. briscola",
        (DEFAULT_GAMES, games),
        (DEFAULT_BOTS, "A,B[,C...]", bots),
    )
    p.add_argument(
        "--workers",
        "-w",
        type=int,
        metavar="W",
        help=(
            "worker processes (default: every core; 1 plays in this process); "
            "with --backend ray the cluster's CPUs decide instead"
        ),
    )
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw win rates and Elo ratings as a PNG (needs pip install 'mazo[plot]')",
    )
    p.add_argument(
        "--per",
        choices=UNITS,
        default="match",
        help=(
            "what a deal set is: a whole match (default) or its first deal alone "
            "(per-deal duplicate comparison)"
        ),
    )
    add_backend_flags(p)


def run(args: argparse.Namespace) -> int:
    """Run the tournament: 0 on success, 2 on bad arguments (one line on stderr)."""
    out = Output(color=not args.json)

    def body() -> int:
        if listed(out, args):
            return 0
        game, seed, show = batch_start(args, " (deal sets per pair)")
        workers = args.workers if args.workers is not None else default_workers()
        if workers < 1:
            raise CliError(f"--workers must be at least 1, not {workers}")
        specs = [b.strip() for b in str(args.bots).split(",") if b.strip()]
        if len(specs) < 2:
            raise CliError(
                f"--bots needs at least two bots, e.g. heuristic,random; bots: "
                f"{', '.join(list_bots())}"
            )
        plot = Path(args.plot) if args.plot else None
        if plot is not None:
            _check_plot_path(plot)
        result = _play(
            game, specs, args.games, seed, workers, show, args.backend, args.address, args.per
        )
        if args.json:
            print_json(result)
        else:
            _print_tables(out, result)
        if plot is not None:
            from mazo.sim.plot import plot_tournament

            try:
                plot_tournament(result, plot)
            except OSError as err:
                raise CliError(f"cannot write the plot: {err}") from None
            if not args.json:
                out.line(f"plot written to {plot}")
        return 0

    return reported("tournament", out, body)


def _check_plot_path(path: Path) -> None:
    """Fail before playing, not after: matplotlib present, a .png in an existing folder."""
    from mazo.sim.plot import check_plotting

    check_plotting()
    if path.suffix.lower() != ".png":
        raise CliError(f"--plot writes a PNG: give a file name ending in .png, not {str(path)!r}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise CliError(f"--plot: folder {str(folder)!r} does not exist")


def _play(
    game: Any,
    specs: list[str],
    games: int,
    seed: int,
    workers: int,
    show_progress: str | None,
    backend: str = "local",
    address: str | None = None,
    unit: str = "match",
) -> TournamentResult:
    common: dict[str, Any] = {
        "unit": unit,
        "games": games,
        "players": game.players,
        "seed": seed,
        "options": dict(game.options),
        "workers": workers,
        "backend": backend,
        "address": address,
    }
    pairs = len(specs) * (len(specs) - 1) // 2
    total = pairs * games * len(rotations(game.info.sides))
    label = f"{game.name}: {len(specs)} bots, {pairs} pair{'s' if pairs > 1 else ''}"
    return with_progress(
        show_progress,
        label,
        total,
        lambda progress: run_tournament(game.name, specs, progress=progress, **common),
    )


# -- tables ------------------------------------------------------------------------------


def _mean_text(mean: float, interval: tuple[float, float] | None, digits: int) -> str:
    if interval is None:
        return f"{mean:.{digits}f}"
    return f"{mean:.{digits}f} ±{(interval[1] - interval[0]) / 2:.{digits}f}"


def _stats_rows(stats: list[TournamentStats], draws: bool) -> list[list[str]]:
    rows = []
    for s in stats:
        lo, hi = s.win_ci95
        rows.append(
            [
                s.bot,
                str(s.wins),
                *([str(s.draws)] if draws else []),
                f"{100 * s.win_rate:.1f}%",
                f"{100 * lo:.1f}-{100 * hi:.1f}%",
                _mean_text(s.deal_points.mean, s.deal_points.interval(), 1),
                _mean_text(s.score.mean, s.score.interval(), 2),
                f"{s.better}/{s.even}/{s.worse}",
            ]
        )
    return rows


def _deal_rows(stats: list[TournamentStats]) -> list[list[str]]:
    rows = []
    for s in stats:
        d = s.per_deal
        lo, hi = d.to_json()["won_ci95"]
        share = d.to_json()["share_ci95"]
        rows.append(
            [
                s.bot,
                str(d.deals),
                f"{d.won}/{d.drawn}/{d.deals - d.won - d.drawn}",
                f"{100 * d.win_rate:.1f}%",
                f"{100 * lo:.1f}-{100 * hi:.1f}%",
                _mean_text(d.margin.mean, d.set_margin.interval(), 2),
                f"{100 * d.share:.1f}%"
                + (f" ±{100 * (share[1] - share[0]) / 2:.1f}" if share else ""),
            ]
        )
    return rows


DEAL_HEADERS = ["bot", "deals", "won/drawn/lost", "deals won", "95% CI", "margin ±95%", "share"]


def _print_tables(out: Output, result: TournamentResult) -> None:
    deal_col, score_col = text_for(result.game).sim_columns
    draws = any(s.draws for s in result.totals.values())
    headers = [
        "bot",
        "wins",
        *(["draws"] if draws else []),
        "win rate",
        "95% CI",
        f"{deal_col} ±95%",
        f"{score_col} ±95%",
        "dup b/e/w",
    ]
    rot = len(result.rotations)
    pairs = len(result.pairs)
    # In a per-deal tournament each "match" is one deal.
    matches = "deals" if result.unit == "deal" else "matches"
    out.line(
        f"{result.game}, {result.players} players, seed {result.seed}: {pairs} "
        f"pair{'s' if pairs > 1 else ''} x {result.games} deal sets x {rot} rotations "
        f"= {result.matches} {matches}"
    )
    for pair in result.pairs:
        both = [pair.stats[pair.a], pair.stats[pair.b]]
        sides = pair.stats[pair.a].entries
        title = f"{pair.a} vs {pair.b}: {pair.matches} {matches}, {sides} sides played each"
        if result.unit == "match":
            _table(out, title, headers, _stats_rows(both, draws))
        _table(out, f"{pair.a} vs {pair.b}, per deal", DEAL_HEADERS, _deal_rows(both))
    if pairs > 1:
        totals = list(result.totals.values())
        title = f"all pairs: {totals[0].matches} {matches}, {totals[0].entries} sides played each"
        if result.unit == "match":
            _table(out, title, headers, _stats_rows(totals, draws))
        _table(out, "all pairs, per deal", DEAL_HEADERS, _deal_rows(totals))
    elo_rows = [
        [
            str(rank),
            label,
            f"{rating:.0f}",
            str(result.totals[label].matches),
            f"{_match_score(result.totals[label]):g}",
        ]
        for rank, (label, rating) in enumerate(result.elo_table(), start=1)
    ]
    _table(out, f"Elo (mean {ANCHOR:.0f})", ["#", "bot", "Elo", "matches", "score"], elo_rows)
    out.line(
        "win rates are per side played; ± is the 95% interval of the mean; dup b/e/w: deal "
        "sets in which the bot won more sides than its opponent / as many / fewer; score: "
        "match wins + half the drawn matches"
        if result.unit == "match"
        else "a deal set is one deal played under every rotation; Elo counts deals as matches"
    )
    out.line(
        "per deal: margin is the side's points minus the best other side's (± over deal "
        "sets); share is its part of all points taken"
    )


def _match_score(s: TournamentStats) -> float:
    return s.match_wins + s.match_draws / 2


def _table(out: Output, title: str, headers: list[str], rows: list[list[str]]) -> None:
    """A table with a title: rich on a terminal (its width fits these wide tables), else
    aligned plain text (no width limit: for files and pipes)."""
    print_table(out, title, headers, rows, rich=isatty(sys.stdout), spaced=True)
