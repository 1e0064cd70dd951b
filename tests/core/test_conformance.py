"""The conformance suite every game must pass (design.md, house rule 5).

Random matches, driven by seeds that hypothesis picks, are checked after every action.

The suite has two parts:

* **generic** checks use only the engine contract of design.md, so they run for every
  registered game with no per-game code: JSON-ready observations with the contract keys,
  a seat's ``hand`` equal to ``state.hand(seat)``, legal actions (sorted, in range,
  non-empty exactly while the match runs, round-tripping as strings), the seed never in
  an observation, an append-only log with ``hand_over`` exactly when a hand ends,
  replay determinism, same seed same match, states never mutated, determinization and
  the rejection of illegal and malformed actions with the state untouched;
* **model** checks need a game's rules: card conservation, the set of cards each seat may
  know (the leak check: nothing a seat receives names any other card) and the event log
  against the rules (scores against events).  They come from the per-game models in
  ``tests/models/`` (one module per game, found through the game registry); a game
  without one is reported as skipped by ``test_conformance_model`` and gets the generic
  part only.

The number of random matches per configuration is ``MAZO_CONFORMANCE_EXAMPLES``
(default 25; a configuration's ``weight`` scales it); raise it for a long soak run, e.g.
``MAZO_CONFORMANCE_EXAMPLES=500``.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import models
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from models import (
    MODELS,
    Config,
    Model,
    Position,
    Step,
    cards_named,
    deck_codes,
    default_configs,
    generic_step,
    model_module,
)
from models.common import ALL_40

import mazo
from mazo import IllegalActionError, InvalidActionError, RulesError
from mazo.core.rng import Rng

EXAMPLES = int(os.environ.get("MAZO_CONFORMANCE_EXAMPLES", "25"))
SEEDS = st.integers(0, 2**32)
SEED_OFFSET = 2**40  # match seeds are large, so finding one in an observation means a leak
MAX_ACTIONS = 20_000
REQUIRED_KEYS = ("seat", "hand", "to_act", "legal_actions", "scores")


def run_examples(config: Config, share: float, body: Callable[[int], None]) -> None:
    """Run ``body(seed)`` for hypothesis-chosen seeds; the count scales with the config."""

    @settings(
        max_examples=max(3, round(EXAMPLES * share * config.weight)),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(seed=SEEDS)
    def run(seed: int) -> None:
        body(seed)

    run()


CONFIGS = [
    pytest.param(config, id=config.id)
    for game in mazo.list_games()
    for config in default_configs(game)
]


def stepper(model: Model | None) -> Callable[[Any, Rng], Step]:
    return model.step if model is not None else generic_step


# -- generic checks (the engine contract) ---------------------------------------------------


def look(state: Any, seed: int) -> Position:
    """Every seat's observation (and the spectator's), checked to be JSON and seed-free."""
    codes = deck_codes(state.game)
    obs: dict[int | None, Any] = {}
    named: dict[int | None, set[str]] = {}
    for seat in [*range(state.game.players), None]:
        view = state.observation(seat)
        text = json.dumps(view)
        assert json.loads(text) == view, "observations are JSON-ready"
        assert str(seed) not in text, "the match seed appears in an observation"
        obs[seat] = view
        named[seat] = cards_named(text, codes)
    return Position(state, state.events, obs, named)


ROUND_TRIPPED: dict[tuple[str, int, str], dict[int, str]] = {}
"""Per configured game: the action strings already round-tripped (a fixed mapping)."""


def check_contract(pos: Position) -> None:
    """design.md's engine contract for one position."""
    state = pos.state
    game = state.game
    info = game.info
    n = game.players
    over = state.match_over
    assert (state.to_act is None) is over
    if over:
        assert state.hand_over, "the state that ends the match ends its hand too"
    per_seat = [state.legal_actions(s) for s in range(n)]
    legal = state.legal_actions()
    for actions in [legal, *per_seat]:
        assert actions == sorted(set(actions)), "legal actions are sorted, without repeats"
        assert all(type(a) is int and 0 <= a < info.num_actions for a in actions)
    if over:
        assert legal == [] and not any(per_seat)
        assert state.winner is None or 0 <= state.winner < info.sides
        last = pos.events[-1]
        assert last["type"] == "match_end"
        assert last.get("winner", state.winner) == state.winner
        assert last.get("scores", state.scores) == state.scores
    else:
        assert legal, "a running match always has a legal action"
        assert legal == per_seat[state.to_act]
        assert state.winner is None
    key = (game.name, game.players, json.dumps(game.options, sort_keys=True))
    texts = ROUND_TRIPPED.setdefault(key, {})
    for a in {a for actions in per_seat for a in actions}:
        text = state.action_to_string(a)
        if texts.get(a) != text:  # the id <-> string mapping is fixed per game
            assert game.action_to_string(a) == text
            assert state.string_to_action(text) == a
            assert state.string_to_action(text.lower()) == a, "input is case-insensitive"
            texts[a] = text
    scores = state.scores
    assert len(scores) == info.sides and all(type(x) is int for x in scores)
    assert len(state.games) == info.sides
    for seat, obs in pos.obs.items():
        missing = [k for k in REQUIRED_KEYS if k not in obs]
        assert not missing, f"observation lacks {missing}"
        assert obs["seat"] == seat
        assert obs["to_act"] == state.to_act
        assert obs["scores"] == scores
        if seat is None:
            assert obs["hand"] == [] and obs["legal_actions"] == [], "spectators hold nothing"
        else:
            assert obs["hand"] == state.hand(seat)
            assert obs["legal_actions"] == [state.action_to_string(a) for a in per_seat[seat]]
    for e in pos.events[-3:]:
        assert isinstance(e, dict) and isinstance(e.get("type"), str)


