"""Per-game heuristic bots: hand-written rules of thumb, no search.

``make_bot("heuristic", game)`` dispatches here on the game's name; a game without a
heuristic yet raises :class:`mazo.RulesError` saying so.
"""

from __future__ import annotations

import importlib
from typing import Any

from mazo.bots import Bot
from mazo.core.errors import RulesError
from mazo.core.game import Game

__all__ = ["HEURISTICS", "make_heuristic"]

# game name -> "module:Class", imported on demand so one game's bot never loads another's.
HEURISTICS: dict[str, str] = {
    "briscola": "mazo.bots.heuristic.briscola:BriscolaHeuristic",
    "envite": "mazo.bots.heuristic.envite:EnviteHeuristic",
    "escoba": "mazo.bots.heuristic.escoba:EscobaHeuristic",
    "trionfetti": "mazo.bots.heuristic.trionfetti:TrionfettiHeuristic",
}


def make_heuristic(game: Game, seed: int, **options: Any) -> Bot:
    """The heuristic bot for ``game``."""
    target = HEURISTICS.get(game.name)
    if target is None:
        have = ", ".join(sorted(HEURISTICS))
        raise RulesError(
            f"there is no heuristic bot for {game.name} yet (heuristics exist for: {have}); "
            "use the 'random' bot"
        )
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    bot: Bot = cls(game, seed, **options)
    return bot
