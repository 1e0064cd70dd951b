"""Shared helpers for the test suite: driving engine states, the command line in-process,
the heuristic bot's choice.

The games' independent references (oracles) live in ``models/<game>.py``; Briscola's
tables (card points, trick order, the §5 deal formulas, :class:`RefDeal`, the §6.5
awards) are in :mod:`models.briscola`, where the tests import them from.
"""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from models.briscola import lowest_card, random_step

from mazo.core.rng import Rng

__all__ = [
    "bot_choice",
    "card_actions",
    "events_of",
    "plain_terminal",
    "play_cards",
    "play_lowest_until",
    "play_random",
    "run_cli",
    "write_random_net",
]

# -- driving engine states ----------------------------------------------------------


def card_actions(state: Any) -> list[int]:
    return [a for a in state.legal_actions() if a < 40]


def play_random(
    state: Any,
    rng: Rng,
    on_state: Callable[[Any], None] | None = None,
    max_actions: int = 20_000,
    stop: Callable[[Any], bool] | None = None,
) -> Any:
    """Drive a state with random legal actions until the match ends (or ``stop``)."""
    for _ in range(max_actions):
        if state.match_over or (stop is not None and stop(state)):
            return state
        state, _, _ = random_step(state, rng)
        if on_state is not None:
            on_state(state)
    raise AssertionError(f"match did not end within {max_actions} actions")


def play_cards(state: Any, cards: Iterable[str]) -> Any:
    """Play these cards in order, each by the seat to act."""
    for card in cards:
        state = state.apply(card)
    return state


def play_lowest_until(state: Any, stop: Callable[[Any], bool]) -> Any:
    """Each seat to act plays its lowest canonical card until ``stop(state)``."""
    for _ in range(2000):
        if stop(state):
            return state
        state = state.apply(lowest_card(state.hand(state.to_act)))
    raise AssertionError("policy did not reach the stop condition")


def events_of(state: Any, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.events if e["type"] == kind]


# -- the command line, in-process --------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@pytest.fixture
def plain_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """No forced colour from the environment: CLI tests read plain text."""
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")


def run_cli(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str = "",
) -> tuple[int, str, str]:
    """``mazo ARGV`` in-process with ``stdin``; (exit code, stdout, stderr)."""
    from mazo.cli.main import main

    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    captured = capsys.readouterr()
    return code, ANSI.sub("", captured.out), ANSI.sub("", captured.err)


def bot_choice(state: Any, seat: int | None = None, seed: int = 1, **options: Any) -> str:
    """The heuristic bot's action for ``seat`` (default: the seat to act), as a string,
    checked to be one of that seat's legal actions."""
    from mazo.bots import make_bot

    seat = state.to_act if seat is None else seat
    bot = make_bot("heuristic", state.game, seed=seed, **options)
    action = bot.choose(state.observation(seat))
    assert action in state.legal_actions(seat)
    return str(state.game.action_to_string(action))


# -- nets ---------------------------------------------------------------------------


def write_random_net(
    folder: Path, game: Any, cards: bool = True, seed: int = 0, hidden: int = 16
) -> Path:
    """A random net for ``game`` in ``folder``, as ``mazo train --out`` writes one (the
    count's file name, a minimal record); with a cards head unless ``cards`` is False.
    Needs numpy (callers skip without it)."""
    import numpy as np

    from mazo.env.encoding import Encoder
    from mazo.nets import FORMAT, net_stem
    from mazo.nets.actions import ActionFeatures
    from mazo.nets.model import layer_shapes

    rng = np.random.default_rng(seed)
    deck = game.info.deck.size if cards else 0
    shapes = layer_shapes(Encoder(game).size, hidden, ActionFeatures(game).size, deck)
    arrays = {k: rng.normal(0, 0.3, s).astype(np.float32) for k, s in shapes.items()}
    folder.mkdir(parents=True, exist_ok=True)
    stem = net_stem(game.name, game.players)
    np.savez(folder / f"{stem}.npz", **arrays)  # type: ignore[arg-type]
    record = {"format": FORMAT, "game": game.name, "players": game.players, "record": {}}
    (folder / f"{stem}.json").write_text(json.dumps(record))
    return folder
