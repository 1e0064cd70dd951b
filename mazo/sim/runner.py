"""Play bots against each other: one match, or many with seat rotation and tallies.

Seat rotation
-------------
Bots are assigned to *sides* (a seat, or a whole team in team games; partners are two
instances of the same bot).  In match ``i`` side ``j`` is played by bot
``bots[(j + i) % len(bots)]``:

* two bots, two sides (2 players, or 4/6 players in teams): bot A is side 0 in even
  matches and side 1 in odd ones, so both sit at every seat equally often;
* two bots, three players: A, B, A in even matches and B, A, B in odd ones, so over each
  pair of matches every bot plays every seat once and holds three of the six entries;
* more bots than sides: consecutive bots of the list sit down, shifting by one each match.

The first dealer comes from each match's seed, like in any match.  Results are per
*entry* (one side in one match): a bot that plays two sides of one match has two entries,
each winning or losing; so a bot's baseline win rate is ``1 / sides``.

Chance: match ``i`` uses seed ``derive_seed(seed, "match", i)`` and the bot on seat ``s``
is seeded with ``derive_seed(seed, "bot", i, s)``, so a simulation is reproducible and
any single match can be re-run alone.

>>> result = run("briscola", ["heuristic", "random"], games=4, players=2, seed=1)
>>> [s.entries for s in result.stats.values()]
[4, 4]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mazo.bots import make_bot
from mazo.core.errors import RulesError
from mazo.core.rng import derive_seed
from mazo.games import load_game
from mazo.record import save_record
from mazo.sim.jobs import (
    MAX_ACTIONS,
    MatchSummary,
    Progress,
    SimJob,
    labels,
    match_summary,
    parse_bot_spec,
    play_match,
    play_sim_job,
)
from mazo.sim.stats import BotStats

__all__ = [
    "BACKENDS",
    "MAX_ACTIONS",
    "SimJob",
    "SimResult",
    "lineup",
    "match_summary",
    "play_match",
    "play_sim_job",
    "run",
]

BACKENDS = ("local", "ray")
"""Where matches are played: ``local`` (this machine), ``ray`` (a Ray cluster)."""


def lineup(labels: Sequence[str], sides: int, match: int) -> list[str]:
    """Which bot label plays each side in match ``match`` (see the module docstring).

    >>> lineup(["A", "B"], 2, 0), lineup(["A", "B"], 2, 1)
    (['A', 'B'], ['B', 'A'])
    >>> lineup(["A", "B"], 3, 0), lineup(["A", "B"], 3, 1)
    (['A', 'B', 'A'], ['B', 'A', 'B'])
    """
    m = len(labels)
    return [labels[(side + match) % m] for side in range(sides)]


@dataclass
class SimResult:
    """What :func:`run` found, per bot label (a bot name, numbered when repeated)."""

    game: str
    players: int
    games: int
    seed: int
    options: dict[str, Any]
    bots: list[str]
    stats: dict[str, BotStats] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (what ``mazo sim --json`` prints)."""
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "options": dict(self.options),
            "bots": list(self.bots),
            "rotation": "side j of match i is played by bots[(i + j) % len(bots)]",
            "results": {label: s.to_json() for label, s in self.stats.items()},
        }


def run(
    game_name: str,
    bot_names: Sequence[str],
    games: int,
    players: int | None = None,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    save_dir: str | Path | None = None,
    bot_options: Mapping[str, Any] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> SimResult:
    """Play ``games`` matches between the named bots, rotating seats, and tally them.

    ``options`` are the game's rules options, ``bot_options`` go to every bot.  Bad names
    or options raise :class:`mazo.RulesError` before any match is played.  ``progress``
    is called as ``progress(done, total)`` after each match; ``save_dir`` receives each
    record as ``match-0000.json`` (with a ``"sim"`` key naming the bots by seat).

    ``backend="ray"`` plays the matches as tasks on a Ray cluster (``address`` as for
    ``ray.init``; see :mod:`mazo.sim.ray_backend`); every match is seeded by its number
    alone, so the result is the same as in this process.
    """
    if type(games) is not int or games < 1:
        raise RulesError(f"the number of games must be a positive int, not {games!r}")
    if type(seed) is not int:
        raise RulesError(f"seed must be an int, not {seed!r}")
    if not bot_names:
        raise RulesError("name at least one bot")
    opts = dict(options or {})
    game = load_game(game_name, players=players, **opts)
    # A spec carries its own options (``ismcts:iterations=30``), over ``bot_options``.
    seat_labels_of = labels(bot_names)
    specs = dict(zip(seat_labels_of, (parse_bot_spec(n) for n in bot_names), strict=True))
    bopts = dict(bot_options or {})
    if backend not in BACKENDS:
        raise RulesError(f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    for name, own in specs.values():  # fail fast on a bad bot, a missing heuristic or option
        make_bot(name, game, seed=0, **{**bopts, **own})
    sides = len(set(game.info.side_of))
    out_dir = Path(save_dir) if save_dir is not None else None
    stats = {label: BotStats(label) for label in seat_labels_of}
    side_of = game.info.side_of
    jobs = []
    for i in range(games):
        by_side = lineup(seat_labels_of, sides, i)
        seat_labels = tuple(by_side[side_of[s]] for s in range(game.players))
        jobs.append(
            SimJob(
                number=i,
                game=game.name,
                players=game.players,
                options=tuple(game.options.items()),
                by_side=tuple(by_side),
                seat_labels=seat_labels,
                seat_bots=tuple(specs[label][0] for label in seat_labels),
                bot_options=tuple(bopts.items()),
                match_seed=derive_seed(seed, "match", i),
                bot_seeds=tuple(derive_seed(seed, "bot", i, s) for s in range(game.players)),
                seat_options=tuple(tuple(specs[label][1].items()) for label in seat_labels),
            )
        )
    if backend == "ray":
        from mazo.sim.ray_backend import play_sim_jobs

        outcomes = play_sim_jobs(jobs, progress, address, records=out_dir is not None)
        for job, (summary, record) in zip(jobs, outcomes, strict=True):
            _tally(stats, list(job.by_side), summary)
            if out_dir is not None and record is not None:
                _write_record(record, out_dir / f"match-{job.number:04d}.json", job)
    else:
        for job in jobs:
            state = play_sim_job(job, game)
            _tally(stats, list(job.by_side), match_summary(state))
            if out_dir is not None:
                save_record(
                    state,
                    out_dir / f"match-{job.number:04d}.json",
                    sim={"match": job.number, "bots": list(job.seat_labels)},
                )
            if progress is not None:
                progress(job.number + 1, games)
    return SimResult(
        game=game.name,
        players=game.players,
        games=games,
        seed=seed,
        options=dict(game.options),
        bots=seat_labels_of,
        stats=stats,
    )


def _write_record(record: dict[str, Any], path: Path, job: SimJob) -> None:
    """What :func:`mazo.record.save_record` writes, from a record made on a worker."""
    record = dict(record)
    record["sim"] = {"match": job.number, "bots": list(job.seat_labels)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def _tally(stats: dict[str, BotStats], by_side: list[str], summary: MatchSummary) -> None:
    winner, scores, deal_points = summary
    for label in set(by_side):
        stats[label].matches += 1
    for side, label in enumerate(by_side):
        s = stats[label]
        s.entries += 1
        if winner is None:
            s.draws += 1
        elif winner == side:
            s.wins += 1
        s.match_score += scores[side]
        for points in deal_points:
            s.deals += 1
            s.deal_points += points[side]
