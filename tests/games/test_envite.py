"""Envite Canario scenario tests, written from ``rules/envite-canario.md`` (sections in
the names), through the public API only.

Every deal is built card by card (:func:`build_deck`): the hands wanted, seat by seat
from the eldest, then the vira, then the rest of the pack.  Expected winners, legal sets
and scores are worked out by hand from the rules file, not from the engine's tables.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

import mazo
from games.test_envite_cards import ROWS  # §3.3, written out once
from mazo import IllegalActionError, InvalidActionError

# -- helpers ------------------------------------------------------------------------

RANKS = "1234567JQK"
SUITS = "OCEB"
ALL_CARDS = [r + s for s in SUITS for r in RANKS]  # the documented id order (§ action layout)
PLAIN_ORDER = "KQJ1765432"  # §3.4, strongest first
COUNTS = (4, 6, 8, 10, 12)

ROW_IDS = [f"{r[0]}p-vira-{r[1]}" for r in ROWS]


def hierarchy_of(players: int, suit: str) -> list[str]:
    for row in ROWS:
        if int(row[0]) == players and row[1] == suit:
            return row[2:]
    raise AssertionError((players, suit))


def build_deck(
    players: int,
    dealer: int,
    hands: dict[int, Sequence[str]],
    vira: str,
    stock: Sequence[str] = (),
    fill: Sequence[str] = (),
) -> list[str]:
    """A 40-card pack (top first) dealing ``hands`` per §5: seat ``dealer+1+k`` gets
    ``P[3k..3k+2]``, then the vira ``P[3N]``, then ``stock`` and the leftover cards.

    A hand given with fewer than 3 cards is completed from ``fill`` (in that order), then
    from the unused cards in id order; cards listed in ``stock`` are never used to fill.
    """
    placed = [c for hand in hands.values() for c in hand] + [vira, *stock]
    assert len(set(placed)) == len(placed), f"a card is placed twice: {placed}"
    assert set(placed) <= set(ALL_CARDS), set(placed) - set(ALL_CARDS)
    pool = [c for c in [*fill, *ALL_CARDS] if c not in placed]
    pool = list(dict.fromkeys(pool))
    deck: list[str] = []
    for k in range(players):
        hand = list(hands.get((dealer + 1 + k) % players, ()))
        assert len(hand) <= 3
        while len(hand) < 3:
            hand.append(pool.pop(0))
        deck += hand
    deck += [vira, *stock, *pool]
    assert sorted(deck) == sorted(ALL_CARDS)
    return deck


def start(
    players: int,
    hands: dict[int, Sequence[str]],
    vira: str,
    dealer: int | None = None,
    stock: Sequence[str] = (),
    fill: Sequence[str] = (),
    **options: Any,
) -> Any:
    """A match whose first deal is exactly ``hands``; the default dealer is the last seat,
    so seat 0 is the eldest and leads."""
    dealer = players - 1 if dealer is None else dealer
    game = mazo.load_game("envite", players=players, **options)
    state = game.new_match(
        deck=build_deck(players, dealer, hands, vira, stock, fill), dealer=dealer
    )
    for seat, hand in hands.items():
        if len(hand) == 3:
            assert sorted(state.hand(seat)) == sorted(hand)
    return state


def play(state: Any, cards: str | Iterable[str]) -> Any:
    """Each card played by the seat to act, in order."""
    for card in cards.split() if isinstance(cards, str) else cards:
        seat = state.to_act
        assert card in state.hand(seat), f"{card} is not in seat {seat}'s hand {state.hand(seat)}"
        state = state.apply(card, seat=seat)
    return state


def legal_cards(state: Any, seat: int | None = None) -> list[str]:
    return sorted(state.action_to_string(a) for a in state.legal_actions(seat) if a < 40)


def tricks(state: Any) -> list[dict[str, Any]]:
    return [e for e in state.events if e["type"] == "trick"]


def deal_events(state: Any, number: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    current = None
    for e in state.events:
        if e["type"] == "deal":
            current = e["deal"]
        if current == number:
            out.append(e)
    return out


def snapshot(state: Any) -> Any:
    n = state.game.players
    return (
        state.record(),
        state.events,
        [state.observation(s) for s in [*range(n), None]],
        [state.legal_actions(s) for s in range(n)],
        state.to_act,
        [state.hand(s) for s in range(n)],
        state.scores,
        state.tricks_won,
    )


def assert_rejected(state: Any, action: str, seat: int | None, *fragments: str) -> str:
    """``action`` raises IllegalActionError naming what was wrong; nothing changes."""
    before = snapshot(state)
    copy = mazo.replay(state.record())
    with pytest.raises(IllegalActionError) as err:
        state.apply(action, seat=seat)
    message = str(err.value)
    assert message
    for fragment in fragments:
        assert fragment.lower() in message.lower(), message
    assert snapshot(state) == before
    assert state == copy
    return message


def strings_in(value: Any) -> set[str]:
    """Every string anywhere in a JSON-ready value (keys included)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        out: set[str] = set()
        for k, v in value.items():
            out |= strings_in(k) | strings_in(v)
        return out
    if isinstance(value, list | tuple):
        out = set()
        for v in value:
            out |= strings_in(v)
        return out
    return set()


def play_first_legal_until_next_deal(state: Any) -> Any:
    number = state.deal_number
    while state.deal_number == number and not state.match_over:
        state = state.apply(next(a for a in state.legal_actions() if a < 40))
    return state


# -- §5 the deal ----------------------------------------------------------------------


