"""Escoba scenarios for the oracle's rarest branches (``rules/escoba.md`` §5.2, §7, §8).

A random opening table is worth 30 a few times in a hundred and splits into two groups of
15 less often still, so with ``initial_thirty_requires_two_fifteens`` the conformance
suite's random matches did not reach the oracle's split (not once in a run of it with the
default 25 examples).  Here exact packs do, both ways, with literal plays and points, and
the Escoba oracle (:data:`models.escoba.MODEL`) then reads the event log.
"""

from __future__ import annotations

from typing import Any

from models.common import ALL_40
from models.escoba import MODEL, total

import mazo


def pack(table: list[str]) -> list[str]:
    """2 players, one card at a time (§5.1): cards 0-5 to the hands (seat 1, the eldest
    after dealer 0, gets the even ones), cards 6-9 the table, the rest canonical."""
    rest = [c for c in ALL_40 if c not in table]
    return rest[:6] + table + rest[6:]


def start(table: list[str]) -> Any:
    game = mazo.load_game(
        "escoba", players=2, initial_thirty_requires_two_fifteens=True, target_score=99
    )
    return game.new_match(deck=pack(table), dealer=0)


# Each is the first legal action of the seat to act (ascending ids, trails first: §6.3).
PLAYS = (
    "1O 2O 3O 4O 5O+1O+2O+3O+4O 6O 7O 1C KO 3C 2C+6O+7O QO QC JC 4C+KO+1C 5C 6C+QO KC+5C "
    "1E 2E+3C+QC+1E 3E 6E 5E 4E+JC+3E 7E 1B QE+6E JE+7E 2B 3B 4B+5E+1B+2B+3B 6B 7B KB "
    "QB+6B JB+7B"
)


def test_s5_2_thirty_in_two_fifteens_is_two_escobas_for_the_dealer() -> None:
    table = ["JO", "7C", "KE", "5B"]  # JO + 7C = 8 + 7 and KE + 5B = 10 + 5
    assert total(table) == 30
    state = start(table)
    assert state.events[1] == {
        "type": "opening_escoba",
        "seat": 0,
        "side": 0,
        "cards": ["JO", "7C", "KE", "5B"],
        "escobas": 2,
    }
    assert state.table() == []
    assert state.captured(0) == ["JO", "7C", "KE", "5B"]
    obs = state.observation(1)
    assert obs["escobas"] == [2, 0]
    assert obs["last_capturer"] == 0
    assert state.hand(0) == ["2O", "4O", "6O"]
    assert state.hand(1) == ["1O", "3O", "5O"]
    assert state.to_act == 1  # the eldest, facing an empty table, can only trail

    for play in PLAYS.split():
        assert state.legal_actions()[0] == state.game.string_to_action(play)
        state = state.apply(play)
    # Seat 1 sweeps twice (5O and 4B); nobody captures after seat 0's JB+7B, so seat 0
    # takes the last card, KB (§7: not an escoba).
    sweeps = [e["card"] for e in state.events if e["type"] == "play" and e["escoba"]]
    assert sweeps == ["5O", "4B"]
    assert [e for e in state.events if e["type"] == "table_taken"] == [
        {"type": "table_taken", "seat": 0, "cards": ["KB"]}
    ]
    end = next(e for e in state.events if e["type"] == "hand_end")
    detail = end["detail"]
    # §8.1: escobas 2 (the opening) and 2; cards 18-22, oros 1-9, 7O to seat 1; the prime
    # (§8.2 seed_counts) to seat 0 on sevens, 3 to 1.
    assert detail["escobas"] == [2, 2]
    assert detail["card_counts"] == [18, 22]
    assert detail["cards"] == [0, 1]
    assert detail["oros_counts"] == [1, 9]
    assert detail["oros"] == [0, 1]
    assert detail["velo"] == [0, 1]
    assert detail["prime_keys"][0][0] == 3 and detail["prime_keys"][1][0] == 1
    assert detail["prime"] == [1, 0]
    assert end["points"] == [3, 5]
    assert state.scores == [3, 5]
    assert state.hand_number == 2 and state.dealer == 1

    MODEL.check_event_log(state)


def test_s5_2_thirty_that_does_not_split_scores_nothing() -> None:
    table = ["KO", "KC", "QE", "1B"]  # the rules' example: 10 + 10 + 9 + 1
    assert total(table) == 30
    state = start(table)
    assert [e["type"] for e in state.events] == ["deal"]
    assert state.table() == table
    obs = state.observation(0)
    assert obs["escobas"] == [0, 0]
    assert obs["last_capturer"] is None
    # Two plays on, the oracle checks the log so far (no opening escoba).
    for _ in range(2):
        state = state.apply(state.legal_actions()[0])
    MODEL.check_event_log(state)
