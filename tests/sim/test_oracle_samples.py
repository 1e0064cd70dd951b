"""bench/oracle_samples.py: the oracle's samples hold the opponent's true hand, and are
otherwise whole samples (every card once, the seat's own hand and the table kept)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import mazo
from mazo.bots import make_bot
from mazo.core.rng import Rng

from .bench_scripts import bench_script


def _script() -> ModuleType:
    return bench_script("oracle_samples")


def _positions(name: str, seeds: range) -> list[Any]:
    game = mazo.load_game(name, players=2)
    out = []
    for seed in seeds:
        bots = [make_bot("normal", game, seed=seed + s) for s in (0, 1)]
        state: Any = game.new_match(seed=seed).stop_at_deal_end()
        while not state.hand_over:
            out.append(state)
            seat = state.to_act
            state = state.apply(bots[seat].choose(state.observation(seat)), seat=seat)
    return out


def test_escoba_oracle_samples_hold_the_true_hand_and_every_card_once() -> None:
    oracle = _script()
    game = mazo.load_game("escoba", players=2)
    rng = Rng(5)
    swapped = 0
    for state in _positions("escoba", range(6)):
        me = state.to_act
        opp = 1 - me
        obs = state.observation(me)
        sample = game.sampler(obs)(rng)
        before = sorted(sample.hand(opp))
        fixed = oracle._escoba_swap(sample, state, opp)
        assert sorted(fixed.hand(opp)) == sorted(state.hand(opp))
        assert sorted(fixed.hand(me)) == sorted(state.hand(me))
        assert fixed.table() == state.table()
        cards = fixed.hand(0) + fixed.hand(1) + fixed.table() + fixed.stock()
        cards += fixed.captured(0) + fixed.captured(1)
        assert len(cards) == 40 and len(set(cards)) == 40
        assert sorted(fixed.stock()) == sorted(state.stock())  # the same cards, any order
        swapped += before != sorted(state.hand(opp))
        assert fixed.legal_actions()  # a sample the engine plays on
    assert swapped > 50  # most uniform samples had another hand


def test_briscola_oracle_lists_the_true_hand_as_known() -> None:
    oracle = _script()
    game = mazo.load_game("briscola", players=2)
    rng = Rng(6)
    for state in _positions("briscola", range(3)):
        me = state.to_act
        obs = oracle._briscola_oracle(state, me)(state.observation(me))
        sample: Any = game.sampler(obs)(rng)
        assert sorted(sample.observation(1 - me)["hand"]) == sorted(
            state.observation(1 - me)["hand"]
        )


def test_the_oracle_cheats_only_inside_its_stock_range() -> None:
    """``--oracle-stock LOW-HIGH``: the search's samples hold the opponent's true hand at
    decisions whose stock is in range, and are the bot's own samples elsewhere."""
    oracle = _script()
    game = mazo.load_game("briscola", players=2)
    truth_held = {True: 0, False: 0}
    for state in _positions("briscola", range(3)):
        me = state.to_act
        obs = state.observation(me)
        inside = 0 <= obs["stock_size"] <= 10
        bot = oracle.Oracle(make_bot("expert", game, seed=1, iterations=5), game, True, (0, 10))
        bot.state = state
        sampler = bot.bot._sampler(obs)
        true_hand = sorted(state.observation(1 - me)["hand"])
        hits = sum(
            sorted(sampler(Rng(k)).observation(1 - me)["hand"]) == true_hand for k in range(8)
        )
        if inside:
            assert hits == 8
        truth_held[inside] += hits == 8
    # Early in the deal (stock above 10) a uniform sample rarely deals the true hand.
    assert truth_held[True] > 10 and truth_held[False] < 5