@pytest.mark.parametrize("players", COUNTS)
@pytest.mark.parametrize("dealer_pick", ["first", "middle", "last"])
def test_5_deal_packets_vira_stock_and_eldest(players: int, dealer_pick: str) -> None:
    dealer = {"first": 0, "middle": 3, "last": players - 1}[dealer_pick]
    pack = list(ALL_CARDS)
    random.Random(players * 100 + dealer).shuffle(pack)
    state = mazo.load_game("envite", players=players).new_match(deck=pack, dealer=dealer)
    for k in range(players):
        seat = (dealer + 1 + k) % players
        assert sorted(state.hand(seat)) == sorted(pack[3 * k : 3 * k + 3])
        assert sorted(state.observation(seat)["hand"]) == sorted(pack[3 * k : 3 * k + 3])
    assert state.vira == pack[3 * players]
    assert state.stock() == pack[3 * players + 1 :]
    assert state.to_act == (dealer + 1) % players
    assert state.phase == "play"
    assert state.tricks_won == [0, 0]
    assert state.scores == [0, 0] and state.games == [0, 0]
    spectator = state.observation(None)
    assert spectator["dealer"] == dealer
    assert spectator["eldest"] == (dealer + 1) % players
    assert spectator["vira"] == pack[3 * players]
    assert spectator["trump_suit"] == pack[3 * players][-1]
    assert spectator["hand_sizes"] == [3] * players
    first = state.events[0]
    assert first["type"] == "deal"
    assert (first["dealer"], first["eldest"], first["vira"]) == (
        dealer,
        (dealer + 1) % players,
        pack[3 * players],
    )
    record = state.record()
    assert record["deals"][0]["deck"] == pack
    assert record["deals"][0]["dealer"] == dealer


@pytest.mark.parametrize("players", COUNTS)
def test_5_deal_passes_to_the_next_seat(players: int) -> None:
    dealer = players - 2
    rng = random.Random(players)
    packs = [rng.sample(ALL_CARDS, 40) for _ in range(3)]
    game = mazo.load_game("envite", players=players)
    state = game.new_match(decks=packs, dealer=dealer)
    for number, pack in enumerate(packs, start=1):
        d = (dealer + number - 1) % players
        assert state.deal_number == number
        assert state.observation(None)["dealer"] == d
        assert state.to_act == (d + 1) % players  # the eldest leads
        for k in range(players):
            assert sorted(state.hand((d + 1 + k) % players)) == sorted(pack[3 * k : 3 * k + 3])
        assert state.vira == pack[3 * players]
        assert state.stock() == pack[3 * players + 1 :]
        if number < len(packs):
            state = play_first_legal_until_next_deal(state)
            assert state.hand_over
    dealers = [e["dealer"] for e in state.events if e["type"] == "deal"]
    assert dealers == [dealer, (dealer + 1) % players, (dealer + 2) % players]


def test_5_dealer_rotation_wraps_around() -> None:
    # §5.1: next dealer D+1 mod N, so after the last seat deals, seat 0 deals.
    state = mazo.load_game("envite", players=4).new_match(seed=5, dealer=3)
    state = play_first_legal_until_next_deal(state)
    assert state.observation(None)["dealer"] == 0
    assert state.to_act == 1


# -- §3 trumps in play ------------------------------------------------------------------


@pytest.mark.parametrize("row", ROWS, ids=ROW_IDS)
def test_3_each_trump_beats_the_next_one_in_a_trick(row: list[str]) -> None:
    """For every adjacent pair of §3.3's row: a plain card is led, the two trumps follow
    (in both orders) and the stronger wins; every other seat must follow the suit led."""
    n, v, order = int(row[0]), row[1], row[2:]
    vira = order[-1]
    lead_suit = "C" if v == "E" else "E"  # never a trump suit, never holds a fixed trump
    led = [r + lead_suit for r in PLAIN_ORDER]  # 10 plain cards: enough for 12 players
    others = [led[s - 2] for s in range(3, n)]
    fill = [c for c in ALL_CARDS if c[-1] != lead_suit]  # the trump holders are void
    pairs = 0
    for stronger, weaker in itertools.pairwise(order):
        if vira in (stronger, weaker):
            continue
        for first, second in ((weaker, stronger), (stronger, weaker)):
            hands = {0: [led[0]], 1: [first], 2: [second]}
            hands.update({s: [led[s - 2]] for s in range(3, n)})
            state = start(n, hands, vira, fill=fill)
            state = play(state, [led[0], first, second])
            for seat in range(3, n):  # they hold the suit led: they must follow it
                assert legal_cards(state) == [led[seat - 2]], (seat, state.hand(seat))
                state = play(state, [led[seat - 2]])
            trick = tricks(state)[-1]
            assert trick["cards"] == [led[0], first, second, *others]
            assert trick["winner"] == (1 if first == stronger else 2), (first, second)
            assert state.to_act == trick["winner"]
            assert state.tricks_won == ([0, 1] if first == stronger else [1, 0])
            pairs += 1
    assert pairs == 2 * (len(order) - 2)


