"""The game-agnostic kernel: cards, card sets, the PRNG, errors and the Game contract
(with what every game module names: the options every game offers, the mode bits of a
state, the log kinds of the partnership trick games).

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
from mazo.core.game import (
    FIRST_DEALER,
    HAND_OVER,
    OVER,
    PHASE_MASK,
    STOPPED,
    DealStart,
    Game,
    GameInfo,
    Option,
    State,
    int_at_least,
)
from mazo.core.rng import Rng, derive_seed
from mazo.core.tricks import K_PLAY, K_TRICK

__all__ = [
    "FIRST_DEALER",
    "HAND_OVER",
    "K_PLAY",
    "K_TRICK",
    "LATIN_40",
    "LATIN_52",
    "OVER",
    "PHASE_MASK",
    "STOPPED",
    "SUITS",
    "Card",
    "CardSet",
    "DealStart",
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
    "int_at_least",
    "iter_bits",
]
