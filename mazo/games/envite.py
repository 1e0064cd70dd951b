"""Envite Canario for 4, 6, 8, 10 and 12 players, as specified in ``rules/envite-canario.md``.

Rules profile (rules version 1)
-------------------------------
* 40-card Latin pack.  Two teams seated alternately: team 0 the even seats, team 1 the odd.
* Deal (§5): three cards each, packet by packet from the seat after the dealer (pack index
  ``3k..3k+2`` to seat ``dealer+1+k``); the next card is the face-up **vira**, whose suit is
  trumps.  The rest of the pack is not used.  The deal passes to the next seat.
* Trumps (§3): the vira suit plus the fixed trumps of the player count, in the hierarchy of
  :func:`hierarchy`; plain suits rank K Q J 1 7 6 5 4 3 2.
* Card play (§7-§8): follow a plain suit led with a plain card of it; answer a trump led
  with a trump, except a hand whose only trump is the top trump; never a duty to beat or to
  trump.  The best trump wins a trick, else the best card of the suit led.  A team with
  two tricks wins the deal at once.
* Betting (§9): the envío ladder 2 -> 4 -> 7 -> 9 -> chico.  Any seat of an eligible team
  may propose (``envio``), on its turn or not; the other team answers ``accept``, ``fold``
  (the proposers score the level below) or ``raise`` (to the next level, which accepts the
  current one).  After an acceptance only the accepting team may raise again.
* Tumbo (§10): a team at 11 stones may not bet; with exactly one team at 11 that team
  chooses ``tumbo_play`` (the deal is worth 3) or ``tumbo_decline`` (opponents +1); with
  both at 11 the deal is played, worth 3.
* Stones (§11): a total above 11 loses one stone, so exactly 12 stays at 11 (tumbo) and 13
  or more wins a **chico**; a chico resets both teams' stones.  The first team to
  ``chicos_to_win`` chicos wins the match.  ``scores`` are stones, ``games`` are chicos.
* Options (§13), all validated: see :data:`OPTIONS` and ``docs/envite.md``.

Action layout (``num_actions = 64``)
------------------------------------
====== ==========================================================================
id     action
====== ==========================================================================
0-39   play that card (its id in the Latin 40-card pack, ``mazo.core.cards.LATIN_40``:
       ``7O`` is 6)
40     ``envio``: propose the next level of the ladder (any eligible seat, any time)
41     ``accept``  42 ``fold``  43 ``raise``: answers of the team a proposal is made to
44     ``tumbo_play``  45 ``tumbo_decline``: the decision of the team at tumbo
46-58  ``signal <kind>``: team signs (§14.2; never validated, option ``signals``)
59-63  ``consult <intent>``: team consultation on bets (propose, accept, fold, raise,
       play_on); never card contents
====== ==========================================================================

Who acts (``to_act``) and out-of-turn calls
-------------------------------------------
``to_act`` is the seat the game waits for: the seat to play a card; while a proposal is
pending, the first seat of the answering team after the proposer (its captain with
``bet_responder="captain"``); at a tumbo decision, the first seat of the tumbo team from
the eldest (its captain with ``tumbo_decider="captain"``).  Every other seat that may act
now finds its actions in ``legal_actions(seat)`` and acts with ``apply(action, seat=k)``:
``envio`` out of turn, any team member's answer (the first answer binds the team), signs
and consultation.

Decisions where the rules file leaves room (see also docs/envite.md)
--------------------------------------------------------------------
* The captains (``mandadores``) are seats 0 and 1 (the first seat of each team); they
  only matter for the ``captain`` options and ``tumbo_show_captain``.
* A message (sign or consultation) may be sent by a seat once per kind between two game
  actions: it keeps a front end's channel open without letting a client flood the log.
  Messages never change whose turn it is.
* ``tumbo_show_captain``: at the deal start, each team at tumbo shows its members' three
  cards to its captain; the captain's observation keeps them for the deal (perfect recall).
* ``renuncio_mode="penalize"``: the offending actions are in ``legal_actions`` (a club
  practising table rules may make them); the observation lists them under ``offences``.
  A card that breaks §7 ends the deal at once (the card is not placed); so does an
  ``envio`` during a tumbo deal.  The offended team receives ``renuncio_penalty`` through
  the counting of §11.1.  Other impossible actions are refused in both modes.
* Trick events carry ``points`` 0 (Envite cards carry no points; tricks count).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from operator import attrgetter
from typing import Any

from mazo.core import FIRST_DEALER, HAND_OVER, OVER, PHASE_MASK, Option, int_at_least
from mazo.core.cards import LATIN_40, Card, iter_bits
from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import DealFacts, DealStart, Game, MatchStart, fresh
from mazo.core.rng import Rng, derive_seed
from mazo.core.tricks import K_PLAY, K_TRICK, PartnershipState, addressed, check_team_setup, unsaid

__all__ = [
    "ACCEPT",
    "BET_NAMES",
    "BET_VALUES",
    "CONSULT_INTENTS",
    "ENVIO",
    "FIXED_TRUMPS",
    "FOLD",
    "OPTIONS",
    "PLAYER_COUNTS",
    "RAISE",
    "SIGNAL_KINDS",
    "TUMBO_DECLINE",
    "TUMBO_PLAY",
    "EnviteGame",
    "EnviteState",
    "award",
    "cards_of",
    "exempt_card",
    "hierarchy",
    "legal_cards",
    "plain_order",
    "top_trump",
    "trick_winner",
    "trump_mask",
    "trump_order",
]

JSON = dict[str, Any]

DECK = LATIN_40
PLAYER_COUNTS = (4, 6, 8, 10, 12)

FIXED_TRUMPS: dict[int, tuple[str, ...]] = {
    4: (),
    6: ("3B", "QB", "JO"),
    8: ("5O", "3B", "QB", "JO"),
    10: ("2O", "5O", "3B", "QB", "JO"),
    12: ("1O", "2O", "5O", "3B", "QB", "JO"),
}
"""§3.1: trumps whatever the vira, strongest first (``JO`` is the Perica)."""

_VIRA_ORDER = ("2", "K", "Q", "J", "1", "7", "6", "5", "4", "3")  # the Mala (2) first
_PLAIN_ORDER = ("K", "Q", "J", "1", "7", "6", "5", "4", "3", "2")


def _check(n: int, vira: int) -> None:
    if n not in PLAYER_COUNTS:
        raise ValueError(f"Envite is played by 4, 6, 8, 10 or 12 players, not {n!r}")
    if vira not in range(4):
        raise ValueError(f"vira must be a suit index 0..3 (O C E B), not {vira!r}")


@cache
def hierarchy(n: int, vira: int) -> tuple[Card, ...]:
    """§3.2: every trump, strongest first: the fixed trumps, then the vira suit in the
    order 2 (Mala) > K > Q > J > 1 > 7 > 6 > 5 > 4 > 3, a fixed trump only once.

    >>> [LATIN_40.format(c) for c in hierarchy(10, 0)]
    ['2O', '5O', '3B', 'QB', 'JO', 'KO', 'QO', '1O', '7O', '6O', '4O', '3O']
    """
    _check(n, vira)
    fixed = tuple(DECK.parse(c) for c in FIXED_TRUMPS[n])
    suit = "OCEB"[vira]
    rest = tuple(DECK.parse(r + suit) for r in _VIRA_ORDER)
    return fixed + tuple(c for c in rest if c not in fixed)


@cache
def trump_mask(n: int, vira: int) -> int:
    """The trump set of §3.1 as a mask."""
    mask = 0
    for c in hierarchy(n, vira):
        mask |= 1 << c
    return mask


def top_trump(n: int, vira: int) -> Card:
    """§3.6: the first card of the hierarchy, the one exempt from following trumps."""
    return hierarchy(n, vira)[0]


@cache
def plain_order(n: int, vira: int, suit: int) -> tuple[Card, ...]:
    """§3.4: a non-trump suit's cards, strongest first (K > Q > J > 1 > 7 > ... > 2),
    without the cards that are trumps.

    >>> [LATIN_40.format(c) for c in plain_order(6, 1, 3)]
    ['KB', 'JB', '1B', '7B', '6B', '5B', '4B', '2B']
    """
    _check(n, vira)
    if suit == vira:
        return ()
    trumps = trump_mask(n, vira)
    cards = (DECK.parse(r + "OCEB"[suit]) for r in _PLAIN_ORDER)
    return tuple(c for c in cards if not trumps >> c & 1)


@cache
def _strength(n: int, vira: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per card: its effective suit (4 for trumps) and its strength within that suit."""
    eff = [c // 10 for c in range(40)]
    strength = [0] * 40
    order = hierarchy(n, vira)
    for i, c in enumerate(order):
        eff[c] = 4
        strength[c] = len(order) - i
    for suit in range(4):
        plain = plain_order(n, vira, suit)
        for i, c in enumerate(plain):
            strength[c] = len(plain) - i
    return tuple(eff), tuple(strength)


def legal_cards(hand: int, trick: tuple[Card, ...], n: int, vira: int) -> int:
    """§7: the mask of the cards of ``hand`` that may be played to ``trick`` (cards so far,
    leader first).

    A plain suit led must be followed with a non-trump card of that suit when the hand has
    one; a trump led (fixed trumps included) must be answered with a trump, except by a
    hand whose only trump is the top trump, which may play anything.  Nobody must beat
    the winning card or trump when void.
    """
    if not trick:
        return hand
    eff, _ = _strength(n, vira)
    trumps = trump_mask(n, vira)
    led = eff[trick[0]]
    if led == 4:
        held = hand & trumps
        if not held:
            return hand
        top = 1 << top_trump(n, vira)
        if held == top:
            return hand  # the top trump alone is exempt (the arrastre cannot force it)
        return held
    follow = hand & DECK.suit_masks[led] & ~trumps
    return follow or hand


def trick_winner(trick: tuple[Card, ...], n: int, vira: int) -> int:
    """§8: the position in ``trick`` of the winning card: the highest trump in the
    hierarchy if any trump was played, else the highest card of the suit led.

    >>> trick_winner(tuple(LATIN_40.parse(c) for c in ("KC", "2C", "JO")), 6, 0)
    2
    """
    eff, strength = _strength(n, vira)
    best = 0  # the best card is always of the suit led or a trump
    for pos in range(1, len(trick)):
        c, b = trick[pos], trick[best]
        if eff[c] == eff[b]:
            if strength[c] > strength[b]:
                best = pos
        elif eff[c] == 4:  # the first trump beats the led suit; later ones compare above
            best = pos
    return best


def trump_order(players: int, vira: str) -> list[str]:
    """The trumps in force for a deal, strongest first, as card codes (for front ends:
    observations name no card outside what the seat may know, so they leave it out).

    >>> trump_order(8, "4B")[:6]
    ['5O', '3B', 'QB', 'JO', '2B', 'KB']
    """
    return [DECK.format(c) for c in hierarchy(players, DECK.parse(vira) // 10)]


def exempt_card(players: int, vira: str) -> str | None:
    """§3.6: the card exempt from answering a trump lead, or None when it is the vira.

    >>> exempt_card(4, "5C"), exempt_card(4, "2C"), exempt_card(6, "2C")
    ('2C', None, '3B')
    """
    top = top_trump(players, DECK.parse(vira) // 10)
    return None if top == DECK.parse(vira) else DECK.format(top)


def cards_of(mask: int) -> list[str]:
    """Card codes of a mask, for messages and tests."""
    return [DECK.format(c) for c in iter_bits(mask)]


# == the game ================================================================================

NUM_CARDS = 40
_FULL = (1 << NUM_CARDS) - 1
_CODES: tuple[str, ...] = tuple(DECK.format(c) for c in range(NUM_CARDS))

ENVIO, ACCEPT, FOLD, RAISE, TUMBO_PLAY, TUMBO_DECLINE = 40, 41, 42, 43, 44, 45
_CALLS = ("envio", "accept", "fold", "raise", "tumbo_play", "tumbo_decline")
SIGNAL_KINDS = (
    "top_trump",
    "mala",
    "rey_of_vira",
    "perica",
    "caballo_de_bastos",
    "tres_de_bastos",
    "cinco_de_oros",
    "dos_de_oros",
    "as_de_oros",
    "small_trumps",
    "no_trump",
    "three_trumps",
    "want_envio",
)
"""§14.2's sign vocabulary (``no_trump`` is the *ciego*, ``three_trumps`` the *flus*)."""
CONSULT_INTENTS = ("propose", "accept", "fold", "raise", "play_on")
"""§14.2's consultation intents: what a member suggests to the team, never which cards."""
SIGNAL_BASE = 46
CONSULT_BASE = SIGNAL_BASE + len(SIGNAL_KINDS)
NUM_ACTIONS = CONSULT_BASE + len(CONSULT_INTENTS)
_NMSG = NUM_ACTIONS - SIGNAL_BASE  # message kinds, one bit each per seat in ``_said``
_MSG_MASK = (1 << _NMSG) - 1
_SIGNAL_IDS = tuple(range(SIGNAL_BASE, CONSULT_BASE))
_CONSULT_IDS = tuple(range(CONSULT_BASE, NUM_ACTIONS))

BET_NAMES = ("none", "envio", "siete", "nueve", "chico")
"""§9.1: the ladder's levels 0-4."""
BET_VALUES = (2, 4, 7, 9)
"""§9.1 ``value(level)``: what a deal played out pays at levels 0-3 (level 4 wins the chico)."""
TUMBO_VALUE = 3
_CHICO = -1  # an award that wins the chico outright (a deal played out at level 4)

# Phases in bits 0-1 of ``_m`` (OVER = 2 is shared with every game).
PLAY, TUMBO, BET = 0, 1, 3
_PHASE_NAMES = {PLAY: "play", TUMBO: "tumbo_decision", BET: "bet_pending", OVER: "over"}

# Log node kinds: nodes are ``(previous node, kind, *payload)``.
_K_DEAL, _K_TUMBO, _K_BET, _K_PLAY, _K_TRICK, _K_RENUNCIO, _K_MSG = range(7)
assert (_K_PLAY, _K_TRICK) == (K_PLAY, K_TRICK)  # the kinds PartnershipState._event reads
_K_END, _K_CHICO, _K_MATCH = 7, 8, 9


OPTIONS: tuple[Option, ...] = (
    Option(
        "chicos_to_win",
        2,
        None,
        "chicos that win the match (the seed also knows 4)",
        check=int_at_least(1),
        describe="a positive integer",
    ),
    FIRST_DEALER,
    Option(
        "renuncio_mode",
        "prevent",
        ("prevent", "penalize"),
        "refuse a renuncio (failing to follow, envío at tumbo), or accept it and penalise it",
    ),
    Option(
        "renuncio_penalty",
        4,
        None,
        "stones the offended team receives for a renuncio (penalize mode)",
        check=int_at_least(2),
        describe=(
            "an integer >= 2 (1 is refused: with the 12 -> 11 counting one stone changes "
            "nothing for a team at 11, so a chico between two teams at 11 could never end)"
        ),
    ),
    Option(
        "raise_right",
        "acceptor_only",
        ("acceptor_only", "any_team"),
        "after an acceptance, only the accepting team may raise again, or either team",
    ),
    Option(
        "envio_timing",
        "any_time",
        ("any_time", "own_turn_only"),
        "a seat may propose at any moment of play, or only when it is its turn to play",
    ),
    Option(
        "bet_responder",
        "any_member",
        ("any_member", "captain"),
        "who answers a proposal: any member of the team (first answer binds), or its captain",
    ),
    Option(
        "tumbo_decider",
        "any_member",
        ("any_member", "captain"),
        "who decides to play or decline at tumbo: any member of the team, or its captain",
    ),
    Option(
        "follow_rule",
        "all_suits",
        ("all_suits", "trump_leads_only"),
        "the duty to follow holds for every suit led, or only for trump leads (arrastre)",
    ),
    Option(
        "capping",
        "minus_one",
        ("minus_one", "hard_cap_11"),
        "above 11 a total loses one stone (12 stays 11, 13+ wins the chico), or stops at 11",
    ),
    Option(
        "tumbo_show_captain",
        False,
        (False, True),
        "a team at tumbo shows its members' cards to its captain",
    ),
    Option(
        "signals",
        "team",
        ("off", "team", "team_leaky"),
        "team signs: off, seen by teammates, or also caught by the opponents",
    ),
    Option(
        "reveal_at_deal_end",
        False,
        (False, True),
        "show every unplayed card when a deal ends",
    ),
)


def award(stones: int, points: int, capping: str = "minus_one") -> int | None:
    """§11.1: a team's stones after an award of ``points``, or None if it wins the chico.

    >>> award(10, 2), award(8, 4), award(9, 4), award(11, 3), award(4, 7)
    (11, 11, None, None, 11)
    >>> award(10, 3, "hard_cap_11"), award(11, 1, "hard_cap_11")
    (11, None)
    """
    if capping == "hard_cap_11":
        if stones >= 11 and points > 0:
            return None
        return min(11, stones + points)
    s = stones + points
    if s > 11:
        s -= 1
    return None if s >= 12 else s


class _Table:
    """The card tables of one (player count, vira suit): what the hot path looks up."""

    __slots__ = ("eff", "hierarchy", "keys", "plain", "top", "trumps")

    eff: tuple[int, ...]  # effective suit per card, 4 = trump
    keys: tuple[tuple[int, ...], ...]  # keys[led][card]: bid for the trick, 0 = cannot win
    trumps: int
    top: int  # bit of the top trump (the exempt card)
    plain: tuple[int, ...]  # per suit: its non-trump cards
    hierarchy: tuple[Card, ...]


@cache
def _table(n: int, vira: int) -> _Table:
    eff, strength = _strength(n, vira)
    t = _Table()
    t.eff = eff
    t.hierarchy = hierarchy(n, vira)
    t.trumps = trump_mask(n, vira)
    t.top = 1 << top_trump(n, vira)
    t.plain = tuple(DECK.suit_masks[s] & ~t.trumps for s in range(4))
    t.keys = tuple(
        tuple(
            100 + strength[c] if eff[c] == 4 else strength[c] if eff[c] == led else 0
            for c in range(NUM_CARDS)
        )
        for led in range(5)
    )
    return t


class _Deal(DealFacts):
    """What is fixed for one deal, shared by all its states."""

    __slots__ = (
        "dealer",
        "deck",
        "eff",
        "games",
        "keys",
        "number",
        "packs",
        "plain",
        "scores",
        "seed",
        "start",
        "table",
        "top",
        "trumps",
        "tumbo",
        "vira",
    )

    number: int
    dealer: int
    deck: tuple[int, ...]
    vira: int
    scores: tuple[int, ...]  # stones per team before the deal
    games: tuple[int, ...]  # chicos per team before the deal
    tumbo: tuple[bool, bool]  # teams at 11 when the deal starts
    seed: int
    packs: tuple[tuple[int, ...], ...]  # fixed packs for later deals (replays)
    start: int  # the hands as dealt, packed 40 bits per seat
    table: _Table
    # Copies of the table's lookups (one attribute hop less on the hot path).
    eff: tuple[int, ...]
    keys: tuple[tuple[int, ...], ...]
    trumps: int
    top: int
    plain: tuple[int, ...]

    def copy(self) -> _Deal:
        """A new object with the same fields, named here (a sample copies its template's
        deal: the base's walk of the slots reads and sets each by its name)."""
        out = _new_state(_Deal)
        out.dealer = self.dealer
        out.deck = self.deck
        out.eff = self.eff
        out.games = self.games
        out.keys = self.keys
        out.number = self.number
        out.packs = self.packs
        out.plain = self.plain
        out.scores = self.scores
        out.seed = self.seed
        out.start = self.start
        out.table = self.table
        out.top = self.top
        out.trumps = self.trumps
        out.tumbo = self.tumbo
        out.vira = self.vira
        return out


_NO_BET = (0, -1, 0, -1, -1)  # level, raise right, proposed level, proposing team, proposer


class EnviteGame(Game):
    """Envite Canario rules, configured by player count and options."""

    name = "envite"
    rules_version = 1
    player_counts = PLAYER_COUNTS
    default_players = 4
    option_specs = OPTIONS

    def _configure(self) -> None:
        n = self.players
        opts = self.options
        self.sides = 2
        self.side_of: tuple[int, ...] = tuple(s % 2 for s in range(n))
        self.target: int = opts["chicos_to_win"]
        self.teams: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(range(0, n, 2)),
            tuple(range(1, n, 2)),
        )
        self.captains = (0, 1)
        self.penalize = opts["renuncio_mode"] == "penalize"
        self.plain_rule = opts["follow_rule"] == "all_suits"
        msgs = _CONSULT_IDS if opts["signals"] == "off" else _SIGNAL_IDS + _CONSULT_IDS
        self._msgs_play = msgs  # messages allowed in play and while a proposal is pending
        self._msgs_tumbo = tuple(m for m in msgs if m < CONSULT_BASE)  # signs only
        self._describe(
            NUM_ACTIONS,
            DECK,
            True,
            frozenset(range(SIGNAL_BASE, NUM_ACTIONS)),
            score_unit="stones",
            score_target=12,  # stones to a chico
            games_unit="chicos",
            games_target=self.target,
            replays_from_pack=True,
            signals=True,
        )

    # -- notation ----------------------------------------------------------------

    def _move_string(self, action: int) -> str:
        """``envio``, ``accept``...; ``signal mala``; ``consult fold`` (not cards)."""
        if action < SIGNAL_BASE:
            return _CALLS[action - NUM_CARDS]
        if action < CONSULT_BASE:
            return "signal " + SIGNAL_KINDS[action - SIGNAL_BASE]
        return "consult " + CONSULT_INTENTS[action - CONSULT_BASE]

    def string_to_action(self, text: str) -> int:
        """Parse a card (``7O``), a call, ``signal <kind>`` or ``consult <intent>``."""
        if not isinstance(text, str):
            raise InvalidActionError(f"{text!r} is not an action string")
        words = text.strip().lower().replace("-", "_").split()
        if len(words) == 1 and words[0] in _CALLS:
            return NUM_CARDS + _CALLS.index(words[0])
        if len(words) == 1 and words[0] == "envido":  # the Tenerife name (§15)
            return ENVIO
        if words and words[0] in ("signal", "consult"):
            vocab = SIGNAL_KINDS if words[0] == "signal" else CONSULT_INTENTS
            base = SIGNAL_BASE if words[0] == "signal" else CONSULT_BASE
            if len(words) == 2 and words[1] in vocab:
                return base + vocab.index(words[1])
            raise InvalidActionError(
                f"{text!r}: write '{words[0]} <{'kind' if base == SIGNAL_BASE else 'intent'}>' "
                f"with one of: {', '.join(vocab)}"
            )
        try:
            return DECK.parse(text)
        except InvalidActionError as err:
            raise InvalidActionError(
                f"{err}; Envite calls are: {', '.join(_CALLS)}, "
                "'signal <kind>' and 'consult <intent>'"
            ) from None

    # -- matches -------------------------------------------------------------------

    def match_winner(self, scores: Any) -> int | None:
        """Envite is won on chicos (``games``), never on stones; see EnviteState.winner."""
        return None

    def check_setup(self, setup: Mapping[str, Any]) -> tuple[int, ...]:
        """``{"scores": stones per team (0-11), "games": chicos per team}``."""
        tops = {"scores": (11, "stones"), "games": (self.target - 1, "chicos")}
        check_team_setup("envite", setup, ("scores", "games"), tops)
        return tuple(setup.get("scores", (0, 0)))

    def _new_match(self, start: MatchStart) -> EnviteState:
        games = tuple(start.setup.get("games", (0, 0)))
        dealer = self.first_dealer(start.seed, start.dealer)
        seed = derive_seed(start.seed, "deals")
        d = _Deal.begin(1, dealer, start.scores, seed, start.packs)
        d.games = games
        return _start_deal(self, d, None)

    def determinize(self, observation: Mapping[str, Any], rng: Rng) -> EnviteState:
        """A full state consistent with ``observation``; unseen cards dealt at random."""
        return _determinize(self, observation, rng)

    def sampler(self, observation: Mapping[str, Any]) -> Callable[[Rng], EnviteState]:
        """``determinize`` for many samples of one observation: read and replayed once,
        then each sample deals the unseen cards with ints (the same state ``determinize``
        gives for the same ``rng``)."""
        return _sampler(self, observation)

    # -- helpers for front ends -------------------------------------------------------

    def decider(self, team: int, eldest: int) -> int:
        """The seat asked first for ``team``'s tumbo decision."""
        if self.options["tumbo_decider"] == "captain":
            return self.captains[team]
        return eldest if eldest % 2 == team else (eldest + 1) % self.players

    def responder(self, proposer: int) -> int:
        """The seat asked first to answer ``proposer``'s proposal."""
        if self.options["bet_responder"] == "captain":
            return self.captains[1 - proposer % 2]
        return (proposer + 1) % self.players


_new_state = object.__new__


def _start_deal(game: EnviteGame, d: _Deal, prev: Any) -> EnviteState:
    """§5: deal three cards each from the seat after the dealer, turn the vira (``d``: a
    new deal's facts with its number, dealer, stones, chicos, seed and given packs)."""
    n = game.players
    dealer = d.dealer
    pack, d.packs = game._next_pack(d.packs, d.seed, d.number)
    hands = 0
    for k in range(n):
        off = (dealer + 1 + k) % n * 40
        for c in pack[3 * k : 3 * k + 3]:
            hands |= 1 << (off + c)
    d.deck = pack
    d.vira = pack[3 * n]
    d.tumbo = (d.scores[0] == 11, d.scores[1] == 11)
    d.start = hands
    t = d.table = _table(n, d.vira // 10)
    d.eff, d.keys, d.trumps, d.top = t.eff, t.keys, t.trumps, t.top
    d.plain = t.plain if game.plain_rule else (0, 0, 0, 0)
    eldest = (dealer + 1) % n
    flag = HAND_OVER if prev is not None else 0
    mode, to_act = PLAY | flag, eldest
    if d.tumbo[0] != d.tumbo[1]:
        mode, to_act = TUMBO | flag, game.decider(0 if d.tumbo[0] else 1, eldest)
    state = EnviteState._dealt(game, d, hands, eldest, mode, to_act, (prev, _K_DEAL, d))
    state._bet = _NO_BET
    return state


class EnviteState(PartnershipState):
    """An immutable Envite match position.

    ``_h`` packs every seat's hand (seat ``s`` owns bits ``40s..40s+39``); ``_trick`` the
    cards of the trick in progress from its leader ``_lead``; ``_tw`` the tricks won (team 0
    in bits 0-3, team 1 in bits 4-7); ``_bet`` the betting state ``(level, raise right,
    proposed level, proposing team, proposer)``; ``_said`` the messages each seat sent
    since the last game action; ``_ev`` a persistent list of log nodes.
    """

    __slots__ = ("_bet",)

    _g: EnviteGame
    _d: _Deal
    _bet: tuple[int, int, int, int, int]

    # -- public views ----------------------------------------------------------------

    @property
    def vira(self) -> str:
        """The face-up card whose suit is trumps this deal."""
        return _CODES[self._d.vira]

    @property
    def phase(self) -> str:
        """``play``, ``bet_pending``, ``tumbo_decision`` or ``over``."""
        return _PHASE_NAMES[self._m & PHASE_MASK]

    @property
    def bet_level(self) -> int:
        """The accepted level of the ladder (0 = no bet, 4 = chico)."""
        return self._bet[0]

    @property
    def to_play(self) -> int:
        """The seat whose card is next (also while a proposal or a tumbo call waits)."""
        return (self._lead + len(self._trick)) % self._g.players

    # Omniscient views, for tests and tools; never hand them to a client or a bot.

    def hand(self, seat: int) -> list[str]:
        """The cards in a seat's hand."""
        return DECK.codes(self._h >> seat * 40 & _FULL)

    def stock(self) -> list[str]:
        """The undealt cards under the vira (never used in the deal)."""
        return [_CODES[c] for c in self._d.deck[3 * self._g.players + 1 :]]

    # -- actions ------------------------------------------------------------------------

    def _compute_legal(self, seat: int) -> list[int]:
        phase = self._m & PHASE_MASK
        game = self._g
        out: list[int]
        if phase == PLAY:
            if seat == self.to_act:
                hand = self._h >> seat * 40 & _FULL
                cards = hand if game.penalize else self._follow(hand)
                out = []  # iter_bits(cards), lowest first, without its generator
                while cards:
                    low = cards & -cards
                    out.append(low.bit_length() - 1)
                    cards ^= low
            else:
                out = []
            if self._may_envio(seat):
                out.append(ENVIO)
            msgs = game._msgs_play
        elif phase == BET:
            out = []
            if self._may_answer(seat):
                out += (ACCEPT, FOLD, RAISE) if self._bet[2] < 4 else (ACCEPT, FOLD)
            msgs = game._msgs_play
        elif phase == TUMBO:
            out = [TUMBO_PLAY, TUMBO_DECLINE] if self._may_decide(seat) else []
            msgs = game._msgs_tumbo
        else:
            return []
        said = self._said >> seat * _NMSG & _MSG_MASK
        out += unsaid(msgs, said, SIGNAL_BASE) if said else msgs  # no call: the usual case
        return out

    def _follow(self, hand: int) -> int:
        """§7: the cards of ``hand`` that may follow the trick in progress."""
        trick = self._trick
        if not trick:
            return hand
        d = self._d
        led = d.eff[trick[0]]
        if led == 4:
            held = hand & d.trumps
            if not held or held == d.top:
                return hand  # void in trumps, or only the top trump (exempt)
            return held
        return hand & d.plain[led] or hand

    def _may_envio(self, seat: int) -> int:
        """0: no; 1: yes; 2: only as an offence (envío at tumbo, penalize mode)."""
        game = self._g
        if game.options["envio_timing"] == "own_turn_only" and seat != self.to_act:
            return 0
        if self._d.tumbo[0] or self._d.tumbo[1]:
            return 2 if game.penalize else 0
        level, right = self._bet[0], self._bet[1]
        if level >= 4:
            return 0
        if right >= 0 and right != seat & 1 and game.options["raise_right"] == "acceptor_only":
            return 0
        return 1

    def _may_answer(self, seat: int) -> bool:
        team = self._bet[3]
        if seat & 1 == team:
            return False
        if self._g.options["bet_responder"] == "captain":
            return seat == self._g.captains[1 - team]
        return True

    def _may_decide(self, seat: int) -> bool:
        team = 0 if self._d.tumbo[0] else 1
        if seat & 1 != team:
            return False
        if self._g.options["tumbo_decider"] == "captain":
            return seat == self._g.captains[team]
        return True

    def _play_card(self, seat: int, action: int) -> EnviteState:
        """The hot path (:meth:`MatchState.apply`): a card from the hand of the seat to play
        that follows as §7 says (checked inline); anything else goes to
        :meth:`_apply_other`."""
        off = seat * 40
        h = self._h
        if h >> (off + action) & 1:
            trick = self._trick
            if trick:
                d = self._d
                hand = h >> off & _FULL
                led = d.eff[trick[0]]
                if led == 4:
                    must = hand & d.trumps
                    if must == d.top:
                        must = 0
                else:
                    must = hand & d.plain[led]
                if must and not must >> action & 1:
                    return self._apply_other(action, seat)
            card, hands = action, h ^ 1 << (off + action)
            n = self._g.players
            trick = self._trick + (card,)  # noqa: RUF005 (cheaper than unpacking)
            new = _new_state(EnviteState)
            new._g = self._g
            d = new._d = self._d
            new._h = hands
            new._bet = self._bet
            new._said = 0
            new._legal = None
            new._m = PLAY
            ev = (self._ev, _K_PLAY, seat, card)
            if len(trick) < n:
                new._trick = trick
                new._lead = self._lead
                new._tw = self._tw
                new.to_act = seat + 1 if seat + 1 < n else 0
                new._ev = ev
                return new
            team = self._close_trick(new, ev, trick, _best_in(d, trick), self._tw)
            if team >= 0:
                return _end_by_tricks(new, team)
            return new
        return self._apply_other(action, seat)

    def play_to_deal_end(self, pick: Callable[[EnviteState], int]) -> EnviteState:
        """The line's state at this deal's end when every move from here is ``pick(line)``
        (``line``: one private state changed in place move by move, its seat to act in
        ``to_act``, its legal cache ``_legal`` emptied after each move): the same final
        state and log as :meth:`apply` move by move (tested), without building a state
        for each card or sign.  For a search's rollouts, from card play or a pending
        proposal (no tumbo decision, not ``penalize``: no renuncio to make); ``pick`` must
        return a legal action of the seat to act (not checked: it is the search's own
        policy, and anything else would corrupt the line).  Bets go through
        :meth:`_bet_call` (they are few), which gives a new line."""
        phase = self._m & PHASE_MASK
        if phase not in (PLAY, BET) or self._m & HAND_OVER or self._g.penalize:
            raise RulesError("play_to_deal_end plays card play and bets, outside penalize mode")
        line = self._derive()  # every slot but the messages, and the legal cache emptied
        line._said = self._said
        game = self._g
        n = game.players
        leaky = game.options["signals"] == "team_leaky"
        while True:
            seat = line.to_act
            assert seat is not None
            a = pick(line)
            line._legal = None
            if a < NUM_CARDS:  # _play_card's legal card, in place
                card = a
                line._h ^= 1 << (seat * 40 + card)
                trick = line._trick + (card,)  # noqa: RUF005 (cheaper than unpacking)
                line._said = 0
                line._m = PLAY
                ev = (line._ev, _K_PLAY, seat, card)
                if len(trick) < n:
                    line._trick = trick
                    line.to_act = seat + 1 if seat + 1 < n else 0
                    line._ev = ev
                    continue
                # (_close_trick reads the leader before it changes it: ``line`` is both.)
                team = line._close_trick(line, ev, trick, _best_in(line._d, trick), line._tw)
                if team >= 0:
                    return _end_by_tricks(line, team)
            elif a >= SIGNAL_BASE:  # _message, in place
                line._said |= 1 << (seat * _NMSG + a - SIGNAL_BASE)
                line._m &= ~HAND_OVER
                audience = None if a < CONSULT_BASE and leaky else game.teams[seat % 2]
                line._ev = (line._ev, _K_MSG, seat, a, audience)
            else:  # a bet call: a new line (a fold ends the deal)
                line = line._bet_call(seat, a)
                if line._m & HAND_OVER:
                    return line

    def _replay_twin(self, state: EnviteState) -> EnviteState | None:
        """``state`` with this sample's hands: where a replay of this sample's deal from its
        pack stands when ``state``, the replay of another sample of the same observation,
        stands there (ISMCTS ``infer``).  The samples of one observation share every public
        move (:func:`_sampler`), so their replays differ only in the hands; the twin keeps
        ``state``'s deal and log, whose other facts are the same (its hand sizes too), and
        takes this sample's hands less the cards played so far.  None where the seats may
        read the hands as dealt (a captain shown the team's at tumbo)."""
        d = state._d
        if (d.tumbo[0] or d.tumbo[1]) and self._g.options["tumbo_show_captain"]:
            return None
        new = _new_state(EnviteState)
        new._g = state._g
        new._d = d
        new._h = self._d.start & ~(d.start & ~state._h)  # dealt, less the cards played
        new._trick = state._trick
        new._lead = state._lead
        new._tw = state._tw
        new._said = state._said
        new._legal = None
        new._m = state._m
        new.to_act = state.to_act
        new._ev = state._ev
        new._bet = state._bet
        return new

    # -- transitions -----------------------------------------------------------------

    def _carry(self, new: EnviteState) -> None:
        new._bet = self._bet

    def _apply_other(self, a: int, seat: int | None) -> EnviteState:
        game = self._g
        n = game.players
        text = game.action_to_string(a)
        to_act = self.to_act
        if to_act is None:
            raise self._no_action(text)
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise IllegalActionError(f"seat must be 0..{n - 1}, not {seat!r}")
        actor = to_act if seat is None else seat
        if a not in self.legal_actions(actor):
            raise IllegalActionError(self._why_illegal(a, actor))
        if a < NUM_CARDS:
            hand = self._h >> actor * 40 & _FULL
            if not self._follow(hand) >> a & 1:  # penalize mode: a renuncio
                return self._renuncio(actor, a)
            return self._play_card(actor, a)
        if a >= SIGNAL_BASE:
            return self._message(actor, a)
        if a == ENVIO and self._may_envio(actor) == 2:
            return self._renuncio(actor, a)
        if a in (TUMBO_PLAY, TUMBO_DECLINE):
            return self._tumbo(actor, a == TUMBO_PLAY)
        return self._bet_call(actor, a)

    def _bet_call(self, seat: int, a: int) -> EnviteState:
        level, right, proposed, pteam, _proposer = self._bet
        team = seat & 1
        new = self._derive()
        if a == ENVIO:
            proposed = level + 1
            new._bet = (level, right, proposed, team, seat)
            new._m = BET
            new.to_act = self._g.responder(seat)
            new._ev = (self._ev, _K_BET, seat, a, proposed)
        elif a == RAISE:
            new._bet = (level, right, proposed + 1, team, seat)
            new.to_act = self._g.responder(seat)
            new._ev = (self._ev, _K_BET, seat, a, proposed + 1)
        elif a == ACCEPT:
            new._bet = (proposed, team, 0, -1, -1)
            new._m = PLAY
            new.to_act = self.to_play
            new._ev = (self._ev, _K_BET, seat, a, proposed)
        else:  # FOLD: the proposers score the level below the one refused
            new._ev = (self._ev, _K_BET, seat, a, proposed)
            return _end_deal(new, "fold", pteam, BET_VALUES[proposed - 1])
        return new

    def _tumbo(self, seat: int, play: bool) -> EnviteState:
        new = self._derive()
        new._ev = (self._ev, _K_TUMBO, seat, play)
        if play:
            new._m = PLAY
            new.to_act = self.to_play
            return new
        return _end_deal(new, "tumbo_decline", 1 - seat % 2, 1)

    def _renuncio(self, seat: int, a: int) -> EnviteState:
        new = self._derive()
        new._ev = (self._ev, _K_RENUNCIO, seat, a)
        penalty = self._g.options["renuncio_penalty"]
        return _end_deal(new, "renuncio", 1 - seat % 2, penalty, offender=seat, offence=a)

    def _message(self, seat: int, a: int) -> EnviteState:
        game = self._g
        new = self._derive()
        new._said = self._said | 1 << (seat * _NMSG + a - SIGNAL_BASE)
        if a < CONSULT_BASE and game.options["signals"] == "team_leaky":
            audience = None  # signs the opponents catch: everyone sees them
        else:
            audience = game.teams[seat % 2]
        new._ev = (self._ev, _K_MSG, seat, a, audience)
        return new

    def _why_illegal(self, a: int, seat: int) -> str:
        game = self._g
        text = game.action_to_string(a)
        phase = self._m & PHASE_MASK
        bet = self._bet
        if a < NUM_CARDS:
            if phase == BET:
                return f"{text}: no card may be played while a proposal waits for an answer"
            if phase == TUMBO:
                return f"{text}: the team at tumbo must first choose tumbo_play or tumbo_decline"
            if seat != self.to_act:
                return self._not_turn(text, seat, "turn to play")
            hand = self._h >> seat * 40 & _FULL
            if not hand >> a & 1:
                return f"{text}: {text} is not in seat {seat}'s hand"
            allowed = " ".join(cards_of(self._follow(hand)))
            led = _CODES[self._trick[0]]
            return (
                f"{text}: a renuncio; seat {seat} must follow {led} as §7 says "
                f"(playable: {allowed})"
            )
        if a == ENVIO:
            if phase == BET:
                return "envio: a proposal is already waiting for an answer"
            if phase == TUMBO:
                return "envio: the team at tumbo must first choose to play or decline"
            if game.options["envio_timing"] == "own_turn_only" and seat != self.to_act:
                return f"envio: only on one's own turn (envio_timing); seat {self.to_act} plays"
            if self._d.tumbo[0] or self._d.tumbo[1]:
                return "envio: no envío while a team is at tumbo (11 stones)"
            if bet[0] >= 4:
                return "envio: the bet is already at chico, the top of the ladder"
            return (
                f"envio: only team {bet[1]}, which accepted the last bet, may raise now "
                "(raise_right)"
            )
        if a in (ACCEPT, FOLD, RAISE):
            if phase != BET:
                return f"{text}: there is no proposal to answer"
            if seat % 2 == bet[3]:
                return f"{text}: team {bet[3]} made this proposal; team {1 - bet[3]} answers"
            if a == RAISE and bet[2] >= 4:
                return "raise: chico is the top of the ladder; accept or fold"
            return f"{text}: only the captain, seat {game.captains[seat % 2]}, answers bets"
        if a in (TUMBO_PLAY, TUMBO_DECLINE):
            if phase != TUMBO:
                return f"{text}: there is no tumbo decision now"
            team = 0 if self._d.tumbo[0] else 1
            if seat % 2 != team:
                return f"{text}: the decision belongs to team {team}, the team at tumbo"
            return f"{text}: only the captain, seat {game.captains[team]}, decides at tumbo"
        if phase == OVER:
            return f"{text}: the match is over"
        if a < CONSULT_BASE and game.options["signals"] == "off":
            return f"{text}: signs are off (option signals)"
        if a >= CONSULT_BASE and phase == TUMBO:
            return f"{text}: consultation is for bets, during play and answers"
        return f"{text}: seat {seat} already sent it since the last move"

    # -- information -----------------------------------------------------------------

    def _observation(self, seat: int | None) -> JSON:
        return _observe(self, seat)

    def _game_event(self, node: tuple[Any, ...]) -> JSON:
        """The event of a log node other than a card or a trick.  Team messages carry an
        ``audience``."""
        return _event_json(self._g, node)

    def _record_item(self, node: tuple[Any, ...]) -> DealStart | tuple[int, str] | None:
        kind = node[1]
        if kind in (_K_BET, _K_MSG, _K_RENUNCIO):  # the calls the log names by their id
            return node[2], self._g.action_to_string(node[3])
        if kind == _K_TUMBO:
            return node[2], _CALLS[4 if node[3] else 5]
        return node[2].started() if kind == _K_DEAL else None

    def _record_extra(self, record: JSON, first: _Deal | None) -> None:
        """Chicos: the match's and, where the record starts with some, the setup's."""
        if first is not None and (any(first.scores) or any(first.games)):
            record["setup"] = {"scores": list(first.scores), "games": list(first.games)}

    def _repr_parts(self) -> tuple[str, str]:
        d = self._d
        return f"deal {d.number} vira {_CODES[d.vira]} {self.phase}", (
            f"stones {list(d.scores)} chicos {list(d.games)}"
        )

    # Everything that decides the match's future and what anyone may observe.
    _deal_key = attrgetter("number", "dealer", "deck", "scores", "games")
    _state_key = PartnershipState._key_of("_bet")


def _best_in(d: _Deal, trick: tuple[int, ...]) -> int:
    """§8: the place in a whole ``trick`` of its best trump, else of the best card of the
    suit led."""
    keys = d.keys[d.eff[trick[0]]]
    best, top = 0, keys[trick[0]]
    for i in range(1, len(trick)):
        k = keys[trick[i]]
        if k > top:
            best, top = i, k
    return best


def _end_by_tricks(state: EnviteState, team: int) -> EnviteState:
    """The deal won on tricks by ``team``: a tumbo hand's value, else the bet's (a chico
    at level 4)."""
    d = state._d
    if d.tumbo[0] or d.tumbo[1]:
        return _end_deal(state, "tricks", team, TUMBO_VALUE)
    level = state._bet[0]
    return _end_deal(state, "tricks", team, _CHICO if level == 4 else BET_VALUES[level])


def _end_deal(
    state: EnviteState,
    reason: str,
    team: int,
    points: int,
    offender: int | None = None,
    offence: int | None = None,
) -> EnviteState:
    """§11: award ``points`` (``_CHICO``: the chico itself) to ``team``; then the next deal
    or the end of the match.  ``state`` is fresh (made by the caller) and may be changed."""
    game = state._g
    d = state._d
    stones = list(d.scores)
    chicos = list(d.games)
    capping = game.options["capping"]
    after = None if points == _CHICO else award(stones[team], points, capping)
    gained = [0, 0]
    gained[team] = max(points, 0)
    detail: JSON = {
        "reason": reason,
        "team": team,
        "award": "chico" if points == _CHICO else points,
        "bet_level": state._bet[0],
        "tumbo_deal": d.tumbo[0] or d.tumbo[1],
        "tricks_won": state.tricks_won,
        "stones_before": list(stones),
    }
    if offender is not None:
        detail["offender"] = offender
        detail["offence"] = "envio_at_tumbo" if offence == ENVIO else "follow"
        detail["card"] = _CODES[offence] if offence is not None and offence < 40 else None
    if game.options["reveal_at_deal_end"]:
        detail["revealed"] = [DECK.codes(state._h >> s * 40 & _FULL) for s in range(game.players)]
    if after is None:
        chicos[team] += 1
        stones = [0, 0]
    else:
        stones[team] = after
    detail["chico"] = team if after is None else None
    detail["scores"] = list(stones)
    detail["games"] = list(chicos)
    ev: Any = (state._ev, _K_END, tuple(gained), detail)
    if after is None:
        ev = (ev, _K_CHICO, team, tuple(chicos))
    scores, games = tuple(stones), tuple(chicos)
    over = chicos[team] >= game.target
    if over or game.stops_at_deal_end:  # checked here: Envite's deals are short
        end = (_K_MATCH, team, scores, games) if over else None
        return state._deal_ended(ev, end, scores=scores, games=games)  # type: ignore[return-value]
    nd = _Deal.begin(d.number + 1, (d.dealer + 1) % game.players, scores, d.seed, d.packs)
    nd.games = games
    return _start_deal(game, nd, ev)


# == the log, observations, determinization ==================================================


def _event_json(game: EnviteGame, node: tuple[Any, ...]) -> JSON:
    kind = node[1]
    if kind == _K_BET:
        _p, _k, seat, a, level = node
        return {
            "type": _CALLS[a - NUM_CARDS],
            "seat": seat,
            "team": seat % 2,
            "level": level,
            "name": BET_NAMES[level],
        }
    if kind == _K_MSG:
        _p, _k, seat, a, audience = node
        if a < CONSULT_BASE:
            out: JSON = {"type": "signal", "seat": seat, "team": seat % 2}
            out["kind"] = SIGNAL_KINDS[a - SIGNAL_BASE]
        else:
            out = {"type": "consult", "seat": seat, "team": seat % 2}
            out["intent"] = CONSULT_INTENTS[a - CONSULT_BASE]
        return addressed(out, audience)
    if kind == _K_DEAL:
        d: _Deal = node[2]
        return d.event(
            eldest=(d.dealer + 1) % game.players,
            vira=_CODES[d.vira],
            trump_suit="OCEB"[d.vira // 10],
            scores=list(d.scores),
            games=list(d.games),
            tumbo=list(d.tumbo),
        )
    if kind == _K_TUMBO:
        _p, _k, seat, play = node
        word = "tumbo_play" if play else "tumbo_decline"
        return {"type": word, "seat": seat, "team": seat % 2}
    if kind == _K_RENUNCIO:
        _p, _k, seat, a = node
        return {
            "type": "renuncio",
            "seat": seat,
            "team": seat % 2,
            "action": game.action_to_string(a),
            "offence": "envio_at_tumbo" if a == ENVIO else "follow",
        }
    if kind == _K_END:
        return {"type": "hand_end", "points": list(node[2]), "detail": fresh(node[3])}
    if kind == _K_CHICO:
        return {"type": "chico", "team": node[2], "games": list(node[3])}
    return {"type": "match_end", "winner": node[2], "scores": list(node[3]), "games": list(node[4])}


def _visible(node: tuple[Any, ...], seat: int | None) -> bool:
    if node[1] != _K_MSG or node[4] is None:
        return True
    return seat is not None and seat in node[4]


def _observe(state: EnviteState, seat: int | None) -> JSON:
    game = state._g
    n = game.players
    d = state._d
    phase = state._m & PHASE_MASK
    level, right, proposed, pteam, proposer = state._bet
    log = [state._event(node) for node in state._deal_nodes(_K_DEAL) if _visible(node, seat)]
    tricks = [
        {"leader": e["leader"], "cards": e["cards"], "winner": e["winner"], "team": e["team"]}
        for e in log
        if e["type"] == "trick"
    ]
    legal = state.legal_actions(seat) if seat is not None else []
    offences: list[str] = []
    if game.penalize and seat is not None and legal:
        hand = state._h >> seat * 40 & _FULL
        follow = state._follow(hand) if phase == PLAY and seat == state.to_act else hand
        for a in legal:
            if (a < NUM_CARDS and not follow >> a & 1) or (
                a == ENVIO and state._may_envio(seat) == 2
            ):
                offences.append(game.action_to_string(a))
    shown: list[JSON] = []
    if (
        game.options["tumbo_show_captain"]
        and seat is not None
        and seat in game.captains
        and d.tumbo[seat % 2]
    ):
        for mate in game.teams[seat % 2]:
            if mate != seat:
                shown.append({"seat": mate, "cards": DECK.codes(d.start >> mate * 40 & _FULL)})
    tumbo_team = (0 if d.tumbo[0] else 1) if d.tumbo[0] != d.tumbo[1] else None
    lead = state._lead
    return {
        "game": game.name,
        "players": n,
        "seat": seat,
        "team": seat % 2 if seat is not None else None,
        "hand": DECK.codes(state._h >> seat * 40 & _FULL) if seat is not None else [],
        "to_act": state.to_act,
        "legal_actions": [game.action_to_string(a) for a in legal],
        "offences": offences,
        "phase": _PHASE_NAMES[phase],
        "scores": state.scores,
        "games": state.games,
        "chicos_to_win": game.target,
        "deal_number": d.number,
        "dealer": d.dealer,
        "eldest": (d.dealer + 1) % n,
        "captains": list(game.captains),
        "vira": _CODES[d.vira],
        "trump_suit": "OCEB"[d.vira // 10],
        "tumbo": [s == 11 for s in d.scores],
        "tumbo_deal": d.tumbo[0] or d.tumbo[1],
        "tumbo_team": tumbo_team,
        "team_must_decide": phase == TUMBO and seat is not None and seat % 2 == tumbo_team,
        "to_play": (lead + len(state._trick)) % n,
        "trick": [{"seat": (lead + i) % n, "card": _CODES[c]} for i, c in enumerate(state._trick)],
        "tricks": tricks,
        "tricks_won": state.tricks_won,
        "hand_sizes": [(state._h >> s * 40 & _FULL).bit_count() for s in range(n)],
        "bet": {
            "level": level,
            "name": BET_NAMES[level],
            "value": "chico" if level == 4 else BET_VALUES[level],
            "raise_right": right if right >= 0 else None,
            "pending": None
            if phase != BET
            else {"team": pteam, "seat": proposer, "level": proposed, "name": BET_NAMES[proposed]},
        },
        "team_must_answer": phase == BET and seat is not None and seat % 2 != pteam,
        "messages": [e for e in log if e["type"] in ("signal", "consult")],
        "signals": game.options["signals"],
        "shown_hands": shown,
        "deal_log": log,
        "last_deal": state._last_end(_K_END),
        "hand_over": state.hand_over,
        "match_over": state.match_over,
        "winner": state.winner,
    }


def _voids(game: EnviteGame, log: list[JSON]) -> list[int]:
    """Per seat, the cards its hidden cards cannot be: what §7 says it lacked when it did
    not follow (a plain suit led, or a trump led and answered without a trump)."""
    n = game.players
    t = _table(n, DECK.parse(log[0]["vira"]) // 10)
    out = [0] * n
    trick: list[int] = []
    for e in log:
        if e["type"] != "play":
            continue
        card = DECK.parse(e["card"])
        if trick:
            led = t.eff[trick[0]]
            if t.eff[card] != led:
                if led == 4:
                    out[e["seat"]] |= t.trumps & ~t.top
                elif game.plain_rule:
                    out[e["seat"]] |= t.plain[led]
        trick.append(card)
        if len(trick) == n:
            trick = []
    return out


def _deal_unseen(pool: list[int], needs: list[int], voids: list[int], rng: Rng) -> list[int]:
    """Give each seat ``needs[s]`` cards of ``pool`` outside ``voids[s]``, at random.

    A depth-first search over shuffled cards, most constrained seat first: the real deal
    is one answer, so there always is one, and the search rarely backtracks.
    """
    pool = list(pool)
    rng.shuffle(pool)
    return _fill(pool, _slots(pool, needs, voids), voids, len(needs))


def _slots(pool: list[int], needs: list[int], voids: list[int]) -> list[int]:
    """The seats in the order :func:`_fill` gives them cards, one entry a card: the most
    constrained first (fewest cards of ``pool`` outside its voids; a stable sort, so the
    order does not depend on how ``pool`` is shuffled)."""
    order = sorted(
        (s for s in range(len(needs)) if needs[s]),
        key=lambda s: sum(1 for c in pool if not voids[s] >> c & 1),
    )
    return [s for s in order for _ in range(needs[s])]


def _fill(pool: list[int], slots: list[int], voids: list[int], n: int) -> list[int]:
    """Per seat, the cards of the shuffled ``pool`` the depth-first search gives it: each
    slot takes the first card left that is outside its seat's voids."""
    out = [0] * n
    # The search's first line, each slot taking its first card: the search's answer
    # whenever no slot comes up empty on it (the search rarely backtracks).
    size = len(pool)
    last = len(slots) - 1
    taken = 0  # the pool's places taken, a bit each
    first = 0
    for i, seat in enumerate(slots):
        void = voids[seat]
        j = first
        while j < size and (taken >> j & 1 or void >> pool[j] & 1):
            j += 1
        if j == size:
            out = [0] * n
            break
        taken |= 1 << j
        out[seat] |= 1 << pool[j]
        first = j + 1 if i < last and slots[i + 1] == seat else 0
    else:
        return out
    used = [False] * len(pool)

    def fill(i: int, first: int) -> bool:
        if i == len(slots):
            return True
        seat = slots[i]
        for j in range(first, len(pool)):
            c = pool[j]
            if used[j] or voids[seat] >> c & 1:
                continue
            used[j] = True
            out[seat] |= 1 << c
            # A seat's cards are taken in pool order, so no hand is tried twice.
            nxt = j + 1 if i + 1 < len(slots) and slots[i + 1] == seat else 0
            if fill(i + 1, nxt):
                return True
            used[j] = False
            out[seat] &= ~(1 << c)
        return False

    if not fill(0, 0):
        raise RulesError("the observation is inconsistent: no deal fits the cards played")
    return out


class _Reading:
    """What an observation says about its deal, read once (:func:`_read`): the cards each
    seat is known to have been dealt, the unseen ones and who lacks which (§7), and the
    deal's actions as ids, ready to be replayed on any pack that fits."""

    __slots__ = (
        "actions",
        "dealer",
        "ended",
        "games",
        "hand_over",
        "needs",
        "number",
        "prev",
        "scores",
        "start",
        "unseen",
        "vira",
        "voids",
    )

    dealer: int
    number: int
    scores: Any
    games: tuple[int, ...]
    vira: int
    start: list[int]  # per seat, the cards it was dealt that the observation shows
    unseen: list[int]  # the cards nobody is seen to hold, ascending
    needs: list[int]  # per seat, how many of its three cards are unseen
    voids: list[int]  # per seat, the cards its unseen ones cannot be
    prev: Any  # the log node of the last deal's end, if the observation shows one
    actions: list[tuple[int, int]]  # (seat, action id) of the deal's visible actions
    hand_over: bool
    ended: bool  # the log holds the deal's end (a finished match's last deal)


_REPLAYED = ("play", "envio", "accept", "fold", "raise", "tumbo_play", "tumbo_decline")


def _read(game: EnviteGame, obs: Mapping[str, Any]) -> _Reading:
    """Read an observation for :func:`_determinize` and :func:`_sampler` (KeyError,
    InvalidActionError... on bad input: the callers say it is not an observation)."""
    r = _Reading()
    seat = game.observer(obs)
    n = game.players
    parse = DECK.parse
    log = obs["deal_log"]
    deal = log[0]
    if deal["type"] != "deal":
        raise RulesError("the observation's deal_log does not start with its deal")
    r.dealer = deal["dealer"]
    r.number = deal["deal"]
    r.scores = deal["scores"]
    r.games = tuple(deal["games"])
    r.vira = parse(deal["vira"])
    start = [0] * n
    seen = 1 << r.vira
    for e in log:
        if e["type"] == "play":
            start[e["seat"]] |= 1 << parse(e["card"])
        elif e["type"] == "renuncio" and e["offence"] == "follow":
            start[e["seat"]] |= 1 << parse(e["action"])  # shown, never placed
        elif e["type"] == "hand_end" and e["detail"].get("revealed"):
            # Shown at the deal's end (reveal_at_deal_end): seen only once the match
            # is over, as a new deal starts a new log.
            for s, cards in enumerate(e["detail"]["revealed"]):
                for c in cards:
                    start[s] |= 1 << parse(c)
    if seat is not None:
        for c in obs["hand"]:
            start[seat] |= 1 << parse(c)
    for shown in obs["shown_hands"]:
        for c in shown["cards"]:
            start[shown["seat"]] |= 1 << parse(c)
    for mask in start:
        seen |= mask
    r.start = start
    r.unseen = [c for c in range(NUM_CARDS) if not seen >> c & 1]
    r.needs = [3 - mask.bit_count() for mask in start]
    r.voids = _voids(game, log)
    r.prev = None
    last = obs["last_deal"]
    if last is not None:
        r.prev = (None, _K_END, tuple(last["points"]), fresh(last["detail"]))
    actions: list[tuple[int, int]] = []
    r.ended = False
    for e in log[1:]:
        kind = e["type"]
        if kind in ("renuncio", "hand_end"):
            r.ended = True
        if kind in _REPLAYED:
            text = e["card"] if kind == "play" else kind
        elif kind == "signal":
            text = "signal " + e["kind"]
        elif kind == "consult":
            text = "consult " + e["intent"]
        elif kind == "renuncio":
            text = e["action"]
        else:
            continue
        actions.append((e["seat"], game.string_to_action(text)))
    r.actions = actions
    r.hand_over = bool(obs["hand_over"])
    return r


def _replayed(game: EnviteGame, r: _Reading, dealt: list[int], seed: int) -> EnviteState:
    """The state of a reading with the unseen cards ``dealt`` (per seat): the deal's pack
    (the hands from the eldest, the vira, the undealt rest in card order), then its
    actions replayed."""
    n = game.players
    start = [r.start[s] | dealt[s] for s in range(n)]
    given = 0
    for mask in dealt:
        given |= mask
    pack: list[int] = []
    for k in range(n):
        pack.extend(iter_bits(start[(r.dealer + 1 + k) % n]))
    pack.append(r.vira)
    pack.extend(c for c in r.unseen if not given >> c & 1)
    d = _Deal.begin(r.number, r.dealer, r.scores, seed, (tuple(pack),))
    d.games = r.games
    state = _start_deal(game, d, r.prev)
    for seat, action in r.actions:
        state = state.apply(action, seat=seat)
    # A teammate's message this seat did not see may have cleared the flag.
    state._m = state._m & ~HAND_OVER | (HAND_OVER if r.hand_over else 0)
    return state


_NOT_OBSERVATION = (KeyError, TypeError, IndexError, InvalidActionError, IllegalActionError)


def _determinize(game: EnviteGame, obs: Mapping[str, Any], rng: Rng) -> EnviteState:
    """Rebuild a full state from an observation: the seen cards where they were seen,
    the unseen ones dealt at random, then the deal's visible actions replayed."""
    try:
        r = _read(game, obs)
        dealt = _deal_unseen(r.unseen, r.needs, r.voids, rng)
        return _replayed(game, r, dealt, rng.next64())
    except _NOT_OBSERVATION as err:
        raise RulesError(f"not an Envite observation this game can determinize: {err!r}") from None


def _sampler(game: EnviteGame, obs: Mapping[str, Any]) -> Callable[[Rng], EnviteState]:
    """:func:`_determinize` for many samples of one observation: the observation is read
    and its deal replayed once, on one fitting pack (the template); a sample then shuffles
    the unseen cards with ints, deals them as the depth-first search of
    :func:`_deal_unseen` does, and puts its pack and hands into a copy of the template.
    Everything else in a state (the trick, tricks won, bets, messages, the log's public
    nodes) is the same for every pack that fits: the replay's legality follows from the
    voids every sample respects.  The same ``rng`` gives the very state ``determinize``
    gives (same draws, same pack, same seed).  A deal whose log has already ended (a
    finished match) is sampled by ``determinize`` itself."""
    try:
        r = _read(game, obs)
        unseen = r.unseen
        slots = _slots(unseen, r.needs, r.voids)
        voids = r.voids
        n = game.players
        template = _replayed(game, r, _fill(list(unseen), slots, voids, n), 0)
    except _NOT_OBSERVATION as err:
        raise RulesError(f"not an Envite observation this game can determinize: {err!r}") from None
    td = template._d
    chain: list[tuple[Any, ...]] = []
    node = template._ev
    while node[1] != _K_DEAL:
        chain.append(node[1:])
        node = node[0]
    if r.ended or node[2] is not td or any(item[0] == _K_END for item in chain):
        # A deal already over (the match's last): the slow way.  A renuncio's replay
        # depends on the offender's hidden cards (did it hold a card to follow?).
        return lambda rng: _determinize(game, obs, rng)
    chain.reverse()
    prev = node[0]
    removed = td.start ^ template._h  # the cards played, the same in every sample
    known = 0
    for s in range(n):
        known |= r.start[s] << 40 * s
    # Seats whose voids leave every unseen card possible take the next cards of the
    # shuffled pool: the search gives them that, without trying.
    unseen_mask = 0
    for c in unseen:
        unseen_mask |= 1 << c
    free = all(not voids[s] & unseen_mask for s in slots)
    fills: list[tuple[int, int]] = []  # (bit offset of the seat's hand, cards to deal)
    for s in slots:
        if fills and fills[-1][0] == 40 * s:
            fills[-1] = (40 * s, fills[-1][1] + 1)
        else:
            fills.append((40 * s, 1))
    first = tuple((r.dealer + 1 + k) % n * 40 for k in range(n))
    vira = (r.vira,)
    bet, trick, lead, tw = template._bet, template._trick, template._lead, template._tw
    said, mode, to_act = template._said, template._m, template.to_act

    def sample(rng: Rng) -> EnviteState:
        pool = unseen[:]
        rng.shuffle(pool)
        hands = known
        if free:
            i = 0
            for off, need in fills:
                for c in pool[i : i + need]:
                    hands |= 1 << (off + c)
                i += need
            rest = sorted(pool[i:])
        else:
            dealt = _fill(pool, slots, voids, n)
            given = 0
            for s, mask in enumerate(dealt):
                hands |= mask << 40 * s
                given |= mask
            rest = []  # (a loop, not a comprehension: in 3.11 that is a call)
            for c in unseen:
                if not given >> c & 1:
                    rest.append(c)
        pack: list[int] = []
        for off in first:  # each hand in card order (iter_bits without its generator)
            cards = hands >> off & _FULL
            while cards:
                low = cards & -cards
                pack.append(low.bit_length() - 1)
                cards ^= low
        d = td.copy()
        d.seed = rng.next64()
        d.deck = (*pack, *vira, *rest)
        d.start = hands
        ev: Any = (prev, _K_DEAL, d)
        for item in chain:
            ev = (ev, *item)
        new = _new_state(EnviteState)
        new._g = game
        new._d = d
        new._h = hands & ~removed
        new._trick = trick
        new._lead = lead
        new._tw = tw
        new._said = said
        new._legal = None
        new._m = mode
        new.to_act = to_act
        new._ev = ev
        new._bet = bet
        return new

    return sample
