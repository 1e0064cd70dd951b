"""bench/ladder_table.py: the ladder's markdown rows come from per-deal tournaments."""

from __future__ import annotations

import json
import math
from pathlib import Path
from types import ModuleType

import pytest

from mazo.sim.tournament import run_tournament

from .bench_scripts import bench_script


def _script() -> ModuleType:
    return bench_script("ladder_table")


def test_rows_read_the_first_bots_per_deal_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run_tournament("briscola", ["normal", "random"], 6, players=2, seed=3, unit="deal")
    data = result.to_json()
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    table = _script()
    rows = table.rows(data)
    per = data["pairs"][0]["results"]["normal"]["per_deal"]
    assert len(rows) == 1 and rows[0]["bot"] == "normal" and rows[0]["against"] == "random"
    assert rows[0]["deals"] == per["deals"] == 12
    won = round(100 * per["win_rate"], 1)
    assert table.main([str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("| game | players | bot |") and len(out) == 3
    assert out[2].startswith(f"| briscola | 2 | `normal` | `random` | 12 | {won:.1f}% (")


def test_a_per_match_tournament_is_refused(tmp_path: Path) -> None:
    data = run_tournament("briscola", ["normal", "random"], 2, players=2, seed=3).to_json()
    for pair in data["pairs"]:
        for stats in pair["results"].values():
            stats.pop("per_deal", None)
    with pytest.raises(SystemExit, match="run the tournament with --per deal"):
        _script().rows(data)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert _script().main([str(bad)]) == 2


def test_pooled_rows_add_the_runs_of_a_pair_and_combine_their_intervals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two seeds of one pair and one run of another pair: ``--pool`` gives two rows; the
    pooled pair's counts are the sums, its margin the deal-weighted mean, its interval
    the runs' standard errors combined (narrower than either run's alone)."""
    table = _script()
    runs = [
        run_tournament("briscola", ["normal", "random"], n, players=2, seed=s, unit="deal")
        for s, n in ((3, 6), (4, 10))
    ]
    other = run_tournament("briscola", ["random", "normal"], 4, players=2, seed=5, unit="deal")
    paths = []
    for i, result in enumerate([*runs, other]):
        paths.append(tmp_path / f"{i}.json")
        paths[-1].write_text(json.dumps(result.to_json()))
    first, second = (table.rows(r.to_json())[0] for r in runs)
    pooled = table.pool([first, table.rows(other.to_json())[0], second])
    assert [(r["bot"], r["against"]) for r in pooled] == [
        ("normal", "random"),
        ("random", "normal"),
    ]
    row = pooled[0]
    assert row["deals"] == 32 and row["deal_sets"] == 16 and row["seed"] == [3, 4]
    assert row["won"] == first["won"] + second["won"]
    assert row["win_rate"] == pytest.approx(row["won"] / 32)
    assert row["better"] == first["better"] + second["better"]
    want = (12 * first["mean_margin"] + 20 * second["mean_margin"]) / 32
    assert row["mean_margin"] == pytest.approx(want)
    half = (row["margin_ci95"][1] - row["margin_ci95"][0]) / 2
    halves = [(r["margin_ci95"][1] - r["margin_ci95"][0]) / 2 for r in (first, second)]
    assert half == pytest.approx(math.hypot(12 / 32 * halves[0], 20 / 32 * halves[1]))
    assert row["margin_ci95"][0] < row["mean_margin"] < row["margin_ci95"][1]
    alone = table.rows(other.to_json())[0]  # one run: pooled as it was
    for key, value in pooled[1].items():
        assert value == ([alone[key]] if key == "seed" else pytest.approx(alone[key])), key
    assert table.main(["--pool", *map(str, paths)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 4 and out[2].startswith("| briscola | 2 | `normal` | `random` | 32 |")


def test_paired_rows_compare_two_bots_set_by_set_on_the_same_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``normal`` and ``easy`` each against ``random`` on seeds 3 and 4: one paired row
    over both seeds, each deal set's margin of one less the other's; a run against
    another opponent pairs with nothing."""
    table = _script()
    paths, rows = [], []
    for bot, seed, sets in (("normal", 3, 6), ("easy", 3, 6), ("normal", 4, 4), ("easy", 4, 4)):
        data = run_tournament(
            "briscola", [bot, "random"], sets, players=2, seed=seed, unit="deal"
        ).to_json()
        paths.append(tmp_path / f"{bot}{seed}.json")
        paths[-1].write_text(json.dumps(data))
        rows.extend(table.rows(data))
        per = data["pairs"][0]["results"][bot]["per_deal"]
        assert len(per["set_margins"]) == sets
        assert sum(per["set_margins"]) / sets == pytest.approx(per["mean_margin"])
    lone = run_tournament("briscola", ["easy", "normal"], 4, players=2, seed=3, unit="deal")
    (row,) = table.paired([*rows, *table.rows(lone.to_json())])
    assert (row["bot"], row["other"], row["against"]) == ("normal", "easy", "random")
    assert row["deal_sets"] == 10 and row["seeds"] == [3, 4]
    diffs = [
        a - b
        for n, e in ((rows[0], rows[1]), (rows[2], rows[3]))
        for a, b in zip(n["set_margins"], e["set_margins"], strict=True)
    ]
    assert row["difference"] == pytest.approx(sum(diffs) / 10)
    assert row["difference"] == pytest.approx(row["margin"] - row["other_margin"])
    lo, hi = row["difference_ci95"]
    spread = math.sqrt(sum((d - row["difference"]) ** 2 for d in diffs) / 9)
    assert hi - lo == pytest.approx(2 * 1.959963984540054 * spread / math.sqrt(10))
    assert table.main(["--paired", *map(str, paths)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and out[2].startswith(
        "| briscola | 2 | `normal` | `easy` | `random` | 10 (3, 4) |"
    )
    old = dict(rows[0], set_margins=None)  # a JSON from before set_margins
    with pytest.raises(SystemExit, match="no set_margins"):
        table.paired([old, rows[1]])
    assert table.main(["--paired", str(paths[0])]) == 1  # one bot: nothing to pair
    with pytest.raises(SystemExit):
        table.main(["--paired", "--pool", str(paths[0])])


def test_a_single_paired_deal_set_has_no_interval() -> None:
    """One deal set gives one difference: no spread to read, so no interval (and valid
    JSON: no infinities), and the markdown says why."""
    table = _script()
    rows = [
        table.rows(
            run_tournament("briscola", [bot, "random"], 1, players=2, seed=9, unit="deal").to_json()
        )[0]
        for bot in ("normal", "easy")
    ]
    (row,) = table.paired(rows)
    assert row["deal_sets"] == 1 and row["difference_ci95"] is None
    assert row["difference"] == pytest.approx(rows[0]["set_margins"][0] - rows[1]["set_margins"][0])
    json.dumps(row, allow_nan=False)
    assert table.paired_markdown(row).endswith("(one deal set) |")
