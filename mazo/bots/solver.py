"""An exact solver for the ends of deals where nothing is hidden any more.

Sampling (ISMCTS) is how a bot copes with hidden cards; once the observation pins the
whole state down (two-player Briscola with the stock drawn, two-player Escoba with the
deck dealt, any game's last cards when every unplayed card's place is forced) there is
nothing left to sample, and searching the one true state exactly is both stronger and
cheaper than thousands of rollouts.  This module answers two questions:

* :func:`perfect_information`: does this observation fit exactly one state?  Per game,
  it counts where the cards the seat has not seen may go, mirroring that game's
  ``determinize``; it says True only when that placement is forced, so the state
  ``determinize`` builds is the only one there is.
* :func:`solve`: alpha-beta search of a state to the end of the deal in progress, with a
  transposition table and move ordering, valuing the deal's end for one side as
  ``(outcome, margin)`` (see :data:`Value`).

:func:`best_action` glues them together for a bot: the solved action when the
observation is perfect information and the seat is to act, else None (the caller then
samples).

>>> import mazo
>>> game = mazo.load_game("briscola", players=2)
>>> state = game.new_match(seed=3)
>>> perfect_information(game, state.observation(state.to_act))  # a full stock is hidden
False
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from mazo.bots.heuristic import hook
from mazo.bots.rewards import outcome_reward
from mazo.core.game import Game, MatchState, State
from mazo.core.rng import Rng

__all__ = ["SolverBudgetExceeded", "Value", "best_action", "perfect_information", "solve"]

Value = tuple[float, int]
"""A deal's end for a side: ``(outcome, margin)``.  ``outcome`` is
:func:`mazo.bots.rewards.outcome_reward` (1 the side gained most, 0.5 shared, 0 not;
a game or chico before the score, the match's winner before both); ``margin`` is what
the side gained minus the best gain of any other side: in the deal's own points where
the game counts them finer than its score (Briscola's card points), else in games or
chicos if any were gained, else in the score.  Tuples compare outcome first, so the
solver wins the deal first and only then wins it by as much as it can."""


class SolverBudgetExceeded(Exception):
    """:func:`solve` visited more than ``max_nodes`` positions.

    A bot's move has a time budget: the caller catches this and falls back to sampling
    rather than wait for an exact answer."""


# -- perfect information ------------------------------------------------------------------
#
# Each checker mirrors its game's ``determinize``: the cards the seat has not seen (the
# pool) are shared out among places.  A hand is an unordered place (its cards are a
# set); a stock is ordered, so each of its hidden cards is a place of its own, and
# Envite's undealt rest is one unordered place (determinize keeps it sorted).  The
# placement is forced exactly when at most one place takes hidden cards: then every
# determinization is the same state.  Anything a checker cannot read gives False.


def perfect_information(game: Game, observation: Mapping[str, Any]) -> bool:
    """True only if exactly one state fits ``observation``: every card the seat has not
    seen must lie in one place (a single other hand, or a single stock position).

    This is decided per game from the observation's JSON by the hook
    ``perfect_information`` of the game's heuristic file (:mod:`mazo.bots.heuristic`),
    following what that game's ``determinize`` does with the unseen cards, so when it
    says True every determinization is the same state (the search then needs no
    sampling).  What never changes the game is not counted: partner talk that this seat
    did not see.  A game without the hook, or an observation from another game or
    player count, gives False.
    """
    checker: Callable[[Game, Mapping[str, Any]], bool] | None = hook(game, "perfect_information")
    if checker is None:
        return False
    try:
        if observation.get("game") != game.name or observation.get("players") != game.players:
            return False
        return checker(game, observation)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        return False


# -- the search -----------------------------------------------------------------------------

# Values are searched as ints: outcome (0, 1 or 2 halves) above, margin below, so that
# int order is (outcome, margin) order and comparisons stay cheap.
_SHIFT = 1 << 62
_HALF = _SHIFT // 2 - 1
_LOW = -4 * _SHIFT
_HIGH = 4 * _SHIFT


def _encode(outcome: float, margin: int) -> int:
    return round(outcome * 2) * _SHIFT + max(-_HALF, min(_HALF, margin))


def _decode(value: int) -> Value:
    halves, margin = divmod(value + _HALF, _SHIFT)
    return halves / 2, margin - _HALF


def _margin(scores: list[int], games: list[int], end: State, side: int) -> int:
    """What ``side`` gained minus the best gain of another side: in the deal's own
    points where the game counts finer than its scores (Briscola's card points: its
    scores count deals won, so a margin in scores would be +-1 whatever the cards, and a
    deal already won or lost would be played with no care for the card points, which a
    player and a per-deal tally both count), else games first, as ``outcome_reward``
    counts them, then the score.  The outcome comes first in a :data:`Value` anyway."""
    fine = end.finished_deal_points()
    if fine is not None:
        gained = fine
    else:
        gained = [b - a for a, b in zip(games, end.games, strict=True)]
        if not any(gained):
            gained = [b - a for a, b in zip(scores, end.scores, strict=True)]
    return gained[side] - max(g for i, g in enumerate(gained) if i != side)


def solve(state: State, side: int, *, max_nodes: int | None = None) -> tuple[int | None, Value]:
    """The best action for the seat to act and the exact :data:`Value` for ``side``.

    The search runs to the end of the deal in progress (a state with ``hand_over`` or
    ``match_over``; a root that is itself ``hand_over`` starts the new deal), by
    alpha-beta with a transposition table keyed on the state and move ordering (the
    table's best move, then the history heuristic).  The seat to act maximizes when it
    plays for ``side`` and minimizes otherwise: with more than two sides this is the
    *paranoid* assumption (every other side plays against ``side``): exact for two
    sides, and otherwise what ``side`` can make sure of whatever the others do.

    Only the actions of ``state.to_act`` are searched, without partner talk
    (``game.info.message_actions``, which never changes the game).  Actions other seats
    may take out of turn (an Envite envío called by someone not to act, a partner's
    answer) are not: the solver assumes they are not taken, so a value it gives is exact
    for the game where only the seat to act acts.

    The action is None when the match is over (nothing to do).  More than ``max_nodes``
    positions raise :class:`SolverBudgetExceeded`.
    """

    game = state.game
    talk = game.info.message_actions
    side_of = game.info.side_of
    scores0, games0 = state.scores, state.games
    limit = max_nodes if max_nodes is not None else -1
    nodes = 0
    table: dict[Hashable, tuple[int, int, int | None]] = {}
    history: dict[int, int] = {}

    def leaf(end: State) -> int:
        return _encode(
            outcome_reward(scores0, games0, end, side), _margin(scores0, games0, end, side)
        )

    def moves_of(node: State, seat: int) -> list[int]:
        legal = node.legal_actions()
        moves = [a for a in legal if a not in talk] if talk else legal
        if not moves:
            raise ValueError(f"seat {seat} has no move but talk in {node!r}")
        return moves

    def search(node: State, alpha: int, beta: int, depth: int) -> tuple[int, int | None]:
        nonlocal nodes
        key: Hashable = node._key() if isinstance(node, MatchState) else node
        entry = table.get(key)
        hint: int | None = None
        if entry is not None:
            lo, hi, hint = entry
            if lo >= beta or lo == hi:
                return lo, hint
            if hi <= alpha:
                return hi, hint
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        else:
            lo, hi = _LOW, _HIGH
        seat = node.to_act
        assert seat is not None
        moves = moves_of(node, seat)
        if len(moves) > 1:
            # Moves that caused cut-offs elsewhere (the same card, the same call) first,
            # and this position's best move from an earlier visit before all.
            moves.sort(key=lambda a: -history.get(a, 0))
            if hint is not None and hint in moves:
                moves.remove(hint)
                moves.insert(0, hint)
        maximize = side_of[seat] == side
        best = _LOW if maximize else _HIGH
        best_move: int | None = None
        a0, b0 = alpha, beta
        for move in moves:
            nodes += 1
            if nodes > limit >= 0:
                raise SolverBudgetExceeded(f"more than {limit} positions")
            child = node.apply_unchecked(move)
            if child.hand_over or child.match_over:
                value = leaf(child)
            else:
                value = search(child, alpha, beta, depth + 1)[0]
            if maximize:
                if value > best:
                    best, best_move = value, move
                    if value > alpha:
                        alpha = value
            elif value < best:
                best, best_move = value, move
                if value < beta:
                    beta = value
            if alpha >= beta:
                # A cut near the root saves more, so it weighs more.
                history[move] = history.get(move, 0) + (64 >> min(depth, 6)) + 1
                break
        # Fail-soft: at or below the window the true value is at most ``best``, at or
        # above it at least ``best``, inside it exactly ``best``.
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        table[key] = (lo, hi, best_move)
        return best, best_move

    if state.to_act is None or state.match_over:
        # Nothing is left to gain: the outcome as it stands, no margin.
        return None, (outcome_reward(scores0, games0, state, side), 0)
    value, move = search(state, _LOW, _HIGH, 0)
    return move, _decode(value)


def best_action(
    game: Game, observation: Mapping[str, Any], rng: Rng, *, max_nodes: int = 200_000
) -> int | None:
    """The solved action for the observing seat, or None to say "sample instead".

    None when the observation is not perfect information, when it is not this seat's
    turn, or when the search needs more than ``max_nodes`` positions.  The one state
    that fits the observation is rebuilt with ``game.determinize`` (``rng`` only feeds
    what the state draws for later deals) and solved for the seat's side.
    """
    seat = observation.get("seat")
    if seat is None or observation.get("to_act") != seat:
        return None
    if not perfect_information(game, observation):
        return None
    state = game.determinize(observation, rng)
    if state.to_act != seat:
        return None
    try:
        action, _value = solve(state, game.info.side_of[seat], max_nodes=max_nodes)
    except SolverBudgetExceeded:
        return None
    legal = {game.string_to_action(a) for a in observation.get("legal_actions", [])}
    return action if action in legal else None
