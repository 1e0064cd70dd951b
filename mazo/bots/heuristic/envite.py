"""A heuristic Envite Canario bot: trick odds, deal odds and stone equity, from what its seat sees.

Cards
-----
Every playable card gets the chance that the team wins the *deal* if it is played now::

    value(card) = P(team takes this trick | card) * D(won + 1, lost, rest of hand)
                + (1 - P(...))                   * D(won, lost + 1, rest of hand)

* ``P(team takes this trick)``: the trick goes to the strongest card that the seats still
  to play can put on it, each seat playing its best; the unseen cards that beat the best
  one so far are taken strongest first, each held by a seat with the chance its hidden
  cards give (unseen = not in the bot's hand, not played, not the vira; a seat that did
  not follow a suit or a trump lead has none, §7; a trump over a plain lead needs a seat
  void in that suit).  The team takes the trick when the first such card held is a
  partner's, or when nobody holds one and the best card is the team's.  With nobody after
  the bot it is exact.
* ``D(won, lost, hand)`` is the chance of two tricks before the opponents' two when each
  remaining card wins its trick with ``q(card)``, the ``P`` of leading it.  So a card
  that is not needed now is kept.
* Near-ties (within :data:`TIE`) are settled by rules of thumb: when one more trick wins
  the deal, the card most likely to win *now* (the winning trump is played at once);
  when leading with two or more strong trumps, the lower strong one is led to draw the
  opponents' trumps (they must answer a trump lead) and the best one is kept for the
  deciding trick; otherwise the cheapest card (low when a partner holds the trick, the
  lowest card that beats the best one, a low lead rather than the top trump).

Bets and tumbo
--------------
The bot's estimate ``E`` of winning the deal is the best ``value(card)`` when it plays
next, or ``D`` over its hand otherwise (tricks already won and lost count).  Outcomes are
weighed in *chico equity*: ``CE[us][them]``, the chance of winning the current chico from
those stones, computed once from the rules' counting (§11.1, with the option ``capping``)
and a tumbo team that plays only hands worth playing.  So a fold that hands the opponents
their chico costs as much as losing, and the same stones matter more near 11.

* Answer (``accept``/``fold``/``raise``): accept when playing on at the proposed level,
  with ``E`` lowered by :data:`ANSWER_DOUBT` (a proposal says the proposers are strong),
  is worth more than giving them the level below; raise only with ``E`` of at least
  :data:`RAISE_MIN` and when it is worth more still.
* Propose (``envio``): only with ``E`` of at least :data:`PROPOSE_MIN` for that level
  (strong trumps, or a trick won and a sure winner held; :data:`PROPOSE_CROWD` less from
  six players up, where ``E`` is more cautious, unless the bot signs and reads signs),
  and when the proposal is worth more than playing on, counting a fold by the opponents
  with chance :data:`THEY_FOLD`.  Never at tumbo, never an action listed under
  ``offences`` (``penalize`` mode).
* Tumbo: the team at 11 plays when ``E`` (winning the chico) and ``1 - E`` (the
  opponents +3) are worth more than giving them one stone, and declines a weak hand; the
  nearer the opponents are to 11, the less a decline buys.

Messages: none by default.  With ``signals=True`` the bot makes one truthful sign per deal
about its best trump (``top_trump``, ``mala``, ``perica``..., ``small_trumps`` or
``no_trump``) and reads its partners' card signs as those cards in their hands.  Shown
hands (``tumbo_show_captain``) are read too.  Asked for a seat with nothing to do (out of
turn, no answer owed, no proposal wanted, no sign to make) it raises
:class:`mazo.RulesError`, like the other heuristics.

The weights were set by self-play (heuristic against variants of itself, duplicate deals);
see the constants.  A seed only breaks exact ties.

Two front doors, one decision code: :meth:`EnviteHeuristic.choose` reads an observation,
:meth:`EnviteHeuristic.choose_state` (a search's playouts) reads the engine's state for the
seat to act, only what that seat's observation shows; both build the same view of card ids
and masks (:class:`_View`) and decide on it (``_act``), so they choose alike and draw the
tie-breaker alike.  Pure Python: on the shared 2-core machine of session 9 (CPU time,
medians), about 0.1-0.15 ms a decision from the state with 4-12 players, against
0.6-1.5 ms for building the observation and deciding on it before (0.2-0.3 ms now).
A search's rollouts go further (:func:`fast_rollout`): the whole line to the deal's end on
one state the engine changes in place, each seat deciding as ``choose_state`` does from the
deal's facts carried from move to move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from mazo.bots.base import Observation, legal_ids
from mazo.bots.heuristic._base import PartnershipHeuristic, TrickView
from mazo.bots.odds import (
    card_codes,
    card_ids,
    card_mask,
    deal_odds,
    game_equity,
    one_placement,
    trick_value,
)
from mazo.bots.odds import holds as _holds
from mazo.core.cards import LATIN_40
from mazo.core.errors import RulesError
from mazo.core.game import HAND_OVER, PHASE_MASK, Game, State
from mazo.core.tricks import K_TRICK
from mazo.games.envite import (
    _K_MSG,
    _K_PLAY,
    _NMSG,
    ACCEPT,
    BET_VALUES,
    CONSULT_BASE,
    ENVIO,
    FOLD,
    RAISE,
    SIGNAL_BASE,
    SIGNAL_KINDS,
    TUMBO_DECLINE,
    TUMBO_PLAY,
    EnviteState,
    award,
    hierarchy,
    plain_order,
)
from mazo.games.envite import BET as _BET
from mazo.games.envite import PLAY as _PLAY
from mazo.games.envite import TUMBO as _TUMBO

__all__ = ["EnviteHeuristic", "chico_equity", "deal_odds", "match_equity"]

ALL_CARDS = card_codes(LATIN_40)
_ID = {code: card for card, code in enumerate(ALL_CARDS)}
_FULL = (1 << 40) - 1
TRUMP = 4  # the effective suit of every trump (§3.5); plain suits are 0-3 (O C E B)
_ANSWERS = {"fold": FOLD, "accept": ACCEPT, "raise": RAISE}

# -- weights ------------------------------------------------------------------------------
# Cards.
TIE = 0.02  # values this close count as equal; the rules of thumb decide
DRAW_TIE = 0.05  # how much deal odds the trump-drawing lead may give up
STRONG = 0.75  # a trump that no opponent beats as a lead with this chance is "strong"
# Bets: (index = proposed level 1..4).
PROPOSE_MIN = (1.0, 0.68, 0.74, 0.8, 0.86)
# From six players up E is more cautious (more unseen hands): propose this much lower,
# unless the bot signs and reads its partners' signs.  Eight players, the signing
# heuristic against normal, 300 duplicate deal sets: 54.0% with the allowance, 58.0%
# without it (6 and 12 players, 100 sets: no difference); without signs, dropping it
# loses (48%, 150 sets).
PROPOSE_CROWD = 0.06
ANSWER_DOUBT = (0.0, 0.03, 0.04, 0.05, 0.06)
RAISE_MIN = 0.75
THEY_FOLD = 0.3  # assumed chance that the opponents fold to a proposal of the bot's
MARGIN = 0.005  # a bet must beat playing on by this much chico equity
# Chico equity model: stakes of an ordinary deal (stones, chance) and of the tumbo hands.
DEAL_STAKES = ((2, 0.6), (4, 0.3), (7, 0.1))
TUMBO_SAMPLES = tuple((i + 0.5) / 10 for i in range(10))

_SIGN_OF_CARD = {"5O": "cinco_de_oros", "2O": "dos_de_oros", "1O": "as_de_oros"}
_SIGN_OF_CARD |= {"JO": "perica", "QB": "caballo_de_bastos", "3B": "tres_de_bastos"}


def _value(level: int) -> int:
    """§9.1 value(level) for levels 0-3."""
    return BET_VALUES[level]


@cache
def chico_equity(capping: str = "minus_one") -> tuple[tuple[float, ...], ...]:
    """``CE[a][b]``: the chance that a team with ``a`` stones wins the chico against ``b``.

    Ordinary deals pay :data:`DEAL_STAKES` to either team with equal chance; with one
    team at 11 that team sees a deal it wins with chance ``e`` (uniform) and plays only
    when playing beats declining; with both at 11 the next deal decides.

    >>> ce = chico_equity()
    >>> round(ce[0][0], 6), round(ce[11][11], 6)
    (0.5, 0.5)
    >>> ce[9][0] > ce[5][0] > ce[0][5]
    True
    """
    memo: dict[tuple[int, int], float] = {}

    def after(stones: int, points: int) -> int | None:
        return award(stones, points, capping)

    def ce(a: int, b: int) -> float:
        key = (a, b)
        got = memo.get(key)
        if got is not None:
            return got
        if a == 11 and b == 11:
            value = 0.5
        elif a == 11:
            value = _tumbo_value(lambda x: ce(11, x) if x is not None else 0.0, after, b)
        elif b == 11:
            value = 1.0 - _tumbo_value(
                lambda x: 1.0 - ce(x, 11) if x is not None else 0.0, after, a
            )
        else:
            value = 0.0
            for points, chance in DEAL_STAKES:
                mine, theirs = after(a, points), after(b, points)
                win = 1.0 if mine is None else ce(mine, b)
                lose = 0.0 if theirs is None else ce(a, theirs)
                value += chance * 0.5 * (win + lose)
        memo[key] = value
        return value

    return tuple(tuple(ce(a, b) for b in range(12)) for a in range(12))


def match_equity(
    stones: Sequence[int], chicos: Sequence[int], chicos_to_win: int, capping: str = "minus_one"
) -> float:
    """Team 0's chance of winning the match from these stones and chicos: the chico in
    progress by :func:`chico_equity`, the chicos after it even chances.  What a stone is
    worth depends on the score (two stones at 9-9 are worth three times as much as at
    0-0): a search that rewards this prices its bets and plays as the match is won, by
    chicos.

    >>> round(match_equity([0, 0], [0, 0], 2), 9), match_equity([0, 0], [1, 0], 2)
    (0.5, 0.75)
    >>> match_equity([9, 0], [0, 0], 2) > match_equity([5, 0], [0, 0], 2) > 0.5
    True
    """
    ce = chico_equity(capping)[min(stones[0], 11)][min(stones[1], 11)]
    # Chicos after this one are even races to the target: Trionfetti's game table.
    race = game_equity(chicos_to_win)
    a, b = min(chicos[0], chicos_to_win - 1), min(chicos[1], chicos_to_win - 1)
    return ce * race[a + 1][b] + (1.0 - ce) * race[a][b + 1]


def _tumbo_value(
    eq: Callable[[int | None], float], after: Callable[[int, int], int | None], other: int
) -> float:
    """Equity of the team at 11 against ``other`` stones, before seeing its cards."""
    lose = eq(after(other, 3))
    decline = eq(after(other, 1))
    return sum(max(e + (1.0 - e) * lose, decline) for e in TUMBO_SAMPLES) / len(TUMBO_SAMPLES)


class _Table:
    """The card facts of one deal (player count, vira, follow rule) over card ids, built
    once (:func:`_table`) and shared by every view of such a deal."""

    __slots__ = (
        "beat_mask",
        "beaters",
        "cat",
        "eff",
        "exempt",
        "plain",
        "plain_rule",
        "runs",
        "sign_card",
        "sign_kind",
        "top",
        "trumps",
        "tstr",
        "vira",
        "void_of",
        "worth",
    )

    vira: int
    plain_rule: bool  # follow_rule all_suits: a plain suit led must be followed
    top: int  # the first trump of the hierarchy
    exempt: int  # the card exempt from answering a trump lead, -1 when it is the vira
    tstr: tuple[int, ...]  # per card: trump strength (bigger is stronger), 0 for plain
    worth: tuple[int, ...]  # per card: 100 + trump strength, or plain strength in its suit
    eff: tuple[int, ...]  # per card: effective suit, TRUMP for trumps
    cat: tuple[int, ...]  # per card: its suit if plain, 4 for a trump, 5 for the exempt one
    trumps: int
    plain: tuple[int, ...]  # per suit: its plain cards (mask)
    void_of: tuple[int, ...]  # per suit led: the cards a seat that did not follow lacks
    beaters: tuple[tuple[tuple[int, ...], ...], ...]  # [led][card]: cards beating it, best first
    beat_mask: tuple[tuple[int, ...], ...]  # [led][card]: the same as a mask
    runs: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]  # [led][card]: (category, mask)
    sign_kind: tuple[str | None, ...]  # per best trump: the sign naming it (None: by count)
    sign_card: dict[str, int]  # per sign kind: the trump it names


@cache
def _table(n: int, vira: int, plain_rule: bool) -> _Table:
    t = _Table()
    suit = vira // 10
    order = hierarchy(n, suit)
    t.vira = vira
    t.plain_rule = plain_rule
    t.top = order[0]
    t.exempt = -1 if order[0] == vira else order[0]
    tstr = [0] * 40
    for i, c in enumerate(order):
        tstr[c] = len(order) - i
    pstr = [0] * 40
    for s in range(4):
        plain = plain_order(n, suit, s)
        for i, c in enumerate(plain):
            pstr[c] = len(plain) - i
    t.tstr = tuple(tstr)
    t.worth = tuple(100 + tstr[c] if tstr[c] else pstr[c] for c in range(40))
    t.eff = tuple(TRUMP if tstr[c] else c // 10 for c in range(40))
    t.cat = tuple(5 if c == t.exempt else t.eff[c] for c in range(40))
    t.trumps = sum(1 << c for c in order)
    t.plain = tuple(sum(1 << c for c in range(10 * s, 10 * s + 10)) & ~t.trumps for s in range(4))
    no_exempt = t.trumps & ~(1 << t.exempt) if t.exempt >= 0 else t.trumps
    t.void_of = (*(m if plain_rule else 0 for m in t.plain), no_exempt)
    beaters = []
    for led in range(5):
        # The cards that may take a trick led in ``led``, strongest first: a card beats
        # the ones after it (a trick's best card is a trump or of the suit led).
        key = [t.worth[c] if t.eff[c] in (TRUMP, led) else 0 for c in range(40)]
        ranked = sorted((c for c in range(40) if key[c]), key=lambda c: -key[c])
        beaters.append(tuple(tuple(ranked[: ranked.index(c)]) if key[c] else () for c in range(40)))
    t.beaters = tuple(beaters)
    t.beat_mask = tuple(tuple(sum(1 << c for c in cards) for cards in row) for row in beaters)
    runs = []
    for row in beaters:
        row_runs = []
        for cards in row:
            out: list[tuple[int, int]] = []
            for c in cards:  # strongest first: the categories come in runs
                if out and out[-1][0] == t.cat[c]:
                    out[-1] = (t.cat[c], out[-1][1] | 1 << c)
                else:
                    out.append((t.cat[c], 1 << c))
            row_runs.append(tuple(out))
        runs.append(tuple(row_runs))
    t.runs = tuple(runs)
    v = "OCEB"[suit]
    kinds: list[str | None] = [None] * 40
    for c in order:
        code = ALL_CARDS[c]
        if c == t.top:
            kinds[c] = "top_trump"
        elif code == "2" + v:
            kinds[c] = "mala"
        elif code == "K" + v:
            kinds[c] = "rey_of_vira"
        else:
            kinds[c] = _SIGN_OF_CARD.get(code)
    t.sign_kind = tuple(kinds)
    named = {"top_trump": t.top, "mala": _ID["2" + v], "rey_of_vira": _ID["K" + v]}
    named |= {kind: _ID[code] for code, kind in _SIGN_OF_CARD.items()}
    t.sign_card = {kind: c for kind, c in named.items() if tstr[c]}
    return t


# A hand's card ids by its mask (_View._setup): tuples, a few thousand hands.
_HAND_IDS: dict[int, tuple[int, ...]] = {}
_HAND_IDS_MAX = 16384

# The views seen lately by their facts (:meth:`_View._setup`), for their odds' memos.
_SEEN: dict[tuple[Any, ...], dict[int, float]] = {}
_SEEN_MAX = 4096


# (played, voids, signers, signs, hand sizes, suit led): see _deal_facts.
_Facts = tuple[int, tuple[int, ...], int, tuple[int, ...], tuple[int, ...], int]


def _completed(
    t: _Table, n: int, tricks: Iterable[tuple[int, Sequence[int]]]
) -> tuple[int, list[int]]:
    """The cards of ``tricks`` ((leader, cards) each: the completed ones and the one on
    the table) and each seat's voids they reveal (§7: a seat that did not follow)."""
    eff, void_of = t.eff, t.void_of
    played = 0
    voids = [0] * n
    for lead, cards in tricks:
        led = eff[cards[0]]
        for i, card in enumerate(cards):
            played |= 1 << card
            if eff[card] != led:
                voids[(lead + i) % n] |= void_of[led]
    return played, voids


