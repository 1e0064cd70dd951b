"""bench/net_answers.py: the paired value of the net's vega answers on the real cards
(its numbers are docs/nets.md's; the test checks the bookkeeping, not the net)."""

from __future__ import annotations

from typing import Any

import pytest

from .bench_scripts import bench_script

pytest.importorskip("numpy")


def test_the_answers_are_counted_and_each_difference_played_out_both_ways(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script = bench_script("net_answers")
    out = script.measure(40, 9100)
    assert out["answers"] > 10 and 0 <= out["differ"] <= out["answers"]
    low, high = out["interval_95"]
    assert low <= out["gain_where_they_differ"] <= high
    total = out["gain_where_they_differ"] * out["differ"]
    assert out["gain_per_deal"] == pytest.approx(total / 40, abs=1e-3)
    # A rule that always refuses differs exactly where the heuristic accepts, and there
    # it gains what refusing is worth against accepting on those deals.
    seen: list[Any] = []

    def refuse(game: Any, net: Any, view: Any, rng: Any) -> int:
        seen.append(view)
        return int(game.string_to_action("refuse"))

    monkeypatch.setattr(script, "net_answer", refuse)
    never = script.measure(40, 9100)
    assert never["answers"] == out["answers"] == len(seen)
    monkeypatch.setattr(script, "net_answer", lambda game, net, view, rng: None)
    assert script.measure(40, 9100)["differ"] == 0


def test_a_deals_points_come_from_its_end_not_from_the_scores() -> None:
    """A deal that wins a game sets the match scores back to 0: the tool reads the
    deal's points from its ``hand_end`` event (a vega accepted and won, found by seed)."""
    import mazo

    script = bench_script("net_answers")
    game = mazo.load_game("trionfetti", players=4)
    for seed in range(300):
        bots = [mazo.make_bot("normal", game, seed=seed + s) for s in range(4)]
        start = game.new_match(seed=seed).stop_at_deal_end()
        end = start
        while not end.hand_over:
            end = end.apply(bots[end.to_act].choose(end.observation(end.to_act)))
        points = script._deal_points(end, start)
        event = next(e for e in end.events_since(start) if e.get("type") == "hand_end")
        assert points == list(event["points"]) and sum(points) >= 1
        if event["detail"]["game_won"] is not None:
            assert list(end.scores) == [0, 0] and max(points) >= 2  # the scores read 0-0
            return
    raise AssertionError("no deal won a game in 300 matches")
