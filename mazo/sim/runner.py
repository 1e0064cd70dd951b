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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mazo.bots import Bot, make_bot
from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import Game, State
from mazo.core.rng import derive_seed
from mazo.games import load_game
from mazo.record import save_record
from mazo.sim.stats import BotStats

__all__ = ["MAX_ACTIONS", "SimResult", "lineup", "play_match", "run"]

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
    names = [n.strip().lower() for n in bot_names]
    out = []
    for i, name in enumerate(names):
        if names.count(name) > 1:
            out.append(f"{name}#{names[: i + 1].count(name)}")
        else:
            out.append(name)
    return out


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
) -> SimResult:
    """Play ``games`` matches between the named bots, rotating seats, and tally them.

    ``options`` are the game's rules options, ``bot_options`` go to every bot.  Bad names
    or options raise :class:`mazo.RulesError` before any match is played.  ``progress``
    is called as ``progress(done, total)`` after each match; ``save_dir`` receives each
    record as ``match-0000.json`` (with a ``"sim"`` key naming the bots by seat).
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
    names = dict(zip(labels, (n.strip().lower() for n in bot_names), strict=True))
    bopts = dict(bot_options or {})
    for name in names.values():  # fail fast on a bad bot, a missing heuristic or option
        make_bot(name, game, seed=0, **bopts)
    sides = len(set(game.info.side_of))
    out_dir = Path(save_dir) if save_dir is not None else None
    stats = {label: BotStats(label) for label in labels}
    side_of = game.info.side_of
    for i in range(games):
        by_side = lineup(labels, sides, i)
        seat_labels = [by_side[side_of[s]] for s in range(game.players)]
        bots = [
            make_bot(names[label], game, seed=derive_seed(seed, "bot", i, s), **bopts)
            for s, label in enumerate(seat_labels)
        ]
        state = play_match(game, bots, seed=derive_seed(seed, "match", i))
        _tally(stats, by_side, state)
        if out_dir is not None:
            save_record(
                state,
                out_dir / f"match-{i:04d}.json",
                sim={"match": i, "bots": seat_labels},
            )
        if progress is not None:
            progress(i + 1, games)
    return SimResult(
        game=game.name,
        players=game.players,
        games=games,
        seed=seed,
        options=dict(game.options),
        bots=labels,
        stats=stats,
    )


def _tally(stats: dict[str, BotStats], by_side: list[str], state: State) -> None:
    deal_points: list[list[int]] = [
        list(e["points"]) for e in state.events if e.get("type") == "hand_end"
    ]
    winner = state.winner
    # Where a level sits above the scores (Envite chicos), the final score is that level:
    # Envite's stones go back to 0 with every chico.
    scores = state.games if any(state.games) else state.scores
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
