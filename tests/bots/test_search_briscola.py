"""Briscola's search levels: the preset (paired common worlds, the game's own reward),
``search_reward``'s numbers on built end states, and the rollouts' exact last tricks
(a search's own samples, read with their hidden cards), checked by brute force on engine
states.  No timing and no strength number decides a test here."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest
from models.briscola import build_deck

import mazo
from mazo.bots.heuristic.briscola import SEARCH_PRESET, BriscolaHeuristic, search_reward
from mazo.core.rng import Rng, derive_seed
from mazo.games.briscola import STRENGTH as _STRENGTH

from .fast_rollout_checks import assert_same_search_with_and_without

# The rules' card points by rank (ace 11, three 10, king 4, horse 3, jack 2), kept apart
# from the engine's and the bot's tables.
RANK_POINTS = {"1": 11, "3": 10, "K": 4, "Q": 3, "J": 2}


def card_points(codes: list[str]) -> int:
    return sum(RANK_POINTS.get(code[:-1], 0) for code in codes)


@pytest.mark.parametrize("players", [2, 4])
def test_the_preset_search_plays_legal_moves_through_a_deal(players: int) -> None:
    game = mazo.load_game("briscola", players=players)
    bot = mazo.make_bot("expert", game, seed=3, iterations=9)
    assert bot.paired and bot.reward_name == "game"  # type: ignore[attr-defined]
    assert bot.guide == SEARCH_PRESET["guide"]  # type: ignore[attr-defined]
    # Two players: the samples read the opponent's plays (and the net). Four: the plays
    # are never read there (reads_plays), so the net's head by seat alone.
    assert (bot.play_reader is not None) == (players == 2)  # type: ignore[attr-defined]
    numpy = importlib.util.find_spec("numpy") is not None  # the net needs it
    assert (bot.card_net is not None) == numpy  # type: ignore[attr-defined]
    state: Any = game.new_match(seed=11).stop_at_deal_end()
    searched = 0
    while not state.hand_over:
        seat = state.to_act
        action = bot.choose(state.observation(seat))
        assert action in state.legal_actions()
        searched += bot.last_iterations > 0  # type: ignore[attr-defined]
        state = state.apply(action)
    assert searched > 0


def test_the_preset_compares_every_move_on_common_worlds() -> None:
    """Paired: each sampled world is played out after every card in hand (the seat's own
    cards are in every sample), so every move has one reward per world."""
    game = mazo.load_game("briscola", players=2)
    state: Any = game.new_match(seed=5)
    bot: Any = mazo.make_bot("hard", game, seed=2, iterations=30)
    bot.choose(state.observation(state.to_act))
    moves = state.legal_actions()
    assert len(moves) == 3
    assert bot.last_worlds == [0b111] * 10
    assert sorted(bot.last_paired) == moves
    assert {len(r) for r in bot.last_paired.values()} == {10}
    assert bot.last_iterations == 30


class _End:
    """An end state as the reward reads it: the deal's card points per side."""

    def __init__(self, points: list[int]) -> None:
        self.points = points

    def finished_deal_points(self) -> list[int]:
        return self.points


@pytest.mark.parametrize(
    ("players", "margin", "points", "expected"),
    [
        # (1 - margin) * won + margin * (0.5 + edge / 240)
        (2, 0.5, [70, 50], [0.5 + 0.5 * (0.5 + 20 / 240), 0.5 * (0.5 - 20 / 240)]),
        (2, 0.5, [60, 60], [0.5, 0.5]),
        (2, 1.0, [120, 0], [1.0, 0.0]),
        (2, 0.0, [61, 59], [1.0, 0.0]),
        (4, 0.25, [41, 79], [0.25 * (0.5 - 38 / 240), 0.75 + 0.25 * (0.5 + 38 / 240)]),
    ],
)
def test_search_reward_numbers(
    players: int, margin: float, points: list[int], expected: list[float]
) -> None:
    game = mazo.load_game("briscola", players=players)
    got = search_reward(game, margin)([0, 0], [0, 0], _End(points))  # type: ignore[arg-type]
    assert got == pytest.approx(expected, abs=1e-12)


