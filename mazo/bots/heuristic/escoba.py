"""A heuristic Escoba bot: one-ply rules of thumb scored in match points, observation only.

Every legal action gets a score, and the best one is played (exact ties are broken by the
bot's own :class:`~mazo.core.rng.Rng`, so a seed fixes every choice)::

    score(action) = what the action takes  +  1 for an escoba
                    - the next seat's expected best reply to the table left behind
                    - half the worth of the card played (held, it is probably ours)

* **What a capture takes** is valued card by card, in points, and only for the scoring
  categories still open (a majority some side has already sealed is worth nothing more):
  the siete de velo ``7O`` a whole point, each seven about a third of the prime point
  (sixes, aces and fives less), each oro a share of the oros point, and every card a
  little for the cards point.  The played card counts too: it goes to the pile.
* **The reply** is what the next seat to act would take from the table this action leaves:
  for each card value 1..10 the best capture a card of that value makes there (an escoba
  when it takes the whole table, so a table summing 5..14 invites one), and the chance
  that the seat holds that value is exact hypergeometric over the cards this seat has
  not seen (40 minus its hand, the table and every captured pile, all public).  The reply
  is the expectation of the best of them.  So a trail lays the card that leaves the table
  hardest to sweep and exposes least (a seven, ``7O`` above all, is laid last), and
  among captures the one that leaves no cheap escoba wins.
* **Partners** (four players in partnership): values are per side, so the partner's pile
  counts as the bot's own; the seat after the bot is always an opponent, and a reply by a
  partner (in no standard seating) would count in the bot's favour.
* **The last play of a hand**: the last capturer's side gets what is left on the table,
  so on the hand's final card the bot counts that too (a capture makes it the last
  capturer; a trail gives the table to whoever captured last).

Only what the seat may see is read: the hand, the table, ``captured`` (public), the hand
sizes, the stock size and the seat order.  No search, no determinization.

Two front doors, one decision code: :meth:`EscobaHeuristic.choose` reads an observation,
:meth:`EscobaHeuristic.choose_state` (for search rollouts) reads the engine's state
directly (its masks and the seat's own hand, never another's); both build the same small
:class:`_View` of ints and masks and score it with the same functions, so they choose the
same action and draw ties from the bot's Rng the same way.  Card worths are precomputed
tables (one per prime method and set of open categories), the hypergeometric odds a
table; the best capture each card value makes from a table is a knapsack over sums,
memoized by the table up to the three plain suits (their cards of one value are worth
the same), and the open categories are memoized by the piles.  Where the next seat is
an opponent, an action whose take alone falls short of the best score so far is not
priced further (the reply only takes away).

Per move (CPU time, medians of 7 interleaved rounds over the same 1,500 positions of
random-ish matches, 2-4 players, on a loaded 2-core machine): the previous heuristic
took 125-180 µs from an observation, plus 60-110 µs to build the observation; now
``choose`` takes 38-48 µs and ``choose_state`` 22-33 µs (37-41 µs with its memos
emptied first).

In a two-player search's sample (marked ``stop_at_deal_end``) ``choose_state`` takes a
third path, :func:`_heads_up_move` (:func:`_heads_up_pick` on the state's ints): the
plays as (card, mask taken) from the table's sets by sum (:func:`_sums`, built in
capture-id order), scored by the same operations as :meth:`_View.best`'s bounded branch
(:func:`_taking` and :func:`_bounded_best` written out in one loop, :func:`_reply`), and
the tied best ids memoized by everything they depend on (hand, table, captured cards,
worth table, the next seat's hand size): a search's paired worlds meet
the same decisions again, and only the Rng's draw among ties is made each time.  A
round's forced last card (a trail, or its one capture: a third of a sample's moves) is
played before anything is scored or looked up.  With
the exact ending's leaves valued in place and its root moves memoized, ``hard`` draws
about 1.3-1.4 times the samples per CPU second it drew before (bench_playouts.py on a
loaded machine; 26% fewer instructions under cachegrind); session 17's changes (see
bench/README.md) about 1.2 times more again.  The search's whole rollouts skip the
states between moves (:func:`fast_rollout`: :meth:`EscobaState.play_to_deal_end` with
:func:`_heads_up_pick` for each move): with it and the tweaks of this path in session
18, ``hard`` at 100 samples runs about 21% fewer instructions (cachegrind, 30 positions
of bench_playouts.py).

For the search levels (``hard``, ``expert``: :mod:`mazo.bots.ismcts` with this file's
``SEARCH_PRESET`` on top of the flat heuristic search) the file also gives:

* ``SEARCH_PRESET``: paired common worlds, the game's own reward, samples weighed by
  the other seats' plays of the round (:func:`play_likelihood`, ``infer=plays``) and,
  where the shipped net fits (two players), each line cut six moves after the searched
  one and scored by the net's value head (``leaf=6``; a line whose cut falls in the last
  round, nothing hidden, is played to its end);
* :func:`search_reward`: the hand won, blended with the hand's points margin;
* exact rollouts at a two-player hand's end: on a search's sample (marked
  ``stop_at_deal_end``), once the stock is dealt and at most :data:`EXACT_CARDS` cards
  are left in the hands, ``choose_state`` plays the exact minimax move of the hand's
  points margin (:class:`_Ending`) instead of the rules of thumb.  The position is
  perfect information for both players there, and the search's own moves there are the
  solver's.  ``normal`` never sees such a state: it plays as before.

Tuning (duplicate hands against ``normal``, ``--per deal``, 120 hands each on seed 3):
the preset before this one, paired, won 50% of hands (``guide=0``, -0.10 points a hand)
and 47% at 300 samples (+0.08); this preset at 100 samples won 50% (+0.36 points a hand,
95% interval 0.07-0.65); at 300 samples, 56% of 80 hands on seed 4 (+0.46).  Reading
plays (session 27, 300 samples, seeds 2030-2031, 1,000 deal sets, 2,000 hands): 51.5% of
hands and +0.45 points a hand against uniform samples' 50.3% and +0.39, paired +0.05
(+0.01 to +0.10) on the same cards: small, but the same sign on both seeds, so the preset
reads them (session 12's 120 hands could not tell).  The net's value at the leaf
(session 29, 300 samples, seeds 2030-2033, 2,000 deal sets, 4,000 hands): 52.2% of hands
and +0.49 points a hand, paired +0.05 (+0.02 to +0.08) over reading plays alone, the same
+0.05 on each pair of seeds; a cut one move on lost 0.16, four moves on was even.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from math import comb
from typing import Any

from mazo.bots.base import Observation, check_bot_options, legal_ids
from mazo.bots.odds import card_codes, card_mask, one_placement
from mazo.core.cards import LATIN_40
from mazo.core.errors import RulesError
from mazo.core.game import Game, State
from mazo.core.rng import Rng
from mazo.games.escoba import (
    _CAPTURE_IDS,
    _PRIME_CLASS_MASKS,
    VALUE,
    EscobaState,
    _capture_table,
    _plays_on,
    _score_hand,
)
from mazo.games.escoba import (
    _OROS as _OROS_MASK,
)

__all__ = ["EscobaHeuristic", "card_value"]

RANKS = LATIN_40.ranks
ALL_CARDS = card_codes(LATIN_40)
_VALUE = {r: i + 1 for i, r in enumerate(RANKS)}
VELO = "7O"

# Weights, in match points (an escoba is 1).  Variants from about half to double each
# weight, in self-play (400 matches each), moved the point difference less than its
# noise.  The one-ply reply is what matters: without it the bot wins 17% of its matches
# against itself (-1.3 points a hand).
ESCOBA = 1.0
VELO_POINT = 1.0
# Share of the cards point one card is worth while the cards majority is open.
CARD_WEIGHT = 0.05
# Share of the oros point one oro is worth while the oros majority is open.
ORO_WEIGHT = 0.15
# Share of the prime point by rank while the prime is open (seed_counts compares sevens,
# then sixes, aces, fives...; the other methods also rank sevens, sixes and aces first).
PRIME_WEIGHT = {"7": 0.3, "6": 0.12, "1": 0.05, "5": 0.03, "4": 0.015, "3": 0.01, "2": 0.01}
# Share of a hand card's worth that is already ours while we hold it (we capture with
# most of the cards we hold): playing the card costs this much, whatever it does.  It
# makes a sweep with a low card beat banking 7O by capturing with it (7O stays likely
# ours).  Self-play did not separate 0.0, 0.25 and 0.5: over 2,500 matches against 0.5,
# 0.0 won 51.5% and 0.25 50.0%, both within noise.
KEEP_SHARE = 0.5
# A reply by a partner (never the next seat in a standard seating) counts this much for us.
PARTNER_REPLY = 0.5


def card_value(code: str) -> int:
    """The value toward 15: pips 1-7, ``J`` 8, ``Q`` 9, ``K`` 10.

    >>> card_value("7O"), card_value("KB")
    (7, 10)
    """
    return _VALUE[code[:-1]]


def _open(counts: Sequence[int], left: int) -> bool:
    """Whether a majority is still undecided: no side is already out of everyone's reach
    (the leader is not ahead of the runner-up by more than the cards left)."""
    if len(counts) == 2:
        return abs(counts[0] - counts[1]) <= left
    top, second = sorted(counts)[-1:-3:-1]
    return top - second <= left


# -- precomputed tables (card ids: suit-major O C E B, ranks 1..7 J Q K) -------------------

_FULL = (1 << 40) - 1
_FULL2 = (1 << 80) - 1  # two seats' hands
_ID = {code: card for card, code in enumerate(ALL_CARDS)}
_VALUE_OF = tuple(card_value(code) for code in ALL_CARDS)
_OROS = sum(1 << card for card, code in enumerate(ALL_CARDS) if code[-1] == "O")
_SEVENS = sum(1 << card for card, code in enumerate(ALL_CARDS) if code[0] == "7")
_METHODS = ("seed_counts", "pagat_best_prime", "primiera_points", "sevens_only")


def _worth_table(
    method: str, cards_open: bool, oros_open: bool, prime_open: bool
) -> tuple[float, ...]:
    """What capturing each card is worth, in points, with these categories open."""
    worth: list[float] = []
    for c in ALL_CARDS:
        rank = c[:-1]
        w = CARD_WEIGHT if cards_open else 0.0
        if c[-1] == "O" and oros_open:
            w += ORO_WEIGHT
        if prime_open:
            if method == "sevens_only":
                w += PRIME_WEIGHT["7"] if rank == "7" else 0.0
            else:
                w += PRIME_WEIGHT.get(rank, 0.0)
        if c == VELO:
            w += VELO_POINT
        worth.append(w)
    return tuple(worth)


# _WORTH[wid]: wid = 8 * method index + 4 * cards open + 2 * oros open + prime open.
_WORTH: tuple[tuple[float, ...], ...] = tuple(
    _worth_table(m, bool(i & 4), bool(i & 2), bool(i & 1)) for m in _METHODS for i in range(8)
)


def _unseen_worth_table(worth: tuple[float, ...]) -> tuple[tuple[float, ...], ...]:
    """``[value][suits]``: the average worth of the unseen cards of a value, ``suits``
    the 4-bit set of the suits unseen in that value (summed suit by suit, O first)."""
    rows: list[tuple[float, ...]] = [(0.0,) * 16]  # no card has value 0
    for v in range(1, 11):
        row: list[float] = []
        for suits in range(16):
            total, count = 0.0, 0
            for s in range(4):
                if suits >> s & 1:
                    total += worth[10 * s + v - 1]
                    count += 1
            row.append(total / count if count else 0.0)
        rows.append(tuple(row))
    return tuple(rows)


_UNSEEN_WORTH = tuple(_unseen_worth_table(w) for w in _WORTH)
_COUNT4 = tuple(m.bit_count() for m in range(16))
# A suit's 10 bits spread one to a nibble: nibble v - 1 holds the suit's card of value v.
_SPREAD = tuple(sum(1 << 4 * i for i in range(10) if m >> i & 1) for m in range(1 << 10))


def _no_reply_odds(unseen: int, size: int) -> tuple[float, ...]:
    """``[k]``: the chance that a hand of ``size`` of ``unseen`` cards holds none of
    ``k`` given ones (exact hypergeometric)."""
    if size <= 0 or unseen <= 0:
        return (1.0,) * (unseen + 1)
    size = min(size, unseen)
    whole = comb(unseen, size)
    return tuple(
        0.0 if unseen - k < size else comb(unseen - k, size) / whole for k in range(unseen + 1)
    )


_NO_REPLY = tuple(tuple(_no_reply_odds(u, size) for size in range(4)) for u in range(41))

# The sums a card of value v can add to in _best_takes, highest first: _DOWN_FROM[14 - v].
_DOWN_FROM = tuple(tuple(range(top, -1, -1)) for top in range(15))

# The best capture by card value from a table: (wid << 40 | table mask) -> ((value, worth
# taken, escoba bonus included), ...).  A pure function of its key, so memoized.
_BEST: dict[int, tuple[tuple[float, int, tuple[float, ...], int], ...]] = {}
# Either memo is emptied when it holds this many entries (_BEST's take about 1 kB
# each: 20 MB at most; a one-second search fills about 5,000).
_MEMO_LIMIT = 20_000


def _table_key(wid: int, table: int) -> int:
    """The key of :func:`_best_takes`: the worth table id, the table's oros by value,
    and its other cards counted by value.  The three other suits' cards of one value
    are worth the same in every worth table, so tables alike up to them share a key."""
    others = _SPREAD[table >> 10 & 1023] + _SPREAD[table >> 20 & 1023] + _SPREAD[table >> 30]
    return others << 15 | (table & 1023) << 5 | wid


def _best_takes(key: int) -> tuple[tuple[float, int, tuple[float, ...], int], ...]:
    """For each card value 1..10 that captures from the table of ``key`` (see
    :func:`_table_key`), the most it takes: the worths of the cards taken, plus an
    escoba when it takes them all.  Memoized, as ``(most, value, row, shift)``: the
    value's row of the unseen worths (by the suits unseen) and its nibble in a spread
    mask (see :data:`_SPREAD`), for :meth:`_View.reply`.

    A knapsack over the sums up to 14, the oros first, then the other cards, each by
    value: ``most[t]`` is the most a set of the cards so far adding up to ``t`` takes.
    Only the whole table adds up to the table's total: that set is the escoba.
    """
    found = _BEST.get(key)
    if found is not None:
        return found
    wid = key & 31
    worth = _WORTH[wid]
    cards: list[tuple[int, float]] = []
    m = key >> 5 & 1023  # the oros, by value
    while m:
        low = m & -m
        m ^= low
        v = low.bit_length()
        cards.append((v, worth[v - 1]))
    others = key >> 15  # the other cards counted by value, a nibble each
    v = 0
    while others:
        v += 1
        count = others & 15
        others >>= 4
        if count:
            cards += [(v, worth[9 + v])] * count
    # most[t]: as above, -1.0 where no set adds up to t yet.  A card reads each sum
    # below 15 - v reached before it, highest first, before writing t + v (each set
    # takes it once: a write lands above every sum still to be read).
    most = [0.0] + [-1.0] * 14
    total = 0
    for v, w in cards:
        total += v
        for t in _DOWN_FROM[14 - v]:
            now = most[t]
            if now >= 0.0:
                got = now + w
                if got > most[t + v]:
                    most[t + v] = got
    if 5 <= total <= 14:
        most[total] += ESCOBA
    rows = _UNSEEN_WORTH[wid]
    # A loop, not a generator: in 3.11 each of its steps is a frame resumed.
    takes = []
    for t in range(5, 15):
        g = most[t]
        if g >= 0.0:
            takes.append((g, 15 - t, rows[15 - t], 4 * (14 - t)))
    found = tuple(takes)
    if len(_BEST) >= _MEMO_LIMIT:
        _BEST.clear()
    _BEST[key] = found
    return found


# What the captured piles imply: (packed piles, sides, method) -> (wid, their union).
_PILES: dict[int, tuple[int, int]] = {}


def _piles_facts(piles: int, sides: int, method: int, counting: bool) -> tuple[int, int]:
    """The worth table id for these piles (side ``s`` at bits ``40s``), and every
    captured card.  Memoized by ``piles << 8 | sides << 2 | method``."""
    key = piles << 8 | sides << 2 | method
    found = _PILES.get(key)
    if found is not None:
        return found
    if sides == 2:
        # The loop below for two sides, where _open is one comparison.
        p0 = piles & _FULL
        p1 = piles >> 40 & _FULL
        c0, c1 = p0.bit_count(), p1.bit_count()
        wid = method << 3
        if abs(c0 - c1) <= 40 - (c0 + c1):
            wid |= 4
        c0, c1 = (p0 & _OROS).bit_count(), (p1 & _OROS).bit_count()
        if abs(c0 - c1) <= 10 - (c0 + c1):
            wid |= 2
        if not counting:
            wid |= 1
        else:
            c0, c1 = (p0 & _SEVENS).bit_count(), (p1 & _SEVENS).bit_count()
            if abs(c0 - c1) <= 4 - (c0 + c1):
                wid |= 1
        found = (wid, p0 | p1)
        if len(_PILES) >= _MEMO_LIMIT:
            _PILES.clear()
        _PILES[key] = found
        return found
    counts: list[int] = []
    oros: list[int] = []
    sevens: list[int] = []
    union = 0
    for s in range(sides):
        p = piles >> 40 * s & _FULL
        union |= p
        counts.append(p.bit_count())
        oros.append((p & _OROS).bit_count())
        sevens.append((p & _SEVENS).bit_count())
    # Which categories are still open (see _worth_table) picks the worth table.
    wid = method << 3
    if _open(counts, 40 - sum(counts)):
        wid |= 4
    if _open(oros, 10 - sum(oros)):
        wid |= 2
    # Counting methods are sealed once a side has more sevens than anyone can reach;
    # the best-per-suit methods stay open (a cheap approximation).
    if not counting or _open(sevens, 4 - sum(sevens)):
        wid |= 1
    found = (wid, union)
    if len(_PILES) >= _MEMO_LIMIT:
        _PILES.clear()
    _PILES[key] = found
    return found


def _spread(cards: int) -> int:
    """A mask of cards as 10 nibbles, nibble ``v - 1`` the suits of its cards of value
    ``v`` (bit 0 oros ... bit 3 bastos)."""
    return (
        _SPREAD[cards & 1023]
        | _SPREAD[cards >> 10 & 1023] << 1
        | _SPREAD[cards >> 20 & 1023] << 2
        | _SPREAD[cards >> 30] << 3
    )


_UNSCORED = float("-inf")


class _View:
    """What the bot knows at one decision, as ints and masks, with the worths it implies.

    Built from an observation or from a state (:class:`EscobaHeuristic`'s two front
    doors); :meth:`scores` and :meth:`best` are the one decision code.
    """

    __slots__ = (
        "bounded",
        "final",
        "last_side",
        "odds",
        "partner_next",
        "reply_size",
        "side",
        "table",
        "table_mask",
        "unseen_spread",
        "wid",
        "worth",
    )

    def __init__(
        self,
        bot: EscobaHeuristic,
        seat: int,
        hand: int,
        table: tuple[int, ...],
        piles: int,
        hand_sizes: Sequence[int],
        stock: int,
        last_capturer: int | None,
    ) -> None:
        side_of = bot.side_of
        self.side = side = side_of[seat]
        self.table = table
        table_mask = 0
        for c in table:
            table_mask |= 1 << c
        self.table_mask = table_mask
        self.last_side = None if last_capturer is None else side_of[last_capturer]
        facts = _PILES.get(piles << 8 | bot.kind)
        if facts is None:
            facts = _piles_facts(piles, bot.sides, bot.method_index, bot.counting)
        wid, captured = facts
        self.wid = wid
        self.worth = _WORTH[wid]
        unseen = _FULL & ~(hand | table_mask | captured)
        self.unseen_spread = (
            _SPREAD[unseen & 1023]
            | _SPREAD[unseen >> 10 & 1023] << 1
            | _SPREAD[unseen >> 20 & 1023] << 2
            | _SPREAD[unseen >> 30] << 3
        )  # _spread(unseen), inline
        # Who plays next, with how many cards, or whether the hand ends with this play:
        # this seat's card is the round's last one when every other hand is empty.
        nxt = seat + 1 if seat + 1 < len(hand_sizes) else 0
        self.partner_next = partner = side_of[nxt] == side
        last_card = hand_sizes[seat] == 1 and sum(hand_sizes) == 1
        self.final = final = last_card and stock == 0
        # After the round's last card a redeal gives the next seat three unseen cards.
        size = 3 if last_card else hand_sizes[nxt]
        self.reply_size = size
        count = unseen.bit_count()
        self.odds = _NO_REPLY[count][size] if size <= 3 else _no_reply_odds(count, size)
        # An opponent's reply only takes away: a play's score is at most what it takes.
        self.bounded = not final and not partner

    def taking(self, card: int, taken: int) -> tuple[float, int]:
        """What playing ``card`` and taking the cards of the mask ``taken`` (0: laying
        the card on the table) is worth by itself, and the table it leaves
        (:func:`_taking`)."""
        return _taking(self.worth, self.table_mask, card, taken)

    def after(self, card: int, taken: int, left: int) -> float:
        """What follows the play, added to its score: the next seat's expected best
        reply (taken away for an opponent, half of it for a partner), or on the hand's
        last card what the final sweep gives."""
        if self.final:
            return self._final_sweep(card, taken, left)
        reply = self.reply(left)
        return PARTNER_REPLY * reply if self.partner_next else -reply

    def reply(self, left: int) -> float:
        """The next seat's expected best capture from the table ``left`` (:func:`_reply`;
        none where no seat plays next)."""
        if self.reply_size <= 0:
            return 0.0
        return _reply(left, self.wid, self.unseen_spread, self.odds)

    def scores(self, actions: Sequence[tuple[int, int]]) -> list[float]:
        """Each action's score in points (see the module docstring); an action is the
        card played and the mask of the cards it takes."""
        out: list[float] = []
        for card, taken in actions:
            value, left = self.taking(card, taken)
            out.append(value + self.after(card, taken, left))
        return out

    def best(self, actions: Sequence[tuple[int, int]]) -> list[int]:
        """The indexes of the actions :meth:`scores` puts within 1e-9 of the top, in
        order.  Where the reply can only take away, an action whose take alone is below
        the top so far by more than that is not scored further (it could not reach the
        top), the action that takes most scored first."""
        if not self.bounded:
            scores = self.scores(actions)
            top = max(scores)
            return [i for i, s in enumerate(scores) if s >= top - 1e-9]
        worth, table = self.worth, self.table_mask
        pre = [_taking(worth, table, card, taken) for card, taken in actions]
        return _bounded_best(pre, self.wid, self.unseen_spread, self.odds, self.reply_size > 0)

    def _final_sweep(self, card: int, taken: int, left: int) -> float:
        """On the hand's last card the last capturer's side takes what is left."""
        taker = self.side if taken else self.last_side
        if taker is None:
            return 0.0
        worth = self.worth
        total = 0.0
        for c in self.table:  # in table order, the laid card last
            if left >> c & 1:
                total += worth[c]
        if not taken:
            total += worth[card]
        return total if taker == self.side else -total


# -- rollouts: a two-player sample's moves on ints -----------------------------------

# The table's sets of cards by their sum (at most 14), by table mask: what
# :func:`mazo.games.escoba._table_subsets` lists, each sum's sets in capture-id order,
# as a tuple indexed by the sum (empty where no set adds up to it).  Emptied when it
# holds this many.  Tuples, not lists or dicts: tuples of ints are left alone by the
# garbage collector, where tens of thousands of lists made its full passes take
# 80-260 ms, in the middle of a move on the clock (a dict of them stays tracked); and
# a tuple is indexed faster than a dict is asked.
_SUMS: dict[int, tuple[tuple[int, ...], ...]] = {}
_SUMS_LIMIT = 50_000


def _sums(table: int) -> tuple[tuple[int, ...], ...]:
    """The sets of the table's cards adding up to each sum 1..14 (masks), indexed by the
    sum (index 0 empty), each sum's sets in the order of their capture ids (any card
    that takes them numbers them so): by size, then lexicographically by their cards.
    Built size by size, each set of one size (in that order) grown by each higher card
    in turn, which keeps it."""
    found = _SUMS.get(table)
    if found is not None:
        return found
    # The table's cards ascending, each as (value, bit, index of the next card): also
    # the sets of one card as (sum, set, next card), the first level.
    cards: list[tuple[int, int, int]] = []
    m = table
    while m:
        low = m & -m
        m ^= low
        cards.append((VALUE[low.bit_length() - 1], low, len(cards) + 1))
    lists: dict[int, list[int]] = {}
    level = cards
    while level:
        grown = []
        for t, s, i in level:
            sets = lists.get(t)
            if sets is None:
                lists[t] = [s]
            else:
                sets.append(s)
            room = 14 - t
            for v, low, j in cards[i:]:  # a slice: no index arithmetic per card
                if v <= room:
                    grown.append((t + v, s | low, j))
        level = grown
    by_sum: list[tuple[int, ...]] = [()] * 15
    for t, sets in lists.items():
        by_sum[t] = tuple(sets)
    found = tuple(by_sum)
    if len(_SUMS) >= _SUMS_LIMIT:
        _SUMS.clear()
    _SUMS[table] = found
    return found


# The sums the table's sets reach (bit t: some non-empty set adds up to t, for t up to
# 14), with the whole table's sum above them (from bit 15), by table mask: ints only,
# which the garbage collector skips.  Emptied when it holds this many.
_REACH: dict[int, int] = {}


def _reach(table: int) -> int:
    """The reachable sums of the table's sets and its total (see :data:`_REACH`): a set
    of the table adding up to ``t`` exists where :func:`_sums` lists one for ``t``."""
    reach = 1  # the empty set: bit 0, cleared below
    total = 0
    m = table
    while m:
        low = m & -m
        m ^= low
        v = VALUE[low.bit_length() - 1]
        reach |= reach << v & 0x7FFF
        total += v
    found = reach & 0x7FFE | total << 15
    if len(_REACH) >= _SUMS_LIMIT:
        _REACH.clear()
    _REACH[table] = found
    return found


def _taking(worth: Sequence[float], table: int, card: int, taken: int) -> tuple[float, int]:
    """What playing ``card`` and taking the cards of the mask ``taken`` (0: laying the
    card on the table, a mask) is worth by itself, with the card worths ``worth``, and
    the table it leaves: :meth:`_View.taking` and the rollouts' fast moves."""
    mine = worth[card]
    value = -KEEP_SHARE * mine
    if not taken:
        return value, table | 1 << card
    got = 0.0
    m = taken
    while m:
        low = m & -m
        got += worth[low.bit_length() - 1]
        m ^= low
    value += mine + got
    left = table & ~taken
    if not left:
        value += ESCOBA
    return value, left


