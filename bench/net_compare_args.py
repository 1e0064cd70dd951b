"""The flags the scripts that set a game's net beside ``normal`` share
(``vega_calls.py``, ``escoba_disagreements.py``): how many matches, which net, JSON."""

from __future__ import annotations

import argparse


def parse(doc: str, matches: int) -> argparse.Namespace:
    """``--matches`` (default ``matches``, at least 1), ``--weights``, ``--json``; the
    description is the first paragraph of the script's ``doc``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument(
        "--matches", type=int, default=matches, help=f"matches of normal ({matches})"
    )
    parser.add_argument("--weights", help="a net folder or .npz (default: the shipped net)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.matches < 1:
        parser.error(f"--matches must be at least 1, not {args.matches}")
    return args
