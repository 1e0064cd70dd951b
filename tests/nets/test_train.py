"""Training: the self-play data is reproducible and labelled right, the numpy forward
pass equals torch's, and ``mazo train`` runs end to end and gives the same weights twice
with the same seed (torch tests are skipped where torch is not installed)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mazo
from mazo.nets import ActionFeatures, PolicyValueNet, load_net
from mazo.train.data import Dataset, deal_outcome, self_play


def test_self_play_is_reproducible_and_labels_every_decision() -> None:
    game = mazo.load_game("trionfetti", players=4)
    a = self_play(game, deals=12, seed=4)
    b = self_play(game, deals=12, seed=4)
    c = self_play(game, deals=12, seed=5)
    assert a.deals == 12 and len(a) > 0
    for key in ("x", "cand", "target", "margin", "win", "match"):
        assert np.array_equal(getattr(a, key), getattr(b, key)), key
    assert not np.array_equal(a.target, c.target) or not np.array_equal(a.x, c.x)
    # every decision's action is one of its candidates; outcomes are in range
    k = a.cand.shape[1]
    assert ((a.target >= 0) & (a.target < k)).all()
    assert (a.cand[np.arange(len(a)), a.target, 0] != a.pad).all()
    assert (np.abs(a.margin) <= 1).all() and set(np.unique(a.win)) <= {0.0, 0.5, 1.0}


def test_self_play_with_values_labels_every_candidate_on_the_real_cards() -> None:
    """``values``: each kept decision has a value per candidate (NaN only on padding),
    at least two of them, in the reward's range; the same seeds give the same data."""
    from mazo.bots.levels import make_level

    game = mazo.load_game("briscola", players=2)
    runs = []
    for _ in range(2):
        judge = make_level("expert", game, 5, iterations=1)
        runs.append(self_play(game, deals=3, seed=2, values=judge.world_values))  # type: ignore[attr-defined]
    a, b = runs
    assert a.q is not None and b.q is not None and len(a) > 50
    assert np.array_equal(a.q, b.q, equal_nan=True) and np.array_equal(a.x, b.x)
    real = a.cand[:, :, 0] != a.pad
    assert np.array_equal(~np.isnan(a.q), real)
    assert (real.sum(axis=1) >= 2).all()
    assert ((a.q[real] >= 0) & (a.q[real] <= 1)).all()
    plain = self_play(game, deals=3, seed=2)
    assert plain.q is None and len(plain) > len(a)  # forced moves are kept without values


def test_self_play_in_worker_processes_is_the_same_data() -> None:
    """``workers``: matches played in other processes, kept in match order and cut where
    one process stops, give the same data, array for array; a teacher's judge is made
    per match, so its labels are the same too.  A judge of this process's own cannot go
    to workers, and no workers is refused."""
    from mazo.train.data import Teacher

    def same(a: Dataset, b: Dataset) -> bool:
        fields = ("x", "cand", "target", "margin", "win", "match", "q", "held", "unseen")
        for name in fields:
            u, v = getattr(a, name), getattr(b, name)
            if (u is None) != (v is None) or (u is not None and not np.array_equal(u, v, True)):
                return False
        return (a.deals, a.matches, a.pad) == (b.deals, b.matches, b.pad)

    game = mazo.load_game("envite", players=4, chicos_to_win=1)  # the second match cut
    one = self_play(game, deals=7, seed=3, cards=True)
    two = self_play(game, deals=7, seed=3, cards=True, workers=2)
    assert same(one, two) and one.deals == 7 and one.matches >= 2
    assert not same(one, self_play(game, deals=6, seed=3, cards=True, workers=2))
    briscola = mazo.load_game("briscola", players=2)
    teacher = Teacher("search", iterations=4)
    labelled = self_play(briscola, deals=2, seed=2, teacher=teacher)
    assert labelled.q is not None and len(labelled) > 10
    assert same(labelled, self_play(briscola, deals=2, seed=2, teacher=teacher, workers=3))
    with pytest.raises(ValueError, match="teacher for workers"):
        self_play(briscola, deals=2, seed=2, values=lambda state, seat: {}, workers=2)
    with pytest.raises(ValueError, match="workers must be 1 or more"):
        self_play(briscola, deals=2, seed=2, workers=0)


def _recorded_decisions(game: mazo.Game, data: Any, seed: int) -> Iterator[tuple[int, Any, Any]]:
    """Replay the self-play of ``data`` (made with ``seed``) from the seeds: ``(row,
    state, observation)`` at each decision that has a row, in order (the test's check
    that the rows are the decisions the matches made)."""
    from mazo.bots import make_bot
    from mazo.core.rng import derive_seed
    from mazo.env.encoding import Encoder

    encoder = Encoder(game)
    row = 0
    for match in range(data.matches):
        bots = [
            make_bot("normal", game, seed=derive_seed(seed, "train-bot", match, s))
            for s in range(game.players)
        ]
        state = game.new_match(seed=derive_seed(seed, "train-match", match))
        while row < len(data) and not state.match_over:
            seat = state.to_act
            obs = state.observation(seat)
            action = bots[seat].choose(obs)
            if action in encoder.legal_ids(obs):
                yield row, state, obs
                row += 1
            state = state.apply(action, seat=seat)
    assert row == len(data)


