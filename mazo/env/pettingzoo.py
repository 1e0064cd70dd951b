"""PettingZoo AEC environments for every mazo game, in the style of PettingZoo classic.

Agents ``player_0`` .. ``player_{n-1}`` are the seats; ``agent_selection`` is always the
seat the game waits for (``state.to_act``).  Each agent observes a dict:

* ``observation``: one seat's observation encoded by :class:`mazo.env.encoding.Encoder`
  (``float32``, values in [0, 1]);
* ``action_mask``: ``int8`` over the game's fixed action space, 1 for each legal id; all
  zeros for an agent that is not to act.

Rewards come at the end of the match: +1 for every seat of the winning side, -1 for every
other seat, 0 for everyone on a draw (partners always get the same).  With three sides
(three-player Briscola and Escoba) that is +1 for the winner and -1 for both others.

What an AEC environment cannot express, and so leaves out:

* calls out of turn: Envite's envío (or an answer) by a seat that is not ``to_act``,
  Trionfetti's answer by the partner of the seat asked, and its ``show_bottom``,
  ``peek`` and ``show`` by a seat not to act.  Each seat still has every call when its
  own turn comes;
* talk between partners (signals, consultations, claims), masked out unless
  ``talk=True`` (random agents would otherwise chatter instead of playing);
* Trionfetti's custom rankings, which have no action id (the five presets and ``keep``
  are in the mask).

>>> from mazo.env.pettingzoo import briscola_v0
>>> env = briscola_v0(players=2)
>>> env.reset(seed=7)
>>> env.agent_selection
'player_1'
>>> obs, reward, terminated, truncated, info = env.last()
>>> int(obs["action_mask"].sum())
3
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

import mazo
from mazo.core.errors import IllegalActionError
from mazo.core.game import Game, State
from mazo.env.encoding import Encoder
from mazo.games import GAMES

DEFAULT_GAME = next(iter(GAMES))  # the registry's first game (Briscola)

__all__ = [
    "env",
    "mazo_env",
    "outcome_rewards",
    "raw_env",
    *(f"{name}_v0" for name in GAMES),
]

ObsDict = dict[str, npt.NDArray[Any]]
_I8 = np.dtype(np.int8)  # a dtype object: frombuffer skips parsing its argument


def outcome_rewards(game: Game, state: State) -> list[float]:
    """Per seat, the match outcome: +1 for the winning side, -1 for the others, 0 each on
    a draw or while the match runs."""
    if not state.match_over:
        return [0.0] * game.players
    winner = state.winner
    if winner is None:
        return [0.0] * game.players
    return [1.0 if side == winner else -1.0 for side in game.info.side_of]


class raw_env(AECEnv[str, ObsDict, int], EzPickle):  # type: ignore[misc]
    """One mazo match as an AEC environment (see the module docstring).

    ``game_name`` and ``players`` and the game ``options`` go to :func:`mazo.load_game`;
    ``talk=True`` keeps partner talk in the masks and the encoding.  ``reset(seed=s)``
    plays ``game.new_match(seed=s)``; ``reset()`` draws the match seed from the
    environment's generator, which a seeded reset re-seeds.  ``reset(options=...)`` may
    give ``setup`` and ``dealer`` (see ``Game.new_match``); other keys are ignored.

    An action outside the mask is refused with :class:`mazo.IllegalActionError` (a
    ``ValueError``); :func:`env` wraps this class so that such an action ends the match
    instead, as PettingZoo classic does.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads a plain dict)
        "render_modes": ["ansi", "human"],
        "name": "mazo_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_name: str = DEFAULT_GAME,
        players: int | None = None,
        talk: bool = False,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        EzPickle.__init__(self, game_name, players, talk, render_mode, **options)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}"
            )
        self.game: Game = mazo.load_game(game_name, players=players, **options)
        self.encoder = Encoder(self.game, talk=talk)
        self.talk = bool(talk)
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"{self.game.name}_v0"}
        n = self.game.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size, num_actions = self.encoder.size, self.encoder.num_actions
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._skip = frozenset() if self.talk else self.game.info.message_actions
        self._np_random: np.random.Generator | None = None
        self._state: State | None = None
        self._memo: dict[str, Any] = {}
        self.agents: list[str] = []

    # -- spaces ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def np_random(self) -> np.random.Generator:
        """The generator that draws match seeds for unseeded resets."""
        if self._np_random is None:
            self._np_random, _ = seeding.np_random()
        return self._np_random

    @property
    def match_state(self) -> State:
        """The mazo state of the match in progress (omniscient: for tools, not agents)."""
        if self._state is None:
            raise RuntimeError("call reset() first")
        return self._state

    # -- the AEC protocol ------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
            match_seed = int(seed)
        else:
            match_seed = int(self.np_random.integers(2**63))
        opts = options or {}
        self._state = self.game.new_match(
            seed=match_seed, setup=opts.get("setup"), dealer=opts.get("dealer")
        )
        # The encoder's memo for this match's observations (see Encoder.encode_seat).
        self._memo = {}
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        to_act = self._state.to_act
        self.agent_selection = self.possible_agents[to_act if to_act is not None else 0]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> ObsDict:
        state = self._state
        if state is None:
            raise RuntimeError("call reset() first")
        seat = self.agent_name_mapping[agent]
        encoder = self.encoder
        obs = state.observation(seat)
        mask = bytearray(encoder.num_actions)
        if seat == state.to_act:
            # Encoder.action_mask inlined (a call and a list less): the observation's
            # legal actions through the encoder's string -> id table, -1 for talk and
            # anything outside the int space.
            ids = encoder._ids
            for text in obs["legal_actions"]:
                action = ids.get(text)
                if action is None:
                    action = encoder._learn(text)
                if action >= 0:
                    mask[action] = 1
        return {
            "observation": encoder.encode_seat(obs, seat, self._memo),
            "action_mask": np.frombuffer(mask, _I8),
        }

    def step(self, action: int | None) -> None:
        state = self._state
        if state is None:
            raise RuntimeError("call reset() first")
        to_act = state.to_act
        if to_act is None:
            # The match is over, so every agent is terminated: only dead steps remain.
            self._was_dead_step(action)
            return
        agent = self.agent_selection  # always the agent of the seat to act
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for finished agents")
        move = action if type(action) is int else int(action)
        if move in self._skip:
            raise IllegalActionError(
                f"{self.game.action_to_string(move)!r} is talk, masked out (talk=False)"
            )
        state = state.apply(move, to_act)
        self._state = state
        self._cumulative_rewards[agent] = 0.0
        if state.to_act is not None:
            self.agent_selection = self.possible_agents[state.to_act]
        else:
            rewards = outcome_rewards(self.game, state)
            for name, s in self.agent_name_mapping.items():
                self.rewards[name] = rewards[s]
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            # The dead agents step out in seat order, starting after the last mover.
            self.agent_selection = self.possible_agents[(to_act + 1) % self.game.players]
        if self.render_mode == "human":
            self.render()

    # -- rendering ---------------------------------------------------------------------

    def render(self) -> str | None:
        """The table as the agent to act sees it (mazo's plain-text renderer)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = render_text(
            self.game, self.match_state, self.agent_name_mapping.get(self.agent_selection, 0)
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def render_text(game: Game, state: State, seat: int) -> str:
    """Plain text of ``seat``'s observation, through :mod:`mazo.render`."""
    from mazo.render import View, default_language, rank_labels, render_observation

    view = View(
        players=game.players,
        side_of=tuple(game.info.side_of),
        viewer=seat,
        style="code",
        lang=default_language(game.name, game.options),
        game=game.name,
        ranks=rank_labels(game.name, game.options),
    )
    obs = state.observation(seat)
    lines = [f"{game.name}: seat {seat}'s view", render_observation(obs, view)]
    if obs["legal_actions"] and seat == state.to_act:
        lines.append("Legal: " + ", ".join(obs["legal_actions"]))
    return "\n".join(lines)


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """:class:`raw_env` in PettingZoo classic's wrappers: an action outside the mask ends
    the match with -1 for the agent that made it (0 for the others), an action outside
    the space fails an assertion, and calls out of order raise."""
    wrapped: AECEnv[str, ObsDict, int] = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def mazo_env(
    game_name: str,
    players: int | None = None,
    talk: bool = False,
    render_mode: str | None = None,
    **options: Any,
) -> AECEnv[str, ObsDict, int]:
    """The wrapped AEC environment of any mazo game (``players=None``: the game's
    default player count)."""
    return env(game_name=game_name, players=players, talk=talk, render_mode=render_mode, **options)


def _game_env(name: str) -> Callable[..., AECEnv[str, ObsDict, int]]:
    """``<game>_v0(players=<fewest>, **options)``: the wrapped environment of one game."""
    players = min(GAMES[name].player_counts)

    def make(players: int = players, **options: Any) -> AECEnv[str, ObsDict, int]:
        return mazo_env(name, players=players, **options)

    counts = ", ".join(map(str, GAMES[name].player_counts))
    make.__name__ = make.__qualname__ = f"{name}_v0"
    make.__doc__ = f"{name} for {counts} players (``talk``, ``render_mode`` and game options)."
    return make


def __getattr__(attribute: str) -> Callable[..., AECEnv[str, ObsDict, int]]:
    """``briscola_v0`` and the like, PettingZoo's per-environment constructors: one for
    each game of the registry (``mazo.games.GAMES``), so a new game needs no line here."""
    name, sep, version = attribute.rpartition("_")
    if sep and version == "v0" and name in GAMES:
        return _game_env(name)
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")