# A deal's facts after a node of its log (:func:`_deal_facts`), by the node's id (the
# node kept with them: an id names its object only while it lives).
_FACTS: dict[int, tuple[Any, _Table, _Facts]] = {}
_FACTS_MAX = 8192


def _deal_facts(node: Any, d: Any, n: int, t: _Table) -> _Facts:
    """The facts of the deal ``d`` that its log shows up to ``node`` (the newest): the
    cards played (the trick on the table too), each seat's voids they reveal (§7: a
    seat that did not follow), the seats that signed (a mask), per seat the trumps its
    signs name (a mask), each seat's hand size (the cards dealt less its plays) and the
    effective suit led to the trick on the table (-1: none).  The log is read back to a
    node met before (a search's playouts ask after every move of the same lines), and
    each node read keeps its facts."""
    path = []
    facts: _Facts | None = None
    while node is not None and not (len(node) == 3 and node[2] is d):
        got = _FACTS.get(id(node))
        if got is not None and got[0] is node and got[1] is t:
            facts = got[2]
            break
        path.append(node)
        node = node[0]
    if facts is None:
        start = d.start
        counts = []  # (a loop, not a generator: in 3.11 that is a call)
        for s in range(n):
            counts.append((start >> s * 40 & _FULL).bit_count())
        sizes = tuple(counts)
        facts = (0, (0,) * n, 0, (0,) * n, sizes, -1)
    if len(_FACTS) + len(path) > _FACTS_MAX:
        _FACTS.clear()
    for node in reversed(path):
        facts = _fold(facts, node, t)
        _FACTS[id(node)] = (node, t, facts)
    return facts


def _fold(facts: _Facts, node: Any, t: _Table) -> _Facts:
    """The deal's facts (:func:`_deal_facts`) after the log node ``node``, from those
    before it: a card played, a trick closed or a sign change them."""
    kind = node[1]
    if kind == _K_PLAY:
        played, voids, signers, signs, sizes, led = facts
        s = node[2]
        card = node[3]
        new_sizes = list(sizes)
        new_sizes[s] -= 1
        eff = t.eff
        if led < 0:
            led = eff[card]
        elif eff[card] != led:
            new_voids = list(voids)
            new_voids[s] |= t.void_of[led]
            voids = tuple(new_voids)
        return (played | 1 << card, voids, signers, signs, tuple(new_sizes), led)
    if kind == K_TRICK:
        played, voids, signers, signs, sizes, _ = facts
        return (played, voids, signers, signs, sizes, -1)
    if kind == _K_MSG and SIGNAL_BASE <= node[3] < CONSULT_BASE:
        played, voids, signers, signs, sizes, led = facts
        s = node[2]
        card = t.sign_card.get(SIGNAL_KINDS[node[3] - SIGNAL_BASE], -1)
        if card >= 0:
            new_signs = list(signs)
            new_signs[s] |= 1 << card
            signs = tuple(new_signs)
        return (played, voids, signers | 1 << s, signs, sizes, led)
    return facts


