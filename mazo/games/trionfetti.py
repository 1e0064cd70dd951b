"""Trionfetti (Veneto) for 4 players in partnerships, as specified in ``rules/trionfetti.md``.

Rules profile (rules version 1)
-------------------------------
* 52-card Trevisane pack (ranks 1-10, J, Q, K).  Seats 0+2 against 1+3, play
  counterclockwise (seat ``s+1`` after ``s``).  The 40-card edition is not offered: the
  rules file forbids it (four deals of twelve cards need 48).
* First dealer by drawing cards (the strongest under the normal order deals; only tied
  players draw again), unless ``first_dealer`` names a seat.  The draw is logged and kept
  in the record's ``setup`` so a replay shows it again.
* **Smazzata**: the dealer shuffles, the cutter (the seat before the dealer, ``D-1``)
  cuts and the bottom card is shown; the cutter keeps the ranking in force or sets a new
  one (a preset or any valid custom order); then the same dealer deals four deals of three
  cards each (packets from ``D+1``) from the same pack.  At the fourth deal the dealer
  sees the four cards left; they are shown to all after the second card of trick 1.
* **Deal**: no duty to follow; cards compare by the ranking alone, the first played wins
  among equals; two tricks win the deal (1 point, or the vega's value).
* **Vega**: the seat to play may call it once per deal before playing, worth
  ``points_to_win_game - max(scores)``; the opponents ``accept`` (the deal is worth that)
  or ``refuse`` (the callers score 1, the deal ends).
* Game to ``points_to_win_game`` (20) at once, scores back to 0 and a new smazzata;
  match to ``games_to_win_match`` (3) games.  ``scores`` are points, ``games`` games.

Action layout (``num_actions = 204``)
-------------------------------------
======== ==============================================================================
id       action
======== ==============================================================================
0-51     play that card (Latin 52-card pack, suit-major O C E B, ranks 1..10 J Q K)
52       ``keep``: the cutter keeps the ranking in force
53-57    ``rank <preset-id>``: piu_ponto_e_piu_figure, manco_ponto, piu_ponto,
         manco_e_cavalli, bomba
58       ``vega``   59 ``accept``   60 ``refuse``
61       ``show_bottom``: ask to see the bottom card (``bottom_card_shown="on_request"``)
62       ``peek``: the dealer looks at the four cards left (``dealer_peek_deal4="opt_in"``)
63       ``show``: show one's cards to one's partner (``partner_sharing="opt_in"``)
64-133   ``signal <claim>``: a claim to one's partner (a card code, a rank, or have,
         nothing, strong, weak, want_vega)
134-203  ``announce <claim>``: the same claims made to the whole table
======== ==============================================================================

Outside the int space (strings for :meth:`TrionfettiState.apply`): a custom ranking
``rank <levels as JSON>`` (a list of ``{"rank": "K", "suits": "E"}`` strongest first, or
strings ``"K"`` for all four suits, ``"KE"`` for one card and ``"K(BCO)"``), and free
talk ``tell <text>`` (to the partner) and ``say <text>`` (to the table).

Decisions where the rules file leaves room (see also docs/trionfetti.md)
------------------------------------------------------------------------
* A vega pending is answered by the seat after the caller (``to_act``) or its partner
  (``legal_actions(seat)``); the first answer binds.
* Talk windows (§11.2): from the end of trick 1 to the end of the deal everyone may talk
  to the partner and to the table; in trick 1 only the answering team of a pending vega,
  and after an accepted vega each team until the next card, may talk, to the partner
  only.  A seat may send each message once between two moves of the game.
* ``partner_sharing="opt_in"``: ``show`` shares what the rules allow now: the current hand
  (answering team of a pending vega; everyone after an accepted vega), or the cards left
  at the end of the previous deal (refused vega or 2-0), until the next deal's first card.
* ``bottom_card_shown="on_request"``: any seat may ask (``show_bottom``) at any time of
  the smazzata; then it is public.
* ``history_visible=False``: observations show the current deal's tricks only.
* ``hand_over`` is true on the state whose action ended a deal; the next deal (or the
  next smazzata's ranking choice) is already in it unless the match is over.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from operator import attrgetter
from typing import Any

from mazo.core import HAND_OVER, OVER, PHASE_MASK, Option, int_at_least
from mazo.core.cards import LATIN_52, iter_bits
from mazo.core.errors import IllegalActionError, InvalidActionError, RulesError
from mazo.core.game import DealFacts, DealStart, Game, MatchStart, fresh
from mazo.core.rng import Rng, derive_seed
from mazo.core.tricks import K_PLAY, K_TRICK, PartnershipState, addressed, check_team_setup, unsaid

__all__ = [
    "CLAIMS",
    "OPTIONS",
    "PRESETS",
    "TrionfettiGame",
    "TrionfettiState",
    "parse_ranking",
    "ranking_levels",
]

JSON = dict[str, Any]
DECK = LATIN_52
NUM_CARDS = 52
RANKS = DECK.ranks  # "1".."10", "J", "Q", "K"
SUITS = "OCEB"
_FULL = (1 << NUM_CARDS) - 1
_CODES: tuple[str, ...] = tuple(DECK.format(c) for c in range(NUM_CARDS))

Level = tuple[int, int]  # (rank index into RANKS, suit mask: bit s for suit SUITS[s])
Ranking = tuple[Level, ...]


def _levels(text: str) -> Ranking:
    """A preset written as in §3.3: ``K Q J`` or ``KE`` (one suit) or ``K(BCO)``."""
    out = []
    for word in text.split():
        if "(" in word:
            rank, suits = word[:-1].split("(")
        elif word[-1] in SUITS and word[:-1] in RANKS:
            rank, suits = word[:-1], word[-1]
        else:
            rank, suits = word, SUITS
        out.append((RANKS.index(rank), sum(1 << SUITS.index(s) for s in suits)))
    return tuple(out)


PRESETS: dict[str, Ranking] = {
    "piu_ponto_e_piu_figure": _levels("K Q J 10 9 8 7 6 5 4 3 2 1"),
    "manco_ponto": _levels("1 2 3 4 5 6 7 8 9 10 J Q K"),
    "piu_ponto": _levels("10 9 8 7 6 5 4 3 2 1 K Q J"),
    "manco_e_cavalli": _levels("Q 1 2 3 4 5 6 7 8 9 10 J K"),
    "bomba": _levels("KE QE JE 3 4 2 1 10 9 8 7 6 5 K(BCO) Q(BCO) J(BCO)"),
}
"""§3.3's named rankings, strongest level first."""
_PRESET_IDS = tuple(PRESETS)
_PRESET_OF = {levels: name for name, levels in PRESETS.items()}
DEFAULT_RANKING = "piu_ponto_e_piu_figure"

_ENUM_CLAIMS = ("have", "nothing", "strong", "weak", "want_vega")
CLAIMS: tuple[str, ...] = (*_CODES, *RANKS, *_ENUM_CLAIMS)
"""What a signal may claim (§11.2): a card, a rank, or a short word; never checked."""

KEEP = 52
RANK_BASE = 53
VEGA, ACCEPT, REFUSE, SHOW_BOTTOM, PEEK, SHOW = 58, 59, 60, 61, 62, 63
_WORDS = {
    KEEP: "keep",
    VEGA: "vega",
    ACCEPT: "accept",
    REFUSE: "refuse",
    SHOW_BOTTOM: "show_bottom",
    PEEK: "peek",
    SHOW: "show",
}
_IDS = {word: a for a, word in _WORDS.items()}
SIGNAL_BASE = 64
ANNOUNCE_BASE = SIGNAL_BASE + len(CLAIMS)
NUM_ACTIONS = ANNOUNCE_BASE + len(CLAIMS)
# Message bits per seat in ``_said``: one per claim and audience, then tell and say.
_TELL_BIT = NUM_ACTIONS - SIGNAL_BASE
_SAY_BIT = _TELL_BIT + 1
_NMSG = _SAY_BIT + 1
_MSG_MASK = (1 << _NMSG) - 1
_PARTNER_MSGS = tuple(range(SIGNAL_BASE, ANNOUNCE_BASE))
_ALL_MSGS = tuple(range(SIGNAL_BASE, NUM_ACTIONS))
MAX_TEXT = 200

# Phases (bits 0-1 of ``_m``; OVER = 2 is shared by every game).
PLAY, RANK, VEGA_PENDING = 0, 1, 3
_PHASE_NAMES = {PLAY: "play", RANK: "ranking", VEGA_PENDING: "vega_pending", OVER: "over"}

# Log node kinds: ``(previous node, kind, *payload)``.
(
    _K_SMAZ,
    _K_RANK,
    _K_DEAL,
    _K_PLAY,
    _K_TRICK,
    _K_VEGA,
    _K_ANSWER,
    _K_SHARE,
    _K_PEEK,
    _K_LEFT,
    _K_BOTTOM,
    _K_MSG,
    _K_TEXT,
    _K_END,
    _K_GAME,
    _K_MATCH,
    _K_DRAW,
) = range(17)
assert (_K_PLAY, _K_TRICK) == (K_PLAY, K_TRICK)  # the kinds PartnershipState._event reads


def _ranking_option(value: Any) -> bool:
    """A valid ranking; a RulesError saying what is wrong with any other (the option's
    refusal carries it: 'cards in no level: ...')."""
    parse_ranking(value)
    return True


def _dealer_option(value: Any) -> bool:
    return value == "draw" or (type(value) is int and 0 <= value < 4)


