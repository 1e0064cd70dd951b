"""The heuristics' ``explain``: one line of why the ``normal`` bot plays what it plays.

Exact positions (observations written by hand on top of a real one) check that the
reason told is the one the heuristic's rules give there; random matches check that every
reason has a sentence in the four dictionaries of the browser client and that its params
fill every placeholder of it.
"""

from __future__ import annotations

import copy
import json
import random
import re
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

import mazo
from mazo.bots import make_bot
from mazo.bots.heuristic.escoba import card_value

I18N = Path(mazo.__file__).parent / "web" / "i18n"
LANGS = ("en", "es", "it", "ja")


def normal(game: str, players: int, **options: Any) -> tuple[Any, Any]:
    rules = mazo.load_game(game, players, **options)
    return rules, make_bot("normal", rules, seed=1)


def choice_and_reason(rules: Any, bot: Any, obs: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    action = rules.action_to_string(bot.choose(obs))
    key, params = bot.explain(obs, action)
    return action, key, params


# -- Briscola ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def briscola() -> tuple[Any, Any, dict[str, Any]]:
    rules, bot = normal("briscola", 4)
    return rules, bot, rules.new_match(seed=1).observation(2)


def briscola_at(
    base: dict[str, Any], hand: list[str], trick: list[tuple[int, str]], leader: int
) -> dict[str, Any]:
    """Seat 2 of four (partner: seat 0), spades trumps, a full stock."""
    obs = copy.deepcopy(base)
    obs.update(
        hand=hand,
        legal_actions=list(hand),
        trick=[{"seat": s, "card": c} for s, c in trick],
        leader=leader,
        trump="2E",
        trump_suit="E",
    )
    return obs


@pytest.mark.parametrize(
    ("hand", "trick", "leader", "action", "key", "params"),
    [
        # an opponent led the king of cups: the three takes it, the cheapest winner
        (["3C", "2E", "5B"], [(1, "KC")], 1, "3C", "take_cheapest", {"points": 14}),
        # the partner's ace holds the trick and nobody plays after: load the ace of clubs
        (["1B", "4O", "5O"], [(3, "5C"), (0, "1C"), (1, "4C")], 3, "1B", "load", {"points": 11}),
        # the same with an opponent still to play (he may trump): keep the ace
        (["1B", "4O", "5O"], [(0, "1C"), (1, "4C")], 0, "4O", "partner_low", {}),
        # an opponent's ace holds, a trump would take it but another opponent trumps after
        (["4C", "7E", "5B"], [(1, "1C")], 1, "4C", "not_worth", {"points": 11}),
        # nothing takes the opponents' three of cups: the cheapest card goes
        (["4B", "6O", "5C"], [(0, "2C"), (1, "3C")], 0, "4B", "throw_low", {}),
        # last to play, the only winner is a trump: it takes 21 points
        (["7E", "4B", "5O"], [(3, "1C"), (0, "2C"), (1, "3C")], 3, "7E", "take_cheapest", {}),
        # leading: a low card without points
        (["4B", "6O", "5O"], [], 2, "4B", "lead_low", {}),
    ],
)
def test_briscola_reasons(
    briscola: Any,
    hand: list[str],
    trick: list[tuple[int, str]],
    leader: int,
    action: str,
    key: str,
    params: dict[str, Any],
) -> None:
    rules, bot, base = briscola
    got, why, told = choice_and_reason(rules, bot, briscola_at(base, hand, trick, leader))
    assert got == action
    assert why == f"hint.briscola.{key}"
    assert told["card"] == action
    assert params.items() <= told.items()


def test_briscola_exchange_and_endgame() -> None:
    rules, bot = normal("briscola", 2, trump_two_exchange=True)
    state = rules.new_match(seed=4)
    # play until the stock is empty: the rest of the deal is counted exactly
    while not state.hand_over:
        obs = state.observation(state.to_act)
        action = rules.action_to_string(bot.choose(obs))
        key, params = bot.explain(obs, action)
        if action == "exchange":
            assert key == "hint.briscola.exchange" and params["card"] == obs["trump"]
        if obs["stock_size"] == 0 and len(obs["hand"]) > 1:
            assert key == "hint.briscola.endgame" and params["card"] == action
        state = state.apply(action, seat=state.to_act)


# -- Escoba -----------------------------------------------------------------------------


def escoba_at(base: dict[str, Any], hand: list[str], table: list[str]) -> dict[str, Any]:
    """Seat 1 of two, nothing captured yet; the legal plays are every capture of 15."""
    obs = copy.deepcopy(base)
    legal: list[str] = []
    for card in hand:
        caps = [
            "+".join([card, *combo])
            for k in range(1, len(table) + 1)
            for combo in combinations(table, k)
            if card_value(card) + sum(card_value(c) for c in combo) == 15
        ]
        legal += caps or [card]
    obs.update(hand=hand, table=table, legal_actions=legal)
    return obs


@pytest.mark.parametrize(
    ("hand", "table", "action", "key", "params"),
    [
        (["5C", "2B", "4E"], ["QO", "1B"], "5C+QO+1B", "escoba", {"card": "5C"}),
        (["1C", "2B", "4E"], ["7O", "4C", "KB", "3O"], "1C+3O+7O+4C", "velo", {"card": "7O"}),
        (
            ["JC", "2B", "KE"],
            ["1C", "6O", "3B", "QO", "KO"],
            "2B+QO+1C+3B",
            "most_cards",
            {"count": 4},
        ),
        (["1C", "2B", "3E"], ["QO", "KO"], None, "trail", {}),
    ],
)
def test_escoba_reasons(
    hand: list[str], table: list[str], action: str | None, key: str, params: dict[str, Any]
) -> None:
    rules, bot = normal("escoba", 2)
    obs = escoba_at(rules.new_match(seed=1).observation(1), hand, table)
    got, why, told = choice_and_reason(rules, bot, obs)
    if action is not None:
        assert got == action
    else:
        assert "+" not in got and told["card"] == got
    assert why == f"hint.escoba.{key}"
    assert params.items() <= told.items()


# -- Envite -----------------------------------------------------------------------------


def envite_at(
    base: dict[str, Any], hand: list[str], trick: list[tuple[int, str]], **kw: Any
) -> dict[str, Any]:
    """Seat 2 of four (partner: seat 0), the vira 2 of swords (trumps: swords, K high)."""
    obs = copy.deepcopy(base)
    obs.update(hand=hand, trick=[{"seat": s, "card": c} for s, c in trick], to_play=2, to_act=2)
    obs["legal_actions"] = list(hand)
    obs.update(kw)
    return obs


@pytest.fixture(scope="module")
def envite() -> tuple[Any, Any, dict[str, Any]]:
    rules, bot = normal("envite", 4)
    base = rules.new_match(seed=1).observation(2)
    assert base["vira"] == "2E"
    return rules, bot, base


@pytest.mark.parametrize(
    ("hand", "trick", "extra", "action", "key"),
    [
        # the partner's king holds the cups: follow low
        (
            ["4C", "7C", "6O"],
            [(0, "KC"), (1, "QC")],
            {"legal_actions": ["4C", "7C"]},
            "4C",
            "partner_holds",
        ),
        # void in cups, no trump: nothing beats the opponents' king
        (["5B", "6O", "4O"], [(1, "KC")], {}, "4O", "throw_low"),
        # the lowest trump takes the king of cups
        (["3E", "5B", "6O"], [(1, "KC")], {}, "3E", "take_cheapest"),
        # ... and with a trick won already it wins the deal
        (
            ["3E", "5B", "6O"],
            [(1, "KC")],
            {"tricks_won": [1, 0], "hand_sizes": [2, 2, 2, 2]},
            "3E",
            "win_deal",
        ),
    ],
)
def test_envite_card_reasons(
    envite: Any,
    hand: list[str],
    trick: list[tuple[int, str]],
    extra: dict[str, Any],
    action: str,
    key: str,
) -> None:
    rules, bot, base = envite
    got, why, told = choice_and_reason(rules, bot, envite_at(base, hand, trick, **extra))
    assert (got, why, told) == (action, f"hint.envite.{key}", {"card": action})


def test_envite_answers_say_the_odds_they_weighed(envite: Any) -> None:
    rules, bot, base = envite
    pending = {"level": 1, "name": "envio", "value": 4, "by": 1}
    bet = {"level": 0, "name": "none", "value": 2, "raise_right": None, "pending": pending}
    answers = ["accept", "fold", "raise"]
    strong = envite_at(
        base, ["KE", "QE", "JE"], [], legal_actions=answers, bet=bet, team_must_answer=True
    )
    got, why, told = choice_and_reason(rules, bot, strong)
    assert (got, why) == ("raise", "hint.envite.raise") and told["pct"] >= 90
    weak = envite_at(
        base, ["4C", "5B", "6O"], [], legal_actions=answers, bet=bet, team_must_answer=True
    )
    got, why, told = choice_and_reason(rules, bot, weak)
    assert why == f"hint.envite.{got}" and got in ("accept", "fold")
    assert told["pct"] == round(100 * bot.estimate(weak)) < 50


# -- Trionfetti -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trionfetti() -> tuple[Any, Any, dict[str, Any]]:
    """Seat 1 to lead the first trick of a deal (partner: seat 3), the ranking K high."""
    rules, bot = normal("trionfetti", 4)
    state = rules.new_match(seed=1)
    while True:
        obs = state.observation(state.to_act)
        if obs["phase"] == "play" and obs["hand"]:
            break
        legal = obs["legal_actions"]
        state = state.apply("keep" if "keep" in legal else legal[0], seat=state.to_act)
    assert state.to_act == 1 and obs["hand_sizes"] == [3, 3, 3, 3]
    return rules, bot, obs


@pytest.mark.parametrize(
    ("hand", "trick", "action", "key"),
    [
        (["2O", "5B", "QC"], [], "2O", "lead_low"),
        (["2O", "QC", "KC"], [(0, "JB")], "QC", "take_cheapest"),
        (["2O", "5B", "8C"], [(0, "JB")], "2O", "throw_low"),
        (["2O", "5B", "QC"], [(2, "4B"), (3, "KB"), (0, "JB")], "2O", "partner_holds"),
    ],
)
def test_trionfetti_card_reasons(
    trionfetti: Any, hand: list[str], trick: list[tuple[int, str]], action: str, key: str
) -> None:
    rules, bot, base = trionfetti
    obs = copy.deepcopy(base)
    obs.update(
        hand=hand, trick=[{"seat": s, "card": c} for s, c in trick], legal_actions=list(hand)
    )
    got, why, told = choice_and_reason(rules, bot, obs)
    assert (got, why, told) == (action, f"hint.trionfetti.{key}", {"card": action})


def test_trionfetti_vega_answers(trionfetti: Any) -> None:
    rules, bot, base = trionfetti
    vega = {**base["vega"], "pending": {"value": 20, "by": 0}}
    # three kings (the top level) win the deal for sure: accept; a weak hand's answer is
    # the heuristic's to tune, its reason names it and the odds it weighed either way
    for hand, answer in ((["2O", "5B", "3C"], None), (["KO", "KB", "KC"], "accept")):
        obs = copy.deepcopy(base)
        obs.update(hand=hand, vega=vega, team_must_answer=True, legal_actions=["accept", "refuse"])
        got, why, told = choice_and_reason(rules, bot, obs)
        assert got == (answer or got) and why == f"hint.trionfetti.{got}"
        assert told == {"pct": round(100 * bot.estimate(obs))}


# -- every reason has its sentence --------------------------------------------------------


def test_every_reason_reads_in_four_languages() -> None:
    dictionaries = {lang: json.loads((I18N / f"{lang}.json").read_text()) for lang in LANGS}
    configs = [
        ("briscola", 2, {}),
        ("briscola", 4, {}),
        ("escoba", 4, {}),
        ("envite", 6, {"chicos_to_win": 1}),
        ("trionfetti", 4, {"games_to_win_match": 1, "points_to_win_game": 5}),
    ]
    seen: set[str] = set()
    for game, players, options in configs:
        rules = mazo.load_game(game, players, **options)
        rng = random.Random(7)
        for seed in range(2):
            state = rules.new_match(seed=seed)
            for _ in range(400):
                if state.match_over:
                    break
                seat = state.to_act
                obs = state.observation(seat)
                bot = make_bot("normal", rules, seed=seed)
                action = rules.action_to_string(bot.choose(obs))
                key, params = bot.explain(obs, action)
                assert key.startswith(f"hint.{game}."), key
                seen.add(key)
                for lang, words in dictionaries.items():
                    assert key in words, f"{key} is missing from {lang}.json"
                    holes = set(re.findall(r"\{(\w+)\}", words[key]))
                    assert holes <= set(params), f"{lang} {key}: {holes - set(params)} unfilled"
                if rng.random() < 0.3:
                    action = rng.choice(obs["legal_actions"])
                state = state.apply(action, seat=seat)
    assert len(seen) >= 25
