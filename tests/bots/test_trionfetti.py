"""The heuristic Trionfetti bot: legal choices from observations under every option, the
rules of thumb of its docstring in built positions, and a clear win over the random bot.

Positions are built with ``game.new_match(deck=..., dealer=...)`` and the deal of
``rules/trionfetti.md`` §5: seat ``dealer + 1 + j`` receives pack cards ``3j..3j+2`` and
the last card of the pack is the bottom card.  The dealer is seat 3 by default, so seat 0
is eldest and leads, and seat 2 (the cutter) keeps the ranking first.  The ranking is the
default ``K Q J 10 9 ... 1``: the four cards of a rank are equal, the first played wins.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from conftest import bot_choice
from models.trionfetti import TRI_CARDS, tri_deck

import mazo
from mazo.bots import make_bot
from mazo.bots.heuristic.trionfetti import (
    CALL_CEILING,
    FIRST_CALL_FLOOR,
    TrionfettiHeuristic,
    deal_odds,
    game_equity,
    strengths,
)
from mazo.core.rng import Rng, derive_seed
from mazo.sim.stats import wilson_interval

CALLS = {"keep", "vega", "accept", "refuse", "show", "peek", "show_bottom"}


Move = str | tuple[int, str]  # an action of the seat to act, or (seat, action)


def position(
    hands: Mapping[int, Sequence[str]],
    moves: Sequence[Move] = (),
    dealer: int = 3,
    scores: Sequence[int] = (0, 0),
    bottom: str = "1B",
    **options: Any,
) -> Any:
    """The state after the cutter keeps the ranking and ``moves`` are made."""
    game = mazo.load_game("trionfetti", **options)
    state: Any = game.new_match(
        deck=tri_deck(dealer, hands, bottom), dealer=dealer, setup={"scores": list(scores)}
    )
    state = state.apply("keep")
    for owner, hand in hands.items():
        assert sorted(state.hand(owner)) == sorted(hand)
    for move in moves:
        seat, action = move if isinstance(move, tuple) else (None, move)
        state = state.apply(action, seat=seat)
    return state


choice = bot_choice


def estimate(state: Any, seat: int | None = None, **options: Any) -> float:
    bot = make_bot("heuristic", state.game, seed=1, **options)
    assert isinstance(bot, TrionfettiHeuristic)
    return bot.estimate(state.observation(state.to_act if seat is None else seat))


# Team 0 called the vega and team 1 accepted: no vega left, so a strong hand plays cards.
# With automatic sharing each seat now sees its partner's hand.
VEGA_SETTLED: list[Move] = [(0, "vega"), (1, "accept")]


# -- legality and reproducibility -------------------------------------------------------

CONFIGS: list[dict[str, Any]] = [
    {},
    {"partner_sharing": "opt_in"},
    {"dealer_peek_deal4": "opt_in", "bottom_card_shown": "on_request"},
    {"history_visible": False},
    {"messages": False},
    {
        "partner_sharing": "opt_in",
        "dealer_peek_deal4": "opt_in",
        "bottom_card_shown": "on_request",
        "history_visible": False,
        "messages": False,
        "initial_ranking": "bomba",
    },
    {"initial_ranking": "manco_e_cavalli", "points_to_win_game": 5},
]


def _check_seat(game: Any, state: Any, seat: int, bots: Sequence[Any]) -> int | None:
    """Ask each bot for ``seat``; return the first one's action (None: nothing to do)."""
    obs = state.observation(seat)
    legal = obs["legal_actions"]
    if not legal:
        return None
    plain = json.loads(json.dumps(obs))  # a bot sees plain JSON, nothing more
    before = copy.deepcopy(plain)
    decisive = any(a in CALLS or a in TRI_CARDS for a in legal)
    result = None
    for bot in bots:
        try:
            action = bot.choose(plain)
        except mazo.RulesError as err:
            # Only a seat whose legal actions are all messages may be refused.
            assert not decisive and "nothing to do" in str(err)
            continue
        text = game.action_to_string(action)
        assert text in legal
        if text in ("accept", "refuse"):
            assert obs["team_must_answer"]
        if text.startswith(("signal", "announce")):
            assert bot.signals, "the default heuristic sends no messages"
            assert text.startswith("signal ") and text[7:] in obs["hand"], "a true card"
        if any(a in ("show", "peek", "show_bottom") for a in legal):
            assert text in ("show", "peek", "show_bottom"), "information first"
        result = action if result is None else result
    assert plain == before  # the observation is not touched
    return result


