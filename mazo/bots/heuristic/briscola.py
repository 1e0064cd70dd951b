"""A heuristic Briscola bot: rules of thumb scored in card points, from the observation only.

Every card in hand gets a score, and the best one is played (ties broken by the bot's
own :class:`~mazo.core.rng.Rng`, so a seed fixes every choice)::

    score(card) = (2 * P(my side takes the trick) - 1) * (points on the table + the card's)
                  - keep(card)

* ``P(my side takes the trick)`` looks at the card winning the trick after mine and at
  the seats still to play: each opponent after me beats it with the chance that he holds
  a card that does (hypergeometric over the cards I have not seen), damped when beating
  would cost a trump for few points; a partner after me may take the trick back.  With
  nobody after me it is exact, so the last player takes points cheaply and never throws
  a carico (ace or 3) into a trick the opponents hold.
* ``keep(card)`` is what the card is worth in later tricks: a trump is worth about
  4 + its strength (so a trump is spent only when the points on the table justify it,
  and the low trumps go first), plus its own points when no unseen trump can beat it
  (the ace of trumps banks its 11 whenever it is played, so cashing it early gains
  nothing); any other card a little by its strength.  The worth fades as the deal runs
  out of tricks.  The weights were set by self-play (see the constants).
* As leader the same score with only the seats after me: a low card with no points
  (liscio) is the usual lead, a carico is led only when nobody can take it.
* Team games: when the partner holds the trick safely the score favours adding points
  (caricare); when he does not, a cheap card.
* Two players, stock empty or down to its last hidden card and the indicator: the rest
  of the deal is solved exactly (every unseen card is in the opponent's hand or is that
  one stock card, whose possibilities are averaged).
* The trump-2 exchange is always taken (the indicator outranks the 2 of its suit).
  Partner signals are ignored unless the bot is made with ``signals=True``; then it makes
  at most one signal per trick, before playing: the truest thing it can say about its
  trumps (it never bluffs, even where bluffs are allowed), and it reads its partners'
  signals of a trump rank as that card in the partner's hand, while it is unplayed (only
  under ``signals_truthful``; bluffable signals are claims, not facts).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from mazo.bots.base import Observation, legal_ids
from mazo.bots.heuristic._base import SigningHeuristic
from mazo.bots.odds import card_mask, one_placement
from mazo.bots.odds import holds as _p_holds
from mazo.core.cards import LATIN_40
from mazo.core.errors import RulesError
from mazo.core.game import PHASE_MASK, Game, State
from mazo.core.rng import Rng
from mazo.games.briscola import (
    EXCHANGE,
    EXCHANGE_PHASE,
    SIGNAL_BASE,
    SIGNAL_MEANINGS,
    BriscolaState,
    _known_cards,
)
from mazo.games.briscola import POINTS as _POINTS
from mazo.games.briscola import STRENGTH as _STRENGTH
from mazo.games.briscola import SUIT as _SUIT

__all__ = ["BriscolaHeuristic"]

DECK = LATIN_40
NUM_CARDS = 40
_RANK_POINTS = {"1": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
_ORDER = ("2", "4", "5", "6", "7", "J", "Q", "K", "3", "1")  # weakest first
POINTS: tuple[int, ...] = tuple(_RANK_POINTS.get(DECK.rank(c), 0) for c in range(NUM_CARDS))
STRENGTH: tuple[int, ...] = tuple(_ORDER.index(DECK.rank(c)) + 1 for c in range(NUM_CARDS))
SUIT: tuple[int, ...] = tuple(c // 10 for c in range(NUM_CARDS))

# keep() weights, in card points.
TRUMP_BASE = 4.0
TRUMP_PER_STRENGTH = 0.9
# Keeping high plain cards pays against a lone opponent but not in a crowd (measured in
# self-play: 0.6 rather than 0.15 gains 1.2 card points a deal with two players, loses
# 1.1 with four at 0.4 and 3.7 with three).
PLAIN_PER_STRENGTH = 0.15
PLAIN_PER_STRENGTH_HEADS_UP = 0.6
# Share of a trump's points counted as banked when it is kept: sure / beatable by an
# unseen higher trump.  Measured against 0.0 (no banking) in self-play: +0.6 card points
# a deal with two players, +3.5 with three, +4.3 with four; 0.5 for the unsure case
# changed nothing measurable.
BANK_WEIGHT = 1.0
BANK_WEIGHT_UNSURE = 0.0
# A partner after me who can beat the opponents' card does so this often (he may lack
# the will to spend it, or be overtaken again).
PARTNER_RESCUE = 0.8


def beats(card: int, best: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from the card ``best`` now winning it."""
    if SUIT[card] == SUIT[best]:
        return STRENGTH[card] > STRENGTH[best]
    return SUIT[card] == trump


def trick_winner(cards: list[int], trump: int) -> int:
    """Index in ``cards`` (play order) of the card that wins them."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


# Masks by card id: the cards of its suit that outrank it, and each suit's cards.
HIGHER: tuple[int, ...] = tuple(
    sum(1 << d for d in range(NUM_CARDS) if SUIT[d] == SUIT[c] and STRENGTH[d] > STRENGTH[c])
    for c in range(NUM_CARDS)
)
SUIT_MASK: tuple[int, ...] = tuple(((1 << 10) - 1) << (10 * s) for s in range(4))
_FULL = (1 << NUM_CARDS) - 1
_CARD_IDS = {DECK.format(c): c for c in range(NUM_CARDS)}

_HOLDS: dict[tuple[int, int, int], float] = {}


def _holds(pool: int, hidden: int, good: int) -> float:
    """:func:`mazo.bots.odds.holds`, remembered (its arguments take few values)."""
    key = (pool, hidden, good)
    p = _HOLDS.get(key)
    if p is None:
        p = _HOLDS[key] = _p_holds(pool, hidden, good)
    return p


# (pool, hidden) -> _holds for each count of good cards 0..40, a row read by index
# where a decision asks several counts of the same draw.
_HOLDS_ROWS: dict[tuple[int, int], tuple[float, ...]] = {}


def _holds_row(pool: int, hidden: int) -> tuple[float, ...]:
    """``_holds(pool, hidden, good)`` for every ``good`` from 0 to 40, remembered."""
    row = _HOLDS_ROWS.get((pool, hidden))
    if row is None:
        row = _HOLDS_ROWS[pool, hidden] = tuple(
            _holds(pool, hidden, good) for good in range(NUM_CARDS + 1)
        )
    return row


def _parse(code: str) -> int:
    """A card code's id: the canonical codes looked up, any other spelling parsed."""
    card = _CARD_IDS.get(code)
    return card if card is not None else DECK.parse(code)


# Per card: a trump's worth kept, before the fade (TRUMP_BASE + TRUMP_PER_STRENGTH * strength).
_TRUMP_POWER: tuple[float, ...] = tuple(
    TRUMP_BASE + TRUMP_PER_STRENGTH * STRENGTH[c] for c in range(NUM_CARDS)
)


# (seats of the deal, leader) -> the seats in playing order from the leader.
_ORDERS: dict[tuple[tuple[int, ...], int], list[int]] = {}


def _order(active: tuple[int, ...], leader: int) -> list[int]:
    """The seats of a deal in playing order from ``leader``, remembered in _ORDERS."""
    start = active.index(leader)
    k = len(active)
    order = _ORDERS[active, leader] = [active[(start + i) % k] for i in range(k)]
    return order


