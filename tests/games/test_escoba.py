"""Escoba scenario tests, written from ``rules/escoba.md`` (rule sections in the names).

Expected values are worked out by hand from the rules and written as literals; the play
by play of every scripted hand is in the comments next to it.  The helpers below are an
independent model of the rules (the §5.1 deal formulas, §6.3 ``Options(c)``, the §8
scoring), never the engine's own code; the property tests compare the engine with them
over many seeded random hands.

Escoba is not in the game registry yet, so games are built directly from
``EscobaGame`` (which is what ``mazo.load_game("escoba", ...)`` will return).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from mazo import IllegalActionError, InvalidActionError, RulesError
from mazo.core.cards import LATIN_40
from mazo.core.rng import Rng
from mazo.games.escoba import EscobaGame, _score_hand, capture_value

# -- the rules, as tables (§2.1) --------------------------------------------------------------

SUITS = "OCEB"
RANKS = ("1", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
ALL_40 = [r + s for s in SUITS for r in RANKS]
"""Every card in canonical order: suit O < C < E < B, then rank 1..7 J Q K."""

VALUE = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
"""§2.1 capture values: the figures are worth 8, 9 and 10, whatever their code."""

PRIME_CLASSES = ("7", "6", "1", "5", "4", "3", "2", "F")
"""§8.2 prime classes, best first; F = the figures J, Q, K together."""

PRIMIERA = {"7": 21, "6": 18, "1": 16, "5": 15, "4": 14, "3": 13, "2": 12, "F": 10}
"""§8.3 primiera_points values of a side's best card in a suit."""

BIG_TARGET = 10_000  # a target no test reaches, so hands follow one another


def value(code: str) -> int:
    return VALUE[code[:-1]]


def total(codes: Iterable[str]) -> int:
    return sum(value(c) for c in codes)


def canon(codes: Iterable[str]) -> list[str]:
    return sorted(codes, key=ALL_40.index)


def act(card: str, *taken: str) -> str:
    """An action string as the engine writes it: played card, then captures in canonical order."""
    return "+".join([card, *canon(taken)])


def codes(text: str) -> list[str]:
    return text.split()


def mask(cards: Iterable[str]) -> int:
    m = 0
    for c in cards:
        m |= 1 << LATIN_40.parse(c)
    return m


def rest_of(*groups: Iterable[str]) -> list[str]:
    used = {c for g in groups for c in g}
    return [c for c in ALL_40 if c not in used]


def prime_class(code: str) -> str:
    rank = code[:-1]
    return "F" if rank in ("J", "Q", "K") else rank


# -- the deal (§5.1), as index formulas -------------------------------------------------------


