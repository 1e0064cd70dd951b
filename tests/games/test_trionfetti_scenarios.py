"""Trionfetti scenarios for the oracle's rarest branches (``rules/trionfetti.md`` §8, §11.1).

With ``partner_sharing = opt_in`` a seat's ``show`` can reveal two things at once: the
card it kept from the deal just ended 2-0 (shown before the next deal's first card) and,
while it answers a vega, its new hand.  The engine logs them as two share events; the
conformance suite's random matches reach that by chance only (twice in one run of it with
the default 25 examples), so no test was sure to check the oracle's two-part show.  Here
one exact match does, with literal hands, actions and points, and the Trionfetti oracle
(:data:`models.trionfetti.MODEL`) then reads the whole log.
"""

from __future__ import annotations

import json
from typing import Any

from models.common import cards_named, deck_codes
from models.trionfetti import MODEL

import mazo

SUITS = "OCEB"
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ALL_52 = [r + s for s in SUITS for r in RANKS]

# Dealer 3: seat j receives pack cards 3j..3j+2 in each deal (§5.3); deal 1's packets
# first, then the rest of the pack in canonical order (deal 2 starts at JO).
DEAL_1 = ["KO", "QO", "1O", "2O", "3O", "4O", "5O", "6O", "7O", "8O", "9O", "10O"]
PACK = DEAL_1 + [c for c in ALL_52 if c not in DEAL_1]


def new_events(before: Any, after: Any) -> list[dict[str, Any]]:
    return list(after.events[len(before.events) :])


def test_s11_1_opt_in_show_of_the_last_deals_card_and_the_hand_is_two_shares() -> None:
    game = mazo.load_game("trionfetti", partner_sharing="opt_in", first_dealer=3)
    # Team A (seats 0, 2) on 18 points and 2 games; team B on 0.
    state = game.new_match(deck=PACK, setup={"scores": [18, 0], "games": [2, 0]})
    assert state.to_act == 2  # the cutter, D - 1, chooses the ranking (§3.4)
    state = state.apply("keep")  # K Q J 10 ... 1, every suit equal (§3.3)
    assert [state.hand(s) for s in range(4)] == [
        ["1O", "QO", "KO"],
        ["2O", "3O", "4O"],
        ["5O", "6O", "7O"],
        ["8O", "9O", "10O"],
    ]

    # Deal 1: seat 0 (eldest, D + 1) wins two tricks with KO and QO: 2-0, team A +1 (§9).
    for card in ["KO", "2O", "5O", "8O", "QO", "3O", "6O", "9O"]:
        state = state.apply(card)
    assert state.scores == [19, 0]
    assert state.deal_in_smazzata == 2
    # Opt-in: nothing is shared automatically; each seat may show its kept card (§11.1).
    assert not [e for e in state.events if e["type"] == "share"]
    assert [state.observation(s)["showable"] for s in range(4)] == [["1O"], ["4O"], ["7O"], ["10O"]]
    assert state.hand(1) == ["3C", "4C", "5C"]

    # Deal 2: seat 0 calls a vega before its first card: V = 20 - 19 = 1 (§8).
    called = state.apply("vega")
    assert called.observation(None)["vega"]["pending"]["seat"] == 0
    # The answering seats may now show their hands too, with the card kept from deal 1.
    assert called.observation(1)["showable"] == ["4O", "3C", "4C", "5C"]
    assert called.observation(0)["showable"] == ["1O"]

    shown = called.apply("show", seat=1)
    assert new_events(called, shown) == [
        {
            "type": "share",
            "seat": 1,
            "cards": ["4O"],
            "reason": "shown_previous",
            "audience": [1, 3],
        },
        {
            "type": "share",
            "seat": 1,
            "cards": ["3C", "4C", "5C"],
            "reason": "shown",
            "audience": [1, 3],
        },
    ]
    assert shown.observation(3)["partner_cards"] == [
        {"seat": 1, "cards": ["4O"], "reason": "shown_previous"},
        {"seat": 1, "cards": ["3C", "4C", "5C"], "reason": "shown"},
    ]
    assert shown.observation(1)["showable"] == []
    MODEL.check_action(called, shown, 1, game.string_to_action("show"))
    codes = deck_codes(game)
    for seat in (0, 2, None):
        seen = cards_named(json.dumps(shown.observation(seat)), codes)
        assert not seen & {"4O", "3C", "4C", "5C"}, f"seat {seat} sees seat 1's cards"

    # Seat 3 refuses: the calling team scores 1 (§8), reaches 20 and wins its third game,
    # so the match (§10).
    done = shown.apply("refuse", seat=3)
    end = next(e for e in new_events(shown, done) if e["type"] == "hand_end")
    assert end["points"] == [1, 0]
    assert end["detail"]["reason"] == "refused"
    assert end["detail"]["vega"] == 1
    assert done.match_over and done.winner == 0
    assert done.games == [3, 0] and done.scores == [0, 0]

    MODEL.check_event_log(done)