OPTIONS: tuple[Option, ...] = (
    Option(
        "points_to_win_game",
        20,
        None,
        "points that win a game",
        check=int_at_least(1),
        describe="a positive integer",
    ),
    Option(
        "games_to_win_match",
        3,
        None,
        "games that win the match",
        check=int_at_least(1),
        describe="a positive integer",
    ),
    Option(
        "initial_ranking",
        DEFAULT_RANKING,
        None,
        "the ranking in force at the start of the match",
        check=_ranking_option,
        describe="a preset id (" + ", ".join(PRESETS) + ") or a list of levels",
        choices=tuple(PRESETS),
    ),
    Option(
        "first_dealer",
        "draw",
        None,
        "the first dealer: drawn by cards, or a seat",
        check=_dealer_option,
        describe="'draw' or a seat 0..3",
    ),
    Option(
        "bottom_card_shown",
        "always",
        ("always", "on_request"),
        "the bottom card at the cut: shown to all, or only when a player asks",
    ),
    Option(
        "partner_sharing",
        "automatic",
        ("automatic", "opt_in"),
        "hands shown to partners where the rules allow it: always, or when a player chooses",
    ),
    Option(
        "dealer_peek_deal4",
        "automatic",
        ("automatic", "opt_in"),
        "the dealer sees the four cards left at deal 4: always, or when he chooses",
    ),
    Option(
        "history_visible",
        True,
        (True, False),
        "the smazzata's played cards stay in view (perfect recall), or only this deal's",
    ),
    Option("messages", True, (True, False), "talk and signals between players (off: silent)"),
)


# -- rankings ------------------------------------------------------------------------------


def ranking_levels(ranking: Ranking) -> list[JSON]:
    """A ranking as JSON levels, strongest first: ``[{"rank": "K", "suits": "OCEB"}, ...]``."""
    return [
        {"rank": RANKS[r], "suits": "".join(s for i, s in enumerate(SUITS) if m >> i & 1)}
        for r, m in ranking
    ]


def _level_from(item: Any, index: int) -> Level:
    where = f"level {index + 1}"
    if isinstance(item, str):
        text = item.strip().upper()
        if "(" in text and text.endswith(")"):
            rank, suits = text[:-1].split("(", 1)
        elif len(text) > 1 and text[-1] in SUITS and text[:-1] in (*RANKS, "A"):
            rank, suits = text[:-1], text[-1]  # one card: "KE"
        else:
            rank, suits = text, SUITS
    elif isinstance(item, Mapping):
        extra = sorted(set(item) - {"rank", "suits"})
        if extra:
            raise RulesError(
                f"{where} has {', '.join(map(repr, extra))}: a level is only a rank and its "
                "suits; a card's strength may not depend on the trick or the play (§3.2)"
            )
        got_rank = item.get("rank")
        got_suits = item.get("suits", SUITS)
        if not isinstance(got_rank, str) or not isinstance(got_suits, str):
            raise RulesError(f"{where}: 'rank' and 'suits' are strings, e.g. 'K' and 'E'")
        rank, suits = got_rank.strip().upper(), got_suits.strip().upper()
    elif isinstance(item, list | tuple) and len(item) == 2:
        second = str(item[1]).strip().upper()
        if second in RANKS or second == "A":
            raise RulesError(
                f"{where} holds ranks {item[0]!r} and {item[1]!r}: a level holds exactly one "
                "rank (different ranks are never equal, §3.2)"
            )
        return _level_from({"rank": item[0], "suits": item[1]}, index)
    else:
        raise RulesError(f"{where} must be {{'rank': ..., 'suits': ...}} or a string like 'K'")
    if rank == "A":
        rank = "1"
    if rank not in RANKS:
        raise RulesError(
            f"{where}: {rank!r} is not one rank; a level holds exactly one rank of "
            f"{' '.join(RANKS)} (different ranks are never equal, §3.2)"
        )
    if not suits or any(s not in SUITS for s in suits) or len(set(suits)) != len(suits):
        raise RulesError(f"{where}: suits must be distinct letters of O C E B, not {suits!r}")
    return RANKS.index(rank), sum(1 << SUITS.index(s) for s in suits)


def parse_ranking(value: Any) -> Ranking:
    """A ranking from a preset id, a JSON text or a list of levels, checked against §3.2.

    >>> parse_ranking("bomba")[:3] == ((12, 4), (11, 4), (10, 4))
    True
    >>> parse_ranking(["K", "Q"])
    Traceback (most recent call last):
    ...
    mazo.core.errors.RulesError: invalid ranking: cards in no level: 1O 2O 3O ... (44 cards)
    """
    if isinstance(value, str):
        name = value.strip().lower()
        if name in PRESETS:
            return PRESETS[name]
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise RulesError(
                f"{value!r} is neither a preset ({', '.join(PRESETS)}) nor a JSON list of levels"
            ) from None
    if not isinstance(value, list | tuple) or not value:
        raise RulesError("a ranking is a preset id or a non-empty list of levels, strongest first")
    levels = tuple(_level_from(item, i) for i, item in enumerate(value))
    seen: dict[int, int] = {}
    twice = []
    for i, (r, m) in enumerate(levels):
        for s in range(4):
            if m >> s & 1:
                card = s * 13 + r
                if card in seen:
                    twice.append(f"{_CODES[card]} (levels {seen[card] + 1} and {i + 1})")
                seen[card] = i
    if twice:
        raise RulesError("invalid ranking: a card in two levels: " + ", ".join(twice))
    missing = [_CODES[c] for c in range(NUM_CARDS) if c not in seen]
    if missing:
        shown = " ".join(missing[:3]) + (f" ... ({len(missing)} cards)" if len(missing) > 3 else "")
        raise RulesError(f"invalid ranking: cards in no level: {shown}")
    return levels


@cache
def _strength(ranking: Ranking) -> tuple[int, ...]:
    """Per card id, the strength of its level (higher wins)."""
    out = [0] * NUM_CARDS
    top = len(ranking)
    for i, (r, m) in enumerate(ranking):
        for s in range(4):
            if m >> s & 1:
                out[s * 13 + r] = top - i
    return tuple(out)


def _ranking_text(ranking: Ranking) -> str:
    name = _PRESET_OF.get(ranking)
    if name is not None:
        return "rank " + name
    return "rank " + json.dumps(ranking_levels(ranking), separators=(",", ":"))


# -- the game --------------------------------------------------------------------------------


class _Deal(DealFacts):
    """What is fixed for one deal (or a smazzata's ranking choice), shared by its states."""

    __slots__ = (
        "dealer",
        "draw",
        "games",
        "k",
        "number",
        "pack",
        "packs",
        "ranking",
        "scores",
        "seed",
        "smazzata",
        "strength",
    )

    number: int  # deals dealt in the match so far, this one included (0 before the first)
    smazzata: int
    k: int  # deal 1-4 of the smazzata
    dealer: int
    pack: tuple[int, ...]  # the smazzata's pack after the cut, top first
    ranking: Ranking
    strength: tuple[int, ...]
    scores: tuple[int, ...]
    games: tuple[int, ...]
    seed: int
    packs: tuple[tuple[int, ...], ...]
    draw: tuple[tuple[tuple[int, int], ...], ...] | None  # the first dealer's draw

    def started(self) -> DealStart:
        """A record lists smazzate: each has one pack, from which its four deals come."""
        return DealStart(self, self.smazzata, self.pack)

    def copy(self) -> _Deal:
        """:meth:`DealFacts.copy` written out (a search's samples copy a few a sample, and
        every line's end one): the same fields, unset ones an error as there."""
        new: _Deal = _new_state(_Deal)
        new.dealer = self.dealer
        new.draw = self.draw
        new.games = self.games
        new.k = self.k
        new.number = self.number
        new.pack = self.pack
        new.packs = self.packs
        new.ranking = self.ranking
        new.scores = self.scores
        new.seed = self.seed
        new.smazzata = self.smazzata
        new.strength = self.strength
        return new


