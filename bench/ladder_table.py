#!/usr/bin/env python3
"""Markdown rows for docs/strength.md from ``mazo tournament --per deal --json`` outputs.

Each file is one tournament (one game and player count); each pair of bots in it gives
one row, read from the first bot's side: deals won (ties count half in the score rate,
not here) with the Wilson interval, the mean points margin a deal and its interval over
deal sets, the share of the points won and its interval, and the duplicate comparison
(deal sets where the first bot did better / even / worse on the same cards).

    python bench/ladder_table.py runs/*.json
    python bench/ladder_table.py --json runs/*.json    # the same numbers for machines
    python bench/ladder_table.py --pool runs/*.json    # one row per pair over all runs
    python bench/ladder_table.py --paired runs/*.json  # two bots against one, set by set

``--pool`` makes one row of every run of the same pair (game, players, bot, opponent),
as docs/strength.md's rows over several seeds are: deals and duplicate counts added,
deals won with the Wilson interval of the totals, and the margin and share as the runs'
means weighted by their deals, each interval from the runs' own (their standard errors,
read back from the 95% intervals, combined with the same weights).  The share so pooled
is the deal-weighted mean of each run's share, which equals the share of all the points
when the runs' deals carry as many points on average (same game and opponent: close).

``--paired`` compares two bots that played the same opponent on the same deals: runs
of the same game, player count, opponent, seed and number of deal sets (the deal sets
are then the same cards, dealt the same way).  Each deal set's mean margin of one bot
less the other's (``set_margins`` in the tournament's JSON) is one paired difference;
the row gives their mean with its 95% interval (normal approximation over the deal
sets), pooled over every seed both bots played.  Far narrower than the two rows' own
intervals side by side: the luck of the cards is the same on both sides.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from mazo.sim.stats import Z95, RunningMean, wilson_interval

HEADER = (
    "| game | players | bot | against | deals | deals won (95%) | margin a deal (95%) "
    "| share of points (95%) | duplicate b/e/w |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per pair of a tournament's JSON (``--per deal``)."""
    out = []
    for pair in result["pairs"]:
        first, second = pair["bots"]
        mine = pair["results"][first]
        per = mine.get("per_deal")
        if per is None:
            raise SystemExit(
                f"{result['game']}: {first} vs {second} has no per_deal results; "
                "run the tournament with --per deal"
            )
        dup = mine.get("duplicate") or {}
        out.append(
            {
                "game": result["game"],
                "players": result["players"],
                "bot": first,
                "against": second,
                "deals": per["deals"],
                "won": per["won"],
                "win_rate": per["win_rate"],
                "won_ci95": per["won_ci95"],
                "mean_margin": per["mean_margin"],
                "margin_ci95": per["margin_ci95"],
                "points_share": per["points_share"],
                "share_ci95": per["share_ci95"],
                "better": dup.get("better"),
                "even": dup.get("even"),
                "worse": dup.get("worse"),
                "seed": result["seed"],
                "deal_sets": per["deal_sets"],
                "set_margins": per.get("set_margins"),  # None in JSON from before it
            }
        )
    return out