def deal_offsets(n: int, dealer: int, packet: int = 1) -> dict[int, list[int]]:
    """Offsets 0..3n-1 within one deal that each seat receives (§5.1 step 1)."""
    out: dict[int, list[int]] = {s: [] for s in range(n)}
    for k in range(3 * n):
        seat = (dealer + 1 + k) % n if packet == 1 else (dealer + 1 + k // 3) % n
        out[seat].append(k)
    return out


def build_deck(
    n: int, dealer: int, table: Sequence[str], plays: Sequence[str], packet: int = 1
) -> list[str]:
    """A 40-card deck (top first) for a hand that opens with ``table`` and then sees ``plays``.

    ``plays`` are action strings (or bare cards) in playing order, the eldest's first;
    round r of play is cards ``3n*r .. 3n*r+3n-1`` and play j of a round is made by seat
    ``(dealer + 1 + j) mod n``.  Round 0 is dealt from deck index 0, the table from 3n,
    round r >= 1 from 3n + 4 + 3n(r - 1).  Cards not placed fill the free places in
    canonical order.
    """
    deck: list[str | None] = [None] * 40
    cards = [p.split("+")[0] for p in plays]
    for i, c in enumerate(table):
        deck[3 * n + i] = c
    offsets = deal_offsets(n, dealer, packet)
    per = 3 * n
    for r in range(0, len(cards), per):
        base = 0 if r == 0 else per + 4 + (r - per)
        hands: dict[int, list[str]] = {s: [] for s in range(n)}
        for j, c in enumerate(cards[r : r + per]):
            hands[(dealer + 1 + j) % n].append(c)
        for seat, hand in hands.items():
            for k, c in zip(offsets[seat], hand, strict=False):
                deck[base + k] = c
    placed = [c for c in deck if c is not None]
    assert len(set(placed)) == len(placed), "a card is placed twice"
    rest = iter(rest_of(placed))
    return [c if c is not None else next(rest) for c in deck]


def new_game(players: int = 2, **options: Any) -> EscobaGame:
    return EscobaGame(players=players, **options)


def start(
    players: int, deck: Sequence[str], dealer: int, setup: dict[str, Any] | None = None, **opts: Any
) -> Any:
    return new_game(players, **opts).new_match(deck=list(deck), dealer=dealer, setup=setup)


def play(state: Any, actions: Iterable[str]) -> Any:
    for a in actions:
        state = state.apply(a)
    return state


def events_of(state: Any, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.events if e["type"] == kind]


def hand_events(state: Any, number: int) -> list[dict[str, Any]]:
    """The events of hand ``number``: from its "deal" event up to the next "deal"."""
    out: list[dict[str, Any]] = []
    current = None
    for e in state.events:
        if e["type"] == "deal":
            current = e["deal"]
        if current == number:
            out.append(e)
    return out


def hand_end(state: Any, number: int = 1) -> dict[str, Any]:
    ends = [e for e in hand_events(state, number) if e["type"] == "hand_end"]
    assert len(ends) == 1
    return ends[0]


def strings(state: Any) -> list[str]:
    return [state.game.action_to_string(a) for a in state.legal_actions()]


# -- §6.3 Options(c), by brute force ----------------------------------------------------------


def ref_options(card: str, table: Sequence[str]) -> list[tuple[str, ...]]:
    """Every non-empty S ⊆ table with v(card) + ΣS = 15, each S in canonical order."""
    out = []
    for k in range(1, len(table) + 1):
        for subset in itertools.combinations(table, k):
            if value(card) + total(subset) == 15:
                out.append(tuple(canon(subset)))
    return out


def ref_legal(hand: Iterable[str], table: Sequence[str]) -> list[str]:
    """The legal action set in the §6.3 canonical enumeration order."""
    out: list[str] = []
    for card in canon(hand):
        sets = sorted(
            ref_options(card, table), key=lambda s: (len(s), [ALL_40.index(c) for c in s])
        )
        out += ["+".join([card, *s]) for s in sets] if sets else [card]
    return out


# -- §8 scoring, written from the rules -------------------------------------------------------


def unique_best(values: Sequence[Any]) -> int | None:
    best = max(values)
    return values.index(best) if list(values).count(best) == 1 else None


def ref_prime_key(pile: Sequence[str], method: str) -> Any:
    if method == "seed_counts":
        return [sum(prime_class(c) == k for c in pile) for k in PRIME_CLASSES]
    if method == "sevens_only":
        return sum(c[:-1] == "7" for c in pile)
    best: list[str | None] = []
    for suit in SUITS:
        classes = [PRIME_CLASSES.index(prime_class(c)) for c in pile if c[-1] == suit]
        best.append(PRIME_CLASSES[min(classes)] if classes else None)
    if method == "pagat_best_prime":
        strength = [8 - PRIME_CLASSES.index(b) if b is not None else 0 for b in best]
        return sorted(strength, reverse=True)
    assert method == "primiera_points"
    return None if None in best else sum(PRIMIERA[b] for b in best if b is not None)


def ref_score(
    piles: Sequence[Sequence[str]], escobas: Sequence[int], **opts: Any
) -> dict[str, Any]:
    """§8: points per category and side for these captured piles."""
    sides = len(piles)
    cards = [len(p) for p in piles]
    oros = [sum(c[-1] == "O" for c in p) for p in piles]
    out: dict[str, Any] = {"escobas": list(escobas), "card_counts": cards, "oros_counts": oros}
    out["cards"] = [0] * sides
    w = unique_best(cards)
    if w is not None:
        others_small = all(c < 10 for i, c in enumerate(cards) if i != w)
        big = opts.get("bonus_cards_over_30", False) and cards[w] > 30 and others_small
        out["cards"][w] = 2 if big else 1
    out["oros"] = [0] * sides
    w = unique_best(oros)
    if w is not None:
        out["oros"][w] = 1
    out["velo"] = [int("7O" in p) for p in piles]
    keys = [ref_prime_key(p, opts.get("prime_method", "seed_counts")) for p in piles]
    out["prime"] = [0] * sides
    valid = [k for k in keys if k is not None]
    if valid and keys.count(max(valid)) == 1:
        out["prime"][keys.index(max(valid))] = 1
    sevens = {"7O", "7C", "7E", "7B"}
    out["bonus_all_sevens"] = [
        int(opts.get("bonus_all_sevens", False) and sevens <= set(p)) for p in piles
    ]
    out["bonus_all_oros"] = [int(opts.get("bonus_all_oros", False) and o == 10) for o in oros]
    parts = ("escobas", "cards", "oros", "velo", "prime", "bonus_all_sevens", "bonus_all_oros")
    out["total"] = [sum(out[k][s] for k in parts) for s in range(sides)]
    return out


def score(
    piles: Sequence[Iterable[str]],
    escobas: Sequence[int] | None = None,
    players: int | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The engine's breakdown for hand-built piles (one list of codes per side)."""
    game = new_game(players or len(piles), **options)
    masks = [mask(p) for p in piles]
    points, detail = _score_hand(game, masks, tuple(escobas or [0] * len(piles)))
    assert points == detail["total"]
    return detail


CATEGORIES = ("escobas", "cards", "oros", "velo", "prime", "bonus_all_sevens", "bonus_all_oros")


@pytest.mark.parametrize("players", [2, 4])
def test_the_two_side_short_scoring_is_the_general_one(players: int) -> None:
    """Two sides with the prime by seed counts and no bonus (every two-player search
    sample's hand end) take _score_hand's short path: the same points and breakdown,
    key order included, as the general path gives, over random splits of the pack."""
    game = new_game(players)
    general = new_game(players)
    general._plain_two = False
    assert game._plain_two
    rng = Rng(17)
    for _ in range(400):
        cards = list(range(40))
        rng.shuffle(cards)
        cut = rng.randbelow(41)
        taken = rng.randbelow(41 - cut) if cut < 40 else 0
        piles = [sum(1 << c for c in cards[:cut]), sum(1 << c for c in cards[cut : cut + taken])]
        escobas = (rng.randbelow(4), rng.randbelow(4))
        short = _score_hand(game, piles, escobas)
        full = _score_hand(general, piles, escobas)
        assert short == full
        assert list(short[1]) == list(full[1])


# -- scripted full hands ----------------------------------------------------------------------

# Scenario A: 2 players, dealer 1, so seat 0 is eldest and plays first in every round.
# Opening table 1O 2O 3O 4O (T = 10: no opening escoba).  Table after each play in [].
A_DEALER = 1
A_TABLE = ["1O", "2O", "3O", "4O"]
A_PLAYS = [
    # round 1 (seat 0 holds 5C 5E 2C, seat 1 holds KC 7C 6C)
    "5C+1O+2O+3O+4O",  # s0: 5 + 10 = 15, the whole table: escoba        []
    "KC",  # s1: trail on an empty table                                     [KC]
    "5E+KC",  # s0: escoba                                                  []
    "7C",  # s1                                                             [7C]
    "2C",  # s0: needs 13, 7C is not: trail                                 [7C 2C]
    "6C+7C+2C",  # s1: escoba                                               []
    # round 2 (s0: JO 6O 4C, s1: 1C KO 1E)
    "JO",  # s0                                                             [JO]
    "1C",  # s1: needs 14: trail                                            [JO 1C]
    "6O+JO+1C",  # s0: escoba                                               []
    "KO",  # s1                                                             [KO]
    "4C",  # s0: needs 11: trail                                            [KO 4C]
    "1E+KO+4C",  # s1: escoba                                               []
    # round 3 (s0: QO 6E KE, s1: 3C 2E 7O)
    "QO",  # s0                                                             [QO]
    "3C",  # s1: needs 12: trail                                            [QO 3C]
    "6E+QO",  # s0: needs 9, only QO: a capture that is not an escoba       [3C]
    "2E",  # s1: needs 13: trail                                            [3C 2E]
    "KE+3C+2E",  # s0: escoba                                               []
    "7O",  # s1                                                             [7O]
    # round 4 (s0: 1B QC 2B, s1: 7E 4E JC)
    "1B",  # s0: needs 14: trail                                            [7O 1B]
    "7E+7O+1B",  # s1: escoba, and seat 1 takes the siete de velo           []
    "QC",  # s0                                                             [QC]
    "4E",  # s1: needs 11: trail                                            [QC 4E]
    "2B+QC+4E",  # s0: escoba                                               []
    "JC",  # s1                                                             [JC]
    # round 5 (s0: 3E 7B 3B, s1: 4B 5O QE)
    "3E",  # s0: needs 12: trail                                            [JC 3E]
    "4B+JC+3E",  # s1: escoba                                               []
    "7B",  # s0                                                             [7B]
    "5O",  # s1: needs 10: trail                                            [7B 5O]
    "3B+7B+5O",  # s0: escoba                                               []
    "QE",  # s1                                                             [QE]
    # round 6 (s0: 6B 5B KB, s1: JE QB JB)
    "6B+QE",  # s0: escoba                                                  []
    "JE",  # s1                                                             [JE]
    "5B",  # s0: needs 10: trail                                            [JE 5B]
    "QB",  # s1: needs 6: trail                                             [JE 5B QB]
    "KB+5B",  # s0: needs 5, only 5B: not an escoba                         [JE QB]
    "JB",  # s1: needs 7: trail; the hand ends and seat 0 takes JE QB JB
]
# Piles.  Seat 0: 5C 1O 2O 3O 4O | 5E KC | 6O JO 1C | 6E QO | KE 3C 2E | 2B QC 4E |
# 3B 7B 5O | 6B QE | KB 5B | + JE QB JB from the table = 28 cards, oros 1O 2O 3O 4O 5O 6O
# JO QO = 8, one seven (7B).  Seat 1: 6C 7C 2C | 1E KO 4C | 7E 7O 1B | 4B JC 3E = 12 cards,
# oros KO 7O = 2, three sevens (7C 7E 7O).  Escobas 7 and 4.
A_BREAKDOWN = {
    "escobas": [7, 4],
    "cards": [1, 0],  # 28 against 12
    "oros": [1, 0],  # 8 against 2
    "velo": [0, 1],
    "prime": [0, 1],  # seed counts: sevens 1 against 3
    "bonus_all_sevens": [0, 0],
    "bonus_all_oros": [0, 0],
    "total": [9, 6],
    "card_counts": [28, 12],
    "oros_counts": [8, 2],
}
A_PILES = [
    codes("5C 1O 2O 3O 4O 5E KC 6O JO 1C 6E QO KE 3C 2E 2B QC 4E 3B 7B 5O 6B QE KB 5B JE QB JB"),
    codes("6C 7C 2C 1E KO 4C 7E 7O 1B 4B JC 3E"),
]


def scenario_a_deck(packet: int = 1) -> list[str]:
    return build_deck(2, A_DEALER, A_TABLE, A_PLAYS, packet)


# Scenario B: 3 players, dealer 2: eldest 0, middle 1, dealer 2 play in that order.
# Opening table 1O 2O 3O 5O (T = 11).
B_DEALER = 2
B_TABLE = ["1O", "2O", "3O", "5O"]
B_PLAYS = [
    # round 1 (s0: 1C 4C 2C, s1: 3C 1E 5C, s2: KC JC 6C)
    "1C",  # s0: needs 14, the table only makes 11: trail           [1O 2O 3O 5O 1C]
    "3C+1O+2O+3O+5O+1C",  # s1: needs 12 = the whole table: escoba  []
    "KC",  # s2                                                     [KC]
    "4C",  # s0: needs 11: trail                                    [KC 4C]
    "1E+KC+4C",  # s1: escoba                                       []
    "JC",  # s2                                                     [JC]
    "2C",  # s0: needs 13: trail                                    [JC 2C]
    "5C+JC+2C",  # s1: escoba                                       []
    "6C",  # s2: the last card of round 1                           [6C]
    # round 2 (s0: 2E 1B 6O, s1: 7C 4E 7O, s2: KO QO 2B)
    "2E",  # s0: needs 13: trail                                    [6C 2E]
    "7C+6C+2E",  # s1: escoba                                       []
    "KO",  # s2                                                     [KO]
    "1B",  # s0: needs 14: trail                                    [KO 1B]
    "4E+KO+1B",  # s1: escoba                                       []
    "QO",  # s2                                                     [QO]
    "6O+QO",  # s0: escoba                                          []
    "7O",  # s1                                                     [7O]
    "2B",  # s2: needs 13: trail                                    [7O 2B]
    # round 3 (s0: 3E 7E 4O, s1: 3B KE 4B, s2: JE 5B 7B)
    "3E",  # s0: needs 12, 7+2+3 is the table itself: trail         [7O 2B 3E]
    "3B+7O+2B+3E",  # s1: escoba                                    []
    "JE",  # s2                                                     [JE]
    "7E+JE",  # s0: escoba                                          []
    "KE",  # s1                                                     [KE]
    "5B+KE",  # s2: escoba                                          []
    "4O",  # s0                                                     [4O]
    "4B",  # s1: needs 11: trail                                    [4O 4B]
    "7B+4O+4B",  # s2: escoba                                       []
    # round 4 (s0: JO KB 6E, s1: QC 5E QB, s2: 6B QE JB)
    "JO",  # s0                                                     [JO]
    "QC",  # s1: needs 6: trail                                     [JO QC]
    "6B+QC",  # s2: not an escoba                                   [JO]
    "KB",  # s0: needs 5: trail                                     [JO KB]
    "5E+KB",  # s1: not an escoba                                   [JO]
    "QE",  # s2: needs 6: trail                                     [JO QE]
    "6E+QE",  # s0: not an escoba                                   [JO]
    "QB",  # s1: needs 6: trail                                     [JO QB]
    "JB",  # s2: needs 7: trail; seat 0 (last capturer) takes JO QB JB
]
# Piles.  Seat 0: 6O QO 7E JE 6E QE + JO QB JB = 9 cards, oros 6O QO JO = 3, sevens 7E.
# Seat 1: 3C 1O 2O 3O 5O 1C | 1E KC 4C | 5C JC 2C | 7C 6C 2E | 4E KO 1B | 3B 7O 2B 3E |
# 5E KB = 24 cards, oros 1O 2O 3O 5O KO 7O = 6, sevens 7C 7O.  Seat 2: 5B KE | 7B 4O 4B |
# 6B QC = 7 cards, oros 4O = 1, sevens 7B.  Escobas 2, 6, 2.
B_BREAKDOWN = {
    "escobas": [2, 6, 2],
    "cards": [0, 1, 0],
    "oros": [0, 1, 0],
    "velo": [0, 1, 0],
    "prime": [0, 1, 0],  # sevens 1, 2, 1
    "total": [2, 10, 2],
    "card_counts": [9, 24, 7],
    "oros_counts": [3, 6, 1],
}


def scenario_b_deck() -> list[str]:
    return build_deck(3, B_DEALER, B_TABLE, B_PLAYS)


# Scenario C: 4 players, dealer 3, seats play 0 1 2 3.  Opening table JO 1C 2C 3C (T = 14).
C_DEALER = 3
C_TABLE = ["JO", "1C", "2C", "3C"]
C_PLAYS = [
    # round 1
    "1E+JO+1C+2C+3C",  # s0: needs 14 = the whole table: escoba     []
    "KO",  # s1                                                     [KO]
    "5O+KO",  # s2: escoba                                          []
    "QO",  # s3                                                     [QO]
    "2E",  # s0: needs 13: trail                                    [QO 2E]
    "4O+QO+2E",  # s1: escoba                                       []
    "6O",  # s2                                                     [6O]
    "2O",  # s3: needs 13: trail                                    [6O 2O]
    "7O+6O+2O",  # s0: escoba (and the siete de velo)               []
    "KC",  # s1                                                     [KC]
    "3O",  # s2: needs 12: trail                                    [KC 3O]
    "2B+KC+3O",  # s3: escoba                                       []
    # round 2
    "7C",  # s0                                                     [7C]
    "1O",  # s1: needs 14: trail                                    [7C 1O]
    "7E+7C+1O",  # s2: escoba                                       []
    "4C",  # s3                                                     [4C]
    "1B",  # s0: needs 14: trail                                    [4C 1B]
    "KE+4C+1B",  # s1: escoba                                       []
    "QC",  # s2                                                     [QC]
    "6C+QC",  # s3: escoba                                          []
    "JC",  # s0                                                     [JC]
    "7B+JC",  # s1: escoba                                          []
    "4E",  # s2                                                     [4E]
    "5C",  # s3: needs 10: trail                                    [4E 5C]
    # round 3
    "6E+4E+5C",  # s0: escoba                                       []
    "JE",  # s1                                                     [JE]
    "3E",  # s2: needs 12: trail                                    [JE 3E]
    "4B+JE+3E",  # s3: escoba                                       []
    "QE",  # s0                                                     [QE]
    "6B+QE",  # s1: escoba                                          []
    "KB",  # s2                                                     [KB]
    "5B+KB",  # s3: escoba                                          []
    "3B",  # s0                                                     [3B]
    "QB",  # s1: needs 6: trail                                     [3B QB]
    "JB",  # s2: needs 7: trail                                     [3B QB JB]
    "5E",  # s3: needs 10: trail; seat 3 (last capturer) takes 3B QB JB 5E
]
# Seat piles.  s0: 1E JO 1C 2C 3C | 7O 6O 2O | 6E 4E 5C = 11 (oros JO 7O 6O 2O = 4, 7O).
# s1: 4O QO 2E | KE 4C 1B | 7B JC | 6B QE = 10 (oros 4O QO = 2, 7B).
# s2: 5O KO | 7E 7C 1O = 5 (oros 5O KO 1O = 3, 7E 7C).
# s3: 2B KC 3O | 6C QC | 4B JE 3E | 5B KB | 3B QB JB 5E = 14 (oros 3O = 1, no seven).
# Escobas by seat: 3, 4, 2, 4.
C_PARTNERSHIP = {  # sides {0, 2} and {1, 3}
    "escobas": [5, 8],
    "cards": [0, 1],  # 16 against 24
    "oros": [1, 0],  # 7 against 3
    "velo": [1, 0],
    "prime": [1, 0],  # sevens 3 against 1
    "total": [8, 9],
    "card_counts": [16, 24],
    "oros_counts": [7, 3],
}
C_INDIVIDUAL = {
    "escobas": [3, 4, 2, 4],
    "cards": [0, 0, 0, 1],  # 11 10 5 14
    "oros": [1, 0, 0, 0],  # 4 2 3 1
    "velo": [1, 0, 0, 0],
    "prime": [0, 0, 1, 0],  # sevens 1 1 2 0
    "total": [5, 4, 3, 5],
    "card_counts": [11, 10, 5, 14],
    "oros_counts": [4, 2, 3, 1],
}


def scenario_c_deck() -> list[str]:
    return build_deck(4, C_DEALER, C_TABLE, C_PLAYS)


def check_breakdown(detail: dict[str, Any], expected: dict[str, Any]) -> None:
    for key, want in expected.items():
        assert detail[key] == want, key


# == §2 cards and values ======================================================================


def test_s2_capture_values_and_card_ids() -> None:
    assert [capture_value(r + "B") for r in RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert [LATIN_40.parse(c) for c in ALL_40] == list(range(40))
    assert sum(value(c) for c in ALL_40) == 220  # §7.1
    game = new_game()
    # J=8, Q=9, K=10: 7+J, 6+Q and 5+K make 15; 7+K (the codes' "10") does not.
    for text in ("7O+JC", "6O+QC", "5O+KC", "1O+2O+3O+QC"):
        assert game.string_to_action(text) >= 40
    with pytest.raises(InvalidActionError):
        game.string_to_action("5O+JC")  # 5 + 8 = 13


def test_s2_deck_style_changes_labels_only() -> None:
    deck = scenario_a_deck()
    for style in ("french_numeric", "french_faces"):
        state = play(start(2, deck, A_DEALER, deck_style=style), A_PLAYS)
        check_breakdown(hand_end(state)["detail"], A_BREAKDOWN)


# == §4 options ===============================================================================


@pytest.mark.parametrize("bad", [0, -1, "21", 2.5, True, None])
def test_s4_target_score_must_be_a_positive_integer(bad: Any) -> None:
    with pytest.raises(RulesError):
        new_game(target_score=bad)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 1},
        {"players": 5},
        {"four_player_mode": "teams"},
        {"deal_packet_size": 2},
        {"prime_method": "best"},
        {"initial_escoba_to": "nobody"},
        {"bonus_all_oros": 1},
        {"no_such_option": True},
    ],
)
def test_s4_bad_configuration_is_a_rules_error(kwargs: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        EscobaGame(**kwargs)


def test_s4_defaults() -> None:
    opts = new_game().options
    assert new_game().players == 2
    assert opts["four_player_mode"] == "partnership"
    assert opts["deck_style"] == "spanish"
    assert opts["deal_packet_size"] == 1
    assert opts["target_score"] == 21
    assert opts["prime_method"] == "seed_counts"
    assert opts["initial_escoba_to"] == "dealer"
    assert opts["initial_thirty_requires_two_fifteens"] is False
    assert opts["escoba_on_final_play_counts"] is True
    assert not (opts["bonus_all_sevens"] or opts["bonus_all_oros"] or opts["bonus_cards_over_30"])
    for target in (1, 15, 30):
        assert new_game(target_score=target).options["target_score"] == target


# == §5.1 the opening deal ====================================================================

# A table of four kings (T = 40) never triggers §5.2, so the dealt table stays in place.
KINGS = ["KO", "KC", "KE", "KB"]


def deck_with_table(n: int, table: Sequence[str]) -> list[str]:
    """Canonical order, with ``table`` moved to deck indices 3n..3n+3."""
    rest = rest_of(table)
    return rest[: 3 * n] + list(table) + rest[3 * n :]


def test_s51_literal_two_players_dealer_1() -> None:
    # k goes to seat (1 + 1 + k) mod 2: indices 0, 2, 4 to seat 0, 1, 3, 5 to seat 1.
    deck = deck_with_table(2, KINGS)
    assert deck[:6] == ["1O", "2O", "3O", "4O", "5O", "6O"]
    state = start(2, deck, dealer=1)
    assert state.hand(0) == ["1O", "3O", "5O"]
    assert state.hand(1) == ["2O", "4O", "6O"]
    assert state.table() == KINGS
    assert state.to_act == 0
    assert len(state.stock()) == 30


def test_s51_literal_three_players_dealer_1() -> None:
    # seat 2 gets k = 0, 3, 6; seat 0 gets 1, 4, 7; seat 1 (the dealer) gets 2, 5, 8.
    deck = deck_with_table(3, KINGS)
    assert deck[:9] == ["1O", "2O", "3O", "4O", "5O", "6O", "7O", "JO", "QO"]
    state = start(3, deck, dealer=1)
    assert state.hand(2) == ["1O", "4O", "7O"]
    assert state.hand(0) == ["2O", "5O", "JO"]
    assert state.hand(1) == ["3O", "6O", "QO"]
    assert state.to_act == 2
    assert len(state.stock()) == 27


def test_s51_literal_four_players_packets_of_three_dealer_2() -> None:
    # packets: k = 0-2 to seat 3, 3-5 to seat 0, 6-8 to seat 1, 9-11 to seat 2.
    deck = deck_with_table(4, KINGS)
    state = start(4, deck, dealer=2, deal_packet_size=3)
    assert state.hand(3) == ["1O", "2O", "3O"]
    assert state.hand(0) == ["4O", "5O", "6O"]
    assert state.hand(1) == ["7O", "JO", "QO"]
    assert state.hand(2) == ["1C", "2C", "3C"]
    assert state.table() == KINGS
    assert state.to_act == 3
    assert len(state.stock()) == 24


@pytest.mark.parametrize("packet", [1, 3])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_s51_deal_formulas(n: int, packet: int) -> None:
    table = ["KC", "QE", "3B", "KO"]  # T = 32, in this order
    for dealer in range(n):
        rng = Rng(100 * n + 10 * packet + dealer)
        others = rng.shuffled(rest_of(table))
        deck = others[: 3 * n] + table + others[3 * n :]
        state = start(n, deck, dealer, deal_packet_size=packet)
        for seat, offsets in deal_offsets(n, dealer, packet).items():
            assert state.hand(seat) == canon(deck[k] for k in offsets)
        assert state.table() == table  # in the order they were laid
        assert state.stock() == deck[3 * n + 4 :]
        assert len(state.stock()) == {2: 30, 3: 27, 4: 24}[n]
        assert state.to_act == (dealer + 1) % n  # the eldest plays first
        assert state.dealer == dealer
        obs = state.observation(0)
        assert obs["stock_size"] == 36 - 3 * n
        assert obs["hand_sizes"] == [3] * n
        assert obs["round"] == 0
        deal = events_of(state, "deal")[0]
        assert deal["dealer"] == dealer
        assert deal["table"] == table


@pytest.mark.parametrize("packet", [1, 3])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_s53_redeal_uses_the_same_formula_and_no_table_cards(n: int, packet: int) -> None:
    rng = Rng(7 * n + packet)
    dealer = n - 1
    deck = [ALL_40[i] for i in rng.shuffled(range(40))]
    state = start(n, deck, dealer, deal_packet_size=packet)
    for _ in range(3 * n):  # one round of play: any legal actions
        before = state
        state = state.apply(rng.choice(state.legal_actions()))
    # The last play of the round was the dealer's, and the new cards came at once.
    assert before.to_act == dealer
    redeals = events_of(state, "redeal")
    assert redeals == [{"type": "redeal", "round": 1}]
    segment = deck[3 * n + 4 : 6 * n + 4]
    for seat, offsets in deal_offsets(n, dealer, packet).items():
        assert state.hand(seat) == canon(segment[k] for k in offsets)
    assert state.stock() == deck[6 * n + 4 :]
    assert state.to_act == (dealer + 1) % n
    assert state.observation(0)["round"] == 1
    # No card went to the table: the table is what the dealer's last play left.
    last = events_of(state, "play")[-1]
    if last["captured"]:
        assert len(state.table()) == len(before.table()) - len(last["captured"])
    else:
        assert state.table() == [*before.table(), last["card"]]


def test_s53_redeal_keeps_the_table_and_the_eldest_leads() -> None:
    state = play(start(3, scenario_b_deck(), B_DEALER), B_PLAYS[:9])
    assert state.table() == ["6C"]  # the dealer's trail stays; nothing is added
    assert [state.hand(s) for s in range(3)] == [
        ["6O", "2E", "1B"],
        ["7O", "7C", "4E"],
        ["QO", "KO", "2B"],
    ]
    assert len(state.stock()) == 18
    assert state.to_act == 0
    assert events_of(state, "redeal") == [{"type": "redeal", "round": 1}]
    obs = state.observation(1)
    assert obs["stock_size"] == 18
    assert obs["hand_sizes"] == [3, 3, 3]
    assert obs["round"] == 1


# == §5.2 the opening table ===================================================================


def opening_deck(n: int, table: Sequence[str]) -> list[str]:
    """Canonical rest around ``table``; the eldest's first cards are low oros."""
    return deck_with_table(n, table)


def test_s52_fifteen_is_one_escoba_for_the_dealer() -> None:
    table = ["1O", "2C", "3E", "QB"]  # 1 + 2 + 3 + 9 = 15
    state = start(2, opening_deck(2, table), dealer=0)
    assert state.table() == []
    assert state.captured(0) == canon(table)
    assert state.captured(1) == []
    obs = state.observation(1)
    assert obs["escobas"] == [1, 0]
    assert obs["last_capturer"] == 0
    assert obs["escoba_markers"] == [{"seat": 0, "card": "deal", "cards": canon(table)}]
    assert events_of(state, "opening_escoba") == [
        {"type": "opening_escoba", "seat": 0, "side": 0, "cards": canon(table), "escobas": 1}
    ]
    # The eldest faces an empty table: every legal action is a trail of a hand card.
    assert state.to_act == 1
    hand = state.hand(1)
    assert strings(state) == hand
    assert state.legal_actions() == sorted(LATIN_40.parse(c) for c in hand)


def test_s52_thirty_is_two_escobas_even_without_two_fifteens() -> None:
    table = ["KO", "KC", "7E", "3B"]  # 30, and no two cards make 15
    state = start(3, opening_deck(3, table), dealer=1)
    assert state.table() == []
    assert state.captured(1) == canon(table)
    obs = state.observation(0)
    assert obs["escobas"] == [0, 2, 0]
    assert obs["last_capturer"] == 1
    assert events_of(state, "opening_escoba")[0]["escobas"] == 2
    # The dealer marks both escobas (the seed: two cards turned face up).
    marker = {"seat": 1, "card": "deal", "cards": canon(table)}
    assert obs["escoba_markers"] == [marker, marker]
    assert state.to_act == 2


@pytest.mark.parametrize(
    "table",
    [
        ["1O", "2O", "3O", "7O"],  # 13
        ["1O", "2O", "4O", "7O"],  # 14
        ["1O", "2O", "6O", "7O"],  # 16
        ["KO", "KC", "QE", "JC"],  # 37
        ["KO", "KC", "QE", "2C"],  # 31
        ["KO", "KC", "KE", "KB"],  # 40
    ],
)
def test_s52_other_totals_do_nothing(table: list[str]) -> None:
    assert total(table) not in (15, 30)
    state = start(2, opening_deck(2, table), dealer=0)
    assert state.table() == table
    assert state.observation(0)["escobas"] == [0, 0]
    assert state.observation(0)["last_capturer"] is None
    assert events_of(state, "opening_escoba") == []


def test_s52_initial_escoba_to_eldest() -> None:
    table = ["1O", "2C", "3E", "QB"]
    state = start(2, opening_deck(2, table), dealer=0, initial_escoba_to="eldest")
    assert state.captured(1) == canon(table)
    assert state.captured(0) == []
    obs = state.observation(0)
    assert obs["escobas"] == [0, 1]
    assert obs["last_capturer"] == 1
    assert state.to_act == 1  # the eldest still plays first, on an empty table
    assert strings(state) == state.hand(1)
    # 4 players: seat 0 is eldest after dealer 3, so side 0 (seats 0 and 2) scores twice.
    thirty = ["KO", "KC", "7E", "3B"]
    state = start(4, opening_deck(4, thirty), dealer=3, initial_escoba_to="eldest")
    assert state.observation(1)["escobas"] == [2, 0]
    assert state.captured(0) == canon(thirty)
    assert state.observation(1)["last_capturer"] == 0


def test_s52_four_players_dealer_side_takes_the_opening() -> None:
    table = ["1O", "2C", "3E", "QB"]
    state = start(4, opening_deck(4, table), dealer=3)
    assert state.observation(0)["escobas"] == [0, 1]  # dealer 3 is on side 1
    assert state.captured(1) == canon(table)
    assert state.observation(0)["last_capturer"] == 3


def test_s52_two_fifteens_option_unsplittable_thirty_scores_nothing() -> None:
    table = ["KO", "KC", "QE", "1B"]  # 10 + 10 + 9 + 1 = 30, no two groups of 15
    state = start(2, opening_deck(2, table), dealer=0, initial_thirty_requires_two_fifteens=True)
    assert state.table() == table
    assert state.observation(0)["escobas"] == [0, 0]
    assert state.observation(0)["last_capturer"] is None
    assert events_of(state, "opening_escoba") == []
    # Without the option the same table is two escobas for the dealer (the sum decides).
    state = start(2, opening_deck(2, table), dealer=0)
    assert state.observation(0)["escobas"] == [2, 0]


def test_s52_two_fifteens_option_splittable_thirty_scores_two() -> None:
    table = ["KO", "5C", "QE", "6B"]  # KO+5C and QE+6B
    state = start(2, opening_deck(2, table), dealer=1, initial_thirty_requires_two_fifteens=True)
    assert state.table() == []
    assert state.observation(0)["escobas"] == [0, 2]
    assert state.captured(1) == canon(table)
    # The option does not touch a table of 15.
    table = ["1O", "2C", "3E", "QB"]
    state = start(2, opening_deck(2, table), dealer=1, initial_thirty_requires_two_fifteens=True)
    assert state.observation(0)["escobas"] == [0, 1]


def test_s52_opening_escoba_counts_in_the_hand_score() -> None:
    # A random hand from a pack whose table is 15: the dealer's side's escobas in the
    # breakdown are the opening one plus its escobas in play.
    table = ["1O", "2C", "3E", "QB"]
    rng = Rng(5)
    others = rng.shuffled(rest_of(table))
    deck = others[:6] + table + others[6:]
    state = start(2, deck, dealer=0, target_score=BIG_TARGET)
    while state.hand_number == 1:
        state = state.apply(rng.choice(state.legal_actions()))
    plays = [e for e in hand_events(state, 1) if e["type"] == "play"]
    esc = [sum(e["escoba"] for e in plays if e["seat"] == s) for s in (0, 1)]
    assert hand_end(state)["detail"]["escobas"] == [1 + esc[0], esc[1]]


# == §6.3 legal actions =======================================================================


def example_state() -> Any:
    """§13: table 2C 3O 6E KB, the eldest (seat 1 after dealer 0) holds 5B QO 4C."""
    deck = build_deck(2, 0, ["2C", "3O", "6E", "KB"], ["5B", "1E", "QO", "1B", "4C", "2B"])
    state = start(2, deck, dealer=0)
    assert state.hand(1) == ["QO", "4C", "5B"]
    assert state.table() == ["2C", "3O", "6E", "KB"]
    return state


def test_s63_worked_example_three_captures_and_no_trail() -> None:
    state = example_state()
    assert strings(state) == ["QO+6E", "4C+3O+2C+6E", "5B+KB"]
    assert sorted(strings(state)) == sorted(ref_legal(state.hand(1), state.table()))
    for card in ("5B", "QO", "4C"):  # each of them can capture, so none may trail
        with pytest.raises(IllegalActionError):
            state.apply(card)
    after = state.apply("4C+2C+3O+6E")
    assert after.table() == ["KB"]  # not an escoba: KB stays
    assert events_of(after, "play")[-1] == {
        "type": "play",
        "seat": 1,
        "card": "4C",
        "captured": ["3O", "2C", "6E"],
        "escoba": False,
    }
    assert after.observation(0)["escobas"] == [0, 0]
    assert after.captured(1) == ["3O", "2C", "4C", "6E"]
    assert after.observation(0)["last_capturer"] == 1


def forced_sweep_state() -> Any:
    """§13: table 7B 1C 6O, seat 1 holds JO 1E 6C.

    The opening table is 7B 1C 6O KO (T = 24); the eldest, seat 0, first takes KO with 5C
    (5C needs 10 and KO is the only way to make it).
    """
    deck = build_deck(2, 1, ["7B", "1C", "6O", "KO"], ["5C", "JO", "2O", "1E", "3O", "6C"])
    state = start(2, deck, dealer=1)
    assert [a for a in strings(state) if a.startswith("5C")] == ["5C+KO"]
    state = state.apply("5C+KO")
    assert state.table() == ["7B", "1C", "6O"]
    assert state.hand(1) == ["JO", "6C", "1E"]
    return state


def test_s63_forced_sweep_example() -> None:
    state = forced_sweep_state()
    assert state.to_act == 1
    legal = strings(state)
    assert sorted(legal) == sorted(["JO+7B", "JO+6O+1C", "1E+6O+1C+7B", "6C"])
    assert len(legal) == 4
    assert sorted(legal) == sorted(ref_legal(state.hand(1), state.table()))
    # 1E can only sweep, so playing it is an escoba.
    swept = state.apply("1E+7B+1C+6O")
    assert swept.table() == []
    assert swept.observation(0)["escobas"] == [0, 1]
    assert swept.observation(0)["escoba_markers"] == [
        {"seat": 1, "card": "1E", "cards": ["6O", "1C", "7B"]}
    ]
    assert events_of(swept, "play")[-1]["escoba"] is True
    # JO has a choice of two sets; neither empties the table.
    assert state.apply("JO+7B").table() == ["1C", "6O"]
    assert state.apply("JO+1C+6O").table() == ["7B"]


def test_s63_any_card_may_be_chosen() -> None:
    # 6C cannot capture, so it trails, although JO and 1E could capture.
    state = forced_sweep_state()
    after = state.apply("6C")
    assert after.table() == ["7B", "1C", "6O", "6C"]  # added at the end
    assert after.captured(1) == []
    assert after.observation(0)["last_capturer"] == 0  # still the eldest's 5C+KO


def test_s63_distinct_table_cards_are_distinct_actions() -> None:
    # Table 4C 4E 7B KO (T = 25); the eldest holds 4O 1B 2B.
    deck = build_deck(2, 0, ["4C", "4E", "7B", "KO"], ["4O", "1O", "1B", "2O", "2B", "3O"])
    state = start(2, deck, dealer=0)
    assert state.hand(1) == ["4O", "1B", "2B"]
    assert sorted(strings(state)) == sorted(
        ["4O+4C+7B", "4O+4E+7B", "1B+KO+4C", "1B+KO+4E", "2B"]  # 2B needs 13: none
    )
    a = state.apply("4O+4C+7B")
    b = state.apply("4O+4E+7B")
    assert a.table() == ["4E", "KO"]
    assert b.table() == ["4C", "KO"]
    assert a != b


def test_s63_one_set_per_turn() -> None:
    # Table KO KC 1E 1B (T = 22); the eldest holds 5O 2C 3C.
    deck = build_deck(2, 0, ["KO", "KC", "1E", "1B"], ["5O", "4O", "2C", "6O", "3C", "7O"])
    state = start(2, deck, dealer=0)
    legal = strings(state)
    assert sorted(legal) == sorted(["5O+KO", "5O+KC", "2C", "3C+KO+1E+1B", "3C+KC+1E+1B"])
    # 5 + 10 + 10 = 25: two separate fifteens with one card is not a capture at all.
    with pytest.raises(InvalidActionError):
        state.apply("5O+KO+KC")
    assert state.apply("5O+KC").table() == ["KO", "1E", "1B"]


def test_s63_mandatory_capture_leaves_the_state_untouched() -> None:
    state = example_state()
    snapshot = (state.table(), state.hand(0), state.hand(1), state.observation(1), state.events)
    twin = example_state()
    bad = [
        "5B",  # can capture, so must
        "5B+6E",  # well-formed but 11
        "QO+6E+3O",  # 18
        "1E",  # the other seat's card
        "7O",  # a card nobody holds
        "JE+7B",  # a capture whose cards are not on the table
        "1E+KB+4C",  # the other seat's card, as a capture
    ]
    for action in bad:
        with pytest.raises((IllegalActionError, InvalidActionError)):
            state.apply(action)
    for action in ("5B", "1E", "7O", "JE+7B"):
        with pytest.raises(IllegalActionError):
            state.apply(action)
    with pytest.raises(IllegalActionError):
        state.apply(LATIN_40.parse("QO"))  # the int id of a trail of a capturing card
    with pytest.raises(IllegalActionError):
        state.apply("QO+6E", seat=0)  # not seat 0's turn
    assert state == twin
    assert (state.table(), state.hand(0), state.hand(1)) == snapshot[:3]
    assert state.observation(1) == snapshot[3]
    assert state.events == snapshot[4]
    assert state.apply("QO+6E").table() == ["2C", "3O", "KB"]


def test_s63_canonical_enumeration_and_action_ids() -> None:
    game = new_game()
    assert game.string_to_action("7O") == 6  # a trail's id is the card's id
    assert game.action_to_string(6) == "7O"
    for state in (example_state(), forced_sweep_state()):
        legal = state.legal_actions()
        assert legal == sorted(legal)  # the API returns ids sorted
        # Captures are numbered in the §6.3 canonical order, so sorting by played card
        # (stable) gives the rules' enumeration exactly.
        by_card = sorted(
            legal, key=lambda a: LATIN_40.parse(game.action_to_string(a).split("+")[0])
        )
        hand = state.hand(state.to_act)
        assert [game.action_to_string(a) for a in by_card] == ref_legal(hand, state.table())


def test_s63_legal_actions_ascending_ids_trails_first() -> None:
    """§6.3 (amended): ``legal_actions()`` lists ids in ascending order, so the trails (ids
    0-39, a card's own id) come first, in card order, then the captures by id, which is
    the canonical enumeration: by played card, then by set (shorter first)."""
    # Table KO KC 1E 1B (T = 22); the eldest, seat 1, holds 5O 2C 2B.  5O (needs 10)
    # takes KO or KC; a 2 needs 13 (10+1+1 = 12, 10+10 too much): 2C and 2B trail,
    # although 5O comes before both in card order.
    deck = build_deck(2, 0, ["KO", "KC", "1E", "1B"], ["5O", "4O", "2C", "6O", "2B", "7O"])
    state = start(2, deck, dealer=0)
    assert state.hand(1) == ["5O", "2C", "2B"]
    assert strings(state) == ["2C", "2B", "5O+KO", "5O+KC"]
    assert state.legal_actions()[:2] == [11, 31]  # 2C and 2B: the cards' ids
    assert all(a >= 40 for a in state.legal_actions()[2:])
    # §13's forced sweep: 6C trails and is listed before every capture, JO's (a card
    # before 6C in card order) included; JO's single-card set before its pair.
    assert strings(forced_sweep_state()) == ["6C", "JO+7B", "JO+6O+1C", "1E+6O+1C+7B"]
    # Only captures (§13's worked example): QO's, 4C's, then 5B's, in card order.
    assert strings(example_state()) == ["QO+6E", "4C+3O+2C+6E", "5B+KB"]


def test_s64_trails_go_to_the_end_of_the_table_and_apply_is_pure() -> None:
    state = start(2, scenario_a_deck(), A_DEALER)
    state = play(state, A_PLAYS[:3])
    assert state.table() == []
    s4 = state.apply("7C")
    s5 = s4.apply("2C")
    assert s4.table() == ["7C"]
    assert s5.table() == ["7C", "2C"]
    assert state.table() == []  # the old states did not change
    assert s5.observation(0)["table"] == ["7C", "2C"]
    by_id = s4.apply(LATIN_40.parse("2C"))
    assert by_id == s5


# == §6.4 escobas, §7 end of hand =============================================================


def test_s64_escoba_when_the_table_is_emptied() -> None:
    state = start(2, scenario_a_deck(), A_DEALER)
    state = state.apply("5C+1O+2O+3O+4O")
    obs = state.observation(1)
    assert obs["table"] == []
    assert obs["escobas"] == [1, 0]
    assert obs["escoba_markers"] == [{"seat": 0, "card": "5C", "cards": ["1O", "2O", "3O", "4O"]}]
    assert obs["last_capturer"] == 0
    assert obs["history"] == [
        {"seat": 0, "card": "5C", "captured": ["1O", "2O", "3O", "4O"], "escoba": True}
    ]
    state = play(state, A_PLAYS[1:15])  # up to 6E+QO, a capture that leaves 3C
    assert state.table() == ["3C"]
    assert events_of(state, "play")[-1]["escoba"] is False
    assert state.observation(0)["escobas"] == [3, 2]


def test_s7_end_of_hand_table_to_last_capturer_is_not_an_escoba() -> None:
    state = start(2, scenario_a_deck(), A_DEALER, target_score=BIG_TARGET)
    before_last = play(state, A_PLAYS[:-1])
    assert before_last.table() == ["JE", "QB"]
    assert before_last.observation(0)["escobas"] == [7, 4]
    state = before_last.apply("JB")
    assert state.hand_over
    kinds = [e["type"] for e in hand_events(state, 1)]
    assert kinds[-3:] == ["play", "table_taken", "hand_end"]
    assert events_of(state, "table_taken") == [
        {"type": "table_taken", "seat": 0, "cards": ["JE", "JB", "QB"]}
    ]
    detail = hand_end(state)["detail"]
    assert detail["escobas"] == [7, 4]  # the final take added none
    assert detail["last_capturer"] == 0
    assert detail["unawarded"] == []
    # The next hand is dealt at once by the next dealer (§9); its log starts afresh.
    assert state.hand_number == 2
    assert state.dealer == 0
    assert state.observation(1)["history"] == []
    assert state.observation(1)["last_hand"]["points"] == [9, 6]


def test_s7_nobody_captured_leaves_the_table_unawarded() -> None:
    # In real play this cannot happen: before the last play of a hand in which nobody
    # captured, the table holds the other 39 cards, and the last card (worth v <= 10)
    # always finds a subset of them worth 15 - v, so it must capture.  The decision is
    # tested on a position rebuilt with ``determinize`` from an edited observation:
    # seat 0 holds KE, the table is KO KC (KE needs 5: a trail), nobody is last capturer,
    # and the other 37 cards sit in the piles.
    game = new_game(2)
    obs = game.new_match(seed=1, dealer=1).observation(0)
    rest = rest_of(["KE", "KO", "KC"])
    obs.update(
        hand=["KE"],
        hand_sizes=[1, 0],
        table=["KO", "KC"],
        stock_size=0,
        captured=[rest[:19], rest[19:]],
        last_capturer=None,
        escobas=[0, 0],
        escoba_markers=[],
        history=[],
        round=5,
        to_act=0,
    )
    state = game.determinize(obs, Rng(3))
    assert strings(state) == ["KE"]
    state = state.apply("KE")
    assert events_of(state, "table_taken") == []
    detail = hand_end(state)["detail"]
    assert detail["unawarded"] == ["KO", "KC", "KE"]
    assert detail["last_capturer"] is None
    # rest[:19] is 1O..QO, 1C..QC and 1E: the three kings on the table score for nobody.
    assert detail["card_counts"] == [19, 18]
    assert detail["oros_counts"] == [9, 0]


# == §7.1 the invariant, and a differential check of §6.3 and §8, over random hands ===========


def side_of(game: EscobaGame, seat: int) -> int:
    if game.players == 4 and game.options["four_player_mode"] == "partnership":
        return seat % 2
    return seat


def piles_from_events(game: EscobaGame, events: list[dict[str, Any]]) -> list[list[str]]:
    sides = len({side_of(game, s) for s in range(game.players)})
    piles: list[list[str]] = [[] for _ in range(sides)]
    for e in events:
        if e["type"] == "opening_escoba":
            piles[e["side"]] += e["cards"]
        elif e["type"] == "play" and e["captured"]:
            piles[side_of(game, e["seat"])] += [e["card"], *e["captured"]]
        elif e["type"] == "table_taken":
            piles[side_of(game, e["seat"])] += e["cards"]
    return piles


RANDOM_CONFIGS = [
    (2, {}),
    (2, {"deal_packet_size": 3, "prime_method": "pagat_best_prime", "bonus_all_sevens": True}),
    (3, {"prime_method": "primiera_points", "bonus_all_oros": True}),
    (3, {"prime_method": "sevens_only", "initial_escoba_to": "eldest"}),
    (4, {"bonus_cards_over_30": True}),
    (4, {"four_player_mode": "individual", "escoba_on_final_play_counts": False}),
    (2, {"initial_thirty_requires_two_fifteens": True, "prime_method": "primiera_points"}),
    (4, {"deal_packet_size": 3, "prime_method": "pagat_best_prime"}),
]


@pytest.mark.parametrize(("n", "options"), RANDOM_CONFIGS)
def test_s71_invariant_and_scoring_over_random_hands(n: int, options: dict[str, Any]) -> None:
    game = new_game(n, target_score=BIG_TARGET, **options)
    rng = Rng(1000 + n + len(options))
    for _ in range(50):
        deck = [ALL_40[i] for i in rng.shuffled(range(40))]
        state = game.new_match(deck=deck, dealer=rng.randbelow(n))
        while state.hand_number == 1:
            # §6.3 against brute force, and the escoba flag of §6.4.
            hand, table = state.hand(state.to_act), state.table()
            assert sorted(strings(state)) == sorted(ref_legal(hand, table))
            action = rng.choice(state.legal_actions())
            captured = game.action_to_string(action).split("+")[1:]
            state = state.apply(action)
            if state.hand_number == 1:  # (the hand's last play is checked below)
                sweep = bool(captured) and len(captured) == len(table)
                assert events_of(state, "play")[-1]["escoba"] is sweep
        events = hand_events(state, 1)
        piles = piles_from_events(game, events)
        # Conservation: every card in exactly one pile (nothing is ever unawarded).
        assert sorted(c for p in piles for c in p) == sorted(ALL_40)
        for e in events:
            if e["type"] == "play" and e["captured"]:
                assert value(e["card"]) + total(e["captured"]) == 15
        final_take = events_of_kind(events, "table_taken")
        assert len(final_take) == 1  # the table is never empty at the end
        assert total(final_take[0]["cards"]) % 15 == 10
        last_side = side_of(game, final_take[0]["seat"])
        for side, pile in enumerate(piles):
            assert total(pile) % 15 == (10 if side == last_side else 0)
        assert events_of_kind(events, "play")[-1]["escoba"] is False  # no final sweep
        # §8 against the rules, including the opening escobas.
        detail = events_of_kind(events, "hand_end")[0]["detail"]
        escobas = [0] * len(piles)
        for e in events:
            if e["type"] == "opening_escoba":
                escobas[e["side"]] += e["escobas"]
            elif e["type"] == "play" and e["escoba"]:
                escobas[side_of(game, e["seat"])] += 1
        expected = ref_score(piles, escobas, **game.options)
        for key in (*CATEGORIES, "total", "card_counts", "oros_counts"):
            assert detail[key] == expected[key], key
        if game.options["prime_method"] == "seed_counts":
            assert detail["prime_keys"] == [ref_prime_key(p, "seed_counts") for p in piles]
        assert events_of_kind(events, "hand_end")[0]["points"] == expected["total"]
        assert state.scores == expected["total"]


def events_of_kind(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# == §8 scoring, full hands ===================================================================


def test_s8_full_hand_two_players() -> None:
    state = play(start(2, scenario_a_deck(), A_DEALER), A_PLAYS)
    end = hand_end(state)
    assert end["points"] == [9, 6]
    check_breakdown(end["detail"], A_BREAKDOWN)
    assert end["detail"]["prime_keys"] == [
        [1, 3, 2, 4, 2, 3, 3, 10],  # seat 0: 7B | 6O 6E 6B | 1O 1C | 5C 5E 5O 5B | ...
        [3, 1, 2, 0, 2, 1, 1, 2],  # seat 1: 7C 7E 7O | 6C | 1E 1B | - | 4C 4B | 3E | 2C | KO JC
    ]
    assert state.scores == [9, 6]
    assert not state.match_over
    # The piles of §8 are exactly those worked out by hand above.
    assert [canon(p) for p in piles_from_events(state.game, hand_events(state, 1))] == [
        canon(p) for p in A_PILES
    ]


def test_s8_full_hand_with_packets_of_three() -> None:
    deck = scenario_a_deck(packet=3)
    assert deck != scenario_a_deck()
    state = play(start(2, deck, A_DEALER, deal_packet_size=3), A_PLAYS)
    check_breakdown(hand_end(state)["detail"], A_BREAKDOWN)


def test_s8_full_hand_three_players() -> None:
    state = play(start(3, scenario_b_deck(), B_DEALER), B_PLAYS)
    end = hand_end(state)
    assert end["points"] == [2, 10, 2]
    check_breakdown(end["detail"], B_BREAKDOWN)
    assert events_of(state, "table_taken") == [
        {"type": "table_taken", "seat": 0, "cards": ["JO", "JB", "QB"]}
    ]


def test_s3_four_players_partnership_piles_are_shared() -> None:
    state = start(4, scenario_c_deck(), C_DEALER)
    state = play(state, C_PLAYS[:3])  # seat 0 sweeps, seat 1 trails KO, seat 2 takes it
    assert state.captured(0) == canon(["1E", "JO", "1C", "2C", "3C", "5O", "KO"])
    obs = state.observation(3)
    assert len(obs["captured"]) == 2
    assert obs["escobas"] == [2, 0]
    assert obs["side"] == 1
    state = play(state, C_PLAYS[3:])
    end = hand_end(state)
    assert end["points"] == [8, 9]
    check_breakdown(end["detail"], C_PARTNERSHIP)
    assert state.scores == [8, 9]


def test_s3_four_players_individual_has_four_sides() -> None:
    state = start(4, scenario_c_deck(), C_DEALER, four_player_mode="individual")
    state = play(state, C_PLAYS[:3])
    assert state.captured(0) == canon(["1E", "JO", "1C", "2C", "3C"])
    assert state.captured(2) == ["5O", "KO"]
    assert state.observation(3)["escobas"] == [1, 0, 1, 0]
    state = play(state, C_PLAYS[3:])
    end = hand_end(state)
    assert end["points"] == [5, 4, 3, 5]
    check_breakdown(end["detail"], C_INDIVIDUAL)
    assert state.scores == [5, 4, 3, 5]


# == §8 scoring, category by category (the scoring function on hand-built piles) ==============

OROS = [r + "O" for r in RANKS]
COPAS = [r + "C" for r in RANKS]
ESPADAS = [r + "E" for r in RANKS]
BASTOS = [r + "B" for r in RANKS]


def two_sides(side0: Iterable[str]) -> list[list[str]]:
    side0 = list(side0)
    return [side0, rest_of(side0)]


def test_s81_cards_strict_majority_and_twenty_all() -> None:
    detail = score(two_sides([*OROS, *COPAS, "1E"]))  # 21 against 19
    assert detail["card_counts"] == [21, 19]
    assert detail["cards"] == [1, 0]
    detail = score(two_sides([*COPAS, *ESPADAS]))  # 20 against 20
    assert detail["cards"] == [0, 0]


def test_s81_oros_five_all_scores_nothing() -> None:
    side0 = [*OROS[:5], *COPAS, *ESPADAS[:5]]  # 20 cards, five oros each
    detail = score(two_sides(side0))
    assert detail["oros_counts"] == [5, 5]
    assert detail["oros"] == [0, 0]
    detail = score(two_sides([*OROS[:6], *COPAS]))  # 6 against 4
    assert detail["oros"] == [1, 0]


def test_s81_siete_de_velo() -> None:
    assert score(two_sides(["7O"]))["velo"] == [1, 0]
    assert score(two_sides(["7C", "7E", "7B"]))["velo"] == [0, 1]


def test_s81_escobas_add_to_the_total() -> None:
    # Side 0 has O and C (20 cards, every class 2 and six figures), side 1 E and B:
    # cards 20-20 and prime tied; oros and velo to side 0.
    detail = score(two_sides([*OROS, *COPAS]), escobas=[3, 5])
    assert detail["cards"] == [0, 0]
    assert detail["prime"] == [0, 0]
    assert detail["oros"] == [1, 0]
    assert detail["velo"] == [1, 0]
    assert detail["escobas"] == [3, 5]
    assert detail["total"] == [5, 5]


def test_s82_prime_example_vectors() -> None:
    # §13: (2, 2, 1, ...) beats (2, 1, 3, ...) at the second key, whatever follows.
    a = ["7O", "7C", "6O", "6C", "1O"]
    b = ["7E", "7B", "6E", "1C", "1E", "1B", *[r + s for r in "5432" for s in SUITS]]
    c = rest_of(a, b)
    detail = score([a, b, c])
    assert detail["prime_keys"] == [
        [2, 2, 1, 0, 0, 0, 0, 0],
        [2, 1, 3, 4, 4, 4, 4, 0],
        [0, 1, 0, 0, 0, 0, 0, 12],
    ]
    assert detail["prime"] == [1, 0, 0]


def test_s82_prime_full_tie_and_the_figures_key() -> None:
    # Both sides (2,2,2,2,2,2,2,6): nobody scores the prime.
    assert score(two_sides([*OROS, *COPAS]))["prime"] == [0, 0]
    # Side 0 adds JE: (2,2,2,2,2,2,2,7) against (2,2,2,2,2,2,2,5), decided by the figures.
    detail = score(two_sides([*OROS, *COPAS, "JE"]))
    assert detail["prime_keys"] == [[2] * 7 + [7], [2] * 7 + [5]]
    assert detail["prime"] == [1, 0]
    # Sevens first: three sevens and nothing else beat one seven and everything else.
    detail = score(two_sides(["7O", "7C", "7E"]))
    assert detail["prime"] == [1, 0]


def test_s81_three_players_shared_best_scores_nothing() -> None:
    a = [*OROS[:4], *COPAS]  # 14 cards, 4 oros
    b = [*OROS[4:8], *ESPADAS]  # 14 cards, 4 oros
    c = rest_of(a, b)  # 12 cards, 2 oros
    detail = score([a, b, c])
    assert detail["card_counts"] == [14, 14, 12]
    assert detail["oros_counts"] == [4, 4, 2]
    assert detail["cards"] == [0, 0, 0]
    assert detail["oros"] == [0, 0, 0]
    # The best prime shared by two sides: nobody scores it, whatever the third holds.
    a = ["7O", "7C", "6O", "6C", "1O"]
    b = ["7E", "7B", "6E", "6B", "1C"]
    c = rest_of(a, b)  # no seven, no six: the lowest prime
    detail = score([a, b, c])
    assert detail["prime_keys"][0] == detail["prime_keys"][1] == [2, 2, 1, 0, 0, 0, 0, 0]
    assert detail["prime"] == [0, 0, 0]
    assert detail["cards"] == [0, 0, 1]  # c has 30 cards
    # A unique best still scores when the others tie below it.
    detail = score([[*OROS, *COPAS[:6]], [*COPAS[6:], *ESPADAS[:8]], [*ESPADAS[8:], *BASTOS]])
    assert detail["card_counts"] == [16, 12, 12]
    assert detail["cards"] == [1, 0, 0]


def test_s83_pagat_best_prime_examples() -> None:
    method = {"prime_method": "pagat_best_prime"}
    # 7,7,6,5 beats 7,7,ace,ace.
    a = ["7O", "7C", "6E", "5B"]
    b = ["7E", "7B", "1O", "1C"]
    assert score([a, b], **method)["prime"] == [1, 0]
    # 7,7,6,ace beats 7,7,6,5.
    a = ["7O", "7C", "6E", "1B"]
    b = ["7E", "7B", "6O", "5C"]
    assert score([a, b], **method)["prime"] == [1, 0]
    # An empty suit is lower than any card: 7,7,6,figure beats 7,7,6,(empty).
    a = ["7O", "7C", "6E"]
    b = ["7E", "7B", "6O", "JC"]
    assert score([a, b], **method)["prime"] == [0, 1]
    # Identical lists: nobody.
    a = ["7O", "6C", "1E", "5B"]
    b = ["7C", "6O", "1B", "5E"]
    assert score([a, b], **method)["prime"] == [0, 0]


def test_s83_pagat_best_prime_differs_from_seed_counts() -> None:
    # a holds its sixes in the suits of its sevens: 7O 6O 7C 6C -> best 7,7,(empty),(empty).
    # b holds 7E 7B 1O 1C -> best 7,7,ace,ace.  Seed counts: (2,2,0,..) beats (2,0,2,..).
    a = ["7O", "6O", "7C", "6C"]
    b = ["7E", "7B", "1O", "1C"]
    assert score([a, b])["prime"] == [1, 0]
    assert score([a, b], prime_method="pagat_best_prime")["prime"] == [0, 1]


def test_s83_primiera_points() -> None:
    method = {"prime_method": "primiera_points"}
    a = ["7O", "6C", "1E", "5B"]  # 21 + 18 + 16 + 15 = 70
    b = ["6O", "7C", "7E", "2B"]  # 18 + 21 + 21 + 12 = 72
    assert score([a, b], **method)["prime"] == [0, 1]
    # A side missing a suit has no valid setenta, however strong: the figures win.
    a = ["7O", "7C", "7E", "6O", "6C", "6E"]  # no bastos
    b = ["JO", "JC", "JE", "JB"]  # 10 * 4 = 40
    assert score([a, b], **method)["prime"] == [0, 1]
    assert score([a, b])["prime"] == [1, 0]  # the default method sees three sevens
    # No valid side at all: nobody.
    assert score([["7O", "7C"], ["7E", "7B"]], **method)["prime"] == [0, 0]
    # A tie for the highest total: nobody, even with a third, lower, valid side.
    a = ["7O", "6C", "1E", "5B"]  # 70
    b = ["6O", "7C", "5E", "1B"]  # 70
    c = ["JO", "JC", "JE", "JB"]  # 40
    assert score([a, b, c], **method)["prime"] == [0, 0, 0]
    # A sevens-and-sixes side with a figure in the fourth suit: 21+21+18+10 = 70 < 72.
    a = ["7O", "7C", "6E", "QB"]
    b = ["6O", "6C", "7E", "7B"]  # 18 + 18 + 21 + 21 = 78
    assert score([a, b], **method)["prime"] == [0, 1]


def test_s83_sevens_only() -> None:
    method = {"prime_method": "sevens_only"}
    a = ["7O", "7C", *[r + s for r in "6154" for s in SUITS]]
    b = ["7E", "7B"]
    assert score([a, b], **method)["prime"] == [0, 0]  # 2-2: the other ranks are ignored
    assert score([a, b])["prime"] == [1, 0]
    assert score([["7O", "7C", "7E"], ["7B", "6O", "6C"]], **method)["prime"] == [1, 0]
    assert score([["7O"], ["7C"], ["6O"]], **method)["prime"] == [0, 0, 0]


def test_s84_bonus_all_sevens() -> None:
    piles = two_sides(["7O", "7C", "7E", "7B"])  # 4 cards against 36
    off = score(piles)
    assert off["bonus_all_sevens"] == [0, 0]
    assert off["total"] == [2, 2]  # velo + prime against cards + oros
    on = score(piles, bonus_all_sevens=True)
    assert on["bonus_all_sevens"] == [1, 0]
    assert on["total"] == [3, 2]
    assert score(two_sides(["7O", "7C", "7E"]), bonus_all_sevens=True)["bonus_all_sevens"] == [0, 0]


def test_s84_bonus_all_oros() -> None:
    piles = two_sides(OROS)  # 10 cards against 30, one seven against three
    assert score(piles)["total"] == [2, 2]  # oros + velo against cards + prime
    on = score(piles, bonus_all_oros=True)
    assert on["bonus_all_oros"] == [1, 0]
    assert on["oros"] == [1, 0]
    assert on["total"] == [3, 2]
    nine = two_sides(OROS[:9])
    assert score(nine, bonus_all_oros=True)["bonus_all_oros"] == [0, 0]


def test_s84_bonus_cards_over_30() -> None:
    big = [*OROS, *COPAS, *ESPADAS, "1B"]  # 31 cards
    assert score(two_sides(big), bonus_cards_over_30=True)["cards"] == [2, 0]
    assert score(two_sides(big))["cards"] == [1, 0]
    thirty = [*OROS, *COPAS, *ESPADAS]  # 30 against 10: not more than 30
    assert score(two_sides(thirty), bonus_cards_over_30=True)["cards"] == [1, 0]
    three = [big, BASTOS[1:5], BASTOS[5:]]  # 31, 4, 5
    detail = score(three, bonus_cards_over_30=True)
    assert detail["cards"] == [2, 0, 0]
    assert detail["total"][0] == 2 + 1 + 1 + 1  # cards 2, oros, velo, prime


# == §9 the match =============================================================================


def match_a(setup: list[int] | None = None, hands: int = 1, **options: Any) -> Any:
    """Scenario A (points [9, 6]) from ``setup``; hand 2 replays it with the seats swapped."""
    game = new_game(2, **options)
    decks = [scenario_a_deck()] * hands
    state = game.new_match(
        decks=decks, dealer=A_DEALER, setup={"scores": setup} if setup is not None else None
    )
    return play(state, A_PLAYS)


def test_s9_unique_highest_at_target_wins() -> None:
    state = match_a([12, 14])  # 12 + 9 = 21, 14 + 6 = 20
    assert state.match_over
    assert state.hand_over
    assert state.winner == 0
    assert state.scores == [21, 20]
    assert state.to_act is None
    assert state.legal_actions() == []
    assert events_of(state, "match_end") == [{"type": "match_end", "winner": 0, "scores": [21, 20]}]
    with pytest.raises(IllegalActionError):
        state.apply(0)


def test_s9_both_above_target_the_higher_wins() -> None:
    state = match_a([14, 16])  # 23 against 22: side 1 led before the hand
    assert state.match_over
    assert state.winner == 0
    assert state.scores == [23, 22]


def test_s9_below_target_plays_on() -> None:
    state = match_a()
    assert state.scores == [9, 6]
    assert not state.match_over
    assert state.winner is None
    assert state.hand_number == 2
    assert state.dealer == 0


def test_s9_target_score_option() -> None:
    assert match_a(target_score=9).winner == 0  # exactly the target is enough
    state = match_a(target_score=10)
    assert not state.match_over
    assert state.scores == [9, 6]


def test_s9_tie_at_or_above_target_plays_another_hand() -> None:
    state = match_a([13, 16], hands=2)  # 22-22
    assert state.scores == [22, 22]
    assert not state.match_over
    assert state.winner is None
    assert events_of(state, "match_end") == []
    assert state.hand_number == 2
    assert state.dealer == 0  # next(1)
    assert state.to_act == 1
    # Hand 2 is the same pack with dealer 0: seat 1 is now the eldest and gets seat 0's
    # cards of hand 1, so the points swap to [6, 9].
    assert state.hand(1) == canon(["5C", "5E", "2C"])
    state = play(state, A_PLAYS)
    assert hand_end(state, 2)["points"] == [6, 9]
    assert state.match_over
    assert state.scores == [28, 31]
    assert state.winner == 1


def test_s9_three_sides_a_lower_side_wins_a_later_hand() -> None:
    # Scenario B gives eldest 2, middle 10, dealer 2.  Hand 1 (dealer 2): [2, 10, 2];
    # hand 2 (dealer 0, so seat 1 is eldest and seat 2 the middle): [2, 2, 10].
    game = new_game(3)
    deck = scenario_b_deck()
    state = game.new_match(decks=[deck, deck], dealer=B_DEALER, setup={"scores": [19, 11, 15]})
    state = play(state, B_PLAYS)
    assert state.scores == [21, 21, 17]  # tied at the target: another hand
    assert not state.match_over
    assert state.dealer == 0
    assert state.to_act == 1
    state = play(state, B_PLAYS)
    assert hand_end(state, 2)["points"] == [2, 2, 10]
    assert state.scores == [23, 23, 27]
    assert state.match_over
    assert state.winner == 2  # was below 21 after hand 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_s9_match_end_test_over_random_matches(n: int) -> None:
    # After every hand: add the hand points; the match ends exactly when one side alone
    # has the highest total and it is at least the target; otherwise the next seat deals.
    for seed in range(3):
        game = new_game(n, target_score=12)
        rng = Rng(500 + 10 * n + seed)
        state = game.new_match(seed=seed)
        totals = [0] * game.info.sides
        dealer = state.dealer
        while not state.match_over:
            number = state.hand_number
            state = state.apply(rng.choice(state.legal_actions()))
            if state.hand_number == number and not state.match_over:
                continue
            totals = [a + b for a, b in zip(totals, hand_end(state, number)["points"], strict=True)]
            assert state.scores == totals
            top = max(totals)
            decided = top >= 12 and totals.count(top) == 1
            assert state.match_over is decided
            if decided:
                assert state.winner == totals.index(top)
                assert events_of(state, "match_end")[-1]["winner"] == state.winner
            else:
                dealer = (dealer + 1) % n
                assert state.dealer == dealer
                assert state.winner is None


def test_s9_tied_scores_are_a_valid_setup() -> None:
    state = new_game(2).new_match(seed=3, setup={"scores": [21, 21]})
    assert state.scores == [21, 21]
    assert not state.match_over
    for bad in ([1, 2, 3], [-1, 0], "21", [1.5, 0]):
        with pytest.raises(RulesError):
            new_game(2).new_match(seed=3, setup={"scores": bad})


@pytest.mark.parametrize("n", [2, 3, 4])
def test_s9_dealer_rotates_every_hand(n: int) -> None:
    game = new_game(n, target_score=BIG_TARGET)
    rng = Rng(40 + n)
    state = game.new_match(seed=n, dealer=n - 1)
    dealers = [state.dealer]
    firsts = [state.to_act]
    while state.hand_number <= n + 1:
        number = state.hand_number
        state = state.apply(rng.choice(state.legal_actions()))
        if state.hand_number != number:
            dealers.append(state.dealer)
            firsts.append(state.to_act)
    assert dealers == [(n - 1 + h) % n for h in range(n + 2)]
    assert [d["dealer"] for d in events_of(state, "deal")] == dealers
    assert firsts == [(d + 1) % n for d in dealers]


def test_s3_first_dealer_option_and_seeded_draw() -> None:
    assert new_game(3, first_dealer=2).new_match(seed=1).dealer == 2
    assert new_game(3).new_match(seed=1, dealer=0).dealer == 0
    drawn = {new_game(3).new_match(seed=s).dealer for s in range(30)}
    assert drawn == {0, 1, 2}
    assert new_game(3).new_match(seed=9).dealer == new_game(3).new_match(seed=9).dealer
    with pytest.raises(RulesError):
        new_game(2, first_dealer=2)


# == §4 / §6.4 escoba_on_final_play_counts ====================================================

# With the full 40-card pack the option can never change a result: the values add up to
# 220 and every capture (and the opening take) removes a multiple of 15, so the table at
# the end of a hand is worth 10, 25, 40... and is never empty (§7.1).  A sweep with the
# hand's last card would leave it empty, so it cannot happen.  What can be tested: the
# option does not touch ordinary escobas, and the final-play rule itself on a position
# rebuilt with ``determinize`` (which does not check the §7.1 arithmetic).


def test_s64_final_play_option_leaves_ordinary_escobas_alone() -> None:
    state = play(start(2, scenario_a_deck(), A_DEALER, escoba_on_final_play_counts=False), A_PLAYS)
    check_breakdown(hand_end(state)["detail"], A_BREAKDOWN)


@pytest.mark.parametrize(("counts", "escobas"), [(True, [1, 0]), (False, [0, 0])])
def test_s64_final_play_sweep_on_a_rebuilt_position(counts: bool, escobas: list[int]) -> None:
    game = new_game(2, escoba_on_final_play_counts=counts)
    obs = game.new_match(seed=1, dealer=1).observation(0)
    rest = rest_of(["5O", "KO"])
    obs.update(
        hand=["5O"],
        hand_sizes=[1, 0],
        table=["KO"],
        stock_size=0,
        captured=[rest[:19], rest[19:]],
        last_capturer=1,
        escobas=[0, 0],
        escoba_markers=[],
        history=[],
        round=5,
        to_act=0,
    )
    state = game.determinize(obs, Rng(1))
    assert strings(state) == ["5O+KO"]
    state = state.apply("5O+KO")
    assert events_of(state, "play")[-1]["escoba"] is counts
    assert events_of(state, "table_taken") == []  # nothing is left on the table
    detail = hand_end(state)["detail"]
    assert detail["escobas"] == escobas
    assert detail["last_capturer"] == 0
    # Seat 0: rest[:19] (eight oros, 1C..KC, 1E) plus 5O and KO = 21 cards, all ten oros,
    # 7O, and the better prime (sevens 2-2, sixes 2-2, aces 3-1).
    assert detail["card_counts"] == [21, 19]
    assert detail["total"][0] == escobas[0] + 4  # cards, oros, velo, prime


# == §11 information ==========================================================================


VALUE_CODES = set(ALL_40)


def card_strings(obj: Any) -> set[str]:
    """Every card code named anywhere in a JSON value (action strings split on '+')."""
    found: set[str] = set()
    if isinstance(obj, str):
        for part in obj.split("+"):
            if part in VALUE_CODES:
                found.add(part)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            found |= card_strings(k) | card_strings(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            found |= card_strings(v)
    return found


@pytest.mark.parametrize("n", [2, 3, 4])
def test_s11_observations_hide_other_hands_and_the_stock(n: int) -> None:
    game = new_game(n, target_score=BIG_TARGET)
    rng = Rng(70 + n)
    state = game.new_match(seed=n)
    for step in range(3 * 36):
        if step % 3 == 0:
            stock = state.stock()
            views = [state.observation(s) for s in range(n)]
            spectator = state.observation(None)
            for seat, obs in enumerate(views):
                assert obs["hand"] == state.hand(seat)
                hidden = set(stock).union(*(state.hand(o) for o in range(n) if o != seat))
                assert not card_strings(obs) & hidden, (seat, card_strings(obs) & hidden)
                assert obs["stock_size"] == len(stock)
                assert obs["hand_sizes"] == [len(state.hand(s)) for s in range(n)]
                # Public: the table, every side's pile and the escoba markers.
                assert obs["table"] == state.table()
                sides = len(obs["captured"])
                assert obs["captured"] == [state.captured(side) for side in range(sides)]
                assert obs["escoba_markers"] == spectator["escoba_markers"]
                assert obs["history"] == spectator["history"]
                assert obs["scores"] == state.scores
            assert spectator["hand"] == []
            assert spectator["legal_actions"] == []
            assert not card_strings(spectator) & set(stock).union(
                *(state.hand(s) for s in range(n))
            )
            assert views[state.to_act]["legal_actions"] == strings(state)
            assert all(v["legal_actions"] == [] for s, v in enumerate(views) if s != state.to_act)
        state = state.apply(rng.choice(state.legal_actions()))


def test_s11_history_and_piles_are_public() -> None:
    state = play(start(2, scenario_a_deck(), A_DEALER), A_PLAYS[:6])
    for seat in (0, 1, None):
        obs = state.observation(seat)
        assert obs["captured"] == [
            canon(["5C", "1O", "2O", "3O", "4O", "5E", "KC"]),
            canon(["6C", "7C", "2C"]),
        ]
        assert [m["card"] for m in obs["escoba_markers"]] == ["5C", "5E", "6C"]
        assert [h["card"] for h in obs["history"]] == ["5C", "KC", "5E", "7C", "2C", "6C"]
        assert obs["last_capturer"] == 1
        assert obs["dealer"] == A_DEALER


def test_s11_history_is_the_final_hands_when_the_match_ends() -> None:
    state = match_a([13, 16], hands=2)  # hand 1 ends 22-22, hand 2 is dealt
    assert state.observation(0)["history"] == []
    state = play(state, A_PLAYS)  # hand 2 ends 28-31: the match is over
    assert state.match_over
    assert state.hand_number == 2
    history = state.observation(0)["history"]
    assert [h["card"] for h in history] == [p.split("+")[0] for p in A_PLAYS]


# == notation =================================================================================


def test_notation_any_order_and_lower_case() -> None:
    game = new_game()
    canonical = game.string_to_action("4C+3O+2C+6E")
    assert game.action_to_string(canonical) == "4C+3O+2C+6E"
    for text in ("4C+2C+3O+6E", "4c+6e+3o+2c", "4C + 6E + 2C + 3O", "4c+2c+3o+6e"):
        assert game.string_to_action(text) == canonical
    assert game.string_to_action("aE+KO+4C") == game.string_to_action("1E+4C+KO")
    state = example_state()
    assert state.apply("4c+6e+2c+3o") == state.apply("4C+3O+2C+6E")


@pytest.mark.parametrize(
    "text",
    [
        "5B+6E",  # 11
        "4C+2C+3O",  # 9
        "5O+KO+KC",  # 25
        "KO+KC",  # 20
        "5O+KO+KO",  # a card twice
        "5O+5O+KO",  # the played card taken too
        "8O+7C",  # no 8s in this pack
        "7X+JO",  # no such suit
        "ZZ",
        "",
        "5O+",
        "+KO",
        "5O++KO",
    ],
)
def test_notation_rejects_bad_strings(text: str) -> None:
    game = new_game()
    with pytest.raises(InvalidActionError):
        game.string_to_action(text)
    state = example_state()
    with pytest.raises(InvalidActionError):
        state.apply(text)


def test_notation_bad_ids() -> None:
    game = new_game()
    for bad in (-1, 84488, 10**9):
        with pytest.raises(InvalidActionError):
            game.action_to_string(bad)
        with pytest.raises(InvalidActionError):
            example_state().apply(bad)


def test_notation_round_trip_in_random_play() -> None:
    rng = Rng(11)
    for n in (2, 3, 4):
        game = new_game(n, target_score=BIG_TARGET)
        state = game.new_match(seed=100 + n)
        for _ in range(80):
            hand, table = state.hand(state.to_act), state.table()
            for a in state.legal_actions():
                text = game.action_to_string(a)
                assert game.string_to_action(text) == a
                assert game.string_to_action(text.lower()) == a
                card, *taken = text.split("+")
                assert card in hand
                assert set(taken) <= set(table)
                assert taken == canon(taken)
                if taken:
                    assert a >= 40
                    assert value(card) + total(taken) == 15
                    shuffled = "+".join([card, *rng.shuffled(taken)])
                    assert game.string_to_action(shuffled) == a
                else:
                    assert a == LATIN_40.parse(card)
            state = state.apply(rng.choice(state.legal_actions()))


def test_record_holds_the_pack_and_the_plays() -> None:
    deck = scenario_a_deck()
    state = play(start(2, deck, A_DEALER), A_PLAYS[:10])
    record = state.record()
    assert record["deals"][0] == {"deal": 1, "dealer": A_DEALER, "deck": deck}
    assert [a["action"] for a in record["actions"]] == [act(*p.split("+")) for p in A_PLAYS[:10]]
    assert [a["seat"] for a in record["actions"]] == [0, 1] * 5
