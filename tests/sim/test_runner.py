"""The simulation runner, its statistics and the ``mazo sim`` command."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import mazo
from mazo.bots import make_bot
from mazo.core.rng import derive_seed
from mazo.record import load_record
from mazo.sim import lineup, play_match, run, wilson_interval
from mazo.sim.stats import Z95

# -- Wilson score interval ----------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [
        # Published values (Newcombe 1998, Table I, "score method": 81/263, 15/148, 0/20,
        # 1/29) and the textbook 8 of 10.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (8, 10, 0.4902, 0.9433),
    ],
)
def test_wilson_known_values(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson_interval(k, n)
    assert got[0] == pytest.approx(lo, abs=6e-5)
    assert got[1] == pytest.approx(hi, abs=6e-5)


def test_wilson_solves_the_score_equation() -> None:
    # The bounds are the p where |k/n - p| = z * sqrt(p(1-p)/n); check by bisection.
    def root(k: int, n: int, a: float, b: float) -> float:
        def f(p: float) -> float:
            return (k / n - p) ** 2 - Z95**2 * p * (1 - p) / n

        for _ in range(200):
            mid = (a + b) / 2
            if (f(a) > 0) == (f(mid) > 0):
                a = mid
            else:
                b = mid
        return (a + b) / 2

    for k, n in [(3, 7), (50, 60), (123, 400), (1, 2)]:
        lo, hi = wilson_interval(k, n)
        assert lo == pytest.approx(root(k, n, 0.0, k / n), abs=1e-9)
        assert hi == pytest.approx(root(k, n, k / n, 1.0), abs=1e-9)
        assert lo < k / n < hi


def test_wilson_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(5, 5)[1] == 1.0 and wilson_interval(0, 5)[0] == 0.0
    narrow, wide = wilson_interval(500, 1000), wilson_interval(5, 10)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


# -- seat rotation -------------------------------------------------------------------


def test_lineup_rotates_sides() -> None:
    assert [lineup(["A", "B"], 2, i) for i in range(3)] == [["A", "B"], ["B", "A"], ["A", "B"]]
    assert [lineup(["A", "B", "C"], 2, i) for i in range(3)] == [
        ["A", "B"],
        ["B", "C"],
        ["C", "A"],
    ]


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_rotation_is_balanced(players: int, tmp_path: Path) -> None:
    games = 6
    result = run(
        "briscola", ["heuristic", "random"], games=games, players=players, seed=9, save_dir=tmp_path
    )
    seats: Counter[tuple[int, str]] = Counter()
    for path in sorted(tmp_path.glob("match-*.json")):
        for seat, bot in enumerate(load_record(path)["sim"]["bots"]):
            seats[seat, bot] += 1
    # Every bot sits at every seat equally often.
    for seat in range(players):
        assert seats[seat, "heuristic"] == seats[seat, "random"] == games // 2
    sides = 3 if players == 3 else 2
    h, r = result.stats["heuristic"], result.stats["random"]
    assert h.entries == r.entries == games * sides // 2
    assert h.wins + r.wins == games  # one winning side per match


def test_every_match_has_exactly_one_winning_entry() -> None:
    result = run("briscola", ["random", "random"], games=8, players=3, seed=4)
    a, b = result.stats["random#1"], result.stats["random#2"]
    assert a.entries + b.entries == 8 * 3
    assert a.wins + b.wins == 8  # Briscola matches always end with a winner
    assert a.matches == b.matches == 8


def test_results_are_reproducible() -> None:
    first = run("briscola", ["heuristic", "random"], games=6, players=4, seed=123)
    again = run("briscola", ["heuristic", "random"], games=6, players=4, seed=123)
    other = run("briscola", ["heuristic", "random"], games=6, players=4, seed=124)
    assert first.to_json() == again.to_json()
    assert first.to_json()["results"] != other.to_json()["results"]


def test_json_shape() -> None:
    result = run(
        "briscola",
        ["heuristic", "random"],
        games=4,
        players=2,
        seed=1,
        options={"match_wins_target": 2},
    )
    data = json.loads(json.dumps(result.to_json()))
    assert data["game"] == "briscola" and data["players"] == 2 and data["games"] == 4
    assert data["seed"] == 1 and data["options"]["match_wins_target"] == 2
    assert data["bots"] == ["heuristic", "random"]
    keys = {
        "bot",
        "matches",
        "entries",
        "wins",
        "draws",
        "losses",
        "win_rate",
        "win_ci95",
        "deals",
        "mean_deal_points",
        "mean_deal_wins",
    }
    for label, row in data["results"].items():
        assert set(row) == keys and row["bot"] == label
        lo, hi = row["win_ci95"]
        assert 0 <= lo <= row["win_rate"] <= hi <= 1
        assert row["wins"] + row["draws"] + row["losses"] == row["entries"] == 4
        assert 0 <= row["mean_deal_points"] <= 120
    total = sum(r["mean_deal_points"] for r in data["results"].values())
    assert total == pytest.approx(120)  # both sides of every deal, 120 card points


def test_progress_callback() -> None:
    calls: list[tuple[int, int]] = []
    run(
        "briscola",
        ["random"],
        games=3,
        players=2,
        seed=1,
        progress=lambda d, t: calls.append((d, t)),
    )
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_records_replay(tmp_path: Path) -> None:
    run("briscola", ["heuristic", "random"], games=3, players=4, seed=5, save_dir=tmp_path)
    paths = sorted(tmp_path.glob("match-*.json"))
    assert [p.name for p in paths] == ["match-0000.json", "match-0001.json", "match-0002.json"]
    for i, path in enumerate(paths):
        record = load_record(path)
        state: Any = mazo.replay(record)
        assert state.match_over and state.winner == record["winner"]
        # The saved match is the one the runner plays for that index.
        game = mazo.load_game("briscola", players=4)
        labels = record["sim"]["bots"]
        bots = [make_bot(b, game, seed=derive_seed(5, "bot", i, s)) for s, b in enumerate(labels)]
        again = play_match(game, bots, seed=derive_seed(5, "match", i))
        assert again.record()["actions"] == record["actions"]


def test_bad_input() -> None:
    with pytest.raises(mazo.RulesError, match="bots are"):
        run("briscola", ["heuristic", "alphazero"], games=2, players=2)
    with pytest.raises(mazo.RulesError, match="games are"):
        run("chess", ["random"], games=2)
    with pytest.raises(mazo.RulesError, match="no option"):
        run("briscola", ["random"], games=2, options={"jokers": True})
    with pytest.raises(mazo.RulesError):
        run("briscola", ["random"], games=0)


def test_bot_specs_carry_their_options() -> None:
    # ``ismcts:iterations=5`` was passed whole to the plugin loader and refused.
    result = run("briscola", ["ismcts:iterations=5", "normal"], games=2, players=2, seed=1)
    assert list(result.stats) == ["ismcts:iterations=5", "normal"]
    assert all(s.entries == 2 for s in result.stats.values())
    # The spec's options reach the bot, over the options given to every bot.
    with pytest.raises(mazo.RulesError, match="iterations must be a positive int"):
        run("briscola", ["ismcts:iterations=0", "normal"], games=1, players=2)
    with pytest.raises(mazo.RulesError, match="has no option foo"):
        run("briscola", ["ismcts:foo=1", "normal"], games=1, players=2)
    # The same bots through --bot-option play the same matches.
    specs = run("briscola", ["ismcts:iterations=3"] * 2, games=2, players=2, seed=4)
    common = run(
        "briscola", ["ismcts"] * 2, games=2, players=2, seed=4, bot_options={"iterations": 3}
    )
    assert [s.to_json() | {"bot": 0} for s in specs.stats.values()] == [
        s.to_json() | {"bot": 0} for s in common.stats.values()
    ]


def test_cli_takes_bot_specs(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli(
        "briscola", "--bots", "ismcts:iterations=5,normal", "-g", "2", "--seed", "1", "--json"
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert set(json.loads(out)["results"]) == {"ismcts:iterations=5", "normal"}


def test_play_match_checks_bots() -> None:
    game = mazo.load_game("briscola", players=2)
    with pytest.raises(mazo.RulesError):
        play_match(game, [make_bot("random", game, seed=1)], seed=1)

    class Cheat:
        name = "cheat"

        def choose(self, observation: Mapping[str, Any]) -> int:
            return 49  # "decline", never legal without the exchange option

    with pytest.raises(mazo.IllegalActionError, match="cheat"):
        play_match(game, [Cheat(), Cheat()], seed=1)


# -- the command ----------------------------------------------------------------------


def cli(*argv: str) -> int:
    from mazo.cli import sim

    parser = argparse.ArgumentParser(prog="mazo")
    sim.add_parser(parser.add_subparsers(dest="command"))
    return sim.run(parser.parse_args(["sim", *argv]))


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli("briscola", "--games", "4", "--players", "2", "--seed", "3", "--json")
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["seed"] == 3 and set(data["results"]) == {"heuristic", "random"}
    assert data == run("briscola", ["heuristic", "random"], games=4, players=2, seed=3).to_json()


def test_cli_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = cli(
        "briscola",
        "-g",
        "2",
        "-n",
        "4",
        "--seed",
        "1",
        "--bots",
        "random,heuristic",
        "--save",
        str(tmp_path),
        "-o",
        "match_wins_target=2",
    )
    out, _ = capsys.readouterr()
    assert code == 0
    assert "heuristic" in out and "95% CI" in out and "seed 1" in out
    assert len(list(tmp_path.glob("match-*.json"))) == 2


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["briscola", "--bots", "heuristic,nope"], "unknown bot 'nope'"),
        (["poker"], "unknown game 'poker'"),
        (["briscola", "-o", "jokers=2"], "no option jokers"),
        (["briscola", "-o", "match_wins_target=7"], "match_wins_target"),
        (["briscola", "--players", "5"], "5"),
        (["briscola", "--bot-option", "depth=3"], "no option depth"),
        (["briscola", "--games", "0"], "--games"),
    ],
)
def test_cli_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code = cli(*argv, "--json")
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1 and err.startswith("mazo sim: error:")


def test_cli_help_explains(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli("--help")
    out, _ = capsys.readouterr()
    assert "--bots" in out and "rotation" in out and "Wilson" in out