def _bounded_best(
    pre: list[tuple[float, int]],
    wid: int,
    spread: int,
    odds: tuple[float, ...],
    replies: bool,
) -> list[int]:
    """:meth:`_View.best` where the next seat is an opponent (its reply only takes
    away): the indexes of the plays within 1e-9 of the top, ``pre`` each play's
    :func:`_taking`, the play that takes most priced first and a play whose take alone
    is below the top so far by more than that not priced further (it could not reach
    the top); ``replies``: whether a next seat holds cards."""
    first = pre.index(max(pre))
    top = pre[first][0] - (_reply(pre[first][1], wid, spread, odds) if replies else 0.0)
    scores = [_UNSCORED] * len(pre)
    scores[first] = top
    for i, (value, left) in enumerate(pre):
        if i == first or value < top - 1e-9:
            continue
        scores[i] = score = value - (_reply(left, wid, spread, odds) if replies else 0.0)
        if score > top:
            top = score
    return [i for i, s in enumerate(scores) if s >= top - 1e-9]


def _reply(left: int, wid: int, spread: int, odds: tuple[float, ...]) -> float:
    """The next seat's expected best capture from the table ``left`` (a mask), for
    :meth:`_View.reply` and the rollouts' fast moves: its best take by card value, best
    first (equal ones lowest value first), each weighed by the chance that it holds that
    value and none better (``wid``: the worth table; ``spread``: the unseen cards by
    value, :func:`_spread`; ``odds``: the chance of holding none of k unseen cards)."""
    if not left:
        return 0.0
    key = (
        (_SPREAD[left >> 10 & 1023] + _SPREAD[left >> 20 & 1023] + _SPREAD[left >> 30]) << 15
        | (left & 1023) << 5
        | wid
    )
    takes = _BEST.get(key)
    if takes is None:
        takes = _best_takes(key)
    if not takes:
        return 0.0
    # Per value: minus (the most it takes + the average worth of an unseen card of that
    # value, itself taken), the value, the suits of that value unseen; a value with no
    # unseen card is left out (its chance is 0), and so is every take worth nothing
    # (sorted, they would come last, adding nothing).  A loop, not a comprehension (a
    # function call in 3.11), and sorted only past one: most such lists hold one or two.
    order: list[tuple[float, int, int]] = []
    for g, v, row, shift in takes:
        p = spread >> shift & 15
        if p:
            x = g + row[p]
            if x > 0.0:
                order.append((-x, v, p))
    if len(order) > 1:
        order.sort()
    reply = 0.0
    none_before = 1.0
    k = 0
    for minus, _v, suits in order:
        k += _COUNT4[suits]
        none_now = odds[k]
        reply += -minus * (none_before - none_now)
        none_before = none_now
    return reply


