"""Envite Canario's card layer, from rules/envite-canario.md §3, §7 and §8.

The hierarchy table is §3.3 written out card by card, so any drift from the rules file
shows here.
"""

from __future__ import annotations

import pytest

from mazo.core.cards import LATIN_40
from mazo.games.envite import (
    hierarchy,
    legal_cards,
    plain_order,
    top_trump,
    trick_winner,
    trump_mask,
)

SUIT = {"O": 0, "C": 1, "E": 2, "B": 3}

# §3.3, copied row by row: (players, vira suit) -> trump hierarchy, strongest first.
TABLE_3_3 = """
4 O 2O KO QO JO 1O 7O 6O 5O 4O 3O
4 C 2C KC QC JC 1C 7C 6C 5C 4C 3C
4 E 2E KE QE JE 1E 7E 6E 5E 4E 3E
4 B 2B KB QB JB 1B 7B 6B 5B 4B 3B
6 O 3B QB JO 2O KO QO 1O 7O 6O 5O 4O 3O
6 C 3B QB JO 2C KC QC JC 1C 7C 6C 5C 4C 3C
6 E 3B QB JO 2E KE QE JE 1E 7E 6E 5E 4E 3E
6 B 3B QB JO 2B KB JB 1B 7B 6B 5B 4B
8 O 5O 3B QB JO 2O KO QO 1O 7O 6O 4O 3O
8 C 5O 3B QB JO 2C KC QC JC 1C 7C 6C 5C 4C 3C
8 E 5O 3B QB JO 2E KE QE JE 1E 7E 6E 5E 4E 3E
8 B 5O 3B QB JO 2B KB JB 1B 7B 6B 5B 4B
10 O 2O 5O 3B QB JO KO QO 1O 7O 6O 4O 3O
10 C 2O 5O 3B QB JO 2C KC QC JC 1C 7C 6C 5C 4C 3C
10 E 2O 5O 3B QB JO 2E KE QE JE 1E 7E 6E 5E 4E 3E
10 B 2O 5O 3B QB JO 2B KB JB 1B 7B 6B 5B 4B
12 O 1O 2O 5O 3B QB JO KO QO 7O 6O 4O 3O
12 C 1O 2O 5O 3B QB JO 2C KC QC JC 1C 7C 6C 5C 4C 3C
12 E 1O 2O 5O 3B QB JO 2E KE QE JE 1E 7E 6E 5E 4E 3E
12 B 1O 2O 5O 3B QB JO 2B KB JB 1B 7B 6B 5B 4B
"""
ROWS = [line.split() for line in TABLE_3_3.strip().splitlines()]


def ids(codes: str) -> tuple[int, ...]:
    return tuple(LATIN_40.parse(c) for c in codes.split())


def mask(codes: str) -> int:
    out = 0
    for c in ids(codes):
        out |= 1 << c
    return out


def codes(cards: tuple[int, ...]) -> list[str]:
    return [LATIN_40.format(c) for c in cards]


@pytest.mark.parametrize("row", ROWS, ids=[f"{r[0]}p-vira-{r[1]}" for r in ROWS])
def test_hierarchy_is_the_table_of_3_3(row: list[str]) -> None:
    n, vira, expected = int(row[0]), SUIT[row[1]], row[2:]
    assert codes(hierarchy(n, vira)) == expected
    assert trump_mask(n, vira) == mask(" ".join(expected))
    assert codes((top_trump(n, vira),)) == expected[:1]


def test_no_separate_mala_with_10_or_12_and_vira_oros() -> None:
    # §3.3: the 2O is already a fixed trump, so it sits only at its fixed place.
    for n in (10, 12):
        order = codes(hierarchy(n, SUIT["O"]))
        assert order.count("2O") == 1
        assert order.index("2O") < order.index("JO")


def test_top_trumps_per_player_count() -> None:
    # §3.6: the Mala for 4 players; 3B for 6; 5O for 8; 2O for 10; 1O for 12.
    assert codes((top_trump(4, SUIT["C"]),)) == ["2C"]
    assert [codes((top_trump(n, SUIT["E"]),))[0] for n in (6, 8, 10, 12)] == [
        "3B",
        "5O",
        "2O",
        "1O",
    ]


