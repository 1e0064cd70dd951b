"""Briscola scenario tests, written from ``rules/briscola.md`` (sections in the names).

Expected values come from the rules: literal numbers worked out by hand, or the
independent reference model in ``models/briscola.py`` (``RefDeal``, the §5 deal formulas, the
§6.5 award tables).  Full-deal scenarios use literal decks and literal plays; each also
checks that the reference model reaches the stated points, so the scenario is what it
claims to be.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import events_of, play_cards, play_lowest_until
from models.briscola import (
    ALL_40,
    CARD_POINTS,
    SIGNAL_MEANINGS,
    TRICK_ORDER,
    RefDeal,
    award_three_players,
    award_two_sides,
    build_deck,
    deal_positions,
    lowest_card,
    pack_for,
    side_of,
)

import mazo
from mazo import IllegalActionError, InvalidActionError, RulesError

# -- helpers ------------------------------------------------------------------------


def load(players: int = 4, **options: Any) -> Any:
    return mazo.load_game("briscola", players=players, **options)


def start(players: int, deck: list[str], dealer: int, **options: Any) -> Any:
    return load(players, **options).new_match(deck=deck, dealer=dealer)


def deal_events(state: Any, number: int) -> list[dict[str, Any]]:
    """The events of deal ``number``: from its "deal" event up to the next deal."""
    out: list[dict[str, Any]] = []
    current = None
    for e in state.events:
        if e["type"] == "deal":
            current = e["deal"]
        if current == number:
            out.append(e)
    return out


def last_trick(state: Any) -> dict[str, Any]:
    return events_of(state, "trick")[-1]


def tricks_done(state: Any) -> int:
    return len(state.observation(None)["tricks"])


def hand_end(state: Any, number: int = 1) -> dict[str, Any]:
    ends = [e for e in deal_events(state, number) if e["type"] == "hand_end"]
    assert len(ends) == 1
    return ends[0]


def play_deal_lowest(state: Any) -> Any:
    """Play the lowest canonical card until the current deal is over."""
    number = state.deal_number
    return play_lowest_until(state, lambda s: s.match_over or s.deal_number != number)


def ids(codes: list[str]) -> list[int]:
    return [ALL_40.index(c) for c in codes]


# Full deals found with the reference model, with every play written out (§6.5).
DEALS: dict[str, dict[str, Any]] = {
    "2p 60-60": {
        "players": 2,
        "dealer": 0,
        "points": [60, 60],
        "deck": "2C 1O 4C 1E 6C 6B 5C 7C 2B KE KC 7O 6O 2E 4O 3C QC KO 2O JB 5E 3O KB 7B "
        "JO QE QB 4B 5O 4E QO 6E 3E 3B 7E 1B JC 5B JE 1C",
        "plays": "2C 6C 6B 4C 2B 7C 1E KE 7O 1O 3C 2E 6O 2O 4O 5E KO KC QC JB QE 3O KB QB "
        "4E JO 7B 3E 4B 7E 6E JC QO JE 5O 1B 1C 3B 5B 5C",
    },
    "2p 61-59": {
        "players": 2,
        "dealer": 0,
        "points": [61, 59],
        "deck": "1O JC 4O 7B 6B 4C 1B 6C JE 5E QO 2C 1C 2O 7C KC 2E 4B 1E 6O 3E 7E QE 4E "
        "JB KB 3B 5B KE 7O 6E QB 2B 3O 5C 3C KO 5O JO QC",
        "plays": "4O 4C 1O JE 6C QO JC 6B 1C 2C 2O 2E KC 7C 4B 3E 7E 5E 7B 1E 4E QE JB 6O "
        "5B KB 6E 3B 7O 5C 3C QB KO JO 5O 2B 1B KE 3O QC",
    },
    "2p 59-61": {
        "players": 2,
        "dealer": 0,
        "points": [59, 61],
        "deck": "6E JB KO 6B 2O 7C 5O 7O 3E JE KB 1E KC 4C 3C 4B 5B 2B 1B QO QC KE 5C 2E "
        "4O 7B 6C 4E 7E 2C QE QB 1O 3O 6O 5E 1C JC JO 3B",
        "plays": "KO 7C JB 2O JE 7O 6E 6B 1E KC 4C 5B 2B 3E QO QC 4B 5C 2E 4O 1B 6C 4E KB "
        "3C KE 7B 7E 2C 1O 5E QB 6O JO 3O JC 1C QE 3B 5O",
    },
    "4p 60-60": {
        "players": 4,
        "dealer": 0,
        "points": [60, 60],
        "deck": "KE 1C 2C 1E 3B 6B 5E KB 5B 6C 1B 6O 6E 1O 7C 4O 5O QB 7B 3E KO QO QC 4E "
        "JO JB 4C 5C 7O 7E 3O 4B KC JE 3C QE 2E 2O JC 2B",
        "plays": "2C 3B 5B 6C 6O KE 6B 5E 1C 7B 5O 1B 7C 4O KB JO QO 1E 3E 7O 4C 4E 1O JB "
        "JE 3C QE 7E QB 2E 5C KO QC 3O 6E 2O 4B KC JC 2B",
    },
    "6p 60-60": {
        "players": 6,
        "dealer": 5,
        "points": [60, 60],
        "deck": "3B 1C QE 5O 5C 4E 6B JB 6O JE KB 1B KC KO 6E 3O JO KE 5E QO 4O 5B 7O 7C "
        "7E 6C 1E 4B QC 3C 7B QB 4C 1O 3E JC",
        "plays": "3B 5C 6B KB KO 3O QO 4O 5B JE 6E JO 7O KC 7E QE 5O 7B QC 3C JB 3E 7C 5E "
        "6C JC KE 1C 4E 1O 4B QB 4C 6O 1B 1E",
    },
    "3p 40-40-40": {
        "players": 3,
        "dealer": 0,
        "points": [40, 40, 40],
        "deck": "QO JB 5B JC 2E JE KO 7C 7B 4B 6O 3B 7O QC 3E 3C 1B QE 6B 2B KB KE 4O 1C "
        "1E 6E 4E QB 4C 3O 2O KC 5E 1O 6C 7E JO 5O 5C",
        "plays": "JB JE 7B 6O 2E 7C 5B 3E 7O QO 3B 6B 2B KB 1B KE QE KO QC 1C 1E 4C QB 6E "
        "KC 5E 4E 3O 2O JO 3C 5C 1O 6C 7E 4B JC 5O 4O",
    },
    "3p 45-49-26": {
        "players": 3,
        "dealer": 2,
        "points": [45, 49, 26],
        "deck": "1E KC JB 7E 4O 1O 7C 6C JE 3B 1C 1B 5E QE KO 5C 7O JO 2E QO 6B QB 5B QC "
        "4E 7B 2O KE 4B 6E 3E 6O 5O 2B JC 3O KB 4C 3C",
        "plays": "KC 1O JE 1E 4O 7C 1C 1B 5E 7O 6C QE 7E 5C 2E QO JO QB 4E 2O 6B QC 7B KO "
        "JB 5B 2B 6E 3O KB KE 3C 3B 5O 4C 6O JC 3E 4B",
    },
    "3p 65-40-15": {
        "players": 3,
        "dealer": 0,
        "points": [65, 40, 15],
        "deck": "JB 4C QC KC 2O 1C 3O 3B 4O 7E 5C 3E 6O 1O JE QB QE 6E 7B 7O 3C 7C 6B 1E "
        "4B KO 6C KE 1B 2B 5O JC JO 2E 5E KB QO 5B 4E",
        "plays": "4C 1C 4O KC 3E JB 3O QC 5C 1O 6O 7B QE 6E 2O 7O 1E 4B KO 6C 6B 3C 2B 3B "
        "JC JO 2E KE 1B QB 5O JE QO KB 7E 5E 7C 5B 4E",
    },
    "3p 5-13-102": {
        "players": 3,
        "dealer": 1,
        "points": [5, 13, 102],
        "deck": "KB JB KO 6B 3B KE 4B 7C JO 2O 3O 3C 6C 5O QE QC KC 6E 7B QB JC 5E 4E 7E "
        "7O 2B 1C 5C 3E 5B 1O QO 6O 4C JE 4O 1B 1E 2E",
        "plays": "KB KE 7C KO 3B 4B 3O 3C JO JB QE 7B QB 6B 6C 4E 7E QC 2B 5E 5C 3E 1C 1O "
        "QO 6O 7O KC 6E 5B 1E JC 2O 4C JE 4O 2E 1B 5O",
    },
    "3p 41-41-38": {
        "players": 3,
        "dealer": 0,
        "points": [41, 41, 38],
        "deck": "3B QO 3C JE 1E 3E 3O KO KE 6B JC 5E QC QE 2O QB 7O KC 2B 6O 4C 4B 1O JO "
        "5B 7E KB 1B 4E 7B 6E JB 2E 7C 5O 1C 4O 6C 5C",
        "plays": "QO 1E 3O KO 5E JE QE 3C QB 7O KC 2B 6O QC KE 1O 4C 4B 7E 3B 3E KB JO JC "
        "JB 7B 6E 2O 1B 5B 6C 4O 4E 1C 7C 5O 2E 5C 6B",
    },
}


def three_player_grand_slam_deck() -> list[str]:
    """3 players, dealer 2: seat 0 is served first and wins all 13 tricks (§6.5: 120).

    Seat 0 holds 1C 3C 1E, draws 1B after trick 1 and the nine trumps 1O..4O after
    tricks 2-10 (it wins every trick, so it draws first: stock places 0, 3, ..., 27).
    The 2O indicator goes to seat 2 in the last round.  Seat 0 leads 1C, 3C, 1E, 1B,
    then trumps from the top; nobody else holds a trump higher than 2O, or a card that
    beats those leads.
    """
    stock: list[str | None] = [None] * 29
    stock[0] = "1B"
    for r, trump in enumerate(["1O", "3O", "KO", "QO", "JO", "7O", "6O", "5O", "4O"], 1):
        stock[3 * r] = trump
    return build_deck(3, 2, hands={0: ["1C", "3C", "1E"]}, indicator="2O", stock=stock)


def full_deal(name: str, **options: Any) -> tuple[Any, Any, RefDeal]:
    """(state at the start, state after every play, the reference model) for a DEALS entry."""
    spec = DEALS[name]
    deck = spec["deck"].split()
    plays = spec["plays"].split()
    ref = RefDeal(spec["players"], spec["dealer"], deck)
    for card in plays:
        ref.play(card)
    assert ref.over and ref.side_points() == spec["points"], "the scenario is not what it says"
    state = start(spec["players"], deck, spec["dealer"], **options)
    return state, play_cards(state, plays), ref


# -- §2 cards and packs; §4 options ---------------------------------------------------


def test_s4_option_defaults_are_the_rules_table() -> None:
    game = mazo.load_game("briscola")
    assert game.players == 4
    expected = {
        "deal_packet_size": 3,
        "three_player_removed_card": "2C",
        "match_wins_target": 3,
        "dealer_after_draw": "rotate",
        "three_player_tie_mode": "continue",
        "open_variant": "none",
        "signals_enabled": False,
        "signal_system": "pagat",
        "signal_visibility": "team",
        "signals_truthful": True,
        "signals_from_trick": 2,
        "trump_two_exchange": False,
        "redraw_indicator_ace_three": False,
        "partners_show_hands_before_first_trick": False,
        "french_face_labels": "north",
    }
    for name, value in expected.items():
        assert game.options[name] == value, name


@pytest.mark.parametrize(
    ("players", "size", "removed", "stock", "tricks", "rounds"),
    [
        (2, 40, [], 34, 20, 17),
        (3, 39, ["2C"], 30, 13, 10),
        (4, 40, [], 28, 10, 7),
        (6, 36, ["2O", "2C", "2E", "2B"], 18, 6, 3),
    ],
)
def test_s2_2_pack_by_player_count(
    players: int, size: int, removed: list[str], stock: int, tricks: int, rounds: int
) -> None:
    state = load(players).new_match(seed=11, dealer=0)
    obs = state.observation(None)
    assert obs["removed"] == removed
    assert obs["hand_sizes"] == [3] * players
    assert obs["stock_size"] == stock
    assert sum(obs["hand_sizes"]) + obs["stock_size"] == size
    sizes = []
    while state.deal_number == 1:
        before = tricks_done(state)
        state = state.apply(lowest_card(state.hand(state.to_act)))
        if state.deal_number == 1 and tricks_done(state) > before:
            sizes.append(state.observation(None)["stock_size"])
    deal = deal_events(state, 1)
    trick_list = [e for e in deal if e["type"] == "trick"]
    assert len(trick_list) == tricks
    assert sum(e["points"] for e in trick_list) == 120
    # The stock shrinks by one card per player for `rounds` tricks, then stays empty.
    assert sizes == [stock - players * (i + 1) for i in range(rounds)] + [0] * (tricks - rounds - 1)
    played = [c for e in trick_list for c in e["cards"]]
    assert sorted(played, key=ALL_40.index) == pack_for(players)


def test_s2_2_three_player_removed_card_option() -> None:
    game = load(3, three_player_removed_card="2E")
    state = game.new_match(seed=1)
    assert state.observation(0)["removed"] == ["2E"]
    pack = [c for c in ALL_40 if c != "2E"]
    assert "2C" in pack
    assert game.new_match(deck=pack, dealer=0).observation(0)["removed"] == ["2E"]
    with pytest.raises(RulesError, match="2E"):
        load(3).new_match(deck=pack, dealer=0)  # 2C removed by default, 2E in the deck
    with pytest.raises(RulesError):
        load(3, three_player_removed_card="3C")


@pytest.mark.parametrize("rank", ["1", "2", "3", "4", "5", "6", "7", "J", "Q", "K"])
def test_s2_1_each_rank_is_worth_its_points(rank: str) -> None:
    # 2 players, trump E; the leader leads rank+C, the follower discards 4O (off-suit).
    lead = rank + "C"
    follow = "4O" if rank != "4" else "5O"
    deck = build_deck(2, 1, hands={0: [lead], 1: [follow]}, indicator="4E")
    state = play_cards(start(2, deck, 1), [lead, follow])
    trick = last_trick(state)
    assert trick["winner"] == 0
    assert trick["points"] == {"1": 11, "3": 10, "K": 4, "Q": 3, "J": 2}.get(rank, 0)
    assert state.deal_points() == [trick["points"], 0]


def test_s2_1_canonical_order_of_hands() -> None:
    deck = build_deck(4, 3, hands={0: ["KB", "1O", "JC"]})
    assert start(4, deck, 3).observation(0)["hand"] == ["1O", "JC", "KB"]


# -- §5 the deal ---------------------------------------------------------------------


@pytest.mark.parametrize("packet", [3, 1])
@pytest.mark.parametrize(("players", "dealer"), [(n, d) for n in (2, 3, 4, 6) for d in range(n)])
def test_s5_deal_formulas(players: int, dealer: int, packet: int) -> None:
    deck = pack_for(players)
    random.Random(100 * players + 10 * dealer + packet).shuffle(deck)
    state = start(players, deck, dealer, deal_packet_size=packet)
    for seat, positions in deal_positions(players, dealer, packet).items():
        assert state.hand(seat) == sorted((deck[i] for i in positions), key=ALL_40.index)
    assert state.trump_card == deck[3 * players]
    obs = state.observation(None)
    assert obs["trump"] == deck[3 * players]
    assert obs["trump_suit"] == deck[3 * players][-1]
    assert obs["stock_size"] == len(deck) - 3 * players
    assert obs["dealer"] == dealer
    assert state.to_act == (dealer + 1) % players  # §6.1: the first leader is next(dealer)


def test_s14_example_four_players_dealer_1() -> None:
    deck = list(ALL_40)  # 1O 2O 3O 4O 5O 6O 7O JO QO KO 1C 2C 3C ...
    state = start(4, deck, 1)
    assert state.hand(2) == ["1O", "2O", "3O"]  # cards 0-2
    assert state.hand(3) == ["4O", "5O", "6O"]  # cards 3-5
    assert state.hand(0) == ["7O", "JO", "QO"]  # cards 6-8
    assert state.hand(1) == ["KO", "1C", "2C"]  # cards 9-11
    assert state.trump_card == "3C"  # card 12
    assert state.to_act == 2


def test_s5_one_card_at_a_time_four_players_dealer_1() -> None:
    state = start(4, list(ALL_40), 1, deal_packet_size=1)
    assert state.hand(2) == ["1O", "5O", "QO"]  # cards 0, 4, 8
    assert state.hand(3) == ["2O", "6O", "KO"]  # cards 1, 5, 9
    assert state.hand(0) == ["3O", "7O", "1C"]  # cards 2, 6, 10
    assert state.hand(1) == ["4O", "JO", "2C"]  # cards 3, 7, 11
    assert state.trump_card == "3C"


def test_s5_two_players_indicator_is_the_seventh_card() -> None:
    deck = list(reversed(ALL_40))  # KB QB JB 7B 6B 5B 4B 3B ...
    state = start(2, deck, 0)
    assert state.hand(1) == ["JB", "QB", "KB"]  # cards 0-2 to the non-dealer
    assert state.hand(0) == ["5B", "6B", "7B"]  # cards 3-5 to the dealer
    assert state.trump_card == "4B"  # card 6, the 7th
    assert state.to_act == 1


def test_s5_bad_decks_are_rejected() -> None:
    game = load(4)
    with pytest.raises(RulesError):
        game.new_match(deck=ALL_40[:39], dealer=0)
    with pytest.raises(RulesError, match="twice"):
        game.new_match(deck=[*ALL_40[:39], "1O"], dealer=0)
    with pytest.raises(RulesError):
        game.new_match(deck=[*ALL_40[:39], "ZZ"], dealer=0)
    with pytest.raises(RulesError):
        game.new_match(deck=" ".join(ALL_40), dealer=0)
    with pytest.raises(RulesError, match="2O"):
        load(6).new_match(deck=ALL_40[:36], dealer=0)  # 6 players: no 2s
    with pytest.raises(RulesError):
        game.new_match(deck=ALL_40, dealer=4)
    with pytest.raises(RulesError):
        game.new_match(deck=ALL_40, dealer=-1)


def test_s5_deck_codes_are_case_insensitive() -> None:
    state = start(4, [c.lower() for c in ALL_40], 1)
    assert state.hand(2) == ["1O", "2O", "3O"]


# -- §6.2 legal actions ----------------------------------------------------------------


def test_s6_2_no_obligation_to_follow_or_trump() -> None:
    deck = build_deck(2, 0, hands={1: ["7O", "2B", "3B"], 0: ["3O", "1C", "5E"]}, indicator="4C")
    state = start(2, deck, 0).apply("7O")
    assert state.to_act == 0
    assert state.legal_actions() == ids(["3O", "1C", "5E"])
    assert state.observation(0)["legal_actions"] == ["3O", "1C", "5E"]
    for card in ("1C", "5E", "3O"):
        assert state.apply(card).observation(None)["tricks"][0]["cards"] == ["7O", card]


# -- §6.3 who wins the trick -----------------------------------------------------------

TRICKS = [
    # players, indicator, plays from the leader (seat 0), winning position, points
    (2, "4C", ["7O", "3O"], 1, 10),  # §14: same suit, 3 beats 7
    (4, "5E", ["QB", "4B", "1O", "2B"], 0, 14),  # §14: the off-suit asso cannot win
    (2, "5B", ["KB", "1E"], 0, 15),  # §14: trump lead, the follower's spade loses
    (2, "5E", ["1O", "2E"], 1, 11),  # the lowest trump beats the led asso
    (2, "5E", ["2E", "1O"], 0, 11),  # a trump lead beats any non-trump
    (2, "5E", ["3E", "1E"], 1, 21),  # the higher trump wins
    (2, "5O", ["KC", "1B"], 0, 15),  # neither trump nor led suit: cannot win
    (2, "5O", ["2C", "4C"], 1, 0),
    (4, "5O", ["5E", "1E", "2O", "3O"], 3, 21),  # the highest of two trumps
    (4, "JO", ["6C", "7C", "JC", "4C"], 2, 2),  # fante over 7
    (4, "5B", ["4E", "7E", "1C", "2E"], 1, 11),  # nobody trumps: best of the led suit
    (3, "5C", ["1O", "3O", "KO"], 0, 25),
    (3, "5C", ["1O", "3O", "2O"], 0, 21),
    (6, "5B", ["4E", "7E", "1C", "KB", "QB", "3E"], 3, 28),
]


@pytest.mark.parametrize(("players", "indicator", "plays", "pos", "points"), TRICKS)
def test_s6_3_trick_winner(
    players: int, indicator: str, plays: list[str], pos: int, points: int
) -> None:
    dealer = players - 1  # the leader is seat 0
    deck = build_deck(
        players, dealer, hands={i: [c] for i, c in enumerate(plays)}, indicator=indicator
    )
    state = play_cards(start(players, deck, dealer), plays)
    trick = last_trick(state)
    assert trick["cards"] == plays
    assert trick["leader"] == 0
    assert trick["winner"] == pos
    assert trick["points"] == points
    assert state.to_act == pos  # §6.4: the winner leads next
    expected = [0] * (3 if players == 3 else 2)
    expected[side_of(players, pos)] = points
    assert state.deal_points() == expected
    assert set(state.won_cards(pos)) == set(plays)


def test_s6_3_rank_order_within_the_led_suit() -> None:
    # §2.1: 1 > 3 > K > Q > J > 7 > 6 > 5 > 4 > 2.  Trump O; both cards coppe.
    for lead in TRICK_ORDER:
        for follow in TRICK_ORDER:
            if lead == follow:
                continue
            cards = [lead + "C", follow + "C"]
            deck = build_deck(2, 1, hands={0: [cards[0]], 1: [cards[1]]}, indicator="4O")
            trick = last_trick(play_cards(start(2, deck, 1), cards))
            higher = TRICK_ORDER.index(follow) < TRICK_ORDER.index(lead)
            assert trick["winner"] == (1 if higher else 0), cards
            assert trick["points"] == CARD_POINTS.get(lead, 0) + CARD_POINTS.get(follow, 0)


# -- §6.4 drawing -------------------------------------------------------------------------


def test_s6_4_winner_draws_first_four_players() -> None:
    deck = build_deck(
        4,
        3,
        hands={
            0: ["5E", "2B", "3B"],
            1: ["6E", "4B", "5B"],
            2: ["1E", "6B", "7B"],
            3: ["7E", "JB", "QB"],
        },
        indicator="4O",
        stock=["KC", "QC", "JC", "7C"],
    )
    state = play_cards(start(4, deck, 3), ["5E", "6E", "1E", "7E"])
    trick = last_trick(state)
    assert (trick["winner"], trick["points"]) == (2, 11)
    assert state.hand(2) == ["KC", "6B", "7B"]  # the winner draws first
    assert state.hand(3) == ["QC", "JB", "QB"]
    assert state.hand(0) == ["JC", "2B", "3B"]
    assert state.hand(1) == ["7C", "4B", "5B"]
    assert state.to_act == 2
    assert state.observation(1)["stock_size"] == 24


@pytest.mark.parametrize(("players", "last_draw"), [(2, 17), (3, 10), (4, 7), (6, 3)])
def test_s6_4_indicator_is_the_last_card_drawn(players: int, last_draw: int) -> None:
    deck = pack_for(players)
    random.Random(players).shuffle(deck)
    dealer = players - 1
    indicator = deck[3 * players]
    state = start(players, deck, dealer)
    state = play_lowest_until(state, lambda s: tricks_done(s) == last_draw - 1)
    obs = state.observation(0)
    assert obs["indicator_holder"] is None
    assert obs["stock_size"] == players  # the indicator still counts in the stock
    assert not any(indicator in state.hand(s) for s in range(players))
    state = play_lowest_until(state, lambda s: tricks_done(s) == last_draw)
    winner = last_trick(state)["winner"]
    holder = (winner - 1) % players
    assert indicator in state.hand(holder)
    for i in range(players - 1):  # the last face-down cards, from the winner on
        assert deck[len(deck) - (players - 1) + i] in state.hand((winner + i) % players)
    for seat in [*range(players), None]:
        obs = state.observation(seat)
        assert obs["indicator_holder"] == holder
        assert obs["stock_size"] == 0
        assert obs["trump"] == indicator
        if seat != holder:  # everybody saw who took the face-up card
            assert obs["known_cards"].get(str(holder)) == [indicator]
    assert all(len(state.hand(s)) == 3 for s in range(players))
    # Once played, the indicator is no longer "known in hand".
    state = play_lowest_until(state, lambda s: indicator not in s.hand(holder))
    assert str(holder) not in state.observation(0 if holder else 1)["known_cards"]


def test_s6_4_two_players_loser_of_trick_17_takes_the_indicator() -> None:
    _, end, ref = full_deal("2p 61-59")
    tricks = [e for e in deal_events(end, 1) if e["type"] == "trick"]
    assert len(tricks) == 20
    loser = 1 - tricks[16]["winner"]
    assert ref.holder == loser
    assert hand_end(end)["detail"]["indicator_holder"] == loser


@pytest.mark.parametrize("packet", [3, 1])
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_s6_whole_deals_match_the_reference_model(players: int, packet: int) -> None:
    """Random decks and random play: every hand, trick and draw as §5-§6 say."""
    rnd = random.Random(players * 7 + packet)
    for _ in range(6):
        deck = pack_for(players)
        rnd.shuffle(deck)
        dealer = rnd.randrange(players)
        state = start(players, deck, dealer, deal_packet_size=packet)
        ref = RefDeal(players, dealer, deck, packet)
        while not ref.over:
            for seat in range(players):
                assert set(state.hand(seat)) == ref.hands[seat]
            assert state.to_act == ref.to_act
            obs = state.observation(None)
            assert obs["stock_size"] == len(ref.draw)
            assert obs["indicator_holder"] == ref.holder
            hand = sorted(ref.hands[ref.to_act], key=ALL_40.index)
            card = hand[int(rnd.random() * len(hand))]
            state = state.apply(card)
            ref.play(card)
        got = [
            (e["leader"], e["cards"], e["winner"], e["points"])
            for e in deal_events(state, 1)
            if e["type"] == "trick"
        ]
        assert got == [tuple(t) for t in ref.tricks]
        end = hand_end(state)
        assert end["points"] == ref.side_points()
        assert end["detail"]["indicator_holder"] == ref.holder


# -- §6.5 end of the deal; §3 dealer rotation; §8 the match --------------------------------


def test_s6_5_two_players_60_60_is_a_draw_and_the_deal_rotates() -> None:
    first, state, _ = full_deal("2p 60-60")
    assert first.hand_over is False
    assert state.hand_over is True
    assert hand_end(state)["points"] == [60, 60]
    assert state.scores == [0, 0]
    assert not state.match_over
    assert state.deal_number == 2
    assert state.dealer == 1  # §3: the deal rotates even after a drawn deal
    assert state.to_act == 0
    deal2 = deal_events(state, 2)[0]
    assert deal2["dealer"] == 1
    assert deal2["scores"] == [0, 0]
    assert state.observation(0)["hand_sizes"] == [3, 3]
    nxt = state.apply(state.legal_actions()[0])
    assert nxt.hand_over is False


def test_s3_dealer_after_draw_same() -> None:
    _, state, _ = full_deal("2p 60-60", dealer_after_draw="same")
    assert state.scores == [0, 0]
    assert state.dealer == 0
    assert state.to_act == 1
    _, won, _ = full_deal("2p 61-59", dealer_after_draw="same")
    assert won.scores == [1, 0]
    assert won.dealer == 1  # after a decided deal the deal passes on as usual


@pytest.mark.parametrize(("name", "scores"), [("2p 61-59", [1, 0]), ("2p 59-61", [0, 1])])
def test_s6_5_sixty_one_wins_the_deal(name: str, scores: list[int]) -> None:
    _, state, _ = full_deal(name)
    assert hand_end(state)["points"] == DEALS[name]["points"]
    assert state.scores == scores
    assert state.dealer == 1
    assert deal_events(state, 2)[0]["scores"] == scores


@pytest.mark.parametrize(("name", "next_dealer"), [("4p 60-60", 1), ("6p 60-60", 0)])
def test_s6_5_teams_add_partner_points(name: str, next_dealer: int) -> None:
    _, state, ref = full_deal(name)
    seat_points = ref.seat_points()
    players = DEALS[name]["players"]
    team = [sum(seat_points[s] for s in range(players) if s % 2 == t) for t in (0, 1)]
    assert team == [60, 60]
    assert hand_end(state)["points"] == [60, 60]
    assert hand_end(state)["detail"]["seat_points"] == seat_points
    assert state.scores == [0, 0]
    assert state.dealer == next_dealer


@pytest.mark.parametrize(
    ("name", "wins"),
    [
        ("3p 45-49-26", [1, 1, 0]),  # two players over 40
        ("3p 41-41-38", [1, 1, 0]),
        ("3p 65-40-15", [2, 0, 0]),  # exactly 40 is not over 40
        ("3p 5-13-102", [0, 0, 2]),
        ("3p 40-40-40", [0, 0, 0]),  # the only draw
    ],
)
def test_s6_5_three_player_table(name: str, wins: list[int]) -> None:
    points = DEALS[name]["points"]
    assert award_three_players(points) == wins
    _, state, _ = full_deal(name)
    assert hand_end(state)["points"] == points
    assert state.scores == wins
    assert not state.match_over
    assert state.dealer == (DEALS[name]["dealer"] + 1) % 3
    assert state.observation(0)["removed"] == ["2C"]


def test_s6_5_three_players_all_120_scores_three_and_takes_the_match() -> None:
    deck = three_player_grand_slam_deck()
    state = start(3, deck, 2)
    leads = ["1C", "3C", "1E", "1B", "1O", "3O", "KO", "QO", "JO", "7O", "6O", "5O", "4O"]
    for lead in leads:
        assert state.to_act == 0
        state = state.apply(lead)
        for _ in range(2):
            state = state.apply(lowest_card(state.hand(state.to_act)))
        assert last_trick(state)["winner"] == 0
    assert hand_end(state)["points"] == [120, 0, 0]
    assert hand_end(state)["detail"]["indicator_holder"] == 2
    assert state.scores == [3, 0, 0]
    assert state.match_over and state.winner == 0
    assert state.to_act is None


def test_s8_1_match_ends_at_three_deal_wins() -> None:
    spec = DEALS["2p 61-59"]
    state = load(2).new_match(deck=spec["deck"].split(), dealer=0, setup={"scores": [2, 0]})
    assert state.scores == [2, 0]
    assert state.observation(1)["scores"] == [2, 0]
    state = play_cards(state, spec["plays"].split())
    assert state.scores == [3, 0]
    assert state.match_over and state.hand_over
    assert state.winner == 0
    assert state.to_act is None
    assert state.legal_actions() == []
    assert all(state.legal_actions(s) == [] for s in range(2))
    types = [e["type"] for e in state.events]
    assert types[-2:] == ["hand_end", "match_end"]
    assert types.count("deal") == 1  # no further deal is played
    assert state.events[-1]["winner"] == 0
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("1O")


def test_s8_1_second_side_can_win_from_two_all() -> None:
    spec = DEALS["2p 59-61"]
    state = load(2).new_match(deck=spec["deck"].split(), dealer=0, setup={"scores": [2, 2]})
    state = play_cards(state, spec["plays"].split())
    assert state.scores == [2, 3]
    assert state.winner == 1


def test_s8_1_drawn_deals_do_not_count() -> None:
    spec = DEALS["2p 60-60"]
    state = load(2).new_match(deck=spec["deck"].split(), dealer=0, setup={"scores": [2, 2]})
    state = play_cards(state, spec["plays"].split())
    assert state.scores == [2, 2]
    assert not state.match_over and state.winner is None
    assert state.deal_number == 2


@pytest.mark.parametrize(("target", "over"), [(2, True), (3, False)])
def test_s8_1_match_wins_target(target: int, over: bool) -> None:
    spec = DEALS["2p 61-59"]
    game = load(2, match_wins_target=target)
    state = game.new_match(deck=spec["deck"].split(), dealer=0, setup={"scores": [1, 0]})
    state = play_cards(state, spec["plays"].split())
    assert state.scores == [2, 0]
    assert state.match_over is over
    assert state.winner == (0 if over else None)
    assert state.observation(0)["target"] == target


def test_s8_whole_match_by_the_reference() -> None:
    """A whole 2-player match: each deal's result and the tally as §6.5 and §8.1 say."""
    state = load(2).new_match(seed=2024, dealer=1)
    tally = [0, 0]
    dealer = 1
    while not state.match_over:
        number = state.deal_number
        deal = state.record()["deals"][number - 1]
        assert deal["dealer"] == dealer
        ref = RefDeal(2, dealer, deal["deck"])
        while state.deal_number == number and not state.match_over:
            card = lowest_card(ref.hands[ref.to_act])
            state = state.apply(card)
            ref.play(card)
        award = award_two_sides(ref.side_points())
        tally = [a + b for a, b in zip(tally, award, strict=True)]
        assert state.scores == tally
        dealer = (dealer + 1) % 2
    assert max(tally) == 3 and tally.count(3) == 1
    assert state.winner == tally.index(3)