def test_search_reward_reads_a_played_deal() -> None:
    """A whole built deal played out: the reward comes from the card points each seat
    took (counted here from its won cards with the rules' table)."""
    game = mazo.load_game("briscola", players=2)
    deck = build_deck(2, 1, {0: ["1O", "3O", "KO"], 1: ["2B", "4B", "5B"]}, "7O")
    state: Any = game.new_match(deck=deck, dealer=1).stop_at_deal_end()
    bots = [BriscolaHeuristic(game, 1), BriscolaHeuristic(game, 2)]
    while not state.hand_over:
        state = state.apply(bots[state.to_act].choose(state.observation(state.to_act)))
    won = [card_points(state.won_cards(s)) for s in range(2)]
    assert sum(won) == 120
    assert state.finished_deal_points() == won
    edge = won[0] - won[1]
    result = 1.0 if edge > 0 else 0.5 if edge == 0 else 0.0
    got = search_reward(game, 0.5)([0, 0], [0, 0], state)
    assert got[0] == pytest.approx(0.5 * result + 0.5 * (0.5 + edge / 240))
    assert got[1] == pytest.approx(0.5 * (1 - result) + 0.5 * (0.5 - edge / 240))


def _value(state: Any, me: int) -> int:
    """Brute force on engine states: ``me``'s card points less the other's at the end."""
    if state.hand_over:
        pts = state.finished_deal_points()
        return int(pts[me] - pts[1 - me])
    values = [_value(state.apply(a), me) for a in state.legal_actions()]
    return max(values) if state.to_act == me else min(values)


@pytest.mark.parametrize("stock", [0, 2])
def test_rollouts_play_the_last_tricks_exactly(stock: int) -> None:
    """On a search's own sample (marked to stop at the deal's end) with at most the last
    two cards in the stock, the heuristic's rollout move is the perfect-information best,
    hidden stock card included; off a search line it is the heuristic's own choice."""
    game = mazo.load_game("briscola", players=2)
    rng = Rng(7)
    checked = 0
    for m in range(10):
        state: Any = game.new_match(seed=derive_seed(9, m)).stop_at_deal_end()
        while state.observation(0)["stock_size"] > stock:
            state = state.apply(rng.choice(state.legal_actions()))
        for _ in range(m % 3):  # into the trick, or a trick further
            state = state.apply(rng.choice(state.legal_actions()))
        if state.hand_over or len(state.legal_actions()) < 2:
            continue
        me = state.to_act
        best = max(_value(state.apply(a), me) for a in state.legal_actions())
        chosen = BriscolaHeuristic(game, m).choose_state(state)
        assert _value(state.apply(chosen), me) == best
        checked += 1
    assert checked >= 6


def test_rollouts_keep_the_weakest_of_the_best_last_cards() -> None:
    """Among the moves worth the most card points, the rollout's exact move is the
    weakest card (the lowest id among equals), in every position from the last draw on
    of 40 deals played at random: the rule the search's rewards were measured with."""
    game = mazo.load_game("briscola", players=2)
    rng = Rng(17)
    checked = 0
    for m in range(40):
        state: Any = game.new_match(seed=derive_seed(19, m)).stop_at_deal_end()
        while state.observation(0)["stock_size"] > 2:
            state = state.apply(rng.choice(state.legal_actions()))
        while not state.hand_over:
            me = state.to_act
            moves = state.legal_actions()
            values = {a: _value(state.apply(a), me) for a in moves}
            top = max(values.values())
            weakest = min((a for a in moves if values[a] == top), key=lambda a: (_STRENGTH[a], a))
            assert BriscolaHeuristic(game, m).choose_state(state) == weakest, repr(state)
            checked += 1
            state = state.apply(rng.choice(moves))
    assert checked > 300


