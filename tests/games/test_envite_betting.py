"""Envite Canario scenario tests for betting, tumbo, counting, renuncio and messages.

Written from ``rules/envite-canario.md`` §4, §6 and §9-§14 (sections in the test names),
through the public API only: ``mazo.load_game``, ``new_match(deck=..., dealer=...,
setup=...)``, ``apply``, ``legal_actions``, ``observation``, ``events``, ``record`` and
``mazo.replay``.  Every expected number is worked out by hand from the rules file.

Most deals use one shape, built by :func:`won_by`: vira ``4C`` (copas are trumps), one
seat holds ``2C KC QC`` (the Mala, the rey and the caballo of the vira suit) and each
other seat holds three low cards of its own plain suit.  Nobody else has a trump, so
the strong seat's team wins the first two tricks whatever the order of play: the deal
is decided, and the tests can concentrate on what is bet on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import mazo
from mazo import IllegalActionError, RulesError

# -- helpers ------------------------------------------------------------------------

RANKS = "1234567JQK"
ALL_40 = [r + s for s in "OCEB" for r in RANKS]
ENVIO, ACCEPT, FOLD, RAISE, TUMBO_PLAY, TUMBO_DECLINE = 40, 41, 42, 43, 44, 45
SIGNAL_IDS = list(range(46, 59))
CONSULT_IDS = list(range(59, 64))
ANSWERS = {ACCEPT, FOLD, RAISE}
VALUE = {0: 2, 1: 4, 2: 7, 3: 9}  # §9.1 value(level)

STRONG = ["2C", "KC", "QC"]
WEAK = [["3O", "4O", "5O"], ["3E", "4E", "5E"], ["3B", "4B", "5B"]]
VIRA = "4C"


def build_deck(hands: dict[int, list[str]], vira: str, dealer: int, players: int = 4) -> list[str]:
    """§5.3: seat ``dealer+1+k`` receives pack cards ``3k..3k+2``; then the vira; then
    the unused rest of the pack in canonical order."""
    deck: list[str] = []
    for k in range(players):
        seat = (dealer + 1 + k) % players
        assert len(hands[seat]) == 3
        deck += hands[seat]
    deck.append(vira)
    assert len(set(deck)) == len(deck), "a card is dealt twice"
    return deck + [c for c in ALL_40 if c not in deck]


def won_by(seat: int, dealer: int = 3) -> list[str]:
    """A 4-player deal that ``seat``'s team wins in two tricks (see the module doc)."""
    weak = iter(WEAK)
    hands = {s: STRONG if s == seat else next(weak) for s in range(4)}
    return build_deck(hands, VIRA, dealer)


# With dealer 3 (eldest 0): the exact card sequences of the two standard deals.
DECK_A = won_by(0)  # seat 0: 2C KC QC; 1: 3O 4O 5O; 2: 3E 4E 5E; 3: 3B 4B 5B
DECK_B = won_by(1)  # seat 1: 2C KC QC; 0: 3O 4O 5O; 2: 3E 4E 5E; 3: 3B 4B 5B
PLAY_A = ["2C", "3O", "3E", "3B", "KC", "4O", "4E", "4B"]  # seat 0 wins both tricks
PLAY_B = ["3O", "2C", "3E", "3B", "KC", "4E", "4B", "4O"]  # seat 1 wins both tricks
DECK_WON = {0: DECK_A, 1: DECK_B}
PLAY_WON = {0: PLAY_A, 1: PLAY_B}

# A deal with follow duties (no trumps dealt; vira 4C): seat 0 leads KO, seat 1 holds 4O
# and must follow with it; 5B and 6B would be a renuncio.
RENUNCIO_HANDS = {
    0: ["KO", "3E", "4E"],
    1: ["4O", "5B", "6B"],
    2: ["5O", "6E", "7E"],
    3: ["6O", "7B", "JB"],
}
DECK_RENUNCIO = build_deck(RENUNCIO_HANDS, VIRA, 3)

# Trick 1: 3O KO 4O 5O, won by seat 1 (team B).  Seat 1 then leads 5B; seat 2 is void in
# bastos, seat 3 holds 7B and 7E and must follow with 7B: 7E is a renuncio.
LATE_HANDS = {
    0: ["3O", "3E", "4E"],
    1: ["KO", "5B", "6B"],
    2: ["4O", "5E", "6E"],
    3: ["5O", "7B", "7E"],
}
DECK_LATE = build_deck(LATE_HANDS, VIRA, 3)


def load(players: int = 4, **options: Any) -> Any:
    return mazo.load_game("envite", players=players, **options)


def start(
    deck: list[str] | None = None,
    dealer: int = 3,
    scores: Sequence[int] = (0, 0),
    games: Sequence[int] = (0, 0),
    players: int = 4,
    **options: Any,
) -> Any:
    setup = {"scores": list(scores), "games": list(games)}
    return load(players, **options).new_match(
        deck=deck if deck is not None else DECK_A, dealer=dealer, setup=setup
    )


def names(state: Any, seat: int) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions(seat)]


def cards_in(state: Any, seat: int) -> list[int]:
    return [a for a in state.legal_actions(seat) if a < 40]


def play(state: Any, *cards: str) -> Any:
    """Play ``cards`` in order, each by the seat to act."""
    for card in cards:
        assert state.phase == "play", state
        state = state.apply(card)
    return state


def play_out(state: Any) -> Any:
    """Finish the deal in progress, each seat playing its first legal, non-offending card."""
    number = state.deal_number
    while not state.match_over and state.deal_number == number:
        assert state.phase == "play", state
        seat = state.to_act
        obs = state.observation(seat)
        playable = [
            a
            for a in obs["legal_actions"]
            if a not in obs["offences"] and a[0] in "1234567JQK" and len(a) == 2
        ]
        state = state.apply(playable[0], seat=seat)
    return state


def of_type(state: Any, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.events if e["type"] == kind]