# -- §8.2 three players ---------------------------------------------------------------------


def test_s8_2_three_player_tie_at_target_continues() -> None:
    spec = DEALS["3p 45-49-26"]
    game = load(3)
    state = game.new_match(deck=spec["deck"].split(), dealer=2, setup={"scores": [2, 2, 0]})
    state = play_cards(state, spec["plays"].split())
    assert state.scores == [3, 3, 0]
    assert not state.match_over
    obs = state.observation(None)
    assert obs["seats"] == [0, 1, 2]
    assert obs["hand_sizes"] == [3, 3, 3]
    assert obs["removed"] == ["2C"]
    # Play on; each deal scored by the §6.5 table, until one player alone has the most.
    tally = [3, 3, 0]
    while not state.match_over:
        number = state.deal_number
        deal = state.record()["deals"][number - 1]
        ref = RefDeal(3, deal["dealer"], deal["deck"])
        while state.deal_number == number and not state.match_over:
            card = lowest_card(ref.hands[ref.to_act])
            state = state.apply(card)
            ref.play(card)
        tally = [a + b for a, b in zip(tally, award_three_players(ref.side_points()), strict=True)]
        assert state.scores == tally
        top = max(tally)
        assert state.match_over is (tally.count(top) == 1)
    assert state.winner == tally.index(max(tally))


