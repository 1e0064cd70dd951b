"""Round-robin tournaments between bots, with duplicate deals, confidence intervals and Elo.

Duplicate deals
---------------
Luck is mostly in the cards.  To cancel it, every pair of bots plays the *same* deals
with the sides swapped: deal set ``i`` is the match seed ``derive_seed(seed, "deal", i)``
(the same for every pair), and a match seed fixes every pack of the match and the first
dealer whatever the players do.  Each deal set is played once per *rotation*:

* two sides (2 players, or teams of 2, 3, 6...: partners are two instances of the same
  bot): A-B, then B-A;
* three sides (3 players, each alone): every cyclic shift of A,B,A and of B,A,B, i.e.
  A,B,A / B,A,A / A,A,B / B,A,B / A,B,B / B,B,A: over one deal set each bot holds every
  side three times, twice as the bot with two sides and once as the bot with one.

In general the rotations are the distinct cyclic shifts of the alternating lineups
A,B,A,... and B,A,B,... (see :func:`rotations`), so swapping A and B or shifting the
sides maps the set onto itself: each bot plays each side equally often with the same
cards.  ``games`` counts deal sets per pair, so a tournament plays
``pairs × games × len(rotations)`` matches.

Seeds
-----
Match seeds depend only on the deal set; the bot on seat ``s`` of rotation ``r`` of deal
set ``i`` of pair ``p`` is seeded with ``derive_seed(seed, "bot", p, i, r, s)``.  Every
match is a :class:`MatchJob` that holds everything needed to play it, so results do not
depend on the number of worker processes or the order in which matches finish.

Statistics
----------
Per pair and per bot (summed over its pairs): the win rate per *entry* (a side played in
one match, as in ``mazo sim``) with its 95% Wilson interval; the mean points per deal
(one sample per entry and deal) and the mean final score (one sample per entry), each
with the normal-approximation interval ``mean ± 1.96·s/√n``; and the duplicate record:
in how many deal sets the bot won more entries over the rotations than its opponent
(``better``), as many (``even``) or fewer (``worse``).  Elo ratings come from the
pairwise *match* results (the bot holding the winning side wins the match, a draw is
half each): :func:`mazo.sim.elo.fit_elo`.

Per deal
--------
Beside the per-match results every bot gets per-deal ones (:class:`DealTally`): the deals
its side won (took more points than every other side), its mean margin (its points
minus the best other side's) and its share of all points taken, the last two with
intervals over deal sets.  With ``unit="deal"`` (``mazo tournament --per deal``) a deal set
is the *first deal* of its match seed alone, played under every rotation: the same cards
and the same dealer for both bots, from a 0-0 score, the fairest way to tell bots apart
by the thousand; its duplicate record then compares the points each bot's sides took
over the rotations (``better`` when it took more), not entries won.

>>> result = run_tournament("briscola", ["heuristic", "random"], games=2, seed=1)
>>> result.matches, [b.entries for b in result.totals.values()]
(4, [4, 4])
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from mazo.core.errors import RulesError
from mazo.core.game import Game
from mazo.core.rng import derive_seed
from mazo.games import load_game
from mazo.sim.elo import PairRecord, fit_elo
from mazo.sim.jobs import (
    BotEntry,
    MatchJob,
    MatchOutcome,
    Progress,
    labels,
    outcome,
    parse_bot_spec,
    play_chunk,
    play_job,
)
from mazo.sim.runner import BACKENDS
from mazo.sim.stats import DealTally, RunningMean, WinTally

__all__ = [
    "UNITS",
    "BotEntry",
    "MatchJob",
    "MatchOutcome",
    "PairResult",
    "TournamentResult",
    "TournamentStats",
    "parse_bot_spec",
    "play_job",
    "rotations",
    "run_tournament",
    "tournament_jobs",
]


UNITS = ("match", "deal")
"""What a deal set is: a whole match, or the match's first deal alone."""

ROTATION_TEXT = (
    "each deal set is played under every distinct cyclic shift of the lineups A,B,A,... "
    "and B,A,B,... (side j of rotation r is played by the bot named at position j)"
)


# -- bots ------------------------------------------------------------------------------


def _entries(bot_specs: Sequence[str]) -> list[BotEntry]:
    if isinstance(bot_specs, str):
        raise RulesError("bot_specs is a list of specs, e.g. ['heuristic', 'random']")
    specs = [str(s).strip() for s in bot_specs]
    if len(specs) < 2:
        raise RulesError(f"a tournament needs at least two bots, not {len(specs)}: {specs}")
    out = []
    for label, spec in zip(labels(specs), specs, strict=True):
        name, options = parse_bot_spec(spec)
        out.append(BotEntry(label, name, tuple(options.items())))
    return out


