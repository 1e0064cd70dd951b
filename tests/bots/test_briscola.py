"""The Briscola bots: legal choices from observations only, reproducibility, and sensible
play (the heuristic's rules of thumb), endgames and strength.

Positions are built with ``game.new_match(deck=..., dealer=...)`` and the §5 deal formulas
(:func:`models.briscola.build_deck`); the expected moves are the rules of thumb of the
heuristic's docstring, and the endgame check compares its choice with a brute-force search
run on engine states (not on the bot's own model).  The generic registry checks are in
``test_registry.py``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from models.briscola import build_deck

import mazo
from mazo.bots import make_bot
from mazo.core.rng import Rng, derive_seed
from mazo.sim import run


def observations(players: int, matches: int, seed: int, **options: Any) -> list[dict[str, Any]]:
    """Observations of the seat to act along random matches (mazo's random bot)."""
    game = mazo.load_game("briscola", players=players, **options)
    out = []
    for m in range(matches):
        bots = [make_bot("random", game, seed=derive_seed(seed, m, s)) for s in range(players)]
        state: Any = game.new_match(seed=derive_seed(seed, "match", m))
        while not state.match_over:
            seat = state.to_act
            obs = state.observation(seat)
            out.append(obs)
            state = state.apply(bots[seat].choose(obs), seat=seat)
    return out


CONFIGS = [
    (2, {}),
    (2, {"open_variant": "scoperta", "trump_two_exchange": True}),
    (3, {"three_player_tie_mode": "drop_out"}),
    (4, {"signals_enabled": True, "trump_two_exchange": True}),
    (4, {"partners_show_hands_before_first_trick": True}),
    (6, {"signals_enabled": True, "signals_truthful": False}),
]


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_bots_choose_only_legal_actions(players: int, options: dict[str, Any]) -> None:
    game = mazo.load_game("briscola", players=players, **options)
    bots = [
        make_bot("random", game, seed=1),
        make_bot("random", game, seed=2, signals=False),
        make_bot("heuristic", game, seed=3),
        make_bot("heuristic", game, seed=4, signals=True),
    ]
    seen = 0
    for obs in observations(players, 3, seed=players, **options):
        # A bot sees plain JSON, nothing more: round-trip it to prove it.
        plain = json.loads(json.dumps(obs))
        legal = {game.string_to_action(a) for a in obs["legal_actions"]}
        for bot in bots:
            assert bot.choose(plain) in legal
        # The heuristic plays cards (or the exchange call), never signals by default.
        assert bots[2].choose(plain) < 40 or obs["phase"] == "exchange"
        seen += 1
    assert seen > 100


def test_same_seed_same_choices() -> None:
    game = mazo.load_game("briscola", players=4, signals_enabled=True)
    obs = observations(4, 2, seed=11, signals_enabled=True)
    for name in ("random", "heuristic"):
        a, b = make_bot(name, game, seed=5), make_bot(name, game, seed=5)
        assert [a.choose(o) for o in obs] == [b.choose(o) for o in obs]
    r1, r2 = make_bot("random", game, seed=5), make_bot("random", game, seed=6)
    assert [r1.choose(o) for o in obs] != [r2.choose(o) for o in obs]


def test_no_legal_action_is_an_error() -> None:
    game = mazo.load_game("briscola", players=2)
    state: Any = game.new_match(seed=1)
    other = 1 - state.to_act
    with pytest.raises(mazo.RulesError, match="no legal action"):
        make_bot("heuristic", game, seed=1).choose(state.observation(other))


# -- sensible play in built positions ------------------------------------------------


def heuristic_card(state: mazo.State, seed: int = 0) -> str:
    seat = state.to_act
    bot = make_bot("heuristic", state.game, seed=seed)
    return state.action_to_string(bot.choose(state.observation(seat)))


def four_player(hands: dict[int, Sequence[str]], plays: Sequence[str]) -> mazo.State:
    """Dealer 3, so seat 0 leads; trump is oros (indicator 7O)."""
    game = mazo.load_game("briscola", players=4)
    state = game.new_match(deck=build_deck(4, 3, hands, "7O"), dealer=3)
    for card in plays:
        state = state.apply(card)
    return state


def test_last_player_keeps_points_out_of_a_lost_trick() -> None:
    # Seat 0 leads the ace of copas, partner 1 discards, seat 2 trumps with the 1O: lost.
    state = four_player(
        {
            0: ["1C", "2B", "2E"],
            1: ["4E", "5B", "6B"],
            2: ["1O", "2C", "4C"],
            3: ["1E", "KB", "5E"],
        },
        ["1C", "4E", "1O"],
    )
    assert state.to_act == 3
    for seed in range(5):
        assert heuristic_card(state, seed) == "5E"


def test_third_player_keeps_points_out_of_a_trick_nobody_can_take_back() -> None:
    # Seat 1 trumps with the ace of oros; seat 2 (partner of 0) cannot take it back.
    state = four_player(
        {0: ["KC", "2B", "2E"], 1: ["1O", "5B", "6B"], 2: ["1E", "3E", "6E"]},
        ["KC", "1O"],
    )
    assert state.to_act == 2
    assert heuristic_card(state) == "6E"


def test_partner_holding_the_trick_safely_gets_points() -> None:
    # Partner (seat 1) wins with the trump ace; seat 3 plays last: caricare.
    state = four_player(
        {
            0: ["4C", "2B", "2E"],
            1: ["1O", "5B", "6B"],
            2: ["5C", "2C", "4B"],
            3: ["1E", "4E", "6E"],
        },
        ["4C", "1O", "5C"],
    )
    assert heuristic_card(state) == "1E"


def test_takes_a_carico_with_a_low_trump_rather_than_give_points() -> None:
    game = mazo.load_game("briscola", players=2)
    # Dealer 1: seat 0 leads the 3 of copas; seat 1 holds no copas above it.
    deck = build_deck(2, 1, {0: ["3C", "4B", "5B"], 1: ["1E", "KB", "2O"]}, "7O")
    state = game.new_match(deck=deck, dealer=1).apply("3C")
    assert heuristic_card(state) == "2O"


def test_wins_cheaply_in_suit_rather_than_with_a_trump() -> None:
    game = mazo.load_game("briscola", players=2)
    deck = build_deck(2, 1, {0: ["KC", "4B", "5B"], 1: ["1C", "2O", "6E"]}, "7O")
    state = game.new_match(deck=deck, dealer=1).apply("KC")
    assert heuristic_card(state) == "1C"


def test_does_not_trump_a_pointless_trick() -> None:
    game = mazo.load_game("briscola", players=2)
    deck = build_deck(2, 1, {0: ["4C", "4B", "5B"], 1: ["3O", "6E", "2C"]}, "7O")
    state = game.new_match(deck=deck, dealer=1).apply("4C")
    assert heuristic_card(state) in ("6E", "2C")  # 2C cannot win either; both lose nothing


def test_leads_a_liscio() -> None:
    game = mazo.load_game("briscola", players=2)
    deck = build_deck(2, 1, {0: ["1E", "KB", "4C"], 1: ["5C", "6C", "7C"]}, "7O")
    state = game.new_match(deck=deck, dealer=1)
    assert state.to_act == 0
    assert heuristic_card(state) == "4C"


def test_leader_keeps_trumps() -> None:
    game = mazo.load_game("briscola", players=2)
    deck = build_deck(2, 1, {0: ["1O", "3O", "QB"], 1: ["5C", "6C", "7C"]}, "7O")
    state = game.new_match(deck=deck, dealer=1)
    assert heuristic_card(state) == "QB"


def test_takes_the_trump_two_exchange() -> None:
    game = mazo.load_game("briscola", players=2, trump_two_exchange=True)
    deck = build_deck(2, 1, {0: ["2O", "KB", "4C"]}, "KO")
    state = game.new_match(deck=deck, dealer=1)
    obs = state.observation(0)
    assert obs["phase"] == "exchange"
    choice = make_bot("heuristic", game, seed=0).choose(obs)
    assert game.action_to_string(choice) == "exchange"


def _deal_value(state: Any, me: int) -> int:
    """Brute force on engine states: my side's points minus the other's at the deal's end."""
    if state.hand_over or state.match_over:
        end = [e for e in state.events if e["type"] == "hand_end"][-1]
        pts = end["points"]
        return int(pts[me] - pts[1 - me])
    values = [_deal_value(state.apply(a), me) for a in state.legal_actions() if a < 40]
    return max(values) if state.to_act == me else min(values)


def test_two_player_endgame_is_played_exactly() -> None:
    game = mazo.load_game("briscola", players=2)
    rng = Rng(2024)
    checked = 0
    for m in range(12):
        state: Any = game.new_match(seed=derive_seed(3, m))
        # Random play up to an empty stock with cards still to play.
        while not (state.observation(0)["stock_size"] == 0 and len(state.hand(state.to_act)) >= 2):
            state = state.apply(rng.choice(state.legal_actions()))
        me = state.to_act
        best = max(_deal_value(state.apply(a), me) for a in state.legal_actions())
        chosen = make_bot("heuristic", game, seed=m).choose(state.observation(me))
        assert _deal_value(state.apply(chosen), me) == best
        checked += 1
    assert checked == 12


# -- strength ---------------------------------------------------------------------


def test_heuristic_beats_random_two_players() -> None:
    # Measured: 199/200 with this seed, 84.7 card points a deal (399/400 with 400 games).
    result = run("briscola", ["heuristic", "random"], games=200, players=2, seed=2024)
    h = result.stats["heuristic"]
    assert h.entries == 200
    assert h.win_rate > 0.9
    assert h.win_ci95[0] > 0.85
    assert h.mean_deal_points > 75


def test_heuristic_beats_random_four_players() -> None:
    # Measured: 100/100 with this seed, 81.4 card points a deal (98.5% over 400 games).
    result = run("briscola", ["heuristic", "random"], games=100, players=4, seed=2024)
    h = result.stats["heuristic"]
    assert h.win_rate > 0.85
    assert h.mean_deal_points > 70


def test_heuristic_out_of_turn_never_signals_by_default() -> None:
    game = mazo.load_game("briscola", players=4, signals_enabled=True, signals_from_trick=1)
    state: Any = game.new_match(seed=3)
    other = (state.to_act + 1) % 4
    obs = state.observation(other)
    assert obs["legal_actions"] and all(a.startswith("signal") for a in obs["legal_actions"])
    with pytest.raises(mazo.RulesError, match="only signal"):
        make_bot("heuristic", game, seed=1).choose(obs)
    talker = make_bot("heuristic", game, seed=1, signals=True)
    said = game.action_to_string(talker.choose(obs))
    assert said in obs["legal_actions"]
    # One signal per trick: once it has spoken, it has nothing more to say out of turn.
    state = state.apply(said, seat=other)
    with pytest.raises(mazo.RulesError, match="only signal"):
        talker.choose(state.observation(other))
