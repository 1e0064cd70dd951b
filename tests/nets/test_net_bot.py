"""The shipped nets and the net bot: every game has a net within the size budget and a
record of how it was made; the bot plays only legal moves on thousands of random
positions a game; it reads nothing hidden (a determinized sample of its observation
gives the same choice); loading errors say what is wrong."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mazo
from mazo.bots import make_bot
from mazo.bots.net import NetBot, make
from mazo.core.errors import RulesError
from mazo.core.rng import Rng
from mazo.env.encoding import Encoder
from mazo.nets import WEIGHTS, NetError, load_net, net_stem, shipped

SHIPPED = {"briscola": (2, 4), "escoba": (2,), "envite": (4, 8), "trionfetti": (4,)}
SHIPPED_NETS = [(game, n) for game, counts in SHIPPED.items() for n in counts]


def _stem(game: str, players: int) -> str:
    """A shipped net's file name: the game and the count it covers."""
    return f"{game}-{players}p"


POSITIONS = 2000  # a game, at the least
RECORD_KEYS = {
    "command",
    "seed",
    "deals",
    "decisions",
    "epochs",
    "losses",
    "validation",
    "git_commit",
    "date",
}


def test_every_game_ships_a_net_within_the_budget_with_its_record() -> None:
    assert shipped() == SHIPPED
    for game, counts in SHIPPED.items():  # the budget is a game's, all its counts
        size = sum((WEIGHTS / f"{_stem(game, n)}.npz").stat().st_size for n in counts)
        assert size <= 2_000_000, game
    for game, players in SHIPPED_NETS:
        weights = WEIGHTS / f"{_stem(game, players)}.npz"
        meta = json.loads((WEIGHTS / f"{_stem(game, players)}.json").read_text())
        assert meta["players"] == players and meta["game"] == game
        assert set(meta["record"]) >= RECORD_KEYS, game
        assert meta["record"]["command"].startswith(f"mazo train {game} ")
        with np.load(weights) as data:
            assert all(data[k].dtype == np.float32 for k in data.files)


@pytest.mark.parametrize(("game_name", "players"), SHIPPED_NETS)
def test_net_bot_plays_only_legal_moves_and_reads_nothing_hidden(
    game_name: str, players: int
) -> None:
    game = mazo.load_game(game_name, players=players)
    bot = NetBot(game, seed=1)
    twin = NetBot(game, seed=1)
    encoder = Encoder(game)
    rng = Rng(5)
    asked = sampled = 0
    match = 0
    while asked < POSITIONS:
        state = game.new_match(seed=1000 + match)
        match += 1
        while not state.match_over and state.to_act is not None:
            seat = state.to_act
            obs = state.observation(seat)
            choice = bot.choose(obs)
            assert choice in state.legal_actions(), (game_name, obs)
            asked += 1
            if asked % 4 == 0:  # a determinized sample looks the same to the seat
                sample = game.determinize(obs, rng)
                seen = sample.observation(seat)
                assert np.array_equal(encoder.encode(seen), encoder.encode(obs))
                assert twin.choose(seen) == choice
                sampled += 1
            # random play with the net's moves mixed in: positions a net alone never makes
            action = choice if rng.random() < 0.5 else rng.choice(state.legal_actions())
            state = state.apply(action, seat=seat)
            if asked >= POSITIONS:
                break
    assert sampled >= POSITIONS // 4


def test_temperature_draws_from_the_seeded_generator() -> None:
    game = mazo.load_game("briscola", players=2)
    state = game.new_match(seed=3)
    obs = state.observation(state.to_act)
    draws = [NetBot(game, seed=9, temperature=5.0).choose(obs) for _ in range(3)]
    assert len(set(draws)) == 1  # the same seed, the same draw
    spread = {make(game, seed=s, temperature=50.0).choose(obs) for s in range(40)}
    assert spread <= set(state.legal_actions()) and len(spread) > 1


def test_the_value_head_reads_the_seat_side() -> None:
    game = mazo.load_game("briscola", players=2)
    net = load_net(game)
    state = game.new_match(seed=11)
    legal, ev = net.evaluate(state.observation(state.to_act))
    assert legal == state.legal_actions()
    assert -1.0 <= ev.margin <= 1.0 and 0.0 <= ev.win <= 1.0
    assert abs(sum(ev.probabilities()) - 1.0) < 1e-9


def test_another_player_count_is_refused_with_how_to_train_one() -> None:
    game = mazo.load_game("envite", players=6)
    with pytest.raises(
        NetError, match=r"envite nets were trained for 4/8 players, not 6.*mazo train envite"
    ):
        NetBot(game, seed=0)
    with pytest.raises(
        RulesError, match="shipped briscola nets were trained for 2/4 players, not 6"
    ):
        make_bot("mazo.bots.net:make", mazo.load_game("briscola", players=6), seed=0)


