"""Escoba's fast heuristic (issue 18): ``choose_state`` reads the engine's state and
chooses as ``choose`` does on the observation, and the tables and memos behind the one
decision code give what listing every case gives.

The generic check over every game is ``tests/bots/test_fast.py``; these add what is
Escoba's own: every rules option that changes what the heuristic reads (prime methods,
partnerships or not, the last card of a hand), a search's determinized samples, and the
knapsack that replaced listing the table's subsets.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

import mazo
import mazo.bots.heuristic.escoba as fast
from mazo.bots.heuristic.escoba import EXACT_CARDS, EscobaHeuristic
from mazo.bots.solver import solve
from mazo.core.rng import Rng, derive_seed
from mazo.games.escoba import _CAPTURE_IDS, _capture_table, _table_subsets

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (4, {"four_player_mode": "individual"}),
    (2, {"prime_method": "primiera_points", "deal_packet_size": 3}),
    (2, {"prime_method": "sevens_only", "escoba_on_final_play_counts": False}),
    (3, {"prime_method": "pagat_best_prime", "initial_escoba_to": "eldest"}),
    (4, {"prime_method": "sevens_only", "bonus_all_oros": True}),
]


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_choose_state_is_choose(players: int, options: dict[str, Any]) -> None:
    """At every decision of random-ish matches (the heuristic's moves, a third at
    random): the observation's choice, the state's and a determinized sample's are the
    same, with the same draws from the three bots' Rngs (seeded alike)."""
    game = mazo.load_game("escoba", players=players, target_score=8, **options)
    rng = Rng(derive_seed(3, players, len(options)))
    asked = hands_ended = 0
    for m in range(2):
        seed = derive_seed(9, m)
        by_obs, by_state, by_sample = (EscobaHeuristic(game, seed) for _ in range(3))
        state = game.new_match(seed=derive_seed(21, players, m, len(options)))
        while not state.match_over:
            obs = state.observation(state.to_act)
            action = by_obs.choose(obs)
            assert by_state.choose_state(state) == action
            assert by_sample.choose_state(game.determinize(obs, rng)) == action
            assert by_obs.rng.getstate() == by_state.rng.getstate()
            assert by_obs.rng.getstate() == by_sample.rng.getstate()
            asked += 1
            if rng.randbelow(3) == 0:
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
            hands_ended += state.hand_over
    assert asked > 100 and hands_ended >= 2


def test_the_state_marked_to_stop_at_the_deal_end_reads_the_same() -> None:
    """A search's sample stops at the deal's end (where the game can mark it): until the
    last ``EXACT_CARDS`` cards of a two-player hand the fast form reads it as the unmarked
    state (with 3 and 4 players, to the end)."""
    for players in (2, 3, 4):
        game = mazo.load_game("escoba", players=players)
        state = game.new_match(seed=5)
        a, b = EscobaHeuristic(game, 1), EscobaHeuristic(game, 1)
        while not state.hand_over:
            action = b.choose(state.observation(state.to_act))
            if players > 2 or state.stock() or len(state.hand(0) + state.hand(1)) > EXACT_CARDS:
                assert a.choose_state(state.stop_at_deal_end()) == action
                assert a.rng.getstate() == b.rng.getstate()
            state = state.apply(action)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"prime_method": "primiera_points", "deal_packet_size": 3},
        {"prime_method": "sevens_only", "escoba_on_final_play_counts": False},
        {"prime_method": "pagat_best_prime", "bonus_all_oros": True},
    ],
)
def test_a_two_player_samples_moves_are_the_observations(options: dict[str, Any]) -> None:
    """In a two-player search's sample (marked ``stop_at_deal_end``) ``choose_state``
    reads the state's ints with no action ids and no view: at every decision of
    random-ish matches, the position itself and a determinized sample of it (both
    marked) get ``choose``'s choice on the observation, with the same draws from the
    bots' Rngs (seeded alike; ties are common: cards of one value in plain suits), and
    the exact ending where it applies gets the choice it gets through the legal ids."""
    game = mazo.load_game("escoba", players=2, target_score=15, **options)
    rng = Rng(derive_seed(5, len(options)))
    asked = ended = tied = 0
    for m in range(7):
        seed = derive_seed(19, m)
        by_obs, by_state, by_sample, by_ids = (EscobaHeuristic(game, seed) for _ in range(4))
        state: Any = game.new_match(seed=derive_seed(23, m, len(options)))
        while not state.match_over:
            obs = state.observation(state.to_act)
            marked = state.stop_at_deal_end()
            sample: Any = game.determinize(obs, rng).stop_at_deal_end()
            exact = not state.stock() and len(state.hand(0) + state.hand(1)) <= EXACT_CARDS
            if exact and len(obs["legal_actions"]) > 1:
                action = by_ids._choose_state(marked)
                ended += 1
            else:
                action = by_obs.choose(obs)
                by_ids.rng.setstate(by_obs.rng.getstate())
            before = by_state.rng.getstate()
            assert by_state.choose_state(marked) == action
            assert by_sample.choose_state(sample) == action
            tied += by_state.rng.getstate() != before
            for bot in (by_state, by_sample, by_ids):
                assert bot.rng.getstate() == by_obs.rng.getstate()
            asked += 1
            if rng.randbelow(3) == 0:
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
    assert asked > 1000 and ended > 50 and tied > 50