@pytest.mark.parametrize("best", ["5O", "3B", "QB", "JO", "2C"])
def test_3_eight_players_5O_3B_QB_JO_then_the_mala(best: str) -> None:
    # 8 players, vira 4C: 5O > 3B > QB > JO > 2C (Mala) > KC ... (§3.3).  The Mala is
    # led; each later seat holds the next stronger trump, up to ``best``; seats that
    # would hold a stronger one hold a plain bastos instead.
    chain = ["2C", "JO", "QB", "3B", "5O"]
    plain = ["2B", "4B", "5B", "6B"]
    top = chain.index(best)
    first = [chain[i] if i <= top else plain[i - 1] for i in range(5)]
    hands = {
        0: [first[0], "1E", "2E"],
        1: [first[1], "3E", "4E"],
        2: [first[2], "5E", "6E"],
        3: [first[3], "7E", "JE"],
        4: [first[4], "QE", "KE"],
        5: ["KO", "QO", "1O"],
        6: ["7O", "6O", "4O"],
        7: ["3O", "2O", "1B"],
    }
    state = start(8, hands, "4C")
    state = play(state, "2C")
    if top >= 1:  # JO is its only trump and not the top one: it must answer the arrastre
        assert legal_cards(state) == ["JO"]
    state = play(state, first[1:4])
    if top == 4:  # 5O alone is the exempt top trump: anything goes, 5O included
        assert legal_cards(state) == sorted(hands[4])
    state = play(state, [first[4], "KO", "7O", "3O"])
    trick = tricks(state)[-1]
    assert trick["cards"] == [*first, "KO", "7O", "3O"]
    assert trick["winner"] == top


def test_3_fixed_trump_is_not_a_card_of_its_printed_suit_on_a_bastos_lead() -> None:
    # 6 players, vira copas: 3B, QB, JO are trumps (§3.1), bastos as a plain suit is
    # KB JB 1B 7B 6B 5B 4B 2B (§3.4).
    hands = {
        0: ["KB", "1E", "2E"],
        1: ["QB", "5B", "4E"],  # holds a plain bastos: must play 5B, QB is no bastos
        2: ["3B", "4O", "5E"],  # no plain bastos: void, may play anything
        3: ["7B", "6E", "7E"],
        4: ["JB", "JE", "QE"],
        5: ["2B", "KE", "3E"],
    }
    state = start(6, hands, "5C")
    state = play(state, "KB")
    assert legal_cards(state) == ["5B"]
    assert_rejected(state, "QB", None, "QB")
    state = play(state, "5B")
    assert legal_cards(state) == sorted(["3B", "4O", "5E"])
    state = play(state, "3B 7B JB 2B")
    trick = tricks(state)[-1]
    assert trick["cards"] == ["KB", "5B", "3B", "7B", "JB", "2B"]
    assert trick["winner"] == 2  # 3B is a trump: it beats the KB led


def test_3_perica_is_not_an_oros_card() -> None:
    # 6 players, vira espadas; oros led: a hand whose only oros is JO (Perica, a fixed
    # trump) is void in oros and may play anything; JO then wins as a trump.
    hands = {
        0: ["4O", "1C", "2C"],
        1: ["JO", "KC", "5C"],
        2: ["7O", "3C", "4C"],
        3: ["KO", "6C", "7C"],
        4: ["QO", "JC", "QC"],
        5: ["1O", "2B", "4B"],
    }
    state = start(6, hands, "5E")
    state = play(state, "4O")
    assert legal_cards(state) == sorted(["JO", "KC", "5C"])
    state = play(state, "JO")
    assert legal_cards(state) == ["7O"]  # a real oros must follow
    state = play(state, "7O KO QO 1O")
    trick = tricks(state)[-1]
    assert trick["winner"] == 1
    assert trick["cards"] == ["4O", "JO", "7O", "KO", "QO", "1O"]


def test_3_fixed_trump_led_is_a_trump_lead() -> None:
    # 6 players, vira copas; QB led is the arrastre, not a bastos lead (§3.1, §7).
    hands = {
        0: ["QB", "1E", "2E"],
        1: ["KB", "7B", "4E"],  # no trump: anything, bastos is not the suit led
        2: ["2C", "KO", "5E"],  # must answer with its trump
        3: ["JO", "4O", "6E"],  # JO is its only trump, not the top one: must play it
        4: ["3B", "7E", "JE"],  # 3B is its only trump and the top trump: exempt
        5: ["1B", "QE", "KE"],
    }
    state = start(6, hands, "5C")
    state = play(state, "QB")
    assert legal_cards(state) == sorted(hands[1])
    state = play(state, "4E")
    assert legal_cards(state) == ["2C"]
    assert_rejected(state, "KO", None, "KO")
    state = play(state, "2C")
    assert legal_cards(state) == ["JO"]
    state = play(state, "JO")
    assert legal_cards(state) == sorted(hands[4])
    state = play(state, "7E")
    assert legal_cards(state) == sorted(hands[5])
    state = play(state, "1B")
    trick = tricks(state)[-1]
    assert trick["cards"] == ["QB", "4E", "2C", "JO", "7E", "1B"]
    assert trick["winner"] == 0  # QB > JO > 2C (the Mala) at 6 players


