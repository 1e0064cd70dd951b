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

from collections.abc import Iterable, Mapping
from typing import Any

from mazo.bots.base import Observation, legal_ids
from mazo.bots.heuristic._base import SigningHeuristic
from mazo.bots.odds import card_mask, one_placement
from mazo.bots.odds import holds as _p_holds
from mazo.core.cards import LATIN_40
from mazo.core.errors import RulesError
from mazo.core.game import Game, State
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


class _View:
    """What the bot derives from one observation."""

    def __init__(self, game: Game, obs: Mapping[str, Any]) -> None:
        parse = DECK.parse
        self.seat: int = obs["seat"]
        self.side_of: tuple[int, ...] = game.info.side_of
        self.my_side = self.side_of[self.seat]
        self.trump = SUIT[parse(obs["trump"])]
        self.indicator = parse(obs["trump"])
        self.hand = [parse(c) for c in obs["hand"]]
        self.stock: int = obs["stock_size"]
        self.active: list[int] = list(obs["seats"])
        self.k = len(self.active)
        self.hand_sizes: list[int] = list(obs["hand_sizes"])
        self.trick = [parse(t["card"]) for t in obs["trick"]]
        self.trick_seats: list[int] = [t["seat"] for t in obs["trick"]]
        leader: int = obs["leader"]
        start = self.active.index(leader)
        order = [self.active[(start + i) % self.k] for i in range(self.k)]
        self.after: list[int] = order[len(self.trick) + 1 :]  # seats still to play after me
        seen = 0
        for c in obs.get("removed", []):
            seen |= 1 << parse(c)
        for t in obs["tricks"]:
            for c in t["cards"]:
                seen |= 1 << parse(c)
        for c in self.trick:
            seen |= 1 << c
        for c in self.hand:
            seen |= 1 << c
        self.known: dict[int, list[int]] = {}
        for s, cards in obs.get("known_cards", {}).items():
            ids = [parse(c) for c in cards]
            self.known[int(s)] = ids
            for c in ids:
                seen |= 1 << c
        if self.stock > 0:
            seen |= 1 << self.indicator  # face up under the stock
        self.unseen = [c for c in range(NUM_CARDS) if not seen >> c & 1]
        # Seats whose whole hand is unseen cards drawn from this pool.
        self.hidden = {
            s: self.hand_sizes[s] - len(self.known.get(s, []))
            for s in self.active
            if s != self.seat
        }
        self.signals: list[Mapping[str, Any]] = list(obs.get("signals", []))
        self.trick_no = len(obs["tricks"]) + 1

    def read_signals(self) -> None:
        """Take partners' truthful trump signals as known cards in their hands."""
        for sig in self.signals:
            seat, meaning = sig.get("seat"), sig.get("meaning")
            rank = _SIGNAL_RANKS.get(str(meaning))
            if seat == self.seat or not isinstance(seat, int) or rank is None:
                continue
            if not self.partner(seat) or seat not in self.hidden:
                continue
            card = DECK.card(rank, "OCEB"[self.trump])
            if card in self.unseen and self.hidden[seat] > 0:
                self.unseen.remove(card)
                self.known.setdefault(seat, []).append(card)
                self.hidden[seat] -= 1

    def partner(self, seat: int) -> bool:
        return bool(self.side_of[seat] == self.my_side)

    def p_beats(self, seat: int, best: int, at_stake: int) -> float:
        """The chance that ``seat`` takes the trick from ``best`` when ``at_stake`` points lie."""
        trump = self.trump
        known = self.known.get(seat, [])
        if any(SUIT[c] == SUIT[best] and STRENGTH[c] > STRENGTH[best] for c in known):
            p_suit = 1.0
        else:
            good = sum(
                1 for c in self.unseen if SUIT[c] == SUIT[best] and STRENGTH[c] > STRENGTH[best]
            )
            p_suit = _p_holds(len(self.unseen), self.hidden.get(seat, 0), good)
        p_trump = 0.0
        if SUIT[best] != trump:
            if any(SUIT[c] == trump for c in known):
                p_trump = 1.0
            else:
                good = sum(1 for c in self.unseen if SUIT[c] == trump)
                p_trump = _p_holds(len(self.unseen), self.hidden.get(seat, 0), good)
            # A trump is spent on a trick only when it carries points.
            p_trump *= min(1.0, 0.25 + at_stake / 10.0)
        # Overtaking in suit is cheap, but not worth it on a pointless trick.
        p_suit *= 1.0 if at_stake > 0 else 0.6
        return 1.0 - (1.0 - p_suit) * (1.0 - p_trump)

    def p_take(self, card: int) -> float:
        """The chance that my side takes this trick if I play ``card`` now."""
        cards = [*self.trick, card]
        seats = [*self.trick_seats, self.seat]
        w = trick_winner(cards, self.trump)
        best = cards[w]
        mine = 1.0 if self.partner(seats[w]) else 0.0
        at_stake = sum(POINTS[c] for c in cards)
        for seat in self.after:
            p = self.p_beats(seat, best, at_stake)
            if self.partner(seat):
                mine += (1.0 - mine) * p * PARTNER_RESCUE
            else:
                mine *= 1.0 - p
        return mine

    def keep(self, card: int) -> float:
        """What holding ``card`` for later tricks is worth, in points."""
        fade = 1.0 if self.stock > 0 else min(1.0, (len(self.hand) - 1) / 2.0)
        if SUIT[card] == self.trump:
            power = fade * (TRUMP_BASE + TRUMP_PER_STRENGTH * STRENGTH[card])
            if POINTS[card] and BANK_WEIGHT:
                # A trump that nothing unseen can beat banks its points whenever it is
                # played, so playing it now gains nothing from them.
                higher = any(
                    SUIT[c] == self.trump and STRENGTH[c] > STRENGTH[card] for c in self.unseen
                )
                power += POINTS[card] * (BANK_WEIGHT if not higher else BANK_WEIGHT_UNSURE)
            return power
        weight = PLAIN_PER_STRENGTH_HEADS_UP if self.k == 2 else PLAIN_PER_STRENGTH
        return fade * weight * STRENGTH[card]

    def score(self, card: int) -> float:
        table = sum(POINTS[c] for c in self.trick)
        return (2.0 * self.p_take(card) - 1.0) * (table + POINTS[card]) - self.keep(card)


