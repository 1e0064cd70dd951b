"""Statistics for simulations: binomial confidence intervals and running tallies.

>>> lo, hi = wilson_interval(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Z95", "BotStats", "RunningMean", "WinTally", "mean_interval", "wilson_interval"]

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
