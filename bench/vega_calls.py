#!/usr/bin/env python3
"""Where a Trionfetti net's bets part from ``normal``'s (issue 18; docs/nets.md, "Session 22").

``normal`` plays four-player Trionfetti against itself, whole matches (match ``m``
seeded ``m``, its seats' bots ``1000·m + s``).  At every decision where the seat to act
may call the vega, the net bot (the shipped net, or ``--weights``) is asked beside it:
counted are the four cases of (normal calls, the net calls).  Beside them, at every
decision with a choice, how often the net's move differs from normal's, the bets (any
move but a card) apart from the cards.  The net's imitation of the bets was what its
validation agreement hid: session 21's net called 1,817 of normal's 3,146 vegas over
120 matches.

    .venv/bin/python bench/vega_calls.py --matches 120 [--weights DIR] [--json]
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from net_compare_args import main

import mazo
from mazo.bots.net import NetBot


def measure(matches: int, weights: str | None = None) -> dict[str, Any]:
    game = mazo.load_game("trionfetti", players=4)
    vega = game.string_to_action("vega")
    cards = game.info.card_actions
    net = NetBot(game, seed=0, **({} if weights is None else {"weights": weights}))
    calls: Counter[tuple[bool, bool]] = Counter()
    asked: Counter[str] = Counter()
    differ: Counter[str] = Counter()
    start = time.process_time()
    for m in range(matches):
        bots = [mazo.make_bot("normal", game, seed=1000 * m + s) for s in range(4)]
        state = game.new_match(seed=m)
        while not state.match_over:
            seat = state.to_act
            view = state.observation(seat)
            action = bots[seat].choose(view)
            legal = state.legal_actions(seat)
            if len(legal) > 1:
                mine = net.choose(view)
                kind = "cards" if action < cards and mine < cards else "bets"
                asked[kind] += 1
                differ[kind] += mine != action
                if vega in legal:
                    calls[(action == vega, mine == vega)] += 1
            state = state.apply(action, seat=seat)
    return {
        "matches": matches,
        "weights": weights or "shipped",
        "vega_open": sum(calls.values()),
        "normal_calls": calls[(True, True)] + calls[(True, False)],
        "net_calls_with_normal": calls[(True, True)],
        "net_calls_alone": calls[(False, True)],
        "decisions": dict(asked),
        "differ": dict(differ),
        "differ_share": {k: differ[k] / asked[k] for k in asked if asked[k]},
        "cpu_seconds": round(time.process_time() - start, 1),
    }


def report(out: dict[str, Any]) -> None:
    print(
        f"{out['matches']} matches: a vega could be called {out['vega_open']} times; normal "
        f"called {out['normal_calls']}, the net {out['net_calls_with_normal']} of those and "
        f"{out['net_calls_alone']} others"
    )
    for kind, share in out["differ_share"].items():
        print(f"{kind}: the net's move differs at {100 * share:.1f}% of {out['decisions'][kind]}")


if __name__ == "__main__":
    raise SystemExit(main(__doc__ or "", 120, measure, report))
