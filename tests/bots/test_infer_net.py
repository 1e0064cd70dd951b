"""Samples weighed by the net's cards head (ISMCTS ``infer=net``, issue 18): the weight
of a sample, the resampling it drives, that the head reads the seat's view only, and the
option's checks.  The nets here are random or built by hand (numpy, no torch): what the
trained head knows is measured in docs/nets.md, not decided by a test."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from conftest import write_random_net  # noqa: E402

import mazo  # noqa: E402
from mazo.bots.ismcts import ISMCTSBot, _card_weigher, _weighing  # noqa: E402
from mazo.core.errors import RulesError  # noqa: E402
from mazo.core.rng import Rng  # noqa: E402
from mazo.nets import load_net  # noqa: E402


def _plays_a_legal_deal(game: Any, bot: Any, seed: int) -> None:
    """``bot`` in seat 0 against ``normal`` for a whole deal: every move legal."""
    normal = mazo.make_bot("normal", game, seed=3)
    state = game.new_match(seed=seed).stop_at_deal_end()
    moves = 0
    while not state.hand_over:
        seat = state.to_act
        move = (bot if seat == 0 else normal).choose(state.observation(seat))
        assert move in state.legal_actions()
        state = state.apply(move, seat=seat)
        moves += 1
    assert moves == 40  # two players, twenty tricks


class _Fixed:
    """A stand-in net whose cards head says ``probs`` whatever it is shown."""

    def __init__(self, probs: list[float]) -> None:
        self.probs = probs
        self.seen: list[dict[str, Any]] = []

    def opponent_cards(self, observation: dict[str, Any]) -> list[float]:
        self.seen.append(observation)
        return self.probs


def test_a_sample_weighs_the_odds_of_the_cards_it_deals_the_opponent() -> None:
    game = mazo.load_game("briscola", players=2)
    state = game.new_match(seed=5)
    me = state.to_act
    deck = game.info.deck
    probs = [0.1 + 0.02 * c for c in range(40)]
    net = _Fixed(probs)
    observation = state.observation(me)
    weigh = _card_weigher(game, net, observation)
    assert net.seen == [observation]  # the seat's own view, read once
    want = math.prod(probs[c] / (1 - probs[c]) for c in map(deck.parse, state.hand(1 - me)))
    assert weigh(state, Rng(0)) == pytest.approx(want)
    # Four players: both opponents' cards count, the partner's do not.
    four = mazo.load_game("briscola", players=4)
    s4 = four.new_match(seed=5)
    seat = s4.to_act
    opponents = [s for s in range(4) if s % 2 != seat % 2]
    cards = [deck.parse(c) for s in opponents for c in s4.hand(s)]
    w4 = _card_weigher(four, net, s4.observation(seat))(s4, Rng(0))
    assert w4 == pytest.approx(math.prod(probs[c] / (1 - probs[c]) for c in cards))


def test_a_head_by_seat_weighs_each_seats_cards_by_its_own_row() -> None:
    """A cards head by seat (``--cards-by-seat``): every other seat's cards, the
    partner's too, count at that seat's own row's odds (row ``r``: the seat ``r + 1``
    places after the observer)."""
    game = mazo.load_game("briscola", players=4)
    deck = game.info.deck
    state = game.new_match(seed=6)
    me = state.to_act
    probs = [0.05 + 0.9 * ((7 * i) % 41) / 41 for i in range(3 * 40)]
    weigh = _card_weigher(game, _Fixed(probs), state.observation(me))
    want = 1.0
    for r in range(3):
        for code in state.hand((me + r + 1) % 4):
            p = probs[r * 40 + deck.parse(code)]
            want *= p / (1 - p)
    assert weigh(state, Rng(0)) == pytest.approx(want)
    # the rows are not interchangeable: the same odds read as a plain head differ
    plain = _card_weigher(game, _Fixed(probs[:40]), state.observation(me))(state, Rng(0))
    assert weigh(state, Rng(0)) != pytest.approx(plain)


def test_resampling_by_the_head_deals_the_opponent_the_cards_it_names() -> None:
    """A head sure of three unseen cards: resampled worlds give them to the opponent
    far more often than uniform samples (three of 37 unseen cards at the first trick:
    about a quarter of a named card a hand)."""
    game = mazo.load_game("briscola", players=2)
    state = game.new_match(seed=8)
    me = state.to_act
    observation = state.observation(me)
    named = {game.info.deck.parse(c) for c in state.hand(1 - me)}
    net = _Fixed([0.95 if c in named else 0.05 for c in range(40)])
    weigh = _card_weigher(game, net, observation)
    plain = game.sampler(observation)
    resampled = _weighing(plain, weigh, 32)
    rng = Rng(3)

    def named_a_hand(draw: Any) -> float:
        return (
            sum(
                len(named & {game.info.deck.parse(c) for c in draw(rng).hand(1 - me)})
                for _ in range(300)
            )
            / 300
        )

    assert named_a_hand(plain) < 0.4
    assert named_a_hand(resampled) > 1.0


def test_a_search_with_infer_net_plays_legal_reproducible_moves(tmp_path: Path) -> None:
    """Two deals that look the same from seat 0 (the second a sample of the first's
    view) get the same cards head and the same search move: no hidden card reaches the
    net.  A whole deal of the search against ``normal`` is legal."""
    game = mazo.load_game("briscola", players=2)
    folder = write_random_net(tmp_path / "net", game)
    net = load_net(game, folder)
    state = game.new_match(seed=11)
    while state.to_act != 0 or not state.observation(0)["tricks"]:
        state = state.apply(state.legal_actions()[0], seat=state.to_act)
    view = state.observation(0)
    other = game.determinize(view, Rng(9))
    assert other.hand(1) != state.hand(1)
    assert net.opponent_cards(view) == net.opponent_cards(other.observation(0))
    options = {"iterations": 40, "infer": "net", "pool": 8, "weights": str(folder)}
    moves = set()
    for s in (state, other, state):
        bot = mazo.make_bot("expert", game, seed=4, **options)
        assert isinstance(bot, ISMCTSBot) and bot.card_net is not None
        move = bot.choose(s.observation(0))
        assert move in s.legal_actions()
        moves.add(move)
    assert len(moves) == 1  # the same view and seed: the same move, whatever is hidden
    # A whole deal against normal, every move legal.
    bot = mazo.make_bot("hard", game, seed=2, iterations=12, infer="net", weights=str(folder))
    _plays_a_legal_deal(game, bot, 12)


def test_infer_net_needs_a_net_with_a_cards_head(tmp_path: Path) -> None:
    game = mazo.load_game("briscola", players=2)
    folder = write_random_net(tmp_path / "plain", game, cards=False)
    with pytest.raises(RulesError, match="--cards-weight"):
        mazo.make_bot("expert", game, seed=1, infer="net", weights=str(folder))
    with pytest.raises(RulesError, match="'net' or 'both'"):
        mazo.make_bot("expert", game, seed=1, infer="cards")
    # A cards head of the wrong width is refused when the net loads.
    wrong = write_random_net(tmp_path / "wide", game)
    with np.load(wrong / "briscola-2p.npz") as data:
        arrays = {k: data[k] for k in data.files}
    arrays["wc"], arrays["bc"] = arrays["wc"][:, :30], arrays["bc"][:30]
    np.savez(wrong / "briscola-2p.npz", **arrays)
    with pytest.raises(RulesError, match="cards head of 30"):
        load_net(game, wrong)
    # Four players: a head by seat (three rows of the deck) loads and a search reads it
    four = mazo.load_game("briscola", players=4)
    seats = write_random_net(tmp_path / "seats", four)
    with np.load(seats / "briscola-4p.npz") as data:
        arrays = {k: data[k] for k in data.files}
    arrays["wc"] = np.concatenate([arrays["wc"]] * 3, axis=1)
    arrays["bc"] = np.concatenate([arrays["bc"]] * 3)
    np.savez(seats / "briscola-4p.npz", **arrays)
    assert len(load_net(four, seats).opponent_cards(four.new_match(seed=1).observation(0))) == 120
    bot = mazo.make_bot("expert", four, seed=1, infer="net", weights=str(seats), iterations=8)
    state = four.new_match(seed=2)
    assert bot.choose(state.observation(state.to_act)) in state.legal_actions()
    arrays["wc"], arrays["bc"] = arrays["wc"][:, :80], arrays["bc"][:80]
    np.savez(seats / "briscola-4p.npz", **arrays)
    with pytest.raises(RulesError, match=r"cards head of 80.*by seat: 120"):
        load_net(four, seats)


def test_the_shipped_briscola_cards_head_reads_only_the_seats_view() -> None:
    """The shipped two-player Briscola net has a cards head, and it says the same of a
    deal and of a sample of the seat's view of it (other hidden cards) at every decision
    of a few deals: a hidden card never reaches it."""
    game = mazo.load_game("briscola", players=2)
    net = load_net(game)
    assert net.net.cards == 40
    rng = Rng(21)
    checked = 0
    for seed in range(4):
        state: Any = game.new_match(seed=seed).stop_at_deal_end()
        bots = [mazo.make_bot("normal", game, seed=seed + s) for s in range(2)]
        while not state.hand_over:
            seat = state.to_act
            view = state.observation(seat)
            twin = game.determinize(view, rng)
            assert twin.observation(seat) == view
            assert net.opponent_cards(twin.observation(seat)) == net.opponent_cards(view)
            checked += 1
            state = state.apply(bots[seat].choose(view), seat=seat)
    assert checked >= 150


def _deal_with_plays(game: Any, seed: int) -> Any:
    """A two-player Briscola deal played by ``normal`` until seat 0 acts with two of the
    opponent's plays behind it (the play reader has something to read)."""
    bots = [mazo.make_bot("normal", game, seed=seed + s) for s in range(2)]
    state = game.new_match(seed=seed).stop_at_deal_end()
    while state.to_act != 0 or len(state.observation(0)["tricks"]) < 2:
        seat = state.to_act
        state = state.apply(bots[seat].choose(state.observation(seat)), seat=seat)
    return state