def check_transition(before: Position, after: Position, seat: int | None, action: int) -> None:
    """One action: it was legal, the log only grew, ``hand_over`` iff a hand ended."""
    acting = before.state.to_act if seat is None else seat
    assert action in before.state.legal_actions(acting)
    old = before.events
    # The log is append-only (compared in full when a hand ends, else its tail).
    tail = 0 if after.state.hand_over else max(0, len(old) - 8)
    assert after.events[tail : len(old)] == old[tail:], "the log is append-only"
    new = after.events[len(old) :]
    # What a server reads after each action: the same tail, without rebuilding the log.
    assert after.state.events_since(before.state) == new, "events_since is the log's tail"
    ended = any(e["type"] == "hand_end" for e in new)
    assert after.state.hand_over is ended, "hand_over exactly on the state that ends a hand"
    for e in new:
        assert isinstance(e.get("type"), str)
        if e["type"] == "hand_end":
            assert len(e["points"]) == after.state.game.info.sides
            assert all(type(p) is int for p in e["points"])
            assert isinstance(e["detail"], dict)
        elif e["type"] == "trick":
            assert 0 <= e["winner"] < after.state.game.players
            assert type(e["points"]) is int


def check_finished(state: Any, seed: int) -> None:
    """A finished match: its log and record are JSON, and neither holds the seed."""
    events = state.events
    text = json.dumps(events)
    assert json.loads(text) == events
    record = state.record()
    record_text = json.dumps(record)
    assert json.loads(record_text) == record
    assert record["game"] == state.game.name
    assert str(seed) not in text + record_text, "the match seed is in the log or record"


# -- model checks ------------------------------------------------------------------------------


def check_model(model: Model, pos: Position, memory: Any) -> None:
    """Conservation and the model's invariants; then no view names a card it may not know."""
    model.check_position(pos, memory)
    for seat, named in pos.named.items():
        leaked = named - model.may_know(pos, seat, memory)
        assert not leaked, f"seat {seat} is shown {sorted(leaked)}"


def check_position(pos: Position, model: Model | None, memory: Any) -> None:
    check_contract(pos)
    if model is not None:
        check_model(model, pos, memory)


# -- the tests ----------------------------------------------------------------------------


def same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