# -- exact two-player endgame -----------------------------------------------------------


def _solve(
    me: int,
    opp: int,
    trick: tuple[int, ...],
    my_turn: bool,
    stock: tuple[int, ...],
    trump: int,
    memo: dict[tuple[Any, ...], int],
) -> int:
    """Best (my points - opponent's points) over the rest of a two-player deal.

    ``me``/``opp`` are hand masks, ``trick`` the cards on the table (0 or 1), ``stock``
    the cards still to draw in order (the winner of a trick draws first).
    """
    key = (me, opp, trick, my_turn, stock)
    got = memo.get(key)
    if got is not None:
        return got
    hand = me if my_turn else opp
    if not hand:
        return 0
    best: int | None = None
    for c in _bits(hand):
        if my_turn:
            nme, nopp = me & ~(1 << c), opp
        else:
            nme, nopp = me, opp & ~(1 << c)
        if not trick:
            value = _solve(nme, nopp, (c,), not my_turn, stock, trump, memo)
        else:
            lead = trick[0]
            second_wins = beats(c, lead, trump)
            # The leader is whoever did not just play.
            i_win = second_wins if my_turn else not second_wins
            pts = POINTS[lead] + POINTS[c]
            if stock:
                first, second = stock[0], stock[1]
                if i_win:
                    nme, nopp = nme | 1 << first, nopp | 1 << second
                else:
                    nme, nopp = nme | 1 << second, nopp | 1 << first
            rest = _solve(nme, nopp, (), i_win, stock[2:], trump, memo)
            value = rest + (pts if i_win else -pts)
        if best is None or (value > best if my_turn else value < best):
            best = value
    assert best is not None
    memo[key] = best
    return best


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


_MEMOS: dict[int, dict[tuple[Any, ...], int]] = {}
_MEMO_CAP = 200_000


def _memo(trump: int) -> dict[tuple[Any, ...], int]:
    """Solved endgame positions for one trump suit, shared by every call: a position's
    value depends only on the two hands, the trick, whose turn and the stock, so the
    moves after a solved one (a search's playouts solve thousands) are looked up."""
    memo = _MEMOS.get(trump)
    if memo is None or len(memo) > _MEMO_CAP:
        memo = _MEMOS[trump] = {}
    return memo


