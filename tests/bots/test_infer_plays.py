"""Samples weighed by the opponent's card plays (ISMCTS ``infer=plays``, issue 18): the
two-player Briscola model (``play_likelihood``) on built deals, the resampling step, and
the option's checks.  No strength number decides a test here."""

from __future__ import annotations

import math
import statistics
from typing import Any

import pytest

import mazo
from mazo.bots.heuristic import briscola as hb
from mazo.bots.ismcts import _weighing
from mazo.core.cards import LATIN_40
from mazo.core.errors import RulesError
from mazo.core.game import State
from mazo.core.rng import Rng

# Seat 0 leads (dealer 1) and holds 1C 2B 4B; seat 1 holds 4E 5E 6E; the indicator 7O
# makes oros trumps.  After the first trick the winner draws the 8th card, the other the
# 9th: only the 9th differs between the two packs.
FRONT = ["1C", "2B", "4B", "4E", "5E", "6E", "7O", "3B"]
ALL_CARDS = LATIN_40.codes((1 << 40) - 1)


def _pack(ninth: str) -> list[str]:
    return [*FRONT, ninth, *(c for c in ALL_CARDS if c not in FRONT and c != ninth)]


def _deal(ninth: str) -> State:
    """Trick 1 played: seat 0's ace of cups, seat 1's 4 of swords (no trump on an ace)."""
    pack = _pack(ninth)
    game = mazo.load_game("briscola", players=2)
    state = game.new_match(seed=0, decks=[pack], dealer=1)
    for seat, card in ((0, "1C"), (1, "4E")):
        state = state.apply(game.string_to_action(card), seat=seat)
    return state


def test_a_plain_card_thrown_on_an_ace_makes_a_trump_in_that_hand_unlikely() -> None:
    # In world A the opponent (seat 1) drew the 2 of trumps after the trick, in world B
    # the 7 of swords.  Which of its three cards came last is not known, so in world A
    # its hand at trick 1 held that trump two times in three: `normal` would have taken
    # an ace (11 points) with it, not thrown the 4 of swords.  In world B it never held
    # a trump then.
    with_trump, without = _deal("2O"), _deal("7E")
    assert with_trump.observation(0)["hand"] == without.observation(0)["hand"]
    game = with_trump.game
    observation = with_trump.observation(0)
    assert observation == without.observation(0)  # the same view from seat 0
    weigh = hb.play_likelihood(game, observation)
    assert weigh is not None
    rng = Rng(1)
    a = statistics.mean(weigh(with_trump, rng) for _ in range(300))
    b = statistics.mean(weigh(without, rng) for _ in range(300))
    assert b > 2 * a
    # World A: with the trump in its hand then, the throw is left to the model's slip
    # (0.1 over three cards); without it (the trump was the card drawn last), as likely
    # as in world B.  World B: three plain cards then, whichever came last, and the 4 of
    # swords the likeliest throw of each.
    slip_only = hb.READ_SLIP / 3
    in_a = {round(weigh(with_trump, rng), 9) for _ in range(60)}
    in_b = {round(weigh(without, rng), 9) for _ in range(60)}
    assert min(in_a) < 1.1 * slip_only and max(in_a) in in_b
    assert min(in_b) > 0.45
    # The heuristic itself, seated there with 4E 5E 6E, throws the 4 of swords.
    heuristic = hb.BriscolaHeuristic(game, 0)
    first = game.new_match(seed=0, decks=[_pack("7E")], dealer=1)
    first = first.apply(game.string_to_action("1C"), seat=0)
    assert game.action_to_string(heuristic.choose(first.observation(1))) == "4E"
    assert b > 1 / 3  # the play the model expects weighs more than a uniform choice


def test_nothing_is_read_where_there_is_no_play_or_the_variant_shows_cards() -> None:
    game = mazo.load_game("briscola", players=2)
    start = game.new_match(seed=4)
    leader = start.to_act
    assert hb.play_likelihood(game, start.observation(leader)) is None  # nothing played
    four = mazo.load_game("briscola", players=4)
    state = four.new_match(seed=4)
    state = state.apply(state.legal_actions()[0], seat=state.to_act)
    assert hb.play_likelihood(four, state.observation(state.to_act)) is None
    plain = game.new_match(seed=4)
    plain = plain.apply(plain.legal_actions()[0], seat=plain.to_act)
    assert hb.play_likelihood(game, plain.observation(plain.to_act)) is not None
    for options in ({"trump_two_exchange": True}, {"open_variant": "open_hands"}):
        variant = mazo.load_game("briscola", players=2, **options)
        state = variant.new_match(seed=4)
        while not state.observation(None)["tricks"] and not state.observation(None)["trick"]:
            state = state.apply(state.legal_actions()[0], seat=state.to_act)
        assert hb.play_likelihood(variant, state.observation(state.to_act)) is None


