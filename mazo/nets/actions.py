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

>>> import mazo
>>> dense = ActionFeatures(mazo.load_game("briscola", players=2))
>>> dense.kind, dense.size, dense.of(7)
('dense', 50, (7,))
>>> cards = ActionFeatures(mazo.load_game("escoba", players=2))
>>> cards.kind, cards.size, cards.of(40)  # 1O+4O+KO: play 1O (0), take 4O, KO, two cards
('cards', 89, (0, 43, 49, 82))
"""

from __future__ import annotations

from mazo.core.errors import InvalidActionError, RulesError
from mazo.core.game import Game

__all__ = ["MAX_DENSE", "MAX_TAKEN", "ActionFeatures"]

MAX_DENSE = 1024
"""A game with more action ids than this gets card features instead of one per id."""
MAX_TAKEN = 8
"""The count-of-cards-taken features: 0..MAX_TAKEN (more is counted as MAX_TAKEN)."""


class ActionFeatures:
    """The features of each action id of ``game`` (see the module docstring).

    ``kind`` is ``"dense"`` (one feature per id: :attr:`size` is ``num_actions``) or
    ``"cards"`` (played card, cards taken, count taken: ``2·deck + MAX_TAKEN + 1``).
    """

    def __init__(self, game: Game) -> None:
        info = game.info
        self.game = game
        self.num_actions = info.num_actions
        self.deck_size = info.deck.size
        if self.num_actions <= MAX_DENSE:
            self.kind = "dense"
            self.size = self.num_actions
        else:
            self.kind = "cards"
            self.size = 2 * self.deck_size + MAX_TAKEN + 1
            self._card = {info.deck.format(c): c for c in range(self.deck_size)}
        self._memo: dict[int, tuple[int, ...]] = {}

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
        return (ids[0], *(d + c for c in taken), 2 * d + min(len(taken), MAX_TAKEN))

    def width(self) -> int:
        """The most features one action can have."""
        return 1 if self.kind == "dense" else MAX_TAKEN + 2
