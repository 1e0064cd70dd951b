"""``mazo sim``: bots play many matches against each other; win rates with 95% intervals.

The work is done by :func:`mazo.sim.run`; this module parses flags, shows progress on
stderr (a bar on a terminal, plain lines in a log) and prints a table, or JSON alone
with ``--json``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from mazo.bots import list_bots, parse_option_value
from mazo.render import text_for
from mazo.sim import SimResult
from mazo.sim import run as run_sim
from mazo.sim.runner import BACKENDS

from .common import (
    CliError,
    Output,
    add_batch_flags,
    batch_start,
    listed,
    print_json,
    print_table,
    reported,
    split_option,
    subcommand,
    with_progress,
)

__all__ = ["add_backend_flags", "add_parser", "parse_bot_options", "run"]

DEFAULT_BOTS = "heuristic,random"
DEFAULT_GAMES = 100

TEXT = """\
play bots against each other and report win rates

Play many matches between bots, rotating seats so no bot keeps a seat or the lead, and
report each bot's win rate with a 95% confidence interval, its mean points per deal and
its mean final score (per game: see below).

examples:
  mazo sim briscola --games 200 --bots heuristic,random --players 2 --seed 1
  mazo sim briscola --games 100 --players 4 --json > result.json
  mazo sim briscola --games 50 --bots heuristic,heuristic --save records/
  mazo sim briscola --games 100 --players 4 -o signals_enabled=true --bot-option signals=true
  mazo sim briscola --games 1000 --backend ray --address auto   # on a running Ray cluster

seat rotation: bots play sides (a seat, or a team whose seats all get the same bot).
In match i side j is played by bots[(i + j) % len(bots)], so with two bots each plays
every side equally often (with 3 players and two bots: A,B,A then B,A,B).  Win rates are
per side played ("entries"), so the baseline is 1/sides.  Match i's deals come from
derive_seed(SEED, "match", i): the same --seed gives the same results.

the 95% interval is the Wilson score interval of the win rate.  The last two columns
are per game: Briscola "card pts/deal" (the card points a side takes in a deal, 120 in
all) and "deals won" (its mean final score); Escoba "points/hand" and "final score";
Envite "stones/deal" (stones awarded per deal, 0 for a chico won outright) and "chicos"
(mean chicos per match); Trionfetti "points/deal" (1, or an accepted vega's value) and
"games" (mean games won per match).
"""


def add_parser(subparsers: Any) -> None:
    """Register ``mazo sim``."""
    p = subcommand(subparsers, "sim", TEXT)
    bots = (
        f"comma-separated bot names, one per side in the first match (default "
        f"{DEFAULT_BOTS}; bots: {', '.join(list_bots())}, or a plugin "
        "package.module:factory); a repeated name is numbered"
    )
    games = f"number of matches (default {DEFAULT_GAMES})"
    add_batch_flags(
        p,
        "the game to simulate, e.g. briscola",
        (DEFAULT_GAMES, games),
        (DEFAULT_BOTS, "A,B,...", bots),
        optional=True,
    )
    p.add_argument(
        "--bot-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option given to every bot (repeatable), e.g. --bot-option signals=true",
    )
    p.add_argument("--save", metavar="DIR", help="write each match record to DIR/match-NNNN.json")
    add_backend_flags(p)


def add_backend_flags(p: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--address`` (``mazo sim`` and ``mazo tournament``)."""
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help=(
            "where matches are played: local (this machine; the default) or ray (tasks on "
            "a Ray cluster, same results for the same seed; needs pip install 'mazo[ray]')"
        ),
    )
    p.add_argument(
        "--address",
        metavar="ADDR",
        help=(
            "with --backend ray: the cluster, as for ray.init: 'local' (a new instance on "
            "this machine), 'auto', HOST:PORT or ray://HOST:PORT (default: RAY_ADDRESS, "
            "else a cluster started here with 'ray start', else a new local instance)"
        ),
    )


def parse_bot_options(items: list[str]) -> dict[str, Any]:
    """``["signals=true"]`` -> ``{"signals": True}`` (booleans, ints, else text).

    >>> parse_bot_options(["signals=yes", "depth=3", "style=bold"])
    {'signals': True, 'depth': 3, 'style': 'bold'}
    """
    out: dict[str, Any] = {}
    for item in items:
        name, text = split_option(item, "--bot-option", "signals=true")
        out[name] = parse_option_value(text)
    return out


def run(args: argparse.Namespace) -> int:
    """Run the simulation: 0 on success, 2 on bad arguments (one line on stderr)."""
    out = Output(color=not args.json)

    def body() -> int:
        if listed(out, args):
            return 0
        if args.game is None:  # optional only for --list-bots
            raise CliError(f"GAME is required, e.g. mazo sim briscola; games: {_games()}")
        game, seed, show = batch_start(args)
        bot_names = [b.strip() for b in str(args.bots).split(",") if b.strip()]
        if not bot_names:
            raise CliError(f"--bots needs bot names, e.g. heuristic,random; bots: {list_bots()}")
        bot_options = parse_bot_options(args.bot_option)
        try:
            result = _simulate(game.name, bot_names, args, game, seed, bot_options, show)
        except OSError as err:  # --save into a place that cannot be written
            raise CliError(f"cannot save records: {err}") from None
        if args.json:
            print_json(result)
        else:
            _print_table(out, result, args.save)
        return 0

    return reported("sim", out, body)


def _simulate(
    game_name: str,
    bot_names: list[str],
    args: argparse.Namespace,
    game: Any,
    seed: int,
    bot_options: dict[str, Any],
    show_progress: str | None,
) -> SimResult:
    common: dict[str, Any] = {
        "games": args.games,
        "players": game.players,
        "seed": seed,
        "options": dict(game.options),
        "save_dir": Path(args.save) if args.save else None,
        "bot_options": bot_options,
        "backend": args.backend,
        "address": args.address,
    }
    label = f"{game_name}: {' vs '.join(bot_names)}"
    return with_progress(
        show_progress,
        label,
        args.games,
        lambda progress: run_sim(game_name, bot_names, progress=progress, **common),
    )


def _rows(result: SimResult) -> list[list[str]]:
    rows = []
    for label, s in result.stats.items():
        lo, hi = s.win_ci95
        rows.append(
            [
                label,
                str(s.entries),
                str(s.wins),
                f"{100 * s.win_rate:.1f}%",
                f"{100 * lo:.1f}-{100 * hi:.1f}%",
                f"{s.mean_deal_points:.1f}",
                f"{s.mean_deal_wins:.2f}",
            ]
            + ([str(s.draws)] if any(t.draws for t in result.stats.values()) else [])
        )
    return rows


_HEADERS = ["bot", "played", "wins", "win rate", "95% CI"]


def _print_table(out: Output, result: SimResult, save: str | None) -> None:
    # What a deal's points and the final score are called: the game's text says.
    headers = [*_HEADERS, *text_for(result.game).sim_columns]
    if any(s.draws for s in result.stats.values()):
        headers.append("draws")
    title = f"{result.game}, {result.players} players, {result.games} matches, seed {result.seed}"
    print_table(out, title, headers, _rows(result), rich=True)
    if save:
        out.line(f"records saved in {save}/match-NNNN.json")


def _games() -> str:
    from mazo.games import list_games

    return ", ".join(list_games())
