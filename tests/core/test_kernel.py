"""The kernel: card notation, CardSet, the PRNG, errors and the game registry."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mazo
from mazo import IllegalActionError, InvalidActionError, MazoError, NotationError, RulesError
from mazo.core import LATIN_40, LATIN_52, SUITS, CardSet, iter_bits
from mazo.core.game import DealFacts
from mazo.core.rng import Rng, derive_seed

RANKS_40 = ["1", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]
RANKS_52 = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


# -- notation -----------------------------------------------------------------------------


@pytest.mark.parametrize(("deck", "ranks"), [(LATIN_40, RANKS_40), (LATIN_52, RANKS_52)])
def test_every_card_round_trips(deck: object, ranks: list[str]) -> None:
    codes = [r + s for s in "OCEB" for r in ranks]  # suit-major, canonical order
    assert deck.size == len(codes)
    assert [deck.format(i) for i in deck.all_cards()] == codes
    for i, code in enumerate(codes):
        assert deck.parse(code) == i
        assert deck.parse(code.lower()) == i
        assert deck.parse(f"  {code} ") == i
        assert deck.suit(i) == "OCEB".index(code[-1])
        assert deck.rank(i) == code[:-1]
        assert deck.card(code[:-1], code[-1]) == i
        if code.startswith("1") and code[1:] in SUITS:  # the ace, not the 10
            assert deck.parse("A" + code[-1]) == i
            assert deck.parse("a" + code[-1].lower()) == i


def test_notation_examples_from_the_design() -> None:
    assert LATIN_40.parse("1O") == 0
    assert LATIN_40.parse("7O") == 6
    assert LATIN_40.parse("JE") == 27
    assert LATIN_40.parse("KB") == 39
    assert LATIN_52.parse("10C") == 22
    assert LATIN_52.parse("8B") == 3 * 13 + 7
    assert LATIN_40.parse_many("7O, 1e kb") == [6, 20, 39]
    assert LATIN_40.parse_many(["7O", "AE"]) == [6, 20]
    assert LATIN_40.codes(1 | 1 << 39) == ["1O", "KB"]


@pytest.mark.parametrize(
    "bad", ["", "  ", "ZZ", "11O", "0O", "7X", "O7", "7", "A", "7OO", "1 O", "10O", "8C", "JJ"]
)
def test_bad_codes_say_what_is_allowed(bad: str) -> None:
    with pytest.raises(NotationError) as err:
        LATIN_40.parse(bad)
    message = str(err.value)
    assert "1 2 3 4 5 6 7 J Q K" in message
    assert "O C E B" in message
    assert isinstance(err.value, InvalidActionError)
    assert isinstance(err.value, ValueError)


def test_bad_codes_in_the_52_card_pack() -> None:
    for bad in ("11O", "0C", "14E", "1X"):
        with pytest.raises(NotationError, match="8 9 10"):
            LATIN_52.parse(bad)


@pytest.mark.parametrize("bad", [None, 7, 6.0, b"7O", ["7O"]])
def test_non_strings_are_not_codes(bad: object) -> None:
    with pytest.raises(NotationError, match="string"):
        LATIN_40.parse(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 40, 52, 1000])
def test_format_rejects_ids_outside_the_pack(bad: int) -> None:
    with pytest.raises(NotationError, match="40"):
        LATIN_40.format(bad)


def test_iter_bits() -> None:
    assert list(iter_bits(0)) == []
    assert list(iter_bits(0b1011)) == [0, 1, 3]
    assert list(iter_bits(1 << 39 | 1 << 5)) == [5, 39]


# -- CardSet --------------------------------------------------------------------------------


def test_cardset_basics() -> None:
    hand = CardSet.parse("7O 1e kb")
    assert len(hand) == 3
    assert str(hand) == "7O 1E KB"
    assert hand.codes() == ["7O", "1E", "KB"]
    assert list(hand) == [6, 20, 39]
    assert "7O" in hand and "ae" in hand and 39 in hand
    assert "6O" not in hand and 5 not in hand and 40 not in hand and -1 not in hand
    assert bool(hand) and not CardSet()
    assert CardSet.of([6, 20, 39]) == hand
    assert CardSet.parse(["KB", "7O", "1E"]) == hand
    assert hash(CardSet.parse("7O KB 1E")) == hash(hand)
    assert eval(repr(hand), {"CardSet": CardSet}) == hand
    assert hand.suit(0) == CardSet.parse("7O")
    assert hand.suit(1) == CardSet()
    assert hand != CardSet(hand.mask, LATIN_52)
    assert {hand: 1}[CardSet.parse("KB 1E 7O")] == 1


def test_cardset_is_immutable_and_checked() -> None:
    hand = CardSet.parse("7O")
    with pytest.raises(AttributeError):
        hand.mask = 0  # type: ignore[misc]
    with pytest.raises(ValueError):
        CardSet(1 << 40)
    with pytest.raises(ValueError):
        CardSet(-1)
    with pytest.raises(ValueError, match="different packs"):
        _ = hand | CardSet(1, LATIN_52)
    with pytest.raises(NotationError):
        CardSet.parse("7O 8O")


masks40 = st.integers(0, (1 << 40) - 1)


@settings(max_examples=200, deadline=None)
@given(a=masks40, b=masks40)
def test_cardset_algebra_matches_python_sets(a: int, b: int) -> None:
    x, y = CardSet(a), CardSet(b)
    sx, sy = set(iter_bits(a)), set(iter_bits(b))
    assert set(x | y) == sx | sy
    assert set(x & y) == sx & sy
    assert set(x - y) == sx - sy
    assert set(x ^ y) == sx ^ sy
    assert x.issubset(y) == (sx <= sy)
    assert x.isdisjoint(y) == (not sx & sy)
    assert len(x) == len(sx)
    assert list(x) == sorted(sx)
    assert x == CardSet.parse(x.codes())
    assert sum(len(x.suit(s)) for s in range(4)) == len(x)
    for s in range(4):
        assert all(LATIN_40.suit(c) == s for c in x.suit(s))


# -- the PRNG -------------------------------------------------------------------------------
# Golden vectors: a change of algorithm must fail here, because it changes every deal
# that seeds have ever produced.


def test_splitmix64_reference_outputs() -> None:
    rng = Rng(0)
    # SplitMix64 with seed 0 (the published reference values).
    assert [rng.next64() for _ in range(3)] == [
        16294208416658607535,
        7960286522194355700,
        487617019471545679,
    ]
    assert rng.next64() == 17909611376780542444


def test_seeds_are_taken_modulo_2_64() -> None:
    assert Rng(2**64).next64() == Rng(0).next64()
    assert Rng(-1).getstate() == 2**64 - 1


GOLDEN_SHUFFLES = {
    0: "9 25 22 18 23 30 26 2 10 27 8 35 13 34 31 36 20 24 1 32 "
    "19 16 11 12 4 28 33 5 37 17 6 29 14 38 0 21 39 3 7 15",
    1: "39 28 11 17 12 33 35 3 2 6 26 18 16 10 1 27 9 30 32 34 "
    "19 37 13 0 5 8 15 14 21 38 20 29 22 24 31 23 36 4 7 25",
    7: "29 19 39 36 13 32 31 9 16 37 3 11 38 21 24 2 23 30 20 14 "
    "4 15 22 33 18 8 0 28 26 35 25 6 5 34 12 27 10 1 17 7",
    2**64 - 1: "37 24 10 27 2 0 5 26 19 25 18 38 29 28 23 9 14 3 17 11 "
    "35 22 12 32 4 6 21 31 13 20 30 39 7 36 8 15 34 33 1 16",
}


@pytest.mark.parametrize("seed", sorted(GOLDEN_SHUFFLES))
def test_golden_shuffles(seed: int) -> None:
    assert Rng(seed).shuffled(range(40)) == [int(x) for x in GOLDEN_SHUFFLES[seed].split()]


def test_golden_small_draws() -> None:
    rng = Rng(7)
    assert [rng.randbelow(10) for _ in range(5)] == [3, 0, 9, 5, 4]
    assert Rng(7).shuffled(range(5)) == [0, 4, 3, 1, 2]
    assert Rng(42).random() == 0.7415648787718233


def test_golden_derived_seeds() -> None:
    assert derive_seed(7, "deal", 1) == 6168782373020957188
    assert derive_seed(0, "first dealer") == 11117919195678061001
    assert derive_seed(123, "deal", 3) == 2786275610927760119
    # Labels are compared as text and the derivation is order-free.
    assert derive_seed(7, "deal", 1) == derive_seed(7, "deal", "1")
    assert derive_seed(7, "deal", 1) != derive_seed(7, "deal", 2) != derive_seed(8, "deal", 2)
    assert derive_seed(7, "deal", 1) != derive_seed(7, 1, "deal")
    assert 0 <= derive_seed(2**80, "x") < 2**64


def test_derive_seed_is_blake2b_of_the_labels() -> None:
    # An independent computation of the documented scheme.
    text = repr((7, "deal", "1")).encode()
    digest = hashlib.blake2b(text, digest_size=8).digest()
    assert derive_seed(7, "deal", 1) == int.from_bytes(digest, "little")


def test_rng_helpers() -> None:
    rng = Rng(5)
    state = rng.getstate()
    first = [rng.next64() for _ in range(3)]
    rng.setstate(state)
    assert [rng.next64() for _ in range(3)] == first
    assert all(0 <= Rng(s).random() < 1 for s in range(50))
    assert all(0 <= Rng(s).randbelow(3) < 3 for s in range(50))
    assert Rng(1).randbelow(1) == 0
    for bad in (0, -3):
        with pytest.raises(ValueError):
            Rng(1).randbelow(bad)
    with pytest.raises(IndexError):
        Rng(1).choice([])
    assert Rng(3).choice(["a"]) == "a"
    items = list(range(10))
    Rng(9).shuffle(items)
    assert items == Rng(9).shuffled(range(10))
    assert sorted(items) == list(range(10))
    assert Rng(1).shuffled([]) == [] and Rng(1).shuffled(["x"]) == ["x"]


def test_rng_is_roughly_uniform() -> None:
    # Deterministic: fixed seeds; a broken bound or a biased shuffle fails these wide margins.
    rng = Rng(11)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randbelow(6)] += 1
    assert all(850 < c < 1150 for c in counts)
    first = [0] * 4
    for s in range(4000):
        first[Rng(s).shuffled(range(4))[0]] += 1
    assert all(850 < c < 1150 for c in first)
    big = Rng(3)
    assert len({big.randbelow(2**64) for _ in range(100)}) == 100


def test_randbelow_above_64_bits_returns() -> None:
    # Lemire's multiply-and-reject needs n <= 2**64: above it the rejection threshold
    # 2**64 % n is 2**64, every draw is rejected and the loop never ends.  Run it in a
    # child process so the hang cannot stall the suite.
    code = "from mazo.core.rng import Rng; print(Rng(3).randbelow(2**64 + 1) < 2**64 + 1)"
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=3, check=True
        )
    except subprocess.TimeoutExpired:
        raise AssertionError("Rng(3).randbelow(2**64 + 1) did not return in 3 s") from None
    assert out.stdout.strip() == "True"


# -- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "error", [RulesError, InvalidActionError, IllegalActionError, NotationError]
)
def test_errors_are_value_errors(error: type[Exception]) -> None:
    assert issubclass(error, ValueError)
    assert issubclass(error, MazoError)
    with pytest.raises(ValueError):
        raise error("x")


def test_notation_error_is_an_invalid_action() -> None:
    assert issubclass(NotationError, InvalidActionError)
    assert not issubclass(IllegalActionError, InvalidActionError)
    assert not issubclass(RulesError, InvalidActionError)


# -- the registry ------------------------------------------------------------------------------


def test_list_games() -> None:
    games = mazo.list_games()
    assert games == sorted(games)
    assert "briscola" in games
    assert len(set(games)) == len(games)
    for name in games:
        game = mazo.load_game(name)
        assert game.name == name


def test_load_game_unknown_game_lists_the_games() -> None:
    with pytest.raises(RulesError) as err:
        mazo.load_game("chess")
    for name in mazo.list_games():
        assert name in str(err.value)
    with pytest.raises(RulesError):
        mazo.load_game(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [0, 1, 5, 7, -4, 4.0, "4", True])
def test_load_game_bad_player_count_lists_the_counts(players: object) -> None:
    with pytest.raises(RulesError) as err:
        mazo.load_game("briscola", players=players)
    assert "2, 3, 4, 6" in str(err.value)


def test_load_game_unknown_option_lists_the_options() -> None:
    with pytest.raises(RulesError) as err:
        mazo.load_game("briscola", players=4, open_hands=True)
    message = str(err.value)
    assert "open_hands" in message
    for name in ("deal_packet_size", "open_variant", "signals_enabled", "match_wins_target"):
        assert name in message
    with pytest.raises(RulesError, match="num_players"):
        mazo.load_game("briscola", num_players=4)  # the player count is always `players`


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("deal_packet_size", 2, "3, 1"),
        ("deal_packet_size", "3", "3, 1"),
        ("match_wins_target", 5, "3, 2"),
        ("match_wins_target", True, "3, 2"),
        ("signals_enabled", 1, "False, True"),
        ("signals_from_trick", 3, "2, 1"),
        ("open_variant", "OPEN", "'none', 'open_hands', 'scoperta'"),
        ("signal_system", "mine", "'pagat', 'it_wikipedia', 'en_wikipedia'"),
        ("three_player_removed_card", "2X", "'2O', '2C', '2E', '2B'"),
        ("dealer_after_draw", "stay", "'rotate', 'same'"),
        ("first_dealer", 9, "seat"),
        ("first_dealer", "0", "seat"),
    ],
)
def test_load_game_bad_option_value_lists_what_is_allowed(
    option: str, value: object, allowed: str
) -> None:
    with pytest.raises(RulesError) as err:
        mazo.load_game("briscola", players=4, **{option: value})
    assert option in str(err.value)
    assert allowed in str(err.value)


@pytest.mark.parametrize(
    ("players", "options", "hint"),
    [
        (4, {"open_variant": "open_hands"}, "2 players"),
        (3, {"open_variant": "scoperta"}, "2 players"),
        (2, {"signals_enabled": True}, "4 or 6"),
        (3, {"signals_enabled": True}, "4 or 6"),
        (2, {"partners_show_hands_before_first_trick": True}, "4 or 6"),
        (4, {"first_dealer": 4}, "0..3"),
        (2, {"first_dealer": 3}, "0..1"),
    ],
)
def test_load_game_cross_option_errors(players: int, options: dict[str, object], hint: str) -> None:
    with pytest.raises(RulesError) as err:
        mazo.load_game("briscola", players=players, **options)
    assert hint in str(err.value)


def test_describe_options_lists_every_option() -> None:
    game = mazo.load_game("briscola")
    described = {o["name"]: o for o in game.describe_options()}
    assert set(described) == set(game.options)
    assert described["open_variant"]["default"] == "none"
    assert "scoperta" in described["open_variant"]["allowed"]


@pytest.mark.parametrize("game_name", mazo.list_games())
def test_bad_setup_and_bad_seat_are_mazo_errors(game_name: str) -> None:
    game = mazo.load_game(game_name)
    for setup in ([1, 2], "scores", 3):
        with pytest.raises(mazo.RulesError, match="setup must be a mapping"):
            game.new_match(seed=1, setup=setup)  # type: ignore[arg-type]
    state = game.new_match(seed=1)
    for seat in (-1, game.players, "0", 1.0):
        with pytest.raises(mazo.RulesError, match="seat must be"):
            state.observation(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("game_name", mazo.list_games())
def test_a_foreign_or_empty_observation_is_refused_alike(game_name: str) -> None:
    """Every game's determinize first checks that the observation is its own (core
    ``observer_of``): an empty one or another game's is a RulesError that says so."""
    game = mazo.load_game(game_name)
    other = next(name for name in mazo.list_games() if name != game_name)
    foreign = mazo.load_game(other).new_match(seed=1).observation(0)
    relabelled = {**game.new_match(seed=1).observation(0), "game": other}
    for obs in ({}, foreign, relabelled):
        with pytest.raises(RulesError, match="not from this game"):
            game.determinize(obs, Rng(1))


