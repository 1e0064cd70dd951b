"""How a network's policy head names a game's actions: by *action features*.

A policy head gives one logit per feature; an action's logit is the sum of the logits of
its features.  Where the game's action space is small (Briscola 50 ids, Envite 64,
Trionfetti 204), every action id is its own single feature, so the head is an ordinary
linear layer over the actions.  Where it is too large for a dense head (Escoba's 84,488
ids: every card with every set of table cards it may take), an action is described by
the cards its string names, the way :meth:`mazo.core.game.Game.action_to_string` writes
them (``7O`` a card laid; ``7O+5C+3B`` a card played and the cards it takes): the played
card, each card taken, and how many are taken.  Escoba's head then has
``40 + 40 + 9 = 89`` features instead of 84,488 columns, so its weights stay small.

With ``context=True`` an action also gets one feature that depends on the position, not
only on the action id: the game's encoder file names it (``ACTION_CONTEXT``, a class
made with the game's card codes, with ``size``, ``names`` and ``indices(observation,
actions)``, each action given by its card ids).  Escoba's
(:class:`mazo.env.encoding.escoba.TableLeft`) says what the table an action leaves
offers the next player, so its head has ``89 + 12 = 101`` features, kind
``"cards+context"``.  Such features are read with :meth:`ActionFeatures.of_legal`, which
takes the observation; :meth:`ActionFeatures.of` gives only the fixed ones.  A net's
feature count says which kind it was trained with (:func:`mazo.nets.load_net`), so nets
trained before context existed keep loading.

>>> import mazo
>>> dense = ActionFeatures(mazo.load_game("briscola", players=2))
>>> dense.kind, dense.size, dense.of(7)
('dense', 50, (7,))
>>> cards = ActionFeatures(mazo.load_game("escoba", players=2))
>>> cards.kind, cards.size, cards.of(40)  # 1O+4O+KO: play 1O (0), take 4O, KO, two cards
('cards', 89, (0, 43, 49, 82))
>>> table = ActionFeatures(mazo.load_game("escoba", players=2), context=True)
>>> table.kind, table.size, table.of_legal({"table": ["4O", "KO", "5C"]}, [40])
('cards+context', 101, [(0, 43, 49, 82, 99)])

(Taking 4O and KO leaves 5C: a king, worth 10, sweeps it: context feature 10, index
``89 + 10``.)

With ``context=HEURISTIC`` (2) an action gets, after the game's context feature, two
more: how the game's heuristic (``normal``) ranks it among the legal moves and how far
its score falls below the best (:class:`HeuristicView`, ``size`` 11; kind
``"cards+context+heuristic"``, Escoba's head ``101 + 11 = 112`` features).  A net so made
reads ``normal``'s judgement of every move as an input, the way a Go net reads
hand-made features: imitation of ``normal`` becomes easy, and what a net learned from
the search's moves must add is where and why the search parts from that judgement.

>>> view = ActionFeatures(mazo.load_game("escoba", players=2), context=HEURISTIC)
>>> view.kind, view.size
('cards+context+heuristic', 112)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from mazo.core.errors import InvalidActionError, RulesError
from mazo.core.game import Game
from mazo.env.encoding import hook

__all__ = ["HEURISTIC", "MAX_DENSE", "MAX_TAKEN", "ActionFeatures", "HeuristicView"]

MAX_DENSE = 1024
"""A game with more action ids than this gets card features instead of one per id."""
MAX_TAKEN = 8
"""The count-of-cards-taken features: 0..MAX_TAKEN (more is counted as MAX_TAKEN)."""
HEURISTIC = 2
"""``context`` for the game's context features and the heuristic's view of each move."""

GAPS = (1e-9, 0.02, 0.05, 0.1, 0.2, 0.4)
""":class:`HeuristicView`'s bins of a move's score below the best, in the heuristic's
units (Escoba's: match points): at most 1e-9 (a best move), up to 0.02, ... above 0.4."""
RANKS = 4
""":class:`HeuristicView`'s ranks: 0 (a best move), 1, 2, and 3 or lower."""


class HeuristicView:
    """Two features of each move from the game's heuristic, which scores every legal
    move (its ``scores(observation)``, action string to score): its rank, the number of
    moves that score more than 1e-9 above it (0..:data:`RANKS` - 1, lower ranks counted
    as the last), and its score's gap to the best, binned by :data:`GAPS`.  The
    heuristic reads only the observation, as the net does.

    >>> import mazo
    >>> game = mazo.load_game("escoba", players=2)
    >>> obs = game.new_match(seed=3).observation(0)
    >>> view = HeuristicView(game)
    >>> legal = [game.string_to_action(t) for t in obs["legal_actions"]]
    >>> pairs = view.indices(obs, legal)
    >>> min(rank for rank, gap in pairs), min(gap for rank, gap in pairs)
    (0, 0)
    """

    size = RANKS + len(GAPS) + 1
    names = (
        "the heuristic's best move",
        "the heuristic's second move",
        "the heuristic's third move",
        "the heuristic's fourth move or lower",
        "scores the best",
        *(f"scores {low:g} to {high:g} below the best" for low, high in itertools.pairwise(GAPS)),
        f"scores more than {GAPS[-1]:g} below the best",
    )

    def __init__(self, game: Game) -> None:
        from mazo.bots.heuristic import make_heuristic

        bot = make_heuristic(game, 0)
        scores = getattr(bot, "scores", None)
        if scores is None:
            raise RulesError(f"{game.name}'s heuristic does not score every move")
        self._scores: Any = scores
        self._game = game
        self._text: dict[int, str] = {}

    def indices(
        self, observation: Mapping[str, Any], legal: Sequence[int]
    ) -> list[tuple[int, int]]:
        """Per action id of ``legal``: (its rank, its gap's bin), each counted from 0."""
        scores: dict[str, float] = self._scores(observation)
        text = self._text
        to_string = self._game.action_to_string
        got = []
        for action in legal:
            name = text.get(action)
            if name is None:
                name = text[action] = to_string(action)
            got.append(scores[name])
        top = max(got)
        return [
            (
                min(sum(other > score + 1e-9 for other in got), RANKS - 1),
                sum(top - score > edge for edge in GAPS),  # GAPS ascend: the bin's index
            )
            for score in got
        ]


class ActionFeatures:
    """The features of each action id of ``game`` (see the module docstring).

    ``kind`` is ``"dense"`` (one feature per id: :attr:`size` is ``num_actions``) or
    ``"cards"`` (played card, cards taken, count taken: ``2·deck + MAX_TAKEN + 1``), and
    ``"cards+context"`` with ``context`` (the game's ``ACTION_CONTEXT`` after those), and
    ``"cards+context+heuristic"`` with ``context=HEURISTIC`` (:class:`HeuristicView`'s two
    features last).
    """

    def __init__(self, game: Game, context: int = 0) -> None:
        info = game.info
        self.game = game
        self.num_actions = info.num_actions
        self.deck_size = info.deck.size
        self.context: Any = None  # the game's ACTION_CONTEXT, made for its card codes
        self.view: HeuristicView | None = None  # context=HEURISTIC: normal's ranks and gaps
        if self.num_actions <= MAX_DENSE:
            self.kind = "dense"
            self.size = self.num_actions
        else:
            self.kind = "cards"
            self.size = 2 * self.deck_size + MAX_TAKEN + 1
            self._card = {info.deck.format(c): c for c in range(self.deck_size)}
        if context:
            made = hook(game.name, "ACTION_CONTEXT")
            if made is None or self.kind != "cards":
                raise RulesError(f"{game.name} has no action context features")
            self.context = made(self._card)
            self.kind = "cards+context"
            self.size += made.size
            if context == HEURISTIC:
                self.view = HeuristicView(game)
                self.kind = "cards+context+heuristic"
                self.size += HeuristicView.size
            elif context != 1:
                raise RulesError(f"action context {context!r}: 0, 1 (the game's) or {HEURISTIC}")
        self._memo: dict[int, tuple[int, ...]] = {}
        self._cards: dict[int, tuple[int, ...]] = {}  # action id -> its card ids

    @staticmethod
    def has_context(game: Game) -> bool:
        """Whether ``game``'s encoder file gives action context features."""
        return hook(game.name, "ACTION_CONTEXT") is not None and (game.info.num_actions > MAX_DENSE)

    def of(self, action: int) -> tuple[int, ...]:
        """The feature indices of ``action`` (one for a dense head)."""
        if self.kind == "dense":
            if not 0 <= action < self.num_actions:
                raise RulesError(f"action {action} is outside 0..{self.num_actions - 1}")
            return (action,)
        found = self._memo.get(action)
        if found is None:
            found = self._memo[action] = self._parse(action)
        return found

    def _parse(self, action: int) -> tuple[int, ...]:
        try:
            text = self.game.action_to_string(action)
        except InvalidActionError as err:
            raise RulesError(f"action {action}: {err}") from None
        parts = text.split("+")
        try:
            ids = [self._card[p] for p in parts]
        except KeyError:
            raise RulesError(
                f"{self.game.name} action {text!r} is not a card code or cards joined by '+': "
                "this game needs its own action features"
            ) from None
        d = self.deck_size
        taken = ids[1:]
        self._cards[action] = tuple(ids)
        return (ids[0], *(d + c for c in taken), 2 * d + min(len(taken), MAX_TAKEN))

    def of_legal(
        self, observation: Mapping[str, Any], legal: Sequence[int]
    ) -> list[tuple[int, ...]]:
        """The feature indices of each of ``legal`` (action ids) in ``observation``'s
        position: :meth:`of`'s, and with ``context`` the context feature last."""
        of = self.of
        if self.context is None:
            return [of(a) for a in legal]
        base = 2 * self.deck_size + MAX_TAKEN + 1
        rows = [of(a) for a in legal]
        cards = self._cards
        extra = self.context.indices(observation, [cards[a] for a in legal])
        if self.view is None:
            return [(*row, base + i) for row, i in zip(rows, extra, strict=True)]
        ranks = base + self.context.size
        gaps = ranks + RANKS
        views = self.view.indices(observation, legal)
        return [
            (*row, base + i, ranks + rank, gaps + gap)
            for row, i, (rank, gap) in zip(rows, extra, views, strict=True)
        ]

    def width(self) -> int:
        """The most features one action can have."""
        if self.kind == "dense":
            return 1
        return MAX_TAKEN + 2 + (self.context is not None) + 2 * (self.view is not None)
