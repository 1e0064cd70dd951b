"""``GameInfo``: what upper layers read instead of a game's name (issue 19).

Every registered game, at every player count, declares the same facts, and they agree
with what the game does (sides, scores, action ids, replays).
"""

from __future__ import annotations

import pytest

import mazo
from mazo.bots.heuristic import have_heuristics, module_for
from mazo.env.encoding import encoded
from mazo.games import GAMES
from mazo.games.briscola import BriscolaGame

CONFIGS = [(name, n) for name in sorted(GAMES) for n in GAMES[name].player_counts]


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_info_is_complete_and_consistent(name: str, players: int) -> None:
    game = mazo.load_game(name, players=players)
    info = game.info
    assert info.name == name and info.players == players
    # team_seats: per side its seats, every seat once, partners by side_of
    assert len(info.team_seats) == info.sides
    assert sorted(s for seats in info.team_seats for s in seats) == list(range(players))
    for side, seats in enumerate(info.team_seats):
        assert all(info.side_of[s] == side for s in seats)
    assert info.teams == any(len(seats) > 1 for seats in info.team_seats)
    assert info.score_unit in ("deals", "points", "stones")
    assert info.deal_unit
    assert info.score_target >= 1
    assert (info.games_unit == "") == (info.games_target == 0)
    assert 0 < info.card_actions <= info.num_actions
    assert all(info.card_actions <= a < info.num_actions for a in info.message_actions)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_scores_stop_at_the_target(name: str) -> None:
    # A random match: no side's score passes the target of its level (a game or chico
    # resets the scores), and games never pass theirs.
    game = mazo.load_game(name)
    info = game.info
    state = game.new_match(seed=5)
    talk = info.message_actions
    step = 0
    while not state.match_over:
        moves = [a for a in state.legal_actions() if a not in talk] or state.legal_actions()
        state = state.apply(moves[step % len(moves)])
        step += 1
        if info.games_unit:
            assert max(state.games) <= info.games_target
        else:
            assert not any(state.games)
    level = state.games if info.games_unit else state.scores
    target = info.games_target if info.games_unit else info.score_target
    assert max(level) >= target or state.winner is None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_cards_are_the_ids_below_card_actions(name: str) -> None:
    game = mazo.load_game(name)
    info = game.info
    state = game.new_match(seed=2)
    hand = state.observation(state.to_act)["hand"]
    ids = {game.string_to_action(code) for code in hand}
    assert all(a < info.card_actions for a in ids)


def test_replays_from_pack_means_a_sample_replays_its_deal() -> None:
    # What ISMCTS infer relies on: a sample's record holds one deal and replays from it.
    for name in sorted(GAMES):
        game = mazo.load_game(name)
        if not game.info.replays_from_pack:
            continue
        state = game.new_match(seed=3)
        sample = game.determinize(state.observation(state.to_act), mazo.core.rng.Rng(1))
        record = sample.record()
        assert len(record["deals"]) == 1
        again = game.new_match(
            seed=0, decks=[record["deals"][0]["deck"]], dealer=record["deals"][0]["dealer"]
        )
        assert again.observation(state.to_act) == sample.observation(state.to_act)


def test_every_game_has_its_file_in_each_generic_layer() -> None:
    # One file per layer, found by the registry's name: a new game adds them.
    assert have_heuristics() == sorted(GAMES)
    assert encoded() == sorted(GAMES)


def test_a_game_without_a_layer_file_is_told_so() -> None:
    class Tute(BriscolaGame):
        name = "tute"

    tute = Tute(2)
    assert module_for(tute) is None
    with pytest.raises(mazo.RulesError, match="no heuristic bot for tute"):
        mazo.make_bot("heuristic", tute, seed=1)
    from mazo.env.encoding import Encoder

    with pytest.raises(mazo.RulesError, match="no encoder"):
        Encoder(tute)