def endgame_values(view: _View) -> dict[int, float] | None:
    """Exact values of my cards in a two-player deal near its end, else None."""
    if view.k != 2 or view.stock not in (0, 2):
        return None
    opp_seat = next(s for s in view.active if s != view.seat)
    known = view.known.get(opp_seat, [])
    need = view.hidden[opp_seat]
    unseen = view.unseen
    if view.stock == 0:
        if len(unseen) != need:
            return None
        worlds: list[tuple[int, tuple[int, ...]]] = [(_mask([*known, *unseen]), ())]
    else:
        if len(unseen) != need + 1:
            return None
        worlds = [
            (_mask([*known, *(u for u in unseen if u != hidden)]), (hidden, view.indicator))
            for hidden in unseen
        ]
    me = _mask(view.hand)
    trick = tuple(view.trick)
    values: dict[int, float] = {}
    memo = _memo(view.trump)
    for card in view.hand:
        total = 0
        for opp, stock in worlds:
            nme = me & ~(1 << card)
            if not trick:
                total += _solve(nme, opp, (card,), False, stock, view.trump, memo)
            else:
                lead = trick[0]
                i_win = beats(card, lead, view.trump)
                pts = POINTS[lead] + POINTS[card]
                nopp = opp
                if stock:
                    if i_win:
                        nme, nopp = nme | 1 << stock[0], nopp | 1 << stock[1]
                    else:
                        nme, nopp = nme | 1 << stock[1], nopp | 1 << stock[0]
                rest = _solve(nme, nopp, (), i_win, stock[2:], view.trump, memo)
                total += rest + (pts if i_win else -pts)
        values[card] = total / len(worlds)
    return values


# -- the bot ------------------------------------------------------------------------------

_SIGNAL_RANKS = {
    "trump_ace": "1",
    "trump_three": "3",
    "trump_king": "K",
    "trump_cavallo": "Q",
    "trump_fante": "J",
}
_LOW_RANKS = ("2", "4", "5", "6", "7")


def _true_signals(hand: list[int], trump: int) -> list[str]:
    """What this hand may truthfully signal, the most telling first."""
    trumps = {DECK.rank(c) for c in hand if SUIT[c] == trump}
    out = [f"signal {m}" for m, r in _SIGNAL_RANKS.items() if r in trumps]
    if any(SUIT[c] != trump and DECK.rank(c) in ("1", "3") for c in hand):
        out.append("signal carico")
    if trumps & set(_LOW_RANKS):
        out.append("signal low_trump")
    if not trumps:
        out.append("signal no_trump")
    return out


class BriscolaHeuristic(SigningHeuristic):
    """Hand-written Briscola play; see the module docstring for the rules it follows."""

    def choose(self, observation: Observation) -> int:
        """The action to take, from what this seat may know."""
        legal = legal_ids(self.game, observation)
        strings: list[str] = list(observation["legal_actions"])
        if "exchange" in strings:
            return legal[strings.index("exchange")]
        cards = [a for a in legal if a < NUM_CARDS]
        if not cards:
            calls = [a for a, t in zip(legal, strings, strict=True) if not t.startswith("signal")]
            if calls:
                return calls[0]  # only calls are legal (e.g. "decline"): nothing to weigh
        view = _View(self.game, observation)
        if self.signals:
            signal = self._signal(view, strings)
            if signal is not None:
                return legal[strings.index(signal)]
            if self.game.options.get("signals_truthful", True):
                view.read_signals()
        if not cards:
            raise RulesError(
                f"seat {observation.get('seat')!r} may only signal now (to_act is "
                f"{observation.get('to_act')!r}) and the heuristic has no signal to make"
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

    def _signal(self, view: _View, strings: list[str]) -> str | None:
        """One true signal per trick about my trumps, the most telling one."""
        for s in view.signals:
            if s.get("seat") == view.seat and s.get("trick") == view.trick_no:
                return None
        for name in _true_signals(view.hand, view.trump):
            if name in strings:
                return name
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
        view = _View(self.game, observation)
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
