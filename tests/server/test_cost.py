"""Issue 17, item 9: a table's per-action cost does not grow with the match.

``LiveTable.advance`` once read ``state.events`` twice an action, and each read rebuilt
the whole match's log: late in a Trionfetti match (thousands of events) that was most of
the server's CPU. The tests count the events the engine turns into JSON per action (not
time): it must stay the handful the action logged, at the start and at the end.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import mazo
from mazo.core.tricks import PartnershipState
from mazo.games import briscola
from mazo.server.store import SeatRow, TableRow
from mazo.server.tables import LiveTable


def live_table(game_name: str, players: int, seed: int) -> LiveTable:
    game = mazo.load_game(game_name, players)
    row = TableRow(
        id="t",
        game=game_name,
        players=players,
        options={},
        seed=seed,
        title="",
        public=False,
        created=time.time(),
        finished=False,
        seats=[SeatRow(i, "human", None, "", None) for i in range(players)],
        settings={},
    )
    return LiveTable(row=row, game=game, state=game.new_match(seed=seed))


# Where each game builds one event from its log (the function every event goes through):
# Trionfetti's partnership base makes each node's event in PartnershipState._event,
# Briscola in its module's _event_json.
@pytest.mark.parametrize(
    ("owner", "attribute", "name", "players"),
    [
        (PartnershipState, "_event", "trionfetti", 4),
        (briscola, "_event_json", "briscola", 2),
    ],
    ids=["trionfetti", "briscola"],
)
def test_events_made_per_action_stay_few_late_in_a_long_match(
    monkeypatch: pytest.MonkeyPatch, owner: Any, attribute: str, name: str, players: int
) -> None:
    made = 0
    real = getattr(owner, attribute)

    def counting(*args: Any) -> Any:
        nonlocal made
        made += 1
        return real(*args)

    monkeypatch.setattr(owner, attribute, counting)
    table = live_table(name, players, seed=5)
    rng = random.Random(1)
    per_action: list[int] = []
    fresh: list[int] = []
    while not table.state.match_over:
        state = table.state
        action = state.action_to_string(rng.choice(state.legal_actions()))
        new = state.apply(action)
        made = 0
        table.advance(new, state.to_act or 0, action)
        per_action.append(made)
        fresh.append(len(table.fresh))
    log_length = len(table.state.events)
    assert log_length > 100  # a long match: rebuilding the log would show
    late = per_action[-len(per_action) // 4 :]
    # An action logs a play, a trick, a deal's end and the next deal at most: a few
    # events, never the log so far.
    assert max(late) <= 12, (max(late), log_length)
    assert per_action == fresh, "only the action's own events are built"
