"""Envite's encoder (the conventions every encoder shares are in
:mod:`mazo.env.encoding`)."""

from __future__ import annotations

from array import array
from typing import Any

from mazo.env.encoding import SUITS, Encoder, Observation, SeatTable

__all__ = ["ENCODER", "MAX_LENGTH", "EnviteEncoder"]

# Player moves in a whole match, far above what play reaches (the longest of 150 random
# matches: Briscola 280, Escoba 540 with 3 players, Envite 320 with 12, Trionfetti 190).
MAX_LENGTH = 2000


class EnviteEncoder(Encoder):
    """Envite: the vira, the trick, the bet and its answer, tumbo, stones and chicos."""

    game_name = "envite"
    PHASES = ("play", "bet_pending", "tumbo_decision", "over")
    LEVELS = ("none", "envio", "siete", "nueve", "chico")

    def _layout(self) -> None:
        from mazo.games.envite import CONSULT_INTENTS, SIGNAL_KINDS

        options = self.game.options
        self._hand, self._vira = self._card_blocks("hand", "vira")
        self._suit = self._one_hot("trump suit", SUITS)
        self._trick = self._seat_cards("trick: card by relative seat")
        self._to_play = self._seats("to play a card")
        # Who played each card: a reader of the hidden hands learns from each seat's plays.
        self._played = self._seat_cards("played this deal (completed tricks), by relative seat")
        self._tricks = self._sides("tricks won / 3, by relative team")
        self._level = self._add("bet level accepted (none, envio, siete, nueve, chico)", 5)
        self._right, self._pending = self._side_blocks(
            "raise right, by relative team", "pending proposal made by, relative team"
        )
        self._plevel = self._add("pending level (none, envio, siete, nueve, chico)", 5)
        self._must = self._one_hot("my team must", ("answer", "decide tumbo"))
        self._tumbo = self._sides("at tumbo, by relative team")
        self._tumbo_deal = self._add("tumbo deal", 1)
        self._scores, self._games = self._side_blocks(
            "stones / 12, by relative team", "chicos / chicos to win, by relative team"
        )
        self._phase = self._one_hot("phase", self.PHASES)
        self._dealer, self._eldest, self._to_act, self._sizes = self._seat_blocks(
            "dealer", "eldest (mano)", "to act", "hand sizes / 3"
        )
        self._shown: SeatTable | None = None
        if options.get("tumbo_show_captain"):
            self._shown = self._seat_cards("teammates' hands shown to the captain", True)
        self._offences: dict[str, int] | None = None
        if options.get("renuncio_mode") == "penalize":
            self._offences = self._one_hot(
                "offences (renuncio): cards, then envio", [*self._card, "envio"]
            )
        self._messages: SeatTable | None = None
        if self.talk and options.get("signals") != "off":
            words = [f"signal {k}" for k in SIGNAL_KINDS]
            words += [f"consult {k}" for k in CONSULT_INTENTS]
            self._word = {w: i for i, w in enumerate(words)}
            width = len(words)
            offset = self._add(
                "messages this deal: relative seat x (signs, consultations)",
                self.players * width,
            )
            self._messages = tuple(tuple(offset + r * width for r in rel) for rel in self._rel)

    def _fill(
        self, obs: Observation, me: int, v: array[float], memo: dict[str, Any] | None = None
    ) -> None:
        self._put_cards(v, self._hand, obs["hand"])
        v[self._vira[obs["vira"]]] = 1.0
        v[self._suit[obs["trump_suit"]]] = 1.0
        self._put_trick(v, self._trick[me], obs["trick"])
        v[self._to_play[me][obs["to_play"]]] = 1.0
        rows = self._played[me]
        card = self._card
        n = self.players
        for t in obs["tricks"]:
            seat = t["leader"]  # every seat plays every trick, in turn from its leader
            for c in t["cards"]:
                v[rows[seat] + card[c]] = 1.0
                seat = seat + 1 if seat + 1 < n else 0
        self._put_ratios(v, self._tricks[me], obs["tricks_won"], 3)
        bet = obs["bet"]
        v[self._level + bet["level"]] = 1.0
        right = bet["raise_right"]
        if right is not None:
            v[self._right[me][right]] = 1.0
        pending = bet["pending"]
        if pending is not None:
            v[self._pending[me][pending["team"]]] = 1.0
            v[self._plevel + pending["level"]] = 1.0
        if obs["team_must_answer"]:
            v[self._must["answer"]] = 1.0
        if obs["team_must_decide"]:
            v[self._must["decide tumbo"]] = 1.0
        tumbo = obs["tumbo"]
        if tumbo[0] or tumbo[1]:
            at = self._tumbo[me]
            v[at[0]] = 1.0 if tumbo[0] else 0.0
            v[at[1]] = 1.0 if tumbo[1] else 0.0
        if obs["tumbo_deal"]:
            v[self._tumbo_deal] = 1.0
        self._put_ratios(v, self._scores[me], obs["scores"], 12)
        self._put_ratios(v, self._games[me], obs["games"], obs["chicos_to_win"])
        v[self._phase[obs["phase"]]] = 1.0
        v[self._dealer[me][obs["dealer"]]] = 1.0
        v[self._eldest[me][obs["eldest"]]] = 1.0
        self._put_turn(obs, me, v)
        if self._shown is not None:
            row = self._shown[me]
            card = self._card
            for shown in obs["shown_hands"]:
                base = row[shown["seat"]]
                for c in shown["cards"]:
                    v[base + card[c]] = 1.0
        if self._offences is not None:
            self._put_cards(v, self._offences, obs["offences"])
        if self._messages is not None:
            row = self._messages[me]
            word = self._word
            for m in obs["messages"]:
                key = f"signal {m['kind']}" if m["type"] == "signal" else f"consult {m['intent']}"
                v[row[m["seat"]] + word[key]] = 1.0


ENCODER = EnviteEncoder
