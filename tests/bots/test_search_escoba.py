"""Escoba's search levels: the preset (paired common worlds, the game's own reward,
samples weighed by the others' plays) plays legal moves at every player count,
``search_reward``'s numbers on an end state built card by card, the per-observation
sampler deals what ``determinize`` deals, and the whole rollouts on ints
(``fast_rollout``) end where the heuristic's moves one by one end.  (The rollouts' exact
last round is checked against the solver in test_fast_escoba.py.)  No timing and no
strength number decides a test here."""

from __future__ import annotations

from typing import Any

import pytest

import mazo
from mazo.bots.heuristic.escoba import SEARCH_PRESET, EscobaHeuristic, search_reward
from mazo.bots.levels import search_preset
from mazo.core.rng import Rng, derive_seed

from .fast_rollout_checks import assert_same_search_with_and_without

OROS = [f"{r}O" for r in "1234567JQK"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_search_levels_use_the_preset(players: int) -> None:
    game = mazo.load_game("escoba", players=players)
    preset = search_preset(game)
    assert preset["paired"] is True and preset["reward"] == "game"
    assert preset["infer"] == "plays"  # samples weighed by the others' plays of the round
    # The shipped net (two players) scores the lines at the leaf; elsewhere none fits
    # and the lines are played out to the hand's end.
    leaf = SEARCH_PRESET["leaf"] if players == 2 else 0
    assert leaf > 0 or players != 2
    assert preset.get("leaf", 0) == leaf
    assert {k: v for k, v in SEARCH_PRESET.items() if k != "leaf"}.items() <= preset.items()
    for level in ("hard", "expert"):
        bot: Any = mazo.make_bot(level, game, seed=1)
        assert bot.play_reader is not None and bot.pool == 4
        assert bot.leaf == leaf and (bot.leaf_net is not None) == (players == 2)


def test_the_leaf_is_dropped_without_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without numpy the net cannot be read: the search levels play their lines out, and
    a warning says what to install."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else real(name, *a)
    )
    with pytest.warns(UserWarning, match="needs numpy"):
        preset = search_preset(mazo.load_game("escoba", players=2))
    assert "leaf" not in preset and preset["infer"] == "plays"


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {}), (4, {}), (4, {"four_player_mode": "individual"})]
)
def test_the_preset_search_plays_legal_moves_through_a_hand(
    players: int, options: dict[str, Any]
) -> None:
    game = mazo.load_game("escoba", players=players, **options)
    bot: Any = mazo.make_bot("expert", game, seed=3, iterations=12)
    state: Any = game.new_match(seed=11)
    searched = 0
    while not state.hand_over:
        seat = state.to_act
        action = bot.choose(state.observation(seat))
        assert action in state.legal_actions()
        searched += bot.last_iterations > 0
        state = state.apply(action)
    assert searched > 0


def test_paired_search_compares_every_move_on_common_worlds() -> None:
    """Paired: each sampled world is played out after every move (the seat's hand and
    the table are in every sample), so every move has one reward per world."""
    game = mazo.load_game("escoba", players=2)
    state: Any = game.new_match(seed=5)
    moves = state.legal_actions()
    assert len(moves) == 3
    bot: Any = mazo.make_bot("hard", game, seed=2, iterations=30)
    bot.choose(state.observation(state.to_act))
    assert bot.last_worlds == [0b111] * 10
    assert sorted(bot.last_paired) == moves
    assert {len(r) for r in bot.last_paired.values()} == {10}
    assert bot.last_iterations == 30


def _last_play(scores: list[int]) -> tuple[Any, Any]:
    """A two-player hand at its last card, built card by card from seat 0's observation
    (perfect information: seat 1's hand is empty, the stock dealt).  Seat 0 holds 1B and
    the table is KB (1 + 10 is no 15: a trail); seat 1 captured last, so it takes both.

    Side 0's pile: the ten oros, 7C 7E 6C 6E (14 cards); side 1's: the other 24, then KB
    and 1B (26).  Side 0: oros, the siete de velo, the prime (three sevens to one) and one
    escoba: 4.  Side 1: the cards and two escobas: 3."""
    game = mazo.load_game("escoba", players=2)
    mine = [*OROS, "7C", "7E", "6C", "6E"]
    left = ["KB", "1B"]
    theirs = [c for c in game.info.deck.codes(game.info.deck.full_mask) if c not in mine + left]
    obs = dict(game.new_match(seed=1).observation(0))
    obs.update(
        hand=["1B"],
        table=["KB"],
        captured=[mine, theirs],
        hand_sizes=[1, 0],
        stock_size=0,
        escobas=[1, 2],
        escoba_markers=[],
        last_capturer=1,
        to_act=0,
        round=5,
        history=[],
        scores=scores,
    )
    state: Any = game.determinize(obs, Rng(1))
    assert state.legal_actions() == [game.string_to_action("1B")]
    return game, state.stop_at_deal_end()


