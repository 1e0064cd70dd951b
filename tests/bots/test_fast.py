"""The fast form of every game's heuristic (issue 18): ``choose_state(state)`` makes the
choice ``choose(state.observation(state.to_act))`` makes, the same action with the same
draws of the bot's tie-breaker, for every option the heuristic takes.

Generic over the registry: each game with a heuristic whose class has ``choose_state``
is played at each of its player counts and at configurations built from its rules'
options (each non-default value alone, and for each player count as many options at a
non-default value as the game accepts together), with the heuristic's own options (its
``OPTIONS``: ``signals``, a ranking...) cycled match by match.  Moves are the
heuristic's, with random moves mixed in so that positions the heuristic never steers to
are seen too.  A game whose heuristic has no ``choose_state`` yet is skipped, not failed.

Two checks, two tests:

* on the real state: two heuristics with one seed, called in the same order, agree at
  every decision (action, or both refuse with RulesError) and their Rng states stay
  equal;
* on a determinized sample of the seat's observation (what a search hands the fast
  form): a state with other hidden cards than the real one must give the same choice,
  so ``choose_state`` reads nothing the seat may not know, and reads samples right.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import mazo
from mazo.bots.heuristic import module_for
from mazo.core.errors import RulesError
from mazo.core.game import Game, State
from mazo.core.rng import Rng, derive_seed
from mazo.games import GAMES, list_games

POSITIONS = 4000
"""Decisions compared per game (split over its configurations)."""
MIN_PER_CONFIG = 60
RANDOM_SHARE = 0.2
"""The share of moves played at random instead of by the heuristic."""
SAMPLE_EVERY = 4
"""Every how many decisions the sample check runs (it costs a determinization)."""


def _values(spec: Any) -> tuple[Any, ...]:
    """The values an option allows (its listed choices where it is open), else ()."""
    if spec.allowed is not None:
        return tuple(spec.allowed)
    return tuple(spec.choices or ())


def configs(name: str) -> list[tuple[int, dict[str, Any]]]:
    """(players, rules options) to play ``name`` at, every one accepted by the game."""
    cls = GAMES[name]
    specs = [s for s in cls.option_specs if len(_values(s)) > 1]
    out: list[tuple[int, dict[str, Any]]] = []
    seen: set[str] = set()

    def add(players: int, options: dict[str, Any]) -> bool:
        key = repr((players, sorted(options.items())))
        if key in seen:
            return True
        try:
            cls(players, **options)
        except RulesError:
            return False
        seen.add(key)
        out.append((players, options))
        return True

    counts = sorted(cls.player_counts)
    for n in counts:
        add(n, {})
    for spec in specs:
        for value in _values(spec)[1:]:
            for n in counts:
                if add(n, {spec.name: value}):
                    break
    for pick in (1, -1):
        for n in counts:
            options: dict[str, Any] = {}
            for spec in specs:
                trial = {**options, spec.name: _values(spec)[pick]}
                try:
                    cls(n, **trial)
                except RulesError:
                    continue
                options = trial
            add(n, options)
    return out


def _heuristic_options(cls: type, match: int) -> dict[str, Any]:
    """The heuristic's own options for the ``match``-th match: each cycles its values."""
    allowed: dict[str, tuple[Any, ...]] = dict(getattr(cls, "OPTIONS", {}))
    return {key: values[match % len(values)] for key, values in allowed.items()}


def _ask(call: Any, *args: Any) -> int | str:
    """An action, or the text ``"refused"`` where the heuristic has nothing to do."""
    try:
        action: int = call(*args)
    except RulesError:
        return "refused"
    return action


def _rng_state(bot: Any) -> int | None:
    rng = getattr(bot, "rng", None)
    return rng.getstate() if isinstance(rng, Rng) else None


def _heuristic_class(name: str) -> Any:
    module = module_for(GAMES[name]())
    assert module is not None, f"{name} has no heuristic file"
    cls = module.Heuristic
    if not hasattr(cls, "choose_state"):
        pytest.skip(f"{name}'s heuristic has no choose_state yet")
    return cls


def walk(name: str, check: Callable[[Game, State, Any, list[Any], int], int | str]) -> int:
    """Play random matches of every configuration of ``name``; at each decision
    ``check(game, state, observation, heuristics, index)`` compares the two forms and
    returns the observation form's choice, which is played (or, a share of the time and
    where the heuristic refuses, a random legal move).  Returns the decisions checked."""
    cls = _heuristic_class(name)
    plans = configs(name)
    per_config = max(MIN_PER_CONFIG, POSITIONS // len(plans))
    index = 0
    for c, (players, options) in enumerate(plans):
        game = mazo.load_game(name, players=players, **options)
        done = 0
        match = 0
        while done < per_config:
            seed = derive_seed(18, name, c, match)
            bot_options = _heuristic_options(cls, match)
            bots = [cls(game, seed, **bot_options) for _ in range(2)]
            rng = random.Random(seed)
            state = game.new_match(seed=seed)
            match += 1
            # Matches are cut short: more matches, more first deals and configurations.
            for _ in range(per_config // 2 + 1):
                if state.match_over or done >= per_config:
                    break
                seat = state.to_act
                assert seat is not None
                obs = state.observation(seat)
                expected = check(game, state, obs, bots, index)
                done += 1
                index += 1
                legal = state.legal_actions()
                if expected == "refused" or rng.random() < RANDOM_SHARE:
                    action = legal[rng.randrange(len(legal))]
                else:
                    assert isinstance(expected, int)
                    action = expected
                state = state.apply(action)
    return index


def _where(game: Game, state: State, seat: int) -> str:
    return f"{game.name} {game.players}p {game.options}, seat {seat}, at {state!r}"


@pytest.mark.parametrize("name", list_games())
def test_choose_state_makes_the_observations_choice(name: str) -> None:
    def check(game: Game, state: State, obs: Any, bots: list[Any], _i: int) -> int | str:
        h_obs, h_state = bots
        expected = _ask(h_obs.choose, obs)
        got = _ask(h_state.choose_state, state)
        where = _where(game, state, obs["seat"])
        assert got == expected, f"choose_state {got!r} != choose {expected!r}: {where}"
        assert _rng_state(h_state) == _rng_state(h_obs), f"tie draws differ: {where}"
        return expected

    assert walk(name, check) >= POSITIONS // 2


@pytest.mark.parametrize("name", list_games())
def test_choose_state_on_a_sample_of_the_observation(name: str) -> None:
    """A search's sample: other hidden cards, the same choice (and the same draws)."""

    def check(game: Game, state: State, obs: Any, bots: list[Any], i: int) -> int | str:
        h_obs, h_sample = bots
        before = _rng_state(h_obs)
        expected = _ask(h_obs.choose, obs)
        if i % SAMPLE_EVERY == 0:
            sample = game.sampler(obs)(Rng(derive_seed(i, "sample")))
            if before is not None:
                h_sample.rng.setstate(before)
            got = _ask(h_sample.choose_state, sample)
            where = _where(game, state, obs["seat"]) + f", sample {sample!r}"
            assert got == expected, f"choose_state {got!r} != choose {expected!r}: {where}"
            assert _rng_state(h_sample) == _rng_state(h_obs), f"tie draws differ: {where}"
        return expected

    assert walk(name, check) >= POSITIONS // 2


def test_configurations_cover_every_player_count() -> None:
    for name in list_games():
        counts = {n for n, _ in configs(name)}
        assert counts == set(GAMES[name].player_counts), name