def _action(card: int, taken: int) -> int:
    """The id of the play of ``card`` taking ``taken`` (0: laying it)."""
    return _CAPTURE_IDS[card][taken] if taken else card


# A two-player sample's decisions (see _heads_up_move): the ids within 1e-9 of the top
# score, in the legal order, by ``_decision_key``.  Emptied when it holds this many.
_DECISIONS: dict[int, tuple[int, ...]] = {}
_DECISIONS_LIMIT = 100_000
# Table masks by the table (the engine's tuple, in the order laid).  Emptied when full.
_TABLE_MASKS: dict[tuple[int, ...], int] = {}


def _heads_up_move(bot: EscobaHeuristic, state: EscobaState, seat: int) -> int:
    """:meth:`EscobaHeuristic.choose_state` in a two-player search sample (marked
    ``stop_at_deal_end``): :func:`_heads_up_pick` on the state's ints (the table's mask
    memoized by the engine's tuple)."""
    tab = state._table
    table = _TABLE_MASKS.get(tab)
    if table is None:
        table = 0
        for c in tab:
            table |= 1 << c
        if len(_TABLE_MASKS) >= _SUMS_LIMIT:
            _TABLE_MASKS.clear()
        _TABLE_MASKS[tab] = table
    h = state._h
    if not h >> 40 * seat & _FULL:
        return bot._choose_state(state)  # raises: no legal action
    return _heads_up_pick(bot, seat, h, table, state._sp, state._piles, state._esc, state._last)


