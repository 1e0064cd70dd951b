"""Game records: JSON round trips, replay, and clear errors for tampered records."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import play_random
from models.common import ALL_40

import mazo
from mazo import IllegalActionError, InvalidActionError, RulesError
from mazo.core.rng import Rng
from mazo.record import load_record, replay, save_record

SEED = 987_654_321_987


def played(players: int = 2, steps: int = 25, seed: int = SEED, **options: Any) -> Any:
    """A match part-way: ``steps`` random actions from a fixed deck order."""
    game = mazo.load_game("briscola", players=players, **options)
    deck = list(ALL_40) if players in (2, 4) else None
    state = game.new_match(seed=seed, deck=deck, dealer=0 if deck else None)
    rng = Rng(seed)
    for _ in range(steps):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def test_record_content() -> None:
    state = played(2, steps=5)
    rec = state.record()
    assert rec["format"] == "mazo-record"
    assert rec["game"] == "briscola"
    assert rec["players"] == 2
    assert rec["options"] == state.game.options
    assert rec["deals"][0]["dealer"] == 0
    assert rec["deals"][0]["deck"] == ALL_40
    assert len(rec["deals"]) == 1  # no future deal is written down
    assert len(rec["actions"]) == 5
    assert rec["actions"][0]["seat"] == 1  # the non-dealer leads
    events = [e for e in state.events if e["type"] == "play"]
    assert [(a["seat"], a["action"]) for a in rec["actions"]] == [
        (e["seat"], e["card"]) for e in events
    ]
    assert str(SEED) not in json.dumps(rec)
    assert rec["match_over"] is False and rec["winner"] is None


def test_record_never_holds_the_seed_or_later_decks() -> None:
    state = played(4, steps=120)
    text = json.dumps(state.record())
    assert str(SEED) not in text
    assert len(state.record()["deals"]) == state.deal_number


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_save_and_load_round_trip(tmp_path: Path, players: int) -> None:
    state = played(players, steps=70)
    path = save_record(state, tmp_path / "sub" / "match.json", names=["ana", "bo"])
    assert path.exists()
    data = load_record(path)
    assert data["names"] == ["ana", "bo"]
    again = replay(data)
    assert again == state
    assert again.events == state.events
    for seat in [*range(players), None]:
        assert again.observation(seat) == state.observation(seat)
    assert json.loads(path.read_text(encoding="utf-8")) == data
    assert mazo.replay(data) == state


def test_finished_match_round_trip(tmp_path: Path) -> None:
    game = mazo.load_game("briscola", players=3, three_player_tie_mode="drop_out")
    state = play_random(game.new_match(seed=SEED, setup={"scores": [2, 2, 1]}), Rng(4))
    assert state.match_over
    rec = json.loads(json.dumps(state.record()))
    assert rec["match_over"] is True
    assert rec["winner"] == state.winner
    assert rec["setup"] == {"scores": [2, 2, 1]}
    again = replay(rec)
    assert again == state and again.winner == state.winner
    assert again.events == state.events


def test_signals_and_exchanges_replay() -> None:
    game = mazo.load_game(
        "briscola", players=4, signals_enabled=True, trump_two_exchange=True, signals_from_trick=1
    )
    kinds: set[str] = set()
    for seed in range(40):
        state = game.new_match(seed=seed)
        rng = Rng(seed)
        while state.deal_number == 1:
            acts = [(None, a) for a in state.legal_actions()]
            for s in range(4):
                if s != state.to_act:
                    acts += [(s, a) for a in state.legal_actions(s)]
            seat, action = rng.choice(acts)
            state = state.apply(action, seat=seat)
        rec = state.record()
        kinds |= {a["action"].split()[0] for a in rec["actions"]}
        assert replay(json.loads(json.dumps(rec))) == state
    assert {"signal", "exchange", "decline"} <= kinds


# -- tampered records -------------------------------------------------------------------------


def record_of_first_trick() -> tuple[Any, dict[str, Any]]:
    state = played(2, steps=6)
    return state, copy.deepcopy(state.record())


def test_an_illegal_action_is_named() -> None:
    _, rec = record_of_first_trick()
    gone = rec["actions"][0]["action"]  # played already: in nobody's hand
    rec["actions"][2]["action"] = gone
    with pytest.raises(IllegalActionError, match="record action 3 of ") as err:
        replay(rec)
    assert gone in str(err.value)


def test_an_action_by_the_wrong_seat_is_rejected() -> None:
    _, rec = record_of_first_trick()
    rec["actions"][0]["seat"] = 1 - rec["actions"][0]["seat"]
    with pytest.raises(IllegalActionError, match="record action 1 of "):
        replay(rec)


def test_an_unparsable_action_is_rejected() -> None:
    _, rec = record_of_first_trick()
    rec["actions"][1]["action"] = "ZZ"
    with pytest.raises(InvalidActionError, match="record action 2 of "):
        replay(rec)


def test_a_malformed_action_is_rejected() -> None:
    _, rec = record_of_first_trick()
    del rec["actions"][1]["seat"]
    with pytest.raises(RulesError, match="record action 2 of "):
        replay(rec)


def test_a_wrong_deck_makes_the_actions_illegal() -> None:
    _, rec = record_of_first_trick()
    deck = rec["deals"][0]["deck"]
    first = rec["actions"][0]["action"]
    i = deck.index(first)
    deck[i], deck[30] = deck[30], deck[i]  # the first card played is now in the stock
    with pytest.raises(IllegalActionError, match="record action 1 of "):
        replay(rec)


@pytest.mark.parametrize(
    "deck",
    [ALL_40[:39], [*ALL_40[:39], "1O"], [*ALL_40[:39], "ZZ"], [*ALL_40, "1O"]],
    ids=["short", "twice", "bad-code", "long"],
)
def test_a_deck_that_is_not_a_pack_is_rejected(deck: list[str]) -> None:
    _, rec = record_of_first_trick()
    rec["deals"][0]["deck"] = deck
    with pytest.raises(RulesError):
        replay(rec)


def test_a_wrong_later_dealer_is_rejected() -> None:
    state = played(2, steps=60)
    assert state.deal_number >= 2
    rec = state.record()
    rec["deals"][1]["dealer"] = 1 - rec["deals"][1]["dealer"]
    with pytest.raises(RulesError, match="dealer"):
        replay(rec)


@pytest.mark.parametrize(
    ("change", "hint"),
    [
        (lambda r: r.pop("deals"), "deals"),
        (lambda r: r.pop("actions"), "actions"),
        (lambda r: r.pop("game"), "game"),
        (lambda r: r.update(deals=[]), "deals"),
        (lambda r: r.update(deals=[{"deck": ALL_40}]), "dealer"),
        (lambda r: r.update(format="pgn"), "format"),
        (lambda r: r.update(options=[]), "options"),
        (lambda r: r.update(actions="7O"), "actions"),
        (lambda r: r.update(game="chess"), "briscola"),
        (lambda r: r.update(players=5), "players"),
        (lambda r: r["options"].update(no_such=1), "no_such"),
    ],
)
def test_malformed_records_say_what_is_wrong(change: Any, hint: str) -> None:
    _, rec = record_of_first_trick()
    change(rec)
    with pytest.raises(RulesError, match=hint):
        replay(rec)


def test_replay_needs_a_dict() -> None:
    with pytest.raises(RulesError):
        replay([])  # type: ignore[arg-type]


def test_load_record_errors(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(RulesError, match="not JSON"):
        load_record(bad)
    arr = tmp_path / "list.json"
    arr.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RulesError, match="JSON object"):
        load_record(arr)
