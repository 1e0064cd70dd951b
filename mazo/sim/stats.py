"""Statistics for simulations: binomial confidence intervals and running tallies.

>>> lo, hi = wilson_interval(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "Z95",
    "BotStats",
    "DealTally",
    "RunningMean",
    "WinTally",
    "mean_interval",
    "ratio_interval",
    "wilson_interval",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    Unlike the textbook ``p ± z·sqrt(p(1-p)/n)`` it stays inside [0, 1] and does not
    collapse to a point at 0 or n successes, which matters for lopsided bot matches.

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    >>> [round(x, 4) for x in wilson_interval(10, 10)]
    [0.7225, 1.0]
    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    >>> [round(x, 4) for x in wilson_interval(81, 263)]
    [0.2553, 0.3662]
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    n = float(trials)
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    # Clamp rounding noise at the ends (0 or n successes give exactly 0 or 1).
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return (lo, hi)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float] | None:
    """The normal-approximation 95% interval of a mean: ``mean ± z·s/√n``.

    ``s`` is the sample standard deviation (divisor ``n - 1``); with fewer than two
    values there is no spread to measure, so the answer is None.  The samples are taken
    as independent: for correlated ones (deals of one match) the interval is too narrow.

    >>> [round(x, 4) for x in mean_interval([1, 2, 3, 4, 5])]
    [1.6141, 4.3859]
    >>> mean_interval([7.0]) is None
    True
    """
    running = RunningMean()
    for x in values:
        running.add(x)
    return running.interval(z)


@dataclass
class RunningMean:
    """Mean and sample variance of a stream of numbers (Welford's update), with its
    normal-approximation confidence interval (see :func:`mean_interval`).

    >>> m = RunningMean()
    >>> for x in (2, 4, 4, 4, 5, 5, 7, 9):
    ...     m.add(x)
    >>> m.n, m.mean, round(m.stdev, 4)
    (8, 5.0, 2.1381)
    """

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0  # sum of squared deviations from the running mean

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    @property
    def stdev(self) -> float:
        """The sample standard deviation (0.0 with fewer than two values)."""
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else 0.0

    def interval(self, z: float = Z95) -> tuple[float, float] | None:
        """``mean ± z·s/√n``, or None with fewer than two values."""
        if self.n < 2:
            return None
        half = z * self.stdev / math.sqrt(self.n)
        return (self.mean - half, self.mean + half)


class WinTally:
    """Win rate and its 95% interval, for any tally with ``wins`` of ``entries``."""

    wins: int
    entries: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.entries if self.entries else 0.0

    @property
    def win_ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.entries)


@dataclass
class BotStats(WinTally):
    """Running tallies for one bot entry of a simulation.

    An *entry* is one side (a seat, or a team) played by the bot in one match; win rates
    are per entry, so with as many bots as sides the baseline is ``1 / sides``.
    """

    bot: str
    matches: int = 0  # matches in which the bot held at least one side
    entries: int = 0  # sides it played, summed over matches
    wins: int = 0  # entries whose side won the match
    draws: int = 0  # entries in matches that ended without a winner
    deals: int = 0  # (entry, deal) pairs, for the per-deal mean
    deal_points: int = 0  # card points taken, summed over those deals
    match_score: int = 0  # final score (Briscola deal wins, Envite chicos), summed over entries

    @property
    def mean_deal_points(self) -> float:
        """Mean card points per deal."""
        return self.deal_points / self.deals if self.deals else 0.0

    @property
    def mean_deal_wins(self) -> float:
        """Mean final match score per match (Briscola: deals won)."""
        return self.match_score / self.entries if self.entries else 0.0

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.win_ci95
        return {
            "bot": self.bot,
            "matches": self.matches,
            "entries": self.entries,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.entries - self.wins - self.draws,
            "win_rate": self.win_rate,
            "win_ci95": [lo, hi],
            "deals": self.deals,
            "mean_deal_points": self.mean_deal_points,
            "mean_deal_wins": self.mean_deal_wins,
        }


def ratio_interval(
    parts: Sequence[float], wholes: Sequence[float], z: float = Z95
) -> tuple[float, float] | None:
    """The 95% interval of the share ``sum(parts) / sum(wholes)`` over independent units
    (deal sets), by the delta method: the variance of the ratio estimator is
    ``var(part - R·whole) / (n · mean(whole)²)``.  None with fewer than two units or
    nothing in the wholes.

    >>> [round(x, 4) for x in ratio_interval([6, 7, 5, 8], [10, 10, 10, 10])]
    [0.5235, 0.7765]
    >>> ratio_interval([1], [2]) is None
    True
    """
    n = len(parts)
    total = sum(wholes)
    if n < 2 or total <= 0:
        return None
    share = sum(parts) / total
    residuals = RunningMean()
    for part, whole in zip(parts, wholes, strict=True):
        residuals.add(part - share * whole)
    # The residuals' mean is 0 by construction: their spread is the estimator's noise.
    half = z * residuals.stdev / math.sqrt(n) / (total / n)
    return (share - half, share + half)


@dataclass
class DealTally:
    """One bot's results counted per deal (its side's points in each deal it played),
    beside the per-match ones: deals won (its side took more points than every other
    side), the margin (its points minus the best other side's), and its share of all
    the points taken.

    Deals of one deal set are not independent of each other (the same cards, rotated),
    but deal sets are: the margin's and the share's intervals are computed over deal
    sets (:meth:`close_set` after each), the fair unit of a duplicate comparison.  The
    win rate's Wilson interval counts deals, so it is a little narrow.
    """

    deals: int = 0
    won: int = 0
    drawn: int = 0  # deals where its side tied for the most points
    points: int = 0
    all_points: int = 0
    margin: RunningMean = field(default_factory=RunningMean)  # per deal
    set_margins: list[float] = field(default_factory=list)  # each deal set's mean, in order
    set_points: list[int] = field(default_factory=list)
    set_all_points: list[int] = field(default_factory=list)
    _open: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # margin, n, pts, all

    def add(self, points: Sequence[int], side: int) -> None:
        """One deal: ``points`` per side, the bot on ``side``."""
        mine = points[side]
        best_other = max(p for k, p in enumerate(points) if k != side)
        self.deals += 1
        if mine > best_other:
            self.won += 1
        elif mine == best_other:
            self.drawn += 1
        self.points += mine
        self.all_points += sum(points)
        self.margin.add(mine - best_other)
        cur = self._open
        cur[0] += mine - best_other
        cur[1] += 1
        cur[2] += mine
        cur[3] += sum(points)

    def close_set(self) -> None:
        """The deal set in progress is complete: count it as one unit."""
        margin, n, mine, every = self._open
        if n:
            self.set_margins.append(margin / n)
            self.set_points.append(mine)
            self.set_all_points.append(every)
        self._open = [0, 0, 0, 0]

    @property
    def set_margin(self) -> RunningMean:
        """The deal sets' mean margins as one stream: their mean and its interval (the
        unit of a duplicate comparison; read from :attr:`set_margins`, in order)."""
        out = RunningMean()
        for margin in self.set_margins:
            out.add(margin)
        return out

    @property
    def win_rate(self) -> float:
        """The share of deals won outright."""
        return self.won / self.deals if self.deals else 0.0

    @property
    def score_rate(self) -> float:
        """Deals won, a drawn deal counting half."""
        return (self.won + self.drawn / 2) / self.deals if self.deals else 0.0

    @property
    def share(self) -> float:
        return self.points / self.all_points if self.all_points else 0.0

    def to_json(self) -> dict[str, Any]:
        def pair(interval: tuple[float, float] | None) -> list[float] | None:
            return list(interval) if interval is not None else None

        lo, hi = wilson_interval(self.won, self.deals)
        sets = self.set_margin
        return {
            "deals": self.deals,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.deals - self.won - self.drawn,
            "win_rate": self.win_rate,
            "won_ci95": [lo, hi],
            "score_rate": self.score_rate,
            "mean_margin": self.margin.mean,
            "margin_ci95": pair(sets.interval()),
            "points_share": self.share,
            "share_ci95": pair(ratio_interval(self.set_points, self.set_all_points)),
            "deal_sets": sets.n,
            # each deal set's mean margin, in deal-set order: two runs of other bots
            # against the same opponent on the same seed pair up set by set
            # (bench/ladder_table.py --paired)
            "set_margins": list(self.set_margins),
        }