class TrionfettiGame(Game):
    """Trionfetti rules, configured by options (always 4 players)."""

    name = "trionfetti"
    rules_version = 1
    player_counts = (4,)
    default_players = 4
    option_specs = OPTIONS

    def _configure(self) -> None:
        opts = self.options
        self.sides = 2
        self.side_of: tuple[int, ...] = (0, 1, 0, 1)
        self.target: int = opts["points_to_win_game"]
        self.match_target: int = opts["games_to_win_match"]
        self.initial_ranking = parse_ranking(opts["initial_ranking"])
        self.automatic_sharing = opts["partner_sharing"] == "automatic"
        self.talk = bool(opts["messages"])
        self._describe(
            NUM_ACTIONS,
            DECK,
            True,
            frozenset(_ALL_MSGS),
            score_unit="points",
            score_target=self.target,
            games_unit="games",
            games_target=self.match_target,
        )

    # -- notation ------------------------------------------------------------------

    def _move_string(self, action: int) -> str:
        """``keep``, ``rank bomba``, ``vega``, ``signal KE``, ``announce have``... (not cards)."""
        if RANK_BASE <= action < VEGA:
            return "rank " + _PRESET_IDS[action - RANK_BASE]
        if action < SIGNAL_BASE:
            return _WORDS[action]
        if action < ANNOUNCE_BASE:
            return "signal " + CLAIMS[action - SIGNAL_BASE]
        return "announce " + CLAIMS[action - ANNOUNCE_BASE]

    def string_to_action(self, text: str) -> int:
        """Parse an action string into its id.  A custom ranking and free talk have no id:
        pass their strings to ``apply``."""
        if not isinstance(text, str):
            raise InvalidActionError(f"{text!r} is not an action string")
        words = text.strip().split(None, 1)
        head = words[0].lower() if words else ""
        if head in _IDS and len(words) == 1:
            return _IDS[head]
        if head == "rank" and len(words) == 2:
            name = words[1].strip().lower()
            if name in PRESETS:
                return RANK_BASE + _PRESET_IDS.index(name)
            raise InvalidActionError(
                f"{text!r}: a custom ranking has no action id; give the string to apply(); "
                f"presets are: {', '.join(PRESETS)}"
            )
        if head in ("signal", "announce") and len(words) == 2:
            claim = _claim_index(words[1])
            if claim is None:
                raise InvalidActionError(
                    f"{text!r}: a claim is a card (7O), a rank (K) or one of: "
                    + ", ".join(_ENUM_CLAIMS)
                )
            return (SIGNAL_BASE if head == "signal" else ANNOUNCE_BASE) + claim
        if head in ("tell", "say"):
            raise InvalidActionError(
                f"{text!r}: free talk has no action id; give the string to apply()"
            )
        try:
            return DECK.parse(text)
        except InvalidActionError as err:
            raise InvalidActionError(
                f"{err}; Trionfetti actions also are: keep, rank <preset or levels JSON>, "
                "vega, accept, refuse, show_bottom, peek, show, signal <claim>, "
                "announce <claim>, tell <text>, say <text>"
            ) from None

    # -- matches -----------------------------------------------------------------

    def match_winner(self, scores: Any) -> int | None:
        """Trionfetti is won on games (see TrionfettiState.winner), never on points."""
        return None

    def check_setup(self, setup: Mapping[str, Any]) -> tuple[int, ...]:
        """``{"scores", "games", "ranking", "deal", "dealer_draw"}``; returns the scores."""
        keys = ("scores", "games", "ranking", "deal", "dealer_draw")
        tops = {"scores": (self.target - 1, "points"), "games": (self.match_target - 1, "games")}
        check_team_setup("trionfetti", setup, keys, tops)
        deal = setup.get("deal", 1)
        if type(deal) is not int or not 1 <= deal <= 4:
            raise RulesError(f"setup deal is the deal 1-4 of the smazzata, not {deal!r}")
        if "ranking" in setup:
            parse_ranking(setup["ranking"])
        return tuple(setup.get("scores", (0, 0)))

    def _new_match(self, start: MatchStart) -> TrionfettiState:
        seed, setup, dealer = start.seed, start.setup, start.dealer
        games = tuple(setup.get("games", (0, 0)))
        ranking = parse_ranking(setup["ranking"]) if "ranking" in setup else self.initial_ranking
        k = setup.get("deal", 1)
        draw = None
        if "dealer_draw" in setup:
            draw = _check_draw(setup["dealer_draw"])
            drawn = _draw_winner(draw)
            if dealer is not None and dealer != drawn:
                raise RulesError(f"the dealer draw makes seat {drawn} the dealer, not {dealer}")
            dealer = drawn
        elif dealer is None:
            chosen = self.options["first_dealer"]
            if chosen == "draw":
                draw = _draw(Rng(derive_seed(seed, "dealer draw")))
                dealer = _draw_winner(draw)
            else:
                dealer = chosen
        assert dealer is not None
        prev: Any = None
        if draw is not None:
            prev = (None, _K_DRAW, draw)
        d = _Deal.begin(0, dealer, start.scores, derive_seed(seed, "packs"), start.packs)
        d.smazzata = 1
        d.k = k
        d.ranking = ranking
        d.games = games
        d.draw = draw
        return _start_smazzata(self, d, prev)

    def determinize(self, observation: Mapping[str, Any], rng: Rng) -> TrionfettiState:
        """A full state consistent with ``observation``; unseen cards placed at random."""
        return _determinize(self, observation, rng)

    def sampler(self, observation: Mapping[str, Any]) -> Callable[[Rng], TrionfettiState]:
        """``determinize`` for many samples of one observation: read it once, then each
        sample only deals the unseen cards (the same state as ``determinize`` for the
        same rng)."""
        return _sampler(self, observation)


def _claim_index(text: str) -> int | None:
    word = text.strip()
    low = word.lower()
    if low in _ENUM_CLAIMS:
        return len(_CODES) + len(RANKS) + _ENUM_CLAIMS.index(low)
    up = word.upper()
    if up == "A":
        up = "1"
    if up in RANKS:
        return len(_CODES) + RANKS.index(up)
    try:
        return DECK.parse(word)
    except InvalidActionError:
        return None


def _draw(rng: Rng) -> tuple[tuple[tuple[int, int], ...], ...]:
    """§3.5: everyone draws a card; the tied best ranks draw again from the same pack."""
    pack = rng.shuffled(range(NUM_CARDS))
    strength = _strength(PRESETS[DEFAULT_RANKING])
    rounds = []
    seats = [0, 1, 2, 3]
    while True:
        drawn = tuple((s, pack.pop()) for s in seats)
        rounds.append(drawn)
        best = max(strength[c] for _, c in drawn)
        seats = [s for s, c in drawn if strength[c] == best]
        if len(seats) == 1:
            return tuple(rounds)


def _draw_winner(rounds: tuple[tuple[tuple[int, int], ...], ...]) -> int:
    strength = _strength(PRESETS[DEFAULT_RANKING])
    last = rounds[-1]
    best = max(strength[c] for _, c in last)
    return next(s for s, c in last if strength[c] == best)


def _check_draw(value: Any) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A recorded dealer draw: rounds of [seat, card]; each round only the tied seats."""
    try:
        rounds = tuple(
            tuple((int(s), DECK.parse(c) if isinstance(c, str) else int(c)) for s, c in rnd)
            for rnd in value
        )
    except (TypeError, ValueError, InvalidActionError):
        raise RulesError("dealer_draw is a list of rounds of [seat, card] pairs") from None
    strength = _strength(PRESETS[DEFAULT_RANKING])
    seats = [0, 1, 2, 3]
    cards: set[int] = set()
    for i, rnd in enumerate(rounds):
        if [s for s, _ in rnd] != seats:
            raise RulesError(f"dealer_draw round {i + 1} must be drawn by seats {seats}")
        for _, c in rnd:
            if c in cards or not 0 <= c < NUM_CARDS:
                raise RulesError("dealer_draw: every drawn card is a different card of the pack")
            cards.add(c)
        best = max(strength[c] for _, c in rnd)
        seats = [s for s, c in rnd if strength[c] == best]
        if (len(seats) == 1) != (i == len(rounds) - 1):
            raise RulesError("dealer_draw: only tied players draw again, until one is best")
    if not rounds:
        raise RulesError("dealer_draw has no round")
    return rounds


_new_state = object.__new__


def _start_smazzata(game: TrionfettiGame, d: _Deal, prev: Any) -> TrionfettiState:
    """§5.1-2: shuffle, cut, show the bottom card, then the cutter's ranking choice (or,
    for a match placed at deal 2-4 by ``setup``, straight to that deal ``d.k``).  ``d``:
    the smazzata's facts with its number, dealer, ranking, scores, games, seed, packs."""
    pack, d.packs = game._next_pack(d.packs, d.seed, d.smazzata)
    dealer, k = d.dealer, d.k
    d.pack = pack
    d.strength = _strength(d.ranking)
    shown = game.options["bottom_card_shown"] == "always"
    ev = (prev, _K_SMAZ, d, d.ranking, d.scores, d.games, shown)
    flag = HAND_OVER if prev is not None and prev[1] != _K_DRAW else 0
    # the cutter (the dealer's left) chooses the ranking, unless the setup starts later
    state = TrionfettiState._dealt(game, d, 0, (dealer + 1) % 4, RANK | flag, (dealer + 3) % 4, ev)
    state._vega = _NO_VEGA
    state._x = _NO_EXTRA
    if k == 1:
        return state
    state._m = flag
    return _deal(state, d, k)


def _deal(state: TrionfettiState, d: _Deal, k: int) -> TrionfettiState:
    """§5.3: deal ``k`` of the smazzata: a packet of 3 to each seat from ``D+1``."""
    d = d.copy()
    d.k = k
    d.number += 1
    start = 12 * (k - 1)
    hands = 0
    for j in range(4):
        seat = (d.dealer + 1 + j) % 4
        for c in d.pack[start + 3 * j : start + 3 * j + 3]:
            hands |= 1 << (seat * 52 + c)
    state._d = d
    state._new_deal(hands, (d.dealer + 1) % 4)
    state._vega = _NO_VEGA
    state._m = state._m & HAND_OVER | PLAY
    state.to_act = state._lead
    ev: Any = (state._ev, _K_DEAL, d)
    if k == 4 and state._g.options["dealer_peek_deal4"] == "automatic":
        ev = (ev, _K_PEEK, d.dealer, _leftover(d))
    state._ev = ev
    return state


def _leftover(d: _Deal) -> int:
    mask = 0
    for c in d.pack[48:]:
        mask |= 1 << c
    return mask