def test_3_twelve_players_vira_oros_two_of_oros_above_the_rey() -> None:
    # 12 players, vira 3O: 1O 2O 5O 3B QB JO KO QO 7O 6O 4O 3O.  No separate Mala: 2O is
    # the fixed trump, far above KO.  Copas led; the holders of copas must follow it even
    # when they hold the stronger trumps.
    hands = {
        0: ["KC", "1E", "2E"],
        1: ["2O", "3E", "4E"],
        2: ["KO", "5E", "6E"],
        3: ["QC", "1O", "7E"],
        4: ["JC", "5O", "JE"],
        5: ["1C", "3B", "QE"],
        6: ["7C", "QB", "KE"],
        7: ["6C", "JO", "1B"],
        8: ["5C", "QO", "2B"],
        9: ["4C", "7O", "4B"],
        10: ["3C", "6O", "5B"],
        11: ["2C", "4O", "6B"],
    }
    state = start(12, hands, "3O", stock=["7B", "JB", "KB"])
    assert state.stock() == ["7B", "JB", "KB"]
    state = play(state, "KC")
    assert legal_cards(state) == sorted(hands[1])  # void in copas
    state = play(state, "2O KO")
    assert legal_cards(state) == ["QC"]  # 1O may not replace the copas held
    assert_rejected(state, "1O", None, "1O")
    state = play(state, "QC JC 1C 7C 6C 5C 4C 3C 2C")
    trick = tricks(state)[-1]
    assert trick["winner"] == 1
    assert trick["cards"][:3] == ["KC", "2O", "KO"]


def test_3_ten_players_vira_oros_king_right_under_the_perica() -> None:
    # 10 players, vira 3O: 2O 5O 3B QB JO KO QO 1O 7O 6O 4O 3O.  Trump led KO; JO wins
    # over KO and QO, and the 2O holder (top trump alone) may keep it.
    plain = [c for c in ALL_CARDS if c[-1] in "CE"]
    hands = {0: ["KO"], 1: ["2O"], 2: ["QO"], 3: ["JO"]}
    stock = ["5O", "3B", "QB", "1O", "7O", "6O", "4O"]
    state = start(10, hands, "3O", stock=stock, fill=plain)
    state = play(state, "KO")
    assert legal_cards(state) == sorted(state.hand(1))  # exempt: 2O is top at 10
    plain_1 = sorted(c for c in state.hand(1) if c != "2O")[0]
    state = play(state, [plain_1])
    assert legal_cards(state) == ["QO"]
    state = play(state, "QO JO")
    for _ in range(4, 10):  # nobody else holds a trump: their first card
        state = play(state, [state.hand(state.to_act)[0]])
    trick = tricks(state)[-1]
    assert trick["winner"] == 3
    assert trick["cards"][:4] == ["KO", plain_1, "QO", "JO"]


def test_3_six_players_vira_bastos_3B_and_QB_only_at_their_fixed_places() -> None:
    # 6 players, vira 4B: 3B QB JO 2B KB JB 1B 7B 6B 5B 4B.  The caballo QB is not
    # between KB and JB; 2B (Mala) beats KB; QB beats the Mala.
    hands = {
        0: ["2B", "5B", "KO"],
        1: ["KB", "7B", "3E"],
        2: ["JB", "QB", "4E"],
        3: ["1E", "5E", "6E"],
        4: ["1B", "6B", "7E"],
        5: ["2E", "JE", "QE"],
    }
    state = start(6, hands, "4B", stock=["3B", "JO"])
    state = play(state, "2B")
    assert legal_cards(state) == ["7B", "KB"]
    state = play(state, "KB")
    assert legal_cards(state) == ["JB", "QB"]
    state = play(state, "JB 1E 1B 2E")
    assert tricks(state)[-1]["winner"] == 0  # 2B > KB > JB > 1B
    state = play(state, "5B 7B QB 5E 6B")
    assert not state.hand_over
    state = play(state, "JE")
    _, second = tricks(state)
    assert second["cards"] == ["5B", "7B", "QB", "5E", "6B", "JE"]
    assert second["winner"] == 2  # QB, a trump at its fixed place, wins
    assert state.hand_over and state.scores == [2, 0]


# -- §7 following ------------------------------------------------------------------------


def four_player_trick_start(vira: str = "5C", **options: Any) -> Any:
    # 4 players, vira 5C: trumps 2C KC QC JC 1C 7C 6C 4C 3C.
    hands = {
        0: ["4E", "KC", "2B"],
        1: ["KE", "2E", "KO"],  # holds espadas: must follow, any of them
        2: ["1C", "3E", "4O"],  # holds a trump and one espada: must play the espada
        3: ["QC", "5O", "6O"],  # void in espadas: anything, no duty to trump
    }
    return start(4, hands, vira, **options)


def test_7_plain_lead_must_be_followed_with_any_card_of_that_suit() -> None:
    state = play(four_player_trick_start(), "4E")
    assert legal_cards(state) == ["2E", "KE"]
    assert_rejected(state, "KO", None, "KO")
    state = play(state, "2E")  # lower than the 4E led: no duty to beat
    assert legal_cards(state) == ["3E"]
    assert_rejected(state, "1C", None, "1C")  # no trumping while holding the suit
    state = play(state, "3E")
    assert legal_cards(state) == ["5O", "6O", "QC"]  # void: anything, no duty to trump
    state = play(state, "5O")
    trick = tricks(state)[-1]
    assert trick["cards"] == ["4E", "2E", "3E", "5O"]
    assert trick["winner"] == 0  # highest espada; the off-suit 5O cannot win


def test_7_void_hand_may_trump_and_the_next_need_not_overtrump() -> None:
    hands = {
        0: ["KE", "4B", "2B"],
        1: ["KC", "4O", "5B"],  # void in espadas: trumps with KC
        2: ["2C", "3C", "6O"],  # void: may play 3C under KC, or the 6O; no overtrump
        3: ["JE", "7O", "6B"],
    }
    state = start(4, hands, "5C")
    state = play(state, "KE KC")
    assert legal_cards(state) == ["2C", "3C", "6O"]
    under = play(state, "3C JE")
    assert tricks(under)[-1]["winner"] == 1
    discard = play(state, "6O JE")
    assert tricks(discard)[-1]["winner"] == 1
    over = play(state, "2C JE")
    assert tricks(over)[-1]["winner"] == 2  # the Mala beats the rey of the vira suit