def test_infer_both_weighs_the_plays_times_the_square_root_of_the_nets_odds(
    tmp_path: Path,
) -> None:
    """``infer=both``: a sample's weight is the play reader's likelihood (the same draws)
    times the net's odds to the power one half; before the opponent has played, the
    net's halved odds alone; ``infer=net`` keeps the odds whole."""
    from mazo.bots.heuristic.briscola import play_likelihood
    from mazo.bots.ismcts import NET_POWER

    assert NET_POWER == 0.5
    game = mazo.load_game("briscola", players=2)
    folder = write_random_net(tmp_path / "net", game)
    deck = game.info.deck
    probs = [0.05 + 0.02 * c for c in range(40)]
    state = _deal_with_plays(game, 31)
    view = state.observation(0)
    bot = mazo.make_bot("expert", game, seed=1, infer="both", weights=str(folder))
    assert isinstance(bot, ISMCTSBot) and bot.play_reader is not None
    bot.card_net = _Fixed(probs)
    weigh = bot._weigher(view)
    plays = play_likelihood(game, view)
    assert weigh is not None and plays is not None
    sampler = game.sampler(view)
    rng = Rng(5)
    for k in range(40):
        sample = sampler(rng)
        odds = math.prod(probs[c] / (1 - probs[c]) for c in map(deck.parse, sample.hand(1)))
        want = plays(sample, Rng(k)) * math.sqrt(odds)
        assert weigh(sample, Rng(k)) == pytest.approx(want, rel=1e-9)
    # The first decision of a deal: nothing of the opponent's to read, the net alone.
    first = game.new_match(seed=4)
    me = first.to_act
    first_view = first.observation(me)
    assert play_likelihood(game, first_view) is None
    alone = bot._weigher(first_view)
    assert alone is not None
    odds = math.prod(probs[c] / (1 - probs[c]) for c in map(deck.parse, first.hand(1 - me)))
    assert alone(first, Rng(0)) == pytest.approx(math.sqrt(odds))
    # infer=net: the odds whole, no play reader.
    net_bot = mazo.make_bot("expert", game, seed=1, infer="net", weights=str(folder))
    assert isinstance(net_bot, ISMCTSBot) and net_bot.play_reader is None
    net_bot.card_net = _Fixed(probs)
    whole = net_bot._weigher(first_view)
    assert whole is not None and whole(first, Rng(0)) == pytest.approx(odds)


