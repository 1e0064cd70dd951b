"""Briscola scenarios for the oracle's rarest branches (``rules/briscola.md`` §3, §8.2).

The next dealer skipping a seat that dropped out, and a drawn play-off deal replayed by
the same two players: the conformance suite's random matches reach them by chance only
(one run of it with the default 25 examples: the skip once, the drawn play-off never),
so no test was sure to check them.  Here one exact match goes through both, with literal
decks and literal plays (found with the reference model, :class:`models.briscola.RefDeal`,
and checked against it), literal points, and at the end the Briscola oracle
(:data:`models.briscola.MODEL`) reads the whole event log.
"""

from __future__ import annotations

from typing import Any

from models.briscola import MODEL, RefDeal, pack_for

import mazo

# 3 players, dealer 1: seat 2 (the eldest) gets cards 0-2, seat 0 cards 3-5, seat 1 cards
# 6-8, and card 9 (2E) is the indicator.  Each seat plays its lowest card in canonical order.
THREE_HANDED = {
    "deck": "5O 3O QO 3C 4E QE QC JE KO 6C 4O 3E KC JC 6B 1O 7E JO 5B 2O 4B QB JB KE 2E 6O "
    "7B 7O 6E 7C 5C KB 1E 5E 1B 4C 3B 1C 2B",
    "plays": "3O 3C KO 4O QC 5O JC QO 1O 3E JO 4E 2O KC QE 4B KE 2E 6O 5B 7O 6E 7C 5C 6B 1E "
    "5E 1B 4C 7E 1C JE 6C 7B 2B JB KB QB 3B",
    "points": [48, 48, 24],
}
# 2 players (the play-off): the eldest gets cards 0-2, the dealer 3-5, card 6 is the
# indicator.  The card points split 60-60 whoever deals.
DRAWN = {
    "deck": "6O 1E 6B JB KC 2O QC 5E 1C 7O JC 4O 2E 3C JO 3B 6E 2B KE 4E 3O 7E 6C 1B QB 7C "
    "QO 1O 4B KO 5O 7B 2C 5C QE JE 4C KB 3E 5B",
    "plays": "6O 2O 1E 1C 7O JC 4O KC 3C JO 2E 5E 6E KE 4E 3O 7E 6C 1B 3B 7C QO 1O 4B KO 5O "
    "2B 2C 5C QE JE 4C 6B 3E 5B QC JB 7B QB KB",
}
# 2 players, dealt by seat 0: the eldest (seat 1) takes 50, the dealer 70.
DECIDER = {
    "deck": "4C 4B 4O 6O 2O 3B QB 1C 4E 5O KB 7C 2B JC QE 1E JB 2E JO 1O 1B JE QC 6B 3C 5E "
    "7B 3O 6C KC 3E 2C KE KO 5C 5B QO 7E 6E 7O",
    "plays": "4O 2O 1C 6O 5O 4E 4C 2B JC 7C 1E QE 2E JO 1O 1B JE QC 4B 3C 5E 3B 3O 6C KC 3E "
    "2C KE KO 5C 5B QO 7E 6E 7O 6B JB 7B QB KB",
}


def reference_points(players: int, dealer: int, spec: dict[str, Any]) -> list[int]:
    """Seat points of a deal by the reference model (seats of a ``players``-seat deal)."""
    ref = RefDeal(players, dealer, spec["deck"].split())
    for card in spec["plays"].split():
        ref.play(card)
    assert ref.over
    return ref.seat_points()


def play(state: Any, spec: dict[str, Any]) -> Any:
    for card in spec["plays"].split():
        state = state.apply(card)
    return state


def hand_ends(state: Any) -> list[dict[str, Any]]:
    return [e for e in state.events if e["type"] == "hand_end"]


def test_the_scenario_decks_are_what_they_say() -> None:
    assert sorted(THREE_HANDED["deck"].split()) == sorted(pack_for(3))  # 2C removed (§2.2)
    assert reference_points(3, 1, THREE_HANDED) == [48, 48, 24]
    assert reference_points(2, 0, DRAWN) == [60, 60]
    assert reference_points(2, 1, DRAWN) == [60, 60]
    assert reference_points(2, 0, DECIDER) == [70, 50]


def test_s8_2_next_dealer_skips_the_dropped_seat_and_a_drawn_play_off_is_replayed() -> None:
    game = mazo.load_game("briscola", players=3, three_player_tie_mode="drop_out")
    decks = [spec["deck"].split() for spec in (THREE_HANDED, DRAWN, DRAWN, DECIDER)]
    state = game.new_match(seed=19, decks=decks, dealer=1, setup={"scores": [2, 2, 0]})
    assert state.to_act == 2  # §6.1: next(dealer) leads

    # Deal 1, three-handed: 48-48-24, so seats 0 and 1 each score a deal-win (§6.5) and
    # tie at 3, the target: seat 2 drops out (§8.2 drop_out).
    state = play(state, THREE_HANDED)
    assert hand_ends(state)[0]["points"] == [48, 48, 24]
    assert hand_ends(state)[0]["detail"]["deal_wins"] == [1, 1, 0]
    assert state.scores == [3, 3, 0]
    assert not state.match_over
    assert state.observation(None)["seats"] == [0, 1]
    # §3: the deal passes to the next seat still playing: next(1) = 2 is out, so seat 0.
    assert state.dealer == 0
    assert state.to_act == 1

    # Deal 2, the play-off dealt by seat 0: 60-60 is a draw (§6.5), replayed (§8.2) by the
    # same two seats; the deal passes on to seat 1.
    state = play(state, DRAWN)
    assert hand_ends(state)[1]["points"] == [60, 60, 0]
    assert hand_ends(state)[1]["detail"]["deal_wins"] == [0, 0, 0]
    assert state.scores == [3, 3, 0]
    assert state.observation(None)["seats"] == [0, 1]
    assert state.dealer == 1
    assert state.to_act == 0

    # Deal 3, the same pack dealt by seat 1: drawn again.  After a draw the deal still
    # rotates (dealer_after_draw = rotate), and next(1) = 2 is skipped again: seat 0.
    state = play(state, DRAWN)
    assert hand_ends(state)[2]["points"] == [60, 60, 0]
    assert state.scores == [3, 3, 0]
    assert state.observation(None)["seats"] == [0, 1]
    assert state.dealer == 0

    # Deal 4: seat 0 takes 70 and wins the deal, so the match (the first of the two to win
    # a play-off deal).
    state = play(state, DECIDER)
    assert hand_ends(state)[3]["points"] == [70, 50, 0]
    assert hand_ends(state)[3]["detail"]["deal_wins"] == [1, 0, 0]
    assert state.match_over
    assert state.winner == 0
    assert state.scores == [4, 3, 0]
    assert [e["dealer"] for e in state.events if e["type"] == "deal"] == [1, 0, 1, 0]

    # The oracle agrees, through its branches for a dropped dealer and a drawn play-off.
    MODEL.check_event_log(state)