class _View:
    """What the bot knows at one decision, as ints and masks: built from an observation
    (:meth:`of_observation`) or from the engine's state for the seat to act
    (:meth:`of_state`, reading only what that seat's observation shows); the same scoring
    code runs on either."""

    __slots__ = (
        "active",
        "after",
        "after_info",
        "fade",
        "hand",
        "hidden",
        "indicator",
        "k",
        "known",
        "lead_best",
        "lead_mine",
        "my_side",
        "n_trumps_unseen",
        "n_unseen",
        "plain_fade",
        "seat",
        "side_of",
        "signals",
        "stock",
        "table",
        "trick",
        "trick_no",
        "trick_seats",
        "trump",
        "unseen",
        "wins",
    )

    seat: int
    side_of: tuple[int, ...]
    my_side: int
    trump: int
    indicator: int
    hand: list[int]
    stock: int
    active: tuple[int, ...]
    k: int
    trick: list[int]
    trick_seats: list[int]
    after: list[int]  # seats still to play after me
    known: dict[int, int]  # seat -> mask of its cards this seat knows
    unseen: int  # mask of the cards this seat has not seen
    n_unseen: int
    hidden: dict[int, int]  # seat -> how many of its cards are unseen ones
    signals: list[tuple[Any, Any, str]]  # (trick number, seat, meaning) this seat saw
    trick_no: int
    table: int  # points on the table
    # Derived by _derive from the above, for the scores:
    wins: tuple[tuple[bool, ...], ...]  # _WINS[trump]
    lead_best: int  # the card winning the trick so far (-1: none yet)
    lead_mine: bool  # whether my side holds it
    # Per seat after me: known mask, the odds of its hidden cards by the count of good
    # cards (:func:`_holds_row`), partner, and the chance that it holds an unseen trump
    # (the same for every card I may play).
    after_info: list[tuple[int, tuple[float, ...], bool, float]]
    n_trumps_unseen: int
    fade: float
    plain_fade: float  # fade * the weight of a plain card's strength

    @classmethod
    def of_observation(cls, game: Game, obs: Mapping[str, Any]) -> _View:
        v = cls()
        v.seat = obs["seat"]
        v.indicator = _parse(obs["trump"])
        v.trump = SUIT[v.indicator]
        v.hand = hand = [_parse(c) for c in obs["hand"]]
        v.stock = obs["stock_size"]
        v.active = tuple(obs["seats"])
        v.trick = [_parse(t["card"]) for t in obs["trick"]]
        v.trick_seats = [t["seat"] for t in obs["trick"]]
        seen = 0
        for c in hand:
            seen |= 1 << c
        for c in obs.get("removed", []):
            seen |= 1 << _parse(c)
        for t in obs["tricks"]:
            for c in t["cards"]:
                seen |= 1 << _parse(c)
        known: dict[int, int] = {}
        for s, cards in obs.get("known_cards", {}).items():
            mask = 0
            for c in cards:
                mask |= 1 << _parse(c)
            known[int(s)] = mask
        v.signals = [
            (g.get("trick"), g.get("seat"), str(g.get("meaning"))) for g in obs.get("signals", [])
        ]
        v.trick_no = len(obs["tricks"]) + 1
        v._finish(game.info.side_of, obs["leader"], list(obs["hand_sizes"]), known, seen)
        return v

    @classmethod
    def of_state(cls, state: BriscolaState, seat: int) -> _View:
        game = state._g
        d = state._d
        h = state._h
        v = cls()
        v.seat = seat
        v.indicator = d.indicator
        v.trump = d.trump
        hand = h >> 40 * seat & _FULL
        v.hand = list(_CARDS.get(hand) or _cards(hand))
        leader, sp, won, ntricks, holder, _used, sigs = state._t
        v.stock = len(d.draw) - sp
        v.active = d.active
        v.trick = list(state._trick)
        seen = d.removed | hand
        sizes = []
        for s in range(game.players):
            seen |= won >> 40 * s & _FULL
            sizes.append((h >> 40 * s & _FULL).bit_count())
        side_of = game.info.side_of
        if sigs:
            public = game.options["signal_visibility"] == "public"
            v.signals = [
                (t, s, SIGNAL_MEANINGS[m])
                for t, s, m in sigs
                if public or side_of[s] == side_of[seat]
            ]
        else:
            v.signals = []
        v.trick_no = ntricks + 1
        v.trick_seats = []  # filled by _finish
        if (
            holder is None
            and d.exchanged is None
            and d.declined is None
            and not game.open_hands
            and state._m & PHASE_MASK != EXCHANGE_PHASE
            and not game.options["partners_show_hands_before_first_trick"]
        ):
            known: dict[int, int] = {}  # nothing of another hand shown (_known_cards' cases)
        else:
            known = _known_cards(state, seat)
        v._finish(side_of, leader, sizes, known, seen)
        return v

    @classmethod
    def of_past(
        cls,
        side_of: tuple[int, ...],
        seats: tuple[int, ...],
        seat: int,
        other: int,
        indicator: int,
        hand: int,
        trick: int,
        lead: int,
        stock: int,
        seen: int,
        knows_indicator: bool,
    ) -> _View:
        """``seat``'s view at an earlier trick of a plain two-player deal, as a reader of
        its plays rebuilds it (:func:`play_likelihood`): holding ``hand`` (a mask) at trick
        ``trick`` (0-based), ``lead`` the card ``other`` led to it or -1 where ``seat``
        leads, ``stock`` cards left to draw, ``seen`` the cards of the tricks before;
        ``knows_indicator``: ``seat`` knew ``other`` held the indicator.  No signals (the
        reader reads no variant that has them)."""
        v = cls()
        v.seat = seat
        v.indicator = indicator
        v.trump = SUIT[indicator]
        v.hand = list(_CARDS.get(hand) or _cards(hand))
        v.stock = stock
        v.active = seats
        v.trick = [lead] if lead >= 0 else []
        v.trick_seats = [other] if lead >= 0 else []
        v.signals = []
        v.trick_no = trick + 1
        n = len(v.hand)
        sizes = [0, 0]
        sizes[seats.index(seat)] = n
        sizes[seats.index(other)] = n - 1 if lead >= 0 else n
        known = {other: 1 << indicator} if knows_indicator else {}
        v._finish(side_of, seat if lead < 0 else other, sizes, known, seen | hand)
        return v

    def _finish(
        self,
        side_of: tuple[int, ...],
        leader: int,
        hand_sizes: list[int],
        known: dict[int, int],
        seen: int,
    ) -> None:
        """What both front doors derive alike: the order of play, the unseen cards
        (``seen``: the hand, the removed cards and the completed tricks' so far)."""
        self.side_of = side_of
        self.my_side = side_of[self.seat]
        active = self.active
        self.k = len(active)
        order = _ORDERS.get((active, leader)) or _order(active, leader)
        trick = self.trick
        if not self.trick_seats and trick:
            self.trick_seats = order[: len(trick)]
        self.after = order[len(trick) + 1 :]
        for c in trick:
            seen |= 1 << c
        for mask in known.values():
            seen |= mask
        if self.stock > 0:
            seen |= 1 << self.indicator  # face up under the stock
        self.known = known
        self.unseen = _FULL & ~seen
        self.n_unseen = self.unseen.bit_count()
        # Seats whose whole hand is unseen cards drawn from this pool.
        me = self.seat
        self.hidden = {s: hand_sizes[s] - known.get(s, 0).bit_count() for s in active if s != me}
        table = 0
        for c in trick:
            table += POINTS[c]
        self.table = table
        self.wins = _WINS[self.trump]
        self._derive()

    def _derive(self) -> None:
        """The facts every card's score reads: the trick's winning card and holder, each
        later seat's known cards, hidden count and side, the unseen trumps, the fade."""
        trick = self.trick
        my_side = self.my_side
        side_of = self.side_of
        if trick:
            wins = self.wins
            w = 0
            for i in range(1, len(trick)):
                if wins[trick[w]][trick[i]]:
                    w = i
            self.lead_best = trick[w]
            self.lead_mine = side_of[self.trick_seats[w]] == my_side
        else:
            self.lead_best = -1
            self.lead_mine = False
        known, hidden = self.known, self.hidden
        n_unseen = self.n_unseen
        self.n_trumps_unseen = n_trumps = (self.unseen & SUIT_MASK[self.trump]).bit_count()
        info = []
        for s in self.after:
            n = hidden.get(s, 0)
            odds = _holds_row(n_unseen, n)
            info.append((known.get(s, 0), odds, side_of[s] == my_side, odds[n_trumps]))
        self.after_info = info
        self.fade = fade = 1.0 if self.stock > 0 else min(1.0, (len(self.hand) - 1) / 2.0)
        weight = PLAIN_PER_STRENGTH_HEADS_UP if self.k == 2 else PLAIN_PER_STRENGTH
        self.plain_fade = fade * weight

    def read_signals(self) -> None:
        """Take partners' truthful trump signals as known cards in their hands."""
        changed = False
        for _trick, seat, meaning in self.signals:
            rank = _SIGNAL_RANK_INDEX.get(meaning)
            if seat == self.seat or not isinstance(seat, int) or rank is None:
                continue
            if not self.partner(seat) or seat not in self.hidden:
                continue
            bit = 1 << (self.trump * 10 + rank)
            if self.unseen & bit and self.hidden[seat] > 0:
                self.unseen &= ~bit
                self.n_unseen -= 1
                self.known[seat] = self.known.get(seat, 0) | bit
                self.hidden[seat] -= 1
                changed = True
        if changed:
            self._derive()

    def partner(self, seat: int) -> bool:
        return bool(self.side_of[seat] == self.my_side)

    def p_take(self, card: int) -> float:
        """The chance that my side takes this trick if I play ``card`` now
        (:func:`_p_take`)."""
        return _p_take(
            card,
            self.lead_best,
            self.lead_mine,
            self.table,
            self.trump,
            self.unseen,
            self.after_info,
        )

    def keep(self, card: int) -> float:
        """What holding ``card`` for later tricks is worth, in points (:func:`_keep`)."""
        return _keep(card, self.trump, self.fade, self.plain_fade, self.unseen)

    def score(self, card: int) -> float:
        return (2.0 * self.p_take(card) - 1.0) * (self.table + POINTS[card]) - self.keep(card)


def _p_take(
    card: int,
    best: int,
    lead_mine: bool,
    table: int,
    trump: int,
    unseen: int,
    after_info: list[tuple[int, tuple[float, ...], bool, float]],
) -> float:
    """The chance that my side takes the trick if I play ``card`` now, ``best`` winning it
    so far (-1: I lead; ``lead_mine``: my side holds it), ``table`` points on it, and
    ``after_info`` the seats after me (:attr:`_View.after_info`).  One piece of code for
    :meth:`_View.p_take` and the rollouts' :func:`_table_move`.

    Each seat after me beats the card then winning the trick with the chance that it
    holds a higher card of its suit, or (that card not a trump) a trump, the latter
    damped when few points lie; a partner after me takes it back the same way."""
    if best < 0 or _WINS[trump][best][card]:
        best = card
        mine = 1.0
    else:
        mine = 1.0 if lead_mine else 0.0
    at_stake = table + POINTS[card]
    higher = HIGHER[best]
    plain = SUIT[best] != trump
    good_suit = (unseen & higher).bit_count()
    suit_damp = 1.0 if at_stake > 0 else 0.6
    trump_damp = min(1.0, 0.25 + at_stake / 10.0)
    for known, odds, partner, holds_trump in after_info:
        # The chance that this seat takes the trick from ``best`` (``odds``: _holds of
        # its hidden cards from the unseen pool, by the count of good cards).
        p_suit = 1.0 if known & higher else odds[good_suit]
        p_trump = 0.0
        if plain:
            p_trump = 1.0 if known & SUIT_MASK[trump] else holds_trump
            # A trump is spent on a trick only when it carries points.
            p_trump *= trump_damp
        # Overtaking in suit is cheap, but not worth it on a pointless trick.
        p_suit *= suit_damp
        p = 1.0 - (1.0 - p_suit) * (1.0 - p_trump)
        if partner:
            mine += (1.0 - mine) * p * PARTNER_RESCUE
        else:
            mine *= 1.0 - p
    return mine


def _keep(card: int, trump: int, fade: float, plain_fade: float, unseen: int) -> float:
    """What holding ``card`` for later tricks is worth, in points (``fade``: the share of
    a trump's worth left, ``plain_fade`` a plain card's weight a strength, ``unseen`` the
    cards not seen); for :meth:`_View.keep` and the rollouts' fast moves."""
    if SUIT[card] == trump:
        power = fade * _TRUMP_POWER[card]
        if POINTS[card] and BANK_WEIGHT:
            # A trump that nothing unseen can beat banks its points whenever it is
            # played, so playing it now gains nothing from them.
            higher = unseen & HIGHER[card]
            power += POINTS[card] * (BANK_WEIGHT if not higher else BANK_WEIGHT_UNSURE)
        return power
    return plain_fade * STRENGTH[card]


# A plain card's worth kept in a two-player deal with cards left to draw (_keep with
# plain_fade = 1.0 * PLAIN_PER_STRENGTH_HEADS_UP: the same product, so the same float).
_PLAIN_KEEP_HEADS_UP: tuple[float, ...] = tuple(
    PLAIN_PER_STRENGTH_HEADS_UP * STRENGTH[c] for c in range(NUM_CARDS)
)
_UNSURE = BANK_WEIGHT_UNSURE


# trump * 40 + lead -> per card c, the score of following ``lead`` with ``c`` in a
# two-player deal with cards left to draw: at 2 c when an unseen card outranks c in
# its suit, at 2 c + 1 when none does (the only thing the score reads besides them).
_FOLLOW: dict[int, tuple[float, ...]] = {}


