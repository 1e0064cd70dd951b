"""legal_ids (mazo.bots.base): the ids of an observation's legal actions, parsed once
per configured game and remembered (issue 18: parsing was half of a Trionfetti
heuristic's decision)."""

from __future__ import annotations

import pytest

import mazo
from mazo.bots import make_bot
from mazo.bots.base import _ID_TABLES, legal_ids
from mazo.core.errors import MazoError, RulesError
from mazo.games import list_games


@pytest.mark.parametrize("name", list_games())
def test_remembered_ids_equal_parsed_ones(name: str) -> None:
    game = mazo.load_game(name)
    players = game.players
    for seed in range(6):
        state = game.new_match(seed=seed)
        bots = [make_bot("random", game, seed=seed * 10 + s) for s in range(players)]
        for _ in range(60):
            if state.match_over:
                break
            seat = state.to_act
            assert seat is not None
            obs = state.observation(seat)
            # Asked twice: parsed the first time, remembered the second.
            for _ in range(2):
                assert legal_ids(game, obs) == [
                    game.string_to_action(a) for a in obs["legal_actions"]
                ]
            assert legal_ids(game, obs) == state.legal_actions(seat)
            state = state.apply(bots[seat].choose(obs), seat=seat)


def test_a_bad_string_still_raises_and_is_not_remembered() -> None:
    game = mazo.load_game("briscola", players=2)
    obs = dict(game.new_match(seed=1).observation(0))
    obs["legal_actions"] = ["1O", "no such move"]
    for _ in range(2):
        with pytest.raises(MazoError):
            legal_ids(game, obs)
    table = _ID_TABLES[id(game)][1]
    assert "no such move" not in table


def test_each_configured_game_has_its_own_table() -> None:
    # Tables are per game object: a configuration never reads ids another one learned.
    one = mazo.load_game("briscola", players=2)
    two = mazo.load_game("briscola", players=4)
    obs = one.new_match(seed=2).observation(0)
    legal_ids(one, obs)
    assert _ID_TABLES[id(one)][0] is one
    assert id(two) not in _ID_TABLES or _ID_TABLES[id(two)][1] is not _ID_TABLES[id(one)][1]


def test_an_observation_without_legal_actions_is_refused() -> None:
    game = mazo.load_game("escoba", players=2)
    with pytest.raises(RulesError, match="legal_actions"):
        legal_ids(game, {"seat": 0})
