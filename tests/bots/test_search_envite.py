"""Envite's search: the per-observation sampler (``EnviteGame.sampler``) against
``determinize``, and the search levels' preset.

The sampler reads an observation and replays its deal once, then deals the unseen cards
of each sample with ints into a copy of that replay.  It must give, for the same ``Rng``,
the very state ``determinize`` gives: same pack, hands, seed, log, record, observations
and legal actions for every seat, in every rules configuration.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import mazo
from mazo import RulesError
from mazo.core.rng import Rng
from mazo.games.envite import trump_order

from .fast_rollout_checks import assert_same_search_with_and_without

CONFIGS: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = [
    (4, {}, None),
    (6, {}, None),
    (8, {}, None),
    (12, {}, None),
    (4, {"renuncio_mode": "penalize"}, None),
    (8, {"renuncio_mode": "penalize", "follow_rule": "trump_leads_only"}, None),
    (4, {"tumbo_show_captain": True}, {"scores": [11, 9]}),
    (6, {"signals": "team_leaky"}, None),
    (4, {"reveal_at_deal_end": True, "chicos_to_win": 1}, {"scores": [10, 10]}),
    (10, {"signals": "off", "bet_responder": "captain"}, None),
]


def _positions(n: int, options: dict[str, Any], setup: Any, seed: int) -> list[tuple[Any, int]]:
    """(state, observing seat) along random matches: random actions by random seats
    (bets, answers and talk out of turn too), to the end of the match."""
    game = mazo.load_game("envite", players=n, **options)
    pick = random.Random(seed)
    out = []
    for match in range(4):
        state = game.new_match(seed=seed * 100 + match, setup=setup)
        for _ in range(150):
            out.append((state, pick.randrange(n)))
            if state.match_over:
                break
            seat = pick.randrange(n)
            mine = state.legal_actions(seat)
            if mine and pick.random() < 0.3:
                state = state.apply(pick.choice(mine), seat=seat)
                continue
            moves = state.legal_actions()
            state = state.apply(pick.choice([a for a in moves if a < 46] or moves))
    return out


def _same(a: Any, b: Any, players: int) -> None:
    assert a._key() == b._key()
    assert (a._d.seed, a._d.start, a._d.deck) == (b._d.seed, b._d.start, b._d.deck)
    assert a.record() == b.record()
    assert a.events == b.events
    assert repr(a) == repr(b)
    for seat in range(players):
        assert a.observation(seat) == b.observation(seat)
        assert a.legal_actions(seat) == b.legal_actions(seat)
    # Both play on alike (the copy shares no state that a move could change).
    if not a.match_over and a.legal_actions():
        move = a.legal_actions()[0]
        assert a.apply(move)._key() == b.apply(move)._key()


@pytest.mark.parametrize(("players", "options", "setup"), CONFIGS)
def test_sampler_gives_the_state_determinize_gives(
    players: int, options: dict[str, Any], setup: Any
) -> None:
    game = mazo.load_game("envite", players=players, **options)
    for i, (state, seat) in enumerate(_positions(players, options, setup, players)):
        obs = state.observation(seat)
        sample = game.sampler(obs)
        for k in range(2):
            rng_a, rng_b = Rng(1000 * i + k), Rng(1000 * i + k)
            _same(game.determinize(obs, rng_a), sample(rng_b), players)
            assert rng_a.getstate() == rng_b.getstate()  # the same draws, too


def _a_void(game: Any, seed: int) -> tuple[Any, int, str, set[str]] | None:
    """(observation of seat 0, a seat that did not follow a plain suit led, the suit,
    the trumps) along a random deal, or None."""
    pick = random.Random(seed)
    state = game.new_match(seed=seed)
    while not state.hand_over:
        moves = [a for a in state.legal_actions() if a < 40]
        if not moves:  # a proposal to answer: accept
            moves = [41] if 41 in state.legal_actions() else state.legal_actions()[:1]
        state = state.apply(pick.choice(moves))
        obs = state.observation(0)
        if state.hand_over or not obs["hand"]:
            break
        trumps = set(trump_order(4, obs["vira"]))
        for e_trick in obs["trick"][1:]:
            first = obs["trick"][0]["card"]
            card, seat = e_trick["card"], e_trick["seat"]
            if seat == 0 or first in trumps or card in trumps or card[-1] == first[-1]:
                continue
            return obs, seat, first[-1], trumps
    return None


def test_sampler_spreads_the_unseen_cards_and_keeps_the_voids() -> None:
    """Samples differ, every one holds the seat's hand, and a seat that did not follow
    a plain suit is never dealt a card of it (§7)."""
    game = mazo.load_game("envite", players=4)
    found = None
    for seed in range(500):
        found = _a_void(game, seed)
        if found is not None:
            break
    assert found is not None
    obs, seat, suit, trumps = found
    sample = game.sampler(obs)
    hands = set()
    for k in range(40):
        s = sample(Rng(k))
        assert sorted(s.hand(0)) == sorted(obs["hand"])
        assert not [c for c in s.hand(seat) if c[-1] == suit and c not in trumps]
        hands.add(tuple(sorted(s.hand(seat))))
    assert len(hands) > 1


def test_sampler_refuses_what_determinize_refuses() -> None:
    game = mazo.load_game("envite", players=4)
    state = game.new_match(seed=1)
    obs = state.observation(0)
    # A shown card that is also in the seat's own hand: no deal fits.
    bad = {**obs, "shown_hands": [{"seat": 2, "cards": [*obs["hand"][:1], "1O", "2O", "3O"]}]}
    with pytest.raises(RulesError):
        game.determinize(bad, Rng(0))
    with pytest.raises(RulesError):
        game.sampler(bad)
    with pytest.raises(RulesError):
        game.sampler({"game": "envite"})


# -- the search's reward ------------------------------------------------------------------

# Dealer 3, so seat 0 leads.  Vira 4O (oros trumps): seat 0 holds the three best trumps
# (2O the Mala, KO, QO); nobody else holds a trump.
PACK = ["2O", "KO", "QO", "3C", "4C", "5C", "6C", "7C", "3E", "4E", "5E", "6E", "4O"]


def _pack() -> list[str]:
    rest = [c for c in (f"{r}{s}" for s in "OCEB" for r in "1234567JQK") if c not in PACK]
    return PACK + rest


def _line(setup: dict[str, Any] | None, *moves: tuple[int, str]) -> Any:
    """The deal of :data:`PACK` from ``setup``, ``moves`` (seat, action) made, then seat
    0's two best trumps led (team 0 takes two tricks) if the deal is still on."""
    game = mazo.load_game("envite", players=4)
    state = game.new_match(decks=[_pack()], dealer=3, setup=setup).stop_at_deal_end()
    for seat, action in moves:
        state = state.apply(action, seat=seat)
    while not state.hand_over:
        state = state.apply(state.legal_actions()[0])  # seat 0 leads 2O, then KO
    return state