@pytest.mark.parametrize("options", CONFIGS)
def test_only_legal_actions_along_random_matches(options: dict[str, Any]) -> None:
    """At every step the seat to act is asked, and often another seat (out of turn: it
    answers a vega, shows, asks for the bottom card, or has nothing to do); the moves
    played mix the heuristic's and random ones, from several scores, over matches of one
    game until 300 seats to act have been asked."""
    game = mazo.load_game("trionfetti", games_to_win_match=1, **options)
    rng = Rng(derive_seed(3, len(options), json.dumps(options, sort_keys=True)))
    asked = answers = cards = 0
    kinds: set[str] = set()
    for m in range(30):
        if asked >= 300:
            break
        scores = ([0, 0], [3, 1], [1, 4])[m % 3]
        bots = [
            make_bot("heuristic", game, seed=m),
            make_bot("heuristic", game, seed=m, signals=True, ranking="piu_ponto"),
        ]
        target = game.options["points_to_win_game"]
        setup = {"scores": [min(s, target - 1) for s in scores]}
        state: Any = game.new_match(seed=derive_seed(5, m), setup=setup)
        for _step in range(600):
            if state.match_over:
                break
            seat = state.to_act
            chosen = _check_seat(game, state, seat, bots)
            assert chosen is not None  # the seat to act always has something to do
            asked += 1
            answers += state.phase == "vega_pending"
            cards += chosen < 52
            kinds.add(game.action_to_string(chosen).split()[0])
            if rng.randbelow(2) == 0:  # another seat, out of turn
                _check_seat(game, state, (seat + 1 + rng.randbelow(3)) % 4, bots)
            legal = state.legal_actions()
            action = chosen if rng.randbelow(2) else rng.choice(legal)
            state = state.apply(action, seat=seat)
    assert asked >= 300 and answers > 0 and cards > 100
    assert {"keep", "vega"} <= kinds
    assert ("accept" in kinds) or ("refuse" in kinds)


def test_same_seed_same_choices() -> None:
    game = mazo.load_game("trionfetti")
    observations: list[dict[str, Any]] = []
    state: Any = game.new_match(seed=3)
    rng = Rng(4)
    while not state.match_over and len(observations) < 400:
        if state.legal_actions():
            observations.append(state.observation(state.to_act))
        state = state.apply(rng.choice(state.legal_actions()))
    first = make_bot("heuristic", game, seed=9)
    again = make_bot("heuristic", game, seed=9)
    assert [first.choose(o) for o in observations] == [again.choose(o) for o in observations]


def test_registered_as_the_heuristic_and_checks_options() -> None:
    game = mazo.load_game("trionfetti")
    bot = make_bot("heuristic", game, seed=0)
    assert isinstance(bot, TrionfettiHeuristic) and bot.name == "heuristic"
    assert not bot.signals and bot.ranking == "keep"
    with pytest.raises(mazo.RulesError, match="has no option depth"):
        make_bot("heuristic", game, seed=0, depth=2)
    with pytest.raises(mazo.RulesError, match="allowed"):
        make_bot("heuristic", game, seed=0, ranking="custom")
    with pytest.raises(mazo.RulesError, match="this bot plays trionfetti, not briscola"):
        bot.choose(mazo.load_game("briscola").new_match(seed=1).observation(0))