def test_each_player_count_loads_its_own_net(tmp_path: Path) -> None:
    """A game's nets for several counts, each file named for its count
    (``<game>-<N>p.npz``), shipped or in a folder: each count gets the net trained for
    it; a folder from before the count was in the name (``<game>.npz``) still loads for
    the count its record says; a file named for one count whose record says another is
    refused, not served."""
    two, four = (mazo.load_game("briscola", players=n) for n in (2, 4))
    assert load_net(two).meta["players"] == 2 and load_net(four).meta["players"] == 4
    assert load_net(four).net.inputs == Encoder(four).size != Encoder(two).size
    assert (net_stem("briscola", 4), net_stem("envite", 8)) == ("briscola-4p", "envite-8p")
    both, old = tmp_path / "both", tmp_path / "old"
    both.mkdir(), old.mkdir()
    for stem in ("briscola-2p", "briscola-4p"):
        for ext in (".npz", ".json"):
            shutil.copy(WEIGHTS / f"{stem}{ext}", both / f"{stem}{ext}")
            if stem == "briscola-2p":  # the name mazo train wrote before
                shutil.copy(WEIGHTS / f"{stem}{ext}", old / f"briscola{ext}")
    assert load_net(four, both).meta["players"] == 4
    assert load_net(two, both).meta["players"] == 2
    assert load_net(two, old).meta["players"] == 2
    with pytest.raises(NetError, match=r"no net for briscola at 6 players in .*briscola-6p\.npz"):
        load_net(mazo.load_game("briscola", players=6), both)
    with pytest.raises(NetError, match=r"briscola\.npz was trained for 2 players, not 4"):
        load_net(four, old)
    for ext in (".npz", ".json"):  # the two-player net under the four-player name
        shutil.copy(WEIGHTS / f"briscola-2p{ext}", both / f"briscola-4p{ext}")
    with pytest.raises(NetError, match="trained for 2 players, not 4"):
        load_net(four, both)


def test_loading_errors_are_clear(tmp_path: Path) -> None:
    game = mazo.load_game("briscola", players=2)
    with pytest.raises(NetError, match=r"no net for briscola at 2 players in .*briscola-2p"):
        load_net(game, tmp_path)
    with pytest.raises(NetError, match="no net file"):
        load_net(game, tmp_path / "missing.npz")
    with pytest.raises(NetError, match="configured game"):
        load_net("briscola")  # type: ignore[arg-type]
    # a record missing, then a damaged weights file, then another game's net
    shutil.copy(WEIGHTS / "briscola-2p.npz", tmp_path / "briscola.npz")
    with pytest.raises(NetError, match=r"no record briscola\.json"):
        load_net(game, tmp_path)
    shutil.copy(WEIGHTS / "briscola-2p.json", tmp_path / "briscola.json")
    assert load_net(game, tmp_path / "briscola.npz").net.inputs == Encoder(game).size
    (tmp_path / "briscola.npz").write_bytes(b"not a zip")
    with pytest.raises(NetError, match=r"cannot read briscola\.npz"):
        load_net(game, tmp_path)
    shutil.copy(WEIGHTS / "escoba-2p.npz", tmp_path / "briscola.npz")
    shutil.copy(WEIGHTS / "escoba-2p.json", tmp_path / "briscola.json")
    with pytest.raises(NetError, match="is a net for 'escoba', not briscola"):
        load_net(game, tmp_path)
    (tmp_path / "briscola.json").write_text("{")
    with pytest.raises(NetError, match="not valid JSON"):
        load_net(game, tmp_path)
    # the layout changes with the rules options
    scoperta = mazo.load_game("briscola", players=2, open_variant="scoperta")
    with pytest.raises(
        NetError, match=r"reads vectors of 262 but .* encodes 302 \(other rules options"
    ):
        load_net(scoperta)
    with pytest.raises(RulesError, match="no option colour"):
        NetBot(game, seed=0, colour=1)
    with pytest.raises(RulesError, match="temperature"):
        NetBot(game, seed=0, temperature=-1)


def test_playing_a_net_imports_no_torch() -> None:
    code = (
        "import sys, mazo\n"
        "import mazo.cli.train\n"
        "from mazo.bots.net import NetBot\n"
        "g = mazo.load_game('briscola', players=2)\n"
        "b = NetBot(g, seed=1)\n"
        "s = g.new_match(seed=1)\n"
        "while not s.match_over: s = s.apply(b.choose(s.observation(s.to_act)), seat=s.to_act)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'torch')[:3])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == "[]"


def test_the_net_bot_plays_a_per_deal_tournament_as_a_plugin() -> None:
    from mazo.sim.tournament import run_tournament

    spec = "mazo.bots.net:make:temperature=0"
    result = run_tournament("briscola", [spec, "random"], games=3, players=2, seed=2, unit="deal")
    per_deal = result.to_json()["totals"][spec]["per_deal"]
    assert per_deal["deals"] == 6
