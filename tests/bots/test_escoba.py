"""The heuristic Escoba bot: legal choices from observations, reproducibility, the rules of
thumb of its docstring in built positions, and a clear win over the random bot.

Positions are built with
``EscobaGame(...).new_match(deck=..., dealer=...)`` and the deal formula of
``rules/escoba.md`` §5.1: card ``k < 3n`` goes to seat ``(dealer + 1 + k) mod n``, then
four cards to the table.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest
from models.escoba import escoba_deck

import mazo
import mazo.games
from mazo.bots import make_bot
from mazo.bots.heuristic.escoba import EscobaHeuristic, card_value
from mazo.core.rng import Rng, derive_seed
from mazo.games.escoba import EscobaGame
from mazo.sim import run


def position(
    players: int, hands: dict[int, Sequence[str]], table: Sequence[str], **options: Any
) -> tuple[Any, Any]:
    """(game, state) with the last seat dealing, so seat 0 plays first."""
    game = EscobaGame(players, **options)
    dealer = players - 1
    state = game.new_match(deck=escoba_deck(players, dealer, hands, table), dealer=dealer)
    assert state.to_act == 0
    assert state.table() == list(table)
    assert sorted(state.hand(0)) == sorted(hands[0])
    return game, state


def choice(game: Any, state: Any, seed: int = 1) -> str:
    bot = make_bot("heuristic", game, seed=seed)
    action = bot.choose(state.observation(state.to_act))
    assert action in state.legal_actions()
    return str(game.action_to_string(action))


# -- legality and reproducibility ----------------------------------------------------------


CONFIGS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (4, {"four_player_mode": "individual"}),
    (2, {"prime_method": "primiera_points", "deal_packet_size": 3}),
    (3, {"prime_method": "sevens_only", "initial_escoba_to": "eldest"}),
    (4, {"prime_method": "pagat_best_prime", "bonus_all_oros": True}),
]


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_only_legal_actions_along_random_matches(players: int, options: dict[str, Any]) -> None:
    """At every decision of a few matches the bot picks a legal action, never touching
    the observation; the moves played alternate between it and the random bot so the
    positions are varied."""
    game = mazo.load_game("escoba", players=players, target_score=6, **options)
    rng = Rng(derive_seed(11, players, len(options)))
    asked = 0
    for m in range(3):
        bots = [make_bot("heuristic", game, seed=derive_seed(5, m, s)) for s in range(players)]
        state = game.new_match(seed=derive_seed(17, players, m, len(options)))
        while not state.match_over:
            seat = state.to_act
            obs = state.observation(seat)
            before = copy.deepcopy(obs)
            action = bots[seat].choose(obs)
            assert obs == before
            legal = state.legal_actions()
            assert action in legal
            asked += 1
            if rng.randbelow(2):
                action = rng.choice(legal)
            state = state.apply(action, seat=seat)
    assert asked > 50


def test_same_seed_same_choices() -> None:
    game = mazo.load_game("escoba", players=3)
    observations = []
    state = game.new_match(seed=3)
    rng = Rng(4)
    while not state.match_over and len(observations) < 300:
        observations.append(state.observation(state.to_act))
        state = state.apply(rng.choice(state.legal_actions()))
    first = make_bot("heuristic", game, seed=9)
    again = make_bot("heuristic", game, seed=9)
    assert [first.choose(o) for o in observations] == [again.choose(o) for o in observations]
    # ...and a whole simulated match, bots seeded alike, is the same match.
    a = run("escoba", ["heuristic", "random"], games=2, players=2, seed=8)
    b = run("escoba", ["heuristic", "random"], games=2, players=2, seed=8)
    assert a.to_json() == b.to_json()


def test_registered_as_the_heuristic_and_rejects_options() -> None:
    game = mazo.load_game("escoba")
    assert isinstance(make_bot("heuristic", game, seed=0), EscobaHeuristic)
    with pytest.raises(mazo.RulesError, match="has no option depth"):
        make_bot("heuristic", game, seed=0, depth=2)
    with pytest.raises(mazo.RulesError, match="this bot plays escoba, not briscola"):
        make_bot("heuristic", game, seed=0).choose(
            mazo.load_game("briscola").new_match(seed=1).observation(0)
        )


# -- rules of thumb in built positions ------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_takes_the_escoba_over_the_siete_de_velo(players: int) -> None:
    """4C sweeps 5C 3B 2O 1E (4+5+3+2+1 = 15).  7O could take 5C+3B instead, banking the
    velo, and KB takes 5C or 3B+2O; the sweep is still the best play."""
    game, state = position(players, {0: ["4C", "7O", "KB"]}, ["5C", "3B", "2O", "1E"])
    legal = [game.action_to_string(a) for a in state.legal_actions()]
    assert "7O+5C+3B" in legal and "KB+5C" in legal
    played = choice(game, state)
    assert played.split("+")[0] == "4C"
    assert set(played.split("+")[1:]) == {"5C", "3B", "2O", "1E"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_never_lays_the_siete_de_velo_when_it_can_lay_a_low_card(players: int) -> None:
    """Table K K Q Q (38): no card in 7O 1C 2E can capture, so one must be laid; nothing
    can be swept afterwards, so the only question is what is given away."""
    game, state = position(players, {0: ["7O", "1C", "2E"]}, ["KO", "KC", "QE", "QB"])
    assert sorted(game.action_to_string(a) for a in state.legal_actions()) == ["1C", "2E", "7O"]
    for seed in range(5):
        assert choice(game, state, seed) != "7O"


def test_lays_the_card_that_leaves_no_escoba() -> None:
    """After 6B+2O+3E+4C and a laid 1B, the table is KO 1B (11).  Laying 2C makes 13,
    which any unseen 2 sweeps; laying 6E makes 17, which nothing sweeps."""
    game, state = position(
        2, {0: ["6B", "2C", "6E"], 1: ["1B", "JO", "JC"]}, ["KO", "2O", "3E", "4C"]
    )
    state = state.apply("6B+2O+3E+4C").apply("1B")
    assert state.table() == ["KO", "1B"]
    assert sorted(game.action_to_string(a) for a in state.legal_actions()) == ["2C", "6E"]
    assert choice(game, state) == "6E"


def test_prefers_the_capture_that_leaves_no_escoba() -> None:
    """Table QO 4C 2E 1B.  6O+QO takes an oro six and an oro, but leaves 4C 2E 1B (7) for
    any unseen J to sweep; 2B+QO+4C takes less yet leaves 2E 1B (3), which no card can
    sweep.  The safe capture wins."""
    game, state = position(2, {0: ["6O", "2B", "7C"]}, ["QO", "4C", "2E", "1B"])
    legal = sorted(game.action_to_string(a) for a in state.legal_actions())
    assert legal == ["2B+QO+4C", "6O+QO", "7C"]
    bot = make_bot("heuristic", game, seed=1)
    assert isinstance(bot, EscobaHeuristic)
    scores = bot.scores(state.observation(0))
    assert scores["2B+QO+4C"] > scores["6O+QO"]
    assert choice(game, state) == "2B+QO+4C"


def test_card_values() -> None:
    assert [card_value(c) for c in ("1O", "7E", "JB", "QC", "KO")] == [1, 7, 8, 9, 10]


# -- strength -------------------------------------------------------------------------------

# Measured before writing these thresholds (mazo.sim.run, seed 2024, 300 matches each, seat
# rotation): 2 players 300/300 matches won against random; 3 players 292/300 as one
# heuristic against two randoms; 4 players in partnership 300/300, individual 281/300.
# The fixed-seed runs below are shorter; their thresholds sit well under those rates.


def test_beats_random_two_players() -> None:
    result = run("escoba", ["heuristic", "random"], games=40, players=2, seed=2024)
    stats = result.stats["heuristic"]
    assert stats.entries == 40
    assert stats.wins >= 36  # measured: 40 of 40 with this seed


def test_beats_random_three_and_four_players() -> None:
    three = run("escoba", ["heuristic", "random", "random"], games=15, players=3, seed=2024)
    assert three.stats["heuristic"].wins >= 12  # measured: 15 of 15
    four = run("escoba", ["heuristic", "random"], games=10, players=4, seed=2024)
    assert four.stats["heuristic"].wins >= 9  # partnerships; measured: 10 of 10


# The server's search bots run in fresh worker processes. There, a hard bot handed this
# opening (seed 2: an empty table, so no capture at the root) determinized it before
# anything had built Escoba's capture table, and its first capture in the search raised
# IndexError in _compute_legal (issue 17: "escoba.py:507 in server runs").
FRESH_PROCESS = """
import json, sys
from mazo.games import load_game
from mazo.core.rng import Rng
from mazo.server.bots import choose_action
obs = json.loads(sys.stdin.read())
game = load_game("escoba", 2)
state = game.determinize(obs, Rng(1))
# play on (first legal moves) until someone can capture: its legal actions hold captures
while not any(a >= 40 for a in state.legal_actions()) and not state.match_over:
    state = state.apply(state.legal_actions()[0])
print(choose_action("escoba", 2, "{}", "hard", 1, obs))
"""


def test_a_fresh_process_can_search_from_a_position_without_captures() -> None:
    import json
    import subprocess
    import sys

    state = EscobaGame(2).new_match(seed=2)
    obs = state.observation(state.to_act)
    assert obs["table"] == [] and obs["hand"] == ["QE", "6B", "QB"]
    done = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS],
        input=json.dumps(obs),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() in obs["legal_actions"]
