"""bench/sample_weights.py: the readers (the net, the plays, and both multiplied) are
asked about the same positions, and the summary says how many and what each made of
them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import write_random_net

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


def test_at_four_players_the_net_is_read_alone_at_every_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The plays are read in two-player deals only: at four players the net's head is
    asked alone (a random head here; what a trained one knows is in docs/nets.md)."""
    import mazo

    write_random_net(tmp_path, mazo.load_game("briscola", players=4), hidden=8, seed=1)
    script = bench_script("sample_weights")
    argv = ["briscola", "-n", "4", "--deals", "2", "--samples", "8", "--weights", str(tmp_path)]
    assert script.main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["readers"]) == {"net"} and out["positions"] > 5
    assert out["readers"]["net"]["positions"] == out["positions"]
    assert out["readers"]["net"]["geometric_mean_ratio"] > 0
