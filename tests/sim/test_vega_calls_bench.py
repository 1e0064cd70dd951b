"""bench/vega_calls.py: the net's vega calls beside normal's (its numbers are
docs/nets.md's; the test checks the bookkeeping against a net that always calls and one
that never does)."""

from __future__ import annotations

from typing import Any

import pytest

from .bench_scripts import bench_script

pytest.importorskip("numpy")


def test_the_calls_are_counted_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    script = bench_script("vega_calls")
    out = script.measure(2)
    assert out["vega_open"] > 0 and 0 < out["normal_calls"] <= out["vega_open"]
    assert out["net_calls_with_normal"] <= out["normal_calls"]
    assert set(out["decisions"]) == {"cards", "bets"}
    game: Any = None

    def always(self: Any, view: Any) -> int:
        nonlocal game
        game = self.game
        vega = self.game.string_to_action("vega")
        return vega if vega in _legal(self.game, view) else _legal(self.game, view)[0]

    monkeypatch.setattr(script.NetBot, "choose", always)
    calling = script.measure(2)
    assert calling["vega_open"] == out["vega_open"]  # normal's play is the same
    assert calling["net_calls_with_normal"] == calling["normal_calls"] == out["normal_calls"]
    assert calling["net_calls_alone"] == calling["vega_open"] - calling["normal_calls"]
    vega_id = game.string_to_action("vega")
    monkeypatch.setattr(
        script.NetBot, "choose", lambda self, view: _without(self.game, view, vega_id)
    )
    never = script.measure(2)
    assert never["net_calls_with_normal"] == never["net_calls_alone"] == 0


def _legal(game: Any, view: Any) -> list[int]:
    from mazo.bots.base import legal_ids

    return legal_ids(game, view)


def _without(game: Any, view: Any, vega: int) -> int:
    return next(a for a in _legal(game, view) if a != vega)