@pytest.mark.parametrize(
    "options",
    [{}, {"deal_packet_size": 1}, {"trump_two_exchange": True}, {"open_variant": "scoperta"}],
)
def test_rollout_moves_before_the_last_draw_are_the_heuristics(options: dict[str, Any]) -> None:
    """On a search's own two-player sample with more than two cards to draw, the
    rollout's move (read from the state's ints, no view) is ``choose``'s on the seat's
    observation, with the same tie draws, on the real state and on a sample of the
    seat's view: every decision of 40 deals, a third of the moves random so that odd
    positions come up too."""
    game = mazo.load_game("briscola", players=2, **options)
    rng = Rng(11)
    checked = ties = 0
    for m in range(40):
        seed = derive_seed(12, m)
        by_obs, by_state = BriscolaHeuristic(game, seed), BriscolaHeuristic(game, seed)
        state: Any = game.new_match(seed=derive_seed(13, m)).stop_at_deal_end()
        while not state.hand_over:
            obs = state.observation(state.to_act)
            if obs["stock_size"] <= 2:
                break
            before = by_obs.rng.getstate()
            action = by_obs.choose(obs)
            assert by_state.choose_state(state) == action, f"deal {m}, {state!r}"
            assert by_state.rng.getstate() == by_obs.rng.getstate()
            # Another world of the seat's view (the opponent's hand and the stock
            # redealt): the same choice, so the move reads nothing the seat may not see.
            sample = game.sampler(obs)(Rng(derive_seed(14, m, checked))).stop_at_deal_end()
            by_state.rng.setstate(before)
            assert by_state.choose_state(sample) == action, f"deal {m}, {sample!r}"
            assert by_state.rng.getstate() == by_obs.rng.getstate()
            ties += by_obs.rng.getstate() != before
            checked += 1
            if rng.randbelow(3) == 0:
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
    assert checked > 500 and ties > 0


def test_heads_up_scores_are_the_views() -> None:
    """The scores the two-player rollouts and the play reader compute without a view
    (``_heads_up_scores``: remembered lead scores, the follow table) are the view's own,
    float for float, at every decision of 30 deals with cards left to draw, half the
    moves random."""
    from mazo.bots.heuristic.briscola import _heads_up_scores, _View

    game = mazo.load_game("briscola", players=2)
    rng = Rng(23)
    checked = 0
    for m in range(30):
        bot = BriscolaHeuristic(game, m)
        state: Any = game.new_match(seed=derive_seed(29, m)).stop_at_deal_end()
        while state.observation(0)["stock_size"] > 2:
            seat = state.to_act
            obs = state.observation(seat)
            view = _View.of_observation(game, obs)
            cards = tuple(sorted(view.hand))
            lead = view.trick[0] if view.trick else -1
            hidden = view.hidden[1 - seat]
            got = _heads_up_scores(cards, view.trump, view.unseen, lead, hidden)
            assert got == [view.score(c) for c in cards], repr(state)
            checked += 1
            move = bot.choose(obs) if rng.randbelow(2) else rng.choice(state.legal_actions())
            state = state.apply(move)
    assert checked > 500


def _mid_deal_lines(game: Any, deals: int, seed: int) -> list[Any]:
    """Search lines (states marked ``stop_at_deal_end``) at random points of ``deals``
    deals of ``normal`` play, and a sample of the seat's view at each."""
    out = []
    rng = Rng(seed)
    for m in range(deals):
        bots = [BriscolaHeuristic(game, derive_seed(seed, m, s)) for s in range(game.players)]
        state: Any = game.new_match(seed=derive_seed(seed, "match", m))
        for _ in range(rng.randbelow(3 * game.players + 20)):
            if state.hand_over or state.match_over:
                break
            seat = state.to_act
            state = state.apply(bots[seat].choose(state.observation(seat)), seat=seat)
        if state.hand_over or state.match_over or state.to_act is None:
            continue
        out.append(state.stop_at_deal_end())
        view = state.observation(state.to_act)
        out.append(game.sampler(view)(Rng(derive_seed(seed, "sample", m))).stop_at_deal_end())
    return out


