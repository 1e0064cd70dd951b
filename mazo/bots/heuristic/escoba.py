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

Only the observation is read: the hand, the table, ``captured`` (public), the hand sizes,
the stock size and the seat order.  No search, no determinization: about 0.05 ms a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from mazo.bots.base import Observation, check_bot_options, legal_ids
from mazo.bots.odds import card_codes, card_mask, one_placement
from mazo.core.cards import LATIN_40
from mazo.core.game import Game
from mazo.core.rng import Rng

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
    """Whether a majority is still undecided: no side is already out of everyone's reach."""
    for s, mine in enumerate(counts):
        if all(mine > other + left for t, other in enumerate(counts) if t != s):
            return False
    return True


class _Position:
    """What the bot reads from one observation, with the card worths it implies."""

    def __init__(self, game: Game, obs: Observation) -> None:
        n = game.players
        self.n = n
        self.seat: int = obs["seat"]
        self.side_of = tuple(game.info.side_of)
        self.side = self.side_of[self.seat]
        self.hand: list[str] = list(obs["hand"])
        self.table: list[str] = list(obs["table"])
        captured: list[list[str]] = [list(p) for p in obs["captured"]]
        self.hand_sizes: list[int] = list(obs["hand_sizes"])
        self.stock: int = obs["stock_size"]
        self.last_capturer: int | None = obs.get("last_capturer")
        seen = set(self.hand) | set(self.table)
        for pile in captured:
            seen |= set(pile)
        unseen = [c for c in ALL_CARDS if c not in seen]
        self.unseen = len(unseen)
        self.unseen_by_value = [0] * 11
        worth_sum = [0.0] * 11
        self.worth = self._worths(game, captured)
        for c in unseen:
            v = card_value(c)
            self.unseen_by_value[v] += 1
            worth_sum[v] += self.worth[c]
        # The average worth of an unseen card of each value (the replying card itself).
        self.unseen_worth = [
            worth_sum[v] / self.unseen_by_value[v] if self.unseen_by_value[v] else 0.0
            for v in range(11)
        ]

    @staticmethod
    def _worths(game: Game, captured: list[list[str]]) -> dict[str, float]:
        """What capturing each card is worth now, in points (open categories only)."""
        options = game.options
        in_piles = sum(len(p) for p in captured)
        cards_open = _open([len(p) for p in captured], 40 - in_piles)
        oros = [sum(1 for c in p if c[-1] == "O") for p in captured]
        oros_open = _open(oros, 10 - sum(oros))
        sevens = [sum(1 for c in p if c[0] == "7") for p in captured]
        method = options.get("prime_method", "seed_counts")
        # Counting methods are sealed once a side has more sevens than anyone can reach;
        # the best-per-suit methods stay open (a cheap approximation).
        counting = method in ("seed_counts", "sevens_only")
        prime_open = _open(sevens, 4 - sum(sevens)) if counting else True
        worth: dict[str, float] = {}
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
            worth[c] = w
        return worth

    # -- the reply ----------------------------------------------------------------------

    def p_none(self, values: Sequence[int], size: int) -> float:
        """Chance that a hand of ``size`` unseen cards holds no card of these values."""
        u = self.unseen
        if size <= 0 or u <= 0:
            return 1.0
        k = sum(self.unseen_by_value[v] for v in values)
        size = min(size, u)
        if u - k < size:
            return 0.0
        return comb(u - k, size) / comb(u, size)

    def best_by_value(self, table: Sequence[str]) -> list[float]:
        """For each value 1..10, the most a card of that value takes from ``table``."""
        best = [0.0] * 11
        values = [card_value(c) for c in table]
        worths = [self.worth[c] for c in table]
        k = len(table)
        found = [False] * 11

        def grow(start: int, s: int, w: float, size: int) -> None:
            for i in range(start, k):
                t = s + values[i]
                if t > 14:
                    continue
                got = w + worths[i]
                v = 15 - t
                if v <= 10:
                    gain = got + (ESCOBA if size + 1 == k else 0.0)
                    if not found[v] or gain > best[v]:
                        best[v] = gain
                        found[v] = True
                grow(i + 1, t, got, size + 1)

        grow(0, 0, 0.0, 0)
        for v in range(1, 11):
            if found[v]:
                best[v] += self.unseen_worth[v]
        return best

    def expected_reply(self, table: Sequence[str], size: int) -> float:
        """The expected value of the best capture a random ``size``-card hand makes."""
        if not table or size <= 0:
            return 0.0
        best = self.best_by_value(table)
        order = sorted((v for v in range(1, 11) if best[v] > 0.0), key=lambda v: -best[v])
        total = 0.0
        none_before = 1.0
        taken: list[int] = []
        for v in order:
            taken.append(v)
            none_now = self.p_none(taken, size)
            total += best[v] * (none_before - none_now)
            none_before = none_now
        return total


class EscobaHeuristic:
    """Scores each legal action (see the module docstring) and plays the best."""

    name = "heuristic"

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        check_bot_options(self.name, options, {})
        if game.name != "escoba":
            raise ValueError(f"EscobaHeuristic plays escoba, not {game.name}")
        self.game = game
        self.rng = Rng(seed)

    def choose(self, observation: Observation) -> int:
        """The action id with the best score; ties broken by the bot's Rng."""
        legal = legal_ids(self.game, observation)
        if len(legal) == 1:
            return legal[0]
        pos = _Position(self.game, observation)
        scores = [self.score(pos, text) for text in observation["legal_actions"]]
        top = max(scores)
        best = [a for a, s in zip(legal, scores, strict=True) if s >= top - 1e-9]
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def scores(self, observation: Observation) -> dict[str, float]:
        """Every legal action's score (for tests and for explaining a choice)."""
        pos = _Position(self.game, observation)
        return {text: self.score(pos, text) for text in observation["legal_actions"]}

    def score(self, pos: _Position, action: str) -> float:
        """One action's score in points (see the module docstring)."""
        card, *taken = action.split("+")
        taken_set = set(taken)
        left = [c for c in pos.table if c not in taken_set]
        value = -KEEP_SHARE * pos.worth[card]
        if taken:
            value += pos.worth[card] + sum(pos.worth[c] for c in taken)
            if not left:
                value += ESCOBA
        else:
            left.append(card)
        # Who plays next, with how many cards, or whether the hand ends with this play.
        sizes = list(pos.hand_sizes)
        sizes[pos.seat] -= 1
        if not any(sizes):
            if pos.stock == 0:
                return value + self._final_sweep(pos, left, bool(taken))
            reply_size = 3  # a redeal: the next seat gets three unseen cards
        else:
            reply_size = sizes[(pos.seat + 1) % pos.n]
        nxt = (pos.seat + 1) % pos.n
        reply = pos.expected_reply(left, reply_size)
        if pos.side_of[nxt] == pos.side:
            return value + PARTNER_REPLY * reply
        return value - reply

    @staticmethod
    def _final_sweep(pos: _Position, left: Sequence[str], captured: bool) -> float:
        """On the hand's last card the last capturer's side takes what is left."""
        if captured:
            taker: int | None = pos.side
        elif pos.last_capturer is not None:
            taker = pos.side_of[pos.last_capturer]
        else:
            taker = None
        worth = sum(pos.worth[c] for c in left)
        if taker is None:
            return 0.0
        return worth if taker == pos.side else -worth

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


# -- hooks read through the registry (mazo.bots.heuristic) ----------------------------

Heuristic = EscobaHeuristic


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