def test_7_trump_lead_any_trump_no_duty_to_beat() -> None:
    hands = {
        0: ["QC", "4B", "2B"],
        1: ["1C", "3C", "4E"],  # two trumps: either, even below the QC led
        2: ["KO", "KE", "KB"],  # no trump: anything
        3: ["2C", "6O", "7O"],  # only the top trump (the Mala): exempt
    }
    state = start(4, hands, "5C")
    state = play(state, "QC")
    assert legal_cards(state) == ["1C", "3C"]
    assert_rejected(state, "4E", None, "4E")
    state = play(state, "3C")
    assert legal_cards(state) == ["KB", "KE", "KO"]
    state = play(state, "KO")
    assert legal_cards(state) == ["2C", "6O", "7O"]
    keeps = play(state, "6O")
    assert tricks(keeps)[-1]["winner"] == 0
    assert tricks(keeps)[-1]["cards"] == ["QC", "3C", "KO", "6O"]
    spends = play(state, "2C")
    assert tricks(spends)[-1]["winner"] == 3


def test_7_top_trump_with_another_trump_must_play_a_trump() -> None:
    hands = {0: ["QC", "4B", "2B"], 1: ["2C", "3C", "4E"]}
    state = start(4, hands, "5C", fill=["KO", "KE", "KB", "6O", "7O", "6E"])
    state = play(state, "QC")
    assert legal_cards(state) == ["2C", "3C"]
    assert_rejected(state, "4E", None, "4E")
    assert play(state, "2C").hand(1) == ["3C", "4E"]  # either trump is accepted
    assert play(state, "3C").hand(1) == ["2C", "4E"]


@pytest.mark.parametrize("row", ROWS, ids=ROW_IDS)
def test_7_only_the_top_trump_is_exempt(row: list[str]) -> None:
    """§7 and §3.6 for every player count and vira suit: the holder of only the top
    trump may play anything; the holder of only the second trump must play it; the
    holder of the top and another trump must play one of them."""
    n, order = int(row[0]), row[2:]
    vira = order[-1]
    top, second, lead, other = order[0], order[1], order[2], order[4]
    trumps = set(order)
    fill = [c for c in ALL_CARDS if c not in trumps]
    # Scenario A: seat 1 holds only the top trump, seat 2 only the second.
    state = start(n, {0: [lead], 1: [top], 2: [second]}, vira, fill=fill)
    state = play(state, [lead])
    hand_1 = state.hand(1)
    assert legal_cards(state) == sorted(hand_1)
    plain_1 = next(c for c in hand_1 if c != top)
    for card in (plain_1, top):
        after = play(state, [card])
        assert legal_cards(after) == [second]
        plain_2 = next(c for c in after.hand(2) if c != second)
        assert_rejected(after, plain_2, None, plain_2)
    # Scenario B: seat 1 holds the top trump and another trump.
    state = start(n, {0: [lead], 1: [top, other]}, vira, fill=fill)
    state = play(state, [lead])
    assert legal_cards(state) == sorted([top, other])
    plain_1 = next(c for c in state.hand(1) if c not in (top, other))
    assert_rejected(state, plain_1, None, plain_1)


@pytest.mark.parametrize(
    ("players", "vira"), [(4, "2C"), (6, "3B"), (8, "5O"), (10, "2O"), (12, "1O")]
)
def test_7_no_exemption_when_the_top_trump_is_the_vira(players: int, vira: str) -> None:
    # §3.6: the top trump is turned up; the next trump does not inherit the exemption
    # (4 players, vira 2C: the KC holder must answer the arrastre).
    order = hierarchy_of(players, vira[-1])
    assert order[0] == vira
    best, lead = order[1], order[3]
    fill = [c for c in ALL_CARDS if c not in order]
    state = start(players, {0: [lead], 1: [best]}, vira, fill=fill)
    state = play(state, [lead])
    assert legal_cards(state) == [best]
    plain = next(c for c in state.hand(1) if c != best)
    assert_rejected(state, plain, None, plain)


def test_7_exemption_4_players_vira_2C_example() -> None:
    hands = {0: ["1C", "4B", "2B"], 1: ["KC", "4E", "6O"]}
    state = start(4, hands, "2C", fill=["KO", "KE", "KB", "6E", "7O", "7E"])
    state = play(state, "1C")
    assert legal_cards(state) == ["KC"]
    assert_rejected(state, "4E", None, "4E")


def test_7_trump_leads_only_frees_plain_leads() -> None:
    state = play(four_player_trick_start(follow_rule="trump_leads_only"), "4E")
    assert legal_cards(state) == ["2E", "KE", "KO"]
    state = play(state, "KO")
    assert legal_cards(state) == ["1C", "3E", "4O"]
    state = play(state, "4O 5O")
    trick = tricks(state)[-1]
    assert trick["cards"] == ["4E", "KO", "4O", "5O"]
    assert trick["winner"] == 0  # no trump, highest espada


def test_7_trump_leads_only_still_binds_trump_leads() -> None:
    hands = {
        0: ["QC", "4B", "2B"],
        1: ["1C", "4E", "4O"],
        2: ["KO", "KE", "KB"],
        3: ["2C", "6O", "7O"],
    }
    state = start(4, hands, "5C", follow_rule="trump_leads_only")
    state = play(state, "QC")
    assert legal_cards(state) == ["1C"]
    assert_rejected(state, "4E", None, "4E")
    state = play(state, "1C KO")
    assert legal_cards(state) == ["2C", "6O", "7O"]  # the exemption holds too


