"""The exact solver for perfect-information endings (issue 6), for every game.

* ``solve`` agrees with brute force: a plain minimax written here (no pruning, no table,
  checked ``apply``) gives the same ``(outcome, margin)`` on many small positions reached
  by random play in every game and player count, for every side; and the action
  ``solve`` returns reaches that value.
* A hand-built two-player Briscola ending whose only winning lead is a worthless card.
* ``perfect_information`` never says True when two determinizations differ (random
  positions of every game and player count), and does say True where it must: two-player
  Briscola with the stock drawn, two-player Escoba with the deck dealt, open hands with
  one card left unseen.
* ``best_action``: None when it is not the seat's turn, when the observation hides
  something, or when the budget runs out; otherwise a legal action of the solved value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import mazo
from mazo.bots.ismcts import outcome_reward
from mazo.bots.solver import SolverBudgetExceeded, best_action, perfect_information, solve
from mazo.core.game import Game, State
from mazo.core.rng import Rng

Value = tuple[float, int]

# -- configurations and random positions ------------------------------------------------------


@dataclass(frozen=True)
class Config:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.game}-{self.players}p" + (f"-{opts}" if opts else "")

    def load(self) -> Game:
        return mazo.load_game(self.game, players=self.players, **self.options)


def in_hands(state: Any) -> int:
    """Cards still held (read from the public view: hand sizes)."""
    return sum(state.observation(None)["hand_sizes"])


def last_cards(n: int) -> Callable[[State], bool]:
    """A deal's last ``n`` cards or fewer, in play (not a Trionfetti ranking choice)."""
    return lambda s: 0 < in_hands(s) <= n


def stock(state: Any) -> int:
    return int(state.observation(None)["stock_size"])


def ending(n: int) -> Callable[[State], bool]:
    """Nothing left to draw and at most ``n`` cards in hands."""
    return lambda s: stock(s) == 0 and in_hands(s) <= n


def walk(
    game: Game, seed: int, steps: int = 5000, avoid: frozenset[int] = frozenset()
) -> Iterator[State]:
    """The states of a random match (the seat to act plays a random move, never talk, and
    none of ``avoid`` while it has another move)."""
    rng = Rng(seed)
    talk = game.info.message_actions
    state = game.new_match(seed=seed)
    for _ in range(steps):
        if state.match_over:
            return
        yield state
        moves = [a for a in state.legal_actions() if a not in talk]
        moves = [a for a in moves if a not in avoid] or moves
        state = state.apply(moves[rng.randbelow(len(moves))])


def positions(game: Game, small: Callable[[State], bool], count: int, seed: int = 0) -> list[State]:
    """``count`` states where ``small`` holds (at most three per match, mid-deal), from
    random matches."""
    out: list[State] = []
    pick = Rng(seed)
    while len(out) < count:
        taken = 0
        for state in walk(game, seed):
            if not state.hand_over and small(state) and pick.randbelow(3) == 0:
                out.append(state)
                taken += 1
                if taken == 3 or len(out) == count:
                    break
        seed += 1
    return out


# -- brute force ----------------------------------------------------------------------------


def deal_value(scores: list[int], games: list[int], end: State, side: int) -> Value:
    """The solver's value, written out: the deal's outcome (``outcome_reward``) and what
    ``side`` gained minus the best gain of another side: the deal's card points in
    Briscola (from its ``hand_end`` event), else games first, else scores."""
    if getattr(end.game, "name", None) == "briscola":
        ends = [e for e in end.events if e.get("type") == "hand_end"]
        gained = list(ends[-1]["points"])
    else:
        gained = [b - a for a, b in zip(games, end.games, strict=True)]
        if not any(gained):
            gained = [b - a for a, b in zip(scores, end.scores, strict=True)]
    others = max(g for s, g in enumerate(gained) if s != side)
    return outcome_reward(scores, games, end, side), gained[side] - others


def brute(state: State, side: int, scores: list[int], games: list[int]) -> Value:
    """Exhaustive minimax to the end of the deal: the seat to act picks the best value for
    ``side`` if it plays for ``side``, the worst otherwise (paranoid with 3+ sides)."""
    game = state.game
    talk = game.info.message_actions
    seat = state.to_act
    assert seat is not None
    values = []
    for move in state.legal_actions():
        if move in talk:
            continue
        child = state.apply(move, seat=seat)
        if child.hand_over or child.match_over:
            values.append(deal_value(scores, games, child, side))
        else:
            values.append(brute(child, side, scores, games))
    return max(values) if game.info.side_of[seat] == side else min(values)