def test_out_of_turn_seat_with_nothing_to_do_is_refused() -> None:
    hands = {0: ["KO", "4C", "3B"], 1: ["5C", "6O", "7O"], 2: ["6C", "8B", "2E"]}
    hands[3] = ["7C", "KC", "JE"]
    state = position(hands, [*VEGA_SETTLED, "KO", "5C", "6C", "7C"])
    obs = state.observation(1)  # trick 1 is over: seat 1 may talk, nothing else
    assert obs["legal_actions"] and all(
        a.split()[0] in ("signal", "announce") for a in obs["legal_actions"]
    )
    with pytest.raises(mazo.RulesError, match="nothing to do"):
        make_bot("heuristic", state.game, seed=1).choose(obs)


# -- ranking and information ------------------------------------------------------------


def test_the_cutter_keeps_the_ranking_unless_told_otherwise() -> None:
    game = mazo.load_game("trionfetti")
    state: Any = game.new_match(seed=1)
    assert state.phase == "ranking"
    obs = state.observation(state.to_act)
    assert obs["hand"] == []  # the cutter chooses before any card is dealt
    assert game.action_to_string(make_bot("heuristic", game, seed=1).choose(obs)) == "keep"
    told = make_bot("heuristic", game, seed=1, ranking="bomba")
    assert game.action_to_string(told.choose(obs)) == "rank bomba"
    # The preset already in force is kept, not set again.
    bomba = mazo.load_game("trionfetti", initial_ranking="bomba").new_match(seed=1)
    again = make_bot("heuristic", bomba.game, seed=1, ranking="bomba")
    assert bomba.game.action_to_string(again.choose(bomba.observation(bomba.to_act))) == "keep"


def test_takes_information_first() -> None:
    # Bottom card on request: asked for it before anything else, then plays on.
    state = position({0: ["KO", "4C", "3B"]}, bottom_card_shown="on_request")
    assert choice(state) == "show_bottom"
    assert choice(state.apply("show_bottom")) in ("vega", "KO", "4C", "3B")
    # Opt-in sharing: the answering team shows its hands while the vega waits...
    state = position({0: ["KO", "4C", "3B"]}, [(0, "vega")], partner_sharing="opt_in")
    assert choice(state) == "show" and choice(state, seat=3) == "show"
    state = state.apply("show").apply("show", seat=3)
    assert choice(state) in ("accept", "refuse")
    # ...and the dealer peeks at the four cards left in deal 4 when asked (out of turn).
    game = mazo.load_game("trionfetti", dealer_peek_deal4="opt_in")
    deal4: Any = game.new_match(seed=2, setup={"deal": 4})
    dealer = deal4.observation(0)["dealer"]
    assert "peek" in deal4.observation(dealer)["legal_actions"] and deal4.to_act != dealer
    assert choice(deal4, seat=dealer) == "peek"


# -- card play ------------------------------------------------------------------------


def test_takes_a_trick_with_the_cheapest_card_that_beats_it() -> None:
    # Seat 0 leads 5O, seat 1 plays 2C, seat 2 plays 9E; seat 3 (last) takes it with 10C
    # and keeps its K and J.
    hands = {0: ["5O", "4C", "3B"], 1: ["2C", "6O", "7O"], 2: ["9E", "8B", "2E"]}
    hands[3] = ["10C", "KO", "JE"]
    state = position(hands, [*VEGA_SETTLED, "5O", "2C", "9E"])
    assert state.to_act == 3
    assert choice(state) == "10C"


def test_an_equal_card_played_second_does_not_win() -> None:
    # Seat 2 plays 10E: seat 3's 10C is equal and would lose (first played wins), so the
    # cheapest card that beats it is the JE.
    hands = {0: ["5O", "4C", "3B"], 1: ["2C", "6O", "7O"], 2: ["10E", "8B", "2E"]}
    hands[3] = ["10C", "KO", "JE"]
    state = position(hands, [*VEGA_SETTLED, "5O", "2C", "10E"])
    assert choice(state) == "JE"
    # Without a stronger card the trick is lost whatever is played: the lowest goes, not
    # the equal 10.
    hands[3] = ["10C", "3E", "2B"]
    state = position(hands, [*VEGA_SETTLED, "5O", "2C", "10E"])
    assert choice(state) == "2B"
    view = strengths(state.observation(3)["ranking"])
    assert view["10C"] == view["10E"] > view["9O"]