# min(1, hidden / pool) (0 for no pool) by [hidden][pool]: a seat's chance of holding
# one given card of its pool (_View._prepare).
_RATE = tuple(
    tuple(min(1.0, hidden / pool) if pool else 0.0 for pool in range(41)) for hidden in range(41)
)
# The seats of a run (_View._p_max_run), the bot left out, by ``n | run << 4 | me << 12``.
_RUN_SEATS: dict[int, list[int]] = {}

# 1 - holds(pool, hidden, good) by ``pool << 12 | hidden << 6 | good`` (_View._p_voids).
_VOID: dict[int, float] = {}
# Every seat's p_void of a suit (_View._p_voids, no card known), by the suit, its unseen
# count and the view's pool sizes, hidden counts and voids: tuples of ints and floats.
_VOIDS: dict[tuple[Any, ...], tuple[float, ...]] = {}
_VOIDS_MAX = 8192


# The trick odds of :meth:`_View._new_run` by the view's odds facts and the run's key:
# ``(facts id << 18 | run key) << 40 | the beaters unseen``.  The facts (seat, voids,
# hidden counts, pool sizes, known cards, unseen cards a plain suit) are every input of
# the odds but the unseen cards, and the odds read those only among the beaters; facts
# get ids that are never reused (_GID_NEXT), so a cleared _GIDS leaves no stale key.
_PMAX: dict[int, float] = {}
_PMAX_MAX = 65536
_GIDS: dict[tuple[Any, ...], int] = {}
_GIDS_MAX = 16384
_GID_NEXT = 1


def _sign_action(t: _Table, trumps: Sequence[int]) -> int:
    """The sign of a hand holding ``trumps`` (cheapest first): its best trump, or what
    kind of hand it is."""
    if not trumps:
        kind = "no_trump"
    else:
        named = t.sign_kind[trumps[-1]]
        if named is not None:
            kind = named
        elif len(trumps) == 3:
            kind = "three_trumps"
        else:
            kind = "small_trumps"
    return SIGNAL_BASE + SIGNAL_KINDS.index(kind)


def _ids(codes: Iterable[str]) -> int:
    """The mask of card codes (the observation door parses; the state door never does)."""
    return card_mask(LATIN_40, codes)