def brute_root(state: State, side: int) -> Value:
    return brute(state, side, state.scores, state.games)


# -- solve agrees with brute force ------------------------------------------------------------

# (config, what counts as small, positions): the brute force has to stay quick.
SMALL: list[tuple[Config, Callable[[State], bool], int]] = [
    (Config("briscola", 2), lambda s: stock(s) == 0, 25),
    (Config("briscola", 3), ending(7), 15),
    (Config("briscola", 4), ending(8), 15),
    (Config("briscola", 6), ending(10), 8),
    (Config("escoba", 2), lambda s: stock(s) == 0, 25),
    (Config("escoba", 3), ending(7), 12),
    (Config("escoba", 4), ending(7), 12),
    (Config("escoba", 4, {"four_player_mode": "individual"}), ending(7), 8),
    (Config("envite", 4), last_cards(8), 20),
    (Config("envite", 6), last_cards(8), 10),
    (Config("trionfetti", 4), last_cards(8), 20),
]


@pytest.mark.parametrize(("config", "small", "count"), SMALL, ids=[c.id for c, _, _ in SMALL])
def test_solve_agrees_with_brute_force(
    config: Config, small: Callable[[State], bool], count: int
) -> None:
    game = config.load()
    found = positions(game, small, count, seed=100)
    for state in found:
        before = state.observation(None)
        for side in range(game.sides):
            expected = brute_root(state, side)
            move, value = solve(state, side)
            assert value == expected, (state, side)
            # The action is the seat to act's, never talk, and it reaches the value.
            assert move in state.legal_actions()
            assert move not in game.info.message_actions
            child = state.apply(move)
            if child.hand_over or child.match_over:
                reached = deal_value(state.scores, state.games, child, side)
            else:
                reached = brute(child, side, state.scores, state.games)
            assert reached == value, (state, side, move)
        assert state.observation(None) == before  # solving leaves the state alone


def test_the_solved_positions_are_varied() -> None:
    """The brute-force comparison is not won by constant answers: it sees deals won and
    lost by various margins, open bets in Envite and vegas in Trionfetti."""
    config, small, count = SMALL[4]  # escoba 2p
    found = positions(config.load(), small, count, seed=100)
    values = {solve(s, 0)[1] for s in found}
    assert {v[0] for v in values} == {0.0, 0.5, 1.0}
    assert len({v[1] for v in values}) >= 8
    config, small, count = SMALL[8]  # envite 4p
    found = positions(config.load(), small, count, seed=100)
    assert {s.observation(None)["phase"] for s in found} == {"play", "bet_pending"}
    assert {s.observation(None)["bet"]["level"] for s in found} == {0, 1, 3, 4}
    config, small, count = SMALL[10]  # trionfetti
    found = positions(config.load(), small, count, seed=100)
    assert {s.observation(None)["vega"]["used"] for s in found} == {False, True}


def test_a_match_that_is_over_has_no_move() -> None:
    game = mazo.load_game("briscola", players=2, match_wins_target=2)
    rng = Rng(4)
    state = game.new_match(seed=4)
    while not state.match_over:
        moves = state.legal_actions()
        state = state.apply(moves[rng.randbelow(len(moves))])
    winner = state.winner
    assert winner is not None
    assert solve(state, winner) == (None, (1.0, 0))
    assert solve(state, 1 - winner) == (None, (0.0, 0))


def test_a_root_that_ends_the_last_deal_starts_the_next() -> None:
    """``hand_over`` on the root belongs to the deal that just ended: the search plays
    the new deal.  A partner's sign clears the flag and changes nothing else that
    matters, so both roots have the same value."""
    game = mazo.load_game("envite", players=4)
    talk = game.info.message_actions
    checked = 0
    for state in walk(game, 3):
        if state.hand_over and state.observation(None)["phase"] == "play":
            seat = state.to_act
            sign = next(a for a in state.legal_actions(seat) if a in talk)
            quiet = state.apply(sign, seat=seat)
            assert not quiet.hand_over
            for side in (0, 1):
                move, value = solve(state, side)
                assert move is not None
                assert (move, value) == solve(quiet, side)
            checked += 1
            if checked == 3:
                break
    assert checked == 3


