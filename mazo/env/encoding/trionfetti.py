"""Trionfetti's encoder (the conventions every encoder shares are in
:mod:`mazo.env.encoding`)."""

from __future__ import annotations

from array import array
from typing import Any

from mazo.env.encoding import Encoder, Observation, SeatTable

__all__ = ["ENCODER", "MAX_LENGTH", "TrionfettiEncoder"]

# Player moves in a whole match, far above what play reaches (the longest of 150 random
# matches: Briscola 280, Escoba 540 with 3 players, Envite 320 with 12, Trionfetti 190).
MAX_LENGTH = 1000


class TrionfettiEncoder(Encoder):
    """Trionfetti: the ranking in force (each card's strength), the trick, the cards seen
    this smazzata, what the partner showed, the vega, points and games."""

    game_name = "trionfetti"
    PHASES = ("ranking", "play", "vega_pending", "over")

    def _layout(self) -> None:
        from mazo.games.trionfetti import CLAIMS, PRESETS

        self._strengths: dict[Any, array[float]] = {}
        self._hand = self._cards("hand")
        self._trick = self._seat_cards("trick: card by relative seat")
        self._to_play = self._seats("to play a card")
        # Who played each card: a reader of the hidden hands learns from each seat's plays.
        self._played = self._seat_cards("played this smazzata, by relative seat")
        self._bottom, self._leftover = self._card_blocks(
            "bottom card (once shown)", "deal 4's cards left (when known)"
        )
        self._left_public = self._add("cards left are public", 1)
        self._partner = self._cards("cards the partner showed this smazzata")
        self._strength = self._add("strength of each card in the ranking (1 = top)", 52)
        self._ranking = self._one_hot("ranking preset", [*PRESETS, "custom"])
        self._tricks = self._sides("tricks won / 3, by relative team")
        self._vega = self._one_hot("vega", ("used this deal", "pending"))
        self._vega_team = self._sides("pending vega called by, relative team")
        self._vega_value = self._add("pending vega value / points to win", 1)
        self._stake = self._add("stake of the deal / points to win", 1)
        self._must = self._add("my team must answer", 1)
        self._scores, self._games = self._side_blocks(
            "points / points to win, by relative team", "games / games to win, by relative team"
        )
        self._phase = self._one_hot("phase", self.PHASES)
        self._deal = self._add("deal of the smazzata (1..4)", 4)
        self._dealer, self._cutter, self._eldest, self._to_act, self._sizes = self._seat_blocks(
            "dealer", "cutter", "eldest", "to act", "hand sizes / 3"
        )
        self._stock = self._add("stock size / 52", 1)
        self._messages: SeatTable | None = None
        if self.talk and self.game.options.get("messages"):
            self._talk_window = self._one_hot("talk window", ("none", "partner", "all"))
            self._claim = {c: i for i, c in enumerate(CLAIMS)}
            width = len(CLAIMS)
            offset = self._add(
                "claims this deal: relative seat x (signal, announce) x claim",
                self.players * 2 * width,
            )
            self._messages = tuple(tuple(offset + 2 * r * width for r in rel) for rel in self._rel)
            self._width = width

    def _strength_of(self, obs: Observation) -> array[float]:
        """Per card, 1 for the top level of the ranking down to 0 for the bottom one."""
        name = obs["ranking_name"]
        levels = obs["ranking"]
        key: Any = name
        if name == "custom":
            key = tuple((lv["rank"], lv["suits"]) for lv in levels)
        found = self._strengths.get(key)
        if found is None:
            found = array("f", bytes(4 * self.deck_size))
            top = max(len(levels) - 1, 1)
            for i, lv in enumerate(levels):
                for suit in lv["suits"]:
                    found[self._card[lv["rank"] + suit]] = 1.0 - i / top
            if len(self._strengths) > 1024:  # custom rankings: keep the cache bounded
                self._strengths.clear()
            self._strengths[key] = found
        return found

    def _fill(
        self, obs: Observation, me: int, v: array[float], memo: dict[str, Any] | None = None
    ) -> None:
        self._put_cards(v, self._hand, obs["hand"])
        self._put_trick(v, self._trick[me], obs["trick"])
        v[self._to_play[me][obs["to_play"]]] = 1.0
        rows = self._played[me]
        card = self._card
        for e in obs["smazzata_log"]:
            if e["type"] == "play":
                v[rows[e["seat"]] + card[e["card"]]] = 1.0
        bottom = obs["bottom_card"]
        if bottom is not None:
            v[self._bottom[bottom]] = 1.0
        self._put_cards(v, self._leftover, obs["leftover"] or ())  # None: not known
        if obs["leftover_public"]:
            v[self._left_public] = 1.0
        ix = self._partner
        for share in obs["partner_cards"]:
            self._put_cards(v, ix, share["cards"])
        o = self._strength
        v[o : o + self.deck_size] = self._strength_of(obs)
        v[self._ranking.get(obs["ranking_name"], self._ranking["custom"])] = 1.0
        self._put_ratios(v, self._tricks[me], obs["tricks_won"], 3)
        target = obs["points_to_win_game"]
        vega = obs["vega"]
        if vega["used"]:
            v[self._vega["used this deal"]] = 1.0
        pending = vega["pending"]
        if pending is not None:
            v[self._vega["pending"]] = 1.0
            v[self._vega_team[me][pending["team"]]] = 1.0
            value = pending["value"]
            v[self._vega_value] = value / target if value < target else 1.0
        stake = vega["stake"]
        v[self._stake] = stake / target if stake < target else 1.0
        if obs["team_must_answer"]:
            v[self._must] = 1.0
        self._put_ratios(v, self._scores[me], obs["scores"], target)
        self._put_ratios(v, self._games[me], obs["games"], obs["games_to_win_match"])
        v[self._phase[obs["phase"]]] = 1.0
        v[self._deal + obs["deal"] - 1] = 1.0
        v[self._dealer[me][obs["dealer"]]] = 1.0
        v[self._cutter[me][obs["cutter"]]] = 1.0
        v[self._eldest[me][obs["eldest"]]] = 1.0
        self._put_turn(obs, me, v)
        v[self._stock] = obs["stock_size"] / self.deck_size
        if self._messages is not None:
            v[self._talk_window[obs["talk"]]] = 1.0
            row = self._messages[me]
            claim = self._claim
            width = self._width
            for m in obs["messages"]:
                kind = m["type"]
                if kind == "signal":
                    v[row[m["seat"]] + claim[m["claim"]]] = 1.0
                elif kind == "announce":
                    v[row[m["seat"]] + width + claim[m["claim"]]] = 1.0


ENCODER = TrionfettiEncoder