def test_search_reward_counts_stones_exactly() -> None:
    from mazo.bots.heuristic.envite import search_reward

    game = mazo.load_game("envite", players=4)
    plain = search_reward(game, 0.0)
    # Played out at no bet: team 0 takes 2 stones.
    end = _line(None)
    assert (end.scores, end.games) == ([2, 0], [0, 0])
    assert plain([0, 0], [0, 0], end) == pytest.approx([0.5 + 2 / 24, 0.5 - 2 / 24], abs=1e-12)
    # The margin blends in who gained more (team 0: 1).
    blended = search_reward(game, 0.5)([0, 0], [0, 0], end)
    assert blended == pytest.approx([0.5 * (0.5 + 2 / 24) + 0.5, 0.5 * (0.5 - 2 / 24)])
    # Seat 1 opens the envío out of turn, seat 2 folds: team 1 takes 2 stones.
    end = _line(None, (1, "envio"), (2, "fold"))
    assert end.scores == [0, 2]
    assert plain([0, 0], [0, 0], end) == pytest.approx([0.5 - 2 / 24, 0.5 + 2 / 24])
    # From 10-3, two stones make 12, which stays 11 (tumbo): one stone gained.
    end = _line({"scores": [10, 3]})
    assert end.scores == [11, 3]
    assert plain([10, 3], [0, 0], end) == pytest.approx([0.5 + 1 / 24, 0.5 - 1 / 24])
    # Raised to chico and won by team 0 from 5-3: the chico (12) less the 5 stones it
    # had, plus the 3 team 1 loses: 10 stones, under the scale (a chico's 12).
    raises = ((0, "envio"), (1, "raise"), (2, "raise"), (3, "raise"), (0, "accept"))
    end = _line({"scores": [5, 3]}, *raises)
    assert (end.scores, end.games) == ([0, 0], [1, 0])
    assert plain([5, 3], [0, 0], end) == pytest.approx([0.5 + 10 / 24, 0.5 - 10 / 24])
    # The same from 0-0: the chico's 12 stones, the whole scale: 1.
    end = _line({"scores": [0, 0]}, *raises)
    assert plain([0, 0], [0, 0], end) == [1.0, 0.0]