def test_a_search_with_infer_both_finishes_a_deal_with_legal_reproducible_moves(
    tmp_path: Path,
) -> None:
    game = mazo.load_game("briscola", players=2)
    folder = write_random_net(tmp_path / "net", game)
    state = _deal_with_plays(game, 32)
    options = {"iterations": 30, "infer": "both", "weights": str(folder)}
    moves = {mazo.make_bot("expert", game, seed=6, **options).choose(state.observation(0))}
    moves.add(mazo.make_bot("expert", game, seed=6, **options).choose(state.observation(0)))
    assert len(moves) == 1 and moves <= set(state.legal_actions())
    bot = mazo.make_bot("hard", game, seed=2, iterations=12, infer="both", weights=str(folder))
    _plays_a_legal_deal(game, bot, 13)


def test_infer_both_needs_both_readers(tmp_path: Path) -> None:
    """A game without a play reader, or a net without a cards head, is refused with
    what to use instead."""
    trionfetti = mazo.load_game("trionfetti", players=4)
    folder = write_random_net(tmp_path / "t", trionfetti)
    with pytest.raises(RulesError, match="infer=both needs the game's play_likelihood"):
        mazo.make_bot("expert", trionfetti, seed=1, infer="both", weights=str(folder))
    game = mazo.load_game("briscola", players=2)
    plain = write_random_net(tmp_path / "plain", game, cards=False)
    with pytest.raises(RulesError, match="--cards-weight"):
        mazo.make_bot("expert", game, seed=1, infer="both", weights=str(plain))