class _View(TrickView):
    """What the bot derives from one observation, or from the engine's state for the seat
    to act (:meth:`of_state`): the same facts, as card ids and masks, and one scoring code
    on them."""

    # Slots (TrickView's facts too): a view has about forty attributes, more than an
    # instance dict shares keys for, so without them each view built a dict of its own
    # and every attribute read looked its name up in it.
    __slots__ = (
        "_claims",
        "_gid",
        "_held",
        "_known",
        "_known_any",
        "_p_maxes",
        "_qrun",
        "_qs",
        "_rates",
        "_ready",
        "_runs",
        "_shared",
        "_shares",
        "_sids",
        "_sizes",
        "_values",
        "_void_facts",
        "_void_p",
        "hand",
        "hand_mask",
        "hand_sizes",
        "hidden",
        "level",
        "lost",
        "must_answer",
        "must_decide",
        "n",
        "pending",
        "plain_rule",
        "played",
        "reads_signs",
        "scores",
        "seat",
        "signed",
        "t",
        "team",
        "to_play",
        "trick",
        "tumbo_any",
        "tumbo_deal",
        "unseen",
        "voids",
        "won",
    )

    n: int
    t: _Table
    plain_rule: bool
    hand: list[int]
    hand_mask: int
    played: int
    voids: list[int]
    unseen: int
    hidden: list[int]
    reads_signs: bool
    signed: bool  # this seat has signed this deal (read only with signs)
    # The decision's facts (stones, bets, tumbo).
    scores: list[int]
    level: int  # the accepted level of the ladder
    pending: int  # the proposed level when a proposal waits, else 0
    tumbo_deal: bool
    tumbo_any: bool
    must_decide: bool
    must_answer: bool

    def __init__(self, game: Game, obs: Mapping[str, Any], read_signs: bool) -> None:
        super().__init__(obs)
        n = int(obs["players"])
        t = _table(n, _ID[obs["vira"]], game.options.get("follow_rule", "all_suits") == "all_suits")
        self.trick = [(s, _ID[c]) for s, c in self.trick]
        tricks = [(tr["leader"], [_ID[c] for c in tr["cards"]]) for tr in obs["tricks"]]
        # Partners' cards the bot knows: shown hands (tumbo_show_captain), true signs.
        claims: dict[int, int] = {}
        for shown in obs.get("shown_hands", []):
            claims[shown["seat"]] = claims.get(shown["seat"], 0) | _ids(shown["cards"])
        self.signed = False
        if read_signs:
            for msg in obs.get("messages", []):
                seat = msg.get("seat")
                if msg.get("type") != "signal":
                    continue
                if seat == self.seat:
                    self.signed = True
                    continue
                if not isinstance(seat, int) or seat % 2 != self.team:
                    continue
                card = t.sign_card.get(str(msg.get("kind")), -1)
                if card >= 0:
                    claims[seat] = claims.get(seat, 0) | 1 << card
        reads = read_signs and obs.get("signals", "team") != "off"
        self.scores = list(obs.get("scores", (0, 0)))
        bet = obs.get("bet") or {}
        self.level = bet.get("level", 0)
        pending = bet.get("pending")
        self.pending = pending["level"] if pending else 0
        self.tumbo_deal = bool(obs.get("tumbo_deal"))
        self.tumbo_any = any(obs.get("tumbo", ()))
        self.must_decide = obs.get("team_must_decide", True)
        self.must_answer = obs.get("team_must_answer", True)
        if self.trick:  # the trick on the table: its cards and voids count too
            tricks.append((self.trick[0][0], [c for _, c in self.trick]))
        played, voids = _completed(t, n, tricks)
        self._setup(n, t, _ids(obs["hand"]), played, voids, claims, reads)

    @classmethod
    def of_state(
        cls, state: EnviteState, seat: int, read_signs: bool, facts: _Facts | None = None
    ) -> _View:
        """The view of ``seat`` from the engine's state: what its observation shows (its
        hand, the plays, its partners' signs and shown hands), no other hidden card.
        ``facts``: the state's :func:`_deal_facts` when the caller has them."""
        self = object.__new__(cls)  # TrickView.blank
        game = state._g
        d = state._d
        n = game.players
        h = state._h
        lead = state._lead
        trick = state._trick
        # TrickView.read_state's facts, read here without its generality.
        self.seat = seat
        self.team = team = seat & 1
        # (Loops here and below, not comprehensions: in 3.11 each is a function call.)
        plays: list[tuple[int, int]] = []
        at = lead
        for c in trick:
            plays.append((at, c))
            at = at + 1 if at + 1 < n else 0
        self.trick = plays
        tw = state._tw
        if team:
            self.won, self.lost = tw >> 4, tw & 15
        else:
            self.won, self.lost = tw & 15, tw >> 4
        self.to_play = (lead + len(trick)) % n
        t = _table(n, d.vira, game.plain_rule)
        # This deal's plays and signs, from the log (:func:`_deal_facts`).
        if facts is None:
            facts = _deal_facts(state._ev, d, n, t)
        played, voids, signers, signs, sizes, _ = facts
        self.hand_sizes = list(sizes)
        claims: dict[int, int] = {}
        self.signed = False
        if read_signs and signers:
            self.signed = bool(signers >> seat & 1)
            for s in range(team, n, 2):
                if s != seat and signs[s]:
                    claims[s] = signs[s]
        opts = game.options
        if opts["tumbo_show_captain"] and seat in game.captains and d.tumbo[team]:
            for mate in game.teams[team]:
                if mate != seat:
                    claims[mate] = claims.get(mate, 0) | d.start >> mate * 40 & _FULL
        bet = state._bet
        phase = state._m & PHASE_MASK
        self.scores = list(d.scores)
        self.level = bet[0]
        self.pending = bet[2] if phase == _BET else 0
        self.tumbo_deal = self.tumbo_any = d.tumbo[0] or d.tumbo[1]
        self.must_decide = phase == _TUMBO and d.tumbo[team] and not d.tumbo[1 - team]
        self.must_answer = phase == _BET and team != bet[3]
        hand = h >> seat * 40 & _FULL
        reads = read_signs and opts["signals"] != "off"
        self._setup(n, t, hand, played, list(voids), claims, reads)
        return self

    def _setup(
        self,
        n: int,
        t: _Table,
        hand: int,
        played: int,
        voids: list[int],
        claims: Mapping[int, int],
        reads_signs: bool,
    ) -> None:
        """The facts both front doors share: played cards and the voids §7 reveals (a
        seat that did not follow), the trick on the table's too (:func:`_completed`,
        :func:`_deal_facts`); the partners' cards known, the unseen cards and each seat's
        pool of them (:meth:`_prepare`, when the odds are first asked)."""
        self.n = n
        self.t = t
        self.plain_rule = t.plain_rule
        self.hand_mask = hand
        ids = _HAND_IDS.get(hand)
        if ids is None:
            if len(_HAND_IDS) >= _HAND_IDS_MAX:
                _HAND_IDS.clear()
            ids = _HAND_IDS[hand] = tuple(card_ids(hand))
        self.hand = list(ids)
        self.reads_signs = reads_signs
        self.played = played
        self.voids = voids
        self._claims = claims
        # The odds' facts and memos (_prepare) wait for the first odds asked: a view
        # whose odds are all in _runs (below) never builds them.
        self._ready = False
        self._shared = False  # the odds kept across views (:data:`_PMAX`)
        self._qs: dict[int, float] | None = None
        self._values: dict[int, tuple[float, float]] = {}
        # The trick odds of :meth:`_p_max_run` (their key names the trick's best card,
        # led suit and seats after it) are a function of these facts alone, the odds'
        # facts that _prepare reads (the trick on the table, tricks won, the decision's
        # facts only weigh them): a view with the same facts as one seen lately (a search
        # meets the same seat in the same spot again) reads the same memo of them, so the
        # same odds are not priced twice.  (One flat tuple and one dict of floats kept a
        # view: few objects for the garbage collector.)
        if claims:  # (seat, cards) pairs, as tuples: no generator to flatten them
            key = (t, self.seat, hand, played, *voids, *self.hand_sizes, *claims.items())
        else:
            key = (t, self.seat, hand, played, *voids, *self.hand_sizes)
        runs = _SEEN.get(key)
        if runs is None:
            if len(_SEEN) >= _SEEN_MAX:
                _SEEN.clear()
            runs = _SEEN[key] = {}
        self._runs: dict[int, float] = runs
        # The key of q's odds in _runs, less the card's (see _p_max_run, q).
        self._qrun = 512 | ((self.seat + 1) % n | (n - 1) << 4) << 10
        self._held: tuple[int, int] | None = None  # the trick's best play (_price)

    def _prepare(self) -> None:
        """The facts the odds read: the partners' cards known (claims on cards not seen
        elsewhere, at most a hand's size, the strongest kept), the unseen cards, each
        seat's hidden cards, its pool of unseen cards (not in its voids) and the chance
        it holds one given card of its pool."""
        n, t = self.n, self.t
        self._void_p: dict[int, tuple[float, ...]] = {}
        self._void_facts: tuple[int, ...] | None = None  # _VOIDS's key, less the suit's
        # The id of the odds facts (_GIDS), 0 until asked; -1: the odds not shared.
        self._gid = 0 if self._shared else -1
        # The odds' memos, keyed by ints: trick odds (:meth:`_p_max`, :meth:`_p_max_run`),
        # the categories' shares (:meth:`_p_max_of`).
        self._p_maxes: dict[int, float] = {}
        self._shares: dict[int, tuple[float, float]] = {}
        self._sids: dict[tuple[int, ...], int] = {}
        out = self.hand_mask | self.played | 1 << t.vira
        known = [0] * n
        worth = t.worth
        for seat, cards in self._claims.items():
            cards &= ~out
            if cards and 0 <= seat < n:
                size = self.hand_sizes[seat]
                if cards.bit_count() > size:
                    top = sorted(card_ids(cards), key=worth.__getitem__, reverse=True)[:size]
                    cards = sum(1 << c for c in top)
                known[seat] = cards
        self._known = known
        known_any = 0
        if self._claims:
            for cards in known:
                known_any |= cards
        self._known_any = known_any
        taken = out | known_any
        self.unseen = unseen = _FULL & ~taken
        if known_any:
            self.hidden = hidden = [self.hand_sizes[s] - known[s].bit_count() for s in range(n)]
        else:
            self.hidden = hidden = self.hand_sizes  # (read, never changed: no copy)
        # Each seat's pool is the unseen cards out of its voids: only its size is kept
        # (the odds test a card against the voids, :meth:`_share`).
        # (Loops, not comprehensions: in 3.11 each is a function call.)
        sizes = []
        rates = []
        for s, v in enumerate(self.voids):
            size = (unseen & ~v).bit_count()
            sizes.append(size)
            rates.append(_RATE[hidden[s]][size])
        self._sizes = sizes
        self._rates = rates
        self._ready = True

    @property
    def known(self) -> list[int]:
        """Per seat, the cards the bot knows it holds (shown, or a partner's true sign)."""
        if not self._ready:
            self._prepare()
        return self._known

    # -- card facts ------------------------------------------------------------------

    def code(self, card: Any) -> str:
        code: str = ALL_CARDS[card]
        return code

    @property
    def vira(self) -> str:
        return ALL_CARDS[self.t.vira]

    def worth_key(self, card: int) -> int:
        """Trumps above plain cards, then by strength: a cheap card sorts first."""
        return self.t.worth[card]

    def beats(self, card: int, best: int, led: int) -> bool:
        """Whether ``card`` takes a trick whose best card is ``best`` (led suit ``led``)."""
        return card in self.t.beaters[led][best]

    def best_so_far(self) -> tuple[int, int]:
        """The seat holding the trick on the table and its card."""
        return self._best(self.trick)

    def _best(self, plays: Sequence[tuple[int, int]]) -> tuple[int, int]:
        worth, eff = self.t.worth, self.t.eff
        led = eff[plays[0][1]]
        best = plays[0]
        top = worth[best[1]]
        for play in plays[1:]:
            card = play[1]
            e = eff[card]
            if e in (TRUMP, led) and worth[card] > top:
                best, top = play, worth[card]
        return best

    def takes(self, card: int, best: int) -> bool:
        """Whether ``card`` takes the trick on the table from its best card ``best``."""
        return self.beats(card, best, self.t.eff[self.trick[0][1]])

    def cheapest(self, card: int, cards: Sequence[int]) -> bool:
        """Whether ``card`` is the cheapest of ``cards`` (:meth:`worth_key`)."""
        return min(cards, key=self.t.worth.__getitem__) == card

    def playable_mask(self) -> int:
        """§7 from the bot's side: the cards of its hand it may play to the trick."""
        hand = self.hand_mask
        if not self.trick:
            return hand
        t = self.t
        led = t.eff[self.trick[0][1]]
        if led == TRUMP:
            trumps = hand & t.trumps
            if not trumps or (t.exempt >= 0 and trumps == 1 << t.exempt):
                return hand
            return trumps
        if not self.plain_rule:
            return hand
        return hand & t.plain[led] or hand

    def playable(self) -> list[int]:
        return card_ids(self.playable_mask())

    # -- odds --------------------------------------------------------------------------

    def p_void(self, seat: int, suit: int) -> float:
        """The chance that ``seat`` holds no plain card of ``suit`` (so it may trump)."""
        return self._p_voids(suit)[seat]

    def _p_voids(self, suit: int) -> tuple[float, ...]:
        """:meth:`p_void` of every seat (computed once a view and suit)."""
        if not self._ready:
            self._prepare()
        got = self._void_p.get(suit)
        if got is not None:
            return got
        plain = self.t.plain[suit]
        key: tuple[Any, ...] | None = None
        if not self._known_any:
            # With no card known, a seat's chance is a function of its pool's size, its
            # hidden cards and its pool's cards of the suit: none when the seat is void
            # in it (voids are whole suits), else the unseen ones.  So the voids, the
            # pools' sizes and the hidden counts name the list with that count, and the
            # views that share them (the same seats and plays in other samples) share it.
            facts = self._void_facts
            if facts is None:
                facts = self._void_facts = (*self._sizes, *self.hidden, *self.voids)
            key = (suit | (self.unseen & plain).bit_count() << 3, facts)
            got = _VOIDS.get(key)
            if got is not None:
                self._void_p[suit] = got
                return got
        known, sizes, hidden, voids = self._known, self._sizes, self.hidden, self.voids
        # A seat's pool (the unseen cards out of its voids) holds the suit's unseen cards,
        # or none when the seat is void in the suit (voids are whole suits).
        unseen_count = (self.unseen & plain).bit_count()
        out = []
        for seat in range(self.n):
            if known[seat] & plain:
                out.append(0.0)
            else:
                count = 0 if voids[seat] & plain else unseen_count
                vkey = sizes[seat] << 12 | hidden[seat] << 6 | count
                void = _VOID.get(vkey)
                if void is None:
                    void = _VOID[vkey] = 1.0 - _holds(sizes[seat], hidden[seat], count)
                out.append(void)
        got = self._void_p[suit] = tuple(out)
        if key is not None:
            if len(_VOIDS) >= _VOIDS_MAX:
                _VOIDS.clear()
            _VOIDS[key] = got
        return got

    def p_take(self, plays: list[tuple[int, int]], after: list[int]) -> float:
        """The chance that the team takes a trick with ``plays`` on it and ``after`` to play."""
        seat, best = self._best(plays)
        mine = 1.0 if seat % 2 == self.team else 0.0
        return self._p_max(best, self.t.eff[plays[0][1]], mine, after)

    def _p_max(self, best: int, led: int, mine: float, after: list[int]) -> float:
        """P(team wins): the strongest card the seats ``after`` can play over ``best`` is
        a partner's, or none exists and ``best`` is ours (``mine``: 1.0 or 0.0); cards
        held independently, each seat playing its best.  Memoized a view (a lead's ``q``
        and ``value`` ask the same): any list of seats here, :meth:`_p_max_run` for a run
        of seats in playing order (what ``q`` and ``value`` ask) with no tuple built."""
        if not self._ready:
            self._prepare()
        seats = tuple(after)
        sid = self._sids.get(seats)
        if sid is None:
            sid = self._sids[seats] = len(self._sids) + 1
        key = best | led << 6 | (mine > 0.0) << 9 | sid << 18
        got = self._p_maxes.get(key)
        if got is None:
            me = self.seat
            got = self._p_maxes[key] = self._p_max_of(
                best, led, mine, [s for s in after if s != me], sid << 8
            )
        return got

    def _p_max_run(self, best: int, led: int, mine: float, start: int, length: int) -> float:
        """:meth:`_p_max` with ``after`` the ``length`` seats from ``start`` on (cyclic),
        memoized by an int (below the keys of :meth:`_p_max`'s lists)."""
        key = best | led << 6 | (mine > 0.0) << 9 | (start | length << 4) << 10
        got = self._runs.get(key)
        if got is None:
            got = self._new_run(key, best, led, mine, start, length)
        return got

    def _new_run(
        self, key: int, best: int, led: int, mine: float, start: int, length: int
    ) -> float:
        """:meth:`_p_max_run` priced and kept under ``key`` (its memo's key), for callers
        that have just missed it there (one lookup, not three)."""
        if not self._ready:
            self._prepare()
        n, me = self.n, self.seat
        run = start | length << 4
        at = n | run << 4 | me << 12
        seats = _RUN_SEATS.get(at)
        if seats is None:
            seats = _RUN_SEATS[at] = [s for i in range(start, start + length) if (s := i % n) != me]
        # The odds are a function of the view's odds facts (:data:`_PMAX`) and of the
        # beaters unseen: views of other hands and plays with the same ones share them.
        gid = self._gid
        if gid < 0:  # a view of a fast rollout's line: the odds are its own
            got = self._runs[key] = self._p_max_of(best, led, mine, seats, run)
            return got
        if not gid:
            t = self.t
            unseen = self.unseen
            facts = (
                t,
                me,
                *self.voids,
                *self.hidden,
                *self._sizes,
                *self._known,
                (unseen & t.plain[0]).bit_count(),
                (unseen & t.plain[1]).bit_count(),
                (unseen & t.plain[2]).bit_count(),
                (unseen & t.plain[3]).bit_count(),
            )
            known_id = _GIDS.get(facts)
            if known_id is None:
                global _GID_NEXT
                if len(_GIDS) >= _GIDS_MAX:
                    _GIDS.clear()
                known_id = _GIDS[facts] = _GID_NEXT
                _GID_NEXT += 1
            gid = self._gid = known_id
        gkey = (gid << 18 | key) << 40 | self.unseen & self.t.beat_mask[led][best]
        shared = _PMAX.get(gkey)
        if shared is None:
            if len(_PMAX) >= _PMAX_MAX:
                _PMAX.clear()
            shared = _PMAX[gkey] = self._p_max_of(best, led, mine, seats, run)
        self._runs[key] = shared
        return shared

    def _p_max_of(self, best: int, led: int, mine: float, seats: list[int], skey: int) -> float:
        """The trick odds of :meth:`_p_max` over ``seats`` (the seats after, the bot left
        out; ``skey``: an int naming them, for the memo of the categories' shares)."""
        known_any = self._known_any
        cand = self.unseen
        if known_any:
            known = self._known
            for s in seats:
                cand |= known[s]
        t = self.t
        trump_needs_void = self.plain_rule and led != TRUMP
        # An unseen card no partner is known to hold is in a seat's pool as every other
        # card of its category is (voids are whole categories), so it has its category's
        # share: with no known card among the beaters, a run of one category is one share
        # applied once a card (the same sums, in the same order, as card by card).
        result, none_above = 0.0, 1.0
        if not known_any & cand & t.beat_mask[led][best]:
            memo = self._shares
            base = led << 3 | skey << 6
            pv: tuple[float, ...] | None = None  # the void chances, read once a call
            for c, mask in t.runs[led][best]:
                held = cand & mask
                if not held:
                    continue
                got = memo.get(base | c)
                if got is None:
                    if trump_needs_void and c >= 4:
                        if pv is None:
                            pv = self._void_p.get(led) or self._p_voids(led)
                        got = memo[base | c] = self._share(held & -held, seats, pv)
                    else:
                        got = memo[base | c] = self._share(held & -held, seats, None)
                total, ours = got
                if total <= 0.0:
                    continue
                keep = 1.0 - total  # the same float each card
                for _ in range(held.bit_count()):
                    result += none_above * ours
                    none_above *= keep
                    if none_above <= 0.0:
                        return result + none_above * mine
            return result + none_above * mine
        tstr, cat = t.tstr, t.cat
        pv = self._p_voids(led) if trump_needs_void else None
        shares: dict[int, tuple[float, float]] = {}
        for card in t.beaters[led][best]:
            bit = 1 << card
            if not cand & bit:
                continue
            if known_any & bit:
                total, ours = self._share(bit, seats, pv if tstr[card] > 0 else None)
            else:
                got = shares.get(cat[card])
                if got is None:
                    got = shares[cat[card]] = self._share(
                        bit, seats, pv if tstr[card] > 0 else None
                    )
                total, ours = got
            if total <= 0.0:
                continue
            result += none_above * ours
            none_above *= 1.0 - total
            if none_above <= 0.0:
                break
        return result + none_above * mine

    def _share(
        self, bit: int, seats: list[int], pv: tuple[float, ...] | None
    ) -> tuple[float, float]:
        """(the chance that one of ``seats`` holds the card ``bit``, that a partner
        does), summed seat by seat and capped at 1; a trump over a plain lead needs a void
        in the suit led (``pv``: each seat's chance of that void, None for no need)."""
        voids, rates, team = self.voids, self._rates, self.team
        total = ours = 0.0
        # A seat's pool holds ``bit`` when the card is unseen and not in the seat's voids.
        if self._known_any & bit:  # the known hands, read only when one holds the card
            known = self._known
            unseen = self.unseen & bit
            for s in seats:
                if known[s] & bit:
                    p = 1.0
                elif unseen and not voids[s] & bit:
                    p = rates[s]
                    if not p:
                        continue
                else:
                    continue
                if pv is not None:
                    p *= pv[s]
                total += p
                if s & 1 == team:
                    ours += p
        # No seat is known to hold the card: it is an unseen one (the callers' cards are
        # unseen or known).
        elif pv is None:  # the loop above for no known card and no void needed
            for s in seats:
                if not voids[s] & bit:
                    p = rates[s]
                    if p:
                        total += p
                        if s & 1 == team:
                            ours += p
        else:
            for s in seats:
                if not voids[s] & bit:
                    p = rates[s]
                    if p:
                        p *= pv[s]
                        total += p
                        if s & 1 == team:
                            ours += p
        # min(1.0, total) and min(ours, total), without the calls (the same floats).
        if not total < 1.0:
            total = 1.0
        return total, total if total < ours else ours

    def after(self, count: int) -> list[int]:
        """The seats that play after the first ``count`` cards of the current trick."""
        leader = self.trick[0][0] if self.trick else self.to_play
        return [(leader + i) % self.n for i in range(count, self.n)]

    def q(self, card: int) -> float:
        """The chance that the team wins a later trick in which the bot plays ``card``:
        the trick odds of ``card`` led, every other seat after it."""
        led = self.t.eff[card]
        key = card | led << 6 | self._qrun
        got = self._runs.get(key)
        if got is None:
            n = self.n
            got = self._new_run(key, card, led, 1.0, (self.seat + 1) % n, n - 1)
        return got

    def qs(self) -> dict[int, float]:
        """``q`` of every card in hand (hand order)."""
        qs = self._qs
        if qs is None:
            # q of each card, its memo read here (q's key), priced when missing.
            runs, eff, qrun = self._runs, self.t.eff, self._qrun
            qs = self._qs = {}
            for c in self.hand:
                key = c | eff[c] << 6 | qrun
                got = runs.get(key)
                if got is None:
                    n = self.n
                    got = self._new_run(key, c, eff[c], 1.0, (self.seat + 1) % n, n - 1)
                qs[c] = got
        return qs

    def value(
        self, card: int, qs: Mapping[int, float] | None, after: list[int] | None = None
    ) -> tuple[float, float]:
        """(deal odds if ``card`` is played now, chance of taking this trick with it);
        ``qs``: the hand's :meth:`q` (None: priced as needed, only the other cards');
        ``after``: the seats that play after it (default: the rest of the trick)."""
        if after is None:
            got = self._values.get(card)
            if got is None:
                got = self._values[card] = self._price(card, qs, len(self.trick) + 1)
            return got
        p = self.p_take([*self.trick, (self.seat, card)], after)
        return self._odds(p, card, qs), p

    def _price(self, card: int, qs: Mapping[int, float] | None, count: int) -> tuple[float, float]:
        """:meth:`value` of ``card`` played to the trick on the table, the seats after the
        first ``count`` of the trick to play after it (the bot left out)."""
        # p_take of the trick with ``card`` on it (what _best finds: ``card`` holds it
        # when it beats the best card so far).
        t = self.t
        trick = self.trick
        if trick:
            held = self._held
            if held is None:
                held = self._held = self._best(trick)
            holder, best = held
            leader = trick[0][0]
            led = t.eff[trick[0][1]]
            e = t.eff[card]
            if e in (TRUMP, led) and t.worth[card] > t.worth[best]:
                holder, best = self.seat, card
        else:
            holder, best, leader, led = self.seat, card, self.to_play, t.eff[card]
        n = self.n
        start = (leader + count) % n
        mine = holder & 1 == self.team
        # _p_max_run's memo read here (its key), the odds priced there when missing.
        key = best | led << 6 | mine << 9 | (start | (n - count) << 4) << 10
        p = self._runs.get(key)
        if p is None:
            p = self._new_run(key, best, led, 1.0 if mine else 0.0, start, n - count)
        return self._odds(p, card, qs), p

    def _odds(self, p: float, card: int, qs: Mapping[int, float] | None) -> float:
        """trick_value(p, won, lost, the q's of the hand's other cards), its sums in its
        order (``qs``: the hand's q's, None: read or priced here)."""
        if qs is None:
            # q of the other cards, their memo read here (q's key), priced when missing.
            runs, eff, qrun = self._runs, self.t.eff, self._qrun
            rest = []
            for c in self.hand:
                if c != card:
                    key = c | eff[c] << 6 | qrun
                    got = runs.get(key)
                    if got is None:
                        n = self.n
                        got = self._new_run(key, c, eff[c], 1.0, (self.seat + 1) % n, n - 1)
                    rest.append(got)
        else:
            rest = []
            for c in self.hand:
                if c != card:
                    rest.append(qs[c])
        won, lost = self.won, self.lost
        if len(rest) == 2 and won < 2 and lost < 1:
            # deal_odds(won + 1, lost, rest) and deal_odds(won, lost + 1, rest) for two
            # chances and lost == 0, both lines of its unrolled code as they run there.
            a, b = rest
            both = a * b
            # (min(1.0, x) as ``x if x < 1.0 else 1.0``: the same float, no call.)
            one = ((1.0 - a) * b + a * (1.0 - b)) + both
            if not one < 1.0:
                one = 1.0
            if won == 1:  # win: need 0 -> 1.0; lose: need 1 over two chances
                return p * 1.0 + (1.0 - p) * one
            # won == 0: win: need 1 over two chances; lose: need 2 over two chances
            return p * one + (1.0 - p) * (both if both < 1.0 else 1.0)
        return p * deal_odds(won + 1, lost, rest) + (1.0 - p) * deal_odds(won, lost + 1, rest)

    def estimate(self) -> float:
        """``E``: the chance that the bot's team wins this deal.  (A card's own ``q`` is
        priced only where another card's value needs it.)"""
        trick = self.trick
        seat = self.seat
        if trick:
            n = self.n
            leader = trick[0][0]
            count = len(trick)
            if (seat - leader) % n < count:  # already played: the trick is the others' now
                # p_take of the trick, the rest of it after (a run of seats).
                holder, best = self._best(trick)
                mine = 1.0 if holder % 2 == self.team else 0.0
                led = self.t.eff[trick[0][1]]
                p = self._p_max_run(best, led, mine, (leader + count) % n, n - count)
                return trick_value(p, self.won, self.lost, list(self.qs().values()))
            if self.to_play != seat:
                # To play later in this trick: the others still to play follow (the seats
                # after the trick so far, the bot left out).
                e = -1.0
                for c in card_ids(self.playable_mask()):
                    v = self._price(c, None, count)[0]
                    if v > e:
                        e = v
                if e < 0.0:
                    raise ValueError("estimate: no card to play")  # (max() of no value)
                return e
        if self.to_play == seat:
            # max(value(c, None)[0] for c in playable()), value's memo read here.
            values = self._values
            count = len(trick) + 1
            e = -1.0
            for c in card_ids(self.playable_mask()):
                got = values.get(c)
                if got is None:
                    got = values[c] = self._price(c, None, count)
                if got[0] > e:
                    e = got[0]
            if e < 0.0:
                raise ValueError("estimate: no card to play")  # (max() of no value)
            return e
        return deal_odds(self.won, self.lost, list(self.qs().values()))

    def choose_card(self, cards: list[int]) -> list[int]:
        """The best cards to play now (more than one only on an exact tie)."""
        qs = self.qs()
        # {c: value(c, qs)}, value's memo read here.
        values = self._values
        count = len(self.trick) + 1
        scored = {}
        for c in cards:
            got = values.get(c)
            if got is None:
                got = values[c] = self._price(c, qs, count)
            scored[c] = got
        # near_best(scored, cards, TIE, decisive=self.won == 1) in loops: the best deal
        # odds and the cards within TIE of them; when one more trick wins the deal, of
        # those the ones most likely to take it (take it now if possible).
        top = scored[cards[0]][0]
        for c in cards:
            v = scored[c][0]
            if v > top:
                top = v
        floor = top - TIE
        near = []
        for c in cards:
            if scored[c][0] >= floor:
                near.append(c)
        if self.won == 1:
            best_p = scored[near[0]][1]
            for c in near:
                v = scored[c][1]
                if v > best_p:
                    best_p = v
            floor = best_p - 1e-9
            taking = []
            for c in near:
                if scored[c][1] >= floor:
                    taking.append(c)
            near = taking
        if self.won != 1 and not self.trick:
            strong = self.strong(qs)
            if len(strong) >= 2:
                # Draw trumps with the lower strong ones; keep the best for the decider.
                draw = [c for c in strong[:-1] if c in cards and scored[c][0] >= top - DRAW_TIE]
                if draw:
                    return [draw[0]]
        if len(near) == 1:
            return near
        # The cheapest: the lowest (q, worth), every card that has it.
        worth = self.t.worth
        low = (qs[near[0]], worth[near[0]])
        for c in near:
            key = (qs[c], worth[c])
            if key < low:
                low = key
        return [c for c in near if (qs[c], worth[c]) == low]

    def strong(self, qs: Mapping[int, float]) -> list[int]:
        """The strong trumps in hand (no opponent beats them as a lead with chance
        :data:`STRONG`), cheapest first."""
        tstr = self.t.tstr
        out = []  # (a loop, not a generator: in 3.11 that is a call)
        for c in self.hand:
            if tstr[c] and qs[c] >= STRONG:
                out.append(c)
        out.sort(key=tstr.__getitem__)
        return out

    def trumps_held(self) -> list[int]:
        """The trumps in hand, cheapest first."""
        tstr = self.t.tstr
        return sorted((c for c in self.hand if tstr[c]), key=tstr.__getitem__)


