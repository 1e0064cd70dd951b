"""bench/vega_calls.py: the net's vega calls beside normal's (its numbers are
docs/nets.md's; the test checks the bookkeeping against a net that always calls and one
that never does)."""

from __future__ import annotations

from typing import Any

import pytest

from mazo.bots.base import legal_ids

from .bench_scripts import bench_script

pytest.importorskip("numpy")


def test_the_calls_are_counted_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    script = bench_script("vega_calls")
    out = script.measure(2)
    assert out["vega_open"] > 0 and 0 < out["normal_calls"] <= out["vega_open"]
    assert out["net_calls_with_normal"] <= out["normal_calls"]
    assert set(out["decisions"]) == {"cards", "bets"}

    def calls(wanted: bool) -> Any:
        def choose(self: Any, view: Any) -> int:
            vega = self.game.string_to_action("vega")
            legal = legal_ids(self.game, view)
            return vega if wanted and vega in legal else next(a for a in legal if a != vega)

        return choose

    monkeypatch.setattr(script.NetBot, "choose", calls(True))
    always = script.measure(2)
    assert always["vega_open"] == out["vega_open"]  # normal's play is the same
    assert always["net_calls_with_normal"] == always["normal_calls"] == out["normal_calls"]
    assert always["net_calls_alone"] == always["vega_open"] - always["normal_calls"]
    monkeypatch.setattr(script.NetBot, "choose", calls(False))
    never = script.measure(2)
    assert never["net_calls_with_normal"] == never["net_calls_alone"] == 0