def test_s8_2_drop_out_play_off() -> None:
    tie = DEALS["3p 45-49-26"]
    draw = DEALS["2p 60-60"]
    game = load(3, three_player_tie_mode="drop_out")
    state = game.new_match(
        seed=8,
        decks=[tie["deck"].split(), draw["deck"].split()],
        dealer=2,
        setup={"scores": [2, 2, 0]},
    )
    state = play_cards(state, tie["plays"].split())
    assert state.scores == [3, 3, 0]
    assert not state.match_over
    # Seat 2 drops out; seats 0 and 1 play a two-handed 40-card deal.
    obs = state.observation(0)
    assert obs["seats"] == [0, 1]
    assert obs["removed"] == []
    assert obs["hand_sizes"] == [3, 3, 0]
    assert obs["stock_size"] == 34
    assert state.dealer == 0  # §3: next(2) = 0, who plays on
    assert state.to_act == 1
    assert state.legal_actions(2) == []
    # A drawn play-off deal is replayed; the deal passes to seat 1.
    state = play_cards(state, draw["plays"].split())
    assert hand_end(state, 2)["points"][:2] == [60, 60]
    assert not state.match_over
    assert state.observation(0)["seats"] == [0, 1]
    assert state.dealer == 1
    # Then the first of them to win a deal wins the match.
    while not state.match_over:
        number = state.deal_number
        deal = state.record()["deals"][number - 1]
        ref = RefDeal(2, deal["dealer"], deal["deck"])  # seats 0 and 1 play on
        while state.deal_number == number and not state.match_over:
            card = lowest_card(ref.hands[ref.to_act])
            state = state.apply(card)
            ref.play(card)
        points = ref.side_points()
        if points != [60, 60]:
            assert state.match_over
            assert state.winner == points.index(max(points))
    assert state.events[-1]["type"] == "match_end"


