"""A heuristic Envite Canario bot: trick odds, deal odds and stone equity, observation only.

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
see the constants.  Pure Python over the observation: about 0.3 ms a decision with four
players, 0.8 ms with twelve.  A seed only breaks exact ties.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from mazo.bots.base import Observation
from mazo.bots.heuristic._base import PartnershipHeuristic, TrickView, near_best
from mazo.bots.odds import (
    card_codes,
    card_mask,
    deal_odds,
    game_equity,
    one_placement,
    trick_value,
)
from mazo.bots.odds import holds as _holds
from mazo.core.cards import LATIN_40, SUITS
from mazo.core.game import Game, State
from mazo.games.envite import BET_VALUES, award, exempt_card, trump_order

__all__ = ["EnviteHeuristic", "chico_equity", "deal_odds", "match_equity"]

ALL_CARDS = card_codes(LATIN_40)
_PLAIN_ORDER = ("K", "Q", "J", "1", "7", "6", "5", "4", "3", "2")  # §3.4, strongest first
TRUMP = "T"  # the effective suit of every trump (§3.5)

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


class _View(TrickView):
    """What the bot derives from one observation."""

    def __init__(self, game: Game, obs: Mapping[str, Any], read_signs: bool) -> None:
        super().__init__(obs)
        n = self.n = int(obs["players"])
        self.vira: str = obs["vira"]
        order = trump_order(n, self.vira)
        self.order = order
        self.top = order[0]
        self.exempt = exempt_card(n, self.vira)
        self.tstr = {c: len(order) - i for i, c in enumerate(order)}  # bigger is stronger
        self.pstr: dict[str, int] = {}
        for s in SUITS:
            plain = [r + s for r in _PLAIN_ORDER if r + s not in self.tstr]
            for i, c in enumerate(plain):
                self.pstr[c] = len(plain) - i
        self.plain_rule = game.options.get("follow_rule", "all_suits") == "all_suits"
        self.hand: list[str] = list(obs["hand"])

        played: set[str] = set()
        self.voids: list[set[str]] = [set() for _ in range(n)]
        for t in obs["tricks"]:
            seats = [(t["leader"] + i) % n for i in range(len(t["cards"]))]
            self._note_plays(list(zip(seats, t["cards"], strict=True)), played)
        self._note_plays(self.trick, played)
        self.played = played

        # Partners' cards the bot knows: shown hands (tumbo_show_captain), true signs.
        known: dict[int, set[str]] = {}
        # A team that signs (the bot does, and the table delivers signs).
        self.reads_signs = read_signs and obs.get("signals", "team") != "off"
        for shown in obs.get("shown_hands", []):
            known.setdefault(shown["seat"], set()).update(shown["cards"])
        if read_signs:
            for msg in obs.get("messages", []):
                seat = msg.get("seat")
                if msg.get("type") != "signal" or seat == self.seat:
                    continue
                if not isinstance(seat, int) or seat % 2 != self.team:
                    continue
                card = self.sign_card(str(msg.get("kind")))
                if card is not None:
                    known.setdefault(seat, set()).add(card)
        mine = set(self.hand)
        self.known: dict[int, set[str]] = {}
        for seat, cards in known.items():
            cards = cards - played - mine - {self.vira}
            if cards and 0 <= seat < n:
                cards = set(
                    sorted(cards, key=self.worth_key, reverse=True)[: self.hand_sizes[seat]]
                )
                self.known[seat] = cards
        taken = mine | played | {self.vira}
        for cards in self.known.values():
            taken |= cards
        self.unseen = [c for c in ALL_CARDS if c not in taken]
        self.hidden = [self.hand_sizes[s] - len(self.known.get(s, ())) for s in range(n)]
        self._pools: dict[int, list[str]] = {}
        self._pool_sets: dict[int, set[str]] = {}

    # -- card facts ------------------------------------------------------------------

    def eff(self, card: str) -> str:
        return TRUMP if card in self.tstr else card[-1]

    def worth_key(self, card: str) -> tuple[int, int]:
        """Trumps above plain cards, then by strength: a cheap card sorts first."""
        if card in self.tstr:
            return (1, self.tstr[card])
        return (0, self.pstr[card])

    def sign_card(self, kind: str) -> str | None:
        """The card a sign names, if it names one that is a trump this deal."""
        if kind == "top_trump":
            return self.top
        v = self.vira[-1]
        card = {"mala": "2" + v, "rey_of_vira": "K" + v}.get(kind)
        if card is None:
            card = next((c for c, k in _SIGN_OF_CARD.items() if k == kind), None)
        return card if card is not None and card in self.tstr else None

    def beats(self, card: str, best: str, led: str) -> bool:
        """Whether ``card`` takes a trick whose best card is ``best`` (led suit ``led``)."""
        if card in self.tstr:
            return best not in self.tstr or self.tstr[card] > self.tstr[best]
        if best in self.tstr or card[-1] != led:
            return False
        return self.pstr[card] > self.pstr[best]

    def best_so_far(self) -> tuple[int, str]:
        """The seat holding the trick on the table and its card."""
        led = self.eff(self.trick[0][1])
        w = 0
        for i in range(1, len(self.trick)):
            if self.beats(self.trick[i][1], self.trick[w][1], led):
                w = i
        return self.trick[w]

    def takes(self, card: str, best: str) -> bool:
        """Whether ``card`` takes the trick on the table from its best card ``best``."""
        return self.beats(card, best, self.eff(self.trick[0][1]))

    def cheapest(self, card: str, cards: Sequence[str]) -> bool:
        """Whether ``card`` is the cheapest of ``cards`` (:meth:`worth_key`)."""
        return min(cards, key=self.worth_key) == card

    def _note_plays(self, plays: list[tuple[int, str]], played: set[str]) -> None:
        """Record played cards and the voids §7 reveals (a seat that did not follow)."""
        if not plays:
            return
        led = self.eff(plays[0][1])
        for seat, card in plays:
            played.add(card)
            if self.eff(card) == led:
                continue
            if led == TRUMP:
                self.voids[seat].update(c for c in self.tstr if c != self.exempt)
            elif self.plain_rule:
                self.voids[seat].update(c for c in ALL_CARDS if c[-1] == led and c in self.pstr)

    def playable(self) -> list[str]:
        """§7 from the bot's side: the cards of its hand it may play to the trick."""
        if not self.trick:
            return list(self.hand)
        led = self.eff(self.trick[0][1])
        if led == TRUMP:
            trumps = [c for c in self.hand if c in self.tstr]
            if not trumps or trumps == [self.exempt]:
                return list(self.hand)
            return trumps
        if not self.plain_rule:
            return list(self.hand)
        follow = [c for c in self.hand if c[-1] == led and c in self.pstr]
        return follow or list(self.hand)

    # -- odds --------------------------------------------------------------------------

    def hold(self, seat: int, good: Iterable[str]) -> float:
        """The chance that ``seat`` holds at least one of the cards ``good``."""
        goods = set(good)
        if goods & self.known.get(seat, set()):
            return 1.0
        pool = self._pool(seat)
        count = sum(1 for c in pool if c in goods)
        return _holds(len(pool), self.hidden[seat], count)

    def p_take(self, plays: list[tuple[int, str]], after: list[int]) -> float:
        """The chance that the team takes a trick with ``plays`` on it and ``after`` to play."""
        led = self.eff(plays[0][1])
        w = 0
        for i in range(1, len(plays)):
            if self.beats(plays[i][1], plays[w][1], led):
                w = i
        seat, best = plays[w]
        mine = 1.0 if seat % 2 == self.team else 0.0
        return self._p_max(best, led, mine, after)

    def p_card(self, seat: int, card: str) -> float:
        """The chance that ``seat`` holds ``card`` (unseen, or known to be there)."""
        if card in self.known.get(seat, ()):
            return 1.0
        pool = self._pool(seat)
        if card not in self._pool_sets[seat] or not pool:
            return 0.0
        return min(1.0, self.hidden[seat] / len(pool))

    def _pool(self, seat: int) -> list[str]:
        pool = self._pools.get(seat)
        if pool is None:
            voids = self.voids[seat]
            pool = self._pools[seat] = [c for c in self.unseen if c not in voids]
            self._pool_sets[seat] = set(pool)
        return pool

    def p_void(self, seat: int, suit: str) -> float:
        """The chance that ``seat`` holds no plain card of ``suit`` (so it may trump)."""
        if any(c[-1] == suit and c in self.pstr for c in self.known.get(seat, ())):
            return 0.0
        return 1.0 - self.hold(seat, [c for c in self.unseen if c[-1] == suit and c in self.pstr])

    def _p_max(self, best: str, led: str, mine: float, after: list[int]) -> float:
        """P(team wins): the strongest card the seats ``after`` can play over ``best`` is
        a partner's, or none exists and ``best`` is ours (``mine``); cards held
        independently, each seat playing its best."""
        beaters = sorted(
            (c for c in self.unseen if self.beats(c, best, led)),
            key=self.worth_key,
            reverse=True,
        )
        known = [c for s in after for c in self.known.get(s, ()) if self.beats(c, best, led)]
        if known:
            beaters = sorted(set(beaters) | set(known), key=self.worth_key, reverse=True)
        trump_needs_void = self.plain_rule and led != TRUMP
        voids = {s: self.p_void(s, led) for s in after} if trump_needs_void else {}
        result, none_above = 0.0, 1.0
        for card in beaters:
            total = ours = 0.0
            for s in after:
                if s == self.seat:
                    continue
                p = self.p_card(s, card)
                if p and trump_needs_void and card in self.tstr:
                    p *= voids[s]
                total += p
                if s % 2 == self.team:
                    ours += p
            total = min(1.0, total)
            if total <= 0.0:
                continue
            result += none_above * min(ours, total)
            none_above *= 1.0 - total
            if none_above <= 0.0:
                break
        return result + none_above * mine

    def after(self, count: int) -> list[int]:
        """The seats that play after the first ``count`` cards of the current trick."""
        leader = self.trick[0][0] if self.trick else self.to_play
        return [(leader + i) % self.n for i in range(count, self.n)]

    def q(self, card: str) -> float:
        """The chance that the team wins a later trick in which the bot plays ``card``."""
        others = [(self.seat + i) % self.n for i in range(1, self.n)]
        return self.p_take([(self.seat, card)], others)

    def value(
        self, card: str, qs: Mapping[str, float], after: list[int] | None = None
    ) -> tuple[float, float]:
        """(deal odds if ``card`` is played now, chance of taking this trick with it);
        ``after``: the seats that play after it (default: the rest of the trick)."""
        plays = [*self.trick, (self.seat, card)]
        p = self.p_take(plays, self.after(len(plays)) if after is None else after)
        rest = [qs[c] for c in self.hand if c != card]
        return trick_value(p, self.won, self.lost, rest), p

    def estimate(self) -> float:
        """``E``: the chance that the bot's team wins this deal."""
        qs = {c: self.q(c) for c in self.hand}
        in_trick = any(s == self.seat for s, _ in self.trick)
        if in_trick:  # already played: the trick is the others' now
            p = self.p_take(self.trick, self.after(len(self.trick)))
            return trick_value(p, self.won, self.lost, list(qs.values()))
        if self.to_play == self.seat:
            return max(self.value(c, qs)[0] for c in self.playable())
        if self.trick:  # to play later in this trick: the others still to play follow
            after = [s for s in self.after(len(self.trick)) if s != self.seat]
            return max(self.value(c, qs, after)[0] for c in self.playable())
        return deal_odds(self.won, self.lost, list(qs.values()))

    def choose_card(self, cards: list[str]) -> list[str]:
        """The best cards to play now (more than one only on an exact tie)."""
        qs = {c: self.q(c) for c in self.hand}
        scored = {c: self.value(c, qs) for c in cards}
        # One more trick wins the deal: take it now if possible.
        top, near = near_best(scored, cards, TIE, decisive=self.won == 1)

        def cheap(c: str) -> tuple[float, tuple[int, int]]:
            return (qs[c], self.worth_key(c))

        if self.won != 1 and not self.trick:
            strong = sorted(
                (c for c in self.hand if c in self.tstr and qs[c] >= STRONG), key=self.worth_key
            )
            if len(strong) >= 2:
                # Draw trumps with the lower strong ones; keep the best for the decider.
                draw = [c for c in strong[:-1] if c in cards and scored[c][0] >= top - DRAW_TIE]
                if draw:
                    return [draw[0]]
        low = min(cheap(c) for c in near)
        return [c for c in near if cheap(c) == low]