def _move_by_move(state: Any, policies: list[BriscolaHeuristic]) -> Any:
    while not state.hand_over:
        state = state.apply_unchecked(policies[state.to_act].choose_state(state))
    return state


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (2, {"deal_packet_size": 1}), (3, {}), (4, {}), (6, {})],
)
def test_a_whole_rollout_on_ints_ends_where_the_moves_do(
    players: int, options: dict[str, Any]
) -> None:
    """``fast_rollout`` (the ISMCTS hook) reaches the very state, log and scores that the
    policies' ``choose_state`` moves applied one by one reach, with the same tie draws
    (each seat's Rng left in the same place), from real states and from samples, early
    and late in the deal."""
    from mazo.bots.heuristic.briscola import fast_rollout

    game = mazo.load_game("briscola", players=players, **options)
    lines = _mid_deal_lines(game, 30, seed=31 + players)
    assert len(lines) >= 40
    for i, line in enumerate(lines):
        slow_bots = [BriscolaHeuristic(game, derive_seed(i, s)) for s in range(players)]
        fast_bots = [BriscolaHeuristic(game, derive_seed(i, s)) for s in range(players)]
        run = fast_rollout(fast_bots)
        assert run is not None
        want = _move_by_move(line, slow_bots)
        got = run(line)
        assert got is not None, f"line {i} not covered: {line!r}"
        assert got.hand_over and got.to_act is None
        assert got._state_key(got) == want._state_key(want), f"line {i}"
        assert got._ev == want._ev, f"line {i}: another log"
        assert (
            got.scores == want.scores and got.finished_deal_points() == want.finished_deal_points()
        )
        for a, b in zip(fast_bots, slow_bots, strict=True):
            assert a.rng.getstate() == b.rng.getstate()
        assert line.hand_over is False  # the line itself is untouched


def test_a_whole_rollout_on_ints_covers_only_plain_lines() -> None:
    """Signing policies get no shortcut; lines the shortcut does not know (open hands,
    the 2 of trumps exchanged, a line that does not stop at the deal's end) are left to
    the search's move-by-move loop (None), and the engine refuses to play out a line
    that would deal on."""
    from mazo.bots.heuristic.briscola import fast_rollout
    from mazo.core.errors import RulesError

    game = mazo.load_game("briscola", players=4, signals_enabled=True)
    assert fast_rollout([BriscolaHeuristic(game, s, signals=True) for s in range(4)]) is None
    game = mazo.load_game("briscola", players=2, open_variant="open_hands")
    run = fast_rollout([BriscolaHeuristic(game, s) for s in range(2)])
    assert run is not None
    assert run(game.new_match(seed=1).stop_at_deal_end()) is None
    game = mazo.load_game("briscola", players=2, trump_two_exchange=True)
    run = fast_rollout([BriscolaHeuristic(game, s) for s in range(2)])
    assert run is not None
    exchanged = 0
    for m in range(60):
        state: Any = game.new_match(seed=m)
        if "exchange" not in [game.action_to_string(a) for a in state.legal_actions()]:
            continue
        state = state.apply("exchange").stop_at_deal_end()
        assert run(state) is None
        exchanged += 1
    assert exchanged > 0
    game = mazo.load_game("briscola", players=2)
    state = game.new_match(seed=2)
    with pytest.raises(RulesError, match="stopped search line"):
        state.play_to_deal_end(lambda seat, h, trick, t: 0)


