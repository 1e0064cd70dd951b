"""mazo: faithful rules engines for Latin-suited card games, with bots and tools.

>>> import mazo
>>> game = mazo.load_game("briscola", players=2)
>>> state = game.new_match(seed=7)
>>> state.to_act in (0, 1), len(state.legal_actions())
(True, 3)
"""

from __future__ import annotations

from typing import Any

from mazo.core import (
    CardSet,
    Game,
    IllegalActionError,
    InvalidActionError,
    MazoError,
    NotationError,
    Rng,
    RulesError,
    State,
)
from mazo.games import list_games, load_game

__version__ = "0.1.0"

__all__ = [
    "CardSet",
    "Game",
    "IllegalActionError",
    "InvalidActionError",
    "MazoError",
    "NotationError",
    "Rng",
    "RulesError",
    "State",
    "__version__",
    "list_games",
    "load_game",
    "make_bot",
    "replay",
]


def replay(record: dict[str, Any]) -> State:
    """Rebuild a match from its record, checking every action (see :mod:`mazo.record`)."""
    from mazo.record import replay as _replay

    return _replay(record)


def make_bot(name: str, game: Game, seed: int | None = None, **options: Any) -> Any:
    """A bot by name (``random``, ``heuristic``); it chooses from observations only."""
    from mazo.bots import make_bot as _make_bot

    return _make_bot(name, game, seed=seed, **options)
