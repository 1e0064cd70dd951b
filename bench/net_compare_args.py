"""What the scripts that set a game's net beside ``normal`` share (``vega_calls.py``,
``escoba_disagreements.py``): their flags (how many matches, which net, JSON) and their
``main`` (measure, then JSON or the script's own lines)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any


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


def main(
    doc: str,
    matches: int,
    measure: Callable[[int, str | None], dict[str, Any]],
    report: Callable[[dict[str, Any]], None],
) -> int:
    """Parse the flags, ``measure(matches, weights)``, and print its result as JSON
    (``--json``) or through ``report``."""
    args = parse(doc, matches)
    out = measure(args.matches, args.weights)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        report(out)
    return 0