def test_self_play_records_the_moves_of_the_bot_it_is_given() -> None:
    """``bot`` with options (``--bot expert:iterations=100``: expert iteration's labels):
    every seat is that bot, seeded as the module says, and the targets are its moves."""
    from mazo.core.rng import derive_seed
    from mazo.env.encoding import Encoder

    game = mazo.load_game("briscola", players=2)
    spec = "ismcts:iterations=4:rollout=plain"
    data = self_play(game, deals=2, seed=3, bot=spec)
    plain = self_play(game, deals=2, seed=3)
    assert len(data) == len(plain) == 2 * 40  # a deal: forty cards played
    assert not np.array_equal(data.target, plain.target)  # not normal's moves
    with pytest.raises(ValueError, match="thinks for a time budget"):
        self_play(game, deals=1, seed=3, bot="hard")  # a clock: the data would not repeat
    bots = [
        mazo.make_bot(
            "ismcts", game, seed=derive_seed(3, "train-bot", 0, s), iterations=4, rollout="plain"
        )
        for s in range(2)
    ]
    encoder = Encoder(game)
    state = game.new_match(seed=derive_seed(3, "train-match", 0))
    taken = []
    while len(taken) < int((data.match == 0).sum()):
        seat = state.to_act
        observation = state.observation(seat)
        action = bots[seat].choose(observation)
        taken.append(encoder.legal_ids(observation).index(action))
        state = state.apply(action, seat=seat)
    assert taken == data.target[data.match == 0].tolist()


def test_a_mix_puts_another_bot_on_one_side_and_learns_only_the_other() -> None:
    """``mix``: in every match (a share of 1) one side, drawn per match, is played by
    ``random`` and none of its decisions is a row: two-player Briscola has 20 decisions
    a seat a deal, so 20 rows a deal instead of 40.  The draw is the match's own (the
    same with workers), and a share of it is about that share of the matches."""
    from mazo.train.mix import mixed_side

    game = mazo.load_game("briscola", players=2)
    plain = self_play(game, deals=6, seed=2)
    mixed = self_play(game, deals=6, seed=2, mix=(("random", 1.0),))
    assert len(plain) == 6 * 40 and len(mixed) == 6 * 20
    assert all(mixed_side(game, 2, m, (("random", 1.0),)) is not None for m in range(20))
    sides = {mixed_side(game, 2, m, (("random", 1.0),))[0] for m in range(20)}  # type: ignore[index]
    assert sides == {0, 1}
    quarter = [mixed_side(game, 5, m, (("random", 0.25),)) for m in range(400)]
    assert 70 <= sum(q is not None for q in quarter) <= 130
    assert mixed_side(game, 5, 3, ()) is None
    team = mazo.load_game("envite", players=4, chicos_to_win=1)
    one = self_play(team, deals=5, seed=3, mix=(("random", 0.5),))
    two = self_play(team, deals=5, seed=3, mix=(("random", 0.5),), workers=2)
    assert np.array_equal(one.x, two.x) and np.array_equal(one.target, two.target)
    assert not np.array_equal(one.target, self_play(team, deals=5, seed=3).target)
    with pytest.raises(ValueError, match="add up to more than 1"):
        self_play(game, deals=1, seed=1, mix=(("random", 0.6), ("easy", 0.6)))
    with pytest.raises(ValueError, match=r"share of 'random' must be above 0 and at most 1"):
        self_play(game, deals=1, seed=1, mix=(("random", 0.0),))


@pytest.mark.parametrize(("name", "players"), [("briscola", 2), ("trionfetti", 4)])
def test_self_play_records_the_cards_the_opponents_hold(name: str, players: int) -> None:
    """``cards``: each decision's row names exactly the cards the seats of the other side
    hold at that moment (the matches replayed with the same seeds to check), and the
    plain data is the same with or without it."""
    game = mazo.load_game(name, players=players)
    data = self_play(game, deals=2, seed=3, cards=True)
    plain = self_play(game, deals=2, seed=3)
    assert data.held is not None and plain.held is None and plain.unseen is None
    assert data.held.shape == (len(data), game.info.deck.size)
    assert np.array_equal(data.x, plain.x)
    side_of = game.info.side_of
    for row, state, obs in _recorded_decisions(game, data, 3):
        seat = obs["seat"]
        want = sorted(
            game.info.deck.parse(c)
            for s in range(players)
            if side_of[s] != side_of[seat]
            for c in state.hand(s)
        )
        assert np.flatnonzero(data.held[row]).tolist() == want
        # unseen: what the view names nowhere; the seat's hand and the cards played are
        # named, the opponents' cards are not (Briscola: until the face-up trump card is
        # drawn)
        assert data.unseen is not None
        unseen = set(np.flatnonzero(data.unseen[row]).tolist())
        named = {game.info.deck.parse(c) for c in state.hand(seat)}
        named |= {game.info.deck.parse(t["card"]) for t in obs.get("trick", [])}
        assert not unseen & named
        if name == "briscola" and obs["stock_size"] > 0:
            assert set(want) <= unseen


