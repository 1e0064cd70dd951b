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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mazo.bots import Bot, bot_key, make_bot
from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import Game, State
from mazo.core.rng import derive_seed
from mazo.games import load_game
from mazo.record import save_record
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

MAX_ACTIONS = 100_000
"""A match longer than this is a bug (a bot or a rule looping), not a long game."""

Progress = Callable[[int, int], None]


def play_match(game: Game, bots: Sequence[Bot], seed: int | None = None) -> State:
    """Play one whole match, seat ``s`` asking ``bots[s]``; return the final state.

    Each bot sees only its seat's observation.  Only the seat to act is asked, so free
    out-of-turn calls are made by a bot when its turn comes.
    """
    if len(bots) != game.players:
        raise RulesError(
            f"{game.name} for {game.players} needs {game.players} bots, not {len(bots)}"
        )
    state = game.new_match(seed=seed)
    for _ in range(MAX_ACTIONS):
        seat = state.to_act
        if seat is None or state.match_over:
            return state
        action = bots[seat].choose(state.observation(seat))
        try:
            state = state.apply(action, seat=seat)
        except (IllegalActionError, InvalidActionError) as err:
            raise type(err)(f"bot {bots[seat].name!r} on seat {seat}: {err}") from None
    raise RuntimeError(f"match did not end within {MAX_ACTIONS} actions")


def lineup(labels: Sequence[str], sides: int, match: int) -> list[str]:
    """Which bot label plays each side in match ``match`` (see the module docstring).

    >>> lineup(["A", "B"], 2, 0), lineup(["A", "B"], 2, 1)
    (['A', 'B'], ['B', 'A'])
    >>> lineup(["A", "B"], 3, 0), lineup(["A", "B"], 3, 1)
    (['A', 'B', 'A'], ['B', 'A', 'B'])
    """
    m = len(labels)
    return [labels[(side + match) % m] for side in range(sides)]


def _labels(bot_names: Sequence[str]) -> list[str]:
    """Bot names made unique: ``random, random`` become ``random#1, random#2``."""
    names = [_label_key(n) for n in bot_names]
    out = []
    for i, name in enumerate(names):
        if names.count(name) > 1:
            out.append(f"{name}#{names[: i + 1].count(name)}")
        else:
            out.append(name)
    return out


def _label_key(spec: str) -> str:
    """A bot name or spec, lower-cased unless it names a plugin bot (an import path
    ``package.module:factory[...]``, whose Python names are case-sensitive)."""
    name, _, rest = spec.strip().partition(":")
    factory = rest.partition(":")[0]
    if "." in name or (factory.strip() and "=" not in factory):
        return spec.strip()
    return spec.strip().lower()


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
    labels = _labels(bot_names)
    names = dict(zip(labels, (bot_key(n) for n in bot_names), strict=True))
    bopts = dict(bot_options or {})
    if backend not in BACKENDS:
        raise RulesError(f"unknown backend {backend!r}; backends are: {', '.join(BACKENDS)}")
    for name in names.values():  # fail fast on a bad bot, a missing heuristic or option
        make_bot(name, game, seed=0, **bopts)
    sides = len(set(game.info.side_of))
    out_dir = Path(save_dir) if save_dir is not None else None
    stats = {label: BotStats(label) for label in labels}
    side_of = game.info.side_of
    jobs = []
    for i in range(games):
        by_side = lineup(labels, sides, i)
        seat_labels = tuple(by_side[side_of[s]] for s in range(game.players))
        jobs.append(
            SimJob(
                number=i,
                game=game.name,
                players=game.players,
                options=tuple(game.options.items()),
                by_side=tuple(by_side),
                seat_labels=seat_labels,
                seat_bots=tuple(names[label] for label in seat_labels),
                bot_options=tuple(bopts.items()),
                match_seed=derive_seed(seed, "match", i),
                bot_seeds=tuple(derive_seed(seed, "bot", i, s) for s in range(game.players)),
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
        bots=labels,
        stats=stats,
    )


# -- one match as a job (any process or machine can play it) ----------------------------


@dataclass(frozen=True, slots=True)
class SimJob:
    """Match ``number`` of a simulation, fully described: the Ray backend ships it to a
    worker, and it plays the same there as here."""

    number: int
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    by_side: tuple[str, ...]  # the label playing each side
    seat_labels: tuple[str, ...]  # the label on each seat
    seat_bots: tuple[str, ...]  # the bot name on each seat
    bot_options: tuple[tuple[str, Any], ...]
    match_seed: int
    bot_seeds: tuple[int, ...]  # one per seat


MatchSummary = tuple[int | None, tuple[int, ...], tuple[tuple[int, ...], ...]]
"""What the tallies need from a match: the winning side, the final score per side and
each deal's points per side (small, to travel back from a worker)."""

_GAMES: dict[tuple[str, int, str], Game] = {}  # per process: options are plain values


def play_sim_job(job: SimJob, game: Game | None = None) -> State:
    """Play one match of a simulation; the final state."""
    if game is None:
        key = (job.game, job.players, repr(job.options))
        game = _GAMES.get(key)
        if game is None:
            game = _GAMES[key] = load_game(job.game, players=job.players, **dict(job.options))
    bopts = dict(job.bot_options)
    bots = [
        make_bot(name, game, seed=bot_seed, **bopts)
        for name, bot_seed in zip(job.seat_bots, job.bot_seeds, strict=True)
    ]
    return play_match(game, bots, seed=job.match_seed)


def match_summary(state: State) -> MatchSummary:
    """The :data:`MatchSummary` of a finished match."""
    deal_points = tuple(tuple(e["points"]) for e in state.events if e.get("type") == "hand_end")
    # Where a level sits above the scores (Envite chicos), the final score is that level:
    # Envite's stones go back to 0 with every chico.
    scores = state.games if any(state.games) else state.scores
    return state.winner, tuple(scores), deal_points


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