# -- the schedule -----------------------------------------------------------------------


def rotations(sides: int) -> list[tuple[int, ...]]:
    """Which bot of a pair (0 or 1) plays each side, one tuple per rotation.

    >>> rotations(2)
    [(0, 1), (1, 0)]
    >>> rotations(3)
    [(0, 1, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 0)]
    """
    out: list[tuple[int, ...]] = []
    for first in (0, 1):
        base = [(first + side) % 2 for side in range(sides)]  # A,B,A,... or B,A,B,...
        for shift in range(sides):
            order = tuple(base[(side + shift) % sides] for side in range(sides))
            if order not in out:
                out.append(order)
    return out


def _load(game_name: str, players: int | None, options: Mapping[str, Any]) -> Game:
    return load_game(game_name, players=players, **dict(options))


def tournament_jobs(
    game_name: str,
    bot_specs: Sequence[str],
    games: int,
    players: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    unit: str = "match",
) -> list[MatchJob]:
    """Every match of the tournament in order: pair by pair, deal set by deal set, then
    rotation by rotation.  Bad games, options, bots or bot options raise
    :class:`mazo.RulesError` here, before anything is played."""
    return _schedule(game_name, bot_specs, games, players, seed, options, unit)[2]


def _schedule(
    game_name: str,
    bot_specs: Sequence[str],
    games: int,
    players: int | None,
    seed: int,
    options: Mapping[str, Any] | None,
    unit: str = "match",
) -> tuple[Game, list[BotEntry], list[MatchJob]]:
    if unit not in UNITS:
        raise RulesError(f"unknown unit {unit!r}; a deal set is one of: {', '.join(UNITS)}")
    if type(games) is not int or games < 1:
        raise RulesError(f"the number of deal sets (games) must be a positive int, not {games!r}")
    if type(seed) is not int:
        raise RulesError(f"seed must be an int, not {seed!r}")
    game = _load(game_name, players, options or {})
    entries = _entries(bot_specs)
    for entry in entries:  # fail fast on an unknown bot or a bad option
        entry.make(game, 0)
    side_of = game.info.side_of
    opts = tuple(game.options.items())
    jobs: list[MatchJob] = []
    for p, (a, b) in enumerate(combinations(entries, 2)):
        pair = (a, b)
        for i in range(games):
            match_seed = derive_seed(seed, "deal", i)
            for r, order in enumerate(rotations(game.info.sides)):
                seat_bots = tuple(pair[order[side_of[s]]] for s in range(game.players))
                jobs.append(
                    MatchJob(
                        number=len(jobs),
                        pair=p,
                        deal_set=i,
                        rotation=r,
                        game=game.name,
                        players=game.players,
                        options=opts,
                        by_side=tuple(pair[k].label for k in order),
                        seat_bots=seat_bots,
                        match_seed=match_seed,
                        bot_seeds=tuple(
                            derive_seed(seed, "bot", p, i, r, s) for s in range(game.players)
                        ),
                        one_deal=unit == "deal",
                    )
                )
    return game, entries, jobs


# -- playing ------------------------------------------------------------------------------