def _heads_up_pick(
    bot: EscobaHeuristic,
    seat: int,
    h: int,
    table: int,
    sp: int,
    piles: int,
    esc: tuple[int, ...],
    last: int | None,
) -> int:
    """The move of ``seat`` (holding cards) in a two-player search sample, from the
    position's ints (the packed hands, the table's mask, the stock position, the packed
    piles, the escobas, the last capturer): for :func:`_heads_up_move` and the whole
    rollouts of :func:`fast_rollout`, one decision code.  The plays as (card, mask
    taken) in the legal order, from the table's sets by sum (no action ids listed, no
    :class:`_View`), the exact ending where it applies, else :meth:`_View.best`'s
    bounded scoring (two players: the next seat is an opponent, and the hand's last card
    is the exact ending's) by the same functions, so the same floats, the same ties and
    the same draw from the bot's Rng.

    What is scored is a function of the hand, the table, every captured card, the worth
    table and the next seat's hand size (see :func:`_heads_up_best`), so the tied best
    ids are memoized by those (a search's paired worlds meet the same decisions again);
    only the draw among them is made here, each time."""
    off = 40 * seat
    hand = h >> off & _FULL
    if not hand & hand - 1:
        # A round's last card (a third of the moves) is often forced: a trail, or its
        # one capture.  Forced, it is played here, before anything is scored or looked
        # up (a forced play draws nothing from the Rng, on any path).
        card = hand.bit_length() - 1
        need = 15 - VALUE[card]
        reach = _REACH.get(table)
        if reach is None:
            reach = _reach(table)
        if not reach >> need & 1:
            return card  # it captures nothing: its sets are not listed
        sums = _SUMS.get(table)
        if sums is None:
            sums = _sums(table)
        sets = sums[need]
        if len(sets) == 1:
            return _CAPTURE_IDS[card][sets[0]]
    if sp >= 40 and h.bit_count() <= EXACT_CARDS:
        return bot._ending.best_of(h, table, piles, esc, last, seat)  # type: ignore[union-attr]
    facts = _PILES.get(piles << 8 | bot.kind)
    if facts is None:
        facts = _piles_facts(piles, bot.sides, bot.method_index, bot.counting)
    wid, captured = facts
    # The next seat's cards; after this round's last card, a redeal's three.
    size = (h >> 40 - off & _FULL).bit_count()
    if not size and not hand & hand - 1:
        size = 3
    key = hand | table << 40 | captured << 80 | wid << 120 | size << 125
    found = _DECISIONS.get(key)
    if found is None:
        found = _heads_up_best(hand, table, captured, wid, size)
        if len(_DECISIONS) >= _DECISIONS_LIMIT:
            _DECISIONS.clear()
        _DECISIONS[key] = found
    return found[0] if len(found) == 1 else bot.rng.choice(found)


