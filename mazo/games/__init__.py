"""The registry of games: one module per game, all of the same shape."""

from __future__ import annotations

from typing import Any

from mazo.core.errors import RulesError
from mazo.core.game import Game
from mazo.games.briscola import BriscolaGame
from mazo.games.envite import EnviteGame
from mazo.games.escoba import EscobaGame
from mazo.games.trionfetti import TrionfettiGame

__all__ = ["GAMES", "list_games", "load_game"]

GAMES: dict[str, type[Game]] = {
    "briscola": BriscolaGame,
    "envite": EnviteGame,
    "escoba": EscobaGame,
    "trionfetti": TrionfettiGame,
}


def list_games() -> list[str]:
    """The names of the games this version of mazo plays, sorted.

    >>> list_games()
    ['briscola', 'envite', 'escoba', 'trionfetti']
    """
    return sorted(GAMES)


def load_game(name: str, players: int | None = None, **options: Any) -> Game:
    """A configured game: ``load_game("briscola", players=4, match_wins_target=2)``.

    An unknown game, player count or option raises :class:`mazo.RulesError` saying what
    is allowed.
    """
    cls = GAMES.get(str(name).strip().lower()) if isinstance(name, str) else None
    if cls is None:
        raise RulesError(f"unknown game {name!r}; games are: {', '.join(list_games())}")
    return cls(players, **options)
