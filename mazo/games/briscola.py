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
* ``hand_over`` is true on the state whose action ended a deal; the next deal is already
  dealt in it unless the match is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mazo.core.cards import LATIN_40, SUITS, Card, iter_bits
from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import Game, GameInfo, Option, State, to_action_id
from mazo.core.rng import Rng, derive_seed

__all__ = [
    "OPTIONS",
    "SIGNAL_MEANINGS",
    "BriscolaGame",
    "BriscolaState",
]

JSON = dict[str, Any]
DECK = LATIN_40
NUM_CARDS = 40

# Tables indexed by card id: no branching on the hot path.
_RANK_POINTS = {"1": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
_RANK_STRENGTH = {r: 10 - i for i, r in enumerate("1 3 K Q J 7 6 5 4 2".split())}
POINTS: tuple[int, ...] = tuple(_RANK_POINTS.get(DECK.rank(c), 0) for c in range(NUM_CARDS))
STRENGTH: tuple[int, ...] = tuple(_RANK_STRENGTH[DECK.rank(c)] for c in range(NUM_CARDS))
SUIT: tuple[int, ...] = tuple(c // 10 for c in range(NUM_CARDS))
_CODES: tuple[str, ...] = tuple(DECK.format(c) for c in range(NUM_CARDS))
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

PLAY, EXCHANGE_PHASE, OVER = 0, 1, 2
_PHASE_NAMES = ("play", "exchange", "over")


def _is_seat_or_none(value: Any) -> bool:
    return value is None or (type(value) is int and 0 <= value < 6)


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
    Option(
        "first_dealer",
        None,
        None,
        "the first dealer's seat; default: drawn from the match seed",
        check=_is_seat_or_none,
        describe="None or a seat number",
    ),
)


class _Deal:
    """Everything fixed for one deal, shared by all of its states."""

    __slots__ = (
        "active",
        "deck",
        "dealer",
        "draw",
        "exchanged",
        "index",
        "indicator",
        "k",
        "nxt",
        "number",
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
    removed: int  # mask of cards out of the pack
    scores: tuple[int, ...]  # deal wins per side before this deal
    seed: int
    packs: tuple[tuple[int, ...], ...]  # fixed packs for later deals (replays)
    playoff: bool
    exchanged: tuple[int, int, int] | None  # (seat, gave the 2, took the old indicator)
    start_hands: tuple[int, ...]

    def copy(self) -> _Deal:
        new = _Deal.__new__(_Deal)
        for name in _Deal.__slots__:
            setattr(new, name, getattr(self, name))
        return new


class BriscolaGame(Game):
    """Briscola rules, configured by player count and options."""

    name = "briscola"
    rules_version = 1
    player_counts = (2, 3, 4, 6)
    default_players = 4
    option_specs = OPTIONS

    def __init__(self, players: int | None = None, **options: Any) -> None:
        super().__init__(players, **options)
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
        if opts["first_dealer"] is not None and opts["first_dealer"] >= n:
            raise RulesError(f"first_dealer must be a seat 0..{n - 1}")
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
        self.info = GameInfo(
            name=self.name,
            players=n,
            sides=self.sides,
            teams=self.teams,
            num_actions=NUM_ACTIONS,
            deck=DECK,
            side_of=self.side_of,
        )

    # -- notation ----------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        """``7O`` for a card, ``signal trump_ace``, ``exchange`` or ``decline``."""
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise InvalidActionError(
                f"{action!r} is not a Briscola action id; ids run 0..{NUM_ACTIONS - 1}"
            )
        if action < NUM_CARDS:
            return _CODES[action]
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
        if len(words) == 1 and (words[0].isdigit() and int(words[0]) < NUM_ACTIONS):
            return int(words[0])
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

    def _new_match(
        self,
        seed: int,
        packs: tuple[tuple[int, ...], ...],
        dealer: int | None,
        setup: dict[str, Any],
    ) -> BriscolaState:
        n = self.players
        scores = self._check_setup(setup)
        if dealer is None:
            dealer = self.options["first_dealer"]
        if dealer is None:
            dealer = Rng(derive_seed(seed, "first dealer")).randbelow(n)
        active = tuple(range(n))
        if packs:
            self._check_pack(packs[0], active)
        return _start_deal(self, 1, dealer, active, scores, seed, packs, False, None)

    def _check_setup(self, setup: dict[str, Any]) -> tuple[int, ...]:
        unknown = sorted(set(setup) - {"scores", "games"})
        if unknown:
            raise RulesError(
                f"briscola setup has no key {', '.join(unknown)}; keys are: scores, games"
            )
        sides = self.sides
        scores = setup.get("scores", [0] * sides)
        games = setup.get("games", [0] * sides)
        for key, value in (("scores", scores), ("games", games)):
            if (
                not isinstance(value, list | tuple)
                or len(value) != sides
                or any(type(v) is not int or v < 0 for v in value)
            ):
                raise RulesError(
                    f"setup {key} must be {sides} non-negative ints (one per side), "
                    f"not {value!r}"
                )
        if any(games):
            raise RulesError("Briscola has no level above deal wins: setup games must be zeros")
        if _match_decided(self, tuple(scores)) is not None:
            raise RulesError(
                f"setup scores {list(scores)} already decide the match "
                f"(target {self.target} deal wins)"
            )
        return tuple(scores)

    def _check_pack(self, pack: tuple[int, ...], active: tuple[int, ...]) -> None:
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


def _match_decided(game: BriscolaGame, scores: tuple[int, ...]) -> int | None:
    """The winning side if these deal wins end the match (before play-off rules)."""
    top = max(scores)
    if top >= game.target and scores.count(top) == 1:
        return scores.index(top)
    return None


def _start_deal(
    game: BriscolaGame,
    number: int,
    dealer: int,
    active: tuple[int, ...],
    scores: tuple[int, ...],
    seed: int,
    packs: tuple[tuple[int, ...], ...],
    playoff: bool,
    prev: BriscolaState | None,
) -> BriscolaState:
    n = game.players
    k = len(active)
    mask = game.pack_mask(active)
    if packs:
        pack = packs[0]
        game._check_pack(pack, active)
        packs = packs[1:]
    else:
        pack = tuple(Rng(derive_seed(seed, "deal", number)).shuffled(iter_bits(mask)))
    d = _Deal()
    d.number = number
    d.dealer = dealer
    d.active = active
    d.k = k
    index = [-1] * n
    for i, seat in enumerate(active):
        index[seat] = i
    d.index = tuple(index)
    d.nxt = tuple(active[(index[s] + 1) % k] if index[s] >= 0 else -1 for s in range(n))
    d.deck = pack
    d.removed = DECK.full_mask & ~mask
    d.scores = scores
    d.seed = seed
    d.packs = packs
    d.playoff = playoff
    d.exchanged = None

    hands = [0] * n
    first = index[dealer]
    if game.options["deal_packet_size"] == 3:
        for j in range(k):
            seat = active[(first + 1 + j) % k]
            for c in pack[3 * j : 3 * j + 3]:
                hands[seat] |= 1 << c
    else:
        for i in range(3 * k):
            hands[active[(first + 1 + i) % k]] |= 1 << pack[i]
    indicator = pack[3 * k]
    stock = list(pack[3 * k + 1 :])
    if game.options["redraw_indicator_ace_three"]:
        for _ in range(len(stock)):
            if STRENGTH[indicator] < 9 or not stock:
                break
            old = indicator
            indicator = stock.pop(0)
            stock.insert(len(stock) // 2, old)
    d.indicator = indicator
    d.trump = SUIT[indicator]
    d.draw = (*stock, indicator)
    d.start_hands = tuple(hands)

    leader = d.nxt[dealer]
    phase, to_act = PLAY, leader
    if game.options["trump_two_exchange"]:
        two = _TWOS[d.trump]
        for seat in active:
            if hands[seat] >> two & 1:
                phase, to_act = EXCHANGE_PHASE, seat
    ev = prev._ev if prev is not None else None
    state = BriscolaState.__new__(BriscolaState)
    state._g = game
    state._d = d
    state._hands = tuple(hands)
    state._trick = ()
    state._leader = leader
    state._to_act = to_act
    state._sp = 0
    state._won = (0,) * n
    state._done = ()
    state._holder = None
    state._phase = phase
    state._sigs = ()
    state._sigused = 0
    state._ev = (ev, (_EV_DEAL, d))
    state._hand_over = prev is not None
    return state


_EV_DEAL, _EV_PLAY, _EV_TRICK, _EV_DRAW, _EV_SIGNAL, _EV_EXCHANGE = range(6)
_EV_HAND_END, _EV_MATCH_END = 6, 7

_ListEv = tuple[Any, tuple[Any, ...]] | None


class BriscolaState(State):
    """An immutable Briscola match position."""

    __slots__ = (
        "_d",
        "_done",
        "_ev",
        "_hand_over",
        "_hands",
        "_holder",
        "_leader",
        "_phase",
        "_sigs",
        "_sigused",
        "_sp",
        "_to_act",
        "_trick",
        "_won",
        "_g",
    )

    _g: BriscolaGame
    _d: _Deal
    _hands: tuple[int, ...]  # card mask per seat
    _trick: tuple[int, ...]  # cards of the current trick, leader first
    _leader: int
    _to_act: int | None
    _sp: int  # next index into _d.draw
    _won: tuple[int, ...]  # mask of cards won per seat this deal
    _done: tuple[tuple[int, tuple[int, ...], int, int], ...]  # (leader, cards, winner, pts)
    _holder: int | None  # seat that drew the indicator
    _phase: int
    _sigs: tuple[tuple[int, int, int], ...]  # (trick number, seat, meaning) this deal
    _sigused: int  # bit seat*8+meaning for signals given in the current trick
    _ev: _ListEv
    _hand_over: bool

    def _copy(self) -> BriscolaState:
        new = _new_state(BriscolaState)
        new._g = self._g
        new._d = self._d
        new._hands = self._hands
        new._trick = self._trick
        new._leader = self._leader
        new._to_act = self._to_act
        new._sp = self._sp
        new._won = self._won
        new._done = self._done
        new._holder = self._holder
        new._phase = self._phase
        new._sigs = self._sigs
        new._sigused = self._sigused
        new._ev = self._ev
        new._hand_over = False
        return new

    @property
    def game(self) -> BriscolaGame:
        """The rules this match is played under."""
        return self._g

    # -- the contract ------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """The seat the game waits for, or None when the match is over."""
        return self._to_act

    @property
    def hand_over(self) -> bool:
        """True on the state whose last action ended a deal (and when the match is over)."""
        return self._hand_over

    @property
    def match_over(self) -> bool:
        """True once a side has won the match."""
        return self._phase == OVER

    @property
    def scores(self) -> list[int]:
        """Deal wins per side."""
        return list(self._d.scores)

    @property
    def games(self) -> list[int]:
        """Briscola has no level above deal wins: zeros, one per side."""
        return [0] * self.game.sides

    @property
    def winner(self) -> int | None:
        """The side that won the match, or None while it runs."""
        if self._phase != OVER:
            return None
        return _match_decided(self.game, self._d.scores)

    @property
    def deal_number(self) -> int:
        """1-based number of the deal in progress (drawn deals count)."""
        return self._d.number

    @property
    def dealer(self) -> int:
        """The dealer of the deal in progress."""
        return self._d.dealer

    @property
    def trump_card(self) -> str:
        """The face-up trump indicator of this deal."""
        return _CODES[self._d.indicator]

    def hand(self, seat: int) -> list[str]:
        """The cards in a seat's hand (omniscient: for tests and tools, not for clients)."""
        return DECK.codes(self._hands[seat])

    def deal_points(self) -> list[int]:
        """Card points taken so far this deal, per side."""
        pts = [0] * self.game.sides
        side_of = self.game.side_of
        for seat, mask in enumerate(self._won):
            pts[side_of[seat]] += _mask_points(mask)
        return pts

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Sorted action ids for ``seat`` (default: the seat to act)."""
        to_act = self._to_act
        if seat is None:
            seat = to_act
            if seat is None:
                return []
        if self._phase == PLAY:
            if seat == to_act:
                acts = _bits_list(self._hands[seat])
            else:
                acts = []
            if self.game.signals:
                acts.extend(self._legal_signals(seat))
            return acts
        if self._phase == EXCHANGE_PHASE and seat == to_act:
            return [EXCHANGE, DECLINE]
        return []

    def apply(self, action: int | str, seat: int | None = None) -> BriscolaState:
        """A new state after ``action`` by ``seat`` (default ``to_act``); old one untouched."""
        a = action if type(action) is int else to_action_id(self.game, action)
        to_act = self._to_act
        if (
            0 <= a < NUM_CARDS
            and (seat is None or seat == to_act)
            and self._phase == PLAY
            and to_act is not None
            and self._hands[to_act] >> a & 1
        ):
            return self._play(to_act, a)
        return self._apply_other(a, seat)

    def apply_unchecked(self, action: int) -> BriscolaState:
        """Search fast path: ``action`` must come from ``legal_actions()`` of ``to_act``."""
        if action < NUM_CARDS:
            to_act = self._to_act
            assert to_act is not None
            return self._play(to_act, action)
        return self._apply_other(action, None)

    # -- transitions ---------------------------------------------------------------

    def _apply_other(self, a: int, seat: int | None) -> BriscolaState:
        game = self.game
        if not 0 <= a < NUM_ACTIONS:
            raise InvalidActionError(
                f"{a} is not a Briscola action id; ids run 0..{NUM_ACTIONS - 1}"
            )
        text = game.action_to_string(a)
        to_act = self._to_act
        if self._phase == OVER or to_act is None:
            raise IllegalActionError(f"{text}: the match is over; no action is allowed")
        if seat is not None and (type(seat) is not int or not 0 <= seat < game.players):
            raise IllegalActionError(f"seat must be 0..{game.players - 1}, not {seat!r}")
        actor = to_act if seat is None else seat
        if SIGNAL_BASE <= a < EXCHANGE:
            if a not in self._legal_signals(actor):
                raise IllegalActionError(self._why_not_signal(actor, a - SIGNAL_BASE))
            return self._signal(actor, a - SIGNAL_BASE)
        if actor != to_act:
            raise IllegalActionError(
                f"{text}: it is seat {to_act}'s turn, not seat {actor}'s "
                "(only signals may be made out of turn)"
            )
        allowed = ", ".join(game.action_to_string(x) for x in self.legal_actions(actor))
        if self._phase == EXCHANGE_PHASE:
            if a in (EXCHANGE, DECLINE):
                return self._exchange(actor, a == EXCHANGE)
            raise IllegalActionError(
                f"{text}: seat {actor} holds the 2 of trumps and must first choose "
                f"exchange or decline"
            )
        if a < NUM_CARDS:
            raise IllegalActionError(
                f"{text} is not in seat {actor}'s hand; playable now: {allowed}"
            )
        raise IllegalActionError(f"{text} is not allowed now; allowed: {allowed}")

    def _play(self, seat: int, card: int) -> BriscolaState:
        d = self._d
        hands = list(self._hands)
        hands[seat] ^= 1 << card
        trick = (*self._trick, card)
        new = self._copy()
        new._hands = tuple(hands)
        ev = (self._ev, (_EV_PLAY, seat, card))
        if len(trick) < d.k:
            new._trick = trick
            new._to_act = d.nxt[seat]
            new._ev = ev
            return new

        # The trick is complete: the highest trump wins, else the highest of the led suit.
        trump = d.trump
        best = trick[0]
        best_suit = SUIT[best]
        best_pos = 0
        for pos in range(1, d.k):
            c = trick[pos]
            s = SUIT[c]
            if s == best_suit:
                if STRENGTH[c] > STRENGTH[best]:
                    best, best_pos = c, pos
            elif s == trump:
                best, best_suit, best_pos = c, s, pos
        leader = self._leader
        active = d.active
        winner = active[(d.index[leader] + best_pos) % d.k]
        points = 0
        tmask = 0
        for c in trick:
            points += POINTS[c]
            tmask |= 1 << c
        won = list(self._won)
        won[winner] |= tmask
        done = (*self._done, (leader, trick, winner, points))
        ev = (ev, (_EV_TRICK, len(done), leader, trick, winner, points))
        new._won = tuple(won)
        new._done = done
        new._trick = ()
        new._leader = winner
        new._to_act = winner
        new._sigused = 0

        sp = self._sp
        draw = d.draw
        if sp < len(draw):
            seat_i = winner
            nxt = d.nxt
            for c in draw[sp : sp + d.k]:
                hands[seat_i] |= 1 << c
                seat_i = nxt[seat_i]
            sp += d.k
            new._hands = tuple(hands)
            new._sp = sp
            holder = None
            if sp == len(draw):
                # The last card drawn is the face-up indicator: the seat before the winner.
                holder = active[(d.index[winner] - 1) % d.k]
                new._holder = holder
            ev = (ev, (_EV_DRAW, winner, holder))
        new._ev = ev
        if hands[winner]:
            return new
        return _end_deal(new)

    def _signal(self, seat: int, meaning: int) -> BriscolaState:
        game = self.game
        trick_no = len(self._done) + 1
        if game.options["signal_visibility"] == "team":
            audience = tuple(sorted((seat, *game.partners[seat])))
        else:
            audience = tuple(range(game.players))
        new = self._copy()
        new._hand_over = self._hand_over
        new._sigs = (*self._sigs, (trick_no, seat, meaning))
        new._sigused = self._sigused | 1 << (seat * 8 + meaning)
        new._ev = (self._ev, (_EV_SIGNAL, seat, meaning, audience, trick_no))
        return new

    def _exchange(self, seat: int, swap: bool) -> BriscolaState:
        d = self._d
        new = self._copy()
        new._hand_over = self._hand_over
        if swap:
            two = _TWOS[d.trump]
            old = d.indicator
            nd = d.copy()
            nd.indicator = two
            nd.draw = (*d.draw[:-1], two)
            nd.exchanged = (seat, two, old)
            hands = list(self._hands)
            hands[seat] = hands[seat] & ~(1 << two) | 1 << old
            nd.start_hands = tuple(hands)
            new._d = nd
            new._hands = tuple(hands)
            new._ev = (self._ev, (_EV_EXCHANGE, seat, two, old))
        else:
            new._ev = (self._ev, (_EV_EXCHANGE, seat, None, None))
        new._phase = PLAY
        new._to_act = self._leader
        return new

    # -- signals -------------------------------------------------------------------

    def _legal_signals(self, seat: int) -> list[int]:
        game = self.game
        if (
            not game.signals
            or self._phase != PLAY
            or seat is None
            or not 0 <= seat < game.players
            or self._d.index[seat] < 0
            or len(self._done) + 1 < game.options["signals_from_trick"]
        ):
            return []
        truthful = game.options["signals_truthful"]
        hand = self._hands[seat]
        out = []
        for m in game.signal_ids:
            if self._sigused >> (seat * 8 + m) & 1:
                continue
            if truthful and not _signal_true(m, hand, self._d.trump):
                continue
            out.append(SIGNAL_BASE + m)
        return out

    def _why_not_signal(self, seat: int, meaning: int) -> str:
        game = self.game
        name = SIGNAL_MEANINGS[meaning]
        if not game.signals:
            return f"signal {name}: signals are off (option signals_enabled)"
        if meaning not in game.signal_ids:
            names = ", ".join(SIGNAL_MEANINGS[m] for m in game.signal_ids)
            return f"signal {name} is not in the {game.options['signal_system']} system: {names}"
        if self._phase != PLAY:
            return f"signal {name}: signals are made only during trick play"
        if len(self._done) + 1 < game.options["signals_from_trick"]:
            return f"signal {name}: the first trick is played in silence"
        if self._sigused >> (seat * 8 + meaning) & 1:
            return f"signal {name}: seat {seat} already gave it this trick"
        return f"signal {name}: seat {seat}'s hand does not fit it (signals are truthful)"

    # -- information ---------------------------------------------------------------

    def observation(self, seat: int | None) -> JSON:
        """What ``seat`` may know (``None``: a spectator), JSON-ready."""
        return _observe(self, seat)

    @property
    def events(self) -> list[JSON]:
        """The match log.  Signals carry an ``audience``; everything else is public."""
        return [_event_json(self.game, e) for e in _chain(self._ev)]

    def events_for(self, seat: int | None) -> list[JSON]:
        """The log as ``seat`` saw it: private events of other audiences left out."""
        out = []
        for e in self.events:
            audience = e.get("audience")
            if audience is None or (seat is not None and seat in audience):
                out.append(e)
        return out

    def record(self) -> JSON:
        """A JSON-ready record of the match so far (see :mod:`mazo.record`)."""
        game = self.game
        deals = []
        actions: list[JSON] = []
        first: _Deal | None = None
        for e in _chain(self._ev):
            kind = e[0]
            if kind == _EV_DEAL:
                d = e[1]
                first = first or d
                deals.append({"deal": d.number, "dealer": d.dealer, "deck": [_CODES[c] for c in d.deck]})
            elif kind == _EV_PLAY:
                actions.append({"seat": e[1], "action": _CODES[e[2]]})
            elif kind == _EV_SIGNAL:
                actions.append({"seat": e[1], "action": "signal " + SIGNAL_MEANINGS[e[2]]})
            elif kind == _EV_EXCHANGE:
                actions.append({"seat": e[1], "action": "exchange" if e[2] is not None else "decline"})
        setup = {"scores": list(first.scores)} if first is not None and any(first.scores) else {}
        return {
            "format": "mazo-record",
            "version": 1,
            "game": game.name,
            "rules_version": game.rules_version,
            "players": game.players,
            "options": dict(game.options),
            "setup": setup,
            "deals": deals,
            "actions": actions,
            "scores": self.scores,
            "match_over": self.match_over,
            "winner": self.winner,
        }

    def __repr__(self) -> str:
        d = self._d
        hands = " | ".join(" ".join(DECK.codes(h)) for h in self._hands)
        return (
            f"<BriscolaState deal {d.number} trump {_CODES[d.indicator]} to_act {self._to_act} "
            f"trick [{' '.join(_CODES[c] for c in self._trick)}] hands [{hands}] "
            f"scores {list(d.scores)}>"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BriscolaState):
            return NotImplemented
        return _key(self) == _key(other)

    def __hash__(self) -> int:
        return hash(_key(self))


_new_state = object.__new__


def _key(state: BriscolaState) -> tuple[Any, ...]:
    d = state._d
    return (
        d.number,
        d.dealer,
        d.active,
        d.draw,
        d.indicator,
        d.scores,
        d.exchanged,
        state._hands,
        state._trick,
        state._leader,
        state._to_act,
        state._sp,
        state._won,
        state._holder,
        state._phase,
        state._sigs,
    )


def _end_deal(state: BriscolaState) -> BriscolaState:
    """Score the finished deal, then end the match or deal the next one."""
    game = state.game
    d = state._d
    pts = state.deal_points()
    seat_pts = [_mask_points(m) for m in state._won]
    awarded = [0] * game.sides
    if game.sides == 2:
        for side in (0, 1):
            if pts[side] >= 61:
                awarded[side] = 1
        outcome = "draw" if not any(awarded) else "win"
    else:
        over40 = [s for s in range(3) if pts[s] > 40]
        if 120 in pts:
            awarded[pts.index(120)] = 3
        elif len(over40) == 2:
            for s in over40:
                awarded[s] = 1
        elif len(over40) == 1:
            awarded[over40[0]] = 2
        if d.playoff:
            # Two-handed play-off among tied players: 61 wins the deal and the match.
            awarded = [1 if pts[s] >= 61 else 0 for s in range(3)]
        outcome = "draw" if not any(awarded) else "win"
    scores = tuple(a + b for a, b in zip(d.scores, awarded, strict=True))
    deal_winner: int | None = None
    if game.sides == 2 or d.playoff:
        deal_winner = awarded.index(1) if 1 in awarded else None
    detail = {
        "seat_points": seat_pts,
        "deal_wins": awarded,
        "outcome": outcome,
        "winner": deal_winner,
        "tricks": len(state._done),
        "indicator_holder": state._holder,
    }
    ev = (state._ev, (_EV_HAND_END, pts, detail))
    winner = _match_decided(game, scores)
    if d.playoff and deal_winner is not None:
        winner = deal_winner
    active = tuple(range(game.players))
    playoff = False
    if winner is None and game.sides == 3 and not d.playoff:
        top = max(scores)
        tied = tuple(s for s in range(3) if scores[s] == top)
        if (
            top >= game.target
            and len(tied) == 2
            and game.options["three_player_tie_mode"] == "drop_out"
        ):
            active, playoff = tied, True
    elif d.playoff:
        active, playoff = d.active, True
    new = state._copy()
    new._hand_over = True
    if winner is not None:
        nd = d.copy()
        nd.scores = scores
        ev = (ev, (_EV_MATCH_END, winner, scores))
        new._d = nd
        new._phase = OVER
        new._to_act = None
        new._ev = ev
        return new
    dealer = d.dealer
    if outcome == "win" or game.options["dealer_after_draw"] == "rotate" or dealer not in active:
        dealer = (dealer + 1) % game.players
        while dealer not in active:
            dealer = (dealer + 1) % game.players
    new._ev = ev
    return _start_deal(game, d.number + 1, dealer, active, scores, d.seed, d.packs, playoff, new)


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


_BITS_CACHE: dict[int, tuple[int, ...]] = {}


def _bits_list(mask: int) -> list[int]:
    cached = _BITS_CACHE.get(mask)
    if cached is None:
        cached = tuple(iter_bits(mask))
        if len(_BITS_CACHE) < 200_000:
            _BITS_CACHE[mask] = cached
    return list(cached)


def _chain(ev: _ListEv) -> list[tuple[Any, ...]]:
    out = []
    while ev is not None:
        ev, item = ev
        out.append(item)
    out.reverse()
    return out


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
        return {
            "type": "deal",
            "deal": d.number,
            "dealer": d.dealer,
            "seats": list(d.active),
            "trump": _CODES[d.indicator],
            "removed": DECK.codes(d.removed),
            "scores": list(d.scores),
        }
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
        return {"type": "hand_end", "points": list(e[1]), "detail": dict(e[2])}
    return {"type": "match_end", "winner": e[1], "scores": list(e[2])}


def _known_cards(state: BriscolaState, seat: int | None) -> dict[int, int]:
    """Cards in other seats' hands that ``seat`` legitimately knows, as masks per seat."""
    game = state.game
    d = state._d
    hands = state._hands
    known: dict[int, int] = {}

    def add(owner: int, mask: int) -> None:
        mask &= hands[owner]
        if mask and owner != seat:
            known[owner] = known.get(owner, 0) | mask

    if state._holder is not None:
        add(state._holder, 1 << d.indicator)
    if d.exchanged is not None:
        add(d.exchanged[0], 1 << d.exchanged[2])
    if game.open_hands:
        for owner in d.active:
            add(owner, hands[owner])
    elif seat is not None and game.options["partners_show_hands_before_first_trick"]:
        for owner in game.partners[seat]:
            add(owner, d.start_hands[owner])
    return known


def _observe(state: BriscolaState, seat: int | None) -> JSON:
    game = state.game
    if seat is not None and (type(seat) is not int or not 0 <= seat < game.players):
        raise ValueError(f"seat must be 0..{game.players - 1} or None, not {seat!r}")
    d = state._d
    codes = _CODES
    known = _known_cards(state, seat)
    stock_size = len(d.draw) - state._sp
    stock_top = None
    if game.scoperta and stock_size >= 1:
        stock_top = codes[d.draw[state._sp]]
    leader = state._leader
    trick = []
    pos = d.index[leader]
    for c in state._trick:
        trick.append({"seat": d.active[pos % d.k], "card": codes[c]})
        pos += 1
    signals = [
        {"trick": t, "seat": s, "meaning": SIGNAL_MEANINGS[m]}
        for t, s, m in state._sigs
        if seat is not None
        and (game.options["signal_visibility"] == "public" or game.side_of[s] == game.side_of[seat])
    ]
    legal = state.legal_actions(seat) if seat is not None else []
    exchanged = None
    if d.exchanged is not None:
        exchanged = {"seat": d.exchanged[0], "gave": codes[d.exchanged[1]], "took": codes[d.exchanged[2]]}
    return {
        "game": game.name,
        "players": game.players,
        "seat": seat,
        "side": game.side_of[seat] if seat is not None else None,
        "hand": DECK.codes(state._hands[seat]) if seat is not None else [],
        "to_act": state._to_act,
        "legal_actions": [game.action_to_string(a) for a in legal],
        "phase": _PHASE_NAMES[state._phase],
        "scores": state.scores,
        "games": state.games,
        "target": game.target,
        "deal": d.number,
        "dealer": d.dealer,
        "seats": list(d.active),
        "trump": codes[d.indicator],
        "trump_suit": SUITS[d.trump],
        "indicator_holder": state._holder,
        "stock_size": stock_size,
        "stock_top": stock_top,
        "removed": DECK.codes(d.removed),
        "hand_sizes": [h.bit_count() for h in state._hands],
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
            for ld, cards, w, p in state._done
        ],
        "deal_points": state.deal_points(),
        "signals": signals,
        "hand_over": state._hand_over,
        "match_over": state.match_over,
        "winner": state.winner,
    }


def _determinize(game: BriscolaGame, obs: Mapping[str, Any], rng: Rng) -> BriscolaState:
    """Rebuild a full state from an observation, dealing the unseen cards at random."""
    try:
        seat = obs["seat"]
        n = game.players
        if obs.get("game") != game.name or obs.get("players") != n:
            raise RulesError("the observation is not from this game and player count")
        parse = DECK.parse
        active = tuple(obs["seats"])
        d = _Deal()
        d.number = obs["deal"]
        d.dealer = obs["dealer"]
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
        d.scores = tuple(obs["scores"])
        d.seed = rng.next64()
        d.packs = ()
        d.playoff = n == 3 and k == 2
        ex = obs.get("exchange")
        d.exchanged = (ex["seat"], parse(ex["gave"]), parse(ex["took"])) if ex else None
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
        unseen = [c for c in iter_bits(game.pack_mask(active) & ~seen)]
        rng.shuffle(unseen)
        sizes = obs["hand_sizes"]
        for s in range(n):
            need = sizes[s] - hands[s].bit_count()
            if need < 0:
                raise RulesError("observation lists more known cards than a hand holds")
            for _ in range(need):
                hands[s] |= 1 << unseen.pop()
        middle: list[int] = []
        if stock_size:
            middle_size = stock_size - 1 - (1 if top is not None and top != d.indicator else 0)
            middle = [unseen.pop() for _ in range(middle_size)]
            if top is not None and top != d.indicator:
                middle.insert(0, top)
            middle.append(d.indicator)
        if unseen:
            raise RulesError("observation is inconsistent: cards left over after dealing")
        d.draw = tuple(middle)
        d.deck = ()
        d.start_hands = tuple(hands)
        state = _new_state(BriscolaState)
        state._g = game
        state._d = d
        state._hands = tuple(hands)
        state._trick = trick
        state._leader = obs["leader"]
        state._to_act = obs["to_act"]
        state._sp = 0
        state._won = tuple(won)
        state._done = done
        state._holder = holder
        state._phase = _PHASE_NAMES.index(obs["phase"])
        sigs = tuple(
            (g["trick"], g["seat"], SIGNAL_MEANINGS.index(g["meaning"])) for g in obs["signals"]
        )
        used = 0
        for t, s, m in sigs:
            if t == len(done) + 1:
                used |= 1 << (s * 8 + m)
        state._sigs = sigs
        state._sigused = used
        state._ev = None
        state._hand_over = obs["hand_over"]
        return state
    except (KeyError, TypeError, IndexError, InvalidActionError) as err:
        raise RulesError(f"not a Briscola observation this game can determinize: {err!r}") from None