def test_search_reward_is_the_presets_and_the_preset_plays_legal_moves() -> None:
    from mazo.bots.heuristic.envite import SEARCH_PRESET, SEARCH_WITHOUT_NET
    from mazo.bots.levels import search_preset

    for players in (4, 6, 8):
        game = mazo.load_game("envite", players=players)
        preset = search_preset(game)
        # Four and eight players' nets name the kept move; six players have no net.
        want = SEARCH_PRESET if players != 6 else {**SEARCH_PRESET, **SEARCH_WITHOUT_NET}
        assert preset["paired"] is True and preset == {**preset, **want}
        assert preset["hint"] == ("heuristic" if players == 6 else "net")
        expert = mazo.make_bot("expert", game, seed=1)
        assert (expert.reward_name, expert.margin) == ("game", 0.0)  # type: ignore[attr-defined]
        assert expert.game_reward is not None  # type: ignore[attr-defined]
        for i, (state, _seat) in enumerate(_positions(players, {}, None, 7)[:40]):
            if state.match_over or state.to_act is None:
                continue
            seat = state.to_act
            bot = mazo.make_bot("expert", game, seed=i, iterations=12)
            action = bot.choose(state.observation(seat))
            assert action in state.legal_actions(seat)


def test_paired_search_plays_every_move_in_every_world() -> None:
    """Each sampled world is played out after every one of the seat's moves (common
    worlds): as many rewards per move as worlds, every move in every world."""
    game = mazo.load_game("envite", players=4)
    checked = 0
    for i, (state, _seat) in enumerate(_positions(4, {}, None, 11)):
        seat = state.to_act
        if state.match_over or seat is None or state.phase != "play":
            continue
        cards = [a for a in state.legal_actions(seat) if a < 40]
        if len(cards) < 2:
            continue
        bot = mazo.make_bot("expert", game, seed=i, iterations=30, bets="search", guide=0)
        bot.choose(state.observation(seat))
        per_move, worlds = bot.last_paired, bot.last_worlds
        if not per_move:
            continue  # a sign or a forced move: no search
        everything = (1 << len(per_move)) - 1
        assert all(w == everything for w in worlds)
        assert {len(rewards) for rewards in per_move.values()} == {len(worlds)}
        assert set(cards) <= set(per_move)
        checked += 1
        if checked >= 5:
            break
    assert checked


# -- the whole rollout on one line (fast_rollout, play_to_deal_end) --------------------------

ROLLOUT_CONFIGS: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = [
    (4, {}, None),
    (6, {}, None),
    (8, {}, None),
    (4, {}, {"scores": [11, 7]}),  # tumbo deals (decided before the line starts)
    (4, {}, {"scores": [9, 10]}),  # near the chico: folds and raises end it
    (6, {"signals": "team_leaky", "raise_right": "any_team"}, None),
    (8, {"follow_rule": "trump_leads_only", "bet_responder": "captain"}, None),
    (4, {"envio_timing": "own_turn_only", "capping": "hard_cap_11"}, None),
    (4, {"signals": "off", "reveal_at_deal_end": True, "chicos_to_win": 1}, None),
]


def _lines(game: Any, setup: Any, count: int, seed: int) -> list[Any]:
    """Search lines at random points of deals played by signing heuristics (with random
    bets and answers now and then, so that some lines start with a proposal pending),
    marked ``stop_at_deal_end`` or not, and a sample of the seat's view at each."""
    from mazo.bots.heuristic.envite import EnviteHeuristic
    from mazo.core.rng import derive_seed

    pick = random.Random(seed)
    out: list[Any] = []
    m = 0
    while len(out) < count:
        m += 1
        bots = [
            EnviteHeuristic(game, derive_seed(seed, m, s), signals=True)
            for s in range(game.players)
        ]
        state = game.new_match(seed=derive_seed(seed, "match", m), setup=setup)
        for _ in range(pick.randrange(3 * game.players + 4)):
            if state.match_over or state.to_act is None:
                break
            seat = state.to_act
            moves = state.legal_actions(seat)
            bets = [a for a in moves if 40 <= a < 46]
            if bets and pick.random() < 0.15:
                action = pick.choice(bets)
            else:
                action = bots[seat].choose(state.observation(seat))
            state = state.apply(action, seat=seat)
        if state.hand_over or state.to_act is None or state.phase == "tumbo_decision":
            continue  # (a search plays no rollout from a deal's first state)
        line = state.stop_at_deal_end() if pick.random() < 0.8 else state
        out.append(line)
        obs = state.observation(state.to_act)
        sample = game.sampler(obs)(Rng(derive_seed(seed, "sample", m)))
        out.append(sample.stop_at_deal_end())
    return out


