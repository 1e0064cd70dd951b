"""Difficulty levels: names a player picks, each a bot with per-game settings.

No timing is asserted here (budgets are measured by ``bench/bot_budget.py``); these tests
check what each level is made of and that it plays legally everywhere."""

from __future__ import annotations

from typing import Any

import pytest

import mazo
from mazo.bots import list_bots
from mazo.bots.ismcts import ISMCTSBot
from mazo.bots.levels import BUDGET_MS, LEVELS, EasyBot
from mazo.core.rng import Rng

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("briscola", {"players": 2}),
    ("escoba", {"players": 4}),
    ("envite", {"players": 6}),
    ("trionfetti", {}),
]


def test_every_level_is_a_registered_bot() -> None:
    assert set(LEVELS) <= set(list_bots())
    game = mazo.load_game("briscola", players=2)
    for level in LEVELS:
        assert mazo.make_bot(level, game, seed=1).name == level


def test_search_levels_think_for_their_budget_unless_told_otherwise() -> None:
    game = mazo.load_game("escoba", players=2)
    hard = mazo.make_bot("hard", game, seed=1)
    expert = mazo.make_bot("expert", game, seed=1)
    assert isinstance(hard, ISMCTSBot) and isinstance(expert, ISMCTSBot)
    assert (
        (hard.think_ms, expert.think_ms)
        == (BUDGET_MS["hard"], BUDGET_MS["expert"])
        == (
            200,
            1000,
        )
    )
    # A sample count replaces the clock (reproducible tournaments on any machine).
    counted = mazo.make_bot("expert", game, seed=1, iterations=30)
    assert isinstance(counted, ISMCTSBot) and counted.think_ms == 0 and counted.iterations == 30
    with pytest.raises(mazo.RulesError, match="options are"):
        mazo.make_bot("hard", game, seed=1, speed=3)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_levels_play_legal_moves(name: str, options: dict[str, Any]) -> None:
    game = mazo.load_game(name, **options)
    bots = {
        "easy": mazo.make_bot("easy", game, seed=2),
        "normal": mazo.make_bot("normal", game, seed=2),
        "hard": mazo.make_bot("hard", game, seed=2, iterations=5),
    }
    rng = Rng(5)
    state = game.new_match(seed=9)
    for turn in range(60):
        if state.match_over:
            break
        seat = state.to_act
        level = LEVELS[turn % 3]
        action = bots[level].choose(state.observation(seat))
        assert action in state.legal_actions(seat), (level, turn)
        if turn % 4 == 3:  # now and then a random move, to reach varied positions
            legal = state.legal_actions(seat)
            action = legal[rng.randbelow(len(legal))]
        state = state.apply(action, seat=seat)


def test_easy_slips_sometimes_and_never_without_a_slip_chance() -> None:
    """With slip 0 easy is the heuristic, move for move; with the default it differs
    from the heuristic in some positions but never plays an illegal move."""
    game = mazo.load_game("briscola", players=2)
    heuristic = mazo.make_bot("heuristic", game, seed=4)
    steady = EasyBot(game, 4, slip=0)
    sloppy = EasyBot(game, 4)
    differ = 0
    asked = 0
    for match in range(3):
        state = game.new_match(seed=match)
        while not state.match_over:
            obs = state.observation(state.to_act)
            best = heuristic.choose(obs)
            assert steady.choose(obs) == best
            mine = sloppy.choose(obs)
            assert mine in state.legal_actions()
            differ += mine != best
            asked += 1
            state = state.apply(best)
    # A third of the moves are random, and a random card is often not the heuristic's.
    assert 0.05 * asked < differ < 0.5 * asked
    for bad in (-0.1, 1.5, "often"):
        with pytest.raises(mazo.RulesError, match="slip"):
            EasyBot(game, 1, slip=bad)


def test_search_levels_answer_out_of_turn() -> None:
    """An Envite seat that may call envío (or answer a bet) out of turn is asked: the search
    level answers legally even where its guiding heuristic has nothing to do."""
    game = mazo.load_game("envite", players=4)
    bot = mazo.make_bot("expert", game, seed=1, iterations=5)
    rng = Rng(2)
    state = game.new_match(seed=3)
    asked = 0
    searched = 0  # asks with a real choice (one legal move is played without search)
    for _ in range(300):
        if state.match_over:
            break
        talk = game.info.message_actions
        others = [
            s
            for s in range(4)
            if s != state.to_act and any(a not in talk for a in state.legal_actions(s))
        ]
        if others:
            action = bot.choose(state.observation(others[0]))
            assert action in state.legal_actions(others[0])
            asked += 1
            searched += len([a for a in state.legal_actions(others[0]) if a not in talk]) > 1
        legal = state.legal_actions()
        state = state.apply(legal[rng.randbelow(len(legal))])
    assert asked > 10 and searched > 0


