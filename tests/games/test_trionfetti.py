"""Trionfetti scenario tests, written from ``rules/trionfetti.md`` (sections in the names).

Public API only: ``mazo.load_game("trionfetti", ...)``, ``new_match(deck=/decks=,
dealer=, setup=)``, ``apply``, ``legal_actions``, ``observation``, ``events``,
``events_for``, ``record`` and ``mazo.replay``.  Every expected value is worked out by
hand from the rules file: the preset orders below are transcribed from the §3.3 table
(not taken from the engine), and each deal is a literal pack with literal plays.

Most scenarios use dealer 3, so the eldest (who leads every deal) is seat 0, the cutter
(who chooses the ranking) is seat 2, and deal ``k`` gives seats 0, 1, 2, 3 the packets
``pack[12(k-1) + 3j .. +2]``, j = 0..3 (§5.3).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

import mazo
from mazo import IllegalActionError, RulesError
from mazo.games.trionfetti import PRESETS, parse_ranking

# -- the rules, as tables ---------------------------------------------------------------

SUITS = "OCEB"
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ALL_52 = [r + s for s in SUITS for r in RANKS]
"""The 52-card pack in canonical order (1O 2O ... KO 1C ... KB)."""

PRESET_ORDERS = {
    "piu_ponto_e_piu_figure": "K Q J 10 9 8 7 6 5 4 3 2 1",
    "manco_ponto": "1 2 3 4 5 6 7 8 9 10 J Q K",
    "piu_ponto": "10 9 8 7 6 5 4 3 2 1 K Q J",
    "manco_e_cavalli": "Q 1 2 3 4 5 6 7 8 9 10 J K",
    "bomba": "KE QE JE 3 4 2 1 10 9 8 7 6 5 K(BCO) Q(BCO) J(BCO)",
}
"""§3.3, strongest level first, copied from the rules table."""

DEFAULT = "piu_ponto_e_piu_figure"
DEFAULT_ORDER = PRESET_ORDERS[DEFAULT]
PRESET_IDS = {name: 53 + i for i, name in enumerate(PRESET_ORDERS)}  # module doc layout
KEEP, VEGA, ACCEPT, REFUSE, SHOW_BOTTOM, PEEK, SHOW = 52, 58, 59, 60, 61, 62, 63
MESSAGE_IDS = range(64, 204)  # signal / announce <claim>

CARD_RE = re.compile(r"\b(?:10|[1-9JQK])[OCEB]\b")


def spec_levels(order: str) -> list[tuple[str, frozenset[str]]]:
    """A §3.3 order as levels ``(rank, suits)``: ``K`` all suits, ``KE`` one, ``K(BCO)``."""
    out = []
    for word in order.split():
        if "(" in word:
            rank, suits = word[:-1].split("(")
        elif word[-1] in SUITS and word[:-1] in RANKS:
            rank, suits = word[:-1], word[-1]
        else:
            rank, suits = word, SUITS
        out.append((rank, frozenset(suits)))
    return out


def as_levels(ranking: Sequence[Mapping[str, str]]) -> list[tuple[str, frozenset[str]]]:
    return [(lv["rank"], frozenset(lv["suits"])) for lv in ranking]


def json_levels(order: str) -> list[dict[str, str]]:
    return [
        {"rank": r, "suits": "".join(s for s in SUITS if s in m)} for r, m in spec_levels(order)
    ]


def by_canon(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=ALL_52.index)


# -- helpers ------------------------------------------------------------------------------


def build_pack(
    deals: Sequence[Mapping[int, Sequence[str]]] = (),
    dealer: int = 3,
    bottom: str | None = None,
) -> list[str]:
    """§5.3: ``deals[k-1][seat]`` are the first cards of ``seat``'s packet in deal k
    (packets are completed with unused cards in canonical order); the rest of the pack
    follows in canonical order, ``bottom`` (if given) last."""
    given = [c for hands in deals for cards in hands.values() for c in cards]
    reserved = [*given, *([bottom] if bottom else [])]
    assert len(set(reserved)) == len(reserved), "a card is placed twice"
    filler = iter([c for c in ALL_52 if c not in reserved])
    pack: list[str] = []
    for hands in deals:
        for j in range(4):
            cards = list(hands.get((dealer + 1 + j) % 4, ()))
            assert len(cards) <= 3
            while len(cards) < 3:
                cards.append(next(filler))
            pack += cards
    pack += list(filler)
    if bottom:
        pack.append(bottom)
    assert sorted(pack) == sorted(ALL_52)
    return pack


def load(**options: Any) -> Any:
    return mazo.load_game("trionfetti", **options)


def new(
    pack: list[str] | None = None,
    dealer: int = 3,
    setup: Mapping[str, Any] | None = None,
    decks: list[list[str]] | None = None,
    **options: Any,
) -> Any:
    """A match in the ranking phase of its first smazzata."""
    game = load(**options)
    if decks is not None:
        return game.new_match(decks=decks, dealer=dealer, setup=setup)
    return game.new_match(deck=pack or build_pack(), dealer=dealer, setup=setup)


def start(
    pack: list[str] | None = None,
    ranking: str = "keep",
    dealer: int = 3,
    setup: Mapping[str, Any] | None = None,
    decks: list[list[str]] | None = None,
    **options: Any,
) -> Any:
    """A match in play at deal 1: the cutter chose ``ranking`` (``keep``, ``rank ...``)."""
    state = new(pack, dealer, setup, decks, **options)
    assert state.phase == "ranking"
    return state.apply(ranking)


def play(state: Any, *cards: str) -> Any:
    """Play ``cards`` in order, each by the seat to act."""
    for card in cards:
        assert state.phase == "play", state
        state = state.apply(card)
    return state


def play_out_deal(state: Any) -> Any:
    """Finish the current deal with the canonically lowest card of the seat to act."""
    deal, smazzata = state.deal_in_smazzata, state.observation(None)["smazzata"]
    while not state.match_over and (
        state.deal_in_smazzata == deal and state.observation(None)["smazzata"] == smazzata
    ):
        state = state.apply(by_canon(state.hand(state.to_act))[0])
    return state


def events_of(events: Iterable[Mapping[str, Any]], kind: str) -> list[Mapping[str, Any]]:
    return [e for e in events if e["type"] == kind]


def new_events(before: Any, after: Any) -> list[dict[str, Any]]:
    old = len(before.events)
    assert after.events[:old] == before.events
    return after.events[old:]


def names(state: Any, seat: int) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions(seat)]


def snapshot(state: Any) -> tuple[Any, ...]:
    return (
        state.phase,
        state.to_act,
        state.ranking,
        state.scores,
        state.games,
        state.deal_in_smazzata,
        [state.hand(s) for s in range(4)],
        [state.legal_actions(s) for s in range(4)],
        state.events,
    )


def refused(state: Any, action: Any, seat: int | None = None, match: str | None = None) -> None:
    """``action`` is rejected with a message matching ``match`` and the state unchanged."""
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=match):
        state.apply(action, seat=seat)
    assert snapshot(state) == before


def cards_named(obs: Mapping[str, Any]) -> set[str]:
    """Every card code in an observation (the legal-action strings left out: signal
    claims name cards without revealing anything)."""
    text = json.dumps({k: v for k, v in obs.items() if k != "legal_actions"})
    return set(CARD_RE.findall(text))


def one_trick(ranking: str, cards: Sequence[str], dealer: int = 3) -> Mapping[str, Any]:
    """The trick event after the cutter chose ``ranking`` and the eldest and the next
    seats played ``cards`` in that order."""
    hands = {(dealer + 1 + i) % 4: [c] for i, c in enumerate(cards)}
    state = start(build_pack([hands], dealer), ranking, dealer)
    state = play(state, *cards)
    trick = events_of(state.events, "trick")[-1]
    assert trick["cards"] == list(cards)
    assert trick["leader"] == (dealer + 1) % 4
    return trick


# Three literal deals for dealer 3 (eldest 0), all under the default ranking.
# A: seat 0 wins the first two tricks (KO, then KC); team 0 wins 2-0.
HANDS_A = {
    0: ["KO", "KC", "2O"],
    1: ["3O", "4O", "5O"],
    2: ["6O", "7O", "8O"],
    3: ["9O", "10O", "JO"],
}
PLAY_A = ["KO", "3O", "6O", "9O", "KC", "4O", "7O", "10O"]
# B: seat 1 wins the first two tricks; team 1 wins 2-0 (seat 1 leads trick 2).
HANDS_B = {
    0: ["3O", "4O", "5O"],
    1: ["KO", "KC", "2O"],
    2: ["6O", "7O", "8O"],
    3: ["9O", "10O", "JO"],
}
PLAY_B = ["3O", "KO", "6O", "9O", "KC", "7O", "10O", "4O"]
# C: 2-1.  Trick 1 seat 0 (KO); trick 2 seat 1 (KC over 2O 7O 10O); trick 3 led by
# seat 1: 5O 8O JO 3O, won by seat 3 (J is above 8, 5, 3): team 1 wins 2-1.
HANDS_C = {
    0: ["KO", "2O", "3O"],
    1: ["KC", "4O", "5O"],
    2: ["6O", "7O", "8O"],
    3: ["9O", "10O", "JO"],
}
PLAY_C = ["KO", "4O", "6O", "9O", "2O", "KC", "7O", "10O", "5O", "8O", "JO", "3O"]

PACK_A = build_pack([HANDS_A])
PACK_B = build_pack([HANDS_B])
PACK_C = build_pack([HANDS_C])


# == §3.3 presets ==============================================================================


@pytest.mark.parametrize("name", list(PRESET_ORDERS))
def test_3_3_preset_levels_are_the_rules_table(name: str) -> None:
    state = start(PACK_A, f"rank {name}")
    assert as_levels(state.ranking) == spec_levels(PRESET_ORDERS[name])
    assert state.observation(1)["ranking_name"] == name
    assert as_levels(state.observation(1)["ranking"]) == spec_levels(PRESET_ORDERS[name])
    # parse_ranking and the exported PRESETS agree with the same table
    assert parse_ranking(name) == PRESETS[name]


def test_3_3_bomba_written_out() -> None:
    """The bomba row, card by card: KE > QE > JE > 3 > 4 > 2 > 1 > 10 > ... > 5 >
    K(BCO) > Q(BCO) > J(BCO)."""
    state = start(PACK_A, "rank bomba")
    assert state.ranking[:3] == [
        {"rank": "K", "suits": "E"},
        {"rank": "Q", "suits": "E"},
        {"rank": "J", "suits": "E"},
    ]
    assert [lv["rank"] for lv in state.ranking] == [
        "K", "Q", "J", "3", "4", "2", "1", "10", "9", "8", "7", "6", "5", "K", "Q", "J",
    ]  # fmt: skip
    assert all(set(lv["suits"]) == set(SUITS) for lv in state.ranking[3:13])
    assert all(set(lv["suits"]) == set("BCO") for lv in state.ranking[13:])


def _pair_cases() -> list[tuple[str, str, str, list[str]]]:
    """For every preset and every two adjacent levels: (preset, a card of the stronger
    level, a card of the weaker one, two fillers from the weakest level)."""
    cases = []
    for name, order in PRESET_ORDERS.items():
        levels = spec_levels(order)
        cards = []
        for i, (rank, suits) in enumerate(levels):
            ordered = [s for s in SUITS if s in suits]
            cards.append(rank + ordered[i % len(ordered)])
        weakest_rank, weakest_suits = levels[-1]
        for i in range(len(levels) - 1):
            strong, weak = cards[i], cards[i + 1]
            fillers = [
                weakest_rank + s for s in SUITS if s in weakest_suits and weakest_rank + s != weak
            ][:2]
            cases.append((name, strong, weak, fillers))
    return cases


PAIR_CASES = _pair_cases()


@pytest.mark.parametrize(
    ("name", "strong", "weak", "fillers"),
    PAIR_CASES,
    ids=[f"{n}-{s}>{w}" for n, s, w, _ in PAIR_CASES],
)
def test_3_3_adjacent_levels_decide_tricks(
    name: str, strong: str, weak: str, fillers: list[str]
) -> None:
    """§3.3 + §7: each level beats the next one, whether it is led or played second
    (the fillers are of the weakest level and played after both)."""
    assert one_trick(f"rank {name}", [weak, strong, *fillers])["winner"] == 1
    assert one_trick(f"rank {name}", [strong, weak, *fillers])["winner"] == 0


@pytest.mark.parametrize(
    ("name", "cards", "winner"),
    [
        # default: K > Q > J > 10, suits irrelevant
        (DEFAULT, ["10B", "JE", "QC", "KO"], 3),
        (DEFAULT, ["1O", "2C", "KB", "QE"], 2),
        # manco ponto: the asso is the strongest card, the re the weakest
        ("manco_ponto", ["KO", "QO", "2O", "1B"], 3),
        ("manco_ponto", ["1E", "2E", "KE", "QE"], 0),
        # più ponto: the 10 is top, every numeral beats every figure, J lowest
        ("piu_ponto", ["KO", "QO", "1C", "JB"], 2),
        ("piu_ponto", ["9O", "10C", "KE", "QB"], 1),
        # manco e cavalli: cavalli on top, then the asso, the re at the bottom
        ("manco_e_cavalli", ["1O", "QC", "KE", "JB"], 1),
        ("manco_e_cavalli", ["KO", "JC", "10E", "9B"], 3),
        # bomba: spade figures on top; the 3 beats the 4; other figures at the bottom
        ("bomba", ["3O", "4C", "QE", "KB"], 2),
        ("bomba", ["KC", "5O", "4B", "3E"], 3),
        ("bomba", ["KO", "QB", "JC", "5E"], 3),
        ("bomba", ["JE", "3O", "KB", "KC"], 0),
    ],
)
def test_3_3_four_card_tricks(name: str, cards: list[str], winner: int) -> None:
    assert one_trick(f"rank {name}", cards)["winner"] == winner


def test_3_3_preset_ids_and_strings_are_the_same_action() -> None:
    state = new(PACK_A)
    for name, action in PRESET_IDS.items():
        assert state.action_to_string(action) == f"rank {name}"
        assert state.apply(action) == state.apply(f"rank {name}")
        assert state.apply(action).ranking == state.apply(f"rank {name}").ranking


# == §3.4 who sets the ranking, and when ====================================================


def test_3_4_default_ranking_at_match_start() -> None:
    state = new(PACK_A)
    assert state.phase == "ranking"
    assert as_levels(state.ranking) == spec_levels(PRESET_ORDERS[DEFAULT])
    assert state.observation(None)["ranking_name"] == DEFAULT
    smazzata = events_of(state.events, "smazzata")[0]
    assert smazzata["ranking_name"] == DEFAULT
    # "keep" keeps it: the default order decides the trick (K beats 3)
    kept = state.apply("keep")
    assert as_levels(kept.ranking) == spec_levels(PRESET_ORDERS[DEFAULT])
    assert events_of(kept.events, "ranking")[-1] == {
        "type": "ranking",
        "seat": 2,
        "kept": True,
        "ranking": None,
        "ranking_name": None,
    }
    assert one_trick("keep", ["3O", "KC", "2E", "1B"])["winner"] == 1


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_3_4_only_the_cutter_chooses_before_the_deal(dealer: int) -> None:
    state = new(build_pack(dealer=dealer), dealer=dealer)
    cutter = (dealer + 3) % 4
    assert state.phase == "ranking" and state.to_act == cutter
    assert state.observation(None)["cutter"] == cutter
    assert [state.hand(s) for s in range(4)] == [[], [], [], []]  # nothing dealt yet
    assert names(state, cutter) == ["keep", *(f"rank {n}" for n in PRESET_ORDERS)]
    for seat in range(4):
        if seat == cutter:
            continue
        assert state.legal_actions(seat) == []
        for action in ("keep", "rank bomba", PRESET_IDS["manco_ponto"]):
            refused(state, action, seat, match="cutter")
        refused(state, "rank " + json.dumps(json_levels("1 2 3 4 5 6 7 8 9 10 J Q K")), seat)
    # no card may be played (nor vega called) before the choice
    refused(state, "1O", cutter, match="choose the ranking")
    refused(state, "vega", cutter)
    after = state.apply("rank piu_ponto", seat=cutter)
    assert after.phase == "play" and after.to_act == (dealer + 1) % 4
    assert events_of(after.events, "ranking")[-1]["seat"] == cutter
    assert events_of(after.events, "ranking")[-1]["ranking_name"] == "piu_ponto"


def test_3_4_no_change_during_the_smazzata() -> None:
    state = start(PACK_A, "rank bomba")
    custom = "rank " + json.dumps(json_levels(PRESET_ORDERS[DEFAULT]))
    for step in range(3):
        for seat in range(4):
            for action in ("keep", "rank manco_ponto", PRESET_IDS["piu_ponto"], custom):
                refused(state, action, seat, match="ranking")
            assert not {KEEP, *PRESET_IDS.values()} & set(state.legal_actions(seat))
        state = state.apply(["KO", "3O", "6O"][step])
    state = play_out_deal(state)
    # deal 2 starts straight in play: no new ranking choice inside the smazzata
    assert state.deal_in_smazzata == 2 and state.phase == "play"
    assert as_levels(state.ranking) == spec_levels(PRESET_ORDERS["bomba"])
    refused(state, "rank manco_ponto", 2)


def test_3_4_ranking_survives_the_smazzata_and_the_next_cutter_may_keep_or_change() -> None:
    # smazzata 2 (dealer 0, eldest 1): seat 1 leads KO, seat 2 answers 3O
    pack2 = build_pack([{1: ["KO"], 2: ["3O"], 3: ["2B"], 0: ["1B"]}], dealer=0)
    state = start(decks=[build_pack(), pack2], ranking="rank bomba")
    for _ in range(4):
        state = play_out_deal(state)
    assert state.phase == "ranking"
    assert state.observation(None)["dealer"] == 0 and state.to_act == 3  # new cutter
    assert as_levels(state.ranking) == spec_levels(PRESET_ORDERS["bomba"])
    assert state.legal_actions(2) == []  # last smazzata's cutter has no say now
    refused(state, "rank manco_ponto", 2, match="cutter")
    kept = play(state.apply("keep", seat=3), "KO", "3O", "2B", "1B")
    assert events_of(kept.events, "trick")[-1]["winner"] == 2  # bomba: 3 > K(BCO)
    changed = play(state.apply("rank piu_ponto_e_piu_figure", seat=3), "KO", "3O", "2B", "1B")
    assert events_of(changed.events, "trick")[-1]["winner"] == 1  # default: K > 3


def test_3_4_ranking_survives_a_game_end() -> None:
    pack2 = build_pack([{1: ["KO"], 2: ["3O"], 3: ["2B"], 0: ["1B"]}], dealer=0)
    state = start(
        decks=[PACK_A, pack2],
        ranking="rank bomba",
        setup={"scores": [7, 19], "games": [1, 0]},
    )
    # bomba: KO and KC are of the weakest-but-two level, the O numerals beat them
    state = play(state, "KO", "3O", "6O", "9O")
    assert events_of(state.events, "trick")[-1]["winner"] == 1  # 3O beats KO, 9O, 6O
    state = play(state, "4O", "7O", "10O", "KC")  # 4 > 10 > 7 > K(BCO): seat 1 again
    assert events_of(state.events, "game_end")[-1]["team"] == 1
    assert state.phase == "ranking" and state.games == [1, 1]
    assert as_levels(state.ranking) == spec_levels(PRESET_ORDERS["bomba"])
    state = play(state.apply("keep"), "KO", "3O", "2B", "1B")
    assert events_of(state.events, "trick")[-1]["winner"] == 2


def test_3_4_initial_ranking_option() -> None:
    state = new(PACK_A, initial_ranking="manco_ponto")
    assert as_levels(state.ranking) == spec_levels(PRESET_ORDERS["manco_ponto"])
    custom = json_levels("K 1 2 3 4 5 6 7 8 9 10 J Q")
    state = new(PACK_A, initial_ranking=custom)
    assert as_levels(state.ranking) == spec_levels("K 1 2 3 4 5 6 7 8 9 10 J Q")
    with pytest.raises(RulesError):
        load(initial_ranking="bombastic")
    with pytest.raises(RulesError):
        load(initial_ranking=json_levels("K Q J"))


def test_a_refused_initial_ranking_says_what_is_wrong_with_it() -> None:
    """A custom ranking option that fails §3.2 is refused with the check's reason (the
    cards in no level), the long value shortened so that the reason stays in sight."""
    forty = [
        {"rank": r, "suits": s}
        for r in ["1", "3", "K", "Q", "J", "7", "6", "5", "4", "2"]
        for s in "OCEB"
    ]
    with pytest.raises(RulesError) as err:
        load(initial_ranking=forty)
    text = str(err.value)
    assert "option initial_ranking=" in text
    assert "is not allowed (invalid ranking: cards in no level: 8O 9O 10O ... (12 cards))" in text
    assert "allowed: a preset id (" in text
    assert len(text) < 400, text  # not the whole list of forty levels
    twice = json_levels("K 1 2 3 4 5 6 7 8 9 10 J Q K")
    with pytest.raises(RulesError, match=r"a card in two levels: KO \(levels 1 and 14\)"):
        load(initial_ranking=twice)


# == §3.2 custom rankings =================================================================

SPLIT_KINGS = [
    {"rank": "K", "suits": "E"},
    {"rank": "K", "suits": "B"},
    {"rank": "K", "suits": "C"},
    {"rank": "K", "suits": "O"},
    *json_levels("Q J 10 9 8 7 6 5 4 3 2 1"),
]


def custom(levels: Any) -> str:
    return "rank " + (levels if isinstance(levels, str) else json.dumps(levels))


def test_3_2_custom_ranking_with_suit_specific_levels() -> None:
    state = start(PACK_A, custom(SPLIT_KINGS))
    assert as_levels(state.ranking) == as_levels(SPLIT_KINGS)
    assert len(state.ranking) == 16  # adjacent levels of the same rank are not merged
    assert state.observation(3)["ranking_name"] == "custom"
    event = events_of(state.events, "ranking")[-1]
    assert event["seat"] == 2 and not event["kept"] and event["ranking_name"] == "custom"
    assert as_levels(event["ranking"]) == as_levels(SPLIT_KINGS)


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (["KO", "KC", "KB", "KE"], 3),  # KE > KB > KC > KO
        (["KE", "KB", "KC", "KO"], 0),
        (["KO", "KC", "QE", "1B"], 1),  # KC > KO; every king above the cavalli
        (["KC", "KB", "KO", "QE"], 1),
        (["QE", "KO", "JB", "QB"], 1),  # the weakest king still beats a cavallo
    ],
)
def test_3_2_suit_specific_levels_decide_tricks(cards: list[str], winner: int) -> None:
    assert one_trick(custom(SPLIT_KINGS), cards)["winner"] == winner


def test_3_2_custom_levels_as_strings() -> None:
    """Levels may also be strings such as "K(BCO)" (module doc); bomba written this way
    is the bomba preset."""
    words = ["K(E)", "Q(E)", "J(E)", "3", "4", "2", "1", "10", "9", "8", "7", "6", "5"]
    words += ["K(BCO)", "Q(BCO)", "J(BCO)"]
    state = start(PACK_A, custom(words))
    assert as_levels(state.ranking) == spec_levels(PRESET_ORDERS["bomba"])
    assert state.observation(0)["ranking_name"] == "bomba"


def _without(order: str, drop: str) -> list[dict[str, str]]:
    return [lv for lv in json_levels(order) if lv["rank"] != drop]


INVALID_RANKINGS = [
    # §3.2.1: a level holds one rank ("8 and 9 of the same strength" is forbidden)
    pytest.param(
        [*_without(DEFAULT_ORDER, "8"), {"rank": "8 9"}],
        r"one rank",
        id="two-ranks-in-a-level",
    ),
    pytest.param(
        [*json_levels("K Q J 10"), {"rank": "89"}, *json_levels("7 6 5 4 3 2 1")],
        r"one rank",
        id="two-ranks-glued",
    ),
    # §3.2.2: every card in exactly one level
    pytest.param(_without(DEFAULT_ORDER, "1"), r"no level.*1O", id="rank-missing"),
    pytest.param(
        [*json_levels("K Q J 10 9 8 7 6 5 4 3 2"), {"rank": "1", "suits": "OCB"}],
        r"no level.*1E",
        id="one-card-missing",
    ),
    pytest.param(
        [{"rank": "K", "suits": "E"}, *json_levels(DEFAULT_ORDER)],
        r"two levels.*KE",
        id="card-twice",
    ),
    pytest.param(
        [*json_levels(DEFAULT_ORDER), {"rank": "7", "suits": "O"}],
        r"two levels.*7O",
        id="card-twice-at-the-end",
    ),
    # an unknown rank
    pytest.param([*json_levels(DEFAULT_ORDER), {"rank": "11"}], r"'11'.*one rank", id="rank-11"),
    pytest.param([*json_levels(DEFAULT_ORDER), {"rank": "C", "suits": "O"}], r"'C'", id="rank-C"),
    pytest.param(
        [{"rank": "K", "suits": "X"}, *json_levels("Q J 10 9 8 7 6 5 4 3 2 1")],
        r"suits",
        id="unknown-suit",
    ),
    # §3.2.4: no conditional rules
    pytest.param(
        [
            {"rank": "K", "suits": "OCEB", "unless": "two equal ranks in the trick"},
            *json_levels("Q J 10 9 8 7 6 5 4 3 2 1"),
        ],
        r"may not depend",
        id="conditional-key",
    ),
    pytest.param(
        {"levels": json_levels(DEFAULT_ORDER), "pairs_beat_all": True},
        r"non-empty list",
        id="not-a-list",
    ),
    # empty list, bad JSON
    pytest.param("[]", r"non-empty list", id="empty-list"),
    pytest.param('[{"rank": "K", "suits": "OCEB"', r"neither a preset", id="bad-json"),
    pytest.param("not_a_preset", r"neither a preset", id="unknown-preset"),
]


@pytest.mark.parametrize(("levels", "why"), INVALID_RANKINGS)
def test_3_2_invalid_ranking_is_refused_with_the_reason(levels: Any, why: str) -> None:
    state = new(PACK_A)
    refused(state, custom(levels), 2, match=why)
    refused(state, custom(levels), None, match=why)  # the cutter is to_act
    # refused means nothing happened: the cutter still chooses, the default stands
    assert state.phase == "ranking" and state.to_act == 2
    assert as_levels(state.ranking) == spec_levels(DEFAULT_ORDER)
    assert as_levels(state.apply("keep").ranking) == spec_levels(DEFAULT_ORDER)
    # the same ranking is refused by parse_ranking and as a setup ranking
    with pytest.raises(RulesError):
        parse_ranking(levels)
    with pytest.raises(RulesError):
        load().new_match(deck=PACK_A, dealer=3, setup={"ranking": levels})


# == §7 ties ==============================================================================


@pytest.mark.parametrize(
    ("ranking", "cards", "winner"),
    [
        ("keep", ["7O", "7C", "7E", "7B"], 0),  # four equal cards: the first played
        ("keep", ["2O", "7C", "7E", "7B"], 1),  # the first of the top level
        ("keep", ["2O", "3O", "KC", "KB"], 2),
        ("rank bomba", ["JB", "KC", "KB", "QO"], 1),  # K(BCO) is one level: KC first
        ("rank bomba", ["KO", "KB", "KC", "JB"], 0),
        ("rank bomba", ["KO", "KE", "KC", "KB"], 1),  # KE is a level of its own
        (custom(SPLIT_KINGS), ["QO", "QE", "JB", "QB"], 0),  # the cavalli are one level
        (custom(SPLIT_KINGS), ["1O", "QE", "QO", "KO"], 3),
    ],
)
def test_7_equal_level_first_played_wins(ranking: str, cards: list[str], winner: int) -> None:
    assert one_trick(ranking, cards)["winner"] == winner


SPLIT_PAIRS = [
    {"rank": "K", "suits": "EB"},
    {"rank": "K", "suits": "CO"},
    *json_levels("Q J 10 9 8 7 6 5 4 3 2 1"),
]


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (["KB", "KE", "QO", "QC"], 0),  # KE = KB: the led one wins
        (["KE", "KB", "QO", "QC"], 0),
        (["KC", "KO", "KB", "KE"], 2),  # KB and KE equal and above: KB was first
        (["KO", "KC", "QE", "QB"], 0),
        (["QE", "KC", "KO", "1B"], 1),
    ],
)
def test_7_ties_inside_suit_specific_levels(cards: list[str], winner: int) -> None:
    assert one_trick(custom(SPLIT_PAIRS), cards)["winner"] == winner


def test_7_first_played_means_order_of_play_not_seat_number() -> None:
    # trick 1 won by seat 2 (KE); seat 2 leads 7O, then 7C 7E 7B from seats 3, 0, 1
    hands = {0: ["2O", "7E"], 1: ["3O", "7B"], 2: ["KE", "7O"], 3: ["4O", "7C"]}
    state = start(build_pack([hands]))
    state = play(state, "2O", "3O", "KE", "4O")
    assert state.to_act == 2
    state = play(state, "7O", "7C", "7E", "7B")
    trick = events_of(state.events, "trick")[-1]
    assert trick["leader"] == 2 and trick["winner"] == 2


# == §6 the deal ==========================================================================


def test_6_no_obligation_to_follow_any_card_is_legal() -> None:
    state = start(PACK_A)
    assert state.to_act == 0
    assert set(names(state, 0)) == {"KO", "KC", "2O", "vega"}
    state = state.apply("KO")
    # seat 1 holds three coins; after a coin lead every card is still legal
    assert set(names(state, 1)) == {"3O", "4O", "5O", "vega"}
    hands = {0: ["KO"], 1: ["3O", "KE", "2B"]}
    state = start(build_pack([hands])).apply("KO")
    assert set(names(state, 1)) == {"3O", "KE", "2B", "vega"}
    state = state.apply("2B")  # not following coins, not beating: fine
    assert state.hand(1) == by_canon(["3O", "KE"])
    assert state.to_act == 2
    for seat in (0, 1, 3):
        assert not {a for a in state.legal_actions(seat) if a < 52}


def test_13_irregular_plays_are_rejected_with_the_state_unchanged() -> None:
    state = start(PACK_A)
    refused(state, "3O", 1, match="turn")  # out of turn, though seat 1 holds it
    refused(state, "3O", 0, match="not in seat 0's hand")
    refused(state, "3O", None, match="not in")
    refused(state, "KO", 7)
    refused(state, "tell " + "x" * 201, 0)
    with pytest.raises(mazo.InvalidActionError):
        state.apply("play the re")
    assert state.apply("KO", seat=0) == state.apply("KO") == state.apply(ALL_52.index("KO"))


def test_6_two_tricks_win_the_deal_and_the_third_is_not_played() -> None:
    state = start(PACK_A)
    state = play(state, "KO", "3O", "6O", "9O")
    assert state.tricks_won == [1, 0] and state.to_act == 0  # winner leads
    before = state
    state = play(state, "KC", "4O", "7O", "10O")
    events = new_events(before, state)
    assert [e["type"] for e in events if e["type"] in ("play", "trick", "hand_end")] == [
        *["play"] * 4,
        "trick",
        "hand_end",
    ]
    end = events_of(events, "hand_end")[0]
    assert end["points"] == [1, 0]
    assert end["detail"]["reason"] == "tricks" and end["detail"]["tricks_won"] == [2, 0]
    assert state.scores == [1, 0]
    assert state.hand_over
    # the third trick is never played: deal 2 is dealt at once, eldest (seat 0) leads
    assert state.deal_in_smazzata == 2 and state.phase == "play" and state.to_act == 0
    assert state.tricks_won == [0, 0]
    assert [len(state.hand(s)) for s in range(4)] == [3, 3, 3, 3]
    assert not state.apply(state.legal_actions()[0]).hand_over


def test_6_two_one_deal_plays_three_tricks() -> None:
    state = start(PACK_C)
    state = play(state, *PLAY_C[:4])
    assert state.to_act == 0
    state = play(state, *PLAY_C[4:8])
    assert state.tricks_won == [1, 1] and state.to_act == 1  # seat 1 won trick 2
    state = play(state, *PLAY_C[8:])
    tricks = events_of(state.events, "trick")
    assert [t["winner"] for t in tricks] == [0, 1, 3]
    assert [t["leader"] for t in tricks] == [0, 0, 1]
    end = events_of(state.events, "hand_end")[-1]
    assert end["points"] == [0, 1] and end["detail"]["tricks_won"] == [1, 2]
    assert state.scores == [0, 1]


def test_6_eldest_leads_every_deal_of_the_smazzata() -> None:
    # deal 1: team 1 wins (seat 1 takes both tricks); deal 2 is still led by seat 0
    pack = build_pack([HANDS_B, {1: ["KE", "KB"], 0: ["2C"]}])
    state = play(start(pack), *PLAY_B)
    assert state.scores == [0, 1]
    assert state.deal_in_smazzata == 2 and state.to_act == 0
    # deal 2: seat 1 wins trick 1 and leads trick 2; deal 3 again starts with seat 0
    state = state.apply("2C")
    state = play(state, "KE")
    assert state.to_act == 2
    state = play(state, state.hand(2)[0], state.hand(3)[0])
    assert state.to_act == 1
    state = play(state, "KB", state.hand(2)[0], state.hand(3)[0], state.hand(0)[0])
    assert state.deal_in_smazzata == 3 and state.to_act == 0 and state.scores == [0, 2]
    for dealer in (0, 1, 2):
        s = play_out_deal(start(build_pack(dealer=dealer), dealer=dealer))
        assert s.deal_in_smazzata == 2 and s.to_act == (dealer + 1) % 4


# == §5 the smazzata ======================================================================

SHUFFLED = [ALL_52[(7 * i + 3) % 52] for i in range(52)]  # a fixed scramble of the pack


def test_5_four_deals_from_one_pack_then_the_deal_passes() -> None:
    pack2 = list(reversed(SHUFFLED))
    state = new(decks=[SHUFFLED, pack2], dealer=3)
    assert state.stock() == SHUFFLED  # before deal 1: the whole pack
    assert state.observation(1)["stock_size"] == 52
    state = state.apply("keep")
    for k in (1, 2, 3, 4):
        assert state.deal_in_smazzata == k and state.phase == "play"
        assert state.observation(None)["dealer"] == 3
        base = 12 * (k - 1)
        for j in range(4):
            seat = (3 + 1 + j) % 4
            assert state.hand(seat) == by_canon(SHUFFLED[base + 3 * j : base + 3 * j + 3])
        assert state.stock() == SHUFFLED[12 * k :]
        assert len(state.stock()) == [40, 28, 16, 4][k - 1]
        assert state.observation(2)["stock_size"] == [40, 28, 16, 4][k - 1]
        assert SHUFFLED[-1] not in {c for s in range(4) for c in state.hand(s)}
        deal = events_of(state.events, "deal")[-1]
        assert (deal["deal"], deal["dealer"], deal["eldest"]) == (k, 3, 0)
        state = play_out_deal(state)
    # smazzata 2: dealer 0 (right of 3), cutter 3, eldest 1, fresh pack, new choice
    assert state.phase == "ranking" and state.to_act == 3
    obs = state.observation(None)
    assert (obs["smazzata"], obs["dealer"], obs["cutter"], obs["eldest"]) == (2, 0, 3, 1)
    assert state.stock() == pack2 and state.bottom_card == pack2[-1]
    assert state.deal_in_smazzata == 1
    assert [state.hand(s) for s in range(4)] == [[], [], [], []]
    state = state.apply("keep")
    assert state.to_act == 1
    assert state.hand(1) == by_canon(pack2[0:3]) and state.hand(0) == by_canon(pack2[9:12])


def test_5_without_given_decks_each_smazzata_is_a_fresh_full_pack() -> None:
    state = load(first_dealer=1).new_match(seed=11)
    first = state.stock()
    assert sorted(first) == sorted(ALL_52)
    state = state.apply("keep")
    for _ in range(4):
        state = play_out_deal(state)
    assert state.phase == "ranking" and state.observation(None)["dealer"] == 2
    assert sorted(state.stock()) == sorted(ALL_52) and state.stock() != first


def test_5_1_bottom_card_shown_to_everyone_and_never_dealt() -> None:
    pack = build_pack([HANDS_A], bottom="KE")
    state = new(pack)
    assert state.bottom_card == "KE"
    for seat in (0, 1, 2, 3, None):
        assert state.observation(seat)["bottom_card"] == "KE"
    assert events_of(state.events, "smazzata")[0]["bottom_card"] == "KE"
    assert SHOW_BOTTOM not in state.legal_actions(2)  # always shown: nothing to ask
    state = state.apply("keep")
    for _ in range(4):
        assert "KE" not in {c for s in range(4) for c in state.hand(s)}
        assert all(state.observation(s)["bottom_card"] == "KE" for s in range(4))
        if state.deal_in_smazzata == 4:
            assert "KE" in state.observation(3)["leftover"]
        state = play_out_deal(state)
    assert "KE" not in {e.get("card") for e in events_of(state.events, "play")}


def test_5_1_bottom_card_on_request() -> None:
    pack = build_pack([HANDS_A], bottom="KE")
    state = new(pack, bottom_card_shown="on_request")
    assert all(state.observation(s)["bottom_card"] is None for s in (0, 1, 2, 3, None))
    assert events_of(state.events, "smazzata")[0]["bottom_card"] is None
    # any seat may ask, at any time of the smazzata (engine decision); then it is public
    assert all(SHOW_BOTTOM in state.legal_actions(s) for s in range(4))
    state = state.apply("keep").apply("KO")
    asked = state.apply("show_bottom", seat=3)
    assert events_of(new_events(state, asked), "bottom_card") == [
        {"type": "bottom_card", "seat": 3, "card": "KE"}
    ]
    assert all(asked.observation(s)["bottom_card"] == "KE" for s in (0, 1, 2, 3, None))
    assert all(SHOW_BOTTOM not in asked.legal_actions(s) for s in range(4))
    refused(asked, "show_bottom", 1, match="already")
    assert asked.to_act == state.to_act == 1  # asking is not a move
    refused(new(pack), "show_bottom", 1, match="always")
    # the next smazzata has a new bottom card, hidden again
    later = asked
    for _ in range(4):
        later = play_out_deal(later)
    assert later.phase == "ranking"
    assert later.observation(0)["bottom_card"] is None
    assert SHOW_BOTTOM in later.legal_actions(0)


def _at_deal_4(**options: Any) -> tuple[Any, list[str]]:
    pack = build_pack(bottom="KE")
    state = start(pack, **options)
    for _ in range(3):
        state = play_out_deal(state)
    assert state.deal_in_smazzata == 4
    return state, pack


def test_5_4_dealer_sees_the_four_cards_left_and_all_see_them_after_two_cards() -> None:
    state, pack = _at_deal_4()
    left = by_canon(pack[48:52])
    assert state.stock() == pack[48:]
    assert state.observation(3)["leftover"] == left  # the dealer, from the deal
    for seat in (0, 1, 2, None):
        assert state.observation(seat)["leftover"] is None
        assert not cards_named(state.observation(seat)) & (set(left) - {"KE"})
    peek = events_of(state.events, "peek")
    assert peek[-1]["seat"] == 3 and peek[-1]["audience"] == [3]
    assert by_canon(peek[-1]["cards"]) == left
    assert not events_of(state.events_for(0), "peek")
    one = state.apply(state.hand(0)[0])
    assert one.observation(1)["leftover"] is None  # one card is not enough
    two = one.apply(one.hand(1)[0])
    added = new_events(one, two)
    assert [e["type"] for e in added] == ["play", "leftover"]
    assert by_canon(added[1]["cards"]) == left and "audience" not in added[1]
    for seat in (0, 1, 2, 3, None):
        assert by_canon(two.observation(seat)["leftover"]) == left
        assert two.observation(seat)["leftover_public"]


def test_5_4_no_leftover_before_deal_4() -> None:
    state = start(build_pack())
    for _ in range(3):
        assert state.observation(3)["leftover"] is None
        state = play(state, state.hand(0)[0], state.hand(1)[0])
        assert not events_of(state.events, "leftover")
        state = play_out_deal(state)


def test_5_4_dealer_peek_opt_in() -> None:
    state, pack = _at_deal_4(dealer_peek_deal4="opt_in")
    assert state.observation(3)["leftover"] is None
    assert PEEK in state.legal_actions(3)
    for seat in (0, 1, 2):
        assert PEEK not in state.legal_actions(seat)
        refused(state, "peek", seat, match="only the dealer")
    peeked = state.apply("peek", seat=3)
    assert by_canon(peeked.observation(3)["leftover"]) == by_canon(pack[48:])
    assert peeked.observation(0)["leftover"] is None
    assert PEEK not in peeked.legal_actions(3)
    assert peeked.to_act == 0
    # without a peek, the cards are still shown to all after the second card
    two = play(state, state.hand(0)[0], state.hand(1)[0])
    assert by_canon(two.observation(3)["leftover"]) == by_canon(pack[48:])
    assert PEEK not in two.legal_actions(3)
    # and no peek in earlier deals
    early = start(build_pack(), dealer_peek_deal4="opt_in")
    refused(early, "peek", 3)


# == §3.5 the first dealer ================================================================


def _normal_strength(card: str) -> int:
    return list(reversed(RANKS)).index(card[:-1])  # 0 = K, the strongest


@pytest.mark.parametrize("initial", [DEFAULT, "manco_ponto"])
def test_3_5_dealer_draw_from_the_rules(initial: str) -> None:
    """Checks the engine's random draw against §3.5 over many seeds, including ties;
    the draw uses the normal order even when the match starts with another ranking."""
    tie_seen = False
    for seed in range(60):
        state = load(initial_ranking=initial).new_match(seed=seed)
        draw = state.events[0]
        assert draw["type"] == "dealer_draw"
        seats = [0, 1, 2, 3]
        seen: set[str] = set()
        for i, rnd in enumerate(draw["rounds"]):
            assert [d["seat"] for d in rnd] == seats
            cards = [d["card"] for d in rnd]
            assert not seen & set(cards)
            seen |= set(cards)
            best = min(_normal_strength(c) for c in cards)
            seats = [d["seat"] for d in rnd if _normal_strength(d["card"]) == best]
            assert (len(seats) == 1) == (i == len(draw["rounds"]) - 1)
        tie_seen |= len(draw["rounds"]) > 1
        dealer = seats[0]
        assert draw["dealer"] == dealer
        assert state.observation(None)["dealer"] == dealer
        assert state.to_act == (dealer + 3) % 4  # the cutter
        assert state.record()["setup"]["dealer_draw"] == [
            [[d["seat"], d["card"]] for d in rnd] for rnd in draw["rounds"]
        ]
    assert tie_seen, "no tied draw among the seeds tried"


def test_3_5_ties_redraw_only_among_the_tied() -> None:
    draw = [
        [[0, "KO"], [1, "QE"], [2, "KB"], [3, "1C"]],  # two re: seats 0 and 2 draw again
        [[0, "5O"], [2, "5C"]],  # tie again (suits never break it)
        [[0, "9E"], [2, "JO"]],  # JO beats 9E: seat 2 deals
    ]
    state = load().new_match(deck=PACK_A, setup={"dealer_draw": draw})
    assert state.events[0]["dealer"] == 2
    assert state.observation(None)["dealer"] == 2 and state.to_act == 1
    with pytest.raises(RulesError):
        load().new_match(deck=PACK_A, dealer=3, setup={"dealer_draw": draw})
    bad = [
        [[[0, "KO"], [1, "QE"], [2, "KB"], [3, "1C"]]],  # tie left unresolved
        [[[0, "KO"], [1, "QE"], [2, "KB"], [3, "1C"]], [[0, "5O"], [1, "6C"], [2, "5C"]]],
        [[[0, "KO"], [1, "QE"], [2, "2B"], [3, "1C"]], [[0, "5O"]]],  # no tie, no redraw
        [[[0, "KO"], [1, "KO"], [2, "2B"], [3, "1C"]]],  # one card twice
        [[[0, "KO"], [1, "QE"], [2, "2B"]]],  # seat 3 did not draw
        [],
    ]
    for rounds in bad:
        with pytest.raises(RulesError):
            load().new_match(deck=PACK_A, setup={"dealer_draw": rounds})


def test_3_5_first_dealer_option_skips_the_draw() -> None:
    state = load(first_dealer=2).new_match(seed=5)
    assert not events_of(state.events, "dealer_draw")
    assert state.observation(None)["dealer"] == 2 and state.to_act == 1
    assert "dealer_draw" not in state.record().get("setup", {})
    given = load().new_match(deck=PACK_A, dealer=1)  # an explicit dealer: no draw either
    assert not events_of(given.events, "dealer_draw") and given.to_act == 0
    with pytest.raises(RulesError):
        load(first_dealer=4)
    with pytest.raises(RulesError):
        load(first_dealer="random")


def test_3_5_replay_reproduces_the_draw() -> None:
    seed = next(s for s in range(200) if len(load().new_match(seed=s).events[0]["rounds"]) > 1)
    state = load().new_match(seed=seed).apply("rank bomba")
    state = play_out_deal(state)
    again = mazo.replay(state.record())
    assert again.events == state.events
    assert again.events[0]["type"] == "dealer_draw" and len(again.events[0]["rounds"]) > 1
    assert again == state


# == §8 vega ==============================================================================


@pytest.mark.parametrize(
    ("scores", "value"),
    [([12, 15], 5), ([0, 0], 20), ([19, 3], 1), ([4, 19], 1), ([7, 7], 13)],
)
def test_8_vega_value(scores: list[int], value: int) -> None:
    state = start(PACK_A, setup={"scores": scores})
    called = state.apply("vega")
    event = events_of(new_events(state, called), "vega")[0]
    assert event == {"type": "vega", "seat": 0, "team": 0, "value": value}
    assert called.phase == "vega_pending"
    assert called.observation(1)["vega"]["pending"] == {"team": 0, "seat": 0, "value": value}


def test_8_vega_value_with_another_game_target() -> None:
    state = start(PACK_A, setup={"scores": [2, 4]}, points_to_win_game=7)
    assert events_of(state.apply("vega").events, "vega")[0]["value"] == 3


def test_8_only_the_seat_to_play_before_playing_once_per_deal() -> None:
    state = start(PACK_A, setup={"scores": [0, 5]})  # V = 15 for team 1
    assert VEGA in state.legal_actions(0)
    for seat in (1, 2, 3):
        assert VEGA not in state.legal_actions(seat)
        refused(state, "vega", seat, match="turn")
    state = state.apply("KO")
    # seat 0 has played: now only seat 1 may call, before playing its card
    refused(state, "vega", 0, match="turn")
    called = state.apply("vega", seat=1)
    assert called.to_act == 2 and called.phase == "vega_pending"
    # no card while the vega waits, not even by the caller
    refused(called, "3O", 1, match="vega waits")
    refused(called, "6O", 2, match="vega waits")
    accepted = called.apply("accept", seat=2)
    assert accepted.phase == "play" and accepted.to_act == 1  # the caller still plays
    assert [a for a in accepted.legal_actions(1) if a < 64] == [
        ALL_52.index(c) for c in ("3O", "4O", "5O")
    ]  # cards only: no second vega
    for seat in range(4):
        refused(accepted, "vega", seat)
    after = play(accepted, "3O", "6O", "9O")
    assert VEGA not in after.legal_actions(after.to_act)
    refused(after, "vega", after.to_act, match="one vega per deal")
    # the next deal allows a vega again
    nxt = play(after, "KC", "4O", "7O", "10O")
    assert nxt.scores == [15, 5]
    assert nxt.deal_in_smazzata == 2 and VEGA in nxt.legal_actions(nxt.to_act)


def test_8_either_opponent_may_answer_the_callers_may_not() -> None:
    called = start(PACK_A).apply("vega")
    assert called.to_act == 1
    for seat in (1, 3):
        assert set(names(called, seat)) >= {"accept", "refuse"}
    for seat in (0, 2):
        assert not {ACCEPT, REFUSE} & set(called.legal_actions(seat))
        refused(called, "accept", seat, match="own vega")
        refused(called, "refuse", seat, match="own vega")
    by_partner = called.apply("refuse", seat=3)
    assert events_of(by_partner.events, "refuse")[-1] == {"type": "refuse", "seat": 3, "team": 1}
    refused(start(PACK_A), "accept", 1, match="no vega")


def test_8_refused_vega_scores_one_and_ends_the_deal() -> None:
    state = start(PACK_A, setup={"scores": [3, 11]})
    state = state.apply("KO")
    called = state.apply("vega", seat=1)  # team 1 calls with 9 points at stake
    assert events_of(called.events, "vega")[-1]["value"] == 9
    done = called.apply("refuse", seat=0)
    end = events_of(new_events(called, done), "hand_end")[0]
    assert end["points"] == [0, 1]
    assert end["detail"]["reason"] == "refused" and end["detail"]["award"] == 1
    assert done.scores == [3, 12]
    assert done.hand_over and done.deal_in_smazzata == 2 and done.to_act == 0
    assert not events_of(new_events(called, done), "trick")


def test_8_refused_vega_at_19_ends_the_game() -> None:
    state = start(decks=[PACK_A, build_pack(dealer=0)], setup={"scores": [19, 4]})
    done = state.apply("vega").apply("refuse")
    assert events_of(done.events, "game_end")[-1] == {
        "type": "game_end",
        "team": 0,
        "games": [1, 0],
    }
    assert done.scores == [0, 0] and done.games == [1, 0]
    assert done.phase == "ranking" and done.observation(None)["dealer"] == 0
    assert done.to_act == 3


def test_8_accepted_vega_the_winner_scores_the_value() -> None:
    # team 0 (12, trailing) calls V = 5 and wins: 17, no game
    state = start(PACK_A, setup={"scores": [12, 15]})
    state = state.apply("vega").apply("accept", seat=3)
    assert state.observation(2)["vega"]["stake"] == 5
    state = play(state, *PLAY_A)
    end = events_of(state.events, "hand_end")[-1]
    assert end["points"] == [5, 0] and end["detail"]["vega"] == 5
    assert state.scores == [17, 15] and state.games == [0, 0]
    # team 0 calls V = 5 but team 1 (15, leading) wins the deal: exactly 20, game won
    state = start(decks=[PACK_B, build_pack(dealer=0)], setup={"scores": [12, 15]})
    state = state.apply("vega").apply("accept", seat=1)
    state = play(state, *PLAY_B)
    assert events_of(state.events, "hand_end")[-1]["points"] == [0, 5]
    assert events_of(state.events, "game_end")[-1]["team"] == 1
    assert state.scores == [0, 0] and state.games == [0, 1]
    # 0-0: V = 20, the deal is the game
    state = start(decks=[PACK_A, build_pack(dealer=0)])
    state = play(state.apply("vega").apply("accept"), *PLAY_A)
    assert state.games == [1, 0] and state.scores == [0, 0]


def test_8_vega_called_later_in_the_deal() -> None:
    """A vega in trick 2, called by the seat to play after the lead."""
    state = play(start(PACK_C, setup={"scores": [10, 2]}), *PLAY_C[:5])  # seat 0 led 2O
    assert state.to_act == 1
    state = state.apply("vega").apply("accept", seat=2)  # V = 10
    state = play(state, *PLAY_C[5:])
    assert events_of(state.events, "hand_end")[-1]["points"] == [0, 10]
    assert state.scores == [10, 12]


# == §11.1 partner sharing ================================================================


def _shares(events: Iterable[Mapping[str, Any]]) -> list[tuple[int, list[str], str]]:
    return [(e["seat"], by_canon(e["cards"]), e["reason"]) for e in events_of(events, "share")]


def test_11_1_vega_pending_answering_partners_see_each_other() -> None:
    state = start(PACK_A)
    called = state.apply("vega")
    events = new_events(state, called)
    assert _shares(events) == [
        (1, ["3O", "4O", "5O"], "vega_pending"),
        (3, ["9O", "10O", "JO"], "vega_pending"),
    ]
    for e in events_of(events, "share"):
        assert sorted(e["audience"]) == [1, 3]
    assert called.observation(1)["partner_cards"] == [
        {"seat": 3, "cards": ["9O", "10O", "JO"], "reason": "vega_pending"}
    ]
    assert called.observation(3)["partner_cards"][0]["cards"] == ["3O", "4O", "5O"]
    for seat in (0, 2, None):
        assert called.observation(seat)["partner_cards"] == []
        assert not cards_named(called.observation(seat)) & {"3O", "4O", "5O", "9O", "10O", "JO"}
    assert not events_of(called.events_for(0), "share")
    assert not events_of(called.events_for(2), "share")


def test_11_1_vega_accepted_the_callers_see_each_other_too() -> None:
    called = start(PACK_A).apply("vega")
    accepted = called.apply("accept", seat=3)
    events = new_events(called, accepted)
    assert _shares(events) == [
        (0, ["2O", "KO", "KC"], "vega_accepted"),
        (2, ["6O", "7O", "8O"], "vega_accepted"),
    ]
    assert all(sorted(e["audience"]) == [0, 2] for e in events_of(events, "share"))
    assert accepted.observation(0)["partner_cards"] == [
        {"seat": 2, "cards": ["6O", "7O", "8O"], "reason": "vega_accepted"}
    ]
    assert accepted.observation(2)["partner_cards"][0]["cards"] == ["2O", "KO", "KC"]
    for seat in (1, 3):
        obs = accepted.observation(seat)
        assert [p["seat"] for p in obs["partner_cards"]] == [4 - seat]
        assert not cards_named(obs) & {"KO", "KC", "2O", "6O", "7O", "8O"}
    # shared cards stay known for the rest of the smazzata
    state = start(PACK_A, setup={"scores": [0, 5]})  # V = 15: no game when team 0 wins
    later = play(state.apply("vega").apply("accept"), *PLAY_A)
    assert later.deal_in_smazzata == 2 and later.scores == [15, 5]
    assert later.observation(0)["partner_cards"] == [
        {"seat": 2, "cards": ["6O", "7O", "8O"], "reason": "vega_accepted"},
        {"seat": 2, "cards": ["8O"], "reason": "tricks"},
    ]


def test_11_1_vega_refused_unplayed_cards_go_to_the_partner() -> None:
    state = play(start(PACK_C), *PLAY_C[:5])  # trick 1 done, seat 0 led 2O
    called = state.apply("vega", seat=1)
    done = called.apply("refuse", seat=2)
    shares = _shares(new_events(called, done))
    assert shares == [
        (0, ["3O"], "refused"),
        (1, ["5O", "KC"], "refused"),
        (2, ["7O", "8O"], "refused"),
        (3, ["10O", "JO"], "refused"),
    ]
    assert done.observation(3)["partner_cards"] == [
        {"seat": 1, "cards": ["5O", "KC"], "reason": "refused"}
    ]
    # seat 0 (answering team) saw seat 2's hand during the vega, then its unplayed cards
    assert done.observation(0)["partner_cards"] == [
        {"seat": 2, "cards": ["7O", "8O"], "reason": "vega_pending"},
        {"seat": 2, "cards": ["7O", "8O"], "reason": "refused"},
    ]
    assert not {"KC", "5O", "10O", "JO"} & cards_named(done.observation(0))
    assert not {"3O", "7O", "8O"} & cards_named(done.observation(1))


def test_11_1_two_nil_deal_remaining_card_to_the_partner() -> None:
    state = play(start(PACK_A), *PLAY_A[:7])
    done = state.apply(PLAY_A[7])
    events = new_events(state, done)
    assert _shares(events) == [
        (0, ["2O"], "tricks"),
        (1, ["5O"], "tricks"),
        (2, ["8O"], "tricks"),
        (3, ["JO"], "tricks"),
    ]
    for e in events_of(events, "share"):
        assert sorted(e["audience"]) == sorted([e["seat"], (e["seat"] + 2) % 4])
    assert done.observation(0)["partner_cards"] == [
        {"seat": 2, "cards": ["8O"], "reason": "tricks"}
    ]
    assert done.observation(1)["partner_cards"] == [
        {"seat": 3, "cards": ["JO"], "reason": "tricks"}
    ]
    assert not cards_named(done.observation(1)) & {"2O", "8O"}
    assert not cards_named(done.observation(0)) & {"5O", "JO"}
    # a 2-1 deal leaves nothing to share
    full = play(start(PACK_C), *PLAY_C)
    assert not events_of(full.events, "share")


def test_11_1_opt_in_sharing_shows_only_on_request() -> None:
    state = start(PACK_A, setup={"scores": [0, 5]}, partner_sharing="opt_in")
    assert all(SHOW not in state.legal_actions(s) for s in range(4))
    refused(state, "show", 0, match="nothing may be shown")
    called = state.apply("vega")
    assert not events_of(called.events, "share")
    assert called.observation(3)["partner_cards"] == []
    assert SHOW in called.legal_actions(1) and SHOW in called.legal_actions(3)
    assert SHOW not in called.legal_actions(0) and SHOW not in called.legal_actions(2)
    assert called.observation(1)["showable"] == ["3O", "4O", "5O"]
    shown = called.apply("show", seat=1)
    added = new_events(called, shown)
    assert _shares(added) == [(1, ["3O", "4O", "5O"], "shown")]
    assert shown.observation(3)["partner_cards"] == [
        {"seat": 1, "cards": ["3O", "4O", "5O"], "reason": "shown"}
    ]
    assert shown.observation(1)["partner_cards"] == []  # seat 3 has not shown
    assert SHOW not in shown.legal_actions(1)  # shown once
    accepted = shown.apply("accept", seat=3)
    assert not events_of(new_events(shown, accepted), "share")
    assert SHOW in accepted.legal_actions(0) and SHOW in accepted.legal_actions(2)
    refused(accepted, "show", 1)
    # after a 2-0 deal: the remaining card may be shown until the next deal's first card
    done = play(accepted, *PLAY_A)
    assert not events_of(new_events(accepted, done), "share")
    assert done.observation(3)["showable"] == ["JO"]
    told = done.apply("show", seat=3)
    assert told.observation(1)["partner_cards"][-1] == {
        "seat": 3,
        "cards": ["JO"],
        "reason": "shown_previous",  # the last deal's card, not the current hand
    }
    assert told.record()["actions"][-1] == {"seat": 3, "action": "show"}
    moved = done.apply(done.hand(0)[0])
    assert SHOW not in moved.legal_actions(3)
    refused(moved, "show", 3)
    refused(start(PACK_A), "show", 0, match="automatically")


# == §11.2 talk windows ===================================================================


def _talk_ids(state: Any, seat: int) -> set[int]:
    return {a for a in state.legal_actions(seat) if a in MESSAGE_IDS}


def test_11_2_silence_in_the_first_trick_and_before_the_deal() -> None:
    ranking = new(PACK_A)
    for seat in range(4):
        assert not _talk_ids(ranking, seat)
        refused(ranking, "tell hello", seat, match="before the deal")
    state = start(PACK_A)
    for step in range(4):
        for seat in range(4):
            assert not _talk_ids(state, seat)
            assert state.observation(seat)["talk"] == "none"
            for text in ("tell I hold the re", "say good luck", "signal KO", "announce have"):
                refused(state, text, seat, match="first trick")
        state = state.apply(PLAY_A[step])
    assert state.tricks_won == [1, 0]
    assert all(len(_talk_ids(state, s)) == 140 for s in range(4))
    assert all(state.observation(s)["talk"] == "all" for s in range(4))


def test_11_2_free_talk_from_trick_two_with_the_right_audiences() -> None:
    state = play(start(PACK_A), *PLAY_A[:4])
    before = state
    state = state.apply("signal KC", seat=0)  # not to act: talk is not a move
    state = state.apply("announce have", seat=1)
    state = state.apply("tell I have the re di coppe", seat=2)
    state = state.apply("say nothing here", seat=3)
    state = state.apply("signal want_vega", seat=3)
    added = new_events(before, state)
    assert added == [
        {"type": "signal", "seat": 0, "team": 0, "claim": "KC", "audience": [0, 2]},
        {"type": "announce", "seat": 1, "team": 1, "claim": "have"},
        {
            "type": "tell",
            "seat": 2,
            "team": 0,
            "text": "I have the re di coppe",
            "audience": [2, 0],
        },
        {"type": "say", "seat": 3, "team": 1, "text": "nothing here"},
        {"type": "signal", "seat": 3, "team": 1, "claim": "want_vega", "audience": [3, 1]},
    ]
    assert state.to_act == 0 and state.hand(0) == before.hand(0)
    for seat in range(4):
        seen = [e for e in state.events_for(seat) if e in added]
        mine = [e for e in added if "audience" not in e or seat in e["audience"]]
        assert seen == mine
        assert state.observation(seat)["messages"] == mine
    assert state.observation(None)["messages"] == [added[1], added[3]]
    # talk ends with the deal: deal 2's first trick is silent again
    nxt = play(state, *PLAY_A[4:])
    assert nxt.deal_in_smazzata == 2
    refused(nxt, "tell hi", 1, match="first trick")
    assert not _talk_ids(nxt, 1)


def test_11_2_a_message_is_not_repeated_before_the_next_move() -> None:
    state = play(start(PACK_A), *PLAY_A[:4])
    said = state.apply("signal KC", seat=0).apply("tell go", seat=0).apply("say hi", seat=0)
    refused(said, "signal KC", 0, match="already")
    refused(said, "tell go", 0, match="already")
    refused(said, "tell something else", 0, match="already")  # one tell per move
    refused(said, "say hi", 0, match="already")
    assert 64 + ALL_52.index("KC") not in said.legal_actions(0)
    # other seats and other claims are still free
    said = said.apply("signal KC", seat=2).apply("signal KO", seat=0)
    moved = said.apply("KC")
    assert moved.apply("signal KC", seat=0).events[-1]["claim"] == "KC"
    assert moved.apply("tell go", seat=0).events[-1]["text"] == "go"


def test_11_2_pending_vega_in_trick_one_answering_team_confers_privately() -> None:
    called = start(PACK_A).apply("vega")
    for seat in (1, 3):
        assert called.observation(seat)["talk"] == "partner"
        assert _talk_ids(called, seat) == set(range(64, 134))  # signals only
        refused(called, "announce nothing", seat, match="partners")
        refused(called, "say we refuse", seat, match="partners")
    for seat in (0, 2):
        assert not _talk_ids(called, seat)
        refused(called, "tell accept it", seat, match="answering team")
        refused(called, "signal strong", seat, match="answering team")
    talked = called.apply("tell I hold nothing", seat=1).apply("signal nothing", seat=3)
    assert talked.events[-2:] == [
        {"type": "tell", "seat": 1, "team": 1, "text": "I hold nothing", "audience": [1, 3]},
        {"type": "signal", "seat": 3, "team": 1, "claim": "nothing", "audience": [3, 1]},
    ]
    assert talked.to_act == 1 and talked.phase == "vega_pending"
    assert not [e for e in talked.events_for(0) if e["type"] in ("tell", "signal")]


def test_11_2_accepted_vega_in_trick_one_both_teams_confer_until_the_next_card() -> None:
    state = start(PACK_A).apply("KO")
    accepted = state.apply("vega", seat=1).apply("accept", seat=2)
    for seat in range(4):
        assert accepted.observation(seat)["talk"] == "partner"
        refused(accepted, "say hello", seat, match="partners")
    talked = accepted.apply("tell play low", seat=0).apply("tell ok", seat=1)
    assert talked.events[-1]["audience"] == [1, 3]
    moved = talked.apply("3O")  # the caller plays: the window closes
    assert moved.tricks_won == [0, 0]
    for seat in range(4):
        assert not _talk_ids(moved, seat)
        refused(moved, "tell again", seat, match="first trick")


def test_11_2_messages_option_off() -> None:
    state = play(start(PACK_A, messages=False), *PLAY_A[:4])
    for seat in range(4):
        assert not _talk_ids(state, seat)
        assert state.observation(seat)["talk"] == "none"
        for text in ("tell hi", "say hi", "signal KC", "announce have"):
            refused(state, text, seat)
    refused(state, "tell hi", 0, match="off")
    called = start(PACK_A, messages=False).apply("vega")
    refused(called, "tell refuse", 1, match="off")


# == §4 / §10 game and match ==============================================================


def test_4_game_won_at_once_mid_smazzata() -> None:
    pack2 = build_pack(dealer=0)
    state = start(decks=[PACK_A, pack2], setup={"scores": [19, 12], "games": [0, 1]})
    assert state.deal_in_smazzata == 1
    state = play(state, *PLAY_A)
    assert events_of(state.events, "hand_end")[-1]["detail"]["game_won"] == 0
    assert events_of(state.events, "game_end") == [{"type": "game_end", "team": 0, "games": [1, 1]}]
    assert state.scores == [0, 0] and state.games == [1, 1]
    # no deal 2 from the old pack: a new smazzata, dealer 0, fresh pack, ranking choice
    assert state.phase == "ranking" and state.deal_in_smazzata == 1
    assert state.observation(None)["dealer"] == 0 and state.to_act == 3
    assert state.stock() == pack2
    assert not state.match_over and state.winner is None


def test_4_game_won_on_a_later_deal_of_the_smazzata() -> None:
    deal2 = {0: ["3C", "4C", "5C"], 1: ["KE", "KB", "2C"], 2: ["6C", "7C", "8C"]}
    state = start(build_pack([HANDS_A, deal2]), setup={"scores": [3, 19]})
    state = play(state, *PLAY_A)
    assert state.scores == [4, 19] and state.deal_in_smazzata == 2
    state = play(state, "3C", "KE", "6C", state.hand(3)[0])  # seat 1 wins with KE
    state = play(state, "KB", "7C", state.hand(3)[0], "4C")  # and with KB: 2-0
    assert state.scores == [0, 0] and state.games == [0, 1]
    assert state.phase == "ranking" and state.observation(None)["dealer"] == 0


def test_10_match_won_at_three_games() -> None:
    state = start(PACK_A, setup={"scores": [19, 0], "games": [2, 2]})
    state = play(state, *PLAY_A)
    assert state.match_over and state.winner == 0
    assert state.to_act is None and state.phase == "over"
    assert state.games == [3, 2] and state.scores == [0, 0]
    end = state.events[-1]
    assert end == {"type": "match_end", "winner": 0, "scores": [0, 0], "games": [3, 2]}
    assert all(state.legal_actions(s) == [] for s in range(4))
    refused(state, "keep", 2, match="over")
    refused(state, "tell gg", 0, match="over")
    obs = state.observation(1)
    assert obs["match_over"] and obs["winner"] == 0 and obs["to_act"] is None


def test_10_options_points_and_games() -> None:
    state = start(PACK_B, setup={"scores": [2, 4]}, points_to_win_game=5, games_to_win_match=1)
    assert state.observation(0)["points_to_win_game"] == 5
    state = play(state, *PLAY_B)
    assert state.match_over and state.winner == 1 and state.games == [0, 1]
    state = start(PACK_A, points_to_win_game=1, games_to_win_match=2)
    state = play(state, *PLAY_A)
    assert state.games == [1, 0] and not state.match_over and state.phase == "ranking"
    with pytest.raises(RulesError):
        load(points_to_win_game=0)
    with pytest.raises(RulesError):
        load(games_to_win_match=0)


# == setup validation, history ============================================================


@pytest.mark.parametrize(
    "setup",
    [
        {"scores": [20, 0]},
        {"scores": [-1, 0]},
        {"scores": [1]},
        {"scores": [1, 2, 3]},
        {"scores": ["1", 0]},
        {"games": [3, 0]},
        {"games": [0, -1]},
        {"deal": 0},
        {"deal": 5},
        {"deal": "2"},
        {"ranking": "nonsense"},
        {"ranking": []},
        {"dealer": 1},
        {"score": [1, 1]},
    ],
)
def test_setup_validation(setup: dict[str, Any]) -> None:
    with pytest.raises(RulesError):
        load().new_match(deck=PACK_A, dealer=3, setup=setup)


def test_setup_deck_and_options_validation() -> None:
    game = load()
    with pytest.raises(RulesError):
        game.new_match(deck=PACK_A[:51], dealer=3)
    with pytest.raises(RulesError):
        game.new_match(deck=[*PACK_A[:51], PACK_A[0]], dealer=3)
    with pytest.raises(RulesError):
        game.new_match(deck=ALL_52[:40], dealer=3)  # the 40-card edition is not allowed
    with pytest.raises(RulesError):
        game.new_match(deck=PACK_A, dealer=4)
    for bad in (
        {"bottom_card_shown": "never"},
        {"partner_sharing": "always"},
        {"dealer_peek_deal4": "never"},
        {"messages": "yes"},
        {"history_visible": 0.5},
        {"trumps": True},
    ):
        with pytest.raises(RulesError):
            load(**bad)
    with pytest.raises(RulesError):
        mazo.load_game("trionfetti", players=2)


def test_setup_places_the_match_at_a_later_deal() -> None:
    pack = build_pack(bottom="KE")
    state = load().new_match(
        deck=pack,
        dealer=1,
        setup={"scores": [5, 6], "games": [1, 2], "deal": 3, "ranking": "bomba"},
    )
    assert state.phase == "play" and state.deal_in_smazzata == 3
    assert state.to_act == 2  # eldest of dealer 1
    assert state.hand(2) == by_canon(pack[24:27]) and state.hand(1) == by_canon(pack[33:36])
    assert state.scores == [5, 6] and state.games == [1, 2]
    assert as_levels(state.ranking) == spec_levels(PRESET_ORDERS["bomba"])
    assert state.stock() == pack[36:]
    state = play_out_deal(state)
    assert state.deal_in_smazzata == 4 and state.observation(1)["leftover"] is not None


@pytest.mark.parametrize("visible", [True, False])
def test_12_history_visible(visible: bool) -> None:
    state = play(start(PACK_A, history_visible=visible), *PLAY_A)
    state = state.apply(state.hand(0)[0])
    first = state.events[-1]["card"]
    for seat in (0, 1, None):
        log = state.observation(seat)["smazzata_log"]
        plays = [e["card"] for e in events_of(log, "play")]
        tricks = events_of(log, "trick")
        if visible:
            assert plays == [*PLAY_A, first] and len(tricks) == 2
        else:
            assert plays == [first] and tricks == []
        assert [e["card"] for e in events_of(state.observation(seat)["deal_log"], "play")] == [
            first
        ]
    # the omniscient log keeps everything either way
    assert [e["card"] for e in events_of(state.events, "play")] == [*PLAY_A, first]


# == record / replay ======================================================================


def test_record_replay_with_custom_ranking_talk_and_vega() -> None:
    pack = build_pack([HANDS_A, {0: ["KE"], 1: ["KB"]}])
    state = new(decks=[pack, build_pack(dealer=0)], bottom_card_shown="on_request")
    state = state.apply(custom(SPLIT_KINGS)).apply("show_bottom", seat=1)
    state = play(state, *PLAY_A[:4])
    state = state.apply("tell I lead the re", seat=0).apply("say ciao", seat=1)
    state = state.apply("signal 2O", seat=2).apply("announce strong", seat=3)
    state = play(state, *PLAY_A[4:])
    state = state.apply("vega").apply("accept", seat=3)
    state = play(state, "KE", "KB", "3C", "6C")  # KE > KB in this ranking
    assert events_of(state.events, "trick")[-1]["winner"] == 0
    record = json.loads(json.dumps(state.record()))
    actions = [a["action"] for a in record["actions"]]
    assert actions[0].startswith("rank [")
    assert as_levels(json.loads(actions[0][5:])) == as_levels(SPLIT_KINGS)
    assert "tell I lead the re" in actions and "say ciao" in actions
    assert "signal 2O" in actions and "announce strong" in actions and "show_bottom" in actions
    again = mazo.replay(record)
    assert again == state
    assert again.events == state.events
    assert again.record() == state.record()
    assert as_levels(again.ranking) == as_levels(SPLIT_KINGS)
    # the replay re-validates: a broken custom ranking is refused
    record["actions"][0]["action"] = custom(SPLIT_KINGS[:-1])
    with pytest.raises(IllegalActionError, match="no level"):
        mazo.replay(record)


def test_record_replay_across_smazzate_games_and_a_setup() -> None:
    state = load(first_dealer=0, partner_sharing="opt_in", dealer_peek_deal4="opt_in").new_match(
        seed=99, setup={"scores": [18, 17], "ranking": json_levels("K 1 2 3 4 5 6 7 8 9 10 J Q")}
    )
    state = state.apply("rank manco_e_cavalli")
    for _ in range(6):
        state = play_out_deal(state)
        if state.phase == "ranking":
            state = state.apply("keep")
        if state.deal_in_smazzata == 4 and PEEK in state.legal_actions(
            state.observation(None)["dealer"]
        ):
            state = state.apply("peek", seat=state.observation(None)["dealer"])
    record = state.record()
    assert record["setup"]["scores"] == [18, 17]
    assert as_levels(record["setup"]["ranking"]) == spec_levels("K 1 2 3 4 5 6 7 8 9 10 J Q")
    assert len(record["deals"]) >= 2
    again = mazo.replay(json.loads(json.dumps(record)))
    assert again == state and again.events == state.events


def test_a_level_of_two_ranks_is_refused_as_two_ranks() -> None:
    """§3.2.1: ["8", "9"] as a level (a pair) names two ranks; the message says so."""
    levels: list[Any] = [["8", "9"], "K", "Q", "J", "10", "7", "6", "5", "4", "3", "2", "1"]
    with pytest.raises(mazo.RulesError, match="exactly one rank"):
        parse_ranking(levels)
