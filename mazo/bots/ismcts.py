"""Information-set Monte Carlo search over the engine contract, for every game.

The bot sees one observation.  Each iteration samples a full state consistent with it
(``game.determinize``), chooses one of the seat's actions by UCB1 over the actions tried so
far (an action counts as available only in the samples where it is legal, as in ISMCTS),
plays the rest of the deal out with random moves (partners' talk left out) and scores the
deal's end for the bot's side (what each side gained: a game or chico first, else the
score).  It stops after ``iterations`` samples, or ``think_ms``
milliseconds if given, and plays the action visited most.

This is the first slice of issue 6: the tree has one level (the decision at hand; the
moves below it are rollouts).  Deeper trees, heuristic rollouts, the exact solver for
perfect-information endings and the difficulty levels come next.

>>> import mazo
>>> game = mazo.load_game("briscola", players=2)
>>> state = game.new_match(seed=3)
>>> bot = mazo.make_bot("ismcts", game, seed=1, iterations=50)
>>> bot.choose(state.observation(state.to_act)) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import time
from typing import Any

from mazo.bots import Observation, legal_ids
from mazo.core.errors import RulesError
from mazo.core.game import Game, State
from mazo.core.rng import Rng

__all__ = ["ISMCTSBot", "outcome_reward"]

MAX_ROLLOUT = 2_000  # actions; a deal is far shorter, this only guards against a loop


def outcome_reward(scores: list[int], games: list[int], state: State, side: int) -> float:
    """How ``side`` did from (``scores``, ``games``) to ``state``: 1 if it gained most,
    0.5 if it shared the most, else 0.  A game or chico gained counts before any score
    (Envite's stones and Trionfetti's points go back to 0 with it); the match's winner
    counts before both."""
    if state.match_over:
        winner = state.winner
        return 0.5 if winner is None else 1.0 if winner == side else 0.0
    gained = [b - a for a, b in zip(games, state.games, strict=True)]
    if not any(gained):
        gained = [b - a for a, b in zip(scores, state.scores, strict=True)]
    best = max(gained)
    if gained[side] < best:
        return 0.0
    return 1.0 if gained.count(best) == 1 else 0.5


class ISMCTSBot:
    """Options: ``iterations`` (samples per decision, default 200), ``think_ms`` (a time
    budget in milliseconds instead; 0 = use iterations), ``exploration`` (UCB1 constant,
    default 0.7)."""

    name = "ismcts"

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        unknown = sorted(set(options) - {"iterations", "think_ms", "exploration"})
        if unknown:
            raise RulesError(
                f"bot 'ismcts' has no option {', '.join(unknown)}; options are: iterations, "
                "think_ms, exploration"
            )
        iterations = options.get("iterations", 200)
        think_ms = options.get("think_ms", 0)
        exploration = options.get("exploration", 0.7)
        if type(iterations) is not int or iterations < 1:
            raise RulesError(f"ismcts iterations must be a positive int, not {iterations!r}")
        if type(think_ms) not in (int, float) or think_ms < 0:
            raise RulesError(f"ismcts think_ms must be a number >= 0, not {think_ms!r}")
        if type(exploration) not in (int, float) or exploration < 0:
            raise RulesError(f"ismcts exploration must be a number >= 0, not {exploration!r}")
        self.game = game
        self.iterations = iterations
        self.think_ms = float(think_ms)
        self.exploration = float(exploration)
        self.rng = Rng(seed)
        self.talk = game.info.message_actions

    def choose(self, observation: Observation) -> int:
        """The action with the most visits after the search."""
        legal = legal_ids(self.game, observation)
        moves = [a for a in legal if a not in self.talk] or legal
        if len(moves) == 1:
            return moves[0]
        seat = observation["seat"]
        side = self.game.info.side_of[seat]
        visits = dict.fromkeys(moves, 0)
        wins = dict.fromkeys(moves, 0.0)
        seen = dict.fromkeys(moves, 0)  # samples where the action was available
        deadline = time.perf_counter() + self.think_ms / 1000 if self.think_ms else None
        done = 0
        while True:
            if deadline is not None:
                if done and time.perf_counter() >= deadline:
                    break
            elif done >= self.iterations:
                break
            done += 1
            state = self.game.determinize(observation, self.rng)
            here = set(state.legal_actions(seat))
            available = [a for a in moves if a in here]
            if not available:
                continue
            for a in available:
                seen[a] += 1
            action = self._select(available, visits, wins, seen)
            scores, games = state.scores, state.games
            end = self._rollout(state.apply(action, seat=seat))
            reward = outcome_reward(scores, games, end, side)
            visits[action] += 1
            wins[action] += reward
        return max(moves, key=lambda a: (visits[a], wins[a]))

    def _select(
        self,
        available: list[int],
        visits: dict[int, int],
        wins: dict[int, float],
        seen: dict[int, int],
    ) -> int:
        untried = [a for a in available if visits[a] == 0]
        if untried:
            return self.rng.choice(untried)
        c = self.exploration
        return max(
            available,
            key=lambda a: wins[a] / visits[a] + c * math.sqrt(math.log(seen[a]) / visits[a]),
        )

    def _rollout(self, state: State) -> State:
        """Random moves (no talk) to the end of the deal in progress."""
        talk = self.talk
        rng = self.rng
        for _ in range(MAX_ROLLOUT):
            if state.hand_over or state.match_over:
                break
            legal = state.legal_actions()
            moves = [a for a in legal if a not in talk] or legal
            state = state.apply_unchecked(moves[rng.randbelow(len(moves))])
        return state

    def __repr__(self) -> str:
        budget = f"think_ms={self.think_ms:g}" if self.think_ms else f"iterations={self.iterations}"
        return f"ISMCTSBot({self.game!r}, {budget})"
