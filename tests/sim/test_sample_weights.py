"""bench/sample_weights.py: the readers (the net, the plays, and both multiplied) are
asked about the same positions, and the summary says how many and what each made of
them."""

from __future__ import annotations

import json

import pytest

from .bench_scripts import bench_script

pytest.importorskip("numpy")


def test_the_readers_weigh_the_same_positions(capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script("sample_weights")
    assert script.main(["briscola", "--deals", "2", "--samples", "8", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    readers = out["readers"]
    assert set(readers) == {"net", "plays", "both"} and out["positions"] > 5
    for reader in readers.values():
        assert reader["positions"] == out["positions"]
        assert reader["geometric_mean_ratio"] > 0
        assert 0 <= reader["truth_above_average"] <= 1