@pytest.mark.parametrize("options", [{}, {"prime_method": "sevens_only"}])
def test_a_searchs_rollout_moves_are_the_observations(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Inside ``hard`` searches (paired worlds: the rollouts meet the same decisions
    again, so the memo of decisions answers many): every rollout move of each seat's
    heuristic is what ``choose`` makes of the observation (the exact ending's where it
    applies, through the legal ids), with the same draws from that seat's Rng.  The
    rollouts are played move by move here (no ``fast_rollout``, whose whole rollouts
    test_search_escoba.py checks against these moves)."""
    monkeypatch.setattr(fast, "fast_rollout", lambda policies: None)
    game = mazo.load_game("escoba", players=2, **options)
    twin = EscobaHeuristic(game, 0)
    fast._DECISIONS.clear()
    checked = 0

    def checking(policy: Any) -> Any:
        real = policy.choose_state

        def choose_state(state: Any) -> int:
            nonlocal checked
            before = policy.rng.getstate()
            action = real(state)
            twin.rng.setstate(before)
            seat = state.to_act
            cards = len(state.hand(0) + state.hand(1))
            if not state.stock() and cards <= EXACT_CARDS and len(state.legal_actions()) > 1:
                assert action == twin._choose_state(state)
            else:
                assert action == twin.choose(state.observation(seat))
            assert twin.rng.getstate() == policy.rng.getstate()
            checked += 1
            return int(action)

        return choose_state

    state: Any = game.new_match(seed=derive_seed(37, len(options)))
    normal = EscobaHeuristic(game, 5)
    searches = 0
    while searches < 6:
        if searches < state.hand_number + len(state.table()) // 3:
            # leaf=0: lines played out whole, every rollout move to the hand's end.
            bot: Any = mazo.make_bot("hard", game, seed=searches, iterations=60, leaf=0)
            for policy in bot.policies:
                policy.choose_state = checking(policy)
            bot.choose(state.observation(state.to_act))
            searches += 1
        state = state.apply(normal.choose_state(state))
    assert checked > 4000
    assert 0 < len(fast._DECISIONS) < 0.7 * checked  # many answered by the memo


def test_a_two_player_samples_last_card_of_a_round_looks_to_the_redeal() -> None:
    """The round's last card with the stock not dealt (the next seat's reply comes from
    the three cards of the redeal) and a choice of captures: rare in a match, so many
    random hands are played to it; the marked state gets ``choose``'s choice."""
    game = mazo.load_game("escoba", players=2)
    rng = Rng(11)
    checked = 0
    for m in range(400):
        state: Any = game.new_match(seed=derive_seed(29, m))
        by_obs, by_state = EscobaHeuristic(game, m), EscobaHeuristic(game, m)
        while not state.hand_over:
            legal = state.legal_actions()
            seat = state.to_act
            last = len(state.hand(seat)) == 1 and not state.hand(1 - seat)
            if len(legal) > 1 and last and state.stock():
                action = by_obs.choose(state.observation(seat))
                assert by_state.choose_state(state.stop_at_deal_end()) == action
                assert by_state.rng.getstate() == by_obs.rng.getstate()
                checked += 1
            state = state.apply(rng.choice(legal))
    assert checked > 150