def _heads_up_best(hand: int, table: int, captured: int, wid: int, size: int) -> tuple[int, ...]:
    """The ids :meth:`_View.best` puts at the top, in the legal order, for
    :func:`_heads_up_pick` (a hand that is not one forced card): each play valued as
    :func:`_taking` values it and priced as :func:`_bounded_best` prices it (the same
    float operations for each play, so the same scores), without their calls.

    The plays are priced best take first.  A play whose take alone is below the top
    score so far by more than 1e-9 cannot reach the top (a reply only takes away), and
    neither can any after it: they are not priced.  Which plays tie at the top does not
    depend on the order they are priced in (the best is always priced, and so is every
    play within 1e-9 of it), only how many replies are priced: this order prices fewest.
    The ties are returned sorted, as the legal ids are."""
    sums = _SUMS.get(table)
    if sums is None:
        sums = _sums(table)
    worth = _WORTH[wid]
    # Each play as (value taken, table left, id).
    plays: list[tuple[float, int, int]] = []
    m = hand
    while m:
        low = m & -m
        m ^= low
        card = low.bit_length() - 1
        mine = worth[card]
        keep = -KEEP_SHARE * mine
        sets = sums[15 - VALUE[card]]
        if not sets:
            plays.append((keep, table | low, card))
            continue
        card_ids = _CAPTURE_IDS[card]
        for taken in sets:
            got = 0.0
            t = taken
            while t:
                bit = t & -t
                got += worth[bit.bit_length() - 1]
                t ^= bit
            value = keep + (mine + got)
            left = table & ~taken
            if not left:
                value += ESCOBA
            plays.append((value, left, card_ids[taken]))
    plays.sort(reverse=True)
    if not size:  # no reply: the takes are the scores
        top = plays[0][0]
        return tuple(sorted([a for value, _left, a in plays if value >= top - 1e-9]))
    unseen = _FULL & ~(hand | table | captured)
    odds = _NO_REPLY[unseen.bit_count()][size]
    spread = (
        _SPREAD[unseen & 1023]
        | _SPREAD[unseen >> 10 & 1023] << 1
        | _SPREAD[unseen >> 20 & 1023] << 2
        | _SPREAD[unseen >> 30] << 3
    )  # _spread(unseen), inline
    top = _UNSCORED
    scored: list[tuple[float, int]] = []
    for value, left, a in plays:
        if value < top - 1e-9:
            break
        score = value - _reply(left, wid, spread, odds)
        scored.append((score, a))
        if score > top:
            top = score
    return tuple(sorted([a for score, a in scored if score >= top - 1e-9]))