@pytest.mark.parametrize("game_name", mazo.list_games())
def test_every_state_numbers_its_deal(game_name: str) -> None:
    """``deal_number`` (core MatchState, every game) counts the deals dealt so far: the
    ``deal`` events of the log, on every state of a random match."""
    game = mazo.load_game(game_name)
    state = game.new_match(seed=2)
    rng = Rng(1)
    for _ in range(600):
        if state.match_over:
            break
        assert state.deal_number == sum(e["type"] == "deal" for e in state.events)
        legal = [a for a in state.legal_actions() if a not in game.info.message_actions]
        state = state.apply(legal[rng.randbelow(len(legal))])


@pytest.mark.parametrize("game_name", mazo.list_games())
def test_an_action_id_out_of_range_says_the_range(game_name: str) -> None:
    """design.md: every error says what was wrong and what is allowed.  An int id outside
    the game's fixed action space is out of range (9999, as a user typed it, is in
    Escoba's 84,488 ids: there it is a capture not in the hand); the state is untouched."""
    game = mazo.load_game(game_name)
    state = game.new_match(seed=3)
    twin = game.new_match(seed=3)
    n = game.info.num_actions
    bad = [-1, n, 10**6] + ([9999] if n <= 9999 else [])
    for action in bad:
        for call in (state.apply, game.action_to_string):
            with pytest.raises(InvalidActionError) as caught:
                call(action)
            message = str(caught.value)
            assert f"action id {action} is out of range" in message
            assert f"action ids run 0..{n - 1}" in message
        with pytest.raises(InvalidActionError, match="out of range"):
            state.apply(action, seat=state.to_act)
    for action in ("x", 1.5, None):
        with pytest.raises(InvalidActionError):
            game.action_to_string(action)  # type: ignore[arg-type]
    assert state == twin
    assert state.events == twin.events
    assert state.legal_actions() == twin.legal_actions()