@pytest.mark.parametrize(("name", "players"), [("briscola", 4), ("trionfetti", 4), ("briscola", 2)])
def test_self_play_by_seat_says_which_seat_holds_each_card(name: str, players: int) -> None:
    """``cards="seats"``: one deck's row per other seat in relative order.  Row ``r``
    holds the hand of the seat ``r + 1`` places after the deciding seat (replayed from
    the seeds), the opponents' rows together are the plain head's labels, the unseen
    mask is the plain one on every row, and with two players the two layouts are one."""
    game = mazo.load_game(name, players=players)
    size = game.info.deck.size
    seats = self_play(game, deals=2, seed=5, cards="seats")
    plain = self_play(game, deals=2, seed=5, cards=True)
    assert seats.held is not None and plain.held is not None
    assert seats.unseen is not None and plain.unseen is not None
    assert seats.held.shape == (len(plain), (players - 1) * size)
    assert np.array_equal(seats.x, plain.x)
    rows = seats.held.reshape(len(seats), players - 1, size)
    unseen = seats.unseen.reshape(len(seats), players - 1, size)
    opponent_rows = [r for r in range(players - 1) if (r + 1) % 2 == 1]  # seats 1, 3 after
    assert np.array_equal(rows[:, opponent_rows].max(axis=1), plain.held)
    for r in range(players - 1):
        assert np.array_equal(unseen[:, r], plain.unseen)
    with pytest.raises(ValueError, match="cards must be False, True or 'seats'"):
        self_play(game, deals=1, seed=5, cards="seat")
    for row, state, obs in _recorded_decisions(game, seats, 5):
        for r in range(players - 1):
            other = (obs["seat"] + r + 1) % players
            want = sorted(game.info.deck.parse(c) for c in state.hand(other))
            assert np.flatnonzero(rows[row, r]).tolist() == want


def test_named_cards_reads_every_code_in_a_view() -> None:
    from mazo.train.data import named_cards

    deck = mazo.load_game("escoba", players=2).info.deck
    ids = {deck.format(c): c for c in range(deck.size)}
    view = {"hand": ["7O", "1C"], "table": [["3E"]], "legal_actions": ["7O+3E"], "seat": 1}
    assert named_cards(view, ids) == {ids["7O"], ids["1C"], ids["3E"]}
    assert named_cards({"phase": "play", "note": "O"}, ids) == set()


def test_deal_outcome_for_three_sides() -> None:
    assert deal_outcome([50, 40, 30], 0) == (10 / 120, 1.0)
    assert deal_outcome([50, 40, 30], 2) == (-20 / 120, 0.0)
    assert deal_outcome([0, 0], 0) == (0.0, 0.5)


def test_escoba_actions_are_described_by_their_cards() -> None:
    game = mazo.load_game("escoba", players=2)
    features = ActionFeatures(game)
    state = game.new_match(seed=2)
    for action in state.legal_actions():
        text = game.action_to_string(action)
        feats = features.of(action)
        cards = text.split("+")
        assert len(feats) == (1 if len(cards) == 1 else len(cards) + 1) or len(cards) == 1
        assert feats[0] < 40 and all(40 <= f < 80 for f in feats[1:-1])
    with pytest.raises(mazo.RulesError):
        ActionFeatures(mazo.load_game("briscola", players=2)).of(50)


def _table_left_by_hand(table: list[str], text: str) -> int:
    """Escoba's context feature written out from rules/escoba.md: the table an action
    leaves (a capture removes what it takes, a lay adds its card), and the one card value
    that takes it all (cards sum to 15 with it; J 8, Q 9, K 10)."""
    values = {"J": 8, "Q": 9, "K": 10}
    cards = text.split("+")
    left = [c for c in table if c not in cards[1:]] if len(cards) > 1 else [*table, text]
    if not left:
        return 0
    total = sum(values.get(c[:-1]) or int(c[:-1]) for c in left)
    return 15 - total if 1 <= 15 - total <= 10 else 11


def test_escoba_context_features_say_what_the_table_left_offers() -> None:
    """With ``context`` each action gets one feature more, from the position: which card
    value sweeps the table the action leaves (0: the action sweeps it; 11: no one card).
    Checked against the rule written out by hand over the positions of whole matches."""
    game = mazo.load_game("escoba", players=2)
    plain, ctx = ActionFeatures(game), ActionFeatures(game, context=True)
    assert (ctx.kind, ctx.size, ctx.width()) == ("cards+context", plain.size + 12, 11)
    seen: set[int] = set()
    for seed in range(3):
        state = game.new_match(seed=seed)
        while not state.match_over and state.to_act is not None:
            obs = state.observation(state.to_act)
            legal = state.legal_actions()
            rows = ctx.of_legal(obs, legal)
            for action, row in zip(legal, rows, strict=True):
                text = game.action_to_string(action)
                assert row[:-1] == plain.of(action)
                want = _table_left_by_hand(obs["table"], text)
                assert row[-1] == plain.size + want, (obs["table"], text)
                seen.add(want)
            assert plain.of_legal(obs, legal) == [plain.of(a) for a in legal]
            state = state.apply(legal[seed % len(legal)])
    assert {0, 11} <= seen and len(seen & set(range(1, 11))) >= 8
    # the labels follow the game's deck style: French faces read the same positions
    french = mazo.load_game("escoba", players=2, deck_style="french_faces")
    state = french.new_match(seed=1)
    obs = state.observation(state.to_act)
    legal = state.legal_actions()
    assert ActionFeatures(french, context=True).of_legal(obs, legal) == ctx.of_legal(
        game.new_match(seed=1).observation(state.to_act), legal
    )
    with pytest.raises(mazo.RulesError, match="no action context features"):
        ActionFeatures(mazo.load_game("briscola", players=2), context=True)


torch = pytest.importorskip("torch")


