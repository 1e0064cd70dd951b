"""CardSet: a frozen set of cards over an int mask, for people; hot code uses raw masks.

>>> hand = CardSet.parse("7O 1E kb")
>>> len(hand), "7O" in hand, str(hand)
(3, True, '7O 1E KB')
>>> str(hand - CardSet.parse("1E"))
'7O KB'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from mazo.core.cards import LATIN_40, Card, DeckSpec, iter_bits

__all__ = ["CardSet"]


class CardSet:
    """An immutable, hashable set of cards of one deck spec."""

    __slots__ = ("deck", "mask")

    deck: DeckSpec
    mask: int

    def __init__(self, mask: int = 0, deck: DeckSpec = LATIN_40) -> None:
        if mask < 0 or mask & ~deck.full_mask:
            raise ValueError(f"mask {mask:#x} has bits outside the {deck.size}-card pack")
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "deck", deck)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, cards: Iterable[str] | str, deck: DeckSpec = LATIN_40) -> CardSet:
        """Build from codes: ``"7O 1E"`` or ``["7O", "1E"]``."""
        mask = 0
        for card in deck.parse_many(cards):
            mask |= 1 << card
        return cls(mask, deck)

    @classmethod
    def of(cls, cards: Iterable[Card], deck: DeckSpec = LATIN_40) -> CardSet:
        """Build from card ids."""
        mask = 0
        for card in cards:
            mask |= 1 << card
        return cls(mask, deck)

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = self.deck.parse(card)
        return isinstance(card, int) and 0 <= card < self.deck.size and bool(self.mask >> card & 1)

    def __iter__(self) -> Iterator[Card]:
        return iter_bits(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask and other.deck == self.deck

    def __hash__(self) -> int:
        return hash((self.mask, self.deck.size))

    def _other(self, other: CardSet) -> int:
        if other.deck != self.deck:
            raise ValueError("cannot combine card sets of different packs")
        return other.mask

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | self._other(other), self.deck)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & self._other(other), self.deck)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~self._other(other), self.deck)

    def __xor__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask ^ self._other(other), self.deck)

    def issubset(self, other: CardSet) -> bool:
        """True if every card here is also in ``other``."""
        return self.mask & ~self._other(other) == 0

    def isdisjoint(self, other: CardSet) -> bool:
        """True if no card is in both."""
        return self.mask & self._other(other) == 0

    def suit(self, suit: int) -> CardSet:
        """The cards of one suit (0..3 for O C E B)."""
        return CardSet(self.mask & self.deck.suit_masks[suit], self.deck)

    def codes(self) -> list[str]:
        """Card codes in canonical order."""
        return self.deck.codes(self.mask)

    def __str__(self) -> str:
        return " ".join(self.codes())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
