#!/usr/bin/env python3
"""Briscola throughput: mazo against the ``naipes`` package (``pip install naipes``).

Both engines play uniformly random two-player deals from the same pre-drawn random
numbers, so the clock measures the engines, not their PRNGs.  mazo goes through its
public API (``legal_actions()`` + ``apply()``, immutable states); naipes mutates one
state in place.  Best of several rounds, interleaved, CPU time only.  A benchmark, not a
test: the numbers depend on the machine.

    python bench/compare_naipes.py [--seconds 1] [--rounds 4]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mazo
from mazo.core.rng import Rng

POOL_MASK = (1 << 16) - 1


def run_mazo(pool: list[int], seconds: float) -> float:
    game = mazo.load_game("briscola", players=2)
    i = match = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_match(seed=match)
        match += 1
        while state.to_act is not None:
            legal = state.legal_actions()
            state = state.apply(legal[pool[i & POOL_MASK] % len(legal)])
            i += 1
    return i / (time.process_time() - start)


def run_naipes(pool: list[int], seconds: float) -> float:
    from naipes.games.brisca.state import GameState  # type: ignore[import-not-found]

    i = seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        seed += 1
        game = GameState.new(seed)
        while not game.is_finished():
            if game.pending_leader_card is None:
                player = game.leader
            else:
                player = game.pending_leader.other()
            game.play_card(player, pool[i & POOL_MASK] % len(game.hand_of(player)))
            i += 1
    return i / (time.process_time() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per round")
    parser.add_argument("--rounds", type=int, default=4, help="interleaved rounds; best kept")
    args = parser.parse_args()
    try:
        import naipes  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        print("naipes is not installed: pip install naipes", file=sys.stderr)
        return 2
    rng = Rng(2026)
    pool = [rng.next64() for _ in range(POOL_MASK + 1)]
    best_mazo = best_naipes = 0.0
    for _ in range(args.rounds):
        best_naipes = max(best_naipes, run_naipes(pool, args.seconds))
        best_mazo = max(best_mazo, run_mazo(pool, args.seconds))
    print(f"naipes  {best_naipes:12,.0f} card plays/s")
    print(f"mazo    {best_mazo:12,.0f} actions/s (public API, immutable states)")
    print(f"ratio   {best_mazo / best_naipes:12.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