def test_infer_both_is_the_net_at_full_power_where_plays_are_never_read(
    tmp_path: Path,
) -> None:
    """Four-player Briscola's play reader never reads (``reads_plays`` is False there),
    so ``infer=both`` weighs by the net's odds whole, exactly as ``infer=net``; two
    players keep the reader and the halved odds."""
    from mazo.bots.heuristic.briscola import reads_plays

    four = mazo.load_game("briscola", players=4)
    assert not reads_plays(four) and reads_plays(mazo.load_game("briscola", players=2))
    assert not reads_plays(mazo.load_game("briscola", players=2, trump_two_exchange=True))
    folder = write_random_net(tmp_path / "net", four)
    state = four.new_match(seed=9)
    view = state.observation(state.to_act)
    probs = [0.05 + 0.02 * c for c in range(40)]
    weights = []
    for infer in ("both", "net"):
        bot = mazo.make_bot("expert", four, seed=1, infer=infer, weights=str(folder))
        assert isinstance(bot, ISMCTSBot) and bot.play_reader is None
        bot.card_net = _Fixed(probs)
        weigh = bot._weigher(view)
        assert weigh is not None
        weights.append(weigh(state, Rng(0)))
    me = view["seat"]
    cards = [four.info.deck.parse(c) for s in range(4) if s % 2 != me % 2 for c in state.hand(s)]
    assert (
        weights[0]
        == weights[1]
        == pytest.approx(math.prod(probs[c] / (1 - probs[c]) for c in cards))
    )


def test_two_player_briscolas_search_levels_read_both_with_the_shipped_net() -> None:
    """Session 16: the two-player Briscola preset weighs its samples by both readers with
    the shipped net's cards head.  Session 21: four players' net has a head by seat and
    no plays are read there, so the same preset reads the net alone at full power."""
    two = mazo.load_game("briscola", players=2)
    for level in ("hard", "expert"):
        bot = mazo.make_bot(level, two, seed=1)
        assert isinstance(bot, ISMCTSBot)
        assert bot.card_net is not None and bot.card_net.net.cards == 40
        assert bot.play_reader is not None
    four = mazo.load_game("briscola", players=4)
    assert load_net(four).net.cards == 3 * 40  # a row of the deck for each other seat
    for level in ("hard", "expert"):
        bot = mazo.make_bot(level, four, seed=1)
        assert isinstance(bot, ISMCTSBot)
        assert bot.card_net is not None and bot.play_reader is None
