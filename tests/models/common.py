"""What the per-game models share: configurations, positions, the model interface and
the card-naming helpers the leak checks use (no game's rules: those are in the game's module).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import mazo
from mazo.core.rng import Rng

JSON = dict[str, Any]
Step = tuple[Any, int | None, int]

SUITS = "OCEB"
RANKS_40 = ("1", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
ALL_40 = [r + s for s in SUITS for r in RANKS_40]
"""Every card of the 40-card Latin pack (Briscola, Escoba, Envite), canonical order."""


def fill_pack(pack: Sequence[str], placed: Mapping[int, str]) -> list[str]:
    """A pack (top first) with ``placed[i]`` at index ``i`` and the other cards of ``pack``
    at the free places, in ``pack``'s order: what each game's deck builder (the inverse of
    its deal formulas) fills in.

    >>> fill_pack(["1O", "2O", "3O", "4O"], {0: "3O", 2: "1O"})
    ['3O', '2O', '1O', '4O']
    """
    cards = list(placed.values())
    assert len(set(cards)) == len(cards), "a card is placed twice"
    assert set(cards) <= set(pack), f"cards outside the pack: {set(cards) - set(pack)}"
    assert all(0 <= i < len(pack) for i in placed), "a place outside the pack"
    rest = iter(c for c in pack if c not in set(cards))
    return [placed[i] if i in placed else next(rest) for i in range(len(pack))]


# -- configurations and positions ------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    """One way to load a game and start its matches; ``weight`` scales its example count."""

    game: str
    name: str
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] | None = None
    weight: float = 1.0

    @property
    def id(self) -> str:
        return f"{self.game}-{self.name}"

    def load(self) -> Any:
        return mazo.load_game(self.game, players=self.players, **self.options)

    def start(self, seed: int) -> Any:
        return self.load().new_match(seed=seed, setup=self.setup)


@dataclass
class Position:
    """A state with what the walk already computed for it (each seat's view, the log)."""

    state: Any
    events: list[JSON]
    obs: dict[int | None, JSON]
    named: dict[int | None, set[str]]  # card codes each view names
    cache: dict[str, Any] = field(default_factory=dict)

    def since_last(self, kind: str) -> list[JSON]:
        """The events from the last one of type ``kind`` (inclusive) to the end."""
        for i in range(len(self.events) - 1, -1, -1):
            if self.events[i]["type"] == kind:
                return self.events[i:]
        raise AssertionError(f"no {kind!r} event in the log")


_PATTERNS: dict[frozenset[str], re.Pattern[str]] = {}


_DECK_CODES: dict[Any, frozenset[str]] = {}


def deck_codes(game: Any) -> frozenset[str]:
    """Every card code of the game's pack, as the notation writes it."""
    deck = game.info.deck
    codes = _DECK_CODES.get(deck)
    if codes is None:
        codes = _DECK_CODES[deck] = frozenset(deck.format(c) for c in range(deck.size))
    return codes


def cards_named(text: str, codes: frozenset[str]) -> set[str]:
    """Every card code that a JSON text names, alone or inside a longer string (``7O+5C``):
    a rank and a suit of the pack, with no letter or digit right before or after."""
    pattern = _PATTERNS.get(codes)
    if pattern is None:
        ranks = sorted({c[:-1] for c in codes}, key=len, reverse=True)
        suits = "".join(sorted({c[-1] for c in codes}))
        if all(len(r) == 1 for r in ranks):  # the same test, about twice as fast
            first = re.escape("".join(ranks))
            pattern = re.compile(f"[{first}](?<![0-9A-Za-z][{first}])[{suits}](?![0-9A-Za-z])")
        else:
            alternation = "|".join(re.escape(r) for r in ranks)
            pattern = re.compile(f"(?<![0-9A-Za-z])(?:{alternation})[{suits}](?![0-9A-Za-z])")
        _PATTERNS[codes] = pattern
    return set(pattern.findall(text)) & codes


def generic_step(state: Any, rng: Rng) -> Step:
    """One random legal action; now and then an out-of-turn one, where some seat has any.

    Partners' talk (``game.info.message_actions``) is taken about one time in ten when a
    move is possible too: a uniform choice would mostly talk and matches would crawl."""
    n = state.game.players
    talk = state.game.info.message_actions
    legal = state.legal_actions()
    moves = [a for a in legal if a not in talk]
    extra = [(s, a) for s in range(n) if s != state.to_act for a in state.legal_actions(s)]
    extra_moves = [(s, a) for s, a in extra if a not in talk]
    if extra and (not legal or rng.randbelow(4) == 0):
        pool = extra_moves if extra_moves and rng.randbelow(10) else extra
        seat, action = rng.choice(pool)
    else:
        pool_ids = moves if moves and rng.randbelow(10) else legal
        seat, action = None, rng.choice(pool_ids)
    return state.apply(action, seat=seat), seat, action


class Model:
    """What the conformance suite needs to know about one game's rules."""

    game: ClassVar[str] = ""
    uncovered_options: ClassVar[frozenset[str]] = frozenset()
    """Options whose non-default values no configuration exercises (say why, per model)."""
    every_option_value: ClassVar[bool] = False
    """Whether the configurations play every allowed value of every option (else at least
    one non-default value of each)."""

    def configs(self) -> list[Config]:
        raise NotImplementedError

    def step(self, state: Any, rng: Rng) -> Step:
        """The random policy the suite drives matches with."""
        return generic_step(state, rng)

    def new_memory(self) -> Any:
        """Per-match memory for what a seat saw earlier (perfect recall)."""
        return None

    def check_conservation(self, state: Any, spectator: JSON | None = None) -> None:
        """Every card is in exactly one place; the observation's counts agree."""
        raise NotImplementedError

    def check_position(self, pos: Position, memory: Any) -> None:
        """The model's invariants of one position (conservation included)."""
        self.check_conservation(pos.state, pos.obs[None])

    def may_know(self, pos: Position, seat: int | None, memory: Any) -> set[str]:
        """The cards ``seat`` (None: a spectator) may know at this position."""
        raise NotImplementedError

    def check_action(self, before: Any, after: Any, seat: int | None, action: int) -> None:
        """Checks of one transition (optional)."""

    def check_game(self, game: Any) -> None:
        """Checks of a configured game itself, such as its action layout (optional)."""

    def other_seat_actions(self, state: Any) -> list[tuple[str, int]]:
        """(action, owner): what other seats could do with their own cards if it were
        their turn (optional: the generic part tries neighbouring positions' actions)."""
        return []

    def check_event_log(self, state: Any) -> None:
        """The whole log of a finished match against the rules: scores against events."""
        raise NotImplementedError


def deal_blocks(events: list[JSON]) -> list[list[JSON]]:
    """The log cut at each ``deal`` event."""
    blocks: list[list[JSON]] = []
    for e in events:
        if e["type"] == "deal":
            blocks.append([])
        blocks[-1].append(e)
    return blocks


def unique_best(values: list[Any]) -> int | None:
    """Index of the single largest of the values that are not None, else None."""
    valid = [v for v in values if v is not None]
    if not valid:
        return None
    top = max(valid)
    return values.index(top) if values.count(top) == 1 else None


CARD_CODES_40 = frozenset(ALL_40)
"""Every card of the 40-card Latin pack (Briscola, Escoba, Envite), as codes."""