# Two small tuples of a state, read through named indices (a NamedTuple's fields, even
# indexed, read about three times slower in CPython 3.11, and ``_compute_legal`` and
# ``_play`` read them on every move).
# ``_vega``: whether the vega was called this deal, the calling team, its value, the
# caller, the stake the deal is played for, and whether the talk window that follows an
# acceptance is open.
_V_USED, _V_TEAM, _V_VALUE, _V_CALLER, _V_STAKE, _V_TALK = range(6)
_NO_VEGA = (False, -1, 0, -1, 1, False)
# ``_x``, what has been shown: per seat the cards left from the previous deal's end it may
# still show its partner (opt-in sharing), per seat the cards it has shown its partner this
# smazzata, whether the dealer peeked, whether the leftover is public, whether the bottom
# card is public.
_X_LATE, _X_SHOWN, _X_PEEKED, _X_LEFTOVER, _X_BOTTOM = range(5)
_NO_EXTRA: tuple[Any, ...] = ((0, 0, 0, 0), (0, 0, 0, 0), False, False, False)


def _with(fields: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``fields`` with the one at ``index`` replaced (off the hot path: a call costs more
    than the slicing it names)."""
    return (*fields[:index], value, *fields[index + 1 :])


class TrionfettiState(PartnershipState):
    """An immutable Trionfetti match position.

    ``_h`` packs every seat's hand (seat ``s`` owns bits ``52s..52s+51``); ``_trick`` the
    trick in progress from its leader ``_lead``; ``_tw`` tricks won (team 0 in bits 0-3,
    team 1 in 4-7); ``_vega`` the vega of the deal; ``_x`` what has been shown; ``_said``
    the messages sent since the last move; ``_ev`` a persistent list of log nodes.
    """

    __slots__ = ("_vega", "_x")

    _g: TrionfettiGame
    _d: _Deal
    _vega: tuple[bool, int, int, int, int, bool]
    _x: tuple[Any, ...]

    # -- public views ------------------------------------------------------------------

    @property
    def phase(self) -> str:
        """``ranking``, ``play``, ``vega_pending`` or ``over``."""
        return _PHASE_NAMES[self._m & PHASE_MASK]

    @property
    def deal_in_smazzata(self) -> int:
        """The deal 1-4 of the smazzata in progress."""
        return self._d.k

    @property
    def ranking(self) -> list[JSON]:
        """The ranking in force, strongest level first."""
        return ranking_levels(self._d.ranking)

    @property
    def bottom_card(self) -> str:
        """The bottom card of the smazzata's pack (shown at the cut)."""
        return _CODES[self._d.pack[-1]]

    # Omniscient views, for tests and tools; never hand them to a client or a bot.

    def hand(self, seat: int) -> list[str]:
        """The cards in a seat's hand."""
        return DECK.codes(self._h >> seat * 52 & _FULL)

    def stock(self) -> list[str]:
        """The undealt part of the smazzata's pack, next card first (the bottom card last)."""
        d = self._d
        dealt = 12 * d.k if self._m & PHASE_MASK != RANK else 0
        return [_CODES[c] for c in d.pack[dealt:]]

    # -- actions ------------------------------------------------------------------------

    def _compute_legal(self, seat: int) -> list[int]:
        phase = self._m & PHASE_MASK
        if phase == OVER:
            return []
        game = self._g
        out: list[int]
        vega = self._vega
        if phase == RANK:
            out = [KEEP, *range(RANK_BASE, VEGA)] if seat == self.to_act else []
        elif phase == PLAY:
            if seat == self.to_act:
                out = list(iter_bits(self._h >> seat * 52 & _FULL))
                if not vega[_V_USED]:
                    out.append(VEGA)
            else:
                out = []
        else:
            out = [ACCEPT, REFUSE] if seat % 2 != vega[_V_TEAM] else []
        x = self._x
        if game.options["bottom_card_shown"] == "on_request" and not x[_X_BOTTOM]:
            out.append(SHOW_BOTTOM)
        if (
            phase != RANK
            and self._d.k == 4
            and seat == self._d.dealer
            and not x[_X_PEEKED]
            and not x[_X_LEFTOVER]
            and game.options["dealer_peek_deal4"] == "opt_in"
        ):
            out.append(PEEK)
        if not game.automatic_sharing and self._showable(seat):
            out.append(SHOW)
        talk = self._talk(seat)
        if talk:
            msgs = _ALL_MSGS if talk == 2 else _PARTNER_MSGS
            said = self._said >> seat * _NMSG & _MSG_MASK
            out += unsaid(msgs, said, SIGNAL_BASE) if said else msgs  # no call: the usual case
        return out

    def _talk(self, seat: int) -> int:
        """§11.2 for ``seat`` now: 0 silence, 1 partner only, 2 partner and table."""
        if not self._g.talk:
            return 0
        phase = self._m & PHASE_MASK
        if phase in (RANK, OVER):
            return 0
        if self._tw:  # trick 1 is over: free talk until the deal ends
            return 2
        vega = self._vega
        if phase == VEGA_PENDING:
            return 1 if seat % 2 != vega[_V_TEAM] else 0
        return 1 if vega[_V_TALK] else 0

    def _showable(self, seat: int) -> int:
        """Opt-in sharing: the cards ``seat`` may show its partner now and has not."""
        phase = self._m & PHASE_MASK
        if phase == OVER:
            return 0
        vega = self._vega
        allowed: int = self._x[_X_LATE][seat]
        if (phase == VEGA_PENDING and seat % 2 != vega[_V_TEAM]) or (
            phase == PLAY and vega[_V_USED]
        ):
            allowed |= self._h >> seat * 52 & _FULL
        shown: int = self._x[_X_SHOWN][seat]
        return allowed & ~shown

    def _apply_text(self, action: object, seat: int | None) -> TrionfettiState:
        """Besides the ids' strings, ``rank <levels JSON>`` (the cutter's custom ranking),
        ``tell <text>`` and ``say <text>`` (free talk) are accepted as strings."""
        if isinstance(action, str):
            special = self._special(action, seat)
            if special is not None:
                return special
        return self.apply(self._g.action_id(action), seat)

    def _play_card(self, seat: int, action: int) -> TrionfettiState:
        """The hot path (:meth:`MatchState.apply`): a card from the hand of the seat to
        act; anything else goes to :meth:`_apply_other`."""
        bit = 1 << (seat * 52 + action)
        if not self._h & bit:
            return self._apply_other(action, seat)
        card = action
        hands = self._h ^ bit
        trick = self._trick + (card,)  # noqa: RUF005 (cheaper than unpacking)
        new = _new_state(TrionfettiState)
        new._g = self._g
        d = new._d = self._d
        new._h = hands
        new._said = 0
        new._legal = None
        new._m = PLAY
        vega = self._vega
        new._vega = _with(vega, _V_TALK, False) if vega[_V_TALK] else vega
        x = self._x
        if x[_X_LATE] != _NO_EXTRA[_X_LATE]:
            # the previous deal's cards may no longer be shown
            x = _with(x, _X_LATE, _NO_EXTRA[_X_LATE])
        ev: Any = (self._ev, _K_PLAY, seat, card)
        tw = self._tw
        if len(trick) == 2 and d.k == 4 and not tw and not x[_X_LEFTOVER]:
            ev = (ev, _K_LEFT, _leftover(d))
            x = _with(x, _X_LEFTOVER, True)
        new._x = x
        if len(trick) < 4:
            new._trick = trick
            new._lead = self._lead
            new._tw = tw
            new.to_act = seat + 1 if seat < 3 else 0
            new._ev = ev
            return new
        # §7: the highest level wins; among equals the card played first.
        strength = d.strength
        best, top = 0, strength[trick[0]]
        for i in (1, 2, 3):
            s = strength[trick[i]]
            if s > top:
                best, top = i, s
        team = self._close_trick(new, ev, trick, best, tw)
        if team >= 0:
            return _end_deal(new, "tricks", team, vega[_V_STAKE])
        return new

    def play_to_deal_end(
        self, pick: Callable[[int, int, int, tuple[int, ...], int, int, Any, Any], int]
    ) -> TrionfettiState:
        """The line's state at this deal's end when every move from here is
        ``pick(seat, phase, hands, trick, lead, tw, vega, x)`` (the seat to act, the phase
        bits of ``_m``, then the slots ``_h``, ``_trick``, ``_lead``, ``_tw``, ``_vega``,
        ``_x`` as they stand): the same final state and log as :meth:`apply` move by move
        (tested), without building the states between card plays.  For a search's
        rollouts, from a state of the play phase or with a vega pending (no flag set).

        Card plays are made here on the slots' values (:meth:`_play_card`'s steps, the
        deal's end by :func:`_end_deal` as there); the few other moves (a vega, its
        answer) go through the engine's own methods on a state built for them.  ``pick``
        must return a card of the seat's hand or a legal vega or answer (not checked: it
        is the search's own policy, and a card from elsewhere would corrupt the hands)."""
        m = self._m
        seat = self.to_act
        if m not in (PLAY, VEGA_PENDING) or seat is None:
            raise RulesError("play_to_deal_end plays from the play phase or a pending vega")
        g = self._g
        d = self._d
        strength = d.strength
        h, trick, lead, tw = self._h, self._trick, self._lead, self._tw
        vega, x, ev = self._vega, self._x, self._ev
        said = self._said
        no_late = _NO_EXTRA[_X_LATE]
        while True:
            action = pick(seat, m, h, trick, lead, tw, vega, x)
            if m == PLAY and action < NUM_CARDS:
                # _play_card's steps on the slots' values
                h ^= 1 << (seat * 52 + action)
                trick = (*trick, action)
                said = 0
                stake = vega[_V_STAKE]
                if vega[_V_TALK]:
                    vega = _with(vega, _V_TALK, False)
                if x[_X_LATE] != no_late:
                    x = _with(x, _X_LATE, no_late)
                ev = (ev, _K_PLAY, seat, action)
                if len(trick) == 2 and d.k == 4 and not tw and not x[_X_LEFTOVER]:
                    ev = (ev, _K_LEFT, _leftover(d))
                    x = _with(x, _X_LEFTOVER, True)
                if len(trick) < 4:
                    seat = seat + 1 if seat < 3 else 0
                    continue
                best, top = 0, strength[trick[0]]
                for i in (1, 2, 3):
                    if strength[trick[i]] > top:
                        best, top = i, strength[trick[i]]
                # _close_trick's steps
                winner = (lead + best) % 4
                team = winner & 1
                tw += 1 << 4 * team
                ev = (ev, _K_TRICK, winner, trick, lead)
                trick = ()
                lead = seat = winner
                if tw >> 4 * team & 15 == 2:  # the deal's end: the state _play_card makes
                    end = _new_state(TrionfettiState)
                    end._g = g
                    end._d = d
                    end._h = h
                    end._said = 0
                    end._legal = None
                    end._m = PLAY
                    end._vega = vega
                    end._x = x
                    end._trick = trick
                    end._lead = lead
                    end._tw = tw
                    end.to_act = seat
                    end._ev = ev
                    return _end_deal(end, "tricks", team, stake)
                continue
            # A vega or its answer: the engine's own methods.
            now = _new_state(TrionfettiState)
            now._g = g
            now._d = d
            now._h = h
            now._trick = trick
            now._lead = lead
            now._tw = tw
            now._said = said
            now._legal = None
            now._m = m
            now.to_act = seat
            now._ev = ev
            now._vega = vega
            now._x = x
            if action == VEGA:
                new = now._call_vega(seat)
            elif action in (ACCEPT, REFUSE):
                new = now._answer(seat, action == ACCEPT)
            else:
                raise RulesError(f"play_to_deal_end plays no {g.action_to_string(action)}")
            if new._m & HAND_OVER:
                return new  # a refused vega ends the deal
            m, seat = new._m, new.to_act
            assert seat is not None
            h, trick, lead, tw = new._h, new._trick, new._lead, new._tw
            vega, x, ev = new._vega, new._x, new._ev
            said = 0

    # -- transitions --------------------------------------------------------------------

    def _carry(self, new: TrionfettiState) -> None:
        new._vega = self._vega
        new._x = self._x

    def _special(self, text: str, seat: int | None) -> TrionfettiState | None:
        """A custom ranking or free talk (string-only actions); None for anything else."""
        words = text.strip().split(None, 1)
        if len(words) != 2:
            return None
        head = words[0].lower()
        if head == "rank" and words[1].strip().lower() not in PRESETS:
            actor = self._actor(text, seat)
            if self._m & PHASE_MASK != RANK or actor != self.to_act:
                raise IllegalActionError(self._why_illegal(KEEP, actor).replace("keep", "rank"))
            try:
                ranking = parse_ranking(words[1])
            except RulesError as err:
                raise IllegalActionError(f"rank: {err}") from None
            return self._set_ranking(actor, ranking)
        if head in ("tell", "say"):
            actor = self._actor(text, seat)
            message = words[1].strip()
            if not message or len(message) > MAX_TEXT or not message.isprintable():
                raise IllegalActionError(
                    f"{head}: a message is 1-{MAX_TEXT} printable characters on one line"
                )
            talk = self._talk(actor)
            bit = _TELL_BIT if head == "tell" else _SAY_BIT
            if talk < (1 if head == "tell" else 2):
                raise IllegalActionError(f"{head}: {self._silence(actor)}")
            if self._said >> (actor * _NMSG + bit) & 1:
                raise IllegalActionError(f"{head}: seat {actor} already spoke since the last move")
            new = self._derive()
            new._said = self._said | 1 << (actor * _NMSG + bit)
            audience = (actor, (actor + 2) % 4) if head == "tell" else None
            new._ev = (self._ev, _K_TEXT, actor, head, message, audience)
            return new
        return None

    def _actor(self, text: str, seat: int | None) -> int:
        to_act = self.to_act
        if to_act is None:
            raise self._no_action(text)
        if seat is not None and (type(seat) is not int or not 0 <= seat < 4):
            raise IllegalActionError(f"seat must be 0..3, not {seat!r}")
        return to_act if seat is None else seat

    def _silence(self, seat: int) -> str:
        if not self._g.talk:
            return "talk is off (option messages)"
        phase = self._m & PHASE_MASK
        if phase == RANK:
            return "no talk before the deal"
        if phase == VEGA_PENDING and seat % 2 == self._vega[_V_TEAM]:
            return "only the answering team may confer while a vega waits"
        if phase != VEGA_PENDING and not self._vega[_V_TALK] and not self._tw:
            return "no talk in the first trick (§11.2)"
        return "only partners may confer now, not the table"

    def _apply_other(self, a: int, seat: int | None) -> TrionfettiState:
        text = self._g.action_to_string(a)
        actor = self._actor(text, seat)
        if a not in self.legal_actions(actor):
            raise IllegalActionError(self._why_illegal(a, actor))
        if a < NUM_CARDS:
            return self._play_card(actor, a)
        if a >= SIGNAL_BASE:
            new = self._derive()
            new._said = self._said | 1 << (actor * _NMSG + a - SIGNAL_BASE)
            audience = (actor, (actor + 2) % 4) if a < ANNOUNCE_BASE else None
            new._ev = (self._ev, _K_MSG, actor, a, audience)
            return new
        if a == KEEP:
            return self._set_ranking(actor, None)
        if RANK_BASE <= a < VEGA:
            return self._set_ranking(actor, PRESETS[_PRESET_IDS[a - RANK_BASE]])
        if a == VEGA:
            return self._call_vega(actor)
        if a in (ACCEPT, REFUSE):
            return self._answer(actor, a == ACCEPT)
        new = self._derive()
        x = self._x
        if a == SHOW_BOTTOM:
            new._x = _with(x, _X_BOTTOM, True)
            new._ev = (self._ev, _K_BOTTOM, actor, self._d.pack[-1])
        elif a == PEEK:
            new._x = _with(x, _X_PEEKED, True)
            new._ev = (self._ev, _K_PEEK, actor, _leftover(self._d))
        else:  # SHOW: the previous deal's cards left, then the hand (two log nodes)
            cards = self._showable(actor)
            late = cards & x[_X_LATE][actor]
            ev = self._ev
            if late:
                ev = (ev, _K_SHARE, actor, late, "shown_previous")
            if cards & ~late:
                ev = (ev, _K_SHARE, actor, cards & ~late, "shown")
            new._x = _shared(x, actor, cards)
            new._ev = ev
        return new

    def _set_ranking(self, seat: int, ranking: Ranking | None) -> TrionfettiState:
        new = self._derive()
        d = self._d.copy()
        if ranking is not None:
            d.ranking = ranking
            d.strength = _strength(ranking)
        new._ev = (self._ev, _K_RANK, seat, ranking)
        return _deal(new, d, 1)

    def _call_vega(self, seat: int) -> TrionfettiState:
        new = self._derive()
        team = seat % 2
        value = self._g.target - max(self._d.scores)
        new._vega = (True, team, value, seat, 1, False)
        new._m = VEGA_PENDING
        new.to_act = (seat + 1) % 4
        ev: Any = (self._ev, _K_VEGA, seat, value)
        # §11.1: the answering team see each other's hands while they decide.
        new._ev = self._share_hands(new, ev, 1 - team, "vega_pending")
        return new

    def _share_hands(self, new: TrionfettiState, ev: Any, team: int, why: str) -> Any:
        """With automatic sharing, ``team``'s seats show their hands to each other in
        ``new`` (``why``: the share event's reason); the log's newest node after ``ev``."""
        if self._g.automatic_sharing:
            x = self._x
            for s in (team, team + 2):
                cards = self._h >> s * 52 & _FULL
                if cards:
                    ev = (ev, _K_SHARE, s, cards, why)
                    x = _shared(x, s, cards)
            new._x = x
        return ev

    def _answer(self, seat: int, accept: bool) -> TrionfettiState:
        new = self._derive()
        _used, team, value, caller, _stake, _talk = self._vega
        ev: Any = (self._ev, _K_ANSWER, seat, accept)
        if not accept:
            new._ev = ev
            return _end_deal(new, "refused", team, 1)
        new._vega = (True, team, value, caller, value, True)
        new._m = PLAY
        new.to_act = caller
        # the callers now see each other's hands too
        new._ev = self._share_hands(new, ev, team, "vega_accepted")
        return new

    def _why_illegal(self, a: int, seat: int) -> str:
        text = self._g.action_to_string(a)
        phase = self._m & PHASE_MASK
        if phase == OVER:
            return f"{text}: the match is over"
        if a == KEEP or RANK_BASE <= a < VEGA:
            if phase != RANK:
                return f"{text}: the ranking is chosen only before a smazzata is dealt"
            return f"{text}: only the cutter, seat {self.to_act}, chooses the ranking"
        if a < NUM_CARDS or a == VEGA:
            if phase == RANK:
                return f"{text}: the cutter (seat {self.to_act}) must first choose the ranking"
            if phase == VEGA_PENDING:
                return f"{text}: a vega waits for an answer"
            if seat != self.to_act:
                return self._not_turn(text, seat)
            if a == VEGA:
                return "vega: only one vega per deal, and it has been called"
            return f"{text}: {text} is not in seat {seat}'s hand"
        if a in (ACCEPT, REFUSE):
            if phase != VEGA_PENDING:
                return f"{text}: there is no vega to answer"
            return f"{text}: a team never answers its own vega"
        if a == SHOW_BOTTOM:
            if self._g.options["bottom_card_shown"] == "always":
                return "show_bottom: the bottom card is always shown (bottom_card_shown)"
            return "show_bottom: it is already shown"
        if a == PEEK:
            return "peek: only the dealer, once, in deal 4 before the cards left are shown"
        if a == SHOW:
            if self._g.automatic_sharing:
                return "show: partners' hands are shared automatically (partner_sharing)"
            return "show: nothing may be shown to the partner now (§11.1)"
        if not self._talk(seat) or (a >= ANNOUNCE_BASE and self._talk(seat) < 2):
            return f"{text}: {self._silence(seat)}"
        return f"{text}: seat {seat} already said it since the last move"

    # -- information ---------------------------------------------------------------------

    def _observation(self, seat: int | None) -> JSON:
        return _observe(self, seat)

    def _game_event(self, node: tuple[Any, ...]) -> JSON:
        # the events of the log's other nodes than cards and tricks; private ones (partner
        # talk, hands shown) name their ``audience``
        kind = node[1]
        if kind == _K_MSG:
            _p, _k, seat, a, audience = node
            out: JSON = {
                "type": "signal" if a < ANNOUNCE_BASE else "announce",
                "seat": seat,
                "team": seat % 2,
                "claim": CLAIMS[(a - SIGNAL_BASE) % len(CLAIMS)],
            }
            return addressed(out, audience)
        if kind == _K_TEXT:
            _p, _k, seat, word, text, audience = node
            out = {"type": word, "seat": seat, "team": seat % 2, "text": text}
            return addressed(out, audience)
        if kind == _K_DEAL:
            d: _Deal = node[2]
            return {
                "type": "deal",
                "deal": d.k,
                "number": d.number,
                "smazzata": d.smazzata,
                "dealer": d.dealer,
                "eldest": (d.dealer + 1) % 4,
                "scores": list(d.scores),
                "games": list(d.games),
            }
        if kind == _K_SMAZ:
            d = node[2]
            ranking: Ranking = node[3]
            out = {
                "type": "smazzata",
                "smazzata": d.smazzata,
                "dealer": d.dealer,
                "cutter": (d.dealer + 3) % 4,
                "eldest": (d.dealer + 1) % 4,
                "scores": list(node[4]),
                "games": list(node[5]),
                "ranking": ranking_levels(ranking),
                "ranking_name": _PRESET_OF.get(ranking, "custom"),
                "bottom_card": _CODES[d.pack[-1]] if node[6] else None,
            }
            if d.k != 1:
                out["deal"] = d.k
            return out
        if kind == _K_RANK:
            _p, _k, seat, ranking = node
            return {
                "type": "ranking",
                "seat": seat,
                "kept": ranking is None,
                "ranking": None if ranking is None else ranking_levels(ranking),
                "ranking_name": None if ranking is None else _PRESET_OF.get(ranking, "custom"),
            }
        if kind == _K_VEGA:
            return {"type": "vega", "seat": node[2], "team": node[2] % 2, "value": node[3]}
        if kind == _K_ANSWER:
            word = "accept" if node[3] else "refuse"
            return {"type": word, "seat": node[2], "team": node[2] % 2}
        if kind == _K_SHARE:
            _p, _k, seat, cards, reason = node
            return {
                "type": "share",
                "seat": seat,
                "cards": DECK.codes(cards),
                "reason": reason,
                "audience": _team_audience(seat),
            }
        if kind == _K_PEEK:
            return {
                "type": "peek",
                "seat": node[2],
                "cards": DECK.codes(node[3]),
                "audience": [node[2]],
            }
        if kind == _K_LEFT:
            return {"type": "leftover", "cards": DECK.codes(node[2])}
        if kind == _K_BOTTOM:
            return {"type": "bottom_card", "seat": node[2], "card": _CODES[node[3]]}
        if kind == _K_END:
            return {"type": "hand_end", "points": list(node[2]), "detail": fresh(node[3])}
        if kind == _K_GAME:
            return {"type": "game_end", "team": node[2], "games": list(node[3])}
        if kind == _K_DRAW:
            rounds = node[2]
            return {
                "type": "dealer_draw",
                "rounds": [[{"seat": s, "card": _CODES[c]} for s, c in rnd] for rnd in rounds],
                "dealer": _draw_winner(rounds),
            }
        return {
            "type": "match_end",
            "winner": node[2],
            "scores": list(node[3]),
            "games": list(node[4]),
        }

    def _record_item(self, node: tuple[Any, ...]) -> DealStart | tuple[int, str] | None:
        """The smazzate (one pack each) and the moves of the log other than card plays."""
        game = self._g
        kind = node[1]
        if kind == _K_SMAZ:
            return node[2].started()  # type: ignore[no-any-return]
        word: str | None = None
        if kind == _K_RANK:
            word = "keep" if node[3] is None else _ranking_text(node[3])
        elif kind == _K_VEGA:
            word = "vega"
        elif kind == _K_ANSWER:
            word = "accept" if node[3] else "refuse"
        elif kind == _K_MSG:
            word = game.action_to_string(node[3])
        elif kind == _K_TEXT:
            word = f"{node[3]} {node[4]}"
        elif kind == _K_BOTTOM:
            word = "show_bottom"
        elif kind == _K_PEEK and game.options["dealer_peek_deal4"] == "opt_in":
            word = "peek"
        elif kind == _K_SHARE and node[4] == "shown_previous":
            word = "show"
        elif kind == _K_SHARE and node[4] == "shown":
            before = node[0]
            if not (
                before[1] == _K_SHARE and before[2] == node[2] and before[4] == "shown_previous"
            ):
                word = "show"
        return None if word is None else (node[2], word)

    def _record_extra(self, record: JSON, first: _Deal | None) -> None:
        """Games, and the setup of a record that starts part-way: scores and games, the
        deal of the smazzata and its ranking, the dealer draw."""
        game = self._g
        if first is not None:
            setup: JSON = {}
            if any(first.scores) or any(first.games):
                setup.update(scores=list(first.scores), games=list(first.games))
            if first.k != 1:
                setup["deal"] = first.k
            if first.k != 1 or first.ranking != game.initial_ranking:
                setup["ranking"] = ranking_levels(first.ranking)
            if first.draw is not None:
                setup["dealer_draw"] = [[[s, _CODES[c]] for s, c in rnd] for rnd in first.draw]
            record["setup"] = setup

    def _repr_parts(self) -> tuple[str, str]:
        d = self._d
        head = f"smazzata {d.smazzata} deal {d.k} {self.phase}"
        return head, f"scores {list(d.scores)} games {list(d.games)}"

    # Everything that decides the match's future and what anyone may observe.
    _deal_key = attrgetter(
        "number", "smazzata", "k", "dealer", "pack", "ranking", "scores", "games"
    )
    _state_key = PartnershipState._key_of("_vega", "_x")


def _shared(x: tuple[Any, ...], seat: int, cards: int) -> tuple[Any, ...]:
    """``x`` once ``seat`` has shown ``cards`` to its partner."""
    return _shared_by_seat(x, tuple(cards if s == seat else 0 for s in range(4)))


def _shared_by_seat(x: tuple[Any, ...], cards: Sequence[int]) -> tuple[Any, ...]:
    """``x`` once each seat has shown its ``cards[seat]`` to its partner: shown, and no
    longer waiting to be shown late."""
    shown = list(x[_X_SHOWN])
    late = list(x[_X_LATE])
    for seat, mask in enumerate(cards):
        if mask:
            shown[seat] |= mask
            late[seat] &= ~mask
    return (tuple(late), tuple(shown), *x[_X_PEEKED:])


def _end_deal(state: TrionfettiState, reason: str, team: int, points: int) -> TrionfettiState:
    """§9-§10: award, reveal to partners, then the next deal, smazzata, game or the end."""
    game = state._g
    d = state._d
    ev = state._ev
    x = state._x
    left = [state._h >> s * 52 & _FULL for s in range(4)]
    # §11.1: after a refused vega or a 2-0 deal each player's unplayed cards become
    # visible to the partner (or, opt-in, may be shown until the next deal's first card).
    if any(left):
        if game.automatic_sharing:
            for s in range(4):
                if left[s]:
                    ev = (ev, _K_SHARE, s, left[s], reason)
            x = _shared_by_seat(x, left)  # every seat's at once (every search line ends here)
        else:
            x = _with(x, _X_LATE, tuple(m & ~x[_X_SHOWN][s] for s, m in enumerate(left)))
    scores = list(d.scores)
    games = list(d.games)
    scores[team] = min(scores[team] + points, game.target)
    detail: JSON = {
        "reason": reason,
        "team": team,
        "award": points,
        "vega": state._vega[_V_VALUE] if state._vega[_V_USED] else None,
        "tricks_won": state.tricks_won,
        "deal": d.k,
        "scores_before": list(d.scores),
    }
    won = scores[team] >= game.target
    if won:
        games[team] += 1
        scores = [0, 0]
    detail["game_won"] = team if won else None
    detail["scores"] = list(scores)
    detail["games"] = list(games)
    gained = [0, 0]
    gained[team] = points
    ev = (ev, _K_END, tuple(gained), detail)
    if won:
        ev = (ev, _K_GAME, team, tuple(games))
    state._x = x
    facts = {"scores": tuple(scores), "games": tuple(games)}
    over = won and games[team] >= game.match_target
    ended = state._deal_ended(ev, (_K_MATCH, team, *facts.values()) if over else None, **facts)
    if ended is not None:
        return ended
    nd = d.copy()
    nd.scores, nd.games = facts["scores"], facts["games"]
    if won or d.k == 4:
        nd.smazzata = d.smazzata + 1
        nd.dealer = (d.dealer + 1) % 4
        nd.k = 1
        nd.draw = None
        return _start_smazzata(game, nd, ev)
    state._ev = ev
    state._m = HAND_OVER
    return _deal(state, nd, d.k + 1)


# == the log, observations, determinization ==================================================


def _team_audience(seat: int) -> list[int]:
    return sorted((seat, (seat + 2) % 4))


def _audience(node: tuple[Any, ...]) -> Any:
    kind = node[1]
    if kind == _K_MSG:
        return node[4]
    if kind == _K_TEXT:
        return node[5]
    if kind == _K_SHARE:
        return (node[2], (node[2] + 2) % 4)
    if kind == _K_PEEK:
        return (node[2],)
    return None


def _observe(state: TrionfettiState, seat: int | None) -> JSON:
    game = state._g
    d = state._d
    phase = state._m & PHASE_MASK
    history = game.options["history_visible"]
    nodes = state._deal_nodes(_K_SMAZ)  # the smazzata in progress
    current = max((i for i, n in enumerate(nodes) if n[1] == _K_DEAL), default=len(nodes))
    log: list[JSON] = []
    deal_log: list[JSON] = []
    partner: list[JSON] = []
    leftover: list[str] | None = None
    bottom = _CODES[d.pack[-1]] if state._x[_X_BOTTOM] or _bottom_public(game) else None
    for i, node in enumerate(nodes):
        audience = _audience(node)
        if audience is not None and (seat is None or seat not in audience):
            continue
        kind = node[1]
        if not history and i < current and kind in (_K_PLAY, _K_TRICK, _K_LEFT):
            continue  # no perfect recall: earlier deals' cards are forgotten
        e = state._event(node)
        log.append(e)
        if i >= current:
            deal_log.append(e)
        if kind == _K_SHARE and node[2] != seat:
            partner.append({"seat": node[2], "cards": e["cards"], "reason": e["reason"]})
        elif kind in (_K_PEEK, _K_LEFT):
            leftover = e["cards"]
    vega = state._vega
    talk = state._talk(seat) if seat is not None else 0
    legal = state.legal_actions(seat) if seat is not None else []
    lead = state._lead
    dealt = 12 * d.k if phase != RANK else 0
    return {
        "game": game.name,
        "players": 4,
        "seat": seat,
        "team": seat % 2 if seat is not None else None,
        "hand": DECK.codes(state._h >> seat * 52 & _FULL) if seat is not None else [],
        "to_act": state.to_act,
        "legal_actions": [game.action_to_string(a) for a in legal],
        "phase": _PHASE_NAMES[phase],
        "scores": state.scores,
        "games": state.games,
        "points_to_win_game": game.target,
        "games_to_win_match": game.match_target,
        "smazzata": d.smazzata,
        "deal": d.k,
        "dealer": d.dealer,
        "cutter": (d.dealer + 3) % 4,
        "eldest": (d.dealer + 1) % 4,
        "ranking": ranking_levels(d.ranking),
        "ranking_name": _PRESET_OF.get(d.ranking, "custom"),
        "bottom_card": bottom,
        "leftover": leftover,
        "leftover_public": bool(state._x[_X_LEFTOVER]),
        "to_play": (lead + len(state._trick)) % 4,
        "trick": [{"seat": (lead + i) % 4, "card": _CODES[c]} for i, c in enumerate(state._trick)],
        "tricks_won": state.tricks_won,
        "hand_sizes": [(state._h >> s * 52 & _FULL).bit_count() for s in range(4)],
        "stock_size": NUM_CARDS - dealt,
        "vega": {
            "used": vega[_V_USED],
            "pending": {"team": vega[_V_TEAM], "seat": vega[_V_CALLER], "value": vega[_V_VALUE]}
            if phase == VEGA_PENDING
            else None,
            "stake": vega[_V_STAKE],
        },
        "team_must_answer": phase == VEGA_PENDING
        and seat is not None
        and seat % 2 != vega[_V_TEAM],
        "talk": ("none", "partner", "all")[talk],
        "partner_cards": partner,
        "showable": DECK.codes(state._showable(seat))
        if seat is not None and not game.automatic_sharing
        else [],
        "messages": [e for e in deal_log if e["type"] in ("signal", "announce", "tell", "say")],
        "deal_log": deal_log,
        "smazzata_log": log,
        "last_deal": state._last_end(_K_END),
        "hand_over": state.hand_over,
        "match_over": state.match_over,
        "winner": state.winner,
    }


def _bottom_public(game: TrionfettiGame) -> bool:
    return bool(game.options["bottom_card_shown"] == "always")


def _determinize(game: TrionfettiGame, obs: Mapping[str, Any], rng: Rng) -> TrionfettiState:
    """A full state built from one seat's observation: every card the seat knows where it
    knows it, the others placed at random, and the log the seat saw."""
    return _sampler(game, obs)(rng)


def _sampler(game: TrionfettiGame, obs: Mapping[str, Any]) -> Callable[[Rng], TrionfettiState]:
    """Read the observation once (:func:`_read`); the function returned places the unseen
    cards at random, as ints (a search samples thousands of times from one observation)."""
    try:
        if obs.get("game") != game.name:
            raise RulesError("the observation is not from this game")
        return _read(game, obs)
    except (KeyError, TypeError, IndexError, ValueError, AttributeError) as err:
        raise RulesError(
            f"not a Trionfetti observation this game can determinize: {err!r}"
        ) from None


def known_places(obs: Mapping[str, Any]) -> tuple[list[int], list[int], int]:
    """Where one seat's observation places cards, as masks: per seat the cards known in
    its hand now (its own; a partner's shown and not played since) and those it played
    in the deal in progress, and the cards set aside with earlier deals of the smazzata.
    ``determinize`` deals the rest; the solver counts them."""
    seat = obs["seat"]
    parse = DECK.parse
    log = obs["smazzata_log"]
    deal_at = [i for i, e in enumerate(log) if e["type"] == "deal"]
    first = deal_at[-1] if deal_at else len(log)
    hands = [0] * 4
    played_now = [0] * 4
    if obs["phase"] != "ranking":
        if seat is not None:
            for c in obs["hand"]:
                hands[seat] |= 1 << parse(c)
        for e in log[first:]:
            if e["type"] == "play":
                played_now[e["seat"]] |= 1 << parse(e["card"])
        # A partner's shown cards that it has not played since are still in its hand
        # (shown earlier in the smazzata: only if dealt in this deal, i.e. shown after it;
        # "shown_previous" shows the deal before's leftovers, and a deal's end shares
        # come after its last deal only when no deal follows: the match is over).
        for i, e in enumerate(log):
            if (
                e["type"] == "share"
                and e["seat"] != seat
                and i > first
                and e["reason"] != "shown_previous"
            ):
                for c in e["cards"]:
                    card = parse(c)
                    if not played_now[e["seat"]] >> card & 1:
                        hands[e["seat"]] |= 1 << card
    # Cards of earlier deals of the smazzata: those played, and those a partner showed
    # (a deal's leftovers after a 2-0 deal or a refused vega, and any card shown during
    # an earlier deal): none of them can be in a hand now.
    aside = 0
    for i, e in enumerate(log):
        if e["type"] == "play" and i < first:
            aside |= 1 << parse(e["card"])
        elif e["type"] == "share" and (i < first or e["reason"] == "shown_previous"):
            for c in e["cards"]:
                aside |= 1 << parse(c)
    if seat is not None:  # opt-in sharing: the seat's own leftovers it may still show
        for c in obs.get("showable", []):
            if not hands[seat] >> parse(c) & 1:
                aside |= 1 << parse(c)
    return hands, played_now, aside


def _read(game: TrionfettiGame, obs: Mapping[str, Any]) -> Callable[[Rng], TrionfettiState]:
    """Everything a sample of ``obs`` shares, parsed once; the sampler deals the rest.

    A sample shuffles the unseen cards (the pool, in card order), fills each hand's unknown
    cards from the pool's end, then the pack (known cards where they are known, each
    seat's packet of this deal in card order, the set-aside cards of earlier deals first,
    the pool's rest in pack order), and draws the seed of later deals last."""
    seat = obs["seat"]
    parse = DECK.parse
    log = obs["smazzata_log"]
    start = log[0]
    dealer = start["dealer"]
    k = obs["deal"]
    ranking_phase = obs["phase"] == "ranking"
    # The pack: set-aside cards of earlier deals, this deal's hands, the stock; the
    # bottom card last.  ``None`` marks a position dealt per sample.
    pack: list[int | None] = [None] * NUM_CARDS
    used = 0

    def put(pos: int, card: int) -> None:
        nonlocal used
        pack[pos] = card
        used |= 1 << card

    if obs["bottom_card"] is not None:
        put(51, parse(obs["bottom_card"]))
    if obs["leftover"] is not None:
        free = [p for p in range(48, 52) if pack[p] is None]
        for c in obs["leftover"]:
            if not used >> parse(c) & 1:
                put(free.pop(0), parse(c))
    hands, played_now, aside = known_places(obs)
    known = used | aside
    for s in range(4):
        known |= hands[s] | played_now[s]
    pool = tuple(c for c in range(NUM_CARDS) if not known >> c & 1)
    sizes = obs["hand_sizes"]
    fills: tuple[tuple[int, int], ...] = ()  # (seat, cards drawn from the pool)
    packets: tuple[tuple[int, int, int], ...] = ()  # (pack position, seat, its known cards)
    base = 12 * (k - 1)
    if not ranking_phase:
        fills = tuple(
            (s, sizes[s] - hands[s].bit_count())
            for s in range(4)
            if hands[s].bit_count() < sizes[s]
        )
        packets = tuple(
            (base + 3 * j, s, played_now[s])
            for j, s in ((j, (dealer + 1 + j) % 4) for j in range(4))
        )
        # Where the packets go does not depend on the cards drawn, only on how many.
        counts = [(hands[s] | played_now[s]).bit_count() for s in range(4)]
        for s, need in fills:
            counts[s] += need
        for at, s, _ in packets:
            for i in range(counts[s]):
                pack[at + i] = -1  # a packet's card, set per sample
        aside_cards = list(iter_bits(aside))
        for pos in range(base):
            pack[pos] = aside_cards.pop() if aside_cards else None
    # The positions the pool's rest fills, in order (the set-aside ones first: lower).
    open_at = tuple(pos for pos in range(NUM_CARDS) if pack[pos] is None)
    drawn = sum(need for _, need in fills)
    if drawn + len(open_at) > len(pool):
        raise ValueError("more cards to place than unseen cards")
    template = tuple(-1 if c is None else c for c in pack)  # -1: set per sample
    d = _Deal()
    d.smazzata = start["smazzata"]
    d.dealer = dealer
    d.pack = ()
    d.seed = 0
    d.packs = ()
    d.draw = None
    d.k = k
    d.number = 0
    d.ranking = parse_ranking(obs["ranking"])
    d.strength = _strength(d.ranking)
    d.scores = tuple(start["scores"])
    d.games = tuple(start["games"])
    ev: Any = None
    if obs["last_deal"] is not None and not any(e["type"] == "hand_end" for e in log):
        last = obs["last_deal"]
        ev = (None, _K_END, tuple(last["points"]), fresh(last["detail"]))
    # The log's nodes after ``ev``: a node naming a deal's facts gets them per sample
    # (they hold the pack), the others are shared, each rebuilt on its sample's chain.
    nodes: list[tuple[Any, ...]] = []
    current = d
    for e in log:
        node, current = _node_from(None, e, d, current)
        nodes.append(node[1:])
    over = obs["phase"] == "over"
    final = (tuple(obs["scores"]), tuple(obs["games"])) if over else None
    packed_known = 0
    for s in range(4):
        packed_known |= hands[s] << s * 52
    trick = obs["trick"]
    trick_cards = tuple(parse(t["card"]) for t in trick)
    lead = trick[0]["seat"] if trick else obs["to_play"]
    won = obs["tricks_won"]
    tw = won[0] | won[1] << 4
    vega = obs["vega"]
    pending = vega["pending"]
    deal_log = obs["deal_log"]
    calls = [e for e in deal_log if e["type"] == "vega"]
    caller = calls[-1]["seat"] if calls else -1
    value = calls[-1]["value"] if calls else 0
    accepted = [i for i, e in enumerate(deal_log) if e["type"] == "accept"]
    talk_open = bool(accepted) and not any(e["type"] == "play" for e in deal_log[accepted[-1] :])
    vega_fields = (
        vega["used"],
        pending["team"] if pending else (caller % 2 if caller >= 0 else -1),
        value,
        caller,
        vega["stake"],
        talk_open,
    )
    shown = [0, 0, 0, 0]
    for e in log:
        if e["type"] == "share":
            for c in e["cards"]:
                shown[e["seat"]] |= 1 << parse(c)
    late = [0, 0, 0, 0]
    if seat is not None:
        late[seat] = sum(1 << parse(c) for c in obs.get("showable", []))
        late[seat] &= ~hands[seat]
    extra = (
        tuple(late),
        tuple(shown),
        obs["leftover"] is not None,
        obs["leftover_public"],
        obs["bottom_card"] is not None and not _bottom_public(game),
    )
    said = 0
    for e in reversed(deal_log if not ranking_phase else []):
        if e["type"] not in ("signal", "announce", "tell", "say"):
            break
        if e["type"] in ("signal", "announce"):
            claim = _claim_index(e["claim"])
            base_id = SIGNAL_BASE if e["type"] == "signal" else ANNOUNCE_BASE
            bit = base_id + (claim or 0) - SIGNAL_BASE
        else:
            bit = _TELL_BIT if e["type"] == "tell" else _SAY_BIT
        said |= 1 << (e["seat"] * _NMSG + bit)
    to_act = obs["to_act"]
    phases = {"play": PLAY, "ranking": RANK, "vega_pending": VEGA_PENDING, "over": OVER}
    mode = phases[obs["phase"]] | (HAND_OVER if obs["hand_over"] else 0)
    first_ev = ev
    hand_masks = tuple(hands)
    deal_kinds = (_K_SMAZ, _K_DEAL)

    def sample(rng: Rng) -> TrionfettiState:
        cards = list(pool)
        rng.shuffle(cards)
        pop = cards.pop
        h = list(hand_masks)
        for s, need in fills:
            for _ in range(need):
                h[s] |= 1 << pop()
        out = list(template)
        for at, s, played in packets:
            for i, c in enumerate(iter_bits(h[s] | played)):
                out[at + i] = c
        for pos in open_at:
            out[pos] = pop()
        nd = d.copy()
        nd.pack = pack_now = tuple(out)
        nd.seed = rng.next64()
        ev = first_ev
        now = nd
        for node in nodes:
            if node[0] in deal_kinds:
                now = node[1].copy()
                now.pack = pack_now
                now.seed = nd.seed
                ev = (ev, node[0], now, *node[2:])
            else:
                ev = (ev, *node)
        if final is not None:
            now = now.copy()
            now.scores, now.games = final
        state = _new_state(TrionfettiState)
        state._g = game
        state._d = now
        packed = packed_known
        for s, _ in fills:
            packed |= h[s] << s * 52
        state._h = packed
        state._trick = trick_cards
        state._lead = lead
        state._tw = tw
        state._vega = vega_fields
        state._x = extra
        state._said = said
        state.to_act = to_act
        state._m = mode
        state._ev = ev
        state._legal = None
        return state

    return sample


def _node_from(ev: Any, e: JSON, base: _Deal, current: _Deal) -> tuple[Any, _Deal]:
    """One event seen by a seat, back into a log node (for determinize)."""
    parse = DECK.parse
    kind = e["type"]
    if kind == "smazzata":
        d = base.copy()
        d.ranking = parse_ranking(e["ranking"])
        d.scores = tuple(e["scores"])
        d.games = tuple(e["games"])
        d.k = e.get("deal", 1)
        shown = e["bottom_card"] is not None
        return (ev, _K_SMAZ, d, d.ranking, d.scores, d.games, shown), d
    if kind == "deal":
        d = base.copy()
        d.k = e["deal"]
        d.number = e["number"]
        d.scores = tuple(e["scores"])
        d.games = tuple(e["games"])
        return (ev, _K_DEAL, d), d
    if kind == "ranking":
        ranking = None if e["kept"] else parse_ranking(e["ranking"])
        return (ev, _K_RANK, e["seat"], ranking), current
    if kind == "play":
        return (ev, _K_PLAY, e["seat"], parse(e["card"])), current
    if kind == "trick":
        cards = tuple(parse(c) for c in e["cards"])
        return (ev, _K_TRICK, e["winner"], cards, e["leader"]), current
    if kind == "vega":
        return (ev, _K_VEGA, e["seat"], e["value"]), current
    if kind in ("accept", "refuse"):
        return (ev, _K_ANSWER, e["seat"], kind == "accept"), current
    if kind == "share":
        shared = sum(1 << parse(c) for c in e["cards"])
        return (ev, _K_SHARE, e["seat"], shared, e["reason"]), current
    if kind == "peek":
        return (ev, _K_PEEK, e["seat"], sum(1 << parse(c) for c in e["cards"])), current
    if kind == "leftover":
        return (ev, _K_LEFT, sum(1 << parse(c) for c in e["cards"])), current
    if kind == "bottom_card":
        return (ev, _K_BOTTOM, e["seat"], parse(e["card"])), current
    if kind in ("signal", "announce"):
        claim = _claim_index(e["claim"])
        a = (SIGNAL_BASE if kind == "signal" else ANNOUNCE_BASE) + (claim or 0)
        audience = tuple(e["audience"]) if "audience" in e else None
        return (ev, _K_MSG, e["seat"], a, audience), current
    if kind in ("tell", "say"):
        audience = tuple(e["audience"]) if "audience" in e else None
        return (ev, _K_TEXT, e["seat"], kind, e["text"], audience), current
    if kind == "hand_end":
        return (ev, _K_END, tuple(e["points"]), fresh(e["detail"])), current
    if kind == "game_end":
        return (ev, _K_GAME, e["team"], tuple(e["games"])), current
    if kind == "match_end":
        return (ev, _K_MATCH, e["winner"], tuple(e["scores"]), tuple(e["games"])), current
    raise RulesError(f"unexpected event {kind!r} in an observation's smazzata_log")
