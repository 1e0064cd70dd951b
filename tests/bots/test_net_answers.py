"""Trionfetti's vega answered by the net's value head (ISMCTS ``answers=net``, issue 18;
an option, not the preset): the rule, that the search plays it, and the option's checks.
The nets here are stand-ins that say a fixed chance; what the shipped net's answers are
worth is measured in docs/nets.md, not decided by a test."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("numpy")

import mazo
from mazo.bots.heuristic.trionfetti import ANSWER_SAMPLES, net_answer
from mazo.bots.ismcts import ISMCTSBot
from mazo.core.errors import RulesError
from mazo.core.rng import Rng


class _Chance:
    """A stand-in net whose value head says ``win`` of every view, and records them."""

    def __init__(self, win: float) -> None:
        self.win = win
        self.seen: list[dict[str, Any]] = []

    def value(self, observation: dict[str, Any]) -> tuple[float, float]:
        self.seen.append(observation)
        return 2 * self.win - 1, self.win


def _vega_pending(game: Any) -> Any:
    """The first state of normal self-play (seeds from 1) where a vega waits for its
    answer."""
    for seed in range(1, 200):
        bots = [mazo.make_bot("normal", game, seed=seed + s) for s in range(4)]
        state = game.new_match(seed=seed)
        for _ in range(60):
            if state.match_over:
                break
            seat = state.to_act
            if "accept" in state.observation(seat)["legal_actions"]:
                return state
            state = state.apply(bots[seat].choose(state.observation(seat)), seat=seat)
    raise AssertionError("no vega in 200 matches")


def test_the_answer_is_the_one_worth_more_points_on_the_nets_reading() -> None:
    """Accept when ``(2p - 1) * V > -1``: at the vega's value ``V``, just above the
    break-even chance it accepts, just below it refuses; the net reads the seat's own
    view after accepting, once a sample; no vega to answer, no answer."""
    game = mazo.load_game("trionfetti", players=4)
    state = _vega_pending(game)
    seat = state.to_act
    view = state.observation(seat)
    value = view["vega"]["pending"]["value"]
    even = (1 - 1 / value) / 2  # (2p - 1) V = -1
    accept, refuse = game.string_to_action("accept"), game.string_to_action("refuse")
    above = _Chance(even + 0.01)
    assert net_answer(game, above, view, Rng(1)) == accept
    assert len(above.seen) == ANSWER_SAMPLES
    for seen in above.seen:
        assert seen["seat"] == seat and seen["vega"]["pending"] is None  # after accepting
        assert seen["vega"]["stake"] == value
    assert net_answer(game, _Chance(even - 0.01), view, Rng(1)) == refuse
    fresh = game.new_match(seed=3)
    assert net_answer(game, above, fresh.observation(fresh.to_act), Rng(1)) is None


def test_the_search_answers_by_its_net_and_plays_on_legally() -> None:
    game = mazo.load_game("trionfetti", players=4)
    state = _vega_pending(game)
    seat = state.to_act
    view = state.observation(seat)
    bot = mazo.make_bot("expert", game, seed=2, iterations=8, answers="net")
    assert isinstance(bot, ISMCTSBot) and bot.answerer is net_answer
    for win, answer in ((0.99, "accept"), (0.01, "refuse")):
        bot.answer_net = _Chance(win)
        assert bot.choose(view) == game.string_to_action(answer)
    # With the shipped net, a whole match of legal moves.
    bot = mazo.make_bot("hard", game, seed=3, iterations=6, answers="net")
    state = game.new_match(seed=5)
    for _ in range(300):
        if state.match_over:
            break
        move = bot.choose(state.observation(state.to_act))
        assert move in state.legal_actions()
        state = state.apply(move)


def test_the_option_changes_nothing_but_the_answers() -> None:
    """The answers draw from their own generator: up to the first vega, a search with
    ``answers=net`` makes every choice the preset makes, draw for draw (same seed)."""
    game = mazo.load_game("trionfetti", players=4)
    normal = [mazo.make_bot("normal", game, seed=40 + s) for s in range(4)]
    plain = mazo.make_bot("hard", game, seed=7, iterations=12)
    netted = mazo.make_bot("hard", game, seed=7, iterations=12, answers="net")
    compared = 0
    for seed in range(1, 6):
        state = game.new_match(seed=seed)
        while not state.match_over and compared < 200:
            seat = state.to_act
            view = state.observation(seat)
            if "accept" in view["legal_actions"]:
                break  # from here on the two may answer otherwise
            assert plain.choose(view) == netted.choose(view)
            compared += 1
            state = state.apply(normal[seat].choose(view), seat=seat)
    assert compared > 20


def test_answers_option_checks() -> None:
    game = mazo.load_game("trionfetti", players=4)
    with pytest.raises(RulesError, match="answers must be 'heuristic' or 'net'"):
        mazo.make_bot("expert", game, seed=1, answers="search")
    briscola = mazo.load_game("briscola", players=2)
    with pytest.raises(RulesError, match="needs the game's net_answer"):
        mazo.make_bot("expert", briscola, seed=1, answers="net")
    preset = mazo.make_bot("expert", game, seed=1)  # the heuristic answers
    assert isinstance(preset, ISMCTSBot) and preset.answerer is None


def test_the_value_head_reads_any_view_as_evaluate_does() -> None:
    """``GameNet.value``: the value head's margin and chance, the same numbers
    ``evaluate`` gives where the seat is to act, and read where it is not."""
    from mazo.nets import load_net

    game = mazo.load_game("trionfetti", players=4)
    net = load_net(game)
    state = game.new_match(seed=4)
    view = state.observation(state.to_act)
    _, ev = net.evaluate(view)
    assert net.value(view) == (ev.margin, ev.win)
    waiting = state.observation((state.to_act + 1) % 4)  # not to act: evaluate refuses
    margin, chance = net.value(waiting)
    assert -1 < margin < 1 and 0 < chance < 1
