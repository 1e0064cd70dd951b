"""Escoba's encoder (the conventions every encoder shares are in
:mod:`mazo.env.encoding`)."""

from __future__ import annotations

from array import array
from typing import Any

from mazo.env.encoding import Encoder, Observation, SeatTable

__all__ = ["ENCODER", "MAX_LENGTH", "EscobaEncoder"]

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