def test_s8_2_play_off_between_seats_0_and_2() -> None:
    # The 45-49-26 deal dealt by seat 1 instead of seat 2: every hand moves one seat on,
    # the same plays follow, and the points become 49-26-45.
    spec = DEALS["3p 45-49-26"]
    second = list(reversed(ALL_40))  # KB QB JB | 7B 6B 5B | 4B ...
    game = load(3, three_player_tie_mode="drop_out")
    state = game.new_match(
        seed=5, decks=[spec["deck"].split(), second], dealer=1, setup={"scores": [2, 0, 2]}
    )
    state = play_cards(state, spec["plays"].split())
    assert hand_end(state)["points"] == [49, 26, 45]
    assert state.scores == [3, 0, 3]
    obs = state.observation(2)
    assert obs["seats"] == [0, 2]
    assert obs["hand_sizes"] == [3, 0, 3]
    assert state.dealer == 2  # next(1) = 2
    assert state.to_act == 0  # the next seat still playing after the dealer
    assert state.hand(0) == ["JB", "QB", "KB"]  # cards 0-2 to the dealer's next
    assert state.hand(2) == ["5B", "6B", "7B"]  # cards 3-5 to the dealer
    assert state.trump_card == "4B"
    with pytest.raises(IllegalActionError):
        state.apply(state.hand(0)[0], seat=1)
    # Seats 0 and 2 play as the two seats of a 2-player deal, seat 2 dealing.
    ref = RefDeal(2, 1, second)
    seat_of = {0: 0, 1: 2}
    while not ref.over:
        assert state.to_act == seat_of[ref.to_act]
        card = lowest_card(ref.hands[ref.to_act])
        state = state.apply(card)
        ref.play(card)
    assert ref.side_points() == [109, 11]
    assert hand_end(state, 2)["points"] == [109, 0, 11]
    assert state.match_over
    assert state.winner == 0


