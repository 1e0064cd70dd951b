"""The random bot: a uniform choice among the legal actions, from mazo's own PRNG."""

from __future__ import annotations

from typing import Any

from mazo.bots.base import Observation, check_bot_options, legal_ids
from mazo.core.game import Game
from mazo.core.rng import Rng

__all__ = ["RandomBot"]


class RandomBot:
    """Uniform over ``observation["legal_actions"]``.

    Option ``signals`` (default True): with False, team messages (partner signals
    ``signal ...`` and consultations ``consult ...``) are left out whenever another action
    is legal, so the bot only plays cards and calls.
    """

    name = "random"

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        opts = check_bot_options(self.name, options, {"signals": (True, False)})
        self.game = game
        self.signals: bool = opts["signals"]
        self.rng = Rng(seed)

    def choose(self, observation: Observation) -> int:
        """A uniformly random legal action id."""
        legal = legal_ids(self.game, observation)
        if not self.signals:
            strings = observation["legal_actions"]
            plain = [
                a
                for a, s in zip(legal, strings, strict=True)
                if not s.startswith(("signal", "consult"))
            ]
            legal = plain or legal
        return self.rng.choice(legal)

    def __repr__(self) -> str:
        return f"RandomBot({self.game!r}, signals={self.signals})"
