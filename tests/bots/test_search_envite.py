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
    from mazo.bots.heuristic.envite import SEARCH_PRESET
    from mazo.bots.levels import search_preset

    for players in (4, 8):
        game = mazo.load_game("envite", players=players)
        preset = search_preset(game)
        assert preset["paired"] is True and preset == {**preset, **SEARCH_PRESET}
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
