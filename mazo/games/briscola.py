"""Briscola for 2, 3, 4 and 6 players, as specified in ``rules/briscola.md``.

Rules profile (rules version 1)
-------------------------------
* 40-card Latin pack; 3 players drop one 2 (``three_player_removed_card``, default
  ``2C``), 6 players drop all four 2s.  Card points 1=11, 3=10, K=4, Q=3, J=2 (120 in all);
  trick order 1 > 3 > K > Q > J > 7 > 6 > 5 > 4 > 2.
* Three cards each, dealt from the dealer's right (seat ``dealer+1`` first) in packets of
  three (or one at a time); the next card is the face-up trump indicator, drawn last.
* No obligation to follow or to trump.  The highest trump wins, else the highest card of
  the led suit.  After each trick, while the stock lasts, each player draws one card,
  winner first; the indicator goes to the seat before the winner in the last draw round.
* A deal: 61+ wins, 60-60 is a draw (two sides).  Three players: all 120 scores 3 deal
  wins; two players over 40 score one each; one player over 40 scores 2; 40-40-40 draws.
* A match: the first side to ``match_wins_target`` deal wins (3, "best of 5"; or 2).
  Draws do not count.  The dealer rotates after every deal (``dealer_after_draw="same"``
  keeps it after a draw).  A shared lead at the target among three players plays on
  (``three_player_tie_mode="continue"``) or, with ``"drop_out"``, the two tied players
  play two-handed 40-card deals until one wins a deal.
* Options, all validated: see :data:`OPTIONS` and ``docs/briscola.md``.

Action layout (``num_actions = 50``)
------------------------------------
====== ==========================================================================
id     action
====== ==========================================================================
0-39   play that card (card id in the Latin 40-card pack: suit-major O C E B,
       ranks 1..7 J Q K; ``7O`` is 6)
40-47  ``signal <meaning>``: trump_ace, trump_three, trump_king, trump_cavallo,
       trump_fante, no_trump, low_trump, carico (free actions, ``signals_enabled``)
48     ``exchange``: swap the 2 of trumps for the indicator (``trump_two_exchange``)
49     ``decline``: keep the 2 of trumps
====== ==========================================================================

Decisions where the rules file leaves room (see also docs/briscola.md)
---------------------------------------------------------------------
* ``redraw_indicator_ace_three``: the asso/3 is put back at the middle of the stock
  (position ``len(stock) // 2`` of the draw order) and the top stock card is turned;
  repeated while the new indicator is an asso or a 3.
* ``trump_two_exchange``: before the first lead, the holder of the 2 of trumps is asked
  (``exchange`` or ``decline``); the swap is public, so everyone knows where the old
  indicator is.
* ``partners_show_hands_before_first_trick``: each seat's partners see its hand as it
  stands when trick 1 starts; the observation keeps those cards (perfect recall) until
  they are played.
* A signal is legal for any seat of a partnership game during the play phase from trick
  ``signals_from_trick`` on, once per meaning per trick, and (if truthful) only when the
  hand fits it.  It never changes whose turn it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from operator import attrgetter
from typing import Any, Final

from mazo.core import FIRST_DEALER, HAND_OVER, OVER, PHASE_MASK, DealStart, Option
from mazo.core.cards import LATIN_40, SUITS, iter_bits
from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import DealFacts, Game, MatchStart, MatchState, State, fresh, log_since
from mazo.core.rng import Rng, derive_seed, stream_seed

__all__ = [
    "OPTIONS",
    "POINTS",
    "SIGNAL_MEANINGS",
    "STRENGTH",
    "SUIT",
    "BriscolaGame",
    "BriscolaState",
]

JSON = dict[str, Any]
DECK = LATIN_40
NUM_CARDS = 40

# Tables indexed by card id: no branching on the hot path.
_RANK_POINTS = {"1": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
_RANK_STRENGTH = {
    r: 10 - i for i, r in enumerate(["1", "3", "K", "Q", "J", "7", "6", "5", "4", "2"])
}
POINTS: tuple[int, ...] = tuple(_RANK_POINTS.get(DECK.rank(c), 0) for c in range(NUM_CARDS))
STRENGTH: tuple[int, ...] = tuple(_RANK_STRENGTH[DECK.rank(c)] for c in range(NUM_CARDS))
SUIT: tuple[int, ...] = tuple(c // 10 for c in range(NUM_CARDS))
_CODES: tuple[str, ...] = tuple(DECK.format(c) for c in range(NUM_CARDS))
# _KEYS[trump][led][card]: how strongly a card bids for the trick (0 = cannot win).
_KEYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(
            20 + STRENGTH[c] if SUIT[c] == trump else STRENGTH[c] if SUIT[c] == led else 0
            for c in range(NUM_CARDS)
        )
        for led in range(4)
    )
    for trump in range(4)
)
_TWOS = tuple(DECK.card("2", s) for s in SUITS)

SIGNAL_MEANINGS = (
    "trump_ace",
    "trump_three",
    "trump_king",
    "trump_cavallo",
    "trump_fante",
    "no_trump",
    "low_trump",
    "carico",
)
SIGNAL_BASE = 40
EXCHANGE = 48
DECLINE = 49
NUM_ACTIONS = 50

SIGNAL_SYSTEMS: dict[str, tuple[int, ...]] = {
    "pagat": (0, 1, 2, 3, 4),
    "it_wikipedia": (0, 1, 2, 3, 5, 6),
    "en_wikipedia": (0, 1, 2, 3, 4, 7),
}
SIGNAL_GESTURES: dict[str, dict[str, str]] = {
    "pagat": {
        "trump_ace": "lips drawn back over the teeth",
        "trump_three": "mouth pulled to one side",
        "trump_king": "a quick glance upward",
        "trump_cavallo": "the tip of the tongue shown",
        "trump_fante": "one shoulder shrugged",
    },
    "it_wikipedia": {
        "trump_ace": "lips pressed shut",
        "trump_three": "lips drawn sideways",
        "trump_king": "eyes rolled up",
        "trump_cavallo": "a shoulder raised",
        "no_trump": "eyes shut",
        "low_trump": "thumb rubbed against the index finger",
    },
    "en_wikipedia": {
        "trump_ace": "lips stretched over the teeth",
        "trump_three": "a wink",
        "trump_king": "a glance upward",
        "trump_cavallo": "one shoulder shrugged",
        "trump_fante": "tongue tip shown",
        "carico": "mouth opened and closed quickly",
    },
}

PLAY, EXCHANGE_PHASE = 0, 1  # OVER (2) comes from mazo.core.game
_PHASE_NAMES = ("play", "exchange", "over")


OPTIONS: tuple[Option, ...] = (
    Option("deal_packet_size", 3, (3, 1), "deal three cards at once, or one at a time"),
    Option(
        "three_player_removed_card",
        "2C",
        ("2O", "2C", "2E", "2B"),
        "the 2 taken out of the pack for 3 players (public)",
    ),
    Option("match_wins_target", 3, (3, 2), "deal wins to take the match: 3 (best of 5) or 2"),
    Option(
        "dealer_after_draw",
        "rotate",
        ("rotate", "same"),
        "after a 60-60 draw the deal passes on, or the same dealer deals again",
    ),
    Option(
        "three_player_tie_mode",
        "continue",
        ("continue", "drop_out"),
        "3 players tied on top at the target: play on three-handed, or the two tied "
        "players play two-handed deals",
    ),
    Option(
        "open_variant",
        "none",
        ("none", "open_hands", "scoperta"),
        "2 players only: hands face up (open_hands), plus the top stock card (scoperta)",
    ),
    Option("signals_enabled", False, (False, True), "partner trump signals (4 and 6 players)"),
    Option(
        "signal_system",
        "pagat",
        ("pagat", "it_wikipedia", "en_wikipedia"),
        "which signal table: the set of meanings and the gestures shown",
    ),
    Option(
        "signal_visibility",
        "team",
        ("team", "public"),
        "who sees a signal: the signaller's partners, or everyone",
    ),
    Option("signals_truthful", True, (True, False), "signals must be true (False: bluffs allowed)"),
    Option("signals_from_trick", 2, (2, 1), "first trick where signals are allowed"),
    Option(
        "trump_two_exchange",
        False,
        (False, True),
        "the holder of the 2 of trumps may swap it for the indicator before the first lead",
    ),
    Option(
        "redraw_indicator_ace_three",
        False,
        (False, True),
        "an asso or 3 turned as indicator goes back into the stock and the next is turned",
    ),
    Option(
        "partners_show_hands_before_first_trick",
        False,
        (False, True),
        "partners see each other's hands before trick 1 (4 and 6 players)",
    ),
    Option("french_face_labels", "north", ("north", "south"), "label of J/Q on French cards"),
    FIRST_DEALER,
)


class _Deal(DealFacts):
    """Everything fixed for one deal, shared by all of its states."""

    __slots__ = (
        "active",
        "dealer",
        "deck",
        "declined",
        "draw",
        "exchanged",
        "index",
        "indicator",
        "k",
        "keys",
        "number",
        "nxt",
        "packs",
        "playoff",
        "removed",
        "scores",
        "seed",
        "start_hands",
        "trump",
    )

    number: int  # 1-based count of deals in the match, draws included
    dealer: int
    active: tuple[int, ...]  # seats in this deal, in playing order
    k: int  # len(active)
    nxt: tuple[int, ...]  # seat -> next active seat
    index: tuple[int, ...]  # seat -> position in ``active`` (-1 if out)
    deck: tuple[int, ...]  # the pack as dealt, top first (hidden; goes to the record)
    draw: tuple[int, ...]  # stock in draw order, indicator last
    indicator: int
    trump: int
    keys: tuple[tuple[int, ...], ...]  # _KEYS[trump]
    removed: int  # mask of cards out of the pack
    scores: tuple[int, ...]  # deal wins per side before this deal
    seed: int
    packs: tuple[tuple[int, ...], ...]  # fixed packs for later deals (replays)
    playoff: bool
    exchanged: tuple[int, int, int] | None  # (seat, gave the 2, took the old indicator)
    declined: int | None  # the seat that kept the 2 of trumps when asked
    start_hands: int  # hands as packed when trick 1 starts (partners may be shown them)

    def copy(self) -> _Deal:
        """:meth:`DealFacts.copy` written out (every sample and every search line's end
        copies a deal's facts; the generic loop over the slots cost three times more)."""
        out = _new_deal(_Deal)
        out.active = self.active
        out.dealer = self.dealer
        out.deck = self.deck
        out.declined = self.declined
        out.draw = self.draw
        out.exchanged = self.exchanged
        out.index = self.index
        out.indicator = self.indicator
        out.k = self.k
        out.keys = self.keys
        out.number = self.number
        out.nxt = self.nxt
        out.packs = self.packs
        out.playoff = self.playoff
        out.removed = self.removed
        out.scores = self.scores
        out.seed = self.seed
        out.start_hands = self.start_hands
        out.trump = self.trump
        return out


class BriscolaGame(Game):
    """Briscola rules, configured by player count and options."""

    name = "briscola"
    rules_version = 1
    player_counts = (2, 3, 4, 6)
    default_players = 4
    option_specs = OPTIONS

    def _configure(self) -> None:
        n = self.players
        opts = self.options
        if opts["open_variant"] != "none" and n != 2:
            raise RulesError(
                f"open_variant={opts['open_variant']!r} is for 2 players only; "
                f"with {n} players use open_variant='none'"
            )
        if opts["signals_enabled"] and n not in (4, 6):
            raise RulesError("signals_enabled needs partners: allowed with 4 or 6 players only")
        if opts["partners_show_hands_before_first_trick"] and n not in (4, 6):
            raise RulesError(
                "partners_show_hands_before_first_trick needs partners: 4 or 6 players only"
            )
        self.teams = n in (4, 6)
        self.sides = 2 if n != 3 else 3
        self.side_of: tuple[int, ...] = tuple(s % 2 if self.teams else s for s in range(n))
        removed = 0
        if n == 3:
            removed = 1 << DECK.parse(opts["three_player_removed_card"])
        elif n == 6:
            for two in _TWOS:
                removed |= 1 << two
        self.removed = removed
        self.target: int = opts["match_wins_target"]
        self.open_hands = opts["open_variant"] != "none"
        self.scoperta = opts["open_variant"] == "scoperta"
        self.signals = bool(opts["signals_enabled"])
        self.signal_ids: tuple[int, ...] = SIGNAL_SYSTEMS[opts["signal_system"]]
        self.partners: tuple[tuple[int, ...], ...] = tuple(
            tuple(p for p in range(n) if p != s and self.side_of[p] == self.side_of[s])
            for s in range(n)
        )
        self.redraw = bool(opts["redraw_indicator_ace_three"])
        self.exchange = bool(opts["trump_two_exchange"])
        self.full_pack = DECK.full_mask & ~removed
        self._layouts: dict[tuple[int, tuple[int, ...]], _Layout] = {}
        self._pack_lists: dict[int, list[int]] = {}
        signals = frozenset(range(SIGNAL_BASE, SIGNAL_BASE + len(SIGNAL_MEANINGS)))
        self._describe(
            NUM_ACTIONS,
            DECK,
            self.teams,
            signals,
            score_unit="deals",
            score_target=self.target,
            deal_unit="card points",
        )

    # -- notation ----------------------------------------------------------------

    def _move_string(self, action: int) -> str:
        """``signal trump_ace``, ``exchange`` or ``decline`` (cards: :meth:`action_to_string`)."""
        if action < EXCHANGE:
            return "signal " + SIGNAL_MEANINGS[action - SIGNAL_BASE]
        return "exchange" if action == EXCHANGE else "decline"

    def string_to_action(self, text: str) -> int:
        """Parse ``7O``, ``signal trump_ace``, ``exchange`` or ``decline``."""
        if not isinstance(text, str):
            raise InvalidActionError(f"{text!r} is not an action string")
        words = text.strip().lower().split()
        if len(words) == 1 and words[0] in ("exchange", "decline"):
            return EXCHANGE if words[0] == "exchange" else DECLINE
        if words and words[0] == "signal":
            if len(words) == 2 and words[1] in SIGNAL_MEANINGS:
                return SIGNAL_BASE + SIGNAL_MEANINGS.index(words[1])
            raise InvalidActionError(
                f"{text!r}: a signal is 'signal <meaning>' with meaning one of "
                + ", ".join(SIGNAL_MEANINGS)
            )
        try:
            return DECK.parse(text)
        except InvalidActionError as err:
            raise InvalidActionError(
                f"{err}; other Briscola actions: 'signal <meaning>', 'exchange', 'decline'"
            ) from None

    # -- matches -------------------------------------------------------------------

    def pack_mask(self, active: tuple[int, ...]) -> int:
        """The cards in play for a deal among ``active`` seats."""
        if len(active) == 2 and self.players == 3:
            return DECK.full_mask  # the 3-player drop-out play-off uses all 40 cards
        return DECK.full_mask & ~self.removed

    def _new_match(self, start: MatchStart) -> BriscolaState:
        active = tuple(range(self.players))
        packs = start.packs
        if packs:
            self._check_dealt_pack(packs[0], active)
        dealer = self.first_dealer(start.seed, start.dealer)
        # Deal k is shuffled by Rng(stream_seed(deal_seed, k)): cheap per deal, and a
        # seed's deals never depend on how far an earlier deal went.
        deal_seed = derive_seed(start.seed, "deals")
        d = _Deal.begin(1, dealer, start.scores, deal_seed, packs)
        d.active = active
        d.playoff = False
        return _start_deal(self, d, None)

    def _check_dealt_pack(self, pack: tuple[int, ...], active: tuple[int, ...]) -> None:
        want = self.pack_mask(active)
        got = 0
        for card in pack:
            got |= 1 << card
        if got != want or len(pack) != want.bit_count():
            missing = DECK.codes(want & ~got)
            extra = DECK.codes(got & ~want)
            raise RulesError(
                f"bad deck for {len(active)} players: it must hold exactly the "
                f"{want.bit_count()} cards of the pack"
                + (f"; missing {' '.join(missing)}" if missing else "")
                + (f"; not allowed {' '.join(extra)}" if extra else "")
            )

    # -- search ----------------------------------------------------------------------

    def determinize(self, observation: Mapping[str, Any], rng: Rng) -> BriscolaState:
        """A full state consistent with ``observation``; unseen cards dealt at random."""
        return _determinize(self, observation, rng)

    def sampler(self, observation: Mapping[str, Any]) -> Callable[[Rng], BriscolaState]:
        """``determinize`` for many samples of one observation: read it once."""
        return _sampler(self, observation)


# Seat hands and won piles are packed in one int each: seat s owns bits [40 s, 40 s + 40).
_STRIDE = 40
_FULL = (1 << NUM_CARDS) - 1
_OFF = tuple(_STRIDE * s for s in range(6))


def _seat_mask(packed: int, seat: int) -> int:
    return packed >> _OFF[seat] & _FULL


def _unpack(packed: int, n: int) -> tuple[int, ...]:
    return tuple(packed >> _OFF[s] & _FULL for s in range(n))


_Layout = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _layout(game: BriscolaGame, dealer: int, active: tuple[int, ...]) -> _Layout:
    """Per (dealer, seats): seat -> position, seat -> next seat, and where each of the
    first 3k cards of the pack goes (seat and that seat's bit offset), cached."""
    key = (dealer, active)
    layout = game._layouts.get(key)
    if layout is None:
        n = game.players
        k = len(active)
        index = [-1] * n
        for i, seat in enumerate(active):
            index[seat] = i
        nxt = tuple(active[(index[s] + 1) % k] if index[s] >= 0 else -1 for s in range(n))
        first = index[dealer]
        if game.options["deal_packet_size"] == 3:
            to = [active[(first + 1 + j) % k] for j in range(k) for _ in range(3)]
        else:
            to = [active[(first + 1 + i) % k] for i in range(3 * k)]
        layout = (tuple(index), nxt, tuple(to), tuple(_OFF[s] for s in to))
        game._layouts[key] = layout
    return layout


def _start_deal(game: BriscolaGame, d: _Deal, prev: BriscolaState | None) -> BriscolaState:
    """Deal ``d``: a new deal's facts with its number, dealer, seats (``active``), match
    scores, seed, given packs and play-off flag; the rest is filled in here."""
    active = d.active
    k = len(active)
    mask = game.pack_mask(active) if len(active) == 2 else game.full_pack
    if d.packs:
        pack = d.packs[0]
        game._check_dealt_pack(pack, active)
        d.packs = d.packs[1:]
    else:
        cards = game._pack_lists.get(mask)
        if cards is None:
            cards = game._pack_lists[mask] = list(iter_bits(mask))
        pack = tuple(Rng(stream_seed(d.seed, d.number)).shuffled(cards))
    dealer = d.dealer
    index, nxt, _to, offsets = _layout(game, dealer, active)
    d.k = k
    d.index = index
    d.nxt = nxt
    d.deck = pack
    d.removed = DECK.full_mask & ~mask
    d.exchanged = None
    d.declined = None

    packed = 0
    for off, c in zip(offsets, pack, strict=False):
        packed |= 1 << (off + c)
    indicator = pack[3 * k]
    stock = pack[3 * k + 1 :]
    if game.redraw:
        stock_list = list(stock)
        for _ in range(len(stock_list)):
            if STRENGTH[indicator] < 9 or not stock_list:
                break
            old = indicator
            indicator = stock_list.pop(0)
            stock_list.insert(len(stock_list) // 2, old)
        stock = tuple(stock_list)
    d.indicator = indicator
    d.trump = SUIT[indicator]
    d.keys = _KEYS[d.trump]
    d.draw = (*stock, indicator)
    d.start_hands = packed

    leader = nxt[dealer]
    mode, to_act = PLAY, leader
    if game.exchange:
        two = _TWOS[d.trump]
        for seat in active:
            if packed >> (_OFF[seat] + two) & 1:
                mode, to_act = EXCHANGE_PHASE, seat
    if game.signals:
        mode |= _SIGNALS
    if prev is not None:
        mode |= _HAND_OVER
    ev = (prev._ev if prev is not None else None, _EV_DEAL, d)
    state = BriscolaState._made(game, d, packed, mode, to_act, ev)
    state._trick = ()
    state._t = (leader, 0, 0, 0, None, 0, ())
    return state


_EV_DEAL, _EV_PLAY, _EV_TRICK, _EV_DRAW, _EV_SIGNAL, _EV_EXCHANGE = range(6)
_EV_HAND_END, _EV_MATCH_END = 6, 7
_PHASE_MASK, _HAND_OVER, _SIGNALS = PHASE_MASK, HAND_OVER, 8

# The log is a persistent linked list of nodes ``(previous node, kind, *payload)``.  Card
# plays are not stored one by one: each trick node holds its cards, and the plays are
# unfolded from it (and from the current trick) when the log is read.
_ListEv = tuple[Any, ...] | None


# ``_t``, what changes once per trick, is a plain tuple read through these names (a
# NamedTuple's fields, even indexed, read about three times slower in CPython 3.11; the
# hot path unpacks it whole): the trick's leader, the stock position (next card of
# ``_d.draw``), the won piles packed like ``_h``, completed tricks, the seat that drew the
# face-up indicator (None until drawn), signals used this trick (bit ``seat * 8 + meaning``)
# and the signals of this deal ``(trick number, seat, meaning)``.
_T_LEADER: Final = 0
_T_STOCK: Final = 1
_T_WON: Final = 2
_T_TRICKS: Final = 3
_T_HOLDER: Final = 4
_T_USED: Final = 5
_T_SIGNS: Final = 6


class BriscolaState(MatchState):
    """An immutable Briscola match position.

    Layout (ints on the hot path): ``_h`` packs every seat's hand (seat ``s`` owns bits
    ``40s..40s+39``); ``_trick`` is the current trick, leader first; ``_m`` is the mode
    (phase in bits 0-1, hand-over flag 4, signals game 8; 0 means "plain card play",
    the fast path); ``_t`` holds what changes once per trick: ``(leader, stock
    position, won piles packed like _h, completed tricks, indicator holder, signals
    used this trick, signals this deal)``, read through ``_T_LEADER`` ... ``_T_SIGNS``;
    ``_ev`` is a persistent list of events.
    """

    # ``to_act`` is a plain slot rather than a property: it is read before every move of
    # every search, and a slot read is several times cheaper.  Like every field of a
    # state it is read-only by contract.
    __slots__ = ("_d", "_ev", "_g", "_h", "_m", "_t", "_trick", "to_act")

    _g: BriscolaGame
    _d: _Deal
    _h: int
    _trick: tuple[int, ...]
    to_act: int | None
    """The seat the game waits for, or None when the match is over."""
    _m: int
    _t: tuple[int, int, int, int, int | None, int, tuple[tuple[int, int, int], ...]]
    _ev: _ListEv

    @property
    def trump_card(self) -> str:
        """The face-up trump indicator of this deal."""
        return _CODES[self._d.indicator]

    @property
    def trump_suit(self) -> int:
        """The trump suit's index (0-3, ``O C E B``), as the ids' ``SUIT`` table gives it."""
        return self._d.trump

    @property
    def trick_ids(self) -> tuple[int, ...]:
        """The cards of the trick in progress as ids, in play order (public on the table;
        search playouts read it without building an observation)."""
        return self._trick

    # Omniscient views, for tests and tools; never hand them to a client or a bot.

    def hand(self, seat: int) -> list[str]:
        """The cards in a seat's hand."""
        return DECK.codes(_seat_mask(self._h, seat))

    def won_cards(self, seat: int) -> list[str]:
        """The cards a seat has taken in tricks this deal."""
        return DECK.codes(_seat_mask(self._t[_T_WON], seat))

    def stock(self) -> list[str]:
        """The undrawn stock in draw order (the face-up indicator last, while undrawn)."""
        return [_CODES[c] for c in self._d.draw[self._t[_T_STOCK] :]]

    def finished_deal_points(self) -> list[int] | None:
        """The card points of the deal that just ended, per side (None off a deal's end)."""
        if not self._m & _HAND_OVER:
            return None
        node = self._ev
        while node is not None and node[1] != _EV_HAND_END:
            if node[1] not in (_EV_MATCH_END, _EV_DEAL):
                return None
            node = node[0]
        return None if node is None else list(node[2])

    def deal_points(self) -> list[int]:
        """Card points taken so far this deal, per side."""
        game = self._g
        pts = [0] * game.sides
        won = self._t[_T_WON]
        for seat in range(game.players):
            pts[game.side_of[seat]] += _mask_points(_seat_mask(won, seat))
        return pts

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Sorted action ids for ``seat`` (default: the seat to act)."""
        to_act = self.to_act
        if self._m == 0 and (seat is None or seat == to_act):
            hand = self._h >> to_act * 40 & 0xFFFFFFFFFF  # type: ignore[operator]
            acts = _BITS.get(hand)
            return list(acts if acts is not None else _bits(hand))
        if seat is None:
            seat = to_act
            if seat is None:
                return []
        phase = self._m & _PHASE_MASK
        if phase == PLAY:
            acts2 = _bits_list(_seat_mask(self._h, seat)) if seat == to_act else []
            if self._g.signals:
                acts2.extend(self._legal_signals(seat))
            return acts2
        if phase == EXCHANGE_PHASE and seat == to_act:
            return [EXCHANGE, DECLINE]
        return []

    def apply(self, action: int | str, seat: int | None = None) -> BriscolaState:
        """A new state after ``action`` by ``seat`` (default ``to_act``); old one untouched.

        Briscola keeps the card play inline here rather than in a ``_play_card`` under the
        shared :meth:`MatchState.apply` (as Envite and Trionfetti do): Briscola's moves are
        the cheapest of the four games, and the extra call a card cost random play 4-6%
        (CPU time, old and new in one process alternated, both load orders)."""
        if type(action) is not int:
            return self._apply_text(action, seat)
        to_act = self.to_act
        # Literals rather than module constants: this is the hottest line of every search.
        if (
            self._m == 0
            and (seat is None or (seat == to_act and type(seat) is int))
            and 0 <= action < 40
        ):
            bit = 1 << (to_act * 40 + action)  # type: ignore[operator]
            h = self._h
            if h & bit:
                d = self._d
                trick = self._trick + (action,)  # noqa: RUF005 (cheaper than unpacking)
                new = _new_state(BriscolaState)
                new._g = self._g
                new._d = d
                new._h = h ^ bit
                new._m = 0
                new._t = self._t
                new._ev = self._ev
                if len(trick) < d.k:
                    new._trick = trick
                    new.to_act = d.nxt[to_act]  # type: ignore[index]
                    return new
                return new._close_trick(trick)
        return self._apply_other(action, seat)

    # Search's fast path is ``apply`` itself (legal input costs it nothing extra).
    apply_unchecked = apply

    # -- transitions ---------------------------------------------------------------

    def _apply_other(self, a: int, seat: int | None) -> BriscolaState:
        game = self._g
        text = game.action_to_string(a)
        to_act = self.to_act
        phase = self._m & _PHASE_MASK
        if phase == OVER or to_act is None:
            raise self._no_action(text)
        if seat is not None and (type(seat) is not int or not 0 <= seat < game.players):
            raise IllegalActionError(f"seat must be 0..{game.players - 1}, not {seat!r}")
        actor = to_act if seat is None else seat
        if SIGNAL_BASE <= a < EXCHANGE:
            if a not in self._legal_signals(actor):
                raise IllegalActionError(self._why_not_signal(actor, a - SIGNAL_BASE))
            return self._signal(actor, a - SIGNAL_BASE)
        if actor != to_act:
            why = self._not_turn(text, actor)
            raise IllegalActionError(f"{why} (only signals may be made out of turn)")
        allowed = ", ".join(game.action_to_string(x) for x in self.legal_actions(actor))
        if phase == EXCHANGE_PHASE:
            if a in (EXCHANGE, DECLINE):
                return self._exchange(actor, a == EXCHANGE)
            raise IllegalActionError(
                f"{text}: seat {actor} holds the 2 of trumps and must first choose "
                f"exchange or decline"
            )
        if a < NUM_CARDS:
            if _seat_mask(self._h, actor) >> a & 1:
                return self._play_slow(actor, a)
            raise IllegalActionError(
                f"{text} is not in seat {actor}'s hand; playable now: {allowed}"
            )
        raise IllegalActionError(f"{text} is not allowed now; allowed: {allowed}")

    def _play_slow(self, seat: int, card: int) -> BriscolaState:
        """A card play outside the fast path (first play after a deal, signal games)."""
        d = self._d
        trick = (*self._trick, card)
        new = _new_state(BriscolaState)
        new._g = self._g
        new._d = d
        new._h = self._h ^ 1 << (_OFF[seat] + card)
        new._m = self._m & ~_HAND_OVER
        new._t = self._t
        new._ev = self._ev
        if len(trick) < d.k:
            new._trick = trick
            new.to_act = d.nxt[seat]
            return new
        return new._close_trick(trick)

    def _close_trick(self, trick: tuple[int, ...]) -> BriscolaState:
        """Fill in this fresh state after the last card of a trick: win, draw, maybe end."""
        leader = self._t[0]
        h, t, points, drew = _take_trick(self._d, trick, self._t, self._h)
        winner = t[0]
        self._h = h
        self._trick = ()
        self.to_act = winner
        self._t = t
        self._ev = (self._ev, _EV_TRICK, t[3], leader, trick, winner, points, drew, t[4])
        if h >> winner * 40 & 0xFFFFFFFFFF:
            return self
        return _end_deal(self)

    def play_to_deal_end(self, pick: Callable[[int, int, tuple[int, ...], Any], int]) -> State:
        """The line's state at this deal's end when every card from here is
        ``pick(seat, hands, trick, t)`` (the seat to act, the packed hands, the trick so
        far, the state's ``_t`` tuple: leader, stock position, won piles, tricks, indicator
        holder, ...): the same final state and log as :meth:`apply` card by card (tested),
        without building the states between.  For a search's rollouts: from a state of
        the play phase with no flag set, no signals, on a line that stops at the deal's
        end; ``pick`` must return a card of the seat's hand (not checked: it is the
        search's own policy, and a card from elsewhere would corrupt the hands)."""
        if self._m or not self._g.stops_at_deal_end or self.to_act is None:
            raise RulesError("play_to_deal_end plays a stopped search line's card play only")
        d = self._d
        if d.k == 2:
            return self._heads_up_to_deal_end(pick)
        nxt = d.nxt
        k = d.k
        h = self._h
        t = self._t
        ev = self._ev
        trick = self._trick
        seat = self.to_act
        while True:
            card = pick(seat, h, trick, t)
            h ^= 1 << (seat * 40 + card)
            trick = (*trick, card)
            if len(trick) < k:
                seat = nxt[seat]
                continue
            leader = t[0]
            h, t, points, drew = _take_trick(d, trick, t, h)
            seat = t[0]
            ev = (ev, _EV_TRICK, t[3], leader, trick, seat, points, drew, t[4])
            trick = ()
            if not h >> seat * 40 & 0xFFFFFFFFFF:
                return self._line_end(h, t, ev, seat)

    def _heads_up_to_deal_end(self, pick: Callable[[int, int, tuple[int, ...], Any], int]) -> State:
        """:meth:`play_to_deal_end` with two seats: :func:`_take_trick`'s two-seat case
        written out in the loop, no call and no tuple to unpack a trick (with
        :meth:`_Deal.copy` written out, 5% fewer instructions in a two-player search)."""
        d = self._d
        nxt = d.nxt
        keys = d.keys
        draw = d.draw
        ndraw = len(draw)
        h = self._h
        t = self._t
        ev = self._ev
        trick = self._trick
        seat = self.to_act
        assert seat is not None
        while True:
            card = pick(seat, h, trick, t)
            h ^= 1 << (seat * 40 + card)
            if not trick:
                trick = (card,)
                seat = nxt[seat]
                continue
            # The trick is full: the leader's card against mine (seat follows).
            first = trick[0]
            trick = (first, card)
            leader, sp, won, ntricks, holder, _used, sigs = t
            row = keys[first // 10]
            if row[first] > row[card]:
                winner, loser = leader, seat
            else:
                winner, loser = seat, leader
            points = POINTS[first] + POINTS[card]
            won |= (1 << first | 1 << card) << winner * 40
            drew = sp < ndraw
            if drew:
                h |= 1 << (winner * 40 + draw[sp]) | 1 << (loser * 40 + draw[sp + 1])
                sp += 2
                if sp == ndraw:
                    holder = loser  # the face-up indicator is the last card drawn
            t = (winner, sp, won, ntricks + 1, holder, 0, sigs)
            ev = (ev, _EV_TRICK, ntricks + 1, leader, trick, winner, points, drew, holder)
            trick = ()
            seat = winner
            if not h >> seat * 40 & 0xFFFFFFFFFF:
                return self._line_end(h, t, ev, seat)

    def _line_end(self, h: int, t: tuple[Any, ...], ev: _ListEv, seat: int) -> State:
        """The last state of :meth:`play_to_deal_end`'s line: hands ``h``, ``_t`` ``t``,
        log ``ev``, ``seat`` the last trick's winner; the deal scored."""
        end = _new_state(BriscolaState)
        end._g = self._g
        end._d = self._d
        end._h = h
        end._m = 0
        end._t = t
        end._ev = ev
        end._trick = ()
        end.to_act = seat
        return _end_deal(end)

    def _derive(self) -> BriscolaState:
        new = _new_state(BriscolaState)
        new._g = self._g
        new._d = self._d
        new._h = self._h
        new._trick = self._trick
        new.to_act = self.to_act
        new._m = self._m & ~_HAND_OVER
        new._t = self._t
        new._ev = self._ev
        return new

    def _signal(self, seat: int, meaning: int) -> BriscolaState:
        game = self._g
        leader, sp, won, ntricks, holder, used, sigs = self._t
        trick_no = ntricks + 1
        if game.options["signal_visibility"] == "team":
            audience = tuple(sorted((seat, *game.partners[seat])))
        else:
            audience = tuple(range(game.players))
        new = self._derive()
        used |= 1 << (seat * 8 + meaning)
        new._t = (leader, sp, won, ntricks, holder, used, (*sigs, (trick_no, seat, meaning)))
        pos = len(self._trick)
        new._ev = (self._ev, _EV_SIGNAL, seat, meaning, audience, trick_no, pos)
        return new

    def _exchange(self, seat: int, swap: bool) -> BriscolaState:
        d = self._d
        new = self._derive()
        new._m = (self._m & ~(_PHASE_MASK | _HAND_OVER)) | PLAY
        if swap:
            two = _TWOS[d.trump]
            old = d.indicator
            nd = d.copy()
            nd.indicator = two
            nd.draw = (*d.draw[:-1], two)
            nd.exchanged = (seat, two, old)
            off = _OFF[seat]
            new._h = self._h & ~(1 << (off + two)) | 1 << (off + old)
            nd.start_hands = new._h
            new._d = nd
            new._ev = (self._ev, _EV_EXCHANGE, seat, two, old)
        else:
            nd = d.copy()
            nd.declined = seat
            new._d = nd
            new._ev = (self._ev, _EV_EXCHANGE, seat, None, None)
        new.to_act = self._t[_T_LEADER]
        return new

    # -- signals -------------------------------------------------------------------

    def _legal_signals(self, seat: int) -> list[int]:
        game = self._g
        if (
            not game.signals
            or self._m & _PHASE_MASK != PLAY
            or not 0 <= seat < game.players
            or self._d.index[seat] < 0
            or self._t[_T_TRICKS] + 1 < game.options["signals_from_trick"]
        ):
            return []
        truthful = game.options["signals_truthful"]
        hand = _seat_mask(self._h, seat)
        used = self._t[_T_USED]
        out = []
        for m in game.signal_ids:
            if used >> (seat * 8 + m) & 1:
                continue
            if truthful and not _signal_true(m, hand, self._d.trump):
                continue
            out.append(SIGNAL_BASE + m)
        return out

    def _why_not_signal(self, seat: int, meaning: int) -> str:
        game = self._g
        name = SIGNAL_MEANINGS[meaning]
        if not game.signals:
            return f"signal {name}: signals are off (option signals_enabled)"
        if meaning not in game.signal_ids:
            names = ", ".join(SIGNAL_MEANINGS[m] for m in game.signal_ids)
            return f"signal {name} is not in the {game.options['signal_system']} system: {names}"
        if self._m & _PHASE_MASK != PLAY:
            return f"signal {name}: signals are made only during trick play"
        if self._t[_T_TRICKS] + 1 < game.options["signals_from_trick"]:
            return f"signal {name}: the first trick is played in silence"
        if self._t[_T_USED] >> (seat * 8 + meaning) & 1:
            return f"signal {name}: seat {seat} already gave it this trick"
        return f"signal {name}: seat {seat}'s hand does not fit it (signals are truthful)"

    # -- information ---------------------------------------------------------------

    def _observation(self, seat: int | None) -> JSON:
        return _observe(self, seat)

    @property
    def events(self) -> list[JSON]:
        """The match log.  Signals carry an ``audience``; everything else is public."""
        return [_event_json(self._g, e) for e in _expand(self)]

    def events_since(self, earlier: State) -> list[JSON]:
        """What was logged after ``earlier`` (see :meth:`State.events_since`).  Plays are
        unfolded from trick nodes, so both logs are expanded from the deal ``earlier``
        was in, and the new events are the tail: the cost is a deal's, not the match's."""
        if type(earlier) is not type(self):
            return super().events_since(earlier)
        assert isinstance(earlier, BriscolaState)
        anchor = earlier._ev
        while anchor is not None and anchor[1] != _EV_DEAL:
            anchor = anchor[0]
        mine = None if anchor is None else log_since(self._ev, anchor)
        if mine is None:
            return super().events_since(earlier)
        theirs = log_since(earlier._ev, anchor)
        assert theirs is not None
        old = len(_expand(earlier, [anchor, *theirs]))
        return [_event_json(self._g, e) for e in _expand(self, [anchor, *mine])[old:]]

    def _recorded(self) -> Iterator[DealStart | tuple[int, str]]:
        """The deals and moves of the log, for :meth:`record`."""
        for e in _expand(self):
            kind = e[0]
            if kind == _EV_DEAL:
                yield e[1].started()
            elif kind == _EV_PLAY:
                yield e[1], _CODES[e[2]]
            elif kind == _EV_SIGNAL:
                yield e[1], "signal " + SIGNAL_MEANINGS[e[2]]
            elif kind == _EV_EXCHANGE:
                yield e[1], "exchange" if e[2] is not None else "decline"

    def _repr_parts(self) -> tuple[str, str]:
        d = self._d
        return f"deal {d.number} trump {_CODES[d.indicator]}", f"scores {list(d.scores)}"

    # Everything that decides the future of the match and what anyone may observe.
    _deal_key = attrgetter(
        "number", "dealer", "active", "draw", "indicator", "scores", "exchanged", "declined"
    )
    _state_key = attrgetter("_h", "_trick", "to_act", "_m", "_t")


_new_state = object.__new__
_new_deal = object.__new__


def _take_trick(
    d: _Deal, trick: tuple[int, ...], t: tuple[Any, ...], h: int
) -> tuple[int, tuple[Any, ...], int, bool]:
    """A full trick taken: the hands after the draw, the state's new ``_t`` (the winner
    leads), the trick's points and whether cards were drawn.  One piece of code for
    :meth:`BriscolaState.apply` and :meth:`BriscolaState.play_to_deal_end` (whose
    two-seat loop, :meth:`BriscolaState._heads_up_to_deal_end`, writes the two-seat case
    out: keep them alike; the whole-rollout tests compare both with ``apply``)."""
    # The highest trump wins, else the highest card of the led suit: one key table
    # per (trump, led suit) turns that into a max.
    keys = d.keys[trick[0] // 10]  # the led suit's row
    leader, sp, won, ntricks, holder, _used, sigs = t
    draw = d.draw
    if d.k == 2:
        first, second = trick
        if keys[first] > keys[second]:
            winner = leader
            loser = d.nxt[leader]
        else:
            loser = leader
            winner = d.nxt[leader]
        points = POINTS[first] + POINTS[second]
        won |= (1 << first | 1 << second) << winner * 40
        drew = sp < len(draw)
        if drew:
            h |= 1 << (winner * 40 + draw[sp]) | 1 << (loser * 40 + draw[sp + 1])
            sp += 2
            if sp == len(draw):
                holder = loser  # the face-up indicator is the last card drawn
    else:
        # One pass: the points, the cards and the first card of the highest key.
        first = trick[0]
        points = POINTS[first]
        tmask = 1 << first
        top = keys[first]
        best = 0
        for i in range(1, len(trick)):
            c = trick[i]
            points += POINTS[c]
            tmask |= 1 << c
            if keys[c] > top:
                top = keys[c]
                best = i
        active = d.active
        winner = active[(d.index[leader] + best) % d.k]
        won |= tmask << _OFF[winner]
        drew = sp < len(draw)
        if drew:
            seat = winner
            nxt = d.nxt
            for c in draw[sp : sp + d.k]:
                h |= 1 << (_OFF[seat] + c)
                seat = nxt[seat]
            sp += d.k
            if sp == len(draw):
                # The face-up indicator is the last card drawn: the seat before the winner.
                holder = active[(d.index[winner] - 1) % d.k]
    return h, (winner, sp, won, ntricks + 1, holder, 0, sigs), points, drew


def _end_deal(state: BriscolaState) -> BriscolaState:
    """Score the finished deal in this fresh state, then end the match or deal again."""
    game = state._g
    d = state._d
    won = state._t[_T_WON]
    seat_pts = [_mask_points(won >> off & _FULL) for off in _OFF[: game.players]]
    pts = [sum(seat_pts[0::2]), sum(seat_pts[1::2])] if game.teams else list(seat_pts)
    awarded = [0] * game.sides
    if d.playoff:
        # Two-handed play-off among tied players: 61 wins the deal and the match.
        awarded = [1 if p >= 61 else 0 for p in pts]
    elif game.sides == 2:
        awarded = [1 if p >= 61 else 0 for p in pts]
    else:
        over40 = [s for s in range(3) if pts[s] > 40]
        if 120 in pts:
            awarded[pts.index(120)] = 3
        elif len(over40) == 2:
            for s in over40:
                awarded[s] = 1
        elif len(over40) == 1:
            awarded[over40[0]] = 2
    outcome = "win" if any(awarded) else "draw"
    scores = tuple(a + b for a, b in zip(d.scores, awarded, strict=True))
    deal_winner: int | None = None
    if game.sides == 2 or d.playoff:
        deal_winner = awarded.index(1) if 1 in awarded else None
    detail = {
        "seat_points": seat_pts,
        "deal_wins": awarded,
        "outcome": outcome,
        "winner": deal_winner,
        "tricks": state._t[_T_TRICKS],
        "indicator_holder": state._t[_T_HOLDER],
        "scores": list(scores),
    }
    ev = (state._ev, _EV_HAND_END, pts, detail)
    winner = game.match_winner(scores)
    end = None if winner is None else (_EV_MATCH_END, winner, scores)
    done = state._deal_ended(ev, end, scores=scores)
    if done is not None:
        return done
    active = tuple(range(game.players))
    playoff = False
    if d.playoff:
        active, playoff = d.active, True
    elif game.sides == 3:
        top = max(scores)
        tied = tuple(s for s in range(3) if scores[s] == top)
        if (
            top >= game.target
            and len(tied) == 2
            and game.options["three_player_tie_mode"] == "drop_out"
        ):
            active, playoff = tied, True
    dealer = d.dealer
    if outcome == "win" or game.options["dealer_after_draw"] == "rotate" or dealer not in active:
        dealer = (dealer + 1) % game.players
        while dealer not in active:
            dealer = (dealer + 1) % game.players
    state._ev = ev
    nd = _Deal.begin(d.number + 1, dealer, scores, d.seed, d.packs)
    nd.active = active
    nd.playoff = playoff
    return _start_deal(game, nd, state)


def _signal_true(meaning: int, hand: int, trump: int) -> bool:
    trumps = hand & DECK.suit_masks[trump]
    base = trump * 10
    if meaning <= 4:
        rank = ("1", "3", "K", "Q", "J")[meaning]
        return bool(trumps >> (base + DECK.ranks.index(rank)) & 1)
    if meaning == 5:
        return trumps == 0
    if meaning == 6:
        low = sum(1 << (base + DECK.ranks.index(r)) for r in "24567")
        return bool(trumps & low)
    carico = 0
    for s in range(4):
        if s != trump:
            carico |= 1 << (s * 10) | 1 << (s * 10 + 2)
    return bool(hand & carico)


_POINT_CHUNKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(POINTS[s * 10 + i] for i in range(10) if m >> i & 1) for m in range(1024))
    for s in range(4)
)


def _mask_points(mask: int) -> int:
    p = _POINT_CHUNKS
    return p[0][mask & 1023] + p[1][mask >> 10 & 1023] + p[2][mask >> 20 & 1023] + p[3][mask >> 30]


_BITS: dict[int, tuple[int, ...]] = {}


def _bits(mask: int) -> tuple[int, ...]:
    """The card ids of a hand mask, cached: hands are few (at most C(40, 3) of 3 cards)."""
    acts = tuple(iter_bits(mask))
    if len(_BITS) < 100_000:
        _BITS[mask] = acts
    return acts


def _bits_list(mask: int) -> list[int]:
    acts = _BITS.get(mask)
    return list(acts if acts is not None else _bits(mask))


def _deal_tricks(state: BriscolaState) -> list[tuple[Any, ...]]:
    """The trick nodes of the deal in progress, oldest first."""
    out = []
    ev = state._ev
    while ev is not None and ev[1] != _EV_DEAL:
        if ev[1] == _EV_TRICK:
            out.append(ev)
        ev = ev[0]
    out.reverse()
    return out


def _expand(state: BriscolaState, nodes: list[Any] | None = None) -> list[tuple[Any, ...]]:
    """The log as items ``(kind, *payload)``, with every card play unfolded in order;
    ``nodes``: only the log from a deal node on (the whole log by default)."""
    items: list[tuple[Any, ...]] = []
    pending: list[tuple[Any, ...]] = []  # signals made during the trick being unfolded
    d: _Deal | None = None

    def unfold(leader: int, cards: tuple[int, ...]) -> None:
        assert d is not None
        start = d.index[leader]
        for i, card in enumerate(cards):
            items.extend(sig[1:6] for sig in pending if sig[6] == i)
            items.append((_EV_PLAY, d.active[(start + i) % d.k], card))
        items.extend(sig[1:6] for sig in pending if sig[6] >= len(cards))
        pending.clear()

    for node in state._nodes() if nodes is None else nodes:
        kind = node[1]
        if kind == _EV_DEAL:
            d = node[2]
            items.append((kind, d))
        elif kind == _EV_SIGNAL:
            pending.append(node)
        elif kind == _EV_TRICK:
            _prev, _kind, number, leader, cards, winner, points, drew, holder = node
            unfold(leader, cards)
            items.append((_EV_TRICK, number, leader, cards, winner, points))
            if drew:
                items.append((_EV_DRAW, winner, holder))
        else:
            items.append(node[1:])
    if d is not None:
        unfold(state._t[_T_LEADER], state._trick)
    return items


def _event_json(game: BriscolaGame, e: tuple[Any, ...]) -> JSON:
    kind = e[0]
    if kind == _EV_PLAY:
        return {"type": "play", "seat": e[1], "card": _CODES[e[2]]}
    if kind == _EV_TRICK:
        return {
            "type": "trick",
            "trick": e[1],
            "leader": e[2],
            "cards": [_CODES[c] for c in e[3]],
            "winner": e[4],
            "points": e[5],
        }
    if kind == _EV_DRAW:
        return {"type": "draw", "first": e[1], "indicator_to": e[2]}
    if kind == _EV_DEAL:
        d: _Deal = e[1]
        return d.event(
            seats=list(d.active),
            trump=_CODES[d.indicator],
            removed=DECK.codes(d.removed),
            scores=list(d.scores),
        )
    if kind == _EV_SIGNAL:
        system = game.options["signal_system"]
        name = SIGNAL_MEANINGS[e[2]]
        return {
            "type": "signal",
            "seat": e[1],
            "meaning": name,
            "gesture": SIGNAL_GESTURES[system].get(name, name),
            "trick": e[4],
            "audience": list(e[3]),
        }
    if kind == _EV_EXCHANGE:
        if e[2] is None:
            return {"type": "decline", "seat": e[1]}
        return {"type": "exchange", "seat": e[1], "card": _CODES[e[2]], "took": _CODES[e[3]]}
    if kind == _EV_HAND_END:
        return {"type": "hand_end", "points": list(e[1]), "detail": fresh(e[2])}
    return {"type": "match_end", "winner": e[1], "scores": list(e[2])}


def _known_cards(state: BriscolaState, seat: int | None) -> dict[int, int]:
    """Cards in other seats' hands that ``seat`` legitimately knows, as masks per seat."""
    game = state._g
    d = state._d
    hands = _unpack(state._h, game.players)
    known: dict[int, int] = {}

    def add(owner: int, mask: int) -> None:
        mask &= hands[owner]
        if mask and owner != seat:
            known[owner] = known.get(owner, 0) | mask

    holder = state._t[_T_HOLDER]
    if holder is not None:
        add(holder, 1 << d.indicator)
    if state._m & _PHASE_MASK == EXCHANGE_PHASE and state.to_act is not None:
        # Being asked whether to exchange tells everyone who holds the 2 of trumps.
        add(state.to_act, 1 << _TWOS[d.trump])
    if d.exchanged is not None:
        add(d.exchanged[0], 1 << d.exchanged[2])
    if d.declined is not None:
        # Everyone saw the seat asked about the 2 of trumps keep it.
        add(d.declined, 1 << _TWOS[d.trump])
    if game.open_hands:
        for owner in d.active:
            add(owner, hands[owner])
    elif seat is not None and game.options["partners_show_hands_before_first_trick"]:
        for owner in game.partners[seat]:
            add(owner, _seat_mask(d.start_hands, owner))
    return known


def _observe(state: BriscolaState, seat: int | None) -> JSON:
    game = state._g
    d = state._d
    codes = _CODES
    known = _known_cards(state, seat)
    leader, sp, _won, _ntricks, holder, _used, sigs = state._t
    stock_size = len(d.draw) - sp
    stock_top = None
    if game.scoperta and stock_size >= 1:
        stock_top = codes[d.draw[sp]]
    trick = []
    pos = d.index[leader]
    for c in state._trick:
        trick.append({"seat": d.active[pos % d.k], "card": codes[c]})
        pos += 1
    signals = [
        {"trick": t, "seat": s, "meaning": SIGNAL_MEANINGS[m]}
        for t, s, m in sigs
        if game.options["signal_visibility"] == "public"
        or (seat is not None and game.side_of[s] == game.side_of[seat])
    ]
    legal = state.legal_actions(seat) if seat is not None else []
    exchanged: JSON | None = None
    if d.exchanged is not None:
        ex_seat, gave, took = d.exchanged
        exchanged = {"seat": ex_seat, "declined": False, "gave": codes[gave], "took": codes[took]}
    elif d.declined is not None:
        exchanged = {"seat": d.declined, "declined": True}
    return {
        "game": game.name,
        "players": game.players,
        "seat": seat,
        "side": game.side_of[seat] if seat is not None else None,
        "hand": DECK.codes(_seat_mask(state._h, seat)) if seat is not None else [],
        "to_act": state.to_act,
        "legal_actions": [game.action_to_string(a) for a in legal],
        "phase": _PHASE_NAMES[state._m & _PHASE_MASK],
        "scores": state.scores,
        "games": state.games,
        "target": game.target,
        "deal": d.number,
        "dealer": d.dealer,
        "seats": list(d.active),
        "trump": codes[d.indicator],
        "trump_suit": SUITS[d.trump],
        "indicator_holder": holder,
        "stock_size": stock_size,
        "stock_top": stock_top,
        "removed": DECK.codes(d.removed),
        "hand_sizes": [_seat_mask(state._h, s).bit_count() for s in range(game.players)],
        "known_cards": {str(s): DECK.codes(m) for s, m in sorted(known.items())},
        "exchange": exchanged,
        "leader": leader,
        "trick": trick,
        "tricks": [
            {
                "leader": ld,
                "cards": [codes[c] for c in cards],
                "winner": w,
                "points": p,
            }
            for _prev, _kind, _no, ld, cards, w, p, _drew, _holder in _deal_tricks(state)
        ],
        "deal_points": state.deal_points(),
        "signals": signals,
        "hand_over": state.hand_over,
        "match_over": state.match_over,
        "winner": state.winner,
    }


def _determinize(game: BriscolaGame, obs: Mapping[str, Any], rng: Rng) -> BriscolaState:
    """Rebuild a full state from an observation, dealing the unseen cards at random."""
    return _sampler(game, obs)(rng)


def _sampler(game: BriscolaGame, obs: Mapping[str, Any]) -> Callable[[Rng], BriscolaState]:
    """Read the observation once; the returned function deals its unseen cards at random
    (a search samples thousands of times from one observation)."""
    try:
        seat = game.observer(obs)
        n = game.players
        parse = DECK.parse
        active = tuple(obs["seats"])
        d = _Deal.begin(obs["deal"], obs["dealer"], tuple(obs["scores"]), 0, ())
        d.active = active
        d.k = k = len(active)
        index = [-1] * n
        for i, s in enumerate(active):
            index[s] = i
        d.index = tuple(index)
        d.nxt = tuple(active[(index[s] + 1) % k] if index[s] >= 0 else -1 for s in range(n))
        d.removed = 0
        for c in obs["removed"]:
            d.removed |= 1 << parse(c)
        d.indicator = parse(obs["trump"])
        d.trump = SUIT[d.indicator]
        d.keys = _KEYS[d.trump]
        d.playoff = n == 3 and k == 2
        ex = obs.get("exchange")
        d.exchanged = None
        d.declined = None
        if ex and ex["declined"]:
            d.declined = ex["seat"]
        elif ex:
            d.exchanged = (ex["seat"], parse(ex["gave"]), parse(ex["took"]))
        done = tuple(
            (
                t["leader"],
                tuple(parse(c) for c in t["cards"]),
                t["winner"],
                t["points"],
            )
            for t in obs["tricks"]
        )
        won = [0] * n
        seen = d.removed
        for _ld, cards, w, _p in done:
            for c in cards:
                won[w] |= 1 << c
                seen |= 1 << c
        trick = tuple(parse(t["card"]) for t in obs["trick"])
        for c in trick:
            seen |= 1 << c
        hands = [0] * n
        if seat is not None:
            for c in obs["hand"]:
                hands[seat] |= 1 << parse(c)
        for s, cards in obs["known_cards"].items():
            for c in cards:
                hands[int(s)] |= 1 << parse(c)
        # Only what this seat was shown counts as "shown": a partner's other cards stay unknown.
        shown = tuple(hands)
        for h in hands:
            seen |= h
        stock_size = obs["stock_size"]
        holder = obs["indicator_holder"]
        top = parse(obs["stock_top"]) if obs.get("stock_top") else None
        fixed_stock_bits = 0
        if stock_size:
            fixed_stock_bits |= 1 << d.indicator
        if top is not None:
            fixed_stock_bits |= 1 << top
        seen |= fixed_stock_bits
        unseen_cards = list(iter_bits(game.pack_mask(active) & ~seen))
        sizes = obs["hand_sizes"]
        needs = [sizes[s] - hands[s].bit_count() for s in range(n)]
        if min(needs) < 0:
            raise RulesError("observation lists more known cards than a hand holds")
        middle_size = 0
        lead_top = top is not None and top != d.indicator
        if stock_size:
            middle_size = stock_size - 1 - (1 if lead_top else 0)
        if sum(needs) + middle_size != len(unseen_cards):
            raise RulesError("observation is inconsistent: cards left over after dealing")
        d.deck = ()
        d.draw = ()
        d.start_hands = 0
        for s, mask in enumerate(shown):
            d.start_hands |= mask << _OFF[s]
        sigs = tuple(
            (g["trick"], g["seat"], SIGNAL_MEANINGS.index(g["meaning"])) for g in obs["signals"]
        )
        used = 0
        for t, s, m in sigs:
            if t == len(done) + 1:
                used |= 1 << (s * 8 + m)
        known_hands = 0
        packed_won = 0
        for s in range(n):
            known_hands |= hands[s] << _OFF[s]
            packed_won |= won[s] << _OFF[s]
        fills = [(_OFF[s], needs[s]) for s in range(n) if needs[s]]
        mode = _PHASE_NAMES.index(obs["phase"])
        if game.signals:
            mode |= _SIGNALS
        if obs["hand_over"]:
            mode |= _HAND_OVER
        to_act = obs["to_act"]
        progress = (obs["leader"], 0, packed_won, len(done), holder, used, sigs)
        indicator = d.indicator
    except (KeyError, TypeError, IndexError, InvalidActionError) as err:
        raise RulesError(f"not a Briscola observation this game can determinize: {err!r}") from None

    def sample(rng: Rng) -> BriscolaState:
        unseen = unseen_cards[:]
        rng.shuffle(unseen)
        packed = known_hands
        for off, need in fills:
            for _ in range(need):
                packed |= 1 << (off + unseen.pop())
        nd = d.copy()
        nd.seed = rng.next64()
        if stock_size:
            middle = unseen  # what is left after the hands, in a random order
            if lead_top:
                middle.insert(0, top)  # type: ignore[arg-type]
            middle.append(indicator)
            nd.draw = tuple(middle)
        else:
            nd.draw = ()
        # The log starts at the deal (which names its data) and holds the tricks seen.
        nd_ev: _ListEv = (None, _EV_DEAL, nd)
        for no, (ld, cards, w, p) in enumerate(done, 1):
            nd_ev = (nd_ev, _EV_TRICK, no, ld, cards, w, p, False, None)
        state = BriscolaState._made(game, nd, packed, mode, to_act, nd_ev)
        state._trick = trick
        state._t = progress
        return state

    return sample
