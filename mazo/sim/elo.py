"""Elo ratings from pairwise results: a Bradley-Terry fit on the Elo scale.

Model: bot ``i`` has a strength ``g_i > 0`` and scores against bot ``j`` with expected
value ``g_i / (g_i + g_j)``, which is the Elo expectation
``1 / (1 + 10 ** ((R_j - R_i) / 400))`` with ``R_i = 400 · log10(g_i)``.  A draw counts
half a win for each bot.  The strengths are the maximum-likelihood fit to every pair's
results at once (so three bots that each met the other two get one consistent scale),
found with the minorization-maximization iteration of Hunter (2004)::

    g_i <- W_i / sum_j n_ij / (g_i + g_j)

where ``W_i`` is bot ``i``'s total score and ``n_ij`` the games of ``i`` against ``j``.

A bot that won (or lost) every game has no finite maximum-likelihood rating, so by
default every pair that met gets ``prior = 1`` virtual draw (half a win each way) added
to its results.  It pulls ratings slightly together: 750 wins of 1000 give +190.6
instead of +190.8, a 4-0 sweep gives +382 instead of infinity.  With ``prior=0`` the
fit is exact and raises :class:`ValueError` when it does not exist.

Anchor: the ratings are shifted so their mean is 1500 (``ANCHOR``); only differences
mean anything.

>>> ratings = fit_elo(["A", "B"], [PairRecord("A", "B", games=4, score=3.0)], prior=0)
>>> round(ratings["A"] - ratings["B"], 2), round((ratings["A"] + ratings["B"]) / 2)
(190.85, 1500)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ANCHOR", "PairRecord", "expected_score", "fit_elo"]

ANCHOR = 1500.0
"""The mean of the fitted ratings."""

_SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of strength


@dataclass(frozen=True)
class PairRecord:
    """What ``a`` scored against ``b`` in ``games`` games (a win 1, a draw 0.5)."""

    a: str
    b: str
    games: int
    score: float

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"a pair needs two different bots, not {self.a!r} twice")
        if self.games < 0 or not 0.0 <= self.score <= self.games:
            raise ValueError(f"{self.a} vs {self.b}: need 0 <= score <= games")


def expected_score(rating: float, opponent: float) -> float:
    """The Elo expected score of ``rating`` against ``opponent``.

    >>> round(expected_score(1600, 1400), 4)
    0.7597
    """
    return 1.0 / (1.0 + math.pow(10.0, (opponent - rating) / 400.0))


def fit_elo(
    bots: Sequence[str],
    records: Sequence[PairRecord],
    prior: float = 1.0,
    tolerance: float = 1e-10,
    max_iterations: int = 100_000,
) -> dict[str, float]:
    """Elo ratings (mean ``ANCHOR``) of ``bots`` fitted to the pairwise ``records``.

    ``prior`` virtual draws are added to every pair that played.  Every bot must have
    played someone; :class:`ValueError` otherwise, or when (with ``prior=0``) the
    results leave a rating infinite.
    """
    if prior < 0:
        raise ValueError(f"prior must be >= 0, not {prior}")
    index = {bot: k for k, bot in enumerate(bots)}
    if len(index) != len(bots):
        raise ValueError("bot names must be unique")
    m = len(bots)
    games = [[0.0] * m for _ in range(m)]
    score = [0.0] * m  # W_i
    for r in records:
        if r.a not in index or r.b not in index:
            raise ValueError(f"record {r.a} vs {r.b} names a bot not in {list(bots)}")
        if r.games == 0:
            continue
        i, j = index[r.a], index[r.b]
        games[i][j] += r.games + prior
        games[j][i] += r.games + prior
        score[i] += r.score + prior / 2
        score[j] += r.games - r.score + prior / 2
    if m == 0:
        return {}
    if m == 1:
        return {bots[0]: ANCHOR}
    _check_fit_exists(bots, games, records, index, prior)
    strength = [1.0] * m
    for _ in range(max_iterations):
        new = [
            score[i] / sum(games[i][j] / (strength[i] + strength[j]) for j in range(m) if j != i)
            for i in range(m)
        ]
        # Only ratios matter: keep the geometric mean at 1 so nothing drifts.
        centre = math.exp(sum(math.log(g) for g in new) / m)
        new = [g / centre for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < tolerance:
            break
    logs = [_SCALE * math.log(g) for g in strength]
    shift = ANCHOR - sum(logs) / m
    return {bot: logs[k] + shift for k, bot in enumerate(bots)}


def _check_fit_exists(
    bots: Sequence[str],
    games: list[list[float]],
    records: Sequence[PairRecord],
    index: dict[str, int],
    prior: float,
) -> None:
    """The fit exists iff "scored something against" links every bot to every other
    (Zermelo's condition: the directed graph is strongly connected)."""
    m = len(bots)
    beats = [[False] * m for _ in range(m)]
    for r in records:
        i, j = index[r.a], index[r.b]
        if r.games and (r.score > 0 or prior > 0):
            beats[i][j] = True
        if r.games and (r.score < r.games or prior > 0):
            beats[j][i] = True
    unplayed = [bots[i] for i in range(m) if not any(games[i])]
    if unplayed:
        raise ValueError(f"no games for {', '.join(unplayed)}: cannot rate them")
    for edges in (beats, [list(col) for col in zip(*beats, strict=True)]):
        seen = {0}
        todo = [0]
        while todo:
            i = todo.pop()
            for j in range(m):
                if edges[i][j] and j not in seen:
                    seen.add(j)
                    todo.append(j)
        if len(seen) < m:
            raise ValueError(
                "some bots won or lost every game against the rest: their ratings are "
                "infinite (use a prior > 0)"
            )