def test_7_default_follow_rule_is_all_suits() -> None:
    game = mazo.load_game("envite", players=4)
    assert game.options["follow_rule"] == "all_suits"
    with pytest.raises(mazo.RulesError):
        mazo.load_game("envite", players=4, follow_rule="never")


# -- §8 trick resolution and the end of the deal ----------------------------------------


@pytest.mark.parametrize(
    "i", range(9), ids=[f"{a}>{b}" for a, b in zip("KQJ176543", "QJ1765432", strict=True)]
)
def test_8_plain_suit_order(i: int) -> None:
    # §3.4: K > Q > J > 1 > 7 > 6 > 5 > 4 > 3 > 2 within a plain suit; an off-suit king
    # never wins.  4 players, vira copas, espadas led.
    stronger, weaker = PLAIN_ORDER[i] + "E", PLAIN_ORDER[i + 1] + "E"
    for first, second in ((weaker, stronger), (stronger, weaker)):
        hands = {
            0: [first, "1O", "2O"],
            1: [second, "3O", "4O"],
            2: ["KO", "5O", "6O"],
            3: ["KB", "7O", "JO"],
        }
        state = start(4, hands, "5C")
        state = play(state, [first, second, "KO", "KB"])
        trick = tricks(state)[-1]
        assert trick["cards"] == [first, second, "KO", "KB"]
        assert trick["winner"] == (0 if first == stronger else 1)


# 4 players, dealer 3, vira 5C.  Trick 1: KE QE 2C JE -> seat 2 (the Mala).
# Trick 2: seat 2 leads 4O; 6O 1O 3O -> seat 0 (1O above 6O, 4O, 3O).
TWO_NIL_HANDS = {
    0: ["KE", "1O", "2B"],
    1: ["QE", "3O", "4B"],
    2: ["2C", "4O", "5B"],
    3: ["JE", "6O", "6B"],
}
TWO_NIL_CARDS = ["KE", "QE", "2C", "JE", "4O", "6O", "1O", "3O"]


def two_nil_deal() -> tuple[Any, list[str]]:
    return start(4, TWO_NIL_HANDS, "5C", dealer=3), list(TWO_NIL_CARDS)


def test_8_deal_ends_after_the_first_two_tricks_of_one_team() -> None:
    state, cards = two_nil_deal()
    state = play(state, cards[:4])
    assert tricks(state)[-1]["winner"] == 2
    assert state.to_act == 2  # the trick winner leads
    assert state.tricks_won == [1, 0]
    state = play(state, cards[4:7])
    assert not state.hand_over and state.deal_number == 1
    before = state
    state = play(state, cards[7:])
    assert tricks(state)[-1]["winner"] == 0
    assert tricks(state)[-1]["leader"] == 2
    assert state.hand_over
    assert state.scores == [2, 0]
    assert state.games == [0, 0]
    # The third trick is not played: a new deal is dealt, by the next dealer.
    assert state.deal_number == 2
    assert state.phase == "play"
    assert state.observation(None)["dealer"] == 0
    assert state.to_act == 1
    assert state.tricks_won == [0, 0]
    assert state.observation(None)["hand_sizes"] == [3, 3, 3, 3]
    assert state.observation(None)["trick"] == []
    deal_1 = deal_events(state, 1)
    assert [e["card"] for e in deal_1 if e["type"] == "play"] == cards
    assert [e["winner"] for e in deal_1 if e["type"] == "trick"] == [2, 0]
    end = [e for e in deal_1 if e["type"] == "hand_end"]
    assert len(end) == 1
    assert end[0]["points"] == [2, 0]
    assert end[0]["detail"]["tricks_won"] == [2, 0]
    assert end[0]["detail"]["scores"] == [2, 0]
    assert before.scores == [0, 0]
    # hand_over marks only the state whose action ended the deal.
    assert not state.apply(state.legal_actions()[0]).hand_over


def test_8_one_trick_each_then_the_third_decides() -> None:
    # 4 players, dealer 3, vira 5C.
    hands = {
        0: ["KE", "3O", "2B"],
        1: ["1C", "4O", "4B"],
        2: ["QE", "KO", "5B"],
        3: ["JE", "6O", "6B"],
    }
    state = start(4, hands, "5C", dealer=3)
    state = play(state, "KE 1C QE JE")  # seat 1 trumps (void in espadas)
    assert tricks(state)[-1]["winner"] == 1 and state.to_act == 1
    state = play(state, "4O KO 6O 3O")
    assert tricks(state)[-1]["winner"] == 2 and state.to_act == 2
    assert state.tricks_won == [1, 1]
    assert not state.hand_over
    state = play(state, "5B 6B 2B")
    assert not state.hand_over
    state = play(state, "4B")
    assert tricks(state)[-1]["cards"] == ["5B", "6B", "2B", "4B"]
    assert tricks(state)[-1]["winner"] == 3  # 6B: the highest bastos
    assert state.hand_over
    assert state.scores == [0, 2]
    assert state.deal_number == 2
    end = next(e for e in state.events if e["type"] == "hand_end")
    assert end["detail"]["tricks_won"] == [1, 2]
    assert end["points"] == [0, 2]


