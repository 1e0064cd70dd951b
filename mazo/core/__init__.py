"""The game-agnostic kernel: cards, card sets, the PRNG, errors and the Game contract.

It imports nothing outside the standard library.
"""

from mazo.core.cards import LATIN_40, LATIN_52, SUITS, Card, DeckSpec, iter_bits
from mazo.core.cardset import CardSet
from mazo.core.errors import (
    IllegalActionError,
    InvalidActionError,
    MazoError,
    NotationError,
    RulesError,
)
from mazo.core.game import Game, GameInfo, Option, State
from mazo.core.rng import Rng, derive_seed

__all__ = [
    "LATIN_40",
    "LATIN_52",
    "SUITS",
    "Card",
    "CardSet",
    "DeckSpec",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "InvalidActionError",
    "MazoError",
    "NotationError",
    "Option",
    "Rng",
    "RulesError",
    "State",
    "derive_seed",
    "iter_bits",
]
