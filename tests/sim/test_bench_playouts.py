"""bench/bench_playouts.py: the search levels' samples per CPU second, counted over the
positions where a search drew samples, with the options asked for (no timing is
checked: only that the counts add up and the options reach the bot)."""

from __future__ import annotations

import pytest

from .bench_scripts import bench_script


def test_a_measure_counts_the_samples_of_the_searches_it_timed() -> None:
    script = bench_script("bench_playouts")
    row = script.measure("briscola", 2, "hard", 10, 3, 1, {"infer": "plays"})
    assert row["options"] == {"infer": "plays"}
    assert 1 <= row["positions"] <= 3
    # Paired worlds play every move out, so a search may end a little past its budget.
    assert 10 * row["positions"] <= row["samples"] <= 13 * row["positions"]
    assert row["cpu_s"] > 0 and row["samples_per_cpu_s"] == row["samples"] / row["cpu_s"]


def test_bad_options_are_refused_with_the_reason() -> None:
    script = bench_script("bench_playouts")
    assert script.bot_options("infer=plays:pool=8") == {"infer": "plays", "pool": "8"}
    assert script.bot_options("") == {}
    with pytest.raises(ValueError, match="key=value"):
        script.bot_options("infer")
    with pytest.raises(Exception, match="pool"):
        script.measure("briscola", 2, "hard", 10, 1, 1, {"pool": "many"})