def test_numpy_forward_equals_torch() -> None:
    from mazo.train.fit import Model, candidate_logits, export

    torch.manual_seed(0)
    model = Model(262, 64, 50)
    net = PolicyValueNet(export(model))
    x = (np.random.default_rng(0).random((300, 262)) < 0.1).astype(np.float32)
    with torch.no_grad():
        tf, tv = model(torch.from_numpy(x))
    nf, nv = net.forward(x)
    assert np.abs(nf - tf.numpy()).max() < 1e-5 and np.abs(nv - tv.numpy()).max() < 1e-5
    # one row at a time, through evaluate and candidate features, as a bot calls it
    cand = torch.tensor([[[3, 50], [7, 9], [50, 50]]])
    for row in x[:20]:
        ev = net.evaluate(row, [(3,), (7, 9)])
        with torch.no_grad():
            feats, value = model(torch.from_numpy(row)[None])
            logits = candidate_logits(feats, cand)[0]
        assert abs(ev.logits[0] - float(logits[0])) < 1e-5
        assert abs(ev.logits[1] - float(logits[1])) < 1e-5
        assert logits[2] == -float("inf")
        assert abs(ev.margin - float(torch.tanh(value[0, 0]))) < 1e-5
        assert abs(ev.win - float(torch.sigmoid(value[0, 1]))) < 1e-5


def test_numpy_cards_head_equals_torch() -> None:
    """The cards head (``wc``, ``bc``) reads the same in numpy; a net without it says so."""
    from mazo.nets import NetError
    from mazo.train.fit import Model, export

    torch.manual_seed(1)
    model = Model(262, 32, 50, cards=40)
    arrays = export(model)
    assert set(arrays) == {"w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv", "wc", "bc"}
    net = PolicyValueNet(arrays)
    x = (np.random.default_rng(1).random((50, 262)) < 0.1).astype(np.float32)
    with torch.no_grad():
        want = model.card_logits(torch.from_numpy(x)).numpy()
    assert net.cards == 40 and np.abs(net.card_logits(x) - want).max() < 1e-5
    assert np.abs(net.card_logits(x[3]) - want[3]).max() < 1e-5
    without = PolicyValueNet({k: v for k, v in arrays.items() if k not in ("wc", "bc")})
    with pytest.raises(NetError, match="no cards head"):
        without.card_logits(x)
    with pytest.raises(NetError, match="both wc and bc"):
        PolicyValueNet({k: v for k, v in arrays.items() if k != "bc"})
    with pytest.raises(NetError, match="weights wc have shape"):
        PolicyValueNet({**arrays, "wc": arrays["wc"][:5]})


def test_a_cards_head_learns_what_its_input_says_about_the_cards() -> None:
    """The cards head's training on rows whose held cards are a plain function of the
    input (a card is held where its input bit is set, the other bits noise): on the
    held-out matches it ranks the held cards first and beats each card's base rate by
    far.  (What the shipped head learns from real play is measured in docs/nets.md.)"""
    from mazo.train.data import Dataset
    from mazo.train.fit import Config, train

    rng = np.random.default_rng(3)
    n = 6000
    x = (rng.random((n, 80)) < 0.3).astype(np.float32)
    held = (x[:, :40] > 0).astype(np.uint8)
    data = Dataset(
        x=x,
        cand=np.tile(np.array([[[0], [1]]], dtype=np.int32), (n, 1, 1)),
        target=rng.integers(0, 2, n),
        margin=np.zeros(n, np.float32),
        win=np.full(n, 0.5, np.float32),
        match=np.arange(n, dtype=np.int32) // 60,
        pad=2,
        deals=n // 60,
        matches=n // 60,
        held=held,
    )
    config = Config(epochs=4, hidden=64, seed=1, batch=64, lr=0.01, cards_weight=1.0)
    result = train(data, config)
    val = result.validation
    assert val["cards_recall"] > 0.9
    assert val["cards_bce"] < 0.3 * val["cards_bce_baseline"]
    with pytest.raises(ValueError, match="cards_weight needs data"):
        data.held = None
        train(data, Config(epochs=1, cards_weight=1.0))


@pytest.mark.parametrize(
    ("game_name", "players"),
    [("briscola", 2), ("briscola", 4), ("escoba", 2), ("envite", 4), ("trionfetti", 4)],
)
def test_the_shipped_nets_read_the_same_in_numpy_and_torch(game_name: str, players: int) -> None:
    from mazo.train.fit import Model, export, load_arrays

    game = mazo.load_game(game_name, players=players)
    net = load_net(game).net
    model = Model(net.inputs, net.hidden, net.features)
    load_arrays(model, net.w)
    assert all(np.array_equal(a, net.w[k]) for k, a in export(model).items())
    data = self_play(game, deals=3, seed=8)
    with torch.no_grad():
        tf, tv = model(torch.from_numpy(data.x))
    nf, nv = net.forward(data.x)
    # float32 sums in another order: within 1e-5, relative to the logit where it exceeds 1
    assert np.allclose(nf, tf.numpy(), rtol=1e-5, atol=1e-5)
    assert np.allclose(nv, tv.numpy(), rtol=1e-5, atol=1e-5)


def test_advantages_are_centred_on_the_valid_moves() -> None:
    from mazo.train.fit import advantages

    values = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.0, 9.0]])
    valid = torch.tensor([[True, True, True], [True, True, False]])
    assert advantages(values, valid).tolist() == [[-1.0, 0.0, 1.0], [2.0, -2.0, 0.0]]