def _play_all(
    jobs: list[MatchJob],
    workers: int,
    progress: Progress | None,
    backend: str = "local",
    address: str | None = None,
) -> list[MatchOutcome]:
    total = len(jobs)
    if backend == "ray":
        from mazo.sim.ray_backend import play_tournament_jobs

        return play_tournament_jobs(jobs, progress, address)
    if workers == 1 or total <= 1:
        out = []
        for job in jobs:
            out.append(outcome(play_job(job), job.one_deal))
            if progress is not None:
                progress(len(out), total)
        return out
    # Small chunks keep the progress bar moving and the load balanced; a chunk is
    # enough work to make the round trip to the worker cheap.
    size = max(1, min(16, total // (workers * 8)))
    chunks = [jobs[k : k + size] for k in range(0, total, size)]
    results: list[list[MatchOutcome] | None] = [None] * len(chunks)
    done = 0
    pool = ProcessPoolExecutor(max_workers=min(workers, len(chunks)))
    try:
        pending: dict[Future[list[MatchOutcome]], int] = {
            pool.submit(play_chunk, chunk): k for k, chunk in enumerate(chunks)
        }
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                k = pending.pop(future)
                results[k] = future.result()
                done += len(chunks[k])
                if progress is not None:
                    progress(done, total)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return [outcome for chunk in results if chunk is not None for outcome in chunk]


# -- tallies -------------------------------------------------------------------------------


@dataclass
class TournamentStats(WinTally):
    """One bot's results, against one opponent or against everyone."""

    bot: str
    matches: int = 0  # matches played
    match_wins: int = 0  # matches in which one of its sides won
    match_draws: int = 0  # matches without a winner
    entries: int = 0  # sides played, summed over matches
    wins: int = 0  # entries whose side won
    draws: int = 0  # entries in matches without a winner
    deal_points: RunningMean = field(default_factory=RunningMean)  # per entry and deal
    score: RunningMean = field(default_factory=RunningMean)  # final score per entry
    better: int = 0  # deal sets in which it won more entries than its opponent
    even: int = 0
    worse: int = 0
    per_deal: DealTally = field(default_factory=DealTally)

    @property
    def losses(self) -> int:
        return self.entries - self.wins - self.draws

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.win_ci95
        return {
            "bot": self.bot,
            "matches": self.matches,
            "match_wins": self.match_wins,
            "match_draws": self.match_draws,
            "entries": self.entries,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": self.win_rate,
            "win_ci95": [lo, hi],
            "deals": self.deal_points.n,
            "mean_deal_points": self.deal_points.mean,
            "deal_points_ci95": _interval_json(self.deal_points),
            "mean_score": self.score.mean,
            "score_ci95": _interval_json(self.score),
            "duplicate": {
                "deal_sets": self.better + self.even + self.worse,
                "better": self.better,
                "even": self.even,
                "worse": self.worse,
            },
            "per_deal": self.per_deal.to_json(),
        }


def _interval_json(mean: RunningMean) -> list[float] | None:
    interval = mean.interval()
    return list(interval) if interval is not None else None


@dataclass
class PairResult:
    """One pair's head-to-head results."""

    a: str
    b: str
    stats: dict[str, TournamentStats]

    @property
    def matches(self) -> int:
        return self.stats[self.a].matches

    def record(self) -> PairRecord:
        """For the Elo fit: ``a``'s match wins plus half the drawn matches."""
        a = self.stats[self.a]
        return PairRecord(self.a, self.b, self.matches, a.match_wins + a.match_draws / 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "bots": [self.a, self.b],
            "matches": self.matches,
            "results": {label: s.to_json() for label, s in self.stats.items()},
        }


@dataclass
class TournamentResult:
    """What :func:`run_tournament` found."""

    game: str
    players: int
    sides: int
    games: int  # deal sets per pair
    seed: int
    unit: str
    options: dict[str, Any]
    bots: list[BotEntry]
    rotations: list[tuple[int, ...]]
    pairs: list[PairResult]
    totals: dict[str, TournamentStats]
    elo: dict[str, float]

    @property
    def matches(self) -> int:
        return sum(p.matches for p in self.pairs)

    def elo_table(self) -> list[tuple[str, float]]:
        """``(label, rating)``, best first (ties in the order the bots were given)."""
        return sorted(self.elo.items(), key=lambda item: -item[1])

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (what ``mazo tournament --json`` prints)."""
        return {
            "game": self.game,
            "players": self.players,
            "sides": self.sides,
            "games": self.games,
            "unit": self.unit,
            "matches": self.matches,
            "seed": self.seed,
            "options": dict(self.options),
            "bots": [
                {"label": b.label, "bot": b.name, "options": dict(b.options)} for b in self.bots
            ],
            "rotations": ["".join("AB"[k] for k in order) for order in self.rotations],
            "rotation": ROTATION_TEXT,
            "pairs": [p.to_json() for p in self.pairs],
            "totals": {label: s.to_json() for label, s in self.totals.items()},
            "elo": [
                {
                    "bot": label,
                    "elo": rating,
                    "matches": self.totals[label].matches,
                    "score": self.totals[label].match_wins + self.totals[label].match_draws / 2,
                }
                for label, rating in self.elo_table()
            ],
        }


def _tally(
    jobs: Sequence[MatchJob],
    outcomes: Sequence[MatchOutcome],
    entries: Sequence[BotEntry],
    unit: str = "match",
) -> tuple[list[PairResult], dict[str, TournamentStats]]:
    """Per pair and per bot, adding the matches in job order (so floating-point sums
    are the same however the matches were spread over processes)."""
    pair_labels = list(combinations([e.label for e in entries], 2))
    pairs: dict[int, PairResult] = {}
    totals = {e.label: TournamentStats(e.label) for e in entries}
    # Per deal set, each bot's entry wins and points margin over the rotations.
    set_wins: dict[tuple[int, int], dict[str, int]] = {}
    set_margins: dict[tuple[int, int], dict[str, int]] = {}
    current: tuple[int, int] | None = None
    for job, out in zip(jobs, outcomes, strict=True):
        labels = list(dict.fromkeys(job.by_side))
        if job.pair not in pairs:
            a, b = pair_labels[job.pair]
            pairs[job.pair] = PairResult(a, b, {a: TournamentStats(a), b: TournamentStats(b)})
        pair = pairs[job.pair]
        key = (job.pair, job.deal_set)
        if key != current:
            if current is not None:
                _close_sets(pairs[current[0]], totals)
            current = key
        wins = set_wins.setdefault(key, {pair.a: 0, pair.b: 0})
        margins = set_margins.setdefault(key, {pair.a: 0, pair.b: 0})
        for label in labels:
            for s in (pair.stats[label], totals[label]):
                s.matches += 1
                if out.winner is None:
                    s.match_draws += 1
                elif job.by_side[out.winner] == label:
                    s.match_wins += 1
        for side, label in enumerate(job.by_side):
            for s in (pair.stats[label], totals[label]):
                s.entries += 1
                if out.winner is None:
                    s.draws += 1
                elif out.winner == side:
                    s.wins += 1
                s.score.add(out.scores[side])
                for points in out.deal_points:
                    s.deal_points.add(points[side])
                    s.per_deal.add(points, side)
            if out.winner == side:
                wins[label] += 1
            for points in out.deal_points:
                margins[label] += points[side] - max(p for k, p in enumerate(points) if k != side)
    if current is not None:
        _close_sets(pairs[current[0]], totals)
    # A per-deal tournament compares the points each bot took on the same cards; a
    # per-match one, the entries each won.
    record = set_margins if unit == "deal" else set_wins
    for (p, _), tally in record.items():
        pair = pairs[p]
        got_a, got_b = tally[pair.a], tally[pair.b]
        for label, mine, theirs in ((pair.a, got_a, got_b), (pair.b, got_b, got_a)):
            for s in (pair.stats[label], totals[label]):
                if mine > theirs:
                    s.better += 1
                elif mine == theirs:
                    s.even += 1
                else:
                    s.worse += 1
    return [pairs[p] for p in sorted(pairs)], totals


def _close_sets(pair: PairResult, totals: Mapping[str, TournamentStats]) -> None:
    """A deal set of ``pair`` is complete: its per-deal tallies count it as one unit."""
    for label in (pair.a, pair.b):
        pair.stats[label].per_deal.close_set()
        totals[label].per_deal.close_set()


def run_tournament(
    game_name: str,
    bot_specs: Sequence[str],
    games: int,
    players: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    progress: Progress | None = None,
    backend: str = "local",
    address: str | None = None,
    unit: str = "match",
) -> TournamentResult:
    """A round robin between the bots of ``bot_specs`` (``"name"`` or
    ``"name:key=value:..."``), ``games`` deal sets per pair (see the module docstring).

    ``options`` are the game's rules options.  ``workers`` processes play the matches
    (1: in this process); the result is the same for any number.  ``progress`` is called
    as ``progress(done, total)`` in this process as matches finish.  ``backend="ray"``
    plays them as tasks on a Ray cluster instead (``address`` as for ``ray.init``, see
    :mod:`mazo.sim.ray_backend`; ``workers`` is then unused), with the same result.
    ``unit="deal"`` makes each deal set the first deal of its match alone (see the
    module docstring's "Per deal").
    """
    if type(workers) is not int or workers < 1:
        raise RulesError(f"workers must be a positive int, not {workers!r}")
    if backend not in BACKENDS:
        raise RulesError(f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    game, entries, jobs = _schedule(game_name, bot_specs, games, players, seed, options, unit)
    outcomes = _play_all(jobs, workers, progress, backend, address)
    pairs, totals = _tally(jobs, outcomes, entries, unit)
    elo = fit_elo([e.label for e in entries], [p.record() for p in pairs])
    return TournamentResult(
        game=game.name,
        players=game.players,
        sides=game.info.sides,
        games=games,
        seed=seed,
        unit=unit,
        options=dict(game.options),
        bots=entries,
        rotations=rotations(game.info.sides),
        pairs=pairs,
        totals=totals,
        elo=elo,
    )


def default_workers() -> int:
    """Every core (``os.cpu_count()``, 1 if unknown)."""
    return os.cpu_count() or 1
