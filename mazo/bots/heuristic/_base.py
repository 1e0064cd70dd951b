"""The frames the heuristic bots share (not a game's file: the underscore keeps it out of
:func:`mazo.bots.heuristic.have_heuristics`).

:class:`SigningHeuristic` is what every heuristic that may sign to partners has: its
name, its options check (``signals`` plus the game's own), its seeded tie-breaker.
:class:`PartnershipHeuristic` adds what the two partnership games' heuristics (two teams
of alternate seats, three-card hands, a deal won by two tricks) share: how a decision is
asked for and refused, the card choice among near-equal values, the one sign a deal, the
estimate ``E`` and the explanation of a card played to a trick.  Each game's view of an
observation (:class:`TrickView`) prices its cards by its own rules.

Two front doors: a view is read from an observation (``TrickView(obs)``) or, for the
search's playouts, from the engine's state for one seat (:meth:`TrickView.read_state`:
ints and masks, only what that seat's observation shows), and the same decision code
runs on either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, NoReturn, Protocol, Self, TypeVar

from mazo.bots.base import Observation, check_bot_options, legal_ids
from mazo.core.errors import RulesError
from mazo.core.game import Game
from mazo.core.rng import Rng
from mazo.core.tricks import PartnershipState

__all__ = ["PartnershipHeuristic", "SigningHeuristic", "TrickView", "near_best"]

Hint = tuple[str, dict[str, Any]]


class SigningHeuristic:
    """A heuristic bot with the ``signals`` option (sign to partners and read their signs)
    and the game's own options (:attr:`OPTIONS`: name -> allowed values, default first)."""

    name = "heuristic"
    OPTIONS: ClassVar[Mapping[str, tuple[Any, ...]]] = {"signals": (False, True)}

    def __init__(self, game: Game, seed: int, **options: Any) -> None:
        self.options: dict[str, Any] = check_bot_options(self.name, options, self.OPTIONS)
        self.game = game
        self.signals: bool = self.options["signals"]
        self.rng = Rng(seed)

    def _text(self, action: int | str) -> str:
        """An action as its string (``explain`` takes either)."""
        return action if isinstance(action, str) else self.game.action_to_string(action)


class TrickView:
    """The facts of a partnership deal every game's view starts from: the seat, its team
    (seats alternate), the trick on the table (``(seat, card)`` from its leader), tricks
    won and lost, who plays next, every seat's hand size.

    Read from an observation (cards as its codes) by the constructor, or from an engine
    state by :meth:`read_state` (cards as codes too, or as card ids for a view that works
    on ids)."""

    seat: int
    team: int
    trick: list[tuple[int, Any]]
    won: int
    lost: int
    to_play: int
    hand_sizes: list[int]

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.seat = obs["seat"]
        self.team = self.seat % 2
        self.trick = [(t["seat"], t["card"]) for t in obs["trick"]]
        won: list[int] = list(obs["tricks_won"])
        self.won, self.lost = won[self.team], won[1 - self.team]
        self.to_play = obs["to_play"]
        self.hand_sizes = list(obs["hand_sizes"])

    @classmethod
    def blank(cls) -> Self:
        """An instance with no facts yet (``__init__`` not run), for a subclass's state
        door to fill: ``view = View.blank(); view.read_state(state, seat); ...``."""
        return object.__new__(cls)

    def read_state(self, state: PartnershipState, seat: int, codes: bool = True) -> int:
        """Fill the facts from ``state`` as ``seat``'s observation shows them (the same
        values as ``TrickView(state.observation(seat))``), the trick's cards as codes, or
        as card ids with ``codes=False``.  Returns ``seat``'s hand as a mask of card ids
        (hands are packed ``deck.size`` bits a seat)."""
        game = state._g
        n: int = game.players
        size: int = game.info.deck.size
        full = (1 << size) - 1
        h = state._h
        lead = state._lead
        trick = state._trick
        self.seat = seat
        self.team = team = seat & 1
        if codes:
            fmt = game.info.deck.format
            self.trick = [((lead + i) % n, fmt(c)) for i, c in enumerate(trick)]
        else:
            self.trick = [((lead + i) % n, c) for i, c in enumerate(trick)]
        tw = state._tw
        won = (tw & 15, tw >> 4)
        self.won, self.lost = won[team], won[1 - team]
        self.to_play = (lead + len(trick)) % n
        self.hand_sizes = [(h >> s * size & full).bit_count() for s in range(n)]
        return h >> seat * size & full

    def code(self, card: Any) -> str:
        """A card as its code (for explanations): the view's cards are codes here; a
        view that works on card ids formats them."""
        return str(card)


