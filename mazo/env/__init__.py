"""Research environments: observation encoding, PettingZoo and Gymnasium adapters.

Install the ``rl`` extra (numpy, gymnasium, pettingzoo).  ``mazo.env.encoding`` needs
only numpy; ``mazo.env.pettingzoo`` and ``mazo.env.gymnasium`` need their libraries.
The engine (``mazo``, ``mazo.core``, ``mazo.games``) never imports this package.

Importing ``mazo.env`` registers the single-agent Gymnasium environments when Gymnasium
is installed (``gymnasium.make("mazo/Briscola-v0", opponents="random")``):

========================  ==========================  =======
id                        game                        players
========================  ==========================  =======
``mazo/Briscola-v0``      Briscola                    2
``mazo/Escoba-v0``        Escoba                      2
``mazo/Envite-v0``        Envite Canario              4
``mazo/Trionfetti-v0``    Trionfetti                  4
========================  ==========================  =======

Keyword arguments of ``gymnasium.make`` go to
:class:`mazo.env.gymnasium.MazoSingleAgentEnv` (``players``, ``seat``, ``opponents``,
game options...).
"""

from __future__ import annotations

import importlib.util

from mazo.env.encoding import Encoder
from mazo.games import GAMES

__all__ = ["GYMNASIUM_IDS", "Encoder", "register_envs"]

GYMNASIUM_IDS: dict[str, tuple[str, int]] = {
    f"mazo/{name.capitalize()}-v0": (name, min(cls.player_counts)) for name, cls in GAMES.items()
}
"""Gymnasium id -> (game, players) of the registered single-agent environments: one per
game of the registry, with its fewest players (``mazo/Briscola-v0`` is two-player)."""


def register_envs() -> list[str]:
    """Register the Gymnasium ids (once; later calls change nothing).  Returns them."""
    import gymnasium

    for env_id, (game, players) in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="mazo.env.gymnasium:MazoSingleAgentEnv",
                kwargs={"game": game, "players": players},
            )
    return list(GYMNASIUM_IDS)


if importlib.util.find_spec("gymnasium") is not None:
    register_envs()