class EnviteHeuristic(PartnershipHeuristic[_View]):
    """Hand-written Envite play and betting; see the module docstring for its rules."""

    NOTHING_TO_DO = (
        "no card to play, no answer owed, and the heuristic neither proposes nor signs here"
    )

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        super().__init__(game, seed, **options)
        self.capping = str(game.options.get("capping", "minus_one"))
        self.ce: tuple[tuple[float, ...], ...] = chico_equity(self.capping)

    def view(self, observation: Mapping[str, Any]) -> _View:
        return _View(self.game, observation, self.signals)

    def choose(self, observation: Observation) -> int:
        """The action to take, from what this seat may know (legal actions listed under
        ``offences``, penalize mode, are never taken)."""
        legal = legal_ids(self.game, observation)
        offences = set(observation.get("offences", ()))
        strings = observation["legal_actions"]
        allowed = {a for s, a in zip(strings, legal, strict=True) if s not in offences}
        pick = self._act(self.view(observation), allowed)
        if pick is None:
            self._nothing_to_do(observation.get("seat"), observation.get("to_act"))
        return pick

    def choose_state(self, state: State) -> int:
        """:meth:`choose` for the seat to act, read from the engine's state: the same
        action and the same draws of ``self.rng``, from what that seat's observation
        shows (no observation built, no card string parsed)."""
        if not isinstance(state, EnviteState) or state._g.name != self.game.name:
            raise RulesError(f"this bot plays {self.game.name}, not {state!r}")
        game = state._g
        # A search's stopped lines play the game's twin, which shares the game's options:
        # the identity settles it without comparing the dicts.
        opts = game.options
        if game is not self.game and opts is not self.game.options and opts != self.game.options:
            # The rules the bot was made for read from the state's own: the slow door.
            return self.choose(state.observation(state.to_act))
        seat = state.to_act
        legal = state._legal  # the engine's cached list (read, never changed here)
        if legal is None and seat is not None:
            # What legal_actions() computes and caches, without the copy it returns.
            legal = state._legal = state._compute_legal(seat)
        if seat is None or not legal:
            raise RulesError(
                f"seat {seat!r} has no legal action in this observation (to_act is {seat!r})"
            )
        return self._choose_facts(state, seat, set(legal), None)

    def _choose_facts(
        self,
        state: EnviteState,
        seat: int,
        allowed: set[int],
        facts: _Facts | None,
        signs: frozenset[int] | None = None,
    ) -> int:
        """:meth:`choose_state`'s decision for ``seat``, the seat to act, with ``allowed``
        its legal actions (a set, not empty; consultations, which the heuristic never
        makes, may be left out) and ``facts`` the state's :func:`_deal_facts` (None: read
        here when needed; :func:`fast_rollout` carries them move to move).  ``allowed``
        is the caller's, changed here.  ``signs``: None, or the signs the rules allow
        when ``allowed`` leaves the messages out (:func:`fast_rollout`, never at a
        tumbo call): a sign not said yet is allowed.  (A sign the first check here does
        not make, :meth:`_act` does not make either: the same hand, the same sign.)"""
        game = state._g
        if self.signals and TUMBO_PLAY not in allowed:
            # With no tumbo call to make, the sign comes first in _act (_sign): made here
            # from the deal's facts, without a view, whether or not a bet may be made.
            d = state._d
            if facts is None:
                t = _table(game.players, d.vira, game.plain_rule)
                facts = _deal_facts(state._ev, d, game.players, t)  # of_state's too
            if not facts[2] >> seat & 1:
                t = _table(game.players, d.vira, game.plain_rule)
                tstr = t.tstr
                hand = state._h >> seat * 40 & _FULL
                trumps = []  # (a loop, not a generator: in 3.11 that is a call)
                for c in card_ids(hand):
                    if tstr[c]:
                        trumps.append(c)
                trumps.sort(key=tstr.__getitem__)
                action = _sign_action(t, trumps)
                if signs is None:
                    if action in allowed:
                        return action
                elif action in signs and not (
                    state._said >> (seat * _NMSG + action - SIGNAL_BASE) & 1
                ):
                    return action
        if not (game.penalize or ENVIO in allowed or ACCEPT in allowed or TUMBO_PLAY in allowed):
            # No bet to make or answer, no tumbo call: what _act does then after the sign
            # (the only card), without a view when that is all.
            cards = state._h >> seat * 40 & _FULL
            only = -1
            while cards:
                low = cards & -cards
                card = low.bit_length() - 1
                cards ^= low
                if card in allowed:
                    if only >= 0:
                        break  # two cards: the view decides
                    only = card
            else:
                if only >= 0:
                    return only
        view = _View.of_state(state, seat, self.signals, facts)
        # The state door's views share their trick odds across views by their facts
        # (:data:`_PMAX`): ISMCTS infer=bets reads the same seat at the same point of
        # the deal in many samples (only its hand differs), where most odds recur.  A
        # fast rollout's views rarely meet the same facts twice: the key would cost more
        # than it saves, and they keep their own.
        view._shared = signs is None
        if state._g.penalize:  # the offences (renuncios) are legal but never taken
            d = state._d
            allowed -= {c for c in allowed if c < 40} - set(view.playable())
            if d.tumbo[0] or d.tumbo[1]:
                allowed.discard(ENVIO)
        pick = self._act(view, allowed)
        if pick is None:
            self._nothing_to_do(seat, seat)
        return pick

    def trusted(self, observation: Observation) -> Observation:
        """``observation`` with the partners' signs taken as true: each trump a partner's
        sign names (and that is not played, nor in this hand) is listed under
        ``shown_hands`` as a card of that partner's hand, so that ``game.determinize``
        deals it there.  A card claimed by two partners is left out (one of them lied).
        A search that trusts its partners samples from this; signs may be false, so the
        search falls back to the observation itself when this one does not fit the play.
        """
        view = _View(self.game, observation, True)
        owners: dict[int, list[int]] = {}
        for seat, cards in enumerate(view.known):
            for card in card_ids(cards):
                owners.setdefault(card, []).append(seat)
        extra: dict[int, list[str]] = {}
        for card, seats in owners.items():
            if len(seats) == 1:
                extra.setdefault(seats[0], []).append(ALL_CARDS[card])
        if not extra:
            return observation
        shown = list(observation.get("shown_hands", []))
        shown += [{"seat": s, "cards": sorted(cards)} for s, cards in sorted(extra.items())]
        return {**observation, "shown_hands": shown}

    def _act(self, view: _View, allowed: set[int]) -> int | None:
        """The decision, one code for both front doors: the action id among ``allowed``,
        or None when the heuristic has nothing to do."""
        if TUMBO_PLAY in allowed and view.must_decide:
            return TUMBO_PLAY if self._play_tumbo(view) else TUMBO_DECLINE
        sign = self._sign(view, allowed) if self.signals else None
        if sign is not None:
            return sign
        if ACCEPT in allowed and view.must_answer:
            return self._answer(view, allowed)
        if ENVIO in allowed and self._propose(view):
            return ENVIO
        cards = []
        for c in view.hand:
            if c in allowed:
                cards.append(c)
        if len(cards) == 1:  # what choose_card would return, without its odds
            return cards[0]
        return self._play(view, cards) if cards else None

    # -- stones ----------------------------------------------------------------------

    def _equity(self, view: _View, team: int, points: int | None) -> float:
        """Chico equity of the bot's team after ``team`` scores ``points`` (None: chico)."""
        scores = view.scores
        me = view.team
        got = None if points is None else award(scores[team], points, self.capping)
        if got is None:
            return 1.0 if team == me else 0.0
        # The stones after it, ours first, read at most 11 (no list copied, no min call).
        ours, theirs = (got, scores[1 - me]) if team == me else (scores[me], got)
        return self.ce[ours if ours < 11 else 11][theirs if theirs < 11 else 11]

    def _play_on(self, view: _View, level: int, e: float) -> float:
        """Chico equity of playing the deal out at ``level`` with deal odds ``e``."""
        me = view.team
        # min(1.0, max(0.0, e)) without the calls (the same float; NaN reads 0.0 too).
        e = e if e > 0.0 else 0.0
        e = e if e < 1.0 else 1.0
        points = None if level >= 4 else _value(level)
        return e * self._equity(view, me, points) + (1.0 - e) * self._equity(view, 1 - me, points)

    def _answer(self, view: _View, allowed: set[int]) -> int:
        """Fold, accept or raise the pending proposal, whichever is worth most."""
        level = view.pending
        e = view.estimate()
        fold = self._equity(view, 1 - view.team, _value(level - 1))
        options = {"fold": fold, "accept": self._play_on(view, level, e - ANSWER_DOUBT[level])}
        if RAISE in allowed and level < 4 and e >= RAISE_MIN:
            up = level + 1
            options["raise"] = THEY_FOLD * self._equity(view, view.team, _value(level)) + (
                1.0 - THEY_FOLD
            ) * self._play_on(view, up, e - ANSWER_DOUBT[up])
        best = max(options, key=lambda k: (options[k], k == "accept"))
        if best == "raise" and options["raise"] < options["accept"] + MARGIN:
            best = "accept"
        action = _ANSWERS[best]
        return action if action in allowed else ACCEPT

    def _propose(self, view: _View, _obs: Any = None) -> bool:
        """Open or raise the envío now?  (``_obs``: unused, the view holds the facts.)"""
        if view.tumbo_deal or view.tumbo_any:
            return False
        level = view.level
        if level >= 4:
            return False
        up = level + 1
        e = view.estimate()
        # The crowd allowance makes up for E's caution when the partners' hands are
        # unknown; a team that signs knows more, and the bar stays where it is.
        crowd = PROPOSE_CROWD if view.n >= 6 and not view.reads_signs else 0.0
        if e < PROPOSE_MIN[up] - crowd:
            return False
        stay = self._play_on(view, level, e)
        bet = THEY_FOLD * self._equity(view, view.team, _value(level)) + (
            1.0 - THEY_FOLD
        ) * self._play_on(view, up, e - ANSWER_DOUBT[up])
        return bet > stay + MARGIN

    def _play_tumbo(self, view: _View) -> bool:
        """Play the tumbo deal (worth 3) rather than give the opponents one stone?"""
        e = view.estimate()
        me = view.team
        play = e * self._equity(view, me, 3) + (1.0 - e) * self._equity(view, 1 - me, 3)
        return play >= self._equity(view, 1 - me, 1)

    # -- signs ------------------------------------------------------------------------

    def _sign(self, view: _View, allowed: set[int]) -> int | None:
        """One truthful sign a deal: the best trump held, or what kind of hand it is."""
        if view.signed:
            return None
        action = _sign_action(view.t, view.trumps_held())
        return action if action in allowed else None

    def explain(self, observation: Observation, action: int | str) -> tuple[str, dict[str, Any]]:
        """One line of why ``action`` (this bot's choice here): an i18n key
        ``hint.envite.<why>`` and its params (cards as codes, ``pct`` the bot's chance of
        winning the deal, ``E``, on which every bet and answer is weighed)."""
        text = self._text(action)
        view = self.view(observation)
        if text.startswith("signal"):
            return "hint.envite.signal", {}
        if text in ("tumbo_play", "tumbo_decline", "accept", "fold", "raise", "envio"):
            pct = round(100 * min(1.0, max(0.0, view.estimate())))
            return f"hint.envite.{text}", {"pct": pct}
        offences = set(observation.get("offences", ()))
        legal = set(observation["legal_actions"]) - offences
        cards = [c for c in view.hand if ALL_CARDS[c] in legal]
        return self._explain_card(view, _ID.get(text, text), cards)

    def _explain_lead(self, view: _View, text: Any, cards: list[Any]) -> tuple[str, dict[str, Any]]:
        strong = view.strong(view.qs())
        card = view.code(text)
        if len(strong) >= 2 and text in strong[:-1] and view.won != 1:
            return "hint.envite.draw_trumps", {"card": card, "keep": view.code(strong[-1])}
        if view.won == 1:
            return "hint.envite.lead_win", {"card": card}
        if min(cards, key=view.worth_key) == text:
            return "hint.envite.lead_low", {"card": card}
        return "hint.envite.lead", {"card": card}

    def _explain_take(
        self, view: _View, text: Any, cards: list[Any], best: Any
    ) -> tuple[str, dict[str, Any]]:
        if view.won == 1:  # this trick wins the deal
            return "hint.envite.win_deal", {"card": view.code(text)}
        return super()._explain_take(view, text, cards, best)

    def __repr__(self) -> str:
        return f"EnviteHeuristic({self.game!r}, signals={self.signals})"


