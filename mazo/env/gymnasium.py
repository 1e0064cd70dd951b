"""A single-agent Gymnasium environment: one learner seat, mazo bots in the others.

The learner sees its seat's observation encoded by :class:`mazo.env.encoding.Encoder` (a
flat ``float32`` ``Box``, values in [0, 1]) and acts in the game's fixed ``Discrete``
action space.  ``action_masks()`` gives the legal actions as booleans, the convention of
sb3-contrib's ``MaskablePPO``; ``info["action_mask"]`` carries the same mask as ``int8``.

The other seats are mazo bots that see only their own observations.  They play whenever
the game waits for them, so every ``step`` returns at the learner's next turn or at the
end of the match.  Reward is the match outcome for the learner's side at the end (+1 won,
-1 lost, 0 drawn), 0 before.

An action outside the mask ends the episode as a loss (reward -1,
``info["illegal_action"]`` true): Gymnasium's ``check_env`` steps with unmasked random
actions, so this is what it accepts.  ``illegal="raise"`` raises
:class:`mazo.IllegalActionError` (a ``ValueError``) instead, which finds bugs in a
masking agent sooner.

>>> env = MazoSingleAgentEnv("briscola", players=2, opponents="random")
>>> obs, info = env.reset(seed=7)
>>> obs.shape == env.observation_space.shape, int(env.action_masks().sum())
(True, 3)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import mazo
from mazo.bots import Bot, make_bot
from mazo.core.errors import IllegalActionError, RulesError
from mazo.core.game import Game, State
from mazo.env.encoding import Encoder
from mazo.env.pettingzoo import DEFAULT_GAME, outcome_rewards, render_text
from mazo.games import GAMES

__all__ = ["MazoSingleAgentEnv"]

Vector = npt.NDArray[np.float32]
ILLEGAL_CHOICES = ("lose", "raise")
MAX_BOT_ACTIONS = 100_000  # between two learner turns: a bot that never plays is a bug


class MazoSingleAgentEnv(gymnasium.Env[Vector, np.int64]):
    """One seat of a mazo match against bots (see the module docstring).

    ``game``, ``players`` (default: the game's smallest table) and ``options`` configure
    the game; ``seat`` is the learner's seat; ``opponents`` is a bot spec for every other
    seat (``"normal"``, ``"random"``, ``"ismcts:iterations=50"``...) or a list, one per
    other seat in seat order, of specs or ready :class:`mazo.bots.Bot` objects (bots
    made from specs are seeded at every reset; ready bots keep their own generators).
    ``talk=True`` lets the learner talk (message actions in the mask, talk in the
    encoding); with talk off, random opponents do not talk either.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str = DEFAULT_GAME,
        players: int | None = None,
        seat: int = 0,
        opponents: str | Sequence[str | Bot] = "normal",
        talk: bool = False,
        illegal: str = "lose",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if players is None:
            cls = GAMES.get(str(game).strip().lower())
            players = min(cls.player_counts) if cls is not None else None
        self.game: Game = mazo.load_game(game, players=players, **options)
        n = self.game.players
        if type(seat) is not int or not 0 <= seat < n:
            raise RulesError(f"seat must be 0..{n - 1}, not {seat!r}")
        if illegal not in ILLEGAL_CHOICES:
            raise RulesError(f"illegal must be one of {ILLEGAL_CHOICES}, not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise RulesError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.seat = seat
        self.talk = bool(talk)
        self.illegal = illegal
        self.render_mode = render_mode
        others = [s for s in range(n) if s != seat]
        specs: list[str | Bot]
        if isinstance(opponents, str):
            specs = [opponents] * len(others)
        else:
            specs = list(opponents)
            if len(specs) != len(others):
                raise RulesError(
                    f"opponents: give one bot for each of the {len(others)} other seats "
                    f"({', '.join(map(str, others))}), not {len(specs)}"
                )
        from mazo.sim.tournament import parse_bot_spec  # the syntax of mazo sim --bots

        self._specs: dict[int, tuple[str, dict[str, Any]] | Bot] = {}
        for s, spec in zip(others, specs, strict=True):
            if isinstance(spec, str):
                name, bot_options = parse_bot_spec(spec)
                if name == "random" and not talk:
                    bot_options.setdefault("signals", False)
                make_bot(name, self.game, seed=0, **bot_options)  # a bad spec fails here
                self._specs[s] = (name, bot_options)
            elif isinstance(spec, Bot):
                self._specs[s] = spec
            else:
                raise RulesError(f"an opponent is a bot spec or a mazo bot, not {spec!r}")
        self.encoder = Encoder(self.game, talk=talk)
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.encoder.num_actions)
        self._bots: dict[int, Bot] = {}
        self._state: State | None = None
        self._obs: dict[str, Any] | None = None
        self._mask = np.zeros(self.encoder.num_actions, np.int8)
        self._ended = False  # by an illegal action

    # -- helpers -----------------------------------------------------------------------

    def _make_bots(self) -> None:
        """Fresh bots seeded from the environment's generator (given bots are kept)."""
        self._bots = {}
        for s, spec in self._specs.items():
            bot_seed = int(self.np_random.integers(2**63))
            if isinstance(spec, tuple):
                name, options = spec
                self._bots[s] = make_bot(name, self.game, seed=bot_seed, **options)
            else:
                self._bots[s] = spec

    def _advance(self, state: State) -> State:
        """Let the bots play until the learner's turn or the end of the match."""
        for _ in range(MAX_BOT_ACTIONS):
            to_act = state.to_act
            if to_act is None or to_act == self.seat:
                return state
            bot = self._bots[to_act]
            state = state.apply(bot.choose(state.observation(to_act)), seat=to_act)
        raise RuntimeError(
            f"the bots made {MAX_BOT_ACTIONS} actions without reaching seat {self.seat}"
        )

    def _observe(self) -> tuple[Vector, dict[str, Any]]:
        state = self.match_state
        obs = state.observation(self.seat)
        self._obs = obs
        if state.to_act == self.seat:
            mask = self.encoder.action_mask(obs)
        else:
            mask = np.zeros(self.encoder.num_actions, np.int8)
        self._mask = mask
        return self.encoder.encode(obs), {"action_mask": mask.copy()}

    @property
    def match_state(self) -> State:
        """The mazo state of the match (omniscient: for tools and tests, not the agent)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as booleans (all False once the match is over)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._mask.astype(bool)

    # -- the Gymnasium protocol ------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        """A new match: ``seed`` is the match seed (``game.new_match(seed=seed)``) and
        re-seeds the generator the bots' seeds come from; without it, both are drawn from
        that generator.  ``options`` may give ``setup`` and ``dealer``."""
        super().reset(seed=seed)
        match_seed = seed if seed is not None else int(self.np_random.integers(2**63))
        self._make_bots()
        opts = options or {}
        state = self.game.new_match(
            seed=match_seed, setup=opts.get("setup"), dealer=opts.get("dealer")
        )
        self._state = self._advance(state)
        self._ended = False
        return self._observe()

    def step(self, action: Any) -> tuple[Vector, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.match_state
        if state.match_over or self._ended:
            raise RuntimeError("the episode is over: call reset()")
        move = int(action)
        if not 0 <= move < self.encoder.num_actions or not self._mask[move]:
            if self.illegal == "raise":
                legal = ", ".join(self._obs["legal_actions"]) if self._obs else ""
                raise IllegalActionError(
                    f"action {move} is not in the mask of seat {self.seat}; legal: {legal}"
                )
            self._ended = True
            vec, info = self._observe()
            info["illegal_action"] = True
            return vec, -1.0, True, False, info
        self._state = self._advance(state.apply(move, seat=self.seat))
        vec, info = self._observe()
        done = self._state.match_over
        reward = outcome_rewards(self.game, self._state)[self.seat] if done else 0.0
        return vec, reward, done, False, info

    def render(self) -> str | None:
        """The learner's view as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return render_text(self.game, self.match_state, self.seat)

    def close(self) -> None:
        """Nothing to release."""
