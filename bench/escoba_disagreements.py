#!/usr/bin/env python3
"""Where the Escoba net's moves part from ``normal``'s (issue 18; docs/nets.md, "How far
more compute would take it").

``normal`` plays two-player Escoba against itself, whole matches (match ``m`` seeded
``1000 + m``, its seats' bots seeded 1 and 2).  At every decision with a choice the net
(the shipped one, or ``--weights``) is asked beside it, its policy's argmax over the
legal moves.  Each disagreement is filed by what the position offered (``nocap``: no
capture legal; ``allcap``: only captures; ``mixed``: both) and by what each chose
(``lay`` or ``capture``); beside it, how often either swept the table where the other
did not.  Session 25 read from it that the clone never misses a sweep and that most of
its errors are which card to lay.

    .venv/bin/python bench/escoba_disagreements.py --matches 60 [--weights DIR] [--json]
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
from mazo.nets import load_net

MAX_MOVES = 400  # a match of two-player Escoba to 21 points takes far fewer


def measure(matches: int, weights: str | None = None) -> dict[str, Any]:
    game = mazo.load_game("escoba", players=2)
    net = load_net(game, weights)
    bots = [mazo.make_bot("normal", game, seed=s) for s in (1, 2)]
    offered: Counter[str] = Counter()
    differ: Counter[str] = Counter()
    sweeps = Counter({"normal_only": 0, "net_only": 0})
    start = time.process_time()
    agree = asked = 0

    def taken(action: int) -> int:
        return game.action_to_string(action).count("+")

    for m in range(matches):
        state = game.new_match(seed=1000 + m)
        for _ in range(MAX_MOVES):
            seat = state.to_act
            if seat is None or state.match_over:
                break
            view = state.observation(seat)
            action = bots[seat].choose(view)
            legal, ev = net.evaluate(view, with_value=False)
            if len(legal) > 1:
                mine = legal[max(range(len(legal)), key=ev.logits.__getitem__)]
                captures = sum(taken(a) > 0 for a in legal)
                where = "nocap" if not captures else "allcap" if captures == len(legal) else "mixed"
                offered[where] += 1
                asked += 1
                agree += mine == action
                if mine != action:
                    kinds = ("capture" if taken(a) else "lay" for a in (action, mine))
                    differ["{} normal={} net={}".format(where, *kinds)] += 1
                    table = len(view["table"])
                    swept = [table > 0 and taken(a) == table for a in (action, mine)]
                    sweeps["normal_only"] += swept[0] and not swept[1]
                    sweeps["net_only"] += swept[1] and not swept[0]
            state = state.apply(action, seat=seat)
    return {
        "matches": matches,
        "weights": weights or "shipped",
        "decisions": asked,
        "agreement": agree / asked if asked else None,
        "offered": dict(offered),
        "differ": dict(differ.most_common()),
        "sweeps": dict(sweeps),
        "cpu_seconds": round(time.process_time() - start, 1),
    }


def report(out: dict[str, Any]) -> None:
    print(
        f"{out['matches']} matches: {out['decisions']} decisions with a choice, the net "
        f"agrees at {100 * out['agreement']:.1f}%; positions offered {out['offered']}"
    )
    for what, count in out["differ"].items():
        print(f"  {what}: {count}")
    print(
        f"sweeps normal made and the net did not: {out['sweeps']['normal_only']}; "
        f"the net's alone: {out['sweeps']['net_only']}"
    )


if __name__ == "__main__":
    raise SystemExit(main(__doc__ or "", 60, measure, report))