def test_s8_2_three_way_tie_continues_three_handed_in_drop_out_mode() -> None:
    spec = DEALS["3p 40-40-40"]
    game = load(3, three_player_tie_mode="drop_out")
    state = game.new_match(deck=spec["deck"].split(), dealer=0, setup={"scores": [3, 3, 3]})
    state = play_cards(state, spec["plays"].split())
    assert state.scores == [3, 3, 3]
    assert not state.match_over
    assert state.observation(0)["seats"] == [0, 1, 2]
    assert state.dealer == 1


# -- first dealer, setup ------------------------------------------------------------------


def test_s3_first_dealer_is_seeded_or_given() -> None:
    game = load(4)
    dealers = {game.new_match(seed=s).dealer for s in range(60)}
    assert dealers == {0, 1, 2, 3}
    assert game.new_match(seed=5).dealer == game.new_match(seed=5).dealer
    assert load(4, first_dealer=2).new_match(seed=5).dealer == 2
    assert game.new_match(seed=5, dealer=3).dealer == 3
    assert game.new_match(seed=5, dealer=3).to_act == 0


@pytest.mark.parametrize(
    ("players", "setup"),
    [
        (2, {"scores": [3, 0]}),  # already decided
        (2, {"scores": [1]}),
        (2, {"scores": [1, -1]}),
        (2, {"scores": [1, "1"]}),
        (2, {"scores": "11"}),
        (3, {"scores": [1, 1]}),
        (4, {"scores": [0, 0, 0, 0]}),  # per side, not per seat
        (2, {"games": [1, 0]}),
        (2, {"points": [1, 0]}),
    ],
)
def test_setup_rejects_bad_positions(players: int, setup: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        load(players).new_match(seed=1, setup=setup)


def test_setup_scores_are_reported() -> None:
    state = load(3).new_match(seed=1, setup={"scores": [2, 1, 0]})
    assert state.scores == [2, 1, 0]
    assert state.observation(2)["scores"] == [2, 1, 0]
    assert state.games == [0, 0, 0]
    assert state.record()["setup"] == {"scores": [2, 1, 0]}


# -- §10-§11 information and the open variants --------------------------------------------


def test_observation_and_legal_actions_of_a_bad_seat() -> None:
    state = load(4).new_match(seed=3)
    for bad in (4, -1, 99):
        with pytest.raises(ValueError):
            state.observation(bad)
        assert state.legal_actions(bad) == []


def test_s10_1_standard_game_shows_only_counts() -> None:
    state = load(2).new_match(seed=3, dealer=0)
    obs = state.observation(0)
    assert obs["hand"] == state.hand(0)
    assert obs["known_cards"] == {}
    assert obs["stock_top"] is None
    assert obs["hand_sizes"] == [3, 3]
    spectator = state.observation(None)
    assert spectator["hand"] == []
    assert spectator["known_cards"] == {}


def test_s11_open_hands_shows_both_hands_throughout() -> None:
    spec = DEALS["2p 61-59"]
    state = start(2, spec["deck"].split(), 0, open_variant="open_hands")
    for card in spec["plays"].split()[:24]:
        for seat in (0, 1):
            obs = state.observation(seat)
            assert obs["known_cards"] == {str(1 - seat): state.hand(1 - seat)}
            assert obs["stock_top"] is None
        state = state.apply(card)
    assert len(state.hand(0)) == 3  # drawn cards are shown too


def test_s11_scoperta_shows_the_stock_top() -> None:
    deck = DEALS["2p 61-59"]["deck"].split()
    plays = DEALS["2p 61-59"]["plays"].split()
    state = start(2, deck, 0, open_variant="scoperta")
    obs = state.observation(0)
    assert obs["stock_top"] == deck[7]
    assert obs["known_cards"] == {"1": state.hand(1)}
    state = play_cards(state, plays[:2])
    assert state.observation(1)["stock_top"] == deck[9]
    assert state.observation(0)["stock_size"] == 32
    # Until the stock is exhausted, the top card is the one the next winner draws.
    state = play_cards(state, plays[2:32])  # 16 tricks: only the last pair is left
    obs = state.observation(0)
    assert obs["stock_size"] == 2
    assert obs["stock_top"] == deck[-1]
    state = play_cards(state, plays[32:34])
    assert state.observation(0)["stock_top"] is None
    assert state.observation(0)["stock_size"] == 0


@pytest.mark.parametrize("variant", ["open_hands", "scoperta"])
@pytest.mark.parametrize("players", [3, 4, 6])
def test_s11_open_variants_are_two_player_only(variant: str, players: int) -> None:
    with pytest.raises(RulesError, match="2 players"):
        load(players, open_variant=variant)


def test_partners_show_hands_before_first_trick() -> None:
    deck = build_deck(
        4,
        3,
        hands={
            0: ["5E", "2B", "3B"],
            1: ["6E", "4B", "5B"],
            2: ["1E", "6B", "7B"],
            3: ["7E", "JB", "QB"],
        },
        indicator="4O",
        stock=["KC", "QC", "JC", "7C"],
    )
    state = start(4, deck, 3, partners_show_hands_before_first_trick=True)
    assert state.observation(0)["known_cards"] == {"2": ["1E", "6B", "7B"]}
    assert state.observation(2)["known_cards"] == {"0": ["5E", "2B", "3B"]}
    assert state.observation(1)["known_cards"] == {"3": ["7E", "JB", "QB"]}
    assert state.observation(None)["known_cards"] == {}
    state = play_cards(state, ["5E", "6E", "1E", "7E"])
    assert "KC" in state.hand(2)
    # Seat 2's new card was never shown; what seat 0 saw before trick 1 is remembered.
    assert state.observation(0)["known_cards"] == {"2": ["6B", "7B"]}


@pytest.mark.parametrize("players", [2, 3])
def test_partner_options_need_partners(players: int) -> None:
    with pytest.raises(RulesError):
        load(players, partners_show_hands_before_first_trick=True)
    with pytest.raises(RulesError):
        load(players, signals_enabled=True)


# -- §10.3 signals -------------------------------------------------------------------------

SIGNAL_HANDS = {
    0: ["5E", "6E", "7E"],
    1: ["1O", "3O", "2B"],
    2: ["1E", "2E", "3E"],
    3: ["KE", "QE", "JE"],
}
SIGNAL_DECK = build_deck(4, 3, hands=SIGNAL_HANDS, indicator="4O", stock=["4C", "5C", "6C", "7C"])
TRICK_1 = ["5E", "2B", "2E", "JE"]  # JE wins; seat 3 leads trick 2


def signal_game(**options: Any) -> Any:
    return start(4, SIGNAL_DECK, 3, signals_enabled=True, **options)


def test_s10_3_first_trick_is_silent() -> None:
    state = signal_game()
    assert state.legal_actions(1) == []
    assert state.legal_actions() == ids(SIGNAL_HANDS[0])
    with pytest.raises(IllegalActionError, match="first trick"):
        state.apply("signal trump_ace", seat=1)
    early = signal_game(signals_from_trick=1)
    assert early.legal_actions(1) == [40, 41]


def test_s10_3_signals_truthful_once_per_trick_team_only() -> None:
    state = play_cards(signal_game(), TRICK_1)
    assert last_trick(state)["winner"] == 3
    assert state.to_act == 3
    assert state.hand(1) == ["1O", "3O", "6C"]
    assert state.legal_actions(1) == [40, 41]  # holds the trump asso and the trump 3
    assert state.legal_actions(0) == []  # no trump at all: nothing true in pagat's table
    assert state.legal_actions(2) == []
    assert state.hand(3) == ["4C", "QE", "KE"]
    assert state.legal_actions() == ids(state.hand(3))  # seat 3 holds no trump either

    # A free action out of turn: nothing but the signal log changes.
    after = state.apply("signal trump_ace", seat=1)
    assert after.to_act == 3
    assert all(after.hand(s) == state.hand(s) for s in range(4))
    assert after.observation(1)["stock_size"] == state.observation(1)["stock_size"]
    assert after.deal_points() == state.deal_points()
    seen = [{"trick": 2, "seat": 1, "meaning": "trump_ace"}]
    assert after.observation(1)["signals"] == seen
    assert after.observation(3)["signals"] == seen  # the partner
    assert after.observation(0)["signals"] == []  # opponents see nothing
    assert after.observation(2)["signals"] == []
    assert after.observation(None)["signals"] == []
    assert after.legal_actions(1) == [41]  # once per meaning per trick
    with pytest.raises(IllegalActionError, match="already"):
        after.apply("signal trump_ace", seat=1)
    with pytest.raises(IllegalActionError, match="truthful"):
        after.apply("signal trump_king", seat=1)
    with pytest.raises(IllegalActionError, match="pagat"):
        after.apply("signal no_trump", seat=0)
    event = events_of(after, "signal")[-1]
    assert (event["seat"], event["meaning"], sorted(event["audience"])) == (1, "trump_ace", [1, 3])
    assert after.record()["actions"][-1] == {"seat": 1, "action": "signal trump_ace"}

    # The next trick allows the same meaning again.
    nxt = play_cards(after, [state.hand(3)[0], "5C", "6C", "1E"])
    assert tricks_done(nxt) == 2
    assert 40 in nxt.legal_actions(1)


def test_s10_3_to_act_may_signal_and_legal_actions_stay_sorted() -> None:
    state = play_cards(signal_game(), TRICK_1)
    state = play_cards(state, ["4C", "5C"])  # seat 3, seat 0; now seat 1 to act
    assert state.to_act == 1
    assert state.legal_actions() == [*ids(state.hand(1)), 40, 41]
    after = state.apply("signal trump_three")
    assert after.to_act == 1
    assert after.legal_actions() == [*ids(state.hand(1)), 40]
    assert after.observation(3)["signals"] == [{"trick": 2, "seat": 1, "meaning": "trump_three"}]


def test_s10_3_signals_keep_their_place_in_the_log() -> None:
    state = play_cards(signal_game(), TRICK_1)
    state = state.apply("4C")  # seat 3 leads trick 2
    state = state.apply("signal trump_ace", seat=1)
    state = state.apply("5C")  # seat 0
    state = state.apply("signal trump_three")  # seat 1, now to act
    tail = [(e["type"], e["seat"]) for e in state.events[-4:]]
    assert tail == [("play", 3), ("signal", 1), ("play", 0), ("signal", 1)]
    assert state.record()["actions"][-4:] == [
        {"seat": 3, "action": "4C"},
        {"seat": 1, "action": "signal trump_ace"},
        {"seat": 0, "action": "5C"},
        {"seat": 1, "action": "signal trump_three"},
    ]
    assert mazo.replay(state.record()) == state


def test_s10_3_public_visibility() -> None:
    state = play_cards(signal_game(signal_visibility="public"), TRICK_1)
    after = state.apply("signal trump_ace", seat=1)
    for seat in range(4):
        assert after.observation(seat)["signals"] == [
            {"trick": 2, "seat": 1, "meaning": "trump_ace"}
        ]
    assert sorted(events_of(after, "signal")[-1]["audience"]) == [0, 1, 2, 3]


def test_s10_3_bluffs_when_not_truthful() -> None:
    state = play_cards(signal_game(signals_truthful=False), TRICK_1)
    assert state.legal_actions(0) == [40, 41, 42, 43, 44]
    after = state.apply("signal trump_ace", seat=0)
    assert after.observation(2)["signals"] == [{"trick": 2, "seat": 0, "meaning": "trump_ace"}]


def test_s10_3_signal_systems() -> None:
    it = play_cards(signal_game(signal_system="it_wikipedia"), TRICK_1)
    assert it.legal_actions(0) == [45]  # no trump: 6E 7E 5C
    assert it.legal_actions(1) == [40, 41]  # 1O 3O: no low trump
    en = play_cards(signal_game(signal_system="en_wikipedia"), TRICK_1)
    assert en.hand(2) == ["7C", "1E", "3E"]
    assert en.legal_actions(2) == [47]  # carico: a non-trump asso or 3
    assert en.legal_actions(1) == [40, 41]  # its asso and 3 are trumps, not carichi
    with pytest.raises(IllegalActionError, match="en_wikipedia"):
        en.apply("signal no_trump", seat=0)


def test_s10_3_low_trump_and_fante() -> None:
    hands = {0: ["7O", "JO", "5E"], 1: ["6E", "4B", "5B"], 2: ["1E", "6B", "7B"]}
    deck = build_deck(4, 3, hands=hands, indicator="4O")
    state = start(4, deck, 3, signals_enabled=True, signals_from_trick=1)
    assert state.legal_actions(1) == []
    assert [a for a in state.legal_actions(0) if a >= 40] == [44]  # pagat: trump fante
    it = start(4, deck, 3, signals_enabled=True, signals_from_trick=1, signal_system="it_wikipedia")
    assert [a for a in it.legal_actions(0) if a >= 40] == [46]  # low trump: the 7
    assert it.legal_actions(1) == [45]


def test_s10_3_six_player_partners_see_signals() -> None:
    hands = {s: [] for s in range(6)}
    hands[3] = ["1O", "5E", "6E"]
    deck = build_deck(6, 5, hands=hands, indicator="4O")
    state = start(6, deck, 5, signals_enabled=True, signals_from_trick=1)
    after = state.apply("signal trump_ace", seat=3)
    visible = [s for s in range(6) if after.observation(s)["signals"]]
    assert visible == [1, 3, 5]


def test_s10_3_signals_off_are_illegal() -> None:
    state = start(4, SIGNAL_DECK, 3)
    state = play_cards(state, TRICK_1)
    assert all(a < 40 for s in range(4) for a in state.legal_actions(s))
    with pytest.raises(IllegalActionError, match="signals_enabled"):
        state.apply("signal trump_ace", seat=1)


# -- §4/§5 optional steps of the deal --------------------------------------------------------

EXCHANGE_DECK = build_deck(
    4, 3, hands={2: ["2O", "5E", "6E"]}, indicator="KO", stock=["4C", "5C", "6C", "7C"]
)


def test_trump_two_exchange() -> None:
    state = start(4, EXCHANGE_DECK, 3, trump_two_exchange=True)
    assert state.to_act == 2  # the holder of the 2 of trumps, before the first lead
    assert state.observation(2)["phase"] == "exchange"
    assert state.legal_actions() == [48, 49]
    assert state.observation(2)["legal_actions"] == ["exchange", "decline"]
    assert state.legal_actions(0) == []
    with pytest.raises(IllegalActionError):
        state.apply("5E")
    with pytest.raises(IllegalActionError):
        state.apply(state.hand(0)[0], seat=0)

    swapped = state.apply("exchange")
    assert swapped.hand(2) == ["KO", "5E", "6E"]
    assert swapped.trump_card == "2O"
    assert swapped.to_act == 0  # the first leader is next(dealer), as usual
    obs = swapped.observation(1)
    assert obs["trump"] == "2O"
    assert obs["trump_suit"] == "O"
    assert obs["exchange"] == {"seat": 2, "declined": False, "gave": "2O", "took": "KO"}
    assert obs["known_cards"] == {"2": ["KO"]}  # the swap is public
    assert swapped.observation(2)["known_cards"] == {}
    assert swapped.observation(2)["phase"] == "play"
    assert swapped.record()["actions"] == [{"seat": 2, "action": "exchange"}]
    # The 2 of trumps is now the last card drawn.
    end = play_lowest_until(swapped, lambda s: s.observation(0)["indicator_holder"] is not None)
    holder = end.observation(0)["indicator_holder"]
    assert holder == (last_trick(end)["winner"] - 1) % 4
    assert "2O" in end.hand(holder)

    kept = state.apply("decline")
    assert kept.hand(2) == ["2O", "5E", "6E"]
    assert kept.trump_card == "KO"
    assert kept.to_act == 0
    # Everyone saw seat 2 asked and keep it: the 2 of trumps stays known until played.
    assert kept.observation(0)["exchange"] == {"seat": 2, "declined": True}
    assert kept.observation(0)["known_cards"] == {"2": ["2O"]}
    assert kept.observation(2)["known_cards"] == {}
    after = play_cards(kept, [kept.hand(0)[0]])
    after = play_cards(after, [after.hand(1)[0]])
    assert after.observation(1)["known_cards"] == {"2": ["2O"]}
    after = play_cards(after, ["2O"])
    assert after.observation(1)["known_cards"] == {}


def test_trump_two_exchange_only_when_someone_holds_it() -> None:
    on_stock = build_deck(4, 3, indicator="KO", stock=["2O"])
    assert start(4, on_stock, 3, trump_two_exchange=True).legal_actions() == ids(
        start(4, on_stock, 3).hand(0)
    )
    is_indicator = build_deck(4, 3, indicator="2O")
    assert start(4, is_indicator, 3, trump_two_exchange=True).to_act == 0
    off = start(4, EXCHANGE_DECK, 3)
    assert off.to_act == 0
    assert off.observation(0)["phase"] == "play"


def test_redraw_indicator_ace() -> None:
    # 2 players: the 33 face-down cards are deck[7:]; 1O goes back to the middle
    # (draw place 33 // 2 = 16, see the module docstring) and deck[7] is turned instead.
    deck = build_deck(2, 0, hands={0: ["2B", "3B", "4B"]}, indicator="1O", stock=["5C"])
    state = start(2, deck, 0, redraw_indicator_ace_three=True)
    assert state.trump_card == "5C"
    obs = state.observation(0)
    assert obs["trump_suit"] == "C"
    assert obs["stock_size"] == 34
    assert state.hand(0) == ["2B", "3B", "4B"]
    stock = state.stock()
    assert stock[16] == "1O"
    assert stock[-1] == "5C"
    assert stock[:16] == deck[8:24]
    assert stock[17:-1] == deck[24:]
    # Draw place 16 is the first card of the 9th draw round: the winner of trick 9 gets it.
    state = play_lowest_until(state, lambda s: tricks_done(s) == 8)
    assert not any("1O" in state.hand(s) for s in (0, 1))
    state = play_lowest_until(state, lambda s: tricks_done(s) == 9)
    assert "1O" in state.hand(last_trick(state)["winner"])
    assert deal_events(state, 1)[0]["trump"] == "5C"


def test_redraw_indicator_repeats_for_a_three_then_an_ace() -> None:
    deck = build_deck(2, 0, indicator="3O", stock=["1C", "6B"])
    state = start(2, deck, 0, redraw_indicator_ace_three=True)
    assert state.trump_card == "6B"
    stock = state.stock()
    assert stock[15:17] == ["3O", "1C"]
    assert stock[:15] == deck[9:24]
    assert stock[17:] == [*deck[24:], "6B"]


def test_redraw_leaves_other_indicators_and_is_off_by_default() -> None:
    deck = build_deck(4, 3, indicator="KO")
    assert start(4, deck, 3, redraw_indicator_ace_three=True).trump_card == "KO"
    ace = build_deck(4, 3, indicator="1O", stock=["5C"])
    assert start(4, ace, 3).trump_card == "1O"
    state = start(4, ace, 3, redraw_indicator_ace_three=True)
    assert state.trump_card == "5C"
    assert state.stock()[27 // 2] == "1O"


# -- actions as strings ------------------------------------------------------------------


def test_action_strings() -> None:
    game = load(4, signals_enabled=True)
    assert game.string_to_action("7O") == 6
    assert game.string_to_action("7o") == 6
    assert game.string_to_action("AE") == ALL_40.index("1E")
    assert game.action_to_string(6) == "7O"
    assert game.action_to_string(39) == "KB"
    for i, meaning in enumerate(SIGNAL_MEANINGS):
        assert game.action_to_string(40 + i) == "signal " + meaning
        assert game.string_to_action("signal " + meaning) == 40 + i
    assert game.action_to_string(48) == "exchange"
    assert game.action_to_string(49) == "decline"
    for bad in ("ZZ", "", "11O", "8O", "signal", "signal wink", "7O 6O"):
        with pytest.raises(InvalidActionError):
            game.string_to_action(bad)
    for bad_id in (-1, 50, 999):
        with pytest.raises(InvalidActionError):
            game.action_to_string(bad_id)


def test_illegal_plays_name_what_is_allowed() -> None:
    deck = build_deck(2, 0, hands={1: ["7O", "2B", "3B"], 0: ["3O", "1C", "5E"]}, indicator="4C")
    state = start(2, deck, 0)
    with pytest.raises(IllegalActionError, match="7O") as err:
        state.apply("1C")
    assert "1C" in str(err.value)
    with pytest.raises(IllegalActionError, match="turn"):
        state.apply("1C", seat=0)
    with pytest.raises(InvalidActionError):
        state.apply(50)
    with pytest.raises(InvalidActionError):
        state.apply("11O")
    with pytest.raises(InvalidActionError):
        state.apply(True)


# -- search support (determinize) ----------------------------------------------------------


def test_determinize_keeps_what_the_seat_knows() -> None:
    state = start(4, EXCHANGE_DECK, 3, trump_two_exchange=True).apply("exchange")
    for seat in (0, 1):
        state = state.apply(lowest_card(state.hand(seat)))
    state = play_cards(state, ["5E", lowest_card(state.hand(3))])  # seat 2 keeps KO
    assert "KO" in state.hand(2)
    game = state.game
    for seat in range(4):
        obs = state.observation(seat)
        det = game.determinize(obs, mazo.Rng(seat))
        assert det.observation(seat) == obs
        assert det.hand(seat) == state.hand(seat)
        assert "KO" in det.hand(2)  # the public swap is respected
        everything = sorted(
            [c for s in range(4) for c in det.hand(s)]
            + det.stock()
            + [c for s in range(4) for c in det.won_cards(s)]
            + [t["card"] for t in obs["trick"]],
            key=ALL_40.index,
        )
        assert everything == ALL_40


def test_determinize_in_the_exchange_phase() -> None:
    state = start(4, EXCHANGE_DECK, 3, trump_two_exchange=True)
    assert state.to_act == 2 and state.observation(0)["phase"] == "exchange"
    det = state.game.determinize(state.observation(0), mazo.Rng(3))
    assert det.observation(0) == state.observation(0)
    # Everybody can see who is asked: seat 2 holds the 2 of trumps (public by to_act).
    assert state.observation(0)["known_cards"] == {"2": ["2O"]}
    assert "2O" in det.hand(2)
    after = det.apply("exchange")
    cards = [c for s in range(4) for c in after.hand(s)] + after.stock()
    assert sorted(cards, key=ALL_40.index) == ALL_40
