"""How a side did over a stretch of play: the outcome reward shared by the search
(:mod:`mazo.bots.ismcts`) and the exact solver (:mod:`mazo.bots.solver`).

A module of its own so that neither imports the other for it (they formed a cycle).
"""

from __future__ import annotations

from mazo.core.game import State

__all__ = ["outcome_reward"]


def outcome_reward(scores: list[int], games: list[int], state: State, side: int) -> float:
    """How ``side`` did from (``scores``, ``games``) to ``state``: 1 if it gained most,
    0.5 if it shared the most, else 0.  A game or chico gained counts before any score
    (Envite's stones and Trionfetti's points go back to 0 with it); the match's winner
    counts before both."""
    if state.match_over:
        winner = state.winner
        return 0.5 if winner is None else 1.0 if winner == side else 0.0
    gained = [b - a for a, b in zip(games, state.games, strict=True)]
    if not any(gained):
        gained = [b - a for a, b in zip(scores, state.scores, strict=True)]
    best = max(gained)
    if gained[side] < best:
        return 0.0
    return 1.0 if gained.count(best) == 1 else 0.5