def test_the_node_budget() -> None:
    game = mazo.load_game("escoba", players=2)
    state = positions(game, lambda s: stock(s) == 0 and in_hands(s) == 6, 1, seed=7)[0]
    with pytest.raises(SolverBudgetExceeded):
        solve(state, 0, max_nodes=5)
    assert solve(state, 0, max_nodes=1_000_000) == solve(state, 0)


# -- a game made for the transposition table ----------------------------------------------------
#
# The card games' small endings rarely transpose (a trick's cards go to its winner's pile,
# in the key), so the table's bounds are tested on a game where they do: players take
# turns taking one number from a row, and the deal ends when the row is empty.  Taking
# 3 then 5 or 5 then 3 reaches the same position, and the scores (what each side took)
# spread the values.  A talk action that changes nothing is always legal: searching it
# would never end.

TALK = 99


class _PickInfo:
    def __init__(self, side_of: tuple[int, ...]) -> None:
        self.side_of = side_of
        self.message_actions = frozenset({TALK})


class _PickGame:
    def __init__(self, side_of: tuple[int, ...]) -> None:
        self.info = _PickInfo(side_of)
        self.sides = max(side_of) + 1


class PickState(State):
    """The row left, each side's take, the seat to act.  A value, like engine states."""

    __slots__ = ("_game", "_row", "_seat", "_taken")

    def __init__(self, game: _PickGame, row: tuple[int, ...], taken: tuple[int, ...], seat: int):
        self._game = game
        self._row = row
        self._taken = taken
        self._seat = seat

    @property
    def game(self) -> Any:
        return self._game

    @property
    def to_act(self) -> int | None:
        return self._seat

    def legal_actions(self, seat: int | None = None) -> list[int]:
        return sorted({*self._row, TALK})  # equal numbers are one move

    def apply(self, action: int | str, seat: int | None = None) -> PickState:
        assert seat in (None, self._seat) and action in self.legal_actions()
        if action == TALK:
            return self
        row = list(self._row)
        row.remove(int(action))
        side = self._game.info.side_of[self._seat]
        taken = tuple(t + int(action) * (s == side) for s, t in enumerate(self._taken))
        return PickState(
            self._game, tuple(row), taken, (self._seat + 1) % len(self._game.info.side_of)
        )

    @property
    def hand_over(self) -> bool:
        return not self._row

    @property
    def match_over(self) -> bool:
        return False

    @property
    def scores(self) -> list[int]:
        return list(self._taken)

    @property
    def games(self) -> list[int]:
        return [0] * len(self._taken)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PickState) and (self._row, self._taken, self._seat) == (
            other._row,
            other._taken,
            other._seat,
        )

    def __hash__(self) -> int:
        return hash((self._row, self._taken, self._seat))

    def __repr__(self) -> str:
        return f"PickState({self._row}, {self._taken}, {self._seat})"


@pytest.mark.parametrize("side_of", [(0, 1), (0, 1, 2), (0, 1, 0, 1)], ids=["2", "3", "2x2"])
def test_solve_agrees_with_brute_force_where_positions_transpose(side_of: tuple[int, ...]) -> None:
    game = _PickGame(side_of)
    rng = Rng(len(side_of))
    for _ in range(12):
        size = 7 if len(side_of) < 4 else 8
        row = tuple(sorted(rng.randbelow(9) for _ in range(size)))
        state = PickState(game, row, (0,) * game.sides, 0)
        for side in range(game.sides):
            move, value = solve(state, side)
            assert value == brute_root(state, side), (row, side)
            assert move is not None and move != TALK
            assert brute(state.apply(move), side, state.scores, state.games) == value


# -- a hand-built ending ---------------------------------------------------------------------

