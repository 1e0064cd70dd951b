"""The single-agent Gymnasium environment: Gymnasium's checker, masks, rewards,
reproducibility, illegal actions and the registered ids."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mazo
import mazo.env
from mazo.core.errors import IllegalActionError, RulesError
from mazo.env.gymnasium import MazoSingleAgentEnv

CHECKED = [
    ("briscola", 2, "random"),
    ("briscola", 2, "normal"),
    ("briscola", 4, "normal"),
    ("escoba", 3, "normal"),
    ("envite", 6, "normal"),
    ("trionfetti", 4, "normal"),
]


def checked(env: gymnasium.Env[Any, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    problems = [str(w.message) for w in caught if "render modes" not in str(w.message)]
    assert problems == []


@pytest.mark.parametrize(("name", "players", "opponents"), CHECKED)
def test_check_env(name: str, players: int, opponents: str) -> None:
    checked(MazoSingleAgentEnv(name, players=players, seat=1, opponents=opponents))


@pytest.mark.parametrize("env_id", sorted(mazo.env.GYMNASIUM_IDS))
def test_registered_ids_pass_check_env_with_render_modes(env_id: str) -> None:
    env: Any = gymnasium.make(env_id, opponents="random").unwrapped
    game, players = mazo.env.GYMNASIUM_IDS[env_id]
    assert env.game.name == game and env.game.players == players
    checked(env)  # with a spec: the ansi render mode is checked too


def run(env: MazoSingleAgentEnv, seed: int, policy_seed: int) -> tuple[list[Any], float, int]:
    """A whole match, the learner choosing uniformly among its masked actions: the
    observations seen, the final reward and the number of learner steps."""
    rng = random.Random(policy_seed)
    obs, info = env.reset(seed=seed)
    seen = [obs]
    steps = 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == np.bool_
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        state = env.match_state
        assert state.to_act == env.seat
        talk = env.game.info.message_actions
        legal = {a for a in state.legal_actions(env.seat) if a not in talk}
        assert set(np.flatnonzero(mask)) == legal
        obs, reward, terminated, truncated, info = env.step(rng.choice(sorted(legal)))
        steps += 1
        seen.append(obs)
        assert not truncated and obs in env.observation_space
        if terminated:
            assert not env.action_masks().any()
            return seen, float(reward), steps
        assert reward == 0.0


@pytest.mark.parametrize(
    ("name", "players", "seat"),
    [
        ("briscola", 2, 0),
        ("briscola", 6, 3),
        ("escoba", 2, 1),
        ("envite", 4, 2),
        ("trionfetti", 4, 1),
    ],
)
def test_a_match_ends_with_the_outcome_for_the_learners_side(
    name: str, players: int, seat: int
) -> None:
    env = MazoSingleAgentEnv(name, players=players, seat=seat, opponents="random")
    _seen, reward, steps = run(env, seed=seat + 1, policy_seed=2)
    state = env.match_state
    assert state.match_over and steps > 3
    if state.winner is None:
        assert reward == 0.0
    else:
        assert reward == (1.0 if env.game.side_of[seat] == state.winner else -1.0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_same_seed_same_episode_with_heuristic_bots() -> None:
    first = MazoSingleAgentEnv("briscola", players=4, seat=2, opponents="normal")
    second = MazoSingleAgentEnv("briscola", players=4, seat=2, opponents="normal")
    a_obs, a_reward, a_steps = run(first, seed=21, policy_seed=3)
    b_obs, b_reward, b_steps = run(second, seed=21, policy_seed=3)
    assert (a_reward, a_steps) == (b_reward, b_steps)
    assert all(np.array_equal(x, y) for x, y in zip(a_obs, b_obs, strict=True))
    # the seed is the match seed: the learner holds the hand game.new_match(seed) deals
    first.reset(seed=21)
    state: Any = first.match_state
    assert state.hand(2) == first.game.new_match(seed=21).hand(2)  # type: ignore[attr-defined]


def test_an_illegal_action_loses_or_raises() -> None:
    env = MazoSingleAgentEnv("briscola", players=2, opponents="random")
    env.reset(seed=5)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError):
        env.step(illegal)
    strict = MazoSingleAgentEnv("briscola", players=2, opponents="random", illegal="raise")
    strict.reset(seed=5)
    before = strict.match_state
    with pytest.raises(IllegalActionError, match="legal"):
        strict.step(illegal)
    assert strict.match_state is before
    with pytest.raises(IllegalActionError):
        strict.step(10**6)


def test_opponents_by_seat_and_bad_configurations() -> None:
    game = mazo.load_game("envite", players=4)
    partner = mazo.make_bot("random", game, seed=1)
    env = MazoSingleAgentEnv(
        "envite", players=4, seat=1, opponents=["normal", "random:signals=false", partner]
    )
    env.reset(seed=2)
    assert env._bots[3] is partner
    assert env.observation_space.shape == (env.encoder.size,)
    with pytest.raises(RulesError, match="one bot for each"):
        MazoSingleAgentEnv("envite", players=4, opponents=["normal"])
    with pytest.raises(RulesError, match="unknown bot"):
        MazoSingleAgentEnv("briscola", players=2, opponents="nosuchbot")
    with pytest.raises(RulesError, match="seat"):
        MazoSingleAgentEnv("briscola", players=2, seat=2)
    with pytest.raises(RulesError):
        MazoSingleAgentEnv("briscola", players=2, illegal="ignore")
    assert MazoSingleAgentEnv("envite").game.players == 4  # the smallest table
    assert MazoSingleAgentEnv("briscola").game.players == 2