def _margin_after(state: Any, action: int, side: int) -> int:
    """``side``'s exact hand margin after ``action`` (:mod:`mazo.bots.solver`)."""
    after = state.apply(action)
    if after.hand_over:
        gained = [b - a for a, b in zip(state.scores, after.scores, strict=True)]
        return int(gained[side] - gained[1 - side])
    return solve(after, side)[1][1]


@pytest.mark.parametrize(
    "options",
    [{}, {"prime_method": "pagat_best_prime"}, {"escoba_on_final_play_counts": False}],
)
def test_rollouts_play_a_two_player_last_round_exactly(options: dict[str, Any]) -> None:
    """In a search's sample (marked ``stop_at_deal_end``) with the stock dealt and at most
    ``EXACT_CARDS`` cards in the hands, the fast form plays the move of the exact solver's
    value (the hand's points margin), not the rules of thumb: the position is perfect
    information for both players there."""
    game = mazo.load_game("escoba", players=2, **options)
    bot = EscobaHeuristic(game, 1)
    rng = Rng(4)
    checked = differs = 0
    for m in range(24):
        state = game.new_match(seed=derive_seed(31, m)).stop_at_deal_end()
        while not state.hand_over:
            legal = state.legal_actions()
            cards = len(state.hand(0) + state.hand(1))
            if not state.stock() and cards <= EXACT_CARDS and len(legal) > 1:
                seat = state.to_act
                best = solve(state, seat)[1][1]
                action = bot.choose_state(state)
                assert action in legal
                assert _margin_after(state, action, seat) == best
                checked += 1
                plain = EscobaHeuristic(game, 1).choose(state.observation(seat))
                differs += _margin_after(state, plain, seat) != best
            state = state.apply(rng.choice(legal))
    assert checked > 30 and differs > 0


@pytest.mark.parametrize(
    "options",
    [{}, {"escoba_on_final_play_counts": False}, {"prime_method": "primiera_points"}],
)
def test_the_exact_endings_values_are_the_solvers(options: dict[str, Any]) -> None:
    """_Ending's value of a two-player position with the stock dealt and at most
    ``EXACT_CARDS`` cards in the hands is the solver's points margin, over endings of
    random play, each with a fresh memo."""
    game = mazo.load_game("escoba", players=2, **options)
    rng = Rng(derive_seed(13, len(options)))
    checked = 0
    for m in range(120):
        state: Any = game.new_match(seed=derive_seed(41, m)).stop_at_deal_end()
        while not state.hand_over:
            cards = len(state.hand(0) + state.hand(1))
            if not state.stock() and cards <= EXACT_CARDS:
                ending = fast._Ending(game)
                table = sum(1 << c for c in state._table)
                h, piles = state._h, state._piles
                last = -1 if state._last is None else state._last
                e0, e1 = state._esc
                args = (h & fast._FULL, h >> 40, table, piles & fast._FULL, piles >> 40)
                value = ending._value(*args, e0, e1, last, state.to_act)
                assert value == solve(state, 0)[1][1]
                checked += 1
            state = state.apply(rng.choice(state.legal_actions()))
    assert checked > 300


