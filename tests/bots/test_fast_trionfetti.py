"""Trionfetti's fast heuristic door (issue 18): the view read from the engine's state is the
view read from the observation, for every seat (the seat to act and the others: a vega's
answer, a partner watching), under every rules option that changes what a seat sees, with
and without reading signs; the module memos (by ranking, by deal log node, hold rows, race
seats) change no choice.  ``tests/bots/test_fast.py`` checks the choices themselves.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import mazo
from mazo.bots.heuristic import trionfetti as T
from mazo.core.errors import RulesError
from mazo.core.rng import derive_seed

CONFIGS: list[dict[str, Any]] = [
    {},
    {"partner_sharing": "opt_in"},
    {"dealer_peek_deal4": "opt_in", "bottom_card_shown": "on_request"},
    {"history_visible": False},
    {"messages": False, "initial_ranking": "bomba"},
    {
        "partner_sharing": "opt_in",
        "dealer_peek_deal4": "opt_in",
        "bottom_card_shown": "on_request",
        "history_visible": False,
        "initial_ranking": "manco_e_cavalli",
        "points_to_win_game": 5,
    },
]

FIELDS = (
    "seat",
    "team",
    "trick",
    "won",
    "lost",
    "to_play",
    "hand_sizes",
    "strength",
    "hand",
    "partner_known",
    "n_unseen",
    "hidden",
    "partner_open",
    "unseen_at",
    "seats",
    "signed",
)


def _facts(view: Any) -> dict[str, Any]:
    return {name: getattr(view, name) for name in FIELDS}


def _walk(options: dict[str, Any], steps: int, seed: int) -> list[Any]:
    """States along matches where the seat to act plays the heuristic (signing, so that
    signs are there to read) or, a third of the time, a random move (messages too)."""
    game = mazo.load_game("trionfetti", **options)
    rng = random.Random(seed)
    out: list[Any] = []
    match = 0
    while len(out) < steps:
        bot = T.TrionfettiHeuristic(game, seed=match, signals=True)
        state = game.new_match(seed=derive_seed(seed, match))
        match += 1
        for _ in range(150):
            if state.match_over or len(out) >= steps:
                break
            out.append(state)
            legal = state.legal_actions()
            try:
                action = bot.choose_state(state)
            except RulesError:
                action = rng.choice(legal)
            if rng.random() < 0.35:
                action = rng.choice(legal)
            state = state.apply(action)
    return out


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(o) or "default")
def test_the_state_view_is_the_observation_view_for_every_seat(options: dict[str, Any]) -> None:
    seen = 0
    for state in _walk(options, 150, derive_seed(18, "views", len(options))):
        if state.phase not in ("play", "vega_pending"):
            continue
        for seat in range(4):
            obs = state.observation(seat)
            for signs in (False, True):
                from_obs = T._View(obs, signs)
                from_state = T._View.of_state(state, seat, signs)
                assert _facts(from_state) == _facts(from_obs), (seat, signs, state)
                assert from_state.estimate() == from_obs.estimate(), (seat, signs, state)
                seen += 1
    assert seen > 1000


def _clear_memos() -> None:
    for memo in (T._RANKINGS, T._BY_OBJECT, T._BY_JSON, T._HOLD_ROWS, T._PREPARED, T._EARLIER):
        memo.clear()


def test_memos_change_no_choice() -> None:
    """The same choices with every module memo emptied before each decision."""
    game = mazo.load_game("trionfetti")
    states = _walk({}, 300, 7)
    warm = T.TrionfettiHeuristic(game, seed=5)
    cold = T.TrionfettiHeuristic(game, seed=5)
    for state in states:
        if state.to_act is None:
            continue
        try:
            expected: int | str = warm.choose_state(state)
        except RulesError:
            expected = "refused"
        _clear_memos()
        try:
            got: int | str = cold.choose_state(state)
        except RulesError:
            got = "refused"
        assert got == expected, state
        assert cold.rng.getstate() == warm.rng.getstate()


def test_choose_state_refuses_another_game_and_an_ended_match() -> None:
    game = mazo.load_game("trionfetti", games_to_win_match=1, points_to_win_game=1)
    bot = T.TrionfettiHeuristic(game, seed=1)
    with pytest.raises(RulesError, match="this bot plays trionfetti, not briscola"):
        bot.choose_state(mazo.load_game("briscola").new_match(seed=1))
    state = game.new_match(seed=3)
    while not state.match_over:
        state = state.apply(bot.choose_state(state))
    with pytest.raises(RulesError, match="nothing to do"):
        bot.choose_state(state)