@pytest.mark.parametrize("game", mazo.list_games())
def test_conformance_model(game: str) -> None:
    """Every game needs a model for the card-level checks; it must cover the game."""
    model = MODELS.get(game)
    if model is None:
        pytest.skip(
            f"no conformance model for {game}: card conservation, the leak check and the "
            "event-log check do not run (generic checks do); add a module "
            f"tests/{model_module(game).replace('.', '/')}.py defining MODEL"
        )
    configs = model.configs()
    assert len({c.id for c in configs}) == len(configs)
    assert all(c.game == game for c in configs)
    loaded = [c.load() for c in configs]
    assert {g.players for g in loaded} == set(type(loaded[0]).player_counts)
    assert all(c.setup is None or isinstance(c.setup, dict) for c in configs)
    for g in {g.players: g for g in loaded}.values():
        model.check_game(g)
    for spec in loaded[0].option_specs:
        if spec.name in model.uncovered_options:
            continue
        used = [g.options[spec.name] for g in loaded]
        assert any(u != spec.default for u in used), f"no configuration changes {spec.name}"
        if model.every_option_value and spec.allowed is not None:
            missing = [v for v in spec.allowed if not any(same(u, v) for u in used)]
            assert not missing, f"no configuration plays {spec.name}={missing}"


def test_every_model_module_is_a_games_model() -> None:
    """MODELS finds a model by the game's module name: a model file under any other name
    (a typo, the game's display name) would leave its game with the generic checks only."""
    folder = Path(models.__file__).parent
    files = {p.stem for p in folder.glob("*.py")} - {"__init__", "common"}
    found = {model_module(game).rpartition(".")[2]: game for game in MODELS}
    assert files == set(found), f"model modules that match no game: {sorted(files - set(found))}"


@pytest.mark.parametrize("config", CONFIGS)
def test_invariants_after_every_action(config: Config) -> None:
    model = MODELS.get(config.game)
    step = stepper(model)

    def body(seed: int) -> None:
        seed += SEED_OFFSET
        state = config.start(seed)
        rng = Rng(seed ^ 0x5EED)
        memory = model.new_memory() if model is not None else None
        pos = look(state, seed)
        check_position(pos, model, memory)
        assert not state.hand_over
        for _ in range(MAX_ACTIONS):
            if state.match_over:
                break
            before = pos
            state, seat, action = step(state, rng)
            pos = look(state, seed)
            check_position(pos, model, memory)
            check_transition(before, pos, seat, action)
            if model is not None:
                model.check_action(before.state, state, seat, action)
        assert state.match_over
        check_finished(state, seed)
        if model is not None:
            model.check_event_log(state)

    run_examples(config, 1.0, body)


@pytest.mark.parametrize("config", CONFIGS)
def test_replay_and_same_seed_same_match(config: Config) -> None:
    step = stepper(MODELS.get(config.game))

    def body(seed: int) -> None:
        seed += SEED_OFFSET
        state = config.start(seed)
        again = config.start(seed)
        assert state == again
        assert state.observation(state.to_act) == again.observation(again.to_act)
        assert state.record() == again.record()
        rng = Rng(seed)
        steps: list[tuple[int | None, int]] = []
        kept: list[tuple[Any, str, list[int]]] = []
        while not state.match_over:
            state, seat, action = step(state, rng)
            steps.append((seat, action))
            if state.hand_over or len(steps) % 97 == 0:
                kept.append((state, json.dumps(state.record()), state.legal_actions()))
                check_replay(state)
        check_replay(state)
        assert kept
        # States are values: nothing done later changed the ones kept on the way.
        for old, record, legal in kept:
            assert json.dumps(old.record()) == record
            assert old.legal_actions() == legal
        # The same seed and the same actions give the same match.
        other = config.start(seed)
        for seat, action in steps:
            other = other.apply(action, seat=seat)
        assert other == state
        assert other.record() == state.record()
        assert other.events == state.events

    run_examples(config, 0.6, body)


def check_replay(state: Any) -> None:
    record = state.record()
    text = json.dumps(record)
    for rec in (record, json.loads(text)):
        again = mazo.replay(rec)
        assert again == state
        assert again.events == state.events
        assert again.scores == state.scores
        assert again.match_over == state.match_over
        for seat in [*range(state.game.players), None]:
            assert again.observation(seat) == state.observation(seat)
        assert again.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("config", CONFIGS)
