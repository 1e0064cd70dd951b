"""Difficulty levels: the names a player picks (``easy``, ``normal``, ``hard``, ``expert``).

A level is a bot with settings chosen for each game, so a front end (the terminal, the
browser, a tournament) offers four words instead of search parameters:

* ``easy``: the game's heuristic, but one move in three (talk aside) is a random legal
  move: a beginner who knows the ideas and slips;
* ``normal``: the game's heuristic bot, no search (instant);
* ``hard``: information-set MCTS (:mod:`mazo.bots.ismcts`) with about 0.2 s a move;
* ``expert``: the same search with about 1 s a move.

The search levels think for a wall-clock budget (``think_ms``), checked after every
sample, so a move takes its budget plus at most one sample (tens of milliseconds, far
under the 20% margin the levels promise); forced moves and solved endings are instant.
``hard`` and ``expert`` accept the search's options to override a preset (for example
``iterations=2000`` for a reproducible, machine-independent budget in a tournament).

Per-game presets (measured per deal on duplicate deals with ``mazo tournament --per
deal``; see docs/strength.md): the search is flat (one level: the bot's own choices) on
common worlds (``paired``: every sample is played out after each of the bot's moves, so
moves are compared on the same cards), its playouts are the game's heuristic for every
seat (playing a two-player sample's last tricks exactly in Briscola and Escoba), the
reward is the game's own (``search_reward``: the deal won blended with its points
margin) or its points, and the heuristic's own move is kept unless another gains
clearly more on the same worlds (``guide``); in Envite (four and eight players) and
Trionfetti the shipped net's move is the one kept (``hint=net``; a net trained on this search's own
moves, the heuristic's move where it cannot serve).  In effect the search level is the
heuristic improved by looking ahead with itself.  In two-player Briscola the samples
are resampled by how likely the opponent's last plays were with their cards, times the
shipped net's odds that the opponent holds them (``infer=both``; the plays alone where
the net cannot serve); in Escoba, by how likely the other seats' plays of the round
were (``infer=plays``), and its lines are cut six moves on and scored by the shipped
net's value head (``leaf=6``, two players).  Trionfetti's heuristic makes every
bet (vega, answers, ranking); Envite's search also weighs its bets, on samples that fit
the bets the others made, and its search levels sign their best trump to their partners
(the rules' ``signals=team``, on by default) and trust their partners' signs.

>>> import mazo
>>> game = mazo.load_game("briscola", players=2)
>>> state = game.new_match(seed=3)
>>> bot = mazo.make_bot("easy", game, seed=1)
>>> bot.choose(state.observation(state.to_act)) in state.legal_actions()
True
"""

from __future__ import annotations

import importlib.util
import random
import warnings
from typing import Any

from mazo.bots.base import Bot, Observation, legal_ids
from mazo.bots.heuristic import make_heuristic, module_for
from mazo.core.errors import RulesError
from mazo.core.game import Game
from mazo.core.rng import derive_seed

__all__ = ["LEVELS", "EasyBot", "make_level"]

LEVELS = ("easy", "normal", "hard", "expert")

BUDGET_MS = {"hard": 200, "expert": 1000}

# Search settings per game, on top of the budget.  Measured (docs/strength.md): a tree
# over random playouts loses to the heuristic at these budgets (its playouts know too
# little), while a flat search whose playouts are the heuristic itself, comparing moves
# on common worlds and keeping the heuristic's move unless a rival beats it clearly,
# improves on the heuristic.
_FLAT_HEURISTIC: dict[str, Any] = {
    "rollout": "heuristic",
    "depth": 1,
    "margin": 0.5,
    "guide": 0.02,
    "paired": True,
}