class EscobaHeuristic:
    """Scores each legal action (see the module docstring) and plays the best."""

    name = "heuristic"

    # A two-player sample's move from the position's ints, as a method: fast_rollout's
    # picks are these bound methods (a call the interpreter makes in place).
    _pick = _heads_up_pick

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        check_bot_options(self.name, options, {})
        if game.name != "escoba":
            raise ValueError(f"EscobaHeuristic plays escoba, not {game.name}")
        self.game = game
        self.rng = Rng(seed)
        self.side_of: tuple[int, ...] = tuple(game.info.side_of)
        self.sides = max(self.side_of) + 1
        self._offsets = tuple(40 * s for s in range(game.players))
        method = game.options.get("prime_method", "seed_counts")
        self.method_index = _METHODS.index(method)
        self.kind = self.sides << 2 | self.method_index  # the low bits of _PILES's keys
        self.counting = method in ("seed_counts", "sevens_only")
        self._captures = _capture_table()[0]  # capture id - 40 -> (card, mask taken)
        # Rollouts only: exact play of a two-player sample's last round (see _Ending).
        self._ending = _Ending.of(game) if game.players == 2 else None

    # -- the two front doors ---------------------------------------------------------

    def _observed(self, observation: Observation) -> _View:
        """The view of an observation (card codes parsed once here)."""
        ids = _ID
        hand = 0
        for c in observation["hand"]:
            hand |= 1 << ids[c]
        piles = 0
        for side, pile in enumerate(observation["captured"]):
            for c in pile:
                piles |= 1 << (40 * side + ids[c])
        return _View(
            self,
            observation["seat"],
            hand,
            tuple(ids[c] for c in observation["table"]),
            piles,
            observation["hand_sizes"],
            observation["stock_size"],
            observation.get("last_capturer"),
        )

    def _of_state(self, state: EscobaState, seat: int) -> _View:
        """The view of ``seat`` in an engine state: its own hand and the public rest
        (the other hands' sizes only)."""
        h = state._h
        return _View(
            self,
            seat,
            h >> 40 * seat & _FULL,
            state._table,
            state._piles,
            [(h >> off & _FULL).bit_count() for off in self._offsets],
            40 - state._sp,
            state._last,
        )

    def choose(self, observation: Observation) -> int:
        """The action id with the best score; ties broken by the bot's Rng."""
        legal = legal_ids(self.game, observation)
        if len(legal) == 1:
            return legal[0]
        return self._decide(self._observed(observation), legal)

    def choose_state(self, state: State) -> int:
        """:meth:`choose` on ``state.observation(state.to_act)``, read from the state
        itself (the seat's own hand and what is public): the same action, the same
        draws from the Rng.  For search rollouts."""
        seat = state.to_act
        if (
            self._ending is not None
            and seat is not None
            and type(state) is EscobaState
            and state._g.stops_at_deal_end
        ):
            return _heads_up_move(self, state, seat)
        return self._choose_state(state)

    def _choose_state(self, state: State) -> int:
        """:meth:`choose_state` through the legal action ids and a :class:`_View`."""
        seat = state.to_act
        legal = state.legal_actions()
        if seat is None or not legal:
            raise RulesError(f"seat {seat!r} has no legal action in this state")
        if len(legal) == 1:
            return legal[0]
        if not isinstance(state, EscobaState):
            raise RulesError(f"this bot plays escoba, not {state!r}")
        if (
            self._ending is not None
            and state._sp >= 40
            and state._h.bit_count() <= EXACT_CARDS
            and state._g.stops_at_deal_end
        ):
            return self._ending.best(state, seat)
        return self._decide(self._of_state(state, seat), legal)

    def _decide(self, view: _View, legal: list[int]) -> int:
        """The one decision code: the best-scored action, ties drawn from the Rng."""
        best = view.best(self._moves(legal))
        return legal[best[0]] if len(best) == 1 else self.rng.choice([legal[i] for i in best])

    def _moves(self, actions: Sequence[int]) -> list[tuple[int, int]]:
        """Action ids as (card played, mask of the cards taken)."""
        captures = self._captures
        return [(a, 0) if a < 40 else captures[a - 40] for a in actions]

    def scores(self, observation: Observation) -> dict[str, float]:
        """Every legal action's score (for tests and for explaining a choice)."""
        texts: list[str] = list(observation["legal_actions"])
        moves = self._moves([self.game.string_to_action(t) for t in texts])
        return dict(zip(texts, self._observed(observation).scores(moves), strict=True))

    def explain(self, observation: Observation, action: int | str) -> tuple[str, dict[str, Any]]:
        """One line of why ``action`` (this bot's choice here): an i18n key
        ``hint.escoba.<why>`` and its params (cards as codes): the most telling thing the
        chosen play takes (an escoba, the siete de velo, a seven, the most cards), or,
        for a card laid down, that it leaves the next seat the least."""
        text = action if isinstance(action, str) else self.game.action_to_string(action)
        legal: list[str] = list(observation["legal_actions"])
        if len(legal) <= 1:
            return "hint.escoba.only_move", {"card": text.split("+")[0]}
        card, *taken = text.split("+")
        table: list[str] = list(observation["table"])
        captures = [a for a in legal if "+" in a]
        if not taken:
            if captures:
                return "hint.escoba.trail_safe", {"card": card}
            return "hint.escoba.trail", {"card": card}
        if len(taken) == len(table):
            return "hint.escoba.escoba", {"card": card, "count": len(taken)}
        if VELO in taken or card == VELO:
            return "hint.escoba.velo", {"card": VELO}
        sevens = [c for c in taken if c[0] == "7"]
        if sevens:
            return "hint.escoba.seven", {"card": sevens[0]}
        most = max(len(a.split("+")) - 1 for a in captures)
        if len(taken) == most and len(captures) > 1:
            return "hint.escoba.most_cards", {"card": card, "count": len(taken) + 1}
        oros = [c for c in taken if c[-1] == "O"]
        if oros:
            return "hint.escoba.oros", {"card": oros[0]}
        return "hint.escoba.capture", {"card": card, "count": len(taken) + 1}

    def __repr__(self) -> str:
        return f"EscobaHeuristic({self.game!r})"


# -- rollouts: exact play of a sample's last round -----------------------------------


