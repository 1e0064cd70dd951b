"""``State.stop_at_deal_end()``: a line that ends with the deal in progress.

A search's rollouts need no next deal.  A stopped line must score the deal exactly as
the normal line does (``scores``, ``games``, ``finished_deal_points``, ``match_over``,
``winner``), then end: no seat to act, no legal action, ``apply`` refused with
:class:`InvalidActionError`, no card dealt.  The random lines below walk the normal line
and a stopped twin side by side, starting the twin at a random point of every deal, so
every deal of a match is checked (the one that ends the match too).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mazo
from mazo import IllegalActionError, InvalidActionError
from mazo.core.game import State

# (game, players, options): every game, several player counts, short matches (so the
# deal that ends the match comes often) and options that change how a deal ends.
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("briscola", 2, {"match_wins_target": 2}),
    ("briscola", 3, {"match_wins_target": 2, "three_player_tie_mode": "drop_out"}),
    ("briscola", 4, {"signals_enabled": True, "trump_two_exchange": True}),
    ("briscola", 6, {"match_wins_target": 2}),
    ("escoba", 2, {"target_score": 15}),
    ("escoba", 3, {}),
    ("escoba", 4, {"four_player_mode": "individual", "target_score": 15}),
    ("envite", 4, {"chicos_to_win": 1}),
    ("envite", 6, {"renuncio_mode": "penalize", "chicos_to_win": 1}),
    ("envite", 8, {"chicos_to_win": 1}),
    ("trionfetti", 4, {"points_to_win_game": 6, "games_to_win_match": 1}),
    ("trionfetti", 4, {"points_to_win_game": 8, "partner_sharing": "opt_in"}),
]
IDS = [f"{g}-{n}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, n, o in CONFIGS]
LINE_ENDS = "the search line ends here"


def _choose(state: State, rng: random.Random) -> int:
    """A random legal action of ``to_act``; talk (free messages) one time in eight."""
    legal = state.legal_actions()
    talk = state.game.info.message_actions
    moves = [a for a in legal if a not in talk]
    if moves and (len(moves) == len(legal) or rng.random() < 0.875):
        return rng.choice(moves)
    return rng.choice(legal)


def _step(state: State, action: int, how: int) -> State:
    """``action`` through ``apply`` (id or string) or ``apply_unchecked``."""
    if how == 0:
        return state.apply_unchecked(action)
    if how == 1:
        return state.apply(state.action_to_string(action))
    return state.apply(action)


def assert_line_end(stopped: State, normal: State, before: State) -> None:
    """``stopped`` ends a stopped line where ``normal`` (the same move on the normal
    line) ends the deal; ``before`` is the position that move was made from."""
    assert stopped.hand_over and normal.hand_over
    assert stopped.scores == normal.scores
    assert stopped.games == normal.games
    assert stopped.finished_deal_points() == normal.finished_deal_points()
    assert stopped.match_over == normal.match_over
    assert stopped.winner == normal.winner
    assert stopped.to_act is None
    assert stopped.legal_actions() == []
    players = stopped.game.players
    assert all(stopped.legal_actions(seat) == [] for seat in range(players))
    # The log is the normal line's up to the deal's end, and nothing is dealt after it.
    events = stopped.events
    assert events == normal.events[: len(events)]
    ends = [i for i, e in enumerate(events) if e["type"] == "hand_end"]
    assert ends, "the stopped line's log has no hand_end"
    assert all(e["type"] != "deal" for e in events[ends[-1] :])
    assert stopped.deal_number == before.deal_number  # type: ignore[attr-defined]
    for seat in range(players):
        # hands only lose cards at the deal's end: none is dealt
        assert set(stopped.hand(seat)) <= set(before.hand(seat))  # type: ignore[attr-defined]
    if normal.match_over:
        assert stopped == normal and events == normal.events
    else:
        assert normal.to_act is not None
        for action in {0, *normal.legal_actions()}:
            with pytest.raises(InvalidActionError, match=LINE_ENDS):
                stopped.apply(action)
            with pytest.raises(InvalidActionError, match=LINE_ENDS):
                stopped.apply(stopped.action_to_string(action))
        assert stopped.stop_at_deal_end() is stopped


def walk(game_name: str, players: int, options: dict[str, Any], seed: int) -> int:
    """Play one random match on the normal line; in every deal, from a random point, a
    stopped twin follows the same moves to the deal's end.  The deals checked."""
    rng = random.Random(seed)
    game = mazo.load_game(game_name, players=players, **options)
    state = game.new_match(seed=seed)
    stopped: State | None = None
    checked = 0
    for _ in range(20_000):
        if state.to_act is None:
            break
        if stopped is None and rng.random() < 0.2:
            stopped = state.stop_at_deal_end()
            assert stopped == state and stopped is not state
            assert state.game is game and not game.stops_at_deal_end  # the original is untouched
        action = _choose(state, rng)
        before = state
        state = state.apply(action)
        if stopped is not None:
            stopped = _step(stopped, action, rng.randrange(3))
            assert stopped.game.stops_at_deal_end  # the mark survives every apply
            if state.hand_over:
                assert_line_end(stopped, state, before)
                stopped = None
                checked += 1
            else:
                assert stopped == state
                assert stopped.to_act == state.to_act
                assert stopped.legal_actions() == state.legal_actions()
    assert state.to_act is None, "the match did not end"
    return checked


