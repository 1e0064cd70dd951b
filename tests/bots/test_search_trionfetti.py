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

from .fast_rollout_checks import assert_same_search_with_and_without

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


# -- the whole rollout on ints (fast_rollout) ---------------------------------------------

FAST_CONFIGS: list[dict[str, Any]] = [
    {},
    {"history_visible": False, "messages": False},
    {"initial_ranking": "bomba", "points_to_win_game": 3, "games_to_win_match": 1},
    {"initial_ranking": "manco_e_cavalli", "points_to_win_game": 2},
]


def _mid_deal_lines(game: Any, matches: int, seed: int) -> list[Any]:
    """Search lines at random points of matches (deals 1-4 of a smazzata, a vega pending
    or accepted, late deals of a game, often the first trick of deal 4), played by
    heuristics with now and then a random card or vega, some marked ``stop_at_deal_end``
    and some not, and a sample of a seat's view (any seat's) at each."""
    out = []
    rng = random.Random(seed)
    for m in range(matches):
        bots = [T.TrionfettiHeuristic(game, derive_seed(seed, m, s)) for s in range(4)]
        # every third match starts at deal 4 (the four cards left shown in trick 1)
        setup = {"deal": 4} if m % 3 == 1 else None
        state: Any = game.new_match(seed=derive_seed(seed, "match", m), setup=setup)
        for _ in range(rng.randrange(10 if setup else 60)):
            if state.match_over:
                break
            seat = state.to_act
            moves = [a for a in state.legal_actions() if a <= T.REFUSE]
            random_move = rng.random() < 0.15
            state = state.apply(
                rng.choice(moves) if random_move else bots[seat].choose_state(state)
            )
        if state.match_over or state.hand_over or state._m & 3 == T.RANK:
            continue
        stop = m % 3 != 0
        out.append(state.stop_at_deal_end() if stop else state)
        # a sample of any seat's view: its log holds only the hands shown to that seat
        viewer = (state.to_act + m) % 4
        sample = game.sampler(state.observation(viewer))(Rng(derive_seed(seed, "s", m)))
        out.append(sample.stop_at_deal_end() if stop else sample)
    return out


def _move_by_move(state: Any, policies: list[Any]) -> Any:
    """The search's own loop (ISMCTS ``_heuristic_rollout`` without the hook)."""
    while not (state.hand_over or state.match_over):
        state = state.apply_unchecked(policies[state.to_act].choose_state(state))
    return state


@pytest.mark.parametrize("options", FAST_CONFIGS, ids=lambda o: ",".join(o) or "default")
def test_a_whole_rollout_on_ints_ends_where_the_moves_do(options: dict[str, Any]) -> None:
    """``fast_rollout`` (the ISMCTS hook) reaches the very state, log and scores that the
    policies' ``choose_state`` moves applied one by one reach, with the same tie draws
    (each seat's Rng left in the same place), from real states and from samples, early
    and late in a smazzata, with a vega called, pending or accepted, and lines that stop
    at the deal's end or deal on."""
    game = mazo.load_game("trionfetti", players=4, **options)
    lines = _mid_deal_lines(game, 90, seed=41 + len(options))
    assert len(lines) >= 60
    pending = vegas = left = 0
    for i, line in enumerate(lines):
        pending += line._m & 3 == T.VEGA_PENDING
        left += line._d.k == 4 and not line._x[T._X_LEFTOVER]
        slow_bots = [T.TrionfettiHeuristic(game, derive_seed(i, s)) for s in range(4)]
        fast_bots = [T.TrionfettiHeuristic(game, derive_seed(i, s)) for s in range(4)]
        run = T.fast_rollout(fast_bots)
        assert run is not None
        want = _move_by_move(line, slow_bots)
        got = run(line)
        assert got is not None, f"line {i} not covered: {line!r}"
        vegas += want._vega[0]
        assert got.hand_over and (got.to_act is None) == (want.to_act is None)
        assert got._m == want._m and got.to_act == want.to_act, f"line {i}"
        assert got._key() == want._key(), f"line {i}"
        assert got.events == want.events, f"line {i}: another log"
        assert got.scores == want.scores and got.games == want.games
        assert got.finished_deal_points() == want.finished_deal_points()
        assert [b.rng.getstate() for b in fast_bots] == [b.rng.getstate() for b in slow_bots]
        assert not line.hand_over  # the line itself is untouched
    assert pending > 0 and vegas > 10 and left > 10


def test_a_whole_rollout_on_ints_covers_only_plain_lines() -> None:
    """Signing policies (or others) get no shortcut; options under which the heuristic
    shows, peeks or asks for the bottom card, and states out of card play, are left to
    the search's move-by-move loop (None); the engine refuses a line out of card play."""
    game = mazo.load_game("trionfetti", players=4)
    assert T.fast_rollout([T.TrionfettiHeuristic(game, s, signals=True) for s in range(4)]) is None
    assert T.fast_rollout([mazo.make_bot("random", game, seed=s) for s in range(4)]) is None
    run = T.fast_rollout([T.TrionfettiHeuristic(game, s) for s in range(4)])
    assert run is not None
    ranking: Any = game.new_match(seed=1)
    assert ranking.phase == "ranking" and run(ranking) is None
    with pytest.raises(RulesError, match="play phase"):
        ranking.play_to_deal_end(lambda *facts: 0)
    for options in CONFIGS[1:3]:
        game = mazo.load_game("trionfetti", players=4, **options)
        run = T.fast_rollout([T.TrionfettiHeuristic(game, s) for s in range(4)])
        assert run is not None
        assert run(game.new_match(seed=1).apply("keep")) is None


def test_the_search_reads_the_same_rewards_with_and_without_the_shortcut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The preset's paired search on the same positions and seeds: every move's reward
    in every world is the same whether its rollouts run on ints or move by move."""
    game = mazo.load_game("trionfetti", players=4)
    lines = [line for line in _mid_deal_lines(game, 24, seed=5)[::2] if line._m & 3 == 0]

    assert_same_search_with_and_without(game, lines, T, monkeypatch)