def test_a_value_trained_head_learns_the_moves_advantages() -> None:
    """Trained on values per candidate, the policy head's logits fit the advantages
    better than predicting none, and validation says so."""
    from mazo.bots.levels import make_level
    from mazo.train.fit import Config, train

    game = mazo.load_game("briscola", players=2)
    judge = make_level("expert", game, 5, iterations=1)
    data = self_play(game, deals=40, seed=6, values=judge.world_values)  # type: ignore[attr-defined]
    result = train(data, Config(epochs=3, hidden=32, seed=1, batch=64))
    first, last = result.history[0], result.history[-1]
    assert last["policy_loss"] < first["policy_loss"]
    val = result.validation
    assert {"q_mse", "q_mse_baseline", "q_gain_over_teacher", "q_gain_best"} <= set(val)
    assert val["q_gain_best"] >= val["q_gain_over_teacher"]


def test_a_resumed_value_run_keeps_the_best_epoch_from_before_it_was_stopped(
    tmp_path: Path,
) -> None:
    """A run killed after its best epoch and resumed ends as an uninterrupted one: the
    same best epoch and the same weights (the best was once forgotten on resume)."""
    from mazo.bots.levels import make_level
    from mazo.train.fit import Config, train

    game = mazo.load_game("briscola", players=2)
    judge = make_level("expert", game, 5, iterations=1)
    data = self_play(game, deals=40, seed=6, values=judge.world_values)  # type: ignore[attr-defined]
    config = Config(epochs=6, hidden=32, seed=1, batch=64)
    whole = train(data, config)
    best = int(whole.validation["best_epoch"])
    assert best < config.epochs  # later epochs overfit: the case a resume could lose

    class Killed(Exception):
        pass

    per_epoch = -(-int(whole.train_rows) // config.batch)

    def kill(done: int, _total: int) -> None:
        if done > best * per_epoch:  # in the epoch after the best, its checkpoint saved
            raise Killed

    checkpoint = tmp_path / "run.ckpt.pt"
    with pytest.raises(Killed):
        train(data, config, checkpoint=checkpoint, progress=kill)
    resumed = train(data, config, checkpoint=checkpoint, resume=True)
    assert len(resumed.history) == config.epochs
    assert resumed.validation == whole.validation
    a, b = whole.model.state_dict(), resumed.model.state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)


def _train(argv: list[str]) -> int:
    from mazo.cli import train

    parser = argparse.ArgumentParser(prog="mazo")
    train.add_parser(parser.add_subparsers(dest="command"))
    return train.run(parser.parse_args(["train", *argv]))


def test_a_tiny_run_end_to_end_twice_gives_the_same_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = ["escoba", "-n", "2", "--deals", "6", "--epochs", "2", "--hidden", "16", "--seed", "3"]
    for run in ("a", "b"):
        assert _train([*flags, "--out", str(tmp_path / run), "--json"]) == 0
    # the self-play in two processes: the same data, so the same weights
    assert _train([*flags, "--workers", "2", "--out", str(tmp_path / "c"), "--json"]) == 0
    with (
        np.load(tmp_path / "a" / "escoba-2p.npz") as a,
        np.load(tmp_path / "c" / "escoba-2p.npz") as c,
    ):
        assert all(np.array_equal(a[k], c[k]) for k in a.files)
    summary = json.loads(capsys.readouterr().out.split("\n}\n")[0] + "\n}")
    assert summary["numpy_vs_torch_max_diff"] < 1e-5 and summary["deals"] == 6
    with (
        np.load(tmp_path / "a" / "escoba-2p.npz") as a,
        np.load(tmp_path / "b" / "escoba-2p.npz") as b,
    ):
        assert sorted(a.files) == sorted(b.files)
        assert all(np.array_equal(a[k], b[k]) for k in a.files)
    record = json.loads((tmp_path / "a" / "escoba-2p.json").read_text())["record"]
    assert record["command"].startswith("mazo train escoba --players 2 --deals 6 --epochs 2")
    assert record["seed"] == 3 and record["epochs"] == 2 and len(record["history"]) == 2
    assert (tmp_path / "a" / "escoba-2p.ckpt.pt").is_file()
    # the written net plays
    game = mazo.load_game("escoba", players=2)
    net = load_net(game, tmp_path / "a")
    state = game.new_match(seed=1)
    legal, _ = net.evaluate(state.observation(state.to_act))
    assert legal == state.legal_actions()
    # --resume with the same settings continues from the finished checkpoint: same weights
    assert _train([*flags, "--out", str(tmp_path / "a"), "--resume", "--json"]) == 0
    with (
        np.load(tmp_path / "a" / "escoba-2p.npz") as a,
        np.load(tmp_path / "b" / "escoba-2p.npz") as b,
    ):
        assert all(np.array_equal(a[k], b[k]) for k in a.files)


def test_a_rollouts_teacher_is_recorded(tmp_path: Path) -> None:
    flags = ["briscola", "--deals", "30", "--epochs", "1", "--hidden", "8", "--seed", "2"]
    assert _train([*flags, "--teacher", "rollouts", "--out", str(tmp_path), "--json"]) == 0
    record = json.loads((tmp_path / "briscola-4p.json").read_text())["record"]
    assert record["teacher"] == "rollouts" and record["policy"] == "advantage"
    assert "--teacher rollouts" in record["command"]
    assert "q_gain_over_teacher" in record["validation"]
    assert 1 <= record["validation"]["best_epoch"] <= 1


def test_a_mix_is_recorded(tmp_path: Path) -> None:
    flags = ["briscola", "-n", "2", "--deals", "6", "--epochs", "1", "--hidden", "8"]
    more = ["--mix", "random=0.5", "--mix", "easy=0.25", "--out", str(tmp_path), "--json"]
    assert _train([*flags, *more]) == 0
    record = json.loads((tmp_path / "briscola-2p.json").read_text())["record"]
    assert record["mix"] == [["random", 0.5], ["easy", 0.25]]
    assert "--mix random=0.5 --mix easy=0.25" in record["command"]