def test_plays_low_behind_a_winning_partner() -> None:
    # Last to play: partner's KC holds the trick.
    hands = {0: ["5O", "4C", "3B"], 1: ["KC", "6O", "7O"], 2: ["10E", "8B", "2E"]}
    hands[3] = ["QO", "JE", "2B"]
    state = position(hands, [*VEGA_SETTLED, "5O", "KC", "10E"])
    assert choice(state) == "2B"
    # Third: partner led KO, which nobody can beat (a K played later only equals it).
    hands = {0: ["KO", "4C", "3B"], 1: ["5C", "6O", "7O"], 2: ["QE", "JE", "2B"]}
    hands[3] = ["QO", "JB", "2C"]
    state = position(hands, [*VEGA_SETTLED, "KO", "5C"])
    assert state.to_act == 2
    assert choice(state) == "2B"


def test_takes_the_deciding_trick_at_once() -> None:
    # Seat 0 won trick 1 with KO and leads again: its KE wins the deal now (no card can
    # beat it), the 3B is kept for nothing.
    hands = {0: ["KO", "KE", "3B"], 1: ["5C", "6O", "7O"], 2: ["QE", "JE", "2B"]}
    hands[3] = ["QO", "JB", "2C"]
    state = position(hands, [*VEGA_SETTLED, "KO", "5C", "2B", "2C"])
    assert state.observation(0)["tricks_won"] == [1, 0] and state.to_act == 0
    assert choice(state) == "KE"


def test_beats_the_trick_when_it_is_needed() -> None:
    # Team 1 won trick 1 and seat 1 leads 7O.  Seat 2 must win this trick and the next:
    # it beats the 7O with its 10C (seat 3 may still beat that) and keeps the KE, sure
    # to win trick 3, rather than spend the K now and hope the 10C wins later.
    hands = {0: ["5O", "9O", "3B"], 1: ["KC", "2C", "7O"], 2: ["2E", "KE", "10C"]}
    hands[3] = ["QO", "JE", "2B"]
    state = position(hands, [*VEGA_SETTLED, "5O", "KC", "2E", "2B", "7O"])
    assert state.observation(2)["tricks_won"] == [0, 1] and state.to_act == 2
    assert choice(state) == "10C"


def test_known_cards_change_the_odds() -> None:
    """The bottom card is out of play: with KB at the bottom only two Ks can beat a Q."""
    hand = {0: ["KO", "QC", "2E"]}
    assert estimate(position(hand, bottom="KB")) > estimate(position(hand, bottom="1B")) + 0.02
    # A partner's shown hand (after an accepted vega) is read: with the partner's KB and
    # KE, seat 0's team cannot lose.
    hands = {0: ["5O", "4C", "3B"], 1: ["2C", "6O", "7O"], 2: ["KB", "KE", "2E"]}
    accepted = position(hands, [(1, "vega"), (0, "accept")], dealer=0)
    assert estimate(accepted, seat=0) == pytest.approx(1.0)


# -- vega -----------------------------------------------------------------------------


def test_refuses_a_vega_with_a_hopeless_hand() -> None:
    # Seat 0 calls before leading; seat 1 and its partner (seat 3, whose hand it sees)
    # hold only low cards.
    hands = {0: ["5O", "4C", "3B"], 1: ["1O", "2C", "3O"], 3: ["1C", "2O", "3E"]}
    state = position(hands, [(0, "vega")])
    assert state.observation(1)["team_must_answer"]
    assert choice(state) == "refuse"
    assert choice(state, seat=3) == "refuse"  # the partner, out of turn, agrees


def test_accepts_a_vega_with_a_dominant_hand() -> None:
    state = position({0: ["5O", "4C", "3B"], 1: ["KO", "KC", "KE"]}, [(0, "vega")])
    assert choice(state) == "accept"
    assert choice(state, seat=3) == "accept"  # it sees seat 1's hand