def test_8_trump_beats_higher_led_cards_and_winner_leads() -> None:
    # Eight players, vira 4C: trick 1 plain lead won by the lone low trump 3C; the winner
    # leads trick 2.
    hands = {
        0: ["KE", "1O", "2O"],
        1: ["QE", "3O", "4O"],
        2: ["JE", "6O", "7O"],
        3: ["3C", "QO", "KO"],  # void in espadas: trumps with the weakest trump
        4: ["1E", "1B", "2B"],
        5: ["7E", "4B", "5B"],
        6: ["6E", "6B", "7B"],
        7: ["5E", "JB", "KB"],
    }
    state = start(8, hands, "4C")
    state = play(state, "KE QE JE 3C 1E 7E 6E 5E")
    assert tricks(state)[-1]["winner"] == 3
    assert state.to_act == 3
    assert state.observation(None)["trick"] == []
    assert state.observation(None)["tricks"][-1]["winner"] == 3


# -- turns and messages ----------------------------------------------------------------


def test_out_of_turn_card_is_refused() -> None:
    state, _ = two_nil_deal()
    assert state.to_act == 0
    assert_rejected(state, "QE", 1, "turn")  # seat 1's own card, not its turn
    assert_rejected(state, "KE", 1, "turn")  # the card of the seat to play, wrong seat
    assert_rejected(state, "QE", None, "QE")  # seat 0 does not hold QE
    state = play(state, "KE")
    assert_rejected(state, "2C", 2, "turn")
    assert_rejected(state, "KE", None, "KE")  # already played


def test_messages_never_change_whose_turn_it_is() -> None:
    state, _ = two_nil_deal()
    for seat, message in [(2, "signal mala"), (1, "consult accept"), (0, "signal top_trump")]:
        legal_before = legal_cards(state)
        assert state.string_to_action(message) in state.legal_actions(seat)
        state = state.apply(message, seat=seat)
        assert state.to_act == 0
        assert legal_cards(state) == legal_before
        assert state.phase == "play"
    state = play(state, "KE")
    state = state.apply("consult accept", seat=3)
    state = state.apply("signal mala", seat=1)  # the seat to play sends a message
    assert state.to_act == 1
    state = play(state, "QE")
    assert state.to_act == 2
    signal = next(e for e in state.events if e["type"] == "signal")
    assert signal == {"type": "signal", "seat": 2, "team": 0, "kind": "mala", "audience": [0, 2]}
    # §14.2 signals = team: the opponents do not see it.
    assert all(m["seat"] != 2 for m in state.observation(1)["messages"])
    assert any(m["seat"] == 2 for m in state.observation(0)["messages"])


def test_messages_keep_the_turn_while_a_proposal_waits() -> None:
    # §6: an out-of-turn envío hands the turn to the answering team; messages do not
    # move it, and no card may be played until the proposal is answered.
    state, _ = two_nil_deal()
    state = state.apply("envio", seat=1)
    assert state.phase == "bet_pending"
    waiting = state.to_act
    assert waiting is not None and waiting % 2 == 0  # team 0 answers team 1's proposal
    for seat, message in [(0, "consult accept"), (2, "consult fold"), (3, "signal mala")]:
        state = state.apply(message, seat=seat)
        assert state.to_act == waiting
        assert state.phase == "bet_pending"
    assert_rejected(state, "KE", 0, "proposal")
    state = state.apply("accept", seat=2)
    assert state.phase == "play" and state.to_act == 0
    assert state.bet_level == 1


# -- action strings ------------------------------------------------------------------------

ACTION_STRINGS = (
    ALL_CARDS
    + ["envio", "accept", "fold", "raise", "tumbo_play", "tumbo_decline"]
    + [
        "signal " + k
        for k in (
            "top_trump",
            "mala",
            "rey_of_vira",
            "perica",
            "caballo_de_bastos",
            "tres_de_bastos",
            "cinco_de_oros",
            "dos_de_oros",
            "as_de_oros",
            "small_trumps",
            "no_trump",
            "three_trumps",
            "want_envio",
        )
    ]
    + ["consult " + k for k in ("propose", "accept", "fold", "raise", "play_on")]
)


def test_action_layout_round_trips_every_id() -> None:
    game = mazo.load_game("envite", players=6)
    state = game.new_match(seed=1)
    assert len(ACTION_STRINGS) == 64
    for action, text in enumerate(ACTION_STRINGS):
        assert game.action_to_string(action) == text
        assert game.string_to_action(text) == action
        assert state.action_to_string(action) == text
        assert state.string_to_action(text) == action
    assert game.string_to_action("7O") == 6  # the docstring's example
    assert game.string_to_action("envido") == 40  # the Tenerife name (§15)
    assert game.string_to_action("  ENVIO ") == 40
    assert game.string_to_action("7o") == 6
    assert game.string_to_action("Signal Mala") == 47


@pytest.mark.parametrize(
    "text", ["8O", "10C", "XX", "", "envio now", "envidar", "signal", "signal banana", "consult"]
)
def test_bad_action_strings_raise_invalid_action(text: str) -> None:
    game = mazo.load_game("envite", players=4)
    state = game.new_match(seed=2)
    with pytest.raises(InvalidActionError) as err:
        game.string_to_action(text)
    assert str(err.value)
    with pytest.raises(InvalidActionError):
        state.apply(text)


def test_bad_action_ids_raise_invalid_action() -> None:
    game = mazo.load_game("envite", players=4)
    for bad in (-1, 64, 1000):
        with pytest.raises(InvalidActionError, match=r"0\.\.63"):
            game.action_to_string(bad)
    state = game.new_match(seed=2)
    with pytest.raises(InvalidActionError):
        state.apply(64)