@pytest.mark.parametrize("players", [2, 4])
def test_the_search_reads_the_same_rewards_with_and_without_the_shortcut(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preset's paired search on the same positions and seeds: every move's reward
    in every world is the same whether its rollouts run on ints or move by move."""
    import mazo.bots.heuristic.briscola as heuristic

    game = mazo.load_game("briscola", players=players)
    lines = _mid_deal_lines(game, 8, seed=70 + players)[::2]

    assert_same_search_with_and_without(game, lines, heuristic, monkeypatch)


def _random_lines(game: Any, deals: int, seed: int) -> list[Any]:
    """Search lines at random points of ``deals`` deals of random play (odd positions:
    cards the heuristic would not play), a sample of the seat's view at each."""
    out = []
    rng = Rng(seed)
    for m in range(deals):
        state: Any = game.new_match(seed=derive_seed(seed, "random", m))
        for _ in range(rng.randbelow(40 // game.players * game.players)):
            if state.hand_over or state.match_over:
                break
            state = state.apply(rng.choice(state.legal_actions()))
        if state.hand_over or state.match_over or state.to_act is None:
            continue
        out.append(state.stop_at_deal_end())
        view = state.observation(state.to_act)
        out.append(game.sampler(view)(Rng(derive_seed(seed, "view", m))).stop_at_deal_end())
    return out


def _by_observation(state: Any, policies: list[BriscolaHeuristic]) -> Any:
    """The line played to its deal's end by each seat's ``choose`` on its observation
    (the heuristic's view, no int form)."""
    while not state.hand_over:
        seat = state.to_act
        state = state.apply(policies[seat].choose(state.observation(seat)), seat=seat)
    return state


def _check_table_rollouts(players: int, options: dict[str, Any]) -> int:
    """``fast_rollout`` at a table (:func:`_table_picker`'s one pass a card) against the
    observation's choices move by move, over lines of heuristic and of random play:
    the very state, log, scores and Rng positions.  Returns the picks that drew a tie."""
    from mazo.bots.heuristic.briscola import fast_rollout

    game = mazo.load_game("briscola", players=players, **options)
    lines = _mid_deal_lines(game, 25, seed=90 + players) + _random_lines(game, 25, 95 + players)
    assert len(lines) >= 70
    ties = 0
    for i, line in enumerate(lines):
        slow_bots = [BriscolaHeuristic(game, derive_seed(i, s)) for s in range(players)]
        fast_bots = [BriscolaHeuristic(game, derive_seed(i, s)) for s in range(players)]
        run = fast_rollout(fast_bots)
        assert run is not None
        want = _by_observation(line, slow_bots)
        got = run(line)
        assert got is not None, f"line {i} not covered: {line!r}"
        assert got._state_key(got) == want._state_key(want), f"line {i}"
        assert got._ev == want._ev, f"line {i}: another log"
        assert got.scores == want.scores
        assert got.finished_deal_points() == want.finished_deal_points()
        for s, (a, b) in enumerate(zip(fast_bots, slow_bots, strict=True)):
            assert a.rng.getstate() == b.rng.getstate()
            ties += a.rng.getstate() != BriscolaHeuristic(game, derive_seed(i, s)).rng.getstate()
    return ties


@pytest.mark.parametrize(
    ("players", "options"), [(3, {}), (4, {}), (4, {"deal_packet_size": 1}), (6, {})]
)
def test_a_table_rollout_on_ints_plays_the_observations_choices(
    players: int, options: dict[str, Any]
) -> None:
    """The table's whole rollout on ints makes, card by card, the choices ``choose``
    makes on each seat's observation (the heuristic's own view), with the same tie
    draws: before and after the stock runs out, with the indicator's holder known."""
    assert _check_table_rollouts(players, options) > 0


def test_a_table_rollout_with_hands_of_different_sizes_scores_card_by_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The picker's path for hands of different sizes (no deal has them: every seat
    draws alike) scores each card by ``_p_take`` as the view does: forced on every trick
    here, the same choices as the observation's."""
    import mazo.bots.heuristic.briscola as heuristic

    real = heuristic._table_trick

    def uneven(*args: Any) -> Any:
        unseen, drawing, holder, places, _size, _keeps = real(*args)
        return unseen, drawing, holder, places, -1, None

    monkeypatch.setattr(heuristic, "_table_trick", uneven)
    assert _check_table_rollouts(4, {}) > 0
