"""Escoba's encoder (the conventions every encoder shares are in
:mod:`mazo.env.encoding`)."""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from mazo.env.encoding import Encoder, Observation, SeatTable
from mazo.games.escoba import VALUE

__all__ = ["ACTION_CONTEXT", "ENCODER", "MAX_LENGTH", "EscobaEncoder", "TableLeft"]

# Player moves in a whole match, far above what play reaches (the longest of 150 random
# matches: Briscola 280, Escoba 540 with 3 players, Envite 320 with 12, Trionfetti 190).
MAX_LENGTH = 3000


class EscobaEncoder(Encoder):
    """Escoba: the table, the captured piles (taken openly, so public), hand and scores."""

    game_name = "escoba"
    PHASES = ("play", "over")

    def _layout(self) -> None:
        d = self.deck_size
        self._rounds = max(1, (d - 4) // (3 * self.players))
        self._hand, self._table = self._card_blocks("hand", "table")
        offset = self._add("captured: relative side x card", self.sides * d)
        self._captured: SeatTable = tuple(
            tuple(offset + r * d for r in rel) for rel in self._side_rel
        )
        self._counts, self._escobas = self._side_blocks(
            "captured count / 40, by relative side", "escobas this hand / 10, by relative side"
        )
        self._last = self._seats("last capturer")
        self._stock = self._add("stock size / 40", 1)
        self._sizes = self._seats("hand sizes / 3")
        self._scores = self._sides("scores / target, by relative side")
        self._dealer, self._to_act = self._seat_blocks("dealer", "to act")
        self._round = self._add("round / rounds per hand", 1)
        self._phase = self._one_hot("phase", self.PHASES)

    def _fill(
        self, obs: Observation, me: int, v: array[float], memo: dict[str, Any] | None = None
    ) -> None:
        card = self._card
        d = self.deck_size
        self._put_cards(v, self._hand, obs["hand"])
        self._put_cards(v, self._table, obs["table"])
        for base, a, pile in zip(
            self._captured[me], self._counts[me], obs["captured"], strict=False
        ):
            for c in pile:
                v[base + card[c]] = 1.0
            v[a] = len(pile) / d
        self._put_ratios(v, self._escobas[me], obs["escobas"], 10)
        last = obs["last_capturer"]
        if last is not None:
            v[self._last[me][last]] = 1.0
        v[self._stock] = obs["stock_size"] / d
        self._put_ratios(v, self._scores[me], obs["scores"], obs["target"])
        v[self._dealer[me][obs["dealer"]]] = 1.0
        self._put_turn(obs, me, v)
        rnd = obs["round"]
        v[self._round] = rnd / self._rounds if rnd < self._rounds else 1.0
        v[self._phase[obs["phase"]]] = 1.0


ENCODER = EscobaEncoder


class TableLeft:
    """An action's *context* feature for a net's policy head (``ACTION_CONTEXT``, read by
    :class:`mazo.nets.actions.ActionFeatures` with ``context``): what the table the action
    leaves behind offers the next player.  One of 12:

    * 0: the table is left empty (the action is an escoba): the next player can only lay;
    * 1..10: one card of that value takes the whole table (it sums to 15 minus the value,
      5..14): an escoba for whoever holds one;
    * 11: no single card sweeps it (it sums to under 5, or 15 and more).

    Why: ``normal`` lays the card that leaves the next player the least expected best
    reply, and a fifth of the time the shipped net, whose action features name only the
    cards an action plays and takes, lays another card than ``normal`` when nothing can
    be taken (``bench/escoba_disagreements.py``, docs/nets.md).  Those sums to 15 are
    what a one-hot of the table does not spell out; the net's body reads the rest (which
    values are still unseen) from the observation.

    ``card_ids`` maps the game's card codes (its ``deck_style``'s labels) to card ids;
    an action is given as its card ids, the played card first, then those it takes.

    >>> from mazo.core.cards import LATIN_40 as deck
    >>> left = TableLeft({deck.format(c): c for c in range(40)})
    >>> obs = {"table": ["5O", "3C"]}
    >>> left.index(obs, (deck.parse("7O"),))  # lay 7O: 5 + 3 + 7 = 15, no one card
    11
    >>> left.index(obs, (deck.parse("1O"),))  # lay 1O: 9 left, a 6 sweeps it
    6
    >>> left.index(obs, (deck.parse("7E"), deck.parse("5O"), deck.parse("3C")))  # escoba
    0
    """

    size = 12
    names = (
        "table left empty",
        *(f"a {v} sweeps the table left" for v in range(1, 11)),
        "no one card sweeps the table left",
    )

    def __init__(self, card_ids: dict[str, int]) -> None:
        self._ids = card_ids

    def index(self, observation: Observation, cards: tuple[int, ...]) -> int:
        """The feature (0..11) of the action ``cards`` (the played card's id, then the ids
        it takes; a lay has only the first) on ``observation``'s table."""
        return self.indices(observation, [cards])[0]

    def indices(self, observation: Observation, actions: Sequence[tuple[int, ...]]) -> list[int]:
        """:meth:`index` of each of ``actions``, the table read once."""
        ids = self._ids
        table = [ids[c] for c in observation["table"]]
        total = sum(VALUE[c] for c in table)
        out: list[int] = []
        for cards in actions:
            if len(cards) > 1:  # a capture: what it takes leaves the table
                if len(cards) - 1 == len(table):
                    out.append(0)
                    continue
                left = total - sum(VALUE[c] for c in cards[1:])
            else:  # a lay: the card joins the table
                left = total + VALUE[cards[0]]
            out.append(15 - left if 5 <= left <= 14 else 11)
        return out


ACTION_CONTEXT = TableLeft
"""The game's action-context feature (see :class:`TableLeft`)."""
