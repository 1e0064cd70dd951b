"""Per-deal tournament results (issue 18, the honest ladder): ``unit="deal"`` plays the
first deal of each deal set under every rotation, and every tournament reports deals
won, the points margin and the points share beside the per-match results."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from mazo.core.errors import RulesError
from mazo.core.game import State
from mazo.games import load_game
from mazo.sim.jobs import deal_tallies, outcome, play_job
from mazo.sim.stats import DealTally, ratio_interval
from mazo.sim.tournament import run_tournament, tournament_jobs


def test_deal_tally_counts_exact_deals() -> None:
    tally = DealTally()
    # Deal set 1: the bot took 70 of 120 on side 0, then 50 on side 1.
    tally.add((70, 50), 0)
    tally.add((70, 50), 1)
    tally.close_set()
    # Deal set 2: 60-60 on side 0, then 90 of 120 on side 1.
    tally.add((60, 60), 0)
    tally.add((30, 90), 1)
    tally.close_set()
    assert (tally.deals, tally.won, tally.drawn) == (4, 2, 1)
    assert tally.win_rate == 0.5
    assert tally.score_rate == 2.5 / 4
    assert tally.margin.mean == (20 - 20 + 0 + 60) / 4
    # One unit per deal set: its mean margin (0, then 30) and its points (120 of 240, then
    # 150 of 240).
    assert tally.set_margin.n == 2 and tally.set_margin.mean == 15
    assert tally.set_points == [120, 150] and tally.set_all_points == [240, 240]
    assert tally.share == 270 / 480
    got = tally.to_json()
    assert got["lost"] == 1 and got["deal_sets"] == 2
    assert got["share_ci95"] == list(ratio_interval([120, 150], [240, 240]) or ())


def test_deal_tally_three_sides_margin_is_against_the_best_other() -> None:
    tally = DealTally()
    tally.add((5, 9, 2), 0)
    tally.close_set()
    assert tally.margin.mean == -4 and tally.won == 0 and tally.drawn == 0


def test_ratio_interval_needs_two_units_and_points() -> None:
    assert ratio_interval([3], [5]) is None
    assert ratio_interval([0, 0], [0, 0]) is None
    lo, hi = ratio_interval([5, 5, 5], [10, 10, 10]) or (0.0, 0.0)
    assert lo == hi == 0.5  # no spread between units: no doubt about the share


def test_unknown_unit_is_refused_with_the_choices() -> None:
    with pytest.raises(RulesError, match=r"unknown unit 'hand'.*match, deal"):
        tournament_jobs("briscola", ["normal", "random"], games=1, unit="hand")


def test_per_deal_jobs_share_the_first_deal_and_stop_after_it() -> None:
    jobs = tournament_jobs(
        "briscola", ["normal", "random"], games=2, players=2, seed=5, unit="deal"
    )
    assert len(jobs) == 4 and all(job.one_deal for job in jobs)
    first, swapped = play_job(jobs[0]), play_job(jobs[1])
    for state in (first, swapped):
        assert state.hand_over
        assert sum(1 for e in state.events if e["type"] == "hand_end") == 1
    # The same pack and the same dealer for both rotations of a deal set.
    assert first.record()["deals"][0] == swapped.record()["deals"][0]
    got = outcome(first, one_deal=True)
    assert sum(got.scores) == 120 and got.deal_points == (got.scores,)
    a, b = got.scores
    assert got.winner == (None if a == b else 0 if a > b else 1)


def test_per_deal_tournament_tallies_add_up() -> None:
    result = run_tournament("briscola", ["normal", "random"], games=12, seed=3, unit="deal")
    data = result.to_json()
    assert data["unit"] == "deal" and data["matches"] == 24
    normal, rand = data["totals"]["normal"], data["totals"]["random"]
    for bot in (normal, rand):
        per = bot["per_deal"]
        assert per["deals"] == 24 and per["deal_sets"] == 12
        assert per["won"] + per["drawn"] + per["lost"] == 24
        assert per["won"] == bot["wins"]  # a deal set is one deal: a match is a deal
    # Two sides: one bot's margin is the other's negated, the shares add up to one, and
    # the duplicate records mirror each other.
    assert normal["per_deal"]["mean_margin"] == -rand["per_deal"]["mean_margin"]
    assert normal["per_deal"]["points_share"] + rand["per_deal"]["points_share"] == 1
    dup_n, dup_r = normal["duplicate"], rand["duplicate"]
    assert (dup_n["better"], dup_n["even"], dup_n["worse"]) == (
        dup_r["worse"],
        dup_r["even"],
        dup_r["better"],
    )
    # The heuristic takes more than half the points from random play on the same cards.
    assert normal["per_deal"]["points_share"] > 0.5


def test_match_tournament_reports_per_deal_results_too() -> None:
    result = run_tournament("envite", ["normal", "random"], games=2, players=4, seed=2)
    for stats in result.totals.values():
        assert stats.per_deal.deals == stats.deal_points.n > 0
        assert stats.per_deal.set_margin.n == 2  # two deal sets
    data = result.to_json()
    assert data["unit"] == "match"
    assert data["totals"]["normal"]["per_deal"]["deals"] == result.totals["normal"].per_deal.deals


def test_per_deal_results_do_not_depend_on_workers() -> None:
    args = {"games": 3, "players": 2, "seed": 9, "unit": "deal"}
    one = run_tournament("escoba", ["normal", "random"], workers=1, **args).to_json()
    two = run_tournament("escoba", ["normal", "random"], workers=2, **args).to_json()
    assert one == two


def test_cli_per_deal_table_and_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["tournament", "briscola", "-n", "2", "--bots", "normal,random", "--games", "6"]
    argv += ["--seed", "4", "--workers", "1", "--per", "deal"]
    code, out, err = run_cli(argv, capsys, monkeypatch)
    assert code == 0, err
    assert "1 pair x 6 deal sets x 2 rotations = 12 deals" in out
    assert "normal vs random, per deal" in out and "won/drawn/lost" in out
    code, data_text, err = run_cli([*argv, "--json"], capsys, monkeypatch)
    assert code == 0, err
    data = json.loads(data_text)
    expected = run_tournament(
        "briscola", ["normal", "random"], games=6, players=2, seed=4, unit="deal"
    ).to_json()
    assert data == expected
    won = data["totals"]["normal"]["per_deal"]["won"]
    drawn = data["totals"]["normal"]["per_deal"]["drawn"]
    assert f"{won}/{drawn}/{12 - won - drawn}" in out


def test_cli_match_tournament_shows_the_per_deal_table_too(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["tournament", "escoba", "--bots", "normal,random", "--games", "2", "--seed", "1"]
    code, out, err = run_cli([*argv, "--workers", "1"], capsys, monkeypatch)
    assert code == 0, err
    assert "normal vs random: 4 matches" in out and "normal vs random, per deal" in out


def test_cli_per_refuses_other_units(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["tournament", "briscola", "--bots", "normal,random", "--per", "hand"]
    code, _, err = run_cli(argv, capsys, monkeypatch)
    assert code == 2 and "--per" in err and "match" in err and "deal" in err


def _play(game_name: str, players: int, seed: int, moves: list[tuple[int, str]]) -> State:
    """The match of ``seed`` after ``moves`` (seat, action string), each seat's turn checked."""
    game = load_game(game_name, players=players)
    state = game.new_match(seed=seed)
    for seat, text in moves:
        assert state.to_act == seat
        state = state.apply(game.string_to_action(text), seat=seat)
    return state


