"""bench/ladder_table.py: the ladder's markdown rows come from per-deal tournaments."""

from __future__ import annotations

import json
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