def test_bad_signal_word_lists_the_vocabulary() -> None:
    game = mazo.load_game("envite", players=4)
    with pytest.raises(InvalidActionError) as err:
        game.string_to_action("signal banana")
    assert "mala" in str(err.value) and "banana" in str(err.value)
    with pytest.raises(InvalidActionError) as err:
        game.string_to_action("consult maybe")
    assert "play_on" in str(err.value)


# -- §14 observation --------------------------------------------------------------------


def test_14_observation_mid_deal() -> None:
    hands = {
        0: ["KE", "3O", "2B"],
        1: ["1C", "4O", "4B"],
        2: ["QE", "KO", "5B"],
        3: ["JE", "6O", "6B"],
    }
    state = start(4, hands, "5C", dealer=3)
    state = play(state, "KE 1C QE JE 4O KO")
    obs = state.observation(3)
    assert obs["seat"] == 3 and obs["team"] == 1
    assert sorted(obs["hand"]) == ["6B", "6O"]
    assert obs["hand_sizes"] == [2, 1, 1, 2]
    assert obs["trick"] == [{"seat": 1, "card": "4O"}, {"seat": 2, "card": "KO"}]
    assert obs["tricks"] == [
        {"leader": 0, "cards": ["KE", "1C", "QE", "JE"], "winner": 1, "team": 1}
    ]
    assert obs["tricks_won"] == [0, 1]
    assert obs["vira"] == "5C" and obs["trump_suit"] == "C"
    assert obs["dealer"] == 3 and obs["eldest"] == 0
    assert obs["to_act"] == 3
    assert [a for a in obs["legal_actions"] if a in ALL_CARDS] == ["6O"]
    # Not seat 0's turn: its legal actions name no card.
    assert not [a for a in state.observation(0)["legal_actions"] if a in ALL_CARDS]
    for seat in range(4):
        others = {c for s in range(4) if s != seat for c in state.hand(s)}
        seen = strings_in(state.observation(seat))
        assert sorted(state.observation(seat)["hand"]) == sorted(state.hand(seat))
        assert not seen & others, (seat, seen & others)
        assert not seen & set(state.stock())


def test_14_spectator_view() -> None:
    state, cards = two_nil_deal()
    state = play(state, cards[:5])
    spectator = state.observation(None)
    assert spectator["seat"] is None
    assert spectator["hand"] == []
    assert spectator["legal_actions"] == []
    assert spectator["trick"] == [{"seat": 2, "card": "4O"}]
    assert spectator["hand_sizes"] == [2, 2, 1, 2]
    assert spectator["vira"] == "5C"
    hidden = {c for s in range(4) for c in state.hand(s)} | set(state.stock())
    assert not strings_in(spectator) & hidden


def unplayed_after_two_nil(reveal: bool) -> tuple[Any, dict[int, str]]:
    # The second deal's pack keeps the first deal's leftovers at its very bottom, so no
    # seat may legitimately see them in deal 2.
    left = {0: "2B", 1: "4B", 2: "5B", 3: "6B"}
    pack_2 = [c for c in ALL_CARDS if c not in left.values()] + list(left.values())
    game = mazo.load_game("envite", players=4, reveal_at_deal_end=reveal)
    first = build_deck(4, 3, TWO_NIL_HANDS, "5C")
    state = game.new_match(decks=[first, pack_2], dealer=3)
    state = play(state, TWO_NIL_CARDS)
    assert state.hand_over and state.deal_number == 2
    return state, left


def test_14_unplayed_cards_stay_hidden_after_the_deal() -> None:
    state, left = unplayed_after_two_nil(reveal=False)
    for seat in range(4):
        seen = strings_in(state.observation(seat))
        hidden = {card for s, card in left.items() if s != seat}
        assert not seen & hidden, (seat, seen & hidden)
    assert not strings_in(state.observation(None)) & set(left.values())
    assert not strings_in(state.events) & set(left.values())
    assert "revealed" not in state.observation(None)["last_deal"]["detail"]


def test_14_reveal_at_deal_end_option_shows_them() -> None:
    # The control for the test above: with the option on, the same leftovers are named.
    state, left = unplayed_after_two_nil(reveal=True)
    assert set(left.values()) <= strings_in(state.observation(None))
    revealed = state.observation(1)["last_deal"]["detail"]["revealed"]
    assert revealed == [["2B"], ["4B"], ["5B"], ["6B"]]


# -- records ------------------------------------------------------------------------------


def test_record_replay_reproduces_a_scripted_deal() -> None:
    state, cards = two_nil_deal()
    state = state.apply("signal mala", seat=2)
    state = play(state, cards[:3])
    state = state.apply("consult play_on", seat=1)
    state = play(state, cards[3:])
    state = play(state, [state.hand(1)[0]])  # one card into deal 2
    record = json.loads(json.dumps(state.record()))
    again = mazo.replay(record)
    assert again == state
    assert again.events == state.events
    assert again.record() == state.record()
    for seat in [*range(4), None]:
        assert again.observation(seat) == state.observation(seat)
    actions = [(a["seat"], a["action"]) for a in record["actions"]]
    assert actions[:4] == [(2, "signal mala"), (0, "KE"), (1, "QE"), (2, "2C")]
    assert (1, "consult play_on") in actions
    # A record edited into an illegal play is refused on replay.
    record["actions"][2]["action"] = "3O"  # seat 1 holds QE: espadas must be followed
    with pytest.raises(IllegalActionError):
        mazo.replay(record)
