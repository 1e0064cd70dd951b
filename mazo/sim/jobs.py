"""The jobs of simulations and tournaments, and how any process plays them.

A job describes one match fully (game, options, bots, seeds), so the local runner, a
process pool and a Ray worker all play it the same way.  The runner
(:mod:`mazo.sim.runner`), the tournament (:mod:`mazo.sim.tournament`) and the Ray backend
(:mod:`mazo.sim.ray_backend`) all import these from here; before, they imported them from
one another (and private helpers across modules), a cycle of three.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mazo.bots import Bot, bot_key, make_bot, parse_option_value
from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import Game, State
from mazo.games import load_game

__all__ = [
    "MAX_ACTIONS",
    "BotEntry",
    "MatchJob",
    "MatchOutcome",
    "MatchSummary",
    "Progress",
    "SimJob",
    "deal_tallies",
    "labels",
    "match_summary",
    "outcome",
    "parse_bot_spec",
    "play_chunk",
    "play_job",
    "play_match",
    "play_sim_job",
]

MAX_ACTIONS = 100_000
"""A match longer than this is a bug (a bot or a rule looping), not a long game."""

Progress = Callable[[int, int], None]


def play_match(
    game: Game, bots: Sequence[Bot], seed: int | None = None, one_deal: bool = False
) -> State:
    """Play one whole match, seat ``s`` asking ``bots[s]``; return the final state.
    With ``one_deal``, stop when the first deal ends (the state whose
    ``finished_deal_points`` are that deal's): a per-deal comparison needs no more.

    Each bot sees only its seat's observation.  Only the seat to act is asked, so free
    out-of-turn calls are made by a bot when its turn comes.
    """
    if len(bots) != game.players:
        raise RulesError(
            f"{game.name} for {game.players} needs {game.players} bots, not {len(bots)}"
        )
    state = game.new_match(seed=seed)
    if one_deal:
        # The next deal is not dealt where the game can stop the line (nothing needs it).
        stop = getattr(state, "stop_at_deal_end", None)
        if stop is not None:
            state = stop()
    for _ in range(MAX_ACTIONS):
        seat = state.to_act
        if seat is None or state.match_over or (one_deal and state.hand_over):
            return state
        action = bots[seat].choose(state.observation(seat))
        try:
            state = state.apply(action, seat=seat)
        except (IllegalActionError, InvalidActionError) as err:
            raise type(err)(f"bot {bots[seat].name!r} on seat {seat}: {err}") from None
    raise RuntimeError(f"match did not end within {MAX_ACTIONS} actions")


_GAMES: dict[tuple[str, int, str], Game] = {}  # per process: options are plain values


def _game(name: str, players: int, options: tuple[tuple[str, Any], ...]) -> Game:
    """The configured game of a job, built once per process."""
    key = (name, players, repr(options))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = load_game(name, players=players, **dict(options))
    return game


def labels(bot_names: Sequence[str]) -> list[str]:
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


# -- bots ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotEntry:
    """One competitor: its label (the spec, numbered when repeated), bot name, options."""

    label: str
    name: str
    options: tuple[tuple[str, Any], ...] = ()

    def make(self, game: Game, seed: int) -> Bot:
        return make_bot(self.name, game, seed=seed, **dict(self.options))


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iterations=50:exploration=0.5"`` -> ``("ismcts", {...})``.

    Values are read by :func:`mazo.bots.parse_option_value` (booleans, ints, floats,
    else text), like ``mazo sim --bot-option``.

    >>> parse_bot_spec("ismcts:iterations=50:exploration=0.5")
    ('ismcts', {'iterations': 50, 'exploration': 0.5})
    >>> parse_bot_spec(" Heuristic ")
    ('heuristic', {})

    A plugin bot (``package.module:factory``, see :mod:`mazo.bots`) takes its options
    after the factory:

    >>> parse_bot_spec("examples.ppo_bot:make:model=policy.zip")
    ('examples.ppo_bot:make', {'model': 'policy.zip'})
    """
    name, *items = str(spec).split(":")
    if items and items[0].strip() and "=" not in items[0]:
        name = f"{name.strip()}:{items.pop(0).strip()}"  # module:factory
    name = bot_key(name)
    if not name:
        raise RulesError(f"bot spec {spec!r} has no bot name; write name:key=value, e.g. random")
    options: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip().replace("-", "_")
        if not item.strip():
            continue
        if not sep or not key:
            raise RulesError(
                f"bot spec {spec!r}: options go after the name as :key=value, "
                "e.g. ismcts:iterations=50"
            )
        options[key] = parse_option_value(text)
    return name, options


# -- simulation matches (mazo sim) -------------------------------------------------------


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
    # Per seat, the options of its bot's spec (``ismcts:iterations=30``), over bot_options.
    seat_options: tuple[tuple[tuple[str, Any], ...], ...] = ()


MatchSummary = tuple[int | None, tuple[int, ...], tuple[tuple[int, ...], ...]]
"""What the tallies need from a match: the winning side, the final score per side and
each deal's points per side (small, to travel back from a worker)."""


def play_sim_job(job: SimJob, game: Game | None = None) -> State:
    """Play one match of a simulation; the final state."""
    if game is None:
        game = _game(job.game, job.players, job.options)
    bopts = dict(job.bot_options)
    own = job.seat_options or ((),) * len(job.seat_bots)
    bots = [
        make_bot(name, game, seed=bot_seed, **{**bopts, **dict(options)})
        for name, options, bot_seed in zip(job.seat_bots, own, job.bot_seeds, strict=True)
    ]
    return play_match(game, bots, seed=job.match_seed)


def match_summary(state: State) -> MatchSummary:
    """The :data:`MatchSummary` of a finished match."""
    deal_points = deal_tallies(state)
    # Where a level sits above the scores (Envite chicos), the final score is that level:
    # Envite's stones go back to 0 with every chico.
    scores = state.games if any(state.games) else state.scores
    return state.winner, tuple(scores), deal_points


def deal_tallies(state: State) -> tuple[tuple[int, ...], ...]:
    """Per deal of ``state``'s match, the points each side took, as the per-deal tallies
    count them: the ``hand_end`` event's ``points``, except that a deal which wins the
    level above the scores while giving no points (Envite's chico played out at level 4,
    *chico fuera*: the stones go back to 0) counts the level's worth in points,
    ``info.score_target`` (12 stones, what a chico takes), to the side that won it.
    Without that a chico-level deal read as drawn at 0-0, and a bot that raised to the
    chico and won gained nothing in the per-deal ladder (docs/tournament.md "Per deal")."""
    events = state.events
    worth = state.game.info.score_target
    out: list[tuple[int, ...]] = []
    for i, event in enumerate(events):
        if event.get("type") != "hand_end":
            continue
        points = list(event["points"])
        after = events[i + 1] if i + 1 < len(events) else None
        # The event that follows a deal winning a level names the side and the levels won
        # (Envite's "chico", Trionfetti's "game_end").
        if (
            not any(points)
            and after is not None
            and isinstance(after.get("team"), int)
            and isinstance(after.get("games"), list)
        ):
            points[after["team"]] = worth
        out.append(tuple(points))
    return tuple(out)


# -- tournament matches (mazo tournament) ------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchJob:
    """One match of a tournament, fully described (it can be played in any process)."""

    number: int  # position in the tournament's job list
    pair: int  # index of the pair in the round robin
    deal_set: int
    rotation: int
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    by_side: tuple[str, ...]  # the label playing each side
    seat_bots: tuple[BotEntry, ...]  # the bot on each seat
    match_seed: int
    bot_seeds: tuple[int, ...]  # one per seat
    one_deal: bool = False  # play only the match's first deal (a per-deal tournament)


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """What a match left for the tallies (small, to travel back from a worker)."""

    winner: int | None  # the winning side
    scores: tuple[int, ...]  # final score per side (the level above it where there is one)
    deal_points: tuple[tuple[int, ...], ...]  # per deal, per side


def play_job(job: MatchJob) -> State:
    """Play one match of the tournament; the final state (its record replays it)."""
    game = _game(job.game, job.players, job.options)
    bots = [
        entry.make(game, bot_seed)
        for entry, bot_seed in zip(job.seat_bots, job.bot_seeds, strict=True)
    ]
    return play_match(game, bots, seed=job.match_seed, one_deal=job.one_deal)


def outcome(state: State, one_deal: bool = False) -> MatchOutcome:
    """The :class:`MatchOutcome` of a finished tournament match; with ``one_deal``, of
    its first deal alone (the side with the most points wins it; a tie is a draw)."""
    if one_deal:
        ends = deal_tallies(state)
        if not ends:
            raise RulesError("the deal has not ended: no per-deal outcome")
        points = ends[0]
        top = max(points)
        leaders = [side for side, p in enumerate(points) if p == top]
        winner = leaders[0] if len(leaders) == 1 else None
        return MatchOutcome(winner, tuple(points), (tuple(points),))
    deal_points = deal_tallies(state)
    # As in mazo sim: where a level sits above the scores (Envite chicos) it is the score.
    scores = state.games if any(state.games) else state.scores
    return MatchOutcome(state.winner, tuple(scores), deal_points)


def play_chunk(jobs: Sequence[MatchJob]) -> list[MatchOutcome]:
    """Play tournament matches in order (a worker's share); their outcomes."""
    return [outcome(play_job(job), job.one_deal) for job in jobs]
