"""Per-game heuristic bots: hand-written rules of thumb, no search.

The bots layer's file for a game is ``mazo/bots/heuristic/<name>.py``, ``<name>`` being
the game's registry name (``mazo.games.GAMES``); it is found here by that name, so a new
game adds its file and nothing else.  Its hooks (module attributes):

``Heuristic`` (required)
    The bot class: ``Heuristic(game, seed, **options)``.  Its optional method
    ``choose_state(state) -> int`` is the fast form search playouts use (ISMCTS
    ``rollout=heuristic``, ``infer``): the action of ``state.to_act``, identical to
    ``choose(state.observation(state.to_act))`` with the same draws of the bot's Rng,
    read from the engine's state without building the observation, and from nothing
    that seat may not see (``tests/bots/test_fast.py`` checks every game that has it).
``SEARCH_PRESET`` (optional)
    ISMCTS settings the search levels (hard, expert) use for the game, on top of their
    budget and the flat heuristic search (:func:`mazo.bots.levels.search_preset`).
``SEARCH_WITHOUT_NET`` (optional)
    The settings that replace a preset's ``infer=net`` (or ``both``) or ``hint=net``
    where the game's shipped net cannot serve (no numpy, no net or no cards head for
    this player count or layout); ``{"infer": "none"}`` or ``{"hint": "heuristic"}``
    without it.
``perfect_information(game, observation) -> bool`` (optional)
    True only when a single state fits the observation (:mod:`mazo.bots.solver`);
    without it the solver never runs.
``playout(state, moves, noise) -> int`` (optional)
    A fast rollout policy on a sampled state (ISMCTS ``rollout=greedy``); without it
    greedy rollouts play plain random moves.
``fast_rollout(policies) -> ((state -> State | None) | None)`` (optional)
    A whole rollout on ints for these rollout policies (one per seat; ISMCTS
    ``rollout=heuristic``): from a search line's state, the state at the deal's end that
    those policies' ``choose_state`` moves, applied one by one with the same draws,
    would reach, without the states between; None for a line it does not cover (the
    search then plays it move by move), and the hook itself returns None for policies it
    does not know.  Briscola (any player count), two-player Escoba, Envite and
    Trionfetti have it; each game's tests compare it with the moves one by one.
``match_equity_of(game) -> (state -> float)`` (optional)
    Side 0's chance to win the match from a state (ISMCTS ``reward=equity``).
``search_reward(game, margin) -> ((scores, games, end) -> list[float])`` (optional)
    The game's own reward for a search line (ISMCTS ``reward=game``): each side's reward
    in [0, 1] for a line that started with ``scores`` and ``games`` and reached ``end``
    (the deal's end, or the match's); ``margin`` is the search's ``margin`` option.
``play_likelihood(game, observation) -> ((sample, rng) -> float) | None`` (optional)
    How well a determinized sample of ``observation`` fits the other seats' recent card
    plays: the chance that this heuristic, given the sample's cards in their places,
    would have made them (ISMCTS ``infer=plays`` resamples by it); None where it reads
    nothing.  Two-player Briscola and Escoba (any player count) have it.
``reads_plays(game) -> bool`` (optional)
    False where ``play_likelihood`` never reads anything in this configuration (Briscola
    at more than two players, or with cards shown or traded): there ``infer=both`` is
    the net alone, its odds at full power, as ``infer=net``.  Without it, True.

A game without a file raises :class:`mazo.RulesError` saying so.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Any

from mazo.bots.base import Bot
from mazo.core.errors import RulesError
from mazo.core.game import Game

__all__ = ["have_heuristics", "hook", "make_heuristic", "module_for"]


def have_heuristics() -> list[str]:
    """The games with a heuristic file, sorted."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def module_for(game: Game) -> ModuleType | None:
    """The game's heuristic module, imported on demand (one game's bot never loads
    another's), or None when the game has none."""
    name = f"{__name__}.{game.name}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise  # the module exists but something it imports does not
        return None


def hook(game: Game, attribute: str) -> Any:
    """One of the hooks above for ``game``, or None where its file has none."""
    module = module_for(game)
    return None if module is None else getattr(module, attribute, None)


def make_heuristic(game: Game, seed: int, **options: Any) -> Bot:
    """The heuristic bot for ``game``."""
    cls = hook(game, "Heuristic")
    if cls is None:
        have = ", ".join(have_heuristics())
        raise RulesError(
            f"there is no heuristic bot for {game.name} yet (heuristics exist for: {have}); "
            "use the 'random' bot"
        )
    bot: Bot = cls(game, seed, **options)
    return bot
