"""Fast playout policies for search: a few microseconds a move, read from the sample.

A search rollout runs tens of moves per sample and thousands of samples per decision,
so it cannot afford a bot's observation (20-120 µs) or its heuristic (100-400 µs).  A
playout policy reads the *sampled* state the search holds (never the real one: the
search only has samples) through cheap public accessors, and plays a simple rule of
thumb, with a little randomness so samples do not all agree.

Only games with a policy here get ``rollout="greedy"`` playouts; the others play
``plain`` random moves.
"""

from __future__ import annotations

from collections.abc import Callable

from mazo.core.game import State
from mazo.games.briscola import POINTS, STRENGTH, SUIT

__all__ = ["PLAYOUTS"]

Playout = Callable[[State, list[int], float], int]


def _briscola(state: State, moves: list[int], noise: float) -> int:
    """Lead the cheapest card; when following, take the trick with a card of the led
    suit if one wins (the richest such card), with the lowest trump if the trick holds
    ten points or more, else throw the cheapest card.  ``noise`` (0-1) below 0.1 plays a
    random move instead."""
    if noise < 0.1 or len(moves) == 1:
        return moves[int(noise * 10 * len(moves)) % len(moves)]
    trump: int = state.trump_suit  # type: ignore[attr-defined]
    trick: tuple[int, ...] = state.trick_ids  # type: ignore[attr-defined]
    cards = [c for c in moves if c < 40]
    if not cards:
        return moves[0]
    if trick:
        led = SUIT[trick[0]]
        best = max(
            20 + STRENGTH[c] if SUIT[c] == trump else STRENGTH[c] if SUIT[c] == led else 0
            for c in trick
        )
        winners = [
            c
            for c in cards
            if (20 + STRENGTH[c] if SUIT[c] == trump else STRENGTH[c] if SUIT[c] == led else 0)
            > best
        ]
        if winners:
            plain = [c for c in winners if SUIT[c] != trump]
            if plain:
                return max(plain, key=POINTS.__getitem__)
            if sum(POINTS[c] for c in trick) >= 10:
                return min(winners, key=STRENGTH.__getitem__)
    return min(cards, key=lambda c: (POINTS[c], SUIT[c] == trump, STRENGTH[c]))


PLAYOUTS: dict[str, Playout] = {"briscola": _briscola}