def _follow_scores(trump: int, lead: int) -> tuple[float, ...]:
    """:func:`_heads_up_picker`'s scores of following ``lead``, remembered in _FOLLOW: the
    heuristic's score with one seat in the trick (:meth:`_View.score`: the card takes
    the trick or not) and :func:`_keep`'s worth of the card at fade 1.0, the same
    operations, so the same floats."""
    row = _WINS[trump][lead]
    out: list[float] = []
    for c in range(NUM_CARDS):
        x = (2.0 * (1.0 if row[c] else 0.0) - 1.0) * (POINTS[lead] + POINTS[c])
        beaten = HIGHER[c]  # an unseen pool holding exactly the cards that outrank c
        out.append(x - _keep(c, trump, 1.0, PLAIN_PER_STRENGTH_HEADS_UP, beaten))
        out.append(x - _keep(c, trump, 1.0, PLAIN_PER_STRENGTH_HEADS_UP, 0))
    got = _FOLLOW[trump * 40 + lead] = tuple(out)
    return got


# -- exact two-player endgame -----------------------------------------------------------


# _WINS[trump][lead][card]: whether ``card`` played second takes the trick led by ``lead``.
_WINS: tuple[tuple[tuple[bool, ...], ...], ...] = tuple(
    tuple(tuple(beats(c, lead, trump) for c in range(NUM_CARDS)) for lead in range(NUM_CARDS))
    for trump in range(4)
)

_Bounds = tuple[int, int]
_INF = 1000  # beyond any difference of card points


def _negamax(
    mover: int,
    other: int,
    lead: int,
    s0: int,
    s1: int,
    alpha: int,
    beta: int,
    wins: tuple[tuple[bool, ...], ...],
    memo: dict[int, _Bounds],
) -> int:
    """Best (mover's points - other's points) over the rest of a two-player deal, exact
    when it lies strictly between ``alpha`` and ``beta`` (alpha-beta; outside, a bound
    on the side it fell), so a call with the full window (-_INF, _INF) is exact.

    ``mover`` is the hand (mask) of the seat to play, ``other`` the other hand, ``lead``
    the card the other led to this trick (-1: the mover leads), ``s0``, ``s1`` the last
    two cards to draw (the trick's winner draws ``s0``; -1: the stock is empty), ``wins``
    the trump's :data:`_WINS`.  ``memo`` keeps each position's bounds (lower, upper),
    keyed from the side of the seat to play, so both seats' searches share it.
    """
    if lead < 0 and s0 < 0:
        if not mover & (mover - 1):
            return _last(mover, other, wins)  # the last trick: nothing to choose
        n = mover.bit_count()
        if n == 2:
            return _two(mover, other, wins)
        if n == 3:
            return _three_value(mover, other, wins)  # exact: a bound on either side too
    key = mover | other << 40 | (lead + 1) << 80 | (s0 + 1) << 86 | (s1 + 1) << 92
    got = memo.get(key)
    if got is not None:
        low, high = got
        if low == high or low >= beta:
            return low
        if high <= alpha:
            return high
        if low > alpha:
            alpha = low
        if high < beta:
            beta = high
    else:
        low, high = -_INF, _INF
    start = alpha
    best = -_INF
    cards = _CARDS.get(mover) or _cards(mover)
    if lead < 0:
        for c in cards:
            value = -_negamax(other, mover & ~(1 << c), c, s0, s1, -beta, -alpha, wins, memo)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
    else:
        for c in cards:
            value = _follow(mover & ~(1 << c), other, lead, c, s0, s1, alpha, beta, wins, memo)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
    if best <= start:
        high = best  # every move failed low: an upper bound
    elif best >= beta:
        low = best  # a move failed high: a lower bound
    else:
        low = high = best
    memo[key] = (low, high)
    return best


def _follow(
    mover: int,
    other: int,
    lead: int,
    card: int,
    s0: int,
    s1: int,
    alpha: int,
    beta: int,
    wins: tuple[tuple[bool, ...], ...],
    memo: dict[int, _Bounds],
) -> int:
    """The follower's best (own points - the leader's) after it plays ``card`` to
    ``lead`` (``mover``: its hand without ``card``; ``other``: the leader's hand), with
    :func:`_negamax`'s window."""
    pts = POINTS[lead] + POINTS[card]
    if wins[lead][card]:
        if s0 >= 0:
            mover |= 1 << s0
            other |= 1 << s1
        elif not mover & (mover - 1):  # no card or one card each left: no choice
            return pts + _last(mover, other, wins)
        return pts + _negamax(mover, other, -1, -1, -1, alpha - pts, beta - pts, wins, memo)
    if s0 >= 0:
        other |= 1 << s0
        mover |= 1 << s1
    elif not mover & (mover - 1):
        return -pts - _last(other, mover, wins)
    return -pts - _negamax(other, mover, -1, -1, -1, -beta - pts, -alpha - pts, wins, memo)


def _last(leader: int, follower: int, wins: tuple[tuple[bool, ...], ...]) -> int:
    """The leader's points less the follower's in a last trick of one card each (0 when
    the hands are empty)."""
    if not leader:
        return 0
    c, d = leader.bit_length() - 1, follower.bit_length() - 1
    pts = POINTS[c] + POINTS[d]
    return -pts if wins[c][d] else pts


def _two(leader: int, follower: int, wins: tuple[tuple[bool, ...], ...]) -> int:
    """The leader's best (own points - the follower's) in the last two tricks, two cards
    each, the stock empty: :func:`_negamax`'s value, without its memo or recursion."""
    a1, a2 = _CARDS.get(leader) or _cards(leader)
    b1, b2 = _CARDS.get(follower) or _cards(follower)
    # Each of the four first tricks written out (the loops over pairs of tuples cost
    # more than the arithmetic): its points, then the last trick's, to whoever takes it.
    p1, p2, q1, q2 = POINTS[a1], POINTS[a2], POINTS[b1], POINTS[b2]
    row1, row2 = wins[a1], wins[a2]
    # I lead a1 and keep a2; the follower answers b1 (keeps b2), then b2 (keeps b1).
    pts, last = p1 + q1, p2 + q2
    if row1[b1]:  # the follower takes the trick and leads its last card
        v = -pts + (last if wins[b2][a2] else -last)
    else:
        v = pts + (-last if row2[b2] else last)
    pts, last = p1 + q2, p2 + q1
    if row1[b2]:
        w = -pts + (last if wins[b1][a2] else -last)
    else:
        w = pts + (-last if row2[b1] else last)
    first = v if v < w else w
    # I lead a2 and keep a1.
    pts, last = p2 + q1, p1 + q2
    if row2[b1]:
        v = -pts + (last if wins[b2][a1] else -last)
    else:
        v = pts + (-last if row1[b2] else last)
    pts, last = p2 + q2, p1 + q1
    if row2[b2]:
        w = -pts + (last if wins[b1][a1] else -last)
    else:
        w = pts + (-last if row1[b1] else last)
    second = v if v < w else w
    return first if first > second else second


def _three_exact(
    leader: int,
    follower: int,
    wins: tuple[tuple[bool, ...], ...],
    twos: dict[int, int],
    picks: dict[int, int],
) -> int:
    """The leader's exact value of the last three tricks, three cards each, the stock
    empty, ``twos`` the trump's :data:`_TWO_MEMO`: for :func:`_three_value` and
    :func:`_exact_pick`, which remember the values.  The leads are tried weakest first,
    so the first that reaches the value is :func:`_exact_pick`'s card there, remembered
    in ``picks`` (the trump's :data:`_THREE_PICKS`)."""
    best = -_INF
    choice = -1
    answers = _CARDS.get(follower) or _cards(follower)
    for c in _BY_STRENGTH.get(leader) or _by_strength(leader):
        row = wins[c]
        mine = leader & ~(1 << c)
        worst = _INF
        for d in answers:
            pts = POINTS[c] + POINTS[d]
            theirs = follower & ~(1 << d)
            # The trick's winner leads the last two (values remembered by the hands).
            if row[d]:
                key = theirs | mine << 40
                two = twos.get(key)
                if two is None:
                    two = twos[key] = _two(theirs, mine, wins)
                value = -pts - two
            else:
                key = mine | theirs << 40
                two = twos.get(key)
                if two is None:
                    two = twos[key] = _two(mine, theirs, wins)
                value = pts + two
            if value < worst:
                worst = value
                if worst <= best:
                    break  # this lead cannot raise the best
        if worst > best:
            best, choice = worst, c
    picks[leader | follower << 40] = choice
    return best


# Per trump's _WINS table (by its id): the leader's value of two-card endings, keyed by
# leader | follower << 40 (:func:`_two`).
_TWO_MEMO: dict[int, dict[int, int]] = {id(wins): {} for wins in _WINS}

_CARDS: dict[int, tuple[int, ...]] = {}


def _cards(mask: int) -> tuple[int, ...]:
    """The card ids of a hand mask, remembered (endgame hands hold at most four cards)."""
    got = _CARDS.get(mask)
    if got is None:
        got = tuple(_bits(mask))
        if len(_CARDS) < 200_000:
            _CARDS[mask] = got
    return got


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_MEMOS: dict[int, dict[int, _Bounds]] = {}
_MEMO_CAP = 200_000


def _memo(trump: int) -> dict[int, _Bounds]:
    """Solved endgame positions for one trump suit, shared by every call: a position's
    value depends only on the two hands, the card led, and the stock, so the moves
    after a solved one (a search's playouts solve thousands) are looked up."""
    memo = _MEMOS.get(trump)
    if memo is None or len(memo) > _MEMO_CAP:
        memo = _MEMOS[trump] = {}
    return memo


def endgame_values(view: _View) -> dict[int, float] | None:
    """Exact values of my cards in a two-player deal near its end, else None."""
    if view.k != 2 or view.stock not in (0, 2):
        return None
    opp_seat = next(s for s in view.active if s != view.seat)
    known = view.known.get(opp_seat, 0)
    need = view.hidden[opp_seat]
    unseen = view.unseen
    if view.stock == 0:
        if view.n_unseen != need:
            return None
        worlds: list[tuple[int, int, int]] = [(known | unseen, -1, -1)]
    else:
        if view.n_unseen != need + 1:
            return None
        worlds = [
            (known | unseen & ~(1 << hidden), hidden, view.indicator) for hidden in _bits(unseen)
        ]
    me = _mask(view.hand)
    lead = view.trick[0] if view.trick else -1
    values: dict[int, float] = {}
    memo = _memo(view.trump)
    wins = _WINS[view.trump]
    for card in view.hand:
        total = 0
        nme = me & ~(1 << card)
        for opp, s0, s1 in worlds:
            if lead < 0:
                total -= _negamax(opp, nme, card, s0, s1, -_INF, _INF, wins, memo)
            else:
                total += _follow(nme, opp, lead, card, s0, s1, -_INF, _INF, wins, memo)
        values[card] = total / len(worlds)
    return values