class _GameView(Protocol):
    """What :class:`PartnershipHeuristic` asks of a game's view."""

    hand: list[Any]  # cards as codes or as ids, as the view reads them
    trick: list[tuple[int, Any]]
    team: int

    def estimate(self) -> float: ...

    def choose_card(self, cards: list[Any]) -> list[Any]: ...

    def best_so_far(self) -> tuple[int, Any]: ...

    def takes(self, card: Any, best: Any) -> bool: ...

    def cheapest(self, card: Any, cards: Sequence[Any]) -> bool: ...

    def code(self, card: Any) -> str: ...


V = TypeVar("V", bound=_GameView)
C = TypeVar("C")  # a card: its code or its id


def near_best(
    scored: Mapping[C, tuple[float, float]], cards: Sequence[C], tie: float, decisive: bool
) -> tuple[float, list[C]]:
    """The best deal odds among ``cards`` (``scored[card]``: deal odds, chance of taking
    this trick) and the cards within ``tie`` of it; when the trick is ``decisive``, only
    those most likely to take it.  The game's rules of thumb choose among the rest."""
    top = max(v for v, _ in scored.values())
    near = [c for c in cards if scored[c][0] >= top - tie]
    if decisive:
        best_p = max(scored[c][1] for c in near)
        near = [c for c in near if scored[c][1] >= best_p - 1e-9]
    return top, near


class PartnershipHeuristic(SigningHeuristic, Generic[V]):
    """The frame of a partnership game's heuristic: :meth:`choose` asks the game's
    ``_decide`` for an action string among the allowed ones and refuses a seat with nothing
    to do (:attr:`NOTHING_TO_DO` says what the heuristic would have done)."""

    NOTHING_TO_DO: ClassVar[str] = ""

    def view(self, observation: Mapping[str, Any]) -> V:
        """The game's view of ``observation`` (signs read as this bot reads them)."""
        raise NotImplementedError

    def _decide(self, obs: Mapping[str, Any], allowed: Mapping[str, int]) -> str | None:
        raise NotImplementedError

    def _allowed(self, obs: Observation, legal: list[int]) -> dict[str, int]:
        """The legal actions the heuristic may take, string -> id."""
        return dict(zip(obs["legal_actions"], legal, strict=True))

    def choose(self, observation: Observation) -> int:
        """The action to take, from what this seat may know."""
        allowed = self._allowed(observation, legal_ids(self.game, observation))
        pick = self._decide(observation, allowed)
        if pick is None:
            self._nothing_to_do(observation.get("seat"), observation.get("to_act"))
        return allowed[pick]

    def _nothing_to_do(self, seat: Any, to_act: Any) -> NoReturn:
        """Refuse a decision asked of ``seat`` when the heuristic has nothing to do (both
        front doors: :meth:`choose` and a game's ``choose_state``)."""
        raise RulesError(
            f"seat {seat!r} has nothing to do now (to_act is {to_act!r}): {self.NOTHING_TO_DO}"
        )

    def estimate(self, observation: Observation) -> float:
        """The bot's chance of winning the deal in progress (``E`` of the docstring)."""
        return self.view(observation).estimate()

    def _play(self, view: V, cards: list[C]) -> C:
        """The card to play among ``cards``: the view's best, a seeded draw on a tie."""
        best: list[C] = view.choose_card(cards)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    @staticmethod
    def _signed(obs: Mapping[str, Any], seat: int) -> bool:
        """Whether ``seat`` has signed this deal (one sign a deal)."""
        return any(
            msg.get("type") == "signal" and msg.get("seat") == seat
            for msg in obs.get("messages", ())
        )

    def _explain_card(self, view: V, text: Any, cards: list[Any]) -> Hint:
        """Why the card ``text`` among the playable ``cards`` (the view's cards: codes or
        ids): an i18n key ``hint.<game>.<why>``; the lead is the game's own
        (:meth:`_explain_lead`)."""
        hint = f"hint.{self.game.name}."
        if text not in cards:
            return hint + "only_move", {}
        card = {"card": view.code(text)}
        if len(cards) == 1:
            return hint + "only_card", card
        if not view.trick:
            return self._explain_lead(view, text, cards)
        holder, best = view.best_so_far()
        if view.takes(text, best):
            return self._explain_take(view, text, cards, best)
        if holder % 2 == view.team:
            return hint + "partner_holds", card
        if any(view.takes(c, best) for c in cards):
            return hint + "not_worth", card
        return hint + "throw_low", card

    def _explain_lead(self, view: V, text: Any, cards: list[Any]) -> Hint:
        raise NotImplementedError

    def _explain_take(self, view: V, text: Any, cards: list[Any], best: Any) -> Hint:
        """``text`` takes the trick: with the cheapest card that does, or not."""
        winners = [c for c in cards if view.takes(c, best)]
        why = "take_cheapest" if view.cheapest(text, winners) else "take"
        return f"hint.{self.game.name}.{why}", {"card": view.code(text)}
