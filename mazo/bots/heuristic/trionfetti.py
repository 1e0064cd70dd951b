"""A heuristic Trionfetti bot: trick odds under the ranking in force, deal odds, and the
vega weighed in game equity, from the observation only.

Card strength
-------------
A card's strength is its level in ``observation["ranking"]`` (the order in force, levels
strongest first; suits matter only through suit-specific levels).  A card *beats* the best
card of a trick only when it is strictly stronger: among equals the first played wins
(§7), so an equal card played second loses.

What the bot knows
------------------
Its hand; every card played in the smazzata's log (earlier deals only with
``history_visible``); the bottom card and the four cards left at deal 4 (``leftover``),
never dealt; cards its partner showed in earlier deals (set aside now); and its partner's
current hand when shown in this deal (after a vega, ``partner_cards``), minus what the
partner has played since.  With ``signals=True`` a partner's ``signal <card>`` is read as
that card in the partner's hand.  Every other card is *unseen*: each seat holds a given
unseen card with the chance ``hidden cards of the seat / unseen cards`` (the stock and the
set-aside cards not seen hide the rest).

Cards
-----
Every card in hand is valued by the chance that the team wins the *deal* if it is played
now::

    value(card) = P(team takes this trick | card) * D(won + 1, lost, rest)
                + (1 - P(...))                   * D(won, lost + 1, rest)

* ``P(team takes this trick)``: the levels above the best card so far are taken strongest
  first; at each level the first seat still to play that holds a card of it (a known hand
  exactly, an unknown one with the hypergeometric chance its hidden cards give) takes the
  trick, each seat playing its best.  The team takes it when that seat is the partner, or
  when nobody holds a stronger card and the best card is the team's.  Played last, it is
  exact.
* ``D(won, lost, rest)``: the chance of two tricks before the opponents' two, the rest of
  the hand winning its tricks independently, each card with the chance it would have as
  a lead.  With the partner's hand known (after a vega) the rest is the team's best cards,
  each against the opponents alone.  So a card that is not needed now is kept: the bot
  takes a trick with the cheapest card that beats it, plays its lowest card when the
  partner holds the trick, and leads strong when the trick is needed.
* Near-ties (within :data:`TIE`) go to the card most likely to take the trick when the
  trick decides something (one trick won or lost), otherwise to the weakest card.

Vega
----
Outcomes are weighed in *game equity* ``G(us, them)``: the chance of reaching
``points_to_win_game`` first when every deal is worth one point to either team with equal
chance (:func:`game_equity`).  ``E`` is the bot's chance of winning the deal (the best
``value`` on its turn).  The vega is worth ``V = points_to_win_game - max(scores)``.

* A vega is a bet, not a routine (rules §8).  Before the first trick is decided the bot
  considers a call only with a strong hand, ``E >= FIRST_CALL_FLOOR`` (0.85); once a trick
  is in, never with a deal as good as won, ``E > CALL_CEILING`` (0.85): the opponents,
  who see both their hands while they answer, would refuse it (ending the deal for the
  point it wins anyway) or accept it just when they know better.
* Call then, on its turn before playing, when the call is worth more than playing the
  deal for one point by :data:`CALL_MARGIN`.  The call is worth a refusal (+1 to the
  callers) with chance :data:`THEY_REFUSE`, else the deal played for ``V`` with ``E``
  lowered to ``E - CALL_DOUBT * (1 - E)`` (opponents accept with their better hands).  So
  it calls with a dominant hand, when behind and strong as well (a win brings it level or
  ahead), and hardly ever when a lost vega would hand the game to the opponents.  In
  self-play a vega is called in about two deals of three (it was 94%), before the first
  trick in about one deal of four (it was 57%).
* Answer: accept when playing for ``V`` with deal odds ``E ** p`` (the caller says it is
  strong; a sure deal stays sure) is worth at least giving the callers one point, which
  may be their game at ``points_to_win_game - 1`` (then it accepts anything).  The power
  ``p`` grows with the stake, from 1 for a vega worth one point to :data:`ANSWER_POWER`
  (5) for the whole game: a refusal costs one point while an accepted vega at 0-0 stakes
  the whole game, so there it accepts only from ``E = 0.85``.

Other actions
-------------
* Ranking (cutter, before seeing any card): ``keep`` by default; bot option ``ranking``
  names a preset to set instead (never a custom order).
* ``show_bottom``, ``peek`` and ``show`` (opt-in options) are taken whenever legal, first:
  information for the team never hurts.
* Messages: none by default.  With ``signals=True``, once a deal from trick 2, a truthful
  ``signal <card>`` naming its strongest card, and partners' card signals are read.

Asked for a seat with nothing to do it raises :class:`mazo.RulesError`, like the other
heuristics.  Pure Python over the observation, well under a millisecond a decision; the
seed only breaks exact ties between cards of one level.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

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
from mazo.core.cards import LATIN_52
from mazo.core.game import Game
from mazo.games.trionfetti import PRESETS, known_places

__all__ = ["TrionfettiHeuristic", "deal_odds", "game_equity"]

ALL_CARDS = card_codes(LATIN_52)
_INFO = ("show_bottom", "peek", "show")

# -- weights ------------------------------------------------------------------------------
# Set by self-play (heuristic against variants of itself, 2,000 one-game matches each,
# swapped sides); see the module docstring.
TIE = 0.01  # card values this close count as equal; the rules of thumb decide
# Calling: if the opponents accept, the deal odds are taken as E - CALL_DOUBT * (1 - E)
# (they accept with the better hands); they are expected to refuse with chance
# THEY_REFUSE; the call must gain CALL_MARGIN game equity over playing for one point.
# Never calling lost 43-47% against this; CALL_DOUBT 1.0 lost 44%; THEY_REFUSE 0.5 won
# 55-57% against 0.0 (0.3 and 0.7: 51-54%).
CALL_DOUBT = 0.5
THEY_REFUSE = 0.5
CALL_MARGIN = 0.01
# A vega is a bet, not a routine (rules §8): before the first trick is decided the bot
# calls only with a strong hand (E >= FIRST_CALL_FLOOR), and once a trick is in it does not
# call a deal it has as good as won (E > CALL_CEILING): opponents who see both their hands
# refuse such a call, so it would only end the deal for the point it wins anyway, and they
# accept it just when they know better.  Two-worker self-play against the bot without
# these rules (calling whenever the equity sum said so: in 94% of deals, 57% of them before
# the first trick, 89% of deals ended by a refused vega), one-game matches on the same
# deals: see docs/strength.md.
FIRST_CALL_FLOOR = 0.85
CALL_CEILING = 0.85
# Answering: the deal odds are taken as E ** ANSWER_POWER, since a caller is strong (a
# sure deal stays sure).  Against the unlowered E, ANSWER_POWER 3 won 57% and 5 won 58%
# (8 and 12 were level with 5); it also beats the random bot by more (91% against 84% of
# one-game matches), because a refusal costs one point while an accepted vega at 0-0
# stakes the whole game on one deal.
ANSWER_POWER = 5.0
# ... for the whole game's stake.  The doubt shrinks with the stake: a vega worth V is
# answered with the power 1 + (ANSWER_POWER - 1) * (V - 1) / (target - 1), so a vega worth
# one point (a team on 19) is weighed at face value, as playing the deal for one point is.


def strengths(ranking: Iterable[Mapping[str, str]]) -> dict[str, int]:
    """Per card code, the strength of its level (bigger wins) under a JSON ranking.

    >>> s = strengths([{"rank": "K", "suits": "E"}, {"rank": "K", "suits": "OCB"}])
    >>> s["KE"], s["KO"]
    (2, 1)
    """
    levels = list(ranking)
    out: dict[str, int] = {}
    for i, level in enumerate(levels):
        for suit in level["suits"]:
            out[level["rank"] + suit] = len(levels) - i
    return out


class _View(TrickView):
    """What the bot derives from one observation."""

    def __init__(self, obs: Mapping[str, Any], read_signals: bool) -> None:
        super().__init__(obs)
        self.partner = (self.seat + 2) % 4
        self.strength = strengths(obs["ranking"])
        self.hand: list[str] = sorted(obs["hand"], key=self.key)

        log: list[Mapping[str, Any]] = obs["smazzata_log"]
        deal_at = max((i for i, e in enumerate(log) if e["type"] == "deal"), default=len(log))
        played: set[str] = {card for _, card in self.trick}
        out: set[str] = set()  # known to be in nobody's hand
        shown: set[str] = set()  # the partner's hand of this deal, as shown
        vega_now = False
        for i, e in enumerate(log):
            kind = e["type"]
            if kind == "play":
                played.add(e["card"])
            elif kind == "vega" and i > deal_at:
                vega_now = True
            elif kind == "share" and e["seat"] != self.seat:
                # This deal's hand is shown only once a vega is called; anything shown
                # before (earlier deals, or their last cards shown late) is set aside.
                (shown if i > deal_at and vega_now else out).update(e["cards"])
        if obs.get("bottom_card"):
            out.add(obs["bottom_card"])
        out.update(obs.get("leftover") or ())
        if read_signals:
            for msg in obs.get("messages", ()):
                if msg.get("type") == "signal" and msg.get("seat") == self.partner:
                    claim = str(msg.get("claim", "")).upper()
                    if claim in self.strength:
                        shown.add(claim)
        mine = set(self.hand)
        partner = shown - played - out - mine
        if len(partner) > self.hand_sizes[self.partner]:
            partner = set()  # an inconsistent picture (shown cards mixed up): trust none
        self.partner_known = partner
        self.unseen = [c for c in ALL_CARDS if c not in played | out | mine | partner]
        self.hidden = [self.hand_sizes[s] for s in range(4)]
        self.hidden[self.seat] = 0
        self.hidden[self.partner] = max(0, self.hand_sizes[self.partner] - len(partner))
        self.partner_open = self.hidden[self.partner] == 0 and self.hand_sizes[self.partner] > 0
        by_level: dict[int, list[str]] = {}
        for c in self.unseen:
            by_level.setdefault(self.strength[c], []).append(c)
        self.unseen_at = {s: len(cs) for s, cs in by_level.items()}
        self.levels = sorted(set(self.strength.values()), reverse=True)
        self._known_at: dict[int, set[int]] = {
            self.seat: {self.strength[c] for c in self.hand},
            self.partner: {self.strength[c] for c in partner},
        }

    # -- card facts ------------------------------------------------------------------

    def key(self, card: str) -> tuple[int, str]:
        """Weakest first (then by code, for a stable order)."""
        return (self.strength[card], card)

    def best(self, plays: Sequence[tuple[int, str]]) -> tuple[int, str]:
        """The play that holds the trick: the strongest, the first among equals (§7)."""
        top = plays[0]
        for play in plays[1:]:
            if self.strength[play[1]] > self.strength[top[1]]:
                top = play
        return top

    def beats(self, card: str, best: str) -> bool:
        """Strictly stronger: an equal card played later loses."""
        return self.strength[card] > self.strength[best]

    takes = beats  # the trick on the table: the strength alone decides

    def best_so_far(self) -> tuple[int, str]:
        """The seat holding the trick on the table and its card."""
        return self.best(self.trick)

    def cheapest(self, card: str, cards: Sequence[str]) -> bool:
        """Whether ``card`` is of the weakest level among ``cards``."""
        return self.strength[card] == min(self.strength[c] for c in cards)

    def hold(self, seat: int, level: int) -> float:
        """The chance that ``seat`` holds a card of strength ``level``."""
        if level in self._known_at.get(seat, ()):
            return 1.0
        return _holds(len(self.unseen), self.hidden[seat], self.unseen_at.get(level, 0))

    # -- odds --------------------------------------------------------------------------

    def p_take(self, plays: Sequence[tuple[int, str]], after: Sequence[int]) -> float:
        """The chance that the team takes a trick with ``plays`` on it and ``after`` to
        play, each seat playing its best (the first holder of the strongest level wins)."""
        seat, card = self.best(plays)
        top = self.strength[card]
        result, none_above = 0.0, 1.0
        for level in self.levels:
            if level <= top:
                break
            free, ours = 1.0, 0.0
            for s in after:
                p = self.hold(s, level)
                if p <= 0.0:
                    continue
                if s % 2 == self.team:
                    ours += free * p
                free *= 1.0 - p
            result += none_above * ours
            none_above *= free
            if none_above <= 0.0:
                break
        mine = 1.0 if seat % 2 == self.team else 0.0
        return result + none_above * mine

    def q(self, owner: int, card: str, solo: bool = False) -> float:
        """The chance that the team takes a later trick that ``owner`` leads with ``card``;
        ``solo``: against the opponents only (the partner's cards counted apart)."""
        after = [(owner + i) % 4 for i in (1, 2, 3)]
        if solo:
            after = [s for s in after if s % 2 != self.team]
        return self.p_take([(owner, card)], after)

    def chances(self, mine: Sequence[str], partners: Sequence[str]) -> list[float]:
        """Per later trick, the chance the team takes it with these cards left."""
        if self.partner_open:
            qs = [self.q(self.seat, c, True) for c in mine]
            qs += [self.q(self.partner, c, True) for c in partners]
            return sorted(qs, reverse=True)[: len(mine)]
        return [self.q(self.seat, c) for c in mine]

    def trick_seats(self) -> list[int]:
        """The seats still to play to the current trick (the bot included)."""
        leader = self.trick[0][0] if self.trick else self.to_play
        return [(leader + i) % 4 for i in range(len(self.trick), 4)]

    def spend(self, seat: int, plays: Sequence[tuple[int, str]]) -> str | None:
        """The card a known hand puts on this trick: the cheapest that takes it from the
        opponents, else its lowest."""
        cards = self.hand if seat == self.seat else sorted(self.partner_known, key=self.key)
        if not cards:
            return None
        if not plays:
            return cards[-1]
        holder, best = self.best(plays)
        if holder % 2 != self.team:
            for c in cards:
                if self.beats(c, best):
                    return c
        return cards[0]

    def value(self, card: str) -> tuple[float, float]:
        """(deal odds if the bot plays ``card`` now, chance of taking this trick)."""
        plays = [*self.trick, (self.seat, card)]
        after = self.trick_seats()[1:]
        p = self.p_take(plays, after)
        mine = [c for c in self.hand if c != card]
        partners = sorted(self.partner_known, key=self.key)
        if self.partner in after and self.partner_open:
            spent = self.spend(self.partner, plays)
            partners = [c for c in partners if c != spent]
        return trick_value(p, self.won, self.lost, self.chances(mine, partners)), p

    def estimate(self) -> float:
        """``E``: the chance that the bot's team wins the deal in progress."""
        if not self.hand:
            return deal_odds(self.won, self.lost, [])
        seats = self.trick_seats()
        if seats and seats[0] == self.seat:
            return max(self.value(c)[0] for c in self.hand)
        mine = list(self.hand)
        partners = sorted(self.partner_known, key=self.key)
        if not self.trick:  # an opponent leads: a trick like the later ones
            return deal_odds(self.won, self.lost, self.chances(mine, partners))
        p = self.p_take(self.trick, seats)
        for s in seats:
            if s == self.seat or (s == self.partner and self.partner_open):
                spent = self.spend(s, self.trick)
                if s == self.seat:
                    mine = [c for c in mine if c != spent]
                else:
                    partners = [c for c in partners if c != spent]
        return trick_value(p, self.won, self.lost, self.chances(mine, partners))

    def choose_card(self, cards: Sequence[str]) -> list[str]:
        """The best cards to play now (more than one only within one level)."""
        scored = {c: self.value(c) for c in cards}
        _, near = near_best(scored, cards, TIE, decisive=self.won == 1 or self.lost == 1)
        low = min(self.strength[c] for c in near)
        return [c for c in near if self.strength[c] == low]


class TrionfettiHeuristic(PartnershipHeuristic[_View]):
    """Hand-written Trionfetti play and vega; see the module docstring for its rules."""

    OPTIONS: ClassVar[Mapping[str, tuple[Any, ...]]] = {
        "signals": (False, True),
        "ranking": ("keep", *PRESETS),
    }
    NOTHING_TO_DO = (
        "no card to play, no vega to answer, and the heuristic neither shows, signals nor "
        "talks here"
    )

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        super().__init__(game, seed, **options)
        self.ranking: str = self.options["ranking"]
        # The weights, per bot so that self-play can vary them.
        self.call_doubt, self.they_refuse, self.call_margin = CALL_DOUBT, THEY_REFUSE, CALL_MARGIN
        self.answer_power = ANSWER_POWER
        self.first_floor, self.call_ceiling = FIRST_CALL_FLOOR, CALL_CEILING
        self.answer_by_stake = True

    def view(self, observation: Mapping[str, Any]) -> _View:
        return _View(observation, self.signals)

    def _decide(self, obs: Mapping[str, Any], allowed: Mapping[str, int]) -> str | None:
        for word in _INFO:
            if word in allowed:
                return word
        if obs["phase"] == "ranking":
            if "keep" not in allowed:
                return None
            want = "rank " + self.ranking
            if self.ranking == "keep" or obs.get("ranking_name") == self.ranking:
                return "keep"
            return want if want in allowed else "keep"
        if "accept" in allowed and obs.get("team_must_answer", True):
            return self._answer(obs)
        view = self.view(obs)
        if self.signals:
            sign = self._sign(view, obs, allowed)
            if sign is not None:
                return sign
        cards = [c for c in view.hand if c in allowed]
        if not cards:
            return None
        if "vega" in allowed and self._call(view, obs):
            return "vega"
        return self._play(view, cards)

    # -- points ----------------------------------------------------------------------

    @staticmethod
    def _equity(obs: Mapping[str, Any], us: int, them: int) -> float:
        target: int = obs["points_to_win_game"]
        g = game_equity(target)
        return g[min(us, target)][min(them, target)]

    def _call(self, view: _View, obs: Mapping[str, Any]) -> bool:
        """Call the vega now?"""
        scores: list[int] = list(obs["scores"])
        us, them = scores[view.team], scores[1 - view.team]
        value = int(obs["points_to_win_game"]) - max(scores)
        e = view.estimate()
        # a bet, not a routine: a strong hand before the first trick is decided, and never
        # a deal already as good as won
        first_trick = view.won + view.lost == 0
        if (first_trick and e < self.first_floor) or (not first_trick and e > self.call_ceiling):
            return False
        play = e * self._equity(obs, us + 1, them) + (1.0 - e) * self._equity(obs, us, them + 1)
        ea = max(0.0, e - self.call_doubt * (1.0 - e))
        accepted = ea * self._equity(obs, us + value, them) + (1.0 - ea) * self._equity(
            obs, us, them + value
        )
        refused = self._equity(obs, us + 1, them)
        r = self.they_refuse
        return r * refused + (1.0 - r) * accepted > play + self.call_margin

    def _answer(self, obs: Mapping[str, Any]) -> str:
        """Accept the pending vega, or give the callers one point."""
        view = self.view(obs)
        scores: list[int] = list(obs["scores"])
        us, them = scores[view.team], scores[1 - view.team]
        value: int = obs["vega"]["pending"]["value"]
        e = view.estimate()
        power = self.answer_power
        if self.answer_by_stake:  # the caller's confidence counts as much as the stake
            target = int(obs["points_to_win_game"])
            power = 1.0 + (power - 1.0) * (value - 1) / max(1, target - 1)
        e = e**power
        accept = e * self._equity(obs, us + value, them) + (1.0 - e) * self._equity(
            obs, us, them + value
        )
        refuse = self._equity(obs, us, them + 1)
        return "accept" if accept >= refuse else "refuse"

    # -- signals ---------------------------------------------------------------------

    def _sign(self, view: _View, obs: Mapping[str, Any], allowed: Mapping[str, int]) -> str | None:
        """Once a deal from trick 2, on its turn: its strongest card, truthfully."""
        if view.won + view.lost == 0 or obs.get("to_act") != view.seat or not view.hand:
            return None
        if self._signed(obs, view.seat):
            return None
        name = "signal " + view.hand[-1]
        return name if name in allowed else None

    def explain(self, observation: Observation, action: int | str) -> tuple[str, dict[str, Any]]:
        """One line of why ``action`` (this bot's choice here): an i18n key
        ``hint.trionfetti.<why>`` and its params (cards as codes, ``pct`` the bot's
        chance of winning the deal, ``E``, on which the vega and its answers are weighed)."""
        text = self._text(action)
        if text in _INFO:
            return "hint.trionfetti.info", {"action": text}
        if text == "keep":
            return "hint.trionfetti.keep", {}
        if text.startswith("rank "):
            return "hint.trionfetti.rank", {"ranking": text[5:]}
        if text.startswith("signal"):
            return "hint.trionfetti.signal", {}
        view = self.view(observation)
        if text in ("vega", "accept", "refuse"):
            pct = round(100 * min(1.0, max(0.0, view.estimate())))
            return f"hint.trionfetti.{text}", {"pct": pct}
        cards = [c for c in view.hand if c in observation["legal_actions"]]
        return self._explain_card(view, text, cards)

    def _explain_lead(self, view: _View, text: str, cards: list[str]) -> tuple[str, dict[str, Any]]:
        if view.strength[text] == max(view.strength[c] for c in cards):
            return "hint.trionfetti.lead_strong", {"card": text}
        if view.strength[text] == min(view.strength[c] for c in cards):
            return "hint.trionfetti.lead_low", {"card": text}
        return "hint.trionfetti.lead", {"card": text}

    def __repr__(self) -> str:
        return (
            f"TrionfettiHeuristic({self.game!r}, signals={self.signals}, ranking={self.ranking!r})"
        )


# -- hooks read through the registry (mazo.bots.heuristic) ----------------------------

Heuristic = TrionfettiHeuristic


# The search levels' settings (mazo.bots.levels), on top of the flat heuristic search.
# Trionfetti's vega, its answers and the rank order are the heuristic's, and a vega deal
# counts by its stake.  Hard against normal, one-game matches, same deals: 23/60 as
# before, 34/60 with both (seed 17); 8/20 and 12/20 with seed 16.
SEARCH_PRESET: dict[str, Any] = {"reward": "points", "bets": "heuristic"}


# The solver's test (mazo.bots.solver.perfect_information), mirroring determinize.
def perfect_information(game: Game, obs: Observation) -> bool:
    """Known: the bottom card and the leftover when shown, the cards played this
    smazzata, the seat's hand and what the partner showed of the current hand.  The pool
    fills the other hands, then every pack position still open (ordered).

    The known places are ``determinize``'s own (:func:`mazo.games.trionfetti.known_places`).
    """
    deck = game.info.deck
    ranking = obs["phase"] == "ranking"
    used = 0
    if obs["bottom_card"] is not None:
        used |= 1 << deck.parse(obs["bottom_card"])
    if obs["leftover"] is not None:
        used |= card_mask(deck, obs["leftover"])
    hands, played, aside = known_places(obs)
    known = used | aside
    for s in range(4):
        known |= hands[s] | played[s]
    pool = (deck.full_mask & ~known).bit_count()
    sizes = obs["hand_sizes"]
    needs = [0] * 4 if ranking else [sizes[s] - hands[s].bit_count() for s in range(4)]
    return one_placement(needs, pool, ordered_rest=True)
