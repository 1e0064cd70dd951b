"""Briscola's encoder (the conventions every encoder shares are in
:mod:`mazo.env.encoding`)."""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mazo.env.encoding import F32, SUITS, Encoder, Observation, SeatTable, Vector

__all__ = ["ENCODER", "MAX_LENGTH", "BriscolaEncoder"]

# Player moves in a whole match, far above what play reaches (the longest of 150 random
# matches: Briscola 280, Escoba 540 with 3 players, Envite 320 with 12, Trionfetti 190).
MAX_LENGTH = 1000


_THIRDS = (0.0, 1 / 3, 2 / 3, 1.0)  # a hand size over 3, without dividing


class BriscolaEncoder(Encoder):
    """Briscola: the trick, the trump, the cards seen this deal, what is known of hands."""

    game_name = "briscola"
    PHASES = ("play", "exchange", "over")

    def _layout(self) -> None:
        from mazo.games.briscola import SIGNAL_MEANINGS

        self._hand = self._cards("hand")
        self._trick = self._seat_cards("trick: card by relative seat")
        self._leader = self._seats("trick leader")
        # With three or more players, who played each card, not only which: a partner's or
        # an opponent's past plays are what a reader of the hidden hands learns from
        # (issue 18).  Two players keep one row for both seats (every row maps to it):
        # there the split read little (a cards head's truth-to-sample ratio 1.75 -> 1.80),
        # and a shipped net and the search rows measured with it read this layout.
        if self.players == 2:
            at = self._add("played this deal (completed tricks)", self.deck_size)
            self._played: SeatTable = ((at, at), (at, at))
        else:
            self._played = self._seat_cards("played this deal (completed tricks), by relative seat")
        self._played_at, self._played_len = self._blocks[-1][1:]
        # _orders[shifted][me][leader]: the offsets of a trick's cards in play order, in
        # the vector (shifted 0) or in the played block alone (1: the match memo's copy).
        n = self.players
        self._orders = tuple(
            tuple(
                tuple(
                    tuple(self._played[me][(lead + i) % n] - shift for i in range(n))
                    for lead in range(n)
                )
                for me in range(n)
            )
            for shift in (0, self._played_at)
        )
        self._trump = self._cards("trump card (face up)")
        self._suit = self._one_hot("trump suit", SUITS)
        options = self.game.options
        self._removed: dict[str, int] | None = None
        if self.players in (3, 6):
            self._removed = self._cards("removed from the pack")
        self._known = self._seat_cards("known cards of other seats, by relative seat", True)
        self._known_by_key = tuple({str(s): at for s, at in enumerate(row)} for row in self._known)
        self._holder = self._seats("indicator holder (drew the face-up card)")
        self._top: dict[str, int] | None = None
        if options.get("open_variant") == "scoperta":
            self._top = self._cards("stock top (scoperta)")
        self._stock = self._add("stock size / pack", 1)
        self._sizes = self._seats("hand sizes / 3")
        self._active: SeatTable | None = None
        if options.get("three_player_tie_mode") == "drop_out" and self.players == 3:
            self._active = self._seats("seats in play (after a drop-out)")
        self._points = self._sides("deal points / 120, by relative side")
        self._scores = self._sides("scores / target, by relative side")
        self._dealer = self._seats("dealer")
        self._to_act = self._seats("to act")
        self._phase = self._one_hot("phase", self.PHASES)
        self._exchange: dict[str, int] | None = None
        if options.get("trump_two_exchange"):
            self._exchange = self._one_hot("trump-2 exchange", ("made", "declined"))
        self._signals: SeatTable | None = None
        if self.talk and options.get("signals_enabled"):
            self._meaning = {m: i for i, m in enumerate(SIGNAL_MEANINGS)}
            width = len(SIGNAL_MEANINGS)
            offset = self._add("signals this deal: relative seat x meaning", self.players * width)
            self._signals = tuple(tuple(offset + r * width for r in rel) for rel in self._rel)

    def _mark_played(
        self,
        tricks: Sequence[Mapping[str, Any]],
        start: int,
        v: array[float],
        me: int,
        active: Sequence[int],
        shifted: int = 0,
    ) -> None:
        """Mark every card of ``tricks[start:]`` in its player's row (as ``me`` sees
        them) of ``v``: the vector, or with ``shifted`` 1 the played block alone;
        ``active`` the seats in play, in order."""
        ids = self._card
        k = len(active)
        orders = self._orders[shifted][me]
        # Unpacking a 2- or 4-card trick costs a third less than an inner loop.
        if k == 2 == self.players:  # one row for both seats: no leader to look up
            at = orders[0][0]
            for t in tricks[start:]:
                a, b = t["cards"]
                v[at + ids[a]] = v[at + ids[b]] = 1.0
        elif k == 4 == self.players:
            for t in tricks[start:]:
                o = orders[t["leader"]]
                a, b, c, d = t["cards"]
                v[o[0] + ids[a]] = v[o[1] + ids[b]] = v[o[2] + ids[c]] = v[o[3] + ids[d]] = 1.0
        elif k == self.players:
            for t in tricks[start:]:
                for at, c in zip(orders[t["leader"]], t["cards"], strict=True):
                    v[at + ids[c]] = 1.0
        else:  # three players after a drop-out: the trick skips the seat out
            rows = self._played[me]
            shift = self._played_at if shifted else 0
            place = {s: i for i, s in enumerate(active)}
            for t in tricks[start:]:
                i = place[t["leader"]]
                for c in t["cards"]:
                    v[rows[active[i]] - shift + ids[c]] = 1.0
                    i = (i + 1) % k

    def encode_seat(
        self, observation: Observation, seat: int, memo: dict[str, Any] | None = None
    ) -> Vector:
        if memo is None:
            return super().encode_seat(observation, seat)
        # What stays fixed through a deal (trump, dealer, scores, removed cards) is
        # written once per deal and seat into a base vector that each position copies.
        deal, trump, scores = observation["deal"], observation["trump"], observation["scores"]
        held = memo.get("briscola deal")
        if held is None or held[0] != deal or held[1] != trump or held[2] != scores:
            bases: dict[int, array[float]] = {}
            held = (deal, trump, scores, bases)
            memo["briscola deal"] = held
        base = held[3].get(seat)
        if base is None:
            base = self._zeros[:]
            self._fill_deal(observation, seat, base)
            held[3][seat] = base
        v = base[:]
        self._fill_play(observation, seat, v, memo)
        return np.frombuffer(v, F32)

    def _fill(
        self, obs: Observation, me: int, v: array[float], memo: dict[str, Any] | None = None
    ) -> None:
        self._fill_deal(obs, me, v)
        self._fill_play(obs, me, v, memo)

    def _fill_deal(self, obs: Observation, me: int, v: array[float]) -> None:
        """The blocks that stay fixed through a deal (the trump card changes at most by
        an exchange, the scores at most at the match's end)."""
        v[self._trump[obs["trump"]]] = 1.0
        v[self._suit[obs["trump_suit"]]] = 1.0
        if self._removed is not None:
            self._put_cards(v, self._removed, obs["removed"])
        if self._active is not None:
            at = self._active[me]
            for s in obs["seats"]:
                v[at[s]] = 1.0
        self._put_ratios(v, self._scores[me], obs["scores"], obs["target"])
        v[self._dealer[me][obs["dealer"]]] = 1.0

    def _fill_play(
        self, obs: Observation, me: int, v: array[float], memo: dict[str, Any] | None
    ) -> None:
        """The blocks that change as the deal is played."""
        card = self._card
        self._put_cards(v, self._hand, obs["hand"])
        trick = obs["trick"]
        if trick:
            self._put_trick(v, self._trick[me], trick)
        v[self._leader[me][obs["leader"]]] = 1.0
        tricks = obs["tricks"]
        active = obs["seats"]
        if memo is None:
            self._mark_played(tricks, 0, v, me, active)
        else:
            # The played cards were the encoder's hottest lines (up to 19 tricks a
            # position).  Within a deal they only grow, so a match's memo keeps them as a
            # block by absolute seat (seat 0's view, shared by every observer) that only
            # the tricks completed since the last call update; each observer copies its
            # rows from it in its own relative order.
            count = len(tricks)
            deal = obs["deal"]
            start = self._played_at
            held = memo.get("briscola played")
            if held is None or held[0] != deal or held[1] > count:
                block = self._zeros[: self._played_len]
                self._mark_played(tricks, 0, block, 0, active, 1)
            else:
                block = held[2]
                if held[1] < count:
                    self._mark_played(tricks, held[1], block, 0, active, 1)
            memo["briscola played"] = (deal, count, block)
            cut = me * self.deck_size if self.players > 2 else 0
            if cut:  # my relative rows are the absolute ones from mine on: a rotation
                v[start : start + len(block)] = block[cut:] + block[:cut]
            else:
                v[start : start + len(block)] = block
        known = obs["known_cards"]
        if known:
            by_key = self._known_by_key[me]  # the keys are seats as strings (JSON)
            for s, cards in known.items():
                base = by_key[s]
                for c in cards:
                    v[base + card[c]] = 1.0
        holder = obs["indicator_holder"]
        if holder is not None:
            v[self._holder[me][holder]] = 1.0
        if self._top is not None:
            top = obs["stock_top"]
            if top is not None:
                v[self._top[top]] = 1.0
        v[self._stock] = obs["stock_size"] / self.deck_size
        at = self._sizes[me]
        thirds = _THIRDS
        sizes = obs["hand_sizes"]
        points = obs["deal_points"]
        if self.players == 2:  # unrolled: a loop costs twice the two stores
            a, b = sizes
            v[at[0]] = thirds[a]
            v[at[1]] = thirds[b]
            a, b = points
            at = self._points[me]
            v[at[0]] = a / 120
            v[at[1]] = b / 120
        else:
            for i, k in enumerate(sizes):  # index, not zip: a third of the cost
                v[at[i]] = thirds[k]
            at = self._points[me]
            for i, k in enumerate(points):
                v[at[i]] = k / 120
        to_act = obs["to_act"]
        if to_act is not None:
            v[self._to_act[me][to_act]] = 1.0
        v[self._phase[obs["phase"]]] = 1.0
        if self._exchange is not None:
            exchange = obs["exchange"]
            if exchange is not None:
                v[self._exchange["declined" if exchange["declined"] else "made"]] = 1.0
        if self._signals is not None:
            row = self._signals[me]
            meaning = self._meaning
            for sig in obs["signals"]:
                v[row[sig["seat"]] + meaning[sig["meaning"]]] = 1.0


ENCODER = BriscolaEncoder
