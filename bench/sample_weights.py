"""How much a search's sample weights know about the hidden hands (issue 18).

At decisions of ``normal`` against ``normal`` (every ``--every``-th decision of deals from
``--seed`` on), each reader that weighs samples is asked to weigh the true deal and
``--samples`` samples of the deciding seat's view (``game.sampler``); the ratio of the
true deal's weight to the samples' mean weight says how much more likely the reader
makes the truth than a uniform sample does.  Printed: the geometric mean of the ratios
over positions (1 = the reader knows nothing; an oracle would score the number of
possible hands, hundreds or thousands), with the share of positions where the truth
weighs more than the average sample.

Readers: ``net`` (the cards head of the game's net, ISMCTS ``infer=net``; ``--weights``
names another net), ``plays`` (the game's ``play_likelihood``, ``infer=plays``) and
``both`` (the two multiplied, the net's odds to the power ``NET_POWER``: ``infer=both``),
whichever the game has.  Only decisions with a hidden card to place and something to
read count (``plays`` reads nothing before the opponent's first card: such positions are
left out for both readers, so they are compared on the same ones), and only where the
samples differ in the hands they deal (not Briscola's last tricks, which are solved).
Where the plays read nowhere (Briscola at four or six players), the net is read alone
at every such position.

    .venv/bin/python bench/sample_weights.py briscola --players 2 --deals 40 --json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from typing import Any

import mazo
from mazo.bots.heuristic import hook
from mazo.bots.ismcts import NET_POWER, _card_weigher, weigh_both
from mazo.core.rng import Rng, derive_seed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("game")
    p.add_argument("--players", "-n", type=int, default=2)
    p.add_argument("--deals", type=int, default=40, help="deals of normal self-play (40)")
    p.add_argument("--every", type=int, default=3, help="read every N-th decision (3)")
    p.add_argument("--samples", type=int, default=200, help="samples a position (200)")
    p.add_argument("--seed", type=int, default=7000, help="first match seed (7000)")
    p.add_argument("--weights", default=None, help="a net folder or .npz (the shipped net)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)

    from mazo.bots.ismcts import cards_net

    game = mazo.load_game(args.game, players=args.players)
    net = cards_net(game, args.weights)
    plays = hook(game, "play_likelihood")
    logs: dict[str, list[float]] = {"net": []}
    if plays is not None:
        logs["plays"] = []
        logs["both"] = []
    alone: list[float] = []  # the net at every position, whether the plays read or not
    cpu = time.process_time()
    positions = 0
    for deal in range(args.deals):
        seed = derive_seed(args.seed, "sample-weights", deal)
        state: Any = game.new_match(seed=seed).stop_at_deal_end()
        bots = [mazo.make_bot("normal", game, seed=seed + s) for s in range(game.players)]
        rng = Rng(seed)
        step = 0
        while not state.hand_over:
            seat = state.to_act
            view = state.observation(seat)
            if step % args.every == 0:
                readers = {"net": _card_weigher(game, net, view)}
                if plays is not None:
                    weigh = plays(game, view)
                    if weigh is not None:
                        readers["plays"] = weigh
                        half = _card_weigher(game, net, view, NET_POWER)
                        readers["both"] = weigh_both(weigh, half)
                sample = game.sampler(view)
                paired = len(readers) == len(logs)  # every reader reads here
                # the net alone draws from its own generator: the paired positions' draws
                # stay those of the runs in docs/nets.md
                draws = rng if paired else Rng(derive_seed(seed, "alone", step))
                drawn = [sample(draws) for _ in range(args.samples)]
                others = [s for s in range(game.players) if s != seat]
                if len({tuple(tuple(d.hand(s)) for s in others) for d in drawn}) > 1:
                    for name, weigh in readers.items():
                        mean = statistics.fmean(weigh(s, draws) for s in drawn)
                        truth = statistics.fmean(weigh(state, draws) for _ in range(5))
                        if mean > 0 and truth > 0:
                            ratio = math.log(truth / mean)
                            if name == "net":
                                alone.append(ratio)
                            if paired:
                                logs[name].append(ratio)
                    positions += paired
            state = state.apply(bots[seat].choose(view), seat=seat)
            step += 1
        print(f"deal {deal + 1}/{args.deals}", file=sys.stderr, end="\r")
    if not positions:  # the plays read nowhere here (more than two players): the net alone
        logs, positions = {"net": alone}, len(alone)
    out = {
        "game": game.name,
        "players": game.players,
        "positions": positions,
        "samples": args.samples,
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "readers": {
            name: {
                "geometric_mean_ratio": round(math.exp(statistics.fmean(v)), 3) if v else None,
                "truth_above_average": round(sum(x > 0 for x in v) / len(v), 3) if v else None,
                "positions": len(v),
            }
            for name, v in logs.items()
        },
    }
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"\n{game.name} {game.players}p, {positions} positions, {args.samples} samples each")
        for name, r in out["readers"].items():
            print(
                f"  {name}: the truth weighs {r['geometric_mean_ratio']}x the average sample "
                f"(geometric mean); above average at {r['truth_above_average']:.0%}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
