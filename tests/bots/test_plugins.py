"""Plugin bots: ``package.module:factory`` wherever a bot is named.

The bots below live in this module, which the tests import as ``bots.test_plugins`` (the
``tests`` folder is on ``sys.path`` under pytest), so ``bots.test_plugins:MakeFirst`` names
one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import mazo
from mazo.bots import PluginBotError, make_bot
from mazo.core.game import Game
from mazo.sim import run
from mazo.sim.tournament import parse_bot_spec, run_tournament

PATH = "bots.test_plugins:MakeFirst"


class FirstLegal:
    """Plays the first (or last) legal action of its observation; has no ``name``."""

    def __init__(self, game: Game, pick: str) -> None:
        self.game = game
        self.pick = pick

    def choose(self, observation: Mapping[str, Any]) -> int:
        legal = observation["legal_actions"]
        action = legal[0] if self.pick == "first" else legal[-1]
        return self.game.string_to_action(action)


def MakeFirst(game: Game, seed: int, pick: str = "first") -> FirstLegal:
    """The factory; a capitalised name checks that plugin paths keep their case."""
    if pick not in ("first", "last"):
        raise mazo.RulesError(f"pick is first or last, not {pick!r}")
    return FirstLegal(game, pick)


def make_named(game: Game, seed: int) -> Any:
    bot = FirstLegal(game, "first")
    bot.name = "firsty"  # type: ignore[attr-defined]
    return bot


def make_nothing(game: Game, seed: int) -> object:
    return object()


NOT_CALLABLE = 42


def test_make_bot_loads_a_factory() -> None:
    game = mazo.load_game("briscola", players=2)
    state = game.new_match(seed=3)
    bot = make_bot(PATH, game, seed=1)
    assert bot.name == PATH  # a bot without a name is named by its path
    obs = state.observation(state.to_act)
    assert bot.choose(obs) == game.string_to_action(obs["legal_actions"][0])
    last = make_bot(PATH, game, seed=1, pick="last")
    assert last.choose(obs) == game.string_to_action(obs["legal_actions"][-1])
    assert make_bot("bots.test_plugins:make_named", game).name == "firsty"
    assert mazo.make_bot(PATH, game, seed=2).choose(obs) in state.legal_actions()


@pytest.mark.parametrize(
    ("path", "needle"),
    [
        ("no_such_module_xyz:make", "no module named 'no_such_module_xyz'"),
        ("no_such_pkg_xyz.bots:make", "no module named 'no_such_pkg_xyz.bots'"),
        ("bots.test_plugins:missing", "module 'bots.test_plugins' has no attribute 'missing'"),
        ("bots.test_plugins:NOT_CALLABLE", "is not callable"),
        ("bots.test_plugins:make_nothing", "has no choose(observation) method"),
        ("bots.test_plugins", "package.module:factory"),
        ("bots.test_plugins:", "package.module:factory"),
        ("ismcts:iterations", "options go after the name as :key=value"),
    ],
)
def test_clear_errors(path: str, needle: str) -> None:
    game = mazo.load_game("briscola", players=2)
    with pytest.raises(mazo.RulesError) as caught:
        make_bot(path, game)
    assert needle in str(caught.value)


def test_a_broken_plugin_module_says_what_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "broken_bot_xyz.py").write_text("import missing_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginBotError, match="importing 'broken_bot_xyz' failed") as caught:
        make_bot("broken_bot_xyz:make", mazo.load_game("briscola", players=2))
    assert isinstance(caught.value, ImportError)  # `mazo play --vs` reports it as such
    assert "missing_dependency_xyz" in str(caught.value)


def test_bad_factory_options_are_the_factorys_errors() -> None:
    with pytest.raises(mazo.RulesError, match="pick is first or last"):
        make_bot(PATH, mazo.load_game("briscola", players=2), pick="middle")
    with pytest.raises(TypeError):
        make_bot(PATH, mazo.load_game("briscola", players=2), depth=3)


def test_spec_parsing_keeps_the_path() -> None:
    assert parse_bot_spec(PATH) == (PATH, {})
    assert parse_bot_spec(f"{PATH}:pick=last") == (PATH, {"pick": "last"})
    assert parse_bot_spec("Random") == ("random", {})


def test_sim_and_tournament_in_the_library() -> None:
    result = run("briscola", [PATH, "random"], games=4, players=2, seed=1)
    assert list(result.stats) == [PATH, "random"]
    assert sum(s.entries for s in result.stats.values()) == 8
    tour = run_tournament("escoba", [f"{PATH}:pick=last", "random"], games=1, seed=2)
    assert [b.label for b in tour.bots] == [f"{PATH}:pick=last", "random"]
    assert tour.matches == 2


def test_tournament_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(
        [
            "tournament",
            "briscola",
            "-n",
            "2",
            "--bots",
            f"{PATH},normal,{PATH}:pick=last",
            "--games",
            "2",
            "--seed",
            "7",
            "--workers",
            "1",
            "--json",
        ],
        capsys,
        monkeypatch,
    )
    assert code == 0, err
    data = json.loads(out)
    assert [b["label"] for b in data["bots"]] == [PATH, "normal", f"{PATH}:pick=last"]
    assert data["bots"][2] == {
        "label": f"{PATH}:pick=last",
        "bot": PATH,
        "options": {"pick": "last"},
    }
    assert data["matches"] == 3 * 2 * 2
    # The heuristic beats a bot that always plays its first card.
    assert data["totals"]["normal"]["wins"] > data["totals"][PATH]["wins"]


def test_sim_command_and_errors(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["sim", "briscola", "-n", "2", "--games", "2", "--seed", "1", "--json"]
    code, out, err = run_cli([*argv, "--bots", f"{PATH},random"], capsys, monkeypatch)
    assert code == 0, err
    assert list(json.loads(out)["results"]) == [PATH, "random"]
    code, out, err = run_cli(
        [*argv, "--bots", "bots.test_plugins:nope,random"], capsys, monkeypatch
    )
    assert code == 2
    assert "has no attribute 'nope'" in err
    code, _, err = run_cli(
        ["tournament", "briscola", "--games", "1", "--bots", "nowhere_xyz.bots:make,random"],
        capsys,
        monkeypatch,
    )
    assert code == 2
    assert "no module named 'nowhere_xyz.bots'" in err