# -- hooks read through the registry (mazo.bots.heuristic) ----------------------------

Heuristic = EnviteHeuristic


def _allowed(line: EnviteState, seat: int, envio: bool, acceptor_only: bool) -> set[int]:
    """The actions the heuristic may take on a line of :func:`fast_rollout` (card play or
    a pending proposal, not penalize mode), ``seat`` to act, but signs: ``line.
    _compute_legal(seat)`` without the messages, built as a set at once.  (The sign, the
    one message the heuristic makes, is checked on its own: ``_choose_facts``'s
    ``signs``.)  ``envio``: the deal is no tumbo deal; ``acceptor_only``: the option
    ``raise_right`` is ``acceptor_only`` (``line._may_envio(seat)`` from them, the seat
    to act, as it reads them)."""
    if line._m & PHASE_MASK == _PLAY:
        cards = line._follow(line._h >> seat * 40 & _FULL)
        ids = _HAND_IDS.get(cards)
        if ids is None:
            if len(_HAND_IDS) >= _HAND_IDS_MAX:
                _HAND_IDS.clear()
            ids = _HAND_IDS[cards] = tuple(card_ids(cards))
        allowed = set(ids)
        if envio:
            level, right = line._bet[0], line._bet[1]
            if level < 4 and not (right >= 0 and right != seat & 1 and acceptor_only):
                allowed.add(ENVIO)
        return allowed
    allowed = set()
    if line._may_answer(seat):
        allowed.update((ACCEPT, FOLD, RAISE) if line._bet[2] < 4 else (ACCEPT, FOLD))
    return allowed


