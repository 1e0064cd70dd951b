"""The bot registry: names, options and their errors, a game without a heuristic file.

Generic: the bots layer finds a game's files through the game registry; Briscola is only
the game these checks load.
"""

from __future__ import annotations

import pytest

import mazo
from mazo.bots import BOTS, Bot, list_bots


def test_registry() -> None:
    assert list_bots() == sorted(BOTS) and {"random", "heuristic"} <= set(list_bots())
    game = mazo.load_game("briscola", players=2)
    for name in list_bots():
        bot = mazo.make_bot(name, game, seed=1)
        assert isinstance(bot, Bot) and bot.name == name


def test_unknown_bot_and_option_are_rules_errors() -> None:
    game = mazo.load_game("briscola", players=2)
    with pytest.raises(
        mazo.RulesError, match="easy, expert, hard, heuristic, ismcts, net, normal, random"
    ):
        mazo.make_bot("minimax", game)
    with pytest.raises(mazo.RulesError, match="signals"):
        mazo.make_bot("heuristic", game, depth=3)
    with pytest.raises(mazo.RulesError, match="allowed"):
        mazo.make_bot("random", game, signals="maybe")


def test_heuristic_for_a_game_without_one() -> None:
    from mazo.bots.heuristic import make_heuristic

    class Other(type(mazo.load_game("briscola", players=2))):  # type: ignore[misc]
        name = "tute"

    with pytest.raises(mazo.RulesError, match="no heuristic bot for tute"):
        make_heuristic(Other(2), seed=1)