def test_determinize_is_consistent_and_playable(config: Config) -> None:
    model = MODELS.get(config.game)
    step = stepper(model)

    def body(seed: int) -> None:
        seed += SEED_OFFSET
        state = config.start(seed)
        rng = Rng(seed + 1)
        n = state.game.players
        positions = 0
        count = 0
        while not state.match_over:
            if count == 0 or state.hand_over or rng.randbelow(40) == 0:
                positions += 1
                for seat in {state.to_act, (state.to_act + 1 + rng.randbelow(n - 1)) % n}:
                    check_determinize(state, seat, Rng(seed + count), model, step)
            state, _, _ = step(state, rng)
            count += 1
        assert positions >= 1

    run_examples(config, 0.5, body)


def check_determinize(
    state: Any, seat: int, rng: Rng, model: Model | None, step: Callable[[Any, Rng], Step]
) -> None:
    obs = state.observation(seat)
    det = state.game.determinize(obs, rng)
    assert det.observation(seat) == obs
    assert det.hand(seat) == state.hand(seat)
    assert det.to_act == state.to_act
    assert det.legal_actions(seat) == state.legal_actions(seat)
    assert det.scores == state.scores
    assert det.observation(None) == state.observation(None), "the public view is the same"
    if model is not None:
        model.check_conservation(det)
    for _ in range(5000):
        if det.match_over:
            break
        det, _, _ = step(det, rng)
        if model is not None:
            model.check_conservation(det)
    assert det.match_over


# -- illegal actions ----------------------------------------------------------------------

BAD_STRINGS = [
    "ZZ",
    "",
    "11O",
    "0O",
    "7X",
    "signal",
    "signal wink",
    "O7",
    "7O7O",
    "7O+",
    "+7O",
    "7O++5C",
    "7O+7O",
    "7O+KC+KE",
]
BAD_VALUES: list[Any] = [None, 1.5, True, ["7O"], b"7O"]
RANDOM_IDS = 32  # random ids per position when a game has too many to try them all
ALL_IDS_UP_TO = 256


def bad_ids(state: Any) -> list[int]:
    na = state.game.info.num_actions
    return [-1, na, max(999, na + 1), 2**70]


def bad_strings(state: Any) -> list[str]:
    """Malformed everywhere, plus ``8O`` where the pack has no 8s."""
    codes = deck_codes(state.game)
    return BAD_STRINGS + [c for c in ("8O", "10O") if c not in codes]


def illegal_attempts(
    state: Any, rng: Rng, neighbours: set[int], model: Model | None
) -> list[tuple[Any, int | None]]:
    """Well-formed actions that are not legal now, each with the seat that tries it.

    Ids: all of them for a small action space; otherwise every id below 40 (Latin card
    ids), random ids from the whole space, the legal actions of the positions before and
    after this one (other seats' cards on nearly this table) and this seat's own.  Each id
    is tried as an int and as its string; every seat tries the ids it may not take now,
    and other seats' cards are played by the seat to act and by their owners.
    """
    game = state.game
    n = game.players
    na = game.info.num_actions
    legal = state.legal_actions()
    if na <= ALL_IDS_UP_TO:
        ids = set(range(na))
    else:
        ids = set(range(40)) | {rng.randbelow(na) for _ in range(RANDOM_IDS)} | neighbours
        ids |= set(legal)
    ids = sorted(ids)
    out: list[tuple[Any, int | None]] = []
    for a in ids:
        if a not in legal:
            out.append((a, None))
            text = game.action_to_string(a)
            out += [(text, None), (text.lower(), None)]
    for s in range(n):
        mine = state.legal_actions(s)
        out += [(a, s) for a in ids if a not in mine]
        if s != state.to_act:
            out += [(code, s) for code in state.hand(s)]  # its own card, out of turn
            out += [(code, None) for code in state.hand(s)]  # another seat's card
    if model is not None:
        for action, owner in model.other_seat_actions(state):
            out += [(action, None), (action, owner)]
    for seat in (-1, n, 99):
        out.append((legal[0] if legal else 0, seat))
    return out