_PLAYS: dict[int, int] = {}  # perfect-information endgame position -> the card to play
_PLAYS_CAP = 300_000


def _rollout_move(state: BriscolaState, seat: int) -> int:
    """The exact move of a two-player sample with at most the last two cards in the
    stock, read from the sample itself: both hands and the stock's order are the
    sample's, so this is the game's perfect-information value (:func:`_negamax`), the
    best difference of card points, its weakest card among equals.  Rollouts only (a
    search's samples, marked ``stop_at_deal_end``): a seat's own view has four worlds at
    the last draw, and ``normal`` plays those (:func:`endgame_values`)."""
    return _exact_pick(state._d, state._h, state._trick, state._t[1], seat)


def _exact_search(d: Any, h: int, trick: tuple[int, ...], sp: int, seat: int) -> int:
    """:func:`_exact_pick` for any hands, by :func:`_negamax` (hands of more than three
    cards, never met in a deal)."""
    mover = h >> 40 * seat & _FULL
    other = h >> 40 * d.nxt[seat] & _FULL
    lead = trick[0] if trick else -1
    draw = d.draw
    if sp < len(draw):
        s0, s1 = draw[sp], draw[sp + 1]
    else:
        s0 = s1 = -1
    trump = d.trump
    key = mover | other << 40 | (lead + 1) << 80 | (s0 + 1) << 86 | (s1 + 1) << 92 | trump << 98
    got = _PLAYS.get(key)
    if got is not None:
        return got
    wins = _WINS[trump]
    memo = _memo(trump)
    cards = sorted(_CARDS.get(mover) or _cards(mover), key=STRENGTH.__getitem__)
    choice = cards[0]
    best = -_INF
    first = True
    for c in cards:
        rest = mover & ~(1 << c)
        # After the first card, only a strictly better value matters (the weaker card
        # keeps a tie): a window above the best so far.
        floor = -_INF if first else best
        if lead < 0:
            value = -_negamax(other, rest, c, s0, s1, -_INF, -floor, wins, memo)
        else:
            value = _follow(rest, other, lead, c, s0, s1, floor, _INF, wins, memo)
        if first or value > best:
            best, choice = value, c
        first = False
    if len(_PLAYS) >= _PLAYS_CAP:
        _PLAYS.clear()
    _PLAYS[key] = choice
    return choice


# Per trump's _WINS table (by its id): the leader's exact value of three-card endings with
# the stock empty, keyed by leader | follower << 40 (:func:`_three_exact`).
_THREE_MEMO: dict[int, dict[int, int]] = {id(wins): {} for wins in _WINS}
# By the same tables and keys: the card the leader plays there (_exact_pick's: the
# weakest of the best), which the line reaches right after its last draw.
_THREE_PICKS: dict[int, dict[int, int]] = {id(wins): {} for wins in _WINS}


def _three_value(leader: int, follower: int, wins: tuple[tuple[bool, ...], ...]) -> int:
    """:func:`_three_exact`'s value, remembered in :data:`_THREE_MEMO` (for
    :func:`_negamax`: an exact value serves any window)."""
    threes = _THREE_MEMO[id(wins)]
    key = leader | follower << 40
    got = threes.get(key)
    if got is not None:
        return got
    picks = _THREE_PICKS[id(wins)]
    if len(threes) > _MEMO_CAP:
        threes.clear()
        picks.clear()
    twos = _TWO_MEMO[id(wins)]
    if len(twos) > _MEMO_CAP:
        twos.clear()
    value = threes[key] = _three_exact(leader, follower, wins, twos, picks)
    return value


_BY_STRENGTH: dict[int, tuple[int, ...]] = {}


def _by_strength(mask: int) -> tuple[int, ...]:
    """A hand mask's cards, weakest first (ids in order among equals), remembered."""
    got = tuple(sorted(_CARDS.get(mask) or _cards(mask), key=STRENGTH.__getitem__))
    if len(_BY_STRENGTH) < 200_000:
        _BY_STRENGTH[mask] = got
    return got


def _exact_pick(d: Any, h: int, trick: tuple[int, ...], sp: int, seat: int) -> int:
    """:func:`_rollout_move` on the state's ints (the deal's facts, the packed hands, the
    trick, the stock position), for it and for :func:`fast_rollout`'s lines.

    The usual positions (three cards a hand or fewer) are valued here move by move, each
    move's exact value read from the remembered exact values of the endings after it
    (:data:`_THREE_MEMO` by :func:`_three_exact`, :data:`_TWO_MEMO`, :func:`_last`),
    the first lead after the last draw read from :data:`_THREE_PICKS`: a rollout meets the
    endings of its own last draw again at its next moves, where a window-bounded
    :func:`_negamax` left only bounds.  The values are the same exact ones, so the same
    card is chosen: the first, by strength, of those worth the most."""
    mover = h >> 40 * seat & _FULL
    if not mover & (mover - 1):
        return mover.bit_length() - 1  # the last card: nothing to choose
    other = h >> 40 * d.nxt[seat] & _FULL
    n = mover.bit_count()
    draw = d.draw
    stock = len(draw) - sp
    lead = trick[0] if trick else -1
    if n > 3 or other.bit_count() != n - (lead >= 0) or (stock and (stock != 2 or n != 3)):
        return _exact_search(d, h, trick, sp, seat)
    trump: int = d.trump
    wins = _WINS[trump]
    cards = _BY_STRENGTH.get(mover) or _by_strength(mover)
    best = -_INF
    choice = -1
    if stock:
        s0, s1 = draw[sp], draw[sp + 1]
        key = mover | other << 40 | (lead + 1) << 80 | (s0 + 1) << 86 | (s1 + 1) << 92 | trump << 98
        got = _PLAYS.get(key)
        if got is not None:
            return got
        b0, b1 = 1 << s0, 1 << s1
        threes = _THREE_MEMO[id(wins)]
        picks = _THREE_PICKS[id(wins)]
        if len(threes) > _MEMO_CAP:
            threes.clear()
            picks.clear()
        twos = _TWO_MEMO[id(wins)]
        if len(twos) > _MEMO_CAP:
            twos.clear()
        if lead < 0:
            # I lead; after the opponent's answer the trick's winner draws s0, the other s1,
            # and three cards each are left.
            for c in cards:
                row = wins[c]
                mine = mover & ~(1 << c)
                worst = _INF
                for e in _CARDS.get(other) or _cards(other):
                    pts = POINTS[c] + POINTS[e]
                    theirs = other & ~(1 << e)
                    if row[e]:
                        k3 = (theirs | b0) | (mine | b1) << 40
                        v = threes.get(k3)
                        if v is None:
                            v = threes[k3] = _three_exact(theirs | b0, mine | b1, wins, twos, picks)
                        value = -pts - v
                    else:
                        k3 = (mine | b0) | (theirs | b1) << 40
                        v = threes.get(k3)
                        if v is None:
                            v = threes[k3] = _three_exact(mine | b0, theirs | b1, wins, twos, picks)
                        value = pts + v
                    if value < worst:
                        worst = value
                        if worst <= best:
                            break  # this card cannot be worth more than the best so far
                if worst > best:
                    best, choice = worst, c
        else:
            row = wins[lead]
            for c in cards:
                pts = POINTS[lead] + POINTS[c]
                mine = mover & ~(1 << c)
                if row[c]:
                    k3 = (mine | b0) | (other | b1) << 40
                    v = threes.get(k3)
                    if v is None:
                        v = threes[k3] = _three_exact(mine | b0, other | b1, wins, twos, picks)
                    value = pts + v
                else:
                    k3 = (other | b0) | (mine | b1) << 40
                    v = threes.get(k3)
                    if v is None:
                        v = threes[k3] = _three_exact(other | b0, mine | b1, wins, twos, picks)
                    value = -pts - v
                if value > best:
                    best, choice = value, c
        if len(_PLAYS) >= _PLAYS_CAP:
            _PLAYS.clear()
        _PLAYS[key] = choice
        return choice
    if lead < 0:
        if n == 3:
            # Solved with the last draw's endings, most likely; else solved now: the lead
            # _three_exact remembers is this one (the same order, the same values).
            key3 = mover | other << 40
            got = _THREE_PICKS[id(wins)].get(key3)
            if got is None:
                _three_value(mover, other, wins)
                got = _THREE_PICKS[id(wins)][key3]
            return got
        # Two cards each: the trick's winner leads the last card.
        for c in cards:
            row = wins[c]
            mine = mover & ~(1 << c)
            worst = _INF
            for e in _CARDS.get(other) or _cards(other):
                pts = POINTS[c] + POINTS[e]
                theirs = other & ~(1 << e)
                if row[e]:
                    value = -pts - _last(theirs, mine, wins)
                else:
                    value = pts + _last(mine, theirs, wins)
                if value < worst:
                    worst = value
                    if worst <= best:
                        break
            if worst > best:
                best, choice = worst, c
        return choice
    twos = _TWO_MEMO[id(wins)]
    if len(twos) > _MEMO_CAP:
        twos.clear()
    row = wins[lead]
    for c in cards:
        pts = POINTS[lead] + POINTS[c]
        mine = mover & ~(1 << c)
        if n == 2:
            value = pts + _last(mine, other, wins) if row[c] else -pts - _last(other, mine, wins)
        elif row[c]:
            k2 = mine | other << 40
            v = twos.get(k2)
            if v is None:
                v = twos[k2] = _two(mine, other, wins)
            value = pts + v
        else:
            k2 = other | mine << 40
            v = twos.get(k2)
            if v is None:
                v = twos[k2] = _two(other, mine, wins)
            value = -pts - v
        if value > best:
            best, choice = value, c
    return choice


def _heads_up_move(state: BriscolaState, seat: int, rng: Rng) -> int:
    """:meth:`BriscolaHeuristic._decide`'s card for the seat to act in a search's own
    two-player sample while more than two cards are left to draw, computed on the
    state's ints with no :class:`_View`: the same scores, operation for operation (so the
    same floats), the same ties and the same draw from ``rng`` to break them.  Only where
    nothing of the other hand is known (no indicator holder, no exchange, no open hands)
    and no signals are made, which is every such rollout move of a plain deal."""
    d = state._d
    pick = _heads_up_picker(d, [rng] * len(d.nxt))
    return pick(seat, state._h, state._trick, state._t)


