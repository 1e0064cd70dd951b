"""The observation encoder: fixed layout, values in range, masks equal to the legal
actions, and no hidden information (it reads the observation and nothing else)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import mazo
from mazo.core.errors import InvalidActionError, RulesError
from mazo.core.rng import Rng
from mazo.env.encoding import Encoder

from . import CONFIGS, IDS


def expected_ids(game: mazo.Game, legal: list[str], talk: bool = False) -> set[int]:
    """The legal ids the mask must hold, parsed independently of the encoder."""
    out = set()
    for text in legal:
        try:
            action = game.string_to_action(text)
        except InvalidActionError:
            continue  # a custom Trionfetti ranking or free talk: no id
        if talk or action not in game.info.message_actions:
            out.add(action)
    return out


def random_states(
    game: mazo.Game,
    seed: int,
    talk_every: int = 0,
    setup: dict[str, Any] | None = None,
    limit: int = 10_000,
) -> Iterator[Any]:
    """The states of one match played by uniform random moves; talk is left out, except
    one message in ``talk_every`` steps when the seat to act may send one."""
    rng = Rng(seed)
    state = game.new_match(seed=seed, setup=setup)
    talk = game.info.message_actions
    for step in range(limit):
        yield state
        if state.match_over:
            return
        legal = state.legal_actions()
        said = [a for a in legal if a in talk]
        if talk_every and said and step % talk_every == 0:
            state = state.apply(rng.choice(said))
        else:
            state = state.apply(rng.choice([a for a in legal if a not in talk]))
    raise AssertionError("the match did not end")


def block(encoder: Encoder, prefix: str) -> tuple[int, int]:
    blocks = encoder.describe()
    found = [(off, n) for name, off, n in blocks if name == prefix]
    found = found or [(off, n) for name, off, n in blocks if name.startswith(prefix)]
    assert len(found) == 1, f"{prefix!r} names {len(found)} blocks"
    return found[0]


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_layout_is_contiguous_and_documented(name: str, players: int) -> None:
    game = mazo.load_game(name, players=players)
    for talk in (False, True):
        enc = Encoder(game, talk=talk)
        blocks = enc.describe()
        assert type(enc).__name__.lower().startswith(name)
        assert enc.num_actions == game.info.num_actions
        offset = 0
        for block_name, off, length in blocks:
            assert off == offset and length > 0, block_name
            offset += length
        assert offset == enc.size
        assert len({b[0] for b in blocks}) == len(blocks)
        hand = block(enc, "hand")
        assert hand == (0, game.info.deck.size)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_random_match_vectors_and_masks(name: str, players: int) -> None:
    game = mazo.load_game(name, players=players)
    enc = Encoder(game)
    to_act_off, _ = block(enc, "to act")
    hand_off, deck = block(enc, "hand")
    parse = game.info.deck.parse
    steps = 0
    for state in random_states(game, seed=players):
        steps += 1
        seat = state.to_act if state.to_act is not None else 0
        for s in {seat, (seat + 1) % players}:
            obs = state.observation(s)
            vec = enc.encode(obs)
            assert vec.shape == (enc.size,) and vec.dtype == np.float32
            assert np.isfinite(vec).all()
            assert vec.min() >= 0.0 and vec.max() <= 1.0
            # the hand block holds exactly the hand, by DeckSpec.parse ids
            assert set(np.flatnonzero(vec[hand_off : hand_off + deck])) == {
                parse(c) for c in obs["hand"]
            }
            mask = enc.action_mask(obs)
            assert mask.shape == (game.info.num_actions,) and mask.dtype == np.int8
            assert set(np.flatnonzero(mask)) == expected_ids(game, obs["legal_actions"])
        if state.to_act is not None:
            # the acting seat sees itself at relative position 0, and has a move
            acting = enc.encode(state.observation(state.to_act))
            assert acting[to_act_off] == 1.0
            assert enc.action_mask(state.observation(state.to_act)).sum() > 0
    assert steps > 20


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_determinized_samples_encode_alike(name: str, players: int) -> None:
    """Every state a seat cannot tell from the true one encodes the same for it: the
    encoder reads no hidden card."""
    game = mazo.load_game(name, players=players)
    encoders = [Encoder(game), Encoder(game, talk=True)]
    hidden_changed = 0
    for k, state in enumerate(random_states(game, seed=10 + players)):
        if k % 9 or state.match_over:
            continue
        for seat in range(players):
            obs = state.observation(seat)
            for i in range(2):
                sample: Any = game.determinize(obs, Rng(1000 * k + 10 * seat + i))
                other = sample.observation(seat)
                if any(sample.hand(s) != state.hand(s) for s in range(players) if s != seat):
                    hidden_changed += 1
                for enc in encoders:
                    assert np.array_equal(enc.encode(other), enc.encode(obs))
                    assert np.array_equal(enc.action_mask(other), enc.action_mask(obs))
    assert hidden_changed > 5  # the samples did move hidden cards


def test_swapping_an_opponents_card_changes_nothing_for_me() -> None:
    """Two-player Briscola, dealer 0: seat 1 gets deck[0:3], seat 0 deck[3:6], the trump
    is deck[6].  Swapping one of seat 1's cards with a card deep in the stock changes
    seat 1's vector, never seat 0's."""
    game = mazo.load_game("briscola", players=2)
    deck = [r + s for s in "OCEB" for r in ("1", "2", "3", "4", "5", "6", "7", "J", "Q", "K")]
    swapped = list(deck)
    swapped[0], swapped[30] = swapped[30], swapped[0]
    a: Any = game.new_match(deck=deck, dealer=0)
    b: Any = game.new_match(deck=swapped, dealer=0)
    assert a.hand(1) != b.hand(1) and a.hand(0) == b.hand(0)
    enc = Encoder(game)
    assert np.array_equal(enc.encode(a.observation(0)), enc.encode(b.observation(0)))
    assert not np.array_equal(enc.encode(a.observation(1)), enc.encode(b.observation(1)))
    # the same after a trick played with the cards both deals share
    a2 = a.apply("2O").apply("4O")
    b2 = b.apply("2O").apply("4O")
    assert np.array_equal(enc.encode(a2.observation(0)), enc.encode(b2.observation(0)))


@pytest.mark.parametrize("name", ["briscola", "escoba", "envite", "trionfetti"])
def test_reads_the_observation_as_json(name: str) -> None:
    """A JSON round trip (what a client or a log would hold) encodes the same."""
    game = mazo.load_game(name)
    enc = Encoder(game, talk=True)
    for k, state in enumerate(random_states(game, seed=3)):
        if k % 5 == 0 and state.to_act is not None:
            obs = state.observation(state.to_act)
            copy = json.loads(json.dumps(obs))
            assert np.array_equal(enc.encode(copy), enc.encode(obs))
            assert np.array_equal(enc.action_mask(copy), enc.action_mask(obs))


def test_spectator_views_and_other_games_are_refused() -> None:
    briscola = mazo.load_game("briscola", players=2)
    state = briscola.new_match(seed=1)
    enc = Encoder(briscola)
    with pytest.raises(ValueError, match="one seat's observation"):
        enc.encode(state.observation(None))
    escoba_obs = mazo.load_game("escoba").new_match(seed=1).observation(0)
    with pytest.raises(ValueError, match="briscola observations"):
        enc.encode(escoba_obs)
    with pytest.raises(RulesError):
        Encoder(object())  # type: ignore[arg-type]


def test_envite_talk_is_encoded_and_masked_only_with_talk() -> None:
    game = mazo.load_game("envite", players=4)
    state: Any = game.new_match(seed=3)
    quiet, chatty = Encoder(game), Encoder(game, talk=True)
    seat = state.to_act
    obs = state.observation(seat)
    signal = game.string_to_action("signal mala")
    assert "signal mala" in obs["legal_actions"]
    assert quiet.action_mask(obs)[signal] == 0
    assert chatty.action_mask(obs)[signal] == 1
    assert chatty.size > quiet.size
    partner = (seat + 2) % 4
    after = state.apply("signal mala", seat=seat)
    assert after.to_act == state.to_act  # talk never moves the game
    seen_before = state.observation(partner)
    seen_after = after.observation(partner)
    assert np.array_equal(quiet.encode(seen_before), quiet.encode(seen_after))
    changed = np.flatnonzero(chatty.encode(seen_after) != chatty.encode(seen_before))
    off, length = block(chatty, "messages")
    assert len(changed) == 1 and off <= changed[0] < off + length


def test_envite_out_of_turn_calls_stay_in_the_observation_mask() -> None:
    """The encoder's mask is the observation's: an envío out of turn is legal for a seat
    not to act (the environments zero the mask of such seats themselves)."""
    game = mazo.load_game("envite", players=4)
    state: Any = game.new_match(seed=3)
    other = (state.to_act + 1) % 4
    obs = state.observation(other)
    assert "envio" in obs["legal_actions"]
    assert Encoder(game).action_mask(obs)[game.string_to_action("envio")] == 1


def test_trionfetti_ranking_strength_and_custom_rankings() -> None:
    game = mazo.load_game("trionfetti", first_dealer=0)
    enc = Encoder(game)
    state: Any = game.new_match(seed=4)
    assert state.phase == "ranking"
    obs = state.observation(state.to_act)
    # only the preset rankings and keep are ids; a custom ranking string is left out
    with_custom = dict(obs, legal_actions=[*obs["legal_actions"], 'rank ["K", "Q"]'])
    assert set(np.flatnonzero(enc.action_mask(with_custom))) == expected_ids(
        game, obs["legal_actions"]
    )
    order = '["K(E)", "K(OCB)", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"]'
    custom = state.apply("rank " + order)
    vec = enc.encode(custom.observation(0))
    off, length = block(enc, "strength")
    strength = vec[off : off + length]
    parse = game.info.deck.parse
    assert strength[parse("KE")] == 1.0
    assert strength[parse("1O")] == 0.0
    assert strength[parse("KE")] > strength[parse("KO")] > strength[parse("QE")]
    assert strength[parse("KO")] == strength[parse("KB")]
    pre_off, _ = block(enc, "ranking preset")
    assert vec[pre_off + 5] == 1.0  # the "custom" slot, after the five presets


def test_card_ids_are_the_decks() -> None:
    """The 52-card Trionfetti pack numbers cards differently from the 40-card one."""
    forty = mazo.load_game("briscola", players=2).info.deck
    fifty_two = mazo.load_game("trionfetti").info.deck
    assert forty.parse("JO") == 7 and fifty_two.parse("JO") == 10
    enc = Encoder(mazo.load_game("trionfetti"))
    for code in ("1O", "10C", "KB"):
        assert enc._card[code] == fifty_two.parse(code)


OPTIONED = [
    ("briscola", 2, {"open_variant": "scoperta", "trump_two_exchange": True}, None),
    ("briscola", 3, {"three_player_tie_mode": "drop_out", "match_wins_target": 2}, None),
    (
        "briscola",
        4,
        {"signals_enabled": True, "partners_show_hands_before_first_trick": True},
        None,
    ),
    ("envite", 6, {"tumbo_show_captain": True, "renuncio_mode": "penalize"}, {"scores": [11, 3]}),
    ("envite", 4, {"signals": "team_leaky"}, {"scores": [11, 10]}),
    ("trionfetti", 4, {"bottom_card_shown": "on_request", "partner_sharing": "opt_in"}, None),
]


@pytest.mark.parametrize(("name", "players", "options", "setup"), OPTIONED)
def test_optional_blocks_with_talk(
    name: str, players: int, options: dict[str, Any], setup: dict[str, Any] | None
) -> None:
    """Rule options add their blocks; with talk on and some messages sent, vectors stay
    in range and determinized samples still encode alike."""
    game = mazo.load_game(name, players=players, **options)
    plain, chatty = Encoder(game), Encoder(game, talk=True)
    talk = bool(game.info.message_actions) and (
        name != "briscola" or bool(options.get("signals_enabled"))
    )
    assert (chatty.size > plain.size) == talk
    talked = 0
    for k, state in enumerate(random_states(game, seed=5, talk_every=3, setup=setup)):
        if k % 4 or state.match_over:
            continue
        for seat in range(players):
            obs = state.observation(seat)
            for enc in (plain, chatty):
                vec = enc.encode(obs)
                assert vec.shape == (enc.size,)
                assert vec.min() >= 0.0 and vec.max() <= 1.0
            assert set(np.flatnonzero(chatty.action_mask(obs))) == expected_ids(
                game, obs["legal_actions"], talk=True
            )
            talked += bool(obs.get("messages") or obs.get("signals"))
            if k % 12 == 0:
                sample = game.determinize(obs, Rng(k + seat)).observation(seat)
                assert np.array_equal(chatty.encode(sample), chatty.encode(obs))
    assert (talked > 0) == talk


@pytest.mark.parametrize("name", mazo.list_games())
def test_numpy_action_ids_are_actions_everywhere(name: str) -> None:
    """RL code holds numpy ints: the games take them as ids, in every direction."""
    game = mazo.load_game(name)
    state = game.new_match(seed=5)
    legal = state.legal_actions()
    for kind in (np.int64, np.int32, np.uint16):
        held = kind(legal[0])
        assert game.action_to_string(held) == game.action_to_string(legal[0])
        assert state.action_to_string(held) == state.action_to_string(legal[0])
        assert state.apply(held) == state.apply(legal[0])
    with pytest.raises(mazo.InvalidActionError):
        game.action_to_string(True)  # type: ignore[arg-type]
    with pytest.raises(mazo.InvalidActionError):
        game.action_to_string(np.float64(legal[0]))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", mazo.list_games())
def test_encode_seat_is_encode_without_the_checks(name: str) -> None:
    game = mazo.load_game(name)
    encoder = Encoder(game)
    state = game.new_match(seed=2)
    bot = mazo.make_bot("random", game, seed=2)
    for _ in range(60):
        if state.match_over:
            break
        for seat in range(game.players):
            obs = state.observation(seat)
            assert np.array_equal(encoder.encode_seat(obs, seat), encoder.encode(obs))
        state = state.apply(bot.choose(state.observation(state.to_act)))


PLAYED = {"briscola": "played this deal", "envite": "played this deal", "trionfetti": "played"}


def check_played_rows(game: mazo.Game, states: Iterator[Any], every: int = 3) -> tuple[int, int]:
    """Over ``states`` (one match, in order), every ``every``-th position: each card in
    the played-cards block sits in the row of the seat whose hand it left last (row ``r``:
    the seat ``r`` places after the observer), the rows together are the cards the
    observation lists as played (completed tricks; Trionfetti's smazzata log), and the
    match memo's reading (``encode_seat``) is the same.  Returns the cards marked and the
    positions read in a deal of fewer seats (a three-player drop-out)."""
    players = game.players
    enc = Encoder(game)
    off, length = block(enc, PLAYED[game.name])
    deck = game.info.deck
    # two-player Briscola keeps one row for both seats (the encoder says why)
    rows_count = 1 if (game.name, players) == ("briscola", 2) else players
    assert length == rows_count * deck.size
    last_player: dict[str, int] = {}  # card -> the seat whose hand it left last
    before: list[list[str]] | None = None
    memo: dict[str, Any] = {}
    marked = short = 0
    for k, state in enumerate(states):
        hands = [list(state.hand(s)) for s in range(players)]
        if before is not None:
            for s in range(players):
                for c in set(before[s]) - set(hands[s]):
                    last_player[c] = s
        before = hands
        if k % every or state.match_over:
            continue
        for seat in range(players):
            obs = state.observation(seat)
            if game.name == "trionfetti":
                listed = {e["card"] for e in obs["smazzata_log"] if e["type"] == "play"}
            else:
                listed = {c for t in obs["tricks"] for c in t["cards"]}
                short += len(obs.get("seats", range(players))) < players and bool(listed)
            vec = enc.encode(obs)
            assert np.array_equal(enc.encode_seat(obs, seat, memo), vec)
            rows = vec[off : off + length].reshape(rows_count, deck.size)
            found = set()
            for r, c in zip(*np.nonzero(rows), strict=True):
                code = deck.format(int(c))
                if rows_count > 1:
                    assert last_player[code] == (seat + int(r)) % players, (code, seat, int(r))
                found.add(code)
                marked += 1
            assert found == listed
    return marked, short


@pytest.mark.parametrize(("name", "players"), [c for c in CONFIGS if c[0] in PLAYED])
def test_each_played_card_is_in_its_players_row(name: str, players: int) -> None:
    """Who played each card is in the vector (issue 18: what a reader of the hidden
    hands learns from), in the right relative row; two-player Briscola's one row holds
    every played card."""
    game = mazo.load_game(name, players=players)
    marked, _ = check_played_rows(game, random_states(game, seed=40 + players))
    assert marked > 100


def test_played_rows_after_a_three_player_drop_out() -> None:
    """A drop-out deal's tricks skip the seat that is out: the rows still follow the
    seats that played (matches are searched by seed for deals with a seat out)."""
    game = mazo.load_game(
        "briscola", players=3, three_player_tie_mode="drop_out", match_wins_target=2
    )
    short = 0
    for seed in range(400):
        short += check_played_rows(game, random_states(game, seed=seed), every=1)[1]
        if short > 20:
            break
    assert short > 20