def test_plain_order_drops_fixed_trumps() -> None:
    # §3.4's example: 6 players, vira copas, bastos as a plain suit.
    assert codes(plain_order(6, SUIT["C"], SUIT["B"])) == [
        "KB",
        "JB",
        "1B",
        "7B",
        "6B",
        "5B",
        "4B",
        "2B",
    ]
    assert codes(plain_order(4, SUIT["C"], SUIT["O"])) == [
        "KO",
        "QO",
        "JO",
        "1O",
        "7O",
        "6O",
        "5O",
        "4O",
        "3O",
        "2O",
    ]
    # 8 players: 5O and JO are trumps, so oros as a plain suit lacks them.
    assert codes(plain_order(8, SUIT["E"], SUIT["O"])) == [
        "KO",
        "QO",
        "1O",
        "7O",
        "6O",
        "4O",
        "3O",
        "2O",
    ]
    assert plain_order(8, SUIT["E"], SUIT["E"]) == ()


def test_leader_may_play_anything() -> None:
    hand = mask("KO 3B 2C")
    assert legal_cards(hand, (), 6, SUIT["C"]) == hand


def test_plain_suit_led_must_be_followed_with_a_plain_card() -> None:
    # 6 players, vira copas: bastos led; QB is a fixed trump and does not follow bastos.
    trick = ids("KB")
    assert legal_cards(mask("4B QB 2O"), trick, 6, SUIT["C"]) == mask("4B")
    # Void in plain bastos (QB is a trump): anything may be played.
    assert legal_cards(mask("QB 2O 5C"), trick, 6, SUIT["C"]) == mask("QB 2O 5C")


def test_trump_led_must_be_answered_with_a_trump_any_trump() -> None:
    # 8 players, vira espadas: the Perica JO led is a trump (the arrastre).
    trick = ids("JO")
    assert legal_cards(mask("4E 2E KO 7C"), trick, 8, SUIT["E"]) == mask("4E 2E")
    # No trump: anything.
    assert legal_cards(mask("KO 7C 1B"), trick, 8, SUIT["E"]) == mask("KO 7C 1B")


def test_top_trump_alone_is_exempt() -> None:
    # 8 players: the top trump is 5O.  Holding only it, a player may play anything.
    trick = ids("3E")
    assert legal_cards(mask("5O KC 7B"), trick, 8, SUIT["E"]) == mask("5O KC 7B")
    # With another trump too, a trump must be played (either one).
    assert legal_cards(mask("5O 4E KC"), trick, 8, SUIT["E"]) == mask("5O 4E")


def test_top_trump_turned_as_vira_exempts_nobody() -> None:
    # §3.6: 4 players, vira 2C: the Mala is out of play; the KC does not inherit the exemption.
    trick = ids("3C")
    assert legal_cards(mask("KC 1O 7B"), trick, 4, SUIT["C"]) == mask("KC")


def test_trick_winner() -> None:
    # §8: a trump beats every plain card; the highest trump in the hierarchy wins.
    assert trick_winner(ids("KC 2C JO"), 6, SUIT["O"]) == 2  # the Perica trumps
    assert trick_winner(ids("KC 2C JO 3B"), 6, SUIT["O"]) == 3  # 3B tops the 6p hierarchy
    # No trump: the highest card of the suit led (K > Q > J > 1 > 7 > ... > 2).
    assert trick_winner(ids("1C KC 7C"), 4, SUIT["O"]) == 1
    # Off-suit plain cards never win, however high.
    assert trick_winner(ids("2C KB QE 3C"), 4, SUIT["O"]) == 3
    # Fixed trumps of other suits rank above the vira suit's own cards.
    assert trick_winner(ids("2E 5O"), 8, SUIT["E"]) == 1
    assert trick_winner(ids("QB KB"), 6, SUIT["B"]) == 0  # QB is a fixed trump above KB


@pytest.mark.parametrize("bad", [(5, 0), (4, 4), (3, 1)])
def test_bad_arguments(bad: tuple[int, int]) -> None:
    with pytest.raises(ValueError):
        hierarchy(*bad)
