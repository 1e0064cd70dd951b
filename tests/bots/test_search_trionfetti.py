"""Trionfetti in search (issue 18): the per-observation sampler deals the same states as
``determinize`` (read once, sampled with ints), and samples of one observation share
nothing that changes.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import mazo
from mazo.bots.heuristic import trionfetti as T
from mazo.core.errors import RulesError
from mazo.core.rng import Rng, derive_seed

CONFIGS: list[dict[str, Any]] = [
    {},
    {"partner_sharing": "opt_in"},
    {"dealer_peek_deal4": "opt_in", "bottom_card_shown": "on_request"},
    {"history_visible": False, "messages": False},
    {"initial_ranking": "bomba", "points_to_win_game": 5, "games_to_win_match": 1},
]


def _positions(options: dict[str, Any], seed: int, steps: int) -> list[Any]:
    """States along a match of normal bots (random ones every other match), every step."""
    game = mazo.load_game("trionfetti", players=4, **options)
    level = "normal" if seed % 2 else "random"
    bots = [mazo.make_bot(level, game, seed=derive_seed(seed, s)) for s in range(4)]
    state = game.new_match(seed=seed)
    out = [state]
    while not state.match_over and len(out) < steps:
        seat = state.to_act
        state = state.apply(bots[seat].choose(state.observation(seat)), seat=seat)
        out.append(state)
    return out


def _everything(state: Any) -> str:
    """Every seat's view and the spectators', the log and the facts (for equality)."""
    views = {str(s): state.observation(s) for s in (0, 1, 2, 3, None)}
    facts = [state._key(), state._d.seed, repr(state), state.legal_actions()]
    return json.dumps([views, state.events, repr(facts)], sort_keys=True, default=str)


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(o) or "default")
def test_sampler_deals_what_determinize_deals(options: dict[str, Any]) -> None:
    game = mazo.load_game("trionfetti", players=4, **options)
    pick = random.Random(7)
    for seed in (1, 2):
        states = _positions(options, seed, 260)
        for state in pick.sample(states, min(len(states), 20)):
            for seat in (*range(4), None):
                obs = state.observation(seat)
                sample = game.sampler(obs)
                for k in (0, 1):
                    rng = Rng(derive_seed(seed, k))
                    want = game.determinize(obs, Rng(derive_seed(seed, k)))
                    got = sample(rng)
                    assert _everything(got) == _everything(want)
                    assert got.observation(seat) == want.observation(seat)


def test_samples_are_uniform_over_the_unseen_cards() -> None:
    """Seat 0's view before the first card: every unseen card goes to each other seat's
    hand about equally often (3 of 39 unseen cards a seat)."""
    game = mazo.load_game("trionfetti", players=4)
    state = game.new_match(seed=5)
    while state.phase != "play":
        state = state.apply("keep", seat=state.to_act)
    obs = state.observation(0)
    sample = game.sampler(obs)
    counts: dict[tuple[int, str], int] = {}
    n = 3000
    rng = Rng(11)
    for _ in range(n):
        s = sample(rng)
        assert s.hand(0) == obs["hand"]
        for seat in (1, 2, 3):
            for card in s.hand(seat):
                counts[seat, card] = counts.get((seat, card), 0) + 1
    unseen = {card for (_, card) in counts}
    assert len(unseen) == 52 - 3 - 1  # the hand and the bottom card are known
    expected = n * 3 / len(unseen)
    for seat in (1, 2, 3):
        for card in unseen:
            assert abs(counts.get((seat, card), 0) - expected) < 6 * expected**0.5


def test_samples_share_nothing_that_changes() -> None:
    game = mazo.load_game("trionfetti", players=4)
    state = _positions({}, 3, 40)[-1]
    obs = state.observation(state.to_act)
    sample = game.sampler(obs)
    first = sample(Rng(1))
    text = _everything(first)
    for k in range(2, 6):
        later = sample(Rng(k))
        later.apply(later.legal_actions()[0], seat=later.to_act)
    assert _everything(first) == text


def test_the_sampler_refuses_what_determinize_refuses() -> None:
    game = mazo.load_game("trionfetti", players=4)
    briscola = mazo.load_game("briscola", players=2)
    with pytest.raises(RulesError):
        game.sampler(briscola.new_match(seed=1).observation(0))
    state = game.new_match(seed=1).apply("keep")
    obs = state.observation(0)
    assert game.sampler(obs)(Rng(1)).hand(0) == obs["hand"]
    with pytest.raises(RulesError):
        game.sampler({**obs, "hand_sizes": [40, 40, 40, 40]})


# -- search_reward and the preset ---------------------------------------------------------


def _pack(hands: list[str]) -> list[str]:
    """A pack whose first deal gives seat 0 ``hands[0]``... (dealer 3: seat 0 first);
    the rest of the pack in card order, the bottom card last."""
    game = mazo.load_game("trionfetti", players=4)
    given = [c for hand in hands for c in hand.split()]
    rest = [c for c in game.info.deck.codes(game.info.deck.full_mask) if c not in given]
    return given + rest


def _deal(moves: list[str], hands: list[str], **setup: Any) -> tuple[Any, Any]:
    """The first deal from ``_pack(hands)``: the start of its play and its end, in a line
    stopped at the deal's end (as a search's samples are)."""
    game = mazo.load_game("trionfetti", players=4)
    state: Any = game.new_match(deck=_pack(hands), dealer=3, setup=setup or None)
    state = state.apply("keep").stop_at_deal_end()
    start = state
    for move in moves:
        state = state.apply(move)
    assert state.hand_over and state.to_act is None
    return start, state


HANDS = ["KO KC KE", "1O 1C 1E", "2O 2C 2E", "3O 3C 3E"]


@pytest.mark.parametrize(
    ("moves", "margin", "expected"),
    [
        # team 0 takes two tricks with its kings: one point, edge 1
        (["KO", "1O", "2O", "3O", "KC", "1C", "2C", "3C"], 0.5, 0.5 + 0.5 * (0.5 + 1 / 40)),
        (["KO", "1O", "2O", "3O", "KC", "1C", "2C", "3C"], 1.0, 0.5 + 1 / 40),
        (["KO", "1O", "2O", "3O", "KC", "1C", "2C", "3C"], 0.0, 1.0),
        # a vega at 0-0 (worth 20) accepted and won: the whole game, edge 20
        (["vega", "accept", "KO", "1O", "2O", "3O", "KC", "1C", "2C", "3C"], 0.5, 1.0),
        (["vega", "accept", "KO", "1O", "2O", "3O", "KC", "1C", "2C", "3C"], 0.2, 1.0),
        # refused: the callers take one point
        (["vega", "refuse"], 0.5, 0.5 + 0.5 * (0.5 + 1 / 40)),
    ],
)
def test_search_reward_numbers(moves: list[str], margin: float, expected: float) -> None:
    game = mazo.load_game("trionfetti", players=4)
    start, end = _deal(moves, HANDS)
    reward = T.search_reward(game, margin)
    got = reward(start.scores, start.games, end)
    assert got == pytest.approx([expected, 1.0 - expected])


def test_search_reward_counts_a_lost_vega_by_its_stake_and_the_score_before() -> None:
    """Scores 12-15: a vega is worth 20 - 15 = 5.  Seat 1 (aces) calls it after seat 0's
    king, team 0 accepts and takes two tricks with its kings: 12 + 5 = 17, edge 5."""
    game = mazo.load_game("trionfetti", players=4)
    start, end = _deal(
        ["KO", "vega", "accept", "1O", "2O", "3O", "KC", "1C", "2C", "3C"],
        HANDS,
        scores=[12, 15],
    )
    assert start.scores == [12, 15] and end.scores == [17, 15]
    got = T.search_reward(game, 0.5)(start.scores, start.games, end)
    assert got == pytest.approx([0.5 + 0.5 * (0.5 + 5 / 40), 0.5 * (0.5 - 5 / 40)])


def test_the_preset_search_plays_legal_moves_through_deals() -> None:
    game = mazo.load_game("trionfetti", players=4)
    bots = [mazo.make_bot("expert", game, seed=s, iterations=12) for s in range(4)]
    for seed in (3, 4):
        state: Any = game.new_match(seed=seed).stop_at_deal_end()
        searched = 0
        while not state.hand_over:
            seat = state.to_act
            action = bots[seat].choose(state.observation(seat))
            assert action in state.legal_actions()
            searched += bots[seat].last_iterations > 0  # type: ignore[attr-defined]
            state = state.apply(action, seat=seat)
        assert searched > 0


def test_paired_worlds_are_common_to_every_card() -> None:
    """Each world is played out after every card in hand (the seat's own cards are in
    every sample); with ``bets=heuristic`` the vega is not among the searched moves."""
    game = mazo.load_game("trionfetti", players=4)
    state: Any = game.new_match(seed=5).apply("keep")
    seat = state.to_act
    bot: Any = mazo.make_bot("hard", game, seed=2, iterations=30, paired=True, guide=0.0)
    bot.choose(state.observation(seat))
    cards = [a for a in state.legal_actions() if a < 52]
    assert len(cards) == 3
    assert sorted(bot.last_paired) == cards
    assert bot.last_worlds == [0b111] * 10
    assert {len(r) for r in bot.last_paired.values()} == {10}
    assert bot.last_iterations == 30