def test_the_true_hand_weighs_more_than_the_average_sample_in_normal_play() -> None:
    # Normal against normal; at several decisions, the real deal's weight against the
    # mean weight of the samples of the same observation: the model is the opponent's
    # own heuristic, so the truth should stand out (by a factor of about 2, geometric
    # mean; the test asks for more than 1.3 over 60 positions).
    game = mazo.load_game("briscola", players=2)
    ratios = []
    for seed in range(12):
        state: Any = game.new_match(seed=seed).stop_at_deal_end()
        bots = [mazo.make_bot("normal", game, seed=seed * 2 + i) for i in range(2)]
        rng = Rng(seed)
        step = 0
        while not state.hand_over:
            observation = state.observation(state.to_act)
            if step % 7 == 3:
                weigh = hb.play_likelihood(game, observation)
                if weigh is not None:
                    sample = game.sampler(observation)
                    mean = statistics.mean(weigh(sample(rng), rng) for _ in range(100))
                    truth = statistics.mean(weigh(state, rng) for _ in range(10))
                    ratios.append(truth / mean)
            state = state.apply(bots[state.to_act].choose(observation))
            step += 1
    assert len(ratios) >= 60
    assert math.exp(statistics.mean(math.log(r) for r in ratios)) > 1.3


def test_resampling_keeps_samples_in_proportion_to_their_weight() -> None:
    counter = iter(range(10**6))

    def determinize(rng: Rng) -> Any:
        return next(counter) % 4  # stands for a state: samples 0, 1, 2, 3 in turn

    def weigh(sample: Any, rng: Rng) -> float:
        return [0.0, 1.0, 3.0, 0.0][sample]

    sample = _weighing(determinize, weigh, 4)
    rng = Rng(7)
    got = [sample(rng) for _ in range(4000)]
    assert set(got) == {1, 2}  # a sample of weight 0 is never kept
    assert abs(got.count(2) / len(got) - 0.75) < 0.03
    # Where every sample weighs nothing, one of them is kept all the same.
    flat = _weighing(determinize, lambda s, r: 0.0, 4)
    assert flat(rng) in (0, 1, 2, 3)


def test_infer_plays_options_are_checked() -> None:
    briscola = mazo.load_game("briscola", players=2)
    with pytest.raises(RulesError, match="pool must be an int from 1 to 64"):
        mazo.make_bot("expert", briscola, seed=1, infer="plays", pool=0)
    with pytest.raises(RulesError, match="'none', 'bets', 'all', 'plays', 'net' or 'both'"):
        mazo.make_bot("expert", briscola, seed=1, infer="cards")
    envite = mazo.load_game("envite", players=4)
    with pytest.raises(RulesError, match="needs the game's play_likelihood"):
        mazo.make_bot("expert", envite, seed=1, infer="plays")


def test_a_search_reading_plays_finishes_a_deal_with_legal_moves() -> None:
    game = mazo.load_game("briscola", players=2)
    bot = mazo.make_bot("expert", game, seed=5, iterations=12, infer="plays", pool=3)
    state: Any = game.new_match(seed=8).stop_at_deal_end()
    while not state.hand_over:
        action = bot.choose(state.observation(state.to_act))
        assert action in state.legal_actions()
        state = state.apply(action)


def _escoba_deal(opponent: list[str]) -> State:
    """Two-player Escoba, dealer seat 1: seat 0 holds ``opponent``, seat 1 holds 6O 7O
    QO, the table 2C 3C 4C 1E (worth 10: a five sweeps it); seat 0 lays the 1 of clubs."""
    mine = ["6O", "7O", "QO"]
    table = ["2C", "3C", "4C", "1E"]
    front = [card for pair in zip(opponent, mine, strict=True) for card in pair] + table
    pack = [*front, *(c for c in ALL_CARDS if c not in front)]
    game = mazo.load_game("escoba", players=2)
    state = game.new_match(seed=0, decks=[pack], dealer=1)
    return state.apply(game.string_to_action("1B"), seat=0)


