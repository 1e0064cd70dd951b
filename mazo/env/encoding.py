"""One seat's observation as a fixed-size vector, and its legal actions as a mask.

:class:`Encoder` turns the dict that ``state.observation(seat)`` returns into a numpy
``float32`` vector whose length depends only on the game, its player count and its
options.  It reads the observation and nothing else: two states that look the same to a
seat encode the same for it, so a learner never sees a hidden card (the tests prove it
with :meth:`mazo.core.game.Game.determinize`).

Conventions shared by every game:

* Cards are one-hot (or multi-hot) over the game's deck in card-id order: suit-major,
  suits ``O C E B``, ranks as in :mod:`mazo.core.cards` (``7O`` is 6 in the 40-card
  pack; Trionfetti's 52-card pack adds 8, 9, 10, so its ids differ).
* Seats are relative to the observer: block position ``k`` is the seat ``k`` places
  after the observer in playing order (0 is the observer).  Sides (teams in partnership
  games, seats otherwise) are relative too: position 0 is the observer's side.  A policy
  trained at one seat therefore plays at any seat.
* Every value lies in ``[0, 1]``: counts and scores are divided by their natural maximum
  (and clipped), flags are 0/1, empty slots are zeros.
* Talk (partner signals, consultations, claims) is encoded only with ``talk=True``; with
  talk off the learner neither sends nor reads it.

``describe()`` lists the blocks (name, offset, length); ``docs/rl.md`` shows the tables.

>>> import mazo
>>> game = mazo.load_game("briscola", players=2)
>>> enc = Encoder(game)
>>> state = game.new_match(seed=7)
>>> obs = state.observation(state.to_act)
>>> vec = enc.encode(obs)
>>> vec.shape == (enc.size,), vec.dtype.name
(True, 'float32')
>>> legal = [int(a) for a in enc.action_mask(obs).nonzero()[0]]
>>> [game.action_to_string(a) for a in legal] == obs["legal_actions"]
True
>>> enc.describe()[:3]
[('hand', 0, 40), ('trick: card by relative seat', 40, 80), ('trick leader', 120, 2)]
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from mazo.core.errors import InvalidActionError, RulesError
from mazo.core.game import Game

__all__ = ["Encoder"]

Observation = Mapping[str, Any]
Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

SUITS = ("O", "C", "E", "B")
_F32 = np.dtype(np.float32)  # a dtype object: frombuffer skips parsing its argument
_THIRDS = (0.0, 1 / 3, 2 / 3, 1.0)  # a Briscola hand size over 3, without dividing
_CACHE_LIMIT = 200_000  # action strings remembered (Escoba has 84,488 ids)


SeatTable = tuple[tuple[int, ...], ...]
"""``table[me][seat]``: the absolute index of ``seat`` (or a side) as ``me`` sees it."""


class Encoder:
    """Encode one seat's observation of ``game`` (see the module docstring).

    ``Encoder(game)`` returns the encoder of ``game.name`` (a subclass); ``talk=True``
    adds the partner-talk blocks and keeps talk actions in the mask.
    """

    game_name: ClassVar[str] = ""

    game: Game
    talk: bool
    size: int
    num_actions: int

    def __new__(cls, game: Game, talk: bool = False) -> Encoder:
        if cls is Encoder:
            name = getattr(game, "name", None)
            chosen = _ENCODERS.get(name) if isinstance(name, str) else None
            if chosen is None:
                raise RulesError(
                    f"no encoder for {game!r}; games are: {', '.join(sorted(_ENCODERS))}"
                )
            cls = chosen
        return object.__new__(cls)

    def __init__(self, game: Game, talk: bool = False) -> None:
        if not isinstance(game, Game) or game.name != self.game_name:
            raise RulesError(f"{type(self).__name__} encodes {self.game_name}, not {game!r}")
        info = game.info
        self.game = game
        self.talk = bool(talk)
        self.num_actions = info.num_actions
        self.players = n = info.players
        self.sides = sides = info.sides
        deck = info.deck
        self.deck_size = deck.size
        # Card code -> id: the ids DeckSpec.parse gives (observations hold canonical codes).
        self._card: dict[str, int] = {deck.format(c): c for c in range(deck.size)}
        # _rel[me][seat]: seat's place after me; _side_rel[me][side]: relative to my side.
        self._rel: SeatTable = tuple(tuple((s - me) % n for s in range(n)) for me in range(n))
        self._side_rel: SeatTable = tuple(
            tuple((x - info.side_of[me]) % sides for x in range(sides)) for me in range(n)
        )
        self._skip = frozenset() if self.talk else info.message_actions
        self._ids: dict[str, int] = {}
        self._blocks: list[tuple[str, int, int]] = []
        self.size = 0
        self._layout()
        self._zeros = array("f", bytes(4 * self.size))

    def __repr__(self) -> str:
        return f"Encoder({self.game!r}, talk={self.talk})  # size {self.size}"

    # -- layout: each helper adds a block and returns the lookup table its writes use -----

    def _add(self, name: str, length: int) -> int:
        offset = self.size
        self._blocks.append((name, offset, length))
        self.size += length
        return offset

    def _cards(self, name: str) -> dict[str, int]:
        """A block over the deck: card code -> index."""
        offset = self._add(name, self.deck_size)
        return {code: offset + c for code, c in self._card.items()}

    def _seats(self, name: str) -> SeatTable:
        """A block over relative seats: ``[me][seat]`` -> index."""
        offset = self._add(name, self.players)
        return tuple(tuple(offset + r for r in rel) for rel in self._rel)

    def _sides(self, name: str) -> SeatTable:
        """A block over relative sides: ``[me][side]`` -> index."""
        offset = self._add(name, self.sides)
        return tuple(tuple(offset + r for r in rel) for rel in self._side_rel)

    def _seat_cards(self, name: str, others: bool = False) -> SeatTable:
        """Relative seat x deck: ``[me][seat]`` -> index of card 0 of that seat's row.
        With ``others``, the observer has no row (-1)."""
        d = self.deck_size
        rows = self.players - 1 if others else self.players
        offset = self._add(name, rows * d) - (d if others else 0)
        return tuple(
            tuple(-1 if others and r == 0 else offset + r * d for r in rel) for rel in self._rel
        )

    def _one_hot(self, name: str, words: Sequence[str]) -> dict[str, int]:
        """A one-hot block over ``words``: word -> index."""
        offset = self._add(f"{name} ({', '.join(words)})" if len(words) <= 6 else name, len(words))
        return {w: offset + i for i, w in enumerate(words)}

    def _layout(self) -> None:
        raise NotImplementedError

    def describe(self) -> list[tuple[str, int, int]]:
        """The layout: ``(block name, offset, length)`` in vector order."""
        return list(self._blocks)

    # -- encoding ----------------------------------------------------------------------

    def encode(self, observation: Observation) -> Vector:
        """The observation as a ``float32`` vector of length :attr:`size`, values in [0, 1]."""
        me = observation.get("seat")
        if type(me) is not int or not 0 <= me < self.players:
            raise ValueError(
                "an encoder reads one seat's observation (state.observation(seat)); "
                f"this one has seat {me!r}"
            )
        name = observation.get("game", self.game_name)
        if name != self.game_name:
            raise ValueError(f"this encoder reads {self.game_name} observations, not {name}")
        # A typed array written element by element, then wrapped without a copy: cheaper
        # than numpy fancy indexing for the few dozen non-zero entries of a position.
        v = self._zeros[:]
        self._fill(observation, me, v)
        return np.frombuffer(v, _F32)

    def _fill(
        self, obs: Observation, me: int, v: array[float], memo: dict[str, Any] | None = None
    ) -> None:
        """Write the non-zero entries of seat ``me``'s observation into ``v`` (``memo``:
        see :meth:`encode_seat`)."""
        raise NotImplementedError

    def encode_seat(
        self, observation: Observation, seat: int, memo: dict[str, Any] | None = None
    ) -> Vector:
        """:meth:`encode` for a caller that built ``observation`` itself as
        ``state.observation(seat)`` (an environment): the same vector, without the checks
        that guard against a foreign or a spectator's observation.

        ``memo`` lets an encoder reuse work between the observations of **one match, in
        the order it is played** (any seats): the caller keeps one dict per match and
        starts a new one at every reset.  Parts that only grow within a deal (the cards
        played so far) are then updated instead of rebuilt.  The vector is the same as
        without it; observations of another match, or out of order, need another dict.
        """
        v = self._zeros[:]
        self._fill(observation, seat, v, memo)
        return np.frombuffer(v, _F32)

    # -- actions -----------------------------------------------------------------------

    def legal_ids(self, observation: Observation) -> list[int]:
        """The observation's legal actions as ids, in its order.  Talk ids are left out
        unless ``talk=True``, and so is anything outside the int space (a Trionfetti
        custom ranking, free talk)."""
        ids = self._ids
        out: list[int] = []
        for text in observation["legal_actions"]:
            action = ids.get(text)
            if action is None:
                action = self._learn(text)
            if action >= 0:
                out.append(action)
        return out

    def _learn(self, text: str) -> int:
        try:
            action = self.game.string_to_action(text)
        except InvalidActionError:
            action = -1
        if not 0 <= action < self.num_actions or action in self._skip:
            action = -1
        if len(self._ids) < _CACHE_LIMIT:
            self._ids[text] = action
        return action

    def action_mask(self, observation: Observation) -> Mask:
        """``int8`` of length :attr:`num_actions`: 1 for each legal id of the observation."""
        mask = bytearray(self.num_actions)
        for action in self.legal_ids(observation):
            mask[action] = 1
        return np.frombuffer(mask, np.int8)


class BriscolaEncoder(Encoder):
    """Briscola: the trick, the trump, the cards seen this deal, what is known of hands."""

    game_name = "briscola"
    PHASES = ("play", "exchange", "over")

    def _layout(self) -> None:
        from mazo.games.briscola import SIGNAL_MEANINGS

        self._hand = self._cards("hand")
        self._trick = self._seat_cards("trick: card by relative seat")
        self._leader = self._seats("trick leader")
        self._played = self._cards("played this deal (completed tricks)")
        self._played_at = self._blocks[-1][1]
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
        self, tricks: Sequence[Mapping[str, Any]], start: int, v: array[float], ix: dict[str, int]
    ) -> None:
        """Set ``v[ix[card]]`` for every card of ``tricks[start:]``."""
        # Unpacking a 2- or 4-card trick costs a third less than an inner loop.
        if self.players == 2:
            for t in tricks[start:]:
                a, b = t["cards"]
                v[ix[a]] = v[ix[b]] = 1.0
        elif self.players == 4:
            for t in tricks[start:]:
                a, b, c, d = t["cards"]
                v[ix[a]] = v[ix[b]] = v[ix[c]] = v[ix[d]] = 1.0
        else:
            for t in tricks[start:]:
                for c in t["cards"]:
                    v[ix[c]] = 1.0

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
        return np.frombuffer(v, _F32)

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
            ix = self._removed
            for c in obs["removed"]:
                v[ix[c]] = 1.0
        if self._active is not None:
            at = self._active[me]
            for s in obs["seats"]:
                v[at[s]] = 1.0
        target = obs["target"]
        at = self._scores[me]
        for i, k in enumerate(obs["scores"]):
            v[at[i]] = k / target if k < target else 1.0
        v[self._dealer[me][obs["dealer"]]] = 1.0

    def _fill_play(
        self, obs: Observation, me: int, v: array[float], memo: dict[str, Any] | None
    ) -> None:
        """The blocks that change as the deal is played."""
        card = self._card
        ix = self._hand
        for c in obs["hand"]:
            v[ix[c]] = 1.0
        trick = obs["trick"]
        if trick:
            row = self._trick[me]
            for t in trick:
                v[row[t["seat"]] + card[t["card"]]] = 1.0
        v[self._leader[me][obs["leader"]]] = 1.0
        tricks = obs["tricks"]
        if memo is None:
            self._mark_played(tricks, 0, v, self._played)
        else:
            # The played cards were the encoder's hottest lines (up to 19 tricks a
            # position).  Within a deal they only grow, so a match's memo keeps them as a
            # block and adds the tricks completed since the last call.
            count = len(tricks)
            deal = obs["deal"]
            held = memo.get("briscola played")
            if held is None or held[0] != deal or held[1] > count:
                block = self._zeros[: self.deck_size]
                self._mark_played(tricks, 0, block, self._card)
            else:
                block = held[2]
                if held[1] < count:
                    self._mark_played(tricks, held[1], block, self._card)
            memo["briscola played"] = (deal, count, block)
            start = self._played_at
            v[start : start + self.deck_size] = block
        known = obs["known_cards"]
        if known:
            rows = self._known_by_key[me]  # the keys are seats as strings (JSON)
            for s, cards in known.items():
                base = rows[s]
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


class EscobaEncoder(Encoder):
    """Escoba: the table, the captured piles (taken openly, so public), hand and scores."""

    game_name = "escoba"
    PHASES = ("play", "over")

    def _layout(self) -> None:
        d = self.deck_size
        self._rounds = max(1, (d - 4) // (3 * self.players))
        self._hand = self._cards("hand")
        self._table = self._cards("table")
        offset = self._add("captured: relative side x card", self.sides * d)
        self._captured: SeatTable = tuple(
            tuple(offset + r * d for r in rel) for rel in self._side_rel
        )
        self._counts = self._sides("captured count / 40, by relative side")
        self._escobas = self._sides("escobas this hand / 10, by relative side")
        self._last = self._seats("last capturer")
        self._stock = self._add("stock size / 40", 1)
        self._sizes = self._seats("hand sizes / 3")
        self._scores = self._sides("scores / target, by relative side")
        self._dealer = self._seats("dealer")
        self._to_act = self._seats("to act")
        self._round = self._add("round / rounds per hand", 1)
        self._phase = self._one_hot("phase", self.PHASES)

    def _fill(
        self, obs: Observation, me: int, v: array[float], memo: dict[str, Any] | None = None
    ) -> None:
        card = self._card
        d = self.deck_size
        ix = self._hand
        for c in obs["hand"]:
            v[ix[c]] = 1.0
        ix = self._table
        for c in obs["table"]:
            v[ix[c]] = 1.0
        for base, a, pile in zip(
            self._captured[me], self._counts[me], obs["captured"], strict=False
        ):
            for c in pile:
                v[base + card[c]] = 1.0
            v[a] = len(pile) / d
        at = self._escobas[me]
        for i, k in enumerate(obs["escobas"]):
            if k:
                v[at[i]] = k / 10 if k < 10 else 1.0
        last = obs["last_capturer"]
        if last is not None:
            v[self._last[me][last]] = 1.0
        v[self._stock] = obs["stock_size"] / d
        at = self._sizes[me]
        for i, k in enumerate(obs["hand_sizes"]):
            v[at[i]] = k / 3
        target = obs["target"]
        at = self._scores[me]
        for i, k in enumerate(obs["scores"]):
            v[at[i]] = k / target if k < target else 1.0
        v[self._dealer[me][obs["dealer"]]] = 1.0
        to_act = obs["to_act"]
        if to_act is not None:
            v[self._to_act[me][to_act]] = 1.0
        rnd = obs["round"]
        v[self._round] = rnd / self._rounds if rnd < self._rounds else 1.0
        v[self._phase[obs["phase"]]] = 1.0


class EnviteEncoder(Encoder):
    """Envite: the vira, the trick, the bet and its answer, tumbo, stones and chicos."""

    game_name = "envite"
    PHASES = ("play", "bet_pending", "tumbo_decision", "over")
    LEVELS = ("none", "envio", "siete", "nueve", "chico")

    def _layout(self) -> None:
        from mazo.games.envite import CONSULT_INTENTS, SIGNAL_KINDS

        options = self.game.options
        self._hand = self._cards("hand")
        self._vira = self._cards("vira")
        self._suit = self._one_hot("trump suit", SUITS)
        self._trick = self._seat_cards("trick: card by relative seat")
        self._to_play = self._seats("to play a card")
        self._played = self._cards("played this deal (completed tricks)")
        self._tricks = self._sides("tricks won / 3, by relative team")
        self._level = self._add("bet level accepted (none, envio, siete, nueve, chico)", 5)
        self._right = self._sides("raise right, by relative team")
        self._pending = self._sides("pending proposal made by, relative team")
        self._plevel = self._add("pending level (none, envio, siete, nueve, chico)", 5)
        self._must = self._one_hot("my team must", ("answer", "decide tumbo"))
        self._tumbo = self._sides("at tumbo, by relative team")
        self._tumbo_deal = self._add("tumbo deal", 1)
        self._scores = self._sides("stones / 12, by relative team")
        self._games = self._sides("chicos / chicos to win, by relative team")
        self._phase = self._one_hot("phase", self.PHASES)
        self._dealer = self._seats("dealer")
        self._eldest = self._seats("eldest (mano)")
        self._to_act = self._seats("to act")
        self._sizes = self._seats("hand sizes / 3")
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
        card = self._card
        ix = self._hand
        for c in obs["hand"]:
            v[ix[c]] = 1.0
        v[self._vira[obs["vira"]]] = 1.0
        v[self._suit[obs["trump_suit"]]] = 1.0
        row = self._trick[me]
        for t in obs["trick"]:
            v[row[t["seat"]] + card[t["card"]]] = 1.0
        v[self._to_play[me][obs["to_play"]]] = 1.0
        ix = self._played
        for t in obs["tricks"]:
            for c in t["cards"]:
                v[ix[c]] = 1.0
        at = self._tricks[me]
        won = obs["tricks_won"]
        v[at[0]] = won[0] / 3
        v[at[1]] = won[1] / 3
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
        at = self._scores[me]
        scores = obs["scores"]
        v[at[0]] = scores[0] / 12 if scores[0] < 12 else 1.0
        v[at[1]] = scores[1] / 12 if scores[1] < 12 else 1.0
        at = self._games[me]
        games = obs["games"]
        target = obs["chicos_to_win"]
        v[at[0]] = games[0] / target if games[0] < target else 1.0
        v[at[1]] = games[1] / target if games[1] < target else 1.0
        v[self._phase[obs["phase"]]] = 1.0
        v[self._dealer[me][obs["dealer"]]] = 1.0
        v[self._eldest[me][obs["eldest"]]] = 1.0
        to_act = obs["to_act"]
        if to_act is not None:
            v[self._to_act[me][to_act]] = 1.0
        at = self._sizes[me]
        for i, k in enumerate(obs["hand_sizes"]):
            v[at[i]] = k / 3
        if self._shown is not None:
            row = self._shown[me]
            for shown in obs["shown_hands"]:
                base = row[shown["seat"]]
                for c in shown["cards"]:
                    v[base + card[c]] = 1.0
        if self._offences is not None:
            ix = self._offences
            for text in obs["offences"]:
                v[ix[text]] = 1.0
        if self._messages is not None:
            row = self._messages[me]
            word = self._word
            for m in obs["messages"]:
                key = f"signal {m['kind']}" if m["type"] == "signal" else f"consult {m['intent']}"
                v[row[m["seat"]] + word[key]] = 1.0


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
        self._played = self._cards("played this smazzata")
        self._bottom = self._cards("bottom card (once shown)")
        self._leftover = self._cards("deal 4's cards left (when known)")
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
        self._scores = self._sides("points / points to win, by relative team")
        self._games = self._sides("games / games to win, by relative team")
        self._phase = self._one_hot("phase", self.PHASES)
        self._deal = self._add("deal of the smazzata (1..4)", 4)
        self._dealer = self._seats("dealer")
        self._cutter = self._seats("cutter")
        self._eldest = self._seats("eldest")
        self._to_act = self._seats("to act")
        self._sizes = self._seats("hand sizes / 3")
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
        card = self._card
        ix = self._hand
        for c in obs["hand"]:
            v[ix[c]] = 1.0
        row = self._trick[me]
        for t in obs["trick"]:
            v[row[t["seat"]] + card[t["card"]]] = 1.0
        v[self._to_play[me][obs["to_play"]]] = 1.0
        ix = self._played
        for e in obs["smazzata_log"]:
            if e["type"] == "play":
                v[ix[e["card"]]] = 1.0
        bottom = obs["bottom_card"]
        if bottom is not None:
            v[self._bottom[bottom]] = 1.0
        leftover = obs["leftover"]
        if leftover:
            ix = self._leftover
            for c in leftover:
                v[ix[c]] = 1.0
        if obs["leftover_public"]:
            v[self._left_public] = 1.0
        ix = self._partner
        for share in obs["partner_cards"]:
            for c in share["cards"]:
                v[ix[c]] = 1.0
        o = self._strength
        v[o : o + self.deck_size] = self._strength_of(obs)
        v[self._ranking.get(obs["ranking_name"], self._ranking["custom"])] = 1.0
        at = self._tricks[me]
        won = obs["tricks_won"]
        v[at[0]] = won[0] / 3
        v[at[1]] = won[1] / 3
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
        at = self._scores[me]
        scores = obs["scores"]
        v[at[0]] = scores[0] / target if scores[0] < target else 1.0
        v[at[1]] = scores[1] / target if scores[1] < target else 1.0
        at = self._games[me]
        games = obs["games"]
        match_target = obs["games_to_win_match"]
        v[at[0]] = games[0] / match_target if games[0] < match_target else 1.0
        v[at[1]] = games[1] / match_target if games[1] < match_target else 1.0
        v[self._phase[obs["phase"]]] = 1.0
        v[self._deal + obs["deal"] - 1] = 1.0
        v[self._dealer[me][obs["dealer"]]] = 1.0
        v[self._cutter[me][obs["cutter"]]] = 1.0
        v[self._eldest[me][obs["eldest"]]] = 1.0
        to_act = obs["to_act"]
        if to_act is not None:
            v[self._to_act[me][to_act]] = 1.0
        at = self._sizes[me]
        for i, k in enumerate(obs["hand_sizes"]):
            v[at[i]] = k / 3
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


_ENCODERS: dict[str, type[Encoder]] = {
    cls.game_name: cls for cls in (BriscolaEncoder, EscobaEncoder, EnviteEncoder, TrionfettiEncoder)
}