def _policies(game: Any, seed: int) -> list[Any]:
    """One heuristic a seat, as a search seats them: the searching side's sign."""
    from mazo.bots.heuristic.envite import EnviteHeuristic
    from mazo.core.rng import derive_seed

    return [
        EnviteHeuristic(game, derive_seed(seed, s), signals=s % 2 == seed % 2)
        for s in range(game.players)
    ]


def _move_by_move(state: Any, policies: list[Any]) -> Any:
    """The search's own loop (ISMCTS ``_heuristic_rollout`` without the hook)."""
    while not (state.hand_over or state.match_over):
        state = state.apply_unchecked(policies[state.to_act].choose_state(state))
    return state


@pytest.mark.parametrize(("players", "options", "setup"), ROLLOUT_CONFIGS)
def test_a_whole_rollout_on_one_line_ends_where_the_moves_do(
    players: int, options: dict[str, Any], setup: Any
) -> None:
    """``fast_rollout`` (the ISMCTS hook) reaches the very state, log, scores and record
    that the policies' ``choose_state`` moves applied one by one reach, with the same tie
    draws (each seat's Rng left in the same place), from real states and samples, in card
    play and with a proposal pending, early and late in the deal."""
    from mazo.bots.heuristic.envite import fast_rollout

    game = mazo.load_game("envite", players=players, **options)
    lines = _lines(game, setup, 60, seed=41 + players)
    pending = 0
    for i, line in enumerate(lines):
        slow_bots, fast_bots = _policies(game, i), _policies(game, i)
        run = fast_rollout(fast_bots)
        assert run is not None
        key = line._key()
        want = _move_by_move(line, slow_bots)
        got = run(line)
        assert got is not None, f"line {i} not covered: {line!r}"
        assert got.hand_over and got._key() == want._key(), f"line {i}"
        if line._g.stops_at_deal_end:  # (a line that deals on logs a new deal's facts)
            assert got._ev == want._ev, f"line {i}: another log"
        assert got.events == want.events and got.record() == want.record()
        assert (got.scores, got.games, got.to_act) == (want.scores, want.games, want.to_act)
        assert got.legal_actions() == want.legal_actions()
        for a, b in zip(fast_bots, slow_bots, strict=True):
            assert a.rng.getstate() == b.rng.getstate()
        assert line._key() == key  # the line itself is untouched
        pending += line.phase == "bet_pending"
    assert pending > 0 or 11 in (setup or {}).get("scores", ())  # no bet at tumbo


def test_a_whole_rollout_on_one_line_covers_only_what_it_knows() -> None:
    """Other policies than Envite heuristics get no shortcut; a tumbo decision, penalize
    mode and other rules than the policies' are left to the search's move-by-move loop
    (None); the engine refuses to play out what it does not cover."""
    from mazo.bots.heuristic.envite import EnviteHeuristic, fast_rollout

    game = mazo.load_game("envite", players=4)
    assert fast_rollout([mazo.make_bot("random", game, seed=s) for s in range(4)]) is None
    run = fast_rollout(_policies(game, 1))
    assert run is not None
    tumbo = game.new_match(seed=3, setup={"scores": [11, 4]})
    assert tumbo.phase == "tumbo_decision" and run(tumbo.stop_at_deal_end()) is None
    other = mazo.load_game("envite", players=4, follow_rule="trump_leads_only")
    assert run(other.new_match(seed=3).stop_at_deal_end()) is None
    penal = mazo.load_game("envite", players=4, renuncio_mode="penalize")
    run = fast_rollout([EnviteHeuristic(penal, s) for s in range(4)])
    assert run is not None
    state = penal.new_match(seed=3)
    assert run(state.stop_at_deal_end()) is None
    with pytest.raises(RulesError, match="outside penalize mode"):
        state.play_to_deal_end(lambda line: 0)


@pytest.mark.parametrize("players", [4, 8])
def test_the_search_reads_the_same_rewards_with_and_without_the_shortcut(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The preset's paired search on the same positions and seeds: every move's reward
    in every world is the same whether its rollouts run on one line or move by move."""
    import mazo.bots.heuristic.envite as heuristic

    game = mazo.load_game("envite", players=players)
    lines = _lines(game, None, 30, seed=70 + players)[::2]

    assert_same_search_with_and_without(game, lines, heuristic, monkeypatch)