def fast_rollout(policies: list[Any]) -> Callable[[State], State | None] | None:
    """A search's whole rollout with no state built a card or a sign (the ISMCTS hook):
    given each seat's rollout policy, a function from a search line's state to the state
    at its deal's end, played by those policies with their own tie draws: the same end
    as their ``choose_state`` moves applied one by one (tested), on one line the engine
    changes in place (:meth:`EnviteState.play_to_deal_end`), each decision read from the
    deal's facts carried from move to move (:func:`_fold` of the log's new nodes) rather
    than read back from the log (:func:`_deal_facts`).  None where the policies are not
    all Envite heuristics; the function returns None for a line it does not cover (a
    tumbo decision, a deal's first state still flagged with the last one's end, penalize
    mode, other rules than the policies'), which the search then plays move by move."""
    if not policies or any(type(p) is not EnviteHeuristic for p in policies):
        return None
    game = policies[0].game
    if any(p.game is not game for p in policies):
        return None

    def run(state: State) -> State | None:
        if not isinstance(state, EnviteState):
            return None
        g = state._g
        # choose_state's condition for its fast door (a stopped line's twin shares them).
        if g is not game and g.options is not game.options and g.options != game.options:
            return None
        if state._m & (PHASE_MASK | HAND_OVER) not in (_PLAY, _BET) or g.penalize:
            return None
        d = state._d
        n = g.players
        t = _table(n, d.vira, g.plain_rule)
        facts = _deal_facts(state._ev, d, n, t)
        seen = state._ev  # the log's node that ``facts`` describe
        signs = frozenset(g._msgs_tumbo)  # the signs the rules allow (in play too)
        # _may_envio's facts that stay for the deal (the seat asked is the one to act).
        envio = not (d.tumbo[0] or d.tumbo[1])
        acceptor_only = g.options["raise_right"] == "acceptor_only"

        def pick(line: EnviteState) -> int:
            nonlocal facts, seen
            ev = line._ev
            if ev is not seen:  # the nodes since the last decision, oldest first
                if ev[0] is seen:  # one move since (the usual case)
                    facts = _fold(facts, ev, t)
                else:
                    new = []
                    node = ev
                    while node is not seen:
                        new.append(node)
                        node = node[0]
                    for node in reversed(new):
                        facts = _fold(facts, node, t)
                seen = ev
            seat = line.to_act
            assert seat is not None
            policy: EnviteHeuristic = policies[seat]
            allowed = _allowed(line, seat, envio, acceptor_only)
            return policy._choose_facts(line, seat, allowed, facts, signs)

        return state.play_to_deal_end(pick)

    return run