def _heads_up_picker(
    d: Any, rngs: list[Rng]
) -> Callable[[int, int, tuple[int, ...], tuple[Any, ...]], int]:
    """The card pick of both seats of a two-player deal's line, for :func:`fast_rollout`
    (and :func:`_heads_up_move`'s one pick): ``pick(seat, hands, trick, t)`` is
    :func:`_exact_pick`'s card with at most two cards left to draw, else the heuristic's,
    drawing ties from ``rngs[seat]``, scored by :func:`_heads_up_scores`."""
    trump = d.trump
    # Seen by both seats whatever the line: the cards out of the pack and the face-up
    # indicator (the heuristic plays only while it is face up).
    base = d.removed | 1 << d.indicator
    first, second = (40 * s for s in d.active)
    ndraw = len(d.draw)
    nxt = d.nxt

    def pick(seat: int, h: int, trick: tuple[int, ...], t: tuple[Any, ...]) -> int:
        sp = t[1]
        if ndraw - sp <= 2:
            return _exact_pick(d, h, trick, sp, seat)
        hand = h >> 40 * seat & _FULL
        won = t[2]
        unseen = _FULL & ~(base | hand | (won >> first | won >> second) & _FULL)
        cards = _CARDS.get(hand) or _cards(hand)
        if trick:
            lead = trick[0]
            scores = _heads_up_scores(cards, trump, unseen & ~(1 << lead), lead, 0)
        else:
            hidden = (h >> 40 * nxt[seat] & _FULL).bit_count()
            scores = _heads_up_scores(cards, trump, unseen, -1, hidden)
        return _best_card(cards, scores, rngs[seat])

    return pick


def _best_card(cards: tuple[int, ...], scores: list[float], rng: Rng) -> int:
    """The card of the best score, unless another is as good (within 1e-9): then ``rng``
    draws among them, as :meth:`BriscolaHeuristic._decide` does (the rollouts' picks)."""
    cut = max(scores) - 1e-9
    first = -1
    for i, x in enumerate(scores):
        if x >= cut:
            if first >= 0:
                break
            first = i
    else:
        return cards[first]
    return rng.choice([c for c, x in zip(cards, scores, strict=True) if x >= cut])


def _heads_up_scores(
    cards: tuple[int, ...], trump: int, unseen: int, lead: int, hidden: int
) -> list[float]:
    """The heuristic's scores (:meth:`_View.score`) of ``cards`` in a two-player deal with
    cards left to draw, nothing of the other hand known, ``unseen`` the cards the seat
    has not seen (the card led, ``lead``, among the seen; -1: the seat leads, the other
    holding ``hidden`` cards): :func:`_keep` and :func:`_p_take` written out with their
    fade at 1.0, the same operations on the same numbers, so the same floats (tested).
    For the rollouts' picks (:func:`_heads_up_picker`) and the play reader
    (:func:`play_likelihood`)."""
    if lead >= 0:
        # Following: the card takes the trick or it does not (no one plays after me); a
        # card's score reads only whether an unseen card of its suit outranks it.
        follow = _FOLLOW.get(trump * 40 + lead) or _follow_scores(trump, lead)
        return [follow[2 * c + (not unseen & HIGHER[c])] for c in cards]
    # Leading: the one seat after me is the opponent; a card's score reads the draw's
    # odds (the unseen cards, the opponent's hidden ones, the unseen trumps) and how
    # many unseen cards outrank it in its suit, remembered by those (:data:`_LEADS`).
    n_unseen = unseen.bit_count()
    n_trumps = (unseen & SUIT_MASK[trump]).bit_count()
    key = n_unseen | hidden << 6 | n_trumps << 12
    leads = _LEADS[trump]
    row = leads.get(key)
    if row is None:
        row = leads[key] = [None] * (10 * NUM_CARDS)
    scores = []
    for c in cards:
        i = 10 * c + (unseen & HIGHER[c]).bit_count()
        x = row[i]
        if x is None:
            x = row[i] = _lead_score(c, i - 10 * c, trump, n_unseen, hidden, n_trumps)
        scores.append(x)
    return scores


# Per trump: per (unseen cards, the opponent's hidden cards, unseen trumps) packed in an
# int, the scores of leading each card by how many unseen cards outrank it in its suit
# (card * 10 + that count), filled as met (:func:`_lead_score`).
_LEADS: tuple[dict[int, list[float | None]], ...] = tuple({} for _ in range(4))


def _lead_score(c: int, above: int, trump: int, n_unseen: int, hidden: int, n_trumps: int) -> float:
    """The heuristic's score of leading ``c`` in a two-player deal with cards left to
    draw, ``above`` unseen cards outranking it in its suit, ``n_unseen`` cards unseen,
    ``hidden`` in the opponent's hand and ``n_trumps`` unseen trumps: :func:`_p_take`
    with one opponent after me, nothing of its hand known, the card leading, and
    :func:`_keep` at fade 1.0, the same operations, so the same floats (tested)."""
    odds = _holds_row(n_unseen, hidden)
    holds_trump = odds[n_trumps]
    at_stake = POINTS[c]
    p_suit = odds[above]
    p_suit *= 1.0 if at_stake > 0 else 0.6
    if SUIT[c] == trump:
        mine = 1.0 * (1.0 - (1.0 - (1.0 - p_suit) * (1.0 - 0.0)))
        power = _TRUMP_POWER[c]
        if at_stake and BANK_WEIGHT:
            power += at_stake * (BANK_WEIGHT if not above else _UNSURE)
        return (2.0 * mine - 1.0) * at_stake - power
    p_trump = holds_trump * min(1.0, 0.25 + at_stake / 10.0)
    mine = 1.0 * (1.0 - (1.0 - (1.0 - p_suit) * (1.0 - p_trump)))
    return (2.0 * mine - 1.0) * at_stake - _PLAIN_KEEP_HEADS_UP[c]


def _table_move(state: BriscolaState, seat: int, rng: Rng) -> int:
    """:meth:`BriscolaHeuristic._decide`'s card for the seat to act in a plain deal of
    three or more players (no signals, no exchange, no hands shown), computed on the
    state's ints in one pass (:func:`_table_picker`): the facts :meth:`_View.of_state`,
    ``_finish`` and ``_derive`` gather, computed the same way, then scored as
    :meth:`_View.score` scores them (so the same floats), the same ties and the same
    draw from ``rng``.  Search rollouts spend most of their time in that pick."""
    return _table_pick(state._g, state._d, state._h, state._trick, state._t, seat, rng)


def _table_pick(
    game: Any, d: Any, h: int, trick: tuple[int, ...], t: tuple[Any, ...], seat: int, rng: Rng
) -> int:
    """:func:`_table_move` on the state's ints (the game, the deal's facts, the packed
    hands, the trick, the state's ``_t``): one pick of :func:`_table_picker`, which
    :func:`fast_rollout`'s lines use for a whole deal."""
    return _table_picker(game, d, [rng] * game.players)(seat, h, trick, t)


# What every pick of one trick reads alike (_table_trick): the cards unseen by all (not
# removed, not won, not the indicator while face up), whether cards are left to draw,
# the indicator's holder (None until drawn), per position in the trick the seat there
# and its neighbours' sides (_TablePlace), and the cards each seat yet to play holds
# with _keep's row for that hand size (:data:`_KEEPS`), or -1 and None where they hold
# different numbers (never in a deal: all draw alike).
_TableTrick = tuple[int, bool, Any, tuple[Any, ...], int, tuple[float, ...] | None]
# Per position in a trick: the seat, the seats after it, whether each of them is its
# partner, and whether each seat before it is.
_TablePlace = tuple[int, tuple[int, ...], tuple[bool, ...], tuple[bool, ...]]
_PLACES: dict[tuple[tuple[int, ...], tuple[int, ...], int], tuple[_TablePlace, ...]] = {}


def _places(side_of: tuple[int, ...], active: tuple[int, ...], leader: int) -> tuple[Any, ...]:
    """Every position of a trick led by ``leader`` (:data:`_TablePlace`), remembered."""
    order = _ORDERS.get((active, leader)) or _order(active, leader)
    out = []
    for i, seat in enumerate(order):
        after = tuple(order[i + 1 :])
        partners = tuple(side_of[s] == side_of[seat] for s in after)
        before = tuple(side_of[s] == side_of[seat] for s in order[:i])
        out.append((seat, after, partners, before))
    got = _PLACES[side_of, active, leader] = tuple(out)
    return got


def _table_trick(
    game: Any, d: Any, t: tuple[Any, ...], h: int, trick: tuple[int, ...], places: Any
) -> _TableTrick:
    """:data:`_TableTrick` for the trick whose ``_t`` is ``t``, from a pick of it (the
    hands ``h``, the ``trick`` so far; ``places`` the trick's :func:`_places`): the seats
    yet to play keep their hands until their own pick, so the facts hold for the
    trick's later picks too."""
    _leader, sp, won, _ntricks, holder, _used, _sigs = t
    # Every seat's won cards: each shift folds the upper half of the seats' piles onto
    # the lower (a pile may land twice: the union is the same).
    for shift in _FOLDS[game.players]:
        won |= won >> shift
    seen = d.removed | won & _FULL
    drawing = len(d.draw) > sp
    if drawing:
        seen |= 1 << d.indicator  # face up under the stock
    seat, after, _partners, _before = places[len(trick)]
    size = (h >> 40 * seat & _FULL).bit_count()
    keeps = None
    for s in after:
        if (h >> 40 * s & _FULL).bit_count() != size:
            size = -1
            break
    else:
        k = len(d.active)
        key = d.trump | drawing << 2 | size << 3 | k << 9
        keeps = _TRICK_KEEPS.get(key)
        if keeps is None:
            fade, plain_fade = _fades(drawing, size, k)
            keeps = _KEEPS.get((d.trump, fade, plain_fade)) or _keeps(d.trump, fade, plain_fade)
            _TRICK_KEEPS[key] = keeps
    return _FULL & ~seen, drawing, holder, places, size, keeps


def _fold_shifts(seats: int) -> tuple[int, ...]:
    """The shifts that fold ``seats`` piles packed 40 bits apart onto the first: each
    ORs the upper half (rounded up) onto the lower, until one pile is left."""
    out = []
    while seats > 1:
        seats = (seats + 1) // 2
        out.append(40 * seats)
    return tuple(out)


# Per count of seats, :func:`_fold_shifts` (_table_trick).
_FOLDS: dict[int, tuple[int, ...]] = {n: _fold_shifts(n) for n in range(1, 9)}
# (trump, cards left to draw, hand size, seats) -> _KEEPS' row (_table_trick's key).
_TRICK_KEEPS: dict[int, tuple[float, ...]] = {}


def _fades(drawing: bool, n_cards: int, k: int) -> tuple[float, float]:
    """:attr:`_View.fade` and ``plain_fade`` for a hand of ``n_cards`` (``_derive``'s
    expressions)."""
    fade = 1.0 if drawing else min(1.0, (n_cards - 1) / 2.0)
    return fade, fade * (PLAIN_PER_STRENGTH_HEADS_UP if k == 2 else PLAIN_PER_STRENGTH)


