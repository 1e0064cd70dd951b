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
