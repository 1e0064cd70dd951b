"""bench/escoba_disagreements.py: where the Escoba net's moves part from normal's (its
numbers are docs/nets.md's; the test checks the bookkeeping against the shipped net and
two stand-in nets with a fixed taste: one that lays whenever it may, one that sweeps
whenever it can)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mazo.nets import Evaluation, load_net

from .bench_scripts import bench_script

pytest.importorskip("numpy")


def _stand_in(score: Callable[[str, int], float]) -> Callable[..., Any]:
    """A ``load_net`` whose net gives each legal action ``score(text, table size)``."""

    def load(game: Any, weights: Any = None) -> Any:
        net = load_net(game, weights)

        class Fixed:
            def evaluate(self, view: Any, with_value: bool = True) -> Any:
                legal = net.encoder.legal_ids(view)
                table = len(view["table"])
                logits = [score(game.action_to_string(a), table) for a in legal]
                return legal, Evaluation(logits, 0.0, 0.5)

        return Fixed()

    return load


def test_the_disagreements_add_up_and_follow_the_nets_taste(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script = bench_script("escoba_disagreements")
    out = script.measure(2)
    asked = out["decisions"]
    assert asked == sum(out["offered"].values()) > 0 and 0.5 < out["agreement"] < 1
    assert sum(out["differ"].values()) == round(asked * (1 - out["agreement"]))

    def lays(text: str, table: int) -> float:
        return 0.0 if "+" in text else 1.0

    monkeypatch.setattr(script, "load_net", _stand_in(lays))
    laying = script.measure(2)
    assert laying["offered"] == out["offered"]  # normal's play is the same
    # it captures only where it must, and so never sweeps where normal does not
    assert all("net=lay" in key or key.startswith("allcap") for key in laying["differ"]), laying[
        "differ"
    ]
    assert laying["sweeps"]["net_only"] == 0

    def sweeps(text: str, table: int) -> float:
        return 1.0 if table and text.count("+") == table else 0.0

    monkeypatch.setattr(script, "load_net", _stand_in(sweeps))
    sweeping = script.measure(2)
    assert sweeping["sweeps"]["normal_only"] == 0  # every sweep normal makes, it makes
    assert laying["sweeps"]["normal_only"] > 0  # and normal's that the layer passes up
