"""Cards as ints, decks as specs, and the one card notation shared by all games.

A card code is rank then suit: ``7O`` (siete de oros), ``JE`` (sota/fante de espadas),
``1B`` (ace of bastos). Input is case-insensitive, ``A`` is accepted for ``1``, and
output is upper-case.  Inside the engine a card is an ``int``, suit-major within a
:class:`DeckSpec`, so every suit is a contiguous run of bits and a set of cards is an int
mask (see :mod:`mazo.core.cardset`).

>>> LATIN_40.parse("7o")
6
>>> LATIN_40.format(6)
'7O'
>>> LATIN_40.format(LATIN_40.parse("ae"))
'1E'
>>> LATIN_52.parse("10C")
22
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from mazo.core.errors import NotationError

__all__ = [
    "LATIN_40",
    "LATIN_52",
    "SUITS",
    "SUIT_NAMES",
    "Card",
    "DeckSpec",
    "iter_bits",
]

Card = int
"""A card id: ``suit * len(ranks) + rank_index`` within its deck spec."""

SUITS = "OCEB"
"""Suit letters in canonical order: oros/denari, copas/coppe, espadas/spade, bastos/bastoni."""

SUIT_NAMES = ("oros", "copas", "espadas", "bastos")


def iter_bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first.

    >>> list(iter_bits(0b1011))
    [0, 1, 3]
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class DeckSpec:
    """A Latin-suited pack: four suits times ``ranks``; card ids are suit-major."""

    name: str
    ranks: tuple[str, ...]
    size: int = field(init=False)
    full_mask: int = field(init=False)
    suit_masks: tuple[int, int, int, int] = field(init=False)
    _codes: tuple[str, ...] = field(init=False, repr=False)
    _ids: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        nr = len(self.ranks)
        codes = tuple(r + s for s in SUITS for r in self.ranks)
        object.__setattr__(self, "size", 4 * nr)
        object.__setattr__(self, "full_mask", (1 << (4 * nr)) - 1)
        run = (1 << nr) - 1
        object.__setattr__(self, "suit_masks", tuple(run << (nr * s) for s in range(4)))
        object.__setattr__(self, "_codes", codes)
        object.__setattr__(self, "_ids", {c: i for i, c in enumerate(codes)})

    def suit(self, card: Card) -> int:
        """Suit index 0..3 (``O C E B``)."""
        return card // len(self.ranks)

    def rank(self, card: Card) -> str:
        """Rank code (``1``..``10``, ``J``, ``Q``, ``K``)."""
        return self.ranks[card % len(self.ranks)]

    def card(self, rank: str, suit: str) -> Card:
        """The id of the card of this rank code and suit letter."""
        return self.parse(rank + suit)

    def format(self, card: Card) -> str:
        """The canonical upper-case code of a card id."""
        if not 0 <= card < self.size:
            raise NotationError(f"card id {card} is outside this {self.size}-card pack")
        return self._codes[card]

    def parse(self, text: str) -> Card:
        """Parse a card code; raise :class:`NotationError` saying what is allowed."""
        if not isinstance(text, str):
            raise NotationError(f"a card code must be a string like '7O', not {text!r}")
        code = text.strip().upper()
        if code[:1] == "A":
            code = "1" + code[1:]
        card = self._ids.get(code)
        if card is None:
            raise NotationError(self._explain(text))
        return card

    def _explain(self, text: str) -> str:
        code = text.strip().upper()
        ranks = " ".join(self.ranks)
        hint = f"a card is a rank ({ranks}; A for 1) then a suit (O C E B), e.g. 7O or JE"
        if not code:
            return f"empty card code: {hint}"
        if code[-1] not in SUITS:
            return f"{text!r} has no valid suit letter: {hint}"
        return f"{text!r} is not a card of the {self.name} pack: {hint}"

    def codes(self, mask: int) -> list[str]:
        """Codes of the cards in ``mask``, in canonical order."""
        codes = self._codes
        return [codes[c] for c in iter_bits(mask)]

    def parse_many(self, cards: Iterable[str] | str) -> list[Card]:
        """Parse several codes (a list, or one string separated by spaces or commas)."""
        items = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
        return [self.parse(c) for c in items]

    def all_cards(self) -> range:
        """Every card id of the pack, in canonical order."""
        return range(self.size)


LATIN_40 = DeckSpec("Latin 40-card", ("1", "2", "3", "4", "5", "6", "7", "J", "Q", "K"))
"""The 40-card Spanish/Italian pack: 1-7, J (sota/fante), Q (caballo/cavallo), K (rey/re)."""

LATIN_52 = DeckSpec(
    "Latin 52-card",
    ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
)
"""Trionfetti's 52-card Italian pack: the 40-card pack plus 8, 9 and 10."""
