"""mazo's games as OpenSpiel Python games: ``python_mazo_briscola``, ``python_mazo_escoba``,
``python_mazo_envite`` and ``python_mazo_trionfetti``.

Importing this module registers them with ``pyspiel`` (``pip install 'mazo[openspiel]'``)::

    import pyspiel
    import mazo.env.openspiel  # registers the games

    game = pyspiel.load_game("python_mazo_briscola", {"players": 2})
    game = pyspiel.load_game("python_mazo_envite(players=8,deal_only=True)")

Parameters
----------
``players`` (the game's default), every rule option whose default is a bool, an int or a
string, under its own name (``match_wins_target``, ``target_score``...; Trionfetti's
``initial_ranking`` also takes a JSON list of levels), and:

* ``first_dealer`` (int): a seat, or -1 (the default) for mazo's default (drawn);
* ``deal_only`` (bool, False): the episode ends with the first deal instead of the match;
  the side with the most points in that deal wins it (a tie is a draw).  A whole match
  is the real game; a deal is 3 to 40 moves instead of up to a few hundred, for fast
  tests and search experiments;
* ``seeds`` (int, 65536): how many different matches the chance node can start;
* ``max_length`` (int): the longest episode, in player moves (defaults per game, far
  above what is seen in play).  Matches have no hard bound (Briscola's 60-60 deals do
  not count), so an episode that reaches it stops as a draw: the stated
  ``max_game_length`` then always holds.

Chance
------
mazo shuffles inside the engine, from the match seed (every deck order of the match is
drawn from it, deal by deal).  So the game has one explicit chance node, at the start:
outcome ``k`` (uniform over ``seeds`` outcomes) starts ``new_match(seed=k)``, which fixes
every later deal too.  This keeps ``EXPLICIT_STOCHASTIC`` honest (finitely many outcomes
with their probabilities), so ``pyspiel.random_sim_test``, serialization by history and
the chance-sampling algorithms all work, and any state is its history replayed.  The
price: the later deals are not separate chance nodes, so no algorithm can reason about
them as chance outcomes (the game tree is "pre-dealt"); ``SAMPLED_STOCHASTIC`` would not
change that and is not supported by much of OpenSpiel.

Information states
------------------
``information_state_string(p)`` is the canonical JSON (sorted keys, compact) of
``state.observation(p)``: exactly what seat ``p`` may know, including the cards of the
current deal, the trick history the game shows and the legal actions.  Its tensor is
:class:`mazo.env.encoding.Encoder` applied to the same observation; ``observation_*``
are the same two.  Observations summarise earlier deals (scores, the last deal's
result) rather than replaying them, so the information state has perfect recall within
a deal but not across deals: enough for IS-MCTS, not for CFR over whole matches (use
``deal_only=True`` there).

``resample_from_infostate(p, sampler)`` returns ``game.determinize(observation, rng)``
wrapped in a new state, the rng seeded with 64 bits drawn from ``sampler``: a state
with the same information state for ``p`` and the hidden cards redrawn.  Its
``history()`` is empty (the world it describes is not reached from any chance
outcome), so it is for search, not for serialization.  OpenSpiel's C++ ``ISMCTSBot``
cannot use it: the pybind trampoline of Python states overrides no
``ResampleFromInfostate``, so the C++ bot calls the base method, which fails (it
crashes the process with this build of open_spiel 2.0.2, even on OpenSpiel's own
``python_kuhn_poker``); use the Python ``open_spiel.python.algorithms.ismcts.ISMCTSBot``,
which calls the Python method.

Moves and returns
-----------------
OpenSpiel games are turn-based: the player to move is ``state.to_act``, and its legal
actions are mazo's int ids for that seat without partner talk
(``game.info.message_actions``) and without anything outside the int space (a custom
Trionfetti ranking).  Out-of-turn calls (Envite's bets) are made when the seat's turn
comes, as in ``mazo sim``.  Returns are 0 until the end; then the winning side's seats
get +1 and each other side's seats ``-1 / (sides - 1)`` (-1 with two sides), so the
game is zero-sum and partners get equal returns; a draw, or an episode cut at
``max_length``, is 0 for everyone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

import mazo
from mazo.core.errors import MazoError
from mazo.core.game import Game, State
from mazo.core.rng import Rng
from mazo.env.encoding import Encoder
from mazo.env.encoding import hook as encoder_hook
from mazo.games import GAMES as REGISTRY

__all__ = ["GAMES", "PREFIX", "load", "register", "short_name"]

PREFIX = "python_mazo_"
GAMES = tuple(name for name in REGISTRY if encoder_hook(name, "ENCODER") is not None)
"""The games registered with pyspiel: every game of the registry with an encoder."""
DEFAULT_SEEDS = 1 << 16
_OWN_PARAMS = ("players", "first_dealer", "deal_only", "seeds", "max_length")


def short_name(game: str) -> str:
    """A game's pyspiel name: ``python_mazo_<game>``."""
    return PREFIX + game


