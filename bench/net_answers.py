#!/usr/bin/env python3
"""What the net's answers to Trionfetti's vega are worth, on the real cards (issue 18).

``normal`` plays four-player Trionfetti against itself, deal by deal (the first deal of
each match, match seeds derived from ``--seed``).  At every answer to a vega, the
search levels' rule (:func:`mazo.bots.heuristic.trionfetti.net_answer`, ISMCTS
``answers=net``: the shipped net's value head, or ``--weights``) is asked beside the
heuristic.  Where the two answer differently, both answers are played out from the true
state, ``normal`` on every seat after them (fresh bots, the same seeds for both lines),
and the answering team's points margin in the deal (its ``hand_end`` event's points: the
match scores go back to 0 when a deal wins a game) is recorded for each: the net's
answer less the heuristic's is one paired gain.  A refusal's outcome is exact (the
caller's point); an acceptance's is one play of the real hands.  Printed: how many
answers, how often the two differ, and the mean gain where they do with its 95%
interval (normal approximation), and per answer.

    .venv/bin/python bench/net_answers.py --deals 3000 --seed 9100 --json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mazo
from mazo.bots.heuristic.trionfetti import net_answer
from mazo.core.rng import Rng, derive_seed
from mazo.nets import load_net

Z = 1.96  # a 95% interval, normal approximation


def _play_out(game: Any, state: Any, seed: int) -> Any:
    """``state`` played to its deal's end by fresh ``normal`` bots."""
    bots = [mazo.make_bot("normal", game, seed=derive_seed(seed, "play-out", s)) for s in range(4)]
    while not state.hand_over:
        seat = state.to_act
        state = state.apply(bots[seat].choose(state.observation(seat)), seat=seat)
    return state


def _deal_points(end: Any, start: Any) -> list[int]:
    """Each team's points in the deal that ``end`` closed, from its ``hand_end`` event
    (not the scores: a deal that wins a game sets them back to 0)."""
    for event in end.events_since(start):
        if event.get("type") == "hand_end":
            return list(event["points"])
    raise AssertionError("the deal did not end")


def measure(deals: int, seed: int, weights: str | None = None) -> dict[str, Any]:
    game = mazo.load_game("trionfetti", players=4)
    net = load_net(game, weights)
    side_of = game.info.side_of
    accept, refuse = game.string_to_action("accept"), game.string_to_action("refuse")
    gains: list[float] = []
    answers = 0
    cpu = time.process_time()
    for deal in range(deals):
        match_seed = derive_seed(seed, "net-answers", deal)
        state = game.new_match(seed=match_seed).stop_at_deal_end()
        bots = [mazo.make_bot("normal", game, seed=match_seed + s) for s in range(4)]
        rng = Rng(match_seed)
        while not state.hand_over:
            seat = state.to_act
            view = state.observation(seat)
            move = bots[seat].choose(view)
            if move in (accept, refuse):
                answers += 1
                by_net = net_answer(game, net, view, rng)
                if by_net is not None and by_net != move:
                    team = side_of[seat]
                    margin = {}
                    for answer in (accept, refuse):
                        end = _play_out(game, state.apply(answer, seat=seat), match_seed + 7)
                        got = _deal_points(end, state)
                        margin[answer] = got[team] - got[1 - team]
                    gains.append(margin[by_net] - margin[move])
            state = state.apply(move, seat=seat)
        print(f"deal {deal + 1}/{deals}", file=sys.stderr, end="\r")
    mean = statistics.fmean(gains) if gains else 0.0
    half = Z * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
    return {
        "deals": deals,
        "seed": seed,
        "answers": answers,
        "differ": len(gains),
        "gain_where_they_differ": round(mean, 3),
        "interval_95": [round(mean - half, 3), round(mean + half, 3)],
        "gain_per_answer": round(sum(gains) / max(1, answers), 4),
        "gain_per_deal": round(sum(gains) / max(1, deals), 4),
        "cpu_seconds": round(time.process_time() - cpu, 1),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--deals", type=int, default=3000, help="deals of normal self-play (3000)")
    p.add_argument("--seed", type=int, default=9100, help="the match seeds' base (9100)")
    p.add_argument("--weights", default=None, help="a net folder or .npz (the shipped net)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    out = measure(args.deals, args.seed, args.weights)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(
            f"\n{out['answers']} answers, {out['differ']} answered otherwise by the net: "
            f"{out['gain_where_they_differ']:+} points each ({out['interval_95'][0]:+} to "
            f"{out['interval_95'][1]:+}), {out['gain_per_deal']:+} a deal"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