def snapshot(state: Any) -> Any:
    """Everything observable about a state, and the hidden part (hands, stock)."""
    n = state.game.players
    return (
        json.dumps(state.record(), sort_keys=True),
        json.dumps([state.observation(s) for s in [*range(n), None]], sort_keys=True),
        [state.hand(s) for s in range(n)],
        list(state.stock()),
        state.to_act,
        state.legal_actions(),
        [state.legal_actions(s) for s in range(n)],
        json.dumps(state.events, sort_keys=True),
    )


@pytest.mark.parametrize("config", CONFIGS)
def test_illegal_actions_raise_and_leave_the_state_alone(config: Config) -> None:
    model = MODELS.get(config.game)
    step = stepper(model)

    def body(seed: int) -> None:
        state = config.start(seed + SEED_OFFSET)
        rng = Rng(seed)
        visited = 0
        previous: set[int] = set()
        while True:
            nxt = None if state.match_over else step(state, rng)[0]
            if visited == 0 or state.hand_over or rng.randbelow(25) == 0 or state.match_over:
                visited += 1
                before = snapshot(state)
                twin = copy.deepcopy(state)
                neighbours = previous | set(nxt.legal_actions() if nxt is not None else [])
                for action, seat in illegal_attempts(state, rng, neighbours, model):
                    with pytest.raises((IllegalActionError, InvalidActionError)):
                        state.apply(action, seat=seat)
                for bad in bad_ids(state) + bad_strings(state) + BAD_VALUES:
                    with pytest.raises(InvalidActionError):
                        state.apply(bad)
                assert snapshot(state) == before
                assert state == twin
            if nxt is None:
                break
            previous = set(state.legal_actions())
            state = nxt
        assert visited >= 2

    run_examples(config, 0.4, body)


# -- states are values: what they return is the caller's own -----------------------------

ALIASING_BUGS: dict[str, str] = {}  # game -> "engine bug: ..." while one is open


def deep_mutate(value: Any) -> None:
    """Change every list and dict inside a returned value, as a careless caller might."""
    if isinstance(value, list):
        for item in value:
            deep_mutate(item)
        value.append("mutated")
    elif isinstance(value, dict):
        for item in list(value.values()):
            deep_mutate(item)
        value["mutated"] = True


def everything_returned(state: Any) -> str:
    n = state.game.players
    seats = [*range(n), None]
    return json.dumps(
        {
            "observations": [state.observation(s) for s in seats],
            "events": state.events,
            "events_for": [state.events_for(s) for s in seats],
            "record": state.record(),
            "scores": state.scores,
            "games": state.games,
            "legal": [state.legal_actions(s) for s in range(n)],
            "hands": [state.hand(s) for s in range(n)],
            "stock": list(state.stock()),
        },
        sort_keys=True,
    )


@pytest.mark.parametrize(
    "game",
    [
        pytest.param(
            game,
            marks=[pytest.mark.xfail(strict=True, reason=ALIASING_BUGS[game])]
            if game in ALIASING_BUGS
            else [],
        )
        for game in mazo.list_games()
    ],
)
def test_returned_values_are_the_callers_own(game: str) -> None:
    """design.md: states are immutable values, so editing anything a state returned
    (an observation, the log, the record, a list of scores) must not change the state."""
    config = default_configs(game)[0]
    step = stepper(MODELS.get(game))
    for seed in (1, 2):
        state = config.start(seed + SEED_OFFSET)
        rng = Rng(seed)
        while not state.match_over:
            state, _, _ = step(state, rng)
        n = state.game.players
        before = everything_returned(state)
        for seat in [*range(n), None]:
            deep_mutate(state.observation(seat))
            deep_mutate(state.events_for(seat))
        for s in range(n):
            deep_mutate(state.hand(s))
            deep_mutate(state.legal_actions(s))
        deep_mutate(state.events)
        deep_mutate(state.record())
        deep_mutate(state.scores)
        deep_mutate(state.games)
        assert everything_returned(state) == before