def test_calls_a_vega_with_a_dominant_hand() -> None:
    assert choice(position({0: ["KO", "KC", "2E"]})) == "vega"  # two unbeatable leads
    assert choice(position({0: ["KO", "QC", "JE"]})) == "vega"
    assert choice(position({0: ["QO", "QC", "JE"]})) != "vega"  # good, not enough
    assert choice(position({0: ["KO", "2C", "3E"]})) != "vega"


def test_vega_weighs_the_scores() -> None:
    """``KO QC JE`` wins the deal about 86% of the time.  Behind 12-15 (V = 5) a win
    brings the team level and more, so it calls; at 5-18 a lost vega would give the
    opponents the game, so it plays for one point."""
    hand = {0: ["KO", "QC", "JE"]}
    assert choice(position(hand, scores=(12, 15))) == "vega"
    assert choice(position(hand, scores=(5, 18))) != "vega"
    # Answering: the same 67% hand refuses at 0-0 (accepting stakes the whole game) but
    # accepts at 0-19, where refusing gives the opponents the game anyway.
    hands = {0: ["5O", "4C", "QB"], 1: ["KO", "QC", "5E"], 3: ["6C", "2O", "3E"]}
    assert choice(position(hands, [(0, "vega")])) == "refuse"
    assert choice(position(hands, [(0, "vega")], scores=(19, 0))) == "accept"


def routine_choice(state: Any, seat: int | None = None) -> str:
    """What the heuristic chose before a vega had to be a bet: any hand the equity sum
    liked could call, at any point of the deal, and answers doubted a one-point vega as
    much as one for the whole game."""
    seat = state.to_act if seat is None else seat
    bot = TrionfettiHeuristic(state.game, seed=1)
    bot.first_floor, bot.call_ceiling, bot.answer_by_stake = 0.0, 1.0, False
    return str(state.game.action_to_string(bot.choose(state.observation(seat))))


def test_a_vega_is_a_bet_not_a_routine() -> None:
    """Rules §8 make the vega a bet.  Before the first trick only a strong hand calls: a
    good one plays its cards (the routine called from E = 0.68 at 0-0).  Once a trick is
    in, a deal as good as won is played out (the opponents would refuse, the deal ending
    for the point it wins anyway), while a deal still in doubt may be bet on."""
    good = position({0: ["KO", "QC", "5E"]})
    assert 0.75 < estimate(good) < FIRST_CALL_FLOOR
    assert routine_choice(good) == "vega"
    assert choice(good) != "vega"
    strong = position({0: ["KO", "QC", "JE"]})
    assert estimate(strong) >= FIRST_CALL_FLOOR and choice(strong) == "vega"
    # seat 0 led KO and took the first trick; its KC and 2E now win the deal for sure
    low = {1: ["2O", "3C", "4E"], 2: ["5O", "6C", "7E"], 3: ["2B", "3B", "4B"]}
    trick = ["KO", "2O", "5O", "2B"]
    won = position({0: ["KO", "KC", "2E"], **low}, trick)
    assert won.to_act == 0 and estimate(won) == pytest.approx(1.0)
    assert routine_choice(won) == "vega"
    assert choice(won) == "KC"
    # with JC and 5E instead it still needs a trick: a bet
    doubt = position({0: ["KO", "JC", "5E"], **low}, trick)
    assert 0.6 < estimate(doubt) < CALL_CEILING
    assert choice(doubt) == "vega"


def test_answers_weigh_the_callers_word_by_the_stake() -> None:
    """A vega for the whole game (0-0: worth 20) is doubted hard; one worth two points
    (the answering team on 18) is weighed nearly at face value: the 66% hand that refuses
    the first accepts the second (the routine refused both)."""
    hands = {0: ["5O", "4C", "QB"], 1: ["KO", "QC", "5E"], 3: ["6C", "2O", "3E"]}
    whole = position(hands, [(0, "vega")])
    small = position(hands, [(0, "vega")], scores=(0, 18))
    assert small.observation(1)["vega"]["pending"]["value"] == 2
    assert 0.6 < estimate(small, seat=1) < 0.7
    assert choice(whole) == "refuse" and routine_choice(whole) == "refuse"
    assert choice(small) == "accept" and routine_choice(small) == "refuse"
    assert choice(small, seat=3) == "accept"  # the partner sees seat 1's hand