def _rule_params(game: str) -> dict[str, Any]:
    """The rule options OpenSpiel can carry (bool, int, str defaults) with their defaults."""
    rules = mazo.load_game(game)
    out: dict[str, Any] = {}
    for spec in rules.option_specs:
        if spec.name == "first_dealer":
            continue
        if isinstance(spec.default, bool | int | str):
            out[spec.name] = spec.default
    return out


def _parameter_spec(game: str) -> dict[str, Any]:
    rules = mazo.load_game(game)
    return {
        "players": rules.default_players,
        "first_dealer": -1,
        "deal_only": False,
        "seeds": DEFAULT_SEEDS,
        "max_length": encoder_hook(game, "MAX_LENGTH"),  # the game's encoder file says
        **_rule_params(game),
    }


class _Config:
    """Everything a game instance needs, built once per parameter set and shared by its
    states (OpenSpiel may hand states a Python game object without our attributes, so
    states find their configuration from the game's parameters)."""

    def __init__(self, game: str, params: Mapping[str, Any]) -> None:
        spec = _parameter_spec(game)
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise ValueError(
                f"{short_name(game)} has no parameter {', '.join(unknown)}; "
                f"parameters are: {', '.join(spec)}"
            )
        full = {**spec, **params}
        options = {k: full[k] for k in _rule_params(game)}
        dealer = full["first_dealer"]
        if type(dealer) is not int or dealer < -1:
            raise ValueError(f"first_dealer is a seat or -1 (drawn), not {dealer!r}")
        if dealer >= 0:
            options["first_dealer"] = dealer
        ranking = options.get("initial_ranking")
        if isinstance(ranking, str) and ranking.lstrip().startswith("["):
            options["initial_ranking"] = json.loads(ranking)
        self.seeds = int(full["seeds"])
        self.max_length = int(full["max_length"])
        if self.seeds < 1 or self.max_length < 1:
            raise ValueError("seeds and max_length must be positive")
        self.deal_only = bool(full["deal_only"])
        try:
            self.rules: Game = mazo.load_game(game, players=full["players"], **options)
        except MazoError as err:
            raise ValueError(f"{short_name(game)}: {err}") from None
        self.game = game
        self.params = full
        info = self.rules.info
        self.players = info.players
        self.num_actions = info.num_actions
        self.side_of = info.side_of
        self.sides = info.sides
        self.talk = info.message_actions
        self.encoder = Encoder(self.rules)
        self.loss = -1.0 / (self.sides - 1)
        self._chance: list[tuple[int, float]] | None = None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._chance is None:
            p = 1.0 / self.seeds
            self._chance = [(k, p) for k in range(self.seeds)]
        return self._chance

    def game_info(self) -> pyspiel.GameInfo:
        return pyspiel.GameInfo(
            num_distinct_actions=self.num_actions,
            max_chance_outcomes=self.seeds,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self  # shared, never changed: a cloned state keeps it

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (OpenSpiel serializes Python states by pickling them) by name: the
        # copy is the cached configuration of the unpickling process.
        return (_config, (self.game, self.params))


_CONFIGS: dict[tuple[str, str], _Config] = {}


def _config(game: str, params: Mapping[str, Any]) -> _Config:
    key = (game, repr(sorted({**_parameter_spec(game), **params}.items())))
    config = _CONFIGS.get(key)
    if config is None:
        config = _CONFIGS[key] = _Config(game, params)
    return config


def _config_of(game: pyspiel.Game) -> _Config:
    name = game.get_type().short_name
    return _config(name[len(PREFIX) :], game.get_parameters())


def _game_type(game: str) -> pyspiel.GameType:
    rules = mazo.load_game(game)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"mazo {game.capitalize()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(rules.player_counts),
        min_num_players=min(rules.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(game),
    )


class MazoGame(pyspiel.Game):  # type: ignore[misc]
    """One of mazo's games under one parameter set (see the module docstring)."""

    game_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        config = _config(self.game_name, dict(params or {}))
        super().__init__(_game_type(self.game_name), config.game_info(), dict(config.params))

    def new_initial_state(self) -> MazoState:
        """The chance node that picks the match seed."""
        return MazoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> MazoObserver:
        """The observer behind the information-state and observation strings and tensors."""
        return MazoObserver(_config_of(self), params)


class MazoState(pyspiel.State):  # type: ignore[misc]
    """A mazo match (or its first deal) as an OpenSpiel state."""

    def __init__(self, game: pyspiel.Game, inner: State | None = None) -> None:
        super().__init__(game)
        self._cfg = _config_of(game)
        self._inner = inner  # None until the chance node has picked the seed
        self._moves = 0

    @property
    def inner(self) -> State | None:
        """The mazo state (None at the chance node)."""
        return self._inner

    # -- the OpenSpiel state API -------------------------------------------------------

    def current_player(self) -> int:
        inner = self._inner
        if inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(inner.to_act)  # type: ignore[arg-type]

    def _over(self) -> bool:
        inner = self._inner
        if inner is None:
            return False
        return (
            inner.match_over
            or (self._cfg.deal_only and inner.hand_over)
            or self._moves >= self._cfg.max_length
        )

    def is_terminal(self) -> bool:
        return self._over()

    def _legal_actions(self, player: int) -> list[int]:
        inner = self._inner
        if inner is None or self._over() or player != inner.to_act:
            return []
        talk, limit = self._cfg.talk, self._cfg.num_actions
        return [a for a in inner.legal_actions(player) if a < limit and a not in talk]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._cfg.chance_outcomes() if self._inner is None else []

    def _apply_action(self, action: int) -> None:
        if self._inner is None:
            self._inner = self._cfg.rules.new_match(seed=int(action))
            return
        self._inner = self._inner.apply(int(action))
        self._moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        return self._cfg.rules.action_to_string(int(action))

    def returns(self) -> list[float]:
        cfg = self._cfg
        inner = self._inner
        zeros = [0.0] * cfg.players
        if inner is None or not self._over():
            return zeros
        if inner.match_over:
            winner = inner.winner
        elif cfg.deal_only and inner.hand_over:
            winner = _deal_winner(inner)
        else:  # cut at max_length
            winner = None
        if winner is None:
            return zeros
        return [1.0 if cfg.side_of[s] == winner else cfg.loss for s in range(cfg.players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MazoState:
        """A state that ``player_id`` cannot tell from this one, hidden cards redrawn."""
        inner = self._inner
        if inner is None or self._over():
            return self.clone()  # type: ignore[no-any-return]
        high = int(probability_sampler() * (1 << 32))
        low = int(probability_sampler() * (1 << 32))
        rng = Rng((high << 32) | low)
        world = self._cfg.rules.determinize(inner.observation(player_id), rng)
        out = MazoState(self.get_game(), world)
        out._moves = self._moves
        return out

    def __str__(self) -> str:
        if self._inner is None:
            return "chance: the match seed"
        return json.dumps(self._inner.observation(None), sort_keys=True, separators=(",", ":"))


def _deal_winner(state: State) -> int | None:
    """The side with the most points in the deal that just ended (None on a tie)."""
    for event in reversed(state.events):
        if event.get("type") == "hand_end":
            points = list(event["points"])
            top = max(points)
            return points.index(top) if points.count(top) == 1 else None
    return None


class MazoObserver:
    """OpenSpiel's observer protocol: one seat's observation as canonical JSON and as
    the :class:`~mazo.env.encoding.Encoder` vector (the same for information states and
    observations: see the module docstring)."""

    def __init__(self, config: _Config, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"mazo observers take no parameters, not {dict(params)}")
        self._encoder = config.encoder
        self.tensor = np.zeros(config.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MazoState, player: int) -> None:
        inner = state.inner
        if inner is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self._encoder.encode(inner.observation(player))

    def string_from(self, state: MazoState, player: int) -> str:
        inner = state.inner
        if inner is None:
            return f"seat {player}: before the deal"
        return json.dumps(inner.observation(player), sort_keys=True, separators=(",", ":"))


def _game_class(game: str) -> type[MazoGame]:
    return type(f"Mazo{game.capitalize()}Game", (MazoGame,), {"game_name": game})


def register() -> None:
    """Register the four games with pyspiel (done on import; repeating it is harmless)."""
    known = set(pyspiel.registered_names())
    for game in GAMES:
        if short_name(game) not in known:
            pyspiel.register_game(_game_type(game), _game_class(game))


def load(game: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game("python_mazo_<game>", params)``, registering first."""
    register()
    return pyspiel.load_game(short_name(game), params)


register()
