"""Envite Canario: the card layer (trumps, card order, follow-suit, trick winner).

Status: first slice of issue 4.  This module holds the parts of ``rules/envite-canario.md``
that everything else stands on, as pure functions over card ids and masks: sections 3
(trumps and card order) and 7-8 (card play legality and trick resolution).  The deal and
betting state machine (envío, tumbo, chicos) is not written yet, so the game is not in
the registry.

Cards are ids of the Latin 40-card pack (:data:`mazo.core.cards.LATIN_40`), sets of
cards are int masks.  ``n`` is the player count (4, 6, 8, 10 or 12) and ``vira`` the
suit index of the turned card (0..3 for ``O C E B``).

>>> [LATIN_40.format(c) for c in hierarchy(6, LATIN_40.parse("4O") // 10)][:5]
['3B', 'QB', 'JO', '2O', 'KO']
"""

from __future__ import annotations

from functools import cache

from mazo.core.cards import LATIN_40, Card, iter_bits

__all__ = [
    "FIXED_TRUMPS",
    "PLAYER_COUNTS",
    "cards_of",
    "hierarchy",
    "legal_cards",
    "plain_order",
    "top_trump",
    "trick_winner",
    "trump_mask",
]

DECK = LATIN_40
PLAYER_COUNTS = (4, 6, 8, 10, 12)

FIXED_TRUMPS: dict[int, tuple[str, ...]] = {
    4: (),
    6: ("3B", "QB", "JO"),
    8: ("5O", "3B", "QB", "JO"),
    10: ("2O", "5O", "3B", "QB", "JO"),
    12: ("1O", "2O", "5O", "3B", "QB", "JO"),
}
"""§3.1: trumps whatever the vira, strongest first (``JO`` is the Perica)."""

_VIRA_ORDER = ("2", "K", "Q", "J", "1", "7", "6", "5", "4", "3")  # the Mala (2) first
_PLAIN_ORDER = ("K", "Q", "J", "1", "7", "6", "5", "4", "3", "2")


def _check(n: int, vira: int) -> None:
    if n not in PLAYER_COUNTS:
        raise ValueError(f"Envite is played by 4, 6, 8, 10 or 12 players, not {n!r}")
    if vira not in range(4):
        raise ValueError(f"vira must be a suit index 0..3 (O C E B), not {vira!r}")


@cache
def hierarchy(n: int, vira: int) -> tuple[Card, ...]:
    """§3.2: every trump, strongest first: the fixed trumps, then the vira suit in the
    order 2 (Mala) > K > Q > J > 1 > 7 > 6 > 5 > 4 > 3, a fixed trump only once.

    >>> [LATIN_40.format(c) for c in hierarchy(10, 0)]
    ['2O', '5O', '3B', 'QB', 'JO', 'KO', 'QO', '1O', '7O', '6O', '4O', '3O']
    """
    _check(n, vira)
    fixed = tuple(DECK.parse(c) for c in FIXED_TRUMPS[n])
    suit = "OCEB"[vira]
    rest = tuple(DECK.parse(r + suit) for r in _VIRA_ORDER)
    return fixed + tuple(c for c in rest if c not in fixed)


@cache
def trump_mask(n: int, vira: int) -> int:
    """The trump set of §3.1 as a mask."""
    mask = 0
    for c in hierarchy(n, vira):
        mask |= 1 << c
    return mask


def top_trump(n: int, vira: int) -> Card:
    """§3.6: the first card of the hierarchy, the one exempt from following trumps."""
    return hierarchy(n, vira)[0]


@cache
def plain_order(n: int, vira: int, suit: int) -> tuple[Card, ...]:
    """§3.4: a non-trump suit's cards, strongest first (K > Q > J > 1 > 7 > ... > 2),
    without the cards that are trumps.

    >>> [LATIN_40.format(c) for c in plain_order(6, 1, 3)]
    ['KB', 'JB', '1B', '7B', '6B', '5B', '4B', '2B']
    """
    _check(n, vira)
    if suit == vira:
        return ()
    trumps = trump_mask(n, vira)
    cards = (DECK.parse(r + "OCEB"[suit]) for r in _PLAIN_ORDER)
    return tuple(c for c in cards if not trumps >> c & 1)


@cache
def _strength(n: int, vira: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per card: its effective suit (4 for trumps) and its strength within that suit."""
    eff = [c // 10 for c in range(40)]
    strength = [0] * 40
    order = hierarchy(n, vira)
    for i, c in enumerate(order):
        eff[c] = 4
        strength[c] = len(order) - i
    for suit in range(4):
        plain = plain_order(n, vira, suit)
        for i, c in enumerate(plain):
            strength[c] = len(plain) - i
    return tuple(eff), tuple(strength)


def legal_cards(hand: int, trick: tuple[Card, ...], n: int, vira: int) -> int:
    """§7: the mask of the cards of ``hand`` that may be played to ``trick`` (cards so far,
    leader first).

    A plain suit led must be followed with a non-trump card of that suit when the hand has
    one; a trump led (fixed trumps included) must be answered with a trump, except by a
    hand whose only trump is the top trump, which may play anything.  Nobody must beat
    the winning card or trump when void.
    """
    if not trick:
        return hand
    eff, _ = _strength(n, vira)
    trumps = trump_mask(n, vira)
    led = eff[trick[0]]
    if led == 4:
        held = hand & trumps
        if not held:
            return hand
        top = 1 << top_trump(n, vira)
        if held == top:
            return hand  # the top trump alone is exempt (the arrastre cannot force it)
        return held
    follow = hand & DECK.suit_masks[led] & ~trumps
    return follow or hand


def trick_winner(trick: tuple[Card, ...], n: int, vira: int) -> int:
    """§8: the position in ``trick`` of the winning card: the highest trump in the
    hierarchy if any trump was played, else the highest card of the suit led.

    >>> trick_winner(tuple(LATIN_40.parse(c) for c in ("KC", "2C", "JO")), 6, 0)
    2
    """
    eff, strength = _strength(n, vira)
    best = 0  # the best card is always of the suit led or a trump
    for pos in range(1, len(trick)):
        c, b = trick[pos], trick[best]
        if eff[c] == eff[b]:
            if strength[c] > strength[b]:
                best = pos
        elif eff[c] == 4:  # the first trump beats the led suit; later ones compare above
            best = pos
    return best


def cards_of(mask: int) -> list[str]:
    """Card codes of a mask, for messages and tests."""
    return [DECK.format(c) for c in iter_bits(mask)]