def test_a_chico_fuera_deal_counts_the_chicos_stones_to_its_winner() -> None:
    # Envite rules 9.1 and 11.3: a deal played out at level 4 wins the chico outright and
    # both teams' stones go back to 0, so its hand_end gives no stones ([0, 0]); the
    # per-deal tally counts the chico as the 12 stones that take one, to the trick winner.
    state = _play(
        "envite",
        4,
        1,
        [
            (2, "envio"),
            (3, "raise"),  # siete
            (0, "raise"),  # nueve
            (1, "raise"),  # chico
            (2, "accept"),
            (2, "6C"),
            (3, "3C"),
            (0, "QO"),
            (1, "6E"),
            (1, "QE"),
            (2, "JC"),
            (3, "3B"),
            (0, "3E"),
        ],
    )
    assert state.hand_over and state.games == [0, 1] and state.scores == [0, 0]
    ends = [e for e in state.events if e["type"] == "hand_end"]
    assert ends[0]["points"] == [0, 0] and ends[0]["detail"]["award"] == "chico"
    got = outcome(state, one_deal=True)
    assert got.scores == (0, 12) and got.deal_points == ((0, 12),) and got.winner == 1
    # A whole-match tally reads the same deal the same way.
    assert deal_tallies(state) == ((0, 12),)


def test_an_ordinary_deal_counts_its_hand_end_points() -> None:
    # A folded envío: the proposing team takes value(0) = 2 stones (rules 11.2).
    state = _play("envite", 4, 1, [(2, "envio"), (3, "fold")])
    assert state.hand_over
    assert deal_tallies(state) == ((2, 0),)
    assert outcome(state, one_deal=True).winner == 0