# (trump, fade, plain_fade) -> per card c, _keep's worth of c at 2 c when an unseen card
# outranks it in its suit and at 2 c + 1 when none does (all that _keep reads of the
# unseen cards).
_KEEPS: dict[tuple[int, float, float], tuple[float, ...]] = {}


def _keeps(trump: int, fade: float, plain_fade: float) -> tuple[float, ...]:
    """:data:`_KEEPS`' row, computed by :func:`_keep` itself (so the same floats)."""
    out: list[float] = []
    for c in range(NUM_CARDS):
        out.append(_keep(c, trump, fade, plain_fade, HIGHER[c]))
        out.append(_keep(c, trump, fade, plain_fade, 0))
    got = _KEEPS[trump, fade, plain_fade] = tuple(out)
    return got


# Per count of points at stake (the table's and the card's): _p_take's damping of an
# overtake in suit and of a trump, the same expressions, so the same floats.
_SUIT_DAMP: tuple[float, ...] = tuple(1.0 if x > 0 else 0.6 for x in range(128))
_TRUMP_DAMP: tuple[float, ...] = tuple(min(1.0, 0.25 + x / 10.0) for x in range(128))
# Leading, every card "takes" the trick so far (_table_picker's ``beaten`` row).
_ALL_BEAT = (True,) * NUM_CARDS


def _table_picker(
    game: Any, d: Any, rngs: list[Rng]
) -> Callable[[int, int, tuple[int, ...], tuple[Any, ...]], int]:
    """The card pick of every seat of one deal's line (for
    :meth:`BriscolaState.play_to_deal_end`, and :func:`_table_pick`'s one pick):
    ``pick(seat, hands, trick, t)`` is :func:`_table_pick`'s card, drawing ties from
    ``rngs[seat]``; the trick's facts (:func:`_table_trick`) are computed at its first
    pick that weighs cards and kept for the rest (``t`` is a new tuple each trick).

    A pick gathers the facts :meth:`_View.of_state`, ``_finish`` and ``_derive`` gather,
    computed the same way, then scores each card as :meth:`_View.score` scores it
    (:func:`_p_take` and :func:`_keep`: the same operations, so the same floats), with
    the same ties and the same draw from the seat's Rng.  The seats after me hold as
    many cards as I do (every pick of a deal), so each of them but the indicator's
    holder (who holds a card I know) beats a card with the same chance:
    :func:`_p_take`'s loop is written out here with that chance computed once a card,
    and the holder's apart."""
    trump = d.trump
    indicator = d.indicator
    k_bit = 1 << indicator
    trump_mask = SUIT_MASK[trump]
    wins = _WINS[trump]
    k = len(d.active)
    last_t: tuple[Any, ...] | None = None
    facts: Any = None
    side_of = game.info.side_of
    places_of: list[Any] = [None] * game.players  # per leader, :func:`_places`

    def _places_of(leader: int) -> Any:
        got = places_of[leader] = _PLACES.get((side_of, d.active, leader)) or _places(
            side_of, d.active, leader
        )
        return got

    def pick(seat: int, h: int, trick: tuple[int, ...], t: tuple[Any, ...]) -> int:
        nonlocal last_t, facts
        hand = h >> 40 * seat & _FULL
        if not hand & (hand - 1):
            # One card left: the scores would choose it with no draw (a tenth of the
            # moves of a deal).
            return hand.bit_length() - 1
        if t is not last_t:
            leader = t[0]
            places = places_of[leader] or _places_of(leader)
            last_t, facts = t, _table_trick(game, d, t, h, trick, places)
        unseen, drawing, holder, places, size, keeps = facts
        nt = len(trick)
        _seat, after, partners, before = places[nt]
        # The unseen cards: those unseen by all this trick less my hand and the trick (all
        # among them, so a xor takes each out).
        unseen ^= hand
        table = 0
        for c in trick:
            unseen ^= 1 << c
            table += POINTS[c]
        # What this seat knows of another hand: who drew the face-up indicator, while held.
        kseat = -1
        if holder is not None and holder != seat and h >> 40 * holder + indicator & 1:
            kseat = holder
            unseen ^= k_bit
        n_unseen = unseen.bit_count()
        n_trumps = (unseen & trump_mask).bit_count()
        cards = _CARDS.get(hand) or _cards(hand)
        if trick:
            w = 0
            for i in range(1, nt):
                if wins[trick[w]][trick[i]]:
                    w = i
            lead_best = trick[w]
            lead_mine = before[w]
            beaten = wins[lead_best]
        else:
            lead_best = -1
            lead_mine = False
            beaten = _ALL_BEAT
        scores = []
        if keeps is None:
            # Hands of different sizes (never in a deal): _p_take as it is.
            fade, plain_fade = _fades(drawing, len(cards), k)
            keeps = _KEEPS.get((trump, fade, plain_fade)) or _keeps(trump, fade, plain_fade)
            info = []
            for j, s in enumerate(after):
                known = k_bit if s == kseat else 0
                n = (h >> 40 * s & _FULL).bit_count() - known.bit_count()
                odds = _holds_row(n_unseen, n)
                info.append((known, odds, partners[j], odds[n_trumps]))
            for card in cards:
                mine = _p_take(card, lead_best, lead_mine, table, trump, unseen, info)
                x = (2.0 * mine - 1.0) * (table + POINTS[card])
                scores.append(x - keeps[2 * card + (not unseen & HIGHER[card])])
        else:
            odds = _NO_ODDS
            if after:
                odds = _HOLDS_ROWS.get((n_unseen, size)) or _holds_row(n_unseen, size)
            holds_trump = odds[n_trumps]
            # The indicator's holder, if he plays after me: I know that one of his cards.
            kpos = after.index(kseat) if kseat >= 0 and kseat in after else -1
            if kpos >= 0:
                k_odds = _holds_row(n_unseen, size - 1)
            if trick:
                # What a card that does not take the trick leaves the seats after me to beat.
                lead_suit = (unseen & HIGHER[lead_best]).bit_count()
                lead_plain = SUIT[lead_best] != trump
                lead_mine_f = 1.0 if lead_mine else 0.0
            for card in cards:
                # _p_take, every seat after me alike (see above); _keep from ``keeps``.
                at_stake = table + POINTS[card]
                if beaten[card]:
                    best = card
                    above = unseen & HIGHER[card]
                    mine = 1.0
                    good_suit = above.bit_count()
                    plain = SUIT[card] != trump
                    keep = keeps[2 * card + (not above)]
                else:
                    best = lead_best
                    mine = lead_mine_f
                    good_suit = lead_suit
                    plain = lead_plain
                    keep = keeps[2 * card + (not unseen & HIGHER[card])]
                if after:
                    # _p_take's products, one each (so the same floats).
                    p_suit = odds[good_suit] * _SUIT_DAMP[at_stake]
                    p_trump = holds_trump * _TRUMP_DAMP[at_stake] if plain else 0.0
                    p = 1.0 - (1.0 - p_suit) * (1.0 - p_trump)
                    if kpos < 0:
                        for partner in partners:
                            if partner:
                                mine += (1.0 - mine) * p * PARTNER_RESCUE
                            else:
                                mine *= 1.0 - p
                    else:
                        # The holder's chance: the indicator is a trump he holds for sure.
                        p_suit = 1.0 if k_bit & HIGHER[best] else k_odds[good_suit]
                        p_trump = 0.0
                        if plain:
                            p_trump = 1.0
                            p_trump *= _TRUMP_DAMP[at_stake]
                        p_suit *= _SUIT_DAMP[at_stake]
                        p_k = 1.0 - (1.0 - p_suit) * (1.0 - p_trump)
                        for j, partner in enumerate(partners):
                            q = p_k if j == kpos else p
                            if partner:
                                mine += (1.0 - mine) * q * PARTNER_RESCUE
                            else:
                                mine *= 1.0 - q
                scores.append((2.0 * mine - 1.0) * at_stake - keep)
        return _best_card(cards, scores, rngs[seat])

    return pick


_NO_ODDS: tuple[float, ...] = (0.0,) * (NUM_CARDS + 1)


def _plain_deal(state: BriscolaState) -> bool:
    """Whether nothing of another hand is shown in this deal (no 2 of trumps exchanged
    or declined, no open hands, no partners' hands shown): the deals the heuristic's
    int forms (:func:`_heads_up_move`, :func:`_table_move`, :func:`fast_rollout`)
    decide, where a seat knows no card of another hand but the indicator's holder's."""
    d = state._d
    game = state._g
    return (
        d.exchanged is None
        and d.declined is None
        and not game.open_hands
        and not game.options["partners_show_hands_before_first_trick"]
    )


def fast_rollout(policies: list[Any]) -> Callable[[State], State | None] | None:
    """A search's whole rollout on ints (the ISMCTS hook): given each seat's rollout
    policy, a function from a search line's state to the state at its deal's end, played
    by those policies with their own tie draws, the same end as their ``choose_state``
    moves applied one by one (tested), without the states between
    (:meth:`BriscolaState.play_to_deal_end`).  None where the policies are not all plain
    ``normal`` Briscola heuristics (signs); the function returns None for a line it does
    not cover (open hands, the 2 of trumps exchanged or declined, shown hands), which
    the search then plays move by move."""
    if not policies or any(type(p) is not BriscolaHeuristic or p.signals for p in policies):
        return None

    def run(state: State) -> State | None:
        assert isinstance(state, BriscolaState)
        game = state._g
        d = state._d
        if state._m or not game.stops_at_deal_end or not _plain_deal(state):
            return None
        rngs = [p.rng for p in policies]
        if d.k == 2:
            ndraw = len(d.draw)
            if ndraw - state._t[1] > 2 and state._t[4] is not None:
                return None  # never in a plain deal: the indicator is drawn last
            return state.play_to_deal_end(_heads_up_picker(d, rngs))

        return state.play_to_deal_end(_table_picker(game, d, rngs))

    return run


# -- the bot ------------------------------------------------------------------------------

_SIGNAL_RANKS = {
    "trump_ace": "1",
    "trump_three": "3",
    "trump_king": "K",
    "trump_cavallo": "Q",
    "trump_fante": "J",
}
_LOW_RANKS = ("2", "4", "5", "6", "7")
# Per meaning naming a trump rank: that rank's index (a card id is suit * 10 + index).
_SIGNAL_RANK_INDEX = {m: DECK.ranks.index(r) for m, r in _SIGNAL_RANKS.items()}
_SIGNAL_ID = {m: SIGNAL_BASE + i for i, m in enumerate(SIGNAL_MEANINGS)}