# -- a deal's facts ---------------------------------------------------------------------


class _Facts(DealFacts):
    __slots__ = ("dealer", "hands", "number", "packs", "scores", "seed", "trump")


def test_deal_facts_copy_every_slot_into_a_new_object() -> None:
    """``DealFacts.copy``: the same fields, a new object whose
    fields can change without reaching the original, and an unset field still an error."""
    d = _Facts.begin(2, 1, (3, 4), 99, ())
    d.hands, d.trump = ((1, 2), (3,)), 7
    c = d.copy()
    assert type(c) is _Facts and c is not d
    assert [getattr(c, n) for n in _Facts.__slots__] == [getattr(d, n) for n in _Facts.__slots__]
    c.trump = 8
    assert d.trump == 7
    partial = _Facts.begin(0, 0, (), 1, ())
    with pytest.raises(AttributeError, match="hands"):
        partial.copy()
    # every game's facts copy alike (some games write their copy out for speed: a slot
    # added and not copied fails here), the base class's slots and their own
    games = (("briscola", 2), ("briscola", 4), ("envite", 4), ("escoba", 2), ("trionfetti", 4))
    for name, players in games:
        state = mazo.load_game(name, players=players).new_match(seed=3)
        facts = next(v for v in vars_of(state) if isinstance(v, DealFacts))
        twin = facts.copy()
        slots = [n for k in type(facts).__mro__ for n in getattr(k, "__slots__", ())]
        assert type(twin) is type(facts) and twin is not facts and len(slots) >= 6
        assert all(getattr(twin, n) == getattr(facts, n) for n in slots), name


def vars_of(state: object) -> list[object]:
    """The values of a state's slots (the deal's facts are one of them)."""
    names = [n for k in type(state).__mro__ for n in getattr(k, "__slots__", ())]
    return [getattr(state, n) for n in names if hasattr(state, n)]
