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

Each game's encoder is the env layer's file for it, ``mazo/env/encoding/<game>.py``
(``<game>`` its registry name), found by that name.  Its hooks: ``ENCODER`` (the
:class:`Encoder` subclass) and ``MAX_LENGTH`` (player moves in a whole match, far above
what play reaches: OpenSpiel's ``max_game_length``).

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

import importlib
import pkgutil
from array import array
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from mazo.core.errors import InvalidActionError, RulesError
from mazo.core.game import Game

__all__ = ["Encoder", "encoded", "hook"]

Observation = Mapping[str, Any]
Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

SUITS = ("O", "C", "E", "B")
F32 = np.dtype(np.float32)  # a dtype object: frombuffer skips parsing its argument
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
    # Blocks every game lays out (in its own order), which the shared writers below fill.
    _hand: dict[str, int]
    _to_act: SeatTable
    _sizes: SeatTable

    def __new__(cls, game: Game, talk: bool = False) -> Encoder:
        if cls is Encoder:
            name = getattr(game, "name", None)
            chosen = hook(name, "ENCODER") if isinstance(name, str) else None
            if chosen is None:
                raise RulesError(f"no encoder for {game!r}; games are: {', '.join(encoded())}")
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

    def _card_blocks(self, *names: str) -> tuple[dict[str, int], ...]:
        """Consecutive card blocks (:meth:`_cards`), one per name, in order."""
        return tuple(self._cards(name) for name in names)

    def _seat_blocks(self, *names: str) -> tuple[SeatTable, ...]:
        """Consecutive blocks over relative seats (:meth:`_seats`), one per name."""
        return tuple(self._seats(name) for name in names)

    def _side_blocks(self, *names: str) -> tuple[SeatTable, ...]:
        """Consecutive blocks over relative sides (:meth:`_sides`), one per name."""
        return tuple(self._sides(name) for name in names)

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
        return np.frombuffer(v, F32)

    def _fill(
        self, obs: Observation, me: int, v: array[float], memo: dict[str, Any] | None = None
    ) -> None:
        """Write the non-zero entries of seat ``me``'s observation into ``v`` (``memo``:
        see :meth:`encode_seat`)."""
        raise NotImplementedError

    # -- writers shared by the games' _fill (a block's entries, the same in every game) --

    @staticmethod
    def _put_cards(v: array[float], ix: Mapping[str, int], cards: Iterable[str]) -> None:
        """Set the entries of ``cards`` in a card block (``ix``: code -> index)."""
        for c in cards:
            v[ix[c]] = 1.0

    @staticmethod
    def _put_ratios(v: array[float], at: Sequence[int], values: Sequence[int], top: int) -> None:
        """``values[i] / top`` (clipped at 1) at ``at[i]``: scores, games, counts."""
        for i, k in enumerate(values):
            v[at[i]] = k / top if k < top else 1.0

    def _put_trick(self, v: array[float], row: Sequence[int], trick: Iterable[Any]) -> None:
        """The cards on the table by relative seat (``row``: this observer's seat rows)."""
        card = self._card
        for t in trick:
            v[row[t["seat"]] + card[t["card"]]] = 1.0

    def _put_turn(self, obs: Observation, me: int, v: array[float]) -> None:
        """Who acts and the hand sizes / 3 (three-card hands in the trick games and in
        Escoba), by relative seat."""
        to_act = obs["to_act"]
        if to_act is not None:
            v[self._to_act[me][to_act]] = 1.0
        at = self._sizes[me]
        for i, k in enumerate(obs["hand_sizes"]):
            v[at[i]] = k / 3

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
        return np.frombuffer(v, F32)

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


def encoded() -> list[str]:
    """The games with an encoder file, sorted."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def hook(game_name: str, attribute: str) -> Any:
    """An attribute of the game's encoder file, or None where it has no file or no such
    attribute (one game's encoder never loads another's)."""
    module_name = f"{__name__}.{game_name}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name != module_name:
            raise
        return None
    return getattr(module, attribute, None)