_POINTS = {"1": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
_ORDER = ("2", "4", "5", "6", "7", "J", "Q", "K", "3", "1")  # weakest first


def _points(card: str) -> int:
    return _POINTS.get(card[:-1], 0)


def _second_wins(led: str, second: str, trump: str) -> bool:
    """Two-player Briscola: the second card wins if it is higher in the suit led, or a
    trump on a plain lead."""
    if second[-1] == led[-1]:
        return _ORDER.index(second[:-1]) > _ORDER.index(led[:-1])
    return second[-1] == trump


def briscola_pack(
    tricks: list[tuple[str, str]], final: tuple[list[str], list[str]], indicator: str
) -> tuple[list[str], list[int]]:
    """The pack (dealer 1, so seat 0 leads trick 1) under which seat 0 and seat 1 play the
    17 ``tricks`` (seat 0's card, seat 1's card) and keep ``final``; and the card points
    each seat takes.

    A seat plays its cards in the order it receives them: it holds items t..t+2 of its
    receipt order at trick t, so the receipt order is its 17 plays then its final hand.
    The pack gives the first three items of each seat, the face-up card, then per trick
    the winner's next item and the loser's (the loser of trick 17 takes the face-up card).
    """
    items: list[list[str]] = [[t[0] for t in tricks] + final[0], [t[1] for t in tricks] + final[1]]
    leader, winners, points = 0, [], [0, 0]
    for cards in tricks:
        led, second = cards[leader], cards[1 - leader]
        winner = 1 - leader if _second_wins(led, second, indicator[-1]) else leader
        points[winner] += _points(cards[0]) + _points(cards[1])
        winners.append(winner)
        leader = winner
    pack = items[0][:3] + items[1][:3] + [indicator]
    for t, w in enumerate(winners):
        pack += [items[w][t + 3], items[1 - w][t + 3]]
    assert pack.pop() == indicator  # drawn last, by the loser of trick 17
    return pack, points


# Seat 0 has taken 51 card points, seat 1 34; stock empty, seat 0 to lead, trumps bastos.
ENDING_TRICKS = [
    ("6C", "2B"), ("7E", "2C"), ("7C", "3E"), ("7B", "QO"), ("6B", "4C"), ("5O", "KE"),
    ("QB", "4O"), ("JE", "5C"), ("5E", "6O"), ("KB", "6E"), ("4E", "JC"), ("1B", "KO"),
    ("JB", "1O"), ("QE", "2E"), ("7O", "3B"), ("3O", "KC"), ("5B", "JO"),
]  # fmt: skip
ENDING_HANDS = (["QC", "2O", "1C"], ["3C", "1E", "4B"])


def hand_built_ending() -> State:
    pack, points = briscola_pack(ENDING_TRICKS, ENDING_HANDS, "4B")
    assert points == [51, 34]
    game = mazo.load_game("briscola", players=2)
    state = game.new_match(deck=pack, dealer=1)
    for cards in ENDING_TRICKS:
        first = state.to_act
        assert first is not None
        state = state.apply(cards[first]).apply(cards[1 - first])
    assert state.to_act == 0
    assert state.observation(0)["stock_size"] == 0
    assert sorted(state.hand(0)) == sorted(ENDING_HANDS[0])  # type: ignore[attr-defined]
    assert sorted(state.hand(1)) == sorted(ENDING_HANDS[1])  # type: ignore[attr-defined]
    assert state.deal_points() == [51, 34]  # type: ignore[attr-defined]
    return state


def test_hand_built_briscola_ending() -> None:
    """Seat 0 needs 10 of the last 35 points.  Leading the worthless 2O wins: seat 1
    either gives 3C or 1E away (10 or more) or trumps with 4B, and then seat 0's 1C
    takes the 3C whatever seat 1 leads.  Leading 1C or QC loses: 4B or 3C takes it and
    seat 1 keeps the lead with cards seat 0 cannot beat (61-59 against 51 and less)."""
    state = hand_built_ending()
    game = state.game
    move, value = solve(state, 0)
    assert move == game.string_to_action("2O")
    assert value == (1.0, 2)  # seat 0 wins the deal 61 card points to 59
    assert solve(state, 1) == (move, (0.0, -2))  # the same search, seen from seat 1
    for card in ("1C", "QC"):
        assert solve(state.apply(card), 0)[1] == (0.0, -18)  # 51 to 69 at best
    # Played out by the solver for both seats, seat 0 takes the deal.
    while not state.hand_over:
        state = state.apply(solve(state, 0)[0])  # type: ignore[arg-type]
    assert state.scores == [1, 0]
    end = [e for e in state.events if e["type"] == "hand_end"][-1]
    assert end["points"] == [61, 59]


def test_a_briscola_deal_already_won_is_still_played_for_card_points() -> None:
    """Once every line wins the deal, the solver still takes the most card points: the
    value's margin is the deal's card points, not the one deal win every line gives."""
    game = mazo.load_game("briscola", players=2)
    seen = 0
    for state in positions(game, lambda s: stock(s) == 0, 60, seed=300):
        seat = state.to_act
        side = game.info.side_of[seat]
        outcomes = {}
        for move in state.legal_actions():
            child = state.apply(move)
            outcomes[move] = (
                deal_value(state.scores, state.games, child, side)
                if child.hand_over
                else brute(child, side, state.scores, state.games)
            )
        if len({o[0] for o in outcomes.values()}) == 1 and len(set(outcomes.values())) > 1:
            move, value = solve(state, side)
            assert value == max(outcomes.values()) == outcomes[move]
            seen += 1
    assert seen >= 3


def test_hand_built_ending_through_the_observation() -> None:
    state = hand_built_ending()
    game = state.game
    obs = state.observation(0)
    assert perfect_information(game, obs)
    assert perfect_information(game, state.observation(1))
    assert best_action(game, obs, Rng(1)) == game.string_to_action("2O")
    assert best_action(game, state.observation(1), Rng(1)) is None  # not seat 1's turn


# -- perfect information ------------------------------------------------------------------------

PROPERTY: list[Config] = [
    Config("briscola", 2),
    Config("briscola", 2, {"open_variant": "open_hands"}),
    Config("briscola", 2, {"open_variant": "scoperta"}),
    Config("briscola", 3),
    Config("briscola", 4),
    Config("briscola", 4, {"partners_show_hands_before_first_trick": True}),
    Config("briscola", 6),
    Config("escoba", 2),
    Config("escoba", 3),
    Config("escoba", 4),
    Config("envite", 4),
    Config("envite", 4, {"tumbo_show_captain": True}),
    Config("envite", 8),
    Config("trionfetti", 4),
]


def observations(game: Game, seeds: range, every: int) -> Iterator[tuple[State, int]]:
    """(state, seat) pairs from random matches: every ``every``-th state with all of its
    seats, and every state of a deal's last cards (where perfect information lives).
    In Trionfetti every other match calls no vega: a refused one leaves cards unseen
    for the rest of the smazzata, and random play calls and refuses it all the time."""
    vega = frozenset({game.string_to_action("vega")}) if game.name == "trionfetti" else None
    for seed in seeds:
        avoid = vega if vega is not None and seed % 2 else frozenset()
        for i, state in enumerate(walk(game, seed, steps=600, avoid=avoid)):
            if i % every == 0 or in_hands(state) <= game.players + 1:
                for seat in range(game.players):
                    yield state, seat


@pytest.mark.parametrize("config", PROPERTY, ids=[c.id for c in PROPERTY])
def test_perfect_information_only_when_one_state_fits(config: Config) -> None:
    game = config.load()
    perfect = 0
    for state, seat in observations(game, range(6), every=7):
        obs = state.observation(seat)
        if not perfect_information(game, obs):
            continue
        perfect += 1
        first = game.determinize(obs, Rng(0))
        for k in range(1, 5):
            assert game.determinize(obs, Rng(k)) == first, (config.id, state, seat)
        # The one state that fits is the true one, as far as the deal's end goes.
        if state.to_act is not None and not state.hand_over and in_hands(state) <= 8:
            side = game.info.side_of[state.to_act]
            assert solve(first, side)[1] == solve(state, side)[1]
    if config.game != "trionfetti":  # rarer: see the next test
        assert perfect > 0, f"{config.id}: no perfect-information position was reached"


def test_perfect_information_in_trionfetti_deal_four() -> None:
    """Trionfetti is perfect only in deal 4, once the leftover is shown and every earlier
    card was seen played: the walk must reach such positions, and they must be unique."""
    game = mazo.load_game("trionfetti")
    found = 0
    for state, seat in observations(game, range(1, 30, 2), every=1000):  # no vega called
        obs = state.observation(seat)
        if perfect_information(game, obs):
            assert obs["deal"] == 4 and obs["leftover_public"]
            first = game.determinize(obs, Rng(0))
            assert all(game.determinize(obs, Rng(k)) == first for k in (1, 2, 3))
            found += 1
    assert found > 0


@pytest.mark.parametrize("name", ["briscola", "escoba"])
def test_two_players_with_the_stock_gone_is_perfect(name: str) -> None:
    """Two players, nothing left to draw: each observation is perfect information, for
    both seats, at every state of the deal's last round; before that, never."""
    game = mazo.load_game(name, players=2)
    for seed in range(4):
        for state in walk(game, seed, steps=300):
            for seat in (0, 1):
                obs = state.observation(seat)
                assert perfect_information(game, obs) == (obs["stock_size"] == 0), (state, seat)


def test_open_hands_with_one_card_unseen_is_perfect() -> None:
    """Open hands leave the stock's order hidden; with one hidden card in the stock and
    the face-up trump below it, that order is forced too."""
    game = mazo.load_game("briscola", players=2, open_variant="open_hands")
    for state in walk(game, 3, steps=300):
        obs = state.observation(state.to_act)
        assert perfect_information(game, obs) == (obs["stock_size"] <= 2)


def test_perfect_information_reads_only_known_games_and_sound_observations() -> None:
    game = mazo.load_game("briscola", players=2)
    state = hand_built_ending()
    obs = state.observation(0)
    assert perfect_information(game, obs)
    assert not perfect_information(mazo.load_game("briscola", players=4), obs)
    assert not perfect_information(game, {**obs, "game": "escoba"})
    assert not perfect_information(game, {k: v for k, v in obs.items() if k != "hand_sizes"})
    assert not perfect_information(game, {**obs, "hand_sizes": [2, 3]})  # a card too few

    class Other(Game):
        name = "other"

    other = Other.__new__(Other)
    other.players = 2
    assert not perfect_information(other, {**obs, "game": "other"})


# -- best_action ------------------------------------------------------------------------------


def test_best_action() -> None:
    game = mazo.load_game("escoba", players=2)
    found = positions(game, lambda s: stock(s) == 0, 10, seed=200)
    for state in found:
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        action = best_action(game, obs, Rng(seat))
        assert action is not None
        assert action in state.legal_actions(seat)
        side = game.info.side_of[seat]
        child = state.apply(action)
        if child.hand_over:
            reached = deal_value(state.scores, state.games, child, side)
        else:
            reached = brute(child, side, state.scores, state.games)
        assert reached == brute_root(state, side)
        assert best_action(game, state.observation(1 - seat), Rng(0)) is None  # not its turn
    # A spectator never acts; hidden cards give no answer.
    assert best_action(game, found[0].observation(None), Rng(0)) is None
    early = next(iter(walk(game, 1)))
    assert best_action(game, early.observation(early.to_act), Rng(0)) is None
    # Out of budget: no answer.
    big = positions(game, lambda s: stock(s) == 0 and in_hands(s) == 6, 1, seed=7)[0]
    assert best_action(game, big.observation(big.to_act), Rng(0), max_nodes=3) is None


# -- engine findings --------------------------------------------------------------------------


def test_trionfetti_determinize_keeps_set_aside_cards_out_of_play() -> None:
    """A deal's unplayed cards are set aside with it (deals 2-4 come from the rest of the
    pack), and partners see each other's: no hand may hold them in a later deal."""
    game = mazo.load_game("trionfetti")
    checked = 0
    for state in walk(game, 0, steps=400):
        for seat in range(4):
            obs = state.observation(seat)
            if obs["phase"] != "play":
                continue
            log = obs["smazzata_log"]
            current = max(i for i, e in enumerate(log) if e["type"] == "deal")
            aside = {c for e in log[:current] if e["type"] == "share" for c in e["cards"]}
            if not aside:
                continue
            checked += 1
            held = {c for s in range(4) for c in state.hand(s)}  # type: ignore[attr-defined]
            assert not held & aside  # the premise: the true state holds none of them
            for k in range(3):
                det = game.determinize(obs, Rng(k))
                held = {c for s in range(4) for c in det.hand(s)}  # type: ignore[attr-defined]
                assert not held & aside, (seat, sorted(held & aside))
    assert checked > 0
