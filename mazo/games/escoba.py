"""Escoba (escoba del 15) for 2, 3 and 4 players, as specified in ``rules/escoba.md``.

Rules profile (rules version 1)
-------------------------------
* 40-card Latin pack.  Capture values: pips as printed (1-7), sota ``J`` = 8, caballo
  ``Q`` = 9, rey ``K`` = 10.  ``deck_style`` changes labels only.
* Deal: three cards each (one at a time by default, ``deal_packet_size``), starting with
  the seat after the dealer, then four cards face up on the table.  If the table adds up
  to 15 the dealer (``initial_escoba_to``) takes it for one escoba; 30 gives two.
* A turn is one card plus the exact set of table cards it captures: the played card and
  the set must make 15.  A card that can capture must capture (the player may still play
  another card); a card that cannot is laid on the table.  A capture that empties the
  table is an escoba.  When all hands are empty, three more cards each are dealt from the
  stock (none to the table).  At the end the last capturer takes what is left (not an
  escoba).
* Scoring per side: each escoba 1; most cards 1; most oros 1; the siete de velo (``7O``)
  1; the prime (setenta) 1.  A majority point goes only to a unique best side.
* The match ends after a hand when exactly one side has the highest total and it is at
  least ``target_score`` (21).  The deal passes to the next seat after every hand.

Action layout (``num_actions = 84488``)
---------------------------------------
======= ====================================================================
id      action
======= ====================================================================
0-39    lay that card on the table (a trail; card id in the Latin 40-card pack,
        suit-major O C E B, ranks 1..7 J Q K; ``7O`` is 6)
40-...  play a card and capture a set of table cards (``7O+5C+3B``, played card
        first).  Every (card, set) whose values make 15 has one fixed id: cards in
        canonical order, and for each card its sets ordered by size, then
        lexicographically in canonical card order.  84,448 ids in all.
======= ====================================================================

``legal_actions()`` is sorted by id, so trails come before captures.  Within the
captures the order is the rules file's canonical enumeration.

Decisions where the rules file leaves room (see also docs/escoba.md)
--------------------------------------------------------------------
* The log has no "trick" events (Escoba has no tricks): a play event carries the
  captured cards and whether it was an escoba.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from operator import attrgetter
from typing import Any

from mazo.core import FIRST_DEALER, HAND_OVER, OVER, PHASE_MASK, Option, int_at_least
from mazo.core.cards import LATIN_40, iter_bits
from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import DealFacts, DealStart, EventLogState, Game, MatchStart, fresh
from mazo.core.rng import Rng, derive_seed

__all__ = ["OPTIONS", "EscobaGame", "EscobaState", "capture_value"]

JSON = dict[str, Any]
DECK = LATIN_40
NUM_CARDS = 40
_FULL = (1 << NUM_CARDS) - 1
_OFF = tuple(40 * s for s in range(4))
_CODES: tuple[str, ...] = tuple(DECK.format(c) for c in range(NUM_CARDS))
VALUE: tuple[int, ...] = tuple(c % 10 + 1 for c in range(NUM_CARDS))
_OROS = DECK.suit_masks[0]
_VELO = DECK.parse("7O")
_RANK_MASK = {r: sum(1 << (s * 10 + i) for s in range(4)) for i, r in enumerate(DECK.ranks)}
_FIGURES = _RANK_MASK["J"] | _RANK_MASK["Q"] | _RANK_MASK["K"]
# Prime classes, best first: 7, 6, ace, 5, 4, 3, 2, figures.
_PRIME_CLASSES = ("7", "6", "1", "5", "4", "3", "2", "F")
_PRIME_CLASS_MASKS = tuple(_FIGURES if r == "F" else _RANK_MASK[r] for r in _PRIME_CLASSES)
_PRIMIERA_POINTS = {"7": 21, "6": 18, "1": 16, "5": 15, "4": 14, "3": 13, "2": 12, "F": 10}

PLAY = 0
_PHASE_MASK, _HAND_OVER = PHASE_MASK, HAND_OVER


def capture_value(card: str) -> int:
    """The value a card adds toward 15: pips as printed, J 8, Q 9, K 10.

    >>> capture_value("7O"), capture_value("JE"), capture_value("KB")
    (7, 8, 10)
    """
    return VALUE[DECK.parse(card)]


OPTIONS: tuple[Option, ...] = (
    Option(
        "four_player_mode",
        "partnership",
        ("partnership", "individual"),
        "4 players: two partnerships (0+2 against 1+3), or everyone alone",
    ),
    Option(
        "deck_style",
        "spanish",
        ("spanish", "french_numeric", "french_faces"),
        "card labels only: Spanish names, French A-10, or French A-7 J Q K",
    ),
    Option("deal_packet_size", 1, (1, 3), "deal one card at a time, or three at once"),
    Option(
        "target_score",
        21,
        None,
        "points to win the match (15 and 30 are common too)",
        check=int_at_least(1),
        describe="a positive integer",
    ),
    Option(
        "prime_method",
        "seed_counts",
        ("seed_counts", "pagat_best_prime", "primiera_points", "sevens_only"),
        "how the prime (setenta) point is decided",
    ),
    Option(
        "initial_escoba_to",
        "dealer",
        ("dealer", "eldest"),
        "who takes an opening table of 15 or 30",
    ),
    Option(
        "initial_thirty_requires_two_fifteens",
        False,
        (False, True),
        "an opening table of 30 scores only if it splits into two groups of 15",
    ),
    Option(
        "escoba_on_final_play_counts",
        True,
        (True, False),
        "a sweep with the very last card of the hand counts as an escoba",
    ),
    Option("bonus_all_sevens", False, (False, True), "+1 to a side with all four sevens"),
    Option("bonus_all_oros", False, (False, True), "+1 to a side with all ten oros"),
    Option(
        "bonus_cards_over_30",
        False,
        (False, True),
        "the cards point is worth 2 with more than 30 cards while every other side has < 10",
    ),
    FIRST_DEALER,
)


# -- the fixed capture action table -------------------------------------------------------

_CAPTURES: list[tuple[int, int]] = []  # id - 40 -> (card, captured mask)
_CAPTURE_IDS: list[dict[int, int]] = []  # card -> {captured mask: id}


def _capture_table() -> tuple[list[tuple[int, int]], list[dict[int, int]]]:
    """Build the (card, set) enumeration once, on first use (about 84k entries).

    >>> captures, ids = _capture_table()
    >>> len(captures) + 40 == NUM_ACTIONS
    True
    >>> EscobaGame().action_to_string(40)  # 1O's first set: no single card, then 4O+KO
    '1O+4O+KO'

    """
    if _CAPTURES:
        return _CAPTURES, _CAPTURE_IDS
    # Every set of cards worth 5..14 in all, as (ascending card tuple, mask), by its value
    # and size.  A set grows only by the cards after its last one that still fit (the
    # cards worth at most ``b``, ascending, are ``fits[b]``).
    fits = [[c for c in range(NUM_CARDS) if VALUE[c] <= b] for b in range(15)]
    by_size: dict[tuple[int, int], list[tuple[tuple[int, ...], int]]] = {}
    stack: list[tuple[int, int, tuple[int, ...], int]] = [(0, 0, (), 0)]
    while stack:
        start, total, cards, mask = stack.pop()
        room = fits[14 - total]
        for i in range(bisect_left(room, start), len(room)):
            c = room[i]
            t = total + VALUE[c]
            grown = (*cards, c)
            grown_mask = mask | 1 << c
            if t >= 5:
                by_size.setdefault((t, len(grown)), []).append((grown, grown_mask))
            if t <= 13:
                stack.append((c + 1, t, grown, grown_mask))
    masks: dict[int, list[int]] = {t: [] for t in range(5, 15)}
    for t, size in sorted(by_size):  # smaller sets first, then by their cards
        masks[t].extend(m for _cards, m in sorted(by_size[t, size]))
    captures = _CAPTURES
    for card in range(NUM_CARDS):
        bit = 1 << card
        first = 40 + len(captures)
        sets_of = [m for m in masks[15 - VALUE[card]] if not m & bit]
        captures.extend([(card, m) for m in sets_of])
        _CAPTURE_IDS.append(dict(zip(sets_of, range(first, first + len(sets_of)), strict=True)))
    return _CAPTURES, _CAPTURE_IDS


NUM_ACTIONS = 40 + 84448


_SUBSETS: dict[int, dict[int, list[int]]] = {}


def _table_subsets(table_mask: int) -> dict[int, list[int]]:
    """Subsets of the table with a sum of 14 or less, by sum (cached by table)."""
    found = _SUBSETS.get(table_mask)
    if found is not None:
        return found
    cards = list(iter_bits(table_mask))
    by_sum: dict[int, list[int]] = {}

    def grow(start: int, total: int, mask: int) -> None:
        for i in range(start, len(cards)):
            c = cards[i]
            t = total + VALUE[c]
            if t <= 14:
                m = mask | 1 << c
                by_sum.setdefault(t, []).append(m)
                grow(i + 1, t, m)

    grow(0, 0, 0)
    if len(_SUBSETS) > 50_000:
        _SUBSETS.clear()
    _SUBSETS[table_mask] = by_sum
    return by_sum


def _plays_on(hand: int, table_mask: int) -> list[tuple[int, int]]:
    """Every play of ``hand`` (a mask) on the table (a mask), as (card, cards taken; 0 for
    a trail), card by card: a card that makes fifteen with some table cards must take
    one such set (rules §6), any other card is laid.  The legal actions, as masks, in the
    order of the hand's cards: for readers of the play (a bot's model of another seat)
    that must agree with what the engine would have allowed."""
    subsets = _table_subsets(table_mask)
    out: list[tuple[int, int]] = []
    for card in iter_bits(hand):
        sets = subsets.get(15 - VALUE[card])
        if sets:
            out.extend((card, taken) for taken in sets)
        else:
            out.append((card, 0))
    return out


# The capture ids of one card from one table, sorted (empty: the card can only be laid),
# by ``table_mask << 6 | card`` (filled by EscobaState._compute_legal); emptied when it
# holds this many entries.
_CARD_ACTIONS: dict[int, tuple[int, ...]] = {}
_CARD_ACTIONS_LIMIT = 200_000


# -- the game -------------------------------------------------------------------------------


class _Hand(DealFacts):
    """What is fixed for one hand (one pass through the pack), shared by its states."""

    __slots__ = ("dealer", "deck", "number", "packs", "scores", "seed")

    number: int
    dealer: int
    deck: tuple[int, ...]
    scores: tuple[int, ...]  # match totals per side before this hand
    seed: int
    packs: tuple[tuple[int, ...], ...]  # fixed packs for later hands (replays)

    def copy(self) -> _Hand:
        """A new object with the same fields, as the base class's copy makes it, field by
        field without its lookups by name (every search sample's hand end copies it)."""
        out = _new_hand(_Hand)
        out.dealer = self.dealer
        out.deck = self.deck
        out.number = self.number
        out.packs = self.packs
        out.scores = self.scores
        out.seed = self.seed
        return out


_new_hand = object.__new__


class EscobaGame(Game):
    """Escoba rules, configured by player count and options."""

    name = "escoba"
    rules_version = 1
    player_counts = (2, 3, 4)
    default_players = 2
    option_specs = OPTIONS

    def _configure(self) -> None:
        n = self.players
        self.teams = n == 4 and self.options["four_player_mode"] == "partnership"
        self.sides = 2 if self.teams else n
        self.side_of: tuple[int, ...] = tuple(s % 2 if self.teams else s for s in range(n))
        self.target: int = self.options["target_score"]
        opts = self.options
        # Two sides, the prime by seed counts, no bonus: _score_hand's short path.
        self._plain_two = (
            self.sides == 2
            and opts["prime_method"] == "seed_counts"
            and not (opts["bonus_all_sevens"] or opts["bonus_all_oros"])
            and not opts["bonus_cards_over_30"]
        )
        # By dealer: the hand bits' offset of the seat that gets each card of a deal.
        self._deal_offsets = tuple(
            tuple(_OFF[seat] for seat in _deal_targets(self, dealer)) for dealer in range(n)
        )
        self._describe(
            NUM_ACTIONS,
            DECK,
            self.teams,
            score_unit="points",
            score_target=self.target,
            card_actions=NUM_ACTIONS,  # a capture is a card play too
        )

    # -- notation ----------------------------------------------------------------

    def _move_string(self, action: int) -> str:
        """``7O+5C+3B`` for a capture, played card first (a trail is the card: ``7O``)."""
        card, mask = _capture_table()[0][action - 40]
        return "+".join([_CODES[card], *(_CODES[c] for c in iter_bits(mask))])

    def string_to_action(self, text: str) -> int:
        """Parse ``7O`` (lay the card) or ``7O+5C+3B`` (capture; any order after the ``+``)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"{text!r} is not an action string")
        parts = [p for p in text.replace(" ", "").split("+")]
        if any(not p for p in parts):
            raise InvalidActionError(
                f"{text!r}: write a play as the card (7O) or the card and the cards it "
                "takes joined by + (7O+5C+3B)"
            )
        try:
            cards = [DECK.parse(p) for p in parts]
        except InvalidActionError as err:
            raise InvalidActionError(f"{text!r}: {err}") from None
        card = cards[0]
        if len(cards) == 1:
            return card
        mask = 0
        for c in cards[1:]:
            if c == card or mask >> c & 1:
                raise InvalidActionError(f"{text!r} names a card twice")
            mask |= 1 << c
        action = _capture_table()[1][card].get(mask)
        if action is None:
            total = sum(VALUE[c] for c in cards)
            raise InvalidActionError(
                f"{text!r} is not a capture: the played card and the cards taken add up to "
                f"{total}, and a capture must make exactly 15 (J=8, Q=9, K=10)"
            )
        return action

    # -- matches -------------------------------------------------------------------

    def _new_match(self, start: MatchStart) -> EscobaState:
        _capture_table()
        dealer = self.first_dealer(start.seed, start.dealer)
        seed = derive_seed(start.seed, "deals")
        return _start_hand(self, 1, dealer, start.scores, seed, start.packs, None)

    def determinize(self, observation: Mapping[str, Any], rng: Rng) -> EscobaState:
        """A full state consistent with ``observation``; unseen cards dealt at random."""
        # A state reads the capture table directly (legal actions, plays): build it here
        # too, as _new_match does. A fresh process (a server's bot worker) may determinize
        # before anything else built it; its first capture then raised IndexError.
        _capture_table()
        return _determinize(self, observation, rng)

    def sampler(self, observation: Mapping[str, Any]) -> Callable[[Rng], EscobaState]:
        """``determinize`` for many samples of one observation: read it once (the same
        samples, draw for draw)."""
        _capture_table()
        return _sampler(self, observation)


def _deal_targets(game: EscobaGame, dealer: int) -> list[int]:
    """Seat receiving each of the 3n cards of a deal from the top of the stock."""
    n = game.players
    if game.options["deal_packet_size"] == 1:
        return [(dealer + 1 + k) % n for k in range(3 * n)]
    return [(dealer + 1 + j) % n for j in range(n) for _ in range(3)]


def _splits_into_fifteens(cards: tuple[int, ...]) -> bool:
    """Do four cards split into two disjoint groups of 15?  (No single card reaches 15.)"""
    a, b, c, d = (VALUE[x] for x in cards)
    # The four add up to 30, so if the first card pairs up to 15 the other two do too.
    return 15 in (a + b, a + c, a + d)


def _start_hand(
    game: EscobaGame,
    number: int,
    dealer: int,
    scores: tuple[int, ...],
    seed: int,
    packs: tuple[tuple[int, ...], ...],
    prev: EscobaState | None,
) -> EscobaState:
    n = game.players
    pack, packs = game._next_pack(packs, seed, number)
    hand = _Hand.begin(number, dealer, scores, seed, packs)
    hand.deck = pack
    hands = 0
    for seat, card in zip(_deal_targets(game, dealer), pack, strict=False):
        hands |= 1 << (_OFF[seat] + card)
    table = pack[3 * n : 3 * n + 4]
    sp = 3 * n + 4
    ev: Any = (prev._ev if prev is not None else None, "deal", hand)
    piles = 0
    escobas = [0] * game.sides
    markers: tuple[tuple[int, int | None, int], ...] = ()
    last = None
    total = sum(VALUE[c] for c in table)
    count = 1 if total == 15 else 2 if total == 30 else 0
    if count == 2 and game.options["initial_thirty_requires_two_fifteens"]:
        count = 2 if _splits_into_fifteens(table) else 0
    if count:
        taker = dealer if game.options["initial_escoba_to"] == "dealer" else (dealer + 1) % n
        side = game.side_of[taker]
        tmask = 0
        for c in table:
            tmask |= 1 << c
        piles |= tmask << _OFF[side]
        escobas[side] += count
        # One marker per escoba: for 30 the dealer turns two cards face up (rules §5.2).
        markers = ((taker, None, tmask),) * count
        last = taker
        table = ()
        ev = (ev, "opening", taker, tmask, count)
    mode = PLAY | (_HAND_OVER if prev is not None else 0)
    state = EscobaState._made(game, hand, hands, mode, (dealer + 1) % n, ev)
    state._table = table
    state._sp = sp
    state._piles = piles
    state._esc = tuple(escobas)
    state._marks = markers
    state._last = last
    state._round = 0
    state._legal = None
    return state


_new_state = object.__new__


class EscobaState(EventLogState):
    """An immutable Escoba match position.

    ``_h`` packs every seat's hand (seat ``s`` owns bits ``40s..40s+39``) and ``_piles``
    every side's captured cards the same way; ``_table`` keeps the table in the order
    the cards were laid; ``_ev`` is a persistent list of log nodes.
    """

    __slots__ = (
        "_d",
        "_esc",
        "_ev",
        "_g",
        "_h",
        "_last",
        "_legal",
        "_m",
        "_marks",
        "_piles",
        "_round",
        "_sp",
        "_table",
        "to_act",
    )

    _g: EscobaGame
    _d: _Hand
    _h: int
    _table: tuple[int, ...]
    _sp: int
    _piles: int
    _esc: tuple[int, ...]
    _marks: tuple[tuple[int, int | None, int], ...]  # (seat, marker card or None, cards taken)
    _last: int | None
    to_act: int | None
    """The seat the game waits for, or None when the match is over."""
    _m: int
    _round: int  # 0 for the opening deal, then 1, 2, ... for redeals
    _ev: Any
    _legal: list[int] | None

    @property
    def hand_number(self) -> int:
        """1-based number of the hand in progress."""
        return self._d.number

    # Omniscient views, for tests and tools; never hand them to a client or a bot.

    def hand(self, seat: int) -> list[str]:
        """The cards in a seat's hand."""
        return DECK.codes(self._h >> _OFF[seat] & _FULL)

    def table(self) -> list[str]:
        """The table, in the order the cards were laid."""
        return [_CODES[c] for c in self._table]

    def stock(self) -> list[str]:
        """The undealt stock, next card first."""
        return [_CODES[c] for c in self._d.deck[self._sp :]]

    def captured(self, side: int) -> list[str]:
        """The cards a side has captured this hand."""
        return DECK.codes(self._piles >> _OFF[side] & _FULL)

    def _copy(self) -> EscobaState:
        """A new state with the same slots (sharing their values), as the base class's
        copy makes it, slot by slot without its walk over the classes: a search marks
        each of its samples with a copy (``stop_at_deal_end``).  Every way a state is made
        sets all of its slots."""
        new = _new_state(EscobaState)
        new._d = self._d
        new._esc = self._esc
        new._ev = self._ev
        new._g = self._g
        new._h = self._h
        new._last = self._last
        new._legal = self._legal
        new._m = self._m
        new._marks = self._marks
        new._piles = self._piles
        new._round = self._round
        new._sp = self._sp
        new._table = self._table
        new.to_act = self.to_act
        return new

    # -- actions --------------------------------------------------------------------

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Sorted action ids for ``seat`` (default: the seat to act)."""
        to_act = self.to_act
        if to_act is None or (seat is not None and seat != to_act):
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal(to_act)
        return list(legal)

    def _compute_legal(self, seat: int) -> list[int]:
        table_mask = 0
        for c in self._table:
            table_mask |= 1 << c
        if not self._g.stops_at_deal_end:
            # Play outside a search meets new tables: the memo below would mostly miss.
            subsets = _table_subsets(table_mask)
            trails: list[int] = []
            taking: list[int] = []
            for card in iter_bits(self._h >> _OFF[seat] & _FULL):
                sets = subsets.get(15 - VALUE[card])
                if sets:
                    card_ids = _CAPTURE_IDS[card]
                    taking.extend([card_ids[m] for m in sets])
                else:
                    trails.append(card)
            taking.sort()
            trails.extend(taking)
            return trails
        # A search's rollouts meet the same tables again and again (paired worlds above
        # all), so its samples (marked stop_at_deal_end) memoize each card's captures.  A
        # card's capture ids all come before the next card's (the table numbers them card
        # by card): the hand's cards in order, each card's ids sorted, are sorted.
        memo = _CARD_ACTIONS
        key = table_mask << 6
        out: list[int] = []
        captures: list[int] = []
        known: dict[int, list[int]] | None = None
        hand = self._h >> _OFF[seat] & _FULL
        while hand:
            low = hand & -hand
            card = low.bit_length() - 1
            hand ^= low
            ids = memo.get(key | card)
            if ids is None:
                if known is None:
                    known = _table_subsets(table_mask)
                    if len(memo) >= _CARD_ACTIONS_LIMIT:
                        memo.clear()
                found = known.get(15 - VALUE[card])
                if found:
                    ids_of = _CAPTURE_IDS[card]
                    ids = memo[key | card] = tuple(sorted([ids_of[m] for m in found]))
                else:
                    ids = memo[key | card] = ()
            if ids:
                captures.extend(ids)
            else:
                out.append(card)
        out.extend(captures)
        return out

    def apply(self, action: int | str, seat: int | None = None) -> EscobaState:
        """A new state after ``action`` by ``seat`` (default ``to_act``); old one untouched."""
        a = action if type(action) is int else self._g.action_id(action)
        to_act = self.to_act
        game = self._g
        if to_act is None:
            raise self._no_action(self._name(a))
        if seat is not None and (seat != to_act or type(seat) is not int):
            if type(seat) is not int or not 0 <= seat < game.players:
                raise IllegalActionError(f"seat must be 0..{game.players - 1}, not {seat!r}")
            raise IllegalActionError(self._not_turn(self._name(a), seat))
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal(to_act)
        if a not in legal:
            raise IllegalActionError(self._why_illegal(a, to_act, legal))
        return self._play(to_act, a)

    def apply_unchecked(self, action: int | str, seat: int | None = None) -> EscobaState:
        """Search's fast path: an action id from ``legal_actions()`` of the seat to act,
        played without the check (so the legal actions are not listed for it); anything
        else goes through :meth:`apply`."""
        to_act = self.to_act
        if type(action) is int and to_act is not None and (seat is None or seat == to_act):
            return self._play(to_act, action)
        return self.apply(action, seat)

    def _name(self, a: int) -> str:
        return self._g.action_to_string(a)  # an id out of range raises, saying the range

    def _why_illegal(self, a: int, seat: int, legal: list[int]) -> str:
        text = self._name(a)
        card = a if a < NUM_CARDS else _CAPTURES[a - 40][0]
        if not self._h >> (_OFF[seat] + card) & 1:
            return f"{text}: {_CODES[card]} is not in seat {seat}'s hand"
        mine = [x for x in legal if (x if x < NUM_CARDS else _CAPTURES[x - 40][0]) == card]
        options = ", ".join(self._g.action_to_string(x) for x in mine)
        if a < NUM_CARDS:
            return f"{text}: {_CODES[card]} can capture, so it must; its captures: {options}"
        return (
            f"{text}: those cards are not all on the table; "
            f"{_CODES[card]} can be played as: {options}"
        )

    def _play(self, seat: int, a: int) -> EscobaState:
        """``a`` by ``seat``, the seat to act (checked by the caller, or a search's own)."""
        game = self._g
        if a < NUM_CARDS:
            card, taken = a, 0
        else:
            card, taken = _CAPTURES[a - 40]
        hands = self._h & ~(1 << (40 * seat + card))
        new = _new_state(EscobaState)
        new._g = game
        new._d = self._d
        new._h = hands
        new._sp = self._sp
        new._round = self._round
        new._m = self._m & ~_HAND_OVER
        new._legal = None
        escoba = False
        if taken:
            # A loop, not a list comprehension: in Python 3.11 that is a function call.
            kept: list[int] = []
            for c in self._table:
                if not taken >> c & 1:
                    kept.append(c)
            side = game.side_of[seat]
            new._piles = self._piles | (taken | 1 << card) << 40 * side
            new._last = seat
            esc, marks = self._esc, self._marks
            if not kept:
                final = hands == 0 and self._sp >= NUM_CARDS
                if game.options["escoba_on_final_play_counts"] or not final:
                    escoba = True
                    esc = tuple(e + (s == side) for s, e in enumerate(esc))
                    marks = (*marks, (seat, card, taken))
            new._table = tuple(kept)
            new._esc = esc
            new._marks = marks
        else:
            new._table = (*self._table, card)
            new._piles = self._piles
            new._last = self._last
            new._esc = self._esc
            new._marks = self._marks
        new._ev = (self._ev, "play", seat, card, taken, escoba)
        if hands:
            new.to_act = (seat + 1) % game.players
            return new
        if new._sp < NUM_CARDS:
            return _redeal(new)
        return _end_hand(new)

    def play_to_deal_end(self, picks: Sequence[Callable[..., int]]) -> EscobaState:
        """The line's state at this hand's end when every move from here is seat
        ``s``'s ``picks[s](seat, hands, table, sp, piles, escobas, last)`` (the packed
        hands, the table as a mask, the stock position, the packed piles, the escobas
        per side, the last capturer or None) returning an action id: the same final
        state and log as :meth:`apply` move by move (tested), without building the
        states between.  For a search's rollouts: from a state of plain play on a line
        that stops at the deal's end.  A pick must return a legal action (not checked:
        it is the search's own policy).

        The table is kept as a mask here: its order (the order the cards were laid) is
        read by nothing that follows within the hand, and the hand's end reads its cards
        only (the log's plays carry the masks taken)."""
        game = self._g
        if self._m or not game.stops_at_deal_end or self.to_act is None:
            raise RulesError("play_to_deal_end plays a stopped search line's card play only")
        n = game.players
        side_of = game.side_of
        escoba_last = game.options["escoba_on_final_play_counts"]
        hd = self._d
        deck = hd.deck
        captures = _CAPTURES
        h = self._h
        sp = self._sp
        piles = self._piles
        esc = self._esc
        marks = self._marks
        last = self._last
        rnd = self._round
        ev = self._ev
        table = 0
        for c in self._table:
            table |= 1 << c
        seat = self.to_act
        while True:
            a = picks[seat](seat, h, table, sp, piles, esc, last)
            if a < NUM_CARDS:
                card, taken = a, 0
            else:
                card, taken = captures[a - 40]
            h &= ~(1 << (40 * seat + card))
            escoba = False
            if taken:
                table &= ~taken
                side = side_of[seat]
                piles |= (taken | 1 << card) << 40 * side
                last = seat
                # As _play: a sweep is an escoba unless it is the hand's very last
                # card and the option does not count that one.
                if not table and (escoba_last or h or sp < NUM_CARDS):
                    escoba = True
                    esc = (*esc[:side], esc[side] + 1, *esc[side + 1 :])
                    marks = (*marks, (seat, card, taken))
            else:
                table |= 1 << card
            ev = (ev, "play", seat, card, taken, escoba)
            if h:
                seat = seat + 1 if seat + 1 < n else 0
                continue
            if sp < NUM_CARDS:  # _redeal's three more cards each
                for off in game._deal_offsets[hd.dealer]:
                    h |= 1 << (off + deck[sp])
                    sp += 1
                rnd += 1
                seat = (hd.dealer + 1) % n
                ev = (ev, "redeal", rnd)
                continue
            end = _new_state(EscobaState)
            end._g = game
            end._d = hd
            end._h = 0
            end._sp = sp
            end._round = rnd
            end._m = 0
            end._legal = None
            end._table = ()  # _end_hand empties it: the cards left are ``table``
            end._piles = piles
            end._last = last
            end._esc = esc
            end._marks = marks
            end._ev = ev
            end.to_act = None
            return _end_hand(end, table)

    # -- information -----------------------------------------------------------------

    def _observation(self, seat: int | None) -> JSON:
        return _observe(self, seat)

    def _event(self, node: tuple[Any, ...]) -> JSON:
        """The event of a log node (everything in Escoba's log is public)."""
        return _event_json(self._g, node)

    def events_for(self, seat: int | None) -> list[JSON]:
        """The log as ``seat`` saw it (Escoba has no private events)."""
        return self.events

    def _recorded(self) -> Iterator[DealStart | tuple[int, str]]:
        """The hands and plays of the log (a play with what it takes), for :meth:`record`."""
        for node in self._nodes():
            kind = node[1]
            if kind == "deal":
                yield node[2].started()
            elif kind == "play":
                _p, _k, seat, card, taken, _esc = node
                yield seat, "+".join([_CODES[card], *(_CODES[c] for c in iter_bits(taken))])

    def _repr_parts(self) -> tuple[str, str]:
        return f"hand {self._d.number}", f"scores {self.scores}"

    def _table_text(self) -> str:
        return f"table [{self._cards_text(self._table)}]"

    @property
    def _stock_key(self) -> tuple[int, ...]:
        return self._d.deck[self._sp :]

    # Everything that decides the match's future and what anyone may observe.
    _deal_key = attrgetter("number", "dealer", "scores")
    _state_key = attrgetter(
        "_stock_key", "_h", "_table", "_piles", "_esc", "_marks", "_last", "to_act", "_m", "_round"
    )


def _redeal(state: EscobaState) -> EscobaState:
    """Everyone's hand is empty and the stock is not: three more cards each, none to the table."""
    game = state._g
    hd = state._d
    sp = state._sp
    hands = state._h
    deck = hd.deck
    for off in game._deal_offsets[hd.dealer]:  # the stock holds whole deals
        hands |= 1 << (off + deck[sp])
        sp += 1
    state._h = hands
    state._sp = sp
    state._round += 1
    state.to_act = (hd.dealer + 1) % game.players
    state._ev = (state._ev, "redeal", state._round)
    return state


def _unique_best(values: list[Any]) -> int | None:
    """The index of the single largest value, or None if the largest is shared."""
    best = max(values)
    return values.index(best) if values.count(best) == 1 else None


def _prime_keys(game: EscobaGame, piles: list[int]) -> list[Any]:
    """Each side's prime, as a value that compares the way the chosen method ranks it."""
    method = game.options["prime_method"]
    keys: list[Any] = []
    for mask in piles:
        if method == "seed_counts":
            keys.append([(mask & m).bit_count() for m in _PRIME_CLASS_MASKS])
        elif method == "sevens_only":
            keys.append((mask & _RANK_MASK["7"]).bit_count())
        else:
            best_per_suit = []
            for suit in range(4):
                in_suit = mask & DECK.suit_masks[suit]
                best = next(
                    (
                        cls
                        for cls, m in zip(_PRIME_CLASSES, _PRIME_CLASS_MASKS, strict=True)
                        if in_suit & m
                    ),
                    None,
                )
                best_per_suit.append(best)
            if method == "pagat_best_prime":
                # Class strength: 8 for a seven down to 1 for a figure, 0 for an empty suit.
                strength = sorted(
                    (8 - _PRIME_CLASSES.index(b) if b is not None else 0 for b in best_per_suit),
                    reverse=True,
                )
                keys.append(strength)
            else:  # primiera_points: a side with an empty suit has no valid setenta
                if None in best_per_suit:
                    keys.append(None)
                else:
                    keys.append(sum(_PRIMIERA_POINTS[b] for b in best_per_suit if b is not None))
    return keys


def _score_hand(
    game: EscobaGame, piles: list[int], escobas: tuple[int, ...]
) -> tuple[list[int], JSON]:
    """Points per side and the labelled breakdown of one hand."""
    opts = game.options
    if game._plain_two:
        return _score_two(piles, escobas)
    sides = game.sides
    cards = [m.bit_count() for m in piles]
    oros = [(m & _OROS).bit_count() for m in piles]
    zero = [0] * sides
    cards_pts = list(zero)
    best = _unique_best(cards)
    if best is not None:
        big = opts["bonus_cards_over_30"] and cards[best] > 30
        big = big and all(c < 10 for s, c in enumerate(cards) if s != best)
        cards_pts[best] = 2 if big else 1
    oros_pts = list(zero)
    best = _unique_best(oros)
    if best is not None:
        oros_pts[best] = 1
    velo_pts = [1 if m >> _VELO & 1 else 0 for m in piles]
    prime_pts = list(zero)
    keys = _prime_keys(game, piles)
    valid = [k for k in keys if k is not None]
    if valid:
        top = max(valid)
        if keys.count(top) == 1:
            prime_pts[keys.index(top)] = 1
    sevens_bonus = [
        1 if opts["bonus_all_sevens"] and m & _RANK_MASK["7"] == _RANK_MASK["7"] else 0
        for m in piles
    ]
    oros_bonus = [1 if opts["bonus_all_oros"] and m & _OROS == _OROS else 0 for m in piles]
    total = [
        cards_pts[s]
        + oros_pts[s]
        + velo_pts[s]
        + prime_pts[s]
        + escobas[s]
        + sevens_bonus[s]
        + oros_bonus[s]
        for s in range(sides)
    ]
    detail: JSON = {
        "escobas": list(escobas),
        "cards": cards_pts,
        "oros": oros_pts,
        "velo": velo_pts,
        "prime": prime_pts,
        "bonus_all_sevens": sevens_bonus,
        "bonus_all_oros": oros_bonus,
        "total": total,
        "card_counts": cards,
        "oros_counts": oros,
        "prime_method": opts["prime_method"],
        "prime_keys": keys,
    }
    return total, detail


def _score_two(piles: list[int], escobas: tuple[int, ...]) -> tuple[list[int], JSON]:
    """:func:`_score_hand` for two sides, the prime by seed counts and no bonus (every
    search sample's hand ends here): the same points and breakdown, without the
    general path's per-option loops."""
    p0, p1 = piles
    c0, c1 = p0.bit_count(), p1.bit_count()
    o0, o1 = (p0 & _OROS).bit_count(), (p1 & _OROS).bit_count()
    k0 = [(p0 & m).bit_count() for m in _PRIME_CLASS_MASKS]
    k1 = [(p1 & m).bit_count() for m in _PRIME_CLASS_MASKS]
    # A majority point goes to a unique best side: with two sides, the larger one.
    cards_pts = [int(c0 > c1), int(c1 > c0)]
    oros_pts = [int(o0 > o1), int(o1 > o0)]
    velo_pts = [p0 >> _VELO & 1, p1 >> _VELO & 1]
    prime_pts = [int(k0 > k1), int(k1 > k0)]
    e0, e1 = escobas
    total = [
        cards_pts[0] + oros_pts[0] + velo_pts[0] + prime_pts[0] + e0,
        cards_pts[1] + oros_pts[1] + velo_pts[1] + prime_pts[1] + e1,
    ]
    detail: JSON = {
        "escobas": [e0, e1],
        "cards": cards_pts,
        "oros": oros_pts,
        "velo": velo_pts,
        "prime": prime_pts,
        "bonus_all_sevens": [0, 0],
        "bonus_all_oros": [0, 0],
        "total": total,
        "card_counts": [c0, c1],
        "oros_counts": [o0, o1],
        "prime_method": "seed_counts",
        "prime_keys": [k0, k1],
    }
    return total, detail


def _end_hand(state: EscobaState, left: int | None = None) -> EscobaState:
    """Give the table to the last capturer, score, then end the match or deal again;
    ``left``: the table's mask, where the caller has it (the table is then not read)."""
    game = state._g
    hd = state._d
    piles = state._piles
    ev = state._ev
    unawarded = 0
    if left is None:
        left = 0
        for c in state._table:
            left |= 1 << c
    if left:
        if state._last is not None:
            piles |= left << _OFF[game.side_of[state._last]]
            ev = (ev, "table_taken", state._last, left)
        else:
            unawarded = left
    # Every search sample ends a hand here: two sides take no loops (in 3.11 each
    # comprehension is a function call).
    if game.sides == 2:
        side_piles = [piles & _FULL, piles >> 40 & _FULL]
    else:
        side_piles = [piles >> _OFF[s] & _FULL for s in range(game.sides)]
    points, detail = _score_hand(game, side_piles, state._esc)
    detail["unawarded"] = DECK.codes(unawarded) if unawarded else []
    detail["last_capturer"] = state._last
    before = hd.scores
    if len(before) == 2:
        scores: tuple[int, ...] = (before[0] + points[0], before[1] + points[1])
    else:
        scores = tuple(a + b for a, b in zip(before, points, strict=True))
    detail["scores"] = list(scores)
    ev = (ev, "hand_end", points, detail)
    state._piles = piles
    state._table = ()
    winner = game.match_winner(scores)
    ended = state._deal_ended(
        ev, None if winner is None else ("match_end", winner, scores), scores=scores
    )
    if ended is not None:
        return ended
    state._ev = ev
    dealer = (hd.dealer + 1) % game.players
    return _start_hand(game, hd.number + 1, dealer, scores, hd.seed, hd.packs, state)


def _event_json(game: EscobaGame, node: tuple[Any, ...]) -> JSON:
    kind = node[1]
    if kind == "play":
        _p, _k, seat, card, taken, escoba = node
        return {
            "type": "play",
            "seat": seat,
            "card": _CODES[card],
            "captured": DECK.codes(taken),
            "escoba": escoba,
        }
    if kind == "deal":
        hand: _Hand = node[2]
        return {
            "type": "deal",
            "deal": hand.number,
            "dealer": hand.dealer,
            "table": [_CODES[c] for c in hand.deck[3 * game.players : 3 * game.players + 4]],
            "scores": list(hand.scores),
        }
    if kind == "opening":
        _p, _k, seat, taken, count = node
        return {
            "type": "opening_escoba",
            "seat": seat,
            "side": game.side_of[seat],
            "cards": DECK.codes(taken),
            "escobas": count,
        }
    if kind == "redeal":
        return {"type": "redeal", "round": node[2]}
    if kind == "table_taken":
        return {"type": "table_taken", "seat": node[2], "cards": DECK.codes(node[3])}
    if kind == "hand_end":
        return {"type": "hand_end", "points": list(node[2]), "detail": fresh(node[3])}
    return {"type": "match_end", "winner": node[2], "scores": list(node[3])}


def _observe(state: EscobaState, seat: int | None) -> JSON:
    game = state._g
    n = game.players
    hd = state._d
    history: list[JSON] = []
    for node in state._deal_nodes("deal"):  # the hand in progress
        if node[1] == "play":
            _p, _k, s, card, taken, escoba = node
            history.append(
                {"seat": s, "card": _CODES[card], "captured": DECK.codes(taken), "escoba": escoba}
            )
    last_hand = state._last_end("hand_end")
    legal = state.legal_actions(seat) if seat is not None else []
    return {
        "game": game.name,
        "players": n,
        "seat": seat,
        "side": game.side_of[seat] if seat is not None else None,
        "hand": DECK.codes(state._h >> _OFF[seat] & _FULL) if seat is not None else [],
        "to_act": state.to_act,
        "legal_actions": [game.action_to_string(a) for a in legal],
        "phase": "over" if state.match_over else "play",
        "scores": state.scores,
        "games": state.games,
        "target": game.target,
        "hand_number": hd.number,
        "dealer": hd.dealer,
        "round": state._round,
        "table": [_CODES[c] for c in state._table],
        "stock_size": NUM_CARDS - state._sp,
        "hand_sizes": [(state._h >> _OFF[s] & _FULL).bit_count() for s in range(n)],
        "captured": [DECK.codes(state._piles >> _OFF[s] & _FULL) for s in range(game.sides)],
        "escobas": list(state._esc),
        "escoba_markers": [
            {"seat": s, "card": _CODES[c] if c is not None else "deal", "cards": DECK.codes(t)}
            for s, c, t in state._marks
        ],
        "last_capturer": state._last,
        "history": history,
        "last_hand": last_hand,
        "hand_over": state.hand_over,
        "match_over": state.match_over,
        "winner": state.winner,
    }


def _determinize(game: EscobaGame, obs: Mapping[str, Any], rng: Rng) -> EscobaState:
    """Rebuild a full state from an observation, dealing the unseen cards at random."""
    return _sampler(game, obs)(rng)


def _sampler(game: EscobaGame, obs: Mapping[str, Any]) -> Callable[[Rng], EscobaState]:
    """Read the observation once; the returned function deals its unseen cards at random
    (a search samples thousands of times from one observation): each sample draws from
    ``rng`` what :func:`_determinize` always drew, a shuffle of the unseen cards (ascending
    first) dealt to the hands in seat order, the rest the stock, then the hand's seed."""
    try:
        seat = game.observer(obs)
        n = game.players
        parse = DECK.parse
        seen = 0
        hands = [0] * n
        if seat is not None:
            for c in obs["hand"]:
                hands[seat] |= 1 << parse(c)
                seen |= 1 << parse(c)
        table = tuple(parse(c) for c in obs["table"])
        for c in table:
            seen |= 1 << c
        piles = 0
        for side, cards in enumerate(obs["captured"]):
            for c in cards:
                piles |= 1 << (_OFF[side] + parse(c))
                seen |= 1 << parse(c)
        unseen = [c for c in range(NUM_CARDS) if not seen >> c & 1]
        sizes = obs["hand_sizes"]
        needs = [(_OFF[s], sizes[s] - hands[s].bit_count()) for s in range(n)]
        stock = len(unseen) - sum(k for _o, k in needs)
        if min(k for _o, k in needs) < 0 or stock != obs["stock_size"]:
            raise RulesError("observation is inconsistent: unseen cards do not match the stock")
        needs = [(o, k) for o, k in needs if k]
        known = 0
        for s in range(n):
            known |= hands[s] << _OFF[s]
        sp = NUM_CARDS - stock
        front = tuple(range(sp))
        number, dealer, scores = obs["hand_number"], obs["dealer"], obs["scores"]
        mode = (OVER if obs["match_over"] else PLAY) | (_HAND_OVER if obs["hand_over"] else 0)
        to_act = obs["to_act"]
        esc = tuple(obs["escobas"])
        marks = tuple(
            (
                m["seat"],
                None if m["card"] == "deal" else parse(m["card"]),
                sum(1 << parse(c) for c in m["cards"]),
            )
            for m in obs["escoba_markers"]
        )
        last = obs["last_capturer"]
        rnd = obs["round"]
        before: Any = None
        if obs["last_hand"] is not None:
            # Keep the previous hand's breakdown: the observation shows it.
            prev = obs["last_hand"]
            before = (before, "hand_end", fresh(prev["points"]), fresh(prev["detail"]))
        plays = tuple(
            (
                h["seat"],
                parse(h["card"]),
                sum(1 << parse(c) for c in h["captured"]),
                h["escoba"],
            )
            for h in obs["history"]
        )
    except (KeyError, TypeError, IndexError, InvalidActionError) as err:
        raise RulesError(f"not an Escoba observation this game can determinize: {err!r}") from None

    def sample(rng: Rng) -> EscobaState:
        cards = list(unseen)
        rng.shuffle(cards)
        packed = known
        pop = cards.pop
        for off, need in needs:
            for _ in range(need):
                packed |= 1 << off + pop()
        hd = _Hand.begin(number, dealer, scores, rng.next64(), ())
        # Only the stock's place in the pack matters from here on: put it at the end.
        hd.deck = front + tuple(cards)
        state = EscobaState._made(game, hd, packed, mode, to_act, None)
        state._table = table
        state._sp = sp
        state._piles = piles
        state._esc = esc
        state._marks = marks
        state._last = last
        state._round = rnd
        ev: Any = (before, "deal", hd)
        for s, card, taken, escoba in plays:
            ev = (ev, "play", s, card, taken, escoba)
        state._ev = ev
        state._legal = None
        return state

    return sample