def test_search_reward_numbers_on_a_built_end_state() -> None:
    game, state = _last_play([5, 9])
    end = state.apply(game.string_to_action("1B"))
    assert end.hand_over and end.scores == [9, 12]
    assert search_reward(game, 0.5)([5, 9], [0, 0], end) == [
        0.5 * 1 + 0.5 * (0.5 + 1 / 16),
        0.5 * 0 + 0.5 * (0.5 - 1 / 16),
    ]
    assert search_reward(game, 0.0)([5, 9], [0, 0], end) == [1.0, 0.0]
    assert search_reward(game, 1.0)([5, 9], [0, 0], end) == [0.5625, 0.4375]


def test_search_reward_counts_the_match_where_the_hand_ends_it() -> None:
    game, state = _last_play([18, 9])
    end = state.apply(game.string_to_action("1B"))
    assert end.match_over and end.winner == 0
    assert search_reward(game, 0.5)([18, 9], [0, 0], end) == [1.0, 0.0]


def test_a_tied_hand_is_worth_half() -> None:
    """A hand of equal points: 0.5 to each side, whatever the margin weight."""
    game = mazo.load_game("escoba", players=2)
    rng = Rng(3)
    for m in range(40):
        state: Any = game.new_match(seed=derive_seed(8, m)).stop_at_deal_end()
        while not state.hand_over:
            state = state.apply(rng.choice(state.legal_actions()))
        if state.scores[0] == state.scores[1]:
            assert search_reward(game, 0.3)([0, 0], [0, 0], state) == [0.5, 0.5]
            return
    pytest.fail("no tied hand in 40 random ones")


@pytest.mark.parametrize(
    ("players", "options"), [(2, {}), (3, {}), (4, {}), (2, {"deal_packet_size": 3})]
)
def test_the_sampler_deals_what_determinize_deals(players: int, options: dict[str, Any]) -> None:
    """``game.sampler(obs)`` reads the observation once and then draws exactly what
    ``determinize`` draws for the same Rng: the same state, log and observations."""
    game = mazo.load_game("escoba", players=players, **options)
    rng = Rng(players)
    state: Any = game.new_match(seed=derive_seed(2, players))
    checked = 0
    while not state.match_over and checked < 150:
        seat = checked % players
        obs = state.observation(seat)
        sample = game.sampler(obs)
        for k in range(2):
            a = sample(Rng(derive_seed(k, checked)))
            b: Any = game.determinize(obs, Rng(derive_seed(k, checked)))
            assert a._key() == b._key()
            assert a.events == b.events
            assert a.observation(seat) == obs
            assert a.legal_actions() == b.legal_actions()
        checked += 1
        state = state.apply(rng.choice(state.legal_actions()))
    assert checked > 60


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_search_sample_lists_the_same_legal_actions(players: int) -> None:
    """A search's samples (marked ``stop_at_deal_end``) list their legal actions through
    a memo of each card's captures by table: the same ids, in the same order, as play
    outside a search, and ``apply_unchecked`` gives what ``apply`` gives."""
    game = mazo.load_game("escoba", players=players)
    rng = Rng(7)
    moves = 0
    for m in range(6):
        state: Any = game.new_match(seed=derive_seed(17, players, m))
        marked: Any = state.stop_at_deal_end()
        while not state.hand_over:
            legal = state.legal_actions()
            assert marked.legal_actions() == legal
            assert marked.legal_actions() == legal  # from the memo now
            action = rng.choice(legal)
            state = state.apply(action)
            marked = marked.apply_unchecked(action)
            if not state.hand_over:  # the unmarked line deals the next hand
                assert marked._key() == state._key()
            else:
                assert marked.hand_over and marked.scores == state.scores
            moves += 1
    assert moves > 100


# Two-player rules options the whole rollouts on ints meet: the prime methods (the exact
# ending's scoring), the last sweep not counted, packets of three (the redeal's order),
# the eldest's opening escoba, a bonus, and a short match (hands that end it).
FAST_OPTIONS: list[dict[str, Any]] = [
    {},
    {"prime_method": "sevens_only", "escoba_on_final_play_counts": False},
    {"prime_method": "primiera_points", "deal_packet_size": 3},
    {"prime_method": "pagat_best_prime", "initial_escoba_to": "eldest"},
    {"bonus_all_oros": True, "bonus_cards_over_30": True},
    {"target_score": 4},
]


