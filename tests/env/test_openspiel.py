"""mazo's games registered with OpenSpiel (``mazo.env.openspiel``).

OpenSpiel's own checks (``pyspiel.random_sim_test``) run on every game, whole matches and
first deals; resampling keeps the information state; the Python IS-MCTS bot of
OpenSpiel plays a whole Briscola match through ``resample_from_infostate``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("mazo.env.openspiel")

import mazo  # noqa: E402
from mazo.env.encoding import Encoder  # noqa: E402

CONFIGS = [
    ("briscola", 2),
    ("briscola", 3),
    ("escoba", 2),
    ("escoba", 4),
    ("envite", 4),
    ("envite", 8),
    ("trionfetti", 4),
]


def _play(state: Any, rng: np.random.Generator, moves: int) -> Any:
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(int(rng.integers(0, 1000)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_the_four_games_are_registered() -> None:
    names = set(pyspiel.registered_names())
    for game in mazo.list_games():
        assert f"python_mazo_{game}" in names
    game = pyspiel.load_game("python_mazo_briscola(players=2,match_wins_target=2)")
    assert game.num_players() == 2
    assert game.num_distinct_actions() == 50
    assert game.max_chance_outcomes() == 1 << 16
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.get_parameters()["match_wins_target"] == 2
    escoba = openspiel.load("escoba", players=3, target_score=15)
    assert escoba.num_distinct_actions() == mazo.load_game("escoba").info.num_actions
    # Defaults are mazo's: Briscola is a 4-player game unless told otherwise.
    assert pyspiel.load_game("python_mazo_briscola").num_players() == 4


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_random_sim_whole_match(game: str, players: int) -> None:
    pyspiel.random_sim_test(
        openspiel.load(game, players=players), num_sims=1, serialize=False, verbose=False
    )


@pytest.mark.parametrize(("game", "players"), [("briscola", 4), ("escoba", 3), ("envite", 6)])
def test_random_sim_first_deal_with_serialization(game: str, players: int) -> None:
    loaded = openspiel.load(game, players=players, deal_only=True)
    pyspiel.random_sim_test(loaded, num_sims=3, serialize=True, verbose=False)


def test_chance_outcome_k_is_the_match_of_seed_k() -> None:
    game = openspiel.load("briscola", players=2, seeds=100)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 100 and outcomes[7] == (7, 0.01)
    state.apply_action(7)
    assert state.inner == mazo.load_game("briscola", players=2).new_match(seed=7)
    assert state.history() == [7]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 7) == "seed 7"


def test_strings_and_tensors_come_from_the_observation() -> None:
    game = openspiel.load("envite", players=4)
    state = _play(game.new_initial_state(), np.random.default_rng(1), 6)
    rules = mazo.load_game("envite", players=4)
    encoder = Encoder(rules)
    for seat in range(4):
        obs = state.inner.observation(seat)
        assert json.loads(state.information_state_string(seat)) == obs
        assert state.observation_string(seat) == state.information_state_string(seat)
        tensor = np.asarray(state.information_state_tensor(seat), np.float32)
        assert np.array_equal(tensor, encoder.encode(obs))
        assert np.array_equal(np.asarray(state.observation_tensor(seat), np.float32), tensor)
    assert game.information_state_tensor_size() == encoder.size


def test_talk_and_out_of_turn_calls_are_left_out() -> None:
    for game, players in (("envite", 4), ("trionfetti", 4), ("briscola", 4)):
        options = {"signals_enabled": True} if game == "briscola" else {}
        loaded = openspiel.load(game, players=players, **options)
        talk = mazo.load_game(game, players=players, **options).info.message_actions
        assert talk  # these configurations have partner talk
        rng = np.random.default_rng(2)
        state = _play(loaded.new_initial_state(), rng, 1)
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            assert legal and not set(legal) & talk
            assert legal == [a for a in state.inner.legal_actions(seat) if a not in talk]
            for other in range(players):
                if other != seat:
                    assert state.legal_actions(other) == []
            state.apply_action(int(rng.choice(legal)))


def test_returns_are_zero_sum_and_shared_by_partners() -> None:
    rng = np.random.default_rng(3)
    for game, players in (("briscola", 3), ("escoba", 4), ("envite", 4), ("trionfetti", 4)):
        loaded = openspiel.load(game, players=players)
        state = _play(loaded.new_initial_state(), rng, 10_000)
        assert state.is_terminal() and state.inner.match_over
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9
        winner = state.inner.winner
        side_of = state.inner.game.info.side_of
        for seat, value in enumerate(returns):
            if winner is None:
                assert value == 0.0
            elif side_of[seat] == winner:
                assert value == 1.0
            else:
                assert value == pytest.approx(-1 / (state.inner.game.info.sides - 1))


def test_deal_only_and_max_length() -> None:
    rng = np.random.default_rng(4)
    deal = openspiel.load("briscola", players=2, deal_only=True)
    state = _play(deal.new_initial_state(), rng, 10_000)
    assert state.is_terminal() and state.inner.hand_over
    assert len(state.history()) == 1 + 40  # the seed, then every card of the deal
    points = [e for e in state.inner.events if e["type"] == "hand_end"][-1]["points"]
    if points[0] == points[1]:
        assert state.returns() == [0.0, 0.0]
    else:
        best = points.index(max(points))
        assert state.returns()[best] == 1.0 and state.returns()[1 - best] == -1.0
    cut = openspiel.load("escoba", players=2, max_length=5)
    assert cut.max_game_length() == 5
    state = _play(cut.new_initial_state(), rng, 100)
    assert state.is_terminal() and not state.inner.hand_over
    assert len(state.history()) == 6 and state.returns() == [0.0, 0.0]


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_resampling_keeps_the_information_state(game: str, players: int) -> None:
    loaded = openspiel.load(game, players=players)
    rng = np.random.default_rng(5)
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)
    state = _play(loaded.new_initial_state(), rng, 1)
    changed = 0
    for _ in range(60):
        if state.is_terminal():
            break
        seat = state.current_player()
        for player in (seat, (seat + 1) % players):
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.current_player() == seat
            if player == seat:
                assert world.legal_actions() == state.legal_actions()
            other = (player + 1) % players
            changed += world.inner.observation(other) != state.inner.observation(other)
        state = _play(state, rng, 3)
    assert changed > 0  # the hidden cards were redrawn


def test_resampling_is_reproducible_from_a_seeded_sampler() -> None:
    state = _play(
        openspiel.load("briscola", players=2).new_initial_state(), np.random.default_rng(6), 5
    )
    worlds = [
        state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(3, 0.0, 1.0))
        for _ in range(2)
    ]
    assert worlds[0].inner == worlds[1].inner


def test_python_ismcts_plays_a_whole_briscola_match() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = openspiel.load("briscola", players=2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=evaluator,
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(2),
    )
    rng = np.random.default_rng(7)
    state = game.new_initial_state()
    state.apply_action(42)
    searched = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.current_player() == 0:
            action = int(bot.step(state))
            searched += 1
        else:
            action = int(rng.choice(legal))
        assert action in legal
        state.apply_action(action)
    assert state.inner.match_over and searched >= 60  # three deals at least
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_bad_parameters_say_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="2, 3, 4, 6 players, not 5"):
        openspiel.load("briscola", players=5)
    with pytest.raises(ValueError, match="first_dealer is a seat or -1"):
        openspiel.load("escoba", first_dealer=-4)
    with pytest.raises(ValueError, match="option target_score=0 is not allowed"):
        openspiel.load("escoba", target_score=0)