# -- signals ----------------------------------------------------------------------------


def test_signals_its_best_card_once_a_deal_from_trick_two_only_when_asked_to() -> None:
    hands = {0: ["5O", "4C", "3B"], 1: ["2C", "6O", "7O"], 2: ["9E", "8B", "2E"]}
    hands[3] = ["10C", "KO", "JE"]
    opt_in = {"partner_sharing": "opt_in", "messages": True}
    state = position(hands, [*VEGA_SETTLED, "5O", "2C", "9E", "10C"], **opt_in)
    state = state.apply("show").apply("show", seat=1)  # information first
    assert state.to_act == 3
    assert choice(state) in ("KO", "JE")  # no message by default
    assert choice(state, signals=True) == "signal KO"
    assert choice(state.apply("signal KO"), signals=True) in ("KO", "JE")  # once a deal
    # In trick 1 there is no talk (no signal legal), so the bot plays.
    first = position(hands, [*VEGA_SETTLED, "5O", "2C", "9E"], **opt_in)
    assert not choice(first.apply("show", seat=3), signals=True).startswith("signal")


def test_reads_a_partners_card_signal() -> None:
    hands = {0: ["5O", "4C", "3B"], 1: ["2C", "6O", "7O"], 2: ["9E", "8B", "2E"]}
    hands[3] = ["10C", "KO", "JE"]
    state = position(hands, [*VEGA_SETTLED, "5O", "2C", "9E", "10C"], partner_sharing="opt_in")
    before = estimate(state, seat=1, signals=True)
    told = state.apply("signal KO", seat=3)
    assert estimate(told, seat=1, signals=True) > before + 0.2
    assert estimate(told, seat=1) == pytest.approx(before)  # deaf by default


# -- helpers ---------------------------------------------------------------------------


def test_deal_odds_and_game_equity() -> None:
    assert deal_odds(1, 1, [1.0]) == 1.0 and deal_odds(0, 2, []) == 0.0
    assert deal_odds(0, 0, [1.0, 1.0, 0.0]) == 1.0
    assert deal_odds(0, 0, [0.5, 0.5, 0.5]) == pytest.approx(0.5)
    g = game_equity(20)
    for a in range(20):
        assert g[a + 1][0] >= g[a][0]
        for b in range(20):
            assert g[a][b] == pytest.approx(1.0 - g[b][a])
    assert g[19][0] == pytest.approx(1.0 - 0.5**20)


# -- strength -------------------------------------------------------------------------


def _match(game: Any, heuristic_team: int, seed: int) -> int:
    bots = [
        make_bot(
            "heuristic" if seat % 2 == heuristic_team else "random",
            game,
            seed=derive_seed(seed, "bot", seat),
        )
        for seat in range(4)
    ]
    state = game.new_match(seed=seed)
    for _ in range(50_000):
        if state.match_over:
            return int(state.winner)
        seat = state.to_act
        state = state.apply(bots[seat].choose(state.observation(seat)), seat=seat)
    raise AssertionError("the match did not end")


def test_heuristic_team_beats_random_team() -> None:
    """40 matches (two games of 10 points each, no talk so that the random bot plays
    rather than chats), the heuristic team on the even seats in half of them and on the
    odd seats in the other half.  Measured with this seed: 40 of 40 (Wilson 95% interval
    91-100%); over 400 such matches with another seed 366 (92%, 88-94%); with 5-point
    games 347 of 400 (87%), and 98 of 100 full matches (three games of 20 points)."""
    game = mazo.load_game("trionfetti", points_to_win_game=10, games_to_win_match=2, messages=False)
    wins = 0
    for i in range(40):
        team = i % 2
        wins += _match(game, team, derive_seed(2024, "match", i)) == team
    low, _high = wilson_interval(wins, 40)
    assert wins >= 32, wins
    assert low > 0.6, (wins, low)