def test_an_escoba_left_on_the_table_makes_the_sweeping_card_unlikely() -> None:
    from mazo.bots.heuristic import escoba as he

    # World A: seat 0 held 1B 5B 7B and laid the 1 of clubs where the 5 of clubs swept
    # the table (an escoba, a point) and the 7 captured: `normal` would not have.  World
    # B: 1B 4B 4O, three cards that can only be laid, and the 1 is the one `normal`
    # lays (it leaves the table hardest to sweep).  Seat 1 sees the same in both.
    sweeper, plain = _escoba_deal(["1B", "5B", "7B"]), _escoba_deal(["1B", "4B", "4O"])
    observation = sweeper.observation(1)
    assert observation == plain.observation(1)
    game = sweeper.game
    heuristic = he.EscobaHeuristic(game, 0)
    before = game.new_match(seed=0, decks=[sweeper.record()["deals"][0]["deck"]], dealer=1)
    assert game.action_to_string(heuristic.choose(before.observation(0))) == "5B+2C+3C+4C+1E"
    weigh = he.play_likelihood(game, observation)
    assert weigh is not None
    rng = Rng(3)
    a, b = weigh(sweeper, rng), weigh(plain, rng)
    assert b > 3 * a
    assert b > 1 / 3  # the play the model expects weighs more than a uniform choice
    # Nothing to read before anyone else has played this round.
    assert he.play_likelihood(game, before.observation(0)) is None


def test_escoba_searches_reading_plays_finish_a_hand_with_legal_moves() -> None:
    for players in (2, 4):
        game = mazo.load_game("escoba", players=players)
        bot = mazo.make_bot("expert", game, seed=5, iterations=8, infer="plays")
        state: Any = game.new_match(seed=8).stop_at_deal_end()
        while not state.hand_over:
            action = bot.choose(state.observation(state.to_act))
            assert action in state.legal_actions()
            state = state.apply(action)


def test_escobas_reader_sees_exactly_the_plays_the_engine_allows() -> None:
    # The reader models another seat's choice among its legal plays: those must be the
    # engine's own, card for card and set for set, or a sample would be weighed on moves
    # the rules never offered.  Positions from random hands of every player count.
    from mazo.games.escoba import _CAPTURE_IDS, _capture_table, _plays_on

    _capture_table()  # the capture ids, built on first use
    game_rng = Rng(11)
    checked = 0
    for players in (2, 3, 4):
        game = mazo.load_game("escoba", players=players)
        card_of = {a: (c, m) for c, ids in enumerate(_CAPTURE_IDS) for m, a in ids.items()}
        for seed in range(40):
            state: Any = game.new_match(seed=seed).stop_at_deal_end()
            while not state.hand_over:
                seat = state.to_act
                hand = state._h >> 40 * seat & (1 << 40) - 1
                table = sum(1 << c for c in state._table)
                legal = state.legal_actions()
                engine = sorted(card_of.get(a, (a, 0)) for a in legal)
                assert sorted(_plays_on(hand, table)) == engine
                checked += 1
                state = state.apply(legal[game_rng.randbelow(len(legal))])
    assert checked > 2_000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_escobas_reader_gives_each_sample_the_same_weight_however_often_it_is_asked(
    players: int,
) -> None:
    # The reader keeps the chances it has worked out, per play read and per hand: a
    # weight must not depend on which samples were weighed before it.  One reader asked
    # about 60 samples in turn, then 20 of them again (answered from what it kept),
    # against a fresh reader per sample, at every position of three hands where there is
    # something to read.
    from mazo.bots.heuristic import escoba as he

    game = mazo.load_game("escoba", players=players)
    bots = [mazo.make_bot("normal", game, seed=s) for s in range(players)]
    read = 0
    for match in range(3):
        state: Any = game.new_match(seed=40 + match).stop_at_deal_end()
        while not state.hand_over:
            seat = state.to_act
            observation = state.observation(seat)
            reader = he.play_likelihood(game, observation)
            if reader is not None:
                read += 1
                rng = Rng(read)
                samples = [game.determinize(observation, rng) for _ in range(60)]
                samples += samples[:20]
                kept = [reader(s, rng) for s in samples]
                fresh = []
                for s in samples:
                    alone = he.play_likelihood(game, observation)
                    assert alone is not None
                    fresh.append(alone(s, rng))
                assert kept == fresh
                assert all(0 < w <= 1 for w in kept)
            state = state.apply(bots[seat].choose(observation))
    assert read >= 10
