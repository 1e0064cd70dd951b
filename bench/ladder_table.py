#!/usr/bin/env python3
"""Markdown rows for docs/strength.md from ``mazo tournament --per deal --json`` outputs.

Each file is one tournament (one game and player count); each pair of bots in it gives
one row, read from the first bot's side: deals won (ties count half in the score rate,
not here) with the Wilson interval, the mean points margin a deal and its interval over
deal sets, the share of the points won and its interval, and the duplicate comparison
(deal sets where the first bot did better / even / worse on the same cards).

    python bench/ladder_table.py runs/*.json
    python bench/ladder_table.py --json runs/*.json    # the same numbers for machines
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

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
            }
        )
    return out


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
    args = parser.parse_args(argv)
    table: list[dict[str, Any]] = []
    for path in args.files:
        try:
            table.extend(rows(json.loads(path.read_text())))
        except (OSError, ValueError, KeyError) as err:
            print(f"{path}: not a tournament JSON ({err})", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(table, indent=1))
    else:
        print(HEADER)
        for row in table:
            print(markdown(row))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
