"""CPU time of ``LiveTable.advance`` per action, early and late in a long Trionfetti match:
the old way (``new.events[len(old.events):]``: the whole log rebuilt twice an action)
against ``new.events_since(old)`` (issue 17, item 9).

    .venv/bin/python bench/advance_cost.py [--rounds 7] [--window 200]

One random 4-player match (seed 5) is played once; its states are kept. Each round times,
for the first and the last ``window`` actions, both ways, interleaved (old, new, old,
new...), with ``time.process_time``; the medians of the rounds are printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import mazo
from mazo.server.store import SeatRow, TableRow
from mazo.server.tables import LiveTable


class OldLiveTable(LiveTable):
    """``advance`` as it was: the new events sliced off the whole rebuilt log."""

    def advance(self, new: Any, seat: int, action: str) -> None:
        before = len(self.state.events)
        super().advance(new, seat, action)
        self.fresh = new.events[before:]


def table(cls: type[LiveTable], state: Any) -> LiveTable:
    row = TableRow(
        "t",
        "trionfetti",
        4,
        {},
        5,
        "",
        False,
        0.0,
        False,
        [SeatRow(i, "human", None, "", None) for i in range(4)],
    )
    return cls(row=row, game=state.game, state=state)


def run(cls: type[LiveTable], steps: list[tuple[Any, Any, int, str]]) -> float:
    """CPU seconds per action over ``steps`` (state before, state after, seat, action)."""
    t = table(cls, steps[0][0])
    start = time.process_time()
    for before, after, seat, action in steps:
        t.state = before
        t.advance(after, seat, action)
    return (time.process_time() - start) / len(steps)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--window", type=int, default=200)
    args = parser.parse_args()
    state = mazo.load_game("trionfetti", 4).new_match(seed=5)
    rng = random.Random(1)
    steps = []
    while not state.match_over:
        action = state.action_to_string(rng.choice(state.legal_actions()))
        new = state.apply(action)
        steps.append((state, new, state.to_act or 0, action))
        state = new
    print(f"trionfetti, 4 players: {len(steps)} actions, {len(state.events)} events")
    windows = {"start": steps[: args.window], "end": steps[-args.window :]}
    times: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for where, window in windows.items():
            for way, cls in (("old", OldLiveTable), ("new", LiveTable)):
                times.setdefault((where, way), []).append(run(cls, window))
    for where in windows:
        old = statistics.median(times[(where, "old")]) * 1e3
        new = statistics.median(times[(where, "new")]) * 1e3
        print(f"{where:>5}: old {old:.3f} ms/action, new {new:.3f} ms/action")


if __name__ == "__main__":
    main()
