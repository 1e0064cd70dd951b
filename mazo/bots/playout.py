"""Fast playout policies for search: a few microseconds a move, read from the sample.

A search rollout runs tens of moves per sample and thousands of samples per decision,
so it cannot afford a bot's observation (20-120 µs) or its heuristic from one (100-400
µs).  A playout policy reads the *sampled* state the search holds (never the real one:
the search only has samples) through cheap public accessors, and plays a simple rule of
thumb, with a little randomness so samples do not all agree.  (The heuristics' own fast
form, ``choose_state``, plays ``rollout=heuristic``: the heuristic's very choices, read
from the state; see :mod:`mazo.bots.heuristic`.)

A game's policy is the ``playout`` hook of its heuristic file
(``mazo/bots/heuristic/<game>.py``, see :mod:`mazo.bots.heuristic`).  Only games with
one get ``rollout="greedy"`` playouts; the others play ``plain`` random moves.
"""

from __future__ import annotations

from collections.abc import Callable

from mazo.bots.heuristic import hook
from mazo.core.game import Game, State

__all__ = ["Playout", "playout_for"]

Playout = Callable[[State, list[int], float], int]
"""``policy(sampled_state, moves, noise) -> action``; ``noise`` is uniform in [0, 1)."""


def playout_for(game: Game) -> Playout | None:
    """The game's playout policy, or None where it has none."""
    policy: Playout | None = hook(game, "playout")
    return policy