# The search levels' settings (mazo.bots.levels), on top of the flat heuristic search.
# Envite's bets are the heuristic's, the reward is linear in stones and samples must fit
# the others' bets: the flat search priced bets by the deal's outcome (it accepted raises
# too often), and samples that deal the unseen cards uniformly ignore what a raise says
# about the raiser's hand.  Two-worker tournaments at the hard level against normal, 50
# matches each on the same deals (seed 12): 38% as before, 46% with bets=heuristic, 52%
# with reward=points too, 56% with infer=bets too (54% with infer=all).
# Session 6: the search levels also sign their best trump to their partners and deal
# each partner, in every sample, the trump its sign names.  Eight players, hard against
# normal, 40 matches on the same deals (seed 21): 16/40 without, 25/40 with (the
# heuristic alone signing: 104/200).
# Session 10: paired (common-world) flat search, the search makes the bets again, and
# the reward is search_reward (stones, a deal's scale): each world is played out after
# every move, bets included, so a bet is compared with the cards on the same hands, and
# the opponents' answers in the rollouts are the heuristic's (exactly normal's).  Per
# deal against normal, 4 players, 100 duplicate deal sets (seed 1), 100 playouts a move:
# the expert team's share of the stones 51.9% with the session-6 preset made paired,
# 52.1% with guide=0, 52.0% with infer=all, 53.3% with bets=search, 54.3% with
# bets=search and guide=0 (duplicate deal sets 45/28/27), 61.3% (56.2-66.4%) with
# reward=game and margin=0 too (56/27/17; mean margin +0.80 stones a deal against +0.27).
# The reward's clip at 9 stones (12 since session 12) made a chico worth a nueve to the
# search; it raised to chico less (deals at chico level: 9 of 200 against 20); the
# per-deal measure then counted a deal won at chico level as 0 stones to either side (its
# hand_end points); since session 12 it counts the chico as 12 stones to its winner
# (sim.jobs.deal_tallies), and with it this preset took 60.1% over 1,000 deals.
# Reading the bets (infer=bets) costs 12-17% of the playouts a CPU second; without it, at
# 120 playouts (less CPU than 100 with it): 57.4% (52.1-62.6%), duplicate 46/29/25.
# Session 24: the guide keeps the shipped net's move (hint=net: four players' net, session
# 23's expert iteration on this search's own moves) unless a rival beats it by 0.001 and
# a standard error.  The same 1,000 deals against normal: 62.9% of the stones against
# 62.0%, paired +0.03 stones a deal (-0.21 to +0.27); head to head with the search
# without it, 2,000 deals (seeds 2026-2027): 50.3% of the stones, +0.0 (-0.2 to +0.2).
# Even on both; the net is the search's verdict averaged over its self-play, and the
# preset uses it so (docs/nets.md, "Session 24").  Session 25: eight players have their
# own net (one generation of expert iteration on this search's moves at eight), and the
# same preset there: against normal over 2,400 deals (seeds 2040-2047, 150 sets each)
# 60.8% of the stones where the search without it (guide 0) took 58.5% on the same
# deals, paired +0.21 stones a deal (+0.02 to +0.40).
SEARCH_PRESET: dict[str, Any] = {
    "reward": "game",
    "margin": 0.0,
    "bets": "search",
    "infer": "bets",
    "signals": True,
    "paired": True,
    "guide": 0.001,
    "hint": "net",
}
# Where no shipped net can name the kept move (six, ten or twelve players; no numpy):
# the session-12 preset, every move the search's best.
SEARCH_WITHOUT_NET: dict[str, Any] = {"guide": 0.0, "hint": "heuristic"}


# A line that gains this many more stones than the other side's is worth 1 to the search
# (``search_reward``): a chico's 12 stones, so that a deal won at chico level (from 0-0,
# worth 12 stones and more) counts more than a nueve (9), as the per-deal measure counts
# it (mazo.sim.jobs.deal_tallies).  Session 12, 4 players, 100 playouts, the same deals
# against normal over 1,000 deals: the expert team took 60.1% of the stones with a scale
# of 9 (a nueve), 62.0% with 12 (seeds 2026 and 2027, better on each).
STONE_SCALE = 12


def search_reward(
    game: Game, margin: float
) -> Callable[[Sequence[int], Sequence[int], State], list[float]]:
    """The search's reward for a line (ISMCTS ``reward=game``), linear in stones: side
    0's reward is ``0.5 + edge / (2 * STONE_SCALE)`` clipped to [0, 1], ``edge`` the
    stones it gained over side 1's, blended with weight ``margin`` with who gained more
    (1, 0.5 or 0); side 1's is one minus that.  A chico won counts as the stones that
    finished it plus the stones the losers lose with it (both teams go back to 0:
    :data:`mazo.games.envite.award`), as ``reward=points`` counts it; a match won is 1.

    Bets are priced by their stake, as the per-deal measure counts them (the stones a
    side takes), and the scale is a deal's, not two chicos' (``reward=points`` divides
    by 24 stones): the ``guide`` threshold reads in stones (0.02 is 0.48 stones).

    >>> import mazo
    >>> game = mazo.load_game("envite", players=4)
    >>> reward = search_reward(game, 0.0)
    >>> end = game.new_match(seed=1, setup={"scores": [5, 3]})
    >>> reward([0, 3], [0, 0], end)  # side 0 gained 5 stones, side 1 none
    [0.7083333333333334, 0.29166666666666663]
    """
    target = game.info.score_target

    def reward(scores: Sequence[int], games: Sequence[int], end: State) -> list[float]:
        if end.match_over:
            winner = end.winner
            first = 0.5 if winner is None else 1.0 if winner == 0 else 0.0
            return [first, 1.0 - first]
        after, chicos = end.scores, end.games
        edge = (chicos[0] - games[0] - chicos[1] + games[1]) * target
        edge += after[0] - scores[0] - after[1] + scores[1]
        linear = min(1.0, max(0.0, 0.5 + edge / (2 * STONE_SCALE)))
        won = 1.0 if edge > 0 else 0.0 if edge < 0 else 0.5
        first = (1.0 - margin) * linear + margin * won
        return [first, 1.0 - first]

    return reward


def match_equity_of(game: Game) -> Callable[[State], float]:
    """``state -> side 0's chance of winning the match`` (ISMCTS ``reward=equity``): the
    heuristic's chico odds, :func:`match_equity`."""
    target = int(game.options["chicos_to_win"])
    capping = str(game.options.get("capping", "minus_one"))

    def equity(state: State) -> float:
        if state.match_over:
            winner = state.winner
            return 0.5 if winner is None else 1.0 if winner == 0 else 0.0
        return match_equity(state.scores, state.games, target, capping)

    return equity


# The solver's test (mazo.bots.solver.perfect_information), mirroring determinize.
def perfect_information(game: Game, obs: Observation) -> bool:
    """Each seat was dealt three cards: the ones it played or showed are known, the rest
    come from the pool, and what is left of the pool is the undealt rest."""
    deck = game.info.deck
    seat = obs["seat"]
    log = obs["deal_log"]
    start = [0] * game.players
    seen = 1 << deck.parse(log[0]["vira"])
    for e in log:
        if e["type"] == "play":
            start[e["seat"]] |= 1 << deck.parse(e["card"])
        elif e["type"] == "renuncio" and e["offence"] == "follow":
            start[e["seat"]] |= 1 << deck.parse(e["action"])
    if seat is not None:
        start[seat] |= card_mask(deck, obs["hand"])
    for shown in obs["shown_hands"]:
        start[shown["seat"]] |= card_mask(deck, shown["cards"])
    for mask in start:
        seen |= mask
    pool = (deck.full_mask & ~seen).bit_count()
    return one_placement([3 - mask.bit_count() for mask in start], pool, ordered_rest=False)