def _true_signals(hand: list[int], trump: int) -> list[str]:
    """What this hand may truthfully signal, the most telling first (meaning names)."""
    trumps = {DECK.rank(c) for c in hand if SUIT[c] == trump}
    out = [m for m, r in _SIGNAL_RANKS.items() if r in trumps]
    if any(SUIT[c] != trump and DECK.rank(c) in ("1", "3") for c in hand):
        out.append("carico")
    if trumps & set(_LOW_RANKS):
        out.append("low_trump")
    if not trumps:
        out.append("no_trump")
    return out


class BriscolaHeuristic(SigningHeuristic):
    """Hand-written Briscola play; see the module docstring for the rules it follows.

    Two front doors, one decision: :meth:`choose` reads an observation, :meth:`choose_state`
    (for search playouts) the engine's state for the seat to act, reading only what that
    seat's observation shows; both build a :class:`_View` and decide on it alike."""

    def choose(self, observation: Observation) -> int:
        """The action to take, from what this seat may know."""
        legal = legal_ids(self.game, observation)
        return self._decide(
            legal,
            lambda: _View.of_observation(self.game, observation),
            observation.get("seat"),
            observation.get("to_act"),
        )

    def choose_state(self, state: State) -> int:
        """``choose(state.observation(state.to_act))``, read from the state itself; on a
        search's own two-player sample (a line marked ``stop_at_deal_end``) with at most
        two cards left in the stock, the sample's exact best instead (:func:`_rollout_move`:
        rollouts play the last tricks with the sample's cards, which they hold anyway);
        before that, on such a sample of a plain deal, the same card as ``choose`` scored
        straight from the state's ints (:func:`_heads_up_move`: most of a two-player
        search's time is spent here); with three or more players in a plain deal, on any
        state, the same (:func:`_table_move`)."""
        assert isinstance(state, BriscolaState)
        seat = state.to_act
        if state._m == 0 and state._g.stops_at_deal_end and state._d.k == 2:
            # A search's own sample (its line stops at the deal's end): the rollout plays
            # the last tricks exactly, reading the sample's hidden cards (see _rollout_move).
            d = state._d
            if len(d.draw) - state._t[1] <= 2:
                return _rollout_move(state, seat)  # type: ignore[arg-type]
            if not self.signals and state._t[4] is None and _plain_deal(state):
                return _heads_up_move(state, seat, self.rng)  # type: ignore[arg-type]
        elif state._m == 0 and state._d.k > 2 and not self.signals and _plain_deal(state):
            return _table_move(state, seat, self.rng)  # type: ignore[arg-type]
        legal = state.legal_actions() if seat is not None else []
        if seat is None or not legal:
            raise RulesError(f"seat {seat!r} has no legal action in this state")
        return self._decide(legal, lambda: _View.of_state(state, seat), seat, seat)

    def _decide(
        self, legal: list[int], make_view: Callable[[], _View], seat: Any, to_act: Any
    ) -> int:
        if EXCHANGE in legal:
            return EXCHANGE
        cards = [a for a in legal if a < NUM_CARDS]
        if not cards:
            calls = [a for a in legal if not SIGNAL_BASE <= a < EXCHANGE]
            if calls:
                return calls[0]  # only calls are legal (e.g. "decline"): nothing to weigh
        view = make_view()
        if self.signals:
            signal = self._signal(view, legal)
            if signal is not None:
                return signal
            if self.game.options.get("signals_truthful", True):
                view.read_signals()
        if not cards:
            raise RulesError(
                f"seat {seat!r} may only signal now (to_act is {to_act!r}) and the heuristic "
                "has no signal to make"
                + ("" if self.signals else " (it signals only when made with signals=True)")
            )
        exact = endgame_values(view)
        if exact is not None:
            scores = {c: exact[c] - 0.01 * STRENGTH[c] for c in cards}
        else:
            scores = {c: view.score(c) for c in cards}
        top = max(scores.values())
        best = [c for c in cards if scores[c] >= top - 1e-9]
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _signal(self, view: _View, legal: list[int]) -> int | None:
        """One true signal per trick about my trumps, the most telling one."""
        for trick, seat, _meaning in view.signals:
            if seat == view.seat and trick == view.trick_no:
                return None
        for name in _true_signals(view.hand, view.trump):
            action = _SIGNAL_ID[name]
            if action in legal:
                return action
        return None

    def explain(self, observation: Observation, action: int | str) -> tuple[str, dict[str, Any]]:
        """One line of why ``action`` (this bot's choice here): an i18n key
        ``hint.briscola.<why>`` and its params (cards as codes), told from what the
        score weighed: the trick's holder, whether the card takes it, its points."""
        text = self._text(action)
        strings: list[str] = list(observation["legal_actions"])
        if text == "exchange":
            return "hint.briscola.exchange", {"card": observation["trump"]}
        if text.startswith("signal"):
            return "hint.briscola.signal", {}
        cards = [DECK.parse(s) for s in strings if _is_card(s)]
        if not _is_card(text) or len(cards) <= 1:
            return "hint.briscola.only_move", {}
        view = _View.of_observation(self.game, observation)
        if self.signals and self.game.options.get("signals_truthful", True):
            view.read_signals()
        card = DECK.parse(text)
        if endgame_values(view) is not None:
            return "hint.briscola.endgame", {"card": text}
        trump = view.trump
        if not view.trick:
            if SUIT[card] == trump:
                return "hint.briscola.lead_trump", {"card": text}
            if POINTS[card] == 0:
                return "hint.briscola.lead_low", {"card": text}
            if view.p_take(card) >= 0.9:
                return "hint.briscola.lead_safe", {"card": text}
            return "hint.briscola.lead_cheap", {"card": text}
        w = trick_winner(view.trick, trump)
        best, holder = view.trick[w], view.trick_seats[w]
        at_stake = sum(POINTS[c] for c in view.trick)
        if beats(card, best, trump):
            winners = [c for c in cards if beats(c, best, trump)]
            cheapest = min(winners, key=lambda c: (SUIT[c] == trump, POINTS[c], STRENGTH[c]))
            points = at_stake + POINTS[card]
            if card == cheapest:
                return "hint.briscola.take_cheapest", {"card": text, "points": points}
            if SUIT[card] == trump:
                return "hint.briscola.take_trump", {"card": text, "points": points}
            return "hint.briscola.take_bank", {"card": text, "points": POINTS[card]}
        if view.partner(holder):
            if POINTS[card] > 0:
                return "hint.briscola.load", {"card": text, "points": POINTS[card]}
            return "hint.briscola.partner_low", {"card": text}
        if any(beats(c, best, trump) for c in cards):
            return "hint.briscola.not_worth", {"card": text, "points": at_stake}
        return "hint.briscola.throw_low", {"card": text}

    def __repr__(self) -> str:
        return f"BriscolaHeuristic({self.game!r}, signals={self.signals})"


def _is_card(text: str) -> bool:
    try:
        DECK.parse(text)
    except ValueError:
        return False
    return True


# -- hooks read through the registry (mazo.bots.heuristic) ----------------------------

Heuristic = BriscolaHeuristic


# The solver's test (mazo.bots.solver.perfect_information), mirroring determinize.
def perfect_information(game: Game, obs: Observation) -> bool:
    """Unseen cards go to hands (beyond the known cards) and to the stock below its
    fixed cards (the face-up trump, the shown top card in scoperta)."""
    deck = game.info.deck
    seat = obs["seat"]
    seen = card_mask(deck, obs["removed"])
    for trick in obs["tricks"]:
        seen |= card_mask(deck, trick["cards"])
    seen |= card_mask(deck, (t["card"] for t in obs["trick"]))
    known = [0] * game.players
    if seat is not None:
        known[seat] = card_mask(deck, obs["hand"])
    for owner, cards in obs["known_cards"].items():
        known[int(owner)] |= card_mask(deck, cards)
    for mask in known:
        seen |= mask
    if obs["stock_size"]:
        seen |= 1 << deck.parse(obs["trump"])
        if obs.get("stock_top"):
            seen |= 1 << deck.parse(obs["stock_top"])
    pool = (deck.full_mask & ~seen).bit_count()
    needs = [size - known[s].bit_count() for s, size in enumerate(obs["hand_sizes"])]
    return one_placement(needs, pool, ordered_rest=True)


# The fast rollout policy of ISMCTS rollout=greedy (mazo.bots.playout): the game's own
# tables, read from the sampled state.
def playout(state: State, moves: list[int], noise: float) -> int:
    """Lead the cheapest card; when following, take the trick with a card of the led
    suit if one wins (the richest such card), with the lowest trump if the trick holds
    ten points or more, else throw the cheapest card.  ``noise`` (0-1) below 0.1 plays a
    random move instead."""
    if noise < 0.1 or len(moves) == 1:
        return moves[int(noise * 10 * len(moves)) % len(moves)]
    trump: int = state.trump_suit  # type: ignore[attr-defined]
    trick: tuple[int, ...] = state.trick_ids  # type: ignore[attr-defined]
    cards = [c for c in moves if c < 40]
    if not cards:
        return moves[0]
    if trick:
        led = _SUIT[trick[0]]
        best = max(
            20 + _STRENGTH[c] if _SUIT[c] == trump else _STRENGTH[c] if _SUIT[c] == led else 0
            for c in trick
        )
        winners = [
            c
            for c in cards
            if (20 + _STRENGTH[c] if _SUIT[c] == trump else _STRENGTH[c] if _SUIT[c] == led else 0)
            > best
        ]
        if winners:
            plain = [c for c in winners if _SUIT[c] != trump]
            if plain:
                return max(plain, key=_POINTS.__getitem__)
            if sum(_POINTS[c] for c in trick) >= 10:
                return min(winners, key=_STRENGTH.__getitem__)
    return min(cards, key=lambda c: (_POINTS[c], _SUIT[c] == trump, _STRENGTH[c]))


# -- reading the opponent's plays (ISMCTS infer=plays) ---------------------------------

# How many of the opponent's decisions a sample is weighed on: its card in the trick in
# progress (if it led) and in the last completed tricks, this many decisions in all.
READ_DECISIONS = 3
# The model of the opponent: a softmax over this heuristic's card scores (card points)
# at this temperature, mixed with a uniform choice at this rate (an opponent who is not
# ``normal``, or who slips, does not make a sample impossible).
READ_TEMPERATURE = 1.0
READ_SLIP = 0.1


def reads_plays(game: Game) -> bool:
    """Whether :func:`play_likelihood` reads anything in ``game``'s configuration: two
    players, no card shown or traded (the trump-2 exchange, open hands, signals, shown
    hands).  Elsewhere the search's ``infer=both`` reads the net alone, at full power."""
    opts = game.options
    return not (
        game.players != 2
        or opts.get("trump_two_exchange")
        or opts.get("signals_enabled")
        or opts.get("open_variant", "none") != "none"
        or opts.get("partners_show_hands_before_first_trick")
    )


