"""Tournaments: duplicate deals, round robin, statistics, Elo, workers, the command."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

import mazo
from mazo.core.rng import Rng, derive_seed
from mazo.sim.elo import PairRecord, expected_score, fit_elo
from mazo.sim.stats import Z95, RunningMean, mean_interval
from mazo.sim.tournament import (
    parse_bot_spec,
    play_job,
    rotations,
    run_tournament,
    tournament_jobs,
)

# -- reproducibility --------------------------------------------------------------------


def test_same_seed_same_results_whatever_the_workers() -> None:
    args: dict[str, Any] = {"games": 3, "players": 2, "seed": 11}
    bots = ["heuristic", "random", "random"]
    first = run_tournament("briscola", bots, **args).to_json()
    again = run_tournament("briscola", bots, **args).to_json()
    parallel = run_tournament("briscola", bots, workers=2, **args).to_json()
    assert first == again == parallel
    assert json.loads(json.dumps(first)) == first  # JSON-ready as it is
    other = run_tournament("briscola", bots, games=3, players=2, seed=12).to_json()
    assert other["pairs"] != first["pairs"]


def test_three_players_in_parallel_match_in_process() -> None:
    args: dict[str, Any] = {"games": 2, "players": 3, "seed": 4}
    one = run_tournament("escoba", ["heuristic", "random"], workers=1, **args)
    two = run_tournament("escoba", ["heuristic", "random"], workers=2, **args)
    assert one.to_json() == two.to_json()


# -- the schedule: duplicate deals --------------------------------------------------------


def test_rotations_put_each_bot_on_each_side_equally_often() -> None:
    assert rotations(2) == [(0, 1), (1, 0)]
    for sides in (2, 3, 4, 5):
        rots = rotations(sides)
        assert len(set(rots)) == len(rots)
        for side in range(sides):
            held = Counter(order[side] for order in rots)
            assert held[0] == held[1] == len(rots) // 2
        # Swapping the two bots gives the same set of rotations.
        assert {tuple(1 - k for k in order) for order in rots} == set(rots)


@pytest.mark.parametrize(("game", "players"), [("briscola", 2), ("briscola", 3), ("escoba", 3)])
def test_rotations_of_a_deal_set_are_played_on_the_same_cards(game: str, players: int) -> None:
    jobs = tournament_jobs(
        game, ["heuristic", "random", "random"], games=2, players=players, seed=8
    )
    sides = 3 if players == 3 else 2
    per_set = len(rotations(sides))
    assert len(jobs) == 3 * 2 * per_set  # pairs x deal sets x rotations
    assert [j.number for j in jobs] == list(range(len(jobs)))
    starts: dict[int, set[tuple[Any, ...]]] = {}
    for job in jobs:
        # Every pair sees the same deals: the match seed depends on the deal set only.
        assert job.match_seed == derive_seed(8, "deal", job.deal_set)
        if job.pair == 0:
            record = play_job(job).record()
            first = record["deals"][0]
            starts.setdefault(job.deal_set, set()).add((tuple(first["deck"]), first["dealer"]))
    # Within a deal set, all rotations start from the same pack and the same dealer...
    assert all(len(s) == 1 for s in starts.values())
    # ...and the two deal sets are different deals.
    assert starts[0] != starts[1]
    # Each deal set of pair 0 holds both bots on every side equally often.
    for i in range(2):
        held = Counter(
            (side, label)
            for job in jobs
            if job.pair == 0 and job.deal_set == i
            for side, label in enumerate(job.by_side)
        )
        for side in range(sides):
            assert held[side, "heuristic"] == held[side, "random#1"] == per_set // 2


def test_later_deals_are_duplicated_too() -> None:
    # Both rotations of one deal set: every deal they both reached used the same pack.
    a, b = tournament_jobs("briscola", ["heuristic", "random"], games=1, players=2, seed=3)
    deals_a = play_job(a).record()["deals"]
    deals_b = play_job(b).record()["deals"]
    common = min(len(deals_a), len(deals_b))
    assert common >= 2
    assert deals_a[:common] == deals_b[:common]


def test_team_partners_are_the_same_bot_and_seeds_are_distinct() -> None:
    jobs = tournament_jobs("briscola", ["heuristic", "random"], games=2, players=4, seed=1)
    for job in jobs:
        assert [b.label for b in job.seat_bots] == [job.by_side[s % 2] for s in range(4)]
        assert job.bot_seeds == tuple(
            derive_seed(1, "bot", job.pair, job.deal_set, job.rotation, s) for s in range(4)
        )
    assert len({s for job in jobs for s in job.bot_seeds}) == 4 * len(jobs)


def test_bot_specs() -> None:
    assert parse_bot_spec("ismcts:iterations=5:exploration=0.5") == (
        "ismcts",
        {"iterations": 5, "exploration": 0.5},
    )
    assert parse_bot_spec("random:signals=no") == ("random", {"signals": False})
    jobs = tournament_jobs(
        "briscola", ["ismcts:iterations=5", "random", "random"], games=1, players=2
    )
    labels = {b.label: b for job in jobs for b in job.seat_bots}
    assert set(labels) == {"ismcts:iterations=5", "random#1", "random#2"}
    assert labels["ismcts:iterations=5"].name == "ismcts"
    assert dict(labels["ismcts:iterations=5"].options) == {"iterations": 5}


@pytest.mark.parametrize(
    ("bots", "kwargs", "needle"),
    [
        (["heuristic", "alphazero"], {}, "bots are"),
        (["heuristic", "random:depth=3"], {}, "options are"),
        (["heuristic", "ismcts:iterations=0"], {}, "iterations"),
        (["heuristic"], {}, "at least two"),
        (["heuristic", "random"], {"games": 0}, "positive"),
        (["heuristic", "random"], {"players": 5}, "players"),
        (["heuristic", "random"], {"options": {"jokers": 1}}, "no option jokers"),
    ],
)
def test_bad_input_is_refused_before_playing(
    bots: list[str], kwargs: dict[str, Any], needle: str
) -> None:
    args: dict[str, Any] = {"games": 1, **kwargs}
    with pytest.raises(mazo.RulesError, match=needle):
        tournament_jobs("briscola", bots, **args)
    with pytest.raises(mazo.RulesError, match=needle):
        run_tournament("briscola", bots, **args)


# -- the tallies --------------------------------------------------------------------------


def test_tallies_agree_with_the_matches() -> None:
    bots = ["heuristic", "random", "random"]
    result = run_tournament("briscola", bots, games=2, players=2, seed=6)
    jobs = tournament_jobs("briscola", bots, games=2, players=2, seed=6)
    assert result.matches == len(jobs) == 12
    wins: Counter[tuple[int, str]] = Counter()
    per_set: Counter[tuple[int, int, str]] = Counter()
    points: dict[tuple[int, str], list[int]] = {}
    for job in jobs:
        state = play_job(job)
        assert state.winner is not None  # Briscola matches always have a winner
        winner = job.by_side[state.winner]
        wins[job.pair, winner] += 1
        per_set[job.pair, job.deal_set, winner] += 1
        for e in state.events:
            if e["type"] == "hand_end":
                for side, label in enumerate(job.by_side):
                    points.setdefault((job.pair, label), []).append(e["points"][side])
    for p, pair in enumerate(result.pairs):
        for me, other in ((pair.a, pair.b), (pair.b, pair.a)):
            s = pair.stats[me]
            assert s.matches == s.entries == 4
            assert s.wins == s.match_wins == wins[p, me]
            assert s.wins + s.draws + s.losses == s.entries
            better = sum(per_set[p, i, me] > per_set[p, i, other] for i in range(2))
            even = sum(per_set[p, i, me] == per_set[p, i, other] for i in range(2))
            assert (s.better, s.even, s.worse) == (better, even, 2 - better - even)
            assert s.deal_points.mean == pytest.approx(sum(points[p, me]) / len(points[p, me]))
        # Two sides, 120 card points a deal.
        total = pair.stats[pair.a].deal_points.mean + pair.stats[pair.b].deal_points.mean
        assert total == pytest.approx(120)
    # The per-bot totals add up the pairs.
    for label, t in result.totals.items():
        mine = [p.stats[label] for p in result.pairs if label in p.stats]
        assert len(mine) == 2
        assert t.wins == sum(s.wins for s in mine) and t.entries == sum(s.entries for s in mine)
        assert t.better + t.even + t.worse == 4


def test_three_sided_entries_and_match_wins() -> None:
    result = run_tournament("briscola", ["heuristic", "random"], games=2, players=3, seed=2)
    (pair,) = result.pairs
    h, r = pair.stats["heuristic"], pair.stats["random"]
    assert h.matches == r.matches == 12  # one deal set: six rotations
    assert h.entries == r.entries == 18  # half of the 36 sides each
    assert h.match_wins + r.match_wins + h.match_draws == 12
    assert h.wins + r.wins == h.match_wins + r.match_wins  # one winning side per match
    assert pair.record().games == 12


def test_progress_counts_matches() -> None:
    for workers in (1, 2):
        calls: list[tuple[int, int]] = []

        def progress(done: int, total: int, calls: list[tuple[int, int]] = calls) -> None:
            calls.append((done, total))

        run_tournament(
            "briscola",
            ["heuristic", "random"],
            games=3,
            players=2,
            seed=1,
            workers=workers,
            progress=progress,
        )
        done = [d for d, _ in calls]
        assert done == sorted(done) and done[-1] == 6 and {t for _, t in calls} == {6}


# -- statistics ---------------------------------------------------------------------------


def test_mean_interval_formula() -> None:
    # 1..5: mean 3, s = sqrt(2.5), half width 1.959964 * sqrt(2.5) / sqrt(5).
    lo, hi = mean_interval([1, 2, 3, 4, 5]) or (0.0, 0.0)
    half = Z95 * math.sqrt(2.5) / math.sqrt(5)
    assert (lo, hi) == pytest.approx((3 - half, 3 + half))
    assert half == pytest.approx(1.3859, abs=1e-4)
    assert mean_interval([4.0]) is None and mean_interval([]) is None
    assert mean_interval([2, 2, 2]) == (2.0, 2.0)
    # The running version agrees with the two-pass formula on awkward data.
    rng = Rng(5)
    values = [1e6 + rng.randbelow(1000) / 7 for _ in range(500)]
    running = RunningMean()
    for v in values:
        running.add(v)
    mean = sum(values) / len(values)
    s = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    assert running.mean == pytest.approx(mean, rel=1e-12)
    assert running.stdev == pytest.approx(s, rel=1e-9)


def test_elo_three_to_one_is_about_191_points() -> None:
    ratings = fit_elo(["A", "B"], [PairRecord("A", "B", games=4, score=3.0)], prior=0)
    assert ratings["A"] - ratings["B"] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert ratings["A"] - ratings["B"] == pytest.approx(190.85, abs=0.01)
    assert (ratings["A"] + ratings["B"]) / 2 == pytest.approx(1500)
    assert expected_score(ratings["A"], ratings["B"]) == pytest.approx(0.75)
    # The default prior (one virtual draw) barely moves a large sample...
    big = fit_elo(["A", "B"], [PairRecord("A", "B", games=4000, score=3000.0)])
    assert big["A"] - big["B"] == pytest.approx(190.85, abs=0.2)
    # ...keeps a clean sweep finite, and without it the fit is refused.
    sweep = fit_elo(["A", "B"], [PairRecord("A", "B", games=4, score=4.0)])
    assert sweep["A"] - sweep["B"] == pytest.approx(400 * math.log10(9), abs=1e-6)
    with pytest.raises(ValueError, match="infinite"):
        fit_elo(["A", "B"], [PairRecord("A", "B", games=4, score=4.0)], prior=0)


def test_elo_symmetric_and_transitive() -> None:
    even = [
        PairRecord("A", "B", 10, 5.0),
        PairRecord("B", "C", 10, 5.0),
        PairRecord("A", "C", 6, 3.0),
    ]
    ratings = fit_elo(["A", "B", "C"], even)
    assert all(r == pytest.approx(1500) for r in ratings.values())
    # Strengths 9 : 3 : 1 predict exactly these results: A-B 3/4, B-C 3/4, A-C 9/10.
    chain = [
        PairRecord("A", "B", 8, 6.0),
        PairRecord("B", "C", 8, 6.0),
        PairRecord("A", "C", 10, 9.0),
    ]
    ratings = fit_elo(["A", "B", "C"], chain, prior=0)
    step = 400 * math.log10(3)
    assert ratings["A"] - ratings["B"] == pytest.approx(step, abs=1e-5)
    assert ratings["B"] - ratings["C"] == pytest.approx(step, abs=1e-5)
    assert sum(ratings.values()) / 3 == pytest.approx(1500)


def test_tournament_elo_ranks_the_winner_first() -> None:
    result = run_tournament("briscola", ["random", "heuristic"], games=4, players=2, seed=3)
    (pair,) = result.pairs
    record = pair.record()
    assert record.a == "random" and record.games == 8
    table = result.elo_table()
    stronger = "heuristic" if record.score < record.games / 2 else "random"
    assert table[0][0] == stronger
    assert sum(r for _, r in table) / 2 == pytest.approx(1500)


# -- the command ------------------------------------------------------------------------


def test_cli_json(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["tournament", "briscola", "--bots", "heuristic,random", "-g", "2", "--seed", "5"]
    code, out, err = run_cli([*argv, "--json", "--workers", "1"], capsys, monkeypatch)
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data == run_tournament("briscola", ["heuristic", "random"], games=2, seed=5).to_json()
    assert data["seed"] == 5 and data["games"] == 2 and data["matches"] == 4
    assert data["rotations"] == ["AB", "BA"]
    assert [b["label"] for b in data["bots"]] == ["heuristic", "random"]
    (pair,) = data["pairs"]
    assert pair["bots"] == ["heuristic", "random"] and pair["matches"] == 4
    row = pair["results"]["heuristic"]
    for key in ("win_rate", "win_ci95", "mean_deal_points", "deal_points_ci95", "duplicate"):
        assert key in row
    lo, hi = row["win_ci95"]
    assert 0 <= lo <= row["win_rate"] <= hi <= 1
    assert set(data["totals"]) == {"heuristic", "random"}
    assert [e["bot"] for e in data["elo"]] in (["heuristic", "random"], ["random", "heuristic"])
    assert data["elo"][0]["elo"] >= data["elo"][1]["elo"]
    code, again, _ = run_cli([*argv, "--json", "--workers", "2"], capsys, monkeypatch)
    assert code == 0 and again == out


def test_cli_table_and_plot(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    plain_terminal: None,
) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "result.png"
    argv = ["tournament", "escoba", "-b", "heuristic,random,random", "-g", "1", "--seed", "2"]
    code, out, err = run_cli([*argv, "-w", "1", "--plot", str(png)], capsys, monkeypatch)
    # stderr is no terminal here: progress comes as plain lines, the last at the end
    lines = err.splitlines()
    line = re.compile(r"escoba: 3 bots, 3 pairs: \d/6 \(\d+%\), \d+s elapsed(, about \d+s left)?")
    assert code == 0 and lines and all(line.fullmatch(t) for t in lines), err
    assert lines[-1].startswith("escoba: 3 bots, 3 pairs: 6/6 (100%)")
    assert "3 pairs x 1 deal sets x 2 rotations = 6 matches" in out
    assert "heuristic vs random#1" in out and "all pairs" in out and "Elo" in out
    assert "points/hand" in out  # the game's own column name
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 5000


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["briscola", "--bots", "heuristic,nope"], "bots are: easy, expert"),
        (["briscola", "--bots", "heuristic,random:depth=3"], "options are: signals"),
        (["briscola", "--bots", "heuristic"], "at least two bots"),
        (["briscola", "--games", "0"], "--games"),
        (["briscola", "--players", "5"], "2, 3, 4, 6"),
        (["briscola", "--workers", "0"], "--workers"),
        (["briscola", "-o", "jokers=2"], "no option jokers"),
        (["poker"], "games are"),
        (["briscola", "--plot", "result.jpg"], ".png"),
        (["briscola", "--plot", "/no/such/folder/x.png"], "does not exist"),
    ],
)
def test_cli_bad_input(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    needle: str,
) -> None:
    games = [] if "--games" in argv else ["-g", "1"]  # never a long run if it was accepted
    code, out, err = run_cli(["tournament", *argv, *games, "--json"], capsys, monkeypatch)
    assert code == 2 and out == ""
    assert needle in err and err.count("\n") == 1
    assert err.startswith("mazo tournament: error:")


def test_plot_without_matplotlib_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from mazo.sim.plot import check_plotting

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import now fails
    with pytest.raises(mazo.RulesError, match=r"pip install 'mazo\[plot\]'"):
        check_plotting()


def test_cli_help(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run_cli(["tournament", "--help"], capsys, monkeypatch)
    assert code == 0
    assert "duplicate deals" in out and "rotations" in out and "Elo" in out
    code, out, _ = run_cli(["--help"], capsys, monkeypatch)
    assert "mazo tournament" in out