def test_the_self_play_bot_is_recorded(tmp_path: Path) -> None:
    flags = ["briscola", "-n", "2", "--deals", "2", "--epochs", "1", "--hidden", "8"]
    more = ["--bot", "hard:iterations=3", "--out", str(tmp_path), "--json"]
    assert _train([*flags, *more]) == 0
    record = json.loads((tmp_path / "briscola-2p.json").read_text())["record"]
    assert record["bot"] == "hard:iterations=3" and record["policy"] == "imitation"
    assert "--bot hard:iterations=3 --teacher normal" in record["command"]


def test_a_search_teacher_is_recorded(tmp_path: Path) -> None:
    flags = ["briscola", "--deals", "30", "--epochs", "2", "--hidden", "8", "--seed", "2"]
    more = ["--teacher", "search", "--teacher-iterations", "6", "--out", str(tmp_path)]
    assert _train([*flags, *more, "--json"]) == 0
    record = json.loads((tmp_path / "briscola-4p.json").read_text())["record"]
    assert record["teacher"] == "search" and record["teacher_iterations"] == 6
    assert record["policy"] == "advantage"
    assert "--teacher search --teacher-iterations 6" in record["command"]
    assert record["validation"]["best_epoch"] in (1.0, 2.0)


def test_a_run_can_start_from_a_net(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--init``: a run starts from the net given (with a step too small to move it,
    its weights come back as they were; a fresh start's do not), and a layout mismatch
    is refused."""
    flags = ["briscola", "-n", "2", "--deals", "30", "--epochs", "1", "--seed", "2", "--lr", "1e-9"]
    assert _train([*flags, "--init", "shipped", "--out", str(tmp_path / "a"), "--json"]) == 0
    assert _train([*flags, "--out", str(tmp_path / "b"), "--json"]) == 0
    capsys.readouterr()
    game = mazo.load_game("briscola", players=2)
    shipped, started = load_net(game).net, load_net(game, tmp_path / "a").net
    # the heads this run trains start as the shipped ones (a cards head the run does
    # not train is left out)
    assert set(started.w) <= set(shipped.w) and {"w1", "wp", "wv"} <= set(started.w)
    assert all(np.allclose(shipped.w[k], started.w[k], atol=1e-6) for k in started.w)
    fresh = load_net(game, tmp_path / "b").net
    assert not np.allclose(shipped.w["w1"], fresh.w["w1"], atol=1e-3)
    record = json.loads((tmp_path / "a" / "briscola-2p.json").read_text())["record"]
    assert record["init"] == "shipped" and "--init shipped" in record["command"]
    assert _train([*flags, "--init", "shipped", "--hidden", "16", "--out", str(tmp_path)]) == 2
    assert "pass --hidden 128" in capsys.readouterr().err


def test_an_action_context_run_is_recorded_loads_and_can_grow_a_plain_net(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--action-context``: the net has the context features (kind and size in its
    record, the flag in its command), loads and plays; a plain net given as ``--init``
    starts it with those features at zero; the other way, and a game without them, are
    refused."""
    flags = ["escoba", "-n", "2", "--deals", "4", "--epochs", "1", "--hidden", "16", "--seed", "2"]
    assert _train([*flags, "--out", str(tmp_path / "plain"), "--json"]) == 0
    more = ["--action-context", "--lr", "1e-9", "--init", str(tmp_path / "plain")]
    assert _train([*flags, *more, "--out", str(tmp_path / "ctx"), "--json"]) == 0
    capsys.readouterr()
    game = mazo.load_game("escoba", players=2)
    plain, grown = load_net(game, tmp_path / "plain"), load_net(game, tmp_path / "ctx")
    assert (plain.actions.kind, grown.actions.kind) == ("cards", "cards+context")
    assert grown.net.features == plain.net.features + 12
    assert np.allclose(grown.net.w["wp"][:, :89], plain.net.w["wp"], atol=1e-6)
    assert np.allclose(grown.net.w["wp"][:, 89:], 0.0, atol=1e-6)
    # with the new columns at zero the grown net plays the plain one's logits
    state = game.new_match(seed=5)
    obs = state.observation(state.to_act)
    (legal_a, ev_a), (legal_b, ev_b) = plain.evaluate(obs), grown.evaluate(obs)
    assert legal_a == legal_b and np.allclose(ev_a.logits, ev_b.logits, atol=1e-4)
    record = json.loads((tmp_path / "ctx" / "escoba-2p.json").read_text())
    assert record["action_features"] == {"kind": "cards+context", "size": 101}
    assert "--action-context --init" in record["record"]["command"]
    back = ["--init", str(tmp_path / "ctx"), "--out", str(tmp_path / "x")]
    assert _train([*flags, *back]) == 2
    assert "trained with more context features, so pass the flag" in capsys.readouterr().err
    assert _train(["briscola", "-n", "2", "--action-context", "--out", str(tmp_path / "y")]) == 2
    err = capsys.readouterr().err
    assert "--action-context: briscola has no action context features (escoba has)" in err


def test_a_heuristic_context_run_grows_a_context_net_and_reads_normals_judgement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--heuristic-context``: 112 action features (the context net's 101 and the
    heuristic's 11, which start at zero from ``--init``), recorded, loaded and played."""
    flags = ["escoba", "-n", "2", "--deals", "4", "--epochs", "1", "--hidden", "16", "--seed", "2"]
    assert _train([*flags, "--action-context", "--out", str(tmp_path / "ctx"), "--json"]) == 0
    more = ["--heuristic-context", "--lr", "1e-9", "--init", str(tmp_path / "ctx")]
    assert _train([*flags, *more, "--out", str(tmp_path / "view"), "--json"]) == 0
    capsys.readouterr()
    game = mazo.load_game("escoba", players=2)
    ctx, view = load_net(game, tmp_path / "ctx"), load_net(game, tmp_path / "view")
    assert view.actions.kind == "cards+context+heuristic" and view.net.features == 112
    assert np.allclose(view.net.w["wp"][:, :101], ctx.net.w["wp"], atol=1e-6)
    assert np.allclose(view.net.w["wp"][:, 101:], 0.0, atol=1e-6)
    state = game.new_match(seed=5)
    obs = state.observation(state.to_act)
    (legal_a, ev_a), (legal_b, ev_b) = ctx.evaluate(obs), view.evaluate(obs)
    assert legal_a == legal_b and np.allclose(ev_a.logits, ev_b.logits, atol=1e-4)
    record = json.loads((tmp_path / "view" / "escoba-2p.json").read_text())
    assert record["action_features"] == {"kind": "cards+context+heuristic", "size": 112}
    assert "--heuristic-context --init" in record["record"]["command"]
    assert "--action-context" not in record["record"]["command"]
    back = ["--action-context", "--init", str(tmp_path / "view"), "--out", str(tmp_path / "x")]
    assert _train([*flags, *back]) == 2
    assert "trained with more context features" in capsys.readouterr().err
    assert _train(["briscola", "-n", "2", "--heuristic-context", "--out", str(tmp_path / "y")]) == 2
    err = capsys.readouterr().err
    assert "--heuristic-context: briscola has no action context features" in err


def test_heuristic_context_names_normals_best_moves_and_how_far_below_the_rest_fall() -> None:
    """Every candidate of the self-play has one rank and one gap feature; ``normal``'s
    own move (the target: it plays the self-play) is always one it ranks best; and both
    features are what the heuristic's scores of the position say."""
    from mazo.bots.heuristic import make_heuristic
    from mazo.nets.actions import GAPS, HEURISTIC, RANKS

    game = mazo.load_game("escoba", players=2)
    data = self_play(game, deals=6, seed=6, context=HEURISTIC)
    assert data.pad == 112
    valid = data.cand[:, :, 0] != 112
    ranks = ((data.cand >= 101) & (data.cand < 101 + RANKS)).sum(axis=2)
    gaps = ((data.cand >= 101 + RANKS) & (data.cand < 112)).sum(axis=2)
    assert (ranks[valid] == 1).all() and (gaps[valid] == 1).all()
    assert (ranks[~valid] == 0).all() and (gaps[~valid] == 0).all()
    chosen = data.cand[np.arange(len(data)), data.target]
    assert (chosen == 101).any(axis=1).all()  # rank 0: one of the heuristic's best moves
    features = ActionFeatures(game, context=HEURISTIC)
    with pytest.raises(mazo.RulesError, match=r"action context 3: 0, 1 \(the game's\) or 2"):
        ActionFeatures(game, context=3)
    scorer: Any = make_heuristic(game, 0)
    state, seen = game.new_match(seed=8), 0
    bot = mazo.make_bot("normal", game, seed=1)
    while not state.match_over and seen < 40:
        obs = state.observation(state.to_act)
        legal = [game.string_to_action(t) for t in obs["legal_actions"]]
        if len(legal) > 1:
            seen += 1
            scores = scorer.scores(obs)
            mine = [scores[game.action_to_string(a)] for a in legal]
            for row, score in zip(features.of_legal(obs, legal), mine, strict=True):
                rank, gap = row[-2] - 101, row[-1] - 101 - RANKS
                assert rank == min(sum(s > score + 1e-9 for s in mine), RANKS - 1)
                assert gap == sum((max(mine) - score) > g for g in GAPS)
        state = state.apply(bot.choose(obs))
    assert seen == 40


def test_context_self_play_in_worker_processes_is_the_same_data() -> None:
    game = mazo.load_game("escoba", players=2)
    one = self_play(game, deals=4, seed=6, context=True)
    two = self_play(game, deals=4, seed=6, context=True, workers=2)
    assert one.pad == two.pad == 101 and np.array_equal(one.cand, two.cand)
    assert np.array_equal(one.x, two.x) and np.array_equal(one.target, two.target)
    # every candidate has exactly one context feature (89..100); empty slots none
    valid = one.cand[:, :, 0] != 101
    context = ((one.cand >= 89) & (one.cand < 101)).sum(axis=2)
    assert valid.any() and (context[valid] == 1).all() and (context[~valid] == 0).all()


def test_a_net_with_neither_feature_count_is_refused(tmp_path: Path) -> None:
    from mazo.nets import NetError, feature_kinds

    game = mazo.load_game("escoba", players=2)
    assert [(k.kind, k.size) for k in feature_kinds(game)] == [
        ("cards", 89),
        ("cards+context", 101),
        ("cards+context+heuristic", 112),
    ]
    assert [k.size for k in feature_kinds(mazo.load_game("briscola", players=2))] == [50]
    src = load_net(game)
    arrays = dict(src.net.w)
    # 95 columns: the fixed features' 89 and 6 more, neither layout
    arrays["wp"] = np.concatenate([arrays["wp"][:, :89], np.zeros((128, 6), np.float32)], axis=1)
    arrays["bp"] = np.concatenate([arrays["bp"][:89], np.zeros(6, np.float32)])
    np.savez(tmp_path / "escoba-2p.npz", **arrays)
    (tmp_path / "escoba-2p.json").write_text(json.dumps(src.meta))
    with pytest.raises(
        NetError,
        match=r"escoba-2p\.npz: this net has 95 action features; escoba needs 89 or 101 or 112",
    ):
        load_net(game, tmp_path)


def test_a_cards_run_is_recorded_and_its_head_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = ["briscola", "-n", "2", "--deals", "8", "--epochs", "1", "--hidden", "16"]
    assert _train([*flags, "--cards-weight", "0.5", "--out", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["numpy_vs_torch_max_diff"] < 1e-5
    assert "cards_recall" in summary["validation"]
    record = json.loads((tmp_path / "briscola-2p.json").read_text())["record"]
    assert record["cards_weight"] == 0.5 and "--cards-weight 0.5" in record["command"]
    game = mazo.load_game("briscola", players=2)
    net = load_net(game, tmp_path)
    assert net.net.cards == 40
    probs = net.opponent_cards(game.new_match(seed=2).observation(0))
    assert len(probs) == 40 and all(0 < p < 1 for p in probs)
    assert _train([*flags, "--cards-weight", "-1", "--out", str(tmp_path)]) == 2
    assert "--cards-weight must be a number >= 0" in capsys.readouterr().err
    # A head by seat: four players, three rows of the deck, recorded and repeatable
    four = ["briscola", "-n", "4", "--deals", "4", "--epochs", "1", "--hidden", "16"]
    seats = tmp_path / "seats"
    assert _train([*four, "--cards-weight", "0.5", "--cards-by-seat", "--out", str(seats)]) == 0
    record = json.loads((seats / "briscola-4p.json").read_text())["record"]
    assert record["cards_by_seat"] is True and "--cards-by-seat" in record["command"]
    game4 = mazo.load_game("briscola", players=4)
    assert load_net(game4, seats).net.cards == 120
    assert _train([*four, "--cards-by-seat", "--out", str(seats)]) == 2
    assert "give --cards-weight too" in capsys.readouterr().err


def test_the_recorded_cpu_seconds_count_ended_child_processes() -> None:
    """With ``--workers`` the self-play's CPU is spent in other processes: the record's
    CPU seconds count them once they have ended (a child that burns 0.3 s of CPU)."""
    import subprocess
    import sys

    from mazo.cli.train import _cpu

    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass"
    before = _cpu()
    subprocess.run([sys.executable, "-c", burn], check=True)
    assert _cpu() - before >= 0.29


def test_bad_flags_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert _train(["briscola", "--deals", "0"]) == 2
    assert "--deals must be at least 1" in capsys.readouterr().err
    assert _train(["briscola", "--teacher", "search", "--teacher-iterations", "0"]) == 2
    assert "--teacher-iterations must be at least 1" in capsys.readouterr().err
    assert _train(["briscola", "-n", "5"]) == 2
    assert "error" in capsys.readouterr().err
    assert _train(["briscola", "--workers", "0"]) == 2
    assert "--workers must be at least 1, not 0" in capsys.readouterr().err
    assert _train(["briscola", "--mix", "random"]) == 2
    assert "--mix 'random': write BOT=SHARE" in capsys.readouterr().err
    assert _train(["briscola", "--mix", "random=1.5"]) == 2
    assert "at most 1 (e.g. random=0.25)" in capsys.readouterr().err
    assert _train(["briscola", "--mix", "chess=0.2"]) == 2
    assert "--mix: no bot 'chess'; bots are: easy" in capsys.readouterr().err
    assert _train(["briscola", "--bot", "chess"]) == 2
    assert "--bot 'chess': no bot 'chess'; bots are: easy" in capsys.readouterr().err
    # Options are checked, and a clock refused, before torch and the self-play start.
    assert _train(["briscola", "--bot", "expert:foo=1"]) == 2
    assert "--bot 'expert:foo=1': bot 'ismcts' has no option foo" in capsys.readouterr().err
    assert _train(["briscola", "--bot", "expert"]) == 2
    err = capsys.readouterr().err
    assert "--bot 'expert': it thinks for a time budget" in err and "expert:iterations=100" in err
    assert _train(["briscola", "--mix", "hard=0.2"]) == 2
    assert "--mix 'hard': it thinks for a time budget" in capsys.readouterr().err
    assert _train(["briscola", "--mix", "random=0.6", "--mix", "easy=0.5"]) == 2
    assert (
        "--mix: the mix's shares add up to more than 1 (random=0.6, easy=0.5)"
        in capsys.readouterr().err
    )


def test_the_record_names_the_commit_as_it_was_before_the_weights_were_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Retraining a shipped net writes over tracked files: the commit is read before
    that, so the record does not call the code that made the net changed."""
    from mazo.cli import train

    out = tmp_path / "weights"

    def commit() -> str:
        return "abc+dirty" if (out / "briscola-4p.npz").exists() else "abc"

    monkeypatch.setattr(train, "_git_commit", commit)
    flags = ["briscola", "--deals", "4", "--epochs", "1", "--hidden", "8", "--out", str(out)]
    assert _train([*flags, "--json"]) == 0
    assert json.loads((out / "briscola-4p.json").read_text())["record"]["git_commit"] == "abc"