@pytest.mark.parametrize("options", [{}, {"escoba_on_final_play_counts": False}])
def test_the_exact_ending_values_the_hands_last_card_as_the_engine_scores_it(
    options: dict[str, Any],
) -> None:
    """The hand's last card (_Ending values it without a child): built positions, half
    of them with a table the card sweeps, each seat to act in turn, the piles, escobas
    and last capturer at random; the value is the best margin of the engine's own
    scoring over the card's legal plays."""
    game = mazo.load_game("escoba", players=2, **options)
    codes = game.info.deck.codes(game.info.deck.full_mask)
    rng = Rng(derive_seed(43, len(options)))
    sweeps = 0
    for trial in range(400):
        seat = trial % 2
        cards = list(range(40))
        rng.shuffle(cards)
        card, rest = cards[0], cards[1:]
        need = 15 - fast._VALUE_OF[card] if trial % 4 < 2 else rng.randbelow(30)
        table: list[int] = []
        for c in rest:
            if sum(fast._VALUE_OF[t] for t in table) + fast._VALUE_OF[c] <= need:
                table.append(c)
        if not table:
            table.append(rest[-1])
        sweeps += sum(fast._VALUE_OF[t] for t in table) + fast._VALUE_OF[card] == 15
        piles: list[list[str]] = [[], []]
        for c in rest:
            if c not in table:
                piles[rng.randbelow(2)].append(codes[c])
        escobas = [rng.randbelow(3), rng.randbelow(3)]
        obs = dict(game.new_match(seed=trial).observation(seat))
        obs.update(
            hand=[codes[card]],
            table=[codes[c] for c in table],
            captured=piles,
            hand_sizes=[1 - seat, seat],
            stock_size=0,
            escobas=escobas,
            escoba_markers=[],
            last_capturer=rng.randbelow(2),
            to_act=seat,
            round=5,
            history=[],
            scores=[0, 0],
        )
        state: Any = game.determinize(obs, Rng(trial)).stop_at_deal_end()
        margins = []
        for action in state.legal_actions():
            end = state.apply(action)
            assert end.hand_over
            margins.append(end.scores[0] - end.scores[1])
        h, p = state._h, state._piles
        mask = sum(1 << c for c in table)
        value = fast._Ending(game)._value(
            h & fast._FULL,
            h >> 40,
            mask,
            p & fast._FULL,
            p >> 40,
            *escobas,
            obs["last_capturer"],
            seat,
        )
        assert value == (max(margins) if seat == 0 else min(margins))
    assert sweeps > 150


def _every_set(wid: int, cards: list[int]) -> dict[int, float]:
    """The best take by card value, listing every set of ``cards`` (lowest id first)."""
    worth = fast._WORTH[wid]
    best: dict[int, float] = {}
    for size in range(1, len(cards) + 1):
        for group in combinations(sorted(cards), size):
            total = sum(fast._VALUE_OF[c] for c in group)
            if not 5 <= total <= 14:
                continue
            got = 0.0
            for c in group:
                got += worth[c]
            if size == len(cards):
                got += fast.ESCOBA
            v = 15 - total
            best[v] = max(best.get(v, -1.0), got)
    return best


def _close(a: dict[int, float], b: dict[int, float]) -> bool:
    return a.keys() == b.keys() and all(abs(a[v] - b[v]) < 1e-12 for v in a)


def test_the_knapsack_is_the_listing_of_every_set() -> None:
    """_best_takes (memoized by a key that cannot tell the three plain suits apart)
    equals listing every subset (up to float rounding: the order of the additions
    differs) for random tables of 1-9 cards under every worth table."""
    rng = Rng(77)
    for trial in range(600):
        cards = list(range(40))
        rng.shuffle(cards)
        table = cards[: 1 + trial % 9]
        mask = sum(1 << c for c in table)
        wid = trial % len(fast._WORTH)
        key = fast._table_key(wid, mask)
        for _ in range(2):  # computed, then memoized
            takes = fast._best_takes(key)
            assert _close({v: g for g, v, _row, _shift in takes}, _every_set(wid, table))
            for _g, v, row, shift in takes:
                assert row is fast._UNSEEN_WORTH[wid][v] and shift == 4 * (v - 1)
        fast._BEST.clear()