@pytest.mark.parametrize("game", mazo.list_games())
def test_bad_configuration_raises_rules_error(game: str) -> None:
    with pytest.raises(RulesError, match="players"):
        mazo.load_game(game, players=99)
    with pytest.raises(RulesError):
        mazo.load_game(game, players="4")
    with pytest.raises(RulesError, match="option"):
        mazo.load_game(game, no_such_option=1)
    with pytest.raises(RulesError):
        mazo.load_game(game).new_match(seed="7")
    with pytest.raises(RulesError):
        mazo.load_game(game).new_match(seed=1, dealer=99)


# Only configurations that set options: for the others the check below would assert nothing.
OPTION_CONFIGS = [
    pytest.param(config, id=config.id)
    for game in mazo.list_games()
    for config in default_configs(game)
    if config.options
]


@pytest.mark.parametrize("config", OPTION_CONFIGS)
def test_every_option_value_of_the_config_is_validated(config: Config) -> None:
    game = config.load()
    for name, value in config.options.items():
        assert game.options[name] == value
        bad = "no-such-value" if not isinstance(value, str) else 12345
        with pytest.raises(RulesError, match=name):
            mazo.load_game(config.game, players=config.players, **{**config.options, name: bad})


# -- the random driver: generic_step's out-of-turn branch ------------------------------------


class ScriptedRng:
    """Stands in for :class:`Rng` in :func:`generic_step`: ``randbelow`` answers from a
    script, ``choice`` takes the item ``pick`` names and records every pool it was given."""

    def __init__(self, draws: list[int], pick: tuple[int | None, int]) -> None:
        self.draws = list(draws)
        self.pick = pick
        self.pools: list[list[Any]] = []

    def randbelow(self, n: int) -> int:
        value = self.draws.pop(0)
        assert 0 <= value < n
        return value

    def choice(self, pool: list[Any]) -> Any:
        self.pools.append(list(pool))
        assert self.pick in pool, f"{self.pick} is not in the pool {pool}"
        return self.pick


def envite_before_the_first_card() -> Any:
    """Envite, 4 players, canonical pack, dealer 3: seat 0 (the eldest) holds 1O 2O 3O and
    is to play; the vira is 3C (rules/envite-canario.md §5)."""
    state = mazo.load_game("envite").new_match(deck=ALL_40, dealer=3)
    assert state.to_act == 0 and state.hand(0) == ["1O", "2O", "3O"]
    return state


def test_generic_step_takes_an_out_of_turn_move() -> None:
    # §9.2: before the first card any player may open the envío, on turn or not.  One draw
    # in four (0) leaves the seat to act for another seat; then moves before talk (1 of 10).
    state = envite_before_the_first_card()
    game = state.game
    envio = game.string_to_action("envio")
    rng = ScriptedRng([0, 1], pick=(2, envio))
    after, seat, action = generic_step(state, rng)
    assert rng.pools == [[(1, envio), (2, envio), (3, envio)]]
    assert (seat, action) == (2, envio)
    assert after.events[-1] == {"type": "envio", "seat": 2, "team": 0, "level": 1, "name": "envio"}
    assert after.events == state.apply("envio", seat=2).events
    assert rng.draws == []


def test_generic_step_out_of_turn_talk() -> None:
    # Talk is drawn one time in ten (0): the pool is every out-of-turn action, talk included:
    # each other seat's envío and its 18 team messages (§14.2 signals and consultations).
    state = envite_before_the_first_card()
    game = state.game
    talk = sorted(game.info.message_actions)
    assert len(talk) == 18
    signal = game.string_to_action("signal mala")
    rng = ScriptedRng([0, 0], pick=(3, signal))
    after, seat, action = generic_step(state, rng)
    envio = game.string_to_action("envio")
    assert rng.pools == [[(s, a) for s in (1, 2, 3) for a in sorted([envio, *talk])]]
    assert (seat, action) == (3, signal)
    assert after.events == state.apply("signal mala", seat=3).events
    assert after.to_act == 0  # talk does not pass the turn
