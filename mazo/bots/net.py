"""The net bot: plays from a policy network alone (:mod:`mazo.nets`; numpy, no search).

It reads its seat's observation, as every bot does: the encoder's vector of it and its
legal actions.  With ``temperature=0`` (the default) it plays the action with the highest
logit (ties: the first in the observation's order): for an imitation net the likeliest
move of the bot it learned from (the heuristic's for most shipped nets; the expert
search's for Envite's (four and eight players) and Trionfetti's, ``mazo train --bot``), for a net
trained with ``mazo train --teacher rollouts`` or ``search`` the move whose predicted
advantage is highest.  With a positive
temperature it draws from the softmax of the logits divided by it, with its own seeded
generator.  It never talks (the encoder leaves talk out); where the seat's only legal
actions are outside what a net plays, it takes the first legal one.

Options: ``temperature`` (0), ``weights`` (a folder written by ``mazo train --out`` or a
``.npz`` file; default: the game's shipped net for the player count).  A net covers the
player count it was trained for; a count no net covers raises
:class:`mazo.nets.NetError` saying how to train one.

>>> import mazo
>>> game = mazo.load_game("briscola", players=2)
>>> bot = NetBot(game, seed=1)
>>> state = game.new_match(seed=7)
>>> bot.choose(state.observation(state.to_act)) in state.legal_actions()
True
"""

from __future__ import annotations

import math
from typing import Any

from mazo.bots.base import Observation, legal_ids
from mazo.core.errors import RulesError
from mazo.core.game import Game
from mazo.core.rng import Rng
from mazo.nets import GameNet, NetError, load_net

__all__ = ["NetBot", "make"]


class NetBot:
    """A bot that plays the policy network's choice (see the module docstring)."""

    name = "net"

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        unknown = sorted(set(options) - {"temperature", "weights"})
        if unknown:
            raise RulesError(
                f"bot 'net' has no option {', '.join(unknown)}; options are: temperature, weights"
            )
        temperature = options.get("temperature", 0)
        if type(temperature) not in (int, float) or not 0 <= temperature < math.inf:
            raise RulesError(f"bot option temperature={temperature!r}: a number ≥ 0")
        weights = options.get("weights")
        if weights is not None and not isinstance(weights, str):
            raise RulesError(f"bot option weights={weights!r}: a folder or .npz path")
        self.game = game
        self.temperature = float(temperature)
        self.rng = Rng(seed)
        self.net: GameNet = load_net(game, weights)

    def __repr__(self) -> str:
        return f"NetBot({self.game!r}, temperature={self.temperature})"

    def choose(self, observation: Observation) -> int:
        """The network's action for this observation."""
        try:
            legal, ev = self.net.evaluate(observation, with_value=False)
        except NetError:
            return legal_ids(self.game, observation)[0]  # only talk (or nothing: raises)
        logits = ev.logits
        if self.temperature == 0:
            best = max(range(len(logits)), key=logits.__getitem__)
            return legal[best]
        top = max(logits)
        weights = [math.exp((x - top) / self.temperature) for x in logits]
        pick = self.rng.random() * sum(weights)
        for action, w in zip(legal, weights, strict=True):
            pick -= w
            if pick < 0:
                return action
        return legal[-1]


def make(game: Game, seed: int, **options: Any) -> NetBot:
    """The factory (``make_bot``'s registry entry, or the plugin path
    ``mazo.bots.net:make`` until it has one)."""
    return NetBot(game, seed, **options)