def _search_lines(game: Any, count: int, seed: int) -> list[Any]:
    """Search lines as a two-player search plays them out: from the states of matches
    of heuristic bots (a third of their moves random), a sample of the seat to act's
    observation marked to stop at the deal's end (the search's own), after one of that
    seat's legal moves; and the real state itself so marked, every hand, early and
    late, some at the round's last card or the hand's last round."""
    rng = Rng(seed)
    lines: list[Any] = []
    match = 0
    while len(lines) < count:
        bots = [EscobaHeuristic(game, derive_seed(seed, match, s)) for s in range(2)]
        state: Any = game.new_match(seed=derive_seed(seed, "lines", match))
        match += 1
        while not state.match_over and len(lines) < count:
            seat = state.to_act
            sample = game.sampler(state.observation(seat))(rng).stop_at_deal_end()
            lines.append(sample.apply(rng.choice(sample.legal_actions())))
            if not state.hand_over:
                lines.append(state.stop_at_deal_end())
            action = bots[seat].choose_state(state)
            if rng.randbelow(3) == 0:
                action = rng.choice(state.legal_actions())
            state = state.apply(action)
    return [line for line in lines if not line.hand_over]


def _move_by_move(line: Any, bots: list[Any]) -> Any:
    """The line played to its deal's end by the bots' ``choose_state``, one move at a
    time (the search's loop without the shortcut)."""
    while not line.hand_over:
        line = line.apply_unchecked(bots[line.to_act].choose_state(line))
    return line


@pytest.mark.parametrize("options", FAST_OPTIONS)
def test_a_whole_rollout_on_ints_ends_where_the_moves_do(options: dict[str, Any]) -> None:
    """``fast_rollout`` (the ISMCTS hook) reaches the very state, log and scores that the
    policies' ``choose_state`` moves applied one by one reach, with the same tie draws
    (each seat's Rng left in the same place), from search samples and real states, at
    every stage of a hand."""
    from mazo.bots.heuristic.escoba import fast_rollout

    game = mazo.load_game("escoba", players=2, **options)
    lines = _search_lines(game, 260, seed=41 + len(options))
    assert len(lines) >= 200
    ended = 0
    for i, line in enumerate(lines):
        slow_bots = [EscobaHeuristic(game, derive_seed(i, s)) for s in range(2)]
        fast_bots = [EscobaHeuristic(game, derive_seed(i, s)) for s in range(2)]
        run = fast_rollout(fast_bots)
        assert run is not None
        before = line._key()
        want = _move_by_move(line, slow_bots)
        got = run(line)
        assert got is not None, f"line {i} not covered: {line!r}"
        assert got.hand_over and got.to_act is None
        assert got._key() == want._key(), f"line {i}"
        assert got._ev == want._ev, f"line {i}: another log"
        assert got.events == want.events
        assert (got.scores, got.match_over, got.winner) == (
            want.scores,
            want.match_over,
            want.winner,
        )
        for a, b in zip(fast_bots, slow_bots, strict=True):
            assert a.rng.getstate() == b.rng.getstate(), f"line {i}: other draws"
        assert line._key() == before  # the line itself is untouched
        ended += want.match_over
    if "target_score" in options:
        assert ended > 10


def test_a_whole_rollout_on_ints_covers_only_plain_two_player_lines() -> None:
    """The hook is for two plain Escoba heuristics; its function leaves to the search's
    move-by-move loop (None) a line that does not stop at the deal's end, a hand's end
    and another game's options; the engine refuses to play out a line that would deal
    on."""
    from mazo.bots.heuristic.escoba import fast_rollout
    from mazo.core.errors import RulesError

    game = mazo.load_game("escoba", players=3)
    assert fast_rollout([EscobaHeuristic(game, s) for s in range(3)]) is None
    game = mazo.load_game("escoba", players=2)
    assert fast_rollout([EscobaHeuristic(game, 0), object()]) is None
    run = fast_rollout([EscobaHeuristic(game, s) for s in range(2)])
    assert run is not None
    state: Any = game.new_match(seed=3)
    assert run(state) is None  # it would deal the next hand
    assert run(state.stop_at_deal_end()) is not None
    other = mazo.load_game("escoba", players=2, prime_method="sevens_only")
    assert run(other.new_match(seed=3).stop_at_deal_end()) is None
    while not state.hand_over:
        state = state.apply(state.legal_actions()[0])
    assert run(state.stop_at_deal_end()) is None  # a hand's end: the next hand dealt
    with pytest.raises(RulesError, match="stopped search line"):
        game.new_match(seed=2).play_to_deal_end([lambda *position: 0] * 2)


def test_the_search_reads_the_same_rewards_with_and_without_the_shortcut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The preset's paired search on the same positions and seeds: every move's reward
    in every world is the same whether its rollouts run on ints or move by move.  The
    preset cuts its lines at the net's leaf (the shortcut plays only the last round's
    tails there); with ``leaf=0`` every line is played out whole, by the shortcut."""
    import mazo.bots.heuristic.escoba as heuristic

    game = mazo.load_game("escoba", players=2)
    lines = [line for line in _search_lines(game, 40, seed=70) if line._m == 0][::4]

    assert_same_search_with_and_without(game, lines, heuristic, monkeypatch)
    assert_same_search_with_and_without(game, lines, heuristic, monkeypatch, leaf=0)