def search_preset(game: Game) -> dict[str, Any]:
    """The search levels' settings for ``game``: the flat heuristic search, with the
    ``SEARCH_PRESET`` of the game's heuristic file on top; none (a tree search over
    random playouts) for a game without a heuristic."""
    module = module_for(game)
    if module is None:
        return {}
    preset = {**_FLAT_HEURISTIC, **getattr(module, "SEARCH_PRESET", {})}
    if preset.get("prior") and not _net_fits(game, "prior"):
        del preset["prior"]
    if preset.get("leaf") and not _net_fits(game, "value"):
        del preset["leaf"]  # lines played out to their end, as before the net
    if preset.get("infer") in ("net", "both") and not _net_fits(game, "cards"):
        preset.update(getattr(module, "SEARCH_WITHOUT_NET", {"infer": "none"}))
    if preset.get("hint") == "net" and not _net_fits(game, "policy"):
        preset.update(getattr(module, "SEARCH_WITHOUT_NET", {"hint": "heuristic"}))
    return preset


def _net_fits(game: Game, use: str) -> bool:
    """Whether the game's shipped net can serve the search here, as its prior (``use``
    ``"prior"``: a net trained with ``--teacher rollouts``), to weigh its samples
    (``"cards"``: a net with a cards head, ``infer=net`` or ``both``), to name the
    move the guide keeps (``"policy"``: any net, ``hint=net``) or to score its lines
    (``"value"``: any net, ``leaf``): numpy is installed (the
    ``cli``, ``server`` and ``rl`` extras) and the net was trained for this player count
    and rules layout.  Elsewhere the search levels play without it (the game's
    ``SEARCH_WITHOUT_NET`` settings replace ``infer=net``, ``both`` or ``hint=net``, and
    ``leaf`` is dropped; a warning says so where numpy alone is missing)."""
    from mazo.bots.ismcts import cards_net, policy_net, prior_net, value_net

    if importlib.util.find_spec("numpy") is None:
        warnings.warn(
            f"the {game.name} search levels play without their net (it needs numpy: "
            "pip install 'mazo[cli]')",
            stacklevel=3,
        )
        return False
    try:
        {"prior": prior_net, "cards": cards_net, "policy": policy_net, "value": value_net}[use](
            game
        )
    except RulesError:
        return False
    return True


class EasyBot:
    """The heuristic with slips: with probability ``slip`` (default 1/3) a random move."""

    name = "easy"

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        unknown = sorted(set(options) - {"slip"})
        if unknown:
            raise RulesError(f"bot 'easy' has no option {', '.join(unknown)}; options are: slip")
        slip = options.get("slip", 1 / 3)
        if type(slip) not in (int, float) or not 0 <= slip <= 1:
            raise RulesError(f"easy slip must be a number in [0, 1], not {slip!r}")
        self.game = game
        self.slip = float(slip)
        self.random = random.Random(derive_seed(seed, "slips"))
        self.heuristic = make_heuristic(game, seed)  # slip 0: the heuristic
        self.talk = game.info.message_actions

    def choose(self, observation: Observation) -> int:
        legal = legal_ids(self.game, observation)
        if self.random.random() < self.slip:
            moves = [a for a in legal if a not in self.talk] or legal
            return moves[self.random.randrange(len(moves))]
        return self.heuristic.choose(observation)


def make_level(level: str, game: Game, seed: int, **options: Any) -> Bot:
    """The bot for ``level`` (one of :data:`LEVELS`) at ``game``."""
    if level == "easy":
        return EasyBot(game, seed, **options)
    if level == "normal":
        normal = make_heuristic(game, seed, **options)
        normal.name = "normal"  # type: ignore[misc]  # the heuristic, under its level's name
        return normal
    if level in BUDGET_MS:
        from mazo.bots.ismcts import ISMCTSBot

        settings: dict[str, Any] = {"think_ms": BUDGET_MS[level], **search_preset(game)}
        settings.update(options)
        if "iterations" in options and "think_ms" not in options:
            settings["think_ms"] = 0  # a sample count asked for replaces the clock
        bot = ISMCTSBot(game, seed, **settings)
        bot.name = level
        return bot
    raise RulesError(f"unknown level {level!r}; levels are: {', '.join(LEVELS)}")