def play_likelihood(game: Game, observation: Observation) -> Callable[[State, Rng], float] | None:
    """How well a sample fits the opponent's recent plays (ISMCTS ``infer=plays``): for
    a sample of ``observation`` (a two-player deal), the chance that this heuristic, in
    the opponent's place with the sample's cards, would have played the cards it played
    in its last :data:`READ_DECISIONS` decisions (a softmax of its scores, see
    :data:`READ_TEMPERATURE`).  The opponent's hand at an earlier trick is the sample's
    hand with the cards it played since put back and the cards it drew since taken out;
    which card of its hand it drew after a trick is not known, so it is drawn at random
    (``rng``) among the cards that could have been.  None where nothing is read: more
    than two players, the variants that show or trade cards (the trump-2 exchange, open
    hands, signals: :func:`reads_plays`), or no decision of the opponent's to read yet."""
    if not reads_plays(game):
        return None
    try:
        if observation["phase"] != "play" or observation.get("exchange") is not None:
            return None
        me = observation["seat"]
        seats = tuple(observation["seats"])
        opp = seats[1 - seats.index(me)]
        indicator = _parse(observation["trump"])
        stock_now = observation["stock_size"]
        done = [
            (t["leader"], [_parse(c) for c in t["cards"]], t["winner"])
            for t in observation["tricks"]
        ]
        current = [(t["seat"], _parse(t["card"])) for t in observation["trick"]]
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    side_of = game.info.side_of
    n_done = len(done)
    # Two players hold three cards each: the stock (the indicator under it) starts at 34
    # and loses two cards a trick until it is empty; the last draw, after the trick that
    # began with two cards in it, gives the indicator to that trick's loser.
    first_stock = NUM_CARDS - 6
    if stock_now != max(0, first_stock - 2 * n_done):
        return None  # not the plain two-player deal

    def stock_at(t: int) -> int:
        return max(0, first_stock - 2 * t)

    last_draw = first_stock // 2 - 1 if stock_now == 0 else -1
    # Who drew the indicator: the loser of that trick (the winner draws first).
    indicator_to = -1 if last_draw < 0 else opp if done[last_draw][2] == me else me
    # Per decision to read, newest first: (trick number, the card led before the
    # opponent's play or -1, stock at the trick, cards seen before it, card played,
    # whether a draw followed the trick, the indicator drawn by the opponent then,
    # whether the opponent knew I held the indicator).
    checks: list[tuple[int, int, int, int, int, bool, bool, bool]] = []
    seen_before = [0] * (n_done + 1)
    for t, (_leader, cards, _winner) in enumerate(done):
        mask = 0
        for c in cards:
            mask |= 1 << c
        seen_before[t + 1] = seen_before[t] | mask

    def my_indicator(t: int, lead: int) -> bool:
        """Whether the opponent knew, at trick ``t``, that I held the indicator."""
        return (
            indicator_to == me
            and 0 <= last_draw < t
            and not seen_before[t] >> indicator & 1
            and lead != indicator
        )

    if current and current[0][0] == opp:
        card = current[0][1]
        checks.append(
            (
                n_done,
                -1,
                stock_now,
                seen_before[n_done],
                card,
                False,
                False,
                my_indicator(n_done, -1),
            )
        )
    for t in range(n_done - 1, -1, -1):
        if len(checks) >= READ_DECISIONS:
            break
        leader, cards, _winner = done[t]
        lead = -1 if leader == opp else cards[0]
        card = cards[0] if leader == opp else cards[1]
        stock_t = stock_at(t)
        drew = stock_t >= 2
        took_indicator = t == last_draw and indicator_to == opp
        checks.append(
            (t, lead, stock_t, seen_before[t], card, drew, took_indicator, my_indicator(t, lead))
        )
    if not checks:
        return None
    hand_shift = 40 * opp
    trump = SUIT[indicator]
    cache: dict[tuple[int, int], float] = {}

    def chance(check: tuple[int, int, int, int, int, bool, bool, bool], hand: int) -> float:
        t, lead, stock_t, seen, card, _drew, _took, knows_mine = check
        key = (t, hand)
        got = cache.get(key)
        if got is not None:
            return got
        if stock_t > 2 and not knows_mine:
            # Cards left to draw, nothing of my hand known to the opponent: the rollouts'
            # scores, the same floats as its view's (of_past: the cards seen before the
            # trick, its hand, the card led and the face-up indicator are seen).
            cards = _CARDS.get(hand) or _cards(hand)
            unseen = _FULL & ~(seen | hand | 1 << indicator)
            if lead >= 0:
                unseen &= ~(1 << lead)
            scores = _heads_up_scores(cards, trump, unseen, lead, len(cards))
        else:
            v = _View.of_past(
                side_of, seats, opp, me, indicator, hand, t, lead, stock_t, seen, knows_mine
            )
            cards = tuple(v.hand)
            exact = endgame_values(v)
            if exact is not None:
                scores = [exact[c] - 0.01 * STRENGTH[c] for c in cards]
            else:
                scores = [v.score(c) for c in cards]
        n = len(cards)
        top = max(scores)
        weights = [math.exp((x - top) / READ_TEMPERATURE) for x in scores]
        p = weights[cards.index(card)] / sum(weights) if card in cards else 0.0
        got = cache[key] = (1.0 - READ_SLIP) * p + READ_SLIP / max(n, 1)
        return got

    def likelihood(sample: State, rng: Rng) -> float:
        hand = sample._h >> hand_shift & _FULL  # type: ignore[attr-defined]
        like = 1.0
        for check in checks:
            t, _lead, _stock, _seen, card, drew, took_indicator, _knows = check
            if t < n_done and drew:
                # Take out the card drawn after trick t: the indicator if the opponent
                # drew it (taken out at that trick, so never drawn again further back),
                # else any card of the hand then.
                if took_indicator:
                    drawn = indicator
                else:
                    options = _cards(hand)
                    drawn = options[rng.randbelow(len(options))]
                hand &= ~(1 << drawn)
            hand |= 1 << card
            like *= chance(check, hand)
        return like

    return likelihood


# -- the search levels (mazo.bots.levels, mazo.bots.ismcts) ----------------------------

# The search levels' settings on top of the flat heuristic search (levels._FLAT_HEURISTIC):
# moves compared on common worlds, the reward of :func:`search_reward` (half the deal won,
# half its card points), and the heuristic's move kept unless a rival's paired gain beats
# it by 0.03 (about 7 card points' worth) plus one standard error.  Tuned (session 10) by
# the true value of each move the search would change: normal-vs-normal deals, each
# searched decision's moves played out on the real cards with ``normal`` on both sides
# after them; at 300 playouts the changes the preset makes gained about +7 card points a
# deal a seat (0.0 guide: more changes, a noisier gain; 0.05: fewer, about as much).
# Session 12: samples resampled by the opponent's last three plays (``infer=plays``,
# :func:`play_likelihood`; two players only, elsewhere nothing is read).  On the same
# 400 deals (seed 2026, 300 playouts) against ``normal``: 53.0% of deals and +1.3 card
# points a deal without, 59.0% and +3.5 with (docs/strength.md).  The samples of the
# opponent's true hand (a test that cheats) win about 80% by +18: what the samples
# assume about the opponent's hand is most of what two-player Briscola's search lacks.
# Session 15: the samples weighed by the shipped net's cards head instead (``infer=net``,
# pool 16) measured no better over 2,000 deals (56.7% of deals, +2.4 card points a deal,
# against this preset's 57.5% and +3.2; on the 1,200 deals both played, 56.9% and +2.9
# against 57.9% and +3.0) and drew about a fifth fewer samples a CPU second, so the
# preset kept reading the plays; ``infer=net`` stays an option (docs/strength.md).
# Session 16: both readers at once (``infer=both``: the plays' likelihood times the
# head's odds to the power one half, the reader that knew most offline) on the
# plays preset's own 2,000 deals (seeds 2026-2031): 58.1% of deals (56.0-60.3) and +3.5
# card points a deal (+2.7 to +4.3), duplicate 491/212/297, against 57.5% and +3.2,
# 476/233/291; ahead on every point estimate, inside the intervals, at the same pool of
# 4 and about the same CPU (one net pass a search).  So the preset reads both, and
# plays alone where the net cannot serve (no numpy; a count whose net has no cards head).
# Session 21: at four players the plays are never read (reads_plays), so ``both`` is the
# net alone at full power.  The four-player net's cards head says which seat holds each
# card (--cards-by-seat), reading the encoder's who-played rows (1.41x offline, against
# 1.18x for session 19's plain head, which played even and was not shipped).  The search
# weighing its samples by it, against the search with uniform samples, head to head over
# 1,000 deals (seeds 2026-2030, 300 playouts): 51.3% of the deals (48.2-54.4), +0.8 card
# points a deal (-0.7 to +2.3), duplicate 206/100/194: ahead on every point estimate,
# inside the intervals, the standard of session 16's step, so the four-player preset
# reads it (docs/nets.md, "Who played each card").
SEARCH_PRESET: dict[str, Any] = {
    "paired": True,
    "reward": "game",
    "margin": 0.5,
    "guide": 0.03,
    "infer": "both",
}
# Where the shipped net cannot weigh the samples: the hand-made reader alone.
SEARCH_WITHOUT_NET: dict[str, Any] = {"infer": "plays"}

DEAL_POINTS = 120  # card points in a deal


def search_reward(
    game: Game, margin: float
) -> Callable[[list[int], list[int], State], list[float]]:
    """Each side's reward for a search line (ISMCTS ``reward=game``): the deal won (1,
    a tie 0.5, lost 0: more card points than the best other side), blended with the
    card points linearly: ``(1 - margin) * won + margin * (0.5 + edge / 240)``, where
    ``edge`` is the side's card points less the best other side's (-120 to 120).  The
    deal's result alone: the match score before it does not weigh in."""
    sides = game.sides
    scale = 2.0 * DEAL_POINTS
    keep = 1.0 - margin

    def reward(scores: list[int], games: list[int], end: State) -> list[float]:
        pts = end.finished_deal_points()
        if pts is None:  # never in a search (its lines stop at the deal's end): a guard
            pts = end.deal_points()  # type: ignore[attr-defined]
        out = []
        for side in range(sides):
            edge = pts[side] - max(p for s, p in enumerate(pts) if s != side)
            won = 1.0 if edge > 0 else 0.5 if edge == 0 else 0.0
            out.append(keep * won + margin * (0.5 + edge / scale))
        return out

    return reward