@pytest.mark.parametrize(("game_name", "players", "options"), CONFIGS, ids=IDS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_stopped_line_scores_the_deal_like_the_normal_line(
    game_name: str, players: int, options: dict[str, Any], seed: int
) -> None:
    walk(game_name, players, options, seed)


@pytest.mark.parametrize(("game_name", "players", "options"), CONFIGS, ids=IDS)
def test_every_deal_of_some_matches_is_checked(
    game_name: str, players: int, options: dict[str, Any]
) -> None:
    # Fixed seeds, so a run always checks deals (the match-ending one among them).
    assert sum(walk(game_name, players, options, seed) for seed in range(3)) >= 3


# -- scenarios ------------------------------------------------------------------------------


def _play_out_deal(state: State) -> tuple[State, State, State]:
    """From ``state``, the first action of each turn until the deal ends, on the normal
    and the stopped line: (normal end, stopped end, the position before the last move)."""
    stopped = state.stop_at_deal_end()
    before = state
    while True:
        action = state.legal_actions()[0]
        before = state
        state = state.apply(action)
        stopped = stopped.apply(action)
        if state.hand_over:
            return state, stopped, before


def test_briscola_two_players_stops_after_the_last_trick() -> None:
    deck = mazo.load_game("briscola", players=2).new_match(seed=5).record()["deals"][0]["deck"]
    game = mazo.load_game("briscola", players=2)
    start = game.new_match(deck=deck, dealer=1)
    normal, stopped, before = _play_out_deal(start)
    assert_line_end(stopped, normal, before)
    # 20 cards each way: the deal's 20 tricks are in the log, then its end
    assert [e["type"] for e in stopped.events].count("trick") == 20
    assert stopped.events[-1]["type"] == "hand_end"
    assert normal.events[-1]["type"] == "deal"  # the normal line dealt the next deal
    assert sum(stopped.finished_deal_points() or []) == 120
    assert stopped.deal_number == 1 and normal.deal_number == 2  # type: ignore[attr-defined]
    assert all(stopped.hand(s) == [] for s in range(2))  # type: ignore[attr-defined]
    assert not stopped.match_over and stopped.winner is None
    with pytest.raises(InvalidActionError, match=LINE_ENDS):
        stopped.apply(stopped.legal_actions() or 0)
    with pytest.raises(InvalidActionError, match=LINE_ENDS):
        stopped.apply("1O", seat=0)


@pytest.mark.parametrize(
    ("game_name", "players", "setup"),
    [
        ("briscola", 2, {"scores": [2, 2]}),
        ("escoba", 2, {"scores": [20, 20]}),
        ("envite", 4, {"scores": [11, 10], "games": [1, 1]}),
        ("trionfetti", 4, {"scores": [19, 19], "games": [2, 2]}),
    ],
)
def test_a_deal_that_ends_the_match_ends_it_on_the_stopped_line_too(
    game_name: str, players: int, setup: dict[str, Any]
) -> None:
    game = mazo.load_game(game_name, players=players)
    for seed in range(40):
        normal, stopped, before = _play_out_deal(game.new_match(seed=seed, setup=setup))
        assert_line_end(stopped, normal, before)
        if normal.match_over:
            assert stopped.match_over and stopped.winner == normal.winner
            assert stopped.events[-1]["type"] == "match_end"
            with pytest.raises(IllegalActionError, match="the match is over"):
                stopped.apply(0)
            return
    pytest.fail("no deal ended the match")


def test_envite_deal_ended_by_a_fold_stops_too() -> None:
    game = mazo.load_game("envite", players=4)
    state = game.new_match(seed=3)
    stopped = state.stop_at_deal_end()
    for s in (state, stopped):
        assert "envio" in [s.action_to_string(a) for a in s.legal_actions()]
    state, stopped = state.apply("envio"), stopped.apply("envio")
    normal, ended = state.apply("fold"), stopped.apply("fold")
    assert_line_end(ended, normal, state)
    assert ended.scores == [2, 0] or ended.scores == [0, 2]


def test_trionfetti_stops_before_the_next_deal_of_the_smazzata() -> None:
    game = mazo.load_game("trionfetti")
    state = game.new_match(seed=11)
    assert state.phase == "ranking"  # type: ignore[attr-defined]
    normal, stopped, before = _play_out_deal(state)
    assert_line_end(stopped, normal, before)
    assert normal.deal_in_smazzata == 2  # type: ignore[attr-defined]
    assert stopped.deal_in_smazzata == 1  # type: ignore[attr-defined]


def test_the_twin_game_is_made_once_and_the_mark_is_kept() -> None:
    game = mazo.load_game("escoba")
    twin = game.stopping()
    assert twin is game.stopping() and twin.stopping() is twin
    assert twin.stops_at_deal_end and not game.stops_at_deal_end
    assert twin.info == game.info and twin.options == game.options
    state = game.new_match(seed=1)
    stopped = state.stop_at_deal_end()
    assert stopped.game is twin and state.game is game
    assert stopped.stop_at_deal_end() is stopped
    assert copy.deepcopy(stopped).game is twin
    assert stopped == state and hash(stopped) == hash(state)
    assert stopped.observation(0) == state.observation(0)


def test_a_state_without_the_stop_returns_itself() -> None:
    class Plain(State):
        __slots__ = ()

    plain = Plain()
    assert plain.stop_at_deal_end() is plain