def pool(table: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per pair (game, players, bot, opponent) over all its runs (``--pool``;
    the module's docstring says how each number is combined).  Pairs keep the order in
    which they first appear; ``seed`` becomes the list of the runs' seeds."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for row in table:
        key = (row["game"], row["players"], row["bot"], row["against"])
        groups.setdefault(key, []).append(row)
    out = []
    for (game, players, bot, against), runs in groups.items():
        deals = sum(r["deals"] for r in runs)
        won = sum(r["won"] for r in runs)
        weights = [r["deals"] / deals for r in runs]
        row: dict[str, Any] = {
            "game": game,
            "players": players,
            "bot": bot,
            "against": against,
            "deals": deals,
            "won": won,
            "win_rate": won / deals,
            "won_ci95": list(wilson_interval(won, deals)),
        }
        for value, interval in (("mean_margin", "margin_ci95"), ("points_share", "share_ci95")):
            mean = sum(w * r[value] for w, r in zip(weights, runs, strict=True))
            se = math.sqrt(
                sum(
                    (w * (r[interval][1] - r[interval][0]) / (2 * Z95)) ** 2
                    for w, r in zip(weights, runs, strict=True)
                )
            )
            row[value], row[interval] = mean, [mean - Z95 * se, mean + Z95 * se]
        for count in ("better", "even", "worse"):
            values = [r[count] for r in runs]
            row[count] = None if None in values else sum(values)
        row["seed"] = [r["seed"] for r in runs]
        row["deal_sets"] = sum(r["deal_sets"] for r in runs)
        out.append(row)
    return out


PAIRED_HEADER = (
    "| game | players | bot | other | against | deal sets (seeds) | bot's margin "
    "| other's margin | bot less other, paired (95%) |\n|---|---|---|---|---|---|---|---|---|"
)


def paired(table: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``--paired``: per two bots that played the same opponent on the same deals (game,
    players, opponent, seed, deal sets), the deal sets' paired margin differences,
    pooled over the seeds both played; one row per (bot, other, opponent)."""
    runs: dict[tuple[Any, ...], dict[str, list[float]]] = {}
    for row in table:
        if row.get("set_margins") is None:
            raise SystemExit(
                f"{row['game']}: {row['bot']} vs {row['against']} (seed {row['seed']}) has no "
                "set_margins: run the tournament again with this version of mazo"
            )
        key = (row["game"], row["players"], row["against"], row["seed"], row["deal_sets"])
        runs.setdefault(key, {}).setdefault(row["bot"], row["set_margins"])
    found: dict[tuple[Any, ...], dict[str, Any]] = {}
    for (game, players, against, seed, _), bots in runs.items():
        names = list(bots)
        for i, bot in enumerate(names):
            for other in names[i + 1 :]:
                got = found.setdefault(
                    (game, players, bot, other, against),
                    {"mine": [], "theirs": [], "seeds": []},
                )
                got["mine"].extend(bots[bot])
                got["theirs"].extend(bots[other])
                got["seeds"].append(seed)
    out = []
    for (game, players, bot, other, against), got in found.items():
        diffs = RunningMean()
        for mine, theirs in zip(got["mine"], got["theirs"], strict=True):
            diffs.add(mine - theirs)
        n = diffs.n
        interval = diffs.interval()  # None from a single deal set
        out.append(
            {
                "game": game,
                "players": players,
                "bot": bot,
                "other": other,
                "against": against,
                "deal_sets": n,
                "seeds": got["seeds"],
                "margin": sum(got["mine"]) / n,
                "other_margin": sum(got["theirs"]) / n,
                "difference": diffs.mean,
                "difference_ci95": list(interval) if interval else None,
            }
        )
    return out


def paired_markdown(row: dict[str, Any]) -> str:
    seeds = ", ".join(map(str, row["seeds"]))
    interval = row["difference_ci95"]
    spread = f"{interval[0]:+.2f} to {interval[1]:+.2f}" if interval else "one deal set"
    return (
        f"| {row['game']} | {row['players']} | `{row['bot']}` | `{row['other']}` "
        f"| `{row['against']}` | {row['deal_sets']:,} ({seeds}) | {row['margin']:+.2f} "
        f"| {row['other_margin']:+.2f} | {row['difference']:+.2f} ({spread}) |"
    )


def markdown(row: dict[str, Any]) -> str:
    lo, hi = row["won_ci95"]
    mlo, mhi = row["margin_ci95"]
    slo, shi = row["share_ci95"]
    dup = "/".join(str(row[k]) for k in ("better", "even", "worse"))
    return (
        f"| {row['game']} | {row['players']} | `{row['bot']}` | `{row['against']}` "
        f"| {row['deals']:,} | {100 * row['win_rate']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) "
        f"| {row['mean_margin']:+.1f} ({mlo:+.1f} to {mhi:+.1f}) "
        f"| {100 * row['points_share']:.1f}% ({100 * slo:.1f}-{100 * shi:.1f}) | {dup} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="tournament JSON outputs")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument(
        "--pool", action="store_true", help="one row per pair over all its runs (seeds)"
    )
    parser.add_argument(
        "--paired",
        action="store_true",
        help="two bots against the same opponent on the same deals: their margins' "
        "difference, deal set by deal set",
    )
    args = parser.parse_args(argv)
    if args.pool and args.paired:
        parser.error("--pool and --paired are two different tables: choose one")
    table: list[dict[str, Any]] = []
    for path in args.files:
        try:
            table.extend(rows(json.loads(path.read_text())))
        except (OSError, ValueError, KeyError) as err:
            print(f"{path}: not a tournament JSON ({err})", file=sys.stderr)
            return 2
    if args.paired:
        pairs = paired(table)
        if args.json:
            print(json.dumps(pairs, indent=1))
        elif not pairs:
            print("no two bots played the same opponent on the same seed", file=sys.stderr)
            return 1
        else:
            print(PAIRED_HEADER)
            for row in pairs:
                print(paired_markdown(row))
        return 0
    if args.pool:
        table = pool(table)
    if args.json:
        print(json.dumps(table, indent=1))
    else:
        print(HEADER)
        for row in table:
            print(markdown(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
