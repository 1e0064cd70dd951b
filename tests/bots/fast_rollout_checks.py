"""A check every game's ``fast_rollout`` hook shares (its tests in test_search_<game>)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

import mazo


def assert_same_search_with_and_without(
    game: Any,
    lines: list[Any],
    heuristic: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    **options: Any,
) -> None:
    """The preset's paired search (``hard`` at 24 samples, the same seeds, ``options``
    on top) on ``lines``: every move's reward in every world, and the move chosen, are
    the same whether its rollouts run through the game's ``fast_rollout`` or move by
    move (the hook turned off in ``heuristic``, the game's heuristic module); and the
    search drew enough rollouts for that to say something."""

    def search() -> list[Any]:
        out = []
        for i, line in enumerate(lines):
            bot = mazo.make_bot("hard", game, seed=i, iterations=24, **options)
            out.append((bot.choose(line.observation(line.to_act)), bot.last_paired))
        return out

    fast = search()
    monkeypatch.setattr(heuristic, "fast_rollout", lambda policies: None)
    slow = search()
    assert fast == slow
    assert sum(len(rewards) for _, paired in fast for rewards in paired.values()) > 100