def test_the_sums_are_the_engines_table_subsets() -> None:
    """_sums (rollouts, the exact ending) lists the sets of the engine's
    ``_table_subsets`` by sum, in the capture ids' order, for random tables of 0-10
    cards."""
    _capture_table()
    rng = Rng(78)
    ordered = 0
    for trial in range(800):
        cards = list(range(40))
        rng.shuffle(cards)
        mask = sum(1 << c for c in cards[: trial % 11])
        for _ in range(2):  # computed, then memoized
            got = {t: sets for t, sets in enumerate(fast._sums(mask)) if sets}
            want = _table_subsets(mask)
            assert got.keys() == want.keys()
            assert all(sorted(got[t]) == sorted(want[t]) for t in want)
            assert all(len(set(got[t])) == len(got[t]) for t in got)
            for t, sets in got.items():  # in the capture ids' order of any card taking them
                if t < 5:
                    continue
                for card in range(40):
                    if fast._VALUE_OF[card] == 15 - t and not mask >> card & 1:
                        ids = [_CAPTURE_IDS[card][m] for m in sets]
                        assert ids == sorted(ids)
                        ordered += 1
        fast._SUMS.clear()
    assert ordered > 1000


def test_the_reachable_sums_are_the_sums_listed() -> None:
    """_reach (the exact ending's last card) says which sums 5-14 _sums lists a set for,
    and whether the whole table is one of them, for random tables of 0-10 cards."""
    rng = Rng(79)
    for trial in range(800):
        cards = list(range(40))
        rng.shuffle(cards)
        mask = sum(1 << c for c in cards[: trial % 11])
        for _ in range(2):  # computed, then memoized
            reach = fast._REACH.get(mask)
            if reach is None:
                reach = fast._reach(mask)
            sums = fast._sums(mask)
            for t in range(5, 15):
                assert bool(reach >> t & 1) == bool(sums[t])
                assert (reach >> 15 == t) == (mask in sums[t])
        fast._REACH.clear()
        fast._SUMS.clear()


def _takes_by_dict(key: int) -> dict[int, float]:
    """The knapsack _best_takes has made since its first version (a dict of the sums
    reached, in the same order of cards), by card value: the floats it must keep."""
    wid = key & 31
    worth = fast._WORTH[wid]
    cards: list[tuple[int, float]] = []
    for v in range(1, 11):
        if key >> 5 + v - 1 & 1:
            cards.append((v, worth[v - 1]))
    for v in range(1, 11):
        cards.extend([(v, worth[9 + v])] * (key >> 15 + 4 * (v - 1) & 15))
    most = {0: 0.0}
    total = 0
    for v, w in cards:
        total += v
        for t, before in list(most.items()):
            t += v
            if t <= 14:
                got = before + w
                if got > most.get(t, -1.0):
                    most[t] = got
    if 5 <= total <= 14:
        most[total] += fast.ESCOBA
    return {15 - t: g for t, g in most.items() if t >= 5}


def test_the_knapsack_keeps_its_floats() -> None:
    """_best_takes gives, to the last bit, what its first version gave (a choice turns
    on exact ties and comparisons of these floats), for random tables of 1-12 cards
    under every worth table."""
    rng = Rng(79)
    for trial in range(3000):
        cards = list(range(40))
        rng.shuffle(cards)
        mask = sum(1 << c for c in cards[: 1 + trial % 12])
        key = fast._table_key(trial % len(fast._WORTH), mask)
        fast._BEST.pop(key, None)
        assert {v: g for g, v, _row, _shift in fast._best_takes(key)} == _takes_by_dict(key)


def test_memos_do_not_change_a_choice() -> None:
    """Emptied memos (as when they fill up) give the same choices and scores."""
    game = mazo.load_game("escoba", players=3)
    state = game.new_match(seed=12)
    bot = EscobaHeuristic(game, 4)
    for _ in range(60):
        if state.match_over:
            break
        obs = state.observation(state.to_act)
        warm = bot.scores(obs)
        fast._BEST.clear()
        fast._PILES.clear()
        assert bot.scores(obs) == warm
        state = state.apply(bot.choose_state(state))