def deal_events(state: Any, number: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    current = None
    for e in state.events:
        if e["type"] == "deal":
            current = e["deal"]
        if current == number:
            out.append(e)
    return out


def hand_end(state: Any, number: int = 1) -> dict[str, Any]:
    ends = [e for e in deal_events(state, number) if e["type"] == "hand_end"]
    assert len(ends) == 1
    return ends[0]


def stones(team: int, value: int, other: int = 0) -> list[int]:
    out = [other, other]
    out[team] = value
    return out


def assert_refused(state: Any, action: str, seat: int | None = None) -> None:
    """The action raises IllegalActionError and leaves the state as it was."""
    before_events = state.events
    before_scores = state.scores
    with pytest.raises(IllegalActionError):
        state.apply(action, seat=seat)
    assert state.events == before_events
    assert state.scores == before_scores


def reach_level(state: Any, opener: int, level: int) -> Any:
    """``opener`` proposes, then each answer raises until ``level`` is pending."""
    state = state.apply("envio", seat=opener)
    for _ in range(level - 1):
        state = state.apply("raise")
    return state


# == §9 the envío ladder ==============================================================


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
@pytest.mark.parametrize("played", [0, 1, 4, 5])
def test_s9_envio_by_any_seat_any_moment(seat: int, played: int) -> None:
    """§9.2: any seat of either team may open, on turn or not, before the first card and
    between any two cards; the seat after the proposer is asked; no card meanwhile."""
    state = play(start(DECK_B), *PLAY_B[:played])
    to_play = state.to_act
    assert "envio" in names(state, seat)

    pending = state.apply("envio", seat=seat)
    assert pending.phase == "bet_pending"
    assert pending.to_act == (seat + 1) % 4
    assert pending.bet_level == 0
    assert pending.observation(None)["bet"]["pending"] == {
        "team": seat % 2,
        "seat": seat,
        "level": 1,
        "name": "envio",
    }
    assert of_type(pending, "envio")[-1] == {
        "type": "envio",
        "seat": seat,
        "team": seat % 2,
        "level": 1,
        "name": "envio",
    }
    for other in range(4):
        legal = set(pending.legal_actions(other))
        if other % 2 == seat % 2:
            assert not legal & ANSWERS, other
        else:
            assert legal & ANSWERS == ANSWERS, other
        assert ENVIO not in legal
        assert not [a for a in legal if a < 40]
    # No card while the proposal waits, not even from the seat whose turn it is.
    card = pending.hand(to_play)[0]
    assert_refused(pending, card, seat=to_play)
    assert_refused(pending, "envio", seat=seat)
    assert_refused(pending, "envio", seat=(seat + 1) % 4)
    # The proposing team never answers its own proposal.
    assert_refused(pending, "accept", seat=seat)
    assert_refused(pending, "accept", seat=(seat + 2) % 4)

    accepted = pending.apply("accept")
    assert accepted.phase == "play"
    assert accepted.to_act == to_play
    assert accepted.bet_level == 1
    assert accepted.observation(None)["bet"]["raise_right"] == (seat + 1) % 2
    # The deal goes on where it stopped and pays value(1) = 4 to the trick winners (B).
    done = play(accepted, *PLAY_B[played:])
    assert done.scores == [0, 4]
    assert done.deal_number == 2


def test_s9_pending_proposal_blocks_the_state_the_old_state_untouched() -> None:
    """§6: states are values: the proposal creates a new state; the old one plays on."""
    state = start(DECK_A)
    pending = state.apply("envio", seat=2)
    assert state.phase == "play" and state.to_act == 0
    assert state.apply("2C").phase == "play"
    assert pending.phase == "bet_pending"


@pytest.mark.parametrize("opener", [0, 1, 2, 3])
@pytest.mark.parametrize(("level", "value"), [(1, 2), (2, 4), (3, 7), (4, 9)])
def test_s9_fold_pays_the_level_below_to_the_proposers(opener: int, level: int, value: int) -> None:
    """§9.1/§11.2: a fold of a proposal at level k scores value(k-1) = 2, 4, 7, 9 to the
    team that made that proposal (a raise is itself a proposal)."""
    state = reach_level(start(DECK_A), opener, level)
    proposers = opener % 2 if level % 2 else 1 - opener % 2
    pending = state.observation(None)["bet"]["pending"]
    assert pending["team"] == proposers
    assert pending["level"] == level
    assert pending["name"] == ["envio", "siete", "nueve", "chico"][level - 1]
    assert state.to_act % 2 != proposers

    end = state.apply("fold")
    expected = stones(proposers, value)
    assert end.scores == expected
    assert end.hand_over
    assert end.deal_number == 2
    assert end.bet_level == 0
    assert end.phase == "play"
    final = hand_end(end)
    assert final["points"] == expected
    assert final["detail"]["reason"] == "fold"
    assert final["detail"]["team"] == proposers
    assert final["detail"]["award"] == value
    assert not [e for e in deal_events(end, 1) if e["type"] == "play"]


def test_s9_raise_implies_acceptance() -> None:
    """§9.2: A opens, B raises, A folds: B scores the value of the level it answered (4)."""
    state = start(DECK_A).apply("envio", seat=0)
    state = state.apply("raise", seat=1)
    assert state.observation(None)["bet"]["pending"]["team"] == 1
    assert state.to_act == 2
    end = state.apply("fold", seat=2)
    assert end.scores == [0, 4]


@pytest.mark.parametrize("opener", [0, 3])
@pytest.mark.parametrize("winner", [0, 1])
@pytest.mark.parametrize(("level", "value"), [(1, 4), (2, 7), (3, 9)])
def test_s9_accepted_bet_pays_trick_winners_whoever_proposed(
    opener: int, winner: int, level: int, value: int
) -> None:
    """§9.1: a deal played out pays value(bet_level) to the team winning two tricks."""
    state = reach_level(start(DECK_WON[winner]), opener, level)
    state = state.apply("accept")
    assert state.bet_level == level
    assert state.phase == "play"
    end = play(state, *PLAY_WON[winner])
    assert end.scores == stones(winner, value)
    detail = hand_end(end)["detail"]
    assert detail["reason"] == "tricks"
    assert detail["bet_level"] == level
    assert detail["award"] == value
    assert detail["tricks_won"] == stones(winner, 2)


def test_s9_accept_chain_of_three_levels() -> None:
    """§9.2: accept, then the accepting team raises, accepted, raised again: level 3."""
    state = start(DECK_B)
    state = state.apply("envio", seat=2).apply("accept", seat=3)  # level 1, right B
    state = state.apply("envio", seat=1).apply("accept", seat=0)  # level 2, right A
    state = state.apply("envio", seat=2).apply("accept", seat=1)  # level 3, right B
    assert state.bet_level == 3
    assert state.observation(None)["bet"] == {
        "level": 3,
        "name": "nueve",
        "value": 9,
        "raise_right": 1,
        "pending": None,
    }
    assert play(state, *PLAY_B).scores == [0, 9]


@pytest.mark.parametrize("winner", [0, 1])
def test_s9_accepted_chico_wins_the_chico_whatever_the_stones(winner: int) -> None:
    """§9.1/§11.3: played out at level 4, the trick winners win the chico outright, even
    from fewer stones than the losers; both teams' stones go back to 0."""
    before = [3, 10] if winner == 0 else [10, 3]
    state = start(DECK_WON[winner], scores=tuple(before))
    state = reach_level(state, 0, 4)
    assert RAISE not in state.legal_actions()
    state = state.apply("accept")
    assert state.bet_level == 4
    assert state.observation(None)["bet"]["value"] == "chico"
    for seat in range(4):
        assert ENVIO not in state.legal_actions(seat)
    end = play(state, *PLAY_WON[winner])
    assert end.games == stones(winner, 1)
    assert end.scores == [0, 0]
    detail = hand_end(end)["detail"]
    assert detail["award"] == "chico"
    assert detail["chico"] == winner
    assert of_type(end, "chico") == [{"type": "chico", "team": winner, "games": end.games}]


def test_s9_no_raise_beyond_chico() -> None:
    """§9.1: nothing above level 4: a chico proposal can only be accepted or folded."""
    state = reach_level(start(DECK_A), 1, 4)
    assert state.observation(None)["bet"]["pending"]["level"] == 4
    for seat in (state.to_act, (state.to_act + 2) % 4):
        legal = set(state.legal_actions(seat))
        assert {ACCEPT, FOLD} <= legal
        assert RAISE not in legal
        assert_refused(state, "raise", seat=seat)
    # One level lower the raise is offered.
    assert RAISE in reach_level(start(DECK_A), 1, 3).legal_actions()


def test_s9_bets_reset_with_the_next_deal() -> None:
    """A new deal starts at level 0 with no raise right: both teams may open again."""
    state = start(DECK_A).apply("envio", seat=1).apply("accept", seat=2)
    assert ENVIO not in state.legal_actions(1)
    end = play(state, *PLAY_A)
    assert end.scores == [4, 0]
    assert end.bet_level == 0
    assert end.observation(None)["bet"]["raise_right"] is None
    for seat in range(4):
        assert ENVIO in end.legal_actions(seat)


def test_s9_raise_and_answers_without_a_proposal_are_refused() -> None:
    state = start(DECK_A)
    for call in ("raise", "accept", "fold"):
        for seat in range(4):
            assert_refused(state, call, seat=seat)


def test_s9_only_the_accepting_team_may_raise_next() -> None:
    """§9.2 (raise_right=acceptor_only): after team X accepts, only X may propose."""
    state = start(DECK_B).apply("envio", seat=0).apply("accept", seat=1)
    assert state.observation(None)["bet"]["raise_right"] == 1
    for seat in (0, 2):
        assert ENVIO not in state.legal_actions(seat)
        assert_refused(state, "envio", seat=seat)
    for seat in (1, 3):
        assert ENVIO in state.legal_actions(seat)
    # Still true between cards, and B raises out of turn.
    state = play(state, "3O")
    assert_refused(state, "envio", seat=2)
    state = state.apply("envio", seat=3)
    assert state.to_act == 0
    state = state.apply("accept", seat=2)  # now A holds the right
    assert state.bet_level == 2
    for seat in (1, 3):
        assert_refused(state, "envio", seat=seat)
    assert ENVIO in state.legal_actions(0)
    assert ENVIO in state.legal_actions(2)


def test_s9_raise_right_after_a_raise_then_accept() -> None:
    """§9.2: A opens, B raises, A accepts: A (the acceptor of siete) holds the right."""
    state = start(DECK_A).apply("envio", seat=0).apply("raise").apply("accept")
    assert state.bet_level == 2
    assert state.observation(None)["bet"]["raise_right"] == 0
    assert_refused(state, "envio", seat=1)
    assert_refused(state, "envio", seat=3)
    assert ENVIO in state.legal_actions(2)


def test_s9_option_raise_right_any_team() -> None:
    """§13 raise_right=any_team: after an acceptance either team may propose next."""
    state = start(DECK_A, raise_right="any_team").apply("envio", seat=0).apply("accept")
    assert state.bet_level == 1
    for seat in range(4):
        assert ENVIO in state.legal_actions(seat)
    again = state.apply("envio", seat=2)  # the team that was accepted against raises
    assert again.observation(None)["bet"]["pending"] == {
        "team": 0,
        "seat": 2,
        "level": 2,
        "name": "siete",
    }
    assert again.to_act == 3
    assert again.apply("fold").scores == [4, 0]


def test_s9_option_envio_own_turn_only() -> None:
    """§13 envio_timing=own_turn_only: only the seat to play may propose."""
    state = start(DECK_B, envio_timing="own_turn_only")
    assert ENVIO in state.legal_actions(0)
    for seat in (1, 2, 3):
        assert ENVIO not in state.legal_actions(seat)
        assert_refused(state, "envio", seat=seat)
    state = play(state, "3O")
    assert ENVIO in state.legal_actions(1)
    for seat in (0, 2, 3):
        assert_refused(state, "envio", seat=seat)
    pending = state.apply("envio", seat=1)
    assert pending.to_act == 2
    # Answering is not proposing: the answer (and a raise) is open to the answering team.
    assert {ACCEPT, FOLD, RAISE} <= set(pending.legal_actions(2))


def test_s9_envio_default_timing_out_of_turn() -> None:
    """The default (any_time) lets every seat open out of turn."""
    state = start(DECK_B)
    for seat in range(4):
        assert ENVIO in state.legal_actions(seat)


def test_s9_option_bet_responder_captain() -> None:
    """§13 bet_responder=captain: only seat 0 (team A) or seat 1 (team B) answers."""
    state = start(DECK_A, bet_responder="captain")
    pending = state.apply("envio", seat=2)
    assert pending.to_act == 1
    assert {ACCEPT, FOLD, RAISE} <= set(pending.legal_actions(1))
    assert not set(pending.legal_actions(3)) & ANSWERS
    assert_refused(pending, "accept", seat=3)
    assert_refused(pending, "fold", seat=3)
    raised = pending.apply("raise", seat=1)
    assert raised.to_act == 0
    assert not set(raised.legal_actions(2)) & ANSWERS
    assert_refused(raised, "fold", seat=2)
    assert raised.apply("fold", seat=0).scores == [0, 4]
    # A proposal by seat 1: the answer is asked of captain 0, not of seat 2 after it.
    other = state.apply("envio", seat=1)
    assert other.to_act == 0
    assert_refused(other, "accept", seat=2)


def test_s9_default_responder_is_the_seat_after_the_proposer() -> None:
    state = start(DECK_A)
    assert state.apply("envio", seat=1).to_act == 2
    assert state.apply("envio", seat=3).to_act == 0


def test_s9_first_answer_binds_the_team() -> None:
    """§6: any member answers; the first valid answer binds the team."""
    pending = start(DECK_B).apply("envio", seat=0)
    assert pending.to_act == 1
    accepted = pending.apply("accept", seat=3)  # out of turn, for team B
    assert accepted.phase == "play"
    assert accepted.bet_level == 1
    assert accepted.to_act == 0
    assert of_type(accepted, "accept")[-1]["seat"] == 3
    assert_refused(accepted, "fold", seat=1)
    assert_refused(accepted, "raise", seat=1)
    # A fold by the other member ends it just the same, and binds too.
    folded = pending.apply("fold", seat=3)
    assert folded.scores == [2, 0]
    assert folded.deal_number == 2


def test_s9_six_players_roles() -> None:
    """§6 with 6 players: seat 5 proposes, seat 0 is asked, all of team A may answer."""
    deck = list(ALL_40)
    state = load(6).new_match(deck=deck, dealer=5)
    pending = state.apply("envio", seat=5)
    assert pending.to_act == 0
    for seat in range(6):
        legal = set(pending.legal_actions(seat))
        assert (legal & ANSWERS == ANSWERS) == (seat % 2 == 0), seat
        assert pending.observation(seat)["team_must_answer"] == (seat % 2 == 0)
    raised = pending.apply("raise", seat=4)
    assert raised.to_act == 5
    assert raised.apply("fold", seat=3).scores == [4, 0]


# == §10 tumbo =======================================================================


@pytest.mark.parametrize(
    ("dealer", "team", "decider"),
    [(3, 0, 0), (3, 1, 1), (0, 0, 2), (0, 1, 1), (1, 0, 2), (1, 1, 3), (2, 0, 0), (2, 1, 3)],
)
def test_s10_exactly_one_team_at_tumbo_decides(dealer: int, team: int, decider: int) -> None:
    """§10: one team at 11: a decision phase before any card; the first seat of that team
    from the eldest is asked; any member may decide; nobody may bet or play."""
    state = start(won_by(0, dealer), dealer=dealer, scores=tuple(stones(team, 11, 5)))
    assert state.phase == "tumbo_decision"
    assert state.to_act == decider
    eldest = (dealer + 1) % 4
    for seat in range(4):
        legal = set(state.legal_actions(seat))
        mine = seat % 2 == team
        assert ({TUMBO_PLAY, TUMBO_DECLINE} <= legal) == mine
        assert ENVIO not in legal
        assert not [a for a in legal if a < 40]
        obs = state.observation(seat)
        assert obs["team_must_decide"] is mine
        assert obs["tumbo_team"] == team
        assert obs["tumbo"] == [t == team for t in (0, 1)]
        assert_refused(state, "envio", seat=seat)
        if not mine:
            assert_refused(state, "tumbo_play", seat=seat)
            assert_refused(state, "tumbo_decline", seat=seat)
    assert_refused(state, state.hand(eldest)[0], seat=eldest)
    # The other member decides, out of turn.
    other = (decider + 2) % 4
    played = state.apply("tumbo_play", seat=other)
    assert played.phase == "play"
    assert played.to_act == eldest
    assert of_type(played, "tumbo_play")[-1] == {
        "type": "tumbo_play",
        "seat": other,
        "team": team,
    }


def test_s10_tumbo_decline_gives_the_opponents_one_stone() -> None:
    state = start(DECK_A, scores=(11, 5))
    end = state.apply("tumbo_decline", seat=2)
    assert end.scores == [11, 6]
    assert end.deal_number == 2
    assert not [e for e in deal_events(end, 1) if e["type"] == "play"]
    final = hand_end(end)
    assert final["points"] == [0, 1]
    assert final["detail"]["reason"] == "tumbo_decline"
    assert final["detail"]["tumbo_deal"] is True
    # Team A is still at 11: the next deal asks again (dealer 0, eldest 1, so seat 2).
    assert end.phase == "tumbo_decision"
    assert end.to_act == 2


def test_s10_tumbo_decline_can_bring_both_teams_to_11() -> None:
    """10 + 1 = 11: the next deal has both teams at tumbo and is simply played."""
    end = start(DECK_A, scores=(10, 11)).apply("tumbo_decline")
    assert end.scores == [11, 11]
    assert end.phase == "play"
    assert end.to_act == 1
    for seat in range(4):
        assert not set(end.legal_actions(seat)) & {TUMBO_PLAY, TUMBO_DECLINE, ENVIO}


@pytest.mark.parametrize("team", [0, 1])
def test_s10_tumbo_team_wins_the_played_deal_takes_the_chico(team: int) -> None:
    state = start(DECK_WON[team], scores=tuple(stones(team, 11, 5)))
    state = state.apply("tumbo_play")
    end = play(state, *PLAY_WON[team])
    assert end.games == stones(team, 1)
    assert end.scores == [0, 0]
    detail = hand_end(end)["detail"]
    assert detail["award"] == 3
    assert detail["tumbo_deal"] is True
    assert detail["chico"] == team


@pytest.mark.parametrize(
    ("other_stones", "after"), [(5, [11, 8]), (0, [11, 3]), (8, [11, 11]), (9, [11, 11])]
)
def test_s10_other_team_wins_the_tumbo_deal_scores_three(
    other_stones: int, after: list[int]
) -> None:
    """§10: the team not at tumbo wins 3 stones (8+3 = 11; 9+3 = 12 -> 11, §11.1)."""
    state = start(DECK_B, scores=(11, other_stones)).apply("tumbo_play")
    end = play(state, *PLAY_B)
    assert end.scores == after
    assert end.games == [0, 0]
    assert hand_end(end)["points"] == [0, 3]


def test_s10_other_team_at_10_wins_the_tumbo_deal_takes_the_chico() -> None:
    """§11.1: 10 + 3 = 13 -> 12: the chico."""
    end = play(start(DECK_B, scores=(11, 10)).apply("tumbo_play"), *PLAY_B)
    assert end.games == [0, 1]
    assert end.scores == [0, 0]


def test_s10_no_envio_in_a_tumbo_deal_by_either_team() -> None:
    """§9.4 with renuncio_mode=prevent: refused, state unchanged, at every moment."""
    state = start(DECK_B, scores=(11, 4)).apply("tumbo_play")
    for played in range(0, 6):
        now = play(state, *PLAY_B[:played])
        for seat in range(4):
            assert ENVIO not in now.legal_actions(seat)
            assert_refused(now, "envio", seat=seat)
        assert now.observation(0)["offences"] == []


@pytest.mark.parametrize("winner", [0, 1])
def test_s10_both_teams_at_tumbo_play_for_the_chico(winner: int) -> None:
    """§10: both at 11: no decision, no envío; the deal is played, the winner takes it."""
    state = start(DECK_WON[winner], scores=(11, 11))
    assert state.phase == "play"
    assert state.to_act == 0
    for seat in range(4):
        legal = set(state.legal_actions(seat))
        assert not legal & {TUMBO_PLAY, TUMBO_DECLINE, ENVIO}
        assert state.observation(seat)["team_must_decide"] is False
    obs = state.observation(None)
    assert obs["tumbo_deal"] is True
    assert obs["tumbo_team"] is None
    end = play(state, *PLAY_WON[winner])
    assert end.games == stones(winner, 1)
    assert end.scores == [0, 0]
    assert hand_end(end)["detail"]["award"] == 3


@pytest.mark.parametrize(("dealer", "team", "captain"), [(0, 0, 0), (1, 1, 1), (3, 0, 0)])
def test_s10_option_tumbo_decider_captain(dealer: int, team: int, captain: int) -> None:
    """§13 tumbo_decider=captain: seat 0 decides for team A, seat 1 for team B."""
    state = start(
        won_by(0, dealer),
        dealer=dealer,
        scores=tuple(stones(team, 11, 2)),
        tumbo_decider="captain",
    )
    assert state.to_act == captain
    mate = captain + 2
    assert not set(state.legal_actions(mate)) & {TUMBO_PLAY, TUMBO_DECLINE}
    assert_refused(state, "tumbo_play", seat=mate)
    assert_refused(state, "tumbo_decline", seat=mate)
    end = state.apply("tumbo_decline", seat=captain)
    assert end.scores == stones(team, 11, 3)


# == §11 counting ====================================================================

AWARD_EXAMPLES = [
    (10, 2, 11),
    (8, 4, 11),
    (9, 4, None),
    (4, 7, 11),
    (5, 7, 11),
    (6, 7, None),
    (2, 9, 11),
    (3, 9, 11),
    (11, 3, None),
    (11, 4, None),
    (10, 3, None),
    (0, 2, 2),
    (9, 2, 11),
    (7, 4, 11),
    (10, 1, 11),
    (11, 1, 11),
]


@pytest.mark.parametrize(("before", "points", "after"), AWARD_EXAMPLES)
def test_s11_award_minus_one(before: int, points: int, after: int | None) -> None:
    """§11.1: above 11 one stone is taken off; 12 or more after that is the chico."""
    from mazo.games.envite import award

    assert award(before, points) == after
    assert award(before, points, "minus_one") == after


@pytest.mark.parametrize(
    ("before", "points", "after"),
    [(10, 3, 11), (9, 4, 11), (6, 7, 11), (10, 2, 11), (4, 7, 11), (11, 1, None), (11, 3, None)],
)
def test_s11_award_hard_cap(before: int, points: int, after: int | None) -> None:
    """§13 capping=hard_cap_11: a team below 11 stops at 11; any award at 11 is a chico."""
    from mazo.games.envite import award

    assert award(before, points, "hard_cap_11") == after


def score_deal(team: int, before: int, points: int, **options: Any) -> Any:
    """Play one real deal that awards ``points`` to ``team`` starting from ``before``
    stones (opponents at 0, or at 11 for a tumbo deal the team does not hold)."""
    if points == 3:  # a tumbo deal
        setup = stones(team, before, 11 if before != 11 else 0)
        state = start(DECK_WON[team], scores=tuple(setup), **options)
        state = state.apply("tumbo_play")
    else:
        level = {2: 0, 4: 1, 7: 2, 9: 3}[points]
        state = start(DECK_WON[team], scores=tuple(stones(team, before)), **options)
        if level:
            state = reach_level(state, 2, level).apply("accept")
        assert state.bet_level == level
    return play(state, *PLAY_WON[team])


@pytest.mark.parametrize("team", [0, 1])
@pytest.mark.parametrize(
    ("before", "points", "after"),
    [
        (10, 2, 11),
        (8, 4, 11),
        (9, 4, None),
        (4, 7, 11),
        (5, 7, 11),
        (6, 7, None),
        (2, 9, 11),
        (3, 9, 11),
        (11, 3, None),
        (10, 3, None),
        (7, 2, 9),
        (7, 4, 11),
    ],
)
def test_s11_counting_through_real_deals(
    team: int, before: int, points: int, after: int | None
) -> None:
    end = score_deal(team, before, points)
    detail = hand_end(end)["detail"]
    assert detail["award"] == points
    assert detail["stones_before"][team] == before
    if after is None:
        assert end.games == stones(team, 1)
        assert end.scores == [0, 0]
        assert detail["chico"] == team
    else:
        assert end.games == [0, 0]
        assert end.scores[team] == after
        assert detail["chico"] is None


def test_s11_ten_plus_two_is_tumbo_next_deal() -> None:
    """10 + 2 -> 11: the very next deal opens with team A's tumbo decision."""
    end = score_deal(0, 10, 2)
    assert end.scores == [11, 0]
    assert end.phase == "tumbo_decision"
    assert end.observation(None)["tumbo_team"] == 0


def test_s11_fold_award_goes_through_counting() -> None:
    """A fold award counts like any other: 9 + 4 (fold of siete) -> chico; 8 + 4 -> 11."""
    state = start(DECK_A, scores=(2, 9)).apply("envio", seat=0).apply("raise")
    assert state.apply("fold").games == [0, 1]
    state = start(DECK_A, scores=(2, 8)).apply("envio", seat=0).apply("raise")
    assert state.apply("fold").scores == [2, 11]


def test_s11_hard_cap_through_real_deals() -> None:
    """capping=hard_cap_11: 10 + 3 -> 11 (both at tumbo), 9 + 4 -> 11, 11 + 3 -> chico."""
    end = score_deal(0, 10, 3, capping="hard_cap_11")
    assert end.scores == [11, 11]
    assert end.games == [0, 0]
    end = score_deal(1, 9, 4, capping="hard_cap_11")
    assert end.scores == [0, 11]
    end = score_deal(1, 11, 3, capping="hard_cap_11")
    assert end.games == [0, 1]


def test_s13_first_dealer_random_is_another_name_for_none() -> None:
    """§13: ``first_dealer`` is a seat or None, also spelled "random": the first dealer is
    drawn from the match seed, the same draw as None's."""
    spelled = load(first_dealer="random")
    assert spelled.options["first_dealer"] is None  # records carry the one spelling
    dealers = set()
    for seed in range(12):
        a = spelled.new_match(seed=seed)
        b = load(first_dealer=None).new_match(seed=seed)
        c = load().new_match(seed=seed)
        assert a.dealer == b.dealer == c.dealer
        assert a.events == b.events == c.events
        assert a.record() == c.record()
        dealers.add(a.dealer)
    assert len(dealers) > 1  # drawn, not a fixed seat
    replayed = mazo.replay(spelled.new_match(seed=5).apply("envio", seat=0).record())
    assert replayed.dealer == load().new_match(seed=5).dealer
    for bad in ("Random", "any", 4, -1, 1.0):
        with pytest.raises(RulesError):
            load(first_dealer=bad)


@pytest.mark.parametrize("mode", ["prevent", "penalize"])
def test_s94_envio_while_the_tumbo_team_decides_is_rejected_in_both_modes(mode: str) -> None:
    """§9.4: while the team at tumbo decides whether to play (§10), nothing but that
    decision is possible: an envío by any seat is refused (never a renuncio, even in
    penalize mode), the state unchanged; after tumbo_play it is the §12 offence."""
    state = start(DECK_RENUNCIO, scores=(5, 11), renuncio_mode=mode)
    assert state.phase == "tumbo_decision"
    assert state.to_act == 1  # dealer 3, eldest 0: the first seat of team B
    for seat in range(4):
        assert ENVIO not in state.legal_actions(seat)
        assert state.observation(seat)["offences"] == []
        with pytest.raises(IllegalActionError, match="tumbo must first choose"):
            state.apply("envio", seat=seat)
        assert_refused(state, "envio", seat=seat)
    assert state.phase == "tumbo_decision"
    assert state.scores == [5, 11]
    played = state.apply("tumbo_play", seat=3)
    if mode == "prevent":
        assert_refused(played, "envio", seat=0)
    else:
        assert played.apply("envio", seat=1).scores == [9, 11]  # team B offends: A 5 + 4
        assert played.apply("envio", seat=0).games == [0, 1]  # A offends: B at 11 + 4


def test_s13_renuncio_penalty_of_one_is_refused_with_the_reason() -> None:
    """§13: ``renuncio_penalty`` is an integer >= 2.  With the 12 -> 11 counting of §11.1
    one stone to a team at 11 changes nothing, so a penalty of 1 could leave a chico
    between two teams at 11 without end: it is refused, saying so."""
    for bad in (1, 0, -2, True, 2.0, "2"):
        with pytest.raises(RulesError) as caught:
            load(renuncio_mode="penalize", renuncio_penalty=bad)
        message = str(caught.value)
        assert "renuncio_penalty" in message
        assert ">= 2" in message
        assert "11" in message  # the reason: the teams at 11
    assert load(renuncio_penalty=2).options["renuncio_penalty"] == 2


@pytest.mark.parametrize(
    ("scores", "after_scores", "after_games"),
    [
        ((2, 5), [4, 5], [0, 0]),  # 2 + 2 = 4
        ((9, 5), [11, 5], [0, 0]),  # 9 + 2 = 11: tumbo
        ((11, 5), [0, 0], [1, 0]),  # 11 + 2 = 13 -> 12: the team at tumbo takes the chico
    ],
)
def test_s13_renuncio_penalty_two_through_the_counting(
    scores: tuple[int, int], after_scores: list[int], after_games: list[int]
) -> None:
    """The smallest penalty allowed: seat 1 fails to follow KO with 5B (it holds 4O);
    team A receives 2 stones through §11.1."""
    state = start(DECK_RENUNCIO, scores=scores, renuncio_mode="penalize", renuncio_penalty=2)
    if state.phase == "tumbo_decision":
        state = state.apply("tumbo_play")
    end = play(state, "KO").apply("5B")
    assert end.scores == after_scores
    assert end.games == after_games
    assert hand_end(end)["detail"]["award"] == 2


def test_s11_chico_resets_stones_and_rotation_goes_on() -> None:
    """§11.3: the chico resets both teams to 0; the next dealer is D+1 as always."""
    decks = [DECK_A, won_by(1, dealer=0), won_by(0, dealer=1)]
    state = load().new_match(decks=decks, dealer=3, setup={"scores": [11, 7], "games": [0, 0]})
    state = play(state.apply("tumbo_play"), *PLAY_A)
    assert state.games == [1, 0]
    assert state.scores == [0, 0]
    assert not state.match_over
    assert state.deal_number == 2
    deal2 = of_type(state, "deal")[-1]
    assert deal2["dealer"] == 0
    assert deal2["eldest"] == 1
    assert deal2["scores"] == [0, 0]
    assert deal2["games"] == [1, 0]
    assert state.phase == "play"
    assert state.to_act == 1
    state = play_out(state)
    assert state.scores == [0, 2]
    assert of_type(state, "deal")[-1]["dealer"] == 1
    assert state.observation(None)["dealer"] == 1


def test_s11_match_ends_at_two_chicos_by_default() -> None:
    state = start(DECK_A, scores=(11, 4), games=(1, 0)).apply("tumbo_play")
    end = play(state, *PLAY_A)
    assert end.match_over
    assert end.hand_over
    assert end.games == [2, 0]
    assert end.winner == 0
    assert end.to_act is None
    assert end.phase == "over"
    assert end.events[-1] == {
        "type": "match_end",
        "winner": 0,
        "scores": [0, 0],
        "games": [2, 0],
    }
    for seat in range(4):
        assert end.legal_actions(seat) == []
    assert end.legal_actions() == []
    assert_refused(end, "envio", seat=0)
    assert_refused(end, "signal mala", seat=0)
    assert end.observation(1)["winner"] == 0


def test_s11_option_chicos_to_win_four() -> None:
    """chicos_to_win=4: the third chico does not end the match; the fourth does."""
    state = start(DECK_A, scores=(11, 4), games=(2, 3), chicos_to_win=4)
    state = play(state.apply("tumbo_play"), *PLAY_A)
    assert state.games == [3, 3]
    assert not state.match_over
    assert state.winner is None
    assert state.to_act is not None
    state = start(DECK_B, scores=(0, 6), games=(2, 3), chicos_to_win=4)
    state = state.apply("envio", seat=0).apply("accept")
    end = play(state, *PLAY_B)  # 6 + 4 = 10: no chico
    assert end.scores == [0, 10]
    state = start(DECK_B, scores=(0, 6), games=(2, 3), chicos_to_win=4)
    state = state.apply("envio", seat=0).apply("raise").apply("accept")
    end = play(state, *PLAY_B)  # 6 + 7 = 13 -> 12: the fourth chico
    assert end.match_over
    assert end.winner == 1
    assert end.games == [2, 4]


def test_s11_option_chicos_to_win_one() -> None:
    end = score_deal(1, 9, 4, chicos_to_win=1)
    assert end.match_over
    assert end.winner == 1
    assert end.games == [0, 1]
    assert of_type(end, "match_end")[0]["winner"] == 1


def test_s11_scores_are_stones_and_games_are_chicos_in_the_observation() -> None:
    end = score_deal(0, 3, 9)
    obs = end.observation(2)
    assert obs["scores"] == [11, 0]
    assert obs["games"] == [0, 0]
    assert obs["chicos_to_win"] == 2
    assert obs["last_deal"]["points"] == [9, 0]


# == §12 renuncio ====================================================================


def test_s12_prevent_refuses_a_failure_to_follow() -> None:
    state = play(start(DECK_RENUNCIO), "KO")
    assert cards_in(state, 1) == [state.string_to_action("4O")]
    assert state.observation(1)["offences"] == []
    for card in ("5B", "6B"):
        assert_refused(state, card)
    after = state.apply("4O")
    assert after.to_act == 2


def test_s12_prevent_refuses_envio_at_tumbo() -> None:
    state = start(DECK_RENUNCIO, scores=(11, 2)).apply("tumbo_play")
    for seat in range(4):
        assert_refused(state, "envio", seat=seat)


def test_s12_penalize_offers_the_offence_and_names_it() -> None:
    state = play(start(DECK_RENUNCIO, renuncio_mode="penalize"), "KO")
    assert names(state, 1)[:3] == ["4O", "5B", "6B"]
    assert sorted(state.observation(1)["offences"]) == ["5B", "6B"]
    assert state.observation(0)["offences"] == []


@pytest.mark.parametrize("penalty", [None, 3])
@pytest.mark.parametrize(
    ("before", "offender", "card"), [(["KO"], 1, "5B"), (["KO", "4O"], 2, "6E")]
)
def test_s12_penalize_failure_to_follow_ends_the_deal(
    penalty: int | None, before: list[str], offender: int, card: str
) -> None:
    options: dict[str, Any] = {"renuncio_mode": "penalize"}
    if penalty is not None:
        options["renuncio_penalty"] = penalty
    value = penalty or 4
    state = play(start(DECK_RENUNCIO, scores=(2, 5), **options), *before)
    assert state.to_act == offender
    assert card in state.observation(offender)["offences"]
    end = state.apply(card)
    victims = 1 - offender % 2
    assert end.scores == [2 + value, 5] if victims == 0 else [2, 5 + value]
    assert end.deal_number == 2
    assert end.hand_over
    renuncios = of_type(end, "renuncio")
    assert renuncios == [
        {
            "type": "renuncio",
            "seat": offender,
            "team": offender % 2,
            "action": card,
            "offence": "follow",
        }
    ]
    final = hand_end(end)
    assert final["points"] == stones(victims, value)
    detail = final["detail"]
    assert detail["reason"] == "renuncio"
    assert detail["team"] == victims
    assert detail["offender"] == offender
    assert detail["offence"] == "follow"
    assert detail["card"] == card
    assert detail["award"] == value
    # The offending card was not placed.
    plays = [e["card"] for e in deal_events(end, 1) if e["type"] == "play"]
    assert plays == before


def test_s12_penalize_only_envio_at_tumbo_is_an_offence() -> None:
    """Outside tumbo, an envío without the raise right is impossible, not a renuncio."""
    state = start(DECK_A, renuncio_mode="penalize").apply("envio", seat=0).apply("accept")
    assert_refused(state, "envio", seat=0)
    assert ENVIO not in state.legal_actions(2)
    assert state.observation(0)["offences"] == []
    assert play(state, *PLAY_A).scores == [4, 0]


def test_s12_penalize_ignores_tricks_won_and_accepted_bet() -> None:
    """Team B won trick 1 and siete was accepted; B's renuncio gives A exactly 4."""
    state = start(DECK_LATE, renuncio_mode="penalize")
    state = state.apply("envio", seat=0).apply("raise").apply("accept")
    assert state.bet_level == 2
    state = play(state, "3O", "KO", "4O", "5O", "5B", "5E")
    assert state.tricks_won == [0, 1]
    assert state.observation(3)["offences"] == ["7E"]
    end = state.apply("7E")
    assert end.scores == [4, 0]
    assert hand_end(end)["points"] == [4, 0]


def test_s12_penalize_team_at_tumbo_catching_a_renuncio_wins_the_chico() -> None:
    state = start(DECK_RENUNCIO, scores=(11, 5), renuncio_mode="penalize")
    state = play(state.apply("tumbo_play"), "KO")
    end = state.apply("5B")
    assert end.games == [1, 0]
    assert end.scores == [0, 0]


def test_s12_penalize_envio_at_tumbo() -> None:
    """§9.4/§12(b): envío in a tumbo deal is an offence; 4 to the other team."""
    state = start(DECK_RENUNCIO, scores=(11, 5), renuncio_mode="penalize")
    # Not during the decision itself: that phase only knows the decision.
    assert_refused(state, "envio", seat=1)
    state = state.apply("tumbo_play")
    for seat in range(4):
        assert ENVIO in state.legal_actions(seat)
        assert "envio" in state.observation(seat)["offences"]
    by_b = state.apply("envio", seat=3)  # team A, at 11, catches it: chico
    assert by_b.games == [1, 0]
    assert of_type(by_b, "renuncio")[-1]["offence"] == "envio_at_tumbo"
    assert hand_end(by_b)["detail"]["offence"] == "envio_at_tumbo"
    by_a = state.apply("envio", seat=2)  # the team at tumbo offends: B 5 + 4
    assert by_a.scores == [11, 9]
    assert by_a.phase == "tumbo_decision"


def test_s12_penalize_envio_with_both_teams_at_tumbo() -> None:
    state = start(DECK_A, scores=(11, 11), renuncio_mode="penalize")
    end = state.apply("envio", seat=0)
    assert end.games == [0, 1]


def test_s12_penalize_still_refuses_impossible_actions() -> None:
    state = play(start(DECK_RENUNCIO, renuncio_mode="penalize"), "KO")
    assert_refused(state, "KC", seat=1)  # not held
    assert_refused(state, "KC")
    assert_refused(state, "5O", seat=2)  # out of turn
    assert_refused(state, "JB", seat=3)
    pending = state.apply("envio", seat=0)
    assert_refused(pending, "accept", seat=2)  # answering one's own proposal
    assert_refused(pending, "fold", seat=0)
    assert_refused(pending, "5B", seat=1)  # no card while pending, offence or not
    assert_refused(pending, "4O", seat=1)


# == §14 messages and information =====================================================


def messages_seen(state: Any, seat: int | None) -> list[dict[str, Any]]:
    return [e for e in state.events_for(seat) if e["type"] in ("signal", "consult")]


def test_s14_signals_and_consultation_are_team_only() -> None:
    state = start(DECK_A)
    state = state.apply("signal mala", seat=2).apply("consult propose", seat=2)
    for seat in (0, 2):
        seen = messages_seen(state, seat)
        assert [e["type"] for e in seen] == ["signal", "consult"]
        assert seen[0]["kind"] == "mala"
        assert seen[1]["intent"] == "propose"
        obs = state.observation(seat)
        assert [m["type"] for m in obs["messages"]] == ["signal", "consult"]
    for outsider in (1, 3, None):
        assert messages_seen(state, outsider) == []
        assert state.observation(outsider)["messages"] == []
        log = state.observation(outsider)["deal_log"]
        assert [e["type"] for e in log] == ["deal"]
    # The omniscient log keeps both, with their audience.
    logged = [e for e in state.events if e["type"] in ("signal", "consult")]
    assert [e["audience"] for e in logged] == [[0, 2], [0, 2]]


def test_s14_team_leaky_shows_signs_to_everyone_but_not_consultation() -> None:
    state = start(DECK_A, signals="team_leaky")
    state = state.apply("signal three_trumps", seat=1).apply("consult fold", seat=1)
    for seat in (0, 2, None):
        seen = messages_seen(state, seat)
        assert [(e["type"], e.get("kind")) for e in seen] == [("signal", "three_trumps")]
    for seat in (1, 3):
        assert [e["type"] for e in messages_seen(state, seat)] == ["signal", "consult"]


def test_s14_signals_off() -> None:
    state = start(DECK_A, signals="off")
    for seat in range(4):
        legal = set(state.legal_actions(seat))
        assert not legal & set(SIGNAL_IDS)
        assert set(CONSULT_IDS) <= legal
        assert_refused(state, "signal mala", seat=seat)
    assert state.apply("consult play_on", seat=3).observation(1)["messages"][0]["intent"] == (
        "play_on"
    )


def test_s14_no_consultation_in_the_tumbo_decision() -> None:
    state = start(DECK_A, scores=(11, 3))
    for seat in range(4):
        legal = set(state.legal_actions(seat))
        assert not legal & set(CONSULT_IDS)
        assert set(SIGNAL_IDS) <= legal  # signs are allowed in every phase
        assert_refused(state, "consult accept", seat=seat)
    signed = state.apply("signal no_trump", seat=2)
    assert signed.phase == "tumbo_decision"
    assert signed.to_act == 0
    # Once the deal is played consultation is open again (bets stay closed).
    played = state.apply("tumbo_play")
    assert set(CONSULT_IDS) <= set(played.legal_actions(1))


def test_s14_consultation_while_a_proposal_is_pending() -> None:
    pending = start(DECK_A).apply("envio", seat=0)
    for seat in range(4):
        assert set(CONSULT_IDS) <= set(pending.legal_actions(seat))
    talked = pending.apply("consult raise", seat=3)
    assert talked.phase == "bet_pending"
    assert talked.to_act == 1
    assert talked.observation(1)["messages"][0]["intent"] == "raise"
    assert talked.observation(0)["messages"] == []


def test_s14_no_same_message_twice_before_the_next_game_action() -> None:
    state = start(DECK_A).apply("signal mala", seat=0)
    assert 47 not in state.legal_actions(0)
    assert_refused(state, "signal mala", seat=0)
    # Another message from the same seat, the same message from the partner: fine.
    state = state.apply("signal perica", seat=0).apply("signal mala", seat=2)
    assert_refused(state, "signal perica", seat=0)
    # A card is a game action: the message may be sent again.
    state = state.apply("2C")
    assert 47 in state.legal_actions(0)
    again = state.apply("signal mala", seat=0)
    assert len(messages_seen(again, 2)) == 4
    # So is a bet call.
    state = again.apply("envio", seat=3)
    assert state.apply("signal mala", seat=0).phase == "bet_pending"


def test_s14_messages_never_change_to_act() -> None:
    state = play(start(DECK_B), "3O")
    assert state.to_act == 1
    for seat, msg in [(0, "signal mala"), (1, "consult propose"), (3, "signal want_envio")]:
        state = state.apply(msg, seat=seat)
        assert state.to_act == 1
        assert state.phase == "play"
    assert play(state, *PLAY_B[1:]).scores == [0, 2]


def test_s14_message_without_a_seat_is_sent_by_to_act() -> None:
    """A message applied without a seat is sent by the seat to act."""
    state = start(DECK_A).apply("signal mala")
    assert messages_seen(state, 0)[0]["seat"] == 0


@pytest.mark.parametrize("team", [0, 1])
def test_s14_tumbo_show_captain(team: int) -> None:
    state = start(DECK_A, scores=tuple(stones(team, 11, 4)), tumbo_show_captain=True)
    captain = team
    mate = team + 2
    assert state.observation(captain)["shown_hands"] == [{"seat": mate, "cards": state.hand(mate)}]
    for seat in range(4):
        if seat != captain:
            assert state.observation(seat)["shown_hands"] == []
    assert state.observation(None)["shown_hands"] == []
    # Perfect recall for the deal: still shown after the partner plays.
    dealt = state.hand(mate)
    later = state.apply("tumbo_play")
    later = play(later, *PLAY_A[: mate + 1])
    assert len(later.hand(mate)) == 2
    assert later.observation(captain)["shown_hands"] == [{"seat": mate, "cards": dealt}]


def test_s14_tumbo_show_captain_off_by_default_and_only_at_tumbo() -> None:
    state = start(DECK_A, scores=(11, 4))
    assert state.observation(0)["shown_hands"] == []
    state = start(DECK_A, tumbo_show_captain=True)
    assert state.observation(0)["shown_hands"] == []
    assert state.observation(1)["shown_hands"] == []


def test_s14_tumbo_show_captain_both_teams_and_six_players() -> None:
    hands = {s: ALL_40[3 * s : 3 * s + 3] for s in range(6)}
    deck = build_deck(hands, "KE", dealer=5, players=6)
    state = load(6, tumbo_show_captain=True).new_match(
        deck=deck, dealer=5, setup={"scores": [11, 11]}
    )
    assert state.observation(0)["shown_hands"] == [
        {"seat": 2, "cards": hands[2]},
        {"seat": 4, "cards": hands[4]},
    ]
    assert state.observation(1)["shown_hands"] == [
        {"seat": 3, "cards": hands[3]},
        {"seat": 5, "cards": hands[5]},
    ]
    assert state.observation(2)["shown_hands"] == []


def test_s14_reveal_at_deal_end() -> None:
    end = play(start(DECK_A, reveal_at_deal_end=True), *PLAY_A)
    assert hand_end(end)["detail"]["revealed"] == [["QC"], ["5O"], ["5E"], ["5B"]]
    folded = start(DECK_A, reveal_at_deal_end=True).apply("envio", seat=1).apply("fold")
    assert hand_end(folded)["detail"]["revealed"] == [
        ["2C", "QC", "KC"],
        ["3O", "4O", "5O"],
        ["3E", "4E", "5E"],
        ["3B", "4B", "5B"],
    ]


def test_s14_unplayed_cards_stay_hidden_by_default() -> None:
    end = play(start(DECK_A), *PLAY_A)
    assert "revealed" not in hand_end(end)["detail"]
    for seat in (0, 1, 2, 3, None):
        assert "revealed" not in end.observation(seat)["last_deal"]["detail"]
    # The same end with the option does reveal (so the key is the option's doing).
    shown = play(start(DECK_A, reveal_at_deal_end=True), *PLAY_A)
    assert shown.observation(1)["last_deal"]["detail"]["revealed"][0] == ["QC"]


# == setup validation ================================================================


@pytest.mark.parametrize(
    ("setup", "options"),
    [
        ({"scores": [12, 0]}, {}),
        ({"scores": [0, -1]}, {}),
        ({"scores": [0, 0, 0]}, {}),
        ({"scores": [True, 0]}, {}),
        ({"scores": "11,0"}, {}),
        ({"games": [2, 0]}, {}),
        ({"games": [0, 4]}, {"chicos_to_win": 4}),
        ({"games": [1, 0]}, {"chicos_to_win": 1}),
        ({"games": [-1, 0]}, {}),
        ({"stones": [1, 2]}, {}),
        ({"scores": [1, 2], "chicos": [0, 0]}, {}),
    ],
)
def test_setup_validation(setup: dict[str, Any], options: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        load(**options).new_match(deck=DECK_A, dealer=3, setup=setup)


def test_setup_limits_accepted() -> None:
    state = load(chicos_to_win=4).new_match(
        deck=DECK_A, dealer=3, setup={"scores": [11, 0], "games": [3, 3]}
    )
    assert state.scores == [11, 0]
    assert state.games == [3, 3]
    assert state.phase == "tumbo_decision"


def test_options_validated() -> None:
    for bad in (
        {"raise_right": "nobody"},
        {"envio_timing": "never"},
        {"bet_responder": "dealer"},
        {"tumbo_decider": "eldest"},
        {"capping": "none"},
        {"signals": "all"},
        {"renuncio_mode": "ignore"},
        {"renuncio_penalty": 0},
        {"chicos_to_win": 0},
        {"no_such_option": 1},
    ):
        with pytest.raises(RulesError):
            load(**bad)


# == observation flags ===============================================================


def test_observation_bet_block_through_a_ladder() -> None:
    state = start(DECK_A)
    assert state.observation(0)["bet"] == {
        "level": 0,
        "name": "none",
        "value": 2,
        "raise_right": None,
        "pending": None,
    }
    for seat in range(4):
        assert state.observation(seat)["team_must_answer"] is False
    state = state.apply("envio", seat=3)
    for seat in range(4):
        obs = state.observation(seat)
        assert obs["team_must_answer"] is (seat % 2 == 0)
        assert obs["phase"] == "bet_pending"
        assert obs["bet"]["pending"] == {"team": 1, "seat": 3, "level": 1, "name": "envio"}
    state = state.apply("accept", seat=2)
    obs = state.observation(1)
    assert obs["bet"] == {
        "level": 1,
        "name": "envio",
        "value": 4,
        "raise_right": 0,
        "pending": None,
    }
    assert obs["team_must_answer"] is False
    state = state.apply("envio", seat=0)
    assert state.observation(None)["team_must_answer"] is False
    assert state.observation(1)["team_must_answer"] is True
    assert state.observation(0)["team_must_answer"] is False
    state = state.apply("accept", seat=3)
    assert state.observation(2)["bet"]["value"] == 7
    assert state.observation(2)["bet"]["name"] == "siete"
    assert state.observation(2)["bet"]["raise_right"] == 1
    assert "envio" not in state.observation(2)["legal_actions"]  # no right to raise
    assert "envio" in state.observation(1)["legal_actions"]


def test_observation_legal_actions_strings_for_answering_seat() -> None:
    pending = start(DECK_A).apply("envio", seat=0)
    obs = pending.observation(1)
    assert obs["to_act"] == 1
    assert obs["legal_actions"][:3] == ["accept", "fold", "raise"]
    assert pending.observation(0)["legal_actions"][0].startswith("signal")


# == records ===========================================================================


def test_record_replays_bets_tumbo_and_chico() -> None:
    decks = [DECK_A, won_by(1, dealer=0), won_by(0, dealer=1)]
    state = load(raise_right="any_team").new_match(
        decks=decks, dealer=3, setup={"scores": [10, 9], "games": [1, 0]}
    )
    state = state.apply("signal mala", seat=2).apply("envio", seat=1).apply("accept", seat=2)
    state = play(state, *PLAY_A)  # 10 + 4 = 14 -> 13: chico for A (2nd): match over
    assert state.match_over
    assert state.winner == 0
    again = mazo.replay(state.record())
    assert again == state
    assert again.events == state.events


def test_record_replays_a_decline_and_a_penalized_renuncio() -> None:
    # Deal 2 (dealer 0, eldest 1): seat 1 leads 4O; seat 2 holds 5O and must follow.
    decks = [DECK_A, build_deck(RENUNCIO_HANDS, VIRA, 0)]
    state = load(renuncio_mode="penalize").new_match(
        decks=decks, dealer=3, setup={"scores": [3, 11]}
    )
    state = state.apply("tumbo_decline", seat=3)  # A: 3 + 1 = 4
    assert state.scores == [4, 11]
    assert state.phase == "tumbo_decision"
    assert state.to_act == 1
    state = state.apply("tumbo_play", seat=3).apply("consult play_on", seat=0)
    state = state.apply("4O", seat=1).apply("6E", seat=2)  # renuncio: B, at 11, wins
    assert state.games == [0, 1]
    assert state.scores == [0, 0]
    again = mazo.replay(state.record())
    assert again == state
    assert again.events == state.events
