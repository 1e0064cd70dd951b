"""The Envite heuristic's fast paths (issue 18) compute what the plain loops compute, to
the bit: the unrolled ``deal_odds``, and the trick odds priced once a category of cards
(a plain suit, the trumps, the exempt top trump) instead of once a card and seat.

``tests/bots/test_fast.py`` checks that ``choose_state`` makes ``choose``'s choices; these
tests check that the shortcuts inside the one decision code change no number it weighs.
"""

from __future__ import annotations

import random

import pytest

import mazo
from mazo.bots.heuristic.envite import TRUMP, EnviteHeuristic, _View
from mazo.bots.odds import deal_odds, holds
from mazo.core.rng import Rng


def _deal_odds_loop(won: int, lost: int, chances: list[float]) -> float:
    """``deal_odds`` as it was written: the distribution of tricks won, chance by chance."""
    need = 2 - won
    if need <= 0:
        return 1.0
    if lost >= 2:
        return 0.0
    dist = [1.0]
    for q in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, p in enumerate(dist):
            nxt[k] += p * (1.0 - q)
            nxt[k + 1] += p * q
        dist = nxt
    return min(1.0, sum(dist[need:]))


def test_unrolled_deal_odds_equal_the_loop_to_the_bit() -> None:
    rnd = random.Random(18)
    edges = [0.0, 1.0, 0.5, 0.25, 1 / 3, 0.1]
    for _ in range(20_000):
        chances = [
            rnd.choice(edges) if rnd.random() < 0.3 else rnd.random()
            for _ in range(rnd.randrange(4))
        ]
        for won in range(3):
            for lost in range(3):
                got, want = deal_odds(won, lost, chances), _deal_odds_loop(won, lost, chances)
                assert float(got).hex() == float(want).hex(), (won, lost, chances)


def _p_max_card_by_card(view: _View, best: int, led: int, mine: float, after: list[int]) -> float:
    """The trick odds as the heuristic first priced them: every stronger card, strongest
    first, each seat's chance of holding it summed seat by seat."""
    t = view.t
    known = view.known
    seats = [s for s in after if s != view.seat]
    cand = view.unseen
    for s in seats:
        cand |= known[s]
    trump_needs_void = view.plain_rule and led != TRUMP
    pools = [view.unseen & ~v for v in view.voids]
    result, none_above = 0.0, 1.0
    for card in t.beaters[led][best]:
        if not cand >> card & 1:
            continue
        total = ours = 0.0
        for s in seats:
            if known[s] >> card & 1:
                p = 1.0
            elif pools[s] >> card & 1:
                p = min(1.0, view.hidden[s] / pools[s].bit_count())
            else:
                p = 0.0
            if p and trump_needs_void and t.tstr[card]:
                plain = t.plain[led]
                if known[s] & plain:
                    p *= 0.0
                else:
                    good = (pools[s] & plain).bit_count()
                    p *= 1.0 - holds(pools[s].bit_count(), view.hidden[s], good)
            total += p
            if s % 2 == view.team:
                ours += p
        total = min(1.0, total)
        if total <= 0.0:
            continue
        result += none_above * min(ours, total)
        none_above *= 1.0 - total
        if none_above <= 0.0:
            break
    return result + none_above * mine


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (4, {}),
        (6, {"tumbo_show_captain": True}),
        (8, {}),
        (8, {"follow_rule": "trump_leads_only"}),
        (12, {}),
    ],
)
def test_trick_odds_by_category_equal_the_card_by_card_loop(
    players: int, options: dict[str, bool | str]
) -> None:
    """At every decision of seeded matches (random moves mixed in, partners' signs read),
    each card's odds as a lead and as a play to the trick on the table, from every
    seat's view, equal the card-by-card loop's to the bit."""
    game = mazo.load_game("envite", players, **options)
    bot = EnviteHeuristic(game, seed=3, signals=True)
    rnd = random.Random(players)
    checked = 0
    for match in range(4):
        state = game.new_match(seed=100 + match)
        for _ in range(60):
            if state.match_over:
                break
            seat = state.to_act
            assert seat is not None
            view = _View.of_state(state, seat, True)
            n = view.n
            others = [(seat + i) % n for i in range(1, n)]
            for card in view.hand:
                led = view.t.eff[card]
                want = _p_max_card_by_card(view, card, led, 1.0, others)
                assert float(view.q(card)).hex() == float(want).hex()
                plays = [*view.trick, (seat, card)]
                holder, best = view._best(plays)
                lead = view.t.eff[plays[0][1]]
                mine = 1.0 if holder % 2 == view.team else 0.0
                after = view.after(len(plays))
                want = _p_max_card_by_card(view, best, lead, mine, after)
                assert float(view.p_take(plays, after)).hex() == float(want).hex()
                checked += 2
            move = (
                rnd.choice(state.legal_actions()) if rnd.random() < 0.3 else bot.choose_state(state)
            )
            state = state.apply(move)
    assert checked > 200


