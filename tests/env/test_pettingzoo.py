"""The PettingZoo AEC environments: PettingZoo's own API and seed tests for every game and
player count, full matches with outcome rewards, determinism and illegal actions."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

import mazo
from mazo.core.errors import IllegalActionError
from mazo.env.pettingzoo import (
    briscola_v0,
    envite_v0,
    escoba_v0,
    mazo_env,
    raw_env,
    trionfetti_v0,
)

from . import CONFIGS, IDS

# Shorter matches, so that PettingZoo's play test also reaches the end of a match within
# its cycles (the full-length matches are played below).
SHORT: dict[str, dict[str, Any]] = {
    "briscola": {"match_wins_target": 2},
    "escoba": {"target_score": 6},
    "envite": {"chicos_to_win": 1},
    "trionfetti": {"points_to_win_game": 5, "games_to_win_match": 1},
}


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_pettingzoo_api_test(name: str, players: int) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns that dict observations are "not a NumPy array" for any
        # environment outside its own list of classic games.
        warnings.simplefilter("ignore")
        api_test(mazo_env(name, players=players, **SHORT[name]), num_cycles=150)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_pettingzoo_seed_test(name: str, players: int) -> None:
    seed_test(lambda: mazo_env(name, players=players), num_cycles=40)


def play(env: Any, seed: int, policy_seed: int) -> tuple[list[tuple[str, int]], dict[str, float]]:
    """A whole match with uniform random masked actions: (agent, action) pairs and the
    final cumulative reward of each agent, read when it steps out."""
    rng = random.Random(policy_seed)
    env.reset(seed=seed)
    moves: list[tuple[str, int]] = []
    final: dict[str, float] = {}
    unwrapped = env.unwrapped
    for agent in env.agent_iter(100_000):
        obs, reward, terminated, truncated, _info = env.last()
        assert not truncated
        if terminated:
            final[agent] = float(reward)
            env.step(None)
            continue
        assert reward == 0.0
        state = unwrapped.match_state
        seat = unwrapped.agent_name_mapping[agent]
        assert seat == state.to_act
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        talk = unwrapped.game.info.message_actions
        assert set(legal) == {a for a in state.legal_actions(seat) if a not in talk}
        # every other agent sees an empty mask, out-of-turn calls included
        other = unwrapped.possible_agents[(seat + 1) % len(unwrapped.possible_agents)]
        assert env.observe(other)["action_mask"].sum() == 0
        action = rng.choice(legal)
        moves.append((agent, action))
        env.step(action)
    assert not env.agents
    return moves, final


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_full_match_outcome_rewards(name: str, players: int) -> None:
    env = mazo_env(name, players=players)
    moves, final = play(env, seed=players, policy_seed=1)
    state = env.unwrapped.match_state
    game = env.unwrapped.game
    assert state.match_over and len(moves) > 10
    assert set(final) == set(env.unwrapped.possible_agents)
    side_of = game.info.side_of
    for agent, reward in final.items():
        seat = int(agent.split("_")[1])
        if state.winner is None:
            assert reward == 0.0
        else:
            assert reward == (1.0 if side_of[seat] == state.winner else -1.0)
    # partners are paid alike
    for a in range(players):
        for b in range(players):
            if side_of[a] == side_of[b]:
                assert final[f"player_{a}"] == final[f"player_{b}"]
    if game.info.sides == 2:
        assert sum(final.values()) == 0.0
    else:
        assert sorted(final.values()) in ([-1.0, -1.0, 1.0], [0.0, 0.0, 0.0])


@pytest.mark.parametrize(("name", "players"), [("briscola", 4), ("escoba", 2), ("envite", 6)])
def test_same_seed_same_match(name: str, players: int) -> None:
    first = play(raw_env(game_name=name, players=players), seed=11, policy_seed=5)
    again = play(raw_env(game_name=name, players=players), seed=11, policy_seed=5)
    assert first == again
    other = raw_env(game_name=name, players=players)
    other.reset(seed=12)
    mine = raw_env(game_name=name, players=players)
    mine.reset(seed=11)
    assert mine.match_state != other.match_state


def test_seed_is_the_match_seed_and_unseeded_resets_follow_it() -> None:
    env = raw_env(game_name="briscola", players=2)
    env.reset(seed=7)
    assert env.match_state == mazo.load_game("briscola", players=2).new_match(seed=7)
    env.reset()
    after_seven = env.match_state
    twin = raw_env(game_name="briscola", players=2)
    twin.reset(seed=7)
    twin.reset()
    assert twin.match_state == after_seven
    assert after_seven != env.game.new_match(seed=7)


def test_reset_options_place_the_match() -> None:
    env = raw_env(game_name="escoba", players=2)
    env.reset(seed=1, options={"setup": {"scores": [20, 3]}, "dealer": 1})
    state: Any = env.match_state
    assert state.scores == [20, 3]
    assert state.dealer == 1


def test_factories_and_spaces() -> None:
    cases = [
        (briscola_v0(), "briscola_v0", 2),
        (escoba_v0(players=3), "escoba_v0", 3),
        (envite_v0(), "envite_v0", 4),
        (trionfetti_v0(), "trionfetti_v0", 4),
    ]
    for env, name, players in cases:
        assert str(env.unwrapped) == name
        assert env.unwrapped.possible_agents == [f"player_{i}" for i in range(players)]
        game = env.unwrapped.game
        space = env.observation_space("player_0")
        assert space is env.observation_space("player_0")
        assert space["observation"].shape == (env.unwrapped.encoder.size,)
        assert space["action_mask"].shape == (game.info.num_actions,)
        assert env.action_space("player_1").n == game.info.num_actions
    assert mazo_env("briscola").unwrapped.game.players == 4  # the game's default


def test_an_illegal_action_ends_the_match_for_the_wrapped_env() -> None:
    env = briscola_v0(players=2)
    env.reset(seed=7)
    agent = env.agent_selection
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1.0
    assert [r for a, r in env.rewards.items() if a != agent] == [0.0]


def test_the_raw_env_refuses_illegal_actions_and_masked_talk() -> None:
    env = raw_env(game_name="envite", players=4)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    state = env.match_state
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    signal = env.game.string_to_action("signal mala")
    assert signal in state.legal_actions(state.to_act)  # legal in the game...
    with pytest.raises(IllegalActionError, match="talk"):
        env.step(signal)  # ...but masked out without talk=True
    assert env.match_state is state  # nothing moved
    chatty = raw_env(game_name="envite", players=4, talk=True)
    chatty.reset(seed=3)
    assert chatty.observe(chatty.agent_selection)["action_mask"][signal] == 1
    chatty.step(signal)
    assert chatty.match_state.to_act == state.to_act


def test_render_ansi_shows_the_acting_seat() -> None:
    env = raw_env(game_name="trionfetti", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str)
    seat = env.agent_name_mapping[env.agent_selection]
    assert f"seat {seat}'s view" in text and "Legal:" in text
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(game_name="briscola", render_mode="rgb_array")


# Every configuration, plus Briscola's options that add or move encoder blocks.
OBSERVE_CASES = [(name, players, {}) for name, players in CONFIGS] + [
    ("briscola", 2, {"open_variant": "scoperta"}),
    ("briscola", 2, {"trump_two_exchange": True}),
    ("briscola", 3, {"three_player_tie_mode": "drop_out"}),
    ("briscola", 4, {"signals_enabled": True, "talk": True}),
]


@pytest.mark.parametrize(
    ("name", "players", "options"),
    OBSERVE_CASES,
    ids=[f"{n}-{p}" + "".join(f"-{k}" for k in o) for n, p, o in OBSERVE_CASES],
)
def test_every_observation_is_the_encoders_reading_of_the_seats_view(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """The env reads masks through a string table and reuses work between the positions
    of a match (Encoder.encode_seat's memo); both must give exactly the documented
    encoder's vector and mask of ``state.observation(seat)``, for the agent to act and
    for every other agent, over whole matches and from one match to the next."""
    env = raw_env(name, players=players, **{**SHORT[name], **options})
    rng = random.Random(9)
    compared = 0
    for match in range(2):
        env.reset(seed=40 + match)
        for agent in env.agent_iter(max_iter=3000):
            obs, _, term, trunc, _ = env.last()
            state = env.match_state
            for other in env.agents:
                seat = env.agent_name_mapping[other]
                seen = obs if other == agent else env.observe(other)
                view = state.observation(seat)
                assert np.array_equal(seen["observation"], env.encoder.encode(view))
                expected = env.encoder.action_mask(view)
                if seat != state.to_act:
                    expected[:] = 0  # only the seat to act has moves in an AEC env
                assert np.array_equal(seen["action_mask"], expected)
                compared += 1
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert state.match_over
    assert compared > 40