def test_search_levels_presets() -> None:
    """The measured presets (docs/strength.md): every game compares its moves on common
    worlds; Briscola, Escoba and Envite score lines with the game's own reward, Trionfetti
    in points with its bets left to the heuristic; Envite also weighs its bets, on samples
    that fit the others' bets."""
    # game, players: (reward, bets left to the heuristic, paired)
    presets = {
        ("envite", 4): ("game", False, True),
        ("trionfetti", 4): ("points", True, True),
        ("briscola", 2): ("game", False, True),
        ("escoba", 2): ("game", False, True),
    }
    for level in ("hard", "expert"):
        for (name, players), want in presets.items():
            bot: Any = mazo.make_bot(level, mazo.load_game(name, players=players), seed=1)
            assert (bot.reward_name, bot.bets_by_heuristic, bot.paired) == want, name
            if name == "envite":
                assert bot.readers is not None and bot.read_from == 40


def test_a_net_prior_in_a_preset_is_kept_only_where_the_net_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game's ``SEARCH_PRESET`` may ask for the net's ``prior``; the search levels keep
    it where the shipped net fits the configuration, drop it where none does (another
    player count), and drop it with a warning where numpy is missing."""
    import importlib.util

    import mazo.bots.heuristic.briscola as heuristic
    import mazo.bots.ismcts as ismcts
    from mazo.bots.levels import search_preset

    monkeypatch.setattr(heuristic, "SEARCH_PRESET", {**heuristic.SEARCH_PRESET, "prior": 40})

    def prior_net(game: Any, weights: Any = None) -> Any:
        if game.players != 2:
            raise mazo.RulesError("no net for this count")
        return object()

    monkeypatch.setattr(ismcts, "prior_net", prior_net)
    assert search_preset(mazo.load_game("briscola", players=2))["prior"] == 40
    assert "prior" not in search_preset(mazo.load_game("briscola", players=4))
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else real(name, *a)
    )
    with pytest.warns(UserWarning, match="needs numpy"):
        assert "prior" not in search_preset(mazo.load_game("briscola", players=2))


@pytest.mark.parametrize("infer", ["net", "both"])
def test_infer_net_in_a_preset_falls_back_where_the_net_does_not_fit(
    monkeypatch: pytest.MonkeyPatch, infer: str
) -> None:
    """A preset that weighs its samples by the net (``infer=net``) keeps it where the
    shipped net has a cards head for the configuration, and plays the game's
    ``SEARCH_WITHOUT_NET`` settings elsewhere (another player count, no numpy)."""
    import importlib.util

    import mazo.bots.heuristic.briscola as heuristic
    import mazo.bots.ismcts as ismcts
    from mazo.bots.levels import search_preset

    monkeypatch.setattr(
        heuristic, "SEARCH_PRESET", {**heuristic.SEARCH_PRESET, "infer": infer, "pool": 16}
    )
    monkeypatch.setattr(
        heuristic, "SEARCH_WITHOUT_NET", {"infer": "plays", "pool": 4}, raising=False
    )

    def cards_net(game: Any, weights: Any = None) -> Any:
        if game.players != 2:
            raise mazo.RulesError("no net for this count")
        return object()

    monkeypatch.setattr(ismcts, "cards_net", cards_net)
    two = search_preset(mazo.load_game("briscola", players=2))
    assert (two["infer"], two["pool"]) == (infer, 16)
    four = search_preset(mazo.load_game("briscola", players=4))
    assert (four["infer"], four["pool"]) == ("plays", 4)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else real(name, *a)
    )
    with pytest.warns(UserWarning, match="needs numpy"):
        assert search_preset(mazo.load_game("briscola", players=2))["infer"] == "plays"


def test_hint_net_in_a_preset_falls_back_where_the_net_does_not_fit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Envite's preset keeps the net's move (``hint=net``) where the shipped net covers
    the player count (four and eight), and plays its ``SEARCH_WITHOUT_NET`` settings (the
    guide off, the heuristic's hint) at six, which has no net, and without numpy, with a
    warning there; the search levels built from it carry the net or not."""
    import importlib.util

    from mazo.bots.levels import search_preset

    four, six, eight = (mazo.load_game("envite", players=n) for n in (4, 6, 8))
    assert (search_preset(four)["hint"], search_preset(four)["guide"]) == ("net", 0.001)
    assert (search_preset(eight)["hint"], search_preset(eight)["guide"]) == ("net", 0.001)
    assert (search_preset(six)["hint"], search_preset(six)["guide"]) == ("heuristic", 0.0)
    trionfetti = mazo.load_game("trionfetti", players=4)
    assert search_preset(trionfetti)["hint"] == "net"
    for game, has_net in ((four, True), (six, False), (eight, True), (trionfetti, True)):
        bot: Any = mazo.make_bot("expert", game, seed=1)
        assert (bot.hint_net is not None) == has_net, game
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "numpy" else real(name, *a)
    )
    with pytest.warns(UserWarning, match="needs numpy"):
        assert search_preset(four)["hint"] == "heuristic"
    with pytest.warns(UserWarning, match="needs numpy"):
        assert search_preset(trionfetti)["hint"] == "heuristic"


def test_the_extras_that_serve_players_bring_the_nets_numpy() -> None:
    """Two-player Briscola's search levels read the shipped net, whose inference needs
    numpy: ``make run`` (the ``server`` and ``cli`` extras) and the terminal client must
    install it, or people play the fallback without knowing."""
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    extras = project["project"]["optional-dependencies"]
    for extra in ("server", "cli", "rl"):
        assert any(dep.startswith("numpy==") for dep in extras[extra]), extra