# (players, options, stones at the start: tumbo deals from 11)
_FACTS_OPTIONS: list[tuple[int, dict[str, bool | str], list[int] | None]] = [
    (4, {}, None),
    (4, {}, [11, 9]),
    (6, {"tumbo_show_captain": True}, [4, 11]),
    (8, {}, None),
    (8, {"follow_rule": "trump_leads_only"}, None),
    (4, {"renuncio_mode": "penalize"}, None),
    (12, {"signals": "off"}, [11, 11]),
]


def _walk(
    game: mazo.Game, seed: int, moves: int, scores: list[int] | None = None
) -> list[mazo.State]:
    """The states of a seeded match (from ``scores`` stones), a random move every third
    one, the signing heuristic's otherwise (signs, bets and tumbo calls included)."""
    bot = EnviteHeuristic(game, seed=seed, signals=True)
    rnd = random.Random(seed)
    setup = {"scores": scores} if scores else None
    state = game.new_match(seed=seed, setup=setup)
    out = []
    for _ in range(moves):
        if state.match_over:
            break
        out.append(state)
        legal = state.legal_actions()
        move = rnd.choice(legal) if rnd.random() < 0.35 else bot.choose_state(state)
        state = state.apply(move)
    return out


@pytest.mark.parametrize(("players", "options", "scores"), _FACTS_OPTIONS)
def test_state_views_read_the_facts_the_observation_shows(
    players: int, options: dict[str, bool | str], scores: list[int] | None
) -> None:
    """The state door reads a deal's plays, voids, hand sizes and signs from the log,
    node by node, keeping each node's facts for the next read: every seat's view of
    every state of seeded matches has the facts of its observation's view, and each
    hand size is the hand's card count."""
    game = mazo.load_game("envite", players, **options)
    checked = 0
    for match in range(3):
        for state in _walk(game, 300 + match, 150, scores):
            hands = state._h
            for seat in range(players):
                for signs in (False, True):
                    fast = _View.of_state(state, seat, signs)
                    slow = _View(game, state.observation(seat), signs)
                    assert fast.hand_sizes == slow.hand_sizes
                    assert fast.hand_sizes == [
                        (hands >> s * 40 & (1 << 40) - 1).bit_count() for s in range(players)
                    ]
                    assert (fast.played, fast.voids, fast.hand) == (
                        slow.played,
                        slow.voids,
                        slow.hand,
                    )
                    assert (fast.trick, fast.won, fast.lost, fast.to_play) == (
                        slow.trick,
                        slow.won,
                        slow.lost,
                        slow.to_play,
                    )
                    assert fast.signed == slow.signed
                    assert dict(fast._claims) == dict(slow._claims)
                    assert (fast.known, fast.unseen, fast.hidden) == (
                        slow.known,
                        slow.unseen,
                        slow.hidden,
                    )
                    checked += 1
    assert checked > 1000


@pytest.mark.parametrize(("players", "options", "scores"), _FACTS_OPTIONS)
def test_views_sharing_the_trick_odds_price_as_fresh_ones(
    players: int, options: dict[str, bool | str], scores: list[int] | None
) -> None:
    """Views with the same odds' facts share one memo of trick odds (a search meets the
    same seat in the same spot again): at every seat of seeded matches, E, q and each
    playable card's value read through a warm memo (every view seen before, the
    states visited in another order) equal a cold one's to the bit."""
    from mazo.bots.heuristic import envite

    game = mazo.load_game("envite", players, **options)
    walked = [s for match in range(2) for s in _walk(game, 700 + match, 100, scores)]
    # And what a search meets: samples of a seat's observation played on a few moves
    # (the seat's hand the same, the others' hands and plays not).
    bot = EnviteHeuristic(game, seed=5)
    states = walked[:]
    for state in walked[::5]:
        sampler = game.sampler(state.observation(state.to_act))
        for k in range(6):
            sample = sampler(Rng(k))
            for _ in range(1 + k % 3):
                if sample.hand_over or sample.match_over:
                    break
                states.append(sample)
                sample = sample.apply(bot.choose_state(sample))

    def numbers(state: mazo.State, seat: int) -> list[str]:
        view = _View.of_state(state, seat, True)
        out = [view.estimate().hex()]
        out += [view.q(c).hex() for c in view.hand]
        if view.to_play == seat:
            out += [f.hex() for c in view.playable() for f in view.value(c, None)]
        return out

    cold = {}
    for i, state in enumerate(states):
        for seat in range(players):
            envite._SEEN.clear()
            cold[i, seat] = numbers(state, seat)
    envite._SEEN.clear()
    rnd = random.Random(players)
    order = [(i, seat) for i in range(len(states)) for seat in range(players)] * 2
    rnd.shuffle(order)
    hits = len(envite._SEEN)
    for i, seat in order:
        assert numbers(states[i], seat) == cold[i, seat], (i, seat)
    assert len(envite._SEEN) < len(order) - hits  # views met again read the memo