class _Ending:
    """Exact play of a two-player hand's last round (the stock dealt): every card left is
    in the two hands or on the table, so the position is perfect information for both
    players (the seat's own observation pins it down, as :mod:`mazo.bots.solver` says).
    Each seat plays for the best difference of the hand's points (the hand won first,
    then by as much as it can; with two sides one follows from the other), the first
    such move card by card (lowest card id first, a card's trail or its captures in
    capture-id order), which is not the legal order of ids (trails before captures).

    For search rollouts only (:meth:`EscobaHeuristic.choose_state` on a search's sample,
    marked ``stop_at_deal_end``): ``normal`` plays its rules of thumb to the end, and
    the search's own last-round moves are the solver's, so rollouts that end as the
    search itself would end the hand price its earlier moves better.

    A minimax over ints (hands, table and piles as masks) memoized per game config: the
    positions by their masks, the hand's points by the two piles.
    """

    __slots__ = ("escoba_last", "fast", "game", "moves", "points", "positions")

    def __init__(self, game: Game) -> None:
        opts = game.options
        self.game = game
        self.escoba_last: bool = opts["escoba_on_final_play_counts"]
        plain = not (
            opts["bonus_all_sevens"] or opts["bonus_all_oros"] or opts["bonus_cards_over_30"]
        )
        method = opts["prime_method"]
        # The prime classes the majority compares in turn, where scoring is this simple.
        self.fast: tuple[int, ...] | None = None
        if plain and method == "seed_counts":
            self.fast = _PRIME_CLASS_MASKS
        elif plain and method == "sevens_only":
            self.fast = _PRIME_CLASS_MASKS[:1]
        self.positions: dict[int, int] = {}  # position key -> side 0's best margin
        self.moves: dict[int, int] = {}  # position key -> the move best() chose there
        self.points: dict[int, int] = {}  # p0 << 40 | p1 -> side 0's margin (no escobas)

    @classmethod
    def of(cls, game: Game) -> _Ending:
        """The one instance (and memos) for ``game``'s rules options."""
        key = tuple(sorted((k, v) for k, v in game.options.items() if k != "first_dealer"))
        found = _ENDINGS.get(key)
        if found is None:
            found = _ENDINGS[key] = cls(game)
        return found

    def best(self, state: EscobaState, seat: int) -> int:
        """The exact move of ``seat`` (to act in ``state``'s last round): :meth:`best_of`
        on the state's ints."""
        table = 0
        for c in state._table:
            table |= 1 << c
        return self.best_of(state._h, table, state._piles, state._esc, state._last, seat)

    def best_of(
        self, h: int, table: int, piles: int, esc: tuple[int, ...], last_seat: int | None, seat: int
    ) -> int:
        """The exact move of ``seat`` in a last round given by its ints (the packed
        hands, the table's mask, the packed piles, the escobas, the last capturer).
        Memoized by the position (as :meth:`_value`'s memo)."""
        h0 = h & _FULL
        h1 = h >> 40 & _FULL
        p0 = piles & _FULL
        p1 = piles >> 40 & _FULL
        e0, e1 = esc
        last = -1 if last_seat is None else last_seat
        key = h & _FULL2 | table << 80 | p0 << 120 | (last + 1) << 160 | seat << 162
        key |= e0 << 163 | e1 << 170
        found = self.moves.get(key)
        if found is not None:
            return found
        # Each move (card by card, each card's captures in capture-id order) valued by
        # _value on the position after it; the first of the best is played.
        mine, other = (h0, h1) if seat == 0 else (h1, h0)
        subsets = _sums(table)
        value_of = self._value
        found = -1
        best = 0
        cards = mine
        while cards:
            low = cards & -cards
            cards ^= low
            card = low.bit_length() - 1
            rest = mine ^ low
            sets = subsets[15 - VALUE[card]]
            if not sets:
                if seat == 0:
                    value = value_of(rest, h1, table | low, p0, p1, e0, e1, last, 1)
                else:
                    value = -value_of(h0, rest, table | low, p0, p1, e0, e1, last, 0)
                if found < 0 or value > best:
                    best, found = value, card
                continue
            card_ids = _CAPTURE_IDS[card]
            for taken in sets:  # in capture-id order
                left = table & ~taken
                gain = taken | low
                escoba = not left and (self.escoba_last or bool(rest | other))
                if seat == 0:
                    value = value_of(rest, h1, left, p0 | gain, p1, e0 + escoba, e1, 0, 1)
                else:
                    value = -value_of(h0, rest, left, p0, p1 | gain, e0, e1 + escoba, 1, 0)
                if found < 0 or value > best:
                    best, found = value, card_ids[taken]
        if len(self.moves) >= _ENDING_LIMIT:
            self.moves.clear()
        self.moves[key] = found
        return found

    def _value(
        self, h0: int, h1: int, table: int, p0: int, p1: int, e0: int, e1: int, last: int, seat: int
    ) -> int:
        """Side 0's points less side 1's at the hand's end, both playing their best."""
        if not h0 and not h1:
            if last == 0:
                p0 |= table
            elif last == 1:
                p1 |= table
            return self._points(p0, p1) + e0 - e1
        if seat == 0:
            mine, other = h0, h1
        else:
            mine, other = h1, h0
        if not mine & mine - 1:
            if not other:
                return self._last_card(mine, table, p0, p1, e0, e1, last, seat)
            if not other & other - 1:
                return self._last_two(mine, other, table, p0, p1, e0, e1, last, seat)
        key = h0 | h1 << 40 | table << 80 | p0 << 120 | (last + 1) << 160 | seat << 162
        key |= e0 << 163 | e1 << 170
        found = self.positions.get(key)
        if found is not None:
            return found
        # The moves of best_of, in any order (max and min do not care), each
        # valued as it is made.
        # The table's sets are listed only once a card captures (its reachable sums say).
        value_of = self._value
        reach = _REACH.get(table)
        if reach is None:
            reach = _reach(table)
        subsets: tuple[tuple[int, ...], ...] | None = None
        best: int | None = None
        cards = mine
        while cards:
            low = cards & -cards
            cards ^= low
            rest = mine ^ low
            need = 15 - VALUE[low.bit_length() - 1]
            if not reach >> need & 1:
                if seat == 0:
                    v = value_of(rest, h1, table | low, p0, p1, e0, e1, last, 1)
                else:
                    v = value_of(h0, rest, table | low, p0, p1, e0, e1, last, 0)
                if best is None or (v > best if seat == 0 else v < best):
                    best = v
                continue
            if subsets is None:
                subsets = _sums(table)
            for taken in subsets[need]:
                left = table & ~taken
                escoba = not left and (self.escoba_last or bool(rest | other))
                if seat == 0:
                    v = value_of(rest, h1, left, p0 | taken | low, p1, e0 + escoba, e1, 0, 1)
                else:
                    v = value_of(h0, rest, left, p0, p1 | taken | low, e0, e1 + escoba, 1, 0)
                if best is None or (v > best if seat == 0 else v < best):
                    best = v
        assert best is not None
        if len(self.positions) >= _ENDING_LIMIT:
            self.positions.clear()
        self.positions[key] = best
        return best

    def _last_two(
        self,
        mine: int,
        other: int,
        table: int,
        p0: int,
        p1: int,
        e0: int,
        e1: int,
        last: int,
        seat: int,
    ) -> int:
        """:meth:`_value` of the last two cards, one in each hand (``mine``, ``other``:
        one-card masks, ``seat`` to play ``mine``): each play of it, then the other's
        last card (:meth:`_last_card`).  Not memoized: such a position is mostly met
        once, and a memo's key and entry cost about as much as its one or two
        children."""
        need = 15 - VALUE[mine.bit_length() - 1]
        reach = _REACH.get(table)
        if reach is None:
            reach = _reach(table)
        if not reach >> need & 1:  # laid: the other seat plays the last card
            return self._last_card(other, table | mine, p0, p1, e0, e1, last, 1 - seat)
        best: int | None = None
        for taken in _sums(table)[need]:
            left = table & ~taken
            # Not the hand's last card (the other seat still holds one): a sweep counts.
            escoba = not left
            if seat == 0:
                v = self._last_card(other, left, p0 | taken | mine, p1, e0 + escoba, e1, 0, 1)
                if best is None or v > best:
                    best = v
            else:
                v = self._last_card(other, left, p0, p1 | taken | mine, e0, e1 + escoba, 1, 0)
                if best is None or v < best:
                    best = v
        assert best is not None
        return best

    def _last_card(
        self, mine: int, table: int, p0: int, p1: int, e0: int, e1: int, last: int, seat: int
    ) -> int:
        """:meth:`_value` of the hand's last card (``mine``, a one-card mask, ``seat`` to
        play it), valued here (not memoized): laid, the table goes to the last capturer;
        a capture gives the capturer all of it, each set alike but for the escoba of one
        taking the whole table (where it counts).  Whether the card captures (some set
        of the table makes its 15) and whether the whole table is such a set: the
        table's reachable sums say it, without listing the sets (most such tables are
        met only here)."""
        reach = _REACH.get(table)
        if reach is None:
            reach = _reach(table)
        need = 15 - VALUE[mine.bit_length() - 1]
        every = table | mine
        if not reach >> need & 1:
            if last == 0:
                p0 |= every
            elif last == 1:
                p1 |= every
            return self._points(p0, p1) + e0 - e1
        sweep = self.escoba_last and reach >> 15 == need
        if seat == 0:
            return self._points(p0 | every, p1) + e0 + sweep - e1
        return self._points(p0, p1 | every) + e0 - (e1 + sweep)

    def _points(self, p0: int, p1: int) -> int:
        """Side 0's points less side 1's for these piles, escobas aside."""
        key = p0 << 40 | p1
        found = self.points.get(key)
        if found is not None:
            return found
        fast = self.fast
        if fast is None:
            totals, _detail = _score_hand(self.game, [p0, p1], (0, 0))  # type: ignore[arg-type]
            diff = totals[0] - totals[1]
        else:
            c0, c1 = p0.bit_count(), p1.bit_count()
            diff = (c0 > c1) - (c0 < c1)
            o0, o1 = (p0 & _OROS_MASK).bit_count(), (p1 & _OROS_MASK).bit_count()
            diff += (o0 > o1) - (o0 < o1)
            diff += (p0 >> _VELO_ID & 1) - (p1 >> _VELO_ID & 1)
            for m in fast:
                a, b = (p0 & m).bit_count(), (p1 & m).bit_count()
                if a != b:
                    diff += 1 if a > b else -1
                    break
        if len(self.points) >= _ENDING_LIMIT:
            self.points.clear()
        self.points[key] = diff
        return diff


# Rollouts play exactly once this many cards are left in the hands (the last round's
# last four plays: solving all six costs a rollout about as much as the rest of it).
EXACT_CARDS = 4
_VELO_ID = _ID[VELO]
_ENDINGS: dict[tuple[tuple[str, Any], ...], _Ending] = {}  # per rules options
_ENDING_LIMIT = 200_000  # entries in either memo of _Ending before it is emptied


# -- hooks read through the registry (mazo.bots.heuristic) ----------------------------

Heuristic = EscobaHeuristic


def fast_rollout(policies: list[Any]) -> Callable[[State], State | None] | None:
    """A search's whole rollout on ints (the ISMCTS hook): given each seat's rollout
    policy, a function from a search line's state to the state at its hand's end,
    played by those policies with their own tie draws, the same end as their
    ``choose_state`` moves applied one by one (tested), without the states between
    (:meth:`EscobaState.play_to_deal_end`, each move :func:`_heads_up_pick`, the
    decision code of ``choose_state`` on a two-player sample).  None where the policies
    are not two plain Escoba heuristics; the function returns None for a line it does
    not cover (not a two-player line stopping at the deal's end, not in plain play),
    which the search then plays move by move."""
    if len(policies) != 2 or any(
        type(p) is not EscobaHeuristic or p._ending is None for p in policies
    ):
        return None
    picks = [p._pick for p in policies]
    # The lines the policies' game plays under (its stopping twin): a line of another
    # game, or of this one dealing on, is left to the move-by-move loop.
    twin = policies[0].game.stopping()

    def run(state: State) -> State | None:
        if (
            type(state) is not EscobaState
            or state._g is not twin
            or state._m
            or state.to_act is None
        ):
            return None
        return state.play_to_deal_end(picks)

    return run


# -- reading the others' plays (ISMCTS infer=plays) -----------------------------------