class EnviteHeuristic(PartnershipHeuristic[_View]):
    """Hand-written Envite play and betting; see the module docstring for its rules."""

    NOTHING_TO_DO = (
        "no card to play, no answer owed, and the heuristic neither proposes nor signs here"
    )

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        super().__init__(game, seed, **options)
        self.ce: tuple[tuple[float, ...], ...] = chico_equity(
            str(game.options.get("capping", "minus_one"))
        )

    def view(self, observation: Mapping[str, Any]) -> _View:
        return _View(self.game, observation, self.signals)

    def _allowed(self, obs: Observation, legal: list[int]) -> dict[str, int]:
        """The legal actions but those listed under ``offences`` (penalize mode)."""
        offences = set(obs.get("offences", ()))
        return {s: a for s, a in zip(obs["legal_actions"], legal, strict=True) if s not in offences}

    def trusted(self, observation: Observation) -> Observation:
        """``observation`` with the partners' signs taken as true: each trump a partner's
        sign names (and that is not played, nor in this hand) is listed under
        ``shown_hands`` as a card of that partner's hand, so that ``game.determinize``
        deals it there.  A card claimed by two partners is left out (one of them lied).
        A search that trusts its partners samples from this; signs may be false, so the
        search falls back to the observation itself when this one does not fit the play.
        """
        view = _View(self.game, observation, True)
        owners: dict[str, list[int]] = {}
        for seat, cards in view.known.items():
            for card in cards:
                owners.setdefault(card, []).append(seat)
        extra: dict[int, list[str]] = {}
        for card, seats in owners.items():
            if len(seats) == 1:
                extra.setdefault(seats[0], []).append(card)
        if not extra:
            return observation
        shown = list(observation.get("shown_hands", []))
        shown += [{"seat": s, "cards": sorted(cards)} for s, cards in sorted(extra.items())]
        return {**observation, "shown_hands": shown}

    def _decide(self, obs: Mapping[str, Any], allowed: Mapping[str, int]) -> str | None:
        view = self.view(obs)
        if "tumbo_play" in allowed and obs.get("team_must_decide", True):
            return "tumbo_play" if self._play_tumbo(view, obs) else "tumbo_decline"
        sign = self._sign(view, obs, allowed) if self.signals else None
        if sign is not None:
            return sign
        if "accept" in allowed and obs.get("team_must_answer", True):
            return self._answer(view, obs, allowed)
        if "envio" in allowed and self._propose(view, obs):
            return "envio"
        cards = [c for c in view.hand if c in allowed]
        return self._play(view, cards) if cards else None

    # -- stones ----------------------------------------------------------------------

    def _equity(self, obs: Mapping[str, Any], team: int, points: int | None) -> float:
        """Chico equity of the bot's team after ``team`` scores ``points`` (None: chico)."""
        stones: list[int] = list(obs["scores"])
        me: int = obs["seat"] % 2
        capping = str(self.game.options.get("capping", "minus_one"))
        got = None if points is None else award(stones[team], points, capping)
        if got is None:
            return 1.0 if team == me else 0.0
        stones[team] = got
        return self.ce[min(stones[me], 11)][min(stones[1 - me], 11)]

    def _play_on(self, obs: Mapping[str, Any], level: int, e: float) -> float:
        """Chico equity of playing the deal out at ``level`` with deal odds ``e``."""
        me = obs["seat"] % 2
        e = min(1.0, max(0.0, e))
        points = None if level >= 4 else _value(level)
        return e * self._equity(obs, me, points) + (1.0 - e) * self._equity(obs, 1 - me, points)

    def _answer(self, view: _View, obs: Mapping[str, Any], allowed: Mapping[str, int]) -> str:
        """Fold, accept or raise the pending proposal, whichever is worth most."""
        pending = obs["bet"]["pending"]
        level: int = pending["level"]
        e = view.estimate()
        fold = self._equity(obs, 1 - view.team, _value(level - 1))
        options = {"fold": fold, "accept": self._play_on(obs, level, e - ANSWER_DOUBT[level])}
        if "raise" in allowed and level < 4 and e >= RAISE_MIN:
            up = level + 1
            options["raise"] = THEY_FOLD * self._equity(obs, view.team, _value(level)) + (
                1.0 - THEY_FOLD
            ) * self._play_on(obs, up, e - ANSWER_DOUBT[up])
        best = max(options, key=lambda k: (options[k], k == "accept"))
        if best == "raise" and options["raise"] < options["accept"] + MARGIN:
            best = "accept"
        return best if best in allowed else "accept"

    def _propose(self, view: _View, obs: Mapping[str, Any]) -> bool:
        """Open or raise the envío now?"""
        if obs.get("tumbo_deal") or any(obs.get("tumbo", ())):
            return False
        level: int = obs["bet"]["level"]
        if level >= 4:
            return False
        up = level + 1
        e = view.estimate()
        # The crowd allowance makes up for E's caution when the partners' hands are
        # unknown; a team that signs knows more, and the bar stays where it is.
        crowd = PROPOSE_CROWD if view.n >= 6 and not view.reads_signs else 0.0
        if e < PROPOSE_MIN[up] - crowd:
            return False
        stay = self._play_on(obs, level, e)
        bet = THEY_FOLD * self._equity(obs, view.team, _value(level)) + (
            1.0 - THEY_FOLD
        ) * self._play_on(obs, up, e - ANSWER_DOUBT[up])
        return bet > stay + MARGIN

    def _play_tumbo(self, view: _View, obs: Mapping[str, Any]) -> bool:
        """Play the tumbo deal (worth 3) rather than give the opponents one stone?"""
        e = view.estimate()
        me = view.team
        play = e * self._equity(obs, me, 3) + (1.0 - e) * self._equity(obs, 1 - me, 3)
        return play >= self._equity(obs, 1 - me, 1)

    # -- signs ------------------------------------------------------------------------

    def _sign(self, view: _View, obs: Mapping[str, Any], allowed: Mapping[str, int]) -> str | None:
        """One truthful sign a deal: the best trump held, or what kind of hand it is."""
        if self._signed(obs, view.seat):
            return None
        trumps = sorted((c for c in view.hand if c in view.tstr), key=view.worth_key)
        if not trumps:
            kind = "no_trump"
        elif trumps[-1] == view.top:
            kind = "top_trump"
        elif trumps[-1] == "2" + view.vira[-1]:
            kind = "mala"
        elif trumps[-1] == "K" + view.vira[-1]:
            kind = "rey_of_vira"
        elif trumps[-1] in _SIGN_OF_CARD:
            kind = _SIGN_OF_CARD[trumps[-1]]
        elif len(trumps) == 3:
            kind = "three_trumps"
        else:
            kind = "small_trumps"
        name = "signal " + kind
        return name if name in allowed else None

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
        cards = [c for c in view.hand if c in observation["legal_actions"] and c not in offences]
        return self._explain_card(view, text, cards)

    def _explain_lead(self, view: _View, text: str, cards: list[str]) -> tuple[str, dict[str, Any]]:
        qs = {c: view.q(c) for c in view.hand}
        strong = sorted(
            (c for c in view.hand if c in view.tstr and qs[c] >= STRONG), key=view.worth_key
        )
        if len(strong) >= 2 and text in strong[:-1] and view.won != 1:
            return "hint.envite.draw_trumps", {"card": text, "keep": strong[-1]}
        if view.won == 1:
            return "hint.envite.lead_win", {"card": text}
        if min(cards, key=view.worth_key) == text:
            return "hint.envite.lead_low", {"card": text}
        return "hint.envite.lead", {"card": text}

    def _explain_take(
        self, view: _View, text: str, cards: list[str], best: str
    ) -> tuple[str, dict[str, Any]]:
        if view.won == 1:  # this trick wins the deal
            return "hint.envite.win_deal", {"card": text}
        return super()._explain_take(view, text, cards, best)

    def __repr__(self) -> str:
        return f"EnviteHeuristic({self.game!r}, signals={self.signals})"


# -- hooks read through the registry (mazo.bots.heuristic) ----------------------------

Heuristic = EnviteHeuristic


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
SEARCH_PRESET: dict[str, Any] = {
    "reward": "points",
    "bets": "heuristic",
    "infer": "bets",
    "signals": True,
}


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
