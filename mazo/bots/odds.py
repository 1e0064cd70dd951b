"""Probability helpers the heuristics share: card odds and race equities.

Every heuristic prices what unseen hands may hold the same way (a hypergeometric draw
from the cards it has not seen), and both partnership games price a deal won as a race
of tricks and a game as a race of points; one copy here instead of one per game.  The
solver's per-game ``perfect_information`` hooks share :func:`one_placement`: where the
unseen cards can go.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from math import comb

from mazo.core.cards import DeckSpec

__all__ = [
    "card_codes",
    "card_ids",
    "card_mask",
    "deal_odds",
    "game_equity",
    "holds",
    "one_placement",
    "trick_value",
]


@cache
def holds(pool: int, hidden: int, good: int) -> float:
    """P(at least one of ``good`` cards among ``hidden`` drawn from ``pool``
    unseen).  Memoized: the heuristics ask it at every move of a search's playouts.

    >>> holds(10, 3, 0), holds(10, 3, 8), round(holds(10, 1, 5), 2)
    (0.0, 1.0, 0.5)
    """
    if good <= 0 or hidden <= 0 or pool <= 0:
        return 0.0
    hidden = min(hidden, pool)
    if good > pool - hidden:
        return 1.0
    return 1.0 - comb(pool - good, hidden) / comb(pool, hidden)


def deal_odds(won: int, lost: int, chances: Sequence[float]) -> float:
    """The chance of two tricks before the opponents' two, one trick per chance.

    >>> deal_odds(1, 0, [1.0, 0.0]), deal_odds(0, 1, [1.0, 0.5]), deal_odds(0, 0, [0.5] * 3)
    (1.0, 0.5, 0.5)
    """
    need = 2 - won
    if need <= 0:
        return 1.0
    if lost >= 2:
        return 0.0
    # The loop below unrolled for up to two chances (what a three-card hand leaves): the
    # same products and sums in the same order, so the same floats.
    count = len(chances)
    if count == 0:
        return 0.0
    if count == 1:
        return min(1.0, chances[0]) if need == 1 else 0.0
    if count == 2:
        a, b = chances
        both = a * b
        if need == 2:
            return min(1.0, both)
        return min(1.0, ((1.0 - a) * b + a * (1.0 - b)) + both)
    dist = [1.0]  # dist[k]: chance of k tricks won among the chances so far
    for q in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, p in enumerate(dist):
            nxt[k] += p * (1.0 - q)
            nxt[k + 1] += p * q
        dist = nxt
    return min(1.0, sum(dist[need:]))


def trick_value(p: float, won: int, lost: int, rest: Sequence[float]) -> float:
    """The chance of the deal (two tricks first) when this trick is taken with chance
    ``p`` and each later one with the chances ``rest``.

    >>> trick_value(1.0, 1, 0, []), trick_value(0.5, 1, 1, [])
    (1.0, 0.5)
    """
    win = deal_odds(won + 1, lost, rest)
    lose = deal_odds(won, lost + 1, rest)
    return p * win + (1.0 - p) * lose


@cache
def game_equity(target: int) -> tuple[tuple[float, ...], ...]:
    """``G[a][b]``: the chance that a team on ``a`` points reaches ``target`` before a
    team on ``b``, every deal worth one point to either team with equal chance.

    >>> g = game_equity(20)
    >>> g[0][0], g[19][19], g[20][5], g[5][20]
    (0.5, 0.5, 1.0, 0.0)
    >>> g[1][0] > 0.5 > g[0][1]
    True
    """
    size = target + 1
    table = [[0.0] * size for _ in range(size)]
    for a in range(target, -1, -1):
        for b in range(target, -1, -1):
            if a >= target and b >= target:
                table[a][b] = 0.5
            elif a >= target:
                table[a][b] = 1.0
            elif b >= target:
                table[a][b] = 0.0
            else:
                table[a][b] = 0.5 * (table[a + 1][b] + table[a][b + 1])
    return tuple(tuple(row) for row in table)


def one_placement(needs: list[int], pool: int, ordered_rest: bool) -> bool:
    """True if ``pool`` hidden cards, ``needs[s]`` of them into hand ``s`` and the rest
    into the stock (one place per card if ``ordered_rest``, else one place), can be
    placed in one way only."""
    if any(n < 0 for n in needs):
        return False  # an observation that contradicts itself is not trusted
    rest = pool - sum(needs)
    if rest < 0:
        return False
    places = sum(1 for n in needs if n) + (rest if ordered_rest else min(rest, 1))
    return places <= 1


def card_mask(deck: DeckSpec, codes: Iterable[str]) -> int:
    """The mask of the card codes ``codes``."""
    out = 0
    for code in codes:
        out |= 1 << deck.parse(code)
    return out


def card_ids(mask: int) -> list[int]:
    """The card ids of ``mask``, ascending (a list: what a view's hand keeps).

    >>> card_ids(0b1011)
    [0, 1, 3]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_codes(deck: DeckSpec) -> tuple[str, ...]:
    """Every card code of ``deck`` in card-id order (suit-major).

    >>> from mazo.core.cards import LATIN_40
    >>> card_codes(LATIN_40)[:3], len(card_codes(LATIN_40))
    (('1O', '2O', '3O'), 40)
    """
    return tuple(deck.format(card) for card in range(deck.size))