# The model of another seat: a softmax over this heuristic's action scores (match points)
# at this temperature, mixed with a uniform choice at this rate (a player who is not
# ``normal``, or who slips, does not make a sample impossible).
READ_TEMPERATURE = 0.05
READ_SLIP = 0.1


def play_likelihood(game: Game, observation: Observation) -> Callable[[State, Rng], float] | None:
    """How well a sample fits the other seats' plays of this round (ISMCTS
    ``infer=plays``): the chance that this heuristic, in each other seat's place with
    the sample's cards, would have made the plays that seat made since the last deal of
    three cards (a softmax of its scores, :data:`READ_TEMPERATURE`).  Only this round
    says anything: a seat's hand at an earlier play of the round is its sampled hand
    with the cards it played since put back, while the rounds before were played out to
    their last card, all seen.  None where there is nothing to read (no other seat has
    played this round) or the observation is not one this reads."""
    n = game.players
    try:
        me = observation["seat"]
        ids = _ID
        sizes = list(observation["hand_sizes"])
        history = observation["history"]
        stock = observation["stock_size"]
        table = [ids[c] for c in observation["table"]]
        piles = [0] * game.sides
        for side, pile in enumerate(observation["captured"]):
            for c in pile:
                piles[side] |= 1 << ids[c]
        # The deal's own sweep (the dealer's fifteen on the table) makes its taker the
        # last capturer before any play.
        last: int | None = next(
            (m["seat"] for m in observation["escoba_markers"] if m["card"] == "deal"), None
        )
        lasts: list[int | None] = []  # the last capturer before each play of the hand
        plays: list[tuple[int, int, int]] = []  # (seat, card, mask taken)
        for h in history:
            lasts.append(last)
            taken = 0
            for c in h["captured"]:
                taken |= 1 << ids[c]
            plays.append((h["seat"], ids[h["card"]], taken))
            if taken:
                last = h["seat"]
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    in_round = 3 * n - sum(sizes)  # every seat holds three cards after a deal
    if not 0 < in_round <= len(plays) or observation.get("hand_over"):
        return None
    side_of = game.info.side_of
    bot = EscobaHeuristic(game, 0)
    # Walk the round back: before each play, the table, the piles, the hand sizes and
    # the cards the seat played later in the round.
    checks: list[tuple[int, tuple[int, ...], int, tuple[int, ...], int, int, int, int | None]] = []
    later = [0] * n
    first = len(plays) - in_round
    for index in range(len(plays) - 1, first - 1, -1):
        seat, card, taken = plays[index]
        side = side_of[seat]
        if taken:
            piles[side] &= ~(taken | 1 << card)
            table.extend(c for c in range(40) if taken >> c & 1)
        else:
            table.remove(card)
        sizes[seat] += 1
        if seat != me:
            packed = 0
            for sd, pile in enumerate(piles):
                packed |= pile << 40 * sd
            checks.append(
                (seat, tuple(table), packed, tuple(sizes), card, taken, later[seat], lasts[index])
            )
        later[seat] |= 1 << card
    if not checks:
        return None
    offsets = [40 * s for s in range(n)]

    def chance(
        check: tuple[int, tuple[int, ...], int, tuple[int, ...], int, int, int, int | None],
        hand: int,
    ) -> float:
        seat, tab, packed, held, card, taken, _later, last_capturer = check
        view = _View(bot, seat, hand, tab, packed, held, stock, last_capturer)
        moves = _plays_on(hand, view.table_mask)
        if (card, taken) not in moves:
            return READ_SLIP / max(len(moves), 1)  # not a play this hand could make
        scores = view.scores(moves)
        top = max(scores)
        weights = [math.exp((x - top) / READ_TEMPERATURE) for x in scores]
        p = weights[moves.index((card, taken))] / sum(weights)
        return (1.0 - READ_SLIP) * p + READ_SLIP / len(moves)

    # A check's chance depends on the hand alone, and a search's samples deal the same
    # few hands again and again (two unseen cards of thirty: 435 hands, over a thousand
    # weighings a search), so each check keeps the chances it has worked out.
    memos: list[dict[int, float]] = [{} for _ in checks]

    def likelihood(sample: State, rng: Rng) -> float:
        h: int = sample._h  # type: ignore[attr-defined]
        like = 1.0
        for check, memo in zip(checks, memos, strict=True):
            seat, card, later_cards = check[0], check[4], check[6]
            hand = (h >> offsets[seat] & _FULL) | later_cards | 1 << card
            p = memo.get(hand)
            if p is None:
                p = memo[hand] = chance(check, hand)
            like *= p
        return like

    return likelihood


# The search levels' settings on top of levels.py's flat heuristic search (ISMCTS options).
# Reading the other seats' plays of the round (session 27, 300 playouts, paired with
# uniform samples): two players +0.05 hand points a hand (+0.01 to +0.10, 1,000 deal
# sets), three even (-0.00, 300 sets), four +0.18 (+0.00 to +0.36, 150 sets).  Each line
# cut six moves on and scored by the shipped net's value head (session 29, two players:
# the only count with a net; levels.py drops it elsewhere): +0.05 hand points a hand
# (+0.02 to +0.08, 2,000 deal sets), at about a third less CPU a move.
SEARCH_PRESET: dict[str, Any] = {"paired": True, "reward": "game", "infer": "plays", "leaf": 6}

# Hand points margin that counts as a whole reward's swing in search_reward (hands are
# rarely won by more than 6).
HAND_SPAN = 8


def search_reward(
    game: Game, margin: float
) -> Callable[[list[int], list[int], State], list[float]]:
    """Each side's reward for a search line (ISMCTS ``reward=game``): the hand won (1, a
    tie 0.5, lost 0: more points this hand than the best other side), blended with the
    hand's points margin linearly: ``(1 - margin) * won + margin * (0.5 + edge / 16)``,
    clipped to [0, 1], ``edge`` the side's points this hand less the best other side's.
    A line that ends the match counts the match instead: 1 won, 0 lost."""
    sides = game.sides
    keep = 1.0 - margin
    scale = 2.0 * HAND_SPAN

    def reward(scores: list[int], games: list[int], end: State) -> list[float]:
        if end.match_over:
            winner = end.winner
            return [0.5 if winner is None else float(winner == s) for s in range(sides)]
        after = end.scores
        if sides == 2:
            # The loop below for two sides: each side's edge is the other's negated.
            edge = (after[0] - scores[0]) - (after[1] - scores[1])
            won = 1.0 if edge > 0 else 0.5 if edge == 0 else 0.0
            lost = 1.0 if -edge > 0 else 0.5 if -edge == 0 else 0.0
            return [
                keep * won + margin * min(1.0, max(0.0, 0.5 + edge / scale)),
                keep * lost + margin * min(1.0, max(0.0, 0.5 + -edge / scale)),
            ]
        gained = [b - a for a, b in zip(scores, after, strict=True)]
        out = []
        for side in range(sides):
            edge = gained[side] - max(g for s, g in enumerate(gained) if s != side)
            won = 1.0 if edge > 0 else 0.5 if edge == 0 else 0.0
            out.append(keep * won + margin * min(1.0, max(0.0, 0.5 + edge / scale)))
        return out

    return reward


# The solver's test (mazo.bots.solver.perfect_information), mirroring determinize.
def perfect_information(game: Game, obs: Observation) -> bool:
    """Unseen cards go to the other hands and to the (ordered) stock."""
    deck = game.info.deck
    seat = obs["seat"]
    seen = card_mask(deck, obs["table"])
    for pile in obs["captured"]:
        seen |= card_mask(deck, pile)
    own = card_mask(deck, obs["hand"]) if seat is not None else 0
    seen |= own
    pool = (deck.full_mask & ~seen).bit_count()
    sizes = obs["hand_sizes"]
    needs = [sizes[s] - (own.bit_count() if s == seat else 0) for s in range(game.players)]
    return one_placement(needs, pool, ordered_rest=True)
